// Runs the browser engine under node for the parity tests: reads {index, cases} as JSON on stdin,
// prints [{id, confident, top: [[id, confidence, score], ...]}, ...].
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
  const out = cases.map((c) => {
    const r = engine.match(c.text, c.context || "", 5);
    return { id: c.id, confident: r.confident, warnings: r.warnings.length, hints: r.hints, next: r.next_checks.map((c) => c.reference + "#" + c.id),
             top: r.matches.map((m) => [m.id, m.confidence, m.score]) };
  });
  console.log(JSON.stringify(out));
});
