/* fuzz_tree.c - libFuzzer target: the tree builder. The first bytes choose
 * the options, a failing-allocation schedule and small limits; every tree
 * must match the events it was built from, its structure queries must
 * agree with a walk, and nothing may leak (see fz_check_tree in
 * harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_tree(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_tree: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
