/* sink.c - storing complete games (sink.h). */
#define _POSIX_C_SOURCE 200809L

#include "sink.h"

#include "bytebuf.h"
#include "json_conv.h"
#include "log.h"
#include "normalize.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
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
  int regular;  /* fd is a regular file: cut back and fdatasync'd */
  int wregular; /* the write's file's */
  int broken;   /* a failed batch could not be cut back: errno */
  int wtrunc;   /* the write's cut back failed: errno */
  int wsync;    /* the write's fdatasync failed, the cut back too: errno */
  off_t wstart; /* where the write's batch began */
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

/* ------------------------------------------------------------ repair
 * A stream's file may end in a partial record (a crash in a write): at
 * open, what follows its last whole record is moved to the quarantine
 * directory, so that the next game appended is whole. JSON Lines: a
 * record ends at its newline. SGF: at a game's top-level ')' (the
 * file is skimmed with the parser, each game skipped), and the newline
 * after it, if there. */

typedef struct skim {
  int fd;
  const char *chunk; /* being fed, from byte base */
  off_t base;
  size_t len;
  int ending; /* in sgf_parser_finish(): trees closed there have no ')' */
  off_t end;  /* just after the last whole game's ')' */
} skim;

static int skim_begin(sgf_parser *p, void *u) {
  (void)u;
  return sgf_parser_depth(p) == 1 ? SGF_SKIP : SGF_CONTINUE;
}

static int skim_end(sgf_parser *p, void *u) {
  skim *k = u;
  off_t at = (off_t)sgf_parser_position(p).offset;
  char c = 0;
  if (k->ending || sgf_parser_depth(p) != 1) return SGF_CONTINUE;
  if (at >= k->base && at < k->base + (off_t)k->len)
    c = k->chunk[at - k->base];
  else if (pread(k->fd, &c, 1, at) != 1)
    c = 0;
  if (c == ')') k->end = at + 1;
  return SGF_CONTINUE;
}

/* Just after the last whole record of fd (size bytes, path), or -1
 * (errno). */
static off_t whole_end(int fd, off_t size, int jsonl, const char *path) {
  char *buf = malloc(1 << 20);
  off_t end = -1;
  if (buf == NULL) return -1;
  if (jsonl) {
    off_t at = size;
    end = 0;
    while (at > 0) {
      size_t n = at > (1 << 20) ? (1 << 20) : (size_t)at;
      ssize_t got = pread(fd, buf, n, at - (off_t)n);
      size_t i = n;
      if (got != (ssize_t)n) {
        end = -1;
        break;
      }
      while (i > 0 && buf[i - 1] != '\n') i--;
      if (i > 0) {
        end = at - (off_t)n + (off_t)i;
        break;
      }
      at -= (off_t)n;
    }
  } else {
    sgf_callbacks cb;
    sgf_parser *p;
    skim k;
    memset(&k, 0, sizeof k);
    k.fd = fd;
    sgf_callbacks_init(&cb);
    cb.on_tree_begin = skim_begin;
    cb.on_tree_end = skim_end;
    if ((p = sgf_parser_create(&cb, &k, NULL)) != NULL) {
      int rc = SGF_OK;
      while (k.base < size && rc == SGF_OK) {
        ssize_t got = pread(fd, buf, 1 << 20, k.base);
        size_t used;
        if (got <= 0) break;
        k.chunk = buf;
        k.len = (size_t)got;
        rc = sgf_parser_feed(p, buf, k.len, &used);
        k.base += got;
      }
      k.ending = 1;
      if (rc == SGF_OK) sgf_parser_finish(p);
      sgf_parser_destroy(p);
      if (rc < 0) {
        /* not a file of games this server wrote (a fatal error: too
         * deep, UTF-16...): left as it is, said */
        slog(
            "sink: %s: a fatal parse error (%s) before byte %lld stops the "
            "check for a partial last game: not checked",
            path, sgf_err_name(rc), (long long)k.base);
        end = size;
      } else if (k.base >= size) {
        end = k.end;
        /* the record's newline, if it is there */
        if (end < size && pread(fd, buf, 1, end) == 1 && buf[0] == '\n') end++;
      }
    }
  }
  free(buf);
  return end;
}

/* Bytes [from, size) of fd into a new file of dir. 0 or -1 (errno). */
static int set_aside(int fd, off_t from, off_t size, const char *dir,
                     const char *stamp, const char *name, char *out,
                     size_t cap) {
  char buf[65536];
  int q, e = 0;
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) return -1;
  snprintf(out, cap, "%s/tail-%s-%ld-%s.part", dir, stamp, (long)getpid(),
           name);
  q = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (q < 0) return -1;
  while (from < size && e == 0) {
    size_t n =
        size - from > (off_t)sizeof buf ? sizeof buf : (size_t)(size - from);
    ssize_t got = pread(fd, buf, n, from), off = 0;
    if (got <= 0) e = got < 0 ? errno : EIO;
    while (e == 0 && off < got) {
      ssize_t w = write(q, buf + off, (size_t)(got - off));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0)
        e = errno;
      else
        off += w;
    }
    from += got > 0 ? got : 0;
  }
  if (e == 0 && fsync(q) != 0) e = errno;
  if (close(q) != 0 && e == 0) e = errno;
  if (e != 0) {
    unlink(out);
    errno = e;
    return -1;
  }
  return 0;
}

/* The repair (above) of a regular file's tail (fd: open for writing).
 * 0, or -1 with *err. */
static int repair(sink *s, int fd, const char **err) {
  static char msg[256];
  struct stat st;
  off_t end;
  char qfile[4200];
  const char *base = strrchr(s->path, '/');
  int rfd, cut = 0;
  base = base ? base + 1 : s->path;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return 0;
  if ((rfd = open(s->path, O_RDONLY | O_CLOEXEC)) < 0) {
    snprintf(msg, sizeof msg, "cannot read it: %s", strerror(errno));
    *err = msg;
    return -1;
  }
  end = whole_end(rfd, st.st_size, s->opt.kind == SINK_JSONL, s->path);
  if (end >= 0 && end < st.st_size &&
      set_aside(rfd, end, st.st_size,
                s->opt.quarantine ? s->opt.quarantine : "quarantine", s->stamp,
                base, qfile, sizeof qfile) != 0)
    cut = -1;
  close(rfd);
  if (end == -1) {
    snprintf(msg, sizeof msg, "cannot read it to its last record: %s",
             strerror(errno));
    *err = msg;
    return -1;
  }
  if (end == st.st_size) return 0;
  if (cut != 0 || ftruncate(fd, end) != 0 || fdatasync(fd) != 0) {
    snprintf(msg, sizeof msg,
             "cannot set its partial last record aside (from byte %lld): %s",
             (long long)end, strerror(errno));
    *err = msg;
    return -1;
  }
  slog(
      "sink: %s: %lld bytes from byte %lld are not a whole record (a crash "
      "in a write?): moved to %s",
      s->path, (long long)(st.st_size - end), (long long)end, qfile);
  return 0;
}

static int open_stream(sink *s, const char **err) {
  struct stat st;
  int fd, rc = 0;
  if (s->path == NULL) {
    s->fd = 1;
    s->regular = fstat(1, &st) == 0 && S_ISREG(st.st_mode);
    return 0;
  }
  fd = open(s->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) {
    *err = strerror(errno);
    return -1;
  }
  s->regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (s->regular) {
    /* under the lock: another shard may be writing to it (SIGHUP) */
    if (s->opt.lock) uv_mutex_lock(s->opt.lock);
    rc = repair(s, fd, err);
    if (s->opt.lock) uv_mutex_unlock(s->opt.lock);
  }
  if (rc != 0) {
    close(fd);
    return -1;
  }
  s->fd = fd;
  s->own_fd = 1;
  return 0;
}

static int dir_scan(sink *s, const char **err);

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
    if (dir_scan(s, err) != 0) goto fail;
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

/* In the pool: the batch, whole, under the lock. A regular file's batch
 * is fdatasync'd; one that fails part way is cut back to where it
 * began, so that the file holds whole records only (THE ACKNOWLEDGMENT
 * CONTRACT, sink.h). */
static void write_work(uv_work_t *req) {
  sink *s = req->data;
  size_t off = 0;
  if (s->opt.lock) uv_mutex_lock(s->opt.lock);
  s->wstart = s->wregular ? lseek(s->wfd, 0, SEEK_END) : 0;
  if (s->wstart < 0) s->wresult = -errno;
  while (s->wresult >= 0 && off < s->infl.len) {
    ssize_t n = write(s->wfd, s->infl.p + off, s->infl.len - off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      s->wresult = -errno;
      break;
    }
    off += (size_t)n;
    s->wresult = (ssize_t)off;
  }
  if (s->wresult >= 0 && s->wregular && !s->opt.no_sync &&
      fdatasync(s->wfd) != 0) {
    int e = errno;
    /* not known durable: taken out and reported failed, that a client
     * sending it again stores it once; if it cannot be taken out, it
     * is stored (said in the log) */
    if (ftruncate(s->wfd, s->wstart) == 0)
      s->wresult = -e;
    else
      s->wsync = e;
  } else if (s->wresult < 0 && s->wregular && s->wstart >= 0 && off > 0 &&
             ftruncate(s->wfd, s->wstart) != 0) {
    s->wtrunc = errno;
  }
  if (s->opt.lock) uv_mutex_unlock(s->opt.lock);
}

static const char *path_of(const sink *s) {
  return s->path ? s->path : "stdout";
}

static void wrote(uv_work_t *req, int status) {
  sink *s = req->data;
  ssize_t n = status < 0 ? status : s->wresult;
  size_t i, nacks;
  bytebuf done;
  ack *a;
  if (n < 0) {
    slog("sink: %s: write failed: %s: %zu games not stored%s", path_of(s),
         uv_strerror((int)n), s->infl_acks.len / sizeof(ack),
         s->wregular && s->wtrunc == 0 ? " (nothing of them kept)" : "");
    s->failures += s->infl_acks.len / sizeof(ack);
  } else {
    s->bytes += s->infl.len;
    s->games += s->infl_acks.len / sizeof(ack);
  }
  if (s->wsync)
    slog(
        "sink: %s: fdatasync: %s: %zu games are stored, and may not survive "
        "a crash",
        path_of(s), strerror(s->wsync), s->infl_acks.len / sizeof(ack));
  if (s->wtrunc) {
    slog(
        "sink: %s: cannot cut the failed write back to byte %lld: %s: the "
        "file ends in a partial record; no more games are taken for it "
        "(SIGHUP reopens it)",
        path_of(s), (long long)s->wstart, strerror(s->wtrunc));
    s->broken = s->wtrunc;
  }
  s->wtrunc = s->wsync = 0;
  s->writing = 0;
  if (s->old_fd > 0) close(s->old_fd);
  s->old_fd = 0;
  /* The acks are taken out of the sink before their callbacks run: a
   * callback may store the next game and so start the next write, which
   * swaps the buffers and appends to the one the acks were in. */
  done = s->infl_acks;
  memset(&s->infl_acks, 0, sizeof s->infl_acks);
  a = (ack *)done.p;
  nacks = done.len / sizeof(ack);
  s->infl.len = 0;
  publish(s); /* before the callbacks: they check the memory limit */
  for (i = 0; i < nacks; i++)
    if (a[i].cb) a[i].cb(a[i].ctx, n < 0 ? (int)n : 0, NULL);
  /* the ack buffer back for reuse, unless a burst grew it (or a write
   * started by a callback took the empty one) */
  if (s->infl_acks.p == NULL && done.cap <= s->opt.high / 16) {
    done.len = 0;
    s->infl_acks = done;
  } else {
    bytebuf_free(&done);
  }
  if (!s->writing && s->infl.cap > s->opt.high) bytebuf_free(&s->infl);
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
  s->wregular = s->regular;
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

/* A stream whose failed write could not be cut back takes no game. */
static int refused(sink *s, sink_cb cb, void *ctx) {
  s->failures++;
  if (cb) cb(ctx, uv_translate_sys_error(s->broken), NULL);
  return sink_behind(s);
}

int sink_put_events(sink *s, void *conv, sink_cb cb, void *ctx) {
  if (s->broken) return refused(s, cb, ctx);
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
    if (s->opt.cap && s->opt.used) atomic_fetch_sub(s->opt.used, j->len);
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

/* At open: a ".tmp-" file of a process that is gone (or of this one's
 * pid, before any write of its own) is a game never acknowledged, left
 * by a crash: removed, logged. With a cap, the first sink of the
 * directory counts what it holds. 0, or -1 with *err. */
static int dir_scan(sink *s, const char **err) {
  DIR *d = opendir(s->path);
  struct dirent *e;
  uint64_t held = 0;
  if (d == NULL) {
    *err = strerror(errno);
    return -1;
  }
  while ((e = readdir(d)) != NULL) {
    struct stat st;
    const char *dash;
    long pid;
    if (strncmp(e->d_name, ".tmp-", 5) == 0) {
      /* .tmp-TAGSTAMP-PID-SEQ.sgf */
      dash = strrchr(e->d_name, '-');
      pid = 0;
      if (dash != NULL && dash > e->d_name + 5) {
        const char *q = dash - 1;
        while (q > e->d_name && q[-1] != '-') q--;
        pid = strtol(q, NULL, 10);
      }
      if (pid > 0 && pid != (long)getpid() &&
          (kill((pid_t)pid, 0) == 0 || errno == EPERM))
        continue; /* its process runs: maybe a server on the same dir */
      if (unlinkat(dirfd(d), e->d_name, 0) == 0) {
        slog(
            "sink: %s/%s: removed (a game never acknowledged, left by a "
            "crash)",
            s->path, e->d_name);
      }
      continue;
    }
    if (s->opt.used && e->d_name[0] != '.' &&
        fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        S_ISREG(st.st_mode))
      held += (uint64_t)st.st_size;
  }
  closedir(d);
  if (s->opt.used && atomic_load(s->opt.used) == 0)
    atomic_store(s->opt.used, held);
  return 0;
}

int sink_reserve(sink *s, size_t len) {
  if (s->opt.cap == 0 || s->opt.used == NULL) return 0;
  if (atomic_fetch_add(s->opt.used, len) + len > s->opt.cap) {
    atomic_fetch_sub(s->opt.used, len);
    return -1;
  }
  return 0;
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
  if (s->broken) return refused(s, cb, ctx);
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
  if (s->broken) slog("sink: %s reopened: taking games again", s->path);
  s->broken = 0;
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
