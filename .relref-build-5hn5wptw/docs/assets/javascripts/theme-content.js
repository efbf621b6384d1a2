// mkdocs-material's inline tab restore (partials/javascripts/content.html, 9.8.2), as a file.
(function () {
  var target = document.getElementById(location.hash.slice(1));
  if (target && target.name) target.checked = target.name.startsWith("__tabbed_");
})();
