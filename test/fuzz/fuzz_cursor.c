/* fuzz_cursor.c - libFuzzer target: a game recorded through the cursor
 * API (sgfstream/tree.h) by a program of operations decoded from the
 * input, with a failing allocator; every operation is checked against
 * the header, the tree's structure queries against a walk, and the tree
 * written by the tree writer must parse back strictly into the same
 * nodes and properties (see fz_check_cursor in harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_cursor(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_cursor: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
