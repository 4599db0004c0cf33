// Text that does not decode by its charset: U+FFFD in the value (as
// @sabaki/sgf's decoder puts it) and a warning at the byte where it stops
// decoding (bad-utf8 under UTF-8, bad-text under another charset), from
// parse() (lazy or not: the lazy first pass finds it in nodes it does not
// build), games() fed in pieces of any size, and the Parser; none for
// text that decodes.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

const b = (s) => Buffer.from(s, 'latin1');

// The positions are those `sgf json` gives its decode errors.
// line 1: a root value that is not UTF-8 under CA[UTF-8]; line 4: a bad
// byte after a line break inside a comment of the third node; line 5: a
// move whose value is a byte over 0x7F, in a run of moves
const UTF8_BAD = b('(;CA[UTF-8]PB[ok \xc3\xa9]PW[a\xffb]\n;B[aa]\n;W[bb]C[line one\nx\xc3(]\n;B[\xe9\xe9];W[cc];B[dd])\n');
const UTF8_WANT = [
  {line: 1, column: 25, offset: 24, name: 'bad-utf8', code: 40},
  {line: 4, column: 2, offset: 53, name: 'bad-utf8', code: 40},
  {line: 5, column: 4, offset: 60, name: 'bad-utf8', code: 40},
];

const SJIS_BAD = b('(;CA[Shift_JIS]C[\x82\xa0 ok]GN[\xff\xfe]\n;B[aa]C[\x82\xa0\xef\xbf])');
const SJIS_WANT = [
  {line: 1, column: 27, offset: 26, name: 'bad-text', code: 100},
  {line: 2, column: 11, offset: 40, name: 'bad-text', code: 100},
];

const pick = (ds) => ds.map((d) => ({line: d.line, column: d.column, offset: d.offset, name: d.name, code: d.code}));

function walk(roots) {
  const work = roots.slice();
  while (work.length) {
    const n = work.pop();
    for (const c of n.children) work.push(c);
  }
}

function chunksOf(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

test('parse(): a warning at each value that does not decode, lazy or not', () => {
  for (const [input, want] of [[UTF8_BAD, UTF8_WANT], [SJIS_BAD, SJIS_WANT]]) {
    for (const lazy of [true, false]) {
      const diagnostics = [];
      const roots = sgf.parseBuffer(input, {diagnostics, lazy});
      // the lazy parse found them before the nodes are built...
      assert.deepStrictEqual(pick(diagnostics), want, `lazy ${lazy}`);
      walk(roots);
      // ... and building them adds none
      assert.deepStrictEqual(pick(diagnostics), want, `lazy ${lazy}, walked`);
      for (const d of diagnostics) {
        assert.strictEqual(d.severity, 'warning');
        assert.match(d.message, /^text does not decode as \S+ \(byte 0x[0-9a-f]{2}\); U\+FFFD put in its place$/);
      }
    }
  }
  const roots = sgf.parseBuffer(UTF8_BAD, {lazy: false});
  assert.strictEqual(roots[0].data.PW[0], 'a\ufffdb');
  assert.strictEqual(roots[0].data.PB[0], 'ok \u00e9');
  const third = roots[0].children[0].children[0];
  assert.strictEqual(third.data.C[0], 'line one\nx\ufffd(');
  assert.strictEqual(third.children[0].data.B[0], '\ufffd\ufffd');
  assert.strictEqual(sgf.parseBuffer(SJIS_BAD)[0].data.C[0], '\u3042 ok');
});

test('games() fed in pieces: the same warnings, with the game they are in', async () => {
  const two = Buffer.concat([UTF8_BAD, SJIS_BAD]);
  const shift = UTF8_BAD.length;
  const lines = UTF8_BAD.toString('latin1').split('\n').length - 1;
  const sjis = SJIS_WANT.map((d) => ({
    line: d.line + lines,
    column: d.column,
    offset: d.offset + shift,
    name: d.name,
    code: d.code,
  }));
  for (const size of [1, 2, 5, 64, 1 << 20]) {
    const got = [];
    for await (const g of sgf.games(chunksOf(two, size))) got.push(pick(g.diagnostics));
    assert.deepStrictEqual(got, [UTF8_WANT, sjis], `pieces of ${size}`);
  }
});

test('the Parser reports them to onDiagnostic', () => {
  const seen = [];
  const p = new sgf.Parser({
    onDiagnostic(d) {
      seen.push(d);
    },
  });
  for (const c of chunksOf(UTF8_BAD, 3)) p.feed(c);
  p.finish();
  assert.deepStrictEqual(pick(seen), UTF8_WANT);
});

test('windows-1252 bytes it has no character for; none for text that decodes', () => {
  const d1 = [];
  const r = sgf.parseBuffer(b('(;CA[windows-1252]C[\x80 \x81])'), {diagnostics: d1});
  assert.strictEqual(r[0].data.C[0], '\u20ac \ufffd');
  assert.deepStrictEqual(pick(d1), [{line: 1, column: 23, offset: 22, name: 'bad-text', code: 100}]);
  for (const input of [
    b('(;CA[UTF-8]C[\xc3\xa9\xe6\x9f\xaf];B[aa])'),
    b('(;CA[Shift_JIS]C[\x82\xa0];B[aa]C[\x82\xa2])'),
    b('(;CA[ISO-8859-1]C[\xff\xfe\x80];B[aa])'),
    b('(;C[\xc3\xa9];B[aa]C[\xe6\x9f\xaf])'), // no CA: UTF-8
    b('(;C[\x82\xa0\x82\xa2];B[aa])'), // no CA: guessed Shift_JIS
  ]) {
    const d = [];
    walk(sgf.parseBuffer(input, {diagnostics: d}));
    assert.deepStrictEqual(d, [], input.toString('latin1'));
  }
});
