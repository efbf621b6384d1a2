// The site under Zensical 0.0.73 (`relref build --engine zensical`): this engine's whole browser-side
// adapter. (mkdocs-material's is search-paste.js with the moved inline scripts.) Loaded by
// partials/search-zensical.html in the header, so it runs before the theme's bundle. The "Site
// engine" page lists what it relies on. It does four things the theme has no setting for:
//  1. The theme's full-text index (search.json) loads when the search is first opened, not with
//     every page: mkdocs-material reads a promise from __search.index, Zensical fetches the index
//     as it starts, so its request is held here until then.
//  2. Keyword queries reach the theme's search worker made safe, as under mkdocs-material: the
//     worker's query message is {type: 2, data: {input: ...}} here, a string there.
//  3. Pasted errors and logs in the search dialog are ranked by the match engine in a panel at the
//     top of the dialog (RelrefSearch.attach, search-paste.js); keywords go to Zensical's search.
//  4. A link to a #section lands on the section on a first load (see below).
(function () {
  "use strict";
  if (window.RelrefZensical) return;  // once per page load, however often the header is drawn
  document.documentElement.setAttribute("data-platform", navigator.platform);  // as the theme's inline base script

  // 1. The index on first use.
  var INDEX = "/search.json", held = [], released = false;
  var open = XMLHttpRequest.prototype.open, send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.rrIndex = !released && new URL(String(url), location.href).pathname.slice(-INDEX.length) === INDEX;
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.rrIndex && !released) { held.push([this, arguments]); return; }
    return send.apply(this, arguments);
  };
  function release() {
    if (released) return;
    released = true;
    held.splice(0).forEach(function (call) { send.apply(call[0], call[1]); });
  }
  function inSearch(target) {
    return target instanceof Element && !!target.closest("[data-md-component=search], label[for=__search]");
  }
  ["pointerdown", "focusin", "click"].forEach(function (type) {
    document.addEventListener(type, function (e) { if (inSearch(e.target)) release(); }, true);
  });
  document.addEventListener("change", function (e) { if (e.target.id === "__search") release(); }, true);
  document.addEventListener("keydown", function (e) {
    // The dialog's own shortcut works only once the dialog is drawn, which is after the index came.
    if (released || !((e.metaKey || e.ctrlKey) && e.key === "k")) return;
    var button = document.querySelector("[data-md-component=search] button");
    if (button) { e.preventDefault(); button.click(); }
  }, true);

  // 4. With navigation.instant the theme records the scroll offset in history.state every 100 ms
  // and, once a #target is laid out, scrolls to the recorded offset when there is one. On a long
  // page the first record (0, before the browser has scrolled to the target) can come first, and
  // the page jumps back to the top. A fresh load (no history.state) has no offset to restore: that
  // first scroll to the top goes to the target instead. Anything the reader does ends this.
  if (location.hash && history.state === null) {
    var scrollTo = window.scrollTo;
    var done = function () { if (window.scrollTo !== scrollTo) window.scrollTo = scrollTo; };
    window.scrollTo = function (x, y) {
      var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      done();
      if (arguments.length === 2 && x === 0 && y === 0 && target) return target.scrollIntoView();
      return scrollTo.apply(window, arguments);
    };
    ["pointerdown", "keydown", "wheel", "touchstart"].forEach(function (type) {
      addEventListener(type, done, { once: true, capture: true });
    });
  }

  // 2. Safe queries (search-paste.js's rule), in this worker's message format.
  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    if (message && message.type === 2 && message.data && typeof message.data.input === "string" && window.RelrefSearch) {
      var data = Object.assign({}, message.data, { input: RelrefSearch.safeQuery(message.data.input) });
      arguments[0] = Object.assign({}, message, { data: data });
    }
    return post.apply(this, arguments);
  };

  // 3. The paste panel, in the dialog the bundle draws in an open shadow root on <body>. Its
  // elements are found by role (the theme's class names are minified); the panel is kept right
  // under the row that holds the search box, where the theme's redraws may move it from.
  var STYLES = ["assets/stylesheets/extra.css", "assets/stylesheets/engine-zensical.css"];

  function place(root) {
    var input = root.querySelector("dialog input[role=combobox]");
    if (!input || !window.RelrefSearch || !window.RelrefClient) return;
    var row = input;
    while (row.parentElement && !row.parentElement.querySelector("[role=listbox], [role=status]")) row = row.parentElement;
    if (!row.parentElement) return;  // no results area yet: the next redraw draws it
    var panel = root.getElementById("rr-search-match");
    if (!panel) {
      STYLES.forEach(function (href) {
        var link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = RelrefClient.siteRoot() + href;
        root.appendChild(link);
      });
      panel = document.createElement("div");
      panel.id = "rr-search-match";
      panel.className = "rr-search-match rr-search-match--zensical";
      panel.hidden = true;
      panel.setAttribute("aria-live", "polite");
    }
    if (row.nextSibling !== panel) row.parentElement.insertBefore(panel, row.nextSibling);
    RelrefSearch.attach(input, panel);  // once per input: attach marks it
  }

  function watch() {
    Array.prototype.forEach.call(document.body.children, function (host) {
      var root = host.shadowRoot;
      if (!root || root.rrWatched) return;
      root.rrWatched = true;
      new MutationObserver(function () { place(root); }).observe(root, { childList: true, subtree: true });
      place(root);
    });
  }

  window.RelrefZensical = { release: release };
  // The bundle adds its shadow host to <body> when it starts, after this file and search-paste.js.
  function start() {
    watch();
    new MutationObserver(watch).observe(document.body, { childList: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
