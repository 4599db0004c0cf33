/* cmd_split.c - `sgf split`: one file per game of a collection.
 *
 * Streaming: the writer's sink is pointed at a new file when a top-level
 * game tree begins, and the file is closed when it ends, so no game is
 * ever held in memory (the writer's buffer is all there is).
 */
#define _POSIX_C_SOURCE 200809L

#include "input.h"
#include "output.h"
#include "rewrite.h"
#include "progress.h"
#include "sgf.h"
#include "shards.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_PATTERN "%f-%n.sgf"
#define SHARD_PATTERN "%f-shard-%n.sgf" /* --shards */

typedef struct split {
  rewrite rw;
  sgf_callbacks wcb; /* the writer's own handlers */
  uv_loop_t loop;
  output out;
  int out_open; /* a game file is being written */
  const char *pattern;
  const char *dir;     /* NULL: the current directory */
  char *base;          /* %f of the FILE being read */
  unsigned long games; /* games begun in this FILE */
  char *path;          /* the game file's name */
  size_t path_cap;
  size_t dirlen;    /* where the pattern's part of path begins */
  int pattern_dirs; /* the pattern names directories (has a '/') */
} split;

void help_split(FILE *f) {
  fprintf(
      f,
      "usage: sgf split [--pattern=PATTERN] [-d DIR] "
      "[--compact|--readable]\n"
      "                 [-v] [FILE]...\n"
      "       sgf split --shards=N [--pattern=PATTERN] [-d DIR] [-v] "
      "FILE...\n"
      "\n"
      "Write each game (top-level game tree) of each FILE to a file of "
      "its own,\n"
      "normalized as by 'sgf fmt'. Games are streamed: none is held in "
      "memory.\n"
      "With no FILE, or when FILE is -, read standard input. Existing "
      "files\n"
      "are replaced.\n"
      "\n"
      "      --pattern=PATTERN  output file names (default "
      "'%s'):\n"
      "                         %%n  the game's number in its FILE, "
      "from 1,\n"
      "                             zero-padded to 4 digits (required;\n"
      "                             the games of all the .sgf files of "
      "an\n"
      "                             archive are numbered in one "
      "sequence)\n"
      "                         %%f  FILE's base name without "
      "extension\n"
      "                             (\"stdin\" for -)\n"
      "                         %%%%  a '%%'\n"
      "                         directories it names are created "
      "as needed\n"
      "                         (e.g. '%%f/%%n.sgf')\n"
      "  -d, --directory=DIR    write the files into DIR (created, "
      "with its\n"
      "                         parents, if missing)\n"
      "      --shards=N         instead: cut the games of all the FILEs "
      "into N\n"
      "                         files of about the same size, at game "
      "boundaries,\n"
      "                         the bytes as they are, a game a FILE "
      "leaves open\n"
      "                         closed with a warning (%%n: the shard's "
      "number,\n"
      "                         %%f: the first FILE's; default '%s')\n"
      "      --readable         one node per line (default)\n"
      "      --compact          no whitespace but a final newline\n"
      "  -v, --verbose          print each file written and the "
      "warnings\n"
      "      --progress         show a progress line on stderr (default: "
      "on a\n"
      "                         terminal, for jobs over half a second)\n"
      "      --quiet            no progress line\n"
      "  -h, --help             show this help\n"
      "\n"
      "A game cut short by a fatal error is not written.\n" EXIT_STATUS_HELP,
      DEFAULT_PATTERN, SHARD_PATTERN);
}

/* Is the pattern valid (only %n %f %%, and %n at least once)? */
static int pattern_ok(const char *pat) {
  int has_n = 0;
  for (; *pat; pat++) {
    if (*pat != '%') continue;
    pat++;
    if (*pat == 'n')
      has_n = 1;
    else if (*pat != 'f' && *pat != '%')
      return 0;
  }
  return has_n;
}

static int grow(split *s, size_t need) {
  char *p;
  size_t cap = s->path_cap ? s->path_cap : 256;
  if (need <= s->path_cap) return 0;
  while (cap < need) cap *= 2;
  p = realloc(s->path, cap);
  if (p == NULL) return -1;
  s->path = p;
  s->path_cap = cap;
  return 0;
}

/* DIR/PATTERN expanded for game number n. Returns 0 or -1 (memory). */
static int make_path(split *s, unsigned long n) {
  char num[24];
  size_t len = 0, numlen, baselen = strlen(s->base);
  const char *p;
  int k = snprintf(num, sizeof num, "%04lu", n);
  numlen = k > 0 ? (size_t)k : 0;
  if (grow(s, (s->dir ? strlen(s->dir) + 1 : 0) + 1) != 0) return -1;
  if (s->dir != NULL) {
    len = strlen(s->dir);
    memcpy(s->path, s->dir, len);
    if (len > 0 && s->path[len - 1] != '/') s->path[len++] = '/';
  }
  s->dirlen = len;
  for (p = s->pattern; *p; p++) {
    const char *add = p;
    size_t addlen = 1;
    if (*p == '%') {
      p++;
      if (*p == 'n') {
        add = num;
        addlen = numlen;
      } else if (*p == 'f') {
        add = s->base;
        addlen = baselen;
      } else {
        add = p; /* "%%" */
      }
    }
    if (grow(s, len + addlen + 1) != 0) return -1;
    memcpy(s->path + len, add, addlen);
    len += addlen;
  }
  s->path[len] = '\0';
  return 0;
}

/* "sgf: DIR: create directory: MESSAGE" for libuv error rc. */
static void report_mkdir(const char *dir, int rc) {
  output o; /* for its error message */
  memset(&o, 0, sizeof o);
  o.err = rc;
  o.what = "create directory";
  report_failure(dir, output_error(&o));
}

/* mkdir -p: create each directory path names before a '/' at index
 * `from` or later (from: what exists already). The path is cut there
 * in place for the call and restored. Returns 0, or -1 (reported). */
static int make_dirs(uv_loop_t *loop, char *path, size_t from) {
  size_t i;
  for (i = from; path[i] != '\0'; i++) {
    uv_fs_t req;
    int rc;
    if (path[i] != '/' || i == 0 || path[i - 1] == '/') continue;
    path[i] = '\0';
    rc = uv_fs_mkdir(loop, &req, path, 0777, NULL);
    uv_fs_req_cleanup(&req);
    if (rc < 0 && rc != UV_EEXIST) {
      report_mkdir(path, rc);
      path[i] = '/';
      return -1;
    }
    path[i] = '/';
  }
  return 0;
}

/* -d DIR and its missing parents. Returns 0 or -1 (reported). */
static int make_directory(uv_loop_t *loop, const char *dir) {
  size_t n = strlen(dir);
  char *d = malloc(n + 2);
  int rc;
  if (d == NULL) {
    report_failure(dir, "out of memory");
    return -1;
  }
  memcpy(d, dir, n);
  d[n] = '/';
  d[n + 1] = '\0';
  rc = make_dirs(loop, d, 0);
  free(d);
  return rc;
}

/* %f of a FILE argument: its base name without directories and without
 * extension (".sgf"; ".tar.xz" counts as one), "stdin" for "-". Returns
 * a new string or NULL (memory). */
static char *base_name(const char *arg) {
  const char *b = arg, *slash, *dot;
  size_t n;
  char *r;
  if (strcmp(arg, "-") == 0) b = "stdin";
  slash = strrchr(b, '/');
  if (slash != NULL) b = slash + 1;
  n = strlen(b);
  dot = strrchr(b, '.');
  if (dot != NULL && dot != b) {
    n = (size_t)(dot - b);
    if (n > 4 && strncmp(b + n - 4, ".tar", 4) == 0) n -= 4;
  }
  if (n == 0) {
    b = "game";
    n = 4;
  }
  r = malloc(n + 1);
  if (r != NULL) {
    memcpy(r, b, n);
    r[n] = '\0';
  }
  return r;
}

/* Would two FILE arguments write the same names? (Only a pattern with %f
 * tells them apart, and only by their base names.) Reports and returns
 * -1 if so. */
static int names_clash(const char *pattern, char **files, int nfiles) {
  int i, j, has_f = 0, clash = 0;
  const char *p;
  for (p = pattern; *p; p++)
    if (*p == '%' && p[1] != '\0') {
      has_f |= p[1] == 'f';
      p++;
    }
  for (i = 0; i < nfiles && !clash; i++)
    for (j = i + 1; j < nfiles && !clash; j++) {
      char *a, *b;
      if (!has_f) {
        clash = 1;
      } else {
        a = base_name(files[i]);
        b = base_name(files[j]);
        clash = a == NULL || b == NULL || strcmp(a, b) == 0;
        free(a);
        free(b);
      }
      if (clash)
        fprintf(stderr,
                "sgf: split: '%s' and '%s' would write the same file names "
                "(the pattern tells inputs apart by %%f, their base name "
                "only)\n",
                files[i], files[j]);
    }
  return clash ? -1 : 0;
}

/* A sink for the writer between games: nothing is written there. */
static int no_output(void *ctx, const char *buf, size_t len) {
  (void)ctx;
  (void)buf;
  (void)len;
  return -1;
}

static split *of(void *writer) {
  return ((rewrite *)sgf_writer_user(writer))->cmd_ctx;
}

static int sp_tree_begin(sgf_parser *p, void *u) {
  split *s = of(u);
  if (sgf_writer_depth(u) == 0) {
    s->games++;
    if (s->base == NULL || make_path(s, s->games) != 0) {
      report_failure(s->rw.name, "out of memory");
      s->rw.status = EXIT_TROUBLE;
      return SGF_ABORT;
    }
    if (s->pattern_dirs && make_dirs(&s->loop, s->path, s->dirlen) != 0) {
      s->rw.status = EXIT_TROUBLE;
      return SGF_ABORT;
    }
    if (output_open(&s->out, &s->loop, s->path, 0, NULL) != 0) {
      report_failure(s->path, output_error(&s->out));
      output_discard(&s->out);
      s->rw.status = EXIT_TROUBLE;
      return SGF_ABORT;
    }
    s->out_open = 1;
    sgf_writer_reset(u, output_write, &s->out);
  }
  return s->wcb.on_tree_begin(p, u);
}

static int sp_tree_end(sgf_parser *p, void *u) {
  split *s = of(u);
  int r = s->wcb.on_tree_end(p, u);
  if (r == SGF_CONTINUE && sgf_writer_depth(u) == 0) {
    s->out_open = 0;
    if (sgf_writer_flush(u) != 0) {
      rewrite_write_failed(&s->rw, &s->out, s->path);
      output_discard(&s->out);
      return SGF_ABORT;
    }
    if (output_commit(&s->out) != 0) {
      report_failure(s->path, output_error(&s->out));
      s->rw.status = EXIT_TROUBLE;
      return SGF_ABORT;
    }
    if (s->rw.verbose) fprintf(stderr, "%s\n", s->path);
  }
  return r;
}

/* shard_name_fn: the name of shard n, its directories made. */
static const char *shard_name(void *ctx, unsigned long n) {
  split *s = ctx;
  if (s->base == NULL || make_path(s, n) != 0) {
    report_failure("split", "out of memory");
    return NULL;
  }
  if (s->pattern_dirs && make_dirs(&s->loop, s->path, s->dirlen) != 0)
    return NULL;
  return s->path;
}

/* The N of --shards=N: 1 to 100000. 0, or -1 (reported). */
static int parse_shards(const char *arg, unsigned long *out) {
  char *end;
  unsigned long v = strtoul(arg, &end, 10);
  if (arg[0] < '1' || arg[0] > '9' || *end != '\0' || v > 100000) {
    fprintf(stderr,
            "sgf: split: invalid number of shards '%s' (1 to 100000)\n"
            "Try 'sgf split --help'.\n",
            arg);
    return -1;
  }
  *out = v;
  return 0;
}

static void begin(void *ctx, const char *name) {
  split *s = ctx;
  rewrite_begin(&s->rw, name);
}

static int data(void *ctx, const char *buf, size_t len) {
  split *s = ctx;
  return rewrite_data(&s->rw, buf, len);
}

static void note(void *ctx, int what, uint64_t off) {
  split *s = ctx;
  rewrite_note(&s->rw, what, off);
}

static void end(void *ctx, const char *name, const char *error) {
  split *s = ctx;
  (void)name;
  rewrite_end(&s->rw, error);
  if (s->out_open) { /* stopped inside a game */
    s->out_open = 0;
    if (sgf_writer_status(s->rw.w) != SGF_OK)
      rewrite_write_failed(&s->rw, &s->out, s->path);
    output_discard(&s->out);
    report_failure(s->path, "game incomplete, not written");
    sgf_writer_reset(s->rw.w, no_output, NULL);
  }
}

static void fail(void *ctx, const char *name, const char *error) {
  split *s = ctx;
  rewrite_fail(&s->rw, name, error);
}

static void none(void *ctx, const char *name, const char *why) {
  split *s = ctx;
  rewrite_none(&s->rw, name, why);
}

int cmd_split(int argc, char **argv) {
  enum { OPT_PATTERN = OPT_LONG_BASE, OPT_SHARDS };
  static const struct option longopts[] = {
      {"pattern", required_argument, NULL, OPT_PATTERN},
      {"directory", required_argument, NULL, 'd'},
      {"shards", required_argument, NULL, OPT_SHARDS},
      {"compact", no_argument, NULL, REWRITE_OPT_COMPACT},
      {"readable", no_argument, NULL, REWRITE_OPT_READABLE},
      {"verbose", no_argument, NULL, 'v'},
      PROGRESS_LONGOPTS,
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const input_sink sink = {begin, data, end, fail, none, note};
  static char *stdin_only[] = {"-", NULL};
  rewrite_opts ro;
  sgf_callbacks cb;
  input_reader *in;
  split s;
  char **files;
  int nfiles, ch, i, status;
  unsigned long nshards = 0;
  int layout_given = 0;

  memset(&s, 0, sizeof s);
  memset(&ro, 0, sizeof ro);
  ro.layout = SGF_LAYOUT_READABLE;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":d:vh", longopts, NULL)) != -1) {
    switch (ch) {
      case OPT_PATTERN:
        s.pattern = optarg;
        break;
      case 'd':
        s.dir = optarg;
        break;
      case OPT_SHARDS:
        if (parse_shards(optarg, &nshards) != 0) return EXIT_TROUBLE;
        break;
      case REWRITE_OPT_COMPACT:
        ro.layout = SGF_LAYOUT_COMPACT;
        layout_given = 1;
        break;
      case REWRITE_OPT_READABLE:
        ro.layout = SGF_LAYOUT_READABLE;
        layout_given = 1;
        break;
      case 'v':
        ro.verbose = 1;
        break;
      case PROGRESS_OPT_ON:
      case PROGRESS_OPT_OFF:
        progress_option(ch);
        break;
      case 'h':
        help_split(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("split", ch, argv);
    }
  }
  if (nshards > 0 && layout_given) {
    fprintf(stderr,
            "sgf: split: --shards copies the bytes as they are: no "
            "--compact or --readable\nTry 'sgf split --help'.\n");
    return EXIT_TROUBLE;
  }
  if (nshards > 0 && s.pattern == NULL) s.pattern = SHARD_PATTERN;
  if (s.pattern == NULL) s.pattern = DEFAULT_PATTERN;
  if (!pattern_ok(s.pattern)) {
    fprintf(stderr,
            "sgf: split: invalid pattern '%s': %%n is required; only %%n, "
            "%%f and %%%% may follow a '%%'\nTry 'sgf split --help'.\n",
            s.pattern);
    return EXIT_TROUBLE;
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;
  if (nshards == 0 && names_clash(s.pattern, files, nfiles) != 0)
    return EXIT_TROUBLE;

  if (uv_loop_init(&s.loop) != 0) {
    report_failure("split", "cannot start libuv");
    return EXIT_TROUBLE;
  }
  if (s.dir != NULL && make_directory(&s.loop, s.dir) != 0) {
    uv_loop_close(&s.loop);
    return EXIT_TROUBLE;
  }
  s.pattern_dirs = strchr(s.pattern, '/') != NULL;
  if (nshards > 0) {
    in = input_reader_create(0);
    s.base = base_name(files[0]);
    status = in == NULL ? EXIT_TROUBLE
                        : shards_run(&s.loop, in, files, nfiles, nshards,
                                     shard_name, &s, ro.verbose);
    if (in == NULL) report_failure("split", "out of memory");
    input_reader_destroy(in);
    uv_loop_close(&s.loop);
    free(s.base);
    free(s.path);
    return finish_output(status);
  }
  sgf_callbacks_init(&s.wcb);
  sgf_writer_copy_callbacks(&s.wcb);
  cb = s.wcb;
  cb.on_tree_begin = sp_tree_begin;
  cb.on_tree_end = sp_tree_end;
  in = input_reader_create(0);
  if (in == NULL ||
      rewrite_init(&s.rw, "split", &ro, &cb, no_output, NULL) != 0) {
    if (in == NULL) report_failure("split", "out of memory");
    input_reader_destroy(in);
    uv_loop_close(&s.loop);
    return EXIT_TROUBLE;
  }
  s.rw.cmd_ctx = &s;

  progress_start("split", files, nfiles);
  for (i = 0; i < nfiles; i++) {
    /* Games are numbered per FILE (across the entries of an archive). */
    free(s.base);
    s.base = base_name(files[i]);
    s.games = 0;
    input_read(in, files[i], &sink, &s);
  }
  progress_end();
  status = s.rw.status;
  rewrite_free(&s.rw);
  input_reader_destroy(in);
  uv_loop_close(&s.loop);
  free(s.base);
  free(s.path);
  return finish_output(status);
}
