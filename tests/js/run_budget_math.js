// Runs the failure budget's arithmetic (docs/assets/javascripts/budget-math.js) under node for the
// tests: reads [[function name, [arguments...]], ...] as JSON on stdin, prints the results as JSON.
const path = require("path");
const math = require(path.join(__dirname, "../../docs/assets/javascripts/budget-math.js"));
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const calls = JSON.parse(input);
  console.log(JSON.stringify(calls.map(([name, args]) => math[name](...args))));
});
