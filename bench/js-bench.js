#!/usr/bin/env node
// bench/js-bench.js - the JavaScript package (js/) beside @sabaki/sgf, in
// one run, on the same bytes:
//
//   node bench/js-bench.js [--mb MB] [--smoke] [FILE]
//
// FILE defaults to bench/data/aeb.sgf (bench/make-corpus.sh). Every
// measurement runs in a child process of its own (so that its peak RSS,
// process.resourceUsage().maxRSS, is its own), the input read before the
// clock starts:
//
//   @sabaki/sgf parse()        on the first MB megabytes (default 10; cut
//                              before a record), the string decoded first
//   sgfstream parse()          the same bytes, the same string: lazy (each
//                              game's nodes built when read), then
//   sgfstream parse()+walk     ... every node of every game read, with
//                              every value (@sabaki/sgf's row too: its
//                              parse() + the same walk)
//   sgfstream parseBuffer()    the same bytes as a Buffer, lazy (the
//                              bytes copied: parseFile's are not)
//   sgfstream parse(lazy:false) every node built at once
//   sgfstream parseBuffer()    on the whole FILE, lazy, and +walk
//   sgfstream headers()        the whole FILE from a file stream
//   sgfstream games()          the whole FILE from a file stream, each
//                              root's values read, then + walk
//
// and, for the RSS above them, node with the package loaded and the
// input read (the prefix rows that parse the string: and decoded too).
//
// Prints MB/s (10^6 bytes over the best of REPS runs, default 3; 1 with
// --smoke, which also uses MB=2; @sabaki/sgf runs once), the peak RSS of
// a process that parses once, and for the prefix rows the
// ratio to @sabaki/sgf (speed, and its memory over ours: peak RSS, and
// peak RSS above the baseline). @sabaki/sgf is
// taken from bench/peer/node_modules (bench/peer.sh installs it) or
// js/node_modules (npm install in js/); without it its row is skipped.
// The module: $SGFSTREAM_WASM, else $BUILD_DIR/js/sgfstream.wasm, else
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

async function child(what, file, reps) {
  const bytes = fs.readFileSync(file);
  let best = Infinity;
  let cpuBest = Infinity;
  let cpuWalk = Infinity; // @sabaki/sgf's parse() + walk
  let games = 0;
  let nodes = 0;
  let walk = Infinity;
  let keep = null; // (the string, held to the end)
  if (what.startsWith('baseline')) {
    // node with the package loaded and the input read (baseline-string:
    // and decoded, as the string rows hold it), nothing parsed
    require(path.join(top, 'js', 'index.js'));
    if (what === 'baseline-string') keep = bytes.toString('utf8');
  } else if (what === 'sabaki') {
    const sabaki = loadSabaki();
    const text = bytes.toString('utf8');
    for (let r = 0; r < reps; r++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const t = sabaki.parse(text);
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
      cpuBest = Math.min(cpuBest, cpuSince(c0));
      games = t.length;
      nodes = countNodes(t);
      walk = Math.min(walk, Number(process.hrtime.bigint() - t0) / 1e9);
      cpuWalk = Math.min(cpuWalk, cpuSince(c0));
    }
  } else {
    const sgf = require(path.join(top, 'js', 'index.js'));
    const text = what.startsWith('string') ? bytes.toString('utf8') : null;
    for (let r = 0; r < reps; r++) {
      if (what === 'headers' || what.startsWith('games')) {
        const c0 = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        let g = 0;
        let n = 0;
        const it = (what === 'headers' ? sgf.headers : sgf.games)(fs.createReadStream(file, {highWaterMark: 1 << 20}));
        for await (const x of it) {
          g++;
          if (what === 'games-walk') n += countNodes([x.root]);
          else n += countNodes([{data: x.root.data, children: []}]); // the root's values
        }
        best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
        cpuBest = Math.min(cpuBest, cpuSince(c0));
        games = g;
        nodes = n;
        walk = best; // (a games() row's time holds its walk)
        continue;
      }
      const opts = what.endsWith('eager') ? {lazy: false} : {};
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      const t = text !== null ? sgf.parse(text, opts) : sgf.parseBuffer(bytes, opts);
      const t1 = process.hrtime.bigint();
      best = Math.min(best, Number(t1 - t0) / 1e9);
      if (!what.endsWith('walk')) cpuBest = Math.min(cpuBest, cpuSince(c0));
      games = t.length;
      if (what.endsWith('walk') || what.endsWith('eager')) {
        nodes = countNodes(t);
        walk = Math.min(walk, Number(process.hrtime.bigint() - t0) / 1e9);
        if (what.endsWith('walk')) cpuBest = Math.min(cpuBest, cpuSince(c0));
      }
    }
  }
  const rss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({bytes: bytes.length, seconds: best, cpu: cpuBest, cpuWalk, walk, games, nodes, rss}) + '\n');
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
  const out = execFileSync(process.execPath, [__filename, '--child', what, file, String(reps)], {
    env, maxBuffer: 1 << 20, stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.toString());
}

// The times of REPS runs in one process; the peak RSS of a process that
// runs once (what one parse costs, not the garbage of the run before).
function run(what, file, reps, env) {
  try {
    const r = child1(what, file, reps, env);
    if (reps > 1) r.rss = child1(what, file, 1, env).rss;
    return r;
  } catch (e) {
    return {error: (e.message || String(e)).split('\n')[0]};
  }
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--child') return child(argv[1], argv[2], Number(argv[3]));
  let mb = 10;
  let reps = 3;
  let file = null;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--mb') mb = Number(argv[++i]);
    else if (argv[i] === '--smoke') {
      mb = 2;
      reps = 1;
    } else if (argv[i] === '-n') reps = Number(argv[++i]);
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
  const wasmSize = fs.statSync(wasm).size;
  console.log(`js-bench: ${path.basename(small)} (${(fs.statSync(small).size / 1e6).toFixed(1)} MB) and ${path.basename(file)} (${(fs.statSync(file).size / 1e6).toFixed(1)} MB); sgfstream.wasm ${wasmSize} bytes; best of ${reps}`);
  const base = run('baseline', small, 1, env);
  const baseText = run('baseline-string', small, 1, env);
  const rows = [];
  const sab = haveSabaki ? run('sabaki', small, 1, env) : null;
  rows.push(['@sabaki/sgf parse() (string)', 'prefix', sab || {error: 'skipped: @sabaki/sgf not installed (bench/peer.sh installs it)'}]);
  if (sab && !sab.error) rows.push(['@sabaki/sgf parse() (string) + walk', 'prefix', sab]);
  rows.push(['sgfstream parse() (string)', 'prefix', run('string', small, reps, env)]);
  rows.push(['sgfstream parse() (string) + walk', 'prefix', run('string-walk', small, reps, env)]);
  rows.push(['sgfstream parseBuffer()', 'prefix', run('buffer', small, reps, env)]);
  rows.push(['sgfstream parse(lazy: false)', 'prefix', run('string-eager', small, reps, env)]);
  rows.push(['sgfstream parseBuffer()', 'whole', run('buffer', file, reps, env)]);
  rows.push(['sgfstream parseBuffer() + walk', 'whole', run('buffer-walk', file, Math.min(reps, 2), env)]);
  rows.push(['sgfstream headers() (file stream)', 'whole', run('headers', file, reps, env)]);
  rows.push(['sgfstream games() (file stream)', 'whole', run('games', file, Math.min(reps, 2), env)]);
  rows.push(['sgfstream games() + walk', 'whole', run('games-walk', file, Math.min(reps, 2), env)]);
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  // a row's peak RSS above that of node with the same input held (the
  // Buffer; and its string for the rows that parse the string)
  const above = (name, input, r) => {
    const b = input === 'prefix' && (name.includes('(string)') || name.includes('lazy: false')) ? baseText : input === 'prefix' ? base : null;
    return b && !b.error ? (r.rss - b.rss) / 1e6 : null;
  };
  console.log(`${pad('row', 36)} ${pad('input', 7)} ${lpad('MB/s', 8)} ${lpad('MB/s cpu', 9)} ${lpad('peak RSS MB', 12)} ${lpad('above', 6)} ${lpad('games', 7)} ${lpad('x speed', 8)} ${lpad('x cpu', 7)} ${lpad('1/x mem', 8)} ${lpad('1/x above', 9)}`);
  for (const [name, input, r] of rows) {
    if (r.error) {
      console.log(`${pad(name, 36)} ${pad(input, 7)} ${r.error}`);
      continue;
    }
    const secs = name.includes('walk') ? r.walk : r.seconds;
    const mbs = r.bytes / 1e6 / secs;
    const cpus = r.bytes / 1e6 / (name.startsWith('@sabaki') && name.includes('walk') ? r.cpuWalk : r.cpu);
    let xs = '';
    let xc = '';
    let xm = '';
    let xa = '';
    const ab = above(name, input, r);
    if (input === 'prefix' && sab && !sab.error && !name.startsWith('@sabaki')) {
      // against @sabaki/sgf's parse(), or its parse() + walk for a row
      // that reads the trees (its parse() is eager: the walk reads them)
      const walked = name.includes('walk');
      xs = (mbs / (sab.bytes / 1e6 / (walked ? sab.walk : sab.seconds))).toFixed(1);
      xc = (cpus / (sab.bytes / 1e6 / (walked ? sab.cpuWalk : sab.cpu))).toFixed(1);
      xm = (sab.rss / r.rss).toFixed(1);
      const sa = above('(string)', 'prefix', sab);
      if (ab !== null && sa !== null) xa = (sa / ab).toFixed(1);
    }
    console.log(`${pad(name, 36)} ${pad(input, 7)} ${lpad(mbs.toFixed(1), 8)} ${lpad(cpus.toFixed(1), 9)} ${lpad((r.rss / 1e6).toFixed(0), 12)} ${lpad(ab === null ? '' : ab.toFixed(0), 6)} ${lpad(r.games, 7)} ${lpad(xs, 8)} ${lpad(xc, 7)} ${lpad(xm, 8)} ${lpad(xa, 9)}`);
  }
  if (!base.error && !baseText.error) {
    console.log(`above: peak RSS above that of node with the input read (${(base.rss / 1e6).toFixed(0)} MB), and decoded to a string for the (string) rows (${(baseText.rss / 1e6).toFixed(0)} MB)`);
  }
  console.log('MB/s: 10^6 bytes over the best wall time; MB/s cpu: over the best CPU time of the process (all its threads),');
  console.log('steadier on a loaded machine. x speed, x cpu: over @sabaki/sgf\'s on the same prefix; 1/x mem: its peak RSS over the row\'s,');
  console.log('1/x above: the same of the RSS above the baselines.');
  console.log('"+ walk": parse() then every node of every game read, with every value of every property (the lazy trees built);');
  console.log('the time is both, and its ratio is to @sabaki/sgf\'s parse() + the same walk. games(): each game walked so too.');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
