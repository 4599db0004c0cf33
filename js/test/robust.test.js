// Random bytes and truncated input: diagnostics or an SgfError, never a
// crash, another exception or a hang (each test has a time limit).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const sgf = require('..');

// a reproducible generator (an LCG)
function rng(seed) {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x;
  };
}

const ALPHABET = Buffer.from('();[]\\\\ \n\rABCWabqdz:\x00\x81\xe3\xff');

function randomInput(r, n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = r() % 3 === 0 ? r() & 255 : ALPHABET[r() % ALPHABET.length];
  return b;
}

function noCrash(bytes, opts) {
  try {
    const t = sgf.parseBuffer(bytes, opts);
    sgf.stringify(t); // and every lazy tree built
  } catch (e) {
    if (!(e instanceof sgf.SgfError)) throw e;
    assert.strictEqual(typeof e.line, 'number');
    return false;
  }
  return true;
}

test('random bytes: lenient parses, strict refuses with a position', {timeout: 60000}, () => {
  const r = rng(31);
  let refused = 0;
  for (let i = 0; i < 1500; i++) {
    const b = randomInput(r, r() % 600);
    assert.ok(noCrash(b, {}), 'lenient mode throws only at a fatal error');
    if (!noCrash(b, {strict: true})) refused++;
  }
  assert.ok(refused > 1000);
});

test('every truncation of a record', {timeout: 60000}, async () => {
  const text = Buffer.from('(;GM[1]FF[4]CA[UTF-8]PB[\u67ef\u6d01]C[a\\]b\r\n](;B[pd];W[dp]C[x](;B[qq]))(;B[dd]))(;W[aa])');
  for (let n = 0; n <= text.length; n++) {
    const cut = text.subarray(0, n);
    const diags = [];
    assert.ok(noCrash(cut, {diagnostics: diags}));
    if (n > 0 && text[n - 1] !== 0x29) assert.ok(diags.length > 0, `cut at ${n}: no diagnostic`);
    for await (const g of sgf.games(cut)) assert.ok(g.root);
    for await (const g of sgf.headers(cut)) assert.ok(g.root);
  }
});

test('random bytes through games() and the Parser, in small chunks', {timeout: 60000}, async () => {
  const r = rng(7);
  for (let i = 0; i < 200; i++) {
    const b = randomInput(r, r() % 2000);
    const chunks = [];
    for (let k = 0; k < b.length; k += 1 + (r() % 50)) chunks.push(b.subarray(k, k + 1 + (r() % 50)));
    for await (const g of sgf.games(chunks)) assert.ok(g.root);
    const p = new sgf.Parser({onNode: () => (r() % 20 === 0 ? 'skip' : undefined)});
    for (const c of chunks) p.feed(c);
    p.finish();
  }
});
