/* error.c - the result codes of sgfstream/error.h: every code of
 * SGF_ERROR_MAP has a distinct name and message, failures are negative,
 * and a number that is no code gets the defined "unknown" strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sgfstream.h"

static const int codes[] = {
#define XX(NAME, num, msg) SGF_##NAME,
    SGF_ERROR_MAP(XX)
#undef XX
};
static const char *const names[] = {
#define XX(NAME, num, msg) #NAME,
    SGF_ERROR_MAP(XX)
#undef XX
};
#define NCODES (sizeof codes / sizeof codes[0])

static void test_every_code(void **state) {
  size_t i, j;
  (void)state;
  for (i = 0; i < NCODES; i++) {
    const char *msg = sgf_strerror(codes[i]);
    const char *name = sgf_err_name(codes[i]);
    assert_non_null(msg);
    assert_non_null(name);
    assert_string_equal(name, names[i]);
    assert_string_not_equal(msg, "unknown error");
    /* failures, and only failures, are named E... and negative */
    assert_int_equal(codes[i] < 0, name[0] == 'E');
    assert_true(codes[i] > SGF_ERROR_LAST_);
    for (j = 0; j < i; j++) {
      assert_int_not_equal(codes[i], codes[j]);
      assert_string_not_equal(msg, sgf_strerror(codes[j]));
      assert_string_not_equal(name, sgf_err_name(codes[j]));
    }
  }
  assert_int_equal(SGF_OK, 0);
  assert_true(SGF_PAUSED > 0);
}

static void test_unknown_code(void **state) {
  static const int unknown[] = {SGF_ERROR_LAST_, -1000, 2, 99, -2147483647};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
    assert_string_equal(sgf_strerror(unknown[i]), "unknown error");
    assert_string_equal(sgf_err_name(unknown[i]), "UNKNOWN");
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_code),
      cmocka_unit_test(test_unknown_code),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
