/* page.js - the page that shows sgfstream in a browser (index.html):
 * SGF files dropped on it (or chosen) are read as streams, File.stream(),
 * and parsed by the WebAssembly module one chunk at a time through
 * sgfstream's push Parser; each game becomes a row of the table (players,
 * result, date, main-line moves), each diagnostic a warning with its line
 * and column. Nothing is sent anywhere. No framework: plain DOM.
 *
 * The Parser rather than games(): its onDiagnostic sees every diagnostic,
 * also those outside any game (text after the last game, a file with no
 * game tree), which belong in the list too; a game's tree is kept only
 * until its row is written (onGame), so memory stays bounded by the
 * largest game whatever the size of the collection. */
(function () {
  'use strict';

  const MAX_ROWS = 5000; // rows written to the table; the rest counted
  const MAX_WARNINGS = 2000; // warnings listed; the rest counted
  const sgf = globalThis.sgfstream;

  const $ = (id) => document.getElementById(id);
  const status = $('status');
  const tbody = $('games').tBodies[0];
  const warningsBox = $('warnings-box');
  const warningsList = $('warnings');
  const more = $('more');

  let queue = Promise.resolve();
  let loaded = null; // the module's start (init())
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

  function gameRow(fileName, fileNo, index, root, moves) {
    const tr = document.createElement('tr');
    tr.id = `g-${fileNo}-${index}`;
    tr.dataset.file = fileName;
    tr.dataset.game = String(index);
    cell(tr, 'file', fileName).title = fileName;
    cell(tr, 'num game', String(index + 1));
    player(tr, 'black', prop(root, 'PB'), prop(root, 'BR'));
    player(tr, 'white', prop(root, 'PW'), prop(root, 'WR'));
    cell(tr, 'result', prop(root, 'RE'));
    cell(tr, 'date', prop(root, 'DT'));
    cell(tr, 'num moves', String(moves));
    cell(tr, 'num warnings', '');
    return tr;
  }

  /* One diagnostic in the list: FILE:LINE:COL: SEVERITY: MESSAGE [NAME]
   * (the game it belongs to is linked once that game is complete). */
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

  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  /* Read one file: its games into the table, its diagnostics into the
   * list. A diagnostic belongs to the game being read when it is found
   * (text between two games: to the next one); those after the last
   * game belong to none. */
  async function readFile(file, fileNo) {
    const t0 = performance.now();
    const rows = document.createDocumentFragment();
    const items = document.createDocumentFragment();
    let index = 0; // the game being read
    let open = []; // the list items of its diagnostics
    let count = 0; // and how many it has (listed or not)

    const parser = new sgf.Parser({
      onDiagnostic(d) {
        if (d.severity === 'warning') totals.warnings++;
        else totals.errors++;
        count++;
        if (totals.listed < MAX_WARNINGS) {
          totals.listed++;
          const li = warningItem(file.name, d);
          open.push(li);
          items.append(li);
        }
      },
      onGame(root) {
        totals.games++;
        const moves = mainLineMoves(root);
        totals.moves += moves;
        if (totals.rows < MAX_ROWS) {
          totals.rows++;
          const tr = gameRow(file.name, fileNo, index, root, moves);
          if (count) {
            const a = document.createElement('a');
            a.href = '#warnings';
            a.textContent = String(count);
            tr.cells[tr.cells.length - 1].append(a);
            for (const li of open) linkGame(li, fileNo, index);
          }
          rows.append(tr);
        }
        index++;
        open = [];
        count = 0;
      },
    });

    const flush = () => {
      tbody.append(rows);
      if (items.childNodes.length) {
        warningsList.append(items);
        warningsBox.hidden = false;
      }
      $('warning-count').textContent = `(${(totals.warnings + totals.errors).toLocaleString('en')})`;
    };

    const reader = file.stream().getReader();
    try {
      for (;;) {
        const {done, value} = await reader.read();
        if (done) break;
        totals.bytes += value.length;
        parser.feed(value);
        if (rows.childNodes.length >= 64 || items.childNodes.length >= 64) {
          flush();
          setStatus('busy', `Reading ${file.name}… ${summary()}`);
          await tick();
        }
      }
      parser.finish();
    } catch (e) {
      // A fatal error ends the file (the games read before it stay): its
      // diagnostic is listed already; anything else is listed here.
      if (!e || !e.diagnostic) {
        parser.cb.onDiagnostic({
          line: 0,
          column: 0,
          severity: 'fatal',
          name: 'failed',
          message: e && e.message ? e.message : String(e),
        });
      }
    } finally {
      reader.releaseLock();
    }
    totals.files++;
    totals.ms += performance.now() - t0;
    flush();
  }

  async function readFiles(files) {
    const list = Array.from(files);
    if (!list.length) return;
    for (let i = 0; i < list.length; i++) {
      setStatus('busy', `Reading ${list[i].name} (${i + 1} of ${list.length})… ${summary()}`);
      await readFile(list[i], totals.files);
    }
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

  reset();
  if (!sgf) {
    setStatus('error', 'sgfstream.js did not load: serve the js/ folder over HTTP (node js/page/serve.mjs).');
    loaded = Promise.reject(new Error('sgfstream.js did not load'));
    loaded.catch(() => {});
    return;
  }
  loaded = sgf.init().then(
    () => {
      setStatus('ready', 'Ready: drop SGF files.');
      document.body.dataset.runs = '0';
    },
    (e) => {
      const hint =
        location.protocol === 'file:'
          ? ' Browsers do not fetch files from file:// pages: serve it over HTTP (node js/page/serve.mjs).'
          : '';
      const msg = `Could not load sgfstream.wasm: ${e && e.message ? e.message : e}.${hint}`;
      setStatus('error', msg);
      throw new Error(msg);
    }
  );
  loaded.catch(() => {}); // reported on the page; files given later fail with it
})();
