// Side by side with @sabaki/sgf on every corpus file it parses: the same
// nodes (ids, parents, children) and the same property values. Skips
// when the corpus (../shared/corpus) or @sabaki/sgf (npm install in js/,
// or bench/peer/) is not there. And every corpus file survives
// stringify() and parse() again unchanged.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const sgf = require('..');

let sabaki = null;
try {
  sabaki = require('@sabaki/sgf');
} catch (e) {
  sabaki = null;
}

const list = require('./corpus-files.js');
const corpus = list.dir;

// Where the two differ on purpose (js/README.md, "Differences"): text in
// a charset whose tables differ (TextDecoder's MacRoman has the euro at
// 0xDB, iconv-lite's the older currency sign; TextDecoder knows
// MS_KANJI, iconv-lite does not).
const KNOWN = [/encoding-western-macosroman\.sgf$/, /japanese_bad\.sgf$/];

// The first difference between two lists of trees, or null (no recursion).
function firstDifference(a, b) {
  if (a.length !== b.length) return `${a.length} roots against ${b.length}`;
  const work = [[a, b]];
  while (work.length) {
    const [x, y] = work.pop();
    if (x.length !== y.length) return `children of ${x[0].parentId}: ${x.length} against ${y.length}`;
    for (let i = 0; i < x.length; i++) {
      if (x[i].id !== y[i].id || x[i].parentId !== y[i].parentId) return `node ${x[i].id}: id or parent`;
      const dx = JSON.stringify(x[i].data);
      const dy = JSON.stringify(y[i].data);
      if (dx !== dy) return `node ${x[i].id}: ${dx.slice(0, 200)} against ${dy.slice(0, 200)}`;
      work.push([x[i].children, y[i].children]);
    }
  }
  return null;
}

test('same trees as @sabaki/sgf on the corpus', {skip: (!list.length && 'no corpus') || (!sabaki && '@sabaki/sgf not installed')}, () => {
  let compared = 0;
  const bad = [];
  for (const f of list) {
    if (KNOWN.some((r) => r.test(f))) continue;
    const bytes = fs.readFileSync(f);
    let theirs;
    try {
      theirs = sabaki.parseBuffer(bytes);
    } catch (e) {
      continue; // @sabaki/sgf does not parse it
    }
    const ours = sgf.parseBuffer(bytes);
    const d = firstDifference(theirs, ours);
    if (d) bad.push(`${path.relative(corpus, f)}: ${d}`);
    compared++;
  }
  assert.deepStrictEqual(bad, []);
  assert.ok(compared > 100, `only ${compared} files compared`);
});

test('stringify then parse gives the same trees (corpus)', {skip: !list.length && 'no corpus'}, () => {
  const bad = [];
  for (const f of list) {
    const t = sgf.parseBuffer(fs.readFileSync(f));
    const again = sgf.parse(sgf.stringify(t));
    const d = firstDifference(t, again);
    if (d) bad.push(`${path.relative(corpus, f)}: ${d}`);
  }
  assert.deepStrictEqual(bad, []);
});
