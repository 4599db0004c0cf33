#!/usr/bin/env node
/* serve.mjs - a small static HTTP server for the page (index.html), which
 * must be served: browsers fetch no WebAssembly from file:// pages.
 *
 *   node js/page/serve.mjs [--port N] [--host H] [--root DIR] [--wasm FILE]
 *
 * serves the js/ folder (DIR, by default the folder above this file) at
 * http://H:N/ (127.0.0.1:8080 by default; --port 0: any free port), the
 * page at /page/, /sgfstream.wasm from FILE (by default DIR's, else
 * js/sgfstream.wasm under the current directory: a build folder's), with
 * the content type application/wasm so that the browser compiles it while
 * it downloads. GET and HEAD only; nothing outside DIR is served.
 *
 * Also a module: start({port, host, root, wasm}) resolves to
 * {server, url}; the page test (browser-check.mjs) uses it. */
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.sgf': 'application/x-go-sgf',
  '.png': 'image/png',
};

/* The .wasm to serve: the one given, else the root's, else a build
 * folder's (the current directory's js/sgfstream.wasm). */
function findWasm(root, wasm) {
  if (wasm) return path.resolve(wasm);
  for (const p of [path.join(root, 'sgfstream.wasm'), path.resolve('js', 'sgfstream.wasm')]) {
    if (fs.existsSync(p)) return p;
  }
  return null;
}

export function start(options = {}) {
  const root = path.resolve(options.root || path.join(here, '..'));
  const wasm = findWasm(root, options.wasm);
  const server = http.createServer((req, res) => {
    const send = (code, text) => {
      res.writeHead(code, {'content-type': 'text/plain; charset=utf-8'});
      res.end(req.method === 'HEAD' ? undefined : `${text}\n`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'GET or HEAD only');
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return send(400, 'bad URL');
    }
    if (pathname === '/' || pathname === '/page') {
      res.writeHead(302, {location: '/page/'});
      return res.end();
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    let file;
    if (pathname === '/sgfstream.wasm') {
      if (!wasm) return send(404, 'no sgfstream.wasm: build it (./configure --enable-wasm && make) or pass --wasm FILE');
      file = wasm;
    } else {
      file = path.join(root, path.normalize(pathname));
      if (file !== root && !file.startsWith(root + path.sep)) return send(403, 'outside the served folder');
    }
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) return send(404, `not found: ${pathname}`);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
        'content-length': st.size,
        'cache-control': 'no-store',
      });
      if (req.method === 'HEAD') return res.end();
      fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port === undefined ? 8080 : options.port, options.host || '127.0.0.1', () => {
      const a = server.address();
      const host = a.family === 'IPv6' ? `[${a.address}]` : a.address;
      resolve({server, url: `http://${host}:${a.port}/`, wasm});
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const opts = {};
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const m = /^--(port|host|root|wasm)(?:=(.*))?$/.exec(a);
    if (!m) {
      console.error(`usage: node serve.mjs [--port N] [--host H] [--root DIR] [--wasm FILE] (not '${a}')`);
      process.exit(2);
    }
    const v = m[2] !== undefined ? m[2] : args[++i];
    if (v === undefined) {
      console.error(`serve.mjs: --${m[1]} needs a value`);
      process.exit(2);
    }
    opts[m[1]] = m[1] === 'port' ? Number(v) : v;
  }
  start(opts).then(
    ({url, wasm}) => {
      console.log(`sgfstream page: ${url}page/  (Ctrl-C stops)`);
      if (!wasm) console.error('serve.mjs: no sgfstream.wasm found; build it or pass --wasm FILE');
    },
    (e) => {
      console.error(`serve.mjs: ${e.message}`);
      process.exit(1);
    }
  );
}
