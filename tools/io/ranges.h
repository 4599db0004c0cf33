/* ranges.h - one large plain SGF file counted in byte ranges at once, each
 * range a task of libuv's thread pool: `sgf stats -j N` with a single
 * FILE.
 *
 * CUTS. The file is cut only where a game tree seems to end and the next
 * to begin: at the '(' of a ')' followed by blanks (space, tab, CR, LF, or
 * none), "(;" and a property of a game's root node (FF, GM, SZ, CA, AP,
 * PB ..., which variations seldom begin with), the first such place from
 * k/N of the file on (k = 1 .. N-1). Each range gets a fresh parser.
 * Counting the ranges apart gives what one parser reading the whole file
 * gives if the parser before each cut is between game trees there (at
 * depth 0 after that ')' and the blanks: nothing it carries over then
 * changes a count).
 * So after its range each parser is asked (between()), and if one is not
 * between game trees (the bytes were inside a comment, say) or has
 * stopped (a fatal error, after which one parser would count nothing
 * more), the cuts are not trusted: ranges_run() gives up and the caller
 * reads the file the ordinary way, one parser from the first byte.
 *
 * A later range's parser counts lines and offsets from its own first
 * byte, so this is for counting only, never for positioned diagnostics.
 *
 * Memory: per range, a read buffer (input.h) and the caller's state.
 */
#ifndef SGF_TOOLS_RANGES_H
#define SGF_TOOLS_RANGES_H

#include <stddef.h>
#include <stdint.h>

/* Files smaller than this are not cut (the environment variable
 * SGF_RANGES_MIN, in bytes, overrides it: the tests cut small files). */
#define RANGES_MIN ((int64_t)8 << 20)
#define RANGES_MAX 256 /* ranges at most */

typedef struct ranges_ops {
  size_t result_size; /* bytes of one range's result (> 0) */
  /* One state per range, made on the calling thread before the tasks
   * are queued, then used by its range's task only. NULL: out of memory. */
  void *(*create)(void *arg);
  void (*destroy)(void *state);
  void (*begin)(void *state);
  int (*data)(void *state, const char *buf, size_t len);
  /* After the range's last byte: 1 if the parser is between game trees
   * (depth 0) and has not stopped. */
  int (*between)(void *state);
  /* The range is over (finish the parser): its result. */
  void (*end)(void *state, void *result);
  /* sum += part (on the calling thread). */
  void (*add)(void *sum, const void *part);
} ranges_ops;

/* Count path in up to n ranges. Returns 0 with *result the sum of the
 * ranges' results, or -1 when the file was not cut (too small, not a
 * plain regular file, fewer than two cuts found, a cut not between game
 * trees, a read error, no memory or loop): then read it the ordinary
 * way, which also reports any error. */
int ranges_run(const char *path, unsigned n, const ranges_ops *ops, void *arg,
               void *result);

#endif /* SGF_TOOLS_RANGES_H */
