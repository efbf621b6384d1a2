// The failure-budget page: reads the job from the form (or the address, when a field report links
// here), runs RelrefBudgetMath for every model row the build wrote, and fills in the results.
// Nothing is sent anywhere. Runs again on every instant-navigation page load.
(function () {
  "use strict";
  var M = null;
  var OWN_PARAMS = ["rate", "mttf_hours", "failures_per_week"];

  function num(el) { var v = parseFloat(el.value); return isFinite(v) ? v : NaN; }

  function fillFromAddress(form) {
    var q = new URLSearchParams(location.search);
    var set = function (id, value) { if (value !== null && value !== "" && isFinite(parseFloat(value))) document.getElementById(id).value = value; };
    set("rr-gpus", q.get("gpus"));
    set("rr-days", q.get("days"));
    set("rr-checkpoint", q.get("checkpoint_minutes"));
    if (q.get("checkpoint_seconds")) set("rr-checkpoint", String(parseFloat(q.get("checkpoint_seconds")) / 60));
    set("rr-restore", q.get("restore_minutes"));
    OWN_PARAMS.forEach(function (p) {
      if (q.get(p) === null) return;
      set("rr-own", q.get(p));
      form.querySelector("#rr-own-unit").value = p;
    });
    // A record's figure as written, in other units: converted to the form's own.
    convert(q, form, ["mttf_days", "mttf_weeks"], "mttf_hours", function (v, unit) { return M.toHours(v, unit); });
    convert(q, form, ["failures_per_hour", "failures_per_day"], "failures_per_week",
            function (v, unit) { return v * M.toHours(1, "week") / M.toHours(1, unit); });
  }

  function convert(q, form, params, into, fn) {
    params.forEach(function (p) {
      var v = parseFloat(q.get(p));
      if (!isFinite(v)) return;
      document.getElementById("rr-own").value = String(fn(v, p.split("_").pop()));
      form.querySelector("#rr-own-unit").value = into;
    });
  }

  function ownRate(value, unit, gpus) {
    if (!(value > 0)) return null;
    if (unit === "rate") return M.ratePerGpuYear(value);
    if (unit === "mttf_hours") return M.perGpuRate({ kind: "job-mttf", value: value, unit: "hours", gpus: gpus });
    return M.perGpuRate({ kind: "job-rate", value: value, per: "week", gpus: gpus });
  }

  function modelRate(row) {
    var d = row.dataset;
    return M.perGpuRate({ kind: d.kind, value: parseFloat(d.value), unit: d.unit, per: d.per, gpus: parseFloat(d.gpus) });
  }

  function duration(hours) {
    if (!isFinite(hours)) return "—";
    if (hours < 1) return (hours * 60).toFixed(hours * 60 < 10 ? 1 : 0) + " min";
    if (hours < 72) return hours.toFixed(2) + " h";
    return (hours / 24).toFixed(1) + " days";
  }

  function show(cell, value, text) {
    cell.dataset.value = isFinite(value) ? String(value) : "";
    cell.textContent = text;
  }

  function render(row, r, job) {
    var cells = {};
    row.querySelectorAll("[data-out]").forEach(function (c) { cells[c.dataset.out] = c; });
    show(cells.interruptions, r.interruptions, r.interruptions.toFixed(r.interruptions < 10 ? 2 : 0));
    show(cells.chance, r.chance, (100 * r.chance).toFixed(r.chance > 0.999 ? 2 : 1) + "%");
    show(cells.mttf, r.mttf, duration(r.mttf));
    var interval = r.young === undefined ? "—" : duration(r.young) + " / " + duration(r.daly);
    show(cells.interval, r.daly, interval);
    cells.interval.dataset.young = r.young === undefined ? "" : String(r.young);
    var lost = r.lost === undefined ? "—" : !isFinite(r.lost) ? "the job does not finish" :
      duration(r.lost) + " (" + (100 * r.lost / job.hours).toFixed(1) + "% of the planned time)";
    show(cells.lost, r.lost, lost);
  }

  function update(form) {
    var job = { gpus: num(form.querySelector("#rr-gpus")), hours: 24 * num(form.querySelector("#rr-days")),
                checkpoint: num(form.querySelector("#rr-checkpoint")) / 60, restore: num(form.querySelector("#rr-restore")) / 60 };
    var status = document.getElementById("rr-budget-status");
    if (!(job.gpus >= 1) || !(job.hours > 0) || !(job.checkpoint >= 0) || !(job.restore >= 0)) {
      status.textContent = "Enter the number of GPUs, the planned days, and the checkpoint and restart times.";
      return;
    }
    status.textContent = "Computed for " + job.gpus + " GPUs over " + job.hours / 24 + " days.";
    var warn = function (key, on) { var li = document.querySelector('[data-warn="' + key + '"]'); if (li) li.hidden = !on; };
    var longCheckpoint = false, outside = {};
    document.querySelectorAll("#rr-budget-results tr[data-model]").forEach(function (row) {
      var id = row.dataset.model;
      var rate = id === "own" ? ownRate(num(form.querySelector("#rr-own")), form.querySelector("#rr-own-unit").value, job.gpus) : modelRate(row);
      if (id === "own") row.hidden = rate === null;
      if (rate === null) return;
      var r = M.budget(job, rate);
      render(row, r, job);
      longCheckpoint = longCheckpoint || (job.checkpoint > 0 && job.checkpoint >= 2 * r.mttf);
      if (id !== "own") outside[row.dataset.warnKey] = job.gpus < parseFloat(row.dataset.minGpus) || job.gpus > parseFloat(row.dataset.maxGpus);
    });
    Object.keys(outside).forEach(function (key) { warn(key, outside[key]); });
    warn("checkpoint", !(job.checkpoint > 0));
    warn("long-checkpoint", longCheckpoint);
    document.querySelectorAll("[data-job-gpus]").forEach(function (s) { s.textContent = String(job.gpus); });
    form.dataset.computed = String(Number(form.dataset.computed || 0) + 1);
  }

  function setup() {
    var form = document.getElementById("rr-budget");
    if (!form || form.dataset.ready) return;
    M = window.RelrefBudgetMath;
    form.dataset.ready = "1";
    fillFromAddress(form);
    form.addEventListener("input", function () { update(form); });
    form.addEventListener("change", function () { update(form); });
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    update(form);
  }

  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
