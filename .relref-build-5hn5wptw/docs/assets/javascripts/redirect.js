// Alias pages: go to the canonical reference and keep the #section, so old runbook links land
// on the same cause or check.
location.replace(document.querySelector('link[rel="canonical"]').getAttribute("href") + location.hash);
