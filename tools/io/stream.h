/* stream.h - one source of bytes on a libuv loop, feeding one consumer,
 * with backpressure: the consumer may pause, and then no more is read
 * until it resumes.
 *
 * A source reads into one buffer it is given (never more than that is
 * read ahead of the consumer, or two buffers with io_source_readahead())
 * and hands each chunk to data(). data() says how much it used:
 *
 *   IO_GO     all of it; the next read is issued
 *   IO_PAUSE  *used bytes; the rest is kept, and reading stops: for a
 *             stream uv_read_stop(), for a file no next uv_fs_read. After
 *             io_source_resume() the kept bytes are fed first (from
 *             where they lie, no copy), then reading starts again
 *   IO_STOP   the consumer wants no more: the source ends (end() is
 *             called with 0) without reading further
 *
 * which maps onto the parser's own pause: sgf_parser_feed() returning
 * SGF_PAUSED with *consumed is IO_PAUSE with *used = consumed, and the
 * consumer calls sgf_parser_resume() and io_source_resume() together.
 *
 * Kinds, decided by the caller (uv_guess_handle() for standard input):
 *   a stream   any uv_stream_t: a pipe, a terminal, a TCP socket. Read with
 *              uv_read_start(); nothing here knows which kind it is.
 *   a file     a uv_file, read with uv_fs_read() at a running offset (or
 *              at the current position, for a file that is not
 *              seekable), with a callback: the read runs in libuv's
 *              thread pool and the loop stays free.
 *   a file, in place (IO_SOURCE_INLINE): the same, with the uv_fs_read()
 *              done on the loop's own thread (no callback). For readers
 *              that already are on a pool thread (jobs.c, ranges.c): a
 *              task in the pool that waited for another task of the pool
 *              could wait for ever once every thread is such a task.
 * Both kinds deliver in the same way, through the same code.
 *
 * end(ctx, status) is called once, from the loop: status 0 at the end of
 * the input or after IO_STOP, else a libuv error (UV_E*). Nothing is
 * called after it; the source holds no resources of its own then (a
 * stream handle is the caller's to close).
 *
 * io_source_resume() may be called from any callback of the loop's thread,
 * also from within data() (then data() is called again with the rest as
 * soon as it returns). Not thread-safe: one loop, one thread.
 */
#ifndef SGF_TOOLS_STREAM_H
#define SGF_TOOLS_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

enum { IO_GO = 0, IO_PAUSE, IO_STOP };

typedef struct io_source_ops {
  int (*data)(void *ctx, const char *buf, size_t len, size_t *used);
  void (*end)(void *ctx, int status);
} io_source_ops;

#define IO_SOURCE_INLINE 1 /* io_source_file(): read on the loop's thread */

typedef struct io_source {
  uv_loop_t *loop;
  const io_source_ops *ops;
  void *ctx;
  char *buf;
  size_t cap;
  /* what is kept: buf[kept_at, kept_at + kept) */
  size_t kept_at, kept;
  uv_stream_t *stream; /* a stream, or NULL for a file */
  uv_file fd;
  int64_t pos; /* next offset of a file; -1: current position */
  int flags;
  int paused, reading, ended, in_data, resumed;
  int eof;     /* the end of the input was read */
  long issued; /* reads asked for (uv_read_start for a stream) */
  /* read-ahead (io_source_readahead()): the two buffers, where the read
   * in flight lands, and a read that came back while paused */
  char *bufs, *ahead, *rbuf;
  int held;
  ssize_t held_n;
  long reads;    /* reads that gave bytes */
  int64_t bytes; /* bytes read so far */
  int64_t size;  /* a file's size when known (> 0), else -1 */
  uv_fs_t req;
} io_source;

/* Bind s to a stream or a file; buf (cap bytes) is where every read lands
 * and must outlive s. pos: the offset of the first read of a file, or -1
 * to read at the file's current position. Nothing is read before
 * io_source_start(). */
void io_source_stream(io_source *s, uv_loop_t *loop, uv_stream_t *st, char *buf,
                      size_t cap, const io_source_ops *ops, void *ctx);
void io_source_file(io_source *s, uv_loop_t *loop, uv_file fd, int64_t pos,
                    int flags, char *buf, size_t cap, const io_source_ops *ops,
                    void *ctx);

/* The file is size bytes long (its fstat): read-ahead issues no read past
 * it. The file is still read until a read returns 0, so one that grew
 * since its fstat is read whole. A size of 0 says nothing (files in /proc
 * are read to their end). */
void io_source_size(io_source *s, int64_t size);

/* Start reading (bytes already kept, see input.c, are fed first on
 * resume). Returns 0, or a libuv error from uv_read_start (end() is not
 * called then). */
int io_source_start(io_source *s);

/* After data() returned IO_PAUSE: feed the kept bytes, then read on. */
void io_source_resume(io_source *s);

/* For a pull on top of a source (archive.c), between reads (paused or
 * ended, no read in flight): the next read is at pos (a file read at
 * offsets), and buf[0, keep) is fed before it, on resume. The source is
 * paused and no longer ended after it. */
void io_source_rewind(io_source *s, int64_t pos, size_t keep);

/* Read ahead, for a file read with callbacks: each read is issued into
 * the other buffer (buf2, cap bytes, which must outlive s) before the
 * bytes of the one before are fed, so the consumer works while the pool
 * reads. A consumer that pauses then has at most one more buffer read
 * past the kept bytes: that read is held, not fed, and no other is
 * issued until resume. Not for archives' pulls (io_source_rewind()).
 * May be called from data(). */
void io_source_readahead(io_source *s, char *buf2);

/* Has end() been called? */
int io_source_ended(const io_source *s);

#endif /* SGF_TOOLS_STREAM_H */
