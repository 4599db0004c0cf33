/* cmd_json.c - `sgf json`: its options and its inputs. The converter
 * (SGF games to JSON Lines, written as the parser's events arrive) is
 * tools/json (json_conv.h); here the files are read (tools/io), fed to its
 * parser in --chunk pieces, and the exit status is made.
 */
#define _POSIX_C_SOURCE 200809L

#include "input.h"
#include "json_conv.h"
#include "progress.h"
#include "sgf.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

typedef struct jcmd {
  json_conv *c;
  size_t chunk;
  const char *arg; /* the FILE argument as inputs are named */
  int status;      /* of the inputs (the converter's: json_conv_status) */
} jcmd;

void help_json(FILE *f) {
  fprintf(f,
          "usage: sgf json [--headers | --mainline] [--raw] "
          "[--charset=NAME] [--guess]\n"
          "                [--strict] [--max-depth=N] [--chunk=N] "
          "[FILE]...\n"
          "\n"
          "Write each game of FILE as one line of JSON (JSON Lines): "
          "\"source\"\n"
          "(file, member, game, offset, line, column), the header fields "
          "black,\n"
          "white, black_rank, white_rank, result, date, komi, handicap, "
          "size,\n"
          "rules, event, round, place, game_name (null when absent), "
          "\"tree\"\n"
          "(the game's variations in file order, each {\"parent\": N, "
          "\"nodes\":\n"
          "[node...]}, a node an array of [\"ID\", value...] in file "
          "order) and\n"
          "\"moves\" (the main line: [[\"B\",\"pd\"], ...], a pass "
          "null). Text is\n"
          "UTF-8 by the game's CA. See sgf(1), JSON SCHEMA. With no FILE, "
          "or when\n"
          "FILE is -, read standard input.\n"
          "\n"
          "      --headers       only the source and the header fields; "
          "the rest\n"
          "                      of each game is skipped unparsed (a "
          "header value\n"
          "                      over 64 KiB is dropped: null, with a "
          "warning)\n"
          "      --mainline      no tree: the header fields and the main "
          "line\n"
          "      --raw           every value as written (escapes kept), "
          "as a string\n"
          "      --charset=NAME  read text in NAME (iconv's names), "
          "whatever CA says\n"
          "      --guess         guess the charset of text with no or "
          "a wrong CA\n"
          "                      (GB18030, Shift_JIS, EUC-KR, Big5); a "
          "warning\n"
          "                      when it overrules CA\n"
          "  -s, --strict        stop at the first deviation from FF[4]\n"
          "      --max-depth=N   allow N nested game trees (default "
          "%u)\n"
          "      --chunk=N       feed the parser N bytes at a time\n"
          "      --progress      show a progress line on stderr (default: "
          "on a\n"
          "                      terminal, for jobs over half a second)\n"
          "      --quiet         no progress line\n"
          "  -h, --help          show this help\n"
          "\n"
          "Text that does not decode is an error, positioned, and is "
          "written read\n"
          "as ISO-8859-1 (each byte one character, so nothing is lost).\n"
          "\n" EXIT_STATUS_HELP,
          SGF_DEFAULT_MAX_DEPTH);
}

/* ------------------------------------------------------------ inputs */

static void begin(void *ctx, const char *name) {
  jcmd *j = ctx;
  json_conv_begin(j->c, name, j->arg);
}

/* Bytes for the parser: the input's, or UTF-8 from UTF-16. */
static int data(void *ctx, const char *buf, size_t len) {
  jcmd *j = ctx;
  if (json_conv_stopped(j->c)) return 1;
  if (feed_chunked(json_conv_parser(j->c), buf, len, j->chunk) != SGF_OK) {
    json_conv_stop(j->c);
    return 1;
  }
  return 0;
}

/* UTF-16 input (input.h): its text is UTF-8 already, CA is not used. */
static void note(void *ctx, int what, uint64_t off) {
  jcmd *j = ctx;
  if (what != INPUT_NOTE_BAD_UTF16) json_conv_input_utf8(j->c);
  if (!json_conv_stopped(j->c))
    report_input_note(json_conv_parser(j->c), what, off);
}

static void end(void *ctx, const char *name, const char *error) {
  jcmd *j = ctx;
  if (!json_conv_stopped(j->c) && error == NULL &&
      finish_chunked(json_conv_parser(j->c)) != SGF_OK)
    json_conv_stop(j->c);
  json_conv_end(j->c);
  if (error != NULL) {
    report_failure(name, error);
    j->status = exit_worse(j->status, EXIT_TROUBLE);
  }
  json_conv_flush(j->c);
}

static void fail(void *ctx, const char *name, const char *error) {
  jcmd *j = ctx;
  report_failure(name, error);
  j->status = exit_worse(j->status, EXIT_TROUBLE);
}

static void none(void *ctx, const char *name, const char *why) {
  jcmd *j = ctx;
  j->status = exit_worse(j->status, report_no_input(name, why));
}

static void one_game(void) { progress_games(1); }

static int parse_depth(const char *arg, uint64_t *out) {
  char *end;
  unsigned long long v;
  errno = 0;
  v = strtoull(arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 || v == 0) {
    fprintf(stderr,
            "sgf: invalid depth '%s' (a positive number)\n"
            "Try 'sgf json --help'.\n",
            arg);
    return -1;
  }
  *out = v;
  return 0;
}

int cmd_json(int argc, char **argv) {
  enum {
    OPT_CHUNK = OPT_LONG_BASE,
    OPT_HEADERS,
    OPT_MAINLINE,
    OPT_RAW,
    OPT_CHARSET,
    OPT_GUESS,
    OPT_DEPTH
  };
  static const struct option longopts[] = {
      {"headers", no_argument, NULL, OPT_HEADERS},
      {"mainline", no_argument, NULL, OPT_MAINLINE},
      {"raw", no_argument, NULL, OPT_RAW},
      {"charset", required_argument, NULL, OPT_CHARSET},
      {"guess", no_argument, NULL, OPT_GUESS},
      {"strict", no_argument, NULL, 's'},
      {"max-depth", required_argument, NULL, OPT_DEPTH},
      {"chunk", required_argument, NULL, OPT_CHUNK},
      PROGRESS_LONGOPTS,
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static const input_sink sink = {begin, data, end, fail, none, note};
  static char *stdin_only[] = {"-", NULL};
  jcmd j;
  json_options jo;
  sgf_options opt;
  sgf_charset_options copt;
  input_reader *in;
  const char *error;
  char **files;
  int nfiles, ch, i, status;

  memset(&j, 0, sizeof j);
  json_options_init(&jo);
  jo.parse = &opt;
  jo.charset = &copt;
  jo.before_message = progress_clear;
  jo.game_done = one_game;
  sgf_options_init(&opt);
  sgf_charset_options_init(&copt);
  opterr = 0;
  status = EXIT_CLEAN;
  while ((ch = getopt_long(argc, argv, ":sh", longopts, NULL)) != -1) {
    switch (ch) {
      case 's':
        opt.flags |= SGF_OPT_STRICT;
        break;
      case OPT_HEADERS:
        jo.mode = JSON_HEADERS;
        break;
      case OPT_MAINLINE:
        jo.mode = JSON_MAINLINE;
        break;
      case OPT_RAW:
        jo.raw = 1;
        break;
      case OPT_CHARSET:
        copt.override = optarg;
        break;
      case OPT_GUESS:
        copt.flags |= SGF_CS_GUESS;
        break;
      case OPT_DEPTH:
        if (parse_depth(optarg, &opt.max_depth) != 0) status = EXIT_TROUBLE;
        break;
      case OPT_CHUNK:
        if (parse_chunk("json", optarg, &j.chunk) != 0) status = EXIT_TROUBLE;
        break;
      case PROGRESS_OPT_ON:
      case PROGRESS_OPT_OFF:
        progress_option(ch);
        break;
      case 'h':
        help_json(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("json", ch, argv);
    }
    if (status != EXIT_CLEAN) return status;
  }
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;

  j.c = json_conv_create(&jo, &error);
  if (j.c == NULL && strcmp(error, "unknown charset") == 0) {
    fprintf(stderr,
            "sgf: json: unknown charset '%s' (iconv's names: "
            "iconv --list)\n",
            copt.override ? copt.override : "");
    return EXIT_TROUBLE;
  }
  in = input_reader_create(0);
  if (j.c == NULL || in == NULL) {
    report_failure("json", "out of memory");
    input_reader_destroy(in);
    json_conv_destroy(j.c);
    return EXIT_TROUBLE;
  }
  progress_start("json", files, nfiles);
  for (i = 0; i < nfiles; i++) {
    j.arg = strcmp(files[i], "-") == 0 ? "<stdin>" : files[i];
    input_read(in, files[i], &sink, &j);
  }
  progress_end();
  input_reader_destroy(in);
  json_conv_flush(j.c);
  status = finish_output(exit_worse(j.status, json_conv_status(j.c)));
  json_conv_destroy(j.c);
  return status;
}
