/* valuelog.c - see valuelog.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "valuelog.h"

void vlog_init(vlog *v) {
  memset(v, 0, sizeof *v);
  bytebuf_init(&v->out);
  bytebuf_init(&v->kinds);
  bytebuf_init(&v->vbytes);
  bytebuf_init(&v->mends);
  v->action_at = -1;
}

void vlog_free(vlog *v) {
  bytebuf_free(&v->out);
  bytebuf_free(&v->kinds);
  bytebuf_free(&v->vbytes);
  bytebuf_free(&v->mends);
}

void vlog_clear(vlog *v) {
  bytebuf_clear(&v->out);
  bytebuf_clear(&v->kinds);
  bytebuf_clear(&v->vbytes);
  bytebuf_clear(&v->mends);
  v->nmoves = 0;
  v->contract[0] = '\0';
  v->win = v->input = NULL;
  v->winlen = 0;
  v->inlen = 0;
  v->calls = 0;
  v->in_value = 0;
}

static void bad(vlog *v, const char *fmt, ...) {
  va_list ap;
  if (v->contract[0]) return;
  va_start(ap, fmt);
  vsnprintf(v->contract, sizeof v->contract, fmt, ap);
  va_end(ap);
}

static void put_pos(vlog *v, char tag, sgf_pos pos) {
  bytebuf_addf(&v->out, "%c %llu %llu:%llu", tag,
               (unsigned long long)pos.offset, (unsigned long long)pos.line,
               (unsigned long long)pos.column);
}

static void put_bytes(vlog *v, const char *s, size_t n) {
  size_t i;
  bytebuf_adds(&v->out, " \"");
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\')
      bytebuf_addf(&v->out, "\\x%02x", c);
    else
      bytebuf_add(&v->out, &s[i], 1);
  }
  bytebuf_adds(&v->out, "\"");
}

static void put_value(vlog *v, sgf_pos end) {
  put_pos(v, 'v', v->vpos);
  put_bytes(v, v->vbytes.p ? v->vbytes.p : "", v->vbytes.len);
  bytebuf_addf(&v->out, " ] %llu %llu:%llu\n", (unsigned long long)end.offset,
               (unsigned long long)end.line, (unsigned long long)end.column);
}

/* One call: noted, and its answer. */
static int act(vlog *v, char kind) {
  bytebuf_add(&v->kinds, &kind, 1);
  if (v->calls++ != v->action_at) return SGF_CONTINUE;
  if (v->action == SGF_SKIP) v->in_value = 0; /* a value left unfinished */
  return v->action;
}

/* ------------------------------------------------------------------ */
/* Events common to both                                               */

/* The event's position: the record's in a batch replay. */
static sgf_pos pos_of(sgf_parser *p, const vlog *v) {
  return v->pos ? *v->pos : sgf_parser_position(p);
}

static int simple(sgf_parser *p, vlog *v, char tag) {
  put_pos(v, tag, pos_of(p, v));
  bytebuf_adds(&v->out, "\n");
  return act(v, tag);
}
static int c_tb(sgf_parser *p, void *u) { return simple(p, u, 'b'); }
static int c_te(sgf_parser *p, void *u) { return simple(p, u, 'e'); }
static int c_n(sgf_parser *p, void *u) { return simple(p, u, 'n'); }
static int c_pe(sgf_parser *p, void *u) { return simple(p, u, 'P'); }
static int c_p(sgf_parser *p, void *u, const char *at, size_t len) {
  vlog *v = u;
  size_t rl = 0;
  const char *raw = v->omit_raw ? "" : sgf_parser_raw_ident(p, &rl);
  put_pos(v, 'p', pos_of(p, v));
  put_bytes(v, at, len);
  put_bytes(v, raw ? raw : "", rl);
  bytebuf_adds(&v->out, "\n");
  return act(v, 'p');
}
static int c_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  vlog *v = u;
  (void)p;
  put_pos(v, '!', d->pos);
  bytebuf_addf(&v->out, " %d %d\n", (int)d->code, (int)d->severity);
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* The three value events                                              */

static int s_vb(sgf_parser *p, void *u) {
  vlog *v = u;
  v->in_value = 1;
  v->vpos = sgf_parser_position(p);
  bytebuf_clear(&v->vbytes);
  return act(v, 'v');
}
static int s_vd(sgf_parser *p, void *u, const char *at, size_t len) {
  vlog *v = u;
  (void)p;
  bytebuf_add(&v->vbytes, at, len);
  return act(v, 'd');
}
static int s_ve(sgf_parser *p, void *u) {
  vlog *v = u;
  put_value(v, sgf_parser_position(p));
  v->in_value = 0;
  return act(v, 'V');
}

static void common(sgf_callbacks *cb) {
  sgf_callbacks_init(cb);
  cb->on_tree_begin = c_tb;
  cb->on_tree_end = c_te;
  cb->on_node = c_n;
  cb->on_property = c_p;
  cb->on_property_end = c_pe;
  cb->on_diagnostic = c_diag;
}

void vlog_single_callbacks(sgf_callbacks *cb) {
  common(cb);
  cb->on_value_begin = s_vb;
  cb->on_value_data = s_vd;
  cb->on_value_end = s_ve;
}

/* ------------------------------------------------------------------ */
/* Whole values                                                        */

static int pos_is(sgf_pos a, uint64_t off, uint64_t line, uint64_t col) {
  return a.offset == off && a.line == line && a.column == col;
}

/* The bytes of a piece at offset off: in the buffer being fed, or held
 * back from an earlier one (then at most 136 bytes); either way the
 * input's bytes there. */
static void check_slice(vlog *v, const char *at, size_t len, uint64_t off) {
  int in_win = v->win && at >= v->win && len <= v->winlen &&
               (size_t)(at - v->win) <= v->winlen - len;
  if (!in_win && len > 136) bad(v, "a %zu-byte piece outside the feed", len);
  if (!v->input || off + len > v->inlen ||
      (len && memcmp(at, v->input + off, len) != 0))
    bad(v, "piece at offset %llu: not the input's bytes",
        (unsigned long long)off);
}

/* Advance the position over the value's bytes (a line ends at LF, CR, or
 * CR LF, as the library counts). */
static void advance(vlog *v, const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++, v->off++) {
    if (s[i] == '\r') {
      v->line++;
      v->cr_end = v->off + 1;
      v->ls = v->off + 1;
    } else if (s[i] == '\n') {
      if (v->cr_end != v->off) v->line++;
      v->ls = v->off + 1;
    }
  }
}

static int w_value(sgf_parser *p, void *u, const char *at, size_t len,
                   unsigned flags) {
  vlog *v = u;
  sgf_pos pos = pos_of(p, v);
  static const char kind[4] = {'m', 'f', 'l', 'w'};
  if (flags & ~(SGF_VALUE_FIRST | SGF_VALUE_LAST)) bad(v, "flags %x", flags);
  if (!at) bad(v, "a piece with at NULL");
  if (!at) at = "";
  if (flags & SGF_VALUE_FIRST) {
    if (v->in_value) bad(v, "a FIRST piece inside a value");
    v->in_value = 1;
    v->vpos = pos;
    bytebuf_clear(&v->vbytes);
    v->off = pos.offset + 1;
    v->line = pos.line;
    v->ls = pos.offset - (pos.column - 1);
    v->cr_end = UINT64_MAX;
  } else {
    if (!v->in_value) bad(v, "a piece outside a value");
    if (!pos_is(pos, v->off, v->line, v->off - v->ls + 1))
      bad(v, "piece at %llu %llu:%llu, expected %llu %llu:%llu",
          (unsigned long long)pos.offset, (unsigned long long)pos.line,
          (unsigned long long)pos.column, (unsigned long long)v->off,
          (unsigned long long)v->line,
          (unsigned long long)(v->off - v->ls + 1));
    if (len == 0 && !(flags & SGF_VALUE_LAST))
      bad(v, "an empty piece that is neither first nor last");
  }
  check_slice(v, at, len, v->off);
  bytebuf_add(&v->vbytes, at, len);
  advance(v, at, len);
  if (flags & SGF_VALUE_LAST) {
    sgf_pos end;
    end.offset = v->off;
    end.line = v->line;
    end.column = v->off - v->ls + 1;
    put_value(v, end);
    v->in_value = 0;
  }
  return act(v, kind[flags & 3]);
}

void vlog_whole_callbacks(sgf_callbacks *cb) {
  common(cb);
  /* set too, to show they are not called */
  cb->on_value_begin = s_vb;
  cb->on_value_data = s_vd;
  cb->on_value_end = s_ve;
  cb->on_value = w_value;
}

/* ------------------------------------------------------------------ */
/* Matching calls                                                      */

/* For each call of the whole-value run (kinds w), the index of the single
 * event after which the parser stands where it stands after that call
 * (kinds s): a piece that ends the value matches value-end, one that does
 * not matches its value-data; value-begin has no call of its own. -1 for
 * a mismatch. */
long *vlog_match_calls(const bytebuf *s, const bytebuf *w) {
  long *map = calloc(w->len + 1, sizeof *map);
  size_t i = 0, j;
  if (!map) abort();
  for (j = 0; j < w->len; j++) {
    char k = w->p[j];
    while (i < s->len && s->p[i] == 'v') i++;
    map[j] = -1;
    if (i >= s->len) break;
    if (k == 'w' || k == 'l') {
      if (s->p[i] == 'd' && i + 1 < s->len && s->p[i + 1] == 'V') {
        map[j] = (long)(i + 1);
        i += 2;
      } else if (s->p[i] == 'V') {
        map[j] = (long)i++;
      } else {
        break;
      }
    } else if (k == 'f' || k == 'm') {
      if (s->p[i] != 'd') break;
      map[j] = (long)i++;
    } else {
      if (s->p[i] != k) break;
      map[j] = (long)i++;
    }
  }
  return map;
}

/* A MOVES record (BATCHED EVENTS in sgfstream.h), expanded into the
 * records it stands for, each logged as its callback would log it, at
 * the position the header says how to compute from the record's (pos).
 * The call after which a MOVES record ends is noted in v->mends. */
static int moves_expand(sgf_parser *p, vlog *v, const sgf_batch *b,
                        const sgf_event *e, sgf_pos pos, int last) {
  const char *at = sgf_event_bytes(b, e);
  uint64_t line = pos.line, ls = pos.offset - (pos.column - 1);
  size_t i = 0, nodes = 0, len = e->len;
  int r = SGF_CONTINUE;
  sgf_pos q;
  if (e->flags != 0) bad(v, "a MOVES record with flags %x", e->flags);
  if (sgf_event_count(e) != e->ident || e->ident == 0)
    bad(v, "a MOVES record of %u nodes", (unsigned)e->ident);
  if (len < 6 || at[len] != ';') bad(v, "a MOVES record not followed by ';'");
#define AT(o)                                                                \
  (q.offset = pos.offset + (o), q.line = line, q.column = q.offset - ls + 1, \
   v->pos = &q)
#define CALL(x)                                                      \
  do {                                                               \
    if (r != SGF_CONTINUE) bad(v, "an action asked inside a MOVES"); \
    r = (x);                                                         \
  } while (0)
  while (i + 6 <= len) {
    const char *n = at + i;
    if (n[0] != ';' || n[2] != '[' || n[5] != ']' || n[1] < 'A' || n[1] > 'Z')
      bad(v, "a MOVES record's node %zu is no plain move", nodes);
    AT(i);
    CALL(c_n(p, v));
    AT(i + 1);
    CALL(c_p(p, v, n + 1, 1));
    AT(i + 2);
    CALL(w_value(p, v, n + 3, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST));
    i += 6;
    if (i < len && at[i] == '\r') i++;
    if (i < len && at[i] == '\n') {
      line++;
      ls = pos.offset + i + 1;
      i++;
    }
    AT(i);
    CALL(c_pe(p, v));
    nodes++;
  }
#undef AT
#undef CALL
  if (i != len || nodes != e->ident)
    bad(v, "a MOVES record of %u nodes in %zu bytes", (unsigned)e->ident, len);
  if (r != SGF_CONTINUE && !last)
    bad(v, "an action asked before the batch's end");
  bytebuf_add(&v->mends, (const char *)&(long){v->calls - 1}, sizeof(long));
  v->nmoves += nodes;
  v->pos = NULL;
  return r;
}

int vlog_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  vlog *v = u;
  int r = SGF_CONTINUE;
  size_t i, n = b->n;
  sgf_pos *ps;
  if (n == 0) bad(v, "an empty batch");
  /* The positions asked for backward in every other batch: the line
   * cursor of sgf_batch_position() must then count again. */
  ps = malloc(n * sizeof *ps);
  if (!ps) abort();
  for (i = 0; i < n; i++) {
    size_t j = (v->nbatch & 1) ? n - 1 - i : i;
    ps[j] = sgf_batch_position(p, &b->ev[j]);
    if (!(b->ev[j].flags & SGF_EVENT_FAR) &&
        ps[j].offset != b->offset + b->ev[j].offset)
      bad(v, "record offset %llu + %lu, position %llu",
          (unsigned long long)b->offset, (unsigned long)b->ev[j].offset,
          (unsigned long long)ps[j].offset);
  }
  v->nbatch++;
  for (i = 0; i < n; i++) {
    const sgf_event *e = &b->ev[i];
    const char *at = sgf_event_bytes(b, e);
    sgf_pos pos = ps[i];
    if (r != SGF_CONTINUE) bad(v, "an action asked before the batch's end");
    if ((e->flags & (SGF_EVENT_HELD | SGF_EVENT_FAR)) && i != n - 1)
      bad(v, "a held or far record before the batch's end");
    v->pos = &pos;
    switch (e->kind) {
      case SGF_EVENT_TREE_BEGIN:
        r = c_tb(p, v);
        break;
      case SGF_EVENT_TREE_END:
        r = c_te(p, v);
        break;
      case SGF_EVENT_NODE:
        r = c_n(p, v);
        break;
      case SGF_EVENT_PROPERTY_END:
        r = c_pe(p, v);
        break;
      case SGF_EVENT_NODE_END:
        r = SGF_CONTINUE;
        break;
      case SGF_EVENT_PROPERTY:
        if (e->ident != (e->len == 1   ? (unsigned)(unsigned char)at[0]
                         : e->len == 2 ? SGF_IDENT(at[0], at[1])
                                       : 0u))
          bad(v, "property record with ident %u", (unsigned)e->ident);
        r = c_p(p, v, at, e->len);
        break;
      case SGF_EVENT_VALUE:
        r = w_value(p, v, at, e->len,
                    e->flags & (SGF_VALUE_FIRST | SGF_VALUE_LAST));
        break;
      case SGF_EVENT_MOVES:
        if (!v->moves) bad(v, "a MOVES record not asked for");
        r = moves_expand(p, v, b, e, pos, i == n - 1);
        break;
      default:
        bad(v, "record kind %u", (unsigned)e->kind);
        break;
    }
    v->pos = NULL;
  }
  free(ps);
  return r;
}

long vlog_call_like(const bytebuf *from, long k, const bytebuf *to) {
  long j = 0, i;
  if (k < 0 || (size_t)k >= from->len) return -1;
  for (i = 0; i <= k; i++) j += from->p[i] == from->p[k];
  for (i = 0; (size_t)i < to->len; i++)
    if (to->p[i] == from->p[k] && --j == 0) return i;
  return -1;
}

void vlog_drop_diags(bytebuf *b) {
  size_t i = 0, o = 0;
  while (i < b->len) {
    size_t e = i;
    while (e < b->len && b->p[e] != '\n') e++;
    if (e < b->len) e++;
    if (b->p[i] != '!') {
      memmove(b->p + o, b->p + i, e - i);
      o += e - i;
    }
    i = e;
  }
  b->len = o;
}

int rlog_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  rlog *k = u;
  for (size_t i = 0; i < b->n; i++) {
    const sgf_event *ev = &b->ev[i];
    sgf_pos pos = sgf_batch_position(p, ev);
    if (!((k->kinds >> ev->kind) & 1u)) continue;
    bytebuf_addf(&k->out,
                 "%u %" PRIu64 " %" PRIu64 " %" PRIu64 ":%" PRIu64
                 " %u %u %#x ",
                 (unsigned)ev->kind,
                 (ev->flags & SGF_EVENT_FAR) ? 0 : b->offset + ev->offset,
                 pos.offset, pos.line, pos.column, (unsigned)ev->len,
                 (unsigned)ev->ident, (unsigned)ev->flags);
    if (ev->kind == SGF_EVENT_PROPERTY || ev->kind == SGF_EVENT_VALUE)
      bytebuf_add(&k->out, sgf_event_bytes(b, ev), ev->len);
    bytebuf_add(&k->out, "\n", 1);
  }
  return SGF_CONTINUE;
}
