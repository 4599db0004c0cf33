/* sgfstream.js - SGF game records in JavaScript, parsed by sgfstream's
 * C library compiled to WebAssembly (sgfstream.wasm, built from js/glue.c
 * and lib/). The core module: no Node-only imports, so that it runs in a
 * browser as it is (a <script> sets globalThis.sgfstream) and in Node
 * (index.js loads it, with the Node-only parseFile and a synchronous
 * start).
 *
 * What it gives (README.md in this folder says more):
 *   parse, parseBuffer      @sabaki/sgf's node trees {id, data, parentId,
 *                           children} from a string or bytes
 *   stringify               back to SGF
 *   games, headers          async iterators over a stream, one game at a
 *                           time (headers: each game's root only)
 *   Parser                  a push parser with callbacks
 *   the helpers             parseVertex, stringifyVertex,
 *                           parseCompressedVertices, parseDates,
 *                           stringifyDates, escapeString, unescapeString
 *
 * No function here recurses over the input's structure: trees of any
 * depth are built and written with explicit stacks.
 */
(function (root, factory) {
  'use strict';
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.sgfstream = factory();
})(typeof globalThis !== 'undefined' ? globalThis : this, function () {
  'use strict';

  // ------------------------------------------------------------ the module

  const CHUNK = 1 << 20; // bytes copied into the module per feed
  const PIECE = 4096; // text: characters encoded at a time
  const STREAM_SLICE = 1 << 16; // games(), headers(): bytes fed at a time
  const EMPTY = new Uint8Array(0);
  const SJ_FULL = 0;
  const SJ_ROOTS = 1;
  const SJ_HEADERS = 2;
  const SJ_UTF8 = 0x100; // with SJ_ROOTS: UTF-8 made from text (no value to check)
  const K_TREE_BEGIN = 1;
  const K_TREE_END = 2;
  const K_NODE = 3;
  const K_PROPERTY = 4;
  const K_VALUE = 5;
  const K_MOVES = 8;
  const K_PV = 9; // a PROPERTY and its first VALUE, whole and plain
  const K_DIAG = 16;
  const K_GAME = 17;
  const K_HI = 18; // the high 32 bits of the offsets that follow
  const K_EXT = 19; // the high 32 bits of the record before's numbers
  const K_POS = 20; // the line and column of the value that follows
  const TWO32 = 4294967296;
  /* The number hi * 2^32 + lo; lo itself when hi is 0: a small integer,
   * not a float, so that the fields and arrays that hold it do not change
   * representation (V8 makes a new hidden class when a field's integers
   * become floats: the code optimized for the old one is thrown away). */
  function u64(hi, lo) {
    return hi === 0 ? lo : hi * TWO32 + lo;
  }
  const F_FIRST = 1;
  const F_LAST = 2;
  const F_ARENA = 0x20;
  const F_PLAIN = 0x40; // a whole value of ASCII bytes, no '\\' or CR
  const F_CHECK = 0x10; // a value of a node not built: only checked
  const OPT_STRICT = 1;
  const OPT_MAINLINE = 2;
  const OPT_UTF16 = 4;
  const SGF_PAUSED = 1;
  const SEVERITY = [null, 'warning', 'error', 'fatal'];
  const DIAG_UTF16_INPUT = 41;
  const DIAG_BAD_UTF8 = 40; // the catalogue's: text not UTF-8 under CA[UTF-8]
  // Not in the C library's catalogue: text that does not decode in its
  // (given or guessed) charset, other than UTF-8. Found here, where text
  // is decoded.
  const DIAG_BAD_TEXT = 100;

  let W = null; // the instance's exports
  let memBuf = null;
  let U8 = null;
  let U32 = null;
  // Node: a Buffer over the module's memory (text is written into it as
  // UTF-16, Buffer.prototype.write's 'utf16le'); null in a browser
  const NodeBuffer =
    typeof process !== 'undefined' && process.versions && process.versions.node && typeof Buffer === 'function'
      ? Buffer
      : null;
  let MEM = null;
  const U16_UNITS = Math.floor(CHUNK / 3); // sj_u16()'s size
  let pending = null;

  // Where a browser finds the .wasm by default: beside this script.
  const scriptUrl =
    typeof document !== 'undefined' && document.currentScript
      ? document.currentScript.src
      : null;

  function setInstance(instance) {
    W = instance.exports;
    memBuf = null;
    return api;
  }

  /* Start from the module's bytes (or a compiled WebAssembly.Module),
   * synchronously. Node's index.js does this at require(). */
  function initSync(source) {
    if (W) return api;
    const mod =
      source instanceof WebAssembly.Module ? source : new WebAssembly.Module(source);
    return setInstance(new WebAssembly.Instance(mod, {}));
  }

  /* Start, asynchronously: source is a URL (string or URL), a Response
   * or a promise of one, bytes, or a WebAssembly.Module; by default
   * sgfstream.wasm beside this script. Resolves to the API. */
  function init(source) {
    if (W) return Promise.resolve(api);
    if (pending) return pending;
    pending = (async () => {
      let src = source;
      if (src === undefined || src === null) {
        if (!scriptUrl) throw new Error('sgfstream: init() needs the URL or bytes of sgfstream.wasm');
        src = new URL('sgfstream.wasm', scriptUrl);
      }
      if (typeof src === 'string' || (typeof URL !== 'undefined' && src instanceof URL)) src = fetch(src);
      if (src && typeof src.then === 'function') src = await src;
      if (src instanceof WebAssembly.Module) return setInstance(new WebAssembly.Instance(src, {}));
      if (typeof Response !== 'undefined' && src instanceof Response) {
        if (WebAssembly.instantiateStreaming && src.headers.get('content-type') === 'application/wasm') {
          const r = await WebAssembly.instantiateStreaming(src, {});
          return setInstance(r.instance);
        }
        src = await src.arrayBuffer();
      }
      const r = await WebAssembly.instantiate(src, {});
      return setInstance(r.instance);
    })();
    return pending;
  }

  function need() {
    if (!W) {
      throw new Error(
        'sgfstream: the WebAssembly module is not loaded; await sgfstream.init() first (Node: require or import the package, which loads it)'
      );
    }
  }

  function views() {
    const b = W.memory.buffer;
    if (b !== memBuf) {
      memBuf = b;
      U8 = new Uint8Array(b);
      U32 = new Uint32Array(b);
      if (NodeBuffer !== null) MEM = NodeBuffer.from(b);
    }
  }

  function cString(ptr) {
    if (!ptr) return null;
    views();
    let e = ptr;
    while (U8[e] !== 0) e++;
    return latin1(U8, ptr, e - ptr);
  }

  const diagNames = [];
  const diagMessages = [];
  function diagName(code) {
    if (code === DIAG_BAD_TEXT) return 'bad-text';
    if (diagNames[code] === undefined) diagNames[code] = cString(W.sj_diag_name(code)) || 'unknown';
    return diagNames[code];
  }
  function diagMessage(code) {
    if (diagMessages[code] === undefined) diagMessages[code] = cString(W.sj_diag_message(code)) || '';
    return diagMessages[code];
  }

  /* An error that carries the diagnostic that stopped the parse. */
  class SgfError extends Error {
    constructor(diag, text) {
      super(text || (diag ? `${diag.line}:${diag.column}: ${diag.severity}: ${diag.message} [${diag.name}]` : 'sgfstream: parse failed'));
      this.name = 'SgfError';
      this.diagnostic = diag || null;
      if (diag) {
        this.code = diag.code;
        this.line = diag.line;
        this.column = diag.column;
        this.offset = diag.offset;
      }
    }
  }

  /* One parser in the module. mode: SJ_*. */
  class Engine {
    constructor(mode, options) {
      need();
      let flags = OPT_UTF16;
      if (options.strict) flags |= OPT_STRICT;
      if (options.mainline) flags |= OPT_MAINLINE;
      const depth = options.maxDepth === undefined ? 1e9 : options.maxDepth;
      this.h = W.sj_new(flags, depth, mode, CHUNK);
      if (!this.h) throw new Error('sgfstream: out of memory');
      if (options._offsetBias) W.sj_set_bias(this.h, options._offsetBias);
      this.inPtr = W.sj_in(this.h);
      this.u16Ptr = 0;
      this.textMap = null;
      this.error = null; // what ended the parser
      this.clear();
    }

    /* No input waiting, nothing fed. */
    clear() {
      this.jobs = [];
      this.cur = null;
      this.pos = 0;
      this.len = 0;
      this.off = 0;
      this.r = 0;
      this.consumed = 0;
      this.at = -1;
      this.adv = 0; // how far the piece fed goes in the job (bytes or characters)
      this.textBytes = 0; // the bytes of the text job encoded so far
    }

    /* Feed bytes (a Uint8Array) or text (a string, fed as UTF-8, its
     * pieces that are not ASCII noted in this.textMap when there is
     * one), handing the records to sink.drain().
     * Returns false when the sink halted (a callback paused): pump()
     * goes on from there. Bytes fed meanwhile wait their turn. */
    feed(bytes, sink) {
      if (bytes.length) this.jobs.push(bytes);
      return this.pump(sink);
    }

    /* The end of input (after every byte fed is parsed). */
    finish(sink) {
      this.jobs.push(null);
      return this.pump(sink);
    }

    pump(sink) {
      if (this.h === 0) throw this.error || new Error('sgfstream: the parser is closed');
      for (;;) {
        if (this.at >= 0) {
          // records of the last call still to hand over (an exception
          // from them, strict mode's or a callback's, ends the parser)
          let k;
          try {
            k = sink.drain(this, this.at);
          } catch (e) {
            this.error = e;
            this.free();
            throw e;
          }
          if (k >= 0) {
            this.at = k;
            return false;
          }
          this.at = -1;
          const r = this.r;
          if (r < 0) this.fail(r, sink);
          if (r === SGF_PAUSED) {
            if (this.cur === null) {
              this.call(sink, -1);
            } else {
              this.off += this.consumed;
              this.call(sink, 0);
            }
            continue;
          }
          if (this.cur === null) return true; // finished
          this.pos += this.adv;
          if (this.pos >= this.cur.length) {
            this.cur = null;
            this.jobs.shift();
          }
          if (this.jobs.length === 0) return true;
        }
        if (this.jobs.length === 0) return true;
        const job = this.jobs[0];
        if (job === null) {
          this.jobs.shift();
          this.cur = null;
          this.call(sink, -1);
          continue;
        }
        if (this.cur !== job) {
          this.cur = job;
          this.pos = 0;
          this.textBytes = 0;
        }
        views();
        if (typeof job === 'string' && MEM !== null) {
          // text in Node: its UTF-16 units copied into the module, which
          // writes them as UTF-8 into its input buffer (CHUNK / 3 units:
          // at most 3 bytes each), and where a block's bytes are not one
          // a unit, the block is noted in this.textMap
          const ptr = this.u16Ptr !== 0 ? this.u16Ptr : this.stage();
          let end = Math.min(job.length, this.pos + U16_UNITS);
          // (a surrogate pair is not cut: the halves would be written
          // as two U+FFFD)
          if (end < job.length && (job.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
          const n = end - this.pos;
          MEM.write(this.pos === 0 && end === job.length ? job : job.substring(this.pos, end), ptr, 2 * n, 'utf16le');
          const w = W.sj_from_u16(this.h, n);
          const map = this.textMap;
          if (w !== n && map !== null) {
            views();
            for (let t = W.sj_blocks(this.h) >>> 2; U32[t] < n; t += 2) {
              const c0 = U32[t];
              const b0 = U32[t + 1];
              const c1 = U32[t + 2];
              const b1 = U32[t + 3];
              if (b1 - b0 !== c1 - c0) map.note(this.pos + c0, this.textBytes + b0, this.pos + c1, this.textBytes + b1);
            }
          }
          this.len = w;
          this.adv = n;
          this.textBytes += w;
        } else if (typeof job === 'string') {
          // text: encoded straight into the module's input buffer, a
          // piece at a time (each fits whole: at most 3 bytes a UTF-16
          // unit), as many pieces as the buffer holds
          const map = this.textMap;
          let pos = this.pos;
          let w = 0;
          while (pos < job.length && w + 3 * PIECE <= CHUNK) {
            let end = Math.min(job.length, pos + PIECE);
            // (a surrogate pair is not cut: the halves would be written
            // as two U+FFFD)
            if (end < job.length && (job.charCodeAt(end - 1) & 0xfc00) === 0xd800) end--;
            const r = utf8Encoder.encodeInto(
              pos === 0 && end === job.length ? job : job.substring(pos, end),
              U8.subarray(this.inPtr + w, this.inPtr + CHUNK)
            );
            if (r.read !== r.written && map !== null) map.note(pos, this.textBytes + w, end, this.textBytes + w + r.written);
            pos = end;
            w += r.written;
          }
          this.len = w;
          this.adv = pos - this.pos;
          this.textBytes += w;
        } else {
          this.len = Math.min(CHUNK, job.length - this.pos);
          this.adv = this.len;
          U8.set(job.subarray(this.pos, this.pos + this.len), this.inPtr);
        }
        this.off = 0;
        this.call(sink, 0);
      }
    }

    /* The module's buffer for text as UTF-16 (made on first use). */
    stage() {
      this.u16Ptr = W.sj_u16(this.h);
      if (this.u16Ptr === 0) throw new Error('sgfstream: out of memory');
      views();
      return this.u16Ptr;
    }

    /* One call into the module: feed the rest of the piece, or finish
     * (how < 0); its records are handed over by pump(). */
    call(sink, how) {
      if (how < 0) {
        this.r = W.sj_finish(this.h);
        this.consumed = 0;
      } else {
        this.r = W.sj_feed(this.h, this.off, this.len - this.off);
        this.consumed = W.sj_consumed(this.h);
      }
      this.at = 0;
    }

    fail(r, sink) {
      const d = sink.lastFatal;
      this.free();
      this.error = d ? new SgfError(d) : new SgfError(null, `sgfstream: ${cString(W.sj_strerror(r))}`);
      throw this.error;
    }

    free() {
      if (this.h) W.sj_free(this.h);
      this.h = 0;
    }

    /* Ready for a new input (options kept). */
    reset() {
      W.sj_reset(this.h);
      this.clear();
    }
  }

  // ---------------------------------------------------------------- text

  const utf8 = new TextDecoder('utf-8');
  const utf8Fatal = new TextDecoder('utf-8', {fatal: true});
  const TWO = new Array(1 << 14); // two-byte ASCII values, made once
  /* The two-byte ASCII value a, b (made once). */
  function two(a, b) {
    const key = (a << 7) | b;
    const v = TWO[key];
    return v !== undefined ? v : (TWO[key] = String.fromCharCode(a, b));
  }
  const ONE = []; // one-byte ASCII values
  for (let c = 0; c < 128; c++) ONE.push(String.fromCharCode(c));

  // Node's Buffer has a method that makes a string of bytes read as
  // ISO-8859-1, with no view to make first: twice as fast as a
  // TextDecoder on short text (a browser has none)
  const latin1Slice =
    typeof Buffer === 'function' && Buffer.prototype && typeof Buffer.prototype.latin1Slice === 'function'
      ? Buffer.prototype.latin1Slice
      : null;

  /* ASCII bytes u8[p .. p + n) as a string. Short ones (most header
   * values) by String.fromCharCode with the bytes as arguments: three
   * times as fast as latin1Slice, six times a TextDecoder's. */
  function ascii(u8, p, n) {
    if (n <= 8) return short8(u8, p, n);
    if (n <= 12) return short8(u8, p, 8) + short8(u8, p + 8, n - 8);
    if (latin1Slice !== null) return latin1Slice.call(u8, p, p + n);
    return utf8.decode(u8.subarray(p, p + n));
  }

  /* Plain values (ASCII, no escape) by the 16-bit hash of their bytes
   * (the module's): a game's header values are mostly those of other
   * games (the same event, players, ranks, komi, result), made once.
   * Only short ones; used by build() only, and emptied at its end
   * (internRelease()), so that it holds nothing between parses. */
  const INTERN = new Array(65536).fill('');
  const INTERN_MAX = 48;
  const internUsed = new Uint16Array(65536);
  let internN = 0;
  function interned(u8, p, n, hash) {
    if (n > INTERN_MAX) return ascii(u8, p, n);
    const s = INTERN[hash];
    if (s.length === n) {
      let i = 0;
      while (i < n && s.charCodeAt(i) === u8[p + i]) i++;
      if (i === n) return s;
    }
    const t = ascii(u8, p, n);
    if (s.length === 0 && internN < 65536) internUsed[internN++] = hash;
    INTERN[hash] = t;
    return t;
  }
  function internRelease() {
    if (internN >= 65536) INTERN.fill('');
    else for (let i = 0; i < internN; i++) INTERN[internUsed[i]] = '';
    internN = 0;
  }

  const fcc = String.fromCharCode;
  function short8(u8, p, n) {
    switch (n) {
      case 0:
        return '';
      case 1:
        return fcc(u8[p]);
      case 2:
        return fcc(u8[p], u8[p + 1]);
      case 3:
        return fcc(u8[p], u8[p + 1], u8[p + 2]);
      case 4:
        return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3]);
      case 5:
        return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4]);
      case 6:
        return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5]);
      case 7:
        return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6]);
      default:
        return fcc(u8[p], u8[p + 1], u8[p + 2], u8[p + 3], u8[p + 4], u8[p + 5], u8[p + 6], u8[p + 7]);
    }
  }

  function latin1(u8, p, n) {
    let s = '';
    for (let i = p; i < p + n; i += 8192) {
      s += String.fromCharCode.apply(null, u8.subarray(i, Math.min(i + 8192, p + n)));
    }
    return s;
  }

  // windows-1252's 0x80-0x9F (0xFFFD where it has no character)
  const CP1252 = [
    0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160,
    0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd, 0xfffd, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
    0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
  ];
  function cp1252(b) {
    let s = '';
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      s += String.fromCharCode(c >= 0x80 && c < 0xa0 ? CP1252[c - 0x80] : c);
    }
    return s;
  }

  // the first byte windows-1252 has no character for, or -1
  function cp1252Bad(b) {
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      if (c >= 0x80 && c < 0xa0 && CP1252[c - 0x80] === 0xfffd) return i;
    }
    return -1;
  }

  /* Where bytes stop decoding by decoder d (TextDecoder-made): the first
   * byte of the character that does not decode. The shortest prefix that
   * fails read as a stream (a character cut by the prefix's end is no
   * failure) is found by halving; the character begins at the last
   * boundary before its end (the longest prefix that decodes whole).
   * The last byte when only the end fails (a character cut off). */
  function firstBad(d, bytes) {
    const fails = (k, stream) => {
      try {
        new TextDecoder(d.label, {fatal: true}).decode(bytes.subarray(0, k), {stream});
        return false;
      } catch (e) {
        return true;
      }
    };
    let lo = 0; // a prefix that decodes
    let hi = bytes.length; // one that fails, if any
    if (!fails(hi, true)) return bytes.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (fails(mid, true)) hi = mid;
      else lo = mid;
    }
    const low = Math.max(0, hi - 4); // (no charset has longer characters)
    for (let j = hi - 1; j > low; j--) if (!fails(j, false)) return j;
    return low;
  }

  const decoders = new Map();
  /* A decoder for a charset name as CA gives it, or null when
   * TextDecoder does not know it. ISO-8859-1 is decoded as itself (a
   * TextDecoder takes the label for windows-1252). */
  function decoderFor(name) {
    const key = String(name).trim().toLowerCase();
    if (decoders.has(key)) return decoders.get(key);
    let d = null;
    if (/^(iso[-_ ]?8859[-_ ]?1|latin-?1|l1|iso_8859-1:1987|cp819|ibm819)$/.test(key)) {
      d = {name: 'ISO-8859-1', decode: (b) => latin1(b, 0, b.length), fatal: null, bad: null};
    } else if (/^(windows-1252|cp1252|x-cp1252)$/.test(key)) {
      // by table: Node 20's TextDecoder reads windows-1252 as ISO-8859-1
      d = {name: 'windows-1252', decode: cp1252, fatal: null, bad: cp1252Bad};
    } else {
      try {
        const td = new TextDecoder(key);
        const tf = new TextDecoder(key, {fatal: true});
        d = {name: td.encoding.toUpperCase(), label: key, decode: (b) => td.decode(b), fatal: tf, bad: null};
      } catch (e) {
        d = null;
      }
    }
    decoders.set(key, d);
    return d;
  }

  /* The guess for text that is not UTF-8 and has no CA. Double-byte: of
   * EUC-KR, GB18030, Big5 and Shift_JIS, those that decode it cleanly,
   * the one whose double-byte characters fall most often in its common
   * rows (hangul; GB2312 symbols and levels 1-2; Big5 symbols and level 1;
   * Shift_JIS symbols, kana and level 1 kanji), when all of them do.
   * Single-byte (SINGLE): the one whose reading has the fewest oddities
   * (oddities()), the first of a tie. A double-byte guess stands unless a
   * single-byte reading has none (Latin-1 text reads as a double-byte
   * charset's rare characters if at all, but Cyrillic, Greek or Polish
   * words may read as common ones, and their readings as Latin-1 are
   * odd); with no guess, ISO-8859-1. */
  const GUESSES = ['euc-kr', 'gb18030', 'big5', 'shift_jis'];
  function commonShare(g, s) {
    let i = 0;
    let common = 0;
    let all = 0;
    const n = s.length;
    while (i < n) {
      const b = s[i];
      const t = i + 1 < n ? s[i + 1] : 0;
      if (b < 0x80) {
        i++;
        continue;
      }
      all++;
      if (g === 0) {
        if (b >= 0xb0 && b <= 0xc8) common++;
        i += 2;
      } else if (g === 1) {
        if (t >= 0x30 && t <= 0x39) {
          i += 4;
          continue;
        }
        if (b >= 0xa1 && b <= 0xf7 && t >= 0xa1) common++;
        i += 2;
      } else if (g === 2) {
        if (b >= 0xa1 && b <= 0xc6) common++;
        i += 2;
      } else {
        if (b >= 0xa1 && b <= 0xdf) {
          i++;
          continue;
        }
        if (b <= 0x83 || (b >= 0x88 && b <= 0x98)) common++;
        i += 2;
      }
    }
    return all ? common / all : 0;
  }
  function guessDoubleByte(bytes) {
    let best = null;
    let bestScore = -1;
    for (let g = 0; g < GUESSES.length; g++) {
      const d = decoderFor(GUESSES[g]);
      if (!d) continue;
      try {
        d.fatal.decode(bytes);
      } catch (e) {
        continue;
      }
      const score = commonShare(g, bytes);
      if (score < 1) continue; // only text made of common characters
      if (score > bestScore) {
        bestScore = score;
        best = g;
      }
    }
    return best;
  }

  /* GB18030's double-byte characters all in GB2312's symbol rows and
   * level 1 (the 3,755 common hanzi): a reading that no single-byte one
   * overrules. (Cyrillic, Greek and Hebrew letters read as GB2312 fall in
   * its level 2 more often than not.) */
  function gbLevel1(s) {
    for (let i = 0; i < s.length; ) {
      const b = s[i];
      if (b < 0x80) {
        i++;
        continue;
      }
      if (!(b <= 0xa3 || (b >= 0xb0 && b <= 0xd7))) return false;
      i += 2;
    }
    return true;
  }

  const SINGLE = [
    'windows-1252',
    'iso-8859-1',
    'windows-1250',
    'iso-8859-2',
    'windows-1251',
    'koi8-r',
    'iso-8859-5',
    'windows-1253',
    'iso-8859-7',
    'windows-1255',
    'windows-874',
  ];

  function guessCharset(bytes) {
    const g = guessDoubleByte(bytes);
    if (g !== null && (g !== 1 || gbLevel1(bytes))) return decoderFor(GUESSES[g]);
    let best = null;
    let fewest = Infinity;
    let share = -1;
    const sample = bytes.length > 4096 ? bytes.subarray(0, 4096) : bytes; // (enough to tell)
    for (let k = 0; k < SINGLE.length; k++) {
      const d = decoderFor(SINGLE[k]);
      if (!d) continue;
      const s = d.decode(sample);
      const odd = oddities(s);
      if (odd > fewest || odd === Infinity) continue;
      const f = commonness(s);
      if (odd < fewest || f > share) {
        fewest = odd;
        share = f;
        best = d;
      }
    }
    if (g !== null && (fewest > 0 || share < 1.2)) return decoderFor(GUESSES[g]);
    return best || decoderFor('iso-8859-1');
  }

  /* How common the letters over U+007F of text are in its script's main
   * language: the mean of the logarithms of their frequencies (per cent,
   * roughly: Russian, Greek, Hebrew, Thai; a Latin letter 1, any other
   * 0.5), plus half
   * the share of its cased ones in lowercase (running text is mostly
   * lowercase: "ход", not "УНД"). Between readings as odd as each other,
   * the right script's reads as commoner letters. */
  const FREQ = new Map();
  function letters(list, percents) {
    for (let k = 0; k < list.length; k++) FREQ.set(list[k], Math.log(percents[k]));
  }
  letters('\u043e\u0435\u0430\u0438\u043d\u0442\u0441\u0440\u0432\u043b\u043a\u043c\u0434\u043f\u0443\u044f\u044b\u044c\u0433\u0437\u0431\u0447\u0439\u0445\u0436\u0448\u044e\u0446\u0449\u044d\u0444\u044a\u0451',
    [11, 8.5, 8, 7.4, 6.7, 6.3, 5.5, 4.7, 4.5, 4.4, 3.5, 3.2, 3, 2.8, 2.6, 2, 1.9, 1.7, 1.7, 1.7, 1.6, 1.4, 1.2, 1, 0.9, 0.7, 0.6, 0.5, 0.4, 0.3, 0.3, 0.04, 0.04]); // о е а и н т с р в л к м д п у я ы ь г з б ч й х ж ш ю ц щ э ф ъ ё
  letters('\u03b1\u03bf\u03b9\u03b5\u03c4\u03bd\u03c3\u03b7\u03c1\u03c5\u03c0\u03ba\u03bc\u03bb\u03c2\u03b3\u03b4\u03c9\u03b8\u03c7\u03c6\u03b2\u03be\u03b6\u03c8\u03ac\u03af\u03ad\u03cc\u03ae\u03cd\u03ce\u03ca\u03cb\u0390\u03b0',
    [12, 9.8, 9, 8, 7.9, 6.5, 5.5, 4.8, 4.4, 4, 4, 4, 3.4, 2.8, 2.5, 1.8, 1.7, 1.5, 1.3, 1.1, 0.8, 0.6, 0.4, 0.4, 0.1, 1.9, 1.7, 1.6, 1.6, 1.1, 0.7, 0.5, 0.05, 0.02, 0.01, 0.01]); // α ο ι ε τ ν σ η ρ υ π κ μ λ ς γ δ ω θ χ φ β ξ ζ ψ ά ί έ ό ή ύ ώ ϊ ϋ ΐ ΰ
  letters('\u05d9\u05d5\u05d4\u05dc\u05d0\u05e8\u05ea\u05d1\u05de\u05e9\u05e2\u05e0\u05dd\u05d3\u05db\u05d7\u05e7\u05e4\u05df\u05d2\u05d8\u05e1\u05e6\u05d6\u05da\u05e3\u05e5',
    [11, 10, 8.8, 7.3, 6.3, 5.7, 5.3, 4.9, 4.7, 4.3, 3, 3, 2.8, 2.7, 2.6, 2.2, 1.9, 1.4, 1.3, 1.3, 1.2, 1.1, 0.8, 0.7, 0.6, 0.2, 0.2]); // י ו ה ל א ר ת ב מ ש ע נ ם ד כ ח ק פ ן ג ט ס צ ז ך ף ץ
  letters('\u0e32\u0e19\u0e48\u0e23\u0e2d\u0e01\u0e40\u0e07\u0e21\u0e22\u0e25\u0e27\u0e49\u0e31\u0e14\u0e17\u0e35\u0e34\u0e2a\u0e15\u0e30\u0e1a\u0e04\u0e2b\u0e44\u0e41\u0e1e\u0e08\u0e02\u0e38\u0e0a\u0e1b\u0e42\u0e4c\u0e43\u0e39\u0e47\u0e37\u0e36\u0e16\u0e13\u0e0b\u0e18\u0e1c\u0e28\u0e20\u0e1f\u0e0d\u0e4a\u0e4b\u0e29\u0e09\u0e10\u0e1d\u0e2e',
    [9, 7, 6, 6, 5.5, 5, 4.5, 4, 4, 3.5, 3, 3, 3, 3, 2.8, 2.7, 2.5, 2.5, 2.5, 2.3, 2, 2, 2, 2, 1.8, 1.5, 1.5, 1.3, 1.3, 1.2, 1.2, 1.2, 1, 1, 0.9, 0.8, 0.8, 0.8, 0.6, 0.6, 0.6, 0.5, 0.5, 0.4, 0.4, 0.4, 0.3, 0.3, 0.2, 0.1, 0.2, 0.2, 0.1, 0.1, 0.1]); // Thai
  function commonness(s) {
    let sum = 0;
    let all = 0;
    let cased = 0;
    let low = 0;
    for (let i = 0; i < s.length; i++) {
      if (s.charCodeAt(i) < 0x80 || !RE_LETTER.test(s[i])) continue;
      const ch = s[i];
      const lc = ch.toLowerCase();
      const f = FREQ.get(lc);
      sum += f !== undefined ? f : scriptOf(ch) === 'Latin' ? 0 : Math.log(0.5);
      all++;
      if (RE_LOWER.test(ch)) {
        low++;
        cased++;
      } else if (RE_UPPER.test(ch)) {
        cased++;
      }
    }
    if (all === 0) return 0;
    return sum / all + 0.5 * (cased ? low / cased : 0.75);
  }

  /* How odd text decoded by a single-byte charset looks: a character it
   * has none for (U+FFFD) or a C1 control makes it impossible (Infinity);
   * else one for each character over U+007F that is neither a letter nor
   * common punctuation (a symbol, a superscript: Latin-1's reading of
   * Polish), and each word (a run of letters) that mixes scripts (Latin
   * and Cyrillic: a Cyrillic reading of Latin-1), that has a lowercase
   * letter before an uppercase one, one of them over U+007F (KOI8-R read
   * as windows-1251: "иЛЬЯ"), or that is Latin with every letter over
   * U+007F ("Èëüÿ": Cyrillic read as Latin-1). */
  const RE_LETTER = /[\p{L}\p{M}]/u;
  const RE_MARK = /\p{M}/u;
  const RE_UPPER = /\p{Lu}/u;
  const RE_LOWER = /\p{Ll}/u;
  const RE_COMMON = /[\p{Zs}\p{Pd}\p{Pi}\p{Pf}\p{Ps}\p{Pe}\u2026\u2022\u00b7\u00a1\u00bf\u20ac\u2116\u00b0\u00a7\u00a9\u00ae\u2122]/u;
  const SCRIPTS = [
    ['Latin', /\p{Script=Latin}/u],
    ['Cyrillic', /\p{Script=Cyrillic}/u],
    ['Greek', /\p{Script=Greek}/u],
    ['Hebrew', /\p{Script=Hebrew}/u],
    ['Thai', /\p{Script=Thai}/u],
  ];
  function scriptOf(ch) {
    if (RE_MARK.test(ch)) return null;
    for (let k = 0; k < SCRIPTS.length; k++) if (SCRIPTS[k][1].test(ch)) return SCRIPTS[k][0];
    return 'other';
  }
  // Thai: vowels written before their consonant, and the vowels and
  // tone marks written over or under it
  const THAI_LEAD = /[\u0e40-\u0e44]/;
  const THAI_MARK = /[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]/;
  const THAI_CONSONANT = /[\u0e01-\u0e2e]/;
  function oddities(s) {
    let odd = 0;
    let i = 0;
    const n = s.length;
    while (i < n) {
      let c = s.charCodeAt(i);
      if (c === 0xfffd || (c >= 0x80 && c < 0xa0)) return Infinity;
      if (c < 0x80 ? !isLetter(c) : !RE_LETTER.test(s[i])) {
        if (c >= 0x80 && !RE_COMMON.test(s[i])) odd++;
        i++;
        continue;
      }
      let script = null;
      let mixed = false;
      let upper = 0; // uppercase letters
      let cased = false; // a cased letter breaks "lower", "Upper" or "UPPER"
      let high = 0;
      let count = 0;
      let prev = '';
      for (; i < n; i++) {
        c = s.charCodeAt(i);
        const ch = s[i];
        if (c === 0xfffd || (c >= 0x80 && c < 0xa0)) return Infinity;
        if (c < 0x80 ? !isLetter(c) : !RE_LETTER.test(ch)) break;
        const isHigh = c >= 0x80;
        const sc = isHigh ? scriptOf(ch) : 'Latin';
        if (sc !== null) {
          if (script === null) script = sc;
          else if (sc !== script) mixed = true;
        }
        const up = isHigh ? RE_UPPER.test(ch) : c < 0x61;
        const low = isHigh ? RE_LOWER.test(ch) : c >= 0x61;
        // (a lowercase letter after two capitals, or a capital after a
        // lowercase letter)
        if ((up && count > upper) || (low && upper > 1 && upper === count)) {
          if (isHigh || high > 0) cased = true;
        }
        if (up) upper++;
        if (c >= 0xe00 && c < 0xe80) {
          if (THAI_MARK.test(ch) && !(THAI_CONSONANT.test(prev) || THAI_MARK.test(prev))) odd++;
          if (THAI_LEAD.test(prev) && !THAI_CONSONANT.test(ch)) odd++;
        }
        prev = ch;
        count++;
        if (isHigh) high++;
      }
      if (THAI_LEAD.test(prev)) odd++;
      if (mixed) odd++;
      if (cased) odd++;
      if (script === 'Latin' && count >= 2 && high === count) odd++;
    }
    return odd;
  }

  // bytes as UTF-8, or null where they are not
  function tryUtf8(bytes) {
    try {
      return utf8Fatal.decode(bytes);
    } catch (e) {
      return null;
    }
  }

  // --------------------------------------------------------- tree builder

  /* Turns the module's records into @sabaki/sgf's nodes. Text is decoded
   * per game: by the encoding option, else the game's CA (known when the
   * root node is complete: the root's non-ASCII values wait for it), else
   * guessed: UTF-8 when the text is UTF-8, else the first value that is
   * not UTF-8 picks a double-byte charset for the rest of the game. */
  class Builder {
    constructor(options, hooks) {
      this.getId = options.getId || null;
      this.nextId = 0;
      this.dictionary = options.dictionary || null;
      this.onNodeCreated = options.onNodeCreated || null;
      this.forced = null;
      if (options.encoding) {
        this.forced = decoderFor(options.encoding);
        if (!this.forced) throw new RangeError(`sgfstream: unknown encoding '${options.encoding}'`);
      }
      this.hooks = hooks || null;
      // nothing watches the nodes one by one: runs of moves built at once
      this.plain =
        this.getId === null && this.dictionary === null && this.onNodeCreated === null &&
        !(this.hooks && (this.hooks.node || this.hooks.nodeEnd));
      this.runEnd = 0;
      this.collect = !(hooks && hooks.noCollect);
      this.roots = [];
      this.diagnostics = options.diagnostics || [];
      this.gameDiags = [];
      this.lastFatal = null;
      this.strict = !!options.strict;
      // the tree being built
      this.depth = 0;
      this.stack = [];
      this.last = null;
      this.prop = null;
      this.ident = null;
      this.root = null;
      this.inRoot = false;
      this.deferred = [];
      this.dec = null; // the game's decoder; null until its root is complete
      this.auto = false; // no CA: UTF-8 where it is UTF-8, else the guess
      this.guessed = null;
      this.pend = new Uint8Array(256);
      this.dq = []; // diagnostics waiting for the events before them
      this.dqAt = 0;
      this.pendLen = 0;
      this.skipDepth = 0;
      this.gameStart = 0;
      this.games = 0;
      this.stopped = false;
      // (every field set here, so that every Builder has one hidden
      // class from the start: none is added later, in the hot loop)
      this.open = null;
      this.trees = null; // a lazy parse's roots: a LazyTrees
      this.hiBase = 0; // the high 32 bits of record offsets, times 2^32
      this.vOffset = 0; // the value being read: its '['
      this.vLine = 0;
      this.vColumn = 0;
      this.fresh = false;
      this.shift = null;
      this.halt = false;
      this.keepTree = true;
      this.finishing = false;
      this.outside = null; // games(): the diagnostics outside every game
      this.arr = null; // the values of the property being read
      this.seen = []; // the open node's identifiers
      this.intern = false; // plain values by interned() (parse(): build())
      this.nSeen = 0;
    }

    id() {
      return this.getId !== null ? this.getId() : this.nextId++;
    }

    /* Hand the records of the module's last call, from index from on, to
     * the tree; -1 when all are done, else the index to go on from (a
     * callback halted). */
    drain(eng, from) {
      views();
      const u8 = U8;
      const u32 = U32;
      const h = eng.h;
      const n = W.sj_out_n(h);
      const base = W.sj_out(h) >>> 2;
      const arena = W.sj_arena(h);
      for (let i = from, q = base + 4 * from; i < n; i++, q += 4) {
        if (this.halt) {
          this.halt = false;
          return i;
        }
        const w0 = u32[q];
        const kind = w0 & 255;
        // a diagnostic comes when the events before its place have
        // (the module reports it at once, before the batch that holds
        // them)
        if (kind >= K_DIAG) {
          if (kind === K_DIAG) {
            this.dq.push(q);
            i++; // and its K_EXT
            q += 4;
            continue;
          }
          if (kind === K_HI) {
            this.hiBase = u64(u32[q + 1], 0);
            continue;
          }
          if (kind === K_POS) {
            this.vLine = u64(u32[q + 3], u32[q + 1]);
            this.vColumn = u64(w0 >>> 16, u32[q + 2]);
            continue;
          }
        } else if (this.dqAt < this.dq.length) {
          const at = this.hiBase + u32[q + 3] + (kind === K_TREE_END ? 1 : 0);
          // (a tree closed at the end of input: the diagnostic that says so first)
          if (at > this.dqOffset(u32, this.dq[this.dqAt]) && this.flushDiags(u32, at)) {
            i--;
            q -= 4;
            continue;
          }
        }
        if (this.stopped) continue;
        switch (kind) {
          case K_MOVES: {
            if (this.skipDepth !== 0) break;
            let p = (w0 & (F_ARENA << 8)) !== 0 ? arena + u32[q + 1] : u32[q + 1];
            let count = w0 >>> 16;
            while (count > 0) {
              if (this.plain) {
                const done = this.moveRun(u8, p, count);
                if (done > 0) {
                  count -= done;
                  p = this.runEnd;
                  continue;
                }
              }
              // one node: ";" L "[" x y "]" then LF or CR LF before the next ";"
              this.node();
              if (this.skipDepth !== 0) break;
              this.property(this.identOf(u8[p + 1]));
              this.vOffset = this.hiBase + u32[q + 3];
              this.value(u8, p + 3, 2);
              p += 6;
              if (u8[p] === 13) p++;
              if (u8[p] === 10) p++;
              count--;
            }
            break;
          }
          case K_PV: {
            if (this.skipDepth !== 0) break;
            this.property(this.identOf(w0 >>> 16));
            if (this.prop === null) break;
            const w2 = u32[q + 2];
            const len = w2 & 0xffff;
            const p = (w0 & (F_ARENA << 8)) !== 0 ? arena + u32[q + 1] : u32[q + 1];
            if (len <= 2) this.put(len === 2 ? two(u8[p], u8[p + 1]) : short8(u8, p, len));
            else this.put(this.intern ? interned(u8, p, len, w2 >>> 16) : ascii(u8, p, len));
            break;
          }
          case K_NODE:
            if (this.skipDepth === 0) this.node();
            break;
          case K_PROPERTY: {
            if (this.skipDepth !== 0) break;
            const ident = w0 >>> 16;
            let id;
            if (ident !== 0) {
              id = this.identOf(ident);
            } else {
              const p = (w0 & (F_ARENA << 8)) !== 0 ? arena + u32[q + 1] : u32[q + 1];
              id = latin1(u8, p, u32[q + 2]);
            }
            this.property(id);
            break;
          }
          case K_VALUE: {
            const fl = (w0 >>> 8) & 255;
            const p = (fl & F_ARENA) !== 0 ? arena + u32[q + 1] : u32[q + 1];
            const len = u32[q + 2];
            if ((fl & F_FIRST) !== 0) this.vOffset = this.hiBase + u32[q + 3];
            if ((fl & (F_FIRST | F_LAST)) !== (F_FIRST | F_LAST)) {
              if (fl & F_FIRST) this.pendLen = 0;
              this.append(u8, p, len);
              if ((fl & F_LAST) === 0) break;
              if (this.skipDepth !== 0) break;
              if ((fl & F_CHECK) !== 0) this.check(this.pend, 0, this.pendLen);
              else if (this.prop !== null) this.value(this.pend, 0, this.pendLen);
              break;
            }
            if (this.skipDepth !== 0) break;
            if ((fl & F_CHECK) !== 0) this.check(u8, p, len);
            else if (this.prop !== null) {
              if ((fl & F_PLAIN) !== 0) this.put(len > 2 ? ascii(u8, p, len) : len === 2 ? two(u8[p], u8[p + 1]) : short8(u8, p, len));
              else this.value(u8, p, len);
            }
            break;
          }
          case K_TREE_BEGIN:
            this.endNode();
            this.depth++;
            if (this.skipDepth !== 0) break;
            if (this.depth === 1) this.gameStart = this.hiBase + u32[q + 3];
            this.stack.push(this.last);
            this.fresh = true;
            break;
          case K_TREE_END:
            if (this.skipDepth !== 0 && this.depth > this.skipDepth) {
              this.depth--;
              break;
            }
            this.skipDepth = 0;
            this.endNode();
            this.skipDepth = 0; // a skip from its last node: nothing is left
            this.last = this.stack.length ? this.stack.pop() : null;
            this.fresh = false;
            this.depth--;
            if (this.depth === 0) this.endGame();
            break;
          case K_GAME:
            // (its K_EXT next: the offsets' high 32 bits)
            if (this.hooks && this.hooks.game) {
              this.hooks.game(u64(u32[q + 5], u32[q + 1]), u64(u32[q + 6], u32[q + 2]), u32[q + 3]);
            }
            i++;
            q += 4;
            break;
          default:
            break;
        }
      }
      if (this.dqAt < this.dq.length && this.flushDiags(u32, -1)) return n;
      this.dq.length = 0;
      this.dqAt = 0;
      if (this.halt) {
        this.halt = false;
        return n;
      }
      return -1;
    }

    /* The parse is over: drop what it made and was given (the object
     * itself is kept: lastBuilder). */
    release() {
      for (let i = 0; i < PARSE_FIELDS.length; i++) this[PARSE_FIELDS[i]] = null;
      if (this.pend.length > 256) this.pend = new Uint8Array(256);
    }

    /* Deliver the waiting diagnostics placed before offset (all with -1).
     * True when a callback halted. */
    flushDiags(u32, offset) {
      const dq = this.dq;
      while (this.dqAt < dq.length) {
        const q = dq[this.dqAt];
        const at = this.dqOffset(u32, q);
        if (offset >= 0 && at >= offset) break;
        this.dqAt++;
        this.diag(u32[q], u64(u32[q + 5], u32[q + 1]), u64(u32[q + 6], u32[q + 2]), at);
        if (this.halt) {
          this.halt = false;
          return true;
        }
      }
      return false;
    }

    /* The nodes of a run of plain moves (";B[qd]" count times from p),
     * built at once when nothing watches them one by one (this.plain):
     * from the last to the first, so that each is made with its
     * children array. Takes the run's leading nodes whose values are two
     * ASCII letters and that hang from a node; returns how many (the
     * caller builds the next one by node(); this.runEnd is where the
     * nodes not taken begin). */
    moveRun(u8, p, count) {
      const par = this.fresh ? this.stack[this.stack.length - 1] : this.last;
      if (par === null || par === undefined) return 0; // a root: by node()
      const idents = RUN_IDENTS;
      const vals = RUN_VALS;
      let m = 0;
      for (; m < count; m++) {
        const a = u8[p + 3];
        const b = u8[p + 4];
        if ((a | b) >= 128) break;
        vals[m] = two(a, b);
        idents[m] = u8[p + 1];
        p += 6;
        if (u8[p] === 13) p++;
        if (u8[p] === 10) p++;
      }
      if (m === 0) return 0;
      this.runEnd = p;
      this.endNode();
      const base = this.nextId;
      this.nextId = base + m;
      let next = [];
      let node = null;
      let lastNode = null;
      for (let k = m - 1; k >= 0; k--) {
        const c = idents[k];
        const v = vals[k];
        let data;
        if (c === 66) data = {B: [v]};
        else if (c === 87) data = {W: [v]};
        else {
          data = {};
          data[this.identOf(c)] = [v];
        }
        node = {id: base + k, data, parentId: k === 0 ? par.id : base + k - 1, children: next};
        if (lastNode === null) lastNode = node;
        next = [node];
      }
      const ch = par.children;
      if (ch.length === 0) par.children = next;
      else ch.push(node);
      this.last = lastNode;
      this.open = lastNode;
      this.prop = null;
      this.fresh = false;
      return m;
    }

    /* The offset of the diagnostic record at q (and its K_EXT). */
    dqOffset(u32, q) {
      return u64(u32[q + 7], u32[q + 3]);
    }

    identOf(code) {
      let s = IDENTS[code];
      if (s === undefined) {
        s = code < 256 ? String.fromCharCode(code) : String.fromCharCode(code & 255, code >>> 8);
        // the key as an object's own (an internalized string): a
        // property store by it needs no look-up of the string table
        s = IDENTS[code] = Object.keys({[s]: 0})[0];
      }
      return s;
    }

    append(u8, p, len) {
      if (this.pendLen + len > this.pend.length) {
        let cap = this.pend.length * 2;
        while (cap < this.pendLen + len) cap *= 2;
        const b = new Uint8Array(cap);
        b.set(this.pend.subarray(0, this.pendLen));
        this.pend = b;
      }
      this.pend.set(u8.subarray(p, p + len), this.pendLen);
      this.pendLen += len;
    }

    node() {
      this.endNode();
      if (this.skipDepth !== 0) return; // a skip from the node before
      // the first node of a tree hangs from the node the tree does (kept
      // at its TREE_BEGIN), the others from the node before them
      const par = this.fresh ? this.stack[this.stack.length - 1] : this.last;
      const node =
        par === null && this.trees !== null
          ? this.trees.makeRoot(this.id())
          : {id: this.id(), data: {}, parentId: null, children: []};
      if (this.dictionary !== null) this.dictionary[node.id] = node;
      this.prop = null;
      this.nSeen = 0;
      this.fresh = false;
      if (par !== null) {
        node.parentId = par.id;
        if (this.keepTree) {
          if (par.children.length === 0) par.children = [node];
          else par.children.push(node);
        }
      } else {
        this.root = node;
        this.inRoot = true;
        this.dec = this.forced;
        this.auto = false;
        this.guessed = null;
        if (this.collect) this.roots.push(node);
      }
      this.last = node;
      this.open = node;
      if (this.hooks && this.hooks.node) this.hooks.node(node, this);
    }

    /* The open node is complete. */
    endNode() {
      const node = this.open;
      if (node === null || node === undefined) return;
      this.open = null;
      this.prop = null;
      if (this.inRoot) this.endRoot();
      if (this.onNodeCreated !== null) this.onNodeCreated({node});
      if (this.hooks && this.hooks.nodeEnd) this.hooks.nodeEnd(node, this);
    }

    /* The root node is complete: the game's charset is known. */
    endRoot() {
      this.inRoot = false;
      if (this.dec === null) {
        const ca = this.root.data.CA;
        const d = ca && ca.length ? decoderFor(ca[0]) : null;
        if (d) this.dec = d;
        else this.auto = true;
      }
      const list = this.deferred;
      if (list.length === 0) return; // (most roots: no array made)
      for (let i = 0; i < list.length; i++) {
        const x = list[i];
        const v = this.decodeText(x.bytes, x.esc, x.offset, x.line, x.column);
        if (x.arr !== null) x.arr[x.idx] = v;
      }
      this.deferred = [];
    }

    /* A property of the open node: its values go to data[id] (an array
     * made with its first value: no room to spare). */
    property(id) {
      this.prop = this.open ? this.open.data : null;
      this.ident = id;
      this.arr = null;
      // the node's identifiers so far (a few: a loop, not a look-up in
      // the object, whose class changes with every property): a
      // property given twice (a warning) gets its values added
      const seen = this.seen;
      for (let i = 0; i < this.nSeen; i++) {
        if (seen[i] === id) {
          if (this.prop !== null) this.arr = this.prop[id];
          return;
        }
      }
      seen[this.nSeen++] = id;
    }

    put(v) {
      if (this.arr === null) {
        this.arr = [v];
        this.prop[this.ident] = this.arr;
      } else {
        this.arr.push(v);
      }
    }

    /* A value's raw bytes (u8[p .. p + n)); its '[' is at this.vOffset,
     * and for text that may not decode (a byte over 0x7F) at this.vLine,
     * this.vColumn (the module's K_POS record before it). */
    value(u8, p, n) {
      if (n === 1 && u8[p] < 128 && u8[p] !== 92 && u8[p] !== 13) {
        this.put(ONE[u8[p]]);
        return;
      }
      if (n === 2) {
        const a = u8[p];
        const b = u8[p + 1];
        if (a < 128 && b < 128 && a !== 92 && b !== 92 && a !== 13 && b !== 13) {
          this.put(two(a, b));
          return;
        }
      }
      let hi = false;
      let esc = false;
      for (let i = p, e = p + n; i < e; i++) {
        const c = u8[i];
        if (c >= 128) hi = true;
        else if (c === 92 || c === 13) esc = true;
      }
      if (!hi) {
        const s = ascii(u8, p, n);
        this.put(esc ? unescapeString(s) : s);
        return;
      }
      const bytes = u8.slice(p, p + n);
      if (this.inRoot && this.dec === null) {
        this.put(null);
        const arr = this.arr;
        this.deferred.push({arr, idx: arr.length - 1, bytes, esc, offset: this.vOffset, line: this.vLine, column: this.vColumn});
        return;
      }
      this.put(this.decodeText(bytes, esc, this.vOffset, this.vLine, this.vColumn));
    }

    /* A value of a node the first pass of a lazy parse() does not build
     * (the module sends those that hold a byte over 0x7F): decoded only to
     * report text that does not decode now, not when the node is built. */
    check(u8, p, n) {
      let hi = false;
      for (let i = p, e = p + n; i < e && !hi; i++) hi = u8[i] >= 128;
      if (!hi) return;
      const bytes = u8.slice(p, p + n);
      if (this.inRoot && this.dec === null) {
        this.deferred.push({arr: null, idx: 0, bytes, esc: false, offset: this.vOffset, line: this.vLine, column: this.vColumn});
        return;
      }
      this.decodeText(bytes, false, this.vOffset, this.vLine, this.vColumn);
    }

    /* Text by the game's charset; where it does not decode, U+FFFD (as
     * @sabaki/sgf's decoder does) and a warning at the first byte that
     * does not (offset, line, column: the value's '['). */
    decodeText(bytes, esc, offset, line, column) {
      let s = null;
      let d = this.dec;
      if (d === null) {
        // no CA: UTF-8 where the text is UTF-8, else the game's guess
        if (this.guessed === null) s = tryUtf8(bytes);
        if (s === null) {
          if (this.guessed === null) this.guessed = guessCharset(bytes);
          d = this.guessed;
        }
      }
      if (s === null) {
        if (d.fatal !== null) {
          try {
            s = d.fatal.decode(bytes);
          } catch (e) {
            s = d.decode(bytes);
            this.badText(d, bytes, offset, line, column);
          }
        } else {
          s = d.decode(bytes);
          if (d.bad !== null) {
            const k = d.bad(bytes);
            if (k >= 0) this.badText(d, bytes, offset, line, column, k);
          }
        }
      }
      return esc ? unescapeString(s) : s;
    }

    /* The warning for text that does not decode by d: at its byte k
     * (found here when not given). */
    badText(d, bytes, offset, line, column, k) {
      if (k === undefined) k = firstBad(d, bytes);
      let ln = line;
      let col = column + 1 + k;
      for (let i = 0; i < k; i++) {
        const c = bytes[i];
        if (c === 10 || (c === 13 && bytes[i + 1] !== 10)) {
          ln++;
          col = k - i;
        }
      }
      const hex = bytes[k].toString(16).padStart(2, '0');
      const utf = d.name === 'UTF-8';
      this.emit(
        utf ? DIAG_BAD_UTF8 : DIAG_BAD_TEXT,
        1,
        ln,
        col,
        offset + 1 + k,
        `text does not decode as ${d.name} (byte 0x${hex}); U+FFFD put in its place`
      );
    }

    endGame() {
      const root = this.root;
      this.games++;
      this.last = null;
      this.root = null;
      if (root !== null && this.hooks && this.hooks.gameEnd) {
        const charset = this.dec ? this.dec.name : this.guessed ? this.guessed.name : 'UTF-8';
        this.hooks.gameEnd(root, this.gameDiags, charset);
      } else if (this.gameDiags.length === 0) {
        return; // (nobody has the empty list: kept for the next game)
      } else if (root === null && this.outside !== null) {
        // a game tree with no node ("()"): no game carries them
        for (const d of this.gameDiags) this.outside.push(d);
      }
      this.gameDiags = [];
    }

    diag(w0, line, column, offset) {
      this.emit(w0 >>> 16, (w0 >>> 8) & 255, line, column, offset, null);
    }

    /* A diagnostic (code, severity 1-3, position; message: the
     * catalogue's unless given: then one found here, in the text) to the
     * lists and hooks: to the game's when it is inside a game tree, else
     * to this.outside (when kept). In strict mode one found here is an
     * error, thrown as the C library's are (those come upgraded, and stop
     * the parser: Engine.fail throws them). */
    emit(code, sev, line, column, offset, message) {
      const ours = message !== null && this.strict;
      if (ours && sev < 2) sev = 2;
      const sh = this.shift;
      if (sh !== null && offset > sh.offset) {
        if (line === sh.line) column--;
        offset--;
      }
      const d = {
        line,
        column,
        offset,
        code,
        name: diagName(code),
        severity: SEVERITY[sev] || 'error',
        message: message === null ? diagMessage(code) : message,
      };
      if (code === DIAG_UTF16_INPUT && !this.forced) this.forced = decoderFor('utf-8');
      if (sev === 3 || (this.strict && sev >= 2)) this.lastFatal = d;
      this.diagnostics.push(d);
      // (the input's charset: about no game, as a byte-order mark is,
      // and at its first '(' or before it)
      if (this.depth > 0 && code !== DIAG_UTF16_INPUT) this.gameDiags.push(d);
      else if (this.outside !== null) this.outside.push(d);
      if (this.hooks && this.hooks.diagnostic) this.hooks.diagnostic(d, this);
      if (ours) throw new SgfError(d);
    }

    /* Pass over the rest of the innermost tree (or game). */
    skip() {
      this.skipDepth = this.depth;
      this.endNode();
    }
  }
  // The Builder of the last parse(), its parse's objects dropped
  // (release()), kept: V8 forgets the hidden classes of objects of which
  // none is left at a garbage collection (the Builder's, and those its
  // fields were last seen to hold), and with them the type feedback and
  // the optimized code of the methods that read them. With none kept, a
  // parse after a collection deoptimizes drain(), put(), property() and
  // endGame() on its first records, each time.
  let lastBuilder = null;
  // (the fields that hold what a parse made or was given)
  const PARSE_FIELDS = ['getId', 'dictionary', 'onNodeCreated', 'hooks', 'roots', 'diagnostics', 'gameDiags', 'lastFatal',
    'stack', 'last', 'prop', 'root', 'deferred', 'dq', 'open', 'trees', 'shift', 'outside', 'arr'];

  const IDENTS = new Array(1 << 16);
  // moveRun()'s scratch (a run has at most 65,535 nodes; no callback runs
  // while it is used)
  const RUN_IDENTS = new Uint8Array(65536);
  const RUN_VALS = new Array(65536).fill('');

  // --------------------------------------------------------------- input

  const utf8Encoder = new TextEncoder();

  /* A copy of bytes (a Buffer's slice() is a view, not a copy). */
  function copyOf(u8) {
    const c = new Uint8Array(u8.length);
    c.set(u8);
    return c;
  }

  function toBytes(input) {
    if (typeof input === 'string') return utf8Encoder.encode(input);
    if (input instanceof Uint8Array) return input;
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    throw new TypeError('sgfstream: input must be a string, a Uint8Array, a Buffer or an ArrayBuffer');
  }

  /* @sabaki/sgf's parse(): the root nodes of the game trees in contents
   * (a string, or bytes: then as parseBuffer). Options: getId, dictionary,
   * onProgress, onNodeCreated (as @sabaki/sgf's), encoding (bytes only),
   * strict (throw at the first deviation from FF[4]), maxDepth,
   * diagnostics (an array to fill with what was found), lazy.
   *
   * LAZY TREES. Unless getId, dictionary or onNodeCreated is given (or
   * lazy is false), the whole input is parsed at once (every diagnostic
   * found, strict mode enforced, each game's root node built and its
   * nodes counted for their ids), but the nodes below each root are built
   * when its children are first read: root.children is an accessor that
   * parses that game's bytes again and then becomes a plain property.
   * The trees, the ids and the values are those of the eager build; the
   * input is kept (copied) until every game is read. */
  function parse(contents, options) {
    const opts = options || {};
    if (typeof contents !== 'string') return parseBuffer(contents, opts);
    const o = Object.assign({}, opts, {encoding: 'utf-8'});
    // the text itself, encoded into the module a chunk at a time (no
    // copy of it as a whole), unless its bytes must be changed first
    return build(textNeedsBytes(contents) ? utf8Encoder.encode(contents) : contents, o, false, true);
  }

  /* Would the UTF-8 bytes of text s be changed before they are parsed
   * (missingSemicolon), or taken for UTF-16 (looksUtf16)? */
  function textNeedsBytes(s) {
    const n = s.length;
    const c0 = s.charCodeAt(0);
    if (n >= 2 && (c0 === 0 || (c0 < 0x80 && s.charCodeAt(1) === 0))) return true;
    let k = c0 === 0xfeff ? 1 : 0;
    while (k < n) {
      const c = s.charCodeAt(k);
      if (c === 32 || (c >= 9 && c <= 13)) k++;
      else break;
    }
    if (k >= n) return false;
    const c = s.charCodeAt(k) | 0x20;
    return c >= 0x61 && c <= 0x7a;
  }

  function parseBuffer(buffer, options) {
    return build(toBytes(buffer), options || {}, true);
  }

  /* parseBuffer() of bytes nobody else holds (parseFile's): not copied
   * for the lazy trees. */
  function parseOwned(buffer, options) {
    return build(toBytes(buffer), options || {}, false);
  }

  /* A record that begins with a property ("B[hh];W[ii]") is read as
   * @sabaki/sgf reads it, as if a ';' stood before it: the index where
   * one is put, or -1. */
  function missingSemicolon(bytes) {
    let k = 0;
    const n = bytes.length;
    if (n >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) k = 3;
    while (k < n && (bytes[k] === 32 || (bytes[k] >= 9 && bytes[k] <= 13))) k++;
    if (k >= n) return -1;
    const c = bytes[k] | 0x20;
    return c >= 0x61 && c <= 0x7a ? k : -1;
  }

  function looksUtf16(b) {
    return (
      b.length >= 2 &&
      ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff) || b[0] === 0 || b[1] === 0)
    );
  }

  /* The trees of input: bytes (copied first for lazy trees when copy),
   * or text (a string: parse()'s, that textNeedsBytes() passed). fromText:
   * input is text, or bytes made from text (UTF-8 with nothing that does
   * not decode: the module sends no value of the nodes not built to be
   * checked). */
  function build(input, opts, copy, fromText) {
    const text = typeof input === 'string';
    let bytes = input;
    const k = text ? -1 : missingSemicolon(bytes);
    let shift = null;
    if (k >= 0) {
      const b2 = new Uint8Array(bytes.length + 1);
      b2.set(bytes.subarray(0, k));
      b2[k] = 0x3b;
      b2.set(bytes.subarray(k), k + 1);
      let line = 1;
      for (let i = 0; i < k; i++) if (bytes[i] === 10 || (bytes[i] === 13 && bytes[i + 1] !== 10)) line++;
      shift = {offset: k, line};
      bytes = b2;
      copy = false;
    }
    const lazy =
      opts.lazy !== false && !opts.getId && !opts.dictionary && !opts.onNodeCreated && (text || !looksUtf16(bytes));
    if (lazy && copy) bytes = copyOf(bytes);
    // where the lazy trees find their games: the bytes, or the text (the
    // caller's string, kept as it is: no copy), the games' byte offsets
    // turned into its indices by the map of its pieces that are not ASCII
    const map = lazy && text ? new TextMap(input) : null;
    const bias = opts._offsetBias || 0; // (the tests': offsets past 4 GiB)
    let b;
    if (lazy) {
      const trees = new LazyTrees({maxDepth: opts.maxDepth, encoding: opts.encoding});
      const hooks = new ParseGames(null, trees, map === null ? bytes : input, map, bias);
      b = new Builder(opts, hooks);
      hooks.b = b;
      b.trees = trees;
    } else {
      b = new Builder(opts, null);
    }
    b.intern = true;
    b.shift = shift;
    const eng = new Engine(lazy ? SJ_ROOTS | (fromText === true ? SJ_UTF8 : 0) : SJ_FULL, opts);
    eng.textMap = map;
    try {
      eng.feed(bytes, b);
      eng.finish(b);
    } finally {
      eng.free();
      internRelease();
    }
    const roots = b.roots;
    b.release();
    lastBuilder = b;
    if (opts.onProgress) opts.onProgress({progress: 1});
    return roots;
  }

  /* root.children, built on first use from the game's bytes. One
   * accessor for the roots of a parse; where each game's bytes are is in
   * its map (root to [start, end]), not on the node. */
  function plainChildren(root, kids) {
    Object.defineProperty(root, 'children', {value: kids, writable: true, enumerable: true, configurable: true});
  }
  // The parser the lazy trees are built with: one, made again when its
  // depth limit differs (a game's build calls no user code, so no build
  // starts inside another), reset before each game.
  let lazyEng = null;
  function lazyEngine(opts) {
    const depth = opts.maxDepth === undefined ? 1e9 : opts.maxDepth;
    if (lazyEng !== null && lazyEng.h !== 0 && lazyEng.depth === depth) {
      lazyEng.reset();
      return lazyEng;
    }
    if (lazyEng !== null) lazyEng.free();
    lazyEng = new Engine(SJ_FULL, {maxDepth: depth});
    lazyEng.depth = depth;
    return lazyEng;
  }

  /* What a lazy tree is built from: start to end of src (bytes, or a
   * string and its indices). */
  function gameInput(src, start, end) {
    return typeof src === 'string' ? src.substring(start, end) : src.subarray(start, end);
  }

  /* The offsets of a string's UTF-8 bytes turned into its indices, where
   * the Engine that encodes it noted the pieces that are not ASCII (a
   * piece: characters c0 to c1, bytes b0 to b1; elsewhere a byte is a
   * character). index(b) is asked for offsets that do not decrease, each
   * at a character's first byte. */
  class TextMap {
    constructor(s) {
      this.s = s;
      this.p = []; // c0, b0, c1, b1 of each piece, in order
      this.k = 0; // the first piece not wholly before the last offset asked
      this.adj = 0; // bytes minus characters before piece k
      this.c = -1; // in piece k: a character and its first byte, at or
      this.b = 0; // before the last offset asked (-1: none yet)
    }

    note(c0, b0, c1, b1) {
      this.p.push(c0, b0, c1, b1);
    }

    index(b) {
      const p = this.p;
      while (this.k < p.length && b >= p[this.k + 3]) {
        this.adj = p[this.k + 3] - p[this.k + 2];
        this.k += 4;
        this.c = -1;
      }
      const k = this.k;
      if (k >= p.length || b <= p[k + 1]) return b - this.adj;
      // inside a piece that is not ASCII: counted from its start, or from
      // the offset asked before in it
      let c = p[k];
      let bb = p[k + 1];
      if (this.c >= 0) {
        c = this.c;
        bb = this.b;
      }
      const s = this.s;
      while (bb < b) {
        const u = s.charCodeAt(c);
        if (u < 0x80) bb++;
        else if (u < 0x800) bb += 2;
        else if ((u & 0xfc00) === 0xd800 && (s.charCodeAt(c + 1) & 0xfc00) === 0xdc00) {
          bb += 4;
          c++;
        } else bb += 3; // (a lone surrogate: U+FFFD)
        c++;
      }
      this.c = c;
      this.b = bb;
      return c;
    }
  }

  /* A lazy root: {id, data, parentId, children} whose children is an
   * accessor, the same two functions for every root (so that the roots
   * share V8's hidden class, and no closure is made per root), and,
   * until it is built, its game in private fields (not keys, not
   * symbols: left out of JSON, Object.keys, Reflect.ownKeys,
   * assert.deepStrictEqual and spreads): the parse (opts, and src: bytes,
   * or a string and its indices; gameInput()), start and end. The fields
   * go on the plain object makeRoot() makes by a constructor whose base
   * returns that object: a store each, where a symbol defined not
   * enumerable (Object.defineProperty) was a call into the runtime. */
  class Stamped {
    constructor(o) {
      return o;
    }
  }
  class LazyGame extends Stamped {
    #parse;
    #start;
    #end;
    constructor(root) {
      super(root);
      this.#parse = null;
      this.#start = 0;
      this.#end = 0;
    }

    static set(root, parse, start, end) {
      root.#parse = parse;
      root.#start = start;
      root.#end = end;
    }

    /* The root's game, forgotten: [opts, src, start, end] (null when it
     * has none). */
    static take(root) {
      if (!(#parse in root) || root.#parse === null) return null;
      const p = root.#parse;
      root.#parse = null;
      return [p[0], p[1], root.#start, root.#end];
    }
  }
  const LAZY_CHILDREN = {
    get() {
      return buildChildren(this);
    },
    set(v) {
      LazyGame.take(this);
      plainChildren(this, v);
    },
    enumerable: true,
    configurable: true,
  };

  function buildChildren(root) {
    const g = LazyGame.take(root);
    if (g === null) {
      plainChildren(root, []);
      return root.children;
    }
    const opts = g[0];
    const b = new Builder(opts, null);
    b.nextId = root.id;
    const eng = lazyEngine(opts);
    try {
      eng.feed(gameInput(g[1], g[2], g[3]), b);
      eng.finish(b);
    } catch (e) {
      eng.free();
      throw e;
    }
    const kids = b.roots.length ? b.roots[0].children : [];
    plainChildren(root, kids);
    return kids;
  }

  /* The lazy trees of one parse (or stream): makeRoot(id) makes a root
   * node, attach(root, src, start, end, count) says where the game of the
   * root made last is (src: bytes, or a string and its indices; a game of
   * one node keeps none). Nothing but the root holds its game. (A class:
   * its methods, made once, keep their type feedback and optimized code
   * from one parse to the next, where closures made per parse did not.) */
  class LazyTrees {
    constructor(opts) {
      this.opts = opts;
      this.lastRoot = null;
      this.parse = null; // [opts, src], the same for every game of src
    }

    makeRoot(id) {
      const root = {id, data: {}, parentId: null};
      Object.defineProperty(root, 'children', LAZY_CHILDREN);
      new LazyGame(root);
      this.lastRoot = root;
      return root;
    }

    attach(root, src, start, end, count) {
      if (root !== this.lastRoot) return;
      this.lastRoot = null;
      if (count > 1) {
        if (this.parse === null || this.parse[1] !== src) this.parse = [this.opts, src];
        LazyGame.set(root, this.parse, start, end);
      }
    }
  }

  /* build()'s hooks for a lazy parse: game() attaches each game to its
   * root (the bytes, or the text: its byte offsets turned into indices by
   * map). */
  class ParseGames {
    constructor(b, trees, src, map, bias) {
      this.b = b;
      this.trees = trees;
      this.src = src;
      this.map = map;
      this.bias = bias;
      this.attached = null;
    }

    game(start, end, count) {
      const b = this.b;
      const root = b.roots[b.roots.length - 1];
      // (a game with no node, "()", has no root of its own)
      if (!root || root === this.attached) return;
      this.attached = root;
      b.nextId = root.id + Math.max(count, 1);
      const map = this.map;
      const bias = this.bias;
      if (map === null) this.trees.attach(root, this.src, start - bias, end - bias, count);
      else this.trees.attach(root, this.src, map.index(start - bias), map.index(end - bias), count);
    }
  }






  // ------------------------------------------------------------ streaming

  /* The chunks of a source: bytes, a string, a Blob/File, a Response, a
   * WHATWG ReadableStream, or anything async-iterable or iterable that
   * gives bytes or strings (a Node readable stream). */
  async function* chunks(source) {
    if (source === null || source === undefined) throw new TypeError('sgfstream: no source');
    if (typeof source === 'string' || source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
      yield toBytes(source);
      return;
    }
    if (typeof Response !== 'undefined' && source instanceof Response) source = source.body;
    if (typeof Blob !== 'undefined' && source instanceof Blob) source = source.stream();
    if (source && typeof source.getReader === 'function' && !source[Symbol.asyncIterator]) {
      const reader = source.getReader();
      try {
        for (;;) {
          const {done, value} = await reader.read();
          if (done) return;
          yield toBytes(value);
        }
      } finally {
        reader.releaseLock();
      }
    }
    if (source[Symbol.asyncIterator] || source[Symbol.iterator]) {
      for await (const c of source) yield toBytes(c);
      return;
    }
    throw new TypeError('sgfstream: the source is not bytes, a stream or an iterable');
  }

  /* The async iterator of games() and headers(), with its diagnostics
   * array: those found outside every game, filled as the stream is read. */
  function gameIterator(source, options, mode) {
    const outside = [];
    const it = gameStream(source, options, mode, outside);
    it.diagnostics = outside;
    return it;
  }

  async function* gameStream(source, options, mode, outside) {
    const opts = options || {};
    if (!W) await init();
    // games(): lazy trees, as parse() makes them (each game's bytes kept
    // with its root until its children are read)
    const lazy =
      mode === SJ_FULL && opts.lazy !== false && !opts.getId && !opts.dictionary && !opts.onNodeCreated;
    const out = []; // the games made by the last feed
    let done = 0; // how many of them were handed out
    let base = 0; // the index of out[0]
    const hooks = {
      noCollect: true,
      gameEnd(root, diagnostics, charset) {
        out.push({index: base + out.length, root, diagnostics, charset});
      },
    };
    // lazy: the bytes of the chunk being fed (cur, from offset curAt) and
    // those kept from before it (carry, from carryAt: from the open
    // game's '(', or what the parser may still name)
    const bias = opts._offsetBias || 0;
    let cur = EMPTY;
    let curAt = bias;
    let carry = EMPTY;
    let carryAt = bias;
    // (a subarray of the chunk's copy when the bytes lie in it: one
    // allocation per chunk, not one per game)
    const bytesOf = (start, end) => {
      if (start >= curAt) return cur.subarray(start - curAt, end - curAt);
      const r = new Uint8Array(end - start);
      if (start < curAt) r.set(carry.subarray(start - carryAt, Math.min(end, curAt) - carryAt), 0);
      if (end > curAt) {
        const from = Math.max(start, curAt);
        r.set(cur.subarray(from - curAt, end - curAt), from - start);
      }
      return r;
    };
    let trees = null;
    if (lazy) {
      trees = new LazyTrees({maxDepth: opts.maxDepth, encoding: opts.encoding});
      let attached = null;
      hooks.game = (start, end, count) => {
        const last = out[out.length - 1];
        const root = last === undefined ? null : last.root;
        if (root === null || root === attached) return;
        attached = root;
        b.nextId = root.id + Math.max(count, 1);
        if (count > 1) trees.attach(root, bytesOf(start, end), 0, end - start, count);
        else trees.attach(root, null, 0, 0, count);
      };
    }
    const b = new Builder(Object.assign({}, opts, {diagnostics: []}), hooks);
    if (lazy) b.trees = trees;
    b.outside = outside;
    const eng = new Engine(lazy ? SJ_ROOTS : mode, opts);
    try {
      for await (const chunk of chunks(source)) {
        // (a copy: the source may reuse its chunk, and the games keep it)
        if (lazy) cur = copyOf(chunk);
        // fed a slice at a time, its games handed out after each: the
        // games wait for the consumer in a small batch, and their nodes
        // die young (a megabyte's worth of trees held would outlive the
        // garbage collector's young generation, and cost it thrice)
        for (let at = 0; at < chunk.length; at += STREAM_SLICE) {
          eng.feed(at === 0 && chunk.length <= STREAM_SLICE ? chunk : chunk.subarray(at, at + STREAM_SLICE), b);
          b.diagnostics.length = 0;
          while (done < out.length) {
            const g = out[done];
            out[done++] = undefined;
            yield g;
          }
          out.length = 0;
          base += done;
          done = 0;
        }
        if (lazy) {
          // keep what a game still to end or begin may name
          const end = curAt + chunk.length;
          let keep = Math.min(W.sj_held(eng.h), end);
          if (b.depth > 0 && b.gameStart < keep) keep = b.gameStart;
          carry = copyOf(bytesOf(keep, end));
          carryAt = keep;
          cur = EMPTY;
          curAt = end;
        }
      }
      eng.finish(b);
      while (done < out.length) {
        const g = out[done];
        out[done++] = undefined;
        yield g;
      }
    } finally {
      eng.free();
    }
  }


  /* The games of a stream, one at a time: {index, root, diagnostics,
   * charset}, root an @sabaki/sgf node tree, diagnostics those found
   * inside its game tree. Only the game being read and the chunk being
   * parsed are in memory. The iterator's own diagnostics array holds
   * those found outside every game (text or a ')' between two games or
   * after the last, a stream with no game, a game tree with no node),
   * in input order; complete when the iteration ends. In strict mode
   * they are errors: SgfError is thrown instead. */
  function games(source, options) {
    return gameIterator(source, options, SJ_FULL);
  }

  /* As games(), but each game's root node only (root.children empty):
   * the rest of each game is passed over unparsed. */
  function headers(source, options) {
    return gameIterator(source, options, SJ_HEADERS);
  }

  // ----------------------------------------------------------- the Parser

  const ACTIONS = {continue: 0, skip: 1, pause: 2, stop: 3};
  function action(r) {
    if (r === undefined || r === null || r === true) return 0;
    if (typeof r === 'number') return r;
    const a = ACTIONS[r];
    if (a === undefined) throw new TypeError(`sgfstream: a callback returned '${r}' (not continue, skip, pause or stop)`);
    return a;
  }

  /* A push parser with callbacks. new Parser(callbacks, options), then
   * feed(chunk) as often as needed and finish(). Callbacks (each may
   * return 'skip', 'pause' or 'stop'; anything else goes on):
   *   onNode(node, depth)             a node is complete (data filled;
   *                                   depth 1 in a game's main tree)
   *   onProperty(ident, values, node) each property of that node
   *   onValue(ident, value, node)     each value of that property
   *   onGame(root, diagnostics)       a game is complete (root: its tree)
   *   onDiagnostic(diagnostic)        a problem found, with its position
   * 'skip' passes over the rest of the innermost game tree (from a root
   * node: the rest of the game); 'pause' stops at once: feed() returns
   * false, and nothing more happens until resume() (chunks fed meanwhile
   * wait); 'stop' ends the parse (later feeds do nothing). A node is
   * delivered when it is complete; a root node's text is decoded by its
   * CA, wherever CA stands in it. Options: as parse()'s (strict,
   * encoding, maxDepth, mainline), and keepTree (build the game's tree
   * for onGame; default true: false keeps only the node being read). */
  class Parser {
    constructor(callbacks, options) {
      this.cb = callbacks || {};
      this.opts = options || {};
      this.paused = false;
      this.stopped = false;
      this.finished = false;
      const self = this;
      const keep = this.opts.keepTree !== false;
      this.builder = new Builder(this.opts, {
        noCollect: true,
        nodeEnd(node, b) {
          if (self.stopped) return;
          self.act(self.nodeDone(node, b.depth));
        },
        gameEnd(root, diagnostics) {
          if (self.cb.onGame && !self.stopped) self.act(self.cb.onGame(root, diagnostics));
        },
        diagnostic(d) {
          if (self.cb.onDiagnostic && !self.stopped) self.act(self.cb.onDiagnostic(d));
        },
      });
      if (!keep) this.builder.keepTree = false;
      this.engine = new Engine(SJ_FULL, this.opts);
    }

    nodeDone(node, depth) {
      const cb = this.cb;
      let a = cb.onNode ? action(cb.onNode(node, depth)) : 0;
      if (a === 0 && (cb.onProperty || cb.onValue)) {
        for (const id of Object.keys(node.data)) {
          const vals = node.data[id];
          if (cb.onProperty) a = action(cb.onProperty(id, vals, node));
          if (a !== 0) break;
          if (cb.onValue) {
            for (let i = 0; i < vals.length && a === 0; i++) a = action(cb.onValue(id, vals[i], node));
          }
          if (a !== 0) break;
        }
      }
      return a;
    }

    act(a) {
      const r = action(a);
      if (r === 1) {
        this.builder.skip();
      } else if (r === 2) {
        this.paused = true;
        this.builder.halt = true;
      } else if (r === 3) {
        this.stopped = true;
        this.builder.stopped = true;
        this.builder.halt = true;
      }
    }

    /* Feed a chunk (bytes or a string). Returns false while paused. */
    feed(chunk) {
      if (this.finished) throw new Error('sgfstream: feed() after finish()');
      if (this.stopped) return true;
      const bytes = toBytes(chunk);
      if (this.paused) {
        this.engine.jobs.push(copyOf(bytes));
        return false;
      }
      this.engine.feed(copyOf(bytes), this.builder);
      return !this.paused;
    }

    /* Go on after a pause. Returns false if paused again. */
    resume() {
      if (!this.paused || this.stopped) return true;
      this.paused = false;
      this.engine.pump(this.builder);
      if (!this.paused && this.finishing) this.finish();
      return !this.paused;
    }

    /* The end of input. Returns the diagnostics found (while paused,
     * the end waits for resume()). */
    finish() {
      if (this.finished) return this.builder.diagnostics;
      if (this.paused) {
        this.finishing = true;
        return this.builder.diagnostics;
      }
      this.finished = true;
      try {
        if (!this.stopped) this.engine.finish(this.builder);
      } finally {
        this.engine.free();
      }
      return this.builder.diagnostics;
    }
  }
  Parser.CONTINUE = 'continue';
  Parser.SKIP = 'skip';
  Parser.PAUSE = 'pause';
  Parser.STOP = 'stop';

  // ---------------------------------------------------------------- tokens

  /* @sabaki/sgf's tokens of SGF text: {type, value, row, col, pos,
   * progress}, type 'parenthesis', 'semicolon', 'prop_ident' (a run of
   * ASCII letters), 'c_value_type' (from '[' to the first ']' that no
   * backslash escapes, brackets and escapes kept) or 'invalid' (one UTF-16
   * unit that begins none of these, or a '[' that no ']' closes). White
   * space (JavaScript's \s) between tokens is passed over. row, col and
   * pos are 0-based and in UTF-16 units, rows counted by LF; progress is
   * pos / (length - 1). Linear time: when a '[' finds no ']' to close it,
   * no later '[' can (its scan is in step with the first one's from there
   * on), so none is tried again. */
  const WIDE_SPACE = /\s/;
  function isSpace(c) {
    return c === 32 || (c >= 9 && c <= 13) || (c >= 128 && WIDE_SPACE.test(String.fromCharCode(c)));
  }
  function isLetter(c) {
    const l = c | 0x20;
    return l >= 0x61 && l <= 0x7a;
  }

  function* tokenizeIter(contents) {
    const s = String(contents);
    const n = s.length;
    const last = n - 1;
    let row = 0;
    let col = 0;
    let pos = 0;
    let closable = true; // a ']' is still to come for a '['
    while (pos < n) {
      const c = s.charCodeAt(pos);
      let end = pos + 1;
      let type = 'invalid';
      let lines = false; // the token may hold line breaks
      if (isSpace(c)) {
        while (end < n && isSpace(s.charCodeAt(end))) end++;
        type = null;
        lines = true;
      } else if (c === 40 || c === 41) {
        type = 'parenthesis';
      } else if (c === 59) {
        type = 'semicolon';
      } else if (isLetter(c)) {
        while (end < n && isLetter(s.charCodeAt(end))) end++;
        type = 'prop_ident';
      } else if (c === 91 && closable) {
        let i = pos + 1;
        while (i < n) {
          const d = s.charCodeAt(i);
          if (d === 93) break;
          i += d === 92 ? 2 : 1;
        }
        if (i < n) {
          end = i + 1;
          type = 'c_value_type';
          lines = true;
        } else {
          closable = false;
        }
      }
      const token = type === null ? null : {type, value: s.slice(pos, end), row, col, pos, progress: pos / last};
      const nl = lines ? s.lastIndexOf('\n', end - 1) : -1;
      if (nl >= pos) {
        for (let i = s.indexOf('\n', pos); i >= 0 && i <= nl; i = s.indexOf('\n', i + 1)) row++;
        col = end - nl - 1;
      } else {
        col += end - pos;
      }
      pos = end;
      if (token !== null) yield token;
    }
  }

  function tokenize(contents) {
    return Array.from(tokenizeIter(contents));
  }

  /* The tokens of bytes: their text decoded as parseBuffer() decodes it
   * (UTF-16 by its byte-order mark or zero bytes; else by the encoding
   * option; else each game by its CA, or guessed, the bytes before a game
   * with it), then tokenized. */
  function* tokenizeBufferIter(buffer, options) {
    yield* tokenizeIter(decodeBuffer(toBytes(buffer), (options || {}).encoding));
  }

  function tokenizeBuffer(buffer, options) {
    return Array.from(tokenizeBufferIter(buffer, options));
  }

  function decodeBuffer(bytes, encoding) {
    if (looksUtf16(bytes)) {
      const be = (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0 && bytes[1] !== 0);
      return new TextDecoder(be ? 'utf-16be' : 'utf-16le').decode(bytes);
    }
    if (encoding) {
      const d = decoderFor(encoding);
      if (!d) throw new RangeError(`sgfstream: unknown encoding '${encoding}'`);
      return d.decode(bytes);
    }
    const games = gameCharsets(bytes);
    let s = '';
    let from = 0;
    for (const g of games) {
      const end = g.end < from ? bytes.length : g.end;
      s += g.dec.decode(bytes.subarray(from, end));
      from = end;
    }
    if (from < bytes.length) {
      const rest = bytes.subarray(from);
      const d = games.length ? games[games.length - 1].dec : tryUtf8(rest) !== null ? utf8Decoder() : guessCharset(rest);
      s += d.decode(rest);
    }
    return s;
  }

  function utf8Decoder() {
    return decoderFor('utf-8');
  }

  /* Each game's charset, as parseBuffer() finds it, and the offset after
   * it: [{end, dec}] in order (end -1 where the parser gave none). */
  function gameCharsets(bytes) {
    const games = [];
    const b = new Builder(
      {},
      {
        noCollect: true,
        gameEnd() {
          games.push({end: -1, dec: b.dec || b.guessed || utf8Decoder()});
        },
        game(start, end) {
          const g = games[games.length - 1];
          if (g !== undefined && g.end < 0) g.end = end;
        },
      }
    );
    const eng = new Engine(SJ_ROOTS, {});
    try {
      eng.feed(bytes, b);
      eng.finish(b);
    } finally {
      eng.free();
    }
    return games;
  }

  /* @sabaki/sgf's parseTokens(): the root nodes of tokens (an array or
   * any iterable of them, as tokenize() gives), read as parse() reads the
   * text they spell, with the same options: their values, each at its row
   * and column (so that diagnostics point there), or one after the other
   * (two identifiers apart) when they have none. */
  function parseTokens(tokens, options) {
    const parts = [];
    let row = 0;
    let col = 0;
    let ident = false;
    for (const t of tokens) {
      const v = String(t.value);
      const placed = typeof t.row === 'number' && typeof t.col === 'number';
      if (placed && t.row > row) {
        parts.push('\n'.repeat(t.row - row));
        row = t.row;
        col = 0;
      }
      if (placed && t.row === row && t.col > col) {
        parts.push(' '.repeat(t.col - col));
        col = t.col;
      } else if (ident && t.type === 'prop_ident') {
        parts.push(' ');
        col++;
      }
      parts.push(v);
      ident = t.type === 'prop_ident';
      const nl = v.lastIndexOf('\n');
      if (nl < 0) {
        col += v.length;
      } else {
        for (let i = v.indexOf('\n'); i >= 0; i = v.indexOf('\n', i + 1)) row++;
        col = v.length - nl - 1;
      }
    }
    return parse(parts.join(''), options);
  }

  // ------------------------------------------------------------- stringify

  /* @sabaki/sgf's stringify(): SGF text for a node (or an array of root
   * nodes). Options: linebreak (default "\n"), indent (default two
   * spaces). A node's only child follows it in the same sequence; two or
   * more children are variations. Properties whose identifier is not all
   * uppercase are left out. No recursion: trees of any depth. */
  function stringify(node, options) {
    const opts = options || {};
    const linebreak = opts.linebreak === undefined ? '\n' : opts.linebreak;
    const indent = opts.indent === undefined ? '  ' : opts.indent;
    const out = [];
    const ind = (level) => (linebreak !== '' ? indent.repeat(level) : '');
    // work items: [node, level] to write, or a string
    const work = [];
    const top = Array.isArray(node) ? {children: node} : node;
    work.push([top, opts.level || 0]);
    while (work.length) {
      const item = work.pop();
      if (typeof item === 'string') {
        out.push(item);
        continue;
      }
      let n = item[0];
      const level = item[1];
      // this node, then its only child on the same level, and so on
      for (;;) {
        if (n.data != null) {
          out.push(ind(level), ';');
          for (const id in n.data) {
            if (id.toUpperCase() !== id) continue;
            const vals = n.data[id];
            out.push(id, '[', (Array.isArray(vals) ? vals : [vals]).map(escapeString).join(']['), ']');
          }
          out.push(linebreak);
        }
        const ch = n.children || [];
        if (ch.length > 1 || (ch.length > 0 && level === 0)) {
          const t = ind(level);
          const parts = [t];
          for (const c of ch) parts.push('(', linebreak, [c, level + 1], t, ')');
          parts.push(linebreak);
          for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
        } else if (ch.length === 1) {
          n = ch[0];
          continue;
        }
        break;
      }
    }
    return out.join('');
  }

  // -------------------------------------------------------------- helpers

  const ALPHA = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

  /* Escape '\' and ']' for a value. */
  function escapeString(input) {
    return String(input).replace(/\\/g, '\\\\').replace(/\]/g, '\\]');
  }

  /* FF[4] text unescaping as @sabaki/sgf does it: CR dropped, a
   * backslash and a line break dropped (a soft break), a backslash
   * before any other character dropped, the character kept. */
  function unescapeString(input) {
    const s = String(input);
    let out = '';
    let from = 0;
    let i = 0;
    const n = s.length;
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 13) {
        out += s.slice(from, i);
        from = ++i;
      } else if (c === 92) {
        out += s.slice(from, i);
        i++;
        while (i < n && s.charCodeAt(i) === 13) i++;
        if (i < n && s.charCodeAt(i) === 10) {
          i++;
          from = i;
        } else {
          from = i;
          if (i < n) i++;
        }
      } else {
        i++;
      }
    }
    return out + s.slice(from);
  }

  /* "dd" to [3, 3]; [-1, -1] unless two letters. */
  function parseVertex(input) {
    const s = String(input);
    if (s.length !== 2) return [-1, -1];
    return [ALPHA.indexOf(s[0]), ALPHA.indexOf(s[1])];
  }

  /* [3, 3] to "dd"; "" when off the 52x52 alphabet. */
  function stringifyVertex(vertex) {
    const x = vertex[0];
    const y = vertex[1];
    if (Math.min(x, y) < 0 || Math.max(x, y) >= ALPHA.length) return '';
    return ALPHA[x] + ALPHA[y];
  }

  /* "aa:bb" to every vertex of the rectangle; a point to [vertex]. */
  function parseCompressedVertices(input) {
    const s = String(input);
    const colon = s.indexOf(':');
    if (colon < 0) return [parseVertex(s)];
    const a = parseVertex(s.slice(0, colon));
    const b = parseVertex(s.slice(colon + 1));
    const out = [];
    for (let i = Math.min(a[0], b[0]); i <= Math.max(a[0], b[0]); i++) {
      for (let j = Math.min(a[1], b[1]); j <= Math.max(a[1], b[1]); j++) out.push([i, j]);
    }
    return out;
  }

  const DATES = /^(\d{4}(-\d{1,2}(-\d{1,2})?)?(\s*,\s*(\d{4}|(\d{4}-)?\d{1,2}(-\d{1,2})?))*)?$/;

  /* An SGF date list ("1996-05-06,07,08") to [[1996, 5, 6], ...]; null
   * when it is not one; [] for "". Shortened dates take the year (and
   * month) from the one before. */
  function parseDates(input) {
    const s = String(input);
    if (!DATES.test(s)) return null;
    if (s.trim() === '') return [];
    const dates = s.split(',').map((x) => x.trim().split('-'));
    for (let i = 1; i < dates.length; i++) {
      const d = dates[i];
      const prev = dates[i - 1];
      if (d[0].length !== 4) {
        if (d.length === 1 && prev.length === 3) d.unshift(prev[1]);
        d.unshift(prev[0]);
      }
    }
    return dates.map((x) => x.map((y) => +y));
  }

  /* The inverse: [[1996, 5, 6], [1996, 5, 7]] to "1996-05-06,07". */
  function stringifyDates(dates) {
    if (dates.length === 0) return '';
    const parts = [dates[0].slice()];
    for (let i = 1; i < dates.length; i++) {
      const d = dates[i];
      const prev = dates[i - 1];
      let k = 0;
      while (k < d.length && d[k] === prev[k]) k++;
      parts.push(d.slice(k));
    }
    return parts.map((x) => x.map((y) => (y > 9 ? '' + y : '0' + y)).join('-')).join(',');
  }

  const api = {
    init,
    initSync,
    parse,
    parseBuffer,
    _parseOwned: parseOwned,
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
    get ready() {
      return W !== null;
    },
  };
  return api;
});
