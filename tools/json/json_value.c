/* json_value.c - `sgf json`: values to JSON. Text goes FF[4]-decoded
 * (sgf_text_decode) through the game's charset converter to UTF-8; other
 * values are typed by the property table (sgfstream/value.h): numbers and
 * reals as JSON numbers, points and moves as their two letters, a pass as
 * null, a composed value as a pair. A value the table does not type, or
 * that is not of its type, is written as its raw text, the latter with a
 * warning. */
#define _POSIX_C_SOURCE 200809L

#include "decimal.h"
#include "json_game.h"

#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

int jslow_wanted(void) { return getenv("SGF_JSON_SLOW") != NULL; }

sgf_pos jpos_abs(const jgame *g, sgf_pos pos) {
  sgf_pos o = g->origin;
  if (!g->have_origin) return pos;
  if (pos.line == 1) pos.column += o.column - 1;
  pos.line += o.line - 1;
  pos.offset += o.offset;
  return pos;
}

/* Whether stdout and stderr are one file (a terminal, 2>&1): only then
 * does the order of JSON lines and diagnostics show, and the lines so far
 * are flushed before each diagnostic. Asked once. */
int jdiag_shared(void) {
  static int shared = -1;
  struct stat o, e;
  if (shared < 0)
    shared = fstat(1, &o) != 0 || fstat(2, &e) != 0 ||
             (o.st_dev == e.st_dev && o.st_ino == e.st_ino);
  return shared;
}

/* "NAME:LINE:COL: KIND: MESSAGE" and a line break on stderr, put
 * together by hand (no second format to parse) and written in one
 * piece. */
static void write_diag(const char *name, sgf_pos pos, const char *kind,
                       const char *msg) {
  char line[1024], *b = line, *q;
  size_t nl = strlen(name), kl = strlen(kind), ml = strlen(msg);
  size_t need = nl + kl + ml + 2 * DECIMAL_U64_MAX + 8;
  if (need > sizeof line && (b = malloc(need)) == NULL) {
    fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s: %s\n", name, pos.line,
            pos.column, kind, msg);
    return;
  }
  q = b;
  memcpy(q, name, nl);
  q += nl;
  *q++ = ':';
  q += decimal_u64(q, pos.line);
  *q++ = ':';
  q += decimal_u64(q, pos.column);
  *q++ = ':';
  *q++ = ' ';
  memcpy(q, kind, kl);
  q += kl;
  *q++ = ':';
  *q++ = ' ';
  memcpy(q, msg, ml);
  q += ml;
  *q++ = '\n';
  fwrite(b, 1, (size_t)(q - b), stderr);
  if (b != line) free(b);
}

void jdiag(jgame *g, sgf_pos pos, int error, const char *fmt, ...) {
  va_list ap;
  char msg[512], *m = msg;
  int n;
  g->status = jst_worse(g->status, error ? JST_ERRORS : JST_WARNINGS);
  if (g->quiet) return;
  pos = jpos_abs(g, pos);
  if (jdiag_shared()) {
    jout_flush(g->out);
    fflush(stdout);
  }
  if (g->before_message) g->before_message();
  va_start(ap, fmt); /* the message first: one write to stderr */
  n = vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof msg && (m = malloc((size_t)n + 1)) != NULL) {
    va_start(ap, fmt);
    vsnprintf(m, (size_t)n + 1, fmt, ap);
    va_end(ap);
  }
  write_diag(g->name, pos, error ? "error" : "warning", m ? m : msg);
  if (m != msg) free(m);
}

sgf_pos jpos_in_value(sgf_pos pos, const char *raw, size_t k) {
  size_t i;
  pos.offset += 1 + k;
  pos.column += 1 + k;
  for (i = 0; i < k; i++) {
    if (raw[i] == '\n' ||
        (raw[i] == '\r' && (i + 1 >= k || raw[i + 1] != '\n'))) {
      pos.line++;
      pos.column = k - i; /* the bytes after the break, plus one */
    }
  }
  return pos;
}

/* The raw offset of decoded byte k (the decoder maps many to one). */
static size_t raw_offset(const char *raw, size_t len, unsigned flags,
                         size_t k) {
  sgf_text_decoder d;
  char tmp[2];
  size_t i, n = 0;
  sgf_text_decoder_init(&d, flags);
  for (i = 0; i < len; i++) {
    n += sgf_text_decoder_feed(&d, raw + i, 1, tmp);
    if (n > k) return i;
  }
  return len;
}

/* A backslash right after a byte >= 0x81 (a double-byte character's
 * second byte, perhaps). */
static int dbcs_backslash(const char *raw, size_t len) {
  const char *b = len ? memchr(raw + 1, '\\', len - 1) : NULL;
  for (; b != NULL; b = memchr(b + 1, '\\', (size_t)(raw + len - b - 1)))
    if ((unsigned char)b[-1] >= 0x81) return 1;
  return 0;
}

/* Whether FF[4] decoding changes the text: it holds a backslash, or
 * whitespace other than the space and (Text) the line breaks. If not,
 * every decoder (sgf_text_decode, the double-byte reading, which differs
 * only after a backslash) gives the text as it is. Most text is so. */
static int needs_decode(const char *raw, size_t len, int simple) {
  size_t i = 0;
#ifdef __SSE2__
  const __m128i bslash = _mm_set1_epi8('\\'), tab = _mm_set1_epi8('\t'),
                vt = _mm_set1_epi8('\v'), ff = _mm_set1_epi8('\f'),
                cr = _mm_set1_epi8(simple ? '\r' : '\t'),
                lf = _mm_set1_epi8(simple ? '\n' : '\t');
  for (; len - i >= 16; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(raw + i));
    __m128i m = _mm_or_si128(
        _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, bslash), _mm_cmpeq_epi8(v, tab)),
            _mm_or_si128(_mm_cmpeq_epi8(v, vt), _mm_cmpeq_epi8(v, ff))),
        _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, lf)));
    if (_mm_movemask_epi8(m)) return 1;
  }
#endif
  for (; i < len; i++) {
    char c = raw[i];
    if (c == '\\' || c == '\t' || c == '\v' || c == '\f' ||
        (simple && (c == '\r' || c == '\n')))
      return 1;
  }
  return 0;
}

static void warn_guess(jgame *g, const sgf_charset_info *info, sgf_pos pos) {
  if (!info->guessed || g->guess_warned) return;
  g->guess_warned = 1;
  jdiag(g, pos, 0,
        "text read as %s, not as the CA says (--guess); "
        "further text of this game likewise",
        info->charset);
}

/* Convert len bytes (FF[4]-decoded with flags, or raw: flags ~0u) and
 * write them as a JSON string. */
/* Convert len bytes of s (FF[4]-decoded text with flags, or raw: flags
 * ~0u) into g->conv; returns its length, or -1 (reported). */
static int convert(jgame *g, const char *s, size_t len, const char *raw,
                   size_t rawlen, unsigned flags, sgf_pos pos,
                   sgf_charset_info *info) {
  size_t off = 0;
  int n =
      sgf_charset_convert(g->cs, s, len, &g->conv, &g->conv_cap, info, &off);
  if (n == SGF_ESYNTAX && g->mute_decode) { /* the header reported it */
    g->status = jst_worse(g->status, JST_ERRORS);
    return (int)info->len;
  }
  if (n == SGF_ESYNTAX) {
    size_t k = flags == ~0u ? off : raw_offset(raw, rawlen, flags, off);
    jdiag(g, jpos_in_value(pos, raw, k), 1,
          "text does not decode as %s (byte 0x%02x); the value is written "
          "as ISO-8859-1",
          info->charset, (unsigned)(unsigned char)s[off]);
    return (int)info->len; /* the text as ISO-8859-1 */
  }
  if (n < 0) {
    jdiag(g, pos, 1, "out of memory converting text");
    return -1;
  }
  return n;
}

static void write_converted(jgame *g, const char *s, size_t len,
                            const char *raw, size_t rawlen, unsigned flags,
                            sgf_pos pos) {
  sgf_charset_info info;
  int n = convert(g, s, len, raw, rawlen, flags, pos, &info);
  if (n < 0) {
    jout_cstr(g->out, "null");
    return;
  }
  warn_guess(g, &info, pos);
  jout_string(g->out, g->conv, (size_t)n);
}

static int is_blank(char c) { return c == '\t' || c == '\v' || c == '\f'; }

/* Text in UTF-8 as a JSON string, FF[4]-decoded (sgf_text_decode) and
 * escaped in one pass: what jwrite_text's general path writes when the
 * charset is UTF-8 and the value valid UTF-8 (decoding takes out or
 * changes only ASCII bytes, so the text stays valid and the conversion
 * copies it). Most text is so; a value costs one scan for the bytes
 * either step looks at, all among those JSON escapes. */
static void write_text_utf8(jout *o, const char *s, size_t len, int simple) {
  size_t i = 0, run = 0;
  jout_byte(o, '"');
  while ((i = jout_next_escape(s, i, len)) < len) {
    char c = s[i];
    jout_bytes(o, s + run, i - run);
    if ((unsigned char)c >= 0x80) { /* U+0085, U+2028...: escaped */
      run = i = jout_escape_at(o, s, i, len);
      continue;
    }
    i++;
    if (c == '\\') { /* the next byte as it is, or a soft line break */
      if (i == len) {
        run = i;
        break;
      }
      c = s[i++];
      if ((unsigned char)c >= 0x80) { /* a character's first byte: kept */
        run = --i;                    /* for the escapes above */
        continue;
      }
      if (c == '\r' || c == '\n') { /* with its CR LF or LF CR partner */
        if (i < len && s[i] == (c == '\r' ? '\n' : '\r')) i++;
      } else {
        jout_escaped(o, (unsigned char)(is_blank(c) ? ' ' : c));
      }
    } else if (is_blank(c)) {
      jout_byte(o, ' ');
    } else if (simple && (c == '\r' || c == '\n')) { /* one break, a space */
      jout_byte(o, ' ');
      if (i < len && s[i] == (c == '\r' ? '\n' : '\r')) i++;
    } else {
      jout_escaped(o, (unsigned char)c);
    }
    run = i;
  }
  jout_bytes(o, s + run, len - run);
  jout_byte(o, '"');
}

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NOINLINE
#define ALWAYS_INLINE inline
#endif
static NOINLINE void write_text(jgame *g, const char *raw, size_t len,
                                int simple, sgf_pos pos);

/* Whether raw (in the root's records, with JROOT_PAD zero bytes after
 * them: root_padded) is up to 16 bytes. Then 16 bytes may be read at
 * raw: it is scanned in one load and copied in one piece. */
static int in_padded_root(const jgame *g, const char *raw, size_t len) {
  const uintptr_t off = (uintptr_t)raw - (uintptr_t)g->root.p;
  return len <= 16 && g->root_padded && off < g->root.len;
}

/* jwrite_text's common case: printable ASCII with no '"' or '\\' in a
 * game whose text is UTF-8 (by CA or --charset) or has no CA, written as
 * it is (what the paths of write_text would write, found in one scan).
 * 1 and written, or 0. Inline: most text is so. */
static ALWAYS_INLINE int write_plain(jgame *g, const char *raw, size_t len) {
  char *q;
  if (g->slow || !g->text_utf8) return 0;
  if (in_padded_root(g, raw, len)) {
    if (jout_special16(raw, len) != len) return 0;
    q = jout_room(g->out, 18);
    q[0] = '"';
    memcpy(q + 1, raw, 16); /* (the bytes after len: overwritten) */
  } else {
    if (len > JOUT_CAP - 2 || jout_next_special(raw, 0, len) != len) return 0;
    q = jout_room(g->out, len + 2);
    q[0] = '"';
    memcpy(q + 1, raw, len);
  }
  q[len + 1] = '"';
  g->out->len += len + 2;
  return 1;
}

/* A Text (simple 0) or SimpleText (1) value as a JSON string. Inline:
 * the common case costs no call (and no copy of pos). */
static ALWAYS_INLINE void jwrite_text(jgame *g, const char *raw, size_t len,
                                      int simple, sgf_pos pos) {
  if (!write_plain(g, raw, len)) write_text(g, raw, len, simple, pos);
}

/* The rest of jwrite_text: UTF-8 with no backslash that a double-byte
 * charset's reading would change (below), FF[4]-decoded and escaped in
 * one pass; text that needs no decoding converted; else decoded, then
 * converted. */
static NOINLINE void write_text(jgame *g, const char *raw, size_t len,
                                int simple, sgf_pos pos) {
  unsigned flags = simple ? SGF_TEXT_SIMPLE : 0;
  const char *declared;
  size_t n;
  if (!g->slow && g->text_utf8 &&
      (g->text_utf8 == 1 || !dbcs_backslash(raw, len)) &&
      sgf_utf8_valid(raw, len) == len) {
    write_text_utf8(g->out, raw, len, simple);
    return;
  }
  if (!g->slow && !needs_decode(raw, len, simple)) {
    write_converted(g, raw, len, raw, len, flags, pos);
    return;
  }
  declared = sgf_charset_declared(g->cs);
  g->text.len = 0;
  if (bytebuf_reserve(&g->text, len + 1) != 0) {
    jdiag(g, pos, 1, "out of memory");
    jout_cstr(g->out, "null");
    return;
  }
  /* a double-byte charset's second byte may be a backslash */
  if (declared == NULL && dbcs_backslash(raw, len)) {
    /* no CA: if --guess finds the double-byte charset whose reading of
     * the backslashes was used, that is the text */
    static const struct {
      const char *rule, *a, *b;
    } tries[] = {{"SHIFT_JIS", "SHIFT_JIS", "SHIFT_JIS"},
                 {"GB18030", "GB18030", "BIG5"}};
    size_t t;
    for (t = 0; t < 2; t++) {
      sgf_charset_info info;
      int k;
      n = sgf_text_decode_dbcs(raw, len, g->text.p, flags, tries[t].rule);
      k = convert(g, g->text.p, n, raw, len, flags, pos, &info);
      if (k >= 0 && info.charset != NULL &&
          (strcmp(info.charset, tries[t].a) == 0 ||
           strcmp(info.charset, tries[t].b) == 0)) {
        jout_string(g->out, g->conv, (size_t)k);
        return;
      }
    }
  }
  n = sgf_text_decode_dbcs(raw, len, g->text.p, flags, declared);
  write_converted(g, g->text.p, n, raw, len, flags, pos);
}

void jwrite_raw(jgame *g, const char *raw, size_t len, sgf_pos pos) {
  write_converted(g, raw, len, raw, len, ~0u, pos);
}

/* Bytes as a JSON string, each byte one character (ISO-8859-1): those
 * over 0x7f as two bytes of UTF-8, the C1 controls escaped. */
static void write_latin1(jout *o, const char *s, size_t len) {
  size_t i;
  jout_byte(o, '"');
  for (i = 0; i < len; i++) {
    unsigned char b = (unsigned char)s[i];
    char u[2];
    if (b < 0x80) {
      jout_escaped(o, b);
      continue;
    }
    u[0] = (char)(0xC0 | b >> 6);
    u[1] = (char)(0x80 | (b & 0x3F));
    if (b < 0xA0)
      jout_escape_at(o, u, 0, 2); /* a C1 control: \u0080-\u009f */
    else
      jout_bytes(o, u, 2);
  }
  jout_byte(o, '"');
}

/* As it is when UTF-8, else read as ISO-8859-1: nothing is lost. */
static void write_utf8_or_latin1(jout *o, const char *s, size_t len) {
  if (sgf_utf8_valid(s, len) == len)
    jout_string(o, s, len);
  else
    write_latin1(o, s, len);
}

void jwrite_name(jgame *g, const char *name) {
  write_utf8_or_latin1(g->out, name, strlen(name));
}

/* CA's own value names a charset in ASCII: never read through the
 * charset it names (CA[UTF-16LE] would come out as CJK), nor through
 * --charset's. FF[4]-decoded as SimpleText (--raw: as written); bytes
 * that are not ASCII as UTF-8 when they are, else as ISO-8859-1. */
static void write_ca(jgame *g, const char *raw, size_t len) {
  size_t n;
  if (g->raw) {
    write_utf8_or_latin1(g->out, raw, len);
    return;
  }
  g->text.len = 0;
  if (bytebuf_reserve(&g->text, len + 1) != 0) {
    jout_cstr(g->out, "null");
    return;
  }
  n = sgf_text_decode(raw, len, g->text.p, SGF_TEXT_SIMPLE);
  write_utf8_or_latin1(g->out, g->text.p, n);
}

/* A point's two letters, quoted, at q (4 bytes). */
static void put_point(char *q, int x, int y) {
  q[0] = '"';
  q[1] = (char)(x < 26 ? 'a' + x : 'A' + x - 26);
  q[2] = (char)(y < 26 ? 'a' + y : 'A' + y - 26);
  q[3] = '"';
}

/* A decoded point's two letters (no range check: it was decoded). */
static void write_point(jgame *g, sgf_point pt) {
  put_point(jout_room(g->out, 4), pt.x, pt.y);
  g->out->len += 4;
}

static void write_part(jgame *g, const sgf_vpart *p, int rect, const char *raw,
                       sgf_pos pos) {
  char num[SGF_REAL_MAX];
  int n, x, y;
  size_t k;
  switch (p->type) {
    case SGF_VT_NUMBER:
      jout_int(g->out, p->u.number);
      return;
    case SGF_VT_REAL:
      n = sgf_real_encode(p->u.real, num);
      if (n > 0)
        jout_bytes(g->out, num, (size_t)n);
      else
        jout_cstr(g->out, "null");
      return;
    case SGF_VT_DOUBLE:
      jout_int(g->out, p->u.dbl);
      return;
    case SGF_VT_COLOR:
      jout_cstr(g->out, p->u.color == 'B' ? "\"B\"" : "\"W\"");
      return;
    case SGF_VT_TEXT:
    case SGF_VT_SIMPLETEXT:
      /* jwrite_text counts from the byte before the text (the '[' of a
       * whole value): here the ':' before a second part */
      k = (size_t)(p->u.text.at - raw);
      jwrite_text(g, p->u.text.at, p->u.text.len, p->type == SGF_VT_SIMPLETEXT,
                  k ? jpos_in_value(pos, raw, k - 1) : pos);
      return;
    case SGF_VT_MOVE:
      if (p->u.move.pass)
        jout_cstr(g->out, "null");
      else
        write_point(g, p->u.move.pt);
      return;
    case SGF_VT_POINT:
    case SGF_VT_STONE:
      if (!rect) {
        write_point(g, p->u.point);
        return;
      }
      for (y = p->u.rect.a.y; y <= p->u.rect.b.y; y++)
        for (x = p->u.rect.a.x; x <= p->u.rect.b.x; x++) {
          sgf_point pt;
          pt.x = x;
          pt.y = y;
          if (x != p->u.rect.a.x || y != p->u.rect.a.y) jout_byte(g->out, ',');
          write_point(g, pt);
        }
      return;
    default: /* NONE */
      jout_cstr(g->out, "null");
  }
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A Real as sgf_real_encode writes it: an optional '-', digits with no
 * leading zero (but "0"), and at most 6 fraction digits, the last not 0;
 * 15 significant digits at most. Such a decimal is the shortest that
 * reads back as its double (distinct decimals of 15 digits are distinct
 * doubles), so it is what the decode and encode would write. A valid
 * Real whose fraction ends in zeros ("300.0", "0.50") is the same double
 * as the decimal without them ("300", "0.5"). So most times (BL, WL) are
 * written without the round trip: the length of the canonical decimal
 * raw begins with when raw is it up to such zeros, else 0. */
static size_t canonical_real(const char *raw, size_t len) {
  size_t i = 0, start, end, nint, nfrac;
  if (len > 0 && raw[0] == '-') i++;
  start = i;
  while (i < len && is_digit(raw[i])) i++;
  nint = i - start;
  if (nint == 0 || (nint > 1 && raw[start] == '0')) return 0;
  end = i;
  if (i < len) {
    size_t frac;
    if (raw[i] != '.') return 0;
    frac = ++i;
    for (; i < len && is_digit(raw[i]); i++)
      if (raw[i] != '0') end = i + 1;   /* the last digit that is not 0 */
    if (i < len || i == frac) return 0; /* not a Real */
  }
  nfrac = end > start + nint ? end - start - nint - 1 : 0;
  if (nfrac > 6 || nint + nfrac > 15) return 0;
  if (start > 0 && nint == 1 && raw[start] == '0' && nfrac == 0)
    return 0; /* "-0" stays the encoder's */
  return end;
}

/* A Real written without the decode and encode round trip: 1 and
 * written, or 0 (nothing written). */
static int write_real_fast(jgame *g, const char *raw, size_t len) {
  size_t n = canonical_real(raw, len);
  if (n == 0) return 0;
  jout_bytes(g->out, raw, n);
  return 1;
}

static NOINLINE void write_value(jgame *g, const char *raw, size_t len,
                                 sgf_pos pos);

void jwrite_value(jgame *g, const char *raw, size_t len, const sgf_pos *pos) {
  const sgf_propdef *def = g->def;
  if (def != NULL && def->id == SGF_PROP_CA) {
    write_ca(g, raw, len);
    return;
  }
  if (g->raw || def == NULL) {
    jwrite_raw(g, raw, len, *pos);
    return;
  }
  if (def->type2 == SGF_VT_UNKNOWN && !g->slow) {
    /* the common values without sgf_value_decode, written as its
     * decoding would be (test/tool/json.sh compares the output with
     * that of SGF_JSON_SLOW, which leaves this out) */
    switch (def->type) {
      case SGF_VT_REAL:
        if (def->shape == SGF_VS_SINGLE && write_real_fast(g, raw, len)) return;
        break;
      case SGF_VT_TEXT:
      case SGF_VT_SIMPLETEXT: /* decoded as itself, whole */
        jwrite_text(g, raw, len, def->type == SGF_VT_SIMPLETEXT, *pos);
        return;
      case SGF_VT_POINT:
      case SGF_VT_STONE:
      case SGF_VT_MOVE:
        if (jplain_move(g, raw, len)) { /* the letters, as a point */
          char *q = jout_room(g->out, 4);
          q[0] = '"';
          q[1] = raw[0];
          q[2] = raw[1];
          q[3] = '"';
          g->out->len += 4;
          return;
        }
        break;
      default:
        break;
    }
  }
  write_value(g, raw, len, *pos);
}

/* The rest of jwrite_value: decoded (sgf_value_decode), each part
 * written as its type; what does not decode, as its raw text, with a
 * warning. */
static NOINLINE void write_value(jgame *g, const char *raw, size_t len,
                                 sgf_pos pos) {
  const sgf_propdef *def = g->def;
  sgf_typed_value v;
  size_t off = 0;
  int rc, rect;
  rc = sgf_value_decode(NULL, def, &g->board, raw, len, &v, &off);
  if (rc < 0) {
    jdiag(g, jpos_in_value(pos, raw, off), 0,
          "%s: not a valid %s value (%s); written as its raw text", def->ident,
          sgf_vtype_name(NULL, def->type), sgf_strerror(rc));
    jwrite_raw(g, raw, len, pos);
    return;
  }
  rect = def->shape != SGF_VS_SINGLE && def->type2 == SGF_VT_UNKNOWN;
  if (v.composed) {
    jout_byte(g->out, '[');
    write_part(g, &v.part[0], 0, raw, pos);
    jout_byte(g->out, ',');
    write_part(g, &v.part[1], 0, raw, pos);
    jout_byte(g->out, ']');
    return;
  }
  write_part(g, &v.part[0], rect && v.part[0].type != SGF_VT_NONE, raw, pos);
}

void jplain_set(jgame *g) {
  int w = g->board.width < 26 ? g->board.width : 26;
  int h = g->board.height < 26 ? g->board.height : 26;
  int i;
  if (w == g->plain_w && h == g->plain_h) return;
  memset(g->plain, 0, sizeof g->plain);
  for (i = 0; i < w; i++) g->plain[0]['a' + i] = 1;
  for (i = 0; i < h; i++) g->plain[1]['a' + i] = 1;
  g->plain_w = w;
  g->plain_h = h;
}

/* Append an entry of the main line: 0, or -1 when memory runs out. */
static int keep(jgame *g, const char *e, size_t n) {
  if (g->moves.cap - g->moves.len > n) { /* a call less per move */
    memcpy(g->moves.p + g->moves.len, e, n);
    g->moves.len += n;
    g->moves.p[g->moves.len] = '\0';
    return 0;
  }
  return bytebuf_try_add(&g->moves, e, n);
}

/* ,["B","pd"] (MOVE_BYTES) at q: color and the letters x, y. */
static void put_entry(char *q, char color, char x, char y) {
  memcpy(q, ",[\"B\",\"pd\"]", MOVE_BYTES);
  q[3] = color;
  q[7] = x;
  q[8] = y;
}

static char point_letter(int x) {
  return (char)(x < 26 ? 'a' + x : 'A' + x - 26);
}

int jkeep_plain(jgame *g, const char *raw) {
  char e[MOVE_BYTES];
  put_entry(e, g->move_color, raw[0], raw[1]);
  return keep(g, e, sizeof e);
}

void jkeep_move(jgame *g, const char *raw, size_t len, sgf_pos pos) {
  char e[MOVE_BYTES];
  size_t n = MOVE_BYTES;
  sgf_move mv;
  size_t off;
  if (sgf_move_decode(&g->board, raw, len, &mv, &off) == 0) {
    put_entry(e, g->move_color, 0, 0);
    if (mv.pass) { /* ,["B",null] */
      memcpy(e + 6, "null]", 5);
      n = 11;
    } else {
      e[7] = point_letter(mv.pt.x);
      e[8] = point_letter(mv.pt.y);
    }
  } else { /* the tree's value reports it; ,["B", NUL ] */
    put_entry(e, g->move_color, 0, 0);
    e[6] = '\0';
    e[7] = ']';
    n = 8;
    /* kept as its length, its position, its bytes */
    if (bytebuf_reserve(&g->move_raw, sizeof len + sizeof pos + len) != 0)
      return;
    memcpy(g->move_raw.p + g->move_raw.len, &len, sizeof len);
    memcpy(g->move_raw.p + g->move_raw.len + sizeof len, &pos, sizeof pos);
    memcpy(g->move_raw.p + g->move_raw.len + sizeof len + sizeof pos, raw, len);
    g->move_raw.len += sizeof len + sizeof pos + len;
    if (keep(g, e, n) != 0) {
      g->move_raw.len -= sizeof len + sizeof pos + len;
      jdiag(g, pos, 1, "out of memory keeping the main line");
      return;
    }
    g->nraw++;
    return;
  }
  if (keep(g, e, n) != 0)
    jdiag(g, pos, 1, "out of memory keeping the main line");
}

void jwrite_moves(jgame *g) {
  const char *s = g->moves.p, *end = s + g->moves.len, *raw = g->move_raw.p;
  size_t i;
  sgf_pos pos;
  jout_bytes(g->out, ",\"moves\":[", 10);
  if (s != end) s++;              /* the first entry's comma */
  for (i = 0; i < g->nraw; i++) { /* a value that did not decode */
    const char *z = memchr(s, '\0', (size_t)(end - s));
    size_t len;
    jout_bytes(g->out, s, (size_t)(z - s));
    memcpy(&len, raw, sizeof len);
    memcpy(&pos, raw + sizeof len, sizeof pos);
    /* what does not decode was reported where the tree has it; with no
     * tree (--mainline), here, where it was read */
    g->mute_decode = g->mode != JSON_MAINLINE;
    jwrite_raw(g, raw + sizeof len + sizeof pos, len, pos);
    g->mute_decode = 0;
    raw += sizeof len + sizeof pos + len;
    s = z + 1;
  }
  if (s != end)
    jout_bytes(g->out, s, (size_t)(end - s)); /* s: NULL with no move */
  jout_byte(g->out, ']');
}

/* ------------------------------------------------------------ the root */

/* What jwrite_text's UTF-8 path needs to know of the charset (0: not
 * UTF-8, 1: UTF-8, 2: none, UTF-8 when the text is valid UTF-8). The
 * names sgf_charset reads as UTF-8 (its utf8_names). */
static int text_utf8(const sgf_charset *cs) {
  const char *d = sgf_charset_declared(cs);
  if (d == NULL) return 2;
  return strcasecmp(d, "UTF-8") == 0 || strcasecmp(d, "UTF8") == 0;
}

void jroot_settings(jgame *g) {
  jrec r;
  sgf_board_init(&g->board);
  if (jroot_first(g, JSLOT_SZ, &r) &&
      sgf_board_decode(r.s, r.len, &g->board, NULL) != 0)
    jdiag(g, r.pos, 0, "SZ: not a board size; 19 x 19 assumed");
  jplain_set(g);
  sgf_charset_reset(g->cs);
  if (g->input_utf8) {
    sgf_charset_set_ca(g->cs, "UTF-8", 5);
  } else if (jroot_first(g, JHEAD_FIELDS, &r)) {
    size_t n;
    g->text.len = 0;
    if (bytebuf_reserve(&g->text, r.len + 1) == 0) {
      n = sgf_text_decode(r.s, r.len, g->text.p, SGF_TEXT_SIMPLE);
      if (sgf_charset_set_ca(g->cs, g->text.p, n) != 0)
        jdiag(g, r.pos, 0,
              "CA[%.*s]: a charset iconv does not know; text "
              "read as UTF-8, else ISO-8859-1",
              (int)(n > 40 ? 40 : n), g->text.p);
    }
  }
  g->text_utf8 = text_utf8(g->cs);
}

/* The header fields: key, property, kind (t text, r real, n number, s
 * size), and the key as written: ,"key": and with null after it. */
#define FIELD(key, id, kind) \
  { key, id, kind, ",\"" key "\":null", sizeof key + 3 }
static const struct {
  const char *key, *id;
  char kind;
  char put[24];         /* ,"key":null and zeros: copied whole */
  unsigned char putlen; /* without null */
} fields[] = {
    FIELD("black", "PB", 't'),      FIELD("white", "PW", 't'),
    FIELD("black_rank", "BR", 't'), FIELD("white_rank", "WR", 't'),
    FIELD("result", "RE", 't'),     FIELD("date", "DT", 't'),
    FIELD("komi", "KM", 'r'),       FIELD("handicap", "HA", 'n'),
    FIELD("size", "SZ", 's'),       FIELD("rules", "RU", 't'),
    FIELD("event", "EV", 't'),      FIELD("round", "RO", 't'),
    FIELD("place", "PC", 't'),      FIELD("game_name", "GN", 't'),
};
#undef FIELD

#define NFIELDS (sizeof fields / sizeof fields[0])

typedef char fields_are_jhead_fields[NFIELDS == JHEAD_FIELDS ? 1 : -1];

/* By the two letters (A-Z each): the header slot + 1 of a property,
 * 0 none. */
#define S2(a, b) [((a) - 'A') * 26 + (b) - 'A']
const signed char jheader_slots[26 * 26] = {
    S2('P', 'B') = 1,  S2('P', 'W') = 2,  S2('B', 'R') = 3,
    S2('W', 'R') = 4,  S2('R', 'E') = 5,  S2('D', 'T') = 6,
    S2('K', 'M') = 7,  S2('H', 'A') = 8,  S2('S', 'Z') = 9,
    S2('R', 'U') = 10, S2('E', 'V') = 11, S2('R', 'O') = 12,
    S2('P', 'C') = 13, S2('G', 'N') = 14, S2('C', 'A') = JHEAD_FIELDS + 1};
#undef S2

const char *jheader_key(int slot) {
  return slot >= 0 && slot < JHEAD_FIELDS ? fields[slot].key : "CA";
}

const char *jheader_id(int slot) {
  return slot >= 0 && slot < JHEAD_FIELDS ? fields[slot].id : "CA";
}

typedef char sz_is_jslot_sz[JSLOT_SZ == 8 ? 1 : -1]; /* fields[] */

/* The position a value record holds (the value's '['). */
static sgf_pos record_pos(const char *rec) {
  sgf_pos pos;
  memcpy(&pos, rec + 1, sizeof pos);
  return pos;
}

void jwrite_header(jgame *g) {
  size_t i;
  for (i = 0; i < NFIELDS; i++) {
    const int seen = (g->root_seen & 1u << i) != 0;
    const char *rec = seen ? g->root.p + g->first_at[i] : NULL, *s;
    size_t len;
    char num[SGF_REAL_MAX];
    double d;
    int64_t n;
    sgf_board b;
    char *q = jout_room(g->out, sizeof fields[i].put);
    memcpy(q, fields[i].put, sizeof fields[i].put);
    /* none, or dropped (warned of when read): null */
    if (!seen || *rec == 'D') {
      g->out->len += fields[i].putlen + 4u; /* with null */
      continue;
    }
    g->out->len += fields[i].putlen;
    memcpy(&len, rec + 1 + sizeof(sgf_pos), sizeof len); /* jroot_first */
    s = rec + JREC_HEAD;
    if (g->raw) {
      jwrite_raw(g, s, len, record_pos(rec));
      continue;
    }
    switch (fields[i].kind) {
      case 'r':
        if (!g->slow && write_real_fast(g, s, len)) continue;
        if (sgf_real_decode(s, len, &d, NULL) == 0 &&
            (n = sgf_real_encode(d, num)) > 0) {
          jout_bytes(g->out, num, (size_t)n);
          continue;
        }
        break;
      case 'n':
        if (sgf_number_decode(s, len, &n, NULL) == 0) {
          jout_int(g->out, n);
          continue;
        }
        break;
      case 's':
        if (sgf_board_decode(s, len, &b, NULL) == 0) {
          jout_byte(g->out, '[');
          jout_int(g->out, b.width);
          jout_byte(g->out, ',');
          jout_int(g->out, b.height);
          jout_byte(g->out, ']');
          continue;
        }
        break;
      default:
        break;
    }
    /* text, and what does not decode as its type: as text (the position
     * read only for the general path) */
    if (!write_plain(g, s, len)) write_text(g, s, len, 1, record_pos(rec));
  }
}
