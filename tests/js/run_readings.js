// Runs the browser engine's readings under node: reads {table, lines} as JSON on stdin and prints,
// for each line (numbered from 1), the readings as [id, line, text, reason].
const path = require("path");
const { Readings } = require(path.join(__dirname, "../../docs/assets/javascripts/match/readings.js"));
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const { table, lines } = JSON.parse(input);
  const readings = new Readings(table);
  console.log(JSON.stringify(lines.map((t, i) => readings.ofLine(i + 1, t).map((x) => [x.id, x.line, x.text, x.reason]))));
});
