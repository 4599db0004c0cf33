/* fuzz_split.c - libFuzzer target, differential: the first bytes choose
 * chunk sizes, pause points and an injected skip or abort; the merged
 * event log, status and error must equal the whole-buffer run's (see
 * fz_check_split in harness.h); and values whole (on_value) must carry
 * what the three value events carry (fz_check_whole); and a parser with
 * no move-node handler (the move-run scanner) must report what one with
 * an on_node reports (fz_check_quiet); and on_moves must stand for
 * exactly the events of its runs (fz_check_moves); and the semantic
 * checks must find the same with runs and without (fz_check_semantic).
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>

#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *err = fz_check_split(data, size);
  if (err == NULL) err = fz_check_whole(data, size);
  if (err == NULL) err = fz_check_quiet(data, size);
  if (err == NULL) err = fz_check_moves(data, size);
  if (err == NULL) err = fz_check_semantic(data, size);
  if (err != NULL) {
    fprintf(stderr, "fuzz_split: %s\n", err);
    __builtin_trap();
  }
  return 0;
}
