/* index.js - the package's entry for Node's require(): the core
 * (sgfstream.js) started synchronously from sgfstream.wasm beside it (or
 * from $SGFSTREAM_WASM), plus parseFile, which reads a file. */
'use strict';
const fs = require('fs');
const path = require('path');
const core = require('./sgfstream.js');

const wasmPath = process.env.SGFSTREAM_WASM || path.join(__dirname, 'sgfstream.wasm');
core.initSync(fs.readFileSync(wasmPath));

/* @sabaki/sgf's parseFile(): parseBuffer() of the file's bytes. */
function parseFile(filename, options) {
  return core._parseOwned(fs.readFileSync(filename), options);
}

module.exports = Object.assign({}, core, {parseFile});
module.exports.default = module.exports;
