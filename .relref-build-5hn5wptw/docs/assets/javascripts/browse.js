// Browse page filters: each select narrows the list by one data attribute; they combine.
// Runs again on every instant-navigation page load (document$ is the theme's page observable).
(function () {
  function apply(form) {
    var wanted = {};
    form.querySelectorAll("[data-filter]").forEach(function (el) { wanted[el.dataset.filter] = el.value.trim().toLowerCase(); });
    var shown = 0;
    document.querySelectorAll(".rr-browse-item").forEach(function (item) {
      var ok = Object.keys(wanted).every(function (key) {
        var value = wanted[key];
        if (!value) return true;
        if (key === "words") return item.textContent.toLowerCase().indexOf(value) !== -1;
        return (item.dataset[key] || "").split(" ").indexOf(value) !== -1;
      });
      item.hidden = !ok;
      if (ok) shown += 1;
    });
    var count = document.getElementById("rr-count");
    if (count) count.textContent = shown + " shown";
  }
  function setup() {
    var form = document.getElementById("rr-filters");
    if (!form || form.dataset.ready) return;
    form.dataset.ready = "1";
    form.addEventListener("input", function () { apply(form); });
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    apply(form);
  }
  // On every page of instant navigation (document$), and once on load where the theme's observable
  // does not run (pages opened from disk); setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
