/* movelog.c - see movelog.h. */
#include "movelog.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void movelog_note(sgf_parser *p, bytebuf *log, const char *what, int code) {
  sgf_pos at = sgf_parser_position(p);
  size_t n = 0;
  const char *id = sgf_parser_raw_ident(p, &n);
  char line[200];
  int k = snprintf(line, sizeof line,
                   "%s %d %" PRIu64 ":%" PRIu64 "@%" PRIu64 " [%.*s]\n", what,
                   code, at.line, at.column, at.offset, (int)(n < 40 ? n : 40),
                   id ? id : "");
  bytebuf_add(log, line, (size_t)k);
}

static int on_tree_begin(sgf_parser *p, void *u) {
  movelog_note(p, u, "tree-begin", 0);
  return SGF_CONTINUE;
}
static int on_tree_end(sgf_parser *p, void *u) {
  movelog_note(p, u, "tree-end", 0);
  return SGF_CONTINUE;
}
static int on_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  char line[160];
  int k = snprintf(line, sizeof line,
                   "diag %d %" PRIu64 ":%" PRIu64 "@%" PRIu64 " mark %" PRIu64
                   ":%" PRIu64 "@%" PRIu64 "\n",
                   (int)d->code, d->pos.line, d->pos.column, d->pos.offset,
                   d->mark.line, d->mark.column, d->mark.offset);
  bytebuf_add(u, line, (size_t)k);
  movelog_note(p, u, "at-diag", 0);
  return SGF_CONTINUE;
}
static int on_node(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}

static void event(bytebuf *log, const char *what, uint64_t line, uint64_t col,
                  uint64_t off, const char *b, size_t n) {
  char text[200];
  int k = snprintf(text, sizeof text,
                   "%s %" PRIu64 ":%" PRIu64 "@%" PRIu64 " <%.*s>\n", what,
                   line, col, off, (int)(n < 40 ? n : 40), b ? b : "");
  bytebuf_add(log, text, (size_t)k);
}
static void ev_here(sgf_parser *p, movelog *f, const char *what, const char *b,
                    size_t n) {
  sgf_pos at = sgf_parser_position(p);
  event(&f->log, what, at.line, at.column, at.offset, b, n);
}
static int f_node(sgf_parser *p, void *u) {
  movelog *f = u;
  f->open = 1;
  ev_here(p, f, "node", NULL, 0);
  return SGF_CONTINUE;
}
static int f_node_end(sgf_parser *p, void *u) {
  movelog *f = u;
  f->open = 0;
  ev_here(p, f, "node-end", NULL, 0);
  return SGF_CONTINUE;
}
static int f_property(sgf_parser *p, void *u, const char *at, size_t n) {
  size_t rn = 0;
  const char *raw = sgf_parser_raw_ident(p, &rn);
  ev_here(p, u, "property", at, n);
  ev_here(p, u, "raw", raw, rn);
  return SGF_CONTINUE;
}
/* A value is logged whole, at its first piece's position: the pieces
 * the event path cuts a value into (at a chunk's end, at a ']' after a
 * possible double-byte lead) are its business, not the run's. */
static int f_value(sgf_parser *p, void *u, const char *at, size_t n,
                   unsigned flags) {
  movelog *f = u;
  if (flags & SGF_VALUE_FIRST) {
    f->vpos = sgf_parser_position(p);
    bytebuf_clear(&f->val);
  }
  bytebuf_add(&f->val, at, n);
  if (flags & SGF_VALUE_LAST)
    event(&f->log, "value", f->vpos.line, f->vpos.column, f->vpos.offset,
          f->val.p, f->val.len);
  return SGF_CONTINUE;
}
static int f_property_end(sgf_parser *p, void *u) {
  movelog *f = u;
  ev_here(p, u, "property-end", NULL, 0);
  if (f->iskip < f->nskip &&
      sgf_parser_position(p).offset == f->skip_at[f->iskip]) {
    f->iskip++;
    return SGF_SKIP;
  }
  if (f->ipause < f->npause &&
      sgf_parser_position(p).offset == f->pause_at[f->ipause]) {
    f->ipause++;
    return SGF_PAUSE;
  }
  return SGF_CONTINUE;
}

static void breach(movelog *f, const char *what) {
  if (!f->bad) f->bad = what;
}

/* A run, expanded into the events it stands for (MOVE RUNS). */
static int f_moves(sgf_parser *p, void *u, const char *at, size_t len,
                   size_t count) {
  movelog *f = u;
  sgf_pos p0 = sgf_parser_position(p);
  uint64_t line = p0.line, lstart = p0.offset - (p0.column - 1);
  size_t i = 0, nodes = 0, back;
  size_t rn = 0;
  const char *raw;
#define EV(what, o, b, n) event(&f->log, what, line, (o)-lstart + 1, o, b, n)
  if (f->open) EV("node-end", p0.offset, NULL, 0);
  while (i + 6 <= len) {
    uint64_t o = p0.offset + i;
    if (at[i] != ';' || at[i + 2] != '[' || at[i + 5] != ']') {
      breach(f, "a run's node is not ;X[xx]");
      break;
    }
    if (nodes > 0) EV("node-end", o, NULL, 0);
    EV("node", o, NULL, 0);
    EV("property", o + 1, at + i + 1, 1);
    EV("raw", o + 1, at + i + 1, 1);
    EV("value", o + 2, at + i + 3, 2);
    i += 6;
    if (i < len && at[i] == '\n') {
      line++;
      lstart = p0.offset + i + 1;
      i++;
    } else if (i < len && at[i] == '\r') {
      if (i + 1 >= len || at[i + 1] != '\n') breach(f, "a lone CR in a run");
      line++;
      lstart = p0.offset + i + 2;
      i += 2;
    }
    EV("property-end", p0.offset + i, NULL, 0);
    nodes++;
  }
#undef EV
  if (i != len) breach(f, "a run's length is not its nodes'");
  if (nodes != count) breach(f, "a run's count is not its nodes'");
  raw = sgf_parser_raw_ident(p, &rn);
  back = len >= 7 ? (at[len - 1] == ']' ? 5 : at[len - 2] == ']' ? 6 : 7) : 5;
  if (rn != 1 || len < back || raw[0] != at[len - back])
    breach(f, "the raw identifier is not the last node's");
  f->open = 1;
  if (f->skip && f->runs++ % 3 == 0 && f->nskip < 64) {
    f->skip_at[f->nskip++] = p0.offset + len;
    f->open = 0; /* a skip ends the node: no node end */
    return SGF_SKIP;
  }
  if (f->pause && f->runs++ % 2 == 0 && f->npause < 64) {
    f->pause_at[f->npause++] = p0.offset + len;
    return SGF_PAUSE;
  }
  return SGF_CONTINUE;
}

/* The library's expansion (sgf_run_replay): into the FULL handlers. */
static int f_replay(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  movelog *f = u;
  (void)count;
  return sgf_run_replay(p, at, len, &f->full, f);
}

static int same_pos(sgf_pos a, sgf_pos b) {
  return a.offset == b.offset && a.line == b.line && a.column == b.column;
}

/* The library's walk (sgf_run_iter_next), logged as f_moves logs; beside
 * it the counting walk (sgf_run_iter_step after the first node, while
 * fewer than count are given), which must give the same nodes and
 * positions. */
static int f_iter(sgf_parser *p, void *u, const char *at, size_t len,
                  size_t count) {
  movelog *f = u;
  sgf_pos p0 = sgf_parser_position(p), e = p0;
  sgf_run_iter it, st;
  sgf_run_node n, m;
  size_t nodes = 0;
  sgf_run_iter_init(&it, at, len, &p0);
  sgf_run_iter_init(&st, at, len, &p0);
  if (f->open)
    event(&f->log, "node-end", p0.line, p0.column, p0.offset, NULL, 0);
  while (sgf_run_iter_next(&it, &n)) {
    if (nodes++ > 0)
      event(&f->log, "node-end", e.line, e.column, e.offset, NULL, 0);
    if (n.at != at + (n.offset - p0.offset) || n.value != n.at + 3 ||
        n.letter != n.at[1])
      breach(f, "a node's bytes are not where its offset says");
    if (nodes <= count) {
      if (nodes > 1)
        sgf_run_iter_step(&st, &m);
      else if (!sgf_run_iter_next(&st, &m))
        m = (sgf_run_node){0};
      if (m.at != n.at || m.value != n.value || m.letter != n.letter ||
          m.offset != n.offset || m.line != n.line || m.column != n.column)
        breach(f, "sgf_run_iter_step's node is not sgf_run_iter_next's");
      if (!same_pos(sgf_run_iter_pos(&st), sgf_run_iter_pos(&it)) ||
          !same_pos(sgf_run_iter_last(&st), sgf_run_iter_last(&it)))
        breach(f, "sgf_run_iter_step's walk stands elsewhere");
    }
    event(&f->log, "node", n.line, n.column, n.offset, NULL, 0);
    event(&f->log, "property", n.line, n.column + 1, n.offset + 1, &n.letter,
          1);
    event(&f->log, "raw", n.line, n.column + 1, n.offset + 1, &n.letter, 1);
    event(&f->log, "value", n.line, n.column + 2, n.offset + 2, n.value, 2);
    e = sgf_run_iter_pos(&it);
    event(&f->log, "property-end", e.line, e.column, e.offset, NULL, 0);
  }
  if (nodes != count) breach(f, "the walk's nodes are not the run's count");
  if (e.offset != p0.offset + len)
    breach(f, "the walk does not end at the ';' after the run");
  f->open = 1;
  return SGF_CONTINUE;
}

void movelog_acts(movelog *to, const movelog *from) {
  memcpy(to->skip_at, from->skip_at, sizeof to->skip_at);
  to->nskip = from->nskip;
  memcpy(to->pause_at, from->pause_at, sizeof to->pause_at);
  to->npause = from->npause;
}

void movelog_init(movelog *f, int mode) {
  memset(f, 0, sizeof *f);
  bytebuf_init(&f->log);
  bytebuf_init(&f->val);
  f->pause = mode == MOVELOG_RUNS_PAUSE;
  f->skip = mode == MOVELOG_RUNS_SKIP;
  movelog_callbacks(&f->full, MOVELOG_FULL);
}

void movelog_free(movelog *f) {
  bytebuf_free(&f->log);
  bytebuf_free(&f->val);
}

void movelog_callbacks(sgf_callbacks *cb, int mode) {
  sgf_callbacks_init(cb);
  cb->on_tree_begin = on_tree_begin;
  cb->on_tree_end = on_tree_end;
  cb->on_diagnostic = on_diag;
  if (mode == MOVELOG_LISTEN) cb->on_node = on_node;
  if (mode >= MOVELOG_FULL) {
    cb->on_node = f_node;
    cb->on_property = f_property;
    cb->on_value = f_value;
    cb->on_property_end = f_property_end;
    cb->on_node_end = f_node_end;
  }
  if (mode >= MOVELOG_RUNS) cb->on_moves = f_moves;
  if (mode == MOVELOG_REPLAY) cb->on_moves = f_replay;
  if (mode == MOVELOG_ITER) cb->on_moves = f_iter;
}
