/* scan.h - bulk scanners for the tokenizer's long runs.
 *
 * Each returns the first byte in [s, end) that the caller must look at,
 * or end. The value scanner stops at ']' '\\' LF CR NUL; the text
 * scanner (inside a value, once a line break is met) at ']' '\\' NUL,
 * counting the line breaks it passes over, so multi-line text costs no
 * stop per line. The tree skipper passes over a skipped game tree whole
 * (values, escapes, nested trees and line breaks), 64 bytes at a time
 * (see SKIPPING A TREE in scan.c). The move-run scanner passes over
 * plain move nodes nobody listens to, 64 bytes at a time (moves.c).
 * The implementation is chosen once, at the first parser creation: AVX2
 * when the CPU has it, else SSE2 on x86-64, else NEON on AArch64, else
 * WebAssembly SIMD128 when compiled for it (clang -msimd128: js/'s
 * module), else the portable byte-table loop. Configure --disable-simd builds
 * only the portable loop; the environment variable SGF_SIMD=none|sse2|avx2|neon
 * forces a path (for tests and benchmarks): the one variable the library
 * reads (sgfstream.h, ENVIRONMENT; test/house/getenv.sh keeps it so).
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
  uint64_t nodes;               /* the move-run scanner only: nodes passed */
} sgf__lines;

/* The text scanner: the first ']' '\\' or NUL in [s, end), or end,
 * counting the line breaks before it into *ln. cr_before: the byte just
 * before s is a CR (so an LF at s ends no further line). */
typedef const unsigned char *(*sgf__text_fn)(const unsigned char *s,
                                             const unsigned char *end,
                                             int cr_before, sgf__lines *ln);

/* Where the tree skipper is: what it needs to go on from a byte. */
typedef struct sgf__skip {
  uint64_t levels;     /* trees open inside the skipped one */
  int in_value;        /* inside a value */
  int escaped;         /* inside a value: the byte at s is escaped */
  uint64_t max_levels; /* levels may not pass it (levels <= max_levels) */
} sgf__skip;

/* The tree skipper: passes over the bytes of a skipped game tree from s,
 * in state *sk: '[' opens a value outside one, an unescaped ']' closes
 * it, '(' and ')' outside values count levels; every other byte (a ']'
 * or '\\' outside a value, a NUL) is passed over. Returns the ')' that
 * closes the skipped tree (outside a value, sk->levels 0 there), the '('
 * outside a value that would open a level past sk->max_levels (the
 * parser's depth limit holds in skipped trees too), or end,
 * with *sk the state there and the line breaks before it counted into
 * *ln as the text scanner counts them (cr_before likewise). */
typedef const unsigned char *(*sgf__tree_fn)(const unsigned char *s,
                                             const unsigned char *end,
                                             int cr_before, sgf__skip *sk,
                                             sgf__lines *ln);

/* The move-run scanner (moves.c): from the ';' at s, passes over plain
 * move nodes (";B[qd]", each followed by a ';', at once or after a line
 * break) and returns the ';' of the first node that is none, counting
 * the line breaks and the nodes passed into *ln. */
typedef const unsigned char *(*sgf__moves_fn)(const unsigned char *s,
                                              const unsigned char *end,
                                              sgf__lines *ln);

typedef struct sgf__scanners {
  sgf__scan_fn value;
  sgf__tree_fn tree;
  sgf__text_fn text;
  sgf__moves_fn moves;
  const char *name; /* "avx2", "sse2", "neon", "portable" */
} sgf__scanners;

/* Select the scanners (idempotent) and return them. */
const sgf__scanners *sgf__scanners_get(void);

#endif
