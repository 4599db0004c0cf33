/* inplace.h - `sgf fmt -i`: rewriting a FILE in place without losing
 * anything of it.
 *
 * The file is replaced only when the rewrite keeps what it holds, and
 * then atomically (output.h: a temporary file beside it, synced and
 * renamed over it) with its mode, and owner as far as permitted. It is
 * left byte for byte as it was, with exit status 2 and a message saying
 * "not rewritten" and why, when
 *   - it is not a regular file, or an archive (tar, zip...);
 *   - it is compressed (game.sgf.gz) in a way libarchive cannot write
 *     back: a compressed file is written back compressed the same way
 *     (recompress.h), never as plain text under its compressed name;
 *   - reading it gave an error (no game tree, bad UTF-16, a limit, a read
 *     error): never, whatever the options;
 *   and, unless --force,
 *   - a repair would drop bytes of the input (rewrite_diag_drops(): junk,
 *     a property without value, ...): the message names the first one
 *     with its FILE:LINE:COL; with --force those warnings are printed
 *     even without -v;
 *   - it is read-only (we may not write it, or nobody may: no write bit);
 *   - it has several hard links: replacing it makes it a new file and the
 *     other names keep the old content (with --force, that is said);
 *   - it is a symbolic link named as FILE: the rewrite would replace the
 *     file it points to, which may be anywhere (with --force it does, the
 *     link is kept);
 *   - it is UTF-16 (input.h): it is read converted, and the rewrite
 *     would replace it by UTF-8 (with --force it does, and warns).
 */
#ifndef SGF_TOOLS_INPLACE_H
#define SGF_TOOLS_INPLACE_H

#include "input.h"
#include "output.h"
#include "recompress.h"
#include "rewrite.h"

typedef struct inplace {
  rewrite *rw; /* its status is the command's */
  input_reader *in;
  uv_loop_t *loop;
  int force; /* --force */
  /* The FILE being rewritten. */
  const char *path;
  output out;   /* the temporary file */
  recompress z; /* open while compressed */
  int compressed;
  int refused;    /* not rewritten; the rest is not parsed */
  uint64_t links; /* hard links to it */
} inplace;

/* Rewrite path in place, or refuse (reported; rw->status raised). */
void inplace_rewrite(inplace *ip, const char *path);

/* A FILE argument: a directory has each of its .sgf files (also
 * compressed ones, in input_read()'s order) rewritten in place, and one
 * without any is reported as holding no input; anything else goes to
 * inplace_rewrite(). A symbolic link met in the directory (to a
 * directory, or named like an SGF file) is never followed, with or without
 * --force: it is skipped with a warning (exit status 1), so a rewrite
 * never reaches outside the directory. A directory named as FILE through
 * a link is walked (the user named it). */
void inplace_rewrite_arg(inplace *ip, const char *path);

#endif /* SGF_TOOLS_INPLACE_H */
