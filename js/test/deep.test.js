// Deep trees: 10^6 nested variations and a 10^6-move main line parse,
// walk and write without a stack overflow (nothing recurses).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

const N = 1000000;

// depth of the deepest node and the node count, walking with a stack
function measure(roots) {
  let nodes = 0;
  let deepest = 0;
  const work = roots.map((r) => [r, 1]);
  while (work.length) {
    const [n, d] = work.pop();
    nodes++;
    if (d > deepest) deepest = d;
    for (const c of n.children) work.push([c, d + 1]);
  }
  return {nodes, deepest};
}

test('10^6 nested variations', () => {
  const text = '(;B[aa]'.repeat(N) + ')'.repeat(N);
  const t = sgf.parse(text);
  assert.deepStrictEqual(measure(t), {nodes: N, deepest: N});
  // a node's only child is written after it, in its sequence
  assert.strictEqual(sgf.stringify(t, {linebreak: ''}), '(' + ';B[aa]'.repeat(N) + ')');
});

test('nested variations with two branches each, built eagerly', () => {
  const k = N / 10;
  const text = '(;B[aa](;W[bb])'.repeat(k) + ')'.repeat(k);
  const t = sgf.parse(text, {lazy: false});
  assert.deepStrictEqual(measure(t), {nodes: 2 * k, deepest: k + 1});
  const again = sgf.parse(sgf.stringify(t, {linebreak: ''}));
  assert.deepStrictEqual(measure(again), {nodes: 2 * k, deepest: k + 1});
  assert.deepStrictEqual(again[0].children[0], t[0].children[0]);
});

test('a 10^6-move main line', async () => {
  const body = ';B[pd];W[dp]'.repeat(N / 2);
  const text = '(;GM[1]SZ[19]' + body + ')';
  const t = sgf.parse(text);
  assert.deepStrictEqual(measure(t), {nodes: N + 1, deepest: N + 1});
  assert.strictEqual(sgf.stringify(t, {linebreak: ''}), '(;GM[1]SZ[19]' + body + ')');
  let games = 0;
  for await (const g of sgf.games(Buffer.from(text))) {
    games++;
    assert.strictEqual(measure([g.root]).nodes, N + 1);
  }
  assert.strictEqual(games, 1);
});

test('deeper than maxDepth is an error, not a crash', () => {
  assert.throws(() => sgf.parse('('.repeat(100) + ';B[aa]' + ')'.repeat(100), {maxDepth: 50}),
    (e) => e instanceof sgf.SgfError && e.diagnostic.name === 'depth-limit');
});
