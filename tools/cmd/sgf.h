/* sgf.h - what the sgf command's parts share. */
#ifndef SGF_TOOLS_SGF_H
#define SGF_TOOLS_SGF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sgfstream.h>

/* Exit status, the same for every command (sgf(1), EXIT STATUS): the
 * worst thing that happened, by exit_worse(). */
#define EXIT_CLEAN 0    /* nothing to report */
#define EXIT_WARNINGS 1 /* warnings (repairs) only */
#define EXIT_TROUBLE                              \
  2 /* errors, unreadable input, a write error, a \
     * refusal, or a usage error */
#define EXIT_NO_INPUT                                \
  3 /* a FILE (a directory, an archive, a compressed \
     * file) held no SGF input at all */

/* The end of every command's --help. */
#define EXIT_STATUS_HELP                                                     \
  "Exit status: 0 clean; 1 warnings (repairs) only; 2 errors, unreadable "   \
  "input,\na write error, a refusal or a usage error; 3 a FILE (directory, " \
  "archive) that\nheld no SGF input. When several apply: 2, then 3, then "   \
  "1. See sgf(1).\n"

/* The worse of two exit statuses: 2 > 3 > 1 > 0. (Not the larger one: an
 * error outweighs a FILE that matched nothing, which outweighs warnings.) */
static inline int exit_worse(int a, int b) {
  static const int rank[] = {0, 1, 3, 2}; /* by status */
  return rank[a & 3] >= rank[b & 3] ? a : b;
}

/* Long options without a short form use values from here up. */
#define OPT_LONG_BASE 256

/* Commands: each takes argv[0] = its own name and returns the exit status.
 * help_* print the command's help text. */
int cmd_check(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_json(int argc, char **argv);
int cmd_filter(int argc, char **argv);
void help_check(FILE *f);
void help_stats(FILE *f);
void help_events(FILE *f);
void help_json(FILE *f);
void help_filter(FILE *f);
int cmd_serve(int argc, char **argv); /* tools/serve */
int cmd_send(int argc, char **argv);
void help_serve(FILE *f);
void help_send(FILE *f);

/* sgf.c: option handling shared by the commands. */

/* Report the option getopt_long() just rejected (c is '?' or ':') and
 * return EXIT_TROUBLE. */
int option_error(const char *cmd, int c, char **argv);
/* Parse the N of --chunk=N (a positive byte count). 0 or -1 (reported). */
int parse_chunk(const char *cmd, const char *arg, size_t *out);
/* Parse the N of a size option (--max-game-bytes, serve's --max-memory):
 * a number with an optional K, M or G (KiB, MiB, GiB). 0 or -1 (reported,
 * naming cmd and option). */
int parse_size(const char *cmd, const char *option, const char *arg,
               uint64_t *out);
/* "sgf: NAME: MESSAGE" on stderr. */
void report_failure(const char *name, const char *message);
/* A FILE gave no SGF input (input_sink.none): reported like a failure;
 * returns EXIT_NO_INPUT. */
int report_no_input(const char *name, const char *why);
/* Flush stdout; report a write error. Returns status, or EXIT_TROUBLE if
 * output failed. */
int finish_output(int status);

/* Do the commands take move runs (MOVE RUNS in sgfstream/parser.h:
 * on_moves, MOVES records)? Yes unless the environment has SGF_NO_RUNS
 * (for tests: every move then comes as its events, and the output must
 * be the same). stats, stats --summary, filter, fmt, mainline, split. */
int runs_wanted(void);

/* feed.c: feeding the parser. */

/* Feed len bytes in pieces of at most chunk bytes (0: all at once).
 * Pauses are resumed at once and the rest fed; returns SGF_OK, or the
 * status that stopped the parser (SGF_EABORTED or the error status). */
int feed_chunked(sgf_parser *p, const char *buf, size_t len, size_t chunk);
/* sgf_parser_finish(), resuming pauses. */
int finish_chunked(sgf_parser *p);
/* The input layer's note (input_sink.note, input.h: UTF-16 INPUT) as a
 * diagnostic through p's on_diagnostic, at the position of the next byte
 * to be fed: utf16-input (a warning) before the first byte, utf16-invalid
 * (fatal: p stops) where the character that does not decode would have
 * been in the converted text. */
void report_input_note(sgf_parser *p, int what, uint64_t off);

#endif /* SGF_TOOLS_SGF_H */
