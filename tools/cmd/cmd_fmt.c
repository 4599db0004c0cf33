/* cmd_fmt.c - `sgf fmt`: rewrite SGF normalized (valid FF[4], lenient
 * repairs applied, identifiers normalized) with the streaming writer. */
#define _POSIX_C_SOURCE 200809L

#include "ff4.h"
#include "inplace.h"
#include "input.h"
#include "output.h"
#include "rewrite.h"
#include "progress.h"
#include "sgf.h"

#include <getopt.h>
#include <string.h>

typedef struct fmt {
  rewrite rw;
  output out;
  const char *outname;
} fmt;

void help_fmt(FILE *f) {
  fprintf(f,
          "usage: sgf fmt [--compact|--readable] [--ff4] "
          "[-o OUT | -i [--force]] [-v]\n"
          "               [FILE]...\n"
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
          "      --ff4         also convert FF[1]-FF[3] records as SGFC "
          "does: FF[4]\n"
          "                    in each root (GM[1] added if missing), L "
          "written as LB\n"
          "                    (labels a, b...), M as MA (empty point) or "
          "TR (stone),\n"
          "                    KI as KM, an old VW[ba][db] as "
          "VW[ba:db], old TE and BM\n"
          "                    in one node as IT or DO; numbers,\n"
          "                    points and moves re-encoded (B[tt] is B[] "
          "up to 19x19);\n"
          "                    each change is a warning, always printed; old\n"
          "                    properties FF[4] lacks (BS, ID, CH...) are "
          "kept as written\n"
          "  -o, --output=OUT  write all the games to OUT (replaced only "
          "when\n"
          "                    every FILE was read without errors and "
          "held\n"
          "                    SGF input)\n"
          "  -i, --in-place    rewrite each FILE in place, through a "
          "temporary file\n"
          "                    renamed over it, keeping its mode (and "
          "owner when\n"
          "                    permitted); a compressed FILE (.gz, .bz2, "
          ".xz, .zst,\n"
          "                    .lz4...) is compressed again the same way, "
          "and each\n"
          "                    .sgf file of a directory is rewritten. A "
          "FILE is\n"
          "                    left as it was (\"not rewritten\", exit "
          "status 2) if\n"
          "                    it has errors or no game tree, is an "
          "archive or not\n"
          "                    a regular file, and unless --force, if the "
          "rewrite\n"
          "                    would drop bytes of it (junk, a property "
          "without\n"
          "                    value, a NUL byte...; the first is named "
          "as\n"
          "                    FILE:LINE:COL), if it is read-only, if it "
          "has\n"
          "                    other hard links (they would keep the old "
          "content)\n"
          "                    or if it is a symbolic link (the file it "
          "points to\n"
          "                    would be rewritten). In a directory, "
          "symbolic links\n"
          "                    are skipped with a warning, never "
          "followed\n"
          "      --force       with -i: rewrite those anyway; what was "
          "dropped is\n"
          "                    printed as warnings, a broken hard link is "
          "reported\n"
          "  -v, --verbose     also print the warnings (what was "
          "repaired)\n"
          "      --progress    show a progress line on stderr (default: "
          "on a\n"
          "                    terminal, for jobs over half a second)\n"
          "      --quiet       no progress line\n"
          "  -h, --help        show this help\n"
          "\n"
          "Errors are printed on standard error as "
          "FILE:LINE:COL: SEVERITY: ...\n"
          "A FILE with errors is not rewritten; with -i, a FILE not "
          "rewritten\n"
          "exits 2.\n" EXIT_STATUS_HELP);
}

/* Standard output and -o: one writer for all inputs. */
static void begin(void *ctx, const char *name) {
  fmt *f = ctx;
  rewrite_begin(&f->rw, name);
}

static int data(void *ctx, const char *buf, size_t len) {
  fmt *f = ctx;
  return rewrite_data(&f->rw, buf, len);
}

static void note(void *ctx, int what, uint64_t off) {
  fmt *f = ctx;
  rewrite_note(&f->rw, what, off);
}

static void end(void *ctx, const char *name, const char *error) {
  fmt *f = ctx;
  int rc = rewrite_end(&f->rw, error);
  (void)name;
  if (sgf_writer_status(f->rw.w) != SGF_OK)
    return; /* reported once, at the end */
  if (rc != 0)
    sgf_writer_finish(f->rw.w); /* close what a fatal error left open */
}

static void fail(void *ctx, const char *name, const char *error) {
  fmt *f = ctx;
  rewrite_fail(&f->rw, name, error);
}

static void none(void *ctx, const char *name, const char *why) {
  fmt *f = ctx;
  rewrite_none(&f->rw, name, why);
}

int cmd_fmt(int argc, char **argv) {
  enum { OPT_FORCE = OPT_LONG_BASE, OPT_FF4 };
  static const struct option longopts[] = {
      {"compact", no_argument, NULL, REWRITE_OPT_COMPACT},
      {"readable", no_argument, NULL, REWRITE_OPT_READABLE},
      {"output", required_argument, NULL, 'o'},
      {"in-place", no_argument, NULL, 'i'},
      {"force", no_argument, NULL, OPT_FORCE},
      {"ff4", no_argument, NULL, OPT_FF4},
      {"verbose", no_argument, NULL, 'v'},
      PROGRESS_LONGOPTS,
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const input_sink sink = {begin, data, end, fail, none, note};
  static char *stdin_only[] = {"-", NULL};
  rewrite_opts ro;
  inplace ip;
  int in_place = 0, force = 0, to_ff4 = 0;
  sgf_callbacks ff4_cb;
  ff4 *conv = NULL;
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
      case REWRITE_OPT_COMPACT:
        ro.layout = SGF_LAYOUT_COMPACT;
        break;
      case REWRITE_OPT_READABLE:
        ro.layout = SGF_LAYOUT_READABLE;
        break;
      case 'o':
        f.outname = optarg;
        break;
      case 'i':
        in_place = 1;
        break;
      case OPT_FORCE:
        force = 1;
        break;
      case OPT_FF4:
        to_ff4 = 1;
        break;
      case 'v':
        ro.verbose = 1;
        break;
      case PROGRESS_OPT_ON:
      case PROGRESS_OPT_OFF:
        progress_option(ch);
        break;
      case 'h':
        help_fmt(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("fmt", ch, argv);
    }
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;
  if (in_place && f.outname != NULL) {
    fprintf(stderr,
            "sgf: fmt: -o and --in-place exclude each other\n"
            "Try 'sgf fmt --help'.\n");
    return EXIT_TROUBLE;
  }
  if (force && !in_place) {
    fprintf(stderr,
            "sgf: fmt: --force goes with --in-place\n"
            "Try 'sgf fmt --help'.\n");
    return EXIT_TROUBLE;
  }
  if (in_place) {
    for (i = 0; i < nfiles; i++)
      if (strcmp(files[i], "-") == 0) {
        fprintf(stderr,
                "sgf: fmt: --in-place needs FILE names, not "
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
  } else if (!in_place) {
    output_stdout(&f.out, &loop);
    f.outname = "<stdout>";
  }
  in = input_reader_create(0);
  if (to_ff4) {
    sgf_callbacks_init(&ff4_cb);
    ff4_callbacks(&ff4_cb);
    conv = ff4_create();
  }
  if (in == NULL || (to_ff4 && conv == NULL) ||
      rewrite_init(&f.rw, "fmt", &ro, to_ff4 ? &ff4_cb : NULL, output_write,
                   &f.out) != 0) {
    if (in == NULL || (to_ff4 && conv == NULL))
      report_failure("fmt", "out of memory");
    ff4_destroy(conv);
    input_reader_destroy(in);
    output_discard(&f.out);
    uv_loop_close(&loop);
    return EXIT_TROUBLE;
  }

  f.rw.cmd_ctx = conv;
  memset(&ip, 0, sizeof ip);
  ip.rw = &f.rw;
  ip.in = in;
  ip.loop = &loop;
  ip.force = force;
  /* with --force, the user is told what was dropped */
  f.rw.show_drops = force;
  progress_start("fmt", files, nfiles);
  for (i = 0; i < nfiles; i++) {
    if (in_place) {
      inplace_rewrite_arg(&ip, files[i]);
    } else {
      input_read(in, files[i], &sink, &f);
      if (sgf_writer_status(f.rw.w) != SGF_OK) break;
    }
  }

  progress_end();
  if (!in_place) {
    if (sgf_writer_status(f.rw.w) == SGF_OK) sgf_writer_finish(f.rw.w);
    if (sgf_writer_status(f.rw.w) != SGF_OK) {
      rewrite_write_failed(&f.rw, &f.out, f.outname);
      output_discard(&f.out);
    } else if (f.out.is_stdout) {
      /* nothing to close */
    } else if (f.rw.status == EXIT_TROUBLE || f.rw.status == EXIT_NO_INPUT) {
      output_discard(&f.out);
      report_failure(f.outname, f.rw.status == EXIT_TROUBLE
                                    ? "not written (errors in the input)"
                                    : "not written (a FILE held no input)");
    } else if (output_commit(&f.out) != 0) {
      report_failure(f.outname, output_error(&f.out));
      f.rw.status = EXIT_TROUBLE;
    }
  }
  status = f.rw.status;
  rewrite_free(&f.rw);
  ff4_destroy(conv);
  input_reader_destroy(in);
  uv_loop_close(&loop);
  return finish_output(status);
}
