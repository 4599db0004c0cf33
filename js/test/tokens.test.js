// The token functions @sabaki/sgf's README documents (tokenizeIter,
// tokenize, tokenizeBufferIter, tokenizeBuffer, parseTokens): the token
// shape {type, value, row, col, pos, progress}, positions in UTF-16 units
// from 0, and bytes decoded as parseBuffer() decodes them.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

// [type, value, row, col, pos] of each token
const brief = (tokens) => tokens.map((t) => [t.type, t.value, t.row, t.col, t.pos]);

test('the token functions are exported, by require and by import', async () => {
  const esm = await import('../index.mjs');
  for (const name of ['tokenize', 'tokenizeIter', 'tokenizeBuffer', 'tokenizeBufferIter', 'parseTokens']) {
    assert.strictEqual(typeof sgf[name], 'function', name);
    assert.strictEqual(esm[name], sgf[name], name);
  }
});

test('tokenize: types, values as written, rows counted by LF, columns and offsets in UTF-16 units', () => {
  const text = '(;GN[a\\]b]\r\n  PB[x\ny] (;W[qq]))';
  const tokens = sgf.tokenize(text);
  assert.deepStrictEqual(Object.keys(tokens[0]), ['type', 'value', 'row', 'col', 'pos', 'progress']);
  assert.deepStrictEqual(brief(tokens), [
    ['parenthesis', '(', 0, 0, 0],
    ['semicolon', ';', 0, 1, 1],
    ['prop_ident', 'GN', 0, 2, 2],
    ['c_value_type', '[a\\]b]', 0, 4, 4],
    ['prop_ident', 'PB', 1, 2, 14],
    ['c_value_type', '[x\ny]', 1, 4, 16],
    ['parenthesis', '(', 2, 3, 22],
    ['semicolon', ';', 2, 4, 23],
    ['prop_ident', 'W', 2, 5, 24],
    ['c_value_type', '[qq]', 2, 6, 25],
    ['parenthesis', ')', 2, 10, 29],
    ['parenthesis', ')', 2, 11, 30],
  ]);
  for (const t of tokens) assert.strictEqual(t.progress, t.pos / (text.length - 1));
  assert.strictEqual(tokens[tokens.length - 1].progress, 1);
  // a character outside the BMP counts two units, before a value's line break too
  assert.deepStrictEqual(brief(sgf.tokenize('(;C[\u{1F600}\n\u{1F600}]B[aa])')).slice(3), [
    ['c_value_type', '[\u{1F600}\n\u{1F600}]', 0, 3, 3],
    ['prop_ident', 'B', 1, 3, 10],
    ['c_value_type', '[aa]', 1, 4, 11],
    ['parenthesis', ')', 1, 8, 15],
  ]);
  assert.deepStrictEqual(sgf.tokenize(''), []);
});

test('tokenize: what is not SGF comes as invalid tokens, one UTF-16 unit each; white space as JavaScript knows it is passed over', () => {
  assert.deepStrictEqual(brief(sgf.tokenize('(;CoPyright[x]%\u00a0\ufeff\u3000W[y]\u{1F600})')), [
    ['parenthesis', '(', 0, 0, 0],
    ['semicolon', ';', 0, 1, 1],
    ['prop_ident', 'CoPyright', 0, 2, 2],
    ['c_value_type', '[x]', 0, 11, 11],
    ['invalid', '%', 0, 14, 14],
    ['prop_ident', 'W', 0, 18, 18],
    ['c_value_type', '[y]', 0, 19, 19],
    ['invalid', '\ud83d', 0, 22, 22],
    ['invalid', '\ude00', 0, 23, 23],
    ['parenthesis', ')', 0, 24, 24],
  ]);
  // a value that never closes: its '[' is invalid, and what follows is
  // read as tokens (a backslash escapes the last ']' here)
  assert.deepStrictEqual(brief(sgf.tokenize('(;C[a;B[b\\]')), [
    ['parenthesis', '(', 0, 0, 0],
    ['semicolon', ';', 0, 1, 1],
    ['prop_ident', 'C', 0, 2, 2],
    ['invalid', '[', 0, 3, 3],
    ['prop_ident', 'a', 0, 4, 4],
    ['semicolon', ';', 0, 5, 5],
    ['prop_ident', 'B', 0, 6, 6],
    ['invalid', '[', 0, 7, 7],
    ['prop_ident', 'b', 0, 8, 8],
    ['invalid', '\\', 0, 9, 9],
    ['invalid', ']', 0, 10, 10],
  ]);
  // an escaped ']' and an escaped backslash before the closing one
  assert.deepStrictEqual(sgf.tokenize('[\\]];[\\\\]').map((t) => t.value), ['[\\]]', ';', '[\\\\]']);
});

test('tokenizeIter gives the tokens one at a time', () => {
  const it = sgf.tokenizeIter('(;B[aa]' + ';W[bb]'.repeat(1000) + ')');
  assert.strictEqual(typeof it.next, 'function');
  assert.deepStrictEqual(it.next().value, {type: 'parenthesis', value: '(', row: 0, col: 0, pos: 0, progress: 0});
  assert.strictEqual(it.next().value.type, 'semicolon');
  assert.strictEqual([...it].length, 3 * 1001 + 2 - 2);
});

test('tokenizeBuffer: the text as parseBuffer() reads it (CA, guessed charset, UTF-16, encoding option)', () => {
  const bytes = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
  const values = (tokens) => tokens.filter((t) => t.type === 'c_value_type').map((t) => t.value);
  // GB2312 named by a CA that follows the text
  const gb = bytes('(;PB[', [0xce, 0xa7, 0xc6, 0xe5], ']CA[GB2312])');
  assert.deepStrictEqual(values(sgf.tokenizeBuffer(gb)), ['[\u56f4\u68cb]', '[GB2312]']);
  // Shift_JIS with no CA, a second byte 0x5C that is no escape: "表" = 95 5C
  const sj = bytes('(;C[', [0x88, 0xcd, 0x8c, 0xe9, 0x95, 0x5c], '];B[aa])');
  assert.deepStrictEqual(values(sgf.tokenizeBuffer(sj)), ['[\u56f2\u7881\u8868]', '[aa]']);
  // each game by its own CA, as parseBuffer() reads them
  const two = Buffer.concat([gb, Buffer.from('\n'), bytes('(;CA[ISO-8859-1]C[caf', [0xe9], '])')]);
  assert.deepStrictEqual(values(sgf.tokenizeBuffer(two)), ['[\u56f4\u68cb]', '[GB2312]', '[ISO-8859-1]', '[caf\u00e9]']);
  const roots = sgf.parseBuffer(two);
  assert.deepStrictEqual([roots[0].data.PB[0], roots[1].data.C[0]], ['\u56f4\u68cb', 'caf\u00e9']);
  // positions are in the decoded text
  assert.deepStrictEqual(brief(sgf.tokenizeBuffer(gb)).slice(3, 5), [['c_value_type', '[\u56f4\u68cb]', 0, 4, 4], ['prop_ident', 'CA', 0, 8, 8]]);
  // UTF-16 with a byte-order mark, little and big endian; UTF-8 with one
  const text = '(;C[\u00e9\u56f4];B[aa])';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le);
  be.swap16();
  assert.deepStrictEqual(brief(sgf.tokenizeBuffer(le)), brief(sgf.tokenize(text)));
  assert.deepStrictEqual(brief(sgf.tokenizeBuffer(be)), brief(sgf.tokenize(text)));
  assert.deepStrictEqual(brief(sgf.tokenizeBuffer(Buffer.from('\ufeff' + text))), brief(sgf.tokenize(text)));
  // the encoding option, over the CA; a Uint8Array, an ArrayBuffer
  assert.deepStrictEqual(values(sgf.tokenizeBuffer(gb, {encoding: 'ISO-8859-1'})), ['[\u00ce\u00a7\u00c6\u00e5]', '[GB2312]']);
  assert.throws(() => sgf.tokenizeBuffer(gb, {encoding: 'no-such-charset'}), RangeError);
  const u8 = new Uint8Array(gb);
  assert.deepStrictEqual(sgf.tokenizeBuffer(u8), sgf.tokenizeBuffer(gb));
  assert.deepStrictEqual(sgf.tokenizeBuffer(u8.buffer), sgf.tokenizeBuffer(gb));
  assert.deepStrictEqual([...sgf.tokenizeBufferIter(gb)], sgf.tokenizeBuffer(gb));
});

test('parseTokens: the trees parse() makes of the same text, with its options', () => {
  const text = '(;GM[1]C[a\\]b\r\nc](;B[aa]\n;W[bb])(;B[cc]C[x\\\ny]))\n(;C[two];b[dd])';
  assert.deepStrictEqual(sgf.parseTokens(sgf.tokenize(text)), sgf.parse(text, {lazy: false}));
  assert.deepStrictEqual(sgf.parseTokens(sgf.tokenizeIter(text)), sgf.parse(text, {lazy: false}));
  assert.strictEqual(sgf.parseTokens(sgf.tokenize(text))[0].data.C[0], 'a]b\nc');
  // a game missing its first ';', nodes outside a game, empty variations
  for (const s of ['B[hh];W[ii]', ';B[hh];W[ii]', '(B[hh];W[ii])', '(;B[hh]()(;W[ii])())']) {
    assert.deepStrictEqual(sgf.parseTokens(sgf.tokenize(s)), sgf.parse(s, {lazy: false}), s);
  }
  let next = 10;
  const dictionary = {};
  const created = [];
  const progress = [];
  const roots = sgf.parseTokens(sgf.tokenize('(;B[aa];W[bb](;B[cc])(;B[dd]))'), {
    getId: () => `n${next++}`,
    dictionary,
    onNodeCreated: ({node}) => created.push(node.id),
    onProgress: ({progress: p}) => progress.push(p),
  });
  assert.strictEqual(roots[0].id, 'n10');
  assert.deepStrictEqual(Object.keys(dictionary), ['n10', 'n11', 'n12', 'n13']);
  assert.deepStrictEqual(created, ['n10', 'n11', 'n12', 'n13']);
  assert.strictEqual(dictionary.n13.parentId, 'n11');
  assert.strictEqual(progress[progress.length - 1], 1);
  // tokens of bytes: text already decoded
  const gb = Buffer.from([...Buffer.from('(;PB['), 0xce, 0xa7, 0xc6, 0xe5, ...Buffer.from(']CA[GB2312])')]);
  assert.strictEqual(sgf.parseTokens(sgf.tokenizeBuffer(gb))[0].data.PB[0], '\u56f4\u68cb');
  // tokens made by hand (no positions)
  const made = [{type: 'parenthesis', value: '('}, {type: 'semicolon', value: ';'}, {type: 'prop_ident', value: 'B'},
    {type: 'c_value_type', value: '[aa]'}, {type: 'prop_ident', value: 'C'}, {type: 'c_value_type', value: '[hi]'}, {type: 'parenthesis', value: ')'}];
  assert.deepStrictEqual(sgf.parseTokens(made, {lazy: false}), [{id: 0, data: {B: ['aa'], C: ['hi']}, parentId: null, children: []}]);
  // diagnostics placed where the tokens were
  const diagnostics = [];
  sgf.parseTokens(sgf.tokenize('(;B[aa]\n\n  ;W[bb]%)'), {diagnostics});
  assert.deepStrictEqual(diagnostics.map((d) => [d.name, d.line, d.column]), [['junk', 3, 9]]);
});
