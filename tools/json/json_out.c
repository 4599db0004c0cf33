/* json_out.c - buffered JSON output (json_out.h). */
#include "json_out.h"

#include "bytebuf.h"
#include "decimal.h"

#include <stdio.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

void jout_flush(jout *o) {
  if (o->len && o->to)
    bytebuf_add(o->to, o->buf, o->len);
  else if (o->len)
    fwrite(o->buf, 1, o->len, stdout);
  o->len = 0;
}

void jout_bytes_slow(jout *o, const char *s, size_t len) {
  while (len > 0) {
    size_t room = JOUT_CAP - o->len, n = len < room ? len : room;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    s += n;
    len -= n;
    if (o->len == JOUT_CAP) jout_flush(o);
  }
}

/* The portable paths (jout_use_portable): the x86-64 build takes them
 * only when asked, to compare (SGF_JSON_SLOW; test/unit/json_escape.c). */
int jout_portable;

void jout_use_portable(int on) { jout_portable = on; }

/* Whether a byte is one jout_next_escape() stops at (escape) or one
 * jout_next_special() stops at. */
static int is_escape(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\' || c == 0xC2 || c == 0xE2;
}
static int is_special(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
}

/* Eight bytes at a time, by the word-at-a-time tests of "Bit Twiddling
 * Hacks": (x - n * ones) & ~x & high sets the high bit of a byte below n
 * (n <= 0x80) in the lowest such byte at least, and only in a word that
 * has one; a hit sends the word to the byte loop, which finds the byte. */
#define ONES ((uint64_t)0x0101010101010101u)
#define HIGH ((uint64_t)0x8080808080808080u)
static int has_zero(uint64_t x) { return ((x - ONES) & ~x & HIGH) != 0; }

size_t jout_next_escape_portable(const char *s, size_t i, size_t len) {
  for (; len - i >= 8; i += 8) {
    uint64_t x;
    memcpy(&x, s + i, 8);
    if (((x - ONES * 0x20) & ~x & HIGH) || has_zero(x ^ (ONES * '"')) ||
        has_zero(x ^ (ONES * '\\')) || has_zero(x ^ (ONES * 0xC2)) ||
        has_zero(x ^ (ONES * 0xE2)))
      break;
  }
  for (; i < len; i++)
    if (is_escape((unsigned char)s[i])) break;
  return i;
}

size_t jout_next_special_portable(const char *s, size_t i, size_t len) {
  for (; len - i >= 8; i += 8) {
    uint64_t x;
    memcpy(&x, s + i, 8);
    if ((((x - ONES * 0x20) & ~x) | x) & HIGH || has_zero(x ^ (ONES * '"')) ||
        has_zero(x ^ (ONES * '\\')))
      break;
  }
  for (; i < len; i++)
    if (is_special((unsigned char)s[i])) break;
  return i;
}

#ifdef __SSE2__
/* The bytes of v that jout_next_escape stops at, a bit each. */
static unsigned escape_bits(__m128i v) {
  const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'),
                ctl = _mm_set1_epi8(0x1f), c2 = _mm_set1_epi8((char)0xC2),
                e2 = _mm_set1_epi8((char)0xE2);
  __m128i m = _mm_or_si128(
      _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
          _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v)), /* v <= 0x1f */
      _mm_or_si128(_mm_cmpeq_epi8(v, c2), _mm_cmpeq_epi8(v, e2)));
  return (unsigned)_mm_movemask_epi8(m);
}

/* ... that jout_next_special stops at: a signed v < 0x20 is a byte below
 * 0x20 or from 0x80 on. */
static unsigned special_bits(__m128i v) {
  __m128i m =
      _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
  return (unsigned)_mm_movemask_epi8(m);
}

static __m128i load16(const char *s) {
  return _mm_loadu_si128((const __m128i *)(const void *)s);
}

/* Sixteen bytes at a time; the last up to 15 as the last 16 of s (their
 * bits before i shifted out) when s holds 16, else the portable way. */
#define SCAN16(bits, rest)                                                     \
  do {                                                                         \
    unsigned m;                                                                \
    for (; len - i >= 16; i += 16)                                             \
      if ((m = bits(load16(s + i))) != 0) return i + (size_t)__builtin_ctz(m); \
    if (i == len) return len;                                                  \
    if (len < 16) return rest(s, i, len);                                      \
    m = bits(load16(s + len - 16)) >> (16 - (len - i));                        \
    return m ? i + (size_t)__builtin_ctz(m) : len;                             \
  } while (0)
#endif

/* The first byte of s[i, len) that a JSON string must escape (below
 * 0x20, '"' or '\\') or that may begin a character it escapes (0xC2: the
 * C1 controls U+0080-U+009F, 0xE2: U+2028, U+2029), or len. Sixteen bytes
 * at a time with SSE2; else eight (jout_next_escape_portable). */
size_t jout_next_escape(const char *s, size_t i, size_t len) {
#ifdef __SSE2__
  if (!jout_portable) SCAN16(escape_bits, jout_next_escape_portable);
#endif
  return jout_next_escape_portable(s, i, len);
}

size_t jout_next_special(const char *s, size_t i, size_t len) {
#ifdef __SSE2__
  if (!jout_portable) SCAN16(special_bits, jout_next_special_portable);
#endif
  return jout_next_special_portable(s, i, len);
}

/* The escape of each byte below 0x20 with a short one: its letter. */
static const char short_esc[0x20] = {
    ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', ['\f'] = 'f', ['\r'] = 'r'};

void jout_escaped(jout *o, unsigned char c) {
  static const char hex[] = "0123456789abcdef";
  char *q;
  if (c >= 0x20 && c != '"' && c != '\\') {
    jout_byte(o, (char)c);
    return;
  }
  q = jout_room(o, 6);
  q[0] = '\\';
  if (c == '"' || c == '\\' || short_esc[c]) {
    q[1] = c < 0x20 ? short_esc[c] : (char)c;
    o->len += 2;
  } else {
    memcpy(q + 1, "u00", 3);
    q[4] = hex[c >> 4];
    q[5] = hex[c & 15];
    o->len += 6;
  }
}

static void put_u(jout *o, unsigned u) {
  static const char hex[] = "0123456789abcdef";
  char *q = jout_room(o, 6);
  q[0] = '\\';
  q[1] = 'u';
  q[2] = hex[u >> 12 & 15];
  q[3] = hex[u >> 8 & 15];
  q[4] = hex[u >> 4 & 15];
  q[5] = hex[u & 15];
  o->len += 6;
}

size_t jout_escape_at(jout *o, const char *s, size_t i, size_t len) {
  const unsigned char *u = (const unsigned char *)s + i;
  if (u[0] == 0xC2 && len - i >= 2 && u[1] >= 0x80 && u[1] <= 0x9F) {
    put_u(o, u[1]); /* a C1 control (U+0085 among them) */
    return i + 2;
  }
  if (u[0] == 0xE2 && len - i >= 3 && u[1] == 0x80 &&
      (u[2] == 0xA8 || u[2] == 0xA9)) {
    put_u(o, 0x2000u | (u[2] == 0xA8 ? 0x28u : 0x29u));
    return i + 3;
  }
  jout_escaped(o, u[0]);
  return i + 1;
}

void jout_string(jout *o, const char *s, size_t len) {
  size_t i = 0, run = 0;
  jout_byte(o, '"');
  while ((i = jout_next_escape(s, i, len)) < len) {
    jout_bytes(o, s + run, i - run); /* the plain run before it */
    run = i = jout_escape_at(o, s, i, len);
  }
  jout_bytes(o, s + run, len - run);
  jout_byte(o, '"');
}

/* The "parent" of each variation, "source"'s numbers, numbers in values:
 * two digits at a time, from a table, written from the end. */
void jout_uint(jout *o, uint64_t n) {
  static const char pairs[] =
      "00010203040506070809101112131415161718192021222324"
      "25262728293031323334353637383940414243444546474849"
      "50515253545556575859606162636465666768697071727374"
      "75767778798081828384858687888990919293949596979899";
  static const uint64_t pow10[DECIMAL_U64_MAX] = {1u,
                                                  10u,
                                                  100u,
                                                  1000u,
                                                  10000u,
                                                  100000u,
                                                  1000000u,
                                                  10000000u,
                                                  100000000u,
                                                  1000000000u,
                                                  10000000000u,
                                                  100000000000u,
                                                  1000000000000u,
                                                  10000000000000u,
                                                  100000000000000u,
                                                  1000000000000000u,
                                                  10000000000000000u,
                                                  100000000000000000u,
                                                  1000000000000000000u,
                                                  10000000000000000000u};
  char *q = jout_room(o, DECIMAL_U64_MAX);
  size_t k;
#ifdef __GNUC__
  /* the digits: from the bits (log10 2 ~ 1233 / 4096), then one compare */
  k = (size_t)((64 - __builtin_clzll(n | 1)) * 1233) >> 12;
  k += k < DECIMAL_U64_MAX && n >= pow10[k];
  k += k == 0;
#else
  for (k = 1; k < DECIMAL_U64_MAX && n >= pow10[k]; k++) continue;
#endif
  o->len += k;
  while (n >= 100) {
    const unsigned r = (unsigned)(n % 100);
    n /= 100;
    k -= 2;
    q[k] = pairs[2 * r];
    q[k + 1] = pairs[2 * r + 1];
  }
  if (n >= 10) {
    q[0] = pairs[2 * n];
    q[1] = pairs[2 * n + 1];
  } else {
    q[0] = (char)('0' + n);
  }
}

void jout_int(jout *o, int64_t n) {
  if (n < 0) {
    jout_byte(o, '-');
    jout_uint(o, 0 - (uint64_t)n); /* INT64_MIN too */
    return;
  }
  jout_uint(o, (uint64_t)n);
}
