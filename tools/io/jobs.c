/* jobs.c - inputs read in worker threads, results delivered in input
 * order (see jobs.h).
 *
 * The window is a ring of slots, one per input handed out, addressed by
 * three positions that only grow (a slot is ring[position % nslots]):
 *
 *   head   the next input to deliver; everything before it is delivered
 *   take   the next input a worker may take (head <= take <= tail)
 *   tail   where the main thread puts the next input
 *
 * The main thread alone moves head and tail; workers move take. Slots in
 * [tail, head + nslots) are free and the main thread fills them without
 * the lock; one mutex guards everything else. A slot is either a worker's
 * input (a path to read) or made by the main thread already done: a
 * directory that could not be listed (a failure to report), or standard
 * input (to read on the main thread). Workers skip the latter when taking.
 *
 * A worker appends what its input gives (a result, a failure, or "read
 * this on the main thread" for a link to a directory) to its slot's
 * records; nrec says how many there are. The main thread delivers the
 * head slot's records as they come and moves head on once that slot is
 * done. Records are delivered without the lock: a worker only ever writes
 * past nrec, and the main thread empties a slot's records (nrec = 0) only
 * when it has delivered all of them. A worker whose slot's records are
 * full (an archive with many members, not yet at the head) waits for
 * room.
 *
 * Most inputs are small files that give one record, so the common path
 * avoids the lock: a worker takes a batch of up to JOBS_BATCH inputs at
 * once, writes each one's first record straight into its slot (nrec is
 * still 0 there, so the main thread does not look at it), and publishes
 * the whole batch, records and "done", under one lock when it takes the
 * next batch. Any further record of an input (an archive's members) goes
 * in under the lock, after the batch's finished inputs are published, so
 * that a worker waiting for room never holds back the head.
 *
 * No deadlock: workers take inputs in order, so the head input is done,
 * being read, or free for an idle worker to take; the main thread waits
 * only for the head, and a worker that waits (idle, or for room) tells it
 * first.
 *
 * Wake-ups are batched too: the main thread sleeps while the head input
 * is being read, and also after it is done until half the window is done
 * or a worker has nothing to do, so that it does not wake once per small
 * file; and it is signalled after the lock is let go.
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
  int kind;          /* REC_* */
  int named;         /* the name is in text; else it is the slot's path */
  char *text;        /* the name (when named), then the error */
  size_t cap;
  const char *error; /* into text, or oom: REC_FAIL, REC_NONE, and
                      * REC_ROW of an input that broke off (else NULL) */
} record;

typedef struct slot {
  int state;        /* SLOT_* */
  int worker;       /* for a worker to read (else made by the main thread) */
  const char *path; /* an argument, or own */
  char *own;        /* a path from a directory walk */
  size_t own_cap;
  record *rec;            /* cap records, cap results: 1, grown to */
  unsigned char *results; /* JOBS_RECORDS for an archive's members */
  size_t cap;
  size_t nrec;            /* records written */
  size_t printed;         /* records delivered */
  int reading;            /* the main thread is delivering records */
  /* the worker's own while it reads the input: */
  int first;              /* rec[0] written, not yet counted in nrec */
  int locked;             /* records go in under the lock */
} slot;

typedef struct jobs jobs;

typedef struct worker {
  jobs *j;
  uv_thread_t tid;
  input_reader *in;
  void *state;
  slot *s;                    /* the input being read */
  slot *batch[JOBS_BATCH];    /* the inputs taken together */
  size_t nbatch;
  size_t nread;               /* batch[0..nread) are read */
  size_t npub;                /* batch[0..npub) are published (done) */
  unsigned char *result;      /* for results that go in under the lock */
} worker;

struct jobs {
  const jobs_ops *ops;
  void *arg;
  input_reader *main;
  slot *ring;
  size_t nslots, lowwater;
  uint64_t head, take, tail;
  size_t ndone;     /* done slots in [head, tail) */
  unsigned idle;    /* workers waiting for work */
  unsigned blocked; /* workers waiting for room in their slot */
  int main_waiting, stopping;
  uv_mutex_t mu;
  uv_cond_t work, room, ready;
  worker *w;
  unsigned nw;
  /* the main thread's side: what to hand out next */
  char **files;
  int nfiles, argi;
  input_walk *walk;
  const char *walk_root; /* the argument being walked */
  int walk_found;   /* the walk gave a file (or a failure to report) */
  int gen_done;
  int direct;       /* GEN_DIRECT pending: see gen_one() */
  const char *direct_path;
  const char *direct_error; /* NULL: a file to read */
  char direct_buf[256];
};

static slot *slot_at(const jobs *j, uint64_t pos)
{
  return &j->ring[pos % j->nslots];
}

static unsigned char *result_at(const jobs *j, slot *s, size_t i)
{
  return s->results + i * j->ops->result_size;
}

/* Room for JOBS_RECORDS records in s, unless the main thread is reading
 * them. 0 or -1. (Lock held.) */
static int grow(jobs *j, slot *s)
{
  record *rec;
  unsigned char *res;
  if (s->reading || s->cap >= JOBS_RECORDS)
    return -1;
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
                      const char *error)
{
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
  if (name)
    memcpy(r->text, name, nl);
  if (error) {
    memcpy(r->text + nl, error, el);
    r->error = r->text + nl;
  }
  return 0;
}

/* ------------------------------------------------------------ waking */

/* Should the waiting main thread get up? (Lock held.) */
static int main_should_wake(const jobs *j)
{
  const slot *s;
  if (j->head == j->tail)
    return 1;
  s = slot_at(j, j->head);
  if (s->state != SLOT_DONE) /* an archive's results, a few at a time */
    return s->nrec - s->printed >=
           (s->cap < JOBS_RECORDS ? s->cap : JOBS_RECORDS / 2);
  return j->direct || j->ndone >= j->lowwater || j->idle + j->blocked > 0;
}

/* Something the main thread may wait for changed: should it be woken?
 * Then it is counted as woken already (main_waiting = 0), so that one
 * signal is sent, after the lock is let go: signalling with the lock held
 * would have the main thread wake up only to wait for the lock. (Lock
 * held.) */
static int poke(jobs *j)
{
  if (j->main_waiting && main_should_wake(j)) {
    j->main_waiting = 0;
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------ workers */

/* Mark the inputs of w's batch that are read as done. (Lock held.) */
static void publish(worker *w)
{
  jobs *j = w->j;
  for (; w->npub < w->nread; w->npub++) {
    slot *d = w->batch[w->npub];
    if (d->first)
      d->nrec = 1; /* its nrec was 0 */
    d->first = 0;
    d->state = SLOT_DONE;
    j->ndone++;
  }
}

/* Where a result of w's input goes: straight into its slot if it is the
 * input's first record, else w->result. */
static void *result_dest(worker *w)
{
  slot *s = w->s;
  return s->locked || s->first ? w->result : result_at(w->j, s, 0);
}

/* A record of w's input; for REC_ROW, its result is at result_dest(). */
static void add(worker *w, int kind, const char *name, const char *error)
{
  jobs *j = w->j;
  slot *s = w->s;
  int wake;
  if (name == s->path)
    name = NULL;
  if (!s->locked && !s->first) {
    record_set(&s->rec[0], kind, name, error);
    s->first = 1;
    return;
  }
  uv_mutex_lock(&j->mu);
  publish(w);
  if (s->first) {
    s->nrec = 1;
    s->first = 0;
  }
  s->locked = 1;
  while (s->nrec == s->cap && grow(j, s) != 0) {
    j->blocked++;
    if (poke(j))
      uv_cond_signal(&j->ready); /* (we are about to let go of the lock) */
    uv_cond_wait(&j->room, &j->mu);
    j->blocked--;
  }
  record_set(&s->rec[s->nrec], kind, name, error);
  if (kind == REC_ROW)
    memcpy(result_at(j, s, s->nrec), w->result, j->ops->result_size);
  s->nrec++;
  wake = poke(j);
  uv_mutex_unlock(&j->mu);
  if (wake)
    uv_cond_signal(&j->ready);
}

static void w_begin(void *ctx, const char *name)
{
  worker *w = ctx;
  w->j->ops->begin(w->state, name);
}

static int w_data(void *ctx, const char *buf, size_t len)
{
  worker *w = ctx;
  return w->j->ops->data(w->state, buf, len);
}

static void w_end(void *ctx, const char *name, const char *error)
{
  worker *w = ctx;
  /* An input that broke off still gives what was read, with the error. */
  w->j->ops->end(w->state, name, error, result_dest(w));
  add(w, REC_ROW, name, error);
}

static void w_fail(void *ctx, const char *name, const char *error)
{
  add(ctx, REC_FAIL, name, error);
}

static void w_none(void *ctx, const char *name, const char *why)
{
  add(ctx, REC_NONE, name, why);
}

static const input_sink worker_sink = {w_begin, w_data, w_end, w_fail,
                                       w_none};

/* Take the next inputs for w: a fair share of those waiting, at most
 * JOBS_BATCH. (Lock held.) */
static size_t take_batch(worker *w)
{
  jobs *j = w->j;
  uint64_t waiting = j->tail - j->take;
  size_t want = (size_t)(waiting / (2u * j->nw));
  if (want > JOBS_BATCH)
    want = JOBS_BATCH;
  if (want < 1)
    want = 1;
  w->nbatch = w->nread = w->npub = 0;
  while (w->nbatch < want && j->take < j->tail) {
    slot *s = slot_at(j, j->take++);
    if (!s->worker)
      continue; /* made by the main thread */
    s->state = SLOT_RUNNING;
    w->batch[w->nbatch++] = s;
  }
  return w->nbatch;
}

static void worker_main(void *arg)
{
  worker *w = arg;
  jobs *j = w->j;
  int wake;
  uv_mutex_lock(&j->mu);
  for (;;) {
    publish(w);
    if (take_batch(w) > 0) {
      size_t i;
      wake = poke(j);
      uv_mutex_unlock(&j->mu);
      if (wake)
        uv_cond_signal(&j->ready);
      for (i = 0; i < w->nbatch; i++) {
        w->s = w->batch[i];
        if (input_read_file(w->in, w->s->path, &worker_sink, w) ==
            INPUT_IS_DIR)
          add(w, REC_MAIN, NULL, NULL);
        w->nread = i + 1;
      }
      uv_mutex_lock(&j->mu);
      continue;
    }
    wake = poke(j);
    if (j->stopping)
      break;
    j->idle++;
    if (poke(j) || wake)
      uv_cond_signal(&j->ready);
    uv_cond_wait(&j->work, &j->mu);
    j->idle--;
  }
  uv_mutex_unlock(&j->mu);
  if (wake)
    uv_cond_signal(&j->ready);
}

/* ------------------------------------------------------------ main side */

enum { GEN_SLOT, GEN_END, GEN_DIRECT };

static int own_path(slot *s, const char *path)
{
  size_t n = strlen(path) + 1;
  if (n > s->own_cap) {
    size_t cap = n < 256 ? 256 : 2 * n;
    char *p = realloc(s->own, cap);
    if (p == NULL)
      return -1;
    s->own = p;
    s->own_cap = cap;
  }
  memcpy(s->own, path, n);
  s->path = s->own;
  return 0;
}

/* Does the name end in ".sgf" (any case)? */
static int sgf_name(const char *name)
{
  size_t n = strlen(name);
  return n > 4 && name[n - 4] == '.' && (name[n - 3] | 0x20) == 's' &&
         (name[n - 2] | 0x20) == 'g' && (name[n - 1] | 0x20) == 'f';
}

/* A slot the main thread makes done, with one record. */
static int made(slot *s, int kind, const char *error)
{
  s->worker = 0;
  s->nrec = 1;
  s->printed = 0;
  return record_set(&s->rec[0], kind, NULL, error);
}

/* Fill s with the next input, in input_read()'s order. GEN_DIRECT: out of
 * memory; the main thread must deliver j->direct_path itself, after all
 * the slots before it (it stays valid until the next input_walk_next). */
static int gen_one(jobs *j, slot *s)
{
  s->nrec = s->printed = 0;
  s->first = s->locked = 0;
  for (;;) {
    const char *a;
    if (j->walk != NULL) {
      const char *path, *error = NULL;
      int k = input_walk_next(j->walk, &path, &error);
      if (k == INPUT_WALK_END) {
        input_walk_close(j->walk);
        j->walk = NULL;
        if (j->walk_found)
          continue;
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
        if (made(s, REC_FAIL, error) == 0)
          return GEN_SLOT;
      }
      j->direct_path = path;
      j->direct_error = NULL;
      if (k == INPUT_WALK_FAIL) {
        snprintf(j->direct_buf, sizeof j->direct_buf, "%s", error);
        j->direct_error = j->direct_buf;
      }
      return GEN_DIRECT;
    }
    if (j->argi == j->nfiles)
      return GEN_END;
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
     * place, as it does a link to a directory met in a walk. */
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

static void deliver(jobs *j, slot *s, size_t i)
{
  record *r = &s->rec[i];
  const char *name = r->named ? r->text : s->path;
  switch (r->kind) {
  case REC_ROW:
    j->ops->deliver(j->arg, name, result_at(j, s, i), r->error);
    break;
  case REC_FAIL: j->ops->fail(j->arg, name, r->error); break;
  case REC_NONE: j->ops->sink->none(j->arg, name, r->error); break;
  default: input_read(j->main, name, j->ops->sink, j->arg); break;
  }
}

/* Deliver all that can be, in order, without waiting. (Lock held; it is
 * let go while delivering.) */
static void drain(jobs *j)
{
  while (j->head != j->tail) {
    slot *s = slot_at(j, j->head);
    size_t i;
    if (s->state == SLOT_DONE) {
      /* A run of done slots: no worker touches them any more, so they are
       * delivered with one letting go of the lock, then freed. */
      uint64_t end = j->head + 1, p;
      while (end != j->tail && slot_at(j, end)->state == SLOT_DONE)
        end++;
      uv_mutex_unlock(&j->mu);
      for (p = j->head; p != end; p++) {
        slot *d = slot_at(j, p);
        for (i = d->printed; i < d->nrec; i++)
          deliver(j, d, i);
        d->nrec = d->printed = 0;
      }
      uv_mutex_lock(&j->mu);
      j->ndone -= (size_t)(end - j->head);
      j->head = end;
      if (j->take < j->head)
        j->take = j->head; /* main-made slots no worker looked at */
      continue;
    }
    if (s->printed < s->nrec) { /* the head input is still being read */
      size_t from = s->printed, to = s->nrec;
      s->reading = 1;
      uv_mutex_unlock(&j->mu);
      for (i = from; i < to; i++)
        deliver(j, s, i);
      uv_mutex_lock(&j->mu);
      s->reading = 0;
      s->printed = to;
      if (s->nrec == to) {
        s->nrec = s->printed = 0;
        if (j->blocked > 0)
          uv_cond_broadcast(&j->room);
      }
      continue;
    }
    return;
  }
}

/* Hand out up to 64 inputs, filling the free slots without the lock.
 * (Lock held on entry and exit.) */
static void hand_out(jobs *j)
{
  uint64_t t = j->tail;
  size_t nmade = 0, n = 0;
  int g = GEN_SLOT;
  uv_mutex_unlock(&j->mu);
  while (t - j->head < j->nslots && n < 64) {
    slot *s = slot_at(j, t);
    g = gen_one(j, s);
    if (g != GEN_SLOT)
      break;
    s->state = s->worker ? SLOT_QUEUED : SLOT_DONE;
    if (!s->worker)
      nmade++;
    t++;
    n++;
  }
  uv_mutex_lock(&j->mu);
  j->tail = t;
  j->ndone += nmade;
  if (g == GEN_END)
    j->gen_done = 1;
  if (g == GEN_DIRECT)
    j->direct = 1; /* (workers look at it, in main_should_wake()) */
  if (n > nmade && j->idle > 0)
    uv_cond_broadcast(&j->work);
}

static void run_main(jobs *j)
{
  uv_mutex_lock(&j->mu);
  for (;;) {
    drain(j);
    if (j->direct && j->head == j->tail) {
      uv_mutex_unlock(&j->mu);
      if (j->direct_error != NULL)
        j->ops->sink->fail(j->arg, j->direct_path, j->direct_error);
      else
        input_read(j->main, j->direct_path, j->ops->sink, j->arg);
      uv_mutex_lock(&j->mu);
      j->direct = 0;
      continue;
    }
    if (!j->direct && !j->gen_done && j->tail - j->head < j->nslots) {
      hand_out(j);
      continue;
    }
    if (j->gen_done && j->head == j->tail)
      break;
    while (!main_should_wake(j)) {
      j->main_waiting = 1; /* (poke() clears it when it wakes us) */
      uv_cond_wait(&j->ready, &j->mu);
    }
    j->main_waiting = 0;
  }
  j->stopping = 1;
  uv_cond_broadcast(&j->work);
  uv_mutex_unlock(&j->mu);
}

/* ------------------------------------------------------------ setup */

static void free_jobs(jobs *j)
{
  size_t i, k;
  if (j->w != NULL) {
    for (i = 0; i < j->nw; i++) {
      worker *w = &j->w[i];
      if (w->state != NULL)
        j->ops->destroy(w->state);
      input_reader_destroy(w->in);
      free(w->result);
    }
    free(j->w);
  }
  if (j->ring != NULL) {
    for (i = 0; i < j->nslots; i++) {
      if (j->ring[i].rec != NULL)
        for (k = 0; k < j->ring[i].cap; k++)
          free(j->ring[i].rec[k].text);
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
             const jobs_ops *ops, void *arg)
{
  jobs *j = calloc(1, sizeof *j);
  unsigned i, started = 0;
  size_t k;
  if (j == NULL)
    return -1;
  j->ops = ops;
  j->arg = arg;
  j->main = main;
  j->files = files;
  j->nfiles = nfiles;
  j->nslots = (size_t)JOBS_WINDOW * nthreads;
  j->lowwater = j->nslots / 2;
  j->ring = calloc(j->nslots, sizeof *j->ring);
  j->w = calloc(nthreads, sizeof *j->w);
  if (j->ring == NULL || j->w == NULL)
    goto fail;
  for (k = 0; k < j->nslots; k++) {
    slot *s = &j->ring[k];
    s->cap = 1;
    s->rec = calloc(1, sizeof *s->rec);
    s->results = malloc(ops->result_size);
    if (s->rec == NULL || s->results == NULL)
      goto fail;
  }
  for (j->nw = 0; j->nw < nthreads; j->nw++) {
    worker *w = &j->w[j->nw];
    w->j = j;
    w->in = input_reader_create(0);
    w->state = ops->create(arg);
    w->result = malloc(ops->result_size);
    if (w->in == NULL || w->state == NULL || w->result == NULL) {
      j->nw++; /* free it too */
      goto fail;
    }
  }
  if (uv_mutex_init(&j->mu) != 0)
    goto fail;
  if (uv_cond_init(&j->work) != 0 || uv_cond_init(&j->room) != 0 ||
      uv_cond_init(&j->ready) != 0) {
    /* (a failed uv_cond_init leaves nothing to destroy; not worth
     * tracking which did for an error that does not happen) */
    uv_mutex_destroy(&j->mu);
    goto fail;
  }
  for (i = 0; i < nthreads; i++) {
    if (uv_thread_create(&j->w[i].tid, worker_main, &j->w[i]) != 0)
      break;
    started++;
  }
  if (started > 0)
    run_main(j); /* with fewer threads if some could not start */
  else
    j->stopping = 1;
  for (i = 0; i < started; i++)
    uv_thread_join(&j->w[i].tid);
  uv_cond_destroy(&j->ready);
  uv_cond_destroy(&j->room);
  uv_cond_destroy(&j->work);
  uv_mutex_destroy(&j->mu);
  free_jobs(j);
  return started > 0 ? 0 : -1;

fail:
  free_jobs(j);
  return -1;
}

int jobs_parse(const char *cmd, const char *arg, unsigned *out)
{
  char *end;
  unsigned long v;
  errno = 0;
  v = strtoul(arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 ||
      v < 1 || v > JOBS_MAX) {
    fprintf(stderr,
            "sgf: invalid number of jobs '%s' (a number from 1 to %d)\n"
            "Try 'sgf %s --help'.\n",
            arg, JOBS_MAX, cmd);
    return -1;
  }
  *out = (unsigned)v;
  return 0;
}
