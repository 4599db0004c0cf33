/* sink.h - where `sgf serve` puts complete games, and its quarantine.
 *
 * Kinds:
 *   SINK_STREAM  one file (or stdout), appended to: each game as SGF
 *                followed by a newline, or (SINK_JSONL) as one line of
 *                the `sgf json` schema. Written through libuv's pool in
 *                batches: every game that arrived while a write was in
 *                flight goes in the next one.
 *   SINK_DIR     one file per game in a directory, written under a
 *                temporary name, fsync'd and renamed, in libuv's pool, so
 *                that a crash never leaves half a game under a game's
 *                name; then the directory is fsync'd, so that the rename
 *                is on disk. The quarantine is such a directory.
 *
 * THE ACKNOWLEDGMENT CONTRACT. A game is acknowledged (its callback
 * called with 0) exactly when it is durably in the sink, never before,
 * and never reported failed when it is stored: for a directory, renamed
 * after the fsync and the directory fsync'd; for a stream to a regular
 * file, its batch written whole and fdatasync'd; for a pipe or terminal,
 * handed to the kernel by write(2). A file sink keeps whole records only:
 * a batch that fails part way (ENOSPC) is cut back (ftruncate) to where
 * it started, all its games reported failed; if that cut fails, the log
 * says so and the sink takes no more games (each is reported failed)
 * until SIGHUP reopens it. At open (and at SIGHUP's reopen), a last line
 * (JSON Lines) or game (SGF) without its end, left by a crash, is moved
 * to a file of the quarantine directory (logged) before anything is
 * appended. A directory's ".tmp-*" files left by a crash are removed at
 * start (logged). sink_put() returns 1
 * when the sink is behind (more than its high-water mark is waiting): the
 * caller pauses and calls sink_wait(); the waiter is resumed once the
 * backlog is under half the mark.
 */
#ifndef SGF_SERVE_SINK_H
#define SGF_SERVE_SINK_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include <sgfstream.h>

enum { SINK_STREAM, SINK_JSONL, SINK_DIR };

typedef void (*sink_cb)(void *ctx, int status, const char *name);

typedef struct sink_waiter {
  struct sink_waiter *next, *prev;
  void (*resume)(struct sink_waiter *w);
  int waiting;
} sink_waiter;

typedef struct sink sink;

typedef struct sink_opts {
  int kind;
  const char *path; /* file or directory; NULL for a stream: stdout */
  int fmt;          /* normalize games (sgf fmt) before storing */
  size_t high;      /* backlog high-water mark, bytes (0: 4 MiB) */
  const char *tag;  /* file name prefix for a directory */
  /* Shared by sinks on several loops (threads; both may be NULL):
   * total gets each change of this sink's backlog (the memory limit
   * counts every sink's), and a stream's batch is written under lock,
   * whole, so that sinks on one file (or stdout, a pipe) never
   * interleave their lines. */
  _Atomic size_t *total;
  uv_mutex_t *lock;
  /* A stream's file: where a partial last record found at open goes
   * (a directory, made if need be; NULL: "quarantine"). */
  const char *quarantine;
  /* A stream's file: acknowledge a batch once written (the kernel has
   * it: a crash of the server loses nothing, one of the machine may),
   * not once fdatasync'd (--no-fsync). */
  int no_sync;
  /* A directory: the most bytes it may hold (0: no cap), counted in
   * *used (shared by the shards' sinks on one directory; the first to
   * open it adds what the directory holds). See sink_reserve(). */
  uint64_t cap;
  _Atomic uint64_t *used;
} sink_opts;

/* NULL with *err set (a static or strerror string) on failure. */
sink *sink_create(uv_loop_t *loop, const sink_opts *opt, const char **err);
/* Store a game. name: where it came from (the peer), for JSON's source.
 * cb (may be NULL) is called from the loop when it is stored or failed.
 * Returns 0, or 1 when the sink is behind. */
int sink_put(sink *s, const char *buf, size_t len, const char *name, sink_cb cb,
             void *ctx);
/* A JSON Lines sink (not --fmt) converts a game from the events of the
 * parser that split it, not from its bytes: sink_events() lends a
 * converter for one game (NULL: store the bytes with sink_put()), with
 * its callbacks and size; sink_put_events() stores its line as
 * sink_put() would store the game; sink_events_done() takes it back. */
void *sink_events(sink *s, const char *name, const sgf_callbacks **ev,
                  size_t *bytes);
int sink_put_events(sink *s, void *conv, sink_cb cb, void *ctx);
void sink_events_done(sink *s, void *conv);
/* The bytes a lent converter holds now (it grows with its game). */
size_t sink_events_held(const void *conv);
/* A directory with a cap: room for len more bytes? Returns 0 (the bytes
 * are counted: sink_put() the game next) or -1 (over the cap: put
 * nothing). Always 0 without a cap. */
int sink_reserve(sink *s, size_t len);
int sink_behind(const sink *s);
void sink_wait(sink *s, sink_waiter *w);
void sink_unwait(sink *s, sink_waiter *w);
/* SIGHUP: reopen the stream's file (a directory needs nothing). */
int sink_reopen(sink *s);
/* Bytes waiting or in flight. */
size_t sink_backlog(const sink *s);
/* Games and bytes stored so far, and failures. */
uint64_t sink_games(const sink *s);
uint64_t sink_bytes(const sink *s);
uint64_t sink_failures(const sink *s);
/* Nothing waiting or in flight? */
int sink_idle(const sink *s);
void sink_destroy(sink *s);

#endif /* SGF_SERVE_SINK_H */
