// bench/peer/sabaki.js - time @sabaki/sgf (the parser a user of this
// ecosystem would otherwise pick) on the same bytes as sgfstream.
//
//   node sabaki.js FILE              one input: parse() on the whole file
//   node sabaki.js --list LISTFILE   every file named in LISTFILE (one a
//                                    line) parsed as a separate input
//
// Every input is read and decoded (UTF-8) before the clock starts, as the
// sgfstream programs load theirs; only parse() is timed. In list mode each
// file's result is dropped before the next file, as a program handling
// many files one at a time would. Prints one line:
//   sabaki BYTES SECONDS GAMES NODES PEAK_RSS_BYTES FILES
// PEAK_RSS_BYTES is sampled inside the process (a lower bound; bench/peer.sh
// also takes ru_maxrss through /usr/bin/time). Run by bench/peer.sh, which
// installs the package into bench/peer/.
'use strict';
const fs = require('fs');
const sgf = require('@sabaki/sgf');

const rss = process.memoryUsage.rss ? () => process.memoryUsage.rss()
                                    : () => process.memoryUsage().rss;

// Count nodes iteratively (deep trees exist).
function countNodes(trees) {
  let nodes = 0;
  const stack = trees.slice();
  while (stack.length) {
    const n = stack.pop();
    nodes++;
    for (const c of n.children) stack.push(c);
  }
  return nodes;
}

let files;
if (process.argv[2] === '--list') {
  files = fs.readFileSync(process.argv[3], 'utf8').split('\n').filter(s => s.length > 0);
} else {
  files = [process.argv[2]];
}

let bytes = 0;
const texts = files.map(f => {
  const b = fs.readFileSync(f);
  bytes += b.length;
  return b.toString('utf8');
});

let peak = rss();
let games = 0;
let nodes = 0;
let seconds;
if (texts.length === 1) {
  const t0 = process.hrtime.bigint();
  const trees = sgf.parse(texts[0]);
  const t1 = process.hrtime.bigint();
  peak = Math.max(peak, rss());
  seconds = Number(t1 - t0) / 1e9;
  games = trees.length;
  nodes = countNodes(trees);
} else {
  // Only parse() is on the clock (the node count and the RSS samples are
  // not), as for the single input.
  let ns = 0n;
  for (let i = 0; i < texts.length; i++) {
    const t0 = process.hrtime.bigint();
    const trees = sgf.parse(texts[i]);
    ns += process.hrtime.bigint() - t0;
    games += trees.length;
    nodes += countNodes(trees);
    if ((i & 255) === 0) peak = Math.max(peak, rss());
  }
  peak = Math.max(peak, rss());
  seconds = Number(ns) / 1e9;
}
console.log(`sabaki ${bytes} ${seconds} ${games} ${nodes} ${peak} ${files.length}`);
