// Runs the browser scan's LiteralSet under node: reads {rules, texts} as JSON on stdin and prints,
// for each text, the ids LiteralSet.held reports and the ids a plain case-blind indexOf finds.
const path = require("path");
const { LiteralSet } = require(path.join(__dirname, "../../docs/assets/javascripts/match/scan.js"));
const { asciiLower } = require(path.join(__dirname, "../../docs/assets/javascripts/match/text.js"));
let input = "";
process.stdin.on("data", (d) => (input += d));
process.stdin.on("end", () => {
  const { rules, texts } = JSON.parse(input);
  const set = new LiteralSet(rules);
  const words = [];
  rules.forEach((r, i) => (r.literals || []).forEach((l, k) => { words[set.owners[i][k]] = asciiLower(l); }));
  console.log(JSON.stringify(texts.map((t) => {
    const held = set.held(t), lowered = asciiLower(t);
    return {
      held: words.map((_, id) => id).filter((id) => held[id]),
      found: words.map((w, id) => (lowered.indexOf(w) !== -1 ? id : -1)).filter((id) => id >= 0),
    };
  })));
});
