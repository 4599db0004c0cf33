// index.mjs - the package's entry for import: the same module as
// require('sgfstream') (index.js), with named exports.
import sgf from './index.js';

export default sgf;
export const {
  init,
  initSync,
  parse,
  parseBuffer,
  parseFile,
  parseTokens,
  tokenize,
  tokenizeIter,
  tokenizeBuffer,
  tokenizeBufferIter,
  stringify,
  games,
  headers,
  Parser,
  SgfError,
  escapeString,
  unescapeString,
  parseVertex,
  stringifyVertex,
  parseCompressedVertices,
  parseDates,
  stringifyDates,
} = sgf;
