/* cmd_mainline.c - `sgf mainline`: keep only the main line of each game.
 *
 * The parser's SGF_OPT_MAINLINE passes over every secondary variation in
 * the tokenizer, so only the first child of each node arrives. What is
 * left is a chain of single variations, which is written flattened: a
 * variation that is its parent's only child just continues the parent's
 * sequence, so "(;B[aa](;W[bb];B[cc]))" is written "(;B[aa];W[bb];B[cc])".
 * A node written after a variation, which the lenient parser turns into a
 * variation of its own, is passed over by the parser too (with its
 * node-after-variation warning, shown with -v); the handlers
 * below still skip any second child that would arrive, so the output
 * stays one line whatever the parser delivers.
 */
#define _POSIX_C_SOURCE 200809L

#include "input.h"
#include "output.h"
#include "rewrite.h"
#include "sgf.h"

#include <getopt.h>
#include <string.h>

typedef struct mainline {
  rewrite rw;
  output out;
  const char *outname;
  sgf_callbacks wcb; /* the writer's own handlers */
  uint64_t depth;    /* game trees open in the input */
  int after_child;   /* a variation closed at the current depth */
  int skipping;      /* a second variation is being skipped */
} mainline;

void help_mainline(FILE *f) {
  fprintf(f,
          "usage: sgf mainline [--compact|--readable] [-o OUT] [-v] "
          "[FILE]...\n"
          "\n"
          "Write the main line of each game of FILE (the first variation "
          "at every\n"
          "branch), as one sequence of nodes without variations: valid "
          "FF[4], with\n"
          "the same normalization as 'sgf fmt'. Secondary variations are "
          "passed\n"
          "over by the tokenizer without being parsed. With no FILE, or "
          "when FILE\n"
          "is -, read standard input.\n"
          "\n"
          "      --readable    one node per line (default)\n"
          "      --compact     no whitespace but one newline after each "
          "game\n"
          "  -o, --output=OUT  write to OUT (replaced only when every FILE "
          "was read\n"
          "                    without errors and held SGF input) instead "
          "of\n"
          "                    standard output\n"
          "  -v, --verbose     also print the warnings (what was "
          "repaired)\n"
          "  -h, --help        show this help\n"
          "\n" EXIT_STATUS_HELP);
}

static int ml_tree_begin(sgf_parser *p, void *u) {
  mainline *m = ((rewrite *)sgf_writer_user(u))->cmd_ctx;
  if (m->depth > 0 && m->after_child) {
    /* A second child: not the main line. The parser skips it, then
     * still reports its tree-end, which must close nothing. */
    m->skipping = 1;
    return SGF_SKIP;
  }
  m->depth++;
  m->after_child = 0;
  return m->depth == 1 ? m->wcb.on_tree_begin(p, u) : SGF_CONTINUE;
}

static int ml_tree_end(sgf_parser *p, void *u) {
  mainline *m = ((rewrite *)sgf_writer_user(u))->cmd_ctx;
  if (m->skipping) {
    m->skipping = 0;
    return SGF_CONTINUE;
  }
  m->depth--;
  m->after_child = m->depth > 0;
  return m->depth == 0 ? m->wcb.on_tree_end(p, u) : SGF_CONTINUE;
}

static void begin(void *ctx, const char *name) {
  mainline *m = ctx;
  rewrite_begin(&m->rw, name);
  m->depth = 0;
  m->after_child = 0;
  m->skipping = 0;
}

static int data(void *ctx, const char *buf, size_t len) {
  mainline *m = ctx;
  return rewrite_data(&m->rw, buf, len);
}

static void note(void *ctx, int what, uint64_t off) {
  mainline *m = ctx;
  rewrite_note(&m->rw, what, off);
}

static void end(void *ctx, const char *name, const char *error) {
  mainline *m = ctx;
  (void)name;
  if (rewrite_end(&m->rw, error) != 0 && sgf_writer_status(m->rw.w) == SGF_OK)
    sgf_writer_finish(m->rw.w); /* close what a fatal error left open */
}

static void fail(void *ctx, const char *name, const char *error) {
  mainline *m = ctx;
  rewrite_fail(&m->rw, name, error);
}

static void none(void *ctx, const char *name, const char *why) {
  mainline *m = ctx;
  rewrite_none(&m->rw, name, why);
}

int cmd_mainline(int argc, char **argv) {
  static const struct option longopts[] = {
      {"compact", no_argument, NULL, REWRITE_OPT_COMPACT},
      {"readable", no_argument, NULL, REWRITE_OPT_READABLE},
      {"output", required_argument, NULL, 'o'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const input_sink sink = {begin, data, end, fail, none, note};
  static char *stdin_only[] = {"-", NULL};
  rewrite_opts ro;
  sgf_callbacks cb;
  uv_loop_t loop;
  input_reader *in;
  mainline m;
  char **files;
  int nfiles, ch, i, status;

  memset(&m, 0, sizeof m);
  memset(&ro, 0, sizeof ro);
  ro.layout = SGF_LAYOUT_READABLE;
  ro.flags = SGF_OPT_MAINLINE;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":o:vh", longopts, NULL)) != -1) {
    switch (ch) {
      case REWRITE_OPT_COMPACT:
        ro.layout = SGF_LAYOUT_COMPACT;
        break;
      case REWRITE_OPT_READABLE:
        ro.layout = SGF_LAYOUT_READABLE;
        break;
      case 'o':
        m.outname = optarg;
        break;
      case 'v':
        ro.verbose = 1;
        break;
      case 'h':
        help_mainline(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("mainline", ch, argv);
    }
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;

  if (uv_loop_init(&loop) != 0) {
    report_failure("mainline", "cannot start libuv");
    return EXIT_TROUBLE;
  }
  if (m.outname != NULL) {
    if (output_open(&m.out, &loop, m.outname, 1, m.outname) != 0) {
      report_failure(m.outname, output_error(&m.out));
      output_discard(&m.out);
      uv_loop_close(&loop);
      return EXIT_TROUBLE;
    }
  } else {
    output_stdout(&m.out, &loop);
    m.outname = "<stdout>";
  }
  sgf_callbacks_init(&m.wcb);
  sgf_writer_copy_callbacks(&m.wcb);
  cb = m.wcb;
  cb.on_tree_begin = ml_tree_begin;
  cb.on_tree_end = ml_tree_end;
  in = input_reader_create(0);
  if (in == NULL ||
      rewrite_init(&m.rw, "mainline", &ro, &cb, output_write, &m.out) != 0) {
    if (in == NULL) report_failure("mainline", "out of memory");
    input_reader_destroy(in);
    output_discard(&m.out);
    uv_loop_close(&loop);
    return EXIT_TROUBLE;
  }
  m.rw.cmd_ctx = &m;

  for (i = 0; i < nfiles; i++) {
    input_read(in, files[i], &sink, &m);
    if (sgf_writer_status(m.rw.w) != SGF_OK) break;
  }
  if (sgf_writer_status(m.rw.w) == SGF_OK) sgf_writer_finish(m.rw.w);
  if (sgf_writer_status(m.rw.w) != SGF_OK) {
    rewrite_write_failed(&m.rw, &m.out, m.outname);
    output_discard(&m.out);
  } else if (m.out.is_stdout) {
    /* nothing to close */
  } else if (m.rw.status == EXIT_TROUBLE || m.rw.status == EXIT_NO_INPUT) {
    output_discard(&m.out);
    report_failure(m.outname, m.rw.status == EXIT_TROUBLE
                                  ? "not written (errors in the input)"
                                  : "not written (a FILE held no input)");
  } else if (output_commit(&m.out) != 0) {
    report_failure(m.outname, output_error(&m.out));
    m.rw.status = EXIT_TROUBLE;
  }
  status = m.rw.status;
  rewrite_free(&m.rw);
  input_reader_destroy(in);
  uv_loop_close(&loop);
  return finish_output(status);
}
