// The failure budget's arithmetic, and nothing else: the page (budget.js) and the tests (through
// node, tests/js/run_budget_math.js) call the same functions. Times are in hours, rates in failures
// per GPU-hour. Failures are taken as a Poisson process: independent, at a constant rate, and in
// proportion to the number of GPUs, which is what every published model on the page assumes.
(function (root) {
  "use strict";
  var HOURS_PER = { hour: 1, hours: 1, day: 24, days: 24, week: 168, weeks: 168, year: 365 * 24, years: 365 * 24 };

  function toHours(value, unit) {
    var per = HOURS_PER[String(unit).toLowerCase()];
    if (per === undefined) throw new Error("unknown time unit: " + unit);
    return value * per;
  }

  // A published figure as a per-GPU rate. A job's MTTF M on N GPUs means each GPU fails once per
  // N*M GPU-hours (MTTF_job = MTTF_1 / N); "k failures per week" on N GPUs means k/(168 N) per GPU-hour.
  function perGpuRate(model) {
    if (model.kind === "job-mttf") return 1 / (toHours(model.value, model.unit) * model.gpus);
    if (model.kind === "job-rate") return model.value / (toHours(1, model.per) * model.gpus);
    throw new Error("unknown model kind: " + model.kind);
  }

  function ratePerGpuYear(perYear) { return perYear / HOURS_PER.year; }

  function jobMttf(rate, gpus) { return 1 / (rate * gpus); }

  function expectedInterruptions(rate, gpus, hours) { return rate * gpus * hours; }

  // P(at least one) = 1 - e^-n; expm1 keeps the digits when n is small.
  function chanceOfAtLeastOne(n) { return -Math.expm1(-n); }

  // Young 1974: the interval between checkpoints that minimises lost time, to first order.
  function youngInterval(checkpoint, mttf) { return Math.sqrt(2 * checkpoint * mttf); }

  // Daly 2006, higher-order estimate; for checkpoints as long as 2M or longer it gives M.
  function dalyInterval(checkpoint, mttf) {
    if (checkpoint >= 2 * mttf) return mttf;
    var x = checkpoint / (2 * mttf);
    return Math.sqrt(2 * checkpoint * mttf) * (1 + Math.sqrt(x) / 3 + x / 9) - checkpoint;
  }

  // Daly 2006's expected wall-clock time for `work` hours of computing, checkpointing every
  // `interval` hours (each write taking `checkpoint`), restarting in `restore` hours after a failure.
  function expectedWallTime(work, interval, checkpoint, restore, mttf) {
    return mttf * Math.exp(restore / mttf) * Math.expm1((interval + checkpoint) / mttf) * work / interval;
  }

  // Everything the page shows for one failure model and one job.
  function budget(job, rate) {
    var n = expectedInterruptions(rate, job.gpus, job.hours);
    var out = { interruptions: n, chance: chanceOfAtLeastOne(n), mttf: jobMttf(rate, job.gpus) };
    if (!(rate > 0) || !(job.checkpoint > 0)) return out;
    out.young = youngInterval(job.checkpoint, out.mttf);
    out.daly = dalyInterval(job.checkpoint, out.mttf);
    out.wall = expectedWallTime(job.hours, out.daly, job.checkpoint, job.restore, out.mttf);
    out.lost = out.wall - job.hours;
    out.lostYoung = expectedWallTime(job.hours, out.young, job.checkpoint, job.restore, out.mttf) - job.hours;
    return out;
  }

  var api = { toHours: toHours, perGpuRate: perGpuRate, ratePerGpuYear: ratePerGpuYear, jobMttf: jobMttf,
              expectedInterruptions: expectedInterruptions, chanceOfAtLeastOne: chanceOfAtLeastOne,
              youngInterval: youngInterval, dalyInterval: dalyInterval, expectedWallTime: expectedWallTime,
              budget: budget };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.RelrefBudgetMath = api;
})(this);
