// The push Parser: callbacks, skip / pause / stop, any chunking; the
// diagnostics' positions; strict mode throws with them.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

const TEXT = '(;GM[1]PB[x];B[aa](;W[ab];B[bb];W[cc](;B[dd]))(;W[zz];B[ee]))\n(;GM[1];B[qq])';

function run(cb, chunk, opts) {
  const log = [];
  const p = new sgf.Parser({
    onNode(n, depth) {
      log.push(`${depth}:${sgf.stringify({data: n.data, children: []}, {linebreak: ''})}`);
      return cb ? cb(n) : undefined;
    },
    onGame(root) {
      log.push(`game ${root.data.GM}`);
    },
  }, opts);
  const bytes = Buffer.from(TEXT);
  for (let i = 0; i < bytes.length; i += chunk) {
    if (!p.feed(bytes.subarray(i, i + chunk))) while (!p.resume());
  }
  p.finish();
  return log;
}

test('nodes in order, at their depth, for any chunking', () => {
  const want = run(null, 1 << 20);
  assert.deepStrictEqual(want.slice(0, 4), ['1:;GM[1]PB[x]', '1:;B[aa]', '2:;W[ab]', '2:;B[bb]']);
  assert.strictEqual(want.filter((s) => s.startsWith('game')).length, 2);
  for (const c of [1, 2, 5, 13]) assert.deepStrictEqual(run(null, c), want);
});

test("'skip' passes over the rest of the innermost tree; from a root, the game", () => {
  const log = run((n) => (n.data.B && n.data.B[0] === 'bb' ? 'skip' : undefined), 7);
  assert.ok(!log.includes('2:;W[cc]') && !log.includes('3:;B[dd]'));
  assert.ok(log.includes('2:;W[zz]') && log.includes('2:;B[ee]'));
  const roots = run((n) => (n.parentId === null ? 'skip' : undefined), 3);
  assert.deepStrictEqual(roots, ['1:;GM[1]PB[x]', 'game 1', '1:;GM[1]', 'game 1']);
});

test("'pause' stops feed() at once; resume() goes on", () => {
  const seen = [];
  const p = new sgf.Parser({
    onNode(n) {
      seen.push(n.data);
      if (n.data.W && n.data.W[0] === 'ab') return 'pause';
    },
  });
  assert.strictEqual(p.feed(TEXT), false);
  const at = seen.length;
  assert.deepStrictEqual(seen[at - 1], {W: ['ab']});
  assert.strictEqual(p.feed('(;C[later])'), false); // waits its turn
  assert.strictEqual(seen.length, at);
  assert.strictEqual(p.resume(), true);
  p.finish();
  assert.deepStrictEqual(seen[seen.length - 1], {C: ['later']});
  assert.strictEqual(seen.length, 11);
});

test("'stop' ends the parse", () => {
  let n = 0;
  const p = new sgf.Parser({onNode() { n++; return n === 3 ? 'stop' : undefined; }});
  p.feed(TEXT);
  p.feed(TEXT);
  p.finish();
  assert.strictEqual(n, 3);
});

test('onProperty and onValue', () => {
  const props = [];
  const p = new sgf.Parser({
    onProperty(id, values) { props.push(`${id}=${values.join('|')}`); },
    onValue(id, v) { props.push(v); },
  });
  p.feed('(;AB[aa][bb]C[x\\]y])');
  p.finish();
  assert.deepStrictEqual(props, ['AB=aa|bb', 'aa', 'bb', 'C=x]y', 'x]y']);
});

test('diagnostics: line, column, offset, code, name, message', () => {
  const diags = [];
  sgf.parse('(;B[aa]\n  ;W[bb]) junk\n)', {diagnostics: diags});
  const junk = diags.find((d) => d.name === 'junk-after');
  assert.deepStrictEqual(
    {line: junk.line, column: junk.column, offset: junk.offset, severity: junk.severity},
    {line: 2, column: 11, offset: 18, severity: 'warning'});
  assert.strictEqual(typeof junk.code, 'number');
  assert.ok(junk.message.length > 0);
  const d1 = [];
  sgf.parse('(;B[aa]))', {diagnostics: d1});
  assert.deepStrictEqual(d1.map((d) => [d.name, d.line, d.column]), [['extra-paren', 1, 9]]);
  // positions of a record that lacks its first ';' are those of the input
  const d2 = [];
  sgf.parse('\n  B[hh] x', {diagnostics: d2});
  assert.deepStrictEqual(d2.map((d) => [d.name, d.line, d.column]),
    [['missing-paren', 2, 3], ['no-value', 2, 9], ['unclosed-tree', 2, 10]]);
});

test('strict mode throws an SgfError at the first deviation', () => {
  assert.doesNotThrow(() => sgf.parse('(;GM[1];B[aa])', {strict: true}));
  assert.throws(() => sgf.parse('(;GM[1]\n;B[aa] x)', {strict: true}), (e) => {
    assert.ok(e instanceof sgf.SgfError);
    assert.strictEqual(e.line, 2);
    assert.strictEqual(e.column, 8);
    assert.strictEqual(e.diagnostic.name, 'no-value');
    assert.match(e.message, /^2:8: /);
    return true;
  });
  const p = new sgf.Parser({}, {strict: true});
  assert.throws(() => {
    p.feed('(;B[aa]');
    p.feed(')) ');
    p.finish();
  }, sgf.SgfError);
});
