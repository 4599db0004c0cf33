/* scan.h - bulk scanners for the tokenizer's long runs.
 *
 * Each returns the first byte in [s, end) that the caller must look at,
 * or end. The value scanner stops at ']' '\\' LF CR NUL; the skip scanner
 * (a skipped game tree, outside values) at '(' ')' '[' LF CR; the text
 * scanner (inside a value, once a line break is met) at ']' '\\' NUL,
 * counting the line breaks it passes over, so multi-line text costs no
 * stop per line.
 * The implementation is chosen once, at the first parser creation: AVX2
 * when the CPU has it, else SSE2 on x86-64, else NEON on AArch64, else the
 * portable byte-table loop. Configure --disable-simd builds only the
 * portable loop; the environment variable SGF_SIMD=none|sse2|avx2 forces a
 * path (for tests and benchmarks).
 */
#ifndef SGF_SCAN_H
#define SGF_SCAN_H

#include <stdint.h>

typedef const unsigned char *(*sgf__scan_fn)(const unsigned char *s,
                                             const unsigned char *end);

/* Line breaks in a run of text: how many, the last one, the last CR. */
typedef struct sgf__lines {
  uint64_t n;                   /* CR, LF and CR LF each count one */
  const unsigned char *last;    /* the last CR or LF byte, or NULL */
  const unsigned char *last_cr; /* the last CR byte, or NULL */
} sgf__lines;

/* The text scanner: the first ']' '\\' or NUL in [s, end), or end,
 * counting the line breaks before it into *ln. cr_before: the byte just
 * before s is a CR (so an LF at s ends no further line). */
typedef const unsigned char *(*sgf__text_fn)(const unsigned char *s,
                                             const unsigned char *end,
                                             int cr_before, sgf__lines *ln);

typedef struct sgf__scanners {
  sgf__scan_fn value;
  sgf__scan_fn skip;
  sgf__text_fn text;
  const char *name; /* "avx2", "sse2", "neon", "portable" */
} sgf__scanners;

/* Select the scanners (idempotent) and return them. */
const sgf__scanners *sgf__scanners_get(void);

#endif
