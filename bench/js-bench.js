#!/usr/bin/env node
// bench/js-bench.js - the JavaScript package (js/) beside @sabaki/sgf, in
// one run, on the same bytes:
//
//   node bench/js-bench.js [--mb MB] [-n REPS] [--rounds N] [--js DIR]
//                          [--base DIR] [--smoke] [FILE]
//
// FILE defaults to bench/data/aeb.sgf (bench/make-corpus.sh). Every
// measurement runs in a child process of its own (node --expose-gc: a
// full collection before each run), REPS runs (default 3) each, the
// input read before the clock starts:
//
//   @sabaki/sgf parse()        on the first MB megabytes (default 10; cut
//                              before a record), the string decoded first;
//                              + walk: then every node read
//   sgfstream parse()          the same string: lazy (each game's nodes
//                              built when first read)
//   sgfstream parse()+walk     ... then every node of every game read,
//                              with every value (the eager cost)
//   sgfstream parseBuffer()    the same bytes as a Buffer, lazy (the
//                              bytes copied: parseFile's are not)
//   sgfstream parse(lazy:false) every node built at once
//   sgfstream parseBuffer()    on the whole FILE, lazy, and + walk
//   sgfstream headers()        the whole FILE from a file stream
//   sgfstream games()          the whole FILE from a file stream, each
//                              root's values read, then + walk
//
// The prefix rows, headers() and games() run in N rounds (default 3),
// @sabaki/sgf's process and ours in turn, so that a change of load on
// the machine falls on both; each row takes the best of all its runs. Printed: MB/s by wall
// time, by CPU time and of the first run in a process (the JIT cold);
// memory as the peak RSS above the RSS before the parse, and as V8's
// heap + external + ArrayBuffers held after it (the result alive); and
// @sabaki/sgf's time and memory over each prefix row's. --smoke: MB=2,
// one round of one run. --js DIR: the package in DIR (default js/).
// --base DIR: another copy of the package (with its own sgfstream.wasm,
// if DIR has one) measured too, its rows ("base ...") beside ours and
// its processes in turn with ours: a change's before and after in one
// run. @sabaki/sgf is taken from
// bench/peer/node_modules (bench/peer.sh installs it) or js/node_modules
// (npm install in js/); without it its row is skipped. The module:
// $SGFSTREAM_WASM, else $BUILD_DIR/js/sgfstream.wasm, else
// ./js/sgfstream.wasm. Never fails on timing.
'use strict';
const fs = require('fs');
const path = require('path');
const {execFileSync} = require('child_process');

const here = __dirname;
const top = path.dirname(here);

function findWasm() {
  const c = [process.env.SGFSTREAM_WASM, process.env.BUILD_DIR && path.join(process.env.BUILD_DIR, 'js', 'sgfstream.wasm'),
    path.resolve('js', 'sgfstream.wasm'), path.join(top, '_build', 'js', 'sgfstream.wasm')];
  for (const f of c) if (f && fs.existsSync(f)) return path.resolve(f);
  return null;
}

function loadSabaki() {
  for (const d of [path.join(here, 'peer', 'node_modules'), path.join(top, 'js', 'node_modules')]) {
    try {
      return require(require.resolve('@sabaki/sgf', {paths: [d]}));
    } catch (e) {
      // next
    }
  }
  return null;
}

// What a program that reads the trees does: every node, every property,
// every value (its length, so that the string is there). Returns the
// node count.
let valueChars = 0;
function countNodes(roots) {
  let n = 0;
  let c = 0;
  const work = roots.slice();
  while (work.length) {
    const x = work.pop();
    n++;
    const data = x.data;
    for (const id in data) {
      const vals = data[id];
      for (let i = 0; i < vals.length; i++) c += vals[i].length;
    }
    const ch = x.children;
    for (let i = 0; i < ch.length; i++) work.push(ch[i]);
  }
  valueChars += c;
  return n;
}

// ------------------------------------------------------------ one child

// CPU seconds of this process (every thread: the GC's too) since c0
function cpuSince(c0) {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}

// what the heap holds: V8's heap and what lives outside it (the
// WebAssembly memory, Buffers)
function held() {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
}

const gc = typeof global.gc === 'function' ? global.gc : () => {};

// One library on one input, REPS times in this process (run with
// --expose-gc: a full collection before each run, so that a run does not
// pay for the garbage of the one before). Reports the first run (cold:
// the JIT not warmed up) and the best, by wall and by CPU time, each
// with and without the walk (parse() then countNodes(); a games() row's
// time holds its walk), and the memory of the first run: peak RSS above
// the RSS just before it, and what the heap, external memory and
// ArrayBuffers hold after it with its result alive, above before it.
async function child(what, file, reps) {
  const bytes = fs.readFileSync(file);
  const r = {bytes: bytes.length, games: 0, nodes: 0, first: null, firstCpu: null, wall: Infinity, cpu: Infinity,
    walk: Infinity, walkCpu: Infinity, peakAbove: 0, heldAbove: 0};
  const sabaki = what === 'sabaki' ? loadSabaki() : null;
  const sgf = sabaki ? null : require(path.join(pkgDir(), 'index.js'));
  const text = what === 'sabaki' || what.startsWith('string') ? bytes.toString('utf8') : null;
  const walked = what.endsWith('walk') || what === 'sabaki';
  for (let k = 0; k < reps; k++) {
    gc();
    const rss0 = process.memoryUsage().rss;
    const held0 = held();
    const c0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    let result = null;
    let t1;
    let c1;
    if (what === 'headers' || what.startsWith('games')) {
      let g = 0;
      let n = 0;
      const it = (what === 'headers' ? sgf.headers : sgf.games)(fs.createReadStream(file, {highWaterMark: 1 << 20}));
      for await (const x of it) {
        g++;
        if (what === 'games-walk') n += countNodes([x.root]);
        else n += countNodes([{data: x.root.data, children: []}]); // the root's values
      }
      r.games = g;
      r.nodes = n;
    } else {
      const opts = what.endsWith('eager') ? {lazy: false} : {};
      result = sabaki ? sabaki.parse(text) : text !== null ? sgf.parse(text, opts) : sgf.parseBuffer(bytes, opts);
      r.games = result.length;
    }
    t1 = Number(process.hrtime.bigint() - t0) / 1e9;
    c1 = cpuSince(c0);
    if (walked && result !== null) r.nodes = countNodes(result);
    const tw = Number(process.hrtime.bigint() - t0) / 1e9;
    const cw = cpuSince(c0);
    if (k === 0) {
      r.first = walked ? tw : t1;
      r.firstCpu = walked ? cw : c1;
      r.peakAbove = Math.max(0, process.resourceUsage().maxRSS * 1024 - rss0);
      gc();
      r.heldAbove = held() - held0;
    }
    r.wall = Math.min(r.wall, t1);
    r.cpu = Math.min(r.cpu, c1);
    r.walk = Math.min(r.walk, tw);
    r.walkCpu = Math.min(r.walkCpu, cw);
    result = null;
  }
  r.rss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify(r) + '\n');
}

// ---------------------------------------------------------------- driver

function prefix(file, mb) {
  const size = fs.statSync(file).size;
  const want = Math.round(mb * 1e6);
  if (size <= want) return file;
  const out = path.join(path.dirname(file), `js-${path.basename(file, '.sgf')}-${mb}mb.sgf`);
  if (fs.existsSync(out) && fs.statSync(out).mtimeMs >= fs.statSync(file).mtimeMs) return out;
  const fd = fs.openSync(file, 'r');
  const buf = Buffer.alloc(want);
  fs.readSync(fd, buf, 0, want, 0);
  fs.closeSync(fd);
  const cut = buf.lastIndexOf('\n(;');
  fs.writeFileSync(out, buf.subarray(0, cut > 0 ? cut + 1 : want));
  return out;
}

function child1(what, file, reps, env) {
  const out = execFileSync(process.execPath, ['--expose-gc', __filename, '--child', what, file, String(reps)], {
    env, maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.toString());
}

// The best of several children (each REPS runs): the least time of all,
// the least first-run time, the memory of the first child.
function run(what, file, reps, env, best) {
  let r;
  try {
    r = child1(what, file, reps, env);
  } catch (e) {
    return {error: (e.message || String(e)).split('\n')[0]};
  }
  if (!best || best.error) return r;
  for (const k of ['first', 'firstCpu', 'wall', 'cpu', 'walk', 'walkCpu']) best[k] = Math.min(best[k], r[k]);
  return best;
}

const pkgDir = () => process.env.SGFSTREAM_JS || path.join(top, 'js');

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv[2], Number(argv[3]));
  let mb = 10;
  let reps = 3;
  let rounds = 3;
  let file = null;
  let base = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--mb') mb = Number(argv[++i]);
    else if (argv[i] === '--smoke') {
      mb = 2;
      reps = 1;
      rounds = 1;
    } else if (argv[i] === '-n') reps = Number(argv[++i]);
    else if (argv[i] === '--rounds') rounds = Number(argv[++i]);
    else if (argv[i] === '--js') process.env.SGFSTREAM_JS = path.resolve(argv[++i]);
    else if (argv[i] === '--base') base = path.resolve(argv[++i]);
    else if (argv[i] === '-h' || argv[i] === '--help') {
      console.log(fs.readFileSync(__filename, 'utf8').split("'use strict'")[0].split('\n').slice(1, -1).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      return;
    } else file = argv[i];
  }
  file = file || path.join(here, 'data', 'aeb.sgf');
  if (!fs.existsSync(file)) {
    console.error(`js-bench: no ${file} (bench/make-corpus.sh makes it)`);
    process.exit(1);
  }
  const wasm = findWasm();
  if (!wasm) {
    console.log('js-bench: SKIPPED: no js/sgfstream.wasm (configure --enable-wasm; make)');
    return;
  }
  const env = Object.assign({}, process.env, {SGFSTREAM_WASM: wasm});
  const small = prefix(file, mb);
  const haveSabaki = loadSabaki() !== null;
  console.log(`js-bench: ${path.basename(small)} (${(fs.statSync(small).size / 1e6).toFixed(1)} MB) and ${path.basename(file)} (${(fs.statSync(file).size / 1e6).toFixed(1)} MB); ` +
    `${pkgDir()}, sgfstream.wasm ${fs.statSync(wasm).size} bytes; ${rounds} rounds, the libraries alternating, ${reps} runs a process`);
  // --base DIR: that copy of the package too (its own sgfstream.wasm, if
  // it has one), its rows beside ours, alternating with them
  const pkgs = [['sgfstream', env]];
  if (base) {
    const bw = path.join(base, 'sgfstream.wasm');
    pkgs.push(['base', Object.assign({}, env, {SGFSTREAM_JS: base, SGFSTREAM_WASM: fs.existsSync(bw) ? bw : wasm})]);
    console.log(`js-bench: base: ${base}`);
  }
  // [what, label, input, walked, runs a process, rounds]: the prefix rows
  // run round after round, @sabaki/sgf's process and each package's in
  // turn; of the whole file, headers() and games() too
  const kinds = [
    ['string', 'parse() (string)', 'prefix', false, reps, rounds],
    ['string-walk', 'parse() (string) + walk', 'prefix', true, reps, rounds],
    ['buffer', 'parseBuffer()', 'prefix', false, reps, rounds],
    ['string-eager', 'parse(lazy: false)', 'prefix', false, reps, rounds],
    ['buffer', 'parseBuffer()', 'whole', false, reps, 1],
    ['buffer-walk', 'parseBuffer() + walk', 'whole', true, 1, 1],
    ['headers', 'headers() (file stream)', 'whole', false, reps, rounds],
    ['games', 'games() (file stream)', 'whole', false, reps, rounds],
    ['games-walk', 'games() + walk', 'whole', true, 1, 1],
  ];
  const got = new Map(); // what + input + package: the best so far
  let sab = haveSabaki ? undefined : {error: 'skipped: @sabaki/sgf not installed (bench/peer.sh installs it)'};
  for (let k = 0; k < rounds; k++) {
    if (haveSabaki) sab = run('sabaki', small, reps, env, sab);
    for (const [what, , input, , n, r] of kinds) {
      if (k >= r) continue;
      for (const [name, e] of pkgs) {
        const key = `${what} ${input} ${name}`;
        got.set(key, run(what, input === 'prefix' ? small : file, n, e, got.get(key)));
      }
    }
  }
  const rows = [
    ['@sabaki/sgf parse() (string)', 'prefix', sab, false],
    ['@sabaki/sgf parse() (string) + walk', 'prefix', sab, true],
  ];
  for (const [what, label, input, walked] of kinds) {
    for (const [name] of pkgs) rows.push([`${name} ${label}`, input, got.get(`${what} ${input} ${name}`), walked]);
  }
  if (sab && sab.error) sab = null;
  const cols = [['row', -36], ['input', -6], ['MB/s', 7], ['MB/s cpu', 9], ['MB/s 1st', 9], ['peak+ MB', 9], ['held MB', 8],
    ['games', 6], ['x wall', 7], ['x cpu', 6], ['x 1st', 6], ['/ peak+', 8], ['/ held', 7]];
  const line = (v) => console.log(v.map((x, i) => (cols[i][1] < 0 ? String(x).padEnd(-cols[i][1]) : String(x).padStart(cols[i][1]))).join(' '));
  line(cols.map((c) => c[0]));
  const mbs = (r, secs) => r.bytes / 1e6 / secs;
  for (const [name, input, r, walked] of rows) {
    if (!r || r.error) {
      console.log(`${name.padEnd(36)} ${input.padEnd(6)} ${r.error || 'no result'}`);
      continue;
    }
    // a walked row's times hold the walk
    const wall = walked ? r.walk : r.wall;
    const cpu = walked ? r.walkCpu : r.cpu;
    const v = [name, input, mbs(r, wall).toFixed(1), mbs(r, cpu).toFixed(1), mbs(r, r.first).toFixed(1),
      (r.peakAbove / 1e6).toFixed(0), (r.heldAbove / 1e6).toFixed(0), r.games, '', '', '', '', ''];
    if (input === 'prefix' && sab && !name.startsWith('@sabaki')) {
      // against @sabaki/sgf's parse() (eager), or its parse() + the same walk
      v[8] = ((walked ? sab.walk : sab.wall) / wall).toFixed(0);
      v[9] = ((walked ? sab.walkCpu : sab.cpu) / cpu).toFixed(0);
      v[10] = (sab.first / r.first).toFixed(0);
      v[11] = (sab.peakAbove / Math.max(r.peakAbove, 1e5)).toFixed(1);
      v[12] = (sab.heldAbove / Math.max(r.heldAbove, 1e5)).toFixed(1);
    }
    line(v);
  }
  console.log('MB/s: 10^6 bytes over the best wall time of all runs; cpu: over the best CPU time (all threads: steadier on a');
  console.log('loaded machine); 1st: over the best time of a first run in a process (the JIT cold). peak+: peak RSS above the');
  console.log('RSS before the first run; held: V8 heap + external + ArrayBuffers after it (a full GC, the result alive), above');
  console.log('before it. x wall, x cpu, x 1st: @sabaki/sgf\'s time over the row\'s; / peak+, / held: its memory over the row\'s.');
  console.log('"+ walk": every node of every game read, every value of every property (the lazy trees built), in the time;');
  console.log('compared with @sabaki/sgf\'s parse() + the same walk. games(): each root\'s values read; + walk: every node.');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
