/* test_utf16.c - tools/io/utf16.c: the byte-order mark and its
 * absence, UTF-16LE and BE to UTF-8 in chunks of every size from 1 byte
 * (code units and surrogate pairs split between chunks), a lone
 * surrogate and a cut-off code unit reported at their offsets, and a
 * stop asked by the output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include "utf16.h"

/* "(;C[h\u00e9 \u8a9e \U0001F600])" */
static const char utf8[] = "(;C[h\xc3\xa9 \xe8\xaa\x9e \xf0\x9f\x98\x80])";
static const unsigned short units[] = {
    '(', ';', 'C', '[', 'h', 0xe9, ' ', 0x8a9e, ' ', 0xd83d, 0xde00, ']', ')'};
#define NUNITS (sizeof units / sizeof units[0])

typedef struct sink {
  char buf[256];
  size_t len;
  size_t stop_after; /* 0: never */
} sink;

static int collect(void *ctx, const char *s, size_t len) {
  sink *k = ctx;
  assert_true(k->len + len <= sizeof k->buf);
  memcpy(k->buf + k->len, s, len);
  k->len += len;
  return k->stop_after && k->len >= k->stop_after;
}

/* The units as bytes in the order, with a mark if bom. */
static size_t encode(int order, int bom, char *out) {
  size_t i, n = 0;
  if (bom) {
    out[n++] = (char)(order == UTF16_LE ? 0xFF : 0xFE);
    out[n++] = (char)(order == UTF16_LE ? 0xFE : 0xFF);
  }
  for (i = 0; i < NUNITS; i++) {
    unsigned char lo = units[i] & 0xFF, hi = units[i] >> 8;
    out[n++] = (char)(order == UTF16_LE ? lo : hi);
    out[n++] = (char)(order == UTF16_LE ? hi : lo);
  }
  return n;
}

static void test_detect(void **st) {
  size_t skip = 9;
  (void)st;
  assert_int_equal(utf16_detect("\xff\xfe(\0", 4, &skip), UTF16_LE);
  assert_int_equal(skip, 2);
  assert_int_equal(utf16_detect("\xfe\xff\0(", 4, &skip), UTF16_BE);
  assert_int_equal(skip, 2);
  assert_int_equal(utf16_detect("(\0;\0", 4, &skip), UTF16_LE);
  assert_int_equal(skip, 0);
  assert_int_equal(utf16_detect("\0(\0;", 4, &skip), UTF16_BE);
  assert_int_equal(utf16_detect("\xff\xfe\0\0", 4, &skip), UTF16_NONE);
  assert_int_equal(utf16_detect("(;", 2, &skip), UTF16_NONE);
  assert_int_equal(utf16_detect("\xef\xbb\xbf(", 4, &skip), UTF16_NONE);
  assert_int_equal(utf16_detect("(", 1, &skip), UTF16_NONE);
}

static void test_chunks(void **st) {
  int order;
  (void)st;
  for (order = UTF16_LE; order <= UTF16_BE; order++) {
    char in[64];
    size_t n = encode(order, 1, in), chunk, skip;
    assert_int_equal(utf16_detect(in, n, &skip), order);
    for (chunk = 1; chunk <= n; chunk++) {
      utf16_conv *c = utf16_create(order);
      sink k;
      size_t at;
      memset(&k, 0, sizeof k);
      assert_non_null(c);
      for (at = skip; at < n; at += chunk) {
        size_t len = n - at < chunk ? n - at : chunk;
        assert_int_equal(utf16_feed(c, in + at, len, collect, &k, NULL), 0);
      }
      assert_int_equal(utf16_finish(c, NULL), 0);
      assert_int_equal(k.len, sizeof utf8 - 1);
      assert_memory_equal(k.buf, utf8, k.len);
      utf16_destroy(c);
    }
  }
}

static void test_invalid(void **st) {
  char in[64];
  size_t n, chunk;
  (void)st;
  n = encode(UTF16_LE, 0, in);
  /* the pair's high half (unit 9) removed: its low half, now at byte
   * 18, stands alone */
  memmove(in + 18, in + 20, n - 20);
  n -= 2;
  for (chunk = 1; chunk <= n; chunk++) {
    utf16_conv *c = utf16_create(UTF16_LE);
    sink k;
    uint64_t off = 999;
    size_t at;
    int rc = 0;
    memset(&k, 0, sizeof k);
    for (at = 0; at < n && rc == 0; at += chunk) {
      size_t len = n - at < chunk ? n - at : chunk;
      rc = utf16_feed(c, in + at, len, collect, &k, &off);
    }
    assert_int_equal(rc, UTF16_INVALID);
    assert_int_equal(off, 18);
    assert_int_equal(utf16_feed(c, "a\0", 2, collect, &k, &off),
                     UTF16_INVALID); /* refused from then on */
    utf16_destroy(c);
  }
  /* a code unit cut off at the end of input */
  {
    utf16_conv *c = utf16_create(UTF16_BE);
    sink k;
    uint64_t off = 999;
    memset(&k, 0, sizeof k);
    assert_int_equal(utf16_feed(c, "\0(\0", 3, collect, &k, &off), 0);
    assert_int_equal(utf16_finish(c, &off), UTF16_INVALID);
    assert_int_equal(off, 2);
    assert_int_equal(k.len, 1);
    utf16_destroy(c);
  }
  assert_null(utf16_create(UTF16_NONE));
}

static void test_stop(void **st) {
  char in[64];
  size_t n = encode(UTF16_LE, 0, in);
  utf16_conv *c = utf16_create(UTF16_LE);
  sink k;
  (void)st;
  memset(&k, 0, sizeof k);
  k.stop_after = 1;
  assert_int_equal(utf16_feed(c, in, n, collect, &k, NULL), UTF16_STOPPED);
  utf16_destroy(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_detect),
      cmocka_unit_test(test_chunks),
      cmocka_unit_test(test_invalid),
      cmocka_unit_test(test_stop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
