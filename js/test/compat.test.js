// @sabaki/sgf's documented behaviour (its README), checked on sgfstream:
// code written for @sabaki/sgf changes one import.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const path = require('path');
const sgf = require('..');

const corpus = process.env.SGF_CORPUS || path.join(__dirname, '..', '..', '..', 'shared', 'corpus');
const sabakiFiles = path.join(corpus, 'dev', 'sabaki-sgf', 'tests', 'sgf');

// the tree without ids, as plain data (through JSON, as a user would)
function shape(node) {
  return JSON.parse(JSON.stringify(node, (k, v) => (k === 'id' || k === 'parentId' ? undefined : v)));
}
const leaf = (data, children = []) => ({data, children});

test('require and import give the same API', async () => {
  const esm = await import('../index.mjs');
  for (const name of ['parse', 'parseBuffer', 'parseFile', 'stringify', 'games', 'headers', 'Parser',
    'escapeString', 'unescapeString', 'parseVertex', 'stringifyVertex', 'parseCompressedVertices',
    'parseDates', 'stringifyDates']) {
    assert.strictEqual(typeof sgf[name], 'function', name);
    assert.strictEqual(esm[name], sgf[name], name);
  }
  assert.strictEqual(esm.default.parse, sgf.parse);
});

test('nodes: id, data, parentId, children; ids from 0 in document order', () => {
  const t = sgf.parse('(;B[aa]SZ[19];AB[cc][dd:ee])');
  assert.deepStrictEqual(JSON.parse(JSON.stringify(t)), [
    {id: 0, data: {B: ['aa'], SZ: ['19']}, parentId: null,
      children: [{id: 1, data: {AB: ['cc', 'dd:ee']}, parentId: 0, children: []}]},
  ]);
});

test('variations, empty variations ignored', () => {
  const want = leaf({B: ['hh']}, [leaf({W: ['ii']}), leaf({W: ['hi'], C: ['h']})]);
  assert.deepStrictEqual(shape(sgf.parse('(;B[hh](;W[ii])(;W[hi]C[h]))')[0]), want);
  assert.deepStrictEqual(shape(sgf.parse('(;B[hh]()(;W[ii])()(;W[hi]C[h]))')[0]), want);
});

test('lowercase letters in identifiers are dropped', () => {
  assert.deepStrictEqual(shape(sgf.parse('(;CoPyright[hello](;White[ii])(;White[hi]Comment[h]))')[0]),
    leaf({CP: ['hello']}, [leaf({W: ['ii']}), leaf({W: ['hi'], C: ['h']})]));
});

test('CA is kept; encoding option accepted', () => {
  assert.deepStrictEqual(shape(sgf.parse('(;B[aa]CA[UTF-8])', {encoding: 'ISO-8859-1'})[0]),
    leaf({B: ['aa'], CA: ['UTF-8']}));
});

test('nodes outside a game, a game missing its first ;', () => {
  const want = sgf.parse('(;B[hh];W[ii])');
  assert.deepStrictEqual(sgf.parse(';B[hh];W[ii]'), want);
  assert.deepStrictEqual(sgf.parse('B[hh];W[ii]'), want);
  assert.deepStrictEqual(sgf.parse('(B[hh];W[ii])'), want);
});

test('onNodeCreated: each node when its properties are read, before its children', () => {
  const seen = [];
  sgf.parse('(;B[hh](;W[ii])(;W[hi];C[h]))', {onNodeCreated({node}) { seen.push(JSON.parse(JSON.stringify(node))); }});
  assert.deepStrictEqual(seen, [
    {id: 0, data: {B: ['hh']}, parentId: null, children: []},
    {id: 1, data: {W: ['ii']}, parentId: 0, children: []},
    {id: 2, data: {W: ['hi']}, parentId: 0, children: []},
    {id: 3, data: {C: ['h']}, parentId: 2, children: []},
  ]);
});

test('getId and dictionary', () => {
  let n = 100;
  const dict = {};
  const t = sgf.parse('(;B[aa];W[bb](;B[cc])(;B[dd]))', {getId: () => n++, dictionary: dict});
  assert.strictEqual(t[0].id, 100);
  assert.deepStrictEqual(Object.keys(dict).map(Number), [100, 101, 102, 103]);
  assert.strictEqual(dict[103].data.B[0], 'dd');
  assert.strictEqual(dict[103].parentId, 101);
});

test('values are unescaped; CR dropped, soft line breaks removed', () => {
  const t = sgf.parse('(;C[a\\]b\\\\c\\\nd\r\ne]GN[x\\y])');
  assert.deepStrictEqual(t[0].data, {C: ['a]b\\cd\ne'], GN: ['xy']});
});

test('a property given twice in a node: its values in one array, in order', () => {
  for (const lazy of [true, false]) {
    const t = sgf.parse('(;PB[a]C[x]PB[b];B[aa]W[bb]B[cc]C[\u00e9]C[z])', {lazy});
    assert.deepStrictEqual(t[0].data, {PB: ['a', 'b'], C: ['x']});
    assert.deepStrictEqual(t[0].children[0].data, {B: ['aa', 'cc'], W: ['bb'], C: ['\u00e9', 'z']});
  }
});

test('header values: each as written, when other games have the same or values hashed alike', () => {
  // The module sends a root's plain values with a 16-bit hash of their
  // bytes, and values met before are reused: 70,000 different values
  // share hashes; lengths 1 to 60 (over the reused ones' limit), and
  // values of 65,535 and 65,536 bytes (sent the other way)
  const games = [];
  const want = [];
  for (let i = 0; i < 70000; i++) {
    const pb = `p${i.toString(36)}`.padEnd(3 + (i % 58), String.fromCharCode(97 + (i % 26)));
    const ev = `Event ${i % 97}`;
    games.push(`(;EV[${ev}]PB[${pb}]KM[6.5]RE[W+${i % 3}];B[aa])`);
    want.push({EV: [ev], PB: [pb], KM: ['6.5'], RE: [`W+${i % 3}`]});
  }
  for (const n of [65535, 65536]) {
    games.push(`(;C[${'c'.repeat(n)}]GN[x\\]y])`);
    want.push({C: ['c'.repeat(n)], GN: ['x]y']});
  }
  const text = games.join('\n');
  for (const t of [sgf.parse(text), sgf.parse(text), sgf.parseBuffer(Buffer.from(text)), sgf.parse(text, {lazy: false})]) {
    assert.strictEqual(t.length, want.length);
    for (let i = 0; i < want.length; i++) assert.deepStrictEqual(t[i].data, want[i]);
  }
});

test('lazy trees equal eager ones', () => {
  const text = '(;GM[1]C[root](;B[aa];W[bb](;B[cc]C[x])(;B[dd]))(;B[ee]))\n(;GM[1];B[qd])(;C[one node])';
  const lazy = sgf.parse(text);
  const eager = sgf.parse(text, {lazy: false});
  assert.strictEqual(JSON.stringify(lazy), JSON.stringify(eager));
  assert.deepStrictEqual(lazy, eager);
  assert.strictEqual(lazy[1].id, 6);
  assert.strictEqual(lazy[2].id, 8);
});

test("a lazy root's shape: @sabaki/sgf's keys, children settable before it is read, the game forgotten when built", () => {
  const text = '(;GM[1];B[aa];W[bb])(;GM[1];B[cc])(;GM[1])';
  const t = sgf.parse(text);
  const eager = sgf.parse(text, {lazy: false});
  for (const r of t) assert.deepStrictEqual(Object.keys(r), ['id', 'data', 'parentId', 'children']);
  t[1].children = ['mine'];
  assert.deepStrictEqual(t[1].children, ['mine']);
  assert.deepStrictEqual(Object.getOwnPropertyDescriptor(t[1], 'children'), {value: ['mine'], writable: true, enumerable: true, configurable: true});
  assert.deepStrictEqual(t[0].children, eager[0].children);
  assert.deepStrictEqual(t[2].children, []);
  for (const r of t) {
    assert.deepStrictEqual(Reflect.ownKeys(r), ['id', 'data', 'parentId', 'children']);
    assert.strictEqual(Object.getOwnPropertyDescriptor(r, 'children').get, undefined);
  }
  const fresh = sgf.parse(text)[0]; // (nothing enumerable but those four)
  assert.deepStrictEqual(Object.getOwnPropertySymbols(fresh).filter((k) => Object.getOwnPropertyDescriptor(fresh, k).enumerable), []);
  assert.deepStrictEqual({...fresh}, eager[0]);
});

test('lazy trees of a long string, ASCII or not (the text kept, its byte offsets mapped to indices)', () => {
  // parse() encodes a string into the module 4096 characters at a time:
  // a surrogate pair cut by the first such piece's end, characters of 1
  // to 4 bytes and a lone surrogate, several games in a piece, games
  // across pieces and across the module's 1 MiB chunks, ASCII pieces
  // between the others
  const game = (i, c) => `(;GM[1]PB[p${i}]C[${c}];B[aa];W[bb](;B[cc]C[${c}x])(;B[dd]C[${i}]))\n`;
  const pad = 4095 - '(;GM[1]C['.length;
  let text = `(;GM[1]C[${'z'.repeat(pad)}\u{1F600}];B[aa]C[\u{1F600}é](;W[bb]C[ü])(;W[cc]))\n`;
  assert.strictEqual(text.charCodeAt(4095), 0xd83d);
  const kinds = ['ascii', 'é', '囲碁', '\u{1F600}', 'lone \ud800 surrogate', 'x'.repeat(5000) + 'ü'];
  for (let i = 0; text.length < 2.5e6; i++) text += game(i, kinds[i % 7 < 6 ? i % 7 : 0] + (i % 50 === 0 ? 'y'.repeat(20000) : ''));
  text += '(;GM[1]C[\\]B[a]'; // (and a diagnostic at the end)
  const run = (x, o) => {
    const diagnostics = [];
    const t = sgf.parse(x, Object.assign({diagnostics}, o));
    return JSON.stringify(t) + JSON.stringify(diagnostics);
  };
  const eager = run(text, {lazy: false});
  assert.ok(eager.includes('"\u{1F600}é"'));
  assert.ok(eager.includes('"lone \ufffd surrogatex"'));
  assert.strictEqual(run(text), eager);
  assert.strictEqual(run(Buffer.from(text)), eager);
  const ascii = text.replace(/[^\x00-\x7f]/g, 'a');
  assert.strictEqual(run(ascii), run(ascii, {lazy: false}));
});

test('text given to the module in pieces: surrogate pairs across their ends, lone surrogates at them', () => {
  // Node: a string goes to the module as UTF-16, 349,525 units at a time
  // (a third of 1 MiB), in blocks of 4,096 units (the map of byte offsets
  // to indices); a pair is never cut, a lone surrogate is U+FFFD
  const piece = Math.floor((1 << 20) / 3);
  const at = (i, s) => (t) => t.slice(0, i) + s + t.slice(i + s.length);
  const pad = (n) => `(;GM[1]C[${'z'.repeat(n - 9)}`;
  const games = (n) => {
    let t = '';
    for (let i = 0; t.length < n; i++) t += `(;GM[1]PB[p${i}\u00e9]C[c${i}];B[aa]C[\u{1F600}${i}](;W[bb])(;W[cc]C[\u56f2])))\n`;
    return t;
  };
  const base = pad(4000) + ']' + games(3 * piece);
  const texts = [
    at(piece - 1, '\u{1F600}')(base), // a pair across the first piece's end
    at(2 * piece - 2, '\u{1F600}')(base), // one unit before
    at(4095, '\u{1F600}')(base), // across a block's end
    at(piece - 1, '\ud800')(base), // lone, the piece's last unit
    at(piece, '\udc00')(base), // lone, the next piece's first unit
    base.slice(0, -1) + '\ud83d', // lone at the end of the text
  ];
  for (const text of texts) {
    const diagnostics = [];
    const lazy = sgf.parse(text, {diagnostics});
    const json = JSON.stringify(lazy);
    const eager = sgf.parse(text, {lazy: false});
    assert.strictEqual(json, JSON.stringify(eager));
    assert.strictEqual(json, JSON.stringify(sgf.parseBuffer(Buffer.from(text))));
  }
});

test('parseBuffer: Buffer, Uint8Array, ArrayBuffer', () => {
  const s = '(;PB[\u56f4\u68cb]CA[UTF-8];B[aa])';
  const want = JSON.stringify(sgf.parse(s));
  const b = Buffer.from(s);
  assert.strictEqual(JSON.stringify(sgf.parseBuffer(b)), want);
  assert.strictEqual(JSON.stringify(sgf.parse(new Uint8Array(b))), want);
  assert.strictEqual(JSON.stringify(sgf.parseBuffer(b.buffer.slice(b.byteOffset, b.byteOffset + b.length))), want);
});

test('text by CA, also when CA follows the text; guessed without CA', () => {
  // GB2312 "围棋" = CE A7 C6 E5; Shift_JIS "囲碁" = 88 CD 8C E9; EUC-KR "바둑" = B9 D9 B5 CF
  const gb = Buffer.from([...Buffer.from('(;PB['), 0xce, 0xa7, 0xc6, 0xe5, ...Buffer.from(']CA[GB2312])')]);
  assert.strictEqual(sgf.parseBuffer(gb)[0].data.PB[0], '\u56f4\u68cb');
  // Shift_JIS with no CA (Sabaki#1029), a second byte 0x5C unescaped: "表" = 95 5C
  const sj = Buffer.from([...Buffer.from('(;C['), 0x88, 0xcd, 0x8c, 0xe9, 0x95, 0x5c, ...Buffer.from('];B[aa])')]);
  assert.strictEqual(sgf.parseBuffer(sj)[0].data.C[0], '\u56f2\u7881\u8868');
  const kr = Buffer.from([...Buffer.from('(;C['), 0xb9, 0xd9, 0xb5, 0xcf, ...Buffer.from('])')]);
  assert.strictEqual(sgf.parseBuffer(kr)[0].data.C[0], '\ubc14\ub451');
  // Latin-1 with no CA stays Latin-1; windows-1252 by its table
  assert.strictEqual(sgf.parseBuffer(Buffer.from([...Buffer.from('(;PW[Hrab'), 0xe1, ...Buffer.from('nek])')]))[0].data.PW[0], 'Hrab\u00e1nek');
  assert.strictEqual(sgf.parseBuffer(Buffer.from([...Buffer.from('(;CA[windows-1252]C['), 0x80, 0x9f, ...Buffer.from('])')]))[0].data.C[0], '\u20ac\u0178');
  // a string is text already
  assert.strictEqual(sgf.parse('(;CA[ISO-8859-1]C[\u00e9])')[0].data.C[0], '\u00e9');
  // UTF-16 with a byte-order mark
  const u16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('(;C[\u00e9\u56f4];B[aa])', 'utf16le')]);
  assert.strictEqual(sgf.parseBuffer(u16)[0].data.C[0], '\u00e9\u56f4');
});

test("@sabaki/sgf's own test files (corpus)", {skip: !fs.existsSync(sabakiFiles) && 'no corpus'}, () => {
  const f = (n) => path.join(sabakiFiles, n);
  assert.strictEqual(sgf.parseFile(f('complex.sgf')).length, 1);
  const lang = {chinese: '\u56f4\u68cb', japanese: '\u56f2\u7881', korean: '\ubc14\ub451'};
  for (const l of Object.keys(lang)) {
    assert.strictEqual(sgf.parseFile(f(`${l}.sgf`))[0].children[0].children[0].data.C[0], `${lang[l]} is fun`);
  }
  const zh = sgf.parseFile(f('chinese.sgf'));
  assert.strictEqual(zh[0].data.PW[0], '\u67ef\u6d01');
  assert.strictEqual(zh[0].data.PB[0], '\u53e4\u529b');
  assert.notStrictEqual(sgf.parseFile(f('japanese_bad.sgf'))[0].children[0].children[0].data.C[0], '\u56f2\u7881 is fun');
  assert.doesNotThrow(() => sgf.parseFile(f('utf8bom.sgf')));
  assert.strictEqual(sgf.parseFile(f('utf16le.sgf'))[0].data.PW[0], 'Go Seigen');
  assert.ok(sgf.parseFile(f('no-ca.sgf'))[0].data.C[0].startsWith('\u3010\u7b2c\u4e09\u578b\u3011'));
});

test('stringify: layout, line break option, mixed-case identifiers left out', () => {
  const trees = [
    leaf({B: ['aa'], SZ: ['19']}, [leaf({AB: ['cc', 'dd:ee']})]),
    leaf({CP: ['Copyright']}, [leaf({B: ['ab']}), leaf({W: ['ac']})]),
  ];
  assert.strictEqual(sgf.stringify(trees.slice(0, 1)), '(\n  ;B[aa]SZ[19]\n  ;AB[cc][dd:ee]\n)\n');
  assert.strictEqual(sgf.stringify(trees),
    '(\n  ;B[aa]SZ[19]\n  ;AB[cc][dd:ee]\n)(\n  ;CP[Copyright]\n  (\n    ;B[ab]\n  )(\n    ;W[ac]\n  )\n)\n');
  assert.strictEqual(sgf.stringify(trees, {linebreak: ''}), '(;B[aa]SZ[19];AB[cc][dd:ee])(;CP[Copyright](;B[ab])(;W[ac]))');
  assert.strictEqual(sgf.stringify({data: {B: ['ab'], board: 'x'}, children: []}), ';B[ab]\n');
  assert.strictEqual(sgf.stringify([leaf({C: ['a]b\\c']})], {linebreak: ''}), '(;C[a\\]b\\\\c])');
});

test('stringify round-trips', () => {
  const text = '(;GM[1]FF[4]C[a \\] b\\\\ c\n d](;B[aa];W[bb](;B[cc])(;B[dd]AB[ee][ff]))(;B[ee]))(;C[two])';
  const t = sgf.parse(text);
  for (const lb of ['\n', '', '\r\n']) {
    assert.strictEqual(JSON.stringify(sgf.parse(sgf.stringify(t, {linebreak: lb}))), JSON.stringify(t));
  }
});

test('parseDates / stringifyDates', () => {
  assert.deepStrictEqual(sgf.parseDates('1996-12-27,1997-01-03'), [[1996, 12, 27], [1997, 1, 3]]);
  assert.deepStrictEqual(sgf.parseDates(''), []);
  assert.deepStrictEqual(sgf.parseDates('1996-05,06'), [[1996, 5], [1996, 6]]);
  assert.deepStrictEqual(sgf.parseDates('1996-05,06-01'), [[1996, 5], [1996, 6, 1]]);
  assert.deepStrictEqual(sgf.parseDates('1996-05,1997'), [[1996, 5], [1997]]);
  assert.deepStrictEqual(sgf.parseDates('1996-05-06,07,08'), [[1996, 5, 6], [1996, 5, 7], [1996, 5, 8]]);
  assert.deepStrictEqual(sgf.parseDates('1996-12-27,28,1997-01-03,04'),
    [[1996, 12, 27], [1996, 12, 28], [1997, 1, 3], [1997, 1, 4]]);
  assert.strictEqual(sgf.parseDates('not a date'), null);
  for (const s of ['1996-05,06', '1996-05,06-01', '1996-05,1997', '1996-05-06,07,08', '1996,1997', '1996-12-27,28,1997-01-03,04']) {
    assert.strictEqual(sgf.stringifyDates(sgf.parseDates(s)), s);
  }
  assert.strictEqual(sgf.stringifyDates([]), '');
});

test('vertices', () => {
  assert.deepStrictEqual(sgf.parseVertex(''), [-1, -1]);
  assert.deepStrictEqual(sgf.parseVertex('blah'), [-1, -1]);
  assert.deepStrictEqual(sgf.parseVertex('jf'), [9, 5]);
  assert.deepStrictEqual(sgf.parseVertex('fA'), [5, 26]);
  assert.deepStrictEqual(sgf.parseVertex('AB'), [26, 27]);
  assert.strictEqual(sgf.stringifyVertex([-4, 5]), '');
  assert.strictEqual(sgf.stringifyVertex([1, 100]), '');
  assert.strictEqual(sgf.stringifyVertex([26, 27]), 'AB');
  for (const v of [[-1, -1], [10, 5], [9, 28], [30, 27], [0, 0]]) assert.deepStrictEqual(sgf.parseVertex(sgf.stringifyVertex(v)), v);
  for (const s of ['', 'df', 'AB', 'fA', 'fa']) assert.strictEqual(sgf.stringifyVertex(sgf.parseVertex(s)), s);
  assert.deepStrictEqual(sgf.parseCompressedVertices('ce'), [[2, 4]]);
  assert.deepStrictEqual(sgf.parseCompressedVertices('ce:ce'), [[2, 4]]);
  assert.deepStrictEqual(sgf.parseCompressedVertices('bb:aa'), [[0, 0], [0, 1], [1, 0], [1, 1]]);
});

test('escapeString / unescapeString', () => {
  assert.strictEqual(sgf.escapeString('hello\\world'), 'hello\\\\world');
  assert.strictEqual(sgf.escapeString('hello]world'), 'hello\\]world');
  assert.strictEqual(sgf.escapeString('hello[world'), 'hello[world');
  for (const s of ['hello\\\nworld', 'hello\\\rworld', 'hello\\\n\rworld', 'hello\\\r\nworld']) {
    assert.strictEqual(sgf.unescapeString(s), 'helloworld');
  }
  assert.strictEqual(sgf.unescapeString('he\\]llo wor\\\\ld'), 'he]llo wor\\ld');
  assert.strictEqual(sgf.unescapeString('h\\e\\llo world'), 'hello world');
  for (const s of ['He()llo Wor\\\\[Foo;Bar]ld\\', 'Hello\\! []World!']) {
    assert.strictEqual(sgf.unescapeString(sgf.escapeString(s)), s);
  }
});
