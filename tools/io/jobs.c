/* jobs.c - inputs read in tasks of libuv's thread pool, results
 * delivered in input order on the loop's thread (see jobs.h).
 *
 * The window is a ring of slots, one per input handed out, addressed by
 * three positions that only grow (a slot is ring[position % nslots]):
 *
 *   head   the next input to deliver; everything before it is delivered
 *   take   the next input a task may take (head <= take <= tail)
 *   tail   where the loop's thread puts the next input
 *
 * Everything but the reading happens on the loop's thread (jobs->loop, in
 * jobs_run()): handing out inputs (fill()), queueing tasks, and
 * delivering. A task (uv_queue_work) takes a batch of up to JOBS_BATCH
 * consecutive inputs with one of N contexts (a reader reading in place,
 * the command's state, room for a result); at most N tasks are queued at
 * once, so a context is always free for the next one. What an input gives
 * (a result, a failure, or "read this on the loop's thread" for a link to
 * a directory) is appended to its slot's records under the mutex, and the
 * slot marked done. A task wakes the loop (uv_async_send) when it
 * finishes or adds to the head slot; after_work does too. Records are
 * delivered without the lock: a task only ever writes past nrec, and the
 * loop's thread empties a slot's records (nrec = 0) only when it has
 * delivered all of them.
 *
 * A task whose slot's records are full (an archive with more than
 * JOBS_RECORDS members, not yet at the head) waits for room. No deadlock:
 * tasks take inputs in order, so the head input is done or in a running
 * task, which is not waiting (its slot is the head, delivered as it
 * fills). The pool has one thread more than N (jobs_pool_size()), so the
 * loop's own file reads (standard input, read in its place on the loop's
 * thread) always find a thread even when every task waits for room.
 */
#define _POSIX_C_SOURCE 200809L

#include "jobs.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { REC_ROW, REC_FAIL, REC_NONE, REC_MAIN };
enum { SLOT_QUEUED, SLOT_RUNNING, SLOT_DONE };

static const char oom[] = "out of memory";

typedef struct record {
  int kind;   /* REC_* */
  int named;  /* the name is in text; else it is the slot's path */
  char *text; /* the name (when named), then the error */
  size_t cap;
  const char *error; /* into text, or oom: REC_FAIL, REC_NONE, and
                      * REC_ROW of an input that broke off (else NULL) */
} record;

typedef struct slot {
  int state;        /* SLOT_* */
  int worker;       /* for a task to read (else made on the loop) */
  const char *path; /* an argument, or own */
  char *own;        /* a path from a directory walk */
  size_t own_cap;
  record *rec;            /* cap records, cap results: 1, grown to */
  unsigned char *results; /* JOBS_RECORDS for an archive's members */
  size_t cap;
  size_t nrec;    /* records written */
  size_t printed; /* records delivered */
  int reading;    /* the loop's thread is delivering records */
} slot;

typedef struct jobs jobs;

/* One context of N: a task in the pool while busy. */
typedef struct task {
  uv_work_t req;
  jobs *j;
  input_reader *in;
  void *state;
  unsigned char *result; /* end() fills it, add() copies it */
  slot *s;               /* the input being read */
  slot *batch[JOBS_BATCH];
  size_t nbatch;
  int busy;
} task;

struct jobs {
  const jobs_ops *ops;
  void *arg;
  input_reader *main;
  slot *ring;
  size_t nslots;
  uint64_t head, take, tail;
  unsigned blocked; /* tasks waiting for room in their slot */
  uv_mutex_t mu;
  uv_cond_t room;
  uv_loop_t loop;
  uv_async_t wake;
  int in_fill, closing;
  task *t;
  unsigned nt, running;
  /* the loop's side: what to hand out next */
  char **files;
  int nfiles, argi;
  input_walk *walk;
  const char *walk_root; /* the argument being walked */
  int walk_found;        /* the walk gave a file (or a failure to report) */
  int gen_done;
  int direct; /* GEN_DIRECT pending: see gen_one() */
  const char *direct_path;
  const char *direct_error; /* NULL: a file to read */
  char direct_buf[256];
};

static slot *slot_at(const jobs *j, uint64_t pos) {
  return &j->ring[pos % j->nslots];
}

static unsigned char *result_at(const jobs *j, slot *s, size_t i) {
  return s->results + i * j->ops->result_size;
}

/* Room for JOBS_RECORDS records in s, unless the main thread is reading
 * them. 0 or -1. (Lock held.) */
static int grow(jobs *j, slot *s) {
  record *rec;
  unsigned char *res;
  if (s->reading || s->cap >= JOBS_RECORDS) return -1;
  rec = calloc(JOBS_RECORDS, sizeof *rec);
  res = malloc(JOBS_RECORDS * j->ops->result_size);
  if (rec == NULL || res == NULL) {
    free(rec);
    free(res);
    return -1;
  }
  memcpy(rec, s->rec, s->cap * sizeof *rec); /* texts move over */
  memcpy(res, s->results, s->cap * j->ops->result_size);
  free(s->rec);
  free(s->results);
  s->rec = rec;
  s->results = res;
  s->cap = JOBS_RECORDS;
  return 0;
}

/* Set r; name NULL: the slot's path. On failure r is an "out of memory"
 * failure of the slot's path, and -1 is returned. */
static int record_set(record *r, int kind, const char *name,
                      const char *error) {
  size_t nl = name ? strlen(name) + 1 : 0;
  size_t el = error ? strlen(error) + 1 : 0;
  r->kind = kind;
  r->named = name != NULL;
  r->error = NULL;
  if (nl + el > r->cap) {
    size_t cap = nl + el < 64 ? 64 : 2 * (nl + el);
    char *t = realloc(r->text, cap);
    if (t == NULL) {
      r->kind = REC_FAIL;
      r->named = 0;
      r->error = oom;
      return -1;
    }
    r->text = t;
    r->cap = cap;
  }
  if (name) memcpy(r->text, name, nl);
  if (error) {
    memcpy(r->text + nl, error, el);
    r->error = r->text + nl;
  }
  return 0;
}

/* ------------------------------------------------------------ tasks */

/* A record of t's input; for REC_ROW, its result is in t->result. */
static void add(task *t, int kind, const char *name, const char *error) {
  jobs *j = t->j;
  slot *s = t->s;
  int wake;
  if (name == s->path) name = NULL;
  uv_mutex_lock(&j->mu);
  while (s->nrec == s->cap && grow(j, s) != 0) {
    j->blocked++;
    uv_async_send(&j->wake); /* deliver, to make room */
    uv_cond_wait(&j->room, &j->mu);
    j->blocked--;
  }
  record_set(&s->rec[s->nrec], kind, name, error);
  if (kind == REC_ROW)
    memcpy(result_at(j, s, s->nrec), t->result, j->ops->result_size);
  s->nrec++;
  wake = s == slot_at(j, j->head) && s->cap > 1; /* an archive's members */
  uv_mutex_unlock(&j->mu);
  if (wake) uv_async_send(&j->wake);
}

static void w_begin(void *ctx, const char *name) {
  task *t = ctx;
  t->j->ops->begin(t->state, name);
}

static int w_data(void *ctx, const char *buf, size_t len) {
  task *t = ctx;
  return t->j->ops->data(t->state, buf, len);
}

static void w_end(void *ctx, const char *name, const char *error) {
  task *t = ctx;
  /* An input that broke off still gives what was read, with the error. */
  t->j->ops->end(t->state, name, error, t->result);
  add(t, REC_ROW, name, error);
}

static void w_fail(void *ctx, const char *name, const char *error) {
  add(ctx, REC_FAIL, name, error);
}

static void w_none(void *ctx, const char *name, const char *why) {
  add(ctx, REC_NONE, name, why);
}

static void w_note(void *ctx, int what, uint64_t off) {
  task *t = ctx;
  t->j->ops->note(t->state, what, off);
}

/* Without ops->note, no note(): bad UTF-16 is then end()'s error. */
static const input_sink task_sink = {w_begin, w_data, w_end,
                                     w_fail,  w_none, NULL};
static const input_sink task_sink_note = {w_begin, w_data, w_end,
                                          w_fail,  w_none, w_note};

/* In the pool: read the batch, each input marked done as it ends. */
static void work(uv_work_t *req) {
  task *t = req->data;
  jobs *j = t->j;
  size_t i;
  for (i = 0; i < t->nbatch; i++) {
    int wake;
    t->s = t->batch[i];
    if (input_read_file(t->in, t->s->path,
                        j->ops->note ? &task_sink_note : &task_sink,
                        t) == INPUT_IS_DIR)
      add(t, REC_MAIN, NULL, NULL);
    uv_mutex_lock(&j->mu);
    t->s->state = SLOT_DONE;
    wake = t->s == slot_at(j, j->head) && i + 1 < t->nbatch;
    uv_mutex_unlock(&j->mu);
    if (wake) /* (the batch's last is announced by after_work) */
      uv_async_send(&j->wake);
  }
}

static void fill(jobs *j);

static void after_work(uv_work_t *req, int status) {
  task *t = req->data;
  (void)status;
  t->busy = 0;
  t->j->running--;
  fill(t->j);
}

static void on_wake(uv_async_t *a) { fill(a->data); }

/* Queue a task for the next inputs: a fair share of those waiting, at
 * most JOBS_BATCH. 0 if there was none. (Lock held.) */
static int queue_task(jobs *j) {
  uint64_t waiting = j->tail - j->take;
  size_t want = (size_t)(waiting / (2u * j->nt));
  task *t = NULL;
  unsigned i;
  for (i = 0; i < j->nt && t == NULL; i++)
    if (!j->t[i].busy) t = &j->t[i];
  if (t == NULL) return 0;
  if (want > JOBS_BATCH) want = JOBS_BATCH;
  if (want < 1) want = 1;
  t->nbatch = 0;
  while (t->nbatch < want && j->take < j->tail) {
    slot *s = slot_at(j, j->take++);
    if (!s->worker) continue; /* made on the loop */
    s->state = SLOT_RUNNING;
    t->batch[t->nbatch++] = s;
  }
  if (t->nbatch == 0) return 0;
  t->busy = 1;
  j->running++;
  t->req.data = t;
  uv_queue_work(&j->loop, &t->req, work, after_work);
  return 1;
}

/* ------------------------------------------------------------ main side */

enum { GEN_SLOT, GEN_END, GEN_DIRECT };

static int own_path(slot *s, const char *path) {
  size_t n = strlen(path) + 1;
  if (n > s->own_cap) {
    size_t cap = n < 256 ? 256 : 2 * n;
    char *p = realloc(s->own, cap);
    if (p == NULL) return -1;
    s->own = p;
    s->own_cap = cap;
  }
  memcpy(s->own, path, n);
  s->path = s->own;
  return 0;
}

/* Does the name end in ".sgf" (any case)? */
static int sgf_name(const char *name) {
  size_t n = strlen(name);
  return n > 4 && name[n - 4] == '.' && (name[n - 3] | 0x20) == 's' &&
         (name[n - 2] | 0x20) == 'g' && (name[n - 1] | 0x20) == 'f';
}

/* A slot the main thread makes done, with one record. */
static int made(slot *s, int kind, const char *error) {
  s->worker = 0;
  s->nrec = 1;
  s->printed = 0;
  return record_set(&s->rec[0], kind, NULL, error);
}

/* Fill s with the next input, in input_read()'s order. GEN_DIRECT: out of
 * memory; the main thread must deliver j->direct_path itself, after all
 * the slots before it (it stays valid until the next input_walk_next). */
static int gen_one(jobs *j, slot *s) {
  s->nrec = s->printed = 0;
  for (;;) {
    const char *a;
    if (j->walk != NULL) {
      const char *path, *error = NULL;
      int k = input_walk_next(j->walk, &path, &error);
      if (k == INPUT_WALK_END) {
        input_walk_close(j->walk);
        j->walk = NULL;
        if (j->walk_found) continue;
        s->path = j->walk_root; /* no .sgf file below it: as input__walk */
        made(s, REC_NONE, INPUT_NO_SGF_FILE);
        return GEN_SLOT;
      }
      j->walk_found = 1;
      if (own_path(s, path) == 0) {
        if (k == INPUT_WALK_FILE) {
          s->worker = 1;
          return GEN_SLOT;
        }
        if (made(s, REC_FAIL, error) == 0) return GEN_SLOT;
      }
      j->direct_path = path;
      j->direct_error = NULL;
      if (k == INPUT_WALK_FAIL) {
        snprintf(j->direct_buf, sizeof j->direct_buf, "%s", error);
        j->direct_error = j->direct_buf;
      }
      return GEN_DIRECT;
    }
    if (j->argi == j->nfiles) return GEN_END;
    a = j->files[j->argi++];
    s->path = a;
    if (strcmp(a, "-") == 0) {
      made(s, REC_MAIN, NULL);
      return GEN_SLOT;
    }
    /* A directory is walked here, its files handed out one by one. Names
     * ending in .sgf are taken for files without asking (a stat() per
     * argument is felt when xargs gives thousands): if one is a directory
     * after all, its worker says so and the main thread walks it, in its
     * place. */
    if (!sgf_name(a) && input_is_dir(j->main, a)) {
      j->walk = input_walk_open(j->main, a);
      j->walk_root = a;
      j->walk_found = 0;
      if (j->walk == NULL) {
        made(s, REC_FAIL, oom);
        return GEN_SLOT;
      }
      continue;
    }
    s->worker = 1;
    return GEN_SLOT;
  }
}

static void deliver(jobs *j, slot *s, size_t i) {
  record *r = &s->rec[i];
  const char *name = r->named ? r->text : s->path;
  switch (r->kind) {
    case REC_ROW:
      j->ops->deliver(j->arg, name, result_at(j, s, i), r->error);
      break;
    case REC_FAIL:
      j->ops->fail(j->arg, name, r->error);
      break;
    case REC_NONE:
      j->ops->sink->none(j->arg, name, r->error);
      break;
    default:
      input_read(j->main, name, j->ops->sink, j->arg);
      break;
  }
}

/* Deliver all that can be, in order. Nonzero if anything was. (Lock
 * held; it is let go while delivering.) */
static int drain(jobs *j) {
  int any = 0;
  while (j->head != j->tail) {
    slot *s = slot_at(j, j->head);
    size_t i;
    if (s->state == SLOT_DONE) {
      /* A run of done slots: no task touches them any more, so they are
       * delivered with one letting go of the lock, then freed. */
      uint64_t end = j->head + 1, p;
      while (end != j->tail && slot_at(j, end)->state == SLOT_DONE) end++;
      uv_mutex_unlock(&j->mu);
      for (p = j->head; p != end; p++) {
        slot *d = slot_at(j, p);
        for (i = d->printed; i < d->nrec; i++) deliver(j, d, i);
        d->nrec = d->printed = 0;
      }
      uv_mutex_lock(&j->mu);
      j->head = end;
      if (j->take < j->head)
        j->take = j->head; /* slots made on the loop no task looked at */
      any = 1;
      continue;
    }
    if (s->printed < s->nrec) { /* the head input is still being read */
      size_t from = s->printed, to = s->nrec;
      s->reading = 1;
      uv_mutex_unlock(&j->mu);
      for (i = from; i < to; i++) deliver(j, s, i);
      uv_mutex_lock(&j->mu);
      s->reading = 0;
      s->printed = to;
      if (s->nrec == to) {
        s->nrec = s->printed = 0;
        if (j->blocked > 0) uv_cond_broadcast(&j->room);
      }
      any = 1;
      continue;
    }
    break;
  }
  return any;
}

/* Fill the free slots, up to 64 inputs, without the lock (no task looks
 * at slots past tail). Nonzero if anything changed. (Lock held on entry
 * and exit.) */
static int hand_out(jobs *j) {
  uint64_t t = j->tail;
  size_t n = 0;
  int g = GEN_SLOT;
  uv_mutex_unlock(&j->mu);
  while (t - j->head < j->nslots && n < 64) {
    slot *s = slot_at(j, t);
    g = gen_one(j, s);
    if (g != GEN_SLOT) break;
    s->state = s->worker ? SLOT_QUEUED : SLOT_DONE;
    t++;
    n++;
  }
  uv_mutex_lock(&j->mu);
  j->tail = t;
  if (g == GEN_END) j->gen_done = 1;
  if (g == GEN_DIRECT) j->direct = 1;
  return n > 0 || g != GEN_SLOT;
}

/* Everything the loop's thread does: deliver, hand out, queue tasks, until
 * nothing more can be done now; close the loop's last handle at the end. */
static void fill(jobs *j) {
  int done;
  if (j->in_fill || j->closing)
    return; /* (input_read() of the loop's own runs no callback of ours) */
  j->in_fill = 1;
  uv_mutex_lock(&j->mu);
  for (;;) {
    int progress = drain(j);
    if (j->direct && j->head == j->tail) {
      uv_mutex_unlock(&j->mu);
      if (j->direct_error != NULL)
        j->ops->sink->fail(j->arg, j->direct_path, j->direct_error);
      else
        input_read(j->main, j->direct_path, j->ops->sink, j->arg);
      uv_mutex_lock(&j->mu);
      j->direct = 0;
      progress = 1;
    }
    if (!j->direct && !j->gen_done && j->tail - j->head < j->nslots)
      progress |= hand_out(j);
    while (j->running < j->nt && j->take < j->tail && queue_task(j))
      progress = 1;
    if (!progress) break;
  }
  done = j->gen_done && !j->direct && j->head == j->tail && j->running == 0;
  uv_mutex_unlock(&j->mu);
  j->in_fill = 0;
  if (done) {
    j->closing = 1;
    uv_close((uv_handle_t *)&j->wake, NULL);
  }
}

/* ------------------------------------------------------------ setup */

void jobs_pool_size(unsigned n) {
  char v[16];
  /* libuv reads it once, when a loop first uses the pool, and takes at
   * most 1024 threads (UV_THREADPOOL_SIZE's limit in libuv 1.x): N tasks
   * and one thread for the loop's own file reads. */
  if (n + 1 > JOBS_POOL_MAX) n = JOBS_POOL_MAX - 1;
  snprintf(v, sizeof v, "%u", n + 1);
  setenv("UV_THREADPOOL_SIZE", v, 1);
}

static void free_jobs(jobs *j) {
  size_t i, k;
  if (j->t != NULL) {
    for (i = 0; i < j->nt; i++) {
      task *t = &j->t[i];
      if (t->state != NULL) j->ops->destroy(t->state);
      input_reader_destroy(t->in);
      free(t->result);
    }
    free(j->t);
  }
  if (j->ring != NULL) {
    for (i = 0; i < j->nslots; i++) {
      if (j->ring[i].rec != NULL)
        for (k = 0; k < j->ring[i].cap; k++) free(j->ring[i].rec[k].text);
      free(j->ring[i].rec);
      free(j->ring[i].results);
      free(j->ring[i].own);
    }
    free(j->ring);
  }
  input_walk_close(j->walk);
  free(j);
}

int jobs_run(input_reader *main, char **files, int nfiles, unsigned nthreads,
             const jobs_ops *ops, void *arg) {
  jobs *j = calloc(1, sizeof *j);
  size_t k;
  if (j == NULL) return -1;
  jobs_pool_size(nthreads);
  j->ops = ops;
  j->arg = arg;
  j->main = main;
  j->files = files;
  j->nfiles = nfiles;
  j->nslots = (size_t)JOBS_WINDOW * nthreads;
  j->ring = calloc(j->nslots, sizeof *j->ring);
  j->t = calloc(nthreads, sizeof *j->t);
  if (j->ring == NULL || j->t == NULL) goto fail;
  for (k = 0; k < j->nslots; k++) {
    slot *s = &j->ring[k];
    s->cap = 1;
    s->rec = calloc(1, sizeof *s->rec);
    s->results = malloc(ops->result_size);
    if (s->rec == NULL || s->results == NULL) goto fail;
  }
  for (j->nt = 0; j->nt < nthreads; j->nt++) {
    task *t = &j->t[j->nt];
    t->j = j;
    t->in = input_reader_create(0);
    t->state = ops->create(arg);
    t->result = malloc(ops->result_size);
    if (t->in == NULL || t->state == NULL || t->result == NULL) {
      j->nt++; /* free it too */
      goto fail;
    }
    input_reader_inline(t->in);
  }
  if (uv_loop_init(&j->loop) != 0) goto fail;
  if (uv_mutex_init(&j->mu) != 0 || uv_cond_init(&j->room) != 0 ||
      uv_async_init(&j->loop, &j->wake, on_wake) != 0) {
    /* (not worth tracking which of them failed for errors that do not
     * happen: the loop is left as it is) */
    goto fail;
  }
  j->wake.data = j;
  fill(j);
  uv_run(&j->loop, UV_RUN_DEFAULT);
  uv_loop_close(&j->loop);
  uv_cond_destroy(&j->room);
  uv_mutex_destroy(&j->mu);
  free_jobs(j);
  return 0;

fail:
  free_jobs(j);
  return -1;
}

int jobs_parse(const char *cmd, const char *arg, unsigned *out) {
  char *end;
  unsigned long v;
  errno = 0;
  v = strtoul(arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 || v < 1 ||
      v > JOBS_MAX) {
    fprintf(stderr,
            "sgf: invalid number of jobs '%s' (a number from 1 to %d)\n"
            "Try 'sgf %s --help'.\n",
            arg, JOBS_MAX, cmd);
    return -1;
  }
  *out = (unsigned)v;
  return 0;
}
