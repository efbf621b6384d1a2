// Renders a match result as DOM, and the texts the pages copy (Markdown, a development-set case,
// the "Wrong match?" issue). Pasted text only ever reaches the page through textContent and DOM
// nodes, never through innerHTML, so nothing pasted can run or change the page's markup.
// The order is the result contract's: the answer sentence first, then the candidates with their
// lines and causes, then the checks to run, then further reading apart (never numbered with them).
(function () {
  "use strict";

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  // Log lines and code hold long runs without spaces ("WorkNCCL(SeqNum=1580,"): the browser may
  // only break them mid-word. A <wbr> before an opening bracket and after other punctuation gives
  // it places to break that keep words whole; copying the text is unchanged (a <wbr> has no text).
  var BREAK = /[([{<]|[)\]}>\/\\.,;:=_|&?!+*@#-]+/g;

  function breakable(text) {
    var frag = document.createDocumentFragment(), pos = 0, m;
    BREAK.lastIndex = 0;
    while ((m = BREAK.exec(text)) !== null) {
      var opening = "([{<".indexOf(m[0]) !== -1, at = opening ? m.index : m.index + m[0].length;
      if (at > pos && at < text.length) {
        frag.appendChild(document.createTextNode(text.slice(pos, at)));
        frag.appendChild(document.createElement("wbr"));
        pos = at;
      }
    }
    frag.appendChild(document.createTextNode(text.slice(pos)));
    return frag;
  }

  function line(text, cls) {
    var mark = el("mark", { class: cls || "rr-line" });
    mark.appendChild(breakable(text));
    return mark;
  }

  // Inline code in pages (a path, a dotted exception name) gets the same break points; code
  // blocks scroll instead, and keep their text as it is. A signature's summary is one line cut
  // with an ellipsis (its full example opens below it), and Chromium breaks at a <wbr> even in
  // white-space: pre.
  function breakInlineCode(root) {
    (root || document).querySelectorAll(".md-typeset code:not(pre > code):not(.rr-sig-example > code):not([data-rr-breaks])").forEach(function (code) {
      code.dataset.rrBreaks = "1";
      if (code.children.length || code.textContent.length < 12) return;
      var text = code.textContent;
      code.textContent = "";
      code.appendChild(breakable(text));
    });
  }

  function copyButton(text, label) {
    var button = el("button", { type: "button", class: "md-button rr-copy", "aria-label": label, text: "Copy" });
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; }, function () { button.textContent = "Copy failed"; });
    });
    return button;
  }

  function lines(list) { return (list.length > 1 ? "lines " : "line ") + list.join(", "); }

  function whyItem(w) {
    if (w.kind === "signature") {
      var role = w.role === "cause" ? "names the fault" : "downstream symptom";
      var extra = w.stale ? ", stale" : w.shared ? ", shared with other references" : "";
      return el("li", {}, [el("span", { class: "rr-why-head", text: lines(w.lines) + ": " + w.signature + " (" + role + extra + ")" }),
                           line(w.text)]);
    }
    if (w.kind === "words") return el("li", { text: "Words: " + w.terms.join(", ") });
    return el("li", { class: w.fit ? "rr-fit" : "rr-conflict", text: (w.fit ? "Fits: " : "Against: ") + w.text });
  }

  function checkItem(c) {
    var what = c.command ? el("code", {}, [breakable(c.command)]) : el("span", { text: "Look at: " + c.observation });
    return el("li", { class: "rr-check" }, [
      el("a", { href: c.url, text: c.title }), " ",
      c.command ? copyButton(c.command, "Copy the command of " + c.title) : null,
      el("div", {}, [what]),
      el("div", { class: "rr-how", text: c.how_to_read }),
    ]);
  }

  function describeHints(h) {
    var parts = ["frameworks", "versions", "hardware", "environments"].map(function (k) { return (h[k] || []).join(", "); });
    if (h.scale) parts.push(h.scale + " GPUs");
    return parts.filter(Boolean).join("; ");
  }

  function conflicts(m) { return m.why.filter(function (w) { return w.kind === "context" && !w.fit; }); }

  function candidate(m, top) {
    var why = m.why.filter(function (w) { return !(top && w.kind === "context" && !w.fit); });
    var against = top ? conflicts(m) : [];
    return el("li", { class: "rr-result", "data-reference-id": m.id, "data-confidence": m.confidence }, [
      el("h3", {}, [el("a", { href: m.url, text: m.title }), " ", el("span", { class: "rr-badge rr-conf-" + m.confidence, text: m.confidence })]),
      against.length ? el("div", { class: "rr-conflicts", role: "note" }, [
        el("strong", { text: "The paste or context speaks against this match:" }),
        el("ul", {}, against.map(function (w) { return el("li", { text: w.text }); }))]) : null,
      m.causes.length ? el("ul", { class: "rr-causes" }, m.causes.map(function (c) {
        return el("li", {}, [el("span", { class: "rr-cause-label", text: "Cause: " }), c.title + (c.lines.length ? " (" + lines(c.lines) + ")" : "")]);
      })) : null,
      el("ul", { class: "rr-why" }, why.map(whyItem)),
      el("details", {}, [el("summary", { text: "Evidence checks for this reference" }), el("ul", {}, m.checks.map(checkItem))]),
    ]);
  }

  // The "Wrong match?" issue: reference ids, verdict, confidences and versions only. The pasted
  // text never goes into it (it would end up in a URL and on a public tracker).
  function reportUrl(repoUrl, r) {
    var ids = r.matches.map(function (m) { return m.id + " (" + m.confidence + ")"; });
    var body = [
      "The Match page's answer looks wrong.", "",
      "- Verdict: " + r.verdict,
      "- Candidates: " + (ids.join(", ") || "none"),
      "- Further reading: " + ((r.further_reading || []).map(function (m) { return m.id; }).join(", ") || "none"),
      "- Versions: engine " + r.engine_version + ", index " + r.index_version + ", result schema " + r.schema_version, "",
      "Which reference explains it, and how do you know?", "",
      "(The pasted text is not included. To share it, use \"Copy case\" on the Match page: it redacts IP addresses, " +
      "host names, home paths, tokens and e-mail addresses, and shows you the result before copying.)",
    ].join("\n");
    var title = "Wrong match: " + (r.matches.length ? r.matches[0].id : "nothing matched") + " (" + r.verdict + ")";
    return repoUrl.replace(/\/+$/, "") + "/issues/new?title=" + encodeURIComponent(title) + "&body=" + encodeURIComponent(body);
  }

  function reportLink(repoUrl, r) {
    if (!repoUrl) return null;
    return el("a", { class: "rr-wrong-match", href: reportUrl(repoUrl, r), target: "_blank", rel: "noopener noreferrer",
                     text: "Wrong match?" });
  }

  function repoUrl() {
    var panel = document.getElementById("rr-search-match");
    return panel && panel.dataset.repoUrl || "";
  }

  function result(container, answer) {
    var r = answer.result;
    container.textContent = "";
    var head = el("div", { class: "rr-answer-block" }, [
      el("p", { class: "rr-answer rr-banner " + (r.confident ? "rr-strong" : "rr-none"), text: r.answer }),
      r.confident ? el("p", { class: "rr-caveat", text: "A matching message alone does not confirm the cause: run the checks below." }) : null,
      reportLink(repoUrl(), r),
    ]);
    container.appendChild(head);
    if (answer.note) container.appendChild(el("p", { class: "rr-note", text: answer.note }));
    r.warnings.forEach(function (w) { container.appendChild(el("p", { class: "rr-warning", role: "note", text: "Warning: " + w.text })); });
    // The codes the paste prints, from the code tables: what each means and what to do, with its page.
    if ((r.codes || []).length) {
      container.appendChild(el("h2", { text: "Codes in this paste" }));
      container.appendChild(el("ul", { class: "rr-codes" }, r.codes.map(function (c) {
        return el("li", { class: "rr-code", "data-code": c.kind + ":" + c.code }, [
          el("a", { href: c.url, text: c.kind + " " + c.code }),
          c.name && c.name !== c.code ? " (" + c.name + ")" : "", ", " + lines(c.lines) + ": " + (c.gloss || ""),
          c.recovery ? " Recovery: " + c.recovery + "." : ""]);
      })));
    }

    if (r.matches.length) {
      container.appendChild(el("h2", { text: r.verdict === "none" ? "Closest references (nothing names a fault they cover)" : "Candidates" }));
      container.appendChild(el("ol", { class: "rr-results-list" }, r.matches.map(function (m, i) { return candidate(m, i === 0); })));
    }
    (r.findings || []).forEach(function (f, i) {
      if (i === 0) container.appendChild(el("h2", { text: "Separate failures in this paste" }));
      container.appendChild(el("p", { class: "rr-finding", text: f.answer + " (" + lines(f.lines) + ")" }));
    });
    if (r.next_checks.length) {
      container.appendChild(el("h2", { text: r.verdict === "ambiguous" && r.matches.length > 1 ?
        "Checks that tell the candidates apart" : "Checks to run next" }));
      container.appendChild(el("ol", { class: "rr-checks" }, r.next_checks.map(checkItem)));
    }
    var read = describeHints(r.hints || {});
    if (read) container.appendChild(el("p", { class: "rr-hints", text: "Read from the paste and context: " + read + "." }));
    (r.readings || []).forEach(function (x) {
      container.appendChild(el("p", { class: "rr-hints", text: "Read from line " + x.line + ": " + x.reason + "." }));
    });
    var further = r.further_reading || [];
    if (further.length) {
      container.appendChild(el("h2", { text: "Further reading" }));
      container.appendChild(el("p", { class: "rr-how", text: "Field reports and practices that speak to this paste. They are not candidates." }));
      container.appendChild(el("ul", { class: "rr-further" }, further.map(function (m) {
        return el("li", { class: "rr-further-item", "data-reference-id": m.id }, [el("a", { href: m.url, text: m.title })]);
      })));
    }
  }

  function md(text) { return String(text).replace(/`/g, "'"); }

  function markdown(answer) {
    var r = answer.result, out = ["**" + r.answer + "**"];
    if (r.confident) out.push("", "_A matching message alone does not confirm the cause: run the checks._");
    r.warnings.forEach(function (w) { out.push("", "> Warning: " + w.text); });
    if (r.matches.length) out.push("", r.verdict === "none" ? "Closest references:" : "Candidates:");
    r.matches.forEach(function (m, i) {
      out.push("", (i + 1) + ". [" + m.title + "](" + m.url + ") (" + m.confidence + ")");
      m.causes.forEach(function (c) { out.push("   - cause: " + c.title + (c.lines.length ? " (" + lines(c.lines) + ")" : "")); });
      m.why.forEach(function (w) {
        if (w.kind === "signature") out.push("   - " + lines(w.lines) + ": `" + md(w.text) + "`");
        else if (w.kind === "context") out.push("   - " + (w.fit ? "fits" : "against") + ": " + w.text);
      });
    });
    if (r.next_checks.length) {
      out.push("", "Checks to run next:");
      r.next_checks.forEach(function (c) { out.push("- [" + c.title + "](" + c.url + ")" + (c.command ? ": `" + md(c.command) + "`" : "")); });
    }
    if ((r.further_reading || []).length) {
      out.push("", "Further reading:");
      r.further_reading.forEach(function (m) { out.push("- [" + m.title + "](" + m.url + ")"); });
    }
    return out.join("\n");
  }

  // A development-set entry (schema/case.schema.json), as YAML. Strings are written as JSON,
  // which YAML reads as double-quoted scalars; the text as a literal block when it can be one.
  // JSON.stringify escapes control characters and lone surrogates; YAML also reads U+0085, U+2028
  // and U+2029 as line breaks and refuses U+FEFF, U+FFFE and U+FFFF inside a scalar.
  var YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

  function yamlString(s) {
    return JSON.stringify(s).replace(YAML_UNSAFE, function (c) { return "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"); });
  }

  function yamlText(text) {
    var body = text.replace(/\r\n/g, "\n").replace(/\n+$/, "");
    // A literal block holds printable text only: no CR, no control characters, no lone surrogate.
    if (!body || /[\u0000-\u0008\u000b-\u001f]/.test(body) || new RegExp(YAML_UNSAFE.source).test(body) ||
        /[\ud800-\udfff]/.test(body.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""))) return yamlString(text);
    return "|2\n" + body.split("\n").map(function (l) { return l ? "    " + l : ""; }).join("\n");
  }

  function caseEntry(text, context, r, note) {
    var top = r.matches.length ? r.matches[0] : null;
    var id = "case-" + (top ? top.id : "unmatched");
    return [
      "# A case for the development set (tests/devset/), copied from the Match page after redaction: read it before sending.",
      "# The page answered: " + r.answer.replace(/\s+/g, " "),
      "# (verdict " + r.verdict + "; engine " + r.engine_version + ", index " + r.index_version + ", result schema " + r.schema_version + ")",
      note ? "# " + note : null,
      "- id: " + id,
      "  source: \"\"  # the address of the public thread or page the log comes from, if there is one",
      "  context: " + yamlString(context || ""),
      "  accept:  # the reference that explains it; the page's top candidate is filled in, change it if it is wrong",
      top ? "  - " + top.id : null,
      "  why: \"\"  # what the cause turned out to be, and how you know",
      "  shape: short",
      "  text: " + yamlText(text),
      "",
    ].filter(function (l) { return l !== null; }).join("\n");
  }

  // The review before anything pasted is copied: what will be copied, with every redaction
  // highlighted, and one box per kind to put its values back (the undo). build(skip) gives
  // {text, found}; copy(text) copies it.
  function review(container, title, build, copy) {
    var skip = [];
    container.textContent = "";
    container.hidden = false;
    var boxes = el("fieldset", { class: "rr-review-kinds" }, [el("legend", { text: "Redacted (untick a kind to put it back)" })]);
    var pre = el("pre", { class: "rr-review-text", tabindex: "0" });
    var summary = el("p", { class: "rr-review-summary", role: "status" });
    var copyButton = el("button", { type: "button", class: "md-button md-button--primary rr-review-copy", text: "Copy" });
    var cancel = el("button", { type: "button", class: "md-button rr-review-cancel", text: "Cancel" });
    container.appendChild(el("h2", { text: title }));
    container.appendChild(el("p", { text: "This is what will be copied to the clipboard, and nothing is copied until you press Copy. " +
      "IP addresses, host names, user names in home paths, tokens and keys, and e-mail addresses are replaced by placeholders, highlighted below." }));
    container.appendChild(boxes);
    container.appendChild(summary);
    container.appendChild(pre);
    container.appendChild(el("div", { class: "rr-match-actions" }, [copyButton, cancel]));
    var first = build([]), counts = {};
    first.found.forEach(function (f) { counts[f.kind] = (counts[f.kind] || 0) + 1; });
    RelrefRedact.kinds.forEach(function (k) {
      if (!counts[k.kind]) return;
      var box = el("input", { type: "checkbox", value: k.kind, "data-kind": k.kind });
      box.checked = true;
      box.addEventListener("change", function () {
        skip = Array.from(boxes.querySelectorAll("input:not(:checked)")).map(function (b) { return b.value; });
        show(build(skip));
      });
      boxes.appendChild(el("label", { class: "rr-review-kind" }, [box, " " + k.label + " (" + counts[k.kind] + ")"]));
    });
    boxes.hidden = !first.found.length;

    var current = first;
    function show(made) {
      current = made;
      pre.textContent = "";
      var text = made.text, pos = 0, m, marks = 0, rx = new RegExp(RelrefRedact.placeholders.source, "g");
      while ((m = rx.exec(text)) !== null) {
        pre.appendChild(document.createTextNode(text.slice(pos, m.index)));
        pre.appendChild(el("mark", { class: "rr-redacted", text: m[0] }));
        pos = m.index + m[0].length;
        marks++;
      }
      pre.appendChild(document.createTextNode(text.slice(pos)));
      var back = RelrefRedact.kinds.filter(function (k) { return skip.indexOf(k.kind) !== -1; }).map(function (k) { return k.label; });
      summary.textContent = !made.found.length ? "Nothing to redact was found: read the text yourself before copying." :
        marks + " place" + (marks === 1 ? "" : "s") + " redacted." + (back.length ? " Put back: " + back.join(", ") + "." : "");
    }
    show(first);
    copyButton.addEventListener("click", function () { copy(current.text); });
    cancel.addEventListener("click", function () { close(container); });
    copyButton.focus();
  }

  function close(container) { container.hidden = true; container.textContent = ""; }

  // A bounded preview: the matched lines of the input (never the whole of a large paste).
  function preview(pre, answer) {
    pre.textContent = "";
    var seen = new Set();
    answer.result.matches.forEach(function (m) {
      m.why.forEach(function (w) {
        if (w.kind !== "signature" || seen.has(w.lines[0])) return;
        seen.add(w.lines[0]);
        pre.appendChild(el("span", { class: "rr-lineno", text: String(w.lines[0]).padStart(7) + "  " }));
        pre.appendChild(line(w.text, "rr-preview-line"));
        pre.appendChild(document.createTextNode("\n"));
      });
    });
    return seen.size;
  }

  window.RelrefRender = { result: result, markdown: markdown, caseEntry: caseEntry, preview: preview, el: el,
                          breakable: breakable, line: line, review: review, closeReview: close,
                          reportLink: reportLink, repoUrl: repoUrl };
  if (typeof document$ !== "undefined") document$.subscribe(function () { breakInlineCode(); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { breakInlineCode(); });
  else breakInlineCode();
})();
