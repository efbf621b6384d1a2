// Runs the browser engine's expandLunr under node: reads {carried, round: [[x, digits], ...]} as
// JSON on stdin and prints {expanded, rounded}.
const path = require("path");
const { expandLunr, pyRound } = require(path.join(__dirname, "../../docs/assets/javascripts/match/engine.js"));
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const { carried, round } = JSON.parse(input);
  console.log(JSON.stringify({ expanded: expandLunr(carried), rounded: round.map(([x, d]) => pyRound(x, d)) }));
});
