// mkdocs-material's inline bootstrap (partials/javascripts/base.html, 9.8.2), loaded as a file so
// the Content Security Policy can forbid inline scripts. The scope comes from the script tag.
__md_scope = new URL(document.currentScript.dataset.scope, location);
__md_hash = (e) => [...e].reduce((e, _) => (e << 5) - e + _.charCodeAt(0), 0);
__md_get = (e, _ = localStorage, t = __md_scope) => JSON.parse(_.getItem(t.pathname + "." + e));
__md_set = (e, _, t = localStorage, a = __md_scope) => {
  try { t.setItem(a.pathname + "." + e, JSON.stringify(_)); } catch (e) {}
};
