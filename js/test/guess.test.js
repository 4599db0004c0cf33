// Text with no CA that is not UTF-8: its charset guessed, as @sabaki/sgf's
// parseBuffer() guesses it (its README: "automatically detects
// encoding"), among the double-byte CJK charsets and the single-byte ones
// of Western, Central European, Cyrillic, Greek, Hebrew and Thai text.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

// text in a single-byte charset, by the inverse of TextDecoder's table
const tables = new Map();
function encode(text, charset) {
  let table = tables.get(charset);
  if (!table) {
    table = new Map();
    const d = new TextDecoder(charset);
    for (let b = 0; b < 256; b++) {
      const c = d.decode(Uint8Array.of(b));
      if (c !== '\ufffd' && !table.has(c)) table.set(c, b);
    }
    // (Node's TextDecoder reads windows-1252 as ISO-8859-1: its 0x80-0x9F
    // by hand, those used here)
    if (charset === 'windows-1252') for (const [c, b] of [['\u201c', 0x93], ['\u201d', 0x94], ['\u2013', 0x96]]) table.set(c, b);
    tables.set(charset, table);
  }
  return Buffer.from([...text].map((c) => {
    assert.ok(table.has(c), `${c} in ${charset}`);
    return table.get(c);
  }));
}
const game = (charset, props) =>
  Buffer.concat([Buffer.from('(;GM[1]FF[4]'), ...Object.entries(props).map(([k, v]) => Buffer.concat([Buffer.from(`${k}[`), encode(v, charset), Buffer.from(']')])), Buffer.from(';B[pd])')]);

const cases = [
  ['windows-1251', {PB: 'Илья Шикшин', PW: 'Александр Динерштейн', C: 'Чёрные победили'}],
  ['windows-1251', {PB: 'Ли Седоль', C: 'Хороший ход'}], // (words of even length: GB18030 decodes them)
  ['koi8-r', {PB: 'Иван Петров', C: 'Хороший ход'}],
  ['iso-8859-5', {PW: 'Тимур Сангинов', C: 'Ошибка'}],
  ['windows-1253', {PB: 'Γιώργος Παπαδόπουλος', C: 'Καλή κίνηση'}],
  ['windows-1255', {PB: 'משה לוי', C: 'מהלך טוב מאוד'}],
  ['windows-874', {PB: 'สมชาย', C: 'ตาดี'}],
  ['windows-1252', {PB: 'Müller', C: '“Schöner” Zug – für Weiß'}], // (the game's guess made at PB)
  ['windows-1250', {PB: 'Paweł Wróbel', C: 'Dobrze'}],
];

test('single-byte text with no CA: the charset its letters read best in', async () => {
  for (const [charset, props] of cases) {
    const root = sgf.parseBuffer(game(charset, props))[0];
    for (const k of Object.keys(props)) assert.strictEqual(root.data[k][0], props[k], `${charset} ${k}`);
    // lazy or not, streamed: the same, and games() names the charset
    assert.deepStrictEqual(sgf.parseBuffer(game(charset, props), {lazy: false}), sgf.parseBuffer(game(charset, props)));
    for await (const g of sgf.games(game(charset, props))) {
      assert.strictEqual(g.root.data.PB ? g.root.data.PB[0] : g.root.data.PW[0], props.PB || props.PW);
      assert.strictEqual(g.charset.toLowerCase(), charset, charset);
      assert.deepStrictEqual(g.diagnostics, []);
    }
  }
});

test('tokenizeBuffer decodes such text as parseBuffer does', () => {
  const [charset, props] = cases[0];
  const values = sgf.tokenizeBuffer(game(charset, props)).filter((t) => t.type === 'c_value_type').map((t) => t.value);
  assert.deepStrictEqual(values.slice(2, 5), Object.values(props).map((v) => `[${v}]`));
});

test('double-byte text is still read as before; Latin-1 stays Latin-1', () => {
  const bytes = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
  // GB2312 "围棋", EUC-KR "바둑", Shift_JIS "囲碁"
  assert.strictEqual(sgf.parseBuffer(bytes('(;C[', [0xce, 0xa7, 0xc6, 0xe5], '])'))[0].data.C[0], '\u56f4\u68cb');
  assert.strictEqual(sgf.parseBuffer(bytes('(;C[', [0xb9, 0xd9, 0xb5, 0xcf], '])'))[0].data.C[0], '\ubc14\ub451');
  assert.strictEqual(sgf.parseBuffer(bytes('(;C[', [0x88, 0xcd, 0x8c, 0xe9], '])'))[0].data.C[0], '\u56f2\u7881');
  const latin = sgf.parseBuffer(bytes('(;PW[Hrab', [0xe1], 'nek]C[', [0xe9, 0x74, 0xe9], '])'))[0].data;
  assert.deepStrictEqual([latin.PW[0], latin.C[0]], ['Hrab\u00e1nek', '\u00e9t\u00e9']);
});
