#!/usr/bin/env node
/* browser-check.mjs - the page's test (js/page/index.html) in headless
 * Chromium, driven over the DevTools protocol through a pipe
 * (--remote-debugging-pipe: JSON messages ending in NUL on file
 * descriptors 3 and 4), so it needs no package and no network port but
 * the page's own server on 127.0.0.1.
 *
 *   node browser-check.mjs --sgf SGF --chromium CHROMIUM --data DIR
 *        --out DIR [--root DIR] [--wasm FILE]
 *
 * It serves the page (serve.mjs), loads it, checks that the parser runs
 * in a dedicated worker (worker.js reports its global's class, and the
 * page has no sgfstream of its own), gives the file input every
 * .sgf file under --data plus one collection made of them (DOM.
 * setFileInputFiles), then drops a file with deliberate problems on the
 * page (Input.dispatchDragEvent, a real drop), and checks the table and
 * the warnings against the C tool on the same files: one row per game
 * of `sgf json --mainline` in the same order, with the same players,
 * result, date and number of moves; the games `sgf stats --json` counts;
 * the diagnostics `sgf json` prints, each at the same line and column.
 * The page must raise no exception and log no error. The screenshot is
 * --out/page.png. Last, the page opened from file:// must say to serve
 * it. Every wait has a deadline, and the whole run one
 * (CHECK_TIMEOUT seconds, default 180): it cannot hang. Exit 0 passed,
 * 1 failed. */
import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {start} from './serve.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const T0 = Date.now();
const log = (msg) => console.log(`[${((Date.now() - T0) / 1000).toFixed(1)}s] ${msg}`);

// ------------------------------------------------------------ arguments
const opts = {root: path.join(here, '..')};
{
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const m = /^--(sgf|chromium|data|out|root|wasm)(?:=(.*))?$/.exec(args[i]);
    if (!m) usage(`unknown argument '${args[i]}'`);
    opts[m[1]] = m[2] !== undefined ? m[2] : args[++i];
    if (opts[m[1]] === undefined) usage(`--${m[1]} needs a value`);
  }
  for (const k of ['sgf', 'chromium', 'data', 'out']) if (!opts[k]) usage(`--${k} is required`);
}
function usage(msg) {
  console.error(`browser-check: ${msg}\nusage: node browser-check.mjs --sgf SGF --chromium CHROMIUM --data DIR --out DIR [--root DIR] [--wasm FILE]`);
  process.exit(2);
}

const failures = [];
function check(ok, msg) {
  if (!ok) {
    failures.push(msg);
    console.log(`FAIL: ${msg}`);
  }
  return ok;
}

// ------------------------------------------------------ the test files
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sgfstream-page-'));

function sgfFiles(dir) {
  const out = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of fs.readdirSync(d, {withFileTypes: true})) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile() && e.name.endsWith('.sgf')) out.push(p);
    }
  }
  return out.sort();
}

const samples = sgfFiles(path.resolve(opts.data));
// One file holding many games: every sample that is one whole game tree,
// one after another (the tool and the page must find them all).
const collection = path.join(tmp, 'collection-of-samples.sgf');
fs.writeFileSync(
  collection,
  Buffer.concat(samples.map((f) => Buffer.concat([fs.readFileSync(f), Buffer.from('\n')])))
);
// Deliberate problems, each with a known place: a lowercase identifier
// (4:7), text between two games (6:1), a game tree not closed at the end
// of input (10:1); text after the last game (2:1 of trailing.sgf, in no
// game); a file with no game tree at all (nogame.sgf).
const broken = path.join(tmp, 'broken.sgf');
fs.writeFileSync(
  broken,
  '(;FF[4]GM[1]SZ[19]PB[Ann]BR[3d]PW[Bob]WR[2k]RE[B+R]DT[2024-05-01]\n;B[pd]\n;W[dp]C[fine]\n;B[pp]w[dd]\n)\n' +
    'stray text\n(;FF[4]PB[Cid]PW[Dee]RE[W+0.5];B[aa];W[]\n(;B[bb])(;B[cc];W[dd]))\n' +
    '(;FF[4]PB[Eve]PW[Fay];B[ab];W[ba]\n'
);
const trailing = path.join(tmp, 'trailing.sgf');
fs.writeFileSync(trailing, '(;FF[4]PB[Gus]PW[Hal];B[aa])\nthe end\n');
const nogame = path.join(tmp, 'nogame.sgf');
fs.writeFileSync(nogame, 'no game here\n');
const batches = [
  {how: 'chosen', files: [...samples, collection]},
  {how: 'dropped', files: [broken, trailing, nogame]},
];

// ------------------------------------------------- what the tool says
const DIAG = /^(.*):(\d+):(\d+): (warning|error|fatal): (.*) \[([^\]/]+)(?:\/\d+)?\]/;

function toolSays(files) {
  const r = spawnSync(opts.sgf, ['json', '--mainline', '--quiet', ...files], {encoding: 'utf8', maxBuffer: 1 << 28, timeout: 30000});
  if (r.error) throw r.error;
  if (r.status !== 0 && r.status !== 1 && r.status !== 2) throw new Error(`sgf json exited ${r.status}: ${r.stderr}`);
  const starts = [];
  const games = r.stdout
    .split('\n')
    .filter((l) => l)
    .map((l) => {
      const g = JSON.parse(l);
      const row = {
        file: path.basename(g.source.file),
        game: g.source.game,
        black: g.black,
        blackRank: g.black_rank,
        white: g.white,
        whiteRank: g.white_rank,
        result: g.result,
        date: g.date,
        moves: g.moves.length,
      };
      starts.push({file: g.source.file, line: g.source.line, column: g.source.column, game: row});
      return row;
    });
  // Diagnostics: FILE:LINE:COL: SEVERITY: MESSAGE [NAME]. The tool's
  // text that does not decode (an error without a NAME: the value is
  // written as ISO-8859-1) is a warning in the JavaScript API, at the same
  // byte (bad-utf8 under UTF-8, else bad-text), which decodes the text as
  // @sabaki/sgf does (TextDecoder, U+FFFD): that game's text fields are
  // not compared, and the run says how many were passed over.
  const diagnostics = [];
  const undecodable = [];
  for (const l of r.stderr.split('\n')) {
    const m = DIAG.exec(l);
    if (m) diagnostics.push(`${path.basename(m[1])}:${m[2]}:${m[3]}: ${m[4]} [${m[6]}]`);
    else if (/: error: text does not decode as /.test(l)) {
      const u = /^(.*):(\d+):(\d+): /.exec(l);
      undecodable.push({file: u[1], line: Number(u[2]), column: Number(u[3])});
    } else if (l.trim()) throw new Error(`sgf json printed an unexpected line: ${l}`);
  }
  // every text value is decoded by the page, and by `sgf json` without
  // --mainline: its decode errors, each a warning on the page
  const all = spawnSync(opts.sgf, ['json', '--quiet', ...files], {encoding: 'utf8', maxBuffer: 1 << 28, timeout: 30000});
  if (all.error) throw all.error;
  for (const l of all.stderr.split('\n')) {
    const u = /^(.*):(\d+):(\d+): error: text does not decode as (\S+) /.exec(l);
    if (u) diagnostics.push(`${path.basename(u[1])}:${u[2]}:${u[3]}: warning [${u[4] === 'UTF-8' ? 'bad-utf8' : 'bad-text'}]`);
  }
  for (const u of undecodable) {
    let game = null;
    for (const g of starts) {
      if (g.file !== u.file) continue;
      if (g.line < u.line || (g.line === u.line && g.column <= u.column)) game = g.game;
    }
    if (game !== null) game.undecodable = true;
  }
  const s = spawnSync(opts.sgf, ['stats', '--json', '--no-time', '--quiet', ...files], {encoding: 'utf8', maxBuffer: 1 << 26, timeout: 30000});
  if (s.error) throw s.error;
  const total = JSON.parse(s.stdout).total;
  return {games, diagnostics: diagnostics.sort(), statsGames: total.games, undecodable: undecodable.length};
}

// --------------------------------------------- a DevTools protocol pipe
class Browser {
  constructor(exe, userDir) {
    const args = [
      '--headless=new',
      '--remote-debugging-pipe',
      `--user-data-dir=${userDir}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-gpu',
      '--disable-extensions',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--mute-audio',
      '--hide-scrollbars',
      'about:blank',
    ];
    // The sandbox needs user namespaces or a setuid helper; as root (a
    // container, CI) Chromium refuses to start with it.
    if (process.getuid && process.getuid() === 0) args.unshift('--no-sandbox');
    this.proc = spawn(exe, args, {stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true});
    this.stderr = '';
    this.proc.stderr.on('data', (d) => {
      this.stderr = (this.stderr + d).slice(-4000);
    });
    this.exited = new Promise((resolve) => this.proc.once('exit', resolve));
    this.proc.once('exit', (code, sig) => {
      for (const {reject} of this.calls.values()) reject(new Error(`chromium exited (${code ?? sig}): ${this.stderr}`));
      this.calls.clear();
    });
    this.proc.once('error', (e) => {
      for (const {reject} of this.calls.values()) reject(e);
      this.calls.clear();
    });
    this.out = this.proc.stdio[3];
    this.out.on('error', () => {});
    this.calls = new Map();
    this.nextId = 1;
    this.listeners = [];
    let buf = Buffer.alloc(0);
    this.proc.stdio[4].on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      let z;
      while ((z = buf.indexOf(0)) >= 0) {
        const msg = JSON.parse(buf.subarray(0, z).toString('utf8'));
        buf = buf.subarray(z + 1);
        this.dispatch(msg);
      }
    });
  }

  dispatch(msg) {
    if (msg.id !== undefined) {
      const c = this.calls.get(msg.id);
      if (!c) return;
      this.calls.delete(msg.id);
      if (msg.error) c.reject(new Error(`${c.method}: ${msg.error.message} ${msg.error.data || ''}`));
      else c.resolve(msg.result);
    } else {
      for (const f of this.listeners) f(msg);
    }
  }

  /* One command, answered within ms milliseconds. */
  send(method, params = {}, sessionId = undefined, ms = waitMs) {
    const id = this.nextId++;
    const msg = {id, method, params};
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.calls.delete(id);
        reject(new Error(`${method}: no answer in ${ms} ms`));
      }, ms);
      this.calls.set(id, {
        method,
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.out.write(JSON.stringify(msg) + '\0');
    });
  }

  async close() {
    try {
      await this.send('Browser.close', {}, undefined, 3000);
    } catch {
      /* killed below */
    }
    const t = new Promise((r) => setTimeout(r, 3000, 'late'));
    if ((await Promise.race([this.exited, t])) === 'late') kill(this.proc);
  }
}

function kill(proc) {
  try {
    process.kill(-proc.pid, 'SIGKILL'); // its process group: the renderers too
  } catch {
    /* gone */
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------ the run
let browser = null;
let server = null;
const deadline = Number(process.env.CHECK_TIMEOUT || 180) * 1000;
/* Each wait's own bound: the whole run's. A wait is bounded against a
 * hang, not timed: a loaded machine (a browser's first start with a new
 * profile took over 20 s beside a make check) must not fail the test. */
const waitMs = deadline;
/* Leave nothing behind: the browser's processes and the scratch folder. */
function abandon(why, code) {
  console.log(why);
  if (browser) kill(browser.proc);
  fs.rmSync(tmp, {recursive: true, force: true});
  process.exit(code);
}
const watchdog = setTimeout(() => abandon(`FAIL: no result in ${deadline / 1000} s`, 1), deadline);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, () => abandon(`stopped by ${sig}`, 1));

async function main() {
  const srv = await start({port: 0, root: opts.root, wasm: opts.wasm});
  server = srv.server;
  if (!srv.wasm) throw new Error('no sgfstream.wasm to serve (give --wasm)');
  log(`serving ${path.resolve(opts.root)} at ${srv.url} (wasm: ${srv.wasm})`);

  browser = new Browser(opts.chromium, path.join(tmp, 'profile'));
  const version = await browser.send('Browser.getVersion', {}, undefined, waitMs);
  log(`${version.product} started`);
  const {targetId} = await browser.send('Target.createTarget', {url: 'about:blank'});
  const {sessionId} = await browser.send('Target.attachToTarget', {targetId, flatten: true});
  const page = (method, params, ms) => browser.send(method, params, sessionId, ms);

  const problems = [];
  browser.listeners.push((m) => {
    if (m.sessionId !== sessionId) return;
    if (m.method === 'Runtime.exceptionThrown') {
      const d = m.params.exceptionDetails;
      problems.push(`exception: ${d.exception ? d.exception.description : d.text}`);
    } else if (m.method === 'Runtime.consoleAPICalled' && (m.params.type === 'error' || m.params.type === 'assert')) {
      problems.push(`console.${m.params.type}: ${m.params.args.map((a) => a.value ?? a.description).join(' ')}`);
    } else if (m.method === 'Log.entryAdded' && m.params.entry.level === 'error') {
      problems.push(`log: ${m.params.entry.text} ${m.params.entry.url || ''}`);
    }
  });
  await page('Runtime.enable');
  await page('Log.enable');
  await page('Page.enable');
  await page('Emulation.setDeviceMetricsOverride', {width: 1280, height: 960, deviceScaleFactor: 1, mobile: false});

  const evaluate = async (expression) => {
    const r = await page('Runtime.evaluate', {expression, returnByValue: true, awaitPromise: true});
    if (r.exceptionDetails) throw new Error(`evaluate: ${r.exceptionDetails.text} ${expression.slice(0, 60)}`);
    return r.result.value;
  };
  /* Poll the page until test() holds, or fail after ms. */
  const waitFor = async (what, expression, ms) => {
    const until = Date.now() + ms;
    for (;;) {
      const v = await evaluate(expression);
      if (v) return v;
      if (Date.now() > until) {
        const st = await evaluate('document.getElementById("status") && document.getElementById("status").textContent');
        throw new Error(`${what}: not within ${ms} ms (status: ${st})`);
      }
      await sleep(50);
    }
  };

  const url = `${srv.url}page/`;
  await page('Page.navigate', {url});
  const state = await waitFor(
    'the page ready',
    `(() => { const s = document.getElementById('status'); return s && s.dataset.state !== 'loading' && s.dataset.state; })()`,
    waitMs
  );
  if (!check(state === 'ready', `the page is ready after loading (state ${state}: ${await evaluate('document.getElementById("status").textContent')})`)) return;
  log(`page loaded: ${url}`);
  // The parsing runs in a Web Worker: the worker reported its global's
  // class, and the page itself has no parser to call.
  const where = await evaluate(`({parser: document.body.dataset.parser, own: typeof window.sgfstream})`);
  check(where.parser === 'DedicatedWorkerGlobalScope', `the parser runs in a dedicated worker (the page says: ${where.parser})`);
  check(where.own === 'undefined', `the page's own thread has no parser (window.sgfstream is ${where.own})`);

  const expected = {games: [], diagnostics: [], statsGames: 0};
  for (let b = 0; b < batches.length; b++) {
    const {how, files} = batches[b];
    if (how === 'chosen') {
      const {root} = await page('DOM.getDocument', {depth: 0});
      const {nodeId} = await page('DOM.querySelector', {nodeId: root.nodeId, selector: '#files'});
      await page('DOM.setFileInputFiles', {nodeId, files});
    } else {
      // A drop as a user makes it: the drag enters the page, moves, drops.
      const data = {items: [], files, dragOperationsMask: 1};
      for (const type of ['dragEnter', 'dragOver', 'drop']) {
        await page('Input.dispatchDragEvent', {type, x: 640, y: 140, data});
      }
    }
    await waitFor(`batch ${b + 1} (${files.length} file(s) ${how}) read`, `document.body.dataset.runs === '${b + 1}'`, waitMs);
    const t = toolSays(files);
    expected.games.push(...t.games);
    expected.diagnostics.push(...t.diagnostics);
    expected.statsGames += t.statsGames;
    log(`batch ${b + 1}: ${files.length} file(s) ${how}; the tool finds ${t.games.length} games, ${t.diagnostics.length} diagnostics`);
  }

  const shown = await evaluate(`(() => {
    const text = (el, sel) => { const e = el.querySelector(sel); return e ? e.textContent : null; };
    const rows = Array.from(document.querySelectorAll('#games tbody tr')).map((tr) => ({
      file: tr.dataset.file,
      game: Number(tr.dataset.game),
      black: text(tr, '.black .name'),
      blackRank: text(tr, '.black .rank'),
      white: text(tr, '.white .name'),
      whiteRank: text(tr, '.white .rank'),
      result: tr.querySelector('.result').textContent || null,
      date: tr.querySelector('.date').textContent || null,
      moves: Number(tr.querySelector('.moves').textContent),
      warnings: Number(tr.querySelector('.warnings').textContent || 0),
    }));
    const warnings = Array.from(document.querySelectorAll('#warnings li[data-line]')).map((li) => ({
      file: li.dataset.file, line: li.dataset.line, column: li.dataset.column,
      severity: li.dataset.severity, name: li.dataset.name, game: li.dataset.game,
      text: li.textContent,
    }));
    return {rows, warnings, status: document.getElementById('status').textContent,
            state: document.getElementById('status').dataset.state};
  })()`);
  log(`the page shows ${shown.rows.length} rows, ${shown.warnings.length} warnings: ${shown.status}`);

  // The table: one row per game, in order, as the tool reads them.
  check(shown.state === 'done', `the page is done (state ${shown.state})`);
  check(shown.rows.length === expected.games.length, `rows: the page shows ${shown.rows.length}, sgf json finds ${expected.games.length} games`);
  check(shown.rows.length === expected.statsGames, `rows: the page shows ${shown.rows.length}, sgf stats counts ${expected.statsGames} games`);
  const fields = ['file', 'game', 'black', 'blackRank', 'white', 'whiteRank', 'result', 'date', 'moves'];
  const text = new Set(['black', 'blackRank', 'white', 'whiteRank', 'result', 'date']);
  let bad = 0;
  let passed = 0;
  for (let i = 0; i < Math.min(shown.rows.length, expected.games.length); i++) {
    const a = shown.rows[i];
    const e = expected.games[i];
    if (e.undecodable) passed++;
    const diff = fields.filter((f) => a[f] !== e[f] && !(e.undecodable && text.has(f)));
    if (diff.length && bad++ < 10) {
      check(false, `row ${i + 1} (${e.file} game ${e.game + 1}): ${diff.map((f) => `${f} ${JSON.stringify(a[f])} != ${JSON.stringify(e[f])}`).join(', ')}`);
    }
  }
  check(bad === 0, `${bad} rows differ from sgf json`);
  if (passed) log(`text fields not compared in ${passed} game(s) whose text the tool cannot decode by their CA`);

  // The warnings: the same diagnostics, at the same line and column.
  const got = shown.warnings.map((w) => `${w.file}:${w.line}:${w.column}: ${w.severity} [${w.name}]`).sort();
  const missing = expected.diagnostics.filter((d) => !got.includes(d));
  const extra = got.filter((d) => !expected.diagnostics.includes(d));
  check(got.length === expected.diagnostics.length, `warnings: the page lists ${got.length}, sgf json prints ${expected.diagnostics.length}`);
  check(missing.length === 0, `warnings sgf json prints that the page does not list: ${missing.join('; ')}`);
  check(extra.length === 0, `warnings the page lists that sgf json does not print: ${extra.join('; ')}`);
  // The dropped file's problems, where they are (its contents above).
  for (const want of ['broken.sgf:4:7', 'broken.sgf:6:1', 'broken.sgf:10:1', 'trailing.sgf:2:1', 'nogame.sgf:1:1']) {
    const [file, line, col] = want.split(':');
    check(
      shown.warnings.some((w) => w.file === file && w.line === line && w.column === col),
      `the dropped file's problem at ${line}:${col} is listed`
    );
  }
  // A game's row counts its warnings; each warning in a game links it.
  const rowWarnings = shown.rows.reduce((n, r) => n + r.warnings, 0);
  const inGames = shown.warnings.filter((w) => w.game !== undefined).length;
  check(rowWarnings === inGames, `the rows count ${rowWarnings} warnings, ${inGames} are linked to a game`);
  check(problems.length === 0, `the page raised no error: ${problems.join('; ')}`);
  problems.length = 0; // the file:// load below fails on purpose

  // The screenshot: the dropped file's warnings in view.
  await evaluate(`document.querySelector('#games tbody tr:last-child').scrollIntoView({block: 'end'}), true`);
  await evaluate(`(() => { const w = document.getElementById('warnings'); w.scrollTop = w.scrollHeight; return true; })()`);
  const shot = await page('Page.captureScreenshot', {format: 'png'}, waitMs);
  fs.mkdirSync(opts.out, {recursive: true});
  const png = path.join(opts.out, 'page.png');
  fs.writeFileSync(png, Buffer.from(shot.data, 'base64'));
  log(`screenshot: ${png}`);

  // Opened from file://, where no browser fetches the module, the page
  // says to serve it.
  const fileUrl = new URL(`file://${path.join(path.resolve(opts.root), 'page', 'index.html')}`).href;
  await page('Page.navigate', {url: fileUrl});
  const said = await waitFor(
    'the page opened from file:// reports',
    `(() => { const s = document.getElementById('status'); return s && s.dataset.state === 'error' && s.textContent; })()`,
    waitMs
  );
  check(/serve it over HTTP/.test(said), `opened from file://, the page says to serve it (it says: ${said})`);
  log('from file://, the page says to serve it');
}

let code = 0;
try {
  await main();
} catch (e) {
  check(false, e.stack || String(e));
}
if (browser) await browser.close();
if (server) server.close();
clearTimeout(watchdog);
fs.rmSync(tmp, {recursive: true, force: true});
code = failures.length ? 1 : 0;
log(code ? `${failures.length} check(s) failed` : 'passed');
process.exit(code);
