/* cmd_check.c - `sgf check`: diagnostics in the form editors parse,
 * FILE:LINE:COL: SEVERITY: MESSAGE [NAME/CODE], and a summary.
 *
 * --ignore and --errors-only silence diagnostics, as SGFC's -d and -w
 * do: a silenced one is neither printed nor counted, only tallied as
 * "ignored" in the summary. The diagnostic that stops a parse (a fatal
 * error, or any in strict mode) is reported all the same: the rest of
 * that input was not checked, so it must not pass for clean.
 *
 * The semantic checks (sgfstream/check.h: a move and setup in one node,
 * points off the board, values not of their type...) run unless
 * --syntax-only: a checker chained onto the parser's callbacks reports
 * them as diagnostics like the parser's own, so --ignore, --errors-only
 * and --strict (the first one stops the parse, an error) apply alike. */
#define _POSIX_C_SOURCE 200809L

#include "input.h"
#include "progress.h"
#include "sgf.h"

#include <getopt.h>
#include <inttypes.h>
#include <string.h>

typedef struct check {
  sgf_parser *p;
  sgf_checker *checker; /* NULL with --syntax-only */
  size_t chunk;
  int quiet;
  unsigned char ignore[SGF_DIAG_MAX_]; /* by code: silenced */
  int errors_only;                     /* all warnings silenced */
  /* The input being checked. */
  const char *name;
  int stopped; /* the parser stopped: skip the rest */
  uint64_t warnings, errors;
  sgf_diag last_error; /* the last error or fatal error reported */
  int have_last_error;
  sgf_diag last_ignored; /* the last diagnostic silenced */
  int have_last_ignored;
  uint64_t ignored;
  /* Totals. */
  uint64_t files, clean, warned, failed;
  uint64_t total_warnings, total_errors, total_ignored;
  int status; /* EXIT_NO_INPUT when a FILE held no input */
} check;

void help_check(FILE *f) {
  fprintf(
      f,
      "usage: sgf check [--strict] [--syntax-only] [-q]\n"
      "                 [--ignore=NAME[,NAME]...] [--errors-only] "
      "[--chunk=N]\n"
      "                 [FILE]...\n"
      "\n"
      "Parse each FILE (and each .sgf file inside an archive) and print\n"
      "its diagnostics on standard output as\n"
      "  FILE:LINE:COL: SEVERITY: MESSAGE [NAME/CODE] (opened at "
      "LINE:COL)\n"
      "then a summary on standard error. With no FILE, or when FILE is "
      "-,\n"
      "read standard input.\n"
      "\n"
      "  -s, --strict   stop at the first deviation from FF[4] (an "
      "error)\n"
      "      --syntax-only\n"
      "                 skip the semantic checks: check the syntax only\n"
      "  -q, --quiet    print only the summary (and unreadable files)\n"
      "      --ignore=NAME[,NAME]...\n"
      "                 silence the diagnostics NAME, given by name or "
      "number\n"
      "                 as in [NAME/CODE] (lowercase-ident or 13); "
      "repeatable\n"
      "      --errors-only\n"
      "                 silence all warnings\n"
      "      --chunk=N  feed the parser N bytes at a time\n"
      "      --progress show a progress line on stderr (default: on a\n"
      "                 terminal, jobs over half a second; -q: never)\n"
      "  -h, --help     show this help\n"
      "\n"
      "A silenced diagnostic is neither printed nor counted toward the "
      "exit\n"
      "status; the summary tells how many were ignored. The one that "
      "stops a\n"
      "parse (a fatal error, or any with --strict) is always "
      "reported.\n"
      "\n"
      "Besides the syntax, check applies FF[4]'s rules about what\n"
      "properties and values mean (warnings 28-40, --syntax-only skips them):\n"
      "  move-and-setup      move and setup properties in one node\n"
      "  two-moves           B and W in one node\n"
      "  root-outside-root   AP CA FF GM ST SZ outside the root node\n"
      "  game-info-twice     game info in two nodes of one path\n"
      "  duplicate-property  a property twice in one node\n"
      "  off-board           a point off the board\n"
      "  bad-value           a value not of its property's type\n"
      "  several-values      several values for a single-value property\n"
      "  unknown-ff          FF other than 1-4\n"
      "  unknown-gm          GM other than 1-40\n"
      "  sz-range            SZ other than 1-52\n"
      "  not-rectangle       a compressed point list not "
      "upper-left:lower-right\n"
      "  bad-utf8            bytes that are not UTF-8 under CA[UTF-8]\n"
      "\n" EXIT_STATUS_HELP);
}

static void print_diag(check *c, const sgf_diag *d) {
  const char *name = sgf_diag_name(d->code);
  const char *msg = sgf_diag_message(d->code);
  const char *sev = sgf_severity_name(d->severity);
  if (c->quiet) return;
  progress_clear(); /* when both go to one terminal */
  printf("%s:%" PRIu64 ":%" PRIu64 ": %s: %s [%s/%d]", c->name, d->pos.line,
         d->pos.column, sev ? sev : "?", msg ? msg : "unknown diagnostic",
         name ? name : "unknown", (int)d->code);
  if (d->has_mark)
    printf(" (opened at %" PRIu64 ":%" PRIu64 ")", d->mark.line,
           d->mark.column);
  putchar('\n');
}

static void count_diag(check *c, const sgf_diag *d) {
  if (d->severity == SGF_SEV_WARNING)
    c->warnings++;
  else
    c->errors++;
}

static int same_diag(const sgf_diag *a, const sgf_diag *b) {
  return a->code == b->code && a->pos.offset == b->pos.offset;
}

static int silenced(const check *c, const sgf_diag *d) {
  if (c->errors_only && d->severity == SGF_SEV_WARNING) return 1;
  return d->code > 0 && d->code < SGF_DIAG_MAX_ && c->ignore[d->code];
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  check *c = u;
  (void)p;
  if (silenced(c, d)) {
    c->ignored++;
    c->last_ignored = *d;
    c->have_last_ignored = 1;
    return SGF_CONTINUE;
  }
  print_diag(c, d);
  count_diag(c, d);
  if (d->severity != SGF_SEV_WARNING) {
    c->last_error = *d;
    c->have_last_error = 1;
  }
  return SGF_CONTINUE;
}

/* The parser stopped with status st. */
static void stopped(check *c, int st) {
  const sgf_diag *d = sgf_parser_error(c->p);
  int seen = d != NULL && c->have_last_error && same_diag(d, &c->last_error);
  c->stopped = 1;
  if (d != NULL && !seen) {
    if (c->have_last_ignored && same_diag(d, &c->last_ignored))
      c->ignored--; /* it stopped the parse: reported after all */
    print_diag(c, d);
    count_diag(c, d);
  } else if (d == NULL && st != SGF_OK && c->errors == 0) {
    c->errors++; /* stopped without saying why: still not clean */
  }
}

/* The checker's events, chained onto the parser's callbacks. */
static int on_tree_begin(sgf_parser *p, void *u) {
  return sgf_check_tree_begin(((check *)u)->checker, p);
}

static int on_tree_end(sgf_parser *p, void *u) {
  return sgf_check_tree_end(((check *)u)->checker, p);
}

static int on_node(sgf_parser *p, void *u) {
  return sgf_check_node(((check *)u)->checker, p);
}

static int on_node_end(sgf_parser *p, void *u) {
  return sgf_check_node_end(((check *)u)->checker, p);
}

static int on_property(sgf_parser *p, void *u, const char *id, size_t len) {
  return sgf_check_property(((check *)u)->checker, p, id, len);
}

static int on_property_end(sgf_parser *p, void *u) {
  return sgf_check_property_end(((check *)u)->checker, p);
}

static int on_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  return sgf_check_value(((check *)u)->checker, p, at, len, flags);
}

/* MOVE RUNS: a run's nodes checked in bulk, those that can fail one by
 * one (sgf_check_moves): the same findings as without. */
static int on_moves(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  return sgf_check_moves(((check *)u)->checker, p, at, len, count);
}

static void begin(void *ctx, const char *name) {
  check *c = ctx;
  sgf_parser_reset(c->p);
  sgf_checker_reset(c->checker);
  c->name = name;
  c->stopped = 0;
  c->have_last_error = 0;
  c->have_last_ignored = 0;
  c->warnings = c->errors = c->ignored = 0;
}

static int data(void *ctx, const char *buf, size_t len) {
  check *c = ctx;
  int st;
  if (c->stopped) return 1;
  st = feed_chunked(c->p, buf, len, c->chunk);
  if (st != SGF_OK) {
    stopped(c, st);
    return 1;
  }
  return 0;
}

static void note(void *ctx, int what, uint64_t off) {
  check *c = ctx;
  if (!c->stopped) report_input_note(c->p, what, off);
}

static void tally(check *c) {
  c->files++;
  c->total_warnings += c->warnings;
  c->total_errors += c->errors;
  c->total_ignored += c->ignored;
  if (c->errors)
    c->failed++;
  else if (c->warnings)
    c->warned++;
  else
    c->clean++;
}

static void end(void *ctx, const char *name, const char *error) {
  check *c = ctx;
  if (error != NULL) {
    report_failure(name, error);
    c->errors++;
  } else if (!c->stopped) {
    int st = finish_chunked(c->p);
    if (st != SGF_OK) stopped(c, st);
  }
  tally(c);
}

static void fail(void *ctx, const char *name, const char *error) {
  check *c = ctx;
  report_failure(name, error);
  c->warnings = c->ignored = 0;
  c->errors = 1;
  tally(c);
}

static void none(void *ctx, const char *name, const char *why) {
  check *c = ctx;
  c->status = exit_worse(c->status, report_no_input(name, why));
}

static const char *plural(uint64_t n, const char *one, const char *many) {
  return n == 1 ? one : many;
}

static void summary(const check *c) {
  fflush(stdout);
  fprintf(stderr,
          "checked %" PRIu64 " %s: %" PRIu64 " clean, %" PRIu64
          " with warnings only, %" PRIu64 " with errors (%" PRIu64
          " %s, %" PRIu64 " %s",
          c->files, plural(c->files, "file", "files"), c->clean, c->warned,
          c->failed, c->total_warnings,
          plural(c->total_warnings, "warning", "warnings"), c->total_errors,
          plural(c->total_errors, "error", "errors"));
  if (c->total_ignored)
    fprintf(stderr, ", %" PRIu64 " ignored", c->total_ignored);
  fputs(")\n", stderr);
}

/* The diagnostic code named by name ("lowercase-ident") or number
 * ("13"), or SGF_DIAG_NONE. */
static sgf_diag_code diag_code(const char *s, size_t len) {
  int code;
  for (code = 1; code < SGF_DIAG_MAX_; code++) {
    const char *name = sgf_diag_name((sgf_diag_code)code);
    char num[12];
    int n = snprintf(num, sizeof num, "%d", code);
    if (name != NULL && ((strlen(name) == len && memcmp(name, s, len) == 0) ||
                         ((size_t)n == len && memcmp(num, s, len) == 0)))
      return (sgf_diag_code)code;
  }
  return SGF_DIAG_NONE;
}

/* --ignore=LIST: comma-separated names or numbers. 0, or -1 (reported). */
static int parse_ignore(check *c, const char *list) {
  const char *s = list;
  for (;;) {
    size_t len = strcspn(s, ",");
    sgf_diag_code code = diag_code(s, len);
    if (code == SGF_DIAG_NONE) {
      fprintf(stderr,
              "sgf: check: --ignore: unknown diagnostic '%.*s' (a NAME or "
              "CODE of [NAME/CODE])\nTry 'sgf check --help'.\n",
              (int)len, s);
      return -1;
    }
    c->ignore[code] = 1;
    if (s[len] == '\0') return 0;
    s += len + 1;
  }
}

int cmd_check(int argc, char **argv) {
  enum {
    OPT_CHUNK = OPT_LONG_BASE,
    OPT_IGNORE,
    OPT_ERRORS_ONLY,
    OPT_SYNTAX_ONLY
  };
  static const struct option longopts[] = {
      {"strict", no_argument, NULL, 's'},
      {"quiet", no_argument, NULL, 'q'},
      {"ignore", required_argument, NULL, OPT_IGNORE},
      {"errors-only", no_argument, NULL, OPT_ERRORS_ONLY},
      {"syntax-only", no_argument, NULL, OPT_SYNTAX_ONLY},
      {"chunk", required_argument, NULL, OPT_CHUNK},
      {"progress", no_argument, NULL, PROGRESS_OPT_ON},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const input_sink sink = {begin, data, end, fail, none, note};
  static char *stdin_only[] = {"-", NULL};
  check c;
  sgf_options opt;
  sgf_callbacks cb;
  input_reader *in;
  char **files;
  int nfiles, ch, i, syntax_only = 0;

  memset(&c, 0, sizeof c);
  sgf_options_init(&opt);
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":sqh", longopts, NULL)) != -1) {
    switch (ch) {
      case 's':
        opt.flags |= SGF_OPT_STRICT;
        break;
      case 'q':
        c.quiet = 1;
        progress_mode(PROGRESS_OFF);
        break;
      case PROGRESS_OPT_ON:
        progress_mode(PROGRESS_ON);
        break;
      case OPT_IGNORE:
        if (parse_ignore(&c, optarg) != 0) return EXIT_TROUBLE;
        break;
      case OPT_ERRORS_ONLY:
        c.errors_only = 1;
        break;
      case OPT_SYNTAX_ONLY:
        syntax_only = 1;
        break;
      case OPT_CHUNK:
        if (parse_chunk("check", optarg, &c.chunk) != 0) return EXIT_TROUBLE;
        break;
      case 'h':
        help_check(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("check", ch, argv);
    }
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;

  sgf_callbacks_init(&cb);
  cb.on_diagnostic = on_diagnostic;
  if (!syntax_only) {
    c.checker = sgf_checker_create(NULL);
    cb.on_tree_begin = on_tree_begin;
    cb.on_tree_end = on_tree_end;
    cb.on_node = on_node;
    cb.on_node_end = on_node_end;
    cb.on_property = on_property;
    cb.on_property_end = on_property_end;
    cb.on_value = on_value;
    cb.on_moves = on_moves;
  }
  c.p = sgf_parser_create(&cb, &c, &opt);
  in = input_reader_create(0);
  if (c.p == NULL || in == NULL || (!syntax_only && c.checker == NULL)) {
    report_failure("check", "out of memory");
    sgf_checker_destroy(c.checker);
    sgf_parser_destroy(c.p);
    input_reader_destroy(in);
    return EXIT_TROUBLE;
  }
  progress_start("check", files, nfiles);
  for (i = 0; i < nfiles; i++) input_read(in, files[i], &sink, &c);
  progress_end();
  input_reader_destroy(in);
  sgf_parser_destroy(c.p);
  sgf_checker_destroy(c.checker);
  summary(&c);
  return finish_output(exit_worse(c.status, c.total_errors     ? EXIT_TROUBLE
                                            : c.total_warnings ? EXIT_WARNINGS
                                                               : EXIT_CLEAN));
}
