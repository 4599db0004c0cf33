/* bench_events.c - throughput of the push parser on an in-memory input.
 *
 *   bench/bench_events [-n REPS] [-m MAXBYTES] FILE
 *
 * The file is read into memory once; every measurement then parses those
 * same bytes, so the numbers are the parser's and not the disk's. Each
 * measurement is the best (shortest) of REPS runs (default 5), timed with
 * CLOCK_MONOTONIC around parser creation, the feed loop, finish and
 * destruction.
 *
 *   memchr '\n'       counting newlines with memchr(): the ceiling, a loop
 *                     that touches every byte and does almost nothing.
 *   events/no-op      the event parser with every callback set to a
 *                     function that only returns SGF_CONTINUE, so each event
 *                     pays a real indirect call; at 64 KiB, 4 KiB and
 *                     64-byte chunks.
 *   events/null       the event parser with no callbacks at all.
 *   reader/no-op      the property reader (props.h) with a no-op
 *                     on_property.
 *
 * Event counts come from one extra, untimed run per configuration with
 * counting callbacks (the timed runs keep the pure no-op ones). The counts
 * that do not depend on chunking are cross-checked between configurations.
 * The parser's own memory is counted through sgf_allocator hooks, which
 * also check that every free gives back the size that was allocated.
 *
 * MB means 10^6 bytes. Exit status: 0, or 1 if a run did not parse
 * (status other than SGF_OK) or a cross-check failed, 2 on usage or I/O
 * errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <sgfstream.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------------- */
/* Time, input                                                             */

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *load_file(const char *path, size_t *len_out) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    fprintf(stderr, "bench_events: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    fprintf(stderr, "bench_events: %s: %s\n", path, strerror(errno));
    close(fd);
    return NULL;
  }
  /* One byte more than the size, so that EOF shows without a realloc. */
  size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096;
  char *buf = malloc(cap);
  size_t len = 0;
  if (buf == NULL) {
    fprintf(stderr, "bench_events: out of memory\n");
    close(fd);
    return NULL;
  }
  for (;;) {
    if (len == cap) {
      char *nb = realloc(buf, cap * 2);
      if (nb == NULL) {
        fprintf(stderr, "bench_events: out of memory\n");
        free(buf);
        close(fd);
        return NULL;
      }
      buf = nb;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      fprintf(stderr, "bench_events: %s: %s\n", path, strerror(errno));
      free(buf);
      close(fd);
      return NULL;
    }
    if (n == 0)
      break;
    len += (size_t)n;
  }
  close(fd);
  *len_out = len;
  return buf;
}

/* ---------------------------------------------------------------------- */
/* Counting allocator                                                      */

typedef struct alloc_stats {
  size_t cur;      /* bytes live now */
  size_t peak;     /* most bytes live at once */
  uint64_t calls;  /* malloc + realloc calls */
  int size_errors; /* frees/reallocs giving a size larger than what is live */
} alloc_stats;

static void note_alloc(alloc_stats *s, size_t n) {
  s->cur += n;
  if (s->cur > s->peak)
    s->peak = s->cur;
}

static void note_free(alloc_stats *s, size_t n) {
  if (n > s->cur) {
    s->size_errors++;
    s->cur = 0;
  } else {
    s->cur -= n;
  }
}

static void *counting_malloc(void *ctx, size_t size) {
  alloc_stats *s = ctx;
  void *p = malloc(size ? size : 1);
  s->calls++;
  if (p != NULL)
    note_alloc(s, size);
  return p;
}

static void *counting_realloc(void *ctx, void *ptr, size_t old_size,
                              size_t new_size) {
  alloc_stats *s = ctx;
  void *q = realloc(ptr, new_size ? new_size : 1);
  s->calls++;
  if (q != NULL) {
    if (ptr != NULL)
      note_free(s, old_size);
    note_alloc(s, new_size);
  }
  return q;
}

static void counting_free(void *ctx, void *ptr, size_t size) {
  alloc_stats *s = ctx;
  if (ptr == NULL)
    return;
  note_free(s, size);
  free(ptr);
}

/* ---------------------------------------------------------------------- */
/* Callbacks                                                               */

/* The no-op handlers: distinct functions, one per callback, each doing
 * nothing but returning SGF_CONTINUE. */
static int nop_tree_begin(sgf_parser *p, void *u) { (void)p; (void)u; return SGF_CONTINUE; }
static int nop_tree_end(sgf_parser *p, void *u) { (void)p; (void)u; return SGF_CONTINUE; }
static int nop_node(sgf_parser *p, void *u) { (void)p; (void)u; return SGF_CONTINUE; }
static int nop_property(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p; (void)u; (void)at; (void)len;
  return SGF_CONTINUE;
}
static int nop_value_begin(sgf_parser *p, void *u) { (void)p; (void)u; return SGF_CONTINUE; }
static int nop_value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p; (void)u; (void)at; (void)len;
  return SGF_CONTINUE;
}
static int nop_value_end(sgf_parser *p, void *u) { (void)p; (void)u; return SGF_CONTINUE; }
static int nop_property_end(sgf_parser *p, void *u) { (void)p; (void)u; return SGF_CONTINUE; }
static int nop_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  (void)p; (void)u; (void)d;
  return SGF_CONTINUE;
}
static int nop_reader_property(sgf_parser *p, void *u,
                               const sgf_property *prop) {
  (void)p; (void)u; (void)prop;
  return SGF_CONTINUE;
}

/* The counting handlers, for the untimed runs. */
typedef struct counts {
  uint64_t tree_begin, tree_end, node, property, value_begin, value_data,
      value_bytes, value_end, property_end, diagnostic;
  uint64_t games;     /* top-level game trees */
  uint64_t depth;     /* our own count of open trees */
  uint64_t diag_by_severity[4];
  uint64_t first_diag_code, first_diag_offset;
  uint64_t reader_values; /* reader: values over all properties */
} counts;

static uint64_t events_of(const counts *c) {
  return c->tree_begin + c->tree_end + c->node + c->property + c->value_begin +
         c->value_data + c->value_end + c->property_end + c->diagnostic;
}

static int cnt_tree_begin(sgf_parser *p, void *u) {
  counts *c = u;
  (void)p;
  c->tree_begin++;
  if (c->depth++ == 0)
    c->games++;
  return SGF_CONTINUE;
}
static int cnt_tree_end(sgf_parser *p, void *u) {
  counts *c = u;
  (void)p;
  c->tree_end++;
  if (c->depth > 0)
    c->depth--;
  return SGF_CONTINUE;
}
static int cnt_node(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->node++;
  return SGF_CONTINUE;
}
static int cnt_property(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p; (void)at; (void)len;
  ((counts *)u)->property++;
  return SGF_CONTINUE;
}
static int cnt_value_begin(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->value_begin++;
  return SGF_CONTINUE;
}
static int cnt_value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  counts *c = u;
  (void)p; (void)at;
  c->value_data++;
  c->value_bytes += len;
  return SGF_CONTINUE;
}
static int cnt_value_end(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->value_end++;
  return SGF_CONTINUE;
}
static int cnt_property_end(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->property_end++;
  return SGF_CONTINUE;
}
static int cnt_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  counts *c = u;
  (void)p;
  if (c->diagnostic == 0) {
    c->first_diag_code = (uint64_t)d->code;
    c->first_diag_offset = d->pos.offset;
  }
  c->diagnostic++;
  if (d->severity >= SGF_SEV_WARNING && d->severity <= SGF_SEV_FATAL)
    c->diag_by_severity[d->severity]++;
  return SGF_CONTINUE;
}
static int cnt_reader_property(sgf_parser *p, void *u,
                               const sgf_property *prop) {
  counts *c = u;
  (void)p;
  c->property++;
  c->reader_values += prop->nvalues;
  return SGF_CONTINUE;
}

static const sgf_callbacks nop_callbacks = {
    nop_tree_begin, nop_tree_end,    nop_node,
    nop_property,   nop_value_begin, nop_value_data,
    nop_value_end,  nop_property_end, nop_diagnostic};

static const sgf_callbacks cnt_callbacks = {
    cnt_tree_begin, cnt_tree_end,    cnt_node,
    cnt_property,   cnt_value_begin, cnt_value_data,
    cnt_value_end,  cnt_property_end, cnt_diagnostic};

static const sgf_reader_callbacks nop_reader_callbacks = {
    NULL, NULL, NULL, nop_reader_property, NULL};

/* Counting reader: tree/node/diagnostic go through the core counters. */
static const sgf_reader_callbacks cnt_reader_callbacks = {
    cnt_tree_begin, cnt_tree_end, cnt_node, cnt_reader_property,
    cnt_diagnostic};

/* ---------------------------------------------------------------------- */
/* One run                                                                 */

typedef enum run_kind { RUN_EVENTS, RUN_READER } run_kind;

typedef struct run_spec {
  const char *name;
  run_kind kind;
  size_t chunk;
  const sgf_callbacks *cb;            /* RUN_EVENTS, timed */
  const sgf_reader_callbacks *rcb;    /* RUN_READER, timed */
  int null_callbacks;                 /* events/null: cb is NULL */
} run_spec;

static const char *status_name(sgf_status st) {
  switch (st) {
  case SGF_OK: return "SGF_OK";
  case SGF_PAUSED: return "SGF_PAUSED";
  case SGF_ABORTED: return "SGF_ABORTED";
  case SGF_ERROR: return "SGF_ERROR";
  case SGF_BUSY: return "SGF_BUSY";
  }
  return "unknown status";
}

static void report_failure(const char *what, sgf_parser *p, sgf_status st,
                           uint64_t at) {
  fprintf(stderr, "bench_events: %s: %s at input offset %" PRIu64, what,
          status_name(st), at);
  const sgf_diag *d = p ? sgf_parser_error(p) : NULL;
  if (d != NULL)
    fprintf(stderr, ": %s (%s) at %" PRIu64 ":%" PRIu64 " offset %" PRIu64,
            sgf_diag_message(d->code), sgf_diag_name(d->code), d->pos.line,
            d->pos.column, d->pos.offset);
  fputc('\n', stderr);
}

/* Parse buf once. counting != 0 uses the counting callbacks with *c as
 * user data. Returns 0 on success, -1 on failure (already reported). */
static int run_once(const run_spec *rs, const char *buf, size_t len,
                    int counting, counts *c, alloc_stats *as,
                    double *seconds) {
  sgf_options opt;
  sgf_options_init(&opt);
  sgf_allocator al = {counting_malloc, counting_realloc, counting_free, as};
  opt.allocator = &al;

  const sgf_callbacks *cb = NULL;
  const sgf_reader_callbacks *rcb = NULL;
  void *user = counting ? (void *)c : NULL;
  if (rs->kind == RUN_EVENTS) {
    if (counting)
      cb = rs->null_callbacks ? NULL : &cnt_callbacks;
    else
      cb = rs->null_callbacks ? NULL : rs->cb;
  } else {
    rcb = counting ? &cnt_reader_callbacks : rs->rcb;
  }

  double t0 = now_seconds();
  sgf_reader *r = NULL;
  sgf_parser *p;
  if (rs->kind == RUN_READER) {
    r = sgf_reader_create(rcb, user, &opt);
    p = r ? sgf_reader_parser(r) : NULL;
  } else {
    p = sgf_parser_create(cb, user, &opt);
  }
  if (p == NULL) {
    fprintf(stderr, "bench_events: %s: could not create the parser\n",
            rs->name);
    sgf_reader_destroy(r);
    return -1;
  }

  size_t off = 0;
  sgf_status st = SGF_OK;
  while (off < len) {
    size_t n = len - off < rs->chunk ? len - off : rs->chunk;
    size_t used = 0;
    st = sgf_parser_feed(p, buf + off, n, &used);
    if (st != SGF_OK || used != n) {
      report_failure(rs->name, p, st, (uint64_t)(off + used));
      goto fail;
    }
    off += n;
  }
  st = sgf_parser_finish(p);
  if (st != SGF_OK) {
    report_failure(rs->name, p, st, (uint64_t)off);
    goto fail;
  }
  if (r != NULL)
    sgf_reader_destroy(r);
  else
    sgf_parser_destroy(p);
  *seconds = now_seconds() - t0;
  return 0;

fail:
  if (r != NULL)
    sgf_reader_destroy(r);
  else
    sgf_parser_destroy(p);
  return -1;
}

/* The dispatch floor: the time the indirect calls alone take, nevents of
 * them to the no-op handlers, in the order of a move node (node, property,
 * value-begin, value-data, value-end, property-end). The table is read
 * through a volatile pointer so the compiler cannot resolve the calls. */
static double dispatch_floor(uint64_t nevents) {
  static const sgf_callbacks *volatile table = &nop_callbacks;
  static const char id[] = "B";
  uint64_t rounds = nevents / 6;
  int acc = 0;
  double t0 = now_seconds();
  for (uint64_t i = 0; i < rounds; i++) {
    const sgf_callbacks *cb = table;
    acc |= cb->on_node(NULL, NULL);
    acc |= cb->on_property(NULL, NULL, id, 1);
    acc |= cb->on_value_begin(NULL, NULL);
    acc |= cb->on_value_data(NULL, NULL, id, 1);
    acc |= cb->on_value_end(NULL, NULL);
    acc |= cb->on_property_end(NULL, NULL);
  }
  double dt = now_seconds() - t0;
  return acc ? -1.0 : dt;
}

/* The timed runs go through here, never inlined, so that a profiler can
 * look at them alone: valgrind --tool=callgrind --toggle-collect=timed_run */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int timed_run(const run_spec *rs, const char *buf, size_t len,
                     double *seconds) {
  alloc_stats as;
  memset(&as, 0, sizeof as);
  return run_once(rs, buf, len, 0, NULL, &as, seconds);
}

/* ---------------------------------------------------------------------- */
/* Table                                                                   */

static void print_header(void) {
  printf("%-16s %7s %10s %12s %9s %8s %12s\n", "measurement", "chunk",
         "MB/s", "games/s", "ns/event", "%memchr", "events");
  printf("%-16s %7s %10s %12s %9s %8s %12s\n", "----------------", "-------",
         "----------", "------------", "---------", "--------",
         "------------");
}

static void chunk_label(size_t chunk, char *out, size_t outlen) {
  if (chunk == 0)
    snprintf(out, outlen, "-");
  else if (chunk % 1024 == 0)
    snprintf(out, outlen, "%zuKiB", chunk / 1024);
  else
    snprintf(out, outlen, "%zuB", chunk);
}

static double memchr_mbps;

static void print_row(const char *name, size_t chunk, size_t bytes,
                      double secs, uint64_t games, uint64_t events) {
  char cl[32], gs[32], ns[32], pct[32], ev[32];
  double mbps = (double)bytes / 1e6 / secs;
  chunk_label(chunk, cl, sizeof cl);
  if (games > 0)
    snprintf(gs, sizeof gs, "%.0f", (double)games / secs);
  else
    snprintf(gs, sizeof gs, "-");
  if (events > 0) {
    snprintf(ns, sizeof ns, "%.2f", secs * 1e9 / (double)events);
    snprintf(ev, sizeof ev, "%" PRIu64, events);
  } else {
    snprintf(ns, sizeof ns, "-");
    snprintf(ev, sizeof ev, "-");
  }
  if (memchr_mbps > 0 && strncmp(name, "memchr", 6) != 0)
    snprintf(pct, sizeof pct, "%.1f%%", 100.0 * mbps / memchr_mbps);
  else
    snprintf(pct, sizeof pct, "-");
  printf("%-16s %7s %10.1f %12s %9s %8s %12s\n", name, cl, mbps, gs, ns, pct,
         ev);
  fflush(stdout);
}

/* ---------------------------------------------------------------------- */

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench_events [-n REPS] [-m MAXBYTES] FILE\n"
          "  -n REPS      repetitions per measurement, best is kept "
          "(default 5)\n"
          "  -m MAXBYTES  use only the first MAXBYTES bytes of FILE "
          "(suffix k, M, G)\n"
          "  -o WHAT      run only the parser measurements whose label "
          "contains WHAT,\n"
          "               e.g. -o 'no-op 64KiB' (the label is the name, a "
          "space, the chunk)\n");
}

static int parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || end == s)
    return -1;
  switch (*end) {
  case '\0': break;
  case 'k': case 'K': v *= 1000ull; end++; break;
  case 'm': case 'M': v *= 1000000ull; end++; break;
  case 'g': case 'G': v *= 1000000000ull; end++; break;
  default: return -1;
  }
  if (*end != '\0')
    return -1;
  *out = (size_t)v;
  return 0;
}

int main(int argc, char **argv) {
  int reps = 5;
  size_t max_bytes = 0;
  const char *path = NULL;
  const char *only = NULL;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "-n") == 0 && i + 1 < argc) {
      reps = atoi(argv[++i]);
      if (reps < 1) {
        fprintf(stderr, "bench_events: -n wants a positive number\n");
        return 2;
      }
    } else if (strcmp(a, "-m") == 0 && i + 1 < argc) {
      if (parse_size(argv[++i], &max_bytes) != 0) {
        fprintf(stderr, "bench_events: bad size for -m: %s\n", argv[i]);
        return 2;
      }
    } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (a[0] == '-' && a[1] != '\0') {
      usage(stderr);
      return 2;
    } else if (path == NULL) {
      path = a;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (path == NULL) {
    usage(stderr);
    return 2;
  }

  size_t len;
  char *buf = load_file(path, &len);
  if (buf == NULL)
    return 2;
  if (max_bytes > 0 && max_bytes < len)
    len = max_bytes;

  printf("sgfstream %s (header %s): %s, %zu bytes (%.1f MB), best of %d\n",
         sgf_version(), SGF_VERSION_STRING, path, len, (double)len / 1e6,
         reps);

  /* Warm the buffer (page faults, caches) before any timing. */
  {
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < len; i += 4096)
      sink ^= (unsigned char)buf[i];
    (void)sink;
  }

  int failed = 0;
  print_header();

  /* The ceiling: memchr over every byte, counting newlines. */
  uint64_t newlines = 0;
  {
    double best = 0;
    for (int r = 0; r < reps; r++) {
      double t0 = now_seconds();
      uint64_t nl = 0;
      const char *q = buf, *end = buf + len;
      while (q < end && (q = memchr(q, '\n', (size_t)(end - q))) != NULL) {
        nl++;
        q++;
      }
      double dt = now_seconds() - t0;
      newlines = nl;
      if (r == 0 || dt < best)
        best = dt;
    }
    memchr_mbps = (double)len / 1e6 / best;
    print_row("memchr '\\n'", 0, len, best, 0, 0);
  }

  const run_spec specs[] = {
      {"events/no-op", RUN_EVENTS, 64 * 1024, &nop_callbacks, NULL, 0},
      {"events/no-op", RUN_EVENTS, 4 * 1024, &nop_callbacks, NULL, 0},
      {"events/no-op", RUN_EVENTS, 64, &nop_callbacks, NULL, 0},
      {"events/null", RUN_EVENTS, 64 * 1024, NULL, NULL, 1},
      {"reader/no-op", RUN_READER, 64 * 1024, NULL, &nop_reader_callbacks, 0},
  };
  enum { NSPECS = sizeof specs / sizeof specs[0] };
  counts ref;
  memset(&ref, 0, sizeof ref);
  int have_ref = 0;
  size_t events_peak = 0, reader_peak = 0;
  uint64_t events_allocs = 0, reader_allocs = 0;

  for (int s = 0; s < NSPECS; s++) {
    const run_spec *rs = &specs[s];
    counts c;
    alloc_stats as;
    double dt;

    if (only != NULL) {
      char label[64], cl[32];
      chunk_label(rs->chunk, cl, sizeof cl);
      snprintf(label, sizeof label, "%s %s", rs->name, cl);
      if (strstr(label, only) == NULL)
        continue;
    }

    /* Untimed counting run (also gives the parser's memory). */
    memset(&c, 0, sizeof c);
    memset(&as, 0, sizeof as);
    if (run_once(rs, buf, len, 1, &c, &as, &dt) != 0) {
      failed = 1;
      continue;
    }
    if (as.cur != 0 || as.size_errors != 0) {
      fprintf(stderr,
              "bench_events: %s: allocator accounting: %zu bytes still "
              "live after destroy, %d frees with a wrong size\n",
              rs->name, as.cur, as.size_errors);
      failed = 1;
    }
    if (rs->kind == RUN_EVENTS) {
      if (as.peak > events_peak)
        events_peak = as.peak;
      events_allocs = as.calls;
    } else {
      reader_peak = as.peak;
      reader_allocs = as.calls;
    }

    /* Cross-checks: chunking must not change the structure. */
    if (rs->kind == RUN_EVENTS && !rs->null_callbacks) {
      if (!have_ref) {
        ref = c;
        have_ref = 1;
        if (c.value_begin != c.value_end || c.tree_begin != c.tree_end ||
            c.property != c.property_end) {
          fprintf(stderr,
                  "bench_events: unbalanced events: trees %" PRIu64
                  "/%" PRIu64 ", values %" PRIu64 "/%" PRIu64
                  ", properties %" PRIu64 "/%" PRIu64 "\n",
                  c.tree_begin, c.tree_end, c.value_begin, c.value_end,
                  c.property, c.property_end);
          failed = 1;
        }
      } else if (c.tree_begin != ref.tree_begin || c.node != ref.node ||
                 c.property != ref.property ||
                 c.value_begin != ref.value_begin ||
                 c.value_bytes != ref.value_bytes ||
                 c.diagnostic != ref.diagnostic) {
        fprintf(stderr,
                "bench_events: %s at %zu-byte chunks: event counts differ "
                "from 64 KiB chunks (trees %" PRIu64 " vs %" PRIu64
                ", nodes %" PRIu64 " vs %" PRIu64 ", properties %" PRIu64
                " vs %" PRIu64 ", values %" PRIu64 " vs %" PRIu64
                ", value bytes %" PRIu64 " vs %" PRIu64
                ", diagnostics %" PRIu64 " vs %" PRIu64 ")\n",
                rs->name, rs->chunk, c.tree_begin, ref.tree_begin, c.node,
                ref.node, c.property, ref.property, c.value_begin,
                ref.value_begin, c.value_bytes, ref.value_bytes,
                c.diagnostic, ref.diagnostic);
        failed = 1;
      }
    } else if (rs->kind == RUN_READER && have_ref) {
      if (c.property != ref.property || c.reader_values != ref.value_begin ||
          c.games != ref.games) {
        fprintf(stderr,
                "bench_events: reader: %" PRIu64 " properties / %" PRIu64
                " values / %" PRIu64 " games, events parser: %" PRIu64
                " / %" PRIu64 " / %" PRIu64 "\n",
                c.property, c.reader_values, c.games, ref.property,
                ref.value_begin, ref.games);
        failed = 1;
      }
    }

    /* Timed runs. */
    double best = 0;
    int ok = 1;
    for (int r = 0; r < reps; r++) {
      if (timed_run(rs, buf, len, &dt) != 0) {
        ok = 0;
        failed = 1;
        break;
      }
      if (r == 0 || dt < best)
        best = dt;
    }
    if (!ok)
      continue;

    uint64_t games = have_ref ? ref.games : c.games;
    uint64_t events = 0;
    if (rs->kind == RUN_EVENTS && !rs->null_callbacks)
      events = events_of(&c);
    else if (rs->kind == RUN_READER)
      events = c.tree_begin + c.tree_end + c.node + c.property;
    print_row(rs->name, rs->chunk, len, best, games, events);
  }

  /* What the no-op dispatch alone costs for the 64 KiB event count. */
  if (have_ref && events_of(&ref) >= 6) {
    double best = 0;
    for (int r = 0; r < reps; r++) {
      double dt = dispatch_floor(events_of(&ref));
      if (r == 0 || dt < best)
        best = dt;
    }
    print_row("calls only", 0, len, best, ref.games, events_of(&ref));
  }

  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("\n");
  if (have_ref) {
    printf("input: %" PRIu64 " games, %" PRIu64 " game trees, %" PRIu64
           " nodes, %" PRIu64 " properties, %" PRIu64 " values (%" PRIu64
           " value bytes), %" PRIu64 " newlines\n",
           ref.games, ref.tree_begin, ref.node, ref.property, ref.value_begin,
           ref.value_bytes, newlines);
    printf("diagnostics: %" PRIu64 " (%" PRIu64 " warnings, %" PRIu64
           " errors, %" PRIu64 " fatal)",
           ref.diagnostic, ref.diag_by_severity[SGF_SEV_WARNING],
           ref.diag_by_severity[SGF_SEV_ERROR],
           ref.diag_by_severity[SGF_SEV_FATAL]);
    if (ref.diagnostic > 0)
      printf("; first: %s at offset %" PRIu64,
             sgf_diag_name((sgf_diag_code)ref.first_diag_code)
                 ? sgf_diag_name((sgf_diag_code)ref.first_diag_code)
                 : "?",
             ref.first_diag_offset);
    printf("\n");
  }
  printf("ns/event: events/no-op counts every callback invocation "
         "(value slices included); reader/no-op counts trees, nodes and "
         "properties\n");
  printf("calls only: the events/no-op 64KiB number of indirect calls to "
         "the no-op handlers and nothing else, the floor for events/no-op "
         "on this input\n");
  printf("parser memory (allocator hooks): events parser peak %zu bytes "
         "(%" PRIu64 " allocation calls per run), reader peak %zu bytes "
         "(%" PRIu64 " calls per run)\n",
         events_peak, events_allocs, reader_peak, reader_allocs);
  printf("process peak RSS (ru_maxrss): %.1f MiB, of which the input "
         "buffer is %.1f MiB\n",
         (double)ru.ru_maxrss / 1024.0, (double)len / (1024.0 * 1024.0));

  free(buf);
  return failed ? 1 : 0;
}
