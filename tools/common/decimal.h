/* decimal.h - an unsigned number in decimal, digits by hand: snprintf's
 * format parsing costs more than the rest of a small number, and the
 * tools write a few per game (sgf json's numbers, sgf serve's answers
 * and log lines). */
#ifndef SGF_TOOLS_COMMON_DECIMAL_H
#define SGF_TOOLS_COMMON_DECIMAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define DECIMAL_U64_MAX 20 /* the digits of UINT64_MAX */

/* v's digits at out (no NUL); returns how many (1 to DECIMAL_U64_MAX). */
static inline size_t decimal_u64(char *out, uint64_t v) {
  char b[DECIMAL_U64_MAX];
  size_t k = sizeof b;
  do {
    b[--k] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  memcpy(out, b + k, sizeof b - k);
  return sizeof b - k;
}

#endif /* SGF_TOOLS_COMMON_DECIMAL_H */
