/* harness.c - the checks of the fuzz targets (see harness.h).
 *
 * One checked run (struct run) drives a parser over an input with all
 * nine callbacks set. Each callback first logs the event through the
 * tools' event log (tools/common/eventlog.c: merged slices, so logs compare
 * across chunkings), then checks it against a small model of the event
 * grammar that needs no stack (after a variation closes, its parent is
 * always "in a node, after a child"), then decides what to return
 * (continue, or an injected skip, abort or pause). The first failed
 * check is kept as a message and the run aborts.
 */
#include "harness.h"
#include "harness_priv.h"
#include <sgfstream/event_state.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "countalloc.h"
#include "eventlog.h"

/* ------------------------------------------------------------------ */
/* Messages and options                                                */

static char fz_msg[1024];

const char *fz_failf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(fz_msg, sizeof fz_msg, fmt, ap);
  va_end(ap);
  return fz_msg;
}

void fz_decode_options(uint8_t byte, sgf_options *opt) {
  static const uint64_t depths[8] = {0, 1, 2, 3, 4, 8, 64, 10000};
  static const size_t idents[8] = {0, 1, 2, 3, 4, 8, 16, 64};
  sgf_options_init(opt);
  opt->flags = byte & 3u;
  opt->max_depth = depths[(byte >> 2) & 7];
  opt->max_ident_len = idents[(byte >> 5) & 7];
}

/* Checks named in the environment variable SGF_FUZZ_TOLERATE (a comma
 * list) are not made: a way to keep fuzzing past a bug already reported
 * and not yet fixed. Tags: mainline-second-child, implicit-limit (both
 * fixed since), value-limit-pos (the model of the reader),
 * writer-text-nul (harness_tree.c's writer scripts), cursor-comment-join
 * and cursor-mn-stale (harness_cursor.c). */
int fz_tolerate(const char *tag) {
  const char *env = getenv("SGF_FUZZ_TOLERATE");
  size_t n = strlen(tag);
  while (env != NULL && *env != '\0') {
    if (strncmp(env, tag, n) == 0 && (env[n] == ',' || env[n] == '\0'))
      return 1;
    env = strchr(env, ',');
    if (env != NULL) env++;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* A checked run                                                       */

enum { W_TOP, W_SEQ, W_NODE, W_PROP, W_VALUE, W_AFTER_VALUE };
enum { INJ_NONE, INJ_SKIP, INJ_ABORT, INJ_DIAG_ABORT };

typedef struct run {
  evlog log; /* the parser's user pointer is the run; log is passed on */
  sgf_callbacks logcb;
  bytebuf out;

  /* What to check against. */
  const unsigned char *in;
  size_t len;
  unsigned flags;
  uint64_t max_depth;
  size_t max_ident;

  /* Actions. */
  int inject;
  long inject_at;
  unsigned pause_every, pause_phase;

  /* The feed in progress. */
  sgf_parser *p;
  const unsigned char *buf;
  size_t buf_len;
  uint64_t buf_off;
  int finishing;

  /* The model. */
  uint64_t depth;
  int where;
  int after_child;     /* in W_NODE: a variation of this tree has closed */
  int node_open;       /* a node began, its node-end has not come */
  int node_ended;      /* node-end came; no property until the next node */
  int skipping;        /* a skip is under way ... */
  uint64_t skip_depth; /* ... of the tree open at this depth */
  uint64_t value_next; /* offset where the next slice must start */
  int unclosed_value;  /* an unclosed-value diagnostic came first */
  uint64_t last_off;   /* offset of the last event */
  long ncb, nev, ndiag;
  int stopped; /* a stopping diagnostic was delivered */
  sgf_diag stop;
  int aborted; /* a callback returned SGF_ABORT */
  long nskips;

  /* Line counting cursor. */
  uint64_t lc_off, lc_line, lc_start;

  int failed;
  char err[600];
} run;

static void failv(run *r, const char *fmt, va_list ap) {
  if (r->failed) return;
  r->failed = 1;
  vsnprintf(r->err, sizeof r->err, fmt, ap);
}

static void fail(run *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void fail(run *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  failv(r, fmt, ap);
  va_end(ap);
}

/* Line and column of offset o, counted independently of the library: a
 * line ends at LF, CR, or CR LF. */
static void line_col(run *r, uint64_t o, uint64_t *line, uint64_t *col) {
  if (o < r->lc_off) {
    r->lc_off = 0;
    r->lc_line = 1;
    r->lc_start = 0;
  }
  while (r->lc_off < o) {
    uint64_t i = r->lc_off++;
    unsigned char c = r->in[i];
    if (c == '\r' || (c == '\n' && !(i > 0 && r->in[i - 1] == '\r')))
      r->lc_line++;
    if (c == '\r' || c == '\n') r->lc_start = i + 1;
  }
  *line = r->lc_line;
  *col = o - r->lc_start + 1;
}

/* Bytes given to the parser so far (the end of the current buffer). */
static uint64_t fed(const run *r) {
  return r->finishing ? r->len : r->buf_off + r->buf_len;
}

static int pos_ok(run *r, sgf_pos pos, const char *what) {
  uint64_t line, col;
  if (pos.offset > fed(r)) {
    fail(r, "%s at offset %" PRIu64 ", beyond the %" PRIu64 " bytes fed", what,
         pos.offset, fed(r));
    return 0;
  }
  line_col(r, pos.offset, &line, &col);
  if (pos.line != line || pos.column != col) {
    fail(r,
         "%s at offset %" PRIu64 ": position %" PRIu64 ":%" PRIu64
         ", expected %" PRIu64 ":%" PRIu64,
         what, pos.offset, pos.line, pos.column, line, col);
    return 0;
  }
  return 1;
}

static int byte_at(const run *r, uint64_t off) {
  return off < r->len ? r->in[off] : -1;
}

static int is_letter(int c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* sgf_parser_position(p), checked against the inline sgf_event_position
 * (sgfstream/event_state.h): both must give the same at any time. */
static sgf_pos position(run *r, sgf_parser *p) {
  sgf_pos a = sgf_parser_position(p);
  sgf_pos b =
      sgf_event_position(p, sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION));
  if (a.offset != b.offset || a.line != b.line || a.column != b.column)
    fail(r,
         "sgf_event_position %" PRIu64 ":%" PRIu64 " (offset %" PRIu64
         ") but sgf_parser_position %" PRIu64 ":%" PRIu64 " (offset %" PRIu64
         ")",
         b.line, b.column, b.offset, a.line, a.column, a.offset);
  return a;
}

/* The common checks of a structural event; returns its position. */
static sgf_pos event_begin(run *r, const char *name) {
  sgf_pos pos = position(r, r->p);
  if (r->stopped || r->aborted)
    fail(r, "%s after the parser stopped (%s)", name,
         r->aborted ? "abort" : "fatal diagnostic");
  pos_ok(r, pos, name);
  if (pos.offset < r->last_off)
    fail(r, "%s at offset %" PRIu64 " before the previous event at %" PRIu64,
         name, pos.offset, r->last_off);
  r->last_off = pos.offset;
  if (r->skipping && strcmp(name, "tree-end") != 0)
    fail(r, "%s at offset %" PRIu64 " while skipping", name, pos.offset);
  return pos;
}

/* After the model moved: the parser's depth must match ours. */
static void check_depth(run *r, const char *name) {
  uint64_t d = sgf_parser_depth(r->p);
  if (d != r->depth)
    fail(r, "%s: sgf_parser_depth() %" PRIu64 ", %" PRIu64 " trees open", name,
         d, r->depth);
  if (r->depth > r->max_depth)
    fail(r, "%s: depth %" PRIu64 " over max_depth %" PRIu64, name, r->depth,
         r->max_depth);
}

/* From inside a callback every entry point that feeds is refused, and
 * reset does nothing (the logs would show it). */
static void check_busy(run *r) {
  size_t used = 5;
  if (sgf_parser_feed(r->p, "(;)", 3, &used) != SGF_EBUSY || used != 0)
    fail(r, "feed from inside a callback not refused");
  if (sgf_parser_finish(r->p) != SGF_EBUSY)
    fail(r, "finish from inside a callback not refused");
  sgf_parser_reset(r->p);
}

/* What the callback returns. structural: not a slice or a diagnostic. */
static int decide(run *r, int structural, int logged) {
  long k = r->ncb++;
  int a = SGF_CONTINUE;
  if (k % 7 == 3) check_busy(r);
  if (logged != SGF_CONTINUE)
    fail(r, "the event log returned %d (out of memory?)", logged);
  if (r->failed) {
    r->aborted = 1;
    return SGF_ABORT;
  }
  if (structural) {
    long e = r->nev++;
    if (e == r->inject_at && r->inject == INJ_SKIP) a = SGF_SKIP;
    if (e == r->inject_at && r->inject == INJ_ABORT) a = SGF_ABORT;
  }
  if (a == SGF_CONTINUE && r->pause_every &&
      (unsigned long)k % r->pause_every == r->pause_phase)
    a = SGF_PAUSE;
  if (a == SGF_ABORT) r->aborted = 1;
  if (a == SGF_SKIP) {
    r->nskips++;
    if (r->depth > 0) { /* at depth 0 a skip does nothing */
      r->skipping = 1;
      r->skip_depth = r->depth;
      r->node_open = 0; /* a skipped node gets no node-end */
    }
  }
  return a;
}

/* node, tree-begin, tree-end: the node before them must have ended. */
static void node_closed(run *r, const char *name, uint64_t off) {
  if (r->node_open)
    fail(r, "%s at offset %" PRIu64 " with no node-end for the node before",
         name, off);
  r->node_open = r->node_ended = 0;
}

static int on_tree_begin(sgf_parser *p, void *u) {
  run *r = u;
  int lg = r->logcb.on_tree_begin(p, &r->log);
  sgf_pos pos = event_begin(r, "tree-begin");
  int c = byte_at(r, pos.offset);
  if (!(c == '(' || c == ';' || c == '[' || is_letter(c)))
    fail(r, "tree-begin at offset %" PRIu64 " on byte %d", pos.offset, c);
  if (r->where != W_TOP && r->where != W_NODE)
    fail(r, "tree-begin at offset %" PRIu64 " inside a property", pos.offset);
  if (r->where == W_NODE && r->after_child && (r->flags & SGF_OPT_MAINLINE) &&
      !fz_tolerate("mainline-second-child"))
    fail(r, "mainline: a second variation at offset %" PRIu64, pos.offset);
  node_closed(r, "tree-begin", pos.offset);
  r->depth++;
  r->where = W_SEQ;
  r->after_child = 0;
  check_depth(r, "tree-begin");
  return decide(r, 1, lg);
}

static int on_tree_end(sgf_parser *p, void *u) {
  run *r = u;
  int lg = r->logcb.on_tree_end(p, &r->log);
  sgf_pos pos = event_begin(r, "tree-end");
  int c = byte_at(r, pos.offset);
  if (!(c == ')' || (c == -1 && r->finishing)))
    fail(r, "tree-end at offset %" PRIu64 " on byte %d", pos.offset, c);
  if (r->depth == 0) {
    fail(r, "tree-end at offset %" PRIu64 " with no tree open", pos.offset);
  } else if (r->skipping) {
    if (r->depth != r->skip_depth)
      fail(r,
           "the skip of the tree at depth %" PRIu64 " ended at depth %" PRIu64,
           r->skip_depth, r->depth);
    r->skipping = 0;
  } else if (r->where == W_SEQ || r->where == W_PROP || r->where == W_VALUE ||
             r->where == W_AFTER_VALUE) {
    fail(r, "tree-end at offset %" PRIu64 " %s", pos.offset,
         r->where == W_SEQ ? "of a tree without a node" : "inside a property");
  }
  node_closed(r, "tree-end", pos.offset);
  check_depth(r, "tree-end"); /* the depth of the tree that ends */
  if (r->depth > 0) r->depth--;
  r->where = r->depth ? W_NODE : W_TOP;
  r->after_child = r->depth > 0;
  return decide(r, 1, lg);
}

static int on_node(sgf_parser *p, void *u) {
  run *r = u;
  int lg = r->logcb.on_node(p, &r->log);
  sgf_pos pos = event_begin(r, "node");
  int c = byte_at(r, pos.offset);
  if (!(c == ';' || c == '[' || c == '(' || c == ')' || is_letter(c) ||
        (c == -1 && r->finishing)))
    fail(r, "node at offset %" PRIu64 " on byte %d", pos.offset, c);
  if (r->depth == 0 || (r->where != W_SEQ && r->where != W_NODE))
    fail(r, "node at offset %" PRIu64 " outside a sequence", pos.offset);
  if (r->where == W_NODE && r->after_child)
    fail(r, "node at offset %" PRIu64 " after a variation", pos.offset);
  node_closed(r, "node", pos.offset);
  r->where = W_NODE;
  r->after_child = 0;
  r->node_open = 1;
  check_depth(r, "node");
  return decide(r, 1, lg);
}

/* The node is complete: at the ';' '(' or ')' after it, or the end. */
static int on_node_end(sgf_parser *p, void *u) {
  run *r = u;
  int lg = r->logcb.on_node_end(p, &r->log);
  sgf_pos pos = event_begin(r, "node-end");
  int c = byte_at(r, pos.offset);
  if (!(c == ';' || c == '(' || c == ')' || (c == -1 && r->finishing)))
    fail(r, "node-end at offset %" PRIu64 " on byte %d", pos.offset, c);
  if (r->where != W_NODE || !r->node_open || r->after_child)
    fail(r, "node-end at offset %" PRIu64 " with no node open", pos.offset);
  r->node_open = 0;
  r->node_ended = 1;
  check_depth(r, "node-end");
  return decide(r, 1, lg);
}

static int on_property(sgf_parser *p, void *u, const char *id, size_t n) {
  run *r = u;
  int lg = r->logcb.on_property(p, &r->log, id, n);
  sgf_pos pos = event_begin(r, "property");
  size_t rn = 0, rn2 = 0, i, upper = 0;
  const char *raw = sgf_parser_raw_ident(p, &rn);
  if (sgf_event_raw_ident(sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION),
                          &rn2) != raw ||
      rn2 != rn)
    fail(r, "sgf_event_raw_ident differs from sgf_parser_raw_ident");
  if (r->where != W_NODE || r->after_child || r->node_ended)
    fail(r, "property at offset %" PRIu64 " outside a node", pos.offset);
  if (n == 0 || n > r->max_ident || rn < n || rn > r->max_ident ||
      raw == NULL) {
    fail(r, "property at offset %" PRIu64 ": lengths %zu/%zu, limit %zu",
         pos.offset, n, rn, r->max_ident);
  } else if (pos.offset + rn > r->len ||
             memcmp(raw, r->in + pos.offset, rn) != 0) {
    fail(r, "property at offset %" PRIu64 ": raw identifier not the input",
         pos.offset);
  } else {
    /* normalized: the uppercase letters, or all upper-cased if none */
    char norm[64];
    size_t k = 0;
    for (i = 0; i < rn; i++) {
      if (!is_letter((unsigned char)raw[i])) break;
      if (raw[i] >= 'A' && raw[i] <= 'Z') upper++;
    }
    if (i < rn) {
      fail(r, "property at offset %" PRIu64 ": non-letter in identifier",
           pos.offset);
    } else if (rn <= sizeof norm) {
      for (i = 0; i < rn; i++) {
        char ch = raw[i];
        if (upper == 0)
          norm[k++] = (char)(ch - 'a' + 'A');
        else if (ch >= 'A' && ch <= 'Z')
          norm[k++] = ch;
      }
      if (k != n || memcmp(norm, id, n) != 0)
        fail(r, "property at offset %" PRIu64 ": normalized %.*s from %.*s",
             pos.offset, (int)n, id, (int)rn, raw);
    }
  }
  r->where = W_PROP;
  check_depth(r, "property");
  return decide(r, 1, lg);
}

static int on_value_begin(sgf_parser *p, void *u) {
  run *r = u;
  int lg = r->logcb.on_value_begin(p, &r->log);
  sgf_pos pos = event_begin(r, "value-begin");
  if (byte_at(r, pos.offset) != '[')
    fail(r, "value-begin at offset %" PRIu64 " not at '['", pos.offset);
  if (r->where != W_PROP && r->where != W_AFTER_VALUE)
    fail(r, "value-begin at offset %" PRIu64 " outside a property", pos.offset);
  r->where = W_VALUE;
  r->value_next = pos.offset + 1;
  check_depth(r, "value-begin");
  return decide(r, 1, lg);
}

static int on_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  run *r = u;
  int lg = r->logcb.on_value_data(p, &r->log, at, n);
  sgf_pos pos = position(r, p);
  const unsigned char *a = (const unsigned char *)at;
  if (r->stopped || r->aborted) fail(r, "value-data after a stop");
  if (r->skipping) fail(r, "value-data while skipping");
  pos_ok(r, pos, "value-data");
  if (r->where != W_VALUE)
    fail(r, "value-data at offset %" PRIu64 " outside a value", pos.offset);
  if (n == 0) fail(r, "empty slice at offset %" PRIu64, pos.offset);
  if (r->finishing || a < r->buf || a > r->buf + r->buf_len ||
      n > (size_t)(r->buf + r->buf_len - a)) {
    /* Bytes held back for look-ahead after an ambiguous ']' (parser.c,
     * DOUBLE-BYTE TEXT) come from the parser's own memory, in a later
     * feed or in finish: at most 136, and the input's own bytes. */
    if (n > 136 || pos.offset > r->len || n > r->len - pos.offset ||
        memcmp(a, r->in + pos.offset, n) != 0)
      fail(r,
           "slice at offset %" PRIu64
           " neither inside the fed buffer "
           "nor held-back input bytes",
           pos.offset);
  } else if (r->buf_off + (uint64_t)(a - r->buf) != pos.offset) {
    fail(r, "slice at buffer offset %" PRIu64 " reported at %" PRIu64,
         r->buf_off + (uint64_t)(a - r->buf), pos.offset);
  }
  if (pos.offset != r->value_next)
    fail(r,
         "slice at offset %" PRIu64 ", expected at %" PRIu64
         " (slices must be contiguous)",
         pos.offset, r->value_next);
  if (pos.offset < r->last_off)
    fail(r, "value-data at offset %" PRIu64 " before the previous event",
         pos.offset);
  r->last_off = pos.offset;
  r->value_next = pos.offset + n;
  return decide(r, 0, lg);
}

static int on_value_end(sgf_parser *p, void *u) {
  run *r = u;
  int lg = r->logcb.on_value_end(p, &r->log);
  sgf_pos pos = event_begin(r, "value-end");
  int c = byte_at(r, pos.offset);
  if (r->where != W_VALUE)
    fail(r, "value-end at offset %" PRIu64 " outside a value", pos.offset);
  else if (pos.offset != r->value_next)
    fail(r,
         "value-end at offset %" PRIu64 ", the value's bytes end at %" PRIu64,
         pos.offset, r->value_next);
  if (!(c == ']' ||
        (r->finishing && r->unclosed_value && pos.offset == r->len)))
    fail(r, "value-end at offset %" PRIu64 " on byte %d", pos.offset, c);
  r->unclosed_value = 0;
  r->where = W_AFTER_VALUE;
  check_depth(r, "value-end");
  return decide(r, 1, lg);
}

static int on_property_end(sgf_parser *p, void *u) {
  run *r = u;
  int lg = r->logcb.on_property_end(p, &r->log);
  sgf_pos pos = event_begin(r, "property-end");
  if (r->where != W_AFTER_VALUE)
    fail(r, "property-end at offset %" PRIu64 " before a value ended",
         pos.offset);
  r->where = W_NODE;
  check_depth(r, "property-end");
  return decide(r, 1, lg);
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  run *r = u;
  int lg = r->logcb.on_diagnostic(p, &r->log, d);
  long k = r->ndiag++;
  sgf_severity want;
  size_t i;
  int stops;
  if (r->stopped || r->aborted) fail(r, "diagnostic after a stop");
  if (d->code <= SGF_DIAG_NONE || d->code >= SGF_DIAG_MAX_ ||
      sgf_diag_name(d->code) == NULL) {
    fail(r, "diagnostic with unknown code %d", (int)d->code);
    return SGF_ABORT;
  }
  want = sgf_diag_severity(d->code);
  if ((r->flags & SGF_OPT_STRICT) && want == SGF_SEV_WARNING)
    want = SGF_SEV_ERROR;
  if (d->severity != want)
    fail(r, "%s reported as severity %d, expected %d", sgf_diag_name(d->code),
         (int)d->severity, (int)want);
  for (i = 0; i < 4; i++)
    if (d->reserved[i] != NULL) fail(r, "diagnostic reserved[] not zero");
  pos_ok(r, d->pos, sgf_diag_name(d->code));
  if (d->has_mark) {
    pos_ok(r, d->mark, "a diagnostic's mark");
    if (d->mark.offset > d->pos.offset)
      fail(r, "%s: mark %" PRIu64 " after position %" PRIu64,
           sgf_diag_name(d->code), d->mark.offset, d->pos.offset);
  }
  /* a skipped tree obeys max_depth too: the '(' past the limit is the
   * fatal depth-limit, wherever the skip began */
  if (r->skipping && !(r->finishing && d->code == SGF_DIAG_UNCLOSED_TREE) &&
      d->code != SGF_DIAG_DEPTH_LIMIT)
    fail(r, "%s at offset %" PRIu64 " while skipping", sgf_diag_name(d->code),
         d->pos.offset);
  if (d->code == SGF_DIAG_UNCLOSED_VALUE) {
    if (!r->finishing || r->where != W_VALUE)
      fail(r, "unclosed-value outside a value at the end");
    r->unclosed_value = 1;
  }
  /* inside a tree skipped, or a variation mainline mode passes over,
   * the nesting is the parser's alone: not above the limit is all we know */
  if (d->code == SGF_DIAG_DEPTH_LIMIT &&
      (r->skipping || (r->flags & SGF_OPT_MAINLINE)
           ? r->depth > r->max_depth
           : r->depth != r->max_depth) &&
      !fz_tolerate("implicit-limit"))
    fail(r, "depth-limit at depth %" PRIu64 ", limit %" PRIu64, r->depth,
         r->max_depth);
  stops = d->severity == SGF_SEV_FATAL ||
          (d->severity == SGF_SEV_ERROR && (r->flags & SGF_OPT_STRICT));
  if (stops) {
    r->stop = *d;
    r->stopped = 1;
  }
  r->ncb++;
  if (lg != SGF_CONTINUE) fail(r, "the event log aborted (out of memory?)");
  if (r->failed || (r->inject == INJ_DIAG_ABORT && k == r->inject_at)) {
    if (!stops) r->aborted = 1;
    return SGF_ABORT;
  }
  /* Anything but abort counts as continue: pause must be ignored. */
  return r->pause_every ? SGF_PAUSE : SGF_CONTINUE;
}

static void run_init(run *r, const unsigned char *in, size_t len,
                     const sgf_options *opt) {
  memset(r, 0, sizeof *r);
  evlog_init(&r->log, bytebuf_sink, &r->out);
  evlog_callbacks(&r->logcb);
  evlog_node_end(&r->logcb);
  r->in = in;
  r->len = len;
  r->flags = opt->flags;
  r->max_depth = opt->max_depth ? opt->max_depth : SGF_DEFAULT_MAX_DEPTH;
  r->max_ident =
      opt->max_ident_len ? opt->max_ident_len : SGF_DEFAULT_MAX_IDENT_LEN;
  r->inject_at = -1;
  r->lc_line = 1;
}

/* Forget the model's state for another pass over the same input. */
static void run_restart(run *r) {
  evlog_free(&r->log);
  evlog_init(&r->log, bytebuf_sink, &r->out);
  r->out.len = 0;
  r->buf = NULL;
  r->buf_len = 0;
  r->buf_off = 0;
  r->finishing = 0;
  r->depth = 0;
  r->where = W_TOP;
  r->after_child = r->skipping = 0;
  r->node_open = r->node_ended = 0;
  r->skip_depth = r->value_next = r->last_off = 0;
  r->unclosed_value = 0;
  r->ncb = r->nev = r->ndiag = r->nskips = 0;
  r->stopped = r->aborted = 0;
  memset(&r->stop, 0, sizeof r->stop);
}

static void run_free(run *r) {
  evlog_free(&r->log);
  bytebuf_free(&r->out);
}

static sgf_callbacks run_callbacks(void) {
  sgf_callbacks cb;
  sgf_callbacks_init(&cb); /* members not set here must be NULL */
  cb.on_tree_begin = on_tree_begin;
  cb.on_tree_end = on_tree_end;
  cb.on_node = on_node;
  cb.on_property = on_property;
  cb.on_value_begin = on_value_begin;
  cb.on_value_data = on_value_data;
  cb.on_value_end = on_value_end;
  cb.on_property_end = on_property_end;
  cb.on_diagnostic = on_diagnostic;
  cb.on_node_end = on_node_end;
  return cb;
}

/* While paused: nothing may happen until resume. */
static void check_paused(run *r, uint64_t next) {
  size_t used = 1;
  long ncb = r->ncb;
  sgf_pos pos = position(r, r->p);
  if (pos.offset != next)
    fail(r, "paused: position %" PRIu64 ", next byte at %" PRIu64, pos.offset,
         next);
  else
    pos_ok(r, pos, "the paused position");
  if (next < r->len) {
    if (sgf_parser_feed(r->p, (const char *)r->in + next, 1, &used) !=
        SGF_PAUSED)
      fail(r, "feed while paused did not return SGF_PAUSED");
    if (used != 0) fail(r, "feed while paused consumed bytes");
  }
  if (r->ncb != ncb) fail(r, "a callback fired while paused");
}

/* Feed `chunks` (n sizes, cycled; none: the whole input at once), then
 * finish; pauses are resumed at once. copy: give each chunk its own heap
 * block, freed after use (so a pointer kept into it would be caught by
 * ASan). Returns the final status. */
static int run_feed(run *r, const uint8_t *chunks, size_t n, int copy) {
  uint64_t pos = 0;
  size_t ci = 0;
  int st = SGF_OK;
  int guard = 0;
  while (pos < r->len && st == SGF_OK && !r->failed) {
    size_t want = r->len - pos, done = 0;
    unsigned char *block = NULL;
    if (n > 0) {
      size_t c = chunks[ci++ % n];
      if (c == 0) { /* an empty feed changes nothing */
        size_t used = 7;
        r->buf = r->in + pos;
        r->buf_off = pos;
        r->buf_len = 0;
        st = sgf_parser_feed(r->p, (const char *)r->in + pos, 0, &used);
        if (st != SGF_OK || used != 0)
          fail(r, "an empty feed returned %d, consumed %zu", (int)st, used);
        c = 1;
      }
      if (c < want) want = c;
    }
    if (copy) {
      block = malloc(want);
      if (block == NULL) abort();
      memcpy(block, r->in + pos, want);
    }
    while (done < want && !r->failed) {
      size_t used = (size_t)-1;
      const unsigned char *b = (copy ? block : r->in + pos) + done;
      r->buf = b;
      r->buf_len = want - done;
      r->buf_off = pos + done;
      st = sgf_parser_feed(r->p, (const char *)b, want - done, &used);
      if (used > want - done) {
        fail(r, "feed consumed %zu of %zu bytes", used, want - done);
        break;
      }
      done += used;
      if (st == SGF_PAUSED) {
        check_paused(r, pos + done);
        sgf_parser_resume(r->p);
        st = SGF_OK;
        if (++guard > 100000000) {
          fail(r, "pausing without end");
          break;
        }
        continue;
      }
      if (st == SGF_OK && done != want)
        fail(r, "feed returned SGF_OK having consumed %zu of %zu", done, want);
      break;
    }
    free(block);
    r->buf = NULL;
    r->buf_len = 0;
    pos += want;
  }
  if (r->failed) return SGF_EPARSE;
  if (st == SGF_OK && !r->stopped) {
    sgf_pos end = position(r, r->p);
    if (end.offset != r->len)
      fail(r, "after feeding %zu bytes the position is %" PRIu64, r->len,
           end.offset);
  }
  r->buf_off = r->len;
  r->finishing = 1;
  {
    long ncb = r->ncb;
    int fin;
    while ((fin = sgf_parser_finish(r->p)) == SGF_PAUSED) {
      sgf_parser_resume(r->p);
      if (++guard > 100000000) {
        fail(r, "pausing without end");
        break;
      }
    }
    if (st != SGF_OK) {
      /* stopped during feed: finish must say so again, doing nothing */
      if (fin != st) fail(r, "finish after %d returned %d", (int)st, (int)fin);
      if (r->ncb != ncb) fail(r, "finish after a stop delivered events");
    }
    st = fin;
  }
  if (evlog_flush(&r->log) != 0) fail(r, "event log out of memory");
  return st;
}

/* The invariants of a completed run. */
static void final_checks(run *r, int st) {
  const sgf_diag *e = sgf_parser_error(r->p);
  if (r->failed) return;
  switch (st) {
    case SGF_OK:
      if (r->stopped) fail(r, "finish OK after a stopping diagnostic");
      if (r->aborted) fail(r, "finish OK after an abort");
      if (r->depth != 0 || r->where != W_TOP)
        fail(r, "finish OK with %" PRIu64 " trees open (state %d)", r->depth,
             r->where);
      if (sgf_parser_depth(r->p) != 0)
        fail(r, "finish OK with depth %" PRIu64, sgf_parser_depth(r->p));
      if (e != NULL) fail(r, "finish OK but sgf_parser_error() is set");
      if (sgf_parser_finish(r->p) != SGF_OK)
        fail(r, "a second finish did not return SGF_OK");
      break;
    case SGF_EPARSE:
      if (!r->stopped) {
        fail(r, "SGF_EPARSE without a fatal diagnostic");
      } else if (e == NULL) {
        fail(r, "SGF_EPARSE but sgf_parser_error() is NULL");
      } else if (e->code != r->stop.code ||
                 e->pos.offset != r->stop.pos.offset ||
                 e->severity != r->stop.severity) {
        fail(r, "sgf_parser_error() %s@%" PRIu64 ", delivered %s@%" PRIu64,
             sgf_diag_name(e->code), e->pos.offset, sgf_diag_name(r->stop.code),
             r->stop.pos.offset);
      }
      break;
    case SGF_EABORTED:
      if (!r->aborted) fail(r, "SGF_EABORTED but no callback aborted");
      if (r->stopped) fail(r, "SGF_EABORTED after a fatal diagnostic");
      break;
    default:
      fail(r, "the parse ended with status %d", (int)st);
  }
  if (st != SGF_EPARSE && r->stopped)
    fail(r, "a stopping diagnostic but status %d", (int)st);
}

/* A complete checked run with a fresh parser. Returns the status. */
static int run_once(run *r, const sgf_options *opt, const uint8_t *chunks,
                    size_t n, int copy) {
  sgf_callbacks cb = run_callbacks();
  int st;
  r->p = sgf_parser_create(&cb, r, opt);
  if (r->p == NULL) {
    fail(r, "sgf_parser_create failed");
    return SGF_EPARSE;
  }
  st = run_feed(r, chunks, n, copy);
  final_checks(r, st);
  return st;
}

static const char *run_result(run *r) {
  if (!r->failed) return NULL;
  return fz_failf("%s", r->err);
}

/* ------------------------------------------------------------------ */
/* fuzz_parse                                                          */

const char *fz_check_parse(const uint8_t *data, size_t size) {
  sgf_options opt;
  run r;
  int st1, st2;
  bytebuf first;
  const char *res;
  if (size < 1) return NULL;
  fz_decode_options(data[0], &opt);
  run_init(&r, data + 1, size - 1, &opt);
  st1 = run_once(&r, &opt, NULL, 0, 0);
  if (r.failed || r.p == NULL) {
    sgf_parser_destroy(r.p);
    res = run_result(&r);
    run_free(&r);
    return res;
  }
  /* Reset and parse again: the same log. */
  first = r.out;
  memset(&r.out, 0, sizeof r.out);
  run_restart(&r);
  sgf_parser_reset(r.p);
  if (sgf_parser_error(r.p) != NULL || sgf_parser_depth(r.p) != 0)
    fail(&r, "reset left an error or depth");
  st2 = run_feed(&r, NULL, 0, 0);
  final_checks(&r, st2);
  if (!r.failed && (st1 != st2 || !bytebuf_eq(&first, &r.out)))
    fail(&r, "parse after reset differs (status %d vs %d)", (int)st1, (int)st2);
  sgf_parser_destroy(r.p);
  bytebuf_free(&first);
  res = run_result(&r);
  run_free(&r);
  return res;
}

/* ------------------------------------------------------------------ */
/* fuzz_split                                                          */

typedef struct split_cfg {
  sgf_options opt;
  int inject;
  long inject_at;
  unsigned pause_every, pause_phase;
  const uint8_t *chunks; /* NULL, n == 0: byte by byte */
  size_t nchunks;
} split_cfg;

static const uint8_t one_byte[1] = {1};

/* Describe where two logs first differ; an and bn name them. */
static const char *log_diff2(const char *what, const char *an, const bytebuf *a,
                             const char *bn, const bytebuf *b) {
  size_t i = 0, line = 1, ls = 0, ae, be;
  size_t n = a->len < b->len ? a->len : b->len;
  while (i < n && a->p[i] == b->p[i]) {
    if (a->p[i] == '\n') {
      line++;
      ls = i + 1;
    }
    i++;
  }
  ae = be = ls;
  while (ae < a->len && a->p[ae] != '\n') ae++;
  while (be < b->len && b->p[be] != '\n') be++;
  return fz_failf("%s: logs differ at line %zu:\n  %s: %.*s\n  %s: %.*s", what,
                  line, an, (int)(ae - ls > 300 ? 300 : ae - ls),
                  a->p ? a->p + ls : "", bn,
                  (int)(be - ls > 300 ? 300 : be - ls), b->p ? b->p + ls : "");
}

static const char *log_diff(const char *what, const bytebuf *a,
                            const bytebuf *b) {
  return log_diff2(what, "whole", a, "split", b);
}

/* Like log_diff, into its own buffer (for use inside another message). */
static const char *log_diff_msg(const char *what, const bytebuf *a,
                                const bytebuf *b) {
  static char msg[sizeof fz_msg];
  snprintf(msg, sizeof msg, "%s", log_diff2(what, "model", a, "reader", b));
  return msg;
}

static const char *split_compare(const uint8_t *in, size_t len,
                                 const split_cfg *cfg) {
  run whole, part;
  int sw, sp;
  const char *res = NULL;
  const uint8_t *chunks = cfg->chunks;
  size_t n = cfg->nchunks;
  if (n == 0) {
    chunks = one_byte;
    n = 1;
  }
  run_init(&whole, in, len, &cfg->opt);
  whole.inject = cfg->inject;
  whole.inject_at = cfg->inject_at;
  sw = run_once(&whole, &cfg->opt, NULL, 0, 0);
  if (whole.failed) {
    res = fz_failf("whole: %s", whole.err);
    sgf_parser_destroy(whole.p);
    run_free(&whole);
    return res;
  }
  run_init(&part, in, len, &cfg->opt);
  part.inject = cfg->inject;
  part.inject_at = cfg->inject_at;
  part.pause_every = cfg->pause_every;
  part.pause_phase = cfg->pause_phase;
  sp = run_once(&part, &cfg->opt, chunks, n, 1);
  if (part.failed) {
    res = fz_failf("split: %s", part.err);
  } else if (!bytebuf_eq(&whole.out, &part.out)) {
    res = log_diff("whole vs split", &whole.out, &part.out);
  } else if (sw != sp) {
    res = fz_failf("whole vs split: status %d vs %d", (int)sw, (int)sp);
  } else if (sw == SGF_EPARSE) {
    const sgf_diag *a = sgf_parser_error(whole.p);
    const sgf_diag *b = sgf_parser_error(part.p);
    if (!a || !b || a->code != b->code || a->pos.offset != b->pos.offset ||
        a->pos.line != b->pos.line || a->pos.column != b->pos.column ||
        a->has_mark != b->has_mark ||
        (a->has_mark && a->mark.offset != b->mark.offset))
      res = fz_failf("whole vs split: sgf_parser_error() differs");
  }
  sgf_parser_destroy(whole.p);
  sgf_parser_destroy(part.p);
  run_free(&whole);
  run_free(&part);
  return res;
}

const char *fz_check_split(const uint8_t *data, size_t size) {
  split_cfg cfg;
  size_t h;
  if (size < 4) return NULL;
  memset(&cfg, 0, sizeof cfg);
  fz_decode_options(data[0], &cfg.opt);
  cfg.inject = data[1] >> 6;
  cfg.inject_at = data[1] & 63;
  cfg.pause_every = data[2] & 15u;
  cfg.pause_phase = cfg.pause_every ? (data[2] >> 4) % cfg.pause_every : 0;
  cfg.nchunks = data[3] & 15u;
  h = 4 + cfg.nchunks;
  if (size < h) return NULL;
  cfg.chunks = data + 4;
  return split_compare(data + h, size - h, &cfg);
}

const char *fz_check_plain(const uint8_t *data, size_t size) {
  static const uint8_t sevens[1] = {7};
  static const uint8_t mixed[4] = {3, 0, 17, 64};
  unsigned f;
  for (f = 0; f < 4; f++) {
    split_cfg cfg;
    const char *res;
    memset(&cfg, 0, sizeof cfg);
    sgf_options_init(&cfg.opt);
    cfg.opt.flags = f;
    cfg.inject_at = -1;
    /* byte by byte, pausing at every third callback */
    cfg.pause_every = 3;
    res = split_compare(data, size, &cfg);
    if (res == NULL) {
      cfg.pause_every = 0;
      cfg.chunks = sevens;
      cfg.nchunks = 1;
      res = split_compare(data, size, &cfg);
    }
    if (res == NULL) {
      cfg.pause_every = 1;
      cfg.chunks = mixed;
      cfg.nchunks = 4;
      res = split_compare(data, size, &cfg);
    }
    if (res != NULL) {
      char copy[sizeof fz_msg];
      snprintf(copy, sizeof copy, "%s", res);
      return fz_failf("flags %u: %s", f, copy);
    }
  }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* fuzz_reader                                                         */

/* The reader is checked against a model of it: a plain core parse with
 * the same options that applies the documented limits itself (raw bytes
 * per property up to max_value_bytes, values up to max_value_bytes / 16
 * but at least 64; the value-limit positioned at the '[' of the value that
 * crossed a limit, marked at the property). Both write the properties
 * delivered and the diagnostics into a log; the logs must be equal, or,
 * when an allocation failed, the reader's a prefix of the model's. */

static size_t rd_max_values(size_t max_bytes) {
  return max_bytes / 16 < 64 ? 64 : max_bytes / 16;
}

static void log_diag(bytebuf *b, const sgf_diag *d) {
  char tmp[160];
  int n = snprintf(
      tmp, sizeof tmp,
      "\n! %d/%d @%" PRIu64 ":%" PRIu64 ":%" PRIu64 " mark %d@%" PRIu64,
      (int)d->code, (int)d->severity, d->pos.offset, d->pos.line, d->pos.column,
      d->has_mark, d->has_mark ? d->mark.offset : 0);
  if (n > 0) bytebuf_add(b, tmp, (size_t)n);
}

static void log_prop_head(bytebuf *b, const char *id, size_t n, const char *raw,
                          size_t rn, sgf_pos pos) {
  char tmp[80];
  int k;
  bytebuf_add(b, "\nP ", 3);
  bytebuf_add(b, id, n);
  bytebuf_add(b, "/", 1);
  bytebuf_add(b, raw, rn);
  k = snprintf(tmp, sizeof tmp, " @%" PRIu64 ":%" PRIu64 ":%" PRIu64,
               pos.offset, pos.line, pos.column);
  if (k > 0) bytebuf_add(b, tmp, (size_t)k);
}

static void log_value(bytebuf *b, const char *raw, size_t len, sgf_pos pos) {
  char tmp[80];
  int k = snprintf(tmp, sizeof tmp,
                   " [%zu@%" PRIu64 ":%" PRIu64 ":%" PRIu64 "]=", len,
                   pos.offset, pos.line, pos.column);
  if (k > 0) bytebuf_add(b, tmp, (size_t)k);
  bytebuf_add(b, raw, len);
}

typedef struct rd {
  const unsigned char *in;
  size_t len;
  size_t max_bytes, max_values;
  unsigned pause_every;
  long skip_node;
  long nodes, ncb;
  int stopped;
  sgf_diag stop;
  unsigned flags;
  const uint8_t *usizes; /* piece sizes for fz_unescape_check */
  bytebuf log;
  int failed;
  char err[800];
} rd;

static void rd_fail(rd *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void rd_fail(rd *d, const char *fmt, ...) {
  va_list ap;
  if (d->failed) return;
  d->failed = 1;
  va_start(ap, fmt);
  vsnprintf(d->err, sizeof d->err, fmt, ap);
  va_end(ap);
}

static int rd_ret(rd *d) {
  long k = d->ncb++;
  if (d->failed) return SGF_ABORT;
  if (d->stopped) rd_fail(d, "a reader callback after a stop");
  if (d->pause_every && k % (long)d->pause_every == 0) return SGF_PAUSE;
  return SGF_CONTINUE;
}

static int rd_tb(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_add(&((rd *)u)->log, "\n(", 2);
  return rd_ret(u);
}

static int rd_te(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_add(&((rd *)u)->log, "\n)", 2);
  return rd_ret(u);
}

static int rd_node(sgf_parser *p, void *u) {
  rd *d = u;
  int a = rd_ret(d);
  (void)p;
  bytebuf_add(&d->log, "\n;", 2);
  /* the skip wins over a pause, as in the model */
  if (++d->nodes == d->skip_node && a != SGF_ABORT) return SGF_SKIP;
  return a;
}

static int rd_prop(sgf_parser *p, void *u, const sgf_prop_view *pr) {
  rd *d = u;
  size_t i, total = 0;
  (void)p;
  if (pr->nvalues < 1 || sgf_prop_value(pr, 0).raw == NULL ||
      pr->ident == NULL || pr->raw_ident == NULL) {
    rd_fail(d, "property with %zu values", pr->nvalues);
    return SGF_ABORT;
  }
  if (strlen(pr->ident) != pr->ident_len ||
      strlen(pr->raw_ident) != pr->raw_ident_len)
    rd_fail(d, "property identifier not NUL-terminated at its length");
  if (sgf_prop_value(pr, pr->nvalues).raw != NULL)
    rd_fail(d, "a value past the last one of %s", pr->ident);
  log_prop_head(&d->log, pr->ident, pr->ident_len, pr->raw_ident,
                pr->raw_ident_len, pr->pos);
  for (i = 0; i < pr->nvalues; i++) {
    sgf_value_view v = sgf_prop_value(pr, i);
    total += v.len;
    log_value(&d->log, v.raw, v.len, v.pos);
    if (!d->failed) {
      /* the value's text: whole, streamed in pieces, escaped again */
      const char *msg = fz_unescape_check(v.raw, v.len, d->usizes, 2);
      if (msg != NULL)
        rd_fail(d, "value %zu of %s at offset %" PRIu64 ": %s", i, pr->ident,
                v.pos.offset, msg);
    }
  }
  if (total > d->max_bytes || pr->nvalues > d->max_values)
    rd_fail(d,
            "property %s delivered with %zu bytes in %zu values, over "
            "the limits %zu and %zu",
            pr->ident, total, pr->nvalues, d->max_bytes, d->max_values);
  return rd_ret(d);
}

static int rd_diag(sgf_parser *p, void *u, const sgf_diag *g) {
  rd *d = u;
  (void)p;
  if (d->stopped) rd_fail(d, "a diagnostic after a stop");
  if (g->severity == SGF_SEV_FATAL ||
      (g->severity == SGF_SEV_ERROR && (d->flags & SGF_OPT_STRICT))) {
    d->stopped = 1;
    d->stop = *g;
  }
  log_diag(&d->log, g);
  return d->failed ? SGF_ABORT : SGF_CONTINUE;
}

/* The model. */
typedef struct rmodel {
  bytebuf log, prop;
  size_t max_bytes, max_values;
  long skip_node, nodes;
  size_t bytes, nvals;
  sgf_pos prop_pos, val_pos;
  int in_prop;
  unsigned flags;
} rmodel;

static int m_tb(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_add(&((rmodel *)u)->log, "\n(", 2);
  return SGF_CONTINUE;
}

static int m_te(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_add(&((rmodel *)u)->log, "\n)", 2);
  return SGF_CONTINUE;
}

static int m_node(sgf_parser *p, void *u) {
  rmodel *m = u;
  (void)p;
  bytebuf_add(&m->log, "\n;", 2);
  return ++m->nodes == m->skip_node ? SGF_SKIP : SGF_CONTINUE;
}

static int m_prop(sgf_parser *p, void *u, const char *id, size_t n) {
  rmodel *m = u;
  size_t rn = 0;
  const char *raw = sgf_parser_raw_ident(p, &rn);
  m->prop.len = 0;
  m->prop_pos = sgf_parser_position(p);
  log_prop_head(&m->prop, id, n, raw, rn, m->prop_pos);
  m->bytes = m->nvals = 0;
  m->in_prop = 1;
  return SGF_CONTINUE;
}

static int m_limit(rmodel *m, sgf_parser *p) {
  sgf_diag d;
  memset(&d, 0, sizeof d);
  d.code = SGF_DIAG_VALUE_LIMIT;
  d.severity = SGF_SEV_FATAL;
  d.pos = m->val_pos;
  d.has_mark = 1;
  d.mark = m->prop_pos;
  sgf_parser_report(p, &d);
  return SGF_ABORT;
}

static int m_vb(sgf_parser *p, void *u) {
  rmodel *m = u;
  sgf_pos prev = m->val_pos;
  m->val_pos = sgf_parser_position(p);
  if (++m->nvals > m->max_values) {
    /* reported: the reader points at the previous value */
    if (fz_tolerate("value-limit-pos")) m->val_pos = prev;
    return m_limit(m, p);
  }
  bytebuf_add(&m->prop, " [", 2); /* the value, completed at its end */
  {
    char tmp[64];
    int k = snprintf(tmp, sizeof tmp, "@%" PRIu64 ":%" PRIu64 ":%" PRIu64,
                     m->val_pos.offset, m->val_pos.line, m->val_pos.column);
    bytebuf_add(&m->prop, tmp, (size_t)k);
  }
  bytebuf_add(&m->prop, "]=", 2);
  return SGF_CONTINUE;
}

static int m_vd(sgf_parser *p, void *u, const char *at, size_t n) {
  rmodel *m = u;
  if (n > m->max_bytes - m->bytes) return m_limit(m, p);
  m->bytes += n;
  bytebuf_add(&m->prop, at, n);
  return SGF_CONTINUE;
}

static int m_ve(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}

static int m_pe(sgf_parser *p, void *u) {
  rmodel *m = u;
  (void)p;
  if (m->in_prop) bytebuf_add(&m->log, m->prop.p, m->prop.len);
  m->in_prop = 0;
  return SGF_CONTINUE;
}

static int m_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  (void)p;
  log_diag(&((rmodel *)u)->log, d);
  return SGF_CONTINUE;
}

/* The model's log differs from the reader's in how a value is written
 * (lengths are known only at the end); bring the reader's to the same
 * form: " [LEN@pos]=bytes" becomes " [@pos]=bytes". */
static void strip_lengths(bytebuf *b) {
  size_t i = 0, o = 0;
  while (i < b->len) {
    if (b->p[i] == ' ' && i + 1 < b->len && b->p[i + 1] == '[') {
      size_t j = i + 2;
      while (j < b->len && b->p[j] >= '0' && b->p[j] <= '9') j++;
      if (j < b->len && b->p[j] == '@') {
        size_t len = strtoul(b->p + i + 2, NULL, 10), k;
        b->p[o++] = ' ';
        b->p[o++] = '[';
        i = j;
        while (i < b->len && b->p[i] != '=') b->p[o++] = b->p[i++];
        for (k = 0; k <= len && i < b->len; k++) b->p[o++] = b->p[i++];
        continue;
      }
    }
    b->p[o++] = b->p[i++];
  }
  b->len = o;
}

static void reader_model(const sgf_options *opt, const rd *d, rmodel *m) {
  static const sgf_callbacks cb = {sizeof(sgf_callbacks),
                                   m_tb,
                                   m_te,
                                   m_node,
                                   m_prop,
                                   m_vb,
                                   m_vd,
                                   m_ve,
                                   m_pe,
                                   m_diag,
                                   NULL,
                                   NULL,
                                   NULL};
  sgf_options o = *opt;
  sgf_parser *p;
  memset(m, 0, sizeof *m);
  m->max_bytes = d->max_bytes;
  m->max_values = d->max_values;
  m->skip_node = d->skip_node;
  m->flags = opt->flags;
  o.allocator = NULL;
  p = sgf_parser_create(&cb, m, &o);
  if (p == NULL) abort();
  if (sgf_parser_feed(p, (const char *)d->in, d->len, NULL) == SGF_OK)
    sgf_parser_finish(p);
  sgf_parser_destroy(p);
  bytebuf_free(&m->prop);
}

const char *fz_check_reader(const uint8_t *data, size_t size) {
  sgf_options opt;
  sgf_reader_options ro;
  sgf_reader_callbacks cb;
  countalloc c;
  sgf_allocator a;
  sgf_reader *rdr;
  sgf_parser *p;
  rd d;
  rmodel m;
  size_t chunk, pos = 0, base, failed_before, bound;
  int st = SGF_OK;
  unsigned mode;
  if (size < 6) return NULL;
  fz_decode_options(data[0], &opt);
  sgf_reader_options_init(&ro);
  ro.parser = &opt;
  ro.max_value_bytes = 1 + 4 * (size_t)data[1];
  mode = data[2] & 3u;
  countalloc_init(&c, &a, (data[2] >> 2) & 1);
  opt.allocator = &a;
  memset(&d, 0, sizeof d);
  d.in = data + 6;
  d.len = size - 6;
  d.max_bytes = ro.max_value_bytes;
  d.max_values = rd_max_values(d.max_bytes);
  d.flags = opt.flags;
  d.pause_every = data[2] >> 3;
  d.skip_node = data[5];
  d.usizes = data + 4;
  chunk = data[4];
  if (mode == 1) countalloc_schedule(&c, data[3], 1);
  if (mode == 2) countalloc_schedule(&c, data[3], SIZE_MAX);
  if (mode == 3) {
    countalloc_schedule(&c, data[3], SIZE_MAX);
    c.fail_stride = 2;
  }
  sgf_reader_callbacks_init(&cb);
  cb.on_tree_begin = rd_tb;
  cb.on_tree_end = rd_te;
  cb.on_node = rd_node;
  cb.on_property = rd_prop;
  cb.on_diagnostic = rd_diag;
  rdr = sgf_reader_create(&cb, &d, &ro);
  if (rdr == NULL) {
    if (c.failures == 0) return fz_failf("sgf_reader_create failed");
    if (c.live != 0 || c.blocks != 0 || c.bad != 0)
      return fz_failf(
          "failed sgf_reader_create leaks %zu bytes in %zu "
          "blocks (%zu bad frees)",
          c.live, c.blocks, c.bad);
    return NULL;
  }
  p = sgf_reader_parser(rdr);
  base = c.live;
  failed_before = c.failures;
  countalloc_reset_peak(&c);
  while (pos < d.len && st == SGF_OK && !d.failed) {
    size_t n = d.len - pos, used = 0;
    if (chunk && chunk < n) n = chunk;
    st = sgf_parser_feed(p, (const char *)d.in + pos, n, &used);
    if (used > n) {
      rd_fail(&d, "feed consumed %zu of %zu", used, n);
      break;
    }
    pos += used;
    if (st == SGF_PAUSED) {
      sgf_parser_resume(p);
      st = SGF_OK;
    }
  }
  if (st == SGF_OK && !d.failed) {
    while ((st = sgf_parser_finish(p)) == SGF_PAUSED) sgf_parser_resume(p);
  }
  if (!d.failed) {
    const sgf_diag *e = sgf_parser_error(p);
    if (st == SGF_OK) {
      if (d.stopped) rd_fail(&d, "finish OK after a stopping diagnostic");
      /* an allocation that failed after creation must stop the parse */
      if (c.failures > failed_before)
        rd_fail(&d, "%zu allocations failed but the parse ended OK",
                c.failures - failed_before);
    } else if (st == SGF_EPARSE) {
      if (!d.stopped || e == NULL || e->code != d.stop.code)
        rd_fail(&d, "SGF_EPARSE without its diagnostic");
      else if (e->code == SGF_DIAG_NOMEM && c.failures == failed_before)
        rd_fail(&d, "out-of-memory with no allocation failed");
    } else {
      rd_fail(&d, "the reader ended with status %d", (int)st);
    }
  }
  /* Memory: the raw bytes double up to under 2 * max_value_bytes, the
   * value records up to 2 * max_values; without a realloc hook old and
   * new blocks coexist for a moment. The parser adds its stack of
   * implicit variations: 8 bytes each, at most max_depth of them, and
   * each takes 4 bytes of input at least ("(;);"). */
  {
    uint64_t md = opt.max_depth ? opt.max_depth : SGF_DEFAULT_MAX_DEPTH;
    uint64_t imp = d.len / 4 + 16 < md ? d.len / 4 + 16 : md;
    bound = 3 * (d.max_bytes + 256) +
            3 * (d.max_values + 16) * sizeof(sgf_value_view) + 4096 +
            (size_t)(3 * 8 * imp);
  }
  if (!d.failed && c.peak - base > bound)
    rd_fail(&d,
            "peak memory %zu bytes over creation for max_value_bytes "
            "%zu",
            c.peak - base, d.max_bytes);
  sgf_reader_destroy(rdr);
  if (!d.failed && (c.live != 0 || c.blocks != 0))
    rd_fail(&d, "%zu bytes in %zu blocks outstanding after destroy", c.live,
            c.blocks);
  if (!d.failed && c.bad != 0)
    rd_fail(&d, "%zu frees with a wrong size or pointer", c.bad);
  if (!d.failed) {
    /* The differential: the reader against the model. */
    int nomem = d.stopped && d.stop.code == SGF_DIAG_NOMEM;
    reader_model(&opt, &d, &m);
    strip_lengths(&d.log);
    if (nomem) {
      /* a prefix, up to the out-of-memory diagnostic */
      size_t k = d.log.len;
      while (k > 0 && d.log.p[k - 1] != '\n') k--;
      if (k > 0) k--;
      if (k > m.log.len || (k && memcmp(d.log.p, m.log.p, k) != 0))
        rd_fail(&d, "%s",
                log_diff_msg("reader vs model (prefix)", &m.log, &d.log));
    } else if (!bytebuf_eq(&d.log, &m.log)) {
      rd_fail(&d, "%s", log_diff_msg("reader vs model", &m.log, &d.log));
    }
    bytebuf_free(&m.log);
  }
  bytebuf_free(&d.log);
  if (d.failed) return fz_failf("reader: %s", d.err);
  return NULL;
}
