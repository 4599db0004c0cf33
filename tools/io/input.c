/* input.c - files and standard input, read in chunks through libuv.
 *
 * Files are not streams: a file (or standard input redirected from one) is
 * read with synchronous uv_fs_read calls into the reader's one buffer. A
 * pipe or terminal on standard input is a stream: uv_read_start with an
 * allocator that hands out that same buffer, and the loop run until one
 * read has landed; the read callback stops reading at once, so the stream
 * is pulled one chunk at a time and never runs ahead of the consumer
 * (that is the backpressure). Archives are in archive.c.
 */
#define _POSIX_C_SOURCE 200809L

#include "input_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_BUFSIZE (256u * 1024u)

const char *input__errmsg(int err)
{
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

input_reader *input_reader_create(size_t bufsize)
{
  input_reader *r = calloc(1, sizeof *r);
  if (r == NULL)
    return NULL;
  r->rcap = bufsize ? bufsize : DEFAULT_BUFSIZE;
  if (r->rcap > (1u << 30))
    r->rcap = 1u << 30;
  r->rbuf = malloc(r->rcap);
  if (r->rbuf == NULL || uv_loop_init(&r->loop) != 0) {
    free(r->rbuf);
    free(r);
    return NULL;
  }
  return r;
}

void input_reader_destroy(input_reader *r)
{
  if (r == NULL)
    return;
  if (r->in_stream != NULL)
    uv_close((uv_handle_t *)r->in_stream, NULL);
  uv_run(&r->loop, UV_RUN_DEFAULT);
  uv_loop_close(&r->loop);
  free(r->rbuf);
  free(r->name);
  free(r);
}

/* ------------------------------------------------------------ stdin */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
  input_reader *r = h->data;
  (void)suggested;
  /* Always the reader's own buffer, and reading stops after one read:
   * there is nothing to free on any path, and no data is ever waiting in
   * a second buffer. */
  *b = uv_buf_init(r->want, (unsigned)r->want_cap);
}

static void on_read(uv_stream_t *st, ssize_t nread, const uv_buf_t *b)
{
  input_reader *r = st->data;
  (void)b;
  if (nread == 0)
    return; /* would block: not the end, keep waiting */
  uv_read_stop(st);
  r->got = nread; /* bytes, UV_EOF or an error */
  r->done = 1;
}

static ssize_t stream_read(input_reader *r, char *buf, size_t cap)
{
  int e;
  if (r->in_eof)
    return 0;
  r->want = buf;
  r->want_cap = cap;
  r->done = 0;
  e = uv_read_start(r->in_stream, on_alloc, on_read);
  if (e != 0)
    return e;
  while (!r->done) {
    uv_run(&r->loop, UV_RUN_ONCE);
    if (!r->done && !uv_is_active((uv_handle_t *)r->in_stream))
      return UV_EIO;
  }
  if (r->got == UV_EOF) {
    r->in_eof = 1;
    return 0;
  }
  return r->got;
}

/* Decide once how standard input is read. Returns 0 or a libuv error. */
static int stdin_setup(input_reader *r)
{
  int e;
  if (r->in_kind != IN_NONE)
    return r->in_kind == IN_BAD ? UV_EBADF : 0;
  r->in_kind = IN_BAD;
  switch (uv_guess_handle(0)) {
  case UV_FILE:
    r->in_kind = IN_FILE;
    return 0;
  case UV_NAMED_PIPE:
    e = uv_pipe_init(&r->loop, &r->in_pipe, 0);
    if (e != 0)
      return e;
    r->in_stream = (uv_stream_t *)&r->in_pipe;
    e = uv_pipe_open(&r->in_pipe, 0);
    r->in_kind = IN_PIPE;
    break;
  case UV_TTY:
    e = uv_tty_init(&r->loop, &r->in_tty, 0, 0);
    if (e != 0)
      return e;
    r->in_stream = (uv_stream_t *)&r->in_tty;
    r->in_kind = IN_TTY;
    break;
  default:
    return UV_EBADF;
  }
  r->in_stream->data = r;
  if (e != 0)
    r->in_kind = IN_BAD;
  return e;
}

/* ------------------------------------------------------------ reading */

ssize_t input__src_read(source *s, char *buf, size_t cap)
{
  ssize_t n;
  if (s->stream) {
    n = stream_read(s->r, buf, cap);
  } else {
    uv_fs_t req;
    uv_buf_t b = uv_buf_init(buf, (unsigned)cap);
    uv_fs_read(&s->r->loop, &req, s->fd, &b, 1, s->seekable ? s->pos : -1,
               NULL);
    n = req.result;
    uv_fs_req_cleanup(&req);
  }
  if (n > 0) {
    s->pos += n;
    s->reads++;
  }
  return n;
}

/* A plain SGF input whose first n bytes are in rbuf. */
static int read_plain(source *s, const char *name, ssize_t n,
                      const input_sink *sink, void *ctx)
{
  input_reader *r = s->r;
  const char *err = NULL;
  r->nfilters = 0;
  sink->begin(ctx, name);
  while (n > 0) {
    if (sink->data(ctx, r->rbuf, (size_t)n))
      break;
    n = input__src_read(s, r->rbuf, r->rcap);
  }
  if (n < 0)
    err = input__errmsg((int)n);
  sink->end(ctx, name, err);
  return err ? -1 : 0;
}

static int read_source(source *s, const char *name, const input_sink *sink,
                       void *ctx)
{
  input_reader *r = s->r;
  ssize_t n = input__src_read(s, r->rbuf, r->rcap);
  int rc, magic;
  if (n < 0) {
    sink->fail(ctx, name, input__errmsg((int)n));
    return -1;
  }
  magic = input__archive_magic((const unsigned char *)r->rbuf, (size_t)n);
  if (magic != INPUT__MAGIC_NONE) {
    rc = input__read_archive(s, name, (size_t)n, magic, sink, ctx);
    if (rc != INPUT__NOT_ARCHIVE)
      return rc;
    if (s->seekable) { /* start again from the first byte */
      s->pos = 0;
      n = input__src_read(s, r->rbuf, r->rcap);
    }
  }
  return read_plain(s, name, n, sink, ctx);
}

int input_filters(const input_reader *r, int *codes, int max)
{
  int i;
  for (i = 0; i < r->nfilters && i < max; i++)
    codes[i] = r->filters[i];
  return r->nfilters;
}

int input_read(input_reader *r, const char *path, const input_sink *sink,
               void *ctx)
{
  int rc = input_read_file(r, path, sink, ctx);
  if (rc == INPUT_IS_DIR)
    return input__walk(r, path, sink, ctx);
  return rc;
}

int input_read_file(input_reader *r, const char *path,
                    const input_sink *sink, void *ctx)
{
  source s;
  uv_fs_t req;
  int rc;
  memset(&s, 0, sizeof s);
  s.r = r;
  if (strcmp(path, "-") == 0) {
    rc = stdin_setup(r);
    if (rc != 0) {
      sink->fail(ctx, "<stdin>", input__errmsg(rc));
      return -1;
    }
    s.fd = 0;
    s.stream = r->in_kind != IN_FILE;
    return read_source(&s, "<stdin>", sink, ctx);
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
  s.fd = rc;
  s.named = 1;
  rc = read_source(&s, path, sink, ctx);
  uv_fs_close(&r->loop, &req, s.fd, NULL);
  uv_fs_req_cleanup(&req);
  return rc;
}
