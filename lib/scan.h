/* scan.h - bulk scanners for the tokenizer's long runs.
 *
 * Each returns the first byte in [s, end) that the caller must look at,
 * or end. The value scanner stops at ']' '\\' LF CR NUL; the skip scanner
 * (a skipped game tree, outside values) at '(' ')' '[' LF CR.
 * The implementation is chosen once, at the first parser creation: AVX2
 * when the CPU has it, else SSE2 on x86-64, else NEON on AArch64, else the
 * portable byte-table loop. Configure --disable-simd builds only the
 * portable loop; the environment variable SGF_SIMD=none|sse2|avx2 forces a
 * path (for tests and benchmarks).
 */
#ifndef SGF_SCAN_H
#define SGF_SCAN_H

typedef const unsigned char *(*sgf__scan_fn)(const unsigned char *s,
                                             const unsigned char *end);

typedef struct sgf__scanners {
  sgf__scan_fn value;
  sgf__scan_fn skip;
  const char *name; /* "avx2", "sse2", "neon", "portable" */
} sgf__scanners;

/* Select the scanners (idempotent) and return them. */
const sgf__scanners *sgf__scanners_get(void);

#endif
