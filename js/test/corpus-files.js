// corpus-files.js - the tests' helper (not a test): the .sgf files of
// the shared corpus (../shared/corpus beside the checkout, or
// $SGF_CORPUS), sorted; [] when it is not there. Its .dir: that folder.
'use strict';
const fs = require('fs');
const path = require('path');

const corpus = process.env.SGF_CORPUS || path.join(__dirname, '..', '..', '..', 'shared', 'corpus');

function files(dir, out) {
  for (const e of fs.readdirSync(dir, {withFileTypes: true})) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) files(p, out);
    else if (/\.sgf$/i.test(e.name)) out.push(p);
  }
  return out;
}

const list = fs.existsSync(corpus) ? files(corpus, []).sort() : [];
list.dir = corpus;
module.exports = list;
