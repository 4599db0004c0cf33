/* fuzz_reader.c - libFuzzer target: the property reader with a small
 * max_value_bytes and an allocation-failure schedule chosen by the first
 * bytes. It must end cleanly, with bounded memory and nothing outstanding
 * after destroy (see fz_check_reader in harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_reader(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_reader: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
