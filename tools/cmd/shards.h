/* shards.h - `sgf split --shards N`: a collection cut into N files of
 * about the same size, at game boundaries, the bytes copied as they are.
 *
 * Byte-exact: the shards, concatenated in order, are the bytes of the
 * inputs concatenated in input_read()'s order (the FILE arguments in
 * order, a directory in sorted walk order, the .sgf members of an archive
 * in archive order, a compressed file decompressed), with one exception:
 * an input that ends inside game trees (a missing ')') gets what closes
 * them written after it, as the parser's repair closes them (a ']' if a
 * value is open, "\]" if it ends in an unpaired backslash, then one ')'
 * per tree open, one more for a '(' nothing followed), with a warning, so
 * that the shards hold the same games as the inputs and a job over them
 * equals one pass over the inputs. Nothing is
 * normalized, nothing between games is dropped: a game's shard holds it
 * from its '(' to the '(' of the next game that starts a new shard, so
 * what follows a game (a newline, junk) stays with it. Game boundaries
 * are found by the parser (lenient: parentheses inside values are not
 * boundaries).
 *
 * Balance: by bytes. A first pass finds the total: a plain file's size,
 * or, for a directory, an archive or a compressed file, the bytes read
 * from it (it is read twice; nothing is parsed in that pass). Shard k (of
 * 0..N-1) ends at the first game end at or past k+1 N-ths of the total,
 * so a shard is at most one game longer than its share. All N files are
 * written, also when there are fewer games than shards (the last ones are
 * empty then). Standard input cannot be read twice and is refused.
 */
#ifndef SGF_TOOLS_SHARDS_H
#define SGF_TOOLS_SHARDS_H

#include <uv.h>

#include "input.h"

/* The name of shard number n (from 1), its directories made; NULL after
 * reporting a failure. Valid until the next call. */
typedef const char *(*shard_name_fn)(void *ctx, unsigned long n);

/* Cut files[0..nfiles) into n shards. verbose: print each shard's name
 * and size. Returns the exit status. */
int shards_run(uv_loop_t *loop, input_reader *in, char **files, int nfiles,
               unsigned long n, shard_name_fn name, void *ctx, int verbose);

#endif /* SGF_TOOLS_SHARDS_H */
