/* input.c - files and standard input, read in chunks on the reader's
 * libuv loop through one io_source (stream.h) per FILE.
 *
 * The source's consumer here is a small state machine (source.mode): the
 * first chunk decides. Plain SGF goes to the sink from the read callback,
 * chunk by chunk, and the loop runs until the source ends. If the chunk
 * looks like an archive, the consumer pauses with the whole chunk kept
 * and the loop returns; libarchive then pulls (input__src_pull): the kept
 * chunk first, then each pull resumes the source and runs the loop until
 * the consumer has paused on the next chunk, which libarchive uses in
 * place until its next pull. So an archive is read by the same loop, the
 * same buffer and the same reads as a plain file. Archives are in
 * archive.c. gzip, xz or bzip2 data is pulled the same way by a decoder
 * (decode.h, read_decoded()), whose output is recognised again: a plain
 * input, or an archive that libarchive pulls from the decoder. A file
 * named *.sgf is not looked at (source.sniff): the first chunk is plain.
 */
#define _POSIX_C_SOURCE 200809L

#include "input_priv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_BUFSIZE (256u * 1024u)
/* Decoded chunks of a compressed input: at least 32774 bytes, to hold
 * every signature input__archive_magic() knows (ISO 9660's at 32769). */
#define DECODE_BUFSIZE (128u * 1024u)

const char *input__errmsg(int err) {
  /* On Unix, libuv's codes are negated errno values except its own few
   * (UV_EOF, UV_EAI_*, ...), which sit far below. The message is the
   * strerror() text, made in a buffer of the calling thread's own, since
   * readers run in several threads with sgf stats -j. */
  static _Thread_local char buf[128];
  if (err < 0 && err > -3000) {
    if (strerror_r(-err, buf, sizeof buf) != 0)
      snprintf(buf, sizeof buf, "Unknown error %d", -err);
    return buf;
  }
  return uv_strerror(err);
}

input_reader *input_reader_create(size_t bufsize) {
  input_reader *r = calloc(1, sizeof *r);
  if (r == NULL) return NULL;
  r->rcap = bufsize ? bufsize : DEFAULT_BUFSIZE;
  if (r->rcap > (1u << 30)) r->rcap = 1u << 30;
  r->rbuf = malloc(r->rcap);
  if (r->rbuf == NULL || uv_loop_init(&r->loop) != 0) {
    free(r->rbuf);
    free(r);
    return NULL;
  }
  return r;
}

void input_reader_destroy(input_reader *r) {
  if (r == NULL) return;
  if (r->in_stream != NULL) uv_close((uv_handle_t *)r->in_stream, NULL);
  uv_run(&r->loop, UV_RUN_DEFAULT);
  uv_loop_close(&r->loop);
  free(r->rbuf);
  free(r->rbuf2);
  free(r->dbuf);
  free(r->name);
  free(r);
}

/* ------------------------------------------------------------ stdin */

/* Decide once how standard input is read. Returns 0 or a libuv error. */
static int stdin_setup(input_reader *r) {
  int e;
  if (r->in_kind != IN_NONE) return r->in_kind == IN_BAD ? UV_EBADF : 0;
  r->in_kind = IN_BAD;
  switch (uv_guess_handle(0)) {
    case UV_FILE:
      r->in_kind = IN_FILE;
      return 0;
    case UV_NAMED_PIPE:
      e = uv_pipe_init(&r->loop, &r->in_pipe, 0);
      if (e != 0) return e;
      r->in_stream = (uv_stream_t *)&r->in_pipe;
      e = uv_pipe_open(&r->in_pipe, 0);
      r->in_kind = IN_PIPE;
      break;
    case UV_TTY:
      e = uv_tty_init(&r->loop, &r->in_tty, 0, 0);
      if (e != 0) return e;
      r->in_stream = (uv_stream_t *)&r->in_tty;
      r->in_kind = IN_TTY;
      break;
    default:
      return UV_EBADF;
  }
  if (e != 0) r->in_kind = IN_BAD;
  return e;
}

/* ------------------------------------------------------------ reading */

/* A plain file larger than the buffer, read with callbacks, is read ahead
 * into a second buffer while the sink works on the first: the loop's
 * thread then seldom waits for the pool (stream.h). */
static void readahead(source *s) {
  input_reader *r = s->r;
  if (!s->seekable || s->size <= (int64_t)r->rcap ||
      (s->io.flags & IO_SOURCE_INLINE))
    return;
  if (r->rbuf2 == NULL) r->rbuf2 = malloc(r->rcap);
  if (r->rbuf2 != NULL) io_source_readahead(&s->io, r->rbuf2);
}

static int src_data(void *ctx, const char *buf, size_t len, size_t *used) {
  source *s = ctx;
  switch (s->mode) {
    case SRC_FIRST: {
      const unsigned char *b = (const unsigned char *)buf;
      int magic = INPUT__MAGIC_NONE;
      if (s->sniff) {
        s->dkind = decode_kind(b, len);
        magic = s->dkind != DECODE_NONE ? INPUT__MAGIC_SURE
                                        : input__archive_magic(b, len);
      }
      if (magic != INPUT__MAGIC_NONE) {
        /* libarchive takes over, pulling: keep this chunk for it */
        s->mode = SRC_ARCHIVE;
        s->status = magic;
        *used = 0;
        return IO_PAUSE;
      }
      s->mode = SRC_PLAIN;
      s->r->nfilters = 0;
      readahead(s);
      s->sink->begin(s->ctx, s->name);
    }
      /* fall through */
    case SRC_PLAIN:
      return s->sink->data(s->ctx, buf, len) ? IO_STOP : IO_GO;
    default: /* SRC_PULL: hand the chunk to libarchive, and wait */
      s->got = buf;
      s->got_len = len;
      *used = len;
      return IO_PAUSE;
  }
}

static void src_end(void *ctx, int status) {
  source *s = ctx;
  s->status = status;
  if (s->mode == SRC_FIRST && status < 0) {
    s->sink->fail(s->ctx, s->name, input__errmsg(status));
    s->status = -1;
    return;
  }
  if (s->mode == SRC_FIRST) { /* empty: a plain input with nothing in it */
    s->r->nfilters = 0;
    s->sink->begin(s->ctx, s->name);
    s->mode = SRC_PLAIN;
  }
  if (s->mode == SRC_PLAIN) {
    s->sink->end(s->ctx, s->name, status < 0 ? input__errmsg(status) : NULL);
    s->status = status < 0 ? -1 : 0;
  }
}

static const io_source_ops src_ops = {src_data, src_end};

ssize_t input__src_pull(source *s, const char **out) {
  size_t n = s->io.kept;
  if (n > 0) { /* the chunk the archive was recognised by */
    *out = s->io.buf + s->io.kept_at;
    s->io.kept = 0;
    return (ssize_t)n;
  }
  if (s->io.ended) return s->status < 0 ? s->status : 0;
  s->mode = SRC_PULL;
  s->status = 0;
  s->got = NULL;
  io_source_resume(&s->io);
  if (s->got == NULL && !s->io.ended)
    uv_run(&s->r->loop, UV_RUN_DEFAULT); /* until the next chunk or end */
  if (s->got != NULL) {
    *out = s->got;
    return (ssize_t)s->got_len;
  }
  return s->status < 0 ? s->status : 0;
}

/* The next chunk of decoded bytes, as much as r->dbuf holds unless the
 * compressed data ends first: > 0 bytes at *out, 0 at the end, < 0 an
 * error (s->perr). Every byte decoded before an error is handed out
 * before the error is. */
/* Why the decoded data broke off, and where: after how many bytes. */
static void dec_error(source *s, const char *why, size_t made) {
  snprintf(s->perr_buf, sizeof s->perr_buf,
           "%s (after %" PRIu64 " bytes decompressed)", why,
           s->dtotal + (uint64_t)made);
  s->dstate = DECODE_ERROR;
}

static ssize_t dec_pull(source *s, const char **out) {
  input_reader *r = s->r;
  size_t made = 0;
  while (made < DECODE_BUFSIZE && s->dstate == 0) {
    size_t k;
    int rc;
    if (s->din_len == 0 && !s->din_last) {
      const char *p = NULL;
      ssize_t n = input__src_pull(s, &p);
      if (n < 0) {
        dec_error(s, input__errmsg((int)n), made);
        break;
      }
      if (n == 0) s->din_last = 1;
      s->din = p;
      s->din_len = (size_t)n;
    }
    rc = decoder_run(s->dec, &s->din, &s->din_len, s->din_last, r->dbuf + made,
                     DECODE_BUFSIZE - made, &k);
    made += k;
    if (rc == DECODE_ERROR) dec_error(s, decoder_error(s->dec), made);
    if (rc == DECODE_END) s->dstate = rc;
  }
  if (made > 0) {
    s->dpulls++;
    s->dtotal += made;
    *out = s->dout = r->dbuf;
    s->dout_len = made;
    return (ssize_t)made;
  }
  if (s->dstate == DECODE_ERROR) {
    s->perr = s->perr_buf;
    return -1;
  }
  return 0;
}

ssize_t input__pull(source *s, const char **out) {
  ssize_t n;
  if (s->dec != NULL) {
    if (s->dkept) {
      s->dkept = 0;
      *out = s->dout;
      return (ssize_t)s->dout_len;
    }
    return dec_pull(s, out);
  }
  n = input__src_pull(s, out);
  if (n < 0) s->perr = input__errmsg((int)n);
  return n;
}

/* A compressed file decoded here (s->dkind; the source paused on its
 * first chunk): what it holds is recognised like any input, by its first
 * bytes (decoded), and read as one plain input or as an archive. */
static int read_decoded(source *s, const char *name, const input_sink *sink,
                        void *ctx) {
  input_reader *r = s->r;
  const char *p = NULL;
  ssize_t n;
  int rc = 0, stop = 0;
  if (r->dbuf == NULL) r->dbuf = malloc(DECODE_BUFSIZE);
  if (r->dbuf != NULL) s->dec = decoder_new(s->dkind);
  if (s->dec == NULL) {
    sink->fail(ctx, name, strerror(ENOMEM));
    return -1;
  }
  n = dec_pull(s, &p);
  if (n > 0 && !s->one_sgf) {
    int magic = input__archive_magic((const unsigned char *)p, (size_t)n);
    if (magic != INPUT__MAGIC_NONE) {
      s->dkept = 1;
      rc = input__read_archive(s, name, (size_t)n, magic, sink, ctx);
      if (rc != INPUT__NOT_ARCHIVE) goto done;
      /* plain after all: only the first chunk was decoded, and is kept */
      p = s->dout;
      n = (ssize_t)s->dout_len;
      rc = 0;
    }
  }
  r->nfilters = 1;
  r->filters[0] = decode_filter_code(s->dkind);
  sink->begin(ctx, name);
  if (n > 0) stop = sink->data(ctx, p, (size_t)n);
  while (!stop && n > 0)
    if ((n = dec_pull(s, &p)) > 0) stop = sink->data(ctx, p, (size_t)n);
  if (!stop && n < 0) rc = -1;
  sink->end(ctx, name, rc < 0 ? s->perr : NULL);
done:
  decoder_free(s->dec);
  s->dec = NULL;
  return rc;
}

static int read_source(source *s, const char *name, const input_sink *sink,
                       void *ctx, uv_file fd) {
  input_reader *r = s->r;
  int rc;
  s->name = name;
  s->sink = sink;
  s->ctx = ctx;
  s->mode = SRC_FIRST;
  if (fd == 0 && r->in_stream != NULL && r->in_eof) {
    sink->begin(ctx, name); /* read to its end already: empty */
    sink->end(ctx, name, NULL);
    return 0;
  }
  if (fd == 0 && r->in_stream != NULL)
    io_source_stream(&s->io, &r->loop, r->in_stream, r->rbuf, r->rcap, &src_ops,
                     s);
  else {
    /* A file that fits in the buffer is read in place: one read, with
     * nothing to do meanwhile, costs less than a trip through the pool
     * and back (a directory of small files ran five times slower). */
    int flags = r->io_flags;
    if (s->seekable && s->size <= (int64_t)r->rcap) flags |= IO_SOURCE_INLINE;
    io_source_file(&s->io, &r->loop, fd, s->seekable ? 0 : -1, flags, r->rbuf,
                   r->rcap, &src_ops, s);
    if (s->seekable) io_source_size(&s->io, s->size);
  }
  rc = io_source_start(&s->io);
  if (rc != 0) {
    sink->fail(ctx, name, input__errmsg(rc));
    return -1;
  }
  uv_run(&r->loop, UV_RUN_DEFAULT);
  if (fd == 0 && r->in_stream != NULL && s->io.eof) r->in_eof = 1;
  if (s->mode != SRC_ARCHIVE) return s->status < 0 ? -1 : 0;
  /* Paused on the first chunk, which looks like an archive. */
  {
    size_t n = s->io.kept;
    if (s->dkind != DECODE_NONE) {
      rc = read_decoded(s, name, sink, ctx);
      if (fd == 0 && r->in_stream != NULL && s->io.eof) r->in_eof = 1;
      return rc;
    }
    rc = input__read_archive(s, name, n, s->status, sink, ctx);
    if (fd == 0 && r->in_stream != NULL && s->io.eof) r->in_eof = 1;
    if (rc != INPUT__NOT_ARCHIVE) return rc;
    /* Start again from the first byte; if the file cannot be read at
     * offsets, only that chunk was read, and it is still there. */
    io_source_rewind(&s->io, 0, s->seekable ? 0 : n);
  }
  s->mode = SRC_PLAIN;
  r->nfilters = 0;
  readahead(s);
  sink->begin(ctx, name);
  io_source_resume(&s->io);
  uv_run(&r->loop, UV_RUN_DEFAULT);
  if (fd == 0 && r->in_stream != NULL && s->io.eof) r->in_eof = 1;
  return s->status < 0 ? -1 : 0;
}

int input_filters(const input_reader *r, int *codes, int max) {
  int i;
  for (i = 0; i < r->nfilters && i < max; i++) codes[i] = r->filters[i];
  return r->nfilters;
}

int input_read(input_reader *r, const char *path, const input_sink *sink,
               void *ctx) {
  int rc = input_read_file(r, path, sink, ctx);
  if (rc == INPUT_IS_DIR) return input__walk(r, path, sink, ctx);
  return rc;
}

static int read_file(input_reader *r, const char *path, const input_sink *sink,
                     void *ctx) {
  source s;
  uv_fs_t req;
  uv_file fd;
  int rc;
  memset(&s, 0, sizeof s);
  s.r = r;
  s.sniff = 1;
  if (strcmp(path, "-") == 0) {
    rc = stdin_setup(r);
    if (rc != 0) {
      sink->fail(ctx, "<stdin>", input__errmsg(rc));
      return -1;
    }
    return read_source(&s, "<stdin>", sink, ctx, 0);
  }
  rc = uv_fs_open(&r->loop, &req, path, UV_FS_O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  if (rc == UV_EISDIR || (rc >= 0 && input__fd_is_dir(r, rc))) {
    if (rc >= 0) {
      uv_fs_close(&r->loop, &req, rc, NULL);
      uv_fs_req_cleanup(&req);
    }
    return INPUT_IS_DIR;
  }
  if (rc < 0) {
    sink->fail(ctx, path, input__errmsg(rc));
    return -1;
  }
  fd = rc;
  s.sniff = input__sgf_name(path) != INPUT__SGF_PLAIN;
  s.one_sgf = input__sgf_name(path) == INPUT__SGF_COMPRESSED;
  /* A regular file is read at offsets (libarchive may seek in it). */
  if (uv_fs_fstat(&r->loop, &req, fd, NULL) == 0 &&
      S_ISREG(req.statbuf.st_mode)) {
    s.seekable = 1;
    s.size = (int64_t)req.statbuf.st_size;
  }
  uv_fs_req_cleanup(&req);
  rc = read_source(&s, path, sink, ctx, fd);
  uv_fs_close(&r->loop, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
  return rc;
}

/* Every input goes through the UTF-16 check (transcode.c). */
int input_read_file(input_reader *r, const char *path, const input_sink *sink,
                    void *ctx) {
  input_xcode x;
  int rc;
  input__xcode_init(&x, sink, ctx);
  rc = read_file(r, path, &input__xcode_sink, &x);
  input__xcode_done(&x);
  return rc;
}

void input_reader_inline(input_reader *r) { r->io_flags = IO_SOURCE_INLINE; }
