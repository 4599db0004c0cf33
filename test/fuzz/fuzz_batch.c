/* fuzz_batch.c - libFuzzer target, differential: batched events
 * (sgf_parser_set_batch) against on_value, in the chunks, capacities,
 * stop kinds and actions the first bytes choose (fz_check_batch in
 * harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_batch(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_batch: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
