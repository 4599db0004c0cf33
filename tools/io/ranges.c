/* ranges.c - one large plain SGF file counted in byte ranges at once (see
 * ranges.h). */
#define _POSIX_C_SOURCE 200809L

#include "ranges.h"

#include "input.h"
#include "jobs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ cuts */

/* A cut: ')', blanks (space, tab, CR, LF; none is fine), "(;", blanks,
 * and a property that begins a game's root node (FF GM SZ CA AP ...),
 * which a variation's first node seldom holds: variations inside a game
 * also follow a ')' and begin with "(;", and a cut there is refused
 * later, costing the whole split. Searched across the chunks of a range
 * read. */
static int root_ident(char a, char b) {
  /* three bytes an entry, the last one too: the loop ends on the NUL */
  static const char roots[] =
      "FF GM SZ CA AP ST RU KM HA PB PW BR WR BT WT "
      "EV RO DT GN RE PC SO US CP AN ON OT TM GC ";
  const char *p;
  for (p = roots; *p; p += 3)
    if (p[0] == a && p[1] == b) return 1;
  return 0;
}

/* The first read of a search for a cut (most are found within a game's
 * length); the next ones double. */
#define FIND_FIRST ((size_t)16 << 10)

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

typedef struct finder {
  int64_t at;    /* offset of the next byte handed over */
  int state;     /* see find_data */
  int64_t paren; /* offset of the '(' once seen */
  char id[2];    /* the identifier's letters so far */
  int64_t found; /* offset of the cut, or -1 */
} finder;

static int find_data(void *ctx, const char *buf, size_t n) {
  finder *f = ctx;
  size_t i = 0;
  while (i < n) {
    char c = buf[i];
    if (f->state == 0) { /* skip to the next ')' */
      const char *q = memchr(buf + i, ')', n - i);
      if (q == NULL) break;
      i = (size_t)(q - buf) + 1;
      f->state = 1;
      continue;
    }
    if (c == ')') { /* any mismatch: start again from this ')' */
      f->state = 1;
      i++;
      continue;
    }
    switch (f->state) {
      case 1: /* ")" and blanks */
        if (c == '(') {
          f->state = 2;
          f->paren = f->at + (int64_t)i;
        } else if (!is_blank(c)) {
          f->state = 0;
        }
        break;
      case 2: /* ")(" */
        f->state = c == ';' ? 3 : 0;
        break;
      case 3: /* ")(;" and blanks */
        if (c >= 'A' && c <= 'Z') {
          f->id[0] = c;
          f->state = 4;
        } else if (!is_blank(c)) {
          f->state = 0;
        }
        break;
      case 4: /* one letter */
        if (c >= 'A' && c <= 'Z') {
          f->id[1] = c;
          f->state = 5;
        } else {
          f->state = 0;
        }
        break;
      default: /* two letters */
        if (c == '[' && root_ident(f->id[0], f->id[1])) {
          f->found = f->paren;
          return 1;
        }
        f->state = 0;
        break;
    }
    i++;
  }
  f->at += (int64_t)n;
  return 0;
}

/* The first cut at or after from, looking at most limit bytes; -1 if none. */
static int64_t find_cut(input_reader *r, const char *path, int64_t from,
                        int64_t limit) {
  finder f;
  memset(&f, 0, sizeof f);
  f.at = from;
  f.found = -1;
  if (input_read_range(r, path, from, limit, FIND_FIRST, find_data, &f) != 0)
    return -1;
  return f.found;
}

/* ------------------------------------------------------------ tasks */

typedef struct range {
  const char *path;
  const ranges_ops *ops;
  int64_t off, len;
  int last; /* the file's last range */
  void *state;
  void *result;
  int ok; /* read whole, and (unless last) between game trees */
  uv_work_t req;
} range;

/* In libuv's thread pool: one range, read in place. */
static void range_work(uv_work_t *req) {
  range *g = req->data;
  input_reader *r = input_reader_create(0);
  int rc;
  g->ok = 0;
  if (r == NULL) return;
  g->ops->begin(g->state);
  rc = input_read_range(r, g->path, g->off, g->len, 0, g->ops->data, g->state);
  g->ok = rc == 0 && (g->last || g->ops->between(g->state));
  g->ops->end(g->state, g->result);
  input_reader_destroy(r);
}

static void range_done(uv_work_t *req, int status) {
  (void)req;
  (void)status;
}

/* SGF_RANGES_DEBUG set: say on stderr how the file was read (the tests
 * check that both ways are taken). */
static void debug(const char *path, const char *fmt, unsigned a, long long b) {
  const char *e = getenv("SGF_RANGES_DEBUG");
  if (e == NULL || !*e) return;
  fprintf(stderr, "sgf: ranges: %s: ", path);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
}

static int64_t min_size(void) {
  const char *e = getenv("SGF_RANGES_MIN");
  if (e != NULL && *e) {
    char *end;
    long long v = strtoll(e, &end, 10);
    if (*end == '\0' && v >= 0) return (int64_t)v;
  }
  return RANGES_MIN;
}

int ranges_run(const char *path, unsigned n, const ranges_ops *ops, void *arg,
               void *result) {
  input_reader *m;
  int64_t size, cuts[RANGES_MAX + 1];
  unsigned k, nr = 0;
  uv_loop_t loop;
  range *g = NULL;
  unsigned char *results = NULL;
  int ok = 0;

  if (n < 2) return -1;
  if (n > RANGES_MAX) n = RANGES_MAX;
  jobs_pool_size(n);
  m = input_reader_create(0);
  if (m == NULL) return -1;
  size = input_plain_size(m, path, min_size());
  if (size <= 0) {
    input_reader_destroy(m);
    return -1;
  }
  /* Each search looks no further than the next target, so that all of
   * them together read the file at most once (a file that is one huge
   * game has no cut at all). */
  cuts[nr++] = 0;
  for (k = 1; k < n; k++) {
    int64_t t = size / n * k, c;
    if (t <= cuts[nr - 1]) t = cuts[nr - 1] + 1;
    if (t >= size) break;
    c = find_cut(m, path, t, size - t < size / n ? size - t : size / n);
    if (c < 0) continue; /* none before the next target: try from there */
    if (c <= cuts[nr - 1] || c >= size) break;
    cuts[nr++] = c;
  }
  input_reader_destroy(m);
  if (nr < 2) {
    debug(path, "no cut (%u), %lld bytes: read whole", nr, (long long)size);
    return -1;
  }
  cuts[nr] = size;

  g = calloc(nr, sizeof *g);
  results = calloc(nr, ops->result_size);
  if (g == NULL || results == NULL) goto out;
  for (k = 0; k < nr; k++) {
    g[k].path = path;
    g[k].ops = ops;
    g[k].off = cuts[k];
    g[k].len = cuts[k + 1] - cuts[k];
    g[k].last = k == nr - 1;
    g[k].result = results + (size_t)k * ops->result_size;
    g[k].state = ops->create(arg);
    if (g[k].state == NULL) goto out;
  }
  /* All ranges at once on the pool (N + 1 threads: jobs_pool_size());
   * the loop only waits for them. */
  if (uv_loop_init(&loop) != 0) goto out;
  for (k = 0; k < nr; k++) {
    g[k].req.data = &g[k];
    uv_queue_work(&loop, &g[k].req, range_work, range_done);
  }
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  ok = 1;
  for (k = 0; k < nr; k++)
    if (!g[k].ok) {
      debug(path,
            "range %u (from offset %lld) not between game trees at "
            "its end: read whole",
            k, (long long)g[k].off);
      ok = 0;
      break;
    }
  if (ok) {
    debug(path, "%u ranges, %lld bytes", nr, (long long)size);
    memcpy(result, results, ops->result_size);
    for (k = 1; k < nr; k++)
      ops->add(result, results + (size_t)k * ops->result_size);
  }
out:
  if (g != NULL)
    for (k = 0; k < nr; k++)
      if (g[k].state != NULL) ops->destroy(g[k].state);
  free(g);
  free(results);
  return ok ? 0 : -1;
}
