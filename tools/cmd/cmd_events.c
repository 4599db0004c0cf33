/* cmd_events.c - `sgf events`: the event log of eventlog.h on stdout. */
#define _POSIX_C_SOURCE 200809L

#include "eventlog.h"
#include "input.h"
#include "sgf.h"

#include <getopt.h>
#include <string.h>

typedef struct events {
  evlog log; /* first: the parser's user pointer is both */
  sgf_callbacks cb;
  sgf_parser *p;
  size_t chunk;
  const char *arg; /* the FILE argument as the inputs are named */
  int many;        /* more than one FILE: name each input */
  int stopped;
  int have_error; /* an error or fatal error went through the log */
  sgf_diag last_error;
  int status;
} events;

void help_events(FILE *f) {
  fprintf(f,
          "usage: sgf events [--strict] [--chunk=N] [FILE]...\n"
          "\n"
          "Print every parser event of FILE, one line each:\n"
          "  OFFSET LINE:COL EVENT [ARGS]\n"
          "e.g. '2 1:3 property FF' or '5 1:6 value-data \"4\"'; the slices "
          "of\n"
          "a value are merged, so the log does not depend on --chunk. "
          "Before\n"
          "each input of an archive, and each FILE when there are several,\n"
          "a line '# NAME'. See sgf(1), EVENT LOG FORMAT. With no FILE, or\n"
          "when FILE is -, read standard input.\n"
          "\n"
          "  -s, --strict   stop at the first deviation from FF[4]\n"
          "      --chunk=N  feed the parser N bytes at a time\n"
          "  -h, --help     show this help\n"
          "\n" EXIT_STATUS_HELP);
}

static void write_line(void *ctx, const char *line, size_t len) {
  (void)ctx;
  fwrite(line, 1, len, stdout);
}

static void worse(events *e, int status) {
  e->status = exit_worse(e->status, status);
}

/* Note the severity, then log as usual. */
static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  events *e = u;
  worse(e, d->severity == SGF_SEV_WARNING ? EXIT_WARNINGS : EXIT_TROUBLE);
  if (d->severity != SGF_SEV_WARNING) {
    e->last_error = *d;
    e->have_error = 1;
  }
  return e->cb.on_diagnostic(p, u, d);
}

static void stopped(events *e, int st) {
  const sgf_diag *d = sgf_parser_error(e->p);
  e->stopped = 1;
  worse(e, EXIT_TROUBLE);
  /* Log the diagnostic that stopped the parser unless it was logged. */
  if (d != NULL && !(e->have_error && d->code == e->last_error.code &&
                     d->pos.offset == e->last_error.pos.offset))
    e->cb.on_diagnostic(e->p, &e->log, d);
  (void)st;
}

static void begin(void *ctx, const char *name) {
  events *e = ctx;
  sgf_parser_reset(e->p);
  e->log.count = 0;
  e->stopped = 0;
  e->have_error = 0;
  if (e->many || strcmp(name, e->arg) != 0) printf("# %s\n", name);
}

static int data(void *ctx, const char *buf, size_t len) {
  events *e = ctx;
  int st;
  if (e->stopped) return 1;
  st = feed_chunked(e->p, buf, len, e->chunk);
  if (st != SGF_OK) {
    stopped(e, st);
    return 1;
  }
  return 0;
}

static void note(void *ctx, int what, uint64_t off) {
  events *e = ctx;
  if (!e->stopped) report_input_note(e->p, what, off);
}

static void end(void *ctx, const char *name, const char *error) {
  events *e = ctx;
  if (!e->stopped && error == NULL) {
    int st = finish_chunked(e->p);
    if (st != SGF_OK) stopped(e, st);
  }
  evlog_flush(&e->log);
  if (error != NULL) {
    report_failure(name, error);
    worse(e, EXIT_TROUBLE);
  }
}

static void fail(void *ctx, const char *name, const char *error) {
  events *e = ctx;
  report_failure(name, error);
  worse(e, EXIT_TROUBLE);
}

static void none(void *ctx, const char *name, const char *why) {
  worse(ctx, report_no_input(name, why));
}

int cmd_events(int argc, char **argv) {
  enum { OPT_CHUNK = OPT_LONG_BASE };
  static const struct option longopts[] = {
      {"strict", no_argument, NULL, 's'},
      {"chunk", required_argument, NULL, OPT_CHUNK},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const input_sink sink = {begin, data, end, fail, none, note};
  static char *stdin_only[] = {"-", NULL};
  events e;
  sgf_options opt;
  sgf_callbacks cb;
  input_reader *in;
  char **files;
  int nfiles, ch, i;

  memset(&e, 0, sizeof e);
  sgf_options_init(&opt);
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":sh", longopts, NULL)) != -1) {
    switch (ch) {
      case 's':
        opt.flags |= SGF_OPT_STRICT;
        break;
      case OPT_CHUNK:
        if (parse_chunk("events", optarg, &e.chunk) != 0) return EXIT_TROUBLE;
        break;
      case 'h':
        help_events(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("events", ch, argv);
    }
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;
  e.many = nfiles > 1;

  evlog_init(&e.log, write_line, NULL);
  evlog_callbacks(&e.cb);
  cb = e.cb;
  cb.on_diagnostic = on_diagnostic;
  e.p = sgf_parser_create(&cb, &e, &opt);
  in = input_reader_create(0);
  if (e.p == NULL || in == NULL) {
    report_failure("events", "out of memory");
    sgf_parser_destroy(e.p);
    input_reader_destroy(in);
    return EXIT_TROUBLE;
  }
  for (i = 0; i < nfiles; i++) {
    e.arg = strcmp(files[i], "-") == 0 ? "<stdin>" : files[i];
    input_read(in, files[i], &sink, &e);
  }
  input_reader_destroy(in);
  sgf_parser_destroy(e.p);
  evlog_free(&e.log);
  return finish_output(e.status);
}
