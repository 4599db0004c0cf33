/* fuzz_charset.c - libFuzzer target: text to UTF-8 (sgfstream/charset.h)
 * in every charset path, the FF[4] text decoders, and the tools' UTF-16
 * converter fed in pieces against whole (see fz_check_charset in
 * harness.h).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_charset(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_charset: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
