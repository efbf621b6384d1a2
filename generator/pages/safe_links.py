"""A Python-Markdown extension (listed in mkdocs.yml): links go only to http(s) and relative
addresses, and no element keeps an event-handler attribute.

Record prose is Markdown, so `[x](javascript:…)` or `[x](data:…)` would be a real link;
validation rejects them (records/prose.py), and this is the render-time guarantee for every
page, hand-written ones included. A link to anywhere else becomes its plain text.
"""
from markdown import Extension
from markdown.treeprocessors import Treeprocessor

from ..records.prose import safe_url

URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href")


class SafeLinks(Treeprocessor):
    def run(self, root):
        for element in root.iter():
            for name in [n for n in element.attrib if n.lower().startswith("on")]:
                del element.attrib[name]
            unsafe = [n for n in URL_ATTRIBUTES if n in element.attrib and not safe_url(element.attrib[n])]
            if element.tag == "a" and unsafe:
                element.tag = "span"
                element.attrib.clear()
            for name in unsafe:
                element.attrib.pop(name, None)


class SafeLinksExtension(Extension):
    def extendMarkdown(self, md):
        # After the inline patterns (20) and attribute lists (8), before mkdocs rewrites relative links.
        md.treeprocessors.register(SafeLinks(md), "relref_safe_links", 1)


def makeExtension(**kwargs):
    return SafeLinksExtension(**kwargs)
