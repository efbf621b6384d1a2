// Renders a match result as DOM. Pasted text only ever reaches the page through textContent and
// DOM nodes, never through innerHTML, so nothing pasted can run or change the page's markup.
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

  function copyButton(text, label) {
    var button = el("button", { type: "button", class: "md-button rr-copy", "aria-label": label, text: "Copy" });
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(text).then(function () { button.textContent = "Copied"; }, function () { button.textContent = "Copy failed"; });
    });
    return button;
  }

  function whyItem(w) {
    if (w.kind === "signature") {
      var role = w.role === "cause" ? "names the fault" : "downstream symptom";
      var extra = w.stale ? ", stale" : w.shared ? ", shared with other references" : "";
      return el("li", {}, ["Line " + w.lines.join(", ") + ": " + w.signature + " (" + role + extra + ")",
                           el("br"), el("mark", { class: "rr-line", text: w.text })]);
    }
    if (w.kind === "words") return el("li", { text: "Words: " + w.terms.join(", ") });
    return el("li", { class: w.fit ? "rr-fit" : "rr-conflict", text: (w.fit ? "Context fits: " : "Context does not support it: ") + w.text });
  }

  function checkItem(c) {
    var what = c.command ? el("code", { text: c.command }) : el("span", { text: "Look at: " + c.observation });
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

  function result(container, answer) {
    var r = answer.result;
    container.textContent = "";
    var banner;
    if (!r.matches.length) banner = el("p", { class: "rr-banner rr-none", text: "No confident match: nothing in the paste matches a reference." });
    else if (!r.confident) banner = el("p", { class: "rr-banner rr-none", text: "No confident match. The closest references are below; the checks tell them apart." });
    else banner = el("p", { class: "rr-banner rr-strong", text: "Confident match. A matching message alone does not confirm the cause: run the checks." });
    container.appendChild(banner);
    if (answer.note) container.appendChild(el("p", { class: "rr-note", text: answer.note }));
    r.warnings.forEach(function (w) { container.appendChild(el("p", { class: "rr-warning", role: "note", text: "Warning: " + w.text })); });
    var read = describeHints(r.hints || {});
    if (read) container.appendChild(el("p", { class: "rr-hints", text: "Read from the paste and context: " + read + "." }));
    var checks = r.next_checks;
    if (checks.length) {
      container.appendChild(el("h2", { text: r.confident ? "Checks to run next" : "Checks that tell the candidates apart" }));
      container.appendChild(el("ol", { class: "rr-checks" }, checks.map(checkItem)));
    }
    var list = el("ol", { class: "rr-results-list" });
    r.matches.forEach(function (m) {
      list.appendChild(el("li", { class: "rr-result", "data-reference-id": m.id, "data-confidence": m.confidence }, [
        el("h3", {}, [el("a", { href: m.url, text: m.title }), " ", el("span", { class: "rr-badge rr-conf-" + m.confidence, text: m.confidence })]),
        el("ul", { class: "rr-why" }, m.why.map(whyItem)),
        el("details", {}, [el("summary", { text: "Evidence checks for this reference" }), el("ul", {}, m.checks.map(checkItem))]),
      ]));
    });
    container.appendChild(list);
  }

  function markdown(answer) {
    var r = answer.result, out = [];
    out.push(r.confident ? "**Confident match** (a matching message alone does not confirm the cause)" : "**No confident match**");
    r.warnings.forEach(function (w) { out.push("> Warning: " + w.text); });
    r.matches.forEach(function (m, i) {
      out.push("", (i + 1) + ". [" + m.title + "](" + m.url + ") (" + m.confidence + ")");
      m.why.forEach(function (w) {
        if (w.kind === "signature") out.push("   - line " + w.lines.join(", ") + ": `" + w.text.replace(/`/g, "'") + "`");
        else if (w.kind === "context") out.push("   - context " + (w.fit ? "fits" : "does not support it") + ": " + w.text);
      });
    });
    var checks = r.next_checks;
    if (checks.length) {
      out.push("", "Checks to run next:");
      checks.forEach(function (c) { out.push("- [" + c.title + "](" + c.url + ")" + (c.command ? ": `" + c.command.replace(/`/g, "'") + "`" : "")); });
    }
    return out.join("\n");
  }

  // A bounded preview: the matched lines of the input (never the whole of a large paste).
  function preview(pre, answer) {
    pre.textContent = "";
    var seen = new Set();
    answer.result.matches.forEach(function (m) {
      m.why.forEach(function (w) {
        if (w.kind !== "signature" || seen.has(w.lines[0])) return;
        seen.add(w.lines[0]);
        pre.appendChild(el("span", { class: "rr-lineno", text: String(w.lines[0]).padStart(7) + "  " }));
        pre.appendChild(el("mark", { text: w.text }));
        pre.appendChild(document.createTextNode("\n"));
      });
    });
    return seen.size;
  }

  window.RelrefRender = { result: result, markdown: markdown, preview: preview, el: el };
})();
