// Browse page filters: each select narrows the table by one data attribute; they combine. The
// selects live in the URL fragment (#category=memory&kind=error), so a filtered view can be linked;
// the Words box does not, since people paste log text into it and pasted text never goes into a URL.
// Runs again on every instant-navigation page load (document$ is the theme's page observable).
(function () {
  function wantedFrom(form) {
    var wanted = {};
    form.querySelectorAll("[data-filter]").forEach(function (el) { wanted[el.dataset.filter] = el.value.trim().toLowerCase(); });
    return wanted;
  }

  function apply(form) {
    var wanted = wantedFrom(form), shown = 0;
    document.querySelectorAll(".rr-browse-item").forEach(function (item) {
      var ok = Object.keys(wanted).every(function (key) {
        var value = wanted[key];
        if (!value) return true;
        // The row shows a summary's first sentence; the words are looked for in all of it.
        if (key === "words") return (item.textContent + " " + (item.dataset.summary || "")).toLowerCase().indexOf(value) !== -1;
        return (item.dataset[key] || "").split(" ").indexOf(value) !== -1;
      });
      item.hidden = !ok;
      if (ok) shown += 1;
    });
    var count = document.getElementById("rr-count");
    if (count) count.textContent = shown + " shown";
  }

  function toFragment(form) {
    var params = new URLSearchParams();
    form.querySelectorAll("select[data-filter]").forEach(function (el) { if (el.value) params.set(el.dataset.filter, el.value); });
    var hash = params.toString();
    var url = location.pathname + location.search + (hash ? "#" + hash : "");
    if (url !== location.pathname + location.search + location.hash) history.replaceState(history.state, "", url);
  }

  // Unknown keys and values are ignored: a select keeps "Any" when the fragment names no option of it.
  function fromFragment(form) {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    form.querySelectorAll("select[data-filter]").forEach(function (el) {
      var value = params.get(el.dataset.filter) || "";
      el.value = Array.from(el.options).some(function (o) { return o.value === value; }) ? value : "";
    });
  }

  function setup() {
    var form = document.getElementById("rr-filters");
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    form.addEventListener("input", function () { toFragment(form); apply(form); });
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    fromFragment(form);
    apply(form);
  }
  // A link to another filtered view of the page that is showing (or an edited address).
  window.addEventListener("hashchange", function () {
    var form = document.getElementById("rr-filters");
    if (!form) return;
    fromFragment(form);
    apply(form);
  });
  // On every page of instant navigation (document$), and once on load where the theme's observable
  // does not run (pages opened from disk); setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
