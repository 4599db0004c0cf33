/* output.h - output files of the writer commands (fmt, mainline, split),
 * written with libuv's synchronous uv_fs_* calls, like all the tool's I/O.
 *
 * An output is standard output or a named file. A named file can be
 * written atomically: the bytes go to a new temporary file in the same
 * directory, which output_commit() syncs and renames over the name, so
 * the name always holds either the old file or the whole new one, even
 * after a crash; output_discard() removes the temporary file instead.
 */
#ifndef SGF_TOOLS_OUTPUT_H
#define SGF_TOOLS_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

typedef struct output {
  uv_loop_t *loop;
  uv_file fd; /* -1 when closed */
  int is_stdout;
  char *path;       /* the name (NULL for standard output) */
  char *tmp;        /* the temporary file while atomic, else NULL */
  int created;      /* not atomic: path was opened (output_discard()
                       removes it) */
  int err;          /* the first libuv error, 0 if none */
  const char *what; /* the operation that failed */
} output;

/* Standard output (never closed). Always succeeds. */
void output_stdout(output *o, uv_loop_t *loop);

/* Create (or truncate) path; atomic: see above. When atomic, the new file
 * gets the permission bits of the file `like` if that exists (pass path to
 * keep the mode of the file being replaced), else 0666 less the umask,
 * and its owner and group when we may give it those (root; the group
 * when we are a member of it).
 * Returns 0, or a libuv error (see output_error()). */
int output_open(output *o, uv_loop_t *loop, const char *path, int atomic,
                const char *like);

/* sgf_write_fn: ctx is an output. Writes all of buf or fails (-1). */
int output_write(void *ctx, const char *buf, size_t len);

/* Close the file (an atomic one is synced and renamed over its name).
 * Returns 0 or -1; the output is closed either way. Standard output is
 * left open. */
int output_commit(output *o);

/* Close the file and remove it (the temporary one when atomic, leaving
 * the name as it was; nothing if it was never opened). */
void output_discard(output *o);

/* "OPERATION: MESSAGE" for the first failure (a static buffer), or NULL. */
const char *output_error(const output *o);

#endif /* SGF_TOOLS_OUTPUT_H */
