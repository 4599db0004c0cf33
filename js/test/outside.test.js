// The diagnostics found outside every game (text or a ')' between games
// or after the last, a stream with no game tree, a game tree with no
// node): on the iterator's diagnostics array of games() and headers(),
// in input order with their lines and columns, and in no game's list
// (nor in the Parser's onGame list: onDiagnostic sees them); in strict
// mode an SgfError. And in strict mode every warning is an error, the
// package's own (text that does not decode: bad-text, bad-utf8) too.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

const where = (ds) => ds.map((d) => `${d.line}:${d.column} ${d.name}`);

function chunksOf(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

// junk before the first game (1:1), between two games (3:1), a ')' too
// many (4:9), a game tree with no node (5:1), text after the last game
// (5:10); inside games: a lowercase identifier (2:13) and an unclosed
// tree at the end of input (7:1)
const INPUT = Buffer.from('junk0\n(;GM[1]PB[a]b[x])\njunk\n(;B[aa]))\n()(;C[x])tail\n(;PB[z]\n');
const OUTSIDE = ['1:1 junk-before', '3:1 junk-after', '4:9 extra-paren', '5:1 empty-tree', '5:10 junk-after'];

for (const name of ['games', 'headers']) {
  test(`${name}(): the diagnostics outside every game on the iterator, in pieces of any size`, async () => {
    for (const size of [1, 3, 16, INPUT.length]) {
      const it = sgf[name](chunksOf(INPUT, size));
      assert.deepStrictEqual(it.diagnostics, [], 'empty before the iteration');
      const inside = [];
      let n = 0;
      for await (const g of it) {
        n++;
        inside.push(...where(g.diagnostics));
      }
      assert.strictEqual(n, 4);
      assert.deepStrictEqual(where(it.diagnostics), OUTSIDE, `pieces of ${size}`);
      // headers() passes over the rest of a game after its root
      assert.deepStrictEqual(inside, ['2:13 lowercase-ident', '7:1 unclosed-tree']);
      for (const d of it.diagnostics) assert.strictEqual(typeof d.offset, 'number');
    }
  });
}

test('a stream with no game tree: its diagnostics on the iterator', async () => {
  const it = sgf.games(Buffer.from('no game here\n'));
  for await (const g of it) assert.fail(`a game: ${g}`);
  assert.deepStrictEqual(where(it.diagnostics), ['1:1 junk-before', '2:1 no-game-tree']);
});

test('the Parser: onDiagnostic sees every one, onGame the game\'s only', () => {
  const all = [];
  const perGame = [];
  const p = new sgf.Parser({
    onDiagnostic(d) {
      all.push(d);
    },
    onGame(root, diagnostics) {
      perGame.push(...where(diagnostics));
    },
  });
  p.feed(INPUT);
  p.finish();
  assert.strictEqual(all.length, OUTSIDE.length + 2);
  assert.deepStrictEqual(perGame, ['2:13 lowercase-ident', '7:1 unclosed-tree']);
});

test('strict mode: a diagnostic outside every game throws SgfError', async () => {
  for (const input of ['(;B[aa])\njunk\n(;W[bb])', '(;B[aa]))', 'no game']) {
    await assert.rejects(
      (async () => {
        for await (const g of sgf.games(Buffer.from(input), {strict: true})) void g;
      })(),
      (e) => e instanceof sgf.SgfError && e.diagnostic.severity === 'error' && e.line >= 1,
      input
    );
  }
});

const b = (s) => Buffer.from(s, 'latin1');
const BAD = [
  [b('(;CA[UTF-8]PB[ok]PW[a\xffb];B[aa];W[bb])'), 'bad-utf8', 1, 22],
  [b('(;CA[Shift_JIS]C[ok]\n;B[aa]GN[\xff\xfe];W[bb])'), 'bad-text', 2, 10],
  [b('(;CA[windows-1252]C[\x81]\n;B[aa];W[bb])'), 'bad-text', 1, 21],
];

test('strict mode: text that does not decode throws SgfError with its diagnostic', async () => {
  for (const [input, name, line, column] of BAD) {
    const check = (e) => {
      assert.ok(e instanceof sgf.SgfError, String(e));
      assert.strictEqual(e.diagnostic.name, name);
      assert.strictEqual(e.diagnostic.severity, 'error');
      assert.deepStrictEqual([e.line, e.column], [line, column]);
      return true;
    };
    for (const lazy of [true, false]) assert.throws(() => sgf.parseBuffer(input, {strict: true, lazy}), check);
    await assert.rejects(async () => {
      for await (const g of sgf.games(chunksOf(input, 5), {strict: true})) void g;
    }, check);
    const p = new sgf.Parser({}, {strict: true});
    assert.throws(() => {
      p.feed(input);
      p.finish();
    }, check);
    // and the parser stays failed
    assert.throws(() => p.finish(), check);
    // not strict: a warning, the parse goes on
    const diagnostics = [];
    sgf.parseBuffer(input, {diagnostics});
    assert.deepStrictEqual(diagnostics.map((d) => `${d.severity} ${d.name}`), [`warning ${name}`]);
  }
});
