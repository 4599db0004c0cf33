/* worker.js - the page's parser (index.html, page.js), in a Web Worker:
 * a classic worker that loads ../sgfstream.js and its ../sgfstream.wasm,
 * reads the files the page posts as streams (File.stream()) and parses
 * them one chunk at a time with sgfstream's push Parser, so that a large
 * drop never blocks the page. It sends plain data back; the page builds
 * the table and the list. Messages:
 *
 *   in   {type: 'read', files, fileNo, rowsLeft, listLeft}
 *          files: File objects; fileNo: the number of the first (files
 *          are numbered across drops); rowsLeft, listLeft: how many
 *          more rows and diagnostics the page shows (the rest counted)
 *   out  {type: 'ready', scope}       the module loaded (scope: the
 *                                     global's class, which the page test
 *                                     checks is a worker's)
 *        {type: 'failed', message}    it did not load
 *        {type: 'batch', ...}         a file's games and diagnostics so
 *                                     far (batch() below)
 *        {type: 'file', name, bytes, ms}  a file done
 *        {type: 'done'}               every file of the 'read' done
 *
 * The Parser rather than games(): its onDiagnostic sees every diagnostic
 * as it is found (inside a game or not; a fatal one before it throws),
 * and onGame gives each game's own, to link them to its row. A game's
 * tree is kept only until its row is made: memory stays bounded by the
 * largest game whatever the size of the collection. */
'use strict';
/* global sgfstream */
importScripts('../sgfstream.js');

const loaded = sgfstream.init(new URL('../sgfstream.wasm', self.location.href)).then(
  () => self.postMessage({type: 'ready', scope: self.constructor.name}),
  (e) => {
    self.postMessage({type: 'failed', message: e && e.message ? e.message : String(e)});
    throw e;
  }
);

/* The first value of a root property, or null. */
function prop(root, id) {
  const v = root.data[id];
  return v && v.length ? v[0] : null;
}

/* Moves of the main line: B and W properties along each node's first
 * child (as `sgf json` counts its "moves"). A loop, not recursion. */
function mainLineMoves(root) {
  let n = 0;
  for (let node = root; node; node = node.children && node.children[0]) {
    if (node.data.B) n++;
    if (node.data.W) n++;
  }
  return n;
}

/* Read one file; left: {rows, list} still to show (decremented). */
async function readFile(file, fileNo, left) {
  const t0 = performance.now();
  let out = fresh();
  let index = 0; // the game being read
  let nextId = 0; // the file's listed diagnostics, numbered
  const ids = new Map(); // a listed diagnostic: its number

  function fresh() {
    return {type: 'batch', fileNo, name: file.name, rows: [], diags: [], links: [], games: 0, moves: 0, warnings: 0, errors: 0};
  }
  function send() {
    self.postMessage(out);
    out = fresh();
  }
  function diagnostic(d) {
    if (d.severity === 'warning') out.warnings++;
    else out.errors++;
    if (left.list > 0) {
      left.list--;
      ids.set(d, nextId);
      out.diags.push({id: nextId++, line: d.line, column: d.column, severity: d.severity, name: d.name, message: d.message});
    }
  }

  const parser = new sgfstream.Parser({
    onDiagnostic: diagnostic,
    onGame(root, diagnostics) {
      const moves = mainLineMoves(root);
      out.games++;
      out.moves += moves;
      if (left.rows > 0) {
        left.rows--;
        out.rows.push({
          index,
          black: prop(root, 'PB'),
          blackRank: prop(root, 'BR'),
          white: prop(root, 'PW'),
          whiteRank: prop(root, 'WR'),
          result: prop(root, 'RE'),
          date: prop(root, 'DT'),
          moves,
          warnings: diagnostics.length,
        });
        for (const d of diagnostics) if (ids.has(d)) out.links.push([ids.get(d), index]);
      }
      for (const d of diagnostics) ids.delete(d);
      index++;
    },
  });

  let bytes = 0;
  const reader = file.stream().getReader();
  try {
    for (;;) {
      const {done, value} = await reader.read();
      if (done) break;
      bytes += value.length;
      parser.feed(value);
      out.bytes = bytes;
      send(); // a chunk's rows at a time: the page shows progress
    }
    parser.finish();
  } catch (e) {
    // A fatal error ends the file (the games read before it stay): its
    // diagnostic went to onDiagnostic; anything else is listed here.
    if (!e || !e.diagnostic) diagnostic({line: 0, column: 0, severity: 'fatal', name: 'failed', message: e && e.message ? e.message : String(e)});
  } finally {
    reader.releaseLock();
  }
  out.bytes = bytes;
  send();
  self.postMessage({type: 'file', name: file.name, bytes, ms: performance.now() - t0});
}

self.onmessage = async (e) => {
  const m = e.data;
  if (!m || m.type !== 'read') return;
  await loaded;
  const left = {rows: m.rowsLeft, list: m.listLeft};
  for (let i = 0; i < m.files.length; i++) await readFile(m.files[i], m.fileNo + i, left);
  self.postMessage({type: 'done'});
};
