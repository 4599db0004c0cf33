// headers() against games() on every corpus file and on generated games
// full of what the skipping scanner must read (escapes, brackets and
// parentheses in values, CR, LF and CR LF, nested variations), fed in
// pieces: the same roots, and every diagnostic of a root at the same
// line and column. headers() passes over the rest of each game with the
// module's bulk tree scanner (WebAssembly SIMD), games() parses it: a
// scanner that misread a byte would lose a game or shift the positions
// after it. Skips the corpus part when ../shared/corpus is not there.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const sgf = require('..');

function chunksOf(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function same(bytes, label) {
  const full = [];
  const fit = sgf.games(bytes, {lazy: false});
  for await (const g of fit) full.push(g);
  const fo = fit.diagnostics.map((d) => `${d.line}:${d.column}:${d.offset} ${d.name}`);
  const hs = [];
  for (const size of [bytes.length || 1, 7, 4096]) {
    const got = [];
    const it = sgf.headers(chunksOf(bytes, size));
    for await (const g of it) got.push(g);
    // those outside every game: the same (the skipped trees' line
    // breaks counted)
    const ho = it.diagnostics.map((d) => `${d.line}:${d.column}:${d.offset} ${d.name}`);
    assert.deepStrictEqual(ho, fo, `${label}: outside every game (pieces of ${size})`);
    assert.strictEqual(got.length, full.length, `${label}: games (pieces of ${size})`);
    for (let i = 0; i < got.length; i++) {
      assert.deepStrictEqual(got[i].root.data, full[i].root.data, `${label}: game ${i + 1} root (pieces of ${size})`);
      const hd = got[i].diagnostics.map((d) => `${d.line}:${d.column}:${d.offset} ${d.name}`);
      const fd = full[i].diagnostics.map((d) => `${d.line}:${d.column}:${d.offset} ${d.name}`);
      // each diagnostic headers() gives is one games() gives
      for (const d of hd) assert.ok(fd.includes(d), `${label}: game ${i + 1}: ${d} (pieces of ${size})`);
    }
    hs.push(got.length);
  }
  return hs[0];
}

// Games whose moves and comments hold every byte the tree scanner reads.
function generated(n) {
  const parts = [];
  const eol = ['\n', '\r\n', '\r', ''];
  for (let k = 0; k < n; k++) {
    const e = eol[k % 4];
    parts.push(`(;GM[1]FF[4]PB[p${k}]C[a \\] b \\\\ c ( ) [ ${e}x]${e}`);
    for (let m = 0; m < 40 + (k % 30); m++) {
      parts.push(`;${m % 2 ? 'W' : 'B'}[${String.fromCharCode(97 + (m % 19), 97 + ((m * 7) % 19))}]`);
      if (m % 9 === 0) parts.push(`C[(paren) [bracket ${e}and \\]escape\\\\]${e}`);
      if (m % 13 === 0) parts.push(`(;B[aa]C[v(]${e})(;W[bb](;B[cc])(;B[dd]))`);
    }
    parts.push(`)${e}`);
    // something outside a game now and then (a diagnostic whose line
    // the skipped game's line breaks decide)
    if (k % 17 === 5) parts.push(`junk${e}`);
  }
  return Buffer.from(parts.join(''));
}

test('headers() and games(): the same roots and positions on generated games', async () => {
  const bytes = generated(300);
  const n = await same(bytes, 'generated');
  assert.strictEqual(n, 300);
});

const list = require('./corpus-files.js');
test('headers() and games(): the same roots and positions on every corpus file', {skip: list.length === 0 && 'no corpus', timeout: 120000}, async () => {
  let games = 0;
  for (const f of list) games += await same(fs.readFileSync(f), path.basename(f));
  assert.ok(games > 0);
});
