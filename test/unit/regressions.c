/* regressions.c - replays every input in test/regressions/ (inputs
 * that once made a fuzz target fail) through the fuzz targets' checks, so
 * 'make check' catches a regression without clang or libFuzzer.
 *
 * Each file goes through all of them, whatever target found it:
 *   fz_check_parse, fz_check_split, fz_check_reader, fz_check_tree,
 *   fz_check_roundtrip, fz_check_writer, fz_check_cursor,
 *   fz_check_unescape, fz_check_charset  the file as that target's input
 *       (header bytes first; see test/support/harness.h)
 *   fz_check_plain  the file as plain SGF in lenient, strict, mainline and
 *       strict+mainline mode: whole versus byte by byte with pauses
 *       versus other chunkings, with the invariants of fuzz_parse.
 * Files named *.md are documentation and skipped. The directory is
 * $top_srcdir/test/regressions, or $SGF_REGRESSIONS.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static char *dir_path(void) {
  const char *env = getenv("SGF_REGRESSIONS");
  const char *top = getenv("top_srcdir");
  char *p;
  size_t n;
  if (env != NULL && *env != '\0') return strdup(env);
  if (top == NULL || *top == '\0') top = getenv("srcdir");
  if (top == NULL || *top == '\0') top = ".";
  n = strlen(top) + sizeof "/test/regressions";
  p = malloc(n);
  if (p != NULL) snprintf(p, n, "%s/test/regressions", top);
  return p;
}

static int read_all(const char *path, unsigned char **out, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *b = NULL;
  size_t n = 0, cap = 0;
  if (f == NULL) return -1;
  for (;;) {
    size_t got;
    if (cap - n < 4096) {
      unsigned char *q = realloc(b, cap = cap ? cap * 2 : 8192);
      if (q == NULL) break;
      b = q;
    }
    got = fread(b + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  fclose(f);
  *out = b;
  *len = n;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void test_replay_all(void **state) {
  char *dir = dir_path();
  DIR *d;
  struct dirent *e;
  char **names = NULL;
  size_t n = 0, cap = 0, i;
  int failures = 0;
  (void)state;
  assert_non_null(dir);
  d = opendir(dir);
  if (d == NULL) {
    free(dir);
    skip(); /* not there (an unusual layout): nothing to replay */
    return;
  }
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (e->d_name[0] == '.') continue;
    if (len > 3 && strcmp(e->d_name + len - 3, ".md") == 0) continue;
    if (n == cap) {
      char **q = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof *q);
      assert_non_null(q);
      names = q;
    }
    names[n] = strdup(e->d_name);
    assert_non_null(names[n]);
    n++;
  }
  closedir(d);
  if (n > 1) qsort(names, n, sizeof *names, by_name);
  for (i = 0; i < n; i++) {
    static const struct {
      const char *name;
      const char *(*check)(const uint8_t *, size_t);
    } checks[] = {{"fuzz_parse", fz_check_parse},
                  {"fuzz_split", fz_check_split},
                  {"fuzz_split (whole values)", fz_check_whole},
                  {"fuzz_split (quiet)", fz_check_quiet},
                  {"fuzz_split (on_moves)", fz_check_moves},
                  {"fuzz_split (check runs)", fz_check_semantic},
                  {"fuzz_batch", fz_check_batch},
                  {"fuzz_reader", fz_check_reader},
                  {"fuzz_tree", fz_check_tree},
                  {"fuzz_roundtrip", fz_check_roundtrip},
                  {"fuzz_writer", fz_check_writer},
                  {"fuzz_cursor", fz_check_cursor},
                  {"fuzz_unescape", fz_check_unescape},
                  {"fuzz_charset", fz_check_charset},
                  {"plain", fz_check_plain}};
    char path[4096];
    unsigned char *buf = NULL;
    size_t len = 0, k;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (read_all(path, &buf, &len) != 0) {
      print_error("regression %s: cannot read it\n", names[i]);
      failures++;
      continue;
    }
    for (k = 0; k < sizeof checks / sizeof checks[0]; k++) {
      const char *msg = checks[k].check(buf, len);
      if (msg != NULL) {
        print_error("regression %s (%zu bytes), %s check: %s\n", names[i], len,
                    checks[k].name, msg);
        failures++;
      }
    }
    free(buf);
  }
  print_message("replayed %zu regression inputs from %s\n", n, dir);
  for (i = 0; i < n; i++) free(names[i]);
  free(names);
  free(dir);
  assert_int_equal(failures, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_replay_all),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
