/* json_escape.c - the JSON writer's scans (tools/json/json_out.h) found
 * 16 bytes at a time (SSE2, with an overlapping last load) against the
 * portable ones (8 bytes at a time) and a byte-by-byte reference: every
 * byte value at every position of every length up to 64, at every
 * alignment, from several starts, among fillers that are near misses;
 * jout_special16() with bytes that must not count after the length; and
 * jout_string() written both ways, byte for byte; jout_uint() and
 * jout_int() against printf. Exit 0, or 1 with the
 * first differences on stderr. */
#include "bytebuf.h"
#include "json_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fails;

static void fail(const char *what, size_t len, size_t at, size_t start,
                 unsigned b, unsigned fill, size_t got, size_t want) {
  if (fails++ < 10)
    fprintf(stderr,
            "FAIL: %s: len %zu byte 0x%02x at %zu (filler 0x%02x) from "
            "%zu: %zu, want %zu\n",
            what, len, b, at, fill, start, got, want);
}

static int ref_escape(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\' || c == 0xC2 || c == 0xE2;
}
static int ref_special(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
}
static size_t ref_next(const char *s, size_t i, size_t len,
                       int (*is)(unsigned char)) {
  for (; i < len && !is((unsigned char)s[i]); i++) continue;
  return i;
}

/* Every scan on s (len bytes) from start: each equals the reference. */
static void scans(const char *s, size_t len, size_t start, size_t at,
                  unsigned b, unsigned fill) {
  size_t want = ref_next(s, start, len, ref_escape), got;
  if ((got = jout_next_escape(s, start, len)) != want)
    fail("jout_next_escape", len, at, start, b, fill, got, want);
  if ((got = jout_next_escape_portable(s, start, len)) != want)
    fail("jout_next_escape_portable", len, at, start, b, fill, got, want);
  want = ref_next(s, start, len, ref_special);
  if ((got = jout_next_special(s, start, len)) != want)
    fail("jout_next_special", len, at, start, b, fill, got, want);
  if ((got = jout_next_special_portable(s, start, len)) != want)
    fail("jout_next_special_portable", len, at, start, b, fill, got, want);
}

/* Fillers: plain bytes beside the ones scanned for. */
static const unsigned char fillers[] = {'a',  ' ',  '!',  '#',  '[',  ']',
                                        0x7f, 0x21, 0xC1, 0xC3, 0xE1, 0xE3,
                                        0x5b, 0x5d, 0xA0, 0xFF};

static void one_byte(void) {
  static char buf[16 + 64 + 16];
  size_t f, align, len, at;
  unsigned b;
  for (f = 0; f < sizeof fillers; f++) {
    for (align = 0; align < 16; align++) {
      char *s = buf + align;
      for (len = 0; len <= 64; len++) {
        memset(buf, fillers[f], sizeof buf);
        scans(s, len, 0, len, 0, fillers[f]); /* the filler alone */
        for (at = 0; at < len; at++) {
          for (b = 0; b < 256; b++) {
            s[at] = (char)b;
            scans(s, len, 0, at, b, fillers[f]);
            if (f > 0) continue; /* the other fillers: from 0 */
            scans(s, len, at, at, b, fillers[f]);
            scans(s, len, at + 1, at, b, fillers[f]);
          }
          s[at] = (char)fillers[f];
        }
      }
      if (f > 0) break; /* every alignment with the first filler */
    }
  }
}

/* jout_special16: 16 bytes read, only len of them count (the others
 * special: they must not). */
static void special16(void) {
  char s[16];
  size_t len, at;
  unsigned b;
  for (len = 0; len <= 16; len++) {
    memset(s, '"', sizeof s);
    memset(s, 'x', len);
    if (jout_special16(s, len) != len)
      fail("jout_special16", len, len, 0, '"', 'x', jout_special16(s, len),
           len);
    for (at = 0; at < len; at++) {
      for (b = 0; b < 256; b++) {
        size_t want, got;
        s[at] = (char)b;
        want = ref_next(s, 0, len, ref_special);
        if ((got = jout_special16(s, len)) != want)
          fail("jout_special16", len, at, 0, b, 'x', got, want);
      }
      s[at] = 'x';
    }
  }
}

/* jout_string's bytes with the 16-byte scans and with the portable ones,
 * over random strings of the bytes that matter. */
static void strings(void) {
  static const unsigned char alphabet[] = {
      'a',  'b',  ' ',  '"',  '\\', 0x00, 0x01, 0x1f, 0x7f, 0xC2, 0x80, 0x85,
      0x9f, 0xA0, 0xE2, 0x80, 0xA8, 0xA9, 0xAA, 0xC3, 0xA9, '\n', '\t'};
  bytebuf a, p;
  jout *o = malloc(sizeof *o);
  char s[200];
  unsigned seed = 12345;
  int n;
  if (o == NULL) abort();
  bytebuf_init(&a);
  bytebuf_init(&p);
  for (n = 0; n < 200000; n++) {
    size_t len, i;
    seed = seed * 1103515245u + 12345u;
    len = (seed >> 16) % sizeof s;
    for (i = 0; i < len; i++) {
      seed = seed * 1103515245u + 12345u;
      /* mostly plain, so that runs of 16 and more occur */
      s[i] = (seed >> 16) % 4 ? 'q'
                              : (char)alphabet[(seed >> 8) % sizeof alphabet];
    }
    a.len = p.len = 0;
    o->len = 0;
    o->to = &a;
    jout_use_portable(0);
    jout_string(o, s, len);
    jout_flush(o);
    o->to = &p;
    jout_use_portable(1);
    jout_string(o, s, len);
    jout_flush(o);
    jout_use_portable(0);
    if (!bytebuf_eq(&a, &p) && fails++ < 10)
      fprintf(stderr,
              "FAIL: jout_string: string %d (%zu bytes) written "
              "differently by the two scans\n",
              n, len);
  }
  free(a.p);
  free(p.p);
  free(o);
}

/* jout_uint and jout_int (two digits at a time) against printf, at every
 * power of ten and its neighbours and over random numbers. */
static void numbers(void) {
  bytebuf a;
  jout *o = malloc(sizeof *o);
  uint64_t v = 1, seed = 88172645463325252u;
  char want[32];
  int i, k;
  if (o == NULL) abort();
  bytebuf_init(&a);
  o->to = &a;
  for (i = 0; i < 2000; i++) {
    uint64_t n;
    if (i < 60) { /* 10^k - 1, 10^k, 10^k + 1 */
      n = v + (uint64_t)(i % 3) - 1;
      if (i % 3 == 2) v = v <= UINT64_MAX / 10 ? v * 10 : v;
    } else {
      seed ^= seed << 13;
      seed ^= seed >> 7;
      seed ^= seed << 17;
      n = seed >> (seed % 64);
    }
    if (i == 60) n = UINT64_MAX;
    for (k = 0; k < 2; k++) {
      int64_t sn = k ? -(int64_t)(n >> 1) : (int64_t)(n >> 1);
      a.len = o->len = 0;
      if (k == 0) {
        jout_uint(o, n);
        snprintf(want, sizeof want, "%llu", (unsigned long long)n);
      } else {
        jout_int(o, sn);
        snprintf(want, sizeof want, "%lld", (long long)sn);
      }
      jout_flush(o);
      if ((a.len != strlen(want) || memcmp(a.p, want, a.len) != 0) &&
          fails++ < 10)
        fprintf(stderr, "FAIL: jout_%s: %.*s, want %s\n", k ? "int" : "uint",
                (int)a.len, a.p, want);
    }
  }
  free(a.p);
  free(o);
}

int main(void) {
  numbers();
  one_byte();
  special16();
  strings();
  if (fails) {
    fprintf(stderr, "json_escape: %d failures\n", fails);
    return 1;
  }
  printf(
      "json_escape: the 16-byte scans equal the portable ones and the "
      "reference\n");
  return 0;
}
