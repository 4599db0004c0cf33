/* charset.c - unit tests of the charset converter
 * (sgfstream/charset.h): UTF-8 or ISO-8859-1 with no CA, CA through
 * iconv (double-byte and stateful charsets), bytes that do not decode
 * reported at their offset with the text kept as ISO-8859-1, a CA per
 * game, the override, the guess and when it counts as overruling CA. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

#include <sgfstream.h>
#include <sgfstream/charset.h>

#define S(lit) lit, sizeof(lit) - 1

typedef struct conv {
  sgf_charset *c;
  char *out;
  size_t cap;
  sgf_charset_info info;
  size_t err_off;
} conv;

static sgf_charset *make(unsigned flags, const char *override) {
  sgf_charset_options o;
  sgf_charset_options_init(&o);
  o.flags = flags;
  o.override = override;
  return sgf_charset_create(&o);
}

/* Convert and check the result code and the UTF-8 produced. */
static void expect(conv *v, const char *in, size_t len, int code,
                   const char *utf8) {
  int n;
  v->err_off = 999;
  n = sgf_charset_convert(v->c, in, len, &v->out, &v->cap, &v->info,
                          &v->err_off);
  if (code == 0) {
    assert_int_equal(n, (int)strlen(utf8));
  } else {
    assert_int_equal(n, code);
  }
  assert_int_equal(v->info.len, strlen(utf8));
  assert_memory_equal(v->out, utf8, strlen(utf8));
  assert_int_equal(sgf_utf8_valid(v->out, v->info.len), v->info.len);
}

static void done(conv *v) {
  sgf_charset_free(v->c, v->out, v->cap);
  sgf_charset_destroy(v->c);
}

static void test_no_ca(void **st) {
  conv v = {0};
  (void)st;
  v.c = make(0, NULL);
  assert_non_null(v.c);
  expect(&v, S("plain"), 0, "plain");
  expect(&v, S("caf\xc3\xa9"), 0, "caf\xc3\xa9"); /* UTF-8 stays */
  assert_string_equal(v.info.charset, "UTF-8");
  expect(&v, S("caf\xe9"), 0, "caf\xc3\xa9"); /* else ISO-8859-1 */
  assert_string_equal(v.info.charset, "ISO-8859-1");
  /* GB18030 without CA and without guess: ISO-8859-1, as FF[4] says */
  expect(&v, S("\xd6\xd0"), 0, "\xc3\x96\xc3\x90");
  done(&v);
}

static void test_ca(void **st) {
  conv v = {0};
  (void)st;
  v.c = make(0, NULL);
  assert_int_equal(sgf_charset_set_ca(v.c, S(" Shift_JIS ")), 0);
  expect(&v, S("Go \x88\xcd\x8c\xe9"), 0, "Go \xe5\x9b\xb2\xe7\xa2\x81");
  assert_int_equal(sgf_charset_set_ca(v.c, S("gb2312")), 0); /* GB18030 */
  expect(&v, S("\xd6\xd0\xb9\xfa"), 0, "\xe4\xb8\xad\xe5\x9b\xbd");
  assert_int_equal(sgf_charset_set_ca(v.c, S("ISO-2022-JP")), 0);
  expect(&v, S("\x1b$B0O8k\x1b(B!"), 0, "\xe5\x9b\xb2\xe7\xa2\x81!");
  expect(&v, S("\x1b$B0O"), 0, "\xe5\x9b\xb2"); /* no shift back: flushed */
  expect(&v, S("ok"), 0, "ok"); /* and the next value starts afresh */
  assert_int_equal(sgf_charset_set_ca(v.c, S("UTF-16LE")), 0);
  expect(&v, S("h\0i\0"), 0, "hi");
  /* unknown: refused, and the default applies */
  assert_int_equal(sgf_charset_set_ca(v.c, S("no-such-charset")), SGF_EINVAL);
  expect(&v, S("caf\xe9"), 0, "caf\xc3\xa9");
  assert_int_equal(sgf_charset_set_ca(v.c, S("")), SGF_EINVAL);
  done(&v);
}

static void test_errors(void **st) {
  conv v = {0};
  (void)st;
  v.c = make(0, NULL);
  assert_int_equal(sgf_charset_set_ca(v.c, S("UTF-8")), 0);
  /* the offset of the first byte that does not decode; the text kept
   * whole as ISO-8859-1 */
  expect(&v,
         S("ab\xff"
           "cd"),
         SGF_ESYNTAX,
         "ab\xc3\xbf"
         "cd");
  assert_int_equal(v.err_off, 2);
  expect(&v, S("\xe4\xbd\xa0\xe5\x9b"), SGF_ESYNTAX,
         "\xc3\xa4\xc2\xbd\xc2\xa0\xc3\xa5\xc2\x9b");
  assert_int_equal(v.err_off, 3); /* a sequence cut short */
  assert_int_equal(sgf_charset_set_ca(v.c, S("Shift_JIS")), 0);
  expect(&v,
         S("\x88\xcd"
           "ab\x88"),
         SGF_ESYNTAX,
         "\xc2\x88\xc3\x8d"
         "ab\xc2\x88");
  assert_int_equal(v.err_off, 4); /* a lead byte at the end */
  assert_int_equal(sgf_charset_set_ca(v.c, S("GB18030")), 0);
  expect(&v, S("x\x81 "), SGF_ESYNTAX, "x\xc2\x81 ");
  assert_int_equal(v.err_off, 1);
  done(&v);
}

static void test_per_game(void **st) {
  conv v = {0};
  (void)st;
  v.c = make(0, NULL);
  assert_int_equal(sgf_charset_set_ca(v.c, S("Shift_JIS")), 0);
  expect(&v, S("\x8c\xe9"), 0, "\xe7\xa2\x81");
  sgf_charset_reset(v.c); /* the next game has no CA */
  expect(&v, S("\x8c\xe9"), 0, "\xc2\x8c\xc3\xa9");
  assert_int_equal(sgf_charset_set_ca(v.c, S("ISO-8859-15")), 0);
  expect(&v, S("\xa4"), 0, "\xe2\x82\xac");
  done(&v);
}

static void test_override(void **st) {
  conv v = {0};
  (void)st;
  assert_null(make(0, "no-such-charset"));
  v.c = make(0, "ISO-8859-15");
  assert_int_equal(sgf_charset_set_ca(v.c, S("UTF-8")), 0);
  expect(&v, S("\xa4"), 0, "\xe2\x82\xac"); /* the override wins */
  assert_string_equal(v.info.charset, "ISO-8859-15");
  sgf_charset_reset(v.c);
  expect(&v, S("\xa4"), 0, "\xe2\x82\xac");
  done(&v);
}

static void test_guess(void **st) {
  conv v = {0};
  (void)st;
  v.c = make(SGF_CS_GUESS, NULL);
  /* no CA: a guess, not overruling anything */
  expect(&v, S("\xd6\xd0\xb9\xfa"), 0, "\xe4\xb8\xad\xe5\x9b\xbd");
  assert_string_equal(v.info.charset, "GB18030");
  assert_int_equal(v.info.guessed, 0);
  expect(&v, S("\x88\xcd\x8c\xe9"), 0, "\xe5\x9b\xb2\xe7\xa2\x81");
  assert_string_equal(v.info.charset, "SHIFT_JIS");
  expect(&v, S("\xb9\xd9\xb5\xcf"), 0, "\xeb\xb0\x94\xeb\x91\x91");
  assert_string_equal(v.info.charset, "EUC-KR");
  /* a CA the text does not decode in: overruled, and said so */
  assert_int_equal(sgf_charset_set_ca(v.c, S("UTF-8")), 0);
  expect(&v, S("\xd6\xd0\xb9\xfa"), 0, "\xe4\xb8\xad\xe5\x9b\xbd");
  assert_int_equal(v.info.guessed, 1);
  /* text that decodes in its CA is left alone */
  expect(&v, S("\xe4\xb8\xad"), 0, "\xe4\xb8\xad");
  assert_int_equal(v.info.guessed, 0);
  /* ISO-8859-1 declared: UTF-8 and clean double-byte text overrule it,
   * Latin text does not */
  assert_int_equal(sgf_charset_set_ca(v.c, S("ISO-8859-1")), 0);
  expect(&v, S("caf\xc3\xa9"), 0, "caf\xc3\xa9");
  assert_int_equal(v.info.guessed, 1);
  expect(&v, S("\x88\xcd\x8c\xe9"), 0, "\xe5\x9b\xb2\xe7\xa2\x81");
  assert_int_equal(v.info.guessed, 1);
  expect(&v, S("caf\xe9 cr\xe8me"), 0, "caf\xc3\xa9 cr\xc3\xa8me");
  assert_int_equal(v.info.guessed, 0);
  /* nothing decodes: the error stands */
  assert_int_equal(sgf_charset_set_ca(v.c, S("UTF-8")), 0);
  expect(&v, S("a\xff"), SGF_ESYNTAX, "a\xc3\xbf");
  assert_int_equal(v.err_off, 1);
  done(&v);
}

static void test_dbcs_text(void **st) {
  char out[64];
  size_t n;
  conv v = {0};
  (void)st;
  /* Shift_JIS 0x905C (a second byte '\\'), unescaped and escaped */
  n = sgf_text_decode_dbcs(S("\x90\\x\x83\\"), out, 0, "Shift_JIS");
  assert_int_equal(n, 5);
  assert_memory_equal(out, "\x90\\x\x83\\", 5);
  n = sgf_text_decode_dbcs(S("\x90\\\\x"), out, 0, "SJIS");
  assert_int_equal(n, 3);
  assert_memory_equal(out, "\x90\\x", 3);
  /* an escaped second byte ']' (GB18030 0x935D, SGFC writes it so) is
   * the character, not a second byte '\\' and a ']' */
  n = sgf_text_decode_dbcs(S("\xd6\xb8\x93\\]\x99\xe0"), out, 0, "GB18030");
  assert_int_equal(n, 6);
  assert_memory_equal(out, "\xd6\xb8\x93]\x99\xe0", 6);
  /* FF[4] escapes and line breaks around them still apply */
  n = sgf_text_decode_dbcs(S("a\\]\x90\\\tb\\\nc\nd"), out, SGF_TEXT_SIMPLE,
                           "GB18030");
  assert_int_equal(n, 9);
  assert_memory_equal(out, "a]\x90\\ bc d", 9);
  /* an escaped lead byte; half-width katakana are no lead in Shift_JIS */
  n = sgf_text_decode_dbcs(S("\\\x90\\\xb1\\]"), out, 0, "Shift_JIS");
  assert_int_equal(n, 4);
  assert_memory_equal(out, "\x90\\\xb1]", 4);
  /* other charsets: plain FF[4] */
  n = sgf_text_decode_dbcs(S("\x90\\x"), out, 0, "UTF-8");
  assert_int_equal(n, 2);
  n = sgf_text_decode_dbcs(S("\x90\\x"), out, 0, NULL);
  assert_int_equal(n, 2);
  /* what the converter was told */
  v.c = make(0, NULL);
  assert_null(sgf_charset_declared(v.c));
  assert_int_equal(sgf_charset_set_ca(v.c, S(" Shift_JIS")), 0);
  assert_string_equal(sgf_charset_declared(v.c), "Shift_JIS");
  sgf_charset_reset(v.c);
  assert_null(sgf_charset_declared(v.c));
  done(&v);
  v.c = make(0, "Big5");
  assert_string_equal(sgf_charset_declared(v.c), "Big5");
  done(&v);
}

static void test_utf8_valid(void **st) {
  (void)st;
  assert_int_equal(sgf_utf8_valid(S("a\xc3\xa9")), 3);
  assert_int_equal(sgf_utf8_valid(S("a\xc0\x80")), 1);        /* overlong */
  assert_int_equal(sgf_utf8_valid(S("ab\xed\xa0\x80")), 2);   /* surrogate */
  assert_int_equal(sgf_utf8_valid(S("\xf4\x90\x80\x80")), 0); /* > 10FFFF */
  assert_int_equal(sgf_utf8_valid(S("\xf0\x9f\x98\x80")), 4);
  assert_int_equal(sgf_utf8_valid(S("x\xe2\x82")), 1); /* cut short */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_ca),     cmocka_unit_test(test_ca),
      cmocka_unit_test(test_errors),    cmocka_unit_test(test_per_game),
      cmocka_unit_test(test_override),  cmocka_unit_test(test_guess),
      cmocka_unit_test(test_dbcs_text), cmocka_unit_test(test_utf8_valid),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
