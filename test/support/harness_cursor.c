/* harness_cursor.c - the checks of fuzz_cursor (see harness.h): a game
 * recorded through the cursor API of sgfstream/tree.h, driven by a
 * program of operations decoded from the input, with a failing
 * allocator.
 *
 * Each operation is checked against what tree.h promises for it: the
 * status (INVALID exactly for bad arguments, NOMEM only when an
 * allocation failed and always then, LIMIT only for a tree with limits),
 * its effect on success (where the cursor is, where a new node went, the
 * property and value it wrote, read back through the public API and
 * sgf_unescape()), and no effect at all on failure (the tree and the
 * cursor are as they were). At the end the tree's structure queries are
 * checked against a walk (fz_tree_dump), move numbers and the side to
 * move against a model of their documented rules, and the tree is
 * written with the tree writer (both layouts; a subtree also as a game
 * tree of its own and as a variation), parsed again in strict mode, and
 * compared node for node, property for property. Nothing may be
 * outstanding once the cursors and the tree are freed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "harness_priv.h"

#define CZ_MAX_OPS 3000  /* operations run per input */
#define CZ_FULL_CHECKS 4 /* mid-program full checks per input */
#define CZ_SUB_WRITES 8  /* subtree writes per input */
#define CZ_SNAP_NODES 64 /* whole-tree snapshot up to this many nodes */

typedef struct cz {
  const uint8_t *p; /* the program */
  size_t n, i;
  countalloc *ca;
  sgf_tree *t;
  sgf_tree *other;      /* a tree of its own, for sgf_cursor_goto */
  const sgf_node *gone; /* the last subtree deleted (its memory stays) */
  sgf_cursor *cur[2];
  int pending[2]; /* start_variation made the next node a variation */
  int w;          /* the cursor in use */
  int limited;    /* the tree has small limits */
  uint64_t max_nodes, max_bytes;
  int checks, subs;
  sgf_writer_options wo;
  long op; /* number of the operation running */
  int failed;
  char err[900];
} cz;

static void cz_fail(cz *z, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void cz_fail(cz *z, const char *fmt, ...) {
  va_list ap;
  int k;
  if (z->failed) return;
  z->failed = 1;
  k = snprintf(z->err, sizeof z->err, "op %ld: ", z->op);
  if (k < 0) k = 0;
  va_start(ap, fmt);
  vsnprintf(z->err + k, sizeof z->err - (size_t)k, fmt, ap);
  va_end(ap);
}

/* Bytes shown in a message: printable ASCII as is, others as \xHH; at
 * most 80 bytes. Four rotating static buffers. */
static const char *show(const char *p, size_t n) {
  static char bufs[4][400];
  static int k;
  char *o = bufs[k++ & 3], *w = o;
  size_t i;
  for (i = 0; i < n && i < 80; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c >= 0x20 && c < 0x7f && c != '\\')
      *w++ = (char)c;
    else
      w += sprintf(w, "\\x%02x", c);
  }
  if (n > 80) w += sprintf(w, "...");
  *w = '\0';
  return o;
}

static unsigned next(cz *z) { return z->i < z->n ? z->p[z->i++] : 0u; }

/* ------------------------------------------------------------------ */
/* Arguments                                                           */

/* A coordinate: 0..51 on the board, 52..55 just off it, -2..-5
 * negative, SGF_PASS. */
static int coord(unsigned b) {
  unsigned v = b & 63u;
  if (v < 56) return (int)v;
  if (v < 60) return -(int)(v - 54);
  return SGF_PASS;
}

/* The documented encoding: 2 and the letters; 0 for a pass; SGF_ERANGE off the
 * board. */
static int enc(int x, int y, char pt[2]) {
  if (x == SGF_PASS || y == SGF_PASS) return 0;
  if (x < 0 || x > 51 || y < 0 || y > 51) return SGF_ERANGE;
  pt[0] = (char)(x < 26 ? 'a' + x : 'A' + x - 26);
  pt[1] = (char)(y < 26 ? 'a' + y : 'A' + y - 26);
  return 2;
}

/* The documented decoding: SGF_OK and (x, y) for two letters, SGF_OK and
 * (SGF_PASS, SGF_PASS) for the empty value, SGF_ESYNTAX for anything
 * else. */
static int dec(const char *raw, size_t len, int *x, int *y) {
  int v[2], i;
  if (len == 0) {
    *x = *y = SGF_PASS;
    return SGF_OK;
  }
  if (len != 2) return SGF_ESYNTAX;
  for (i = 0; i < 2; i++) {
    char c = raw[i];
    if (c >= 'a' && c <= 'z')
      v[i] = c - 'a';
    else if (c >= 'A' && c <= 'Z')
      v[i] = c - 'A' + 26;
    else
      return SGF_ESYNTAX;
  }
  *x = v[0];
  *y = v[1];
  return SGF_OK;
}

/* sgf_point_encode and sgf_point_decode against enc() and dec(). */
static void check_point(cz *z, int x, int y, int k, const char pt[2]) {
  char out[2] = {'?', '?'};
  int r = sgf_point_encode(x, y, out), dx = -9, dy = -9;
  if (r != k || (k == 2 && memcmp(out, pt, 2) != 0) ||
      (k != 2 && (out[0] != '?' || out[1] != '?')))
    cz_fail(z, "sgf_point_encode(%d, %d) returned %d, expected %d", x, y, r, k);
  else if (k == 2 &&
           (sgf_point_decode(pt, 2, &dx, &dy) != SGF_OK || dx != x || dy != y))
    cz_fail(z, "sgf_point_decode(%c%c) is not (%d, %d)", pt[0], pt[1], x, y);
  else if (k == 0 && (sgf_point_decode("", 0, &dx, &dy) != SGF_OK ||
                      dx != SGF_PASS || dy != SGF_PASS))
    cz_fail(z, "sgf_point_decode of the empty value is not a pass");
}

static void point(cz *z, int *x, int *y) {
  *x = coord(next(z));
  *y = coord(next(z));
}

/* Text for the text functions: up to 31 bytes, NUL-terminated (a NUL
 * byte in the program ends it early); with bit 7 of the length byte,
 * from an alphabet rich in ']', '\\', ':' and line breaks. */
static const char alpha[16] = {']', '\\', ':', '\n', '\r', ' ', 'a', '[',
                               ';', '(',  ')', '\t', 'z',  'B', '1', 'W'};

static size_t text(cz *z, char *buf) {
  unsigned l = next(z), len = l & 31u, k;
  for (k = 0; k < len; k++) {
    unsigned b = next(z);
    buf[k] = (l & 0x80u) ? alpha[b & 15u] : (char)b;
  }
  buf[len] = '\0';
  return strlen(buf);
}

/* Raw bytes for sgf_cursor_add_value (NUL bytes kept): up to 31. */
static size_t raw_bytes(cz *z, char *buf) {
  unsigned l = next(z), len = l & 31u, k;
  for (k = 0; k < len; k++) {
    unsigned b = next(z);
    buf[k] = (l & 0x80u) ? (b & 16u ? '\0' : alpha[b & 15u]) : (char)b;
  }
  return len;
}

/* An identifier; *valid is 1 or 0 as tree.h says (uppercase letters),
 * -1 where it does not say (very long ones). */
static const char *ident(cz *z, char *buf, int *valid) {
  static const char *const good[20] = {"C",  "N",  "GN", "B",  "W",  "AB", "AW",
                                       "AE", "TR", "SQ", "LB", "MN", "PL", "HA",
                                       "RE", "KM", "SZ", "PB", "V",  "DM"};
  static const char *const bad[5] = {"", "b", "A1", "aB", "B "};
  unsigned k = next(z) & 31u, i, len;
  if (k < 20) {
    *valid = 1;
    return good[k];
  }
  if (k < 25) {
    *valid = 0;
    return bad[k - 20];
  }
  if (k < 30) {
    len = 1 + (next(z) & 7u);
    for (i = 0; i < len; i++) buf[i] = (char)('A' + next(z) % 26u);
    buf[len] = '\0';
    *valid = 1;
    return buf;
  }
  len = k == 30 ? 64 : 65;
  memset(buf, 'Q', len);
  buf[len] = '\0';
  *valid = -1;
  return buf;
}

/* ------------------------------------------------------------------ */
/* Reading the tree back                                               */

static void one_node(const sgf_node *n, bytebuf *b) {
  b->len = 0;
  if (n != NULL) fz_node_ser(n, b, 0);
}

/* 1 if a and b are views of the same property (the same values). */
static int same_prop(const sgf_prop_view *a, const sgf_prop_view *b) {
  size_t i;
  if (a->nvalues != b->nvalues || a->ident != b->ident) return 0;
  for (i = 0; i < a->nvalues; i++) {
    sgf_value_view x = sgf_prop_value(a, i), y = sgf_prop_value(b, i);
    if (x.raw != y.raw || x.len != y.len) return 0;
  }
  return 1;
}

/* The first property named id (nvalues 0 if none, or if
 * sgf_node_find_prop finds another), and how many there are. */
static sgf_prop_view prop_of(const sgf_node *n, const char *id, size_t *count) {
  size_t i, np = sgf_node_prop_count(n), k = 0;
  sgf_prop_view first, found, none;
  memset(&none, 0, sizeof none);
  first = none;
  for (i = 0; i < np; i++) {
    sgf_prop_view p = sgf_node_prop(n, i);
    if (p.nvalues != 0 && strcmp(p.ident, id) == 0) {
      if (first.nvalues == 0) first = p;
      k++;
    }
  }
  if (count != NULL) *count = k;
  found = sgf_node_find_prop(n, id);
  if (!same_prop(&first, &found)) return none;
  return first;
}

/* How many values of p are exactly raw[0..len). */
static size_t value_count(sgf_prop_view p, const char *raw, size_t len) {
  size_t i, k = 0;
  for (i = 0; i < p.nvalues; i++) {
    sgf_value_view v = sgf_prop_value(&p, i);
    if (v.len == len && (len == 0 || memcmp(v.raw, raw, len) == 0)) k++;
  }
  return k;
}

/* 1 if unescaping raw gives exactly want[0..wn). */
static int unescapes_to(const char *raw, size_t len, const char *want,
                        size_t wn) {
  char *out = malloc(len ? len : 1);
  size_t n;
  int ok;
  if (out == NULL) abort();
  n = sgf_unescape(raw, len, out);
  ok = n == wn && (n == 0 || memcmp(out, want, n) == 0);
  free(out);
  return ok;
}

/* The text value of n's property id, unescaped, into b (b->len 0 and
 * returns 0 if there is none). */
static int text_of(const sgf_node *n, const char *id, bytebuf *b) {
  sgf_prop_view p = prop_of(n, id, NULL);
  sgf_value_view v = sgf_prop_value(&p, 0);
  char *out;
  b->len = 0;
  if (p.nvalues == 0) return 0;
  out = malloc(v.len ? v.len : 1);
  if (out == NULL) abort();
  bytebuf_add(b, out, sgf_unescape(v.raw, v.len, out));
  free(out);
  return 1;
}

/* ------------------------------------------------------------------ */
/* Before and after one operation                                      */

typedef struct snap {
  size_t count, children, whole_n;
  const sgf_node *node, *other_node;
  bytebuf cur, root, whole;
  int whole_ok;
} snap;

static void snap_take(cz *z, snap *s) {
  const sgf_node *n = sgf_cursor_node(z->cur[z->w]);
  s->count = sgf_tree_node_count(z->t);
  s->node = n;
  s->other_node = z->cur[!z->w] != NULL ? sgf_cursor_node(z->cur[!z->w]) : NULL;
  s->children = sgf_node_child_count(n);
  one_node(n, &s->cur);
  one_node(sgf_tree_root(z->t), &s->root);
  s->whole.len = 0;
  s->whole_ok = s->count <= CZ_SNAP_NODES;
  if (s->whole_ok) s->whole_n = fz_tree_ser(sgf_tree_root(z->t), &s->whole, 0);
}

static void snap_free(snap *s) {
  bytebuf_free(&s->cur);
  bytebuf_free(&s->root);
  bytebuf_free(&s->whole);
}

/* A failed operation: the tree is as it was (the root may differ after
 * a failed header: root_may_change), and so are the cursors. */
static void snap_same(cz *z, const snap *s, int root_may_change,
                      const char *what) {
  bytebuf b;
  memset(&b, 0, sizeof b);
  if (sgf_cursor_node(z->cur[z->w]) != s->node)
    cz_fail(z, "%s failed but moved the cursor", what);
  else if (z->cur[!z->w] != NULL &&
           sgf_cursor_node(z->cur[!z->w]) != s->other_node)
    cz_fail(z, "%s failed but moved the other cursor", what);
  else if (sgf_tree_node_count(z->t) != s->count)
    cz_fail(z, "%s failed but the tree has %zu nodes, had %zu", what,
            sgf_tree_node_count(z->t), s->count);
  else if (sgf_node_child_count(s->node) != s->children)
    cz_fail(z, "%s failed but the node has %zu children, had %zu", what,
            sgf_node_child_count(s->node), s->children);
  if (z->failed) return;
  one_node(s->node, &b);
  if (!(root_may_change && s->node == sgf_tree_root(z->t)) &&
      !bytebuf_eq(&b, &s->cur))
    cz_fail(z, "%s failed but changed the node's properties", what);
  one_node(sgf_tree_root(z->t), &b);
  if (!z->failed && !root_may_change && !bytebuf_eq(&b, &s->root))
    cz_fail(z, "%s failed but changed the root's properties", what);
  if (!z->failed && s->whole_ok && !root_may_change) {
    b.len = 0;
    fz_tree_ser(sgf_tree_root(z->t), &b, 0);
    if (!bytebuf_eq(&b, &s->whole))
      cz_fail(z, "%s failed but changed the tree", what);
  }
  bytebuf_free(&b);
}

/* The status of an operation against what was expected of it.
 * invalid: 1 the arguments are bad (INVALID required), 0 they are good
 * (INVALID forbidden), -1 not documented. failures: allocation failures
 * during the call. Returns 1 if the operation succeeded. */
static int status_ok(cz *z, int r, int invalid, size_t failures,
                     const char *what) {
  switch (r) {
    case SGF_OK:
      if (invalid == 1) cz_fail(z, "%s with bad arguments returned OK", what);
      if (failures)
        cz_fail(z, "%s returned OK after %zu allocations failed", what,
                failures);
      return !z->failed;
    case SGF_EINVAL:
      if (invalid == 0) cz_fail(z, "%s returned INVALID", what);
      return 0;
    case SGF_ENOMEM:
      if (invalid == 1)
        cz_fail(z, "%s with bad arguments returned NOMEM", what);
      if (!failures)
        cz_fail(z, "%s returned NOMEM, no allocation failed", what);
      return 0;
    case SGF_ELIMIT:
      if (invalid == 1)
        cz_fail(z, "%s with bad arguments returned LIMIT", what);
      if (!z->limited) cz_fail(z, "%s returned LIMIT without limits", what);
      if (failures)
        cz_fail(z, "%s returned LIMIT after an allocation failed", what);
      return 0;
    default:
      cz_fail(z, "%s returned %d", what, r);
      return 0;
  }
}

/* ------------------------------------------------------------------ */
/* Whole-tree checks                                                   */

/* The integer an MN / HA value stands for, as tree.h says ("not
 * integers are ignored"): 1 and *k for plain digits, 0 when it has no
 * digit at all, -1 for forms the header leaves open (signs, blanks,
 * digits among other bytes, too long). */
static int int_value(const sgf_value_view *v, int64_t *k) {
  size_t i, digits = 0;
  int64_t x = 0;
  for (i = 0; i < v->len; i++)
    if (v->raw[i] >= '0' && v->raw[i] <= '9') digits++;
  if (digits == 0) return 0;
  if (digits != v->len || digits > 9) return -1;
  for (i = 0; i < v->len; i++) x = x * 10 + (v->raw[i] - '0');
  *k = x;
  return 1;
}

/* Of n's property id (MN, HA): 1 and *k for an integer, 0 for none or
 * not an integer, -1 when the header leaves it open (several). */
static int int_prop(const sgf_node *n, const char *id, int64_t *k) {
  size_t count;
  sgf_prop_view p = prop_of(n, id, &count);
  sgf_value_view v = sgf_prop_value(&p, 0);
  if (count == 0) return 0;
  if (count > 1 || p.nvalues != 1) return -1;
  return int_value(&v, k);
}

/* PL of n: its colour, SGF_COLOR_NONE for none or neither B nor W, -1
 * when the header leaves it open. */
static int pl_of(const sgf_node *n) {
  size_t count, i;
  sgf_prop_view p = prop_of(n, "PL", &count);
  sgf_value_view v = sgf_prop_value(&p, 0);
  if (count == 0) return SGF_COLOR_NONE;
  if (count > 1 || p.nvalues != 1) return -1;
  if (v.len == 1 && v.raw[0] == 'B') return SGF_COLOR_BLACK;
  if (v.len == 1 && v.raw[0] == 'W') return SGF_COLOR_WHITE;
  for (i = 0; i < v.len; i++)
    if (strchr("BbWw12 \t", v.raw[i]) != NULL && v.raw[i] != '\0') return -1;
  return SGF_COLOR_NONE;
}

/* Move numbers and the side to move of every node, against a model of
 * tree.h's rules. The structure has been checked (ids are pre-order). */
static void check_facts(cz *z) {
  size_t count = sgf_tree_node_count(z->t), i;
  int64_t *num = malloc(count * sizeof *num),
          *nxt = malloc(count * sizeof *nxt);
  int *last = malloc(count * sizeof *last);
  int64_t ha = 0;
  int hak = int_prop(sgf_tree_root(z->t), "HA", &ha), open_mn = 0;
  /* reported: an MN value changed in place (MN[91] to MN[203]) leaves the
   * move numbers below it stale, the node's flags being the same */
  if (fz_tolerate("cursor-mn-stale")) open_mn = 1;
  if (num == NULL || nxt == NULL || last == NULL) abort();
  const sgf_node *n = sgf_tree_root(z->t);
  for (i = 0; n != NULL && !z->failed; i++) {
    const sgf_node *par;
    sgf_value_view mvv;
    sgf_color mv;
    int64_t k = 0, pm = 0, pn = 1;
    int plast = SGF_COLOR_NONE, mnk, pl;
    size_t pid;
    if (i >= count || sgf_node_index(n) != i) { /* checked by the walk */
      cz_fail(z, "node %zu of %zu in pre-order has id %zu", i, count,
              sgf_node_index(n));
      break;
    }
    par = sgf_node_parent(n);
    if (par != NULL) {
      pid = sgf_node_index(par);
      pm = num[pid];
      pn = nxt[pid];
      plast = last[pid];
    }
    mv = sgf_node_move(n, &mvv);
    if ((mv != SGF_COLOR_NONE) != (mvv.raw != NULL) ||
        (mvv.raw == NULL && mvv.len != 0))
      cz_fail(z, "node %zu: sgf_node_move colour %d with value %p", i, (int)mv,
              (const void *)mvv.raw);
    if (mvv.raw != NULL) {
      int x1 = -9, y1 = -9, x2 = -9, y2 = -9;
      int r1 = sgf_point_decode(mvv.raw, mvv.len, &x1, &y1);
      int r2 = dec(mvv.raw, mvv.len, &x2, &y2);
      if (r1 != r2 || (r1 == SGF_OK && (x1 != x2 || y1 != y2)))
        cz_fail(z,
                "node %zu: sgf_point_decode(\"%s\") returned %d (%d, %d), "
                "expected %d (%d, %d)",
                i, show(mvv.raw, mvv.len), r1, x1, y1, r2, x2, y2);
    }
    mnk = int_prop(n, "MN", &k);
    if (mnk < 0) open_mn = 1;
    if (mv != SGF_COLOR_NONE) {
      num[i] = mnk == 1 ? k : pn;
      nxt[i] = num[i] + 1;
      last[i] = (int)mv;
    } else {
      num[i] = pm;
      nxt[i] = mnk == 1 ? k : pn;
      last[i] = plast;
    }
    {
      int64_t got = sgf_node_move_number(n);
      if (!open_mn && got != num[i])
        cz_fail(z, "node %zu: move number %" PRId64 ", expected %" PRId64, i,
                got, num[i]);
    }
    pl = pl_of(n);
    if (pl >= 0 && hak >= 0) {
      sgf_color want = pl != SGF_COLOR_NONE         ? (sgf_color)pl
                       : last[i] == SGF_COLOR_BLACK ? SGF_COLOR_WHITE
                       : last[i] == SGF_COLOR_WHITE ? SGF_COLOR_BLACK
                       : (hak == 1 && ha >= 2)      ? SGF_COLOR_WHITE
                                                    : SGF_COLOR_BLACK;
      if (sgf_node_to_play(n) != want)
        cz_fail(z, "node %zu: to play %d, expected %d", i,
                (int)sgf_node_to_play(n), (int)want);
    }
    /* next in pre-order */
    if (sgf_node_first_child(n) != NULL) {
      n = sgf_node_first_child(n);
    } else {
      while (n != NULL && sgf_node_next_sibling(n) == NULL)
        n = sgf_node_parent(n);
      if (n != NULL) n = sgf_node_next_sibling(n);
    }
  }
  free(num);
  free(nxt);
  free(last);
}

static int buf_sink(void *ctx, const char *b, size_t n) {
  bytebuf_add(ctx, b, n);
  return (int)n;
}

/* Parse out strictly into one tree; NULL (and a failure) if that does not
 * work cleanly. */
static sgf_collection *parse_strict(cz *z, const bytebuf *out,
                                    const char *what) {
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_diag d;
  sgf_collection *c;
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  po.flags = SGF_OPT_STRICT;
  memset(&d, 0, sizeof d);
  c = sgf_collection_parse(out->p ? out->p : "", out->len, &o, &d);
  if (c == NULL) {
    cz_fail(z,
            "%s: the output (%zu bytes) does not parse strictly: %s at "
            "offset %" PRIu64 ": %s",
            what, out->len, sgf_diag_name(d.code), d.pos.offset,
            show(out->p ? out->p : "", out->len));
    return NULL;
  }
  if (sgf_collection_count(c) != 1 || sgf_collection_tree(c, 0) == NULL) {
    cz_fail(z, "%s: the output holds %zu game trees", what,
            sgf_collection_count(c));
    sgf_collection_free(c);
    return NULL;
  }
  return c;
}

/* Compare the subtree at top with the one at got (a parse of the
 * writer's output). */
static void same_subtree(cz *z, const sgf_node *top, const sgf_node *got,
                         const char *what) {
  bytebuf a, b;
  size_t na, nb;
  memset(&a, 0, sizeof a);
  memset(&b, 0, sizeof b);
  na = fz_tree_ser(top, &a, 1);
  nb = got != NULL ? fz_tree_ser(got, &b, 1) : 0;
  if (na != sgf_node_subtree_size(top))
    cz_fail(z, "%s: %zu nodes walked, subtree size %zu", what, na,
            sgf_node_subtree_size(top));
  else if (na != nb)
    cz_fail(z, "%s: %zu nodes written, %zu read back", what, na, nb);
  else if (!bytebuf_eq(&a, &b)) {
    size_t i = 0, m = a.len < b.len ? a.len : b.len, from;
    while (i < m && a.p[i] == b.p[i]) i++;
    from = i > 40 ? i - 40 : 0;
    cz_fail(z, "%s: read back differs at byte %zu:\n  tree: %s\n  read: %s",
            what, i, show(a.p + from, a.len - from),
            show(b.p + from, b.len - from));
  }
  bytebuf_free(&a);
  bytebuf_free(&b);
}

/* Write the subtree at top (the whole tree when top is the root and
 * as_tree is set) with the tree writer, parse it back and compare.
 * variation: write it twice as variations of a node of our own. */
static void write_back(cz *z, const sgf_node *top, const sgf_writer_options *wo,
                       int whole, int variation, const char *what) {
  bytebuf out;
  sgf_writer *w;
  sgf_collection *c;
  int r = 0;
  memset(&out, 0, sizeof out);
  w = sgf_writer_create(buf_sink, &out, wo);
  if (w == NULL) abort();
  if (variation) {
    r |= sgf_writer_tree_begin(w);
    r |= sgf_writer_node(w);
    r |= sgf_writer_property(w, "C", 1);
    r |= sgf_writer_value(w, "x", 1);
    r |= sgf_writer_property_end(w);
    r |= sgf_writer_write_subtree(w, top);
    r |= sgf_writer_write_subtree(w, top);
    r |= sgf_writer_tree_end(w);
  } else if (whole) {
    r |= sgf_writer_write_tree(w, z->t);
  } else {
    r |= sgf_writer_write_subtree(w, top);
  }
  r |= sgf_writer_finish(w);
  if (r != 0)
    cz_fail(z, "%s: the writer failed: %s", what,
            sgf_strerror(sgf_writer_status(w)));
  sgf_writer_destroy(w);
  if (!z->failed && (c = parse_strict(z, &out, what)) != NULL) {
    const sgf_node *root = sgf_tree_root(sgf_collection_tree(c, 0));
    if (variation) {
      const sgf_node *a = sgf_node_first_child(root);
      char wn[64];
      if (sgf_node_child_count(root) != 2 || sgf_node_prop_count(root) != 1)
        cz_fail(z, "%s: a node with %zu properties and %zu variations", what,
                sgf_node_prop_count(root), sgf_node_child_count(root));
      snprintf(wn, sizeof wn, "%s (first)", what);
      if (!z->failed) same_subtree(z, top, a, wn);
      snprintf(wn, sizeof wn, "%s (second)", what);
      if (!z->failed) same_subtree(z, top, sgf_node_next_sibling(a), wn);
    } else {
      same_subtree(z, top, root, what);
    }
    sgf_collection_free(c);
  }
  bytebuf_free(&out);
}

/* Latest common ancestor, ancestry and distance for pairs of nodes,
 * against a climb by parent links (the walk has checked levels and
 * plies). */
static void check_pairs(cz *z, const uint8_t *seed) {
  const sgf_node *nodes[64], *n = sgf_tree_root(z->t);
  size_t m = 0, i;
  while (n != NULL && m < 64) { /* the first 64 in pre-order */
    nodes[m++] = n;
    if (sgf_node_first_child(n) != NULL) {
      n = sgf_node_first_child(n);
    } else {
      while (n != NULL && sgf_node_next_sibling(n) == NULL)
        n = sgf_node_parent(n);
      if (n != NULL) n = sgf_node_next_sibling(n);
    }
  }
  for (i = 0; i < m && !z->failed; i++) {
    const sgf_node *a = nodes[i], *b = nodes[(i * 5u + seed[i & 3]) % m];
    const sgf_node *x = a, *y = b, *l;
    size_t lx = 0, ly = 0, dist;
    for (l = x; sgf_node_parent(l) != NULL; l = sgf_node_parent(l)) lx++;
    for (l = y; sgf_node_parent(l) != NULL; l = sgf_node_parent(l)) ly++;
    while (lx > ly) {
      x = sgf_node_parent(x);
      lx--;
    }
    while (ly > lx) {
      y = sgf_node_parent(y);
      ly--;
    }
    while (x != y) {
      x = sgf_node_parent(x);
      y = sgf_node_parent(y);
    }
    dist = sgf_node_ply(a) + sgf_node_ply(b) - 2 * sgf_node_ply(x);
    if (sgf_node_lca(a, b) != x)
      cz_fail(z, "lca of nodes %zu and %zu is not node %zu", sgf_node_index(a),
              sgf_node_index(b), sgf_node_index(x));
    else if (sgf_node_is_ancestor(a, b) != (x == a) ||
             sgf_node_is_descendant(a, b) != (x == b))
      cz_fail(z, "ancestry of nodes %zu and %zu wrong", sgf_node_index(a),
              sgf_node_index(b));
    else if (sgf_node_distance(a, b) != dist)
      cz_fail(z, "distance of nodes %zu and %zu is %zu, expected %zu",
              sgf_node_index(a), sgf_node_index(b), sgf_node_distance(a, b),
              dist);
    else if (z->other != NULL &&
             (sgf_node_lca(a, sgf_tree_root(z->other)) != NULL ||
              sgf_node_distance(a, sgf_tree_root(z->other)) != SIZE_MAX ||
              sgf_node_is_ancestor(sgf_tree_root(z->other), a)))
      cz_fail(z, "node %zu and another tree's root: related",
              sgf_node_index(a));
  }
}

/* A sink that fails once it has taken `left` bytes. */
static int failing_sink(void *ctx, const char *b, size_t n) {
  size_t *left = ctx;
  (void)b;
  if (*left == 0) return -1;
  if (n > *left) n = *left;
  *left -= n;
  return (int)n;
}

/* The tree writer into a sink that fails after k bytes of the len the
 * tree takes: it must fail with SGF_ESINK exactly when k < len. */
static void write_failing(cz *z, size_t len, size_t k) {
  sgf_writer_options wo = z->wo;
  size_t left = k;
  sgf_writer *w;
  int r;
  wo.buffer_size = SGF_WRITER_MIN_BUFFER;
  w = sgf_writer_create(failing_sink, &left, &wo);
  if (w == NULL) abort();
  r = sgf_writer_write_tree(w, z->t);
  r |= sgf_writer_finish(w);
  if ((r != 0) != (k < len) || (k < len && sgf_writer_status(w) != SGF_ESINK))
    cz_fail(z,
            "tree writer into a sink failing after %zu of %zu bytes: "
            "returned %d, status %d",
            k, len, r, (int)sgf_writer_status(w));
  sgf_writer_destroy(w);
}

/* Everything at once; allocation failures are switched off around it
 * (sgf_tree_node_at may allocate its index). */
static void full_check(cz *z, int writes) {
  size_t fail_at = z->ca->fail_at, dl = 0;
  const char *err = NULL;
  char *dump;
  z->ca->fail_at = SIZE_MAX;
  /* at its byte limit a tree may not find room for its position index */
  dump = fz_tree_dump_opt(z->t, &dl, &err,
                          z->limited ? FZ_DUMP_INDEX_MAY_FAIL : 0u);
  if (dump == NULL) cz_fail(z, "tree structure: %s", err ? err : "?");
  free(dump);
  if (!z->failed) check_facts(z);
  if (!z->failed) check_pairs(z, z->p + 1);
  if (!z->failed && writes) {
    sgf_writer_options wo = z->wo;
    write_back(z, sgf_tree_root(z->t), &wo, 1, 0, "tree writer");
    wo.layout = wo.layout == SGF_LAYOUT_COMPACT ? SGF_LAYOUT_READABLE
                                                : SGF_LAYOUT_COMPACT;
    if (!z->failed)
      write_back(z, sgf_tree_root(z->t), &wo, 1, 0, "tree writer (other)");
    if (!z->failed) {
      /* the length of the output in the chosen layout, then a sink that
       * fails somewhere in it (or just after it) */
      bytebuf out;
      sgf_writer *w;
      memset(&out, 0, sizeof out);
      w = sgf_writer_create(buf_sink, &out, &z->wo);
      if (w == NULL) abort();
      if (sgf_writer_write_tree(w, z->t) != 0 || sgf_writer_finish(w) != 0)
        cz_fail(z, "tree writer failed");
      sgf_writer_destroy(w);
      if (!z->failed)
        write_failing(z, out.len,
                      z->p[2] % 3u == 0 ? out.len : (out.len * z->p[1]) / 256u);
      bytebuf_free(&out);
    }
  }
  z->ca->fail_at = fail_at;
}

/* ------------------------------------------------------------------ */
/* The operations                                                      */

enum {
  OP_MOVE,
  OP_NODE,
  OP_START_VAR,
  OP_BACK,
  OP_FORWARD,
  OP_REWIND,
  OP_GOTO,
  OP_STONE,
  OP_COMMENT,
  OP_MARKUP,
  OP_LABEL,
  OP_SET_TEXT,
  OP_ADD_VALUE,
  OP_RESULT,
  OP_HEADER,
  OP_CURSOR,
  OP_CHECK,
  OP_SUBTREE,
  OP_NULLS,
  OP_PASS,
  OP_REMOVE, /* delete, delete_prop, delete_value, promote, reparent */
  NOPS
};

/* A successful add (move or node) from `from`: where did it go? */
static void placed(cz *z, const snap *s, const sgf_node *from, int first,
                   const char *what) {
  const sgf_node *n = sgf_cursor_node(z->cur[z->w]);
  if (sgf_node_parent(n) != from) {
    cz_fail(z, "%s: the cursor is not on a child of its node", what);
    return;
  }
  if (sgf_tree_node_count(z->t) != s->count + 1 ||
      sgf_node_child_count(from) != s->children + 1) {
    cz_fail(z, "%s: %zu nodes (had %zu), %zu children (had %zu)", what,
            sgf_tree_node_count(z->t), s->count, sgf_node_child_count(from),
            s->children);
    return;
  }
  if (first ? sgf_node_first_child(from) != n : sgf_node_last_child(from) != n)
    cz_fail(z, "%s: the new node is not the %s child (index %zu of %zu)", what,
            first ? "first" : "last", sgf_node_child_index(n),
            sgf_node_child_count(from));
  if (sgf_node_subtree_size(n) != 1 || sgf_node_child_count(n) != 0)
    cz_fail(z, "%s: the new node has children", what);
}

/* The first child of n holding the move (color, pt[0..k)), or NULL. */
static const sgf_node *child_with_move(const sgf_node *n, sgf_color color,
                                       const char *pt, int k) {
  const sgf_node *ch;
  for (ch = sgf_node_first_child(n); ch != NULL;
       ch = sgf_node_next_sibling(ch)) {
    sgf_value_view v;
    if (sgf_node_move(ch, &v) == color && v.raw != NULL && v.len == (size_t)k &&
        (k == 0 || memcmp(v.raw, pt, (size_t)k) == 0))
      return ch;
  }
  return NULL;
}

static void op_move(cz *z, unsigned f, int pass, const snap *s) {
  sgf_color color = (f & 1u) ? SGF_COLOR_WHITE : SGF_COLOR_BLACK;
  unsigned flags = (f & 2u) ? SGF_CURSOR_VARIATION : 0u;
  const sgf_node *from = s->node, *had, *n;
  sgf_value_view v;
  char pt[2];
  int x, y, k, r;
  size_t fb = z->ca->failures;
  if (f == 7) color = SGF_COLOR_NONE; /* not a colour to play */
  if (pass) {
    x = SGF_PASS;
    y = (int)(next(z) & 63u);
  } else {
    point(z, &x, &y);
  }
  k = enc(x, y, pt);
  check_point(z, x, y, k, pt);
  had = color != SGF_COLOR_NONE && k >= 0 ? child_with_move(from, color, pt, k)
                                          : NULL;
  r = sgf_cursor_add_move(z->cur[z->w], color, x, y, flags);
  if (!status_ok(z, r, color == SGF_COLOR_NONE || k < 0, z->ca->failures - fb,
                 "add_move")) {
    if (!z->failed) snap_same(z, s, 0, "add_move");
    return;
  }
  n = sgf_cursor_node(z->cur[z->w]);
  if (sgf_node_move(n, &v) != color || v.raw == NULL || v.len != (size_t)k ||
      (k && memcmp(v.raw, pt, (size_t)k) != 0)) {
    cz_fail(z, "add_move(%d, %d, %d): the cursor's node holds another move",
            (int)color, x, y);
    return;
  }
  if (had != NULL) {
    /* replayed: nothing added, the cursor on a child that was there */
    if (sgf_node_parent(n) != from || sgf_tree_node_count(z->t) != s->count)
      cz_fail(z, "add_move of an existing move added a node");
  } else {
    placed(z, s, from, !(flags & SGF_CURSOR_VARIATION) && !z->pending[z->w],
           "add_move");
    if (!z->failed && sgf_node_prop_count(n) != 1)
      cz_fail(z, "add_move: the new node has %zu properties",
              sgf_node_prop_count(n));
  }
  z->pending[z->w] = 0;
}

static void op_node(cz *z, unsigned f, const snap *s) {
  unsigned flags = (f & 2u) ? SGF_CURSOR_VARIATION : 0u;
  size_t fb = z->ca->failures;
  int r = sgf_cursor_add_node(z->cur[z->w], flags);
  if (!status_ok(z, r, 0, z->ca->failures - fb, "add_node")) {
    if (!z->failed) snap_same(z, s, 0, "add_node");
    return;
  }
  placed(z, s, s->node, !(flags & SGF_CURSOR_VARIATION) && !z->pending[z->w],
         "add_node");
  if (!z->failed && sgf_node_prop_count(sgf_cursor_node(z->cur[z->w])))
    cz_fail(z, "add_node: the new node has properties");
  z->pending[z->w] = 0;
}

/* back, forward, rewind, goto, start_variation. */
static void op_go(cz *z, int op, const snap *s) {
  sgf_cursor *c = z->cur[z->w];
  const sgf_node *want = NULL;
  const char *what = "?";
  size_t fb;
  int r = 0, invalid;
  switch (op) {
    case OP_BACK:
    case OP_START_VAR:
      want = sgf_node_parent(s->node);
      break;
    case OP_FORWARD:
      want = sgf_node_first_child(s->node);
      break;
    case OP_REWIND:
      want = sgf_tree_root(z->t);
      break;
    default: { /* OP_GOTO */
      unsigned k = next(z);
      if (k == 255) {
        want = NULL;
      } else if (k == 253 && z->gone != NULL) {
        want = z->gone; /* deleted: refused */
      } else if (k == 254) {
        if (z->other == NULL) z->other = sgf_tree_create(NULL);
        if (z->other == NULL) abort();
        want = sgf_tree_root(z->other); /* another tree's: refused */
      } else {
        size_t id = k % sgf_tree_node_count(z->t);
        want = sgf_tree_node_at(z->t, id); /* NULL if its index failed */
        if (want != NULL && sgf_node_index(want) != id)
          cz_fail(z, "sgf_tree_node_at(%zu) has id %zu", id,
                  sgf_node_index(want));
      }
      break;
    }
  }
  invalid = want == NULL || sgf_node_tree(want) != z->t;
  fb = z->ca->failures;
  switch (op) {
    case OP_BACK:
      what = "back";
      r = sgf_cursor_back(c);
      break;
    case OP_START_VAR:
      what = "start_variation";
      r = sgf_cursor_start_variation(c);
      break;
    case OP_FORWARD:
      what = "forward";
      r = sgf_cursor_forward(c);
      break;
    case OP_REWIND:
      what = "rewind";
      r = sgf_cursor_rewind(c);
      break;
    default:
      what = "goto";
      r = sgf_cursor_goto(c, want);
      break;
  }
  if (r == SGF_ENOMEM || r == SGF_ELIMIT)
    cz_fail(z, "%s returned %d", what, r); /* moving allocates nothing */
  if (!status_ok(z, r, invalid, z->ca->failures - fb, what)) {
    if (!z->failed) snap_same(z, s, 0, what);
    return;
  }
  if (sgf_cursor_node(c) != want)
    cz_fail(z, "%s: the cursor is not where it should be", what);
  if (sgf_tree_node_count(z->t) != s->count)
    cz_fail(z, "%s changed the tree", what);
  z->pending[z->w] = op == OP_START_VAR;
}

/* add_stone and add_markup: the point in the property, once. */
static void op_point(cz *z, int op, unsigned f, const snap *s) {
  static const char *const stones[3] = {"AE", "AB", "AW"};
  static const char *const marks[4] = {"TR", "CR", "SQ", "MA"};
  const char *id = NULL, *what = op == OP_STONE ? "add_stone" : "add_markup";
  char pt[2];
  int x, y, k, r, invalid;
  size_t before = 0, after = 0, fb;
  const sgf_node *n = s->node;
  point(z, &x, &y);
  k = enc(x, y, pt);
  check_point(z, x, y, k, pt);
  if (op == OP_STONE) {
    invalid = (f & 3u) == 3u || k != 2;
    if ((f & 3u) < 3u) id = stones[f & 3u];
  } else {
    invalid = f > 3u || k != 2;
    if (f <= 3u) id = marks[f];
  }
  if (id != NULL && k == 2) before = value_count(prop_of(n, id, NULL), pt, 2);
  fb = z->ca->failures;
  r = op == OP_STONE
          ? sgf_cursor_add_stone(z->cur[z->w], (sgf_color)(f & 3u), x, y)
          : sgf_cursor_add_markup(z->cur[z->w], (sgf_markup)f, x, y);
  if (!status_ok(z, r, invalid, z->ca->failures - fb, what)) {
    if (!z->failed) snap_same(z, s, 0, what);
    return;
  }
  after = value_count(prop_of(n, id, NULL), pt, 2);
  if (after != (before ? before : 1))
    cz_fail(z, "%s %c%c into %s: listed %zu times, before %zu", what, pt[0],
            pt[1], id, after, before);
  if (sgf_cursor_node(z->cur[z->w]) != n) cz_fail(z, "%s moved", what);
}

static void op_comment(cz *z, const snap *s) {
  char t[40];
  size_t tl = text(z, t), fb;
  bytebuf old, want, got;
  int had, r, had_raw_end;
  const sgf_node *n = s->node;
  memset(&old, 0, sizeof old);
  memset(&want, 0, sizeof want);
  memset(&got, 0, sizeof got);
  had = text_of(n, "C", &old);
  {
    sgf_prop_view p = prop_of(n, "C", NULL);
    sgf_value_view v = sgf_prop_value(&p, 0);
    had_raw_end = p.nvalues != 0 && v.len > 0 ? v.raw[v.len - 1] : 0;
  }
  fb = z->ca->failures;
  r = sgf_cursor_add_comment(z->cur[z->w], t);
  if (status_ok(z, r, 0, z->ca->failures - fb, "add_comment")) {
    if (had) {
      bytebuf_add(&want, old.p, old.len);
      bytebuf_add(&want, "\n", 1);
    }
    bytebuf_add(&want, t, tl);
    if (!text_of(n, "C", &got) || !bytebuf_eq(&got, &want)) {
      /* reported: a comment whose raw value ends in a backslash (a value
       * left open at the end of the input) or a backslash and CR (a soft
       * line break) swallows the "\n" that joins the new text */
      if (!(fz_tolerate("cursor-comment-join") && had_raw_end != 0 &&
            (had_raw_end == '\\' || had_raw_end == '\r')))
        cz_fail(z, "add_comment: the comment reads \"%s\", expected \"%s\"",
                show(got.p ? got.p : "", got.len), show(want.p, want.len));
    }
  } else if (!z->failed) {
    snap_same(z, s, 0, "add_comment");
  }
  bytebuf_free(&old);
  bytebuf_free(&want);
  bytebuf_free(&got);
}

static void op_label(cz *z, const snap *s) {
  char t[40], pt[2];
  int x, y, k, r;
  size_t tl, fb, i, found = 0;
  sgf_prop_view p;
  point(z, &x, &y);
  tl = text(z, t);
  k = enc(x, y, pt);
  fb = z->ca->failures;
  r = sgf_cursor_add_label(z->cur[z->w], x, y, t);
  if (!status_ok(z, r, k != 2, z->ca->failures - fb, "add_label")) {
    if (!z->failed) snap_same(z, s, 0, "add_label");
    return;
  }
  /* LB[xy:text]: the text half escaped as in a compose value (no bare
   * ':'), and unescaping it gives the text */
  p = prop_of(s->node, "LB", NULL);
  for (i = 0; i < p.nvalues; i++) {
    sgf_value_view v = sgf_prop_value(&p, i);
    size_t j;
    int bare = 0;
    if (v.len < 3 || v.raw[0] != pt[0] || v.raw[1] != pt[1] || v.raw[2] != ':')
      continue;
    for (j = 3; j < v.len; j++) {
      if (v.raw[j] == '\\')
        j++;
      else if (v.raw[j] == ':' || v.raw[j] == ']')
        bare = 1;
    }
    if (!bare && unescapes_to(v.raw + 3, v.len - 3, t, tl)) found++;
  }
  if (found == 0)
    cz_fail(z, "add_label %c%c \"%s\": no LB value reads back as that", pt[0],
            pt[1], show(t, tl));
}

/* set_text, set_result: the property's one value reads back as text. */
static void op_text(cz *z, int op, unsigned f, const snap *s) {
  char buf[80], t[40];
  const char *id;
  int valid = 1, r;
  size_t tl, fb, np;
  const sgf_node *n;
  sgf_prop_view p;
  sgf_value_view v;
  if (op == OP_RESULT) {
    id = "RE";
    n = sgf_tree_root(z->t);
  } else {
    id = ident(z, buf, &valid);
    n = s->node;
  }
  if (f & 4u) { /* something MN, PL, HA understand */
    unsigned b = next(z);
    if (b < 40)
      snprintf(t, sizeof t, "%s", b & 1 ? "W" : "B");
    else
      snprintf(t, sizeof t, "%u", b);
  } else {
    text(z, t);
  }
  tl = strlen(t);
  fb = z->ca->failures;
  r = op == OP_RESULT ? sgf_cursor_set_result(z->cur[z->w], t)
                      : sgf_cursor_set_text(z->cur[z->w], id, t);
  if (!status_ok(z, r, valid < 0 ? -1 : !valid, z->ca->failures - fb,
                 op == OP_RESULT ? "set_result" : "set_text")) {
    if (!z->failed)
      snap_same(z, s, 0, op == OP_RESULT ? "set_result" : "set_text");
    return;
  }
  p = prop_of(n, id, &np);
  v = sgf_prop_value(&p, 0);
  if (p.nvalues != 1 || !unescapes_to(v.raw, v.len, t, tl))
    cz_fail(z, "%s %s \"%s\": the property does not read back as that",
            op == OP_RESULT ? "set_result" : "set_text", id, show(t, tl));
}

/* The edits that remove or move (none allocates: OK or INVALID). */

#define CZ_KIDS 64 /* children compared up to this many */

/* The children of p in order into k[0..max); their number, or SIZE_MAX
 * if there are more. */
static size_t kids_of(const sgf_node *p, const sgf_node **k, size_t max) {
  const sgf_node *ch;
  size_t m = 0;
  for (ch = sgf_node_first_child(p); ch != NULL;
       ch = sgf_node_next_sibling(ch)) {
    if (m == max) return SIZE_MAX;
    k[m++] = ch;
  }
  return m;
}

/* The children of p must now be k[0..m) (taken before the edit) without
 * out, with in (if not NULL) put at index at. */
static void kids_now(cz *z, const sgf_node *p, const sgf_node *const *k,
                     size_t m, const sgf_node *out, const sgf_node *in,
                     size_t at, const char *what) {
  const sgf_node *want[CZ_KIDS + 1], *got[CZ_KIDS + 1];
  size_t w = 0, g, i;
  if (m == SIZE_MAX) return;
  for (i = 0; i < m; i++)
    if (k[i] != out) want[w++] = k[i];
  if (in != NULL) {
    if (at > w) {
      cz_fail(z, "%s: index %zu past %zu children", what, at, w);
      return;
    }
    memmove(want + at + 1, want + at, (w - at) * sizeof *want);
    want[at] = in;
    w++;
  }
  g = kids_of(p, got, CZ_KIDS + 1);
  if (g != w || (w && memcmp(got, want, w * sizeof *want) != 0))
    cz_fail(z, "%s: node %zu has %zu children, not the %zu expected in order",
            what, sgf_node_index(p), g, w);
}

/* After an edit of the tree's shape: its structure queries against a
 * walk (small trees; allocation failures off: node ids may allocate). */
static void shape_ok(cz *z, const char *what) {
  size_t fail_at = z->ca->fail_at, dl = 0;
  const char *err = NULL;
  char *dump;
  if (z->failed || sgf_tree_node_count(z->t) > CZ_SNAP_NODES) return;
  z->ca->fail_at = SIZE_MAX;
  dump = fz_tree_dump_opt(z->t, &dl, &err,
                          z->limited ? FZ_DUMP_INDEX_MAY_FAIL : 0u);
  z->ca->fail_at = fail_at;
  if (dump == NULL) cz_fail(z, "%s: tree structure: %s", what, err ? err : "?");
  free(dump);
}

/* The arguments of an edit that removes or moves, and what it should
 * do. */
typedef struct rm {
  unsigned kind; /* 0 delete, 1 delete_prop, 2 delete_value, 3 promote,
                    4 reparent */
  const char *what, *id;
  char ident[80];
  size_t vi, index;
  const sgf_node *np; /* reparent: the new parent */
  int invalid;
  bytebuf want; /* delete_prop, delete_value: the node after the edit */
} rm;

/* delete_prop, delete_value: a property of the node (the first of its
 * name is the one to go), an identifier it may not have, or NULL. */
static void rm_prop_args(cz *z, rm *e, const sgf_node *n) {
  size_t np = sgf_node_prop_count(n), k = next(z) % (np + 2), i, first;
  sgf_prop_view p;
  e->id = e->ident;
  strcpy(e->ident, "ZZ"); /* absent, unless add_value made it */
  if (k == np + 1) {
    e->id = NULL;
    e->invalid = 1;
    return;
  }
  if (k < np) {
    p = sgf_node_prop(n, k);
    if (p.ident_len < sizeof e->ident)
      memcpy(e->ident, p.ident, p.ident_len + 1);
  }
  for (first = 0; first < np; first++)
    if (strcmp(sgf_node_prop(n, first).ident, e->ident) == 0) break;
  p = sgf_node_prop(n, first); /* nothing if first == np */
  e->vi = next(z) % (p.nvalues + 1);
  e->invalid = first == np || (e->kind == 2 && e->vi >= p.nvalues);
  for (i = 0; i < np && !e->invalid; i++) {
    sgf_prop_view q = sgf_node_prop(n, i);
    if (i != first)
      fz_prop_ser(&q, SIZE_MAX, &e->want, FZ_SER_POS);
    else if (e->kind == 2 && q.nvalues > 1) /* the last one takes it along */
      fz_prop_ser(&q, e->vi, &e->want, FZ_SER_POS);
  }
}

static void rm_args(cz *z, rm *e, unsigned f, const snap *s) {
  static const char *const names[5] = {"delete", "delete_prop", "delete_value",
                                       "promote", "reparent"};
  const sgf_node *n = s->node, *parent = sgf_node_parent(n);
  e->kind = f % 5u;
  e->what = names[e->kind];
  switch (e->kind) {
    case 0:
      e->invalid = parent == NULL;
      break;
    case 1:
    case 2:
      rm_prop_args(z, e, n);
      break;
    case 3:
      e->invalid = 0;
      break;
    default: { /* near the node (where the edge cases are), anywhere in
                  the tree, another tree's, a deleted one, none */
      unsigned k = next(z);
      const sgf_node *pp = parent ? sgf_node_parent(parent) : NULL;
      size_t cc;
      if (k >= 253)
        e->np = k == 255   ? NULL
                : k == 254 ? (z->other ? sgf_tree_root(z->other) : NULL)
                           : z->gone;
      else if ((k & 3u) == 0)
        e->np = parent;
      else if ((k & 3u) == 1)
        e->np = pp != NULL ? pp : n;
      else if ((k & 3u) == 2)
        e->np = sgf_node_next_sibling(n) ? sgf_node_next_sibling(n)
                                         : sgf_node_prev_sibling(n);
      else
        e->np = sgf_tree_node_at(z->t, (k >> 2) % s->count);
      cc = e->np != NULL && sgf_node_tree(e->np) == z->t
               ? sgf_node_child_count(e->np)
               : 2;
      e->index = next(z) % (cc + 2); /* the end, and past it */
      e->invalid =
          parent == NULL || e->np == NULL || sgf_node_tree(e->np) != z->t ||
          sgf_node_is_ancestor(n, e->np) || e->index > cc - (parent == e->np);
      break;
    }
  }
}

static void op_remove(cz *z, unsigned f, const snap *s) {
  sgf_cursor *c = z->cur[z->w];
  const sgf_node *n = s->node, *parent = sgf_node_parent(n);
  const sgf_node *kp[CZ_KIDS], *kn[CZ_KIDS];
  size_t sub = sgf_node_subtree_size(n), mp = 0, mn = 0, fb;
  int r, other_in;
  bytebuf below, b;
  rm e;
  memset(&e, 0, sizeof e);
  memset(&below, 0, sizeof below);
  memset(&b, 0, sizeof b);
  rm_args(z, &e, f, s);
  if (parent != NULL) mp = kids_of(parent, kp, CZ_KIDS);
  if (e.np != NULL && sgf_node_tree(e.np) == z->t)
    mn = kids_of(e.np, kn, CZ_KIDS);
  /* promote and reparent take the subtree along as it is */
  if (s->whole_ok) fz_tree_ser(n, &below, 0);
  other_in = s->other_node != NULL && sgf_node_is_ancestor(n, s->other_node);
  fb = z->ca->failures;
  switch (e.kind) {
    case 0:
      r = sgf_cursor_delete(c);
      break;
    case 1:
      r = sgf_cursor_delete_prop(c, e.id);
      break;
    case 2:
      r = sgf_cursor_delete_value(c, e.id, e.vi);
      break;
    case 3:
      r = sgf_cursor_promote(c);
      break;
    default:
      r = sgf_cursor_reparent(c, e.np, e.index);
      break;
  }
  if (r != SGF_OK && r != SGF_EINVAL)
    cz_fail(z, "%s returned %d", e.what, r); /* it allocates nothing */
  if (!status_ok(z, r, e.invalid, z->ca->failures - fb, e.what)) {
    if (!z->failed) snap_same(z, s, 0, e.what);
    goto done;
  }
  if (e.kind != 0 &&
      (sgf_cursor_node(c) != n || sgf_tree_node_count(z->t) != s->count))
    cz_fail(z, "%s moved the cursor or changed the number of nodes", e.what);
  switch (e.kind) {
    case 0:
      if (sgf_cursor_node(c) != parent || sgf_node_tree(n) != NULL ||
          sgf_tree_node_count(z->t) != s->count - sub)
        cz_fail(z,
                "delete: the cursor not on the parent, or not %zu nodes gone",
                sub);
      kids_now(z, parent, kp, mp, n, NULL, 0, "delete");
      z->gone = n; /* its memory stays with the tree */
      z->pending[z->w] = 0;
      if (other_in) { /* tree.h: move it out before using it */
        if (sgf_cursor_rewind(z->cur[!z->w]) != SGF_OK)
          cz_fail(z, "rewind refused");
        z->pending[!z->w] = 0;
      }
      break;
    case 1:
    case 2: { /* the other properties and values, and their positions */
      size_t i;
      for (i = 0; i < sgf_node_prop_count(n); i++) {
        sgf_prop_view q = sgf_node_prop(n, i);
        fz_prop_ser(&q, SIZE_MAX, &b, FZ_SER_POS);
      }
      if (!bytebuf_eq(&b, &e.want))
        cz_fail(z, "%s(%s, %zu): the node reads %s", e.what, e.ident, e.vi,
                show(b.p ? b.p : "", b.len));
      break;
    }
    case 3:
      if (sgf_node_variation_depth(n) != 0)
        cz_fail(z, "promote: the node is not on the main line");
      if (parent != NULL) kids_now(z, parent, kp, mp, n, n, 0, "promote");
      break;
    default:
      if (sgf_node_parent(n) != e.np || sgf_node_child_index(n) != e.index)
        cz_fail(z, "reparent: the node is not child %zu of its new parent",
                e.index);
      kids_now(z, e.np, kn, mn, n, n, e.index, "reparent");
      if (parent != e.np) kids_now(z, parent, kp, mp, n, NULL, 0, "reparent");
      z->pending[z->w] = 0;
      break;
  }
  if (e.kind == 3 || e.kind == 4) {
    b.len = 0;
    if (sgf_node_subtree_size(n) != sub ||
        (s->whole_ok && (fz_tree_ser(n, &b, 0), !bytebuf_eq(&b, &below))))
      cz_fail(z, "%s changed the subtree it moved", e.what);
  }
  if (e.kind != 1 && e.kind != 2) shape_ok(z, e.what);
done:
  bytebuf_free(&e.want);
  bytebuf_free(&below);
  bytebuf_free(&b);
}

static void op_add_value(cz *z, const snap *s) {
  char buf[80], raw[40];
  const char *id;
  int valid, r, bad;
  size_t len, fb, before = 0, i;
  sgf_prop_view p;
  sgf_value_view v;
  id = ident(z, buf, &valid);
  len = raw_bytes(z, raw);
  /* bad: an unescaped ']' or a lone final backslash */
  bad = 0;
  for (i = 0; i < len; i++) {
    if (raw[i] == '\\') {
      if (++i == len) bad = 1;
    } else if (raw[i] == ']') {
      bad = 1;
    }
  }
  if (valid == 1) {
    p = prop_of(s->node, id, NULL);
    before = p.nvalues;
  }
  fb = z->ca->failures;
  r = sgf_cursor_add_value(z->cur[z->w], id, raw, len);
  if (!status_ok(z, r, valid < 0 ? -1 : (!valid || bad), z->ca->failures - fb,
                 "add_value")) {
    if (!z->failed) snap_same(z, s, 0, "add_value");
    return;
  }
  p = prop_of(s->node, id, NULL);
  v = sgf_prop_value(&p, p.nvalues - 1);
  if (p.nvalues == 0 || (valid == 1 && p.nvalues != before + 1) ||
      v.len != len || (len && memcmp(v.raw, raw, len) != 0))
    cz_fail(z, "add_value %s (%zu bytes): not the last value of %zu", id, len,
            p.nvalues);
}

/* The header: each field read back from the root. */
static void op_header(cz *z, const snap *s) {
  sgf_game_header h;
  char texts[6][40];
  static const char *const ids[6] = {"PB", "PW", "DT", "RU", "EV", "AP"};
  const char **fields[6];
  unsigned mask = next(z), i, kb;
  size_t fb;
  int r, open = 0;
  const sgf_node *root = sgf_tree_root(z->t);
  bytebuf got;
  memset(&h, 0, sizeof h);
  memset(&got, 0, sizeof got);
  fields[0] = &h.black;
  fields[1] = &h.white;
  fields[2] = &h.date;
  fields[3] = &h.rules;
  fields[4] = &h.event;
  fields[5] = &h.application;
  h.board_size = next(z) % 64u; /* over 52: not said */
  if (h.board_size > 52) open = 1;
  kb = next(z);
  h.has_komi = (mask & 0x40u) != 0;
  h.komi = (double)((int)kb - 128) / ((kb & 1u) ? 3.0 : 4.0);
  if ((mask & 0xC0u) == 0xC0u && kb >= 250) { /* not finite: not said */
    h.komi = kb == 250 ? NAN : kb == 251 ? INFINITY : 1e15;
    open = 1;
  }
  h.handicap = (mask & 0x80u) ? next(z) % 10u : 0;
  for (i = 0; i < 6; i++) {
    if (mask & (1u << i)) {
      text(z, texts[i]);
      *fields[i] = texts[i];
    }
  }
  fb = z->ca->failures;
  r = sgf_cursor_header(z->cur[z->w], &h);
  if (!status_ok(z, r, open ? -1 : 0, z->ca->failures - fb, "header")) {
    /* some properties may have been written: the rest stays */
    if (!z->failed) snap_same(z, s, r != SGF_EINVAL, "header");
    return;
  }
#define HAS(id, want)                                     \
  do {                                                    \
    sgf_prop_view p_ = prop_of(root, (id), NULL);         \
    if (!text_of(root, (id), &got) || p_.nvalues != 1 ||  \
        got.len != strlen(want) ||                        \
        (got.len && memcmp(got.p, (want), got.len) != 0)) \
      cz_fail(z, "header: %s does not read \"%s\"", (id), \
              show((want), strlen(want)));                \
  } while (0)
  HAS("GM", "1");
  HAS("FF", "4");
  if (h.board_size) {
    char num[16];
    snprintf(num, sizeof num, "%u", h.board_size);
    HAS("SZ", num);
  }
  if (h.handicap) {
    char num[16];
    snprintf(num, sizeof num, "%u", h.handicap);
    HAS("HA", num);
  }
  for (i = 0; i < 6; i++)
    if (*fields[i] != NULL) HAS(ids[i], *fields[i]);
#undef HAS
  if (h.has_komi && !open && !z->failed) {
    /* at most two decimals, no locale, and the value within rounding */
    sgf_prop_view p = prop_of(root, "KM", NULL);
    sgf_value_view v = sgf_prop_value(&p, 0);
    size_t j = 0, dot = 0, dec = 0;
    int okf = p.nvalues == 1 && v.len > 0 && v.len < 30;
    char num[32];
    if (okf) {
      memcpy(num, v.raw, v.len);
      num[v.len] = '\0';
      if (num[0] == '-') j = 1;
      if (num[j] == '\0') okf = 0;
      for (; num[j] != '\0' && okf; j++) {
        if (num[j] == '.' && !dot)
          dot = 1;
        else if (num[j] >= '0' && num[j] <= '9')
          dec += dot;
        else
          okf = 0;
      }
      if (dot && (dec == 0 || dec > 2)) okf = 0;
      if (okf) {
        double d = strtod(num, NULL) - h.komi;
        if (d < 0) d = -d;
        if (d > 0.005 + 1e-9) okf = 0;
      }
    }
    if (!okf)
      cz_fail(z, "header: KM for komi %.6f reads \"%.*s\"", h.komi, (int)v.len,
              v.raw ? v.raw : "");
  }
  if (sgf_cursor_node(z->cur[z->w]) != s->node) cz_fail(z, "header moved");
  bytebuf_free(&got);
}

/* Every documented bad argument: INVALID, and nothing changes. */
static void op_nulls(cz *z, unsigned f, const snap *s) {
  sgf_cursor *c = z->cur[z->w];
  int r;
  const char *what;
  switch (f) {
    case 0:
      what = "add_comment(NULL)";
      r = sgf_cursor_add_comment(c, NULL);
      break;
    case 1:
      what = "set_text(C, NULL)";
      r = sgf_cursor_set_text(c, "C", NULL);
      break;
    case 2:
      what = "set_text(NULL)";
      r = sgf_cursor_set_text(c, NULL, "x");
      break;
    case 3:
      what = "add_label(NULL)";
      r = sgf_cursor_add_label(c, 1, 2, NULL);
      break;
    case 4:
      what = "set_result(NULL)";
      r = sgf_cursor_set_result(c, NULL);
      break;
    case 5:
      what = "header(NULL)";
      r = sgf_cursor_header(c, NULL);
      break;
    case 6:
      what = "add_value(NULL, 1)";
      r = sgf_cursor_add_value(c, "C", NULL, 1);
      break;
    default:
      what = "add_value(\"a]\")";
      r = sgf_cursor_add_value(c, "C", "a]", 2);
      break;
  }
  if (r != SGF_EINVAL)
    cz_fail(z, "%s returned %d", what, r);
  else
    snap_same(z, s, 0, what);
}

static void op_cursor(cz *z, unsigned f) {
  int o = !z->w;
  if (f < 4) {
    if (z->cur[o] == NULL) {
      size_t fb = z->ca->failures;
      z->cur[o] = sgf_cursor_create(z->t);
      z->pending[o] = 0;
      if (z->cur[o] == NULL) {
        if (z->ca->failures == fb) cz_fail(z, "sgf_cursor_create failed");
        return;
      }
      if (sgf_cursor_node(z->cur[o]) != sgf_tree_root(z->t) ||
          sgf_cursor_tree(z->cur[o]) != z->t)
        cz_fail(z, "a new cursor is not at the root of its tree");
    }
    z->w = o;
  } else if (z->cur[o] != NULL) {
    sgf_cursor_destroy(z->cur[o]);
    z->cur[o] = NULL;
  }
}

static void op_subtree(cz *z, unsigned f) {
  sgf_writer_options wo = z->wo;
  size_t fail_at = z->ca->fail_at;
  if (z->subs++ >= CZ_SUB_WRITES) return;
  if (f & 2u)
    wo.layout = wo.layout == SGF_LAYOUT_COMPACT ? SGF_LAYOUT_READABLE
                                                : SGF_LAYOUT_COMPACT;
  z->ca->fail_at = SIZE_MAX; /* node ids may allocate an index */
  write_back(z, sgf_cursor_node(z->cur[z->w]), &wo, 0, f & 1u,
             (f & 1u) ? "subtree as variations" : "subtree");
  z->ca->fail_at = fail_at;
}

static void run_op(cz *z) {
  unsigned b = next(z), op = (b & 31u) % NOPS, f = b >> 5;
  snap s;
  memset(&s, 0, sizeof s);
  if (op == OP_CHECK) {
    if (z->checks++ < CZ_FULL_CHECKS) full_check(z, f & 1u);
    return;
  }
  if (op == OP_CURSOR) {
    op_cursor(z, f);
    return;
  }
  if (op == OP_SUBTREE) {
    op_subtree(z, f);
    return;
  }
  snap_take(z, &s);
  switch (op) {
    case OP_MOVE:
      op_move(z, f, 0, &s);
      break;
    case OP_PASS:
      op_move(z, f & 3u, 1, &s);
      break;
    case OP_NODE:
      op_node(z, f, &s);
      break;
    case OP_START_VAR:
    case OP_BACK:
    case OP_FORWARD:
    case OP_REWIND:
    case OP_GOTO:
      op_go(z, (int)op, &s);
      break;
    case OP_STONE:
    case OP_MARKUP:
      op_point(z, (int)op, f, &s);
      break;
    case OP_COMMENT:
      op_comment(z, &s);
      break;
    case OP_LABEL:
      op_label(z, &s);
      break;
    case OP_SET_TEXT:
    case OP_RESULT:
      op_text(z, (int)op, f, &s);
      break;
    case OP_ADD_VALUE:
      op_add_value(z, &s);
      break;
    case OP_HEADER:
      op_header(z, &s);
      break;
    case OP_REMOVE:
      op_remove(z, f, &s);
      break;
    default:
      op_nulls(z, f, &s);
      break;
  }
  snap_free(&s);
  /* the limits hold after every operation */
  if (!z->failed && (sgf_tree_node_count(z->t) > z->max_nodes ||
                     sgf_tree_byte_count(z->t) > z->max_bytes))
    cz_fail(z,
            "the tree holds %zu nodes and %" PRIu64 " bytes, limits %" PRIu64
            " and %" PRIu64,
            sgf_tree_node_count(z->t), sgf_tree_byte_count(z->t), z->max_nodes,
            z->max_bytes);
}

/* ------------------------------------------------------------------ */
/* fuzz_cursor                                                         */

/* The tree to record into: a new one, or the first game of a parse
 * (lenient) of the program's text with small limits. NULL when memory
 * ran out (checked by the caller). */
static sgf_tree *start_tree(cz *z, const sgf_allocator *a, size_t tlen,
                            unsigned lim) {
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_collection *c;
  sgf_tree *t = NULL;
  const char *src = "(;)";
  size_t len = 3;
  if (tlen == 0 && lim == 0) return sgf_tree_create(a);
  if (tlen > 0) {
    if (tlen > z->n - z->i) tlen = z->n - z->i;
    src = (const char *)z->p + z->i;
    len = tlen;
    z->i += tlen;
  }
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  po.allocator = a;
  if (z->p[0] & 8u) o.flags |= SGF_TREE_POSITIONS; /* kept through edits */
  o.max_nodes = (lim & 15u) ? 4u * (lim & 15u) : 0;
  o.max_tree_bytes = (lim >> 4) ? 1024u * (lim >> 4) : 0;
  c = sgf_collection_parse(src, len, &o, NULL);
  if (c != NULL) {
    t = sgf_collection_count(c) > 0 ? sgf_collection_tree_take(c, 0) : NULL;
    sgf_collection_free(c);
  }
  if (t == NULL) {
    if (z->ca->failures) return NULL;
    return sgf_tree_create(a); /* nothing usable in the text */
  }
  z->limited = o.max_nodes || o.max_tree_bytes;
  z->max_nodes = o.max_nodes ? o.max_nodes : SGF_DEFAULT_MAX_NODES;
  z->max_bytes =
      o.max_tree_bytes ? o.max_tree_bytes : SGF_DEFAULT_MAX_TREE_BYTES;
  return t;
}

const char *fz_check_cursor(const uint8_t *data, size_t size) {
  static const size_t bufs[8] = {0, 256, 257, 300, 512, 1000, 4096, 65536};
  static const size_t widths[16] = {0,  1,  2,  3,  5,   8,   13,   20,
                                    40, 60, 78, 79, 100, 200, 1000, (size_t)-1};
  cz *z;
  countalloc c;
  sgf_allocator a;
  unsigned mode;
  const char *res = NULL;
  long ops = 0;
  if (size < 5) return NULL;
  z = calloc(1, sizeof *z);
  if (z == NULL) abort();
  z->p = data;
  z->n = size;
  z->i = 5;
  z->ca = &c;
  z->max_nodes = SGF_DEFAULT_MAX_NODES;
  z->max_bytes = SGF_DEFAULT_MAX_TREE_BYTES;
  mode = data[0] & 3u;
  countalloc_init(&c, &a, (data[0] >> 2) & 1u);
  if (mode == 1) countalloc_schedule(&c, data[1], 1);
  if (mode == 2) countalloc_schedule(&c, data[1], SIZE_MAX);
  if (mode == 3) {
    countalloc_schedule(&c, data[1], SIZE_MAX);
    c.fail_stride = 2;
  }
  sgf_writer_options_init(&z->wo);
  z->wo.layout = (data[2] & 1u) ? SGF_LAYOUT_READABLE : SGF_LAYOUT_COMPACT;
  z->wo.buffer_size = bufs[(data[2] >> 1) & 7u];
  z->wo.width = widths[data[2] >> 4];

  z->t = start_tree(z, &a, data[3], data[4]);
  if (z->t == NULL) {
    if (c.failures == 0) res = fz_failf("cursor: no tree, no failure");
    goto leaks;
  }
  z->cur[0] = sgf_cursor_create(z->t);
  if (z->cur[0] == NULL) {
    if (c.failures == 0) res = fz_failf("cursor: sgf_cursor_create failed");
    sgf_tree_free(z->t);
    goto leaks;
  }
  if (sgf_cursor_node(z->cur[0]) != sgf_tree_root(z->t) ||
      sgf_cursor_tree(z->cur[0]) != z->t)
    cz_fail(z, "a new cursor is not at the root of its tree");
  while (z->i < z->n && !z->failed && ops < CZ_MAX_OPS) {
    z->op = ops++;
    run_op(z);
  }
  z->op = ops;
  if (!z->failed) {
    c.fail_at = SIZE_MAX; /* the last checks must not fail for memory */
    z->checks = 0;
    full_check(z, 1);
  }
  if (z->failed && getenv("SGF_FUZZ_VERBOSE") != NULL) {
    /* the tree as it is, for debugging: one node a line */
    bytebuf b;
    size_t i;
    memset(&b, 0, sizeof b);
    fz_tree_ser(sgf_tree_root(z->t), &b, 0);
    fprintf(stderr, "fuzz_cursor: the tree (%zu nodes), one node a line:\n",
            sgf_tree_node_count(z->t));
    for (i = 0; i < b.len; i++) {
      unsigned char ch = (unsigned char)b.p[i];
      if (ch == '\n' || (ch >= 0x20 && ch < 0x7f && ch != '\\'))
        fputc(ch, stderr);
      else
        fprintf(stderr, "\\x%02x", ch);
    }
    fputc('\n', stderr);
    bytebuf_free(&b);
  }
  if (z->failed) res = fz_failf("cursor: %s", z->err);
  sgf_cursor_destroy(z->cur[0]);
  sgf_cursor_destroy(z->cur[1]);
  sgf_tree_free(z->t);
leaks:
  sgf_tree_free(z->other);
  if (res == NULL && (c.live != 0 || c.blocks != 0))
    res = fz_failf(
        "cursor: %zu bytes in %zu blocks outstanding after "
        "everything was freed",
        c.live, c.blocks);
  if (res == NULL && c.bad != 0)
    res = fz_failf("cursor: %zu frees with a wrong size or pointer", c.bad);
  free(z);
  return res;
}
