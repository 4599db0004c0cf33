// Type declarations for sgfstream (js/README.md).

/** A node as @sabaki/sgf gives it. */
export interface NodeObject {
  id: any;
  data: {[property: string]: string[]};
  parentId: any | null;
  children: NodeObject[];
}

/** A token as @sabaki/sgf's tokenize() gives it. */
export interface Token {
  type: 'parenthesis' | 'semicolon' | 'prop_ident' | 'c_value_type' | 'invalid';
  /** the text as written (a value with its brackets and escapes) */
  value: string;
  /** 0-based, lines counted by LF */
  row: number;
  /** 0-based, in UTF-16 units */
  col: number;
  /** 0-based index in the text */
  pos: number;
  /** pos / (length of the text - 1) */
  progress: number;
}

/** A problem found in the input, where it was found. */
export interface Diagnostic {
  /** 1-based line */
  line: number;
  /** 1-based column, in bytes */
  column: number;
  /** 0-based byte offset (exact up to 2^53: inputs over 4 GiB too) */
  offset: number;
  /** the catalogue number (sgfstream/diag.h); 100 ("bad-text"): text
   * that does not decode in its charset (under UTF-8: 40, "bad-utf8") */
  code: number;
  /** its short name, e.g. "junk-after" */
  name: string;
  severity: 'warning' | 'error' | 'fatal';
  message: string;
}

/** Thrown when parsing stops: a fatal error, or any problem in strict mode. */
export class SgfError extends Error {
  diagnostic: Diagnostic | null;
  code?: number;
  line?: number;
  column?: number;
  offset?: number;
}

export interface ParseOptions {
  /** id generator, called once per node in document order (default 0, 1, 2...) */
  getId?: () => any;
  /** filled with every node by id */
  dictionary?: {[id: string]: NodeObject};
  onProgress?: (e: {progress: number}) => void;
  onNodeCreated?: (e: {node: NodeObject}) => void;
  /** the charset of every game's text (bytes only; default: each game's CA, else guessed) */
  encoding?: string;
  /** stop at the first deviation from FF[4], throwing an SgfError: every warning is an error (text that does not decode too) */
  strict?: boolean;
  /** the deepest nesting of game trees allowed (default 10^9) */
  maxDepth?: number;
  /** filled with the diagnostics */
  diagnostics?: Diagnostic[];
  /** build the nodes below each root when first read (default: true unless getId, dictionary or onNodeCreated) */
  lazy?: boolean;
}

export interface StringifyOptions {
  linebreak?: string;
  indent?: string;
}

/** What games() and headers() give, one game at a time. */
export interface Game {
  index: number;
  root: NodeObject;
  /** those found inside its game tree */
  diagnostics: Diagnostic[];
  /** the charset its text was read in */
  charset: string;
}

export type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;
export type Source =
  | string
  | Bytes
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array | string>
  | Blob
  | Response;

export type Action = 'continue' | 'skip' | 'pause' | 'stop' | void | undefined;

export interface ParserCallbacks {
  onNode?: (node: NodeObject, depth: number) => Action;
  onProperty?: (ident: string, values: string[], node: NodeObject) => Action;
  onValue?: (ident: string, value: string, node: NodeObject) => Action;
  onGame?: (root: NodeObject, diagnostics: Diagnostic[]) => Action;
  onDiagnostic?: (diagnostic: Diagnostic) => Action;
}

export interface ParserOptions extends ParseOptions {
  /** false: nodes are not linked to their parents (bounded memory) */
  keepTree?: boolean;
  /** main line only: every variation after the first is passed over */
  mainline?: boolean;
}

export class Parser {
  constructor(callbacks: ParserCallbacks, options?: ParserOptions);
  /** false while paused */
  feed(chunk: Bytes | string): boolean;
  resume(): boolean;
  finish(): Diagnostic[];
  readonly paused: boolean;
  readonly stopped: boolean;
  static CONTINUE: 'continue';
  static SKIP: 'skip';
  static PAUSE: 'pause';
  static STOP: 'stop';
}

export function parse(contents: string | Bytes, options?: ParseOptions): NodeObject[];
export function parseBuffer(buffer: Bytes, options?: ParseOptions): NodeObject[];
/** Node only. */
export function parseFile(filename: string, options?: ParseOptions): NodeObject[];
export function tokenizeIter(contents: string): IterableIterator<Token>;
export function tokenize(contents: string): Token[];
export function tokenizeBufferIter(buffer: Bytes, options?: {encoding?: string}): IterableIterator<Token>;
export function tokenizeBuffer(buffer: Bytes, options?: {encoding?: string}): Token[];
/** The trees of tokens, as parse() makes them of the text they spell. */
export function parseTokens(tokens: Iterable<Token>, options?: ParseOptions): NodeObject[];
export function stringify(nodes: NodeObject | NodeObject[], options?: StringifyOptions): string;
/** The iterator games() and headers() return. */
export interface GameStream extends AsyncIterableIterator<Game> {
  /** the diagnostics found outside every game (text or a ')' between games or after the last, no game tree at all, a game tree with no node, the input's charset), in input order; complete when the iteration ends */
  diagnostics: Diagnostic[];
}
export function games(source: Source, options?: ParseOptions): GameStream;
export function headers(source: Source, options?: ParseOptions): GameStream;

export function escapeString(input: string): string;
export function unescapeString(input: string): string;
export function parseVertex(input: string): [number, number];
export function stringifyVertex(vertex: [number, number] | number[]): string;
export function parseCompressedVertices(input: string): [number, number][];
export function parseDates(input: string): number[][] | null;
export function stringifyDates(dates: number[][]): string;

/** Load the WebAssembly module (browsers; Node loads it at require/import). */
export function init(source?: string | URL | Response | Promise<Response> | Bytes | WebAssembly.Module): Promise<typeof import('./index')>;
export function initSync(source: Bytes | WebAssembly.Module): typeof import('./index');

declare const sgfstream: {
  parse: typeof parse;
  parseBuffer: typeof parseBuffer;
  parseFile: typeof parseFile;
  parseTokens: typeof parseTokens;
  tokenize: typeof tokenize;
  tokenizeIter: typeof tokenizeIter;
  tokenizeBuffer: typeof tokenizeBuffer;
  tokenizeBufferIter: typeof tokenizeBufferIter;
  stringify: typeof stringify;
  games: typeof games;
  headers: typeof headers;
  Parser: typeof Parser;
  SgfError: typeof SgfError;
  escapeString: typeof escapeString;
  unescapeString: typeof unescapeString;
  parseVertex: typeof parseVertex;
  stringifyVertex: typeof stringifyVertex;
  parseCompressedVertices: typeof parseCompressedVertices;
  parseDates: typeof parseDates;
  stringifyDates: typeof stringifyDates;
  init: typeof init;
  initSync: typeof initSync;
};
export default sgfstream;
