// Twin of generator/match/timestamps.py: timestamps at the start of log lines, each read on its own clock.
// Loaded by the match worker (importScripts) and by node (require) in the parity tests.
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var M = node ? Object.assign({}, require("./dialect.js"), require("./text.js")) : root.RelrefMatch;
  var MONTHS = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 };
  function utc(y, mo, d, h, mi, s) { return Date.UTC(y, mo - 1, d, h, mi, s) / 1000; }
  var READERS = {
    iso: function (m) {
      var y = +m[1], mo = +m[2], d = +m[3];
      if (!(mo >= 1 && mo <= 12 && d >= 1 && d <= 31)) return null;
      var seconds = utc(y, mo, d, +m[4], +m[5], +m[6]) + (m[7] ? parseFloat("0." + m[7]) : 0);
      var zone = m[8];
      if (zone === undefined) return ["iso-local", seconds];
      if (zone !== "Z") {
        var sign = zone[0] === "+" ? 1 : -1, digits = zone.slice(1).replace(":", "");
        seconds -= sign * (parseInt(digits.slice(0, 2), 10) * 3600 + parseInt(digits.slice(2), 10) * 60);
      }
      return ["iso-utc", seconds];
    },
    "dmesg-T": function (m) { return ["dmesg-T", utc(+m[6], MONTHS[m[1]], +m[2], +m[3], +m[4], +m[5])]; },
    uptime: function (m) { return ["uptime", parseInt(m[1], 10) + parseInt(m[2], 10) / 1e6]; },
    syslog: function (m) { return ["syslog", ((MONTHS[m[1]] * 31 + +m[2]) * 24 + +m[3]) * 3600 + +m[4] * 60 + +m[5]]; },
    glog: function (m) {
      var mo = +m[1], d = +m[2];
      if (!(mo >= 1 && mo <= 12 && d >= 1 && d <= 31)) return null;
      return ["glog", ((mo * 31 + d) * 24 + +m[3]) * 3600 + +m[4] * 60 + +m[5] + (m[6] ? parseFloat("0." + m[6]) : 0)];
    },
  };
  function Stamps(rules) {
    this.lead = rules.lead;
    this.headLength = rules.head;
    this.forms = rules.forms.map(function (f) { return [f[0], M.compileRule(f[1])]; });
  }
  Stamps.prototype.parse = function (line) {
    var lead = this.lead, head = M.sliceCp(line, 0, this.headLength), best = null;
    for (var i = 0; i < this.forms.length; i++) {
      var m = this.forms[i][1].exec(head);
      if (m && m.index <= lead && (best === null || m.index < best[1].index)) best = [this.forms[i][0], m];
    }
    return best ? READERS[best[0]](best[1]) : null;
  };


  var api = { Stamps: Stamps };
  if (node) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
