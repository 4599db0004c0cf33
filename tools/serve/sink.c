/* sink.c - storing complete games (sink.h). */
#define _POSIX_C_SOURCE 200809L

#include "sink.h"

#include "bytebuf.h"
#include "json_conv.h"
#include "log.h"
#include "normalize.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_HIGH (4u << 20)
#define IDLE_CONV_MAX 256           /* converters kept for the next games */
#define IDLE_CONV_KEEP (256u << 10) /* a larger one is not kept */
/* What a game waiting to be written holds besides its bytes, counted in
 * the backlog (--max-memory; tiny games are mostly this): its ack
 * record here, the caller's record and acknowledgement line. */
#define GAME_COST 128

/* Games' file names are numbered in the process, not per sink: the
 * shards' sinks (and quarantines) share directories. */
static atomic_uint_fast64_t dir_seq;

typedef struct ack {
  sink_cb cb;
  void *ctx;
} ack;

/* A directory's game, written in the pool. */
typedef struct dirjob {
  uv_work_t req;
  sink *s;
  char *data;
  size_t len;
  sink_cb cb;
  void *ctx;
  int err;      /* errno */
  int sync_err; /* errno of the directory's fsync, the game left stored */
  char name[96];
} dirjob;

struct sink {
  uv_loop_t *loop;
  sink_opts opt;
  char *path;
  int fd; /* stream */
  int own_fd;
  /* stream: what waits for the next write, and the write in flight */
  bytebuf pend, infl;
  bytebuf pend_acks, infl_acks; /* ack[] */
  int writing;
  uv_work_t req;
  int wfd;          /* the write's file (SIGHUP may change fd meanwhile) */
  ssize_t wresult;  /* bytes written, or -errno */
  size_t published; /* the backlog last added to opt.total */
  /* directory */
  size_t dir_bytes, dir_jobs; /* in flight */
  int old_fd; /* a stream's file before SIGHUP, closed after its write */
  char stamp[32];
  uint64_t games, bytes, failures;
  sink_waiter waiters; /* list head */
  json_conv *json;
  sgf_callbacks json_ev; /* json_conv_callbacks() */
  json_conv **idle_conv; /* converters lent and given back */
  size_t nidle, idle_cap;
  size_t idle_bytes; /* what the idle converters hold */
  normalizer *norm;
  bytebuf scratch;
};

static int open_stream(sink *s, const char **err) {
  int fd;
  if (s->path == NULL) {
    s->fd = 1;
    return 0;
  }
  fd = open(s->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = strerror(errno);
    return -1;
  }
  s->fd = fd;
  s->own_fd = 1;
  return 0;
}

/* A JSON converter for --jsonl: full lines, quiet, into s->pend. */
static json_conv *conv_new(sink *s) {
  json_options jo;
  const char *error;
  json_options_init(&jo);
  jo.to = &s->pend;
  jo.quiet = 1;
  return json_conv_create(&jo, &error);
}

sink *sink_create(uv_loop_t *loop, const sink_opts *opt, const char **err) {
  sink *s = calloc(1, sizeof *s);
  struct tm tm;
  time_t now = time(NULL);
  *err = "out of memory";
  if (s == NULL) return NULL;
  s->loop = loop;
  s->opt = *opt;
  if (s->opt.high == 0) s->opt.high = DEFAULT_HIGH;
  s->path = opt->path ? strdup(opt->path) : NULL;
  s->waiters.next = s->waiters.prev = &s->waiters;
  gmtime_r(&now, &tm);
  strftime(s->stamp, sizeof s->stamp, "%Y%m%dT%H%M%S", &tm);
  if (opt->kind == SINK_DIR) {
    if (s->path == NULL || (mkdir(s->path, 0755) != 0 && errno != EEXIST)) {
      *err = s->path ? strerror(errno) : "no directory";
      goto fail;
    }
  } else if (open_stream(s, err) != 0) {
    goto fail;
  }
  if (opt->kind == SINK_JSONL) {
    if ((s->json = conv_new(s)) == NULL) goto fail;
    json_conv_callbacks(s->json, &s->json_ev);
  }
  if (opt->fmt && (s->norm = normalizer_create()) == NULL) goto fail;
  return s;
fail:
  sink_destroy(s);
  return NULL;
}

/* ------------------------------------------------------------ waiters */

int sink_behind(const sink *s) { return sink_backlog(s) > s->opt.high; }

void sink_wait(sink *s, sink_waiter *w) {
  if (w->waiting) return;
  w->waiting = 1;
  w->prev = s->waiters.prev;
  w->next = &s->waiters;
  s->waiters.prev->next = w;
  s->waiters.prev = w;
}

void sink_unwait(sink *s, sink_waiter *w) {
  (void)s;
  if (!w->waiting) return;
  w->prev->next = w->next;
  w->next->prev = w->prev;
  w->waiting = 0;
}

/* Resume the waiters once the backlog is down to half the mark. A waiter
 * resumed may put more games (and pause again): take them one at a time
 * off the list. One waiting for something else the sink's writes bring
 * down (HTTP over --max-memory) may wait again at once: each waiter of
 * the list as it was is resumed once at most, not round and round. */
static void wake(sink *s) {
  size_t n = 0;
  sink_waiter *w;
  for (w = s->waiters.next; w != &s->waiters; w = w->next) n++;
  while (n-- > 0 && s->waiters.next != &s->waiters &&
         sink_backlog(s) <= s->opt.high / 2) {
    w = s->waiters.next;
    sink_unwait(s, w);
    w->resume(w);
  }
}

/* ------------------------------------------------------------ stream */

static void write_more(sink *s);

/* The backlog changed: tell opt.total. */
static void publish(sink *s) {
  size_t now = sink_backlog(s) + s->idle_bytes;
  if (s->opt.total == NULL || now == s->published) return;
  if (now > s->published)
    atomic_fetch_add(s->opt.total, now - s->published);
  else
    atomic_fetch_sub(s->opt.total, s->published - now);
  s->published = now;
}

/* In the pool: the batch, whole, under the lock. */
static void write_work(uv_work_t *req) {
  sink *s = req->data;
  size_t off = 0;
  if (s->opt.lock) uv_mutex_lock(s->opt.lock);
  while (off < s->infl.len) {
    ssize_t n = write(s->wfd, s->infl.p + off, s->infl.len - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      s->wresult = -errno;
      break;
    }
    off += (size_t)n;
    s->wresult = (ssize_t)off;
  }
  if (s->opt.lock) uv_mutex_unlock(s->opt.lock);
}

static void wrote(uv_work_t *req, int status) {
  sink *s = req->data;
  ssize_t n = status < 0 ? status : s->wresult;
  size_t i, nacks;
  ack *a;
  if (n < 0) {
    slog("sink: write failed: %s", uv_strerror((int)n));
    s->failures += s->infl_acks.len / sizeof(ack);
  } else {
    s->bytes += s->infl.len;
    s->games += s->infl_acks.len / sizeof(ack);
  }
  s->writing = 0;
  if (s->old_fd > 0) close(s->old_fd);
  s->old_fd = 0;
  a = (ack *)s->infl_acks.p;
  nacks = s->infl_acks.len / sizeof(ack);
  s->infl.len = 0;
  s->infl_acks.len = 0;
  publish(s); /* before the callbacks: they check the memory limit */
  for (i = 0; i < nacks; i++)
    if (a[i].cb) a[i].cb(a[i].ctx, n < 0 ? (int)n : 0, NULL);
  if (!s->writing) { /* a burst's buffers are not kept (a callback may
                      * have started the next write with them) */
    if (s->infl.cap > s->opt.high) bytebuf_free(&s->infl);
    if (s->infl_acks.cap > s->opt.high / 16) bytebuf_free(&s->infl_acks);
  }
  if (s->pend.len > 0) write_more(s);
  wake(s);
}

static void write_more(sink *s) {
  bytebuf t = s->infl;
  int rc;
  s->infl = s->pend;
  s->pend = t;
  t = s->infl_acks;
  s->infl_acks = s->pend_acks;
  s->pend_acks = t;
  s->writing = 1;
  s->wfd = s->fd;
  s->wresult = 0;
  s->req.data = s;
  rc = uv_queue_work(s->loop, &s->req, write_work, wrote);
  if (rc < 0) wrote(&s->req, rc);
}

/* A game's line or bytes were added to pend (ok), or could not be. */
static int queued(sink *s, int ok, sink_cb cb, void *ctx) {
  ack a;
  if (!ok) {
    publish(s);
    if (cb) cb(ctx, UV_ENOMEM, NULL);
    return sink_behind(s);
  }
  a.cb = cb;
  a.ctx = ctx;
  bytebuf_add(&s->pend_acks, &a, sizeof a);
  if (!s->writing) write_more(s);
  publish(s);
  return sink_behind(s);
}

static int stream_put(sink *s, const char *buf, size_t len, const char *name,
                      sink_cb cb, void *ctx) {
  if (s->json)
    return queued(s, json_conv_game(s->json, name, buf, len) == 0, cb, ctx);
  bytebuf_add(&s->pend, buf, len);
  bytebuf_add(&s->pend, "\n", 1);
  return queued(s, 1, cb, ctx);
}

/* ------------------------------------------------------------ events */

void *sink_events(sink *s, const char *name, const sgf_callbacks **ev,
                  size_t *bytes) {
  json_conv *c;
  if (s->json == NULL || s->norm != NULL) return NULL;
  if (s->nidle > 0) {
    c = s->idle_conv[--s->nidle];
    s->idle_bytes -= json_conv_held(c); /* counted lent, by the caller */
  } else if ((c = conv_new(s)) == NULL) {
    return NULL;
  }
  json_conv_start(c, name);
  *ev = &s->json_ev;
  *bytes = json_conv_size();
  return c;
}

size_t sink_events_held(const void *conv) { return json_conv_held(conv); }

void sink_events_done(sink *s, void *conv) {
  size_t held = json_conv_held(conv);
  if (s->nidle == IDLE_CONV_MAX || held > IDLE_CONV_KEEP) {
    json_conv_destroy(conv);
    return;
  }
  if (s->nidle == s->idle_cap) {
    size_t cap = s->idle_cap ? 2 * s->idle_cap : 16;
    json_conv **v = realloc(s->idle_conv, cap * sizeof *v);
    if (v == NULL) {
      json_conv_destroy(conv);
      return;
    }
    s->idle_conv = v;
    s->idle_cap = cap;
  }
  s->idle_conv[s->nidle++] = conv;
  s->idle_bytes += held;
  publish(s);
}

int sink_put_events(sink *s, void *conv, sink_cb cb, void *ctx) {
  return queued(s, json_conv_take(conv) == 0, cb, ctx);
}

/* ------------------------------------------------------------ directory */

static void dir_work(uv_work_t *req) {
  dirjob *j = req->data;
  char tmp[4200], dst[4200];
  size_t off = 0;
  int fd;
  snprintf(tmp, sizeof tmp, "%s/.tmp-%s", j->s->path, j->name);
  snprintf(dst, sizeof dst, "%s/%s", j->s->path, j->name);
  fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    j->err = errno;
    return;
  }
  while (off < j->len) {
    ssize_t n = write(fd, j->data + off, j->len - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    off += (size_t)n;
  }
  if (off < j->len || fsync(fd) != 0) j->err = errno ? errno : EIO;
  if (close(fd) != 0 && j->err == 0) j->err = errno;
  if (j->err == 0 && rename(tmp, dst) != 0) j->err = errno;
  if (j->err != 0) {
    unlink(tmp);
    return;
  }
  /* the rename is durable once the directory is: an acknowledged game
   * must survive a power loss too */
  fd = open(j->s->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 || fsync(fd) != 0) j->err = errno ? errno : EIO;
  if (fd >= 0) close(fd);
  /* The game is in the directory, but not known durable: reported as
   * failed, a client sends it again, so take it out, that it is stored
   * once. If it cannot be taken out, it is stored: say so (stored, with
   * the directory's error logged), not "failed". */
  if (j->err != 0 && unlink(dst) != 0) {
    j->sync_err = j->err;
    j->err = 0;
  }
}

static void dir_done(uv_work_t *req, int status) {
  dirjob *j = req->data;
  sink *s = j->s;
  int err = status < 0 ? status : j->err ? uv_translate_sys_error(j->err) : 0;
  s->dir_bytes -= j->len;
  s->dir_jobs--;
  publish(s);
  if (j->sync_err != 0)
    slog("sink: %s: fsync: %s: %s is stored, and may not survive a crash",
         s->path, strerror(j->sync_err), j->name);
  if (err == 0) {
    s->games++;
    s->bytes += j->len;
  } else {
    s->failures++;
    slog("sink: %s/%s: %s: not stored", s->path, j->name, uv_strerror(err));
  }
  if (j->cb) j->cb(j->ctx, err, j->name);
  free(j->data);
  free(j);
  wake(s);
}

static int dir_put(sink *s, const char *buf, size_t len, sink_cb cb,
                   void *ctx) {
  dirjob *j = calloc(1, sizeof *j);
  if (j == NULL || (j->data = malloc(len ? len : 1)) == NULL) {
    free(j);
    if (cb) cb(ctx, UV_ENOMEM, NULL);
    return sink_behind(s);
  }
  memcpy(j->data, buf, len);
  j->len = len;
  j->s = s;
  j->cb = cb;
  j->ctx = ctx;
  snprintf(j->name, sizeof j->name, "%s%s-%ld-%06" PRIu64 ".sgf",
           s->opt.tag ? s->opt.tag : "", s->stamp, (long)getpid(),
           (uint64_t)atomic_fetch_add(&dir_seq, 1) + 1);
  j->req.data = j;
  s->dir_bytes += len;
  s->dir_jobs++;
  publish(s);
  uv_queue_work(s->loop, &j->req, dir_work, dir_done);
  return sink_behind(s);
}

/* ------------------------------------------------------------ common */

int sink_put(sink *s, const char *buf, size_t len, const char *name, sink_cb cb,
             void *ctx) {
  if (s->norm) {
    s->scratch.len = 0;
    if (normalize_game(s->norm, buf, len, &s->scratch) == 0) {
      buf = s->scratch.p;
      len = s->scratch.len;
    }
  }
  if (s->opt.kind == SINK_DIR) return dir_put(s, buf, len, cb, ctx);
  return stream_put(s, buf, len, name, cb, ctx);
}

int sink_reopen(sink *s) {
  const char *err;
  int old = s->fd;
  if (s->opt.kind == SINK_DIR || !s->own_fd) return 0;
  if (open_stream(s, &err) != 0) {
    slog("sink: reopen %s: %s", s->path, err);
    s->fd = old;
    return -1;
  }
  /* a write in flight still uses old: closed when it is done */
  if (s->writing)
    s->old_fd = old;
  else
    close(old);
  return 0;
}

size_t sink_backlog(const sink *s) {
  return s->pend.len + s->infl.len + s->dir_bytes +
         (s->pend_acks.len + s->infl_acks.len) / sizeof(ack) * GAME_COST +
         s->dir_jobs * (sizeof(dirjob) + GAME_COST);
}

uint64_t sink_games(const sink *s) { return s->games; }
uint64_t sink_bytes(const sink *s) { return s->bytes; }
uint64_t sink_failures(const sink *s) { return s->failures; }

int sink_idle(const sink *s) {
  return !s->writing && s->pend.len == 0 && s->dir_jobs == 0;
}

void sink_destroy(sink *s) {
  if (s == NULL) return;
  if (s->opt.total) atomic_fetch_sub(s->opt.total, s->published);
  if (s->own_fd) close(s->fd);
  json_conv_destroy(s->json);
  while (s->nidle > 0) json_conv_destroy(s->idle_conv[--s->nidle]);
  free(s->idle_conv);
  normalizer_destroy(s->norm);
  bytebuf_free(&s->pend);
  bytebuf_free(&s->infl);
  bytebuf_free(&s->pend_acks);
  bytebuf_free(&s->infl_acks);
  bytebuf_free(&s->scratch);
  free(s->path);
  free(s);
}
