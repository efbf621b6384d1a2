// Runs the browser engine under node for the parity tests: reads {index, cases} as JSON on stdin,
// prints for each case the parts of the answer both engines must agree on.
const path = require("path");
const { Engine } = require(path.join(__dirname, "../../docs/assets/javascripts/match/engine.js"));
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const { index, cases, tokenize } = JSON.parse(input);
  const engine = new Engine(index, "");
  if (tokenize) {
    console.log(JSON.stringify(tokenize.map((t) => engine.tokenize(t))));
    return;
  }
  console.log(JSON.stringify(cases.map((c) => summary(engine.match(c.text, c.context || "", 5)))));
});

function summary(r) {
  return {
    verdict: r.verdict, confident: r.confident, answer: r.answer, hints: r.hints,
    warnings: r.warnings.map((w) => w.text), cues: r.cues.map((c) => c.id + (c.negated ? "!" : "")),
    top: r.matches.map((m) => [m.id, m.confidence, m.score, m.causes.map((c) => c.id + "@" + c.lines.join(","))]),
    lines: r.matches.map((m) => m.why.filter((w) => w.kind === "signature").map((w) => w.signature + ":" + w.lines.join(",") + ":" + w.text)),
    words: r.matches.map((m) => (m.why.find((w) => w.kind === "words") || { terms: [] }).terms),
    further: r.further_reading.map((m) => m.id),
    next: r.next_checks.map((c) => c.reference + "#" + c.id),
    findings: r.findings.map((f) => f.matches.map((m) => m.id)),
    codes: r.codes.map((c) => c.kind + ":" + c.code + "@" + c.lines.join(",")),
    readings: r.readings.map((x) => x.id + "@" + x.line + ":" + x.text + ":" + x.reason),
    context: r.matches.map((m) => m.why.filter((w) => w.kind === "context").map((w) => (w.fit ? "+" : "-") + w.text)),
  };
}
