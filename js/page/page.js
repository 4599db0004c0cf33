/* page.js - the page that shows sgfstream in a browser (index.html):
 * SGF files dropped on it (or chosen) are parsed in a Web Worker
 * (worker.js: sgfstream's WebAssembly module, the files read as streams,
 * one chunk at a time), so that a large drop does not freeze the page;
 * this side only shows what the worker posts back: each game a row of the
 * table (players, result, date, main-line moves), each diagnostic a
 * warning with its line and column, linked to its game when it is in
 * one. Nothing is sent anywhere. No framework: plain DOM. The page itself
 * never loads the parser (the page test checks that). */
(function () {
  'use strict';

  const MAX_ROWS = 5000; // rows written to the table; the rest counted
  const MAX_WARNINGS = 2000; // warnings listed; the rest counted

  const $ = (id) => document.getElementById(id);
  const status = $('status');
  const tbody = $('games').tBodies[0];
  const warningsBox = $('warnings-box');
  const warningsList = $('warnings');
  const more = $('more');

  let queue = Promise.resolve();
  let loaded = null; // the worker's start (its module loaded)
  let worker = null;
  let onMessage = null; // the handler of the batch being read
  let runs = 0; // batches of files done (the page test waits on it)
  let totals;

  function reset() {
    totals = {files: 0, games: 0, moves: 0, warnings: 0, errors: 0, bytes: 0, ms: 0, rows: 0, listed: 0};
    tbody.textContent = '';
    warningsList.textContent = '';
    warningsBox.hidden = true;
    more.hidden = true;
  }

  function setStatus(state, text) {
    status.dataset.state = state;
    status.textContent = text;
  }

  function plural(n, word) {
    return `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
  }

  function summary() {
    const t = totals;
    const mbs = t.ms > 0 ? ` at ${(t.bytes / 1e3 / t.ms).toFixed(1)} MB/s` : '';
    return (
      `${plural(t.files, 'file')}, ${plural(t.games, 'game')}, ${plural(t.moves, 'move')}, ` +
      `${plural(t.warnings, 'warning')}, ${plural(t.errors, 'error')}; ` +
      `${plural(t.bytes, 'byte')} in ${Math.round(t.ms)} ms${mbs}`
    );
  }

  function cell(tr, cls, text) {
    const td = tr.insertCell();
    if (cls) td.className = cls;
    if (text !== null && text !== undefined) td.textContent = text;
    return td;
  }

  /* A player's cell: the name, and the rank when there is one. */
  function player(tr, cls, name, rank) {
    const td = cell(tr, cls, null);
    if (name !== null) {
      const s = document.createElement('span');
      s.className = 'name';
      s.textContent = name;
      td.append(s);
    }
    if (rank !== null) {
      const r = document.createElement('span');
      r.className = 'rank';
      r.textContent = rank;
      td.append(' ', r);
    }
  }

  /* A game's row from the worker's row r. */
  function gameRow(fileName, fileNo, r) {
    const tr = document.createElement('tr');
    tr.id = `g-${fileNo}-${r.index}`;
    tr.dataset.file = fileName;
    tr.dataset.game = String(r.index);
    cell(tr, 'file', fileName).title = fileName;
    cell(tr, 'num game', String(r.index + 1));
    player(tr, 'black', r.black, r.blackRank);
    player(tr, 'white', r.white, r.whiteRank);
    cell(tr, 'result', r.result);
    cell(tr, 'date', r.date);
    cell(tr, 'num moves', String(r.moves));
    const w = cell(tr, 'num warnings', '');
    if (r.warnings) {
      const a = document.createElement('a');
      a.href = '#warnings';
      a.textContent = String(r.warnings);
      w.append(a);
    }
    return tr;
  }

  /* One diagnostic in the list: FILE:LINE:COL: SEVERITY: MESSAGE [NAME]
   * (the game it is in is linked once that game is complete; one outside
   * every game, between two or after the last, is linked to none). */
  function warningItem(fileName, d) {
    const li = document.createElement('li');
    li.className = d.severity;
    li.dataset.file = fileName;
    li.dataset.line = String(d.line);
    li.dataset.column = String(d.column);
    li.dataset.severity = d.severity;
    li.dataset.name = d.name;
    const where = document.createElement('span');
    where.className = 'where';
    where.textContent = `${fileName}:${d.line}:${d.column}`;
    li.append(where, `: ${d.severity}: ${d.message} `);
    const name = document.createElement('span');
    name.className = 'code';
    name.textContent = `[${d.name}]`;
    li.append(name);
    return li;
  }

  function linkGame(li, fileNo, game) {
    li.dataset.game = String(game);
    const a = document.createElement('a');
    a.href = `#g-${fileNo}-${game}`;
    a.textContent = `game ${game + 1}`;
    li.append(' (', a, ')');
  }

  /* What the worker found in a file so far (worker.js: batch). */
  function showBatch(m, listed) {
    totals.games += m.games;
    totals.moves += m.moves;
    totals.warnings += m.warnings;
    totals.errors += m.errors;
    const rows = document.createDocumentFragment();
    for (const r of m.rows) {
      totals.rows++;
      rows.append(gameRow(m.name, m.fileNo, r));
    }
    tbody.append(rows);
    if (m.diags.length) {
      const items = document.createDocumentFragment();
      for (const d of m.diags) {
        totals.listed++;
        const li = warningItem(m.name, d);
        listed.set(d.id, li);
        items.append(li);
      }
      warningsList.append(items);
      warningsBox.hidden = false;
    }
    for (const [id, game] of m.links) {
      const li = listed.get(id);
      if (li) linkGame(li, m.fileNo, game);
    }
    $('warning-count').textContent = `(${(totals.warnings + totals.errors).toLocaleString('en')})`;
  }

  /* Have the worker read the files, showing what it posts as it comes. */
  function readFiles(files) {
    const list = Array.from(files);
    if (!list.length) return Promise.resolve();
    return new Promise((resolve) => {
      let listed = new Map(); // the file's listed diagnostics by number
      let done = 0;
      setStatus('busy', `Reading ${list[0].name} (1 of ${list.length})… ${summary()}`);
      onMessage = (m) => {
        if (m.type === 'batch') {
          showBatch(m, listed);
          setStatus('busy', `Reading ${m.name} (${done + 1} of ${list.length}: ${plural(m.bytes || 0, 'byte')})… ${summary()}`);
        } else if (m.type === 'file') {
          done++;
          totals.files++;
          totals.bytes += m.bytes;
          totals.ms += m.ms;
          listed = new Map();
        } else if (m.type === 'done') {
          onMessage = null;
          finished();
          resolve();
        }
      };
      worker.postMessage({
        type: 'read',
        files: list,
        fileNo: totals.files,
        rowsLeft: MAX_ROWS - totals.rows,
        listLeft: MAX_WARNINGS - totals.listed,
      });
    });
  }

  /* A batch of files is done: what was not shown, the summary. */
  function finished() {
    const hidden = totals.games - totals.rows;
    if (hidden > 0) {
      more.hidden = false;
      more.textContent = `${plural(hidden, 'more game')} not shown (the table stops at ${MAX_ROWS.toLocaleString('en')} rows).`;
    }
    const unlisted = totals.warnings + totals.errors - totals.listed;
    if (unlisted > 0) {
      const li = document.createElement('li');
      li.className = 'more';
      li.textContent = `${plural(unlisted, 'more diagnostic')} not listed.`;
      warningsList.append(li);
    }
    setStatus('done', summary());
    runs++;
    document.body.dataset.runs = String(runs);
  }

  /* Files are read one batch after another, in the order given; those
   * given while the module loads wait for it (and fail with it). */
  function enqueue(files) {
    const list = Array.from(files || []);
    queue = queue
      .then(() => loaded)
      .then(() => readFiles(list))
      .catch((e) => setStatus('error', `Failed: ${e && e.message ? e.message : e}`));
  }

  $('files').addEventListener('change', (e) => {
    enqueue(e.target.files);
    e.target.value = '';
  });
  $('clear').addEventListener('click', () => {
    queue = queue.then(() => loaded).then(
      () => {
        reset();
        setStatus('ready', 'Ready: drop SGF files.');
      },
      () => {} // the module did not load: its message stays
    );
  });
  for (const type of ['dragenter', 'dragover']) {
    window.addEventListener(type, (e) => {
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      document.body.classList.add('dragging');
    });
  }
  window.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) document.body.classList.remove('dragging');
  });
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    if (e.dataTransfer) enqueue(e.dataTransfer.files);
  });

  /* Start the worker; resolves when its module is loaded. Opened from
   * file://, a browser refuses the worker or its fetch of the module. */
  function startWorker() {
    const hint =
      location.protocol === 'file:'
        ? ' Browsers do not load workers or fetch files from file:// pages: serve it over HTTP (node js/page/serve.mjs).'
        : '';
    return new Promise((resolve, reject) => {
      const fail = (what) => {
        const msg = `Could not load the parser: ${what}.${hint}`;
        setStatus('error', msg);
        reject(new Error(msg));
      };
      try {
        worker = new Worker('worker.js');
      } catch (e) {
        fail(e && e.message ? e.message : String(e));
        return;
      }
      worker.onerror = (e) => {
        e.preventDefault();
        fail(e.message || 'the worker failed to start');
      };
      worker.onmessage = (e) => {
        const m = e.data;
        if (m.type === 'ready') {
          document.body.dataset.parser = m.scope; // (the page test checks it)
          setStatus('ready', 'Ready: drop SGF files (parsed in a Web Worker).');
          document.body.dataset.runs = '0';
          resolve();
        } else if (m.type === 'failed') {
          fail(`sgfstream.wasm: ${m.message}`);
        } else if (onMessage) {
          onMessage(m);
        }
      };
    });
  }

  reset();
  loaded = startWorker();
  loaded.catch(() => {}); // reported on the page; files given later fail with it
})();
