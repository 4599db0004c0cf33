/* fuzz_writer.c - libFuzzer target: the writer's event API driven by a
 * script of calls, with the layout, buffer, line width and sink chosen by
 * the first bytes; what the writer accepts must come out as valid FF[4],
 * the same events whatever the options, and writing must be idempotent
 * (see fz_check_writer in harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_writer(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_writer: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
