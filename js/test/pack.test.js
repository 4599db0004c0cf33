// The npm tarball (SGFSTREAM_TGZ, made by js/test.sh with npm pack)
// installs offline into an empty project and loads by require() and
// import. Skipped without a tarball.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const fs = require('fs');
const os = require('os');
const path = require('path');
const {execFileSync} = require('child_process');

const tgz = process.env.SGFSTREAM_TGZ;

test('npm install --offline of the tarball, then require and import', {skip: !tgz && 'no tarball (SGFSTREAM_TGZ)', timeout: 120000}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sgfstream-pack-'));
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"t","version":"1.0.0","private":true}');
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', path.resolve(tgz)], {cwd: dir, stdio: 'pipe'});
    const env = Object.assign({}, process.env);
    delete env.SGFSTREAM_WASM;
    delete env.NODE_PATH;
    const cjs = execFileSync(process.execPath, ['-e',
      "const s=require('sgfstream');process.stdout.write(JSON.stringify(s.parse('(;B[aa];W[bb])')))"], {cwd: dir, env}).toString();
    assert.strictEqual(cjs, '[{"id":0,"data":{"B":["aa"]},"parentId":null,"children":[{"id":1,"data":{"W":["bb"]},"parentId":0,"children":[]}]}]');
    const esm = execFileSync(process.execPath, ['--input-type=module', '-e',
      "import {parse, stringify} from 'sgfstream'; process.stdout.write(stringify(parse('(;B[aa];W[bb])'), {linebreak: ''}))"], {cwd: dir, env}).toString();
    assert.strictEqual(esm, '(;B[aa];W[bb])');
    const files = fs.readdirSync(path.join(dir, 'node_modules', 'sgfstream')).sort();
    assert.deepStrictEqual(files, ['README.md', 'index.d.ts', 'index.js', 'index.mjs', 'package.json', 'sgfstream.js', 'sgfstream.wasm']);
    assert.ok(!fs.existsSync(path.join(dir, 'node_modules', '@sabaki')), 'no runtime dependencies');
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
});
