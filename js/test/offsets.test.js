// Offsets past 4 GiB. The module's records carry 32-bit words: an offset's
// high 32 bits come in records of their own (when they change), a
// diagnostic's and a game's in an extension record. The internal option
// _offsetBias adds a number to every offset the module reports, so that
// this reaches past 2^32 (and 2^33) without feeding 4 GiB: the
// diagnostics must be those of the run without it, each offset moved by
// the bias, handed to the same games, and the lazy trees (built from the
// games' offsets) the same.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

// games of ~100 bytes, each with problems: a lowercase identifier, text
// that does not decode, junk between games, an unclosed last game
const parts = [];
for (let k = 0; k < 12; k++) {
  parts.push(`(;GM[1]CA[UTF-8]PB[p${k}]C[x\xff${k}]\n;B[aa];W[bb]\n(;B[cc]c[low])(;B[dd]))\n`);
  if (k % 3 === 1) parts.push('junk\n');
}
parts.push('(;GM[1]PB[last];B[aa]');
const INPUT = Buffer.from(parts.join(''), 'latin1');

const plain = (roots) => JSON.parse(JSON.stringify(roots));
const moved = (ds, by) => ds.map((d) => Object.assign({}, d, {offset: d.offset + by}));

function chunksOf(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function gamesOf(opts) {
  const out = [];
  for await (const g of sgf.games(chunksOf(INPUT, 7), opts)) out.push({root: plain([g.root]), diagnostics: g.diagnostics});
  return out;
}

for (const bias of [2 ** 32 - 300, 2 ** 32 + 1, 2 ** 33 - 650]) {
  test(`offsets with ${bias} added (crossing 2^32 or 2^33 inside the input)`, async () => {
    // the input crosses the boundary for the first and last biases
    assert.ok(INPUT.length > 700);
    for (const lazy of [true, false]) {
      const want = [];
      const roots = plain(sgf.parseBuffer(INPUT, {diagnostics: want, lazy}));
      const got = [];
      const biased = sgf.parseBuffer(INPUT, {diagnostics: got, lazy, _offsetBias: bias});
      assert.ok(want.length >= 25, `${want.length} diagnostics`);
      assert.deepStrictEqual(got, moved(want, bias), `lazy ${lazy}`);
      assert.deepStrictEqual(plain(biased), roots, `lazy ${lazy}: the trees`);
      assert.ok(got.every((d) => Number.isSafeInteger(d.offset) && d.offset >= bias));
    }
    const want = await gamesOf({});
    const got = await gamesOf({_offsetBias: bias});
    assert.strictEqual(got.length, want.length);
    for (let i = 0; i < want.length; i++) {
      assert.deepStrictEqual(got[i].root, want[i].root, `game ${i}`);
      assert.deepStrictEqual(got[i].diagnostics, moved(want[i].diagnostics, bias), `game ${i}'s diagnostics`);
    }
  });
}
