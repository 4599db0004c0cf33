/* stream.c - a source of bytes on a libuv loop feeding one consumer, which
 * may pause it (see stream.h).
 *
 * Every chunk, whether a stream's read callback or a file's uv_fs_read
 * callback brought it, goes through feed(): the consumer is offered the
 * bytes, and what it leaves when it pauses stays where it lies in the
 * buffer (kept_at, kept). Nothing is read while bytes are kept, so the
 * buffer is never overwritten under them, and memory stays one buffer.
 * pump() issues the next read unless the source is paused, ended or has a
 * read in flight; reads done in place loop in pump() rather than recurse.
 */
#define _POSIX_C_SOURCE 200809L

#include "stream.h"

#include "progress.h"

#include <string.h>

static void finish(io_source *s, int status) {
  if (s->ended) return;
  s->ended = 1;
  if (s->stream != NULL) uv_read_stop(s->stream);
  s->ops->end(s->ctx, status);
}

/* Offer buf[at, at + n) to the consumer until it is used up or the
 * consumer pauses or stops. Returns nonzero if reading may go on. */
static int feed(io_source *s, size_t at, size_t n) {
  while (n > 0 && !s->ended) {
    size_t used = n;
    int rc;
    s->in_data = 1;
    s->resumed = 0;
    rc = s->ops->data(s->ctx, s->buf + at, n, &used);
    s->in_data = 0;
    if (rc == IO_STOP) {
      finish(s, 0);
      return 0;
    }
    if (rc != IO_PAUSE) used = n;
    if (used > n) used = n;
    at += used;
    n -= used;
    if (rc == IO_PAUSE && !s->resumed) {
      s->paused = 1;
      s->kept_at = at;
      s->kept = n;
      if (s->stream != NULL) uv_read_stop(s->stream);
      return 0;
    }
  }
  s->kept = 0;
  return !s->ended;
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b) {
  io_source *s = h->data;
  (void)suggested;
  /* Always the one buffer: reading stops whenever bytes are kept in it,
   * so nothing unread is ever overwritten. */
  *b = uv_buf_init(s->buf, (unsigned)s->cap);
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b) {
  io_source *s = st->data;
  (void)b;
  if (n == 0) return; /* would block: keep waiting */
  if (n < 0) {
    s->eof = n == UV_EOF;
    finish(s, s->eof ? 0 : (int)n);
    return;
  }
  s->reads++;
  s->bytes += n;
  progress_bytes((uint64_t)n);
  feed(s, 0, (size_t)n);
}

static void pump(io_source *s);
static void issue(io_source *s, char *into);

/* A file read came back with n bytes in buf: 0 at the end, < 0 an error.
 * With read-ahead, the next read goes into the other buffer before these
 * bytes are fed. Nonzero if the consumer took them all. */
static int file_got(io_source *s, char *buf, ssize_t n) {
  if (n <= 0) {
    s->eof = n == 0;
    finish(s, (int)n);
    return 0;
  }
  s->reads++;
  s->bytes += n;
  progress_bytes((uint64_t)n);
  if (s->pos >= 0) s->pos += n;
  s->buf = buf;
  if (s->ahead != NULL && !s->reading && !(s->size > 0 && s->pos >= s->size))
    issue(s, buf == s->ahead ? s->bufs : s->ahead);
  return feed(s, 0, (size_t)n);
}

/* The consumer took everything: go on with a read that came back while
 * it was paused, or wait for the one in flight, or start one. */
static void next(io_source *s) {
  while (s->held && !s->paused && !s->ended) {
    s->held = 0;
    if (!file_got(s, s->rbuf, s->held_n)) return;
  }
  if (!s->reading) pump(s);
}

static void on_fs_read(uv_fs_t *req) {
  io_source *s = req->data;
  ssize_t n = req->result;
  uv_fs_req_cleanup(req);
  s->reading = 0;
  if (s->paused) { /* a read ahead: keep it until resume */
    s->held = 1;
    s->held_n = n;
    return;
  }
  if (file_got(s, s->rbuf, n)) next(s);
}

static void issue(io_source *s, char *into) {
  uv_buf_t b = uv_buf_init(into, (unsigned)s->cap);
  s->req.data = s;
  s->reading = 1;
  s->rbuf = into;
  s->issued++;
  if (uv_fs_read(s->loop, &s->req, s->fd, &b, 1, s->pos, on_fs_read) < 0) {
    int e = (int)s->req.result;
    s->reading = 0;
    uv_fs_req_cleanup(&s->req);
    finish(s, e < 0 ? e : UV_EIO);
  }
}

static void pump(io_source *s) {
  while (!s->paused && !s->ended && !s->reading) {
    /* At the size fstat gave, read once more all the same: a file that
     * grew since is read to its real end, never cut at the old size. The
     * size only keeps read-ahead from issuing a read past it. */
    if (s->size > 0 && s->pos >= s->size) s->size = -1;
    if (s->stream != NULL) {
      int e = uv_read_start(s->stream, on_alloc, on_read);
      s->issued++;
      if (e != 0) finish(s, e);
      return;
    }
    if (s->flags & IO_SOURCE_INLINE) {
      uv_buf_t b = uv_buf_init(s->buf, (unsigned)s->cap);
      ssize_t n;
      s->issued++;
      uv_fs_read(s->loop, &s->req, s->fd, &b, 1, s->pos, NULL);
      n = s->req.result;
      uv_fs_req_cleanup(&s->req);
      if (!file_got(s, s->buf, n)) return;
      continue;
    }
    issue(s, s->buf);
    return;
  }
}

static void init(io_source *s, uv_loop_t *loop, char *buf, size_t cap,
                 const io_source_ops *ops, void *ctx) {
  memset(s, 0, sizeof *s);
  s->loop = loop;
  s->buf = buf;
  s->cap = cap;
  s->ops = ops;
  s->ctx = ctx;
  s->fd = -1;
  s->pos = -1;
  s->size = -1;
}

void io_source_stream(io_source *s, uv_loop_t *loop, uv_stream_t *st, char *buf,
                      size_t cap, const io_source_ops *ops, void *ctx) {
  init(s, loop, buf, cap, ops, ctx);
  s->stream = st;
  st->data = s;
}

void io_source_file(io_source *s, uv_loop_t *loop, uv_file fd, int64_t pos,
                    int flags, char *buf, size_t cap, const io_source_ops *ops,
                    void *ctx) {
  init(s, loop, buf, cap, ops, ctx);
  s->fd = fd;
  s->pos = pos;
  s->flags = flags;
}

int io_source_start(io_source *s) {
  if (s->stream != NULL) {
    int e = uv_read_start(s->stream, on_alloc, on_read);
    if (e != 0) s->ended = 1;
    return e;
  }
  pump(s);
  return 0;
}

void io_source_resume(io_source *s) {
  if (s->in_data) {
    s->resumed = 1; /* feed() goes on with the rest when data() returns */
    return;
  }
  if (!s->paused || s->ended) return;
  s->paused = 0;
  if (feed(s, s->kept_at, s->kept)) next(s);
}

void io_source_readahead(io_source *s, char *buf2) {
  if (s->stream != NULL || (s->flags & IO_SOURCE_INLINE) || s->ahead) return;
  s->bufs = s->buf;
  s->ahead = buf2;
}

int io_source_ended(const io_source *s) { return s->ended; }

void io_source_size(io_source *s, int64_t size) {
  s->size = size > 0 ? size : -1;
}

void io_source_rewind(io_source *s, int64_t pos, size_t keep) {
  s->ended = 0;
  s->eof = 0;
  s->held = 0;
  s->paused = 1;
  if (s->pos >= 0) s->pos = pos;
  s->kept_at = 0;
  s->kept = keep;
}
