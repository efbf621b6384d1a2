// Twin of generator/match/readings.py: what the numbers of a matched line say. Two readings of
// PyTorch's CUDA out-of-memory message: most of the GPU held by another process or the driver
// (gpu-memory-held-elsewhere), and a request no larger than the free plus the reserved-but-
// unallocated memory that still failed (gpu-memory-fragmented); and one of the NCCL watchdog's
// timeout line: a one-element all-reduce (a barrier) among the job's first collectives timed out
// (early-barrier-timeout); one of several such lines together: two ranks timing out in the same
// collective with different work (collective-mismatch); and one of a run of step-time lines: the
// time per step rose by half or more (step-time-rose). The forms, limits and effects come from the
// index. Loaded by the match worker and by node.
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var M = node ? Object.assign({}, require("./dialect.js"), require("./text.js")) : root.RelrefMatch;

  function Readings(r) {
    this.forms = r.forms.map(function (f) { return [M.compileRule(f[0]), f[1]]; });
    this.barrier = M.compileRule(r.barrier);
    this.work = M.compileRule(r.work);
    this.steps = r.steps.map(function (f) { return [f, M.compileRule(f.pattern)]; });
    this.r = r;
  }
  // The step-time reading of the step-time lines the scan kept ([line number, text], in log order):
  // of the step form that reads the most of them (readings.py of_steps).
  Readings.prototype.ofSteps = function (lines) {
    var best = [], r = this.r;
    this.steps.forEach(function (entry) {
      var form = entry[0], points = [];
      lines.forEach(function (line) {
        var m = entry[1].exec(line[1], 0);
        if (!m) return;
        var value = parseFloat(m[form.groups.indexOf("value") + 1]), per = form.units[m[form.groups.indexOf("unit") + 1]];
        if (value > 0) points.push([line[0], per ? value * per : 1 / value, m[0]]);
      });
      if (points.length > best.length) best = points;
    });
    if (best.length < r.step_points) return [];
    var half = Math.floor(best.length / 2);
    var before = median(best.slice(0, half).map(function (p) { return p[1]; }));
    var after = median(best.slice(half).map(function (p) { return p[1]; }));
    if (after < r.step_rise * before) return [];
    var slow = best.filter(function (p) { return p[1] >= r.step_rise * before; })[0];
    var first = best[0][0], last = best[best.length - 1][0];
    var where = first === last ? "on line " + first : "between line " + first + " and line " + last;
    var e = r.effects["step-time-rose"];
    return [{ id: "step-time-rose", line: slow[0], text: M.sliceCp(slow[2], 0, 300),
              reason: "the time per step went from " + secs(before) + " to " + secs(after) + " (" + tenth(after / before) +
                " times) " + where + ", with no error: in synchronous training one slow rank or link makes every rank wait at each collective",
              against: e.against, supports: e.supports, causes: e.causes }];
  };
  function median(values) {
    var v = values.slice().sort(function (a, b) { return a - b; }), mid = Math.floor(v.length / 2);
    return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  }
  // Readings of the matched lines (objects with lineNo and text), first line first; a line several
  // signatures matched is read once.
  Readings.prototype.read = function (hits) {
    var lines = new Map(), self = this, out = [];
    hits.forEach(function (h) { lines.set(h.lineNo, h.text); });
    Array.from(lines.keys()).sort(function (a, b) { return a - b; }).forEach(function (n) {
      out = out.concat(self.ofLine(n, lines.get(n)));
    });
    return out.concat(this.ofCollectives(lines));
  };
  // The collective-mismatch reading of the watchdog lines among `lines` (line number -> text): two
  // lines of one process group at the same SeqNum with different work, or at different SeqNums of
  // collectives that complete on no rank before every rank joins (readings.py of_collectives).
  Readings.prototype.ofCollectives = function (lines) {
    var seen = new Map(), numbers = Array.from(lines.keys()).sort(function (a, b) { return a - b; }), allJoin = this.r.all_join;
    for (var i = 0; i < numbers.length; i++) {
      var m = this.work.exec(lines.get(numbers[i]), 0);
      if (!m) continue;
      var pg = m[1] || "", seq = m[2], work = [m[3], m[4], m[5]], earlier = seen.get(pg) || [];
      for (var k = 0; k < earlier.length; k++) {
        var o = earlier[k], why = null;
        if (o[0] === seq && o[1].join() !== work.join()) {
          why = "lines " + o[2] + " and " + numbers[i] + " time out in the same collective (SeqNum " + seq + ") with different work (" +
            workText(o[1]) + "; " + workText(work) + "): the ranks were not running the same collective, so their code took " +
            "different paths, not a slow or lost peer";
        } else if (o[0] !== seq && allJoin.indexOf(o[1][0]) !== -1 && allJoin.indexOf(work[0]) !== -1) {
          why = "lines " + o[2] + " and " + numbers[i] + " time out in different collectives of one process group (" + o[1][0] +
            " at SeqNum " + o[0] + ", " + work[0] + " at SeqNum " + seq + "): such a collective completes on no rank until every " +
            "rank joins it, so ranks stuck at different points of one sequence issued different collectives: their code took " +
            "different paths, not a slow or lost peer";
        }
        if (why === null) continue;
        var e = this.r.effects["collective-mismatch"];
        return [{ id: "collective-mismatch", line: numbers[i], text: M.sliceCp(m[0], 0, 300), reason: why,
                  against: e.against, supports: e.supports, causes: e.causes }];
      }
      earlier.push([seq, work, numbers[i]]);
      seen.set(pg, earlier);
    }
    return [];
  };
  function workText(w) { return w[1] === w[2] ? w[0] + " of " + w[1] + " elements" : w[0] + " of " + w[1] + " in, " + w[2] + " out"; }
  Readings.prototype.ofLine = function (lineNo, text) {
    var got = this.sizes(text), sizes = got[0], r = this.r, out = [];
    if (!sizes) return this.ofWatchdog(lineNo, text);
    READERS.forEach(function (reader) {
      var why = reader[1](sizes, r);
      if (!why) return;
      var e = r.effects[reader[0]];
      out.push({ id: reader[0], line: lineNo, text: got[1], reason: why, against: e.against, supports: e.supports, causes: e.causes });
    });
    return out;
  };
  Readings.prototype.ofWatchdog = function (lineNo, text) {
    var m = this.barrier.exec(text, 0), r = this.r;
    if (!m) return [];
    var seq = parseInt(m[1], 10);
    if (seq < 2 || seq > r.early_seq) return [];
    var e = r.effects["early-barrier-timeout"];
    return [{ id: "early-barrier-timeout", line: lineNo, text: M.sliceCp(m[0], 0, 300),
              reason: "the timed-out work is collective " + seq + " of its process group, an all-reduce of one element " +
                "(how barrier() waits for all ranks): among the job's first few collectives a rank had not " +
                "reached it, doing work the other ranks were not (preparing data, loading) for longer than the timeout",
              against: e.against, supports: e.supports, causes: e.causes }];
  };
  // The sizes the message gives, in GiB (with `reserved`), and the clause they were read from.
  Readings.prototype.sizes = function (text) {
    var gibOf = this.r.gib;
    for (var f = 0; f < this.forms.length; f++) {
      var m = this.forms[f][0].exec(text, 0), names = this.forms[f][1];
      if (!m) continue;
      var sizes = {};
      names.forEach(function (name, i) { sizes[name] = parseFloat(m[2 * i + 1]) * gibOf[m[2 * i + 2]]; });
      if ("reserved" in sizes) sizes.unallocated = sizes.reserved - sizes.allocated;
      else sizes.reserved = sizes.allocated + sizes.unallocated;
      return [sizes, M.sliceCp(m[0], 0, 300)];
    }
    return [null, ""];
  };
  function heldElsewhere(sizes, r) {
    var elsewhere = sizes.total - sizes.free - sizes.reserved;
    if (elsewhere < r.min_gib || elsewhere < r.share * sizes.total) return "";
    return gib(elsewhere) + " of the GPU's " + gib(sizes.total) + " is neither free nor held by this process's PyTorch allocator (" +
      gib(sizes.reserved) + "): another process or the driver holds it";
  }
  function fragmented(sizes, r) {
    if (sizes.unallocated < Math.max(r.min_gib, r.fragmented_share * sizes.total) || sizes.request > sizes.free + sizes.unallocated) return "";
    return "the request of " + gib(sizes.request) + " was no larger than the free " + gib(sizes.free) + " plus the " +
      gib(sizes.unallocated) + " reserved but unallocated, and still failed: the memory was there, in pieces too small for it";
  }
  // Each reading: its id (a key of the index's effects) and what it says of the sizes, or "".
  var READERS = [["gpu-memory-held-elsewhere", heldElsewhere], ["gpu-memory-fragmented", fragmented]];
  function tenth(x) { return (Math.floor(x * 10 + 0.5) / 10).toFixed(1); }  // half up, as Python's twin
  function gib(x) { return tenth(x) + " GiB"; }
  function secs(x) { return x >= 1 ? tenth(x) + " s" : tenth(x * 1000) + " ms"; }

  var api = { Readings: Readings };
  if (node) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
