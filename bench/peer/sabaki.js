// bench/peer/sabaki.js - time @sabaki/sgf parsing FILE (the peer a user of
// this ecosystem would otherwise pick). Prints one line:
//   sabaki BYTES SECONDS GAMES NODES PEAK_RSS_BYTES
// Run by bench/peer.sh, which installs the package into bench/peer/.
'use strict';
const fs = require('fs');
const sgf = require('@sabaki/sgf');

const file = process.argv[2];
const bytes = fs.readFileSync(file);
const text = bytes.toString('utf8');
let peak = process.memoryUsage().rss;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 50);

const t0 = process.hrtime.bigint();
const trees = sgf.parse(text);
const t1 = process.hrtime.bigint();
clearInterval(timer);
peak = Math.max(peak, process.memoryUsage().rss);

// Count nodes iteratively (deep trees exist).
let nodes = 0;
const stack = trees.slice();
while (stack.length) {
  const n = stack.pop();
  nodes++;
  for (const c of n.children) stack.push(c);
}
console.log(`sabaki ${bytes.length} ${Number(t1 - t0) / 1e9} ${trees.length} ${nodes} ${peak}`);
