/* fuzz_unescape.c - libFuzzer target: sgf_unescape() against the
 * streaming sgf_unescaper fed in pieces chosen by the first bytes and
 * against a model of the FF[4] escapes; the escaper (plain, compose,
 * SimpleText) against its documented output, whole and in pieces, and
 * back through sgf_unescape() (see fz_check_unescape in harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_unescape(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_unescape: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
