/* fuzz_roundtrip.c - libFuzzer target: parse -> write -> parse. The first
 * bytes choose the parse options and the writer's layout, buffer, line
 * width and sink; the output must parse strictly with no diagnostic and
 * give the same events, and writing must be idempotent (see
 * fz_check_roundtrip in harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_roundtrip(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_roundtrip: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
