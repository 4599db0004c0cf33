// games() and headers(): over a Node readable stream, a WHATWG
// ReadableStream and bytes, the games parse() gives, one at a time; a
// long generated stream in bounded memory (12 MB here; 1 GB with
// SGF_TEST_FULL=1, or SGFSTREAM_STREAM_MB=N).
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const {Readable} = require('node:stream');
const sgf = require('..');

const TEXT =
  '\ufeff(;GM[1]FF[4]CA[UTF-8]PB[\u67ef\u6d01]PW[Lee]RE[B+R];B[pd];W[dp](;B[qq])(;B[dd]C[x]))\n' +
  'junk (;GM[1]PB[a];B[aa];W[bb])\n(;C[unclosed];B[cc]';

function chunksOf(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function collect(it) {
  const out = [];
  for await (const g of it) out.push(g);
  return out;
}

const plain = (roots) => JSON.parse(JSON.stringify(roots, (k, v) => (k === 'id' || k === 'parentId' ? undefined : v)));

test('games(): the games of parse(), from bytes, a Node stream and a ReadableStream', async () => {
  const bytes = Buffer.from(TEXT);
  const want = plain(sgf.parseBuffer(bytes));
  for (const size of [1, 3, 7, 64, 1 << 20]) {
    const sources = [
      bytes,
      Readable.from(chunksOf(bytes, size)),
      new ReadableStream({
        start(c) {
          for (const x of chunksOf(bytes, size)) c.enqueue(new Uint8Array(x));
          c.close();
        },
      }),
    ];
    for (const src of sources) {
      const it = sgf.games(src);
      const games = await collect(it);
      assert.deepStrictEqual(plain(games.map((g) => g.root)), want, `chunks of ${size}`);
      assert.deepStrictEqual(games.map((g) => g.index), [0, 1, 2]);
      assert.strictEqual(games[0].charset, 'UTF-8');
      // the byte-order mark, the text between two games: in no game's
      // diagnostics
      assert.deepStrictEqual(it.diagnostics.map((d) => `${d.line}:${d.column} ${d.name}`), ['1:1 byte-order-mark', '2:1 junk-after']);
      assert.deepStrictEqual(games[1].diagnostics, []);
      assert.ok(games[2].diagnostics.some((d) => d.name === 'unclosed-tree'));
    }
  }
});

test('games(): the lazy trees read after the stream is over, from a source that reuses its buffer', async () => {
  const bytes = Buffer.from(TEXT.repeat(5));
  const want = plain(sgf.parseBuffer(bytes));
  for (const size of [1, 4, 9, 100]) {
    const buf = Buffer.alloc(size);
    const reused = (async function* () {
      for (let i = 0; i < bytes.length; i += size) {
        const n = bytes.copy(buf, 0, i, i + size);
        yield buf.subarray(0, n);
      }
      buf.fill(0x29); // ')' over what it gave last
    })();
    for (const lazy of [true, false]) {
      const games = await collect(sgf.games(lazy ? reused : Readable.from(chunksOf(bytes, size)), {lazy}));
      // every children accessor read only now
      assert.deepStrictEqual(plain(games.map((g) => g.root)), want, `chunks of ${size}, lazy ${lazy}`);
    }
  }
});

test('parseBuffer(): the lazy trees keep their own copy of a Buffer the caller then reuses', () => {
  const buf = Buffer.from(TEXT.repeat(3));
  const want = plain(sgf.parseBuffer(buf, {lazy: false}));
  const roots = sgf.parseBuffer(buf);
  buf.fill(0x29);
  assert.deepStrictEqual(plain(roots), want);
});

test('headers(): each root, the rest passed over', async () => {
  const bytes = Buffer.from(TEXT);
  const roots = sgf.parseBuffer(bytes);
  const hs = await collect(sgf.headers(Readable.from(chunksOf(bytes, 5))));
  assert.strictEqual(hs.length, 3);
  for (let i = 0; i < 3; i++) {
    assert.deepStrictEqual(hs[i].root.data, roots[i].data);
    assert.deepStrictEqual(hs[i].root.children, []);
  }
});

test('a Blob, an async iterable of strings', async () => {
  const g1 = await collect(sgf.games(new Blob([TEXT])));
  const g2 = await collect(sgf.games((async function* () { yield TEXT.slice(0, 20); yield TEXT.slice(20); })()));
  assert.deepStrictEqual(plain(g1.map((g) => g.root)), plain(g2.map((g) => g.root)));
  assert.strictEqual(g1.length, 3);
});

// n bytes of generated games, made as they are read
function generated(totalBytes) {
  let made = 0;
  let k = 0;
  return new Readable({
    read() {
      if (made >= totalBytes) {
        this.push(null);
        return;
      }
      const parts = [];
      for (let i = 0; i < 200; i++, k++) {
        parts.push(`(;GM[1]FF[4]SZ[19]PB[black ${k}]PW[white ${k}]RE[B+${k % 50}.5]DT[2024-01-02]C[game ${k}]`);
        for (let m = 0; m < 120; m++) parts.push(m % 2 ? ';W[' : ';B[', String.fromCharCode(97 + ((k + m) % 19), 97 + ((k * 7 + m) % 19)), ']');
        parts.push('(;B[aa]C[a variation])(;B[bb]))\n');
      }
      const chunk = Buffer.from(parts.join(''));
      made += chunk.length;
      this.push(chunk);
    },
  });
}

const full = process.env.SGF_TEST_FULL === '1';
const MB = Number(process.env.SGFSTREAM_STREAM_MB) || (full ? 1000 : 12);

test(`${MB} MB of games streamed in bounded memory`, async (t) => {
  const total = MB * 1e6;
  let games = 0;
  let base = 0;
  let peak = 0;
  for await (const g of sgf.games(generated(total))) {
    games++;
    assert.strictEqual(g.root.data.PB[0], `black ${g.index}`);
    if ((games & 1023) === 0) {
      const rss = process.memoryUsage().rss;
      if (games === 4096) base = rss;
      if (rss > peak) peak = rss;
    }
  }
  t.diagnostic(
    `${games} games; RSS ${(base / 1e6).toFixed(0)} MB after 4096 games, at most ${(peak / 1e6).toFixed(0)} MB after; ` +
      `the process's peak RSS ${(process.resourceUsage().maxRSS / 1e3).toFixed(0)} MB`
  );
  assert.ok(games > 1000);
  // a leak of the games read would grow with the input (MB of it)
  assert.ok(peak - base < 160e6, `RSS grew ${((peak - base) / 1e6).toFixed(0)} MB over ${games} games`);
});
