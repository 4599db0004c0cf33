/* rewrite.h - what the writer commands (sgf fmt, mainline, split) share:
 * a parser whose events go straight to a streaming writer (the parser's
 * user pointer is the writer; the writer's user pointer is the rewrite),
 * diagnostics on standard error, and the exit status.
 *
 * Diagnostics: errors and fatal errors are always printed, as
 * FILE:LINE:COL: SEVERITY: MESSAGE [NAME/CODE]; warnings (the lenient
 * repairs the output contains) only with -v, or, with show_drops, those
 * of repairs that drop input bytes (rewrite_diag_drops()), which are
 * counted either way. The status is the worst, by exit_worse(), of
 * EXIT_CLEAN, EXIT_WARNINGS (repaired), EXIT_TROUBLE (errors, unreadable
 * input or failed output) and EXIT_NO_INPUT (a FILE held no SGF input).
 */
#ifndef SGF_TOOLS_REWRITE_H
#define SGF_TOOLS_REWRITE_H

#include <stdint.h>
#include <stdio.h>

#include <sgfstream.h>

#include "output.h"

typedef struct rewrite {
  sgf_parser *p;
  sgf_writer *w;
  void *cmd_ctx;   /* the command's own state, for its handlers */
  const char *cmd; /* "fmt" */
  int verbose;
  /* The input being read. */
  const char *name;
  int stopped; /* the parser stopped (fatal error, or output failed) */
  uint64_t warnings, errors; /* errors include fatal ones */
  /* Diagnostics whose repair drops input bytes (rewrite_diag_drops()),
   * and the first of them. */
  uint64_t drops;
  sgf_diag first_drop;
  int show_drops; /* print those warnings even without -v */
  int status;     /* worst exit status so far */
} rewrite;

/* Layout and parser flags from the options the commands share. */
typedef struct rewrite_opts {
  sgf_layout layout;
  unsigned flags; /* SGF_OPT_* */
  int verbose;
} rewrite_opts;

/* Create the parser and writer. events: the event handlers (NULL: the
 * writer's own, sgf_writer_callbacks()); on_diagnostic is always the
 * rewrite's. The writer writes to write(ctx). Returns 0, or -1 (out of
 * memory, reported). */
int rewrite_init(rewrite *rw, const char *cmd, const rewrite_opts *o,
                 const sgf_callbacks *events, sgf_write_fn write, void *ctx);
void rewrite_free(rewrite *rw);

/* Input callbacks, to be called from the command's input_sink ones. */
void rewrite_begin(rewrite *rw, const char *name);
/* Feed; returns nonzero when the rest of the input is to be skipped. */
int rewrite_data(rewrite *rw, const char *buf, size_t len);
/* input_sink.note: reported through the parser (report_input_note). */
void rewrite_note(rewrite *rw, int what, uint64_t off);
/* The input is over (error: why reading failed, or NULL). Finishes the
 * parse unless it stopped. Returns 0 if what was written can be kept
 * (no errors), -1 if not. */
int rewrite_end(rewrite *rw, const char *error);
/* A FILE could not be read at all. */
void rewrite_fail(rewrite *rw, const char *name, const char *error);
/* A FILE held no SGF input (input_sink.none). */
void rewrite_none(rewrite *rw, const char *name, const char *why);

/* The writer failed: report it (with out's error if it has one). */
void rewrite_write_failed(rewrite *rw, const output *out, const char *outname);

/* Does the repair reported by code leave out bytes of the input (junk,
 * a property without value...), rather than respell it (a missing ';'
 * added, an identifier normalized...)? 1 or 0; the table and the reason
 * for each answer are in drops.c. */
int rewrite_diag_drops(sgf_diag_code code);

/* Option parsing shared by the commands: --compact, --readable, -v. */
#define REWRITE_OPT_COMPACT 0x300
#define REWRITE_OPT_READABLE 0x301

/* The writer commands (tools/cmd/cmd_fmt.c, cmd_mainline.c, cmd_split.c). */
int cmd_fmt(int argc, char **argv);
int cmd_mainline(int argc, char **argv);
int cmd_split(int argc, char **argv);
void help_fmt(FILE *f);
void help_mainline(FILE *f);
void help_split(FILE *f);

#endif /* SGF_TOOLS_REWRITE_H */
