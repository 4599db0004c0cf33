/* ff4.c - FF[1]-FF[3] records converted to FF[4] on their way from the
 * parser to the writer (ff4.h says what changes and why).
 *
 * The events pass through as they come, with three exceptions. Values of
 * the non-text types are gathered whole (they are short), decoded and
 * encoded again. The properties L and M would become LB, MA or TR, which
 * the node may already hold, before or after them, and FF[4] allows each
 * once per node: so LB, MA, TR, L, M and KI are held (their values, a
 * few bytes each) until the node ends and written then, merged; they
 * come out at the end of their node. The root's FF is written first, as
 * FF[4], when the root node begins.
 *
 * M becomes TR on a stone and MA on an empty point: that needs the
 * board. It is played along the game (moves with captures, AB/AW/AE);
 * at each '(' of a variation the length of an undo log is kept and at
 * its ')' the changes made since are undone, so the board at any node is
 * the one of the line leading to it. Changes are logged only inside a
 * variation (the main line of a game is never undone).
 */
#define _POSIX_C_SOURCE 200809L

#include "ff4.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bytebuf.h"
#include "rewrite.h"
#include "sgf.h"

#define NPTS (SGF_BOARD_MAX * SGF_BOARD_MAX)
#define VALUE_MAX 64 /* a re-encoded value (non-text types) fits */

/* How the current property is handled. */
enum { MODE_PASS, MODE_TYPED, MODE_FF, MODE_HOLD };

/* The properties held until the end of the node. */
enum {
  HOLD_LB,
  HOLD_MA,
  HOLD_TR,
  HOLD_L,
  HOLD_M,
  HOLD_KI,
  HOLD_VW,
  HOLD_TE,
  HOLD_BM
};

/* A held value: its bytes are at off in held_bytes. */
typedef struct held {
  int kind;
  int state; /* 0 to do, 1 written, 2 kept as written */
  size_t off, len;
  sgf_pos pos; /* of its '[' */
} held;

typedef struct undo {
  uint16_t idx;
  unsigned char old;
} undo;

struct ff4 {
  /* the game */
  int gm;  /* GM (1 Go) */
  int old; /* FF < 4 (no FF is FF[1]) */
  sgf_board board;
  int root_next;             /* the next node is a game's root */
  unsigned char stone[NPTS]; /* 0, 'B' or 'W'; y * width + x */
  bytebuf log;               /* undo entries, inside variations */
  bytebuf marks;             /* size_t: log.len at each open variation's '(' */
  /* the node */
  int in_root, seen_ff, seen_gm, has_km;
  sgf_pos node_pos, ff_pos;
  char ff[8]; /* the root's FF value, cut */
  size_t fflen;
  bytebuf held;             /* held values (struct held) */
  bytebuf held_bytes;       /* their bytes */
  unsigned char used[NPTS]; /* this node's points: 1 labelled, 2 marked */
  int any_used;
  /* the property */
  int mode, kind;
  const sgf_propdef *def;
  sgf_pos vpos;
  bytebuf cur; /* the value being gathered */
  int nomem;
  /* flood fill */
  uint16_t group[NPTS];
  unsigned char seen[NPTS];
};

ff4 *ff4_create(void) {
  ff4 *c = calloc(1, sizeof *c);
  return c;
}

void ff4_destroy(ff4 *c) {
  if (c == NULL) return;
  bytebuf_free(&c->log);
  bytebuf_free(&c->marks);
  bytebuf_free(&c->held);
  bytebuf_free(&c->held_bytes);
  bytebuf_free(&c->cur);
  free(c);
}

static ff4 *conv(void *w, rewrite **rw) {
  *rw = sgf_writer_user(w);
  return (*rw)->cmd_ctx;
}

static int go_on(sgf_writer *w) {
  return sgf_writer_status(w) == SGF_OK ? SGF_CONTINUE : SGF_ABORT;
}

static int out_of_memory(rewrite *rw) {
  report_failure(rw->name, "out of memory");
  return SGF_ABORT;
}

/* Up to 24 bytes of a value for a message, control bytes as '?'. */
static const char *shown(const char *s, size_t n, char *buf) {
  size_t i, k = n > 24 ? 24 : n;
  for (i = 0; i < k; i++)
    buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
  strcpy(buf + k, n > k ? "..." : "");
  return buf;
}

/* A repair: a positioned warning, always printed (it is what --ff4 was
 * asked to do), counted like the parser's. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
warn(rewrite *rw, sgf_pos pos, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": warning: ", rw->name, pos.line,
          pos.column);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs(" [ff4]\n", stderr);
  rw->warnings++;
  rw->status = exit_worse(rw->status, EXIT_WARNINGS);
}

/* ---------------------------------------------------------------------- */
/* The board                                                               */

static void board_set(ff4 *c, int idx, unsigned char colour) {
  if (c->stone[idx] == colour) return;
  if (c->marks.len > 0) {
    undo u;
    u.idx = (uint16_t)idx;
    u.old = c->stone[idx];
    if (bytebuf_try_add(&c->log, &u, sizeof u) != 0) c->nomem = 1;
  }
  c->stone[idx] = colour;
}

/* Remove the group at idx if it has no liberty. */
static void capture_if_dead(ff4 *c, int idx) {
  int w = c->board.width, h = c->board.height, n = 0, top = 0, k;
  unsigned char colour = c->stone[idx];
  if (colour == 0) return;
  memset(c->seen, 0, (size_t)(w * h));
  c->group[top++] = (uint16_t)idx;
  c->seen[idx] = 1;
  while (n < top) {
    int i = c->group[n++], x = i % w, y = i / w, nb[4], nn = 0;
    if (x > 0) nb[nn++] = i - 1;
    if (x < w - 1) nb[nn++] = i + 1;
    if (y > 0) nb[nn++] = i - w;
    if (y < h - 1) nb[nn++] = i + w;
    for (k = 0; k < nn; k++) {
      int j = nb[k];
      if (c->stone[j] == 0) return; /* a liberty */
      if (c->stone[j] == colour && !c->seen[j]) {
        c->seen[j] = 1;
        c->group[top++] = (uint16_t)j;
      }
    }
  }
  for (k = 0; k < top; k++) board_set(c, c->group[k], 0);
}

static void play(ff4 *c, unsigned char colour, sgf_point pt) {
  int w = c->board.width, h = c->board.height, idx = pt.y * w + pt.x;
  unsigned char other = colour == 'B' ? 'W' : 'B';
  board_set(c, idx, colour);
  if (pt.x > 0 && c->stone[idx - 1] == other) capture_if_dead(c, idx - 1);
  if (pt.x < w - 1 && c->stone[idx + 1] == other) capture_if_dead(c, idx + 1);
  if (pt.y > 0 && c->stone[idx - w] == other) capture_if_dead(c, idx - w);
  if (pt.y < h - 1 && c->stone[idx + w] == other) capture_if_dead(c, idx + w);
  capture_if_dead(c, idx); /* suicide */
}

static void game_reset(ff4 *c) {
  c->gm = 1;
  c->old = 1;
  sgf_board_init(&c->board);
  memset(c->stone, 0, sizeof c->stone);
  bytebuf_clear(&c->log);
  bytebuf_clear(&c->marks);
  c->root_next = 1;
}

/* ---------------------------------------------------------------------- */
/* Values                                                                  */

static int codec_type(int t) {
  switch (t) {
    case SGF_VT_NONE:
    case SGF_VT_NUMBER:
    case SGF_VT_REAL:
    case SGF_VT_DOUBLE:
    case SGF_VT_COLOR:
    case SGF_VT_POINT:
    case SGF_VT_STONE:
    case SGF_VT_MOVE:
      return 1;
    default:
      return 0;
  }
}

/* Values the value layer re-encodes: every part of a non-text type. */
static int reencodable(const sgf_propdef *d) {
  return d != NULL && codec_type(d->type) &&
         (d->type2 == SGF_VT_UNKNOWN || codec_type(d->type2));
}

static int is_point_type(int t) {
  return t == SGF_VT_POINT || t == SGF_VT_STONE || t == SGF_VT_MOVE;
}

/* Decode raw as def says and encode it again into out (VALUE_MAX bytes):
 * 1 written differently, 0 the same, -1 not a value of its type (out
 * unset). In an old record, a point in upper case that is off the board
 * is read in lower case (FF[3] had only lower-case points). */
static int reencode(const ff4 *c, const sgf_propdef *def, const char *raw,
                    size_t len, sgf_typed_value *tv, char *out,
                    size_t *outlen) {
  char low[2];
  int rc, changed = 0;
  rc = sgf_value_decode(NULL, def, &c->board, raw, len, tv, NULL);
  if (rc < 0 && c->old && is_point_type(def->type) &&
      def->type2 == SGF_VT_UNKNOWN && len == 2 &&
      isupper((unsigned char)raw[0]) && isupper((unsigned char)raw[1]) &&
      c->board.width <= 26 && c->board.height <= 26) {
    low[0] = (char)tolower((unsigned char)raw[0]);
    low[1] = (char)tolower((unsigned char)raw[1]);
    rc = sgf_value_decode(NULL, def, &c->board, low, 2, tv, NULL);
    changed = 1;
  }
  if (rc < 0) return -1;
  rc = sgf_value_encode(NULL, def, &c->board, tv, 0, out, VALUE_MAX, NULL);
  if (rc < 0) return -1;
  *outlen = (size_t)rc;
  return changed || *outlen != len || memcmp(out, raw, len) != 0;
}

/* Write one value of a re-encodable property, re-encoded (or as written,
 * with a warning, when it is not of its type). *tv: the decoded value;
 * returns 1 if it was decoded. */
static int write_typed(ff4 *c, rewrite *rw, const sgf_propdef *def,
                       const char *raw, size_t len, sgf_pos pos,
                       sgf_typed_value *tv) {
  char out[VALUE_MAX], b1[32], b2[32];
  size_t n = 0;
  int rc = reencode(c, def, raw, len, tv, out, &n);
  if (rc < 0) {
    int two = def->type2 != SGF_VT_UNKNOWN;
    warn(rw, pos, "%s[%s] is not a valid %s%s%s value: kept as written",
         def->ident, shown(raw, len, b1), sgf_vtype_name(NULL, def->type),
         two ? ":" : "", two ? sgf_vtype_name(NULL, def->type2) : "");
    sgf_writer_value(rw->w, raw, len);
    return 0;
  }
  if (rc == 1)
    warn(rw, pos, "%s[%s] written %s[%s]", def->ident, shown(raw, len, b1),
         def->ident, shown(out, n, b2));
  sgf_writer_value(rw->w, out, n);
  return 1;
}

/* What a decoded value does to the board and the game. */
static void value_effects(ff4 *c, const sgf_propdef *def,
                          const sgf_typed_value *tv, const char *raw,
                          size_t len) {
  int id = def->id, x, y;
  unsigned char colour;
  if (c->in_root && id == SGF_PROP_GM) {
    c->gm = tv->part[0].u.number == 1 ? 1 : 0;
    return;
  }
  if (c->in_root && id == SGF_PROP_SZ) {
    sgf_board b;
    if (sgf_board_decode(raw, len, &b, NULL) == 0) {
      c->board = b;
      memset(c->stone, 0, sizeof c->stone);
    }
    return;
  }
  if (c->gm != 1) return;
  if (id == SGF_PROP_B || id == SGF_PROP_W) {
    if (!tv->part[0].u.move.pass)
      play(c, id == SGF_PROP_B ? 'B' : 'W', tv->part[0].u.move.pt);
    return;
  }
  if (id != SGF_PROP_AB && id != SGF_PROP_AW && id != SGF_PROP_AE) return;
  colour = id == SGF_PROP_AB ? 'B' : id == SGF_PROP_AW ? 'W' : 0;
  if (tv->part[0].type == SGF_VT_NONE) return;
  for (y = tv->part[0].u.rect.a.y; y <= tv->part[0].u.rect.b.y; y++)
    for (x = tv->part[0].u.rect.a.x; x <= tv->part[0].u.rect.b.x; x++)
      board_set(c, y * c->board.width + x, colour);
}

/* ---------------------------------------------------------------------- */
/* The node's held properties                                              */

static held *held_at(ff4 *c, size_t *n) {
  *n = c->held.len / sizeof(held);
  return (held *)(void *)c->held.p;
}

static const char *held_raw(const ff4 *c, const held *h) {
  return c->held_bytes.p + h->off;
}

/* Start ident once (*started), then write one value. */
static void put(sgf_writer *w, const char *ident, int *started, const char *raw,
                size_t len) {
  if (!*started) {
    sgf_writer_property(w, ident, strlen(ident));
    *started = 1;
  }
  sgf_writer_value(w, raw, len);
}

/* Mark the points of a point-list value in used[] with bit. */
static void use_points(ff4 *c, const char *raw, size_t len, int bit) {
  sgf_point_iter it;
  sgf_point pt;
  sgf_point_iter_init(&it, &c->board, raw, len, 0);
  while (sgf_point_iter_next(&it, &pt, NULL) == 1) {
    c->used[pt.y * c->board.width + pt.x] |= (unsigned char)bit;
    c->any_used = 1;
  }
}

/* The label of the i-th point of L: a ... z, then aa, ab... */
static size_t letter(size_t i, char *out) {
  if (i < 26) {
    out[0] = (char)('a' + i);
    return 1;
  }
  out[0] = (char)('a' + (i / 26 - 1) % 26);
  out[1] = (char)('a' + i % 26);
  return 2;
}

static void write_labels(ff4 *c, rewrite *rw) {
  sgf_writer *w = rw->w;
  size_t n, i, nl = 0, colon;
  held *h = held_at(c, &n);
  int started = 0;
  sgf_pos first = {0, 0, 0};
  for (i = 0; i < n; i++) { /* the node's own LB first, as written */
    if (h[i].kind != HOLD_LB) continue;
    if (sgf_compose_split(held_raw(c, &h[i]), h[i].len, &colon, NULL) == 0)
      use_points(c, held_raw(c, &h[i]), colon, 1);
    put(w, "LB", &started, held_raw(c, &h[i]), h[i].len);
    h[i].state = 1;
  }
  for (i = 0; i < n; i++) {
    char val[8];
    sgf_point pt;
    int k;
    if (h[i].kind != HOLD_L) continue;
    if (sgf_board_point_decode(&c->board, held_raw(c, &h[i]), h[i].len, &pt,
                               NULL) < 0 ||
        (c->used[pt.y * c->board.width + pt.x] & 1)) {
      h[i].state = 2;
      continue;
    }
    k = sgf_board_point_encode(&c->board, pt, val);
    val[k++] = ':';
    k += (int)letter(nl++, val + k);
    c->used[pt.y * c->board.width + pt.x] |= 1;
    c->any_used = 1;
    if (nl == 1) first = h[i].pos;
    put(w, "LB", &started, val, (size_t)k);
    h[i].state = 1;
  }
  if (nl > 0) {
    char a[3], z[3];
    a[letter(0, a)] = 0;
    z[letter(nl - 1, z)] = 0;
    warn(rw, first, "L written as LB: %zu point%s labelled %s%s%s", nl,
         nl == 1 ? "" : "s", a, nl > 1 ? " to " : "", nl > 1 ? z : "");
  }
}

/* MA (empty == 1) or TR (empty == 0): the node's own, then M's points. */
static void write_marks(ff4 *c, rewrite *rw, int empty) {
  const sgf_propdef *def = sgf_prop_lookup(NULL, empty ? "MA" : "TR", 2);
  int kind = empty ? HOLD_MA : HOLD_TR, started = 0;
  size_t n, i, nm = 0;
  held *h = held_at(c, &n);
  sgf_pos first = {0, 0, 0};
  for (i = 0; i < n; i++) {
    sgf_typed_value tv;
    if (h[i].kind != kind) continue;
    if (!started) sgf_writer_property(rw->w, def->ident, 2);
    started = 1;
    write_typed(c, rw, def, held_raw(c, &h[i]), h[i].len, h[i].pos, &tv);
    h[i].state = 1;
  }
  for (i = 0; i < n; i++) {
    char val[2];
    sgf_point pt;
    int idx;
    if (h[i].kind != HOLD_M || h[i].state != 0) continue;
    if (sgf_board_point_decode(&c->board, held_raw(c, &h[i]), h[i].len, &pt,
                               NULL) < 0 ||
        (c->used[idx = pt.y * c->board.width + pt.x] & 2)) {
      h[i].state = 2;
      continue;
    }
    if ((c->stone[idx] == 0) != empty) continue; /* the other pass's */
    c->used[idx] |= 2;
    c->any_used = 1;
    sgf_board_point_encode(&c->board, pt, val);
    if (nm++ == 0) first = h[i].pos;
    put(rw->w, def->ident, &started, val, 2);
    h[i].state = 1;
  }
  if (nm > 0)
    warn(rw, first, "M written as %s: %zu point%s %s", def->ident, nm,
         nm == 1 ? "" : "s", empty ? "without a stone" : "with a stone");
}

/* L or M values left as they were: a point labelled or marked twice, or
 * not a point. */
static void write_kept(ff4 *c, rewrite *rw, int kind) {
  const char *ident = kind == HOLD_L ? "L" : "M";
  size_t n, i;
  held *h = held_at(c, &n);
  int started = 0;
  char b[32];
  for (i = 0; i < n; i++) {
    if (h[i].kind != kind || h[i].state != 2) continue;
    warn(rw, h[i].pos,
         "%s[%s] kept as written: not a point of the board, or a point "
         "the node %s already",
         ident, shown(held_raw(c, &h[i]), h[i].len, b),
         kind == HOLD_L ? "labels" : "marks");
    put(rw->w, ident, &started, held_raw(c, &h[i]), h[i].len);
  }
}

/* KI[n] (komi in half points) is KM[n/2] unless the node has a KM. */
static void write_komi(ff4 *c, rewrite *rw) {
  size_t n, i;
  held *h = held_at(c, &n);
  char b[32];
  int km_seen = c->has_km;
  for (i = 0; i < n; i++) {
    const char *raw = held_raw(c, &h[i]);
    int64_t ki;
    char km[32];
    int k;
    if (h[i].kind != HOLD_KI) continue;
    if (km_seen || sgf_number_decode(raw, h[i].len, &ki, NULL) < 0 ||
        ki < -INT64_MAX) {
      warn(rw, h[i].pos, "KI[%s] kept as written: %s", shown(raw, h[i].len, b),
           km_seen ? "the node has KM" : "not a number");
      h[i].state = 2; /* written with the held ones: write_kept_komi() */
      continue;
    }
    k = snprintf(km, sizeof km, "%s%" PRId64 "%s", ki < 0 ? "-" : "",
                 (ki < 0 ? -ki : ki) / 2, ki % 2 ? ".5" : "");
    warn(rw, h[i].pos, "KI[%s] written KM[%s] (KI counts half points)",
         shown(raw, h[i].len, b), km);
    sgf_writer_property(rw->w, "KM", 2);
    sgf_writer_value(rw->w, km, (size_t)k);
    h[i].state = 1;
    km_seen = 1;
  }
}

static void write_kept_komi(ff4 *c, rewrite *rw) {
  size_t n, i;
  held *h = held_at(c, &n);
  for (i = 0; i < n; i++) {
    if (h[i].kind != HOLD_KI || h[i].state != 2) continue;
    sgf_writer_property(rw->w, "KI", 2);
    sgf_writer_value(rw->w, held_raw(c, &h[i]), h[i].len);
  }
}

/* VW in an old record: two points were the corners of the view, which
 * FF[4] writes as one rectangle (VW[ba][db] is VW[ba:db]); any other
 * count of values means what FF[4] says. */
static void write_view(ff4 *c, rewrite *rw) {
  const sgf_propdef *def = sgf_prop_lookup(NULL, "VW", 2);
  size_t n, i, nv = 0, at[2] = {0, 0};
  held *h = held_at(c, &n);
  sgf_point pt[2];
  sgf_typed_value tv;
  char b1[32], b2[32];
  for (i = 0; i < n; i++)
    if (h[i].kind == HOLD_VW && nv++ < 2) at[nv - 1] = i;
  if (nv == 0) return;
  sgf_writer_property(rw->w, "VW", 2);
  if (nv == 2 &&
      sgf_board_point_decode(&c->board, held_raw(c, &h[at[0]]), h[at[0]].len,
                             &pt[0], NULL) == 0 &&
      sgf_board_point_decode(&c->board, held_raw(c, &h[at[1]]), h[at[1]].len,
                             &pt[1], NULL) == 0) {
    sgf_rect r;
    char val[8];
    int k;
    r.a.x = pt[0].x < pt[1].x ? pt[0].x : pt[1].x;
    r.a.y = pt[0].y < pt[1].y ? pt[0].y : pt[1].y;
    r.b.x = pt[0].x < pt[1].x ? pt[1].x : pt[0].x;
    r.b.y = pt[0].y < pt[1].y ? pt[1].y : pt[0].y;
    k = sgf_rect_encode(&c->board, &r, val);
    if (k > 0) {
      warn(rw, h[at[0]].pos,
           "VW[%s][%s] written VW[%.*s] (FF[3]: the corners of the view)",
           shown(held_raw(c, &h[at[0]]), h[at[0]].len, b1),
           shown(held_raw(c, &h[at[1]]), h[at[1]].len, b2), k, val);
      sgf_writer_value(rw->w, val, (size_t)k);
      return;
    }
  }
  for (i = 0; i < n; i++)
    if (h[i].kind == HOLD_VW)
      write_typed(c, rw, def, held_raw(c, &h[i]), h[i].len, h[i].pos, &tv);
}

/* TE and BM in one node: FF[3]'s way to say "interesting" (TE first)
 * or "doubtful" (BM first); FF[4] has IT and DO for them and allows one
 * move annotation a node. Any other TE or BM is written as it is. */
static void write_annotation(ff4 *c, rewrite *rw) {
  size_t n, i, nte = 0, nbm = 0, te = 0, bm = 0;
  held *h = held_at(c, &n);
  char b1[32], b2[32];
  for (i = 0; i < n; i++) {
    if (h[i].kind == HOLD_TE && nte++ == 0) te = i;
    if (h[i].kind == HOLD_BM && nbm++ == 0) bm = i;
  }
  if (nte == 1 && nbm == 1) {
    const char *to = te < bm ? "IT" : "DO";
    size_t first = te < bm ? te : bm;
    warn(rw, h[first].pos, "TE[%s] and BM[%s] written %s[] (FF[3]: %s %s)",
         shown(held_raw(c, &h[te]), h[te].len, b1),
         shown(held_raw(c, &h[bm]), h[bm].len, b2), to,
         te < bm ? "TE then BM," : "BM then TE,",
         te < bm ? "interesting" : "doubtful");
    sgf_writer_property(rw->w, to, 2);
    sgf_writer_value(rw->w, "", 0);
    return;
  }
  for (i = 0; i < n; i++) {
    sgf_typed_value tv;
    const sgf_propdef *def;
    if (h[i].kind != HOLD_TE && h[i].kind != HOLD_BM) continue;
    def = sgf_prop_lookup(NULL, h[i].kind == HOLD_TE ? "TE" : "BM", 2);
    sgf_writer_property(rw->w, def->ident, 2);
    write_typed(c, rw, def, held_raw(c, &h[i]), h[i].len, h[i].pos, &tv);
  }
}

static int node_end(sgf_parser *p, void *u) {
  rewrite *rw;
  ff4 *c = conv(u, &rw);
  (void)p;
  /* GM before the held properties: a second --ff4 then finds it where
   * the first put it, and writes the same bytes */
  if (c->in_root && !c->seen_gm) {
    sgf_writer_property(rw->w, "GM", 2);
    sgf_writer_value(rw->w, "1", 1);
    warn(rw, c->node_pos, "GM[1] added to the root node (Go, the default)");
  }
  if (c->held.len > 0) {
    size_t n, i;
    held *h = held_at(c, &n);
    for (i = 0; i < n; i++) /* M marks no point MA or TR marks already */
      if (h[i].kind == HOLD_MA || h[i].kind == HOLD_TR)
        use_points(c, held_raw(c, &h[i]), h[i].len, 2);
    /* First what a second --ff4 will not hold (it is FF[4] then: the
     * converted KM, VW, TE and BM pass through where they stand), then
     * what it will hold too, in the same order: so a second --ff4
     * writes the same bytes. */
    write_annotation(c, rw);
    write_komi(c, rw);
    write_view(c, rw);
    write_labels(c, rw);
    write_kept(c, rw, HOLD_L);
    write_marks(c, rw, 1);
    write_marks(c, rw, 0);
    write_kept(c, rw, HOLD_M);
    write_kept_komi(c, rw);
  }
  if (c->in_root) {
    if (!c->seen_ff)
      warn(rw, c->node_pos, "FF[4] added to the root node");
    else if (c->fflen != 1 || c->ff[0] != '4')
      warn(rw, c->ff_pos, "FF[%s] written FF[4]", c->ff);
  }
  if (c->any_used) memset(c->used, 0, sizeof c->used);
  c->any_used = 0;
  bytebuf_clear(&c->held);
  bytebuf_clear(&c->held_bytes);
  c->in_root = 0;
  return go_on(rw->w);
}

/* ---------------------------------------------------------------------- */
/* The events                                                              */

static int tree_begin(sgf_parser *p, void *u) {
  rewrite *rw;
  ff4 *c = conv(u, &rw);
  if (sgf_parser_depth(p) <= 1) {
    game_reset(c);
  } else {
    size_t mark = c->log.len;
    if (bytebuf_try_add(&c->marks, &mark, sizeof mark) != 0)
      return out_of_memory(rw);
  }
  sgf_writer_tree_begin(u);
  return go_on(u);
}

static int tree_end(sgf_parser *p, void *u) {
  rewrite *rw;
  ff4 *c = conv(u, &rw);
  if (sgf_parser_depth(p) > 1 && c->marks.len >= sizeof(size_t)) {
    size_t mark;
    c->marks.len -= sizeof mark;
    memcpy(&mark, c->marks.p + c->marks.len, sizeof mark);
    while (c->log.len > mark) {
      undo e;
      c->log.len -= sizeof e;
      memcpy(&e, c->log.p + c->log.len, sizeof e);
      c->stone[e.idx] = e.old;
    }
  }
  sgf_writer_tree_end(u);
  return go_on(u);
}

static int node(sgf_parser *p, void *u) {
  rewrite *rw;
  ff4 *c = conv(u, &rw);
  c->in_root = c->root_next;
  c->root_next = 0;
  c->seen_ff = c->seen_gm = c->has_km = 0;
  c->node_pos = sgf_parser_position(p);
  sgf_writer_node(u);
  if (c->in_root) { /* FF[4] first, whatever the root said */
    sgf_writer_property(u, "FF", 2);
    sgf_writer_value(u, "4", 1);
  }
  return go_on(u);
}

static int property(sgf_parser *p, void *u, const char *at, size_t len) {
  rewrite *rw;
  ff4 *c = conv(u, &rw);
  const sgf_propdef *def = sgf_prop_lookup(NULL, at, len);
  int id = def ? def->id : SGF_PROP_UNKNOWN;
  c->def = def;
  c->mode = MODE_PASS;
  if (c->in_root && id == SGF_PROP_FF) {
    c->mode = MODE_FF;
    c->seen_ff = 1;
    c->ff_pos = sgf_parser_position(p);
    return SGF_CONTINUE;
  }
  if (c->old && (id == SGF_PROP_TE || id == SGF_PROP_BM)) {
    c->mode = MODE_HOLD;
    c->kind = id == SGF_PROP_TE ? HOLD_TE : HOLD_BM;
    return SGF_CONTINUE;
  }
  if (c->gm == 1) {
    c->mode = MODE_HOLD;
    switch (id) {
      case SGF_PROP_LB:
        c->kind = HOLD_LB;
        return SGF_CONTINUE;
      case SGF_PROP_MA:
        c->kind = HOLD_MA;
        return SGF_CONTINUE;
      case SGF_PROP_TR:
        c->kind = HOLD_TR;
        return SGF_CONTINUE;
      case SGF_PROP_L:
        c->kind = HOLD_L;
        return SGF_CONTINUE;
      case SGF_PROP_M:
        c->kind = HOLD_M;
        return SGF_CONTINUE;
      case SGF_PROP_KI:
        c->kind = HOLD_KI;
        return SGF_CONTINUE;
      case SGF_PROP_VW:
        if (!c->old) break;
        c->kind = HOLD_VW;
        return SGF_CONTINUE;
      default:
        break;
    }
    c->mode = MODE_PASS;
  }
  if (id == SGF_PROP_KM) c->has_km = 1;
  if (c->in_root && id == SGF_PROP_GM) c->seen_gm = 1;
  if (reencodable(def)) c->mode = MODE_TYPED;
  sgf_writer_property(u, at, len);
  return go_on(u);
}

static int value(sgf_parser *p, void *u, const char *at, size_t len,
                 unsigned flags) {
  rewrite *rw;
  ff4 *c = conv(u, &rw);
  if (c->mode == MODE_PASS) {
    if (flags & SGF_VALUE_FIRST) sgf_writer_value_begin(u);
    if (len > 0) sgf_writer_value_data(u, at, len);
    if (flags & SGF_VALUE_LAST) sgf_writer_value_end(u);
    return go_on(u);
  }
  if (flags & SGF_VALUE_FIRST) {
    bytebuf_clear(&c->cur);
    c->vpos = sgf_parser_position(p);
  }
  if (len > 0 && bytebuf_try_add(&c->cur, at, len) != 0)
    return out_of_memory(rw);
  if (!(flags & SGF_VALUE_LAST)) return SGF_CONTINUE;
  if (c->mode == MODE_FF) {
    int64_t ff;
    c->fflen = c->cur.len < sizeof c->ff - 1 ? c->cur.len : sizeof c->ff - 1;
    memcpy(c->ff, c->cur.p ? c->cur.p : "", c->fflen);
    c->ff[c->fflen] = 0;
    c->old = sgf_number_decode(c->cur.p, c->cur.len, &ff, NULL) < 0 || ff < 4;
    return SGF_CONTINUE;
  }
  if (c->mode == MODE_HOLD) {
    held h;
    memset(&h, 0, sizeof h);
    h.kind = c->kind;
    h.off = c->held_bytes.len;
    h.len = c->cur.len;
    h.pos = c->vpos;
    if (bytebuf_try_add(&c->held_bytes, c->cur.p ? c->cur.p : "", c->cur.len) !=
            0 ||
        bytebuf_try_add(&c->held, &h, sizeof h) != 0)
      return out_of_memory(rw);
    return SGF_CONTINUE;
  }
  {
    sgf_typed_value tv;
    const char *raw = c->cur.p ? c->cur.p : "";
    if (write_typed(c, rw, c->def, raw, c->cur.len, c->vpos, &tv))
      value_effects(c, c->def, &tv, raw, c->cur.len);
  }
  if (c->nomem) return out_of_memory(rw);
  return go_on(u);
}

void ff4_callbacks(sgf_callbacks *cb) {
  cb->on_tree_begin = tree_begin;
  cb->on_tree_end = tree_end;
  cb->on_node = node;
  cb->on_property = property;
  cb->on_value_begin = NULL;
  cb->on_value_data = NULL;
  cb->on_value_end = NULL;
  cb->on_property_end = NULL;
  cb->on_value = value;
  cb->on_node_end = node_end;
}
