/* rewrite.c - parse -> write, shared by the writer commands (rewrite.h). */
#define _POSIX_C_SOURCE 200809L

#include "rewrite.h"

#include <inttypes.h>
#include <string.h>

#include "progress.h"
#include "sgf.h"

static void print_diag(const rewrite *rw, const sgf_diag *d) {
  const char *name = sgf_diag_name(d->code);
  const char *msg = sgf_diag_message(d->code);
  const char *sev = sgf_severity_name(d->severity);
  fflush(stdout);
  progress_clear();
  fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s: %s [%s/%d]", rw->name,
          d->pos.line, d->pos.column, sev ? sev : "?",
          msg ? msg : "unknown diagnostic", name ? name : "unknown",
          (int)d->code);
  if (d->has_mark)
    fprintf(stderr, " (opened at %" PRIu64 ":%" PRIu64 ")", d->mark.line,
            d->mark.column);
  fputc('\n', stderr);
}

static void raise_status(rewrite *rw, int status) {
  rw->status = exit_worse(rw->status, status);
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  rewrite *rw = sgf_writer_user(u);
  int drops = rewrite_diag_drops(d->code);
  (void)p;
  if (drops && rw->drops++ == 0) rw->first_drop = *d;
  if (d->severity == SGF_SEV_WARNING) {
    rw->warnings++;
    raise_status(rw, EXIT_WARNINGS);
    if (rw->verbose || (drops && rw->show_drops)) print_diag(rw, d);
  } else {
    rw->errors++;
    raise_status(rw, EXIT_TROUBLE);
    print_diag(rw, d);
  }
  return SGF_CONTINUE;
}

int rewrite_init(rewrite *rw, const char *cmd, const rewrite_opts *o,
                 const sgf_callbacks *events, sgf_write_fn write, void *ctx) {
  sgf_callbacks cb;
  sgf_options opt;
  sgf_writer_options wo;
  memset(rw, 0, sizeof rw[0]);
  rw->cmd = cmd;
  rw->verbose = o->verbose;
  rw->name = cmd;
  sgf_writer_options_init(&wo);
  wo.layout = o->layout;
  wo.buffer_size = 256u * 1024u; /* fewer, larger writes */
  sgf_options_init(&opt);
  opt.flags = o->flags;
  if (events != NULL) {
    cb = *events;
  } else {
    sgf_callbacks_init(&cb);
    sgf_writer_copy_callbacks(&cb); /* values whole, move runs: faster */
  }
  cb.on_diagnostic = on_diagnostic;
  if (!runs_wanted()) cb.on_moves = NULL; /* every move as its events */
  rw->w = sgf_writer_create(write, ctx, &wo);
  rw->p = rw->w ? sgf_parser_create(&cb, rw->w, &opt) : NULL;
  if (rw->p == NULL) {
    report_failure(cmd, "out of memory");
    rewrite_free(rw);
    return -1;
  }
  sgf_writer_set_user(rw->w, rw);
  return 0;
}

void rewrite_free(rewrite *rw) {
  sgf_parser_destroy(rw->p);
  sgf_writer_destroy(rw->w);
  rw->p = NULL;
  rw->w = NULL;
}

void rewrite_begin(rewrite *rw, const char *name) {
  sgf_parser_reset(rw->p);
  rw->name = name;
  rw->stopped = 0;
  rw->warnings = rw->errors = 0;
  rw->drops = 0;
}

/* The parser stopped with st: a fatal error (already reported through
 * on_diagnostic) or an abort because the writer failed. */
static void stopped(rewrite *rw, int st) {
  rw->stopped = 1;
  if (st == SGF_EPARSE) {
    if (rw->errors == 0) { /* stopped without a report: still an error */
      rw->errors++;
      report_failure(rw->name, "parsing stopped");
    }
  } else if (sgf_writer_status(rw->w) == SGF_OK) {
    rw->errors++;
    report_failure(rw->name, "parsing aborted");
  }
  raise_status(rw, EXIT_TROUBLE);
}

int rewrite_data(rewrite *rw, const char *buf, size_t len) {
  int st;
  if (rw->stopped) return 1;
  st = feed_chunked(rw->p, buf, len, 0);
  if (st != SGF_OK) {
    stopped(rw, st);
    return 1;
  }
  return 0;
}

void rewrite_note(rewrite *rw, int what, uint64_t off) {
  if (!rw->stopped) report_input_note(rw->p, what, off);
}

int rewrite_end(rewrite *rw, const char *error) {
  if (error != NULL) {
    report_failure(rw->name, error);
    rw->errors++;
    raise_status(rw, EXIT_TROUBLE);
  } else if (!rw->stopped) {
    int st = finish_chunked(rw->p);
    if (st != SGF_OK) stopped(rw, st);
  }
  return rw->errors || sgf_writer_status(rw->w) != SGF_OK ? -1 : 0;
}

void rewrite_fail(rewrite *rw, const char *name, const char *error) {
  report_failure(name, error);
  raise_status(rw, EXIT_TROUBLE);
}

void rewrite_none(rewrite *rw, const char *name, const char *why) {
  raise_status(rw, report_no_input(name, why));
}

void rewrite_write_failed(rewrite *rw, const output *out, const char *outname) {
  const char *e = out ? output_error(out) : NULL;
  report_failure(outname, e ? e : sgf_strerror(sgf_writer_status(rw->w)));
  raise_status(rw, EXIT_TROUBLE);
}
