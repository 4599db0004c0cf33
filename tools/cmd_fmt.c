/* cmd_fmt.c - `sgf fmt`: rewrite SGF normalized (valid FF[4], lenient
 * repairs applied, identifiers normalized) with the streaming writer. */
#define _POSIX_C_SOURCE 200809L

#include "input.h"
#include "output.h"
#include "rewrite.h"
#include "sgf.h"

#include <getopt.h>
#include <string.h>

typedef struct fmt {
  rewrite rw;
  output out;
  int out_open;     /* out is open */
  const char *outname;
  int in_place;
  const char *path; /* the FILE argument being read (--in-place) */
  int skip;         /* --in-place: FILE is an archive, not rewritten */
} fmt;

void help_fmt(FILE *f)
{
  fprintf(f,
          "usage: sgf fmt [--compact|--readable] [-o OUT | -i] [-v] "
          "[FILE]...\n"
          "\n"
          "Rewrite each FILE (and each .sgf file inside an archive) as "
          "valid FF[4]:\n"
          "the parser's lenient repairs applied, property identifiers "
          "normalized\n"
          "(CoPyright becomes CP), every property and value kept in order. "
          "The\n"
          "output parses with no diagnostic in strict mode. With no FILE, "
          "or when\n"
          "FILE is -, read standard input. Output goes to standard output "
          "unless\n"
          "-o or -i is given.\n"
          "\n"
          "      --readable    one node per line, variations indented "
          "(default)\n"
          "      --compact     no whitespace but one newline after each "
          "game\n"
          "  -o, --output=OUT  write all the games to OUT (replaced only "
          "when\n"
          "                    every input was read without errors)\n"
          "  -i, --in-place    rewrite each FILE in place (through a "
          "temporary\n"
          "                    file renamed over it); a FILE with errors "
          "is left\n"
          "                    as it was\n"
          "  -v, --verbose     also print the warnings (what was "
          "repaired)\n"
          "  -h, --help        show this help\n"
          "\n"
          "Errors are printed on standard error as "
          "FILE:LINE:COL: SEVERITY: ...\n"
          "Exit status: 0 written from clean input, 1 written with "
          "repairs\n"
          "(warnings), 2 errors, unreadable input or output failure (a "
          "FILE with\n"
          "errors is not rewritten).\n");
}

/* Standard output and -o: one writer for all inputs. */
static void begin(void *ctx, const char *name)
{
  fmt *f = ctx;
  rewrite_begin(&f->rw, name);
}

static int data(void *ctx, const char *buf, size_t len)
{
  fmt *f = ctx;
  if (f->skip)
    return 1;
  return rewrite_data(&f->rw, buf, len);
}

static void end(void *ctx, const char *name, const char *error)
{
  fmt *f = ctx;
  int rc = rewrite_end(&f->rw, error);
  (void)name;
  if (sgf_writer_status(f->rw.w) != SGF_OK)
    return; /* reported once, at the end */
  if (rc != 0)
    sgf_writer_finish(f->rw.w); /* close what a fatal error left open */
}

static void fail(void *ctx, const char *name, const char *error)
{
  fmt *f = ctx;
  rewrite_fail(&f->rw, name, error);
}

/* --in-place: each input is its own output. */
static void begin_in_place(void *ctx, const char *name)
{
  fmt *f = ctx;
  rewrite_begin(&f->rw, name);
  if (strcmp(name, f->path) != 0) { /* an archive member */
    if (!f->skip)
      report_failure(f->path, "cannot rewrite an archive in place");
    f->rw.status = EXIT_TROUBLE;
    f->skip = 1;
  }
  /* the output (a temporary file beside it) was opened by cmd_fmt */
}

static void end_in_place(void *ctx, const char *name, const char *error)
{
  fmt *f = ctx;
  int rc;
  if (f->skip)
    return;
  rc = rewrite_end(&f->rw, error);
  if (rc == 0)
    rc = sgf_writer_finish(f->rw.w);
  if (rc == 0 && output_commit(&f->out) == 0)
    return;
  if (sgf_writer_status(f->rw.w) != SGF_OK ||
      output_error(&f->out) != NULL)
    rewrite_write_failed(&f->rw, &f->out, name);
  output_discard(&f->out);
  report_failure(name, "not rewritten");
}

int cmd_fmt(int argc, char **argv)
{
  static const struct option longopts[] = {
      {"compact", no_argument, NULL, REWRITE_OPT_COMPACT},
      {"readable", no_argument, NULL, REWRITE_OPT_READABLE},
      {"output", required_argument, NULL, 'o'},
      {"in-place", no_argument, NULL, 'i'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const input_sink sink = {begin, data, end, fail};
  static const input_sink sink_in_place = {begin_in_place, data,
                                           end_in_place, fail};
  static char *stdin_only[] = {"-", NULL};
  rewrite_opts ro;
  uv_loop_t loop;
  input_reader *in;
  fmt f;
  char **files;
  int nfiles, ch, i, status;

  memset(&f, 0, sizeof f);
  memset(&ro, 0, sizeof ro);
  ro.layout = SGF_LAYOUT_READABLE;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":o:ivh", longopts, NULL)) != -1) {
    switch (ch) {
    case REWRITE_OPT_COMPACT: ro.layout = SGF_LAYOUT_COMPACT; break;
    case REWRITE_OPT_READABLE: ro.layout = SGF_LAYOUT_READABLE; break;
    case 'o': f.outname = optarg; break;
    case 'i': f.in_place = 1; break;
    case 'v': ro.verbose = 1; break;
    case 'h': help_fmt(stdout); return finish_output(EXIT_CLEAN);
    default: return option_error("fmt", ch, argv);
    }
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;
  if (f.in_place && f.outname != NULL) {
    fprintf(stderr, "sgf: fmt: -o and --in-place exclude each other\n"
                    "Try 'sgf fmt --help'.\n");
    return EXIT_TROUBLE;
  }
  if (f.in_place) {
    for (i = 0; i < nfiles; i++)
      if (strcmp(files[i], "-") == 0) {
        fprintf(stderr, "sgf: fmt: --in-place needs FILE names, not "
                        "standard input\nTry 'sgf fmt --help'.\n");
        return EXIT_TROUBLE;
      }
  }

  if (uv_loop_init(&loop) != 0) {
    report_failure("fmt", "cannot start libuv");
    return EXIT_TROUBLE;
  }
  f.out.fd = -1;
  if (f.outname != NULL) {
    if (output_open(&f.out, &loop, f.outname, 1, f.outname) != 0) {
      report_failure(f.outname, output_error(&f.out));
      output_discard(&f.out);
      uv_loop_close(&loop);
      return EXIT_TROUBLE;
    }
  } else if (!f.in_place) {
    output_stdout(&f.out, &loop);
    f.outname = "<stdout>";
  }
  in = input_reader_create(0);
  if (in == NULL ||
      rewrite_init(&f.rw, "fmt", &ro, NULL, output_write, &f.out) != 0) {
    if (in == NULL)
      report_failure("fmt", "out of memory");
    input_reader_destroy(in);
    output_discard(&f.out);
    uv_loop_close(&loop);
    return EXIT_TROUBLE;
  }

  for (i = 0; i < nfiles; i++) {
    if (f.in_place) {
      f.path = files[i];
      f.skip = 0;
      /* the output file is opened here, the writer pointed at it */
      if (output_open(&f.out, &loop, files[i], 1, files[i]) != 0) {
        report_failure(files[i], output_error(&f.out));
        output_discard(&f.out);
        f.rw.status = EXIT_TROUBLE;
        continue;
      }
      sgf_writer_reset(f.rw.w, output_write, &f.out);
      input_read(in, files[i], &sink_in_place, &f);
      if (f.out.fd >= 0 || f.out.tmp != NULL) /* no input seen */
        output_discard(&f.out);
    } else {
      input_read(in, files[i], &sink, &f);
      if (sgf_writer_status(f.rw.w) != SGF_OK)
        break;
    }
  }

  if (!f.in_place) {
    if (sgf_writer_status(f.rw.w) == SGF_OK)
      sgf_writer_finish(f.rw.w);
    if (sgf_writer_status(f.rw.w) != SGF_OK) {
      rewrite_write_failed(&f.rw, &f.out, f.outname);
      output_discard(&f.out);
    } else if (f.out.is_stdout) {
      /* nothing to close */
    } else if (f.rw.status == EXIT_TROUBLE) {
      output_discard(&f.out);
      report_failure(f.outname, "not written (errors in the input)");
    } else if (output_commit(&f.out) != 0) {
      report_failure(f.outname, output_error(&f.out));
      f.rw.status = EXIT_TROUBLE;
    }
  }
  status = f.rw.status;
  rewrite_free(&f.rw);
  input_reader_destroy(in);
  uv_loop_close(&loop);
  return finish_output(status);
}
