/* fuzz_tree_paths.c - libFuzzer target: the tree builder's fast path and
 * its general path (SGF_TREE_GENERAL_ONLY) build the same trees, node by
 * node, positions and derived facts included, fed whole and in chunks;
 * the first two bytes choose the options and limits (see
 * fz_check_tree_paths in harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_tree_paths(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_tree_paths: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
