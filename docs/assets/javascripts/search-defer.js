// Loads the theme's full-text search index on the first focus of the search box, not with every
// page (issue 19 item 13): the index is every page's text, 185 KB gzip for 42 references and
// growing with the catalog. mkdocs-material 9.8.2's bundle requests search/search_index.json
// through XMLHttpRequest as soon as it starts, and has no hook to hand it the index instead (the
// __search.index of earlier releases is gone), so that one request is held here until the search
// box is first focused (a click, a tap, the "/" or "s" shortcut, a paste), then sent unchanged.
// Runs before the bundle (partials/javascripts/base.html); every other request passes through.
(function () {
  var INDEX = /(^|\/)search\/search_index\.json(\?|#|$)/;
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  var held = [];
  var released = false;

  function release() {
    if (released) return;
    released = true;
    document.documentElement.dataset.rrSearchIndex = "requested";
    held.splice(0).forEach(function (request) { send.apply(request.xhr, request.args); });
  }

  XMLHttpRequest.prototype.open = function (method, url) {
    this.rrHeld = !released && INDEX.test(new URL(String(url), document.baseURI).pathname);
    return open.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.rrHeld && !released) {
      held.push({ xhr: this, args: arguments });
      return;
    }
    return send.apply(this, arguments);
  };

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target && target.matches && target.matches("[data-md-component=search-query]")) release();
  }, true);
})();
