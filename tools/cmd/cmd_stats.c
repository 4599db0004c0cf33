/* cmd_stats.c - `sgf stats`: counts per input and in total, as a table or
 * JSON, printed as each input ends so memory stays the same for any
 * number of inputs.
 *
 * With -j N (N > 1) the inputs are counted in N threads (jobs.h): each
 * has a counter of its own (a parser and its stats), and the rows come
 * back to the main thread in input order, so the output is the same as
 * with -j 1 but for the times. -j 1, the default, reads everything on the
 * main thread as before. A single large FILE is counted instead in N
 * byte ranges at once, cut between game trees (ranges.h), when the cuts
 * prove sound; else it too is read the ordinary way. */
#define _POSIX_C_SOURCE 200809L

#include "input.h"
#include "jobs.h"
#include "progress.h"
#include "ranges.h"
#include "sgf.h"
#include "stats.h"
#include "summary.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Counting one input at a time: the main thread's, or a worker's. */
typedef struct counter {
  sgf_parser *p;
  summary *sum;      /* --summary: what the parser counts, with cur */
  struct run *owner; /* whose summary a worker's joins at the end */
  size_t chunk;
  stats cur;
  sgf_event ev[256]; /* batched events, without --summary */
  int stopped;       /* the parser stopped: count the rest of the bytes */
  uint64_t start;    /* uv_hrtime() at the input's begin */
} counter;

/* What one input gives. */
typedef struct result {
  stats s;
  uint64_t ns;
} result;

typedef struct run {
  counter c;
  int json, total_only, no_time;
  int summary;  /* --summary */
  unsigned top; /* --top=N */
  summary *sum; /* the whole run's (--summary) */
  unsigned jobs;
  stats total;
  uint64_t files, unreadable;
  uint64_t incomplete; /* inputs counted up to a read error */
  int status;          /* EXIT_NO_INPUT when a FILE held no input */
  int rows;            /* rows printed so far */
} run;

void help_stats(FILE *f) {
  fprintf(f,
          "usage: sgf stats [--json] [-t | --summary [--top=N]] [--no-time]\n"
          "                 [--chunk=N] [-j N] "
          "[FILE]...\n"
          "\n"
          "Count what each FILE (and each .sgf file inside an archive) "
          "holds:\n"
          "games (top-level game trees), variations (alternative lines:\n"
          "a node's second, third ... child), nodes, properties, values, "
          "moves (B\n"
          "and W properties), the deepest nesting of game trees, bytes, "
          "warnings\n"
          "and errors; the time taken and MB/s (1 MB = 10^6 bytes). One "
          "row per\n"
          "input, then the total. With no FILE, or when FILE is -, read "
          "standard\n"
          "input.\n"
          "\n"
          "      --json      print one JSON object: {\"files\": [...], "
          "\"total\": {...}}\n"
          "                  (with -t only \"total\", with --summary also "
          "\"summary\")\n"
          "  -t, --total     print only the total\n"
          "      --summary   the total, then games by result, board size, "
          "year,\n"
          "                  rules and player, and the spread of game "
          "lengths\n"
          "                  (main-line moves); with --json all the "
          "counts, which\n"
          "                  add up across parts of a collection "
          "(mergeable); a value\n"
          "                  over %u bytes is cut, its key ending in "
          "an\n"
          "                  ellipsis (U+2026)\n"
          "      --top=N     values shown per table in the text of "
          "--summary\n"
          "                  (default 10; the JSON has them all)\n"
          "      --no-time   leave out the time and speed\n"
          "      --chunk=N   feed the parser N bytes at a time\n"
          "  -j, --jobs=N    count N inputs at a time in N threads (1 to "
          "%d,\n"
          "                  default 1), or one large FILE in N parts "
          "(not with\n"
          "                  --summary); the output is the same as with "
          "-j 1\n"
          "      --progress  show a progress line on stderr (default: "
          "on a\n"
          "                  terminal, for jobs over half a second)\n"
          "      --quiet     no progress line\n"
          "  -h, --help      show this help\n"
          "\n"
          "An input whose reading broke off (a truncated game.sgf.gz) "
          "gets the row\n"
          "of what was read, marked (incomplete); it is an "
          "error.\n" EXIT_STATUS_HELP,
          SUMMARY_MAX_VALUE, JOBS_MAX);
}

/* ------------------------------------------------------------ output */

static double seconds(uint64_t ns) { return (double)ns / 1e9; }

static double mb_per_s(uint64_t bytes, uint64_t ns) {
  return ns ? (double)bytes / 1e6 / seconds(ns) : 0.0;
}

/* A JSON string: valid UTF-8 passes through, other bytes become U+FFFD. */
static void json_string(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  putchar('"');
  while (*u) {
    unsigned char c = *u;
    size_t n = 0, i;
    if (c == '"' || c == '\\') {
      printf("\\%c", c);
      u++;
      continue;
    }
    if (c < 0x20) {
      printf("\\u%04x", c);
      u++;
      continue;
    }
    if (c < 0x80) {
      putchar(c);
      u++;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf)
      n = 1;
    else if (c >= 0xe0 && c <= 0xef)
      n = 2;
    else if (c >= 0xf0 && c <= 0xf4)
      n = 3;
    for (i = 1; i <= n; i++)
      if ((u[i] & 0xc0) != 0x80) break;
    /* Reject overlong forms, surrogates and code points past U+10FFFF. */
    if (n == 0 || i <= n || (c == 0xe0 && u[1] < 0xa0) ||
        (c == 0xed && u[1] >= 0xa0) || (c == 0xf0 && u[1] < 0x90) ||
        (c == 0xf4 && u[1] >= 0x90)) {
      fputs("\\ufffd", stdout);
      u++;
      continue;
    }
    fwrite(u, 1, n + 1, stdout);
    u += n + 1;
  }
  putchar('"');
}

static void json_counts(const run *r, const stats *s, uint64_t ns) {
  printf("\"games\":%" PRIu64 ",\"variations\":%" PRIu64 ",\"nodes\":%" PRIu64
         ",\"properties\":%" PRIu64 ",\"values\":%" PRIu64 ",\"moves\":%" PRIu64
         ",\"max_depth\":%" PRIu64 ",\"bytes\":%" PRIu64
         ",\"warnings\":%" PRIu64 ",\"errors\":%" PRIu64,
         s->games, s->variations, s->nodes, s->properties, s->values, s->moves,
         s->max_depth, s->bytes, s->warnings, s->errors);
  if (!r->no_time)
    printf(",\"seconds\":%.6f,\"mb_per_s\":%.1f", seconds(ns),
           mb_per_s(s->bytes, ns));
}

static void table_header(const run *r) {
  printf("%8s %9s %10s %10s %9s %8s %5s %11s %6s %6s", "games", "vars", "nodes",
         "props", "values", "moves", "depth", "bytes", "warn", "error");
  if (!r->no_time) printf(" %9s %8s", "seconds", "MB/s");
  printf("  %s\n", "file");
}

static void table_row(const run *r, const stats *s, uint64_t ns,
                      const char *name, const char *error) {
  printf("%8" PRIu64 " %9" PRIu64 " %10" PRIu64 " %10" PRIu64 " %9" PRIu64
         " %8" PRIu64 " %5" PRIu64 " %11" PRIu64 " %6" PRIu64 " %6" PRIu64,
         s->games, s->variations, s->nodes, s->properties, s->values, s->moves,
         s->max_depth, s->bytes, s->warnings, s->errors);
  if (!r->no_time) printf(" %9.3f %8.1f", seconds(ns), mb_per_s(s->bytes, ns));
  printf("  %s%s\n", name, error ? " (incomplete)" : "");
}

/* A row; error: NULL, or why reading broke off after what s counts. */
static void print_row(run *r, const char *name, const stats *s, uint64_t ns,
                      const char *error) {
  if (r->total_only) return;
  progress_clear(); /* when both go to one terminal */
  if (r->json) {
    fputs(r->rows ? ",\n{\"name\":" : "\n{\"name\":", stdout);
    json_string(name);
    putchar(',');
    json_counts(r, s, ns);
    if (error) {
      fputs(",\"incomplete\":true,\"error\":", stdout);
      json_string(error);
    }
    putchar('}');
  } else {
    if (r->rows == 0) table_header(r);
    table_row(r, s, ns, name, error);
  }
  r->rows++;
}

static void print_total(run *r, uint64_t ns) {
  if (r->json) {
    printf("%s\"total\":{\"files\":%" PRIu64 ",\"unreadable\":%" PRIu64
           ",\"incomplete\":%" PRIu64 ",",
           r->total_only ? "{" : "\n],\n", r->files, r->unreadable,
           r->incomplete);
    json_counts(r, &r->total, ns);
    putchar('}');
    if (r->summary) {
      fputs(",\"summary\":{", stdout);
      summary_json(r->sum, stdout);
      putchar('}');
    }
    puts("}");
    return;
  }
  if (r->rows == 0) table_header(r);
  table_row(r, &r->total, ns, "total", NULL);
  if (r->summary) summary_print(r->sum, stdout, r->top);
}

/* ------------------------------------------------------------ counting */

/* with_summary: count a summary too (--summary). */
static int counter_init(counter *c, size_t chunk, int with_summary) {
  sgf_callbacks cb;
  void *user = &c->cur;
  memset(c, 0, sizeof *c);
  c->chunk = chunk;
  stats_callbacks(&cb);
  if (with_summary) {
    c->sum = malloc(sizeof *c->sum);
    if (c->sum == NULL || summary_init(c->sum, &c->cur) != 0) {
      if (c->sum != NULL) summary_free(c->sum);
      free(c->sum);
      c->sum = NULL;
      return -1;
    }
    summary_callbacks(&cb);
    if (!runs_wanted()) cb.on_moves = NULL; /* every move as its events */
    user = c->sum;
  }
  c->p = sgf_parser_create(&cb, user, NULL);
  if (c->p == NULL) return -1;
  /* Batches count faster than the callbacks (stats.h); the summary's
   * handlers are callbacks, which take move runs (on_moves). Without
   * runs (SGF_NO_RUNS), the callbacks count. */
  if (!with_summary && runs_wanted() &&
      stats_batch(c->p, c->ev, sizeof c->ev / sizeof c->ev[0]) != SGF_OK)
    return -1;
  return 0;
}

static void counter_free(counter *c) {
  sgf_parser_destroy(c->p);
  if (c->sum != NULL) summary_free(c->sum);
  free(c->sum);
}

static void counter_begin(counter *c) {
  sgf_parser_reset(c->p);
  stats_reset(&c->cur);
  if (c->sum != NULL) summary_begin(c->sum);
  c->stopped = 0;
  c->start = uv_hrtime();
}

static void counter_data(counter *c, const char *buf, size_t len) {
  uint64_t games = c->cur.games;
  c->cur.bytes += len;
  if (!c->stopped && feed_chunked(c->p, buf, len, c->chunk) != SGF_OK)
    c->stopped = 1; /* read on: bytes still counts the whole input */
  progress_games(c->cur.games - games);
}

/* broken: reading broke off, so the end of the bytes is not the end of
 * the input (no unclosed game tree to report there). */
/* input_sink.note: UTF-16 input, reported through the parser. */
static void counter_note(void *state, int what, uint64_t off) {
  counter *c = state;
  if (!c->stopped) report_input_note(c->p, what, off);
}

static void counter_end(counter *c, int broken, result *out) {
  if (!c->stopped && !broken) finish_chunked(c->p);
  if (c->sum != NULL) summary_end(c->sum);
  out->s = c->cur;
  out->ns = uv_hrtime() - c->start;
}

/* An input was counted: into the total, and its row. error: NULL, or why
 * reading it broke off (what was read before is counted all the same). */
static void account(run *r, const char *name, const result *res,
                    const char *error) {
  if (error != NULL) {
    report_failure(name, error);
    r->incomplete++;
  }
  r->files++;
  stats_add(&r->total, &res->s);
  print_row(r, name, &res->s, res->ns, error);
}

/* ------------------------------------------------------------ inputs */

static void begin(void *ctx, const char *name) {
  run *r = ctx;
  (void)name;
  counter_begin(&r->c);
}

static int data(void *ctx, const char *buf, size_t len) {
  run *r = ctx;
  counter_data(&r->c, buf, len);
  return 0;
}

static void note(void *ctx, int what, uint64_t off) {
  run *r = ctx;
  counter_note(&r->c, what, off);
}

static void end(void *ctx, const char *name, const char *error) {
  run *r = ctx;
  result res;
  counter_end(&r->c, error != NULL, &res);
  account(r, name, &res, error);
}

static void fail(void *ctx, const char *name, const char *error) {
  run *r = ctx;
  report_failure(name, error);
  r->unreadable++;
}

static void none(void *ctx, const char *name, const char *why) {
  run *r = ctx;
  r->status = exit_worse(r->status, report_no_input(name, why));
}

static const input_sink sink = {begin, data, end, fail, none, note};

/* ------------------------------------------------------------ -j N */

static void *job_create(void *arg) {
  run *r = arg;
  counter *c = malloc(sizeof *c);
  if (c != NULL && counter_init(c, r->c.chunk, r->summary) != 0) {
    counter_free(c);
    free(c);
    c = NULL;
  }
  if (c != NULL) c->owner = r;
  return c;
}

static void job_destroy(void *state) {
  counter *c = state;
  /* On the main thread, once the tasks are over (jobs.c's free_jobs). */
  if (c->sum != NULL && summary_merge(c->owner->sum, c->sum) != 0)
    c->owner->sum->failed = 1;
  counter_free(c);
  free(c);
}

static void job_begin(void *state, const char *name) {
  (void)name;
  counter_begin(state);
}

static int job_data(void *state, const char *buf, size_t len) {
  counter_data(state, buf, len);
  return 0;
}

static void job_end(void *state, const char *name, const char *error,
                    void *res) {
  (void)name;
  counter_end(state, error != NULL, res);
}

static void job_deliver(void *arg, const char *name, const void *res,
                        const char *error) {
  account(arg, name, res, error);
}

static const jobs_ops job_ops = {
    sizeof(result), job_create,  job_destroy, job_begin, job_data,
    job_end,        job_deliver, fail,        &sink,     counter_note};

/* ------------------------------------------------------------ one FILE
 * in ranges (ranges.h): the same counters, one per range */

static void range_begin(void *state) { counter_begin(state); }

static int range_between(void *state) {
  const counter *c = state;
  return !c->stopped && sgf_parser_depth(c->p) == 0;
}

static void range_end(void *state, void *res) { counter_end(state, 0, res); }

static void range_add(void *sum, const void *part) {
  stats_add(&((result *)sum)->s, &((const result *)part)->s);
}

static const ranges_ops range_ops = {sizeof(result), job_create, job_destroy,
                                     range_begin,    job_data,   range_between,
                                     range_end,      range_add};

/* The N of --top=N: a count of players to show. 0, or -1 (reported). */
static int parse_top(const char *arg, unsigned *out) {
  char *end;
  unsigned long v = strtoul(arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || v > 1000000) {
    fprintf(stderr,
            "sgf: stats: invalid --top '%s' (0 to 1000000)\n"
            "Try 'sgf stats --help'.\n",
            arg);
    return -1;
  }
  *out = (unsigned)v;
  return 0;
}

int cmd_stats(int argc, char **argv) {
  enum {
    OPT_CHUNK = OPT_LONG_BASE,
    OPT_NO_TIME,
    OPT_JSON,
    OPT_JOBS,
    OPT_SUMMARY,
    OPT_TOP
  };
  static const struct option longopts[] = {
      {"json", no_argument, NULL, OPT_JSON},
      {"total", no_argument, NULL, 't'},
      {"summary", no_argument, NULL, OPT_SUMMARY},
      {"top", required_argument, NULL, OPT_TOP},
      {"no-time", no_argument, NULL, OPT_NO_TIME},
      {"chunk", required_argument, NULL, OPT_CHUNK},
      /* not 'j': option_error() names a long option by its code */
      {"jobs", required_argument, NULL, OPT_JOBS},
      PROGRESS_LONGOPTS,
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static char *stdin_only[] = {"-", NULL};
  run r;
  input_reader *in;
  char **files;
  size_t chunk = 0;
  int nfiles, ch, i, ran = 0;
  uint64_t t0;

  memset(&r, 0, sizeof r);
  r.jobs = 1;
  r.top = 10;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":j:th", longopts, NULL)) != -1) {
    switch (ch) {
      case OPT_JSON:
        r.json = 1;
        break;
      case 't':
        r.total_only = 1;
        break;
      case OPT_NO_TIME:
        r.no_time = 1;
        break;
      case OPT_SUMMARY:
        r.summary = r.total_only = 1;
        break;
      case OPT_TOP:
        if (parse_top(optarg, &r.top) != 0) return EXIT_TROUBLE;
        break;
      case OPT_CHUNK:
        if (parse_chunk("stats", optarg, &chunk) != 0) return EXIT_TROUBLE;
        break;
      case 'j':
      case OPT_JOBS:
        if (jobs_parse("stats", optarg, &r.jobs) != 0) return EXIT_TROUBLE;
        break;
      case PROGRESS_OPT_ON:
      case PROGRESS_OPT_OFF:
        progress_option(ch);
        break;
      case 'h':
        help_stats(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("stats", ch, argv);
    }
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;

  in = input_reader_create(0);
  if (counter_init(&r.c, chunk, r.summary) != 0 || in == NULL) {
    report_failure("stats", "out of memory");
    counter_free(&r.c);
    input_reader_destroy(in);
    return EXIT_TROUBLE;
  }
  progress_start("stats", files, nfiles);
  r.sum = r.c.sum;
  t0 = uv_hrtime();
  if (r.json && !r.total_only) fputs("{\"files\":[", stdout);
  /* One large file: in ranges. Standard input alone is read on the main
   * thread anyway. */
  /* (Not with --summary: a range read again would count twice.) */
  if (r.jobs > 1 && nfiles == 1 && strcmp(files[0], "-") != 0 && !r.summary) {
    result res;
    uint64_t t1 = uv_hrtime();
    if (ranges_run(files[0], r.jobs, &range_ops, &r, &res) == 0) {
      res.ns = uv_hrtime() - t1;
      account(&r, files[0], &res, NULL);
      ran = 1;
    }
  }
  if (!ran && r.jobs > 1 && (nfiles > 1 || strcmp(files[0], "-") != 0))
    ran = jobs_run(in, files, nfiles, r.jobs, &job_ops, &r) == 0;
  if (!ran)
    for (i = 0; i < nfiles; i++) input_read(in, files[i], &sink, &r);
  progress_end();
  print_total(&r, uv_hrtime() - t0);
  input_reader_destroy(in);
  counter_free(&r.c);
  return finish_output(exit_worse(
      r.status, r.unreadable || r.incomplete || r.total.errors ? EXIT_TROUBLE
                : r.total.warnings                             ? EXIT_WARNINGS
                                                               : EXIT_CLEAN));
}
