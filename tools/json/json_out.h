/* json_out.h - JSON text on standard output, buffered, for `sgf json`.
 *
 * Strings given to jout_string() must be valid UTF-8 (sgf_charset's
 * output always is): the writer escapes the quote, the backslash and the
 * control characters (\n, \r, \t, \b, \f, else \u00XX), and also the C1
 * controls U+0080-U+009F and the separators U+2028 and U+2029 as \uXXXX
 * (valid raw in JSON, but line breaks to Python's str.splitlines() and
 * to JavaScript before ES2019), and passes every other byte through, so
 * a line holds exactly the text it was given.
 */
#ifndef SGF_TOOLS_JSON_OUT_H
#define SGF_TOOLS_JSON_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define JOUT_CAP 65536

struct bytebuf;

typedef struct jout {
  size_t len;
  struct bytebuf *to; /* NULL: stdout; else appended there (sgf serve) */
  char buf[JOUT_CAP];
} jout;

/* Hand what is buffered to stdout (stdio reports write errors), or to
 * o->to. */
void jout_flush(jout *o);

static inline void jout_byte(jout *o, char c) {
  if (o->len == JOUT_CAP) jout_flush(o);
  o->buf[o->len++] = c;
}

void jout_bytes_slow(jout *o, const char *s, size_t len);

/* Room for n bytes (n <= JOUT_CAP) at o->buf + o->len: the caller writes
 * them there and adds n to o->len. For the pieces written per value,
 * where one check beats one per byte. */
static inline char *jout_room(jout *o, size_t n) {
  if (JOUT_CAP - o->len < n) jout_flush(o);
  return o->buf + o->len;
}

/* Inline: most pieces are a few bytes of constant length, which the
 * compiler then copies without a call. */
static inline void jout_bytes(jout *o, const char *s, size_t len) {
  if (len <= JOUT_CAP - o->len) {
    memcpy(o->buf + o->len, s, len);
    o->len += len;
    return;
  }
  jout_bytes_slow(o, s, len);
}

static inline void jout_cstr(jout *o, const char *s) {
  jout_bytes(o, s, strlen(s));
}
/* A JSON string of len bytes of UTF-8, quotes included. */
void jout_string(jout *o, const char *s, size_t len);
/* The first byte of s[i, len) that a JSON string must escape (below
 * 0x20, '"' or '\\'), or that may begin a character it escapes (0xC2,
 * 0xE2), or len. */
size_t jout_next_escape(const char *s, size_t i, size_t len);
/* The first byte of s[i, len) that is not printable ASCII that a JSON
 * string holds as it is: below 0x20, '"', '\\', or from 0x80 on; or
 * len. Text up to there is written as it is, whatever the (ASCII
 * compatible) reading. */
size_t jout_next_special(const char *s, size_t i, size_t len);
/* The same, the portable way (eight bytes at a time): what the SSE2 paths
 * above must equal. */
size_t jout_next_escape_portable(const char *s, size_t i, size_t len);
size_t jout_next_special_portable(const char *s, size_t i, size_t len);
/* Nonzero: the functions above take the portable path (all converters of
 * the process: SGF_JSON_SLOW). */
void jout_use_portable(int on);
extern int jout_portable; /* (jout_use_portable) */

#ifdef __SSE2__
/* The bytes of v that jout_next_special() stops at, a bit each: a signed
 * v < 0x20 is a byte below 0x20 or from 0x80 on. */
static inline unsigned jout_special_bits(__m128i v) {
  __m128i m =
      _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
  return (unsigned)_mm_movemask_epi8(m);
}
#endif

/* jout_next_special(s, 0, len) for len <= 16 where 16 bytes may be read
 * at s (the bytes after len are not looked at): one load. */
static inline size_t jout_special16(const char *s, size_t len) {
#ifdef __SSE2__
  if (!jout_portable) {
    unsigned m =
        jout_special_bits(_mm_loadu_si128((const __m128i *)(const void *)s)) &
        ((1u << len) - 1);
    return m ? (size_t)__builtin_ctz(m) : len;
  }
#endif
  return jout_next_special_portable(s, 0, len);
}
/* The character at s[i] (where jout_next_escape stopped) as a JSON
 * string holds it: its escape, or itself. Returns the index after it. */
size_t jout_escape_at(jout *o, const char *s, size_t i, size_t len);
/* One byte of a JSON string: itself, or its escape. */
void jout_escaped(jout *o, unsigned char c);
void jout_int(jout *o, int64_t n);
void jout_uint(jout *o, uint64_t n);

#endif /* SGF_TOOLS_JSON_OUT_H */
