/* input_priv.h - what input.c and archive.c share; not for commands. */
#ifndef SGF_TOOLS_INPUT_PRIV_H
#define SGF_TOOLS_INPUT_PRIV_H

#include <stdint.h>

#include "input.h"

#include "decode.h"
#include "stream.h"
#include <sgfstream/utf16.h>

struct input_reader {
  uv_loop_t loop;
  char *rbuf; /* every read of a file or stream lands here */
  size_t rcap;
  char *rbuf2;  /* the read-ahead buffer of a large plain file, made when
                 * first needed */
  char *dbuf;   /* where a compressed input is decoded to (decode.h), made
                 * when first needed */
  int io_flags; /* IO_SOURCE_INLINE for a reader on a pool thread */
  char *name;   /* "ARCHIVE:ENTRY" */
  size_t name_cap;
  char err[256]; /* the last error message, for sinks */
  /* The compression of the input being read (input_filters()). */
  int filters[INPUT_MAX_FILTERS];
  int nfilters;
  /* Standard input when it is a pipe or terminal. */
  int in_kind; /* IN_* */
  uv_stream_t *in_stream;
  uv_pipe_t in_pipe;
  uv_tty_t in_tty;
  int in_eof; /* the stream's end was read: "-" again is empty (a
               * terminal would otherwise be read again) */
};

enum { IN_NONE = 0, IN_FILE, IN_PIPE, IN_TTY, IN_BAD };

/* Where the bytes of one FILE argument come from: an io_source (stream.h)
 * on the reader's loop, and what its consumer is doing with them. */
typedef struct source {
  input_reader *r;
  io_source io;
  int mode;     /* SRC_*: what data() does with a chunk */
  int seekable; /* a regular file, read at io.pos */
  int64_t size; /* file size, when seekable */
  int status;   /* what io's end() said */
  int sniff;    /* look at the first bytes for an archive or compressed
                 * file (not for a FILE named *.sgf: input__sgf_name()) */
  int one_sgf;  /* a compressed file named *.sgf.gz...: what it holds is
                 * one SGF input, never an archive */
  /* SRC_PULL: the chunk handed over, or NULL */
  const char *got;
  size_t got_len;
  /* A compressed input decoded here (decode.h): the decoder, the
   * compressed bytes pulled and not yet decoded, the decoded chunk last
   * handed out (dkept: hand it out again on the next pull), how many were
   * made, and how the compressed data ended (DECODE_END, _ERROR or 0). */
  int dkind;
  decoder *dec;
  const char *din;
  size_t din_len;
  int din_last;
  const char *dout;
  size_t dout_len;
  int dkept;
  long dpulls;
  uint64_t dtotal; /* bytes decoded */
  int dstate;
  const char *perr; /* why input__pull() failed */
  char perr_buf[192];
  /* SRC_PLAIN: where the bytes go */
  const char *name;
  const input_sink *sink;
  void *ctx;
} source;

enum { SRC_FIRST = 0, SRC_ARCHIVE, SRC_PLAIN, SRC_PULL };

/* For libarchive's pull: the next chunk (kept bytes first), read through
 * the source's loop. > 0 bytes at *out, 0 at the end, < 0 a libuv error. */
ssize_t input__src_pull(source *s, const char **out);

/* The same, of the decoded bytes when the source is decoded here (s->dec),
 * else of the source's own: > 0 bytes at *out, 0 at the end, < 0 an error
 * (s->perr says why). */
ssize_t input__pull(source *s, const char **out);

/* Does name end in ".sgf" (INPUT__SGF_PLAIN), or in ".sgf" and a
 * compression suffix, "x.sgf.gz" (.bz2 .xz .zst .lz4 .lzma .lz .Z:
 * INPUT__SGF_COMPRESSED), in any case? 0 if not (walk.c). A file so named,
 * given by name or found in a directory, is one SGF input: a plain one is
 * never taken for an archive or a compressed file by its first bytes, and
 * what a compressed one holds is never taken for an archive. */
enum { INPUT__SGF_PLAIN = 1, INPUT__SGF_COMPRESSED };
int input__sgf_name(const char *name);

/* Is the open file a directory? Read every .sgf file below it (walk.c). */
int input__fd_is_dir(input_reader *r, uv_file fd);
int input__walk(input_reader *r, const char *root, const input_sink *sink,
                void *ctx);

/* A message for a libuv error code, like strerror(). */
const char *input__errmsg(int err);

/* Does the start of the data look like an archive or compressed file?
 * INPUT__MAGIC_SURE: a binary signature; INPUT__MAGIC_MAYBE: a text one,
 * which a plain SGF file could begin with. */
enum { INPUT__MAGIC_NONE = 0, INPUT__MAGIC_MAYBE, INPUT__MAGIC_SURE };
int input__archive_magic(const unsigned char *b, size_t n);

/* Read the archive whose first n bytes are kept in s->io (paused there),
 * or, when s->dec, the first decoded chunk (s->dkept);
 * magic is what input__archive_magic() said. Returns 0 or -1 (failure reported
 * to the sink), or INPUT__NOT_ARCHIVE when the magic was only MAYBE and
 * libarchive could not read a first header: the input is a plain file.
 * Then, unless s->seekable, the first n bytes are still at the start of
 * r->rbuf and nothing more was read (when more was, the failure is
 * reported as for an archive instead); when s->dec, only the first
 * decoded chunk was made. */
#define INPUT__NOT_ARCHIVE 1
int input__read_archive(source *s, const char *path, size_t n, int magic,
                        const input_sink *sink, void *ctx);

/* UTF-16 INPUT (input.h): a sink in front of the caller's that turns
 * UTF-16 inputs into UTF-8 (transcode.c). One per input_read_file():
 * init it, read through input__xcode_sink with it as the context, then
 * done (which frees a converter left over by a read that broke off). */
typedef struct input_xcode {
  const input_sink *sink; /* the caller's */
  void *ctx;
  char head[4]; /* the first bytes, which decide */
  size_t nhead;
  int decided;
  int stopped;           /* the sink's data() asked to stop, or bad UTF-16 */
  size_t skip;           /* bytes of the mark */
  int order;             /* SGF_UTF16_LE / _BE once decided, or 0 */
  sgf_utf16_decoder u16; /* the library's */
  char *out;             /* XCODE_OUT bytes of UTF-8 for the sink */
  char err[128];         /* bad UTF-16 for end(), when the sink has no note() */
} input_xcode;

extern const input_sink input__xcode_sink;
void input__xcode_init(input_xcode *x, const input_sink *sink, void *ctx);
void input__xcode_done(input_xcode *x);

#endif /* SGF_TOOLS_INPUT_PRIV_H */
