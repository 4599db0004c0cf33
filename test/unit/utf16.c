/* utf16.c - UTF-16 input through the library only
 * (sgfstream/utf16.h, SGF_OPT_UTF16):
 *   - sgf_utf16_detect: the byte-order marks, UTF-32LE, '(' as UTF-16
 *     without a mark, and a single NUL byte, which is never UTF-16;
 *   - the decoder: UTF-16LE and BE to UTF-8 in chunks of every size
 *     (code units and surrogate pairs split between chunks) into outputs
 *     of every size from 4 bytes; a lone surrogate and a cut-off code
 *     unit reported at their offsets, never replaced;
 *   - the parser with SGF_OPT_UTF16: UTF-16LE and BE with a mark, fed
 *     whole, split at every byte and in chunks of every size, give the
 *     events of the UTF-8 text at the same (UTF-8) positions after the
 *     warning utf16-input; also paused at every event; a lone surrogate
 *     is the fatal utf16-invalid where its character would be, after the
 *     events before it, at every split; without the option UTF-16 is the
 *     fatal utf16;
 *   - a leading NUL byte then ASCII SGF is one game with a warning, with
 *     the option or without, at every split. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <sgfstream.h>

#include "bytebuf.h"
#include "eventlog.h"

/* "(;C[h\u00e9 \u8a9e \U0001F600])" */
static const char utf8[] = "(;C[h\xc3\xa9 \xe8\xaa\x9e \xf0\x9f\x98\x80])";
static const unsigned short units[] = {
    '(', ';', 'C', '[', 'h', 0xe9, ' ', 0x8a9e, ' ', 0xd83d, 0xde00, ']', ')'};
#define NUNITS (sizeof units / sizeof units[0])

/* n units as bytes in the order, with a mark if bom. */
static size_t encode(int order, int bom, const unsigned short *u, size_t n,
                     char *out) {
  size_t i, k = 0;
  if (bom) {
    out[k++] = (char)(order == SGF_UTF16_LE ? 0xFF : 0xFE);
    out[k++] = (char)(order == SGF_UTF16_LE ? 0xFE : 0xFF);
  }
  for (i = 0; i < n; i++) {
    unsigned char lo = u[i] & 0xFF, hi = u[i] >> 8;
    out[k++] = (char)(order == SGF_UTF16_LE ? lo : hi);
    out[k++] = (char)(order == SGF_UTF16_LE ? hi : lo);
  }
  return k;
}

/* UTF-8 text (BMP and pairs) as UTF-16 units; their count. */
static size_t to_units(const char *s, size_t len, unsigned short *u) {
  const unsigned char *p = (const unsigned char *)s, *end = p + len;
  size_t n = 0;
  while (p < end) {
    unsigned long c;
    if (*p < 0x80) {
      c = *p++;
    } else if (*p < 0xE0) {
      c = (unsigned long)(p[0] & 0x1F) << 6 | (p[1] & 0x3F);
      p += 2;
    } else if (*p < 0xF0) {
      c = (unsigned long)(p[0] & 0x0F) << 12 |
          (unsigned long)(p[1] & 0x3F) << 6 | (p[2] & 0x3F);
      p += 3;
    } else {
      c = (unsigned long)(p[0] & 0x07) << 18 |
          (unsigned long)(p[1] & 0x3F) << 12 |
          (unsigned long)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
      p += 4;
    }
    if (c >= 0x10000) {
      c -= 0x10000;
      u[n++] = (unsigned short)(0xD800 + (c >> 10));
      u[n++] = (unsigned short)(0xDC00 + (c & 0x3FF));
    } else {
      u[n++] = (unsigned short)c;
    }
  }
  return n;
}

static void test_detect(void **st) {
  size_t mark = 9;
  (void)st;
  assert_int_equal(sgf_utf16_detect("\xff\xfe(\0", 4, 0, &mark), SGF_UTF16_LE);
  assert_int_equal(mark, 2);
  assert_int_equal(sgf_utf16_detect("\xfe\xff\0(", 4, 0, &mark), SGF_UTF16_BE);
  assert_int_equal(mark, 2);
  assert_int_equal(sgf_utf16_detect("\xfe\xff", 2, 0, &mark), SGF_UTF16_BE);
  assert_int_equal(sgf_utf16_detect("(\0;\0", 4, 0, &mark), SGF_UTF16_LE);
  assert_int_equal(mark, 0);
  assert_int_equal(sgf_utf16_detect("\0(\0;", 4, 0, &mark), SGF_UTF16_BE);
  assert_int_equal(mark, 0);
  assert_int_equal(sgf_utf16_detect("\xff\xfe\0\0", 4, 0, &mark),
                   SGF_UTF16_NONE); /* UTF-32LE */
  assert_int_equal(mark, 0);
  /* a single NUL byte is never UTF-16 */
  assert_int_equal(sgf_utf16_detect("\0(;G", 4, 0, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("\0(;", 3, 0, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("(\0;G", 4, 0, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("\0(\0\0", 4, 0, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("\0(", 2, 1, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("(\0", 2, 1, NULL), SGF_UTF16_NONE);
  /* undecided until enough bytes are there, or the end */
  assert_int_equal(sgf_utf16_detect("", 0, 0, NULL), SGF_UTF16_UNDECIDED);
  assert_int_equal(sgf_utf16_detect("", 0, 1, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("\0(\0", 3, 0, NULL), SGF_UTF16_UNDECIDED);
  assert_int_equal(sgf_utf16_detect("(", 1, 0, NULL), SGF_UTF16_UNDECIDED);
  assert_int_equal(sgf_utf16_detect("(", 1, 1, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("\xff\xfe", 2, 0, NULL),
                   SGF_UTF16_UNDECIDED);
  assert_int_equal(sgf_utf16_detect("\xff\xfe", 2, 1, &mark), SGF_UTF16_LE);
  assert_int_equal(mark, 2);
  /* the first byte tells for most inputs */
  assert_int_equal(sgf_utf16_detect(";", 1, 0, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("(;", 2, 0, NULL), SGF_UTF16_NONE);
  assert_int_equal(sgf_utf16_detect("\xef\xbb\xbf(", 4, 0, NULL),
                   SGF_UTF16_NONE);
}

/* Decode in chunks of chunk bytes into an output of cap bytes. */
static int decode(int order, const char *in, size_t n, size_t chunk, size_t cap,
                  bytebuf *out, uint64_t *err) {
  sgf_utf16_decoder d;
  size_t at = 0;
  char o[64];
  int rc = SGF_OK;
  sgf_utf16_decoder_init(&d, order);
  bytebuf_clear(out);
  while (rc == SGF_OK && at < n) {
    size_t len = n - at < chunk ? n - at : chunk;
    while (rc == SGF_OK && len > 0) {
      size_t used, w;
      rc = sgf_utf16_decode(&d, in + at, len, &used, o, cap, &w);
      bytebuf_add(out, o, w);
      assert_true(rc != SGF_OK || used > 0 || w > 0);
      at += used;
      len -= used;
    }
  }
  if (rc == SGF_OK) rc = sgf_utf16_decode_end(&d);
  if (rc != SGF_OK) *err = d.error_offset;
  return rc;
}

static void test_decoder_chunks(void **st) {
  int order;
  bytebuf out;
  (void)st;
  bytebuf_init(&out);
  for (order = SGF_UTF16_LE; order <= SGF_UTF16_BE; order++) {
    char in[64];
    size_t n = encode(order, 1, units, NUNITS, in), chunk, cap, mark;
    assert_int_equal(sgf_utf16_detect(in, n, 0, &mark), order);
    for (chunk = 1; chunk <= n; chunk++) {
      for (cap = 4; cap <= 9; cap++) {
        uint64_t err = 0;
        assert_int_equal(
            decode(order, in + mark, n - mark, chunk, cap, &out, &err), SGF_OK);
        assert_int_equal(out.len, sizeof utf8 - 1);
        assert_memory_equal(out.p, utf8, out.len);
      }
    }
  }
  bytebuf_free(&out);
}

static void test_decoder_invalid(void **st) {
  char in[64];
  size_t n, chunk;
  bytebuf out;
  uint64_t err;
  (void)st;
  bytebuf_init(&out);
  n = encode(SGF_UTF16_LE, 0, units, NUNITS, in);
  /* the pair's high half (unit 9) removed: its low half, now at byte
   * 18, stands alone */
  memmove(in + 18, in + 20, n - 20);
  n -= 2;
  for (chunk = 1; chunk <= n; chunk++) {
    err = 999;
    assert_int_equal(decode(SGF_UTF16_LE, in, n, chunk, 4, &out, &err),
                     SGF_ESYNTAX);
    assert_int_equal(err, 18);
    assert_int_equal(out.len, 12); /* "(;C[h\u00e9 \u8a9e " */
  }
  /* the high half alone (the low one replaced by ']') */
  n = encode(SGF_UTF16_BE, 0, units, NUNITS, in);
  in[20] = 0;
  in[21] = ']';
  for (chunk = 1; chunk <= n; chunk++) {
    err = 999;
    assert_int_equal(decode(SGF_UTF16_BE, in, n, chunk, 4, &out, &err),
                     SGF_ESYNTAX);
    assert_int_equal(err, 18);
    assert_int_equal(out.len, 12);
  }
  /* cut off at the end: a code unit, a pair */
  err = 999;
  assert_int_equal(decode(SGF_UTF16_BE, "\0(\0", 3, 1, 4, &out, &err),
                   SGF_ESYNTAX);
  assert_int_equal(err, 2);
  assert_int_equal(out.len, 1);
  err = 999;
  assert_int_equal(decode(SGF_UTF16_LE, "(\0=\xd8", 4, 3, 4, &out, &err),
                   SGF_ESYNTAX);
  assert_int_equal(err, 2);
  /* refused once failed */
  {
    sgf_utf16_decoder d;
    size_t used = 9, w = 9;
    char o[8];
    sgf_utf16_decoder_init(&d, SGF_UTF16_LE);
    assert_int_equal(sgf_utf16_decode(&d, "\0\xdc", 2, &used, o, 8, &w),
                     SGF_ESYNTAX);
    assert_int_equal(d.error_offset, 0);
    assert_int_equal(sgf_utf16_decode(&d, "a\0", 2, &used, o, 8, &w),
                     SGF_ESYNTAX);
    assert_int_equal(used, 0);
    assert_int_equal(w, 0);
    assert_int_equal(sgf_utf16_decode_end(&d), SGF_ESYNTAX);
  }
  bytebuf_free(&out);
}

/* ------------------------------------------------------------------ */
/* The parser                                                          */

/* Parse in with flags: the first feed `first` bytes, then chunks of
 * `chunk` bytes; a pause at the callback pause_at (-1: none) is resumed
 * and the rest fed from buf + consumed (in finish too). out: the event
 * log, then "status NAME". */
static void parse(const char *in, size_t len, unsigned flags, size_t first,
                  size_t chunk, long pause_at, bytebuf *out) {
  evlog l;
  sgf_callbacks cb;
  sgf_options o;
  sgf_parser *p;
  size_t at = 0;
  int st = SGF_OK;
  bytebuf_clear(out);
  evlog_init(&l, bytebuf_sink, out);
  l.action_at = pause_at;
  l.action = SGF_PAUSE;
  evlog_callbacks(&cb);
  sgf_options_init(&o);
  o.flags = flags;
  p = sgf_parser_create(&cb, &l, &o);
  assert_non_null(p);
  if (first > len) first = len;
  while (st == SGF_OK && at < len) {
    size_t end = at < first ? first : at + chunk;
    if (end > len) end = len;
    while (at < end) {
      size_t used = 0;
      st = sgf_parser_feed(p, in + at, end - at, &used);
      assert_true(used <= end - at);
      at += used;
      if (st != SGF_PAUSED) break;
      sgf_parser_resume(p);
      st = SGF_OK;
    }
    if (st == SGF_OK) assert_int_equal(at, end);
  }
  while (st == SGF_OK && (st = sgf_parser_finish(p)) == SGF_PAUSED) {
    sgf_parser_resume(p);
    st = SGF_OK;
  }
  evlog_flush(&l);
  evlog_free(&l);
  bytebuf_addf(out, "status %s\n", sgf_err_name(st));
  sgf_parser_destroy(p);
}

/* Every way of feeding in gives want. */
static void every_split(const char *in, size_t len, unsigned flags,
                        const bytebuf *want) {
  bytebuf got;
  size_t k;
  long n, i;
  bytebuf_init(&got);
  for (k = 0; k <= len; k++) { /* one split at k, then all the rest */
    parse(in, len, flags, k, len, -1, &got);
    if (!bytebuf_eq(&got, want)) {
      fprintf(stderr, "split at %zu:\n%.*s--- want:\n%.*s", k, (int)got.len,
              got.p, (int)want->len, want->p);
      fail();
    }
  }
  for (k = 1; k <= len; k++) { /* chunks of k bytes */
    parse(in, len, flags, k, k, -1, &got);
    if (!bytebuf_eq(&got, want)) {
      fprintf(stderr, "chunks of %zu:\n%.*s", k, (int)got.len, got.p);
      fail();
    }
  }
  /* a pause at every callback, whole and byte by byte */
  for (n = 0, i = 0; i < (long)want->len; i++) n += want->p[i] == '\n';
  for (i = 0; i < n; i++) {
    parse(in, len, flags, len, len, i, &got);
    assert_true(bytebuf_eq(&got, want));
    parse(in, len, flags, 1, 1, i, &got);
    if (!bytebuf_eq(&got, want)) {
      fprintf(stderr, "pause at %ld, byte by byte:\n%.*s", i, (int)got.len,
              got.p);
      fail();
    }
  }
  bytebuf_free(&got);
}

static const char warn41[] =
    "0 1:1 warning utf16-input (41): input is UTF-16, read converted to "
    "UTF-8 (columns and offsets count in the converted text)\n";

/* A record with text beyond ASCII before a lowercase identifier (a
 * warning positioned after it), over two lines. */
static const char record[] =
    "(;GM[1]C[h\xc3\xa9 \xf0\x9f\x98\x80 \xe8\xaa\x9e]b[aa]\r\n"
    ";W[\xe2\x82\xac\\]x](;B[dd])(;B[pp]))";

static void test_parser_utf16(void **st) {
  bytebuf want, plain;
  unsigned short u[128];
  char in[300];
  size_t nu = to_units(record, sizeof record - 1, u);
  int order;
  (void)st;
  bytebuf_init(&want);
  bytebuf_init(&plain);
  /* the UTF-8 record's log, the same with the option */
  parse(record, sizeof record - 1, 0, 0, sizeof record, -1, &plain);
  parse(record, sizeof record - 1, SGF_OPT_UTF16, 0, sizeof record, -1, &want);
  assert_true(bytebuf_eq(&plain, &want));
  assert_non_null(strstr(plain.p, "22 1:23 warning lowercase-ident"));
  bytebuf_clear(&want);
  bytebuf_adds(&want, warn41);
  bytebuf_add(&want, plain.p, plain.len);
  for (order = SGF_UTF16_LE; order <= SGF_UTF16_BE; order++) {
    size_t n = encode(order, 1, u, nu, in);
    bytebuf got;
    every_split(in, n, SGF_OPT_UTF16, &want);
    /* without the option: refused */
    bytebuf_init(&got);
    parse(in, n, 0, 1, 1, -1, &got);
    assert_string_equal(got.p,
                        "0 1:1 fatal utf16 (22): input is UTF-16 encoded; "
                        "convert it to UTF-8 first\nstatus EPARSE\n");
    bytebuf_free(&got);
  }
  /* without a mark: '(' as UTF-16 */
  {
    size_t n = encode(SGF_UTF16_BE, 0, u, nu, in);
    every_split(in, n, SGF_OPT_UTF16, &want);
  }
  bytebuf_free(&want);
  bytebuf_free(&plain);
}

static void test_parser_invalid(void **st) {
  bytebuf want;
  unsigned short u[64];
  char in[200];
  /* a lone high surrogate where the X is (line 2, column 5) */
  static const char text[] = "(;C[a]\n;C[bcX])";
  size_t nu = to_units(text, sizeof text - 1, u), n;
  (void)st;
  u[12] = 0xD83D;
  n = encode(SGF_UTF16_LE, 1, u, nu, in);
  bytebuf_init(&want);
  bytebuf_adds(&want, warn41);
  bytebuf_adds(&want,
               "0 1:1 tree-begin\n1 1:2 node\n2 1:3 property C\n"
               "3 1:4 value-begin\n4 1:5 value-data \"a\"\n5 1:6 value-end\n"
               "7 2:1 property-end\n7 2:1 node\n8 2:2 property C\n"
               "9 2:3 value-begin\n10 2:4 value-data \"bc\"\n"
               "12 2:6 fatal utf16-invalid (42): UTF-16 input with a lone "
               "surrogate or a character cut off here; the rest of the "
               "input is not read\nstatus EPARSE\n");
  every_split(in, n, SGF_OPT_UTF16, &want);
  /* cut off at the end: after the text, at its end */
  n = encode(SGF_UTF16_BE, 1, u, 12, in);
  bytebuf_clear(&want);
  bytebuf_adds(&want, warn41);
  bytebuf_adds(&want,
               "0 1:1 tree-begin\n1 1:2 node\n2 1:3 property C\n"
               "3 1:4 value-begin\n4 1:5 value-data \"a\"\n5 1:6 value-end\n"
               "7 2:1 property-end\n7 2:1 node\n8 2:2 property C\n"
               "9 2:3 value-begin\n10 2:4 value-data \"b\"\n"
               "11 2:5 fatal utf16-invalid (42): UTF-16 input with a lone "
               "surrogate or a character cut off here; the rest of the "
               "input is not read\nstatus EPARSE\n");
  every_split(in, n - 1, SGF_OPT_UTF16, &want);
  bytebuf_free(&want);
}

/* A NUL byte before ASCII SGF: one game and a warning, never UTF-16. */
static void test_leading_nul(void **st) {
  static const char in[] = "\0(;GM[1]SZ[19];B[pd])";
  static const char in2[] = "(\0;GM[1]SZ[19];B[pd])";
  bytebuf want, got;
  unsigned flags;
  (void)st;
  bytebuf_init(&want);
  bytebuf_init(&got);
  for (flags = 0; flags <= SGF_OPT_UTF16; flags += SGF_OPT_UTF16) {
    parse(in, sizeof in - 1, flags, sizeof in, sizeof in, -1, &want);
    assert_non_null(strstr(want.p, "0 1:1 warning junk-before (6)"));
    assert_non_null(strstr(want.p, "1 1:2 tree-begin\n"));
    assert_non_null(strstr(want.p, "17 1:18 value-data \"pd\"\n"));
    assert_null(strstr(want.p, "utf16"));
    assert_null(strstr(want.p, "fatal"));
    assert_non_null(strstr(want.p, "status OK\n"));
    every_split(in, sizeof in - 1, flags, &want);
    parse(in2, sizeof in2 - 1, flags, sizeof in2, sizeof in2, -1, &want);
    assert_non_null(strstr(want.p, "1 1:2 warning nul-byte (19)"));
    assert_non_null(strstr(want.p, "0 1:1 tree-begin\n"));
    assert_null(strstr(want.p, "utf16"));
    assert_non_null(strstr(want.p, "status OK\n"));
    every_split(in2, sizeof in2 - 1, flags, &want);
  }
  bytebuf_free(&want);
  bytebuf_free(&got);
}

/* Positions outside callbacks count the bytes taken, and reset starts
 * the sniffing again. */
static void test_parser_misc(void **st) {
  sgf_parser *p;
  sgf_options o;
  size_t used;
  (void)st;
  sgf_options_init(&o);
  o.flags = SGF_OPT_UTF16;
  p = sgf_parser_create(NULL, NULL, &o);
  assert_non_null(p);
  assert_int_equal(sgf_parser_feed(p, "(", 1, &used), SGF_OK);
  assert_int_equal(used, 1);
  assert_int_equal(sgf_parser_position(p).offset, 1);
  assert_int_equal(sgf_parser_feed(p, ";B[aa]\n", 7, &used), SGF_OK);
  assert_int_equal(sgf_parser_position(p).line, 2);
  assert_int_equal(sgf_parser_position(p).offset, 8);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_WARNING), 1); /* ')' */
  assert_int_equal(sgf_parser_reset(p), SGF_OK);
  assert_int_equal(sgf_parser_feed(p, "\xfe\xff\0(\0;\0", 7, &used), SGF_OK);
  assert_int_equal(used, 7);
  assert_int_equal(sgf_parser_position(p).offset, 2);
  assert_int_equal(sgf_parser_feed(p, ")", 1, &used), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_WARNING), 1);
  assert_int_equal(sgf_parser_reset(p), SGF_OK);
  assert_int_equal(sgf_parser_feed(p, "\xfe\xff\0", 3, &used), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_EPARSE);
  assert_int_equal(sgf_parser_error(p)->code, SGF_DIAG_UTF16_INVALID);
  sgf_parser_destroy(p);
}

/* Pseudo-random records (a fixed seed): UTF-16LE or BE, with a mark or
 * '(' as UTF-16, sometimes with a lone surrogate or a byte cut off. Each
 * gives the same log at every split, chunk size and pause; one that
 * decodes gives the log of its UTF-8 text after the warning. */
static unsigned long rnd_state = 26;
static unsigned rnd(unsigned n) {
  rnd_state = rnd_state * 1103515245ul + 12345ul;
  return (unsigned)((rnd_state >> 16) % n);
}

static void test_parser_random(void **st) {
  static const char *const frags[] = {
      "(",  ")",     ";",  "B[aa]",           "W[bb]", "C[h\xc3\xa9\\]x]",
      "\n", "\r\n",  " ",  "GM[1]",           "[x]",   "C[\xf0\x9f\x98\x80]",
      "\\", "b[cc]", "()", "PB[\xe8\xaa\x9e]"};
  bytebuf text, want, plain;
  int i;
  (void)st;
  bytebuf_init(&text);
  bytebuf_init(&want);
  bytebuf_init(&plain);
  for (i = 0; i < 60; i++) {
    unsigned short u[400];
    char in[900];
    size_t nu, n, k, nf = 1 + rnd(25);
    int order = rnd(2) ? SGF_UTF16_BE : SGF_UTF16_LE, bom = rnd(4) != 0;
    int broken = 0;
    bytebuf_clear(&text);
    if (!bom) bytebuf_adds(&text, "(;");
    for (k = 0; k < nf; k++)
      bytebuf_adds(&text, frags[rnd(sizeof frags / sizeof frags[0])]);
    nu = to_units(text.p, text.len, u);
    if (rnd(5) == 0) { /* a lone surrogate somewhere after the '(' */
      size_t at = bom ? rnd((unsigned)nu + 1) : 2 + rnd((unsigned)nu - 1);
      memmove(u + at + 1, u + at, (nu - at) * sizeof u[0]);
      u[at] = rnd(2) ? 0xD83D : 0xDE00;
      nu++;
      broken = 1;
    }
    n = encode(order, bom, u, nu, in);
    if (rnd(8) == 0) { /* a byte cut off */
      n--;
      broken = 1;
    }
    parse(in, n, SGF_OPT_UTF16, n, n, -1, &want);
    if (!broken) {
      parse(text.p, text.len, 0, text.len, text.len, -1, &plain);
      assert_int_equal(want.len, plain.len + sizeof warn41 - 1);
      assert_memory_equal(want.p, warn41, sizeof warn41 - 1);
      assert_memory_equal(want.p + sizeof warn41 - 1, plain.p, plain.len);
    } else {
      assert_non_null(strstr(want.p, "fatal utf16-invalid (42)"));
    }
    every_split(in, n, SGF_OPT_UTF16, &want);
  }
  bytebuf_free(&text);
  bytebuf_free(&want);
  bytebuf_free(&plain);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_detect),
      cmocka_unit_test(test_decoder_chunks),
      cmocka_unit_test(test_decoder_invalid),
      cmocka_unit_test(test_parser_utf16),
      cmocka_unit_test(test_parser_invalid),
      cmocka_unit_test(test_leading_nul),
      cmocka_unit_test(test_parser_misc),
      cmocka_unit_test(test_parser_random),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
