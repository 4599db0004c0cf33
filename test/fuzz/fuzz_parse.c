/* fuzz_parse.c - libFuzzer target: the whole-buffer parse. The first byte
 * chooses strict, mainline and small limits; every event is checked
 * against the grammar, the limits, the positions and the input (see
 * fz_check_parse in harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_parse(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_parse: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
