/* recompress.h - writing a file back compressed the way it was read, for
 * `sgf fmt -i game.sgf.gz`: never plain text under a compressed name.
 *
 * libarchive's write API does the compressing: the raw format (one stream,
 * no archive around it) through the filters the input was read through
 * (input_filters()), in the same order. Its write callback hands the
 * compressed bytes to an output (output.h), so they take the same way as
 * any other output of the tool: libuv writes into the temporary file that
 * output_commit() syncs and renames over the name.
 */
#ifndef SGF_TOOLS_RECOMPRESS_H
#define SGF_TOOLS_RECOMPRESS_H

#include <stddef.h>

#include "output.h"

struct archive;

typedef struct recompress {
  struct archive *a; /* NULL when closed */
  output *out;
  int wrote;     /* data has gone into the compressor */
  char err[256]; /* why the last call failed */
} recompress;

/* Start a stream compressed by the n filters codes (ARCHIVE_FILTER_*,
 * nearest the data first) into out. Returns 0, or -1 with z->err saying
 * why: a filter libarchive cannot write, a program it would need missing,
 * memory. Nothing is left to free after a failure. */
int recompress_open(recompress *z, output *out, const int *codes, int n);

/* sgf_write_fn: ctx is a recompress. All of buf or -1 (z->err). */
int recompress_write(void *ctx, const char *buf, size_t len);

/* Flush the compressors, end the stream and free it. 0, or -1 with z->err
 * (the output may then be incomplete: discard it). */
int recompress_close(recompress *z);

/* Free the stream without writing anything more. */
void recompress_abort(recompress *z);

#endif /* SGF_TOOLS_RECOMPRESS_H */
