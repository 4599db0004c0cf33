/* harness_tree.c - the checks of fuzz_tree and fuzz_roundtrip (see
 * harness.h): the tree builder against the events it was built from, and
 * parse -> write -> parse.
 *
 * Both compare two serializations of the same thing, made independently:
 *   tree   a "model" written from the events of each game as they pass
 *          (the builder's pass-through handlers), and the tree the builder
 *          delivers, written by walking it. One record per node in
 *          pre-order: its parent's pre-order id and position, then its
 *          properties with their values and positions.
 *   roundtrip  the event stream of the first parse (values merged and
 *          normalized the way the writer documents) and of the parse of
 *          the writer's output.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "harness_priv.h"
#include "testutil.h"

void fz_buf_pos(bytebuf *b, sgf_pos p) {
  bytebuf_addf(b, "@%" PRIu64 ":%" PRIu64 ":%" PRIu64, p.offset, p.line,
               p.column);
}

/* A property as it goes into the serialization. */
static void put_prop_head(bytebuf *b, const char *id, size_t n, const char *raw,
                          size_t rn, sgf_pos pos) {
  bytebuf_adds(b, " P ");
  bytebuf_add(b, id, n);
  bytebuf_adds(b, "/");
  bytebuf_add(b, raw, rn);
  fz_buf_pos(b, pos);
}

static void put_value(bytebuf *b, const char *raw, size_t len, sgf_pos pos) {
  bytebuf_addf(b, " V%zu", len);
  fz_buf_pos(b, pos);
  bytebuf_adds(b, "=");
  bytebuf_add(b, raw, len);
}

/* Describe where two serializations first differ. */
static const char *ser_diff(const char *what, const bytebuf *a,
                            const bytebuf *b) {
  size_t i = 0, n = a->len < b->len ? a->len : b->len, from;
  while (i < n && a->p[i] == b->p[i]) i++;
  from = i > 60 ? i - 60 : 0;
  return fz_failf("%s differ at byte %zu:\n  events: %.*s\n  tree:   %.*s",
                  what, i, (int)(a->len - from > 160 ? 160 : a->len - from),
                  a->p ? a->p + from : "",
                  (int)(b->len - from > 160 ? 160 : b->len - from),
                  b->p ? b->p + from : "");
}

/* ------------------------------------------------------------------ */
/* Walking a tree                                                      */

/* Serialize t in pre-order and check every structure query against a
 * walk by first-child / next-sibling / parent links. NULL if all holds. */
static int walk_index_may_fail; /* fz_tree_dump_opt's FZ_DUMP_INDEX_MAY_FAIL */

static const char *walk_tree(const sgf_tree *t, bytebuf *out,
                             uint64_t max_nodes) {
  const sgf_node *root = sgf_tree_root(t), *n = root;
  size_t count = sgf_tree_node_count(t), i = 0, mainline = 0;
  sgf_node_iter it;
  if (root == NULL) return fz_failf("tree without a root");
  if (count == 0 || count > max_nodes)
    return fz_failf("tree of %zu nodes, limit %" PRIu64, count, max_nodes);
  sgf_node_iter_preorder_init(&it, root);
  while (n != NULL) {
    const sgf_node *parent = sgf_node_parent(n), *ch, *last = NULL;
    size_t k = sgf_node_child_count(n), seen = 0, sub = 1, np, j;
    size_t level = sgf_node_tree_depth(n), depth = sgf_node_variation_depth(n);
    sgf_color mv = sgf_node_move(n, NULL);
    if (sgf_node_iter_next(&it) != n)
      return fz_failf("pre-order iterator differs at node %zu", i);
    if (sgf_node_index(n) != i)
      return fz_failf("node %zu has id %zu", i, sgf_node_index(n));
    if (sgf_tree_node_at(t, i) != n &&
        !(walk_index_may_fail && sgf_tree_node_at(t, i) == NULL))
      return fz_failf("sgf_tree_node_at(%zu) is not node %zu", i, i);
    if (sgf_node_tree(n) != t || sgf_node_root(n) != root)
      return fz_failf("node %zu: wrong tree or root", i);
    if (sgf_node_is_initial(n) != (i == 0) ||
        sgf_node_is_terminal(n) != (k == 0))
      return fz_failf("node %zu: initial/terminal wrong", i);
    if (sgf_node_is_mainline(n) != (depth == 0) ||
        sgf_node_is_variation(n) != (depth != 0))
      return fz_failf("node %zu: mainline/variation wrong", i);
    if (depth == 0) mainline++;
    if (parent == NULL) {
      if (i != 0) return fz_failf("node %zu has no parent", i);
      if (level != 0 || depth != 0 || sgf_node_child_index(n) != 0 ||
          sgf_node_ply(n) != (mv != SGF_COLOR_NONE ? 1u : 0u))
        return fz_failf("root: level/depth/index/ply wrong");
    } else {
      size_t ci = sgf_node_child_index(n);
      size_t pk = sgf_node_child_count(parent);
      if (i == 0 || sgf_node_index(parent) >= i)
        return fz_failf("node %zu: parent id %zu", i, sgf_node_index(parent));
      if (level != sgf_node_tree_depth(parent) + 1)
        return fz_failf("node %zu: level %zu under %zu", i, level,
                        sgf_node_tree_depth(parent));
      if (depth != sgf_node_variation_depth(parent) + (ci != 0))
        return fz_failf("node %zu: variation depth %zu", i, depth);
      if (sgf_node_ply(n) !=
          sgf_node_ply(parent) + (mv != SGF_COLOR_NONE ? 1u : 0u))
        return fz_failf("node %zu: ply %zu", i, sgf_node_ply(n));
      if ((ci < 8 || ci + 8 > pk) && sgf_node_child(parent, ci) != n)
        return fz_failf("node %zu: not child %zu of its parent", i, ci);
      if (!sgf_node_is_ancestor(parent, n) ||
          !sgf_node_is_descendant(n, parent) || sgf_node_is_ancestor(n, parent))
        return fz_failf("node %zu: ancestry wrong", i);
      if ((i & 63) == 1 &&
          (sgf_node_lca(n, parent) != parent ||
           sgf_node_distance(n, parent) != (mv != SGF_COLOR_NONE ? 1u : 0u)))
        return fz_failf("node %zu: lca/distance to its parent wrong", i);
    }
    for (ch = sgf_node_first_child(n); ch != NULL;
         ch = sgf_node_next_sibling(ch)) {
      if (sgf_node_parent(ch) != n || sgf_node_prev_sibling(ch) != last ||
          sgf_node_child_index(ch) != seen)
        return fz_failf("node %zu: child %zu linked wrong", i, seen);
      sub += sgf_node_subtree_size(ch);
      last = ch;
      if (++seen > count) return fz_failf("node %zu: children loop", i);
    }
    if (seen != k || sgf_node_last_child(n) != last ||
        sgf_node_child(n, k) != NULL)
      return fz_failf("node %zu: %zu children, count says %zu", i, seen, k);
    if (sgf_node_subtree_size(n) != sub)
      return fz_failf("node %zu: subtree size %zu, children say %zu", i,
                      sgf_node_subtree_size(n), sub);
    /* the serialization */
    bytebuf_addf(out, "\nN%zu^%zu", i,
                 parent ? sgf_node_index(parent) : (size_t)-1);
    fz_buf_pos(out, sgf_node_pos(n));
    np = sgf_node_prop_count(n);
    for (j = 0; j < np; j++) {
      sgf_prop_view pr = sgf_node_prop(n, j), first;
      size_t v;
      if (pr.nvalues == 0 || pr.ident == NULL ||
          strlen(pr.ident) != pr.ident_len)
        return fz_failf("node %zu: property %zu malformed", i, j);
      /* find gives the first property of that name: this one or one
         before it in file order */
      first = sgf_node_find_prop(n, pr.ident);
      if (first.nvalues == 0 || strcmp(first.ident, pr.ident) != 0 ||
          first.pos.offset > pr.pos.offset)
        return fz_failf("node %zu: find %s misses property %zu", i, pr.ident,
                        j);
      put_prop_head(out, pr.ident, pr.ident_len, pr.raw_ident, pr.raw_ident_len,
                    pr.pos);
      for (v = 0; v < pr.nvalues; v++) {
        sgf_value_view val = sgf_prop_value(&pr, v);
        if (val.raw == NULL || val.raw[val.len] != 0)
          return fz_failf("node %zu: value %zu of %s malformed", i, v,
                          pr.ident);
        put_value(out, val.raw, val.len, val.pos);
      }
      if (sgf_prop_value(&pr, pr.nvalues).raw != NULL)
        return fz_failf("node %zu: value past the end", i);
    }
    if (sgf_node_prop(n, np).nvalues != 0)
      return fz_failf("node %zu: property past the end", i);
    /* next in pre-order, by the links */
    if (sgf_node_first_child(n) != NULL) {
      n = sgf_node_first_child(n);
    } else {
      while (n != NULL && sgf_node_next_sibling(n) == NULL)
        n = sgf_node_parent(n);
      if (n != NULL) n = sgf_node_next_sibling(n);
    }
    if (++i > count) return fz_failf("more nodes than the count %zu", count);
  }
  if (sgf_node_iter_next(&it) != NULL)
    return fz_failf("pre-order iterator goes on after the last node");
  if (i != count) return fz_failf("%zu nodes walked, count %zu", i, count);
  {
    size_t m = 0;
    sgf_node_iter_mainline_init(&it, root);
    while (sgf_node_iter_next(&it) != NULL) m++;
    if (m != mainline)
      return fz_failf("main line iterator: %zu nodes, %zu of depth 0", m,
                      mainline);
  }
  return NULL;
}

char *fz_tree_dump(const sgf_tree *t, size_t *len, const char **err) {
  return fz_tree_dump_opt(t, len, err, 0);
}

char *fz_tree_dump_opt(const sgf_tree *t, size_t *len, const char **err,
                       unsigned flags) {
  bytebuf b;
  const char *msg;
  memset(&b, 0, sizeof b);
  walk_index_may_fail = (flags & FZ_DUMP_INDEX_MAY_FAIL) != 0;
  msg = walk_tree(t, &b, (uint64_t)-1);
  walk_index_may_fail = 0;
  *len = 0;
  if (err != NULL) *err = msg;
  if (msg != NULL) {
    bytebuf_free(&b);
    return NULL;
  }
  bytebuf_add(&b, "", 1); /* never NULL, NUL-terminated */
  *len = b.len - 1;
  return b.p;
}

/* ------------------------------------------------------------------ */
/* Position-free serializations (harness_priv.h)                       */

static void put_num(bytebuf *b, const char *tag, size_t v) {
  char tmp[40];
  int k = snprintf(tmp, sizeof tmp, "%s%zu", tag, v);
  if (k > 0) bytebuf_add(b, tmp, (size_t)k);
}

/* One property as fz_node_ser writes it, value number skip (SIZE_MAX:
 * none) left out; how: FZ_SER_NORM, FZ_SER_POS (harness_priv.h). */
void fz_prop_ser(const sgf_prop_view *p, size_t skip, bytebuf *b,
                 unsigned how) {
  size_t j;
  if (p->nvalues == 0) {
    bytebuf_add(b, " P?", 3);
    return;
  }
  bytebuf_add(b, " P", 2);
  bytebuf_add(b, p->ident, p->ident_len);
  if (how & FZ_SER_POS) fz_buf_pos(b, p->pos);
  for (j = 0; j < p->nvalues; j++) {
    sgf_value_view v = sgf_prop_value(p, j);
    size_t start;
    if (j == skip) continue;
    bytebuf_add(b, "[", 1);
    start = b->len;
    bytebuf_add(b, v.raw, v.len);
    if (how & FZ_SER_NORM) fz_raw_normalize(b, start);
    put_num(b, "]", b->len - start);
    if (how & FZ_SER_POS) fz_buf_pos(b, v.pos);
  }
}

/* One node's properties, values normalized as the writer documents
 * (norm) or raw. */
void fz_node_ser(const sgf_node *n, bytebuf *b, int norm) {
  size_t i, np = sgf_node_prop_count(n);
  for (i = 0; i < np; i++) {
    sgf_prop_view p = sgf_node_prop(n, i);
    fz_prop_ser(&p, SIZE_MAX, b, norm ? FZ_SER_NORM : 0u);
  }
}

/* The subtree at top in pre-order: each node's level below top (counted
 * here, by the links) and its properties. */
size_t fz_tree_ser(const sgf_node *top, bytebuf *b, int norm) {
  const sgf_node *n = top;
  size_t level = 0, count = 0;
  while (n != NULL) {
    put_num(b, "\nL", level);
    fz_node_ser(n, b, norm);
    count++;
    if (sgf_node_first_child(n) != NULL) {
      n = sgf_node_first_child(n);
      level++;
      continue;
    }
    while (n != top && sgf_node_next_sibling(n) == NULL) {
      n = sgf_node_parent(n);
      level--;
    }
    n = n == top ? NULL : sgf_node_next_sibling(n);
  }
  return count;
}

/* ------------------------------------------------------------------ */
/* fuzz_tree                                                           */

typedef struct game {
  bytebuf ser; /* the model's serialization */
  sgf_tree *kept;
  int collected;
} game;

typedef struct tctx {
  sgf_tree_builder *b;
  uint64_t max_nodes, max_bytes;
  int keep_some;
  /* the model of the game being read */
  bytebuf model, prop;
  size_t *stack; /* the last node id of each open game tree */
  size_t sp, stack_cap;
  size_t nodes;
  size_t cur; /* id of the node new nodes hang from; SIZE_MAX: none */
  int in_prop, in_value;
  bytebuf vbytes;
  sgf_pos vpos;
  size_t nvals;
  int nopos; /* the builder keeps no positions: the model has zeros */
  const countalloc *ca; /* the parse's allocator */
  size_t excused;       /* allocation failures of the checks in on_game
                           (sgf_tree_node_at's index), not the parse's */
  /* diagnostics */
  unsigned flags;
  int stopped;
  sgf_diag stop;
  /* delivered games */
  game *games;
  size_t ngames, gcap;
  int failed;
  char err[700];
} tctx;

static void t_fail(tctx *t, const char *msg) {
  if (t->failed) return;
  t->failed = 1;
  snprintf(t->err, sizeof t->err, "%s", msg);
}

/* The position of the current event as the tree should have it. */
static sgf_pos t_pos(const tctx *t, sgf_parser *p) {
  static const sgf_pos none;
  return t->nopos ? none : sgf_parser_position(p);
}

static int t_tree_begin(sgf_parser *p, void *u) {
  tctx *t = u;
  if (sgf_parser_depth(p) == 1) { /* a new game */
    t->model.len = 0;
    t->sp = 0;
    t->nodes = 0;
    t->cur = SIZE_MAX;
  }
  if (t->sp == t->stack_cap) {
    size_t cap = t->stack_cap ? 2 * t->stack_cap : 64;
    size_t *q = realloc(t->stack, cap * sizeof *q);
    if (q == NULL) abort();
    t->stack = q;
    t->stack_cap = cap;
  }
  t->stack[t->sp++] = t->cur;
  t->in_prop = t->in_value = 0;
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_tree_end(sgf_parser *p, void *u) {
  tctx *t = u;
  (void)p;
  if (t->sp > 0) t->cur = t->stack[--t->sp];
  t->in_prop = t->in_value = 0;
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_node(sgf_parser *p, void *u) {
  tctx *t = u;
  bytebuf_addf(&t->model, "\nN%zu^%zu", t->nodes, t->cur);
  fz_buf_pos(&t->model, t_pos(t, p));
  t->cur = t->nodes++;
  t->in_prop = t->in_value = 0;
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_property(sgf_parser *p, void *u, const char *id, size_t n) {
  tctx *t = u;
  size_t rn = 0;
  const char *raw = sgf_parser_raw_ident(p, &rn);
  t->prop.len = 0;
  put_prop_head(&t->prop, id, n, raw, rn, t_pos(t, p));
  t->in_prop = 1;
  t->in_value = 0;
  t->nvals = 0;
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_value_begin(sgf_parser *p, void *u) {
  tctx *t = u;
  t->vbytes.len = 0;
  t->vpos = t_pos(t, p);
  t->in_value = 1;
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  tctx *t = u;
  (void)p;
  if (t->in_value) bytebuf_add(&t->vbytes, at, n);
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_value_end(sgf_parser *p, void *u) {
  tctx *t = u;
  (void)p;
  if (t->in_prop && t->in_value) {
    put_value(&t->prop, t->vbytes.p, t->vbytes.len, t->vpos);
    t->nvals++;
  }
  t->in_value = 0;
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_property_end(sgf_parser *p, void *u) {
  tctx *t = u;
  (void)p;
  if (t->in_prop && t->nvals > 0)
    bytebuf_add(&t->model, t->prop.p, t->prop.len);
  t->in_prop = 0;
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_on_game(sgf_tree_builder *b, void *u, sgf_tree *tree) {
  tctx *t = u;
  bytebuf ser;
  const char *msg;
  game *g;
  size_t failures = t->ca->failures;
  memset(&ser, 0, sizeof ser);
  msg = walk_tree(tree, &ser, t->max_nodes);
  t->excused += t->ca->failures - failures;
  if (msg == NULL && sgf_tree_byte_count(tree) > t->max_bytes)
    msg = fz_failf("tree of %" PRIu64 " bytes, limit %" PRIu64,
                   sgf_tree_byte_count(tree), t->max_bytes);
  if (msg == NULL && !bytebuf_eq(&ser, &t->model))
    msg = ser_diff("game tree and events", &t->model, &ser);
  if (msg != NULL) {
    char copy[640];
    snprintf(copy, sizeof copy, "game %zu: %s", t->ngames, msg);
    t_fail(t, copy);
  }
  if (t->ngames == t->gcap) {
    size_t cap = t->gcap ? 2 * t->gcap : 16;
    game *q = realloc(t->games, cap * sizeof *q);
    if (q == NULL) abort();
    t->games = q;
    t->gcap = cap;
  }
  g = &t->games[t->ngames++];
  g->ser = ser;
  g->kept = NULL;
  g->collected = 0;
  if (t->keep_some && (t->ngames & 1)) {
    g->kept = sgf_tree_builder_keep(b);
    if (g->kept != tree) t_fail(t, "sgf_tree_builder_keep() failed");
    if (sgf_tree_builder_keep(b) != NULL)
      t_fail(t, "sgf_tree_builder_keep() twice");
  }
  return t->failed ? SGF_ABORT : SGF_CONTINUE;
}

static int t_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  tctx *t = u;
  (void)p;
  if (t->stopped) t_fail(t, "a diagnostic after a stop");
  if (d->severity == SGF_SEV_FATAL ||
      (d->severity == SGF_SEV_ERROR && (t->flags & SGF_OPT_STRICT))) {
    t->stopped = 1;
    t->stop = *d;
  }
  return SGF_CONTINUE;
}

const char *fz_check_tree(const uint8_t *data, size_t size) {
  static const size_t vmax[4] = {0, 64, 1024, 65536};
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_tree_builder_callbacks cb;
  sgf_callbacks ev;
  countalloc c;
  sgf_allocator a;
  tctx t;
  sgf_parser *p;
  const unsigned char *in;
  size_t len, chunk, pos = 0, i, failed_before;
  unsigned mode;
  int st = SGF_OK;
  sgf_collection *coll = NULL;
  if (size < 6) return NULL;
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  fz_decode_options(data[0], &po);
  o.flags = data[1] & 3u;
  mode = (data[1] >> 3) & 3u;
  countalloc_init(&c, &a, (data[1] >> 5) & 1);
  po.allocator = &a;
  o.max_value_bytes = vmax[data[1] >> 6];
  o.max_nodes = data[3];
  o.max_tree_bytes = (uint64_t)data[4] * 256;
  chunk = data[5];
  in = data + 6;
  len = size - 6;
  if (mode == 1) countalloc_schedule(&c, data[2], 1);
  if (mode == 2) countalloc_schedule(&c, data[2], SIZE_MAX);
  if (mode == 3) {
    countalloc_schedule(&c, data[2], SIZE_MAX);
    c.fail_stride = 2;
  }
  memset(&t, 0, sizeof t);
  t.max_nodes = o.max_nodes ? o.max_nodes : SGF_DEFAULT_MAX_NODES;
  t.max_bytes =
      o.max_tree_bytes ? o.max_tree_bytes : SGF_DEFAULT_MAX_TREE_BYTES;
  t.keep_some = (data[1] >> 2) & 1;
  t.ca = &c;
  /* positions: kept unless data[2] (the failure schedule in the other
   * modes) says not */
  t.nopos = mode == 0 && (data[2] & 0x80);
  if (!t.nopos) o.flags |= SGF_TREE_POSITIONS;
  t.cur = SIZE_MAX;
  t.flags = po.flags;
  sgf_callbacks_init(&ev);
  ev.on_tree_begin = t_tree_begin;
  ev.on_tree_end = t_tree_end;
  ev.on_node = t_node;
  ev.on_property = t_property;
  ev.on_value_begin = t_value_begin;
  ev.on_value_data = t_value_data;
  ev.on_value_end = t_value_end;
  ev.on_property_end = t_property_end;
  sgf_tree_builder_callbacks_init(&cb);
  cb.on_game = t_on_game;
  cb.on_diagnostic = t_diag;
  cb.events = &ev;
  t.b = sgf_tree_builder_create(&cb, &t, &o);
  if (t.b == NULL) {
    if (c.failures == 0) return fz_failf("sgf_tree_builder_create failed");
    if (c.live != 0 || c.blocks != 0 || c.bad != 0)
      return fz_failf("failed sgf_tree_builder_create leaks %zu bytes", c.live);
    return NULL;
  }
  failed_before = c.failures;
  p = sgf_tree_builder_parser(t.b);
  while (pos < len && st == SGF_OK && !t.failed) {
    size_t n = len - pos, used = 0;
    if (chunk && chunk < n) n = chunk;
    st = sgf_parser_feed(p, (const char *)in + pos, n, &used);
    pos += used;
    if (st == SGF_PAUSED) {
      sgf_parser_resume(p);
      st = SGF_OK;
    }
  }
  if (st == SGF_OK && !t.failed)
    while ((st = sgf_parser_finish(p)) == SGF_PAUSED) sgf_parser_resume(p);
  if (!t.failed) {
    const sgf_diag *e = sgf_parser_error(p);
    if (st == SGF_OK && c.failures - t.excused > failed_before)
      t_fail(&t, "an allocation failed but the parse ended OK");
    if (st == SGF_EPARSE && (e == NULL || !t.stopped || e->code != t.stop.code))
      t_fail(&t, "SGF_EPARSE without its diagnostic");
    if (st == SGF_EPARSE && e != NULL && e->code == SGF_DIAG_NOMEM &&
        c.failures - t.excused == failed_before)
      t_fail(&t, "out-of-memory with no allocation failed");
    if (st != SGF_OK && st != SGF_EPARSE) t_fail(&t, "the parse aborted");
  }
  /* The trees that outlived their on_game: still intact? */
  if ((o.flags & SGF_TREE_COLLECT) && !t.failed) {
    coll = sgf_tree_builder_collection_take(t.b);
    if (coll == NULL && c.failures == 0)
      t_fail(&t, "sgf_tree_builder_collection_take failed");
  }
  if (coll != NULL && !t.failed) {
    size_t k = 0;
    for (i = 0; i < t.ngames && !t.failed; i++) {
      sgf_tree *tr;
      bytebuf ser;
      const char *msg;
      if (t.games[i].kept) continue;
      tr = sgf_collection_tree(coll, k++);
      if (tr == NULL) {
        t_fail(&t, "a game missing from the collection");
        break;
      }
      memset(&ser, 0, sizeof ser);
      msg = walk_tree(tr, &ser, t.max_nodes);
      if (msg == NULL && !bytebuf_eq(&ser, &t.games[i].ser))
        msg = "a collected tree changed after delivery";
      if (msg != NULL) t_fail(&t, msg);
      bytebuf_free(&ser);
    }
    if (!t.failed && sgf_collection_count(coll) != k && st == SGF_OK)
      t_fail(&t, "the collection holds more games than were delivered");
  }
  for (i = 0; i < t.ngames; i++) {
    if (t.games[i].kept != NULL && !t.failed) {
      bytebuf ser;
      const char *msg;
      memset(&ser, 0, sizeof ser);
      msg = walk_tree(t.games[i].kept, &ser, t.max_nodes);
      if (msg == NULL && !bytebuf_eq(&ser, &t.games[i].ser))
        msg = "a kept tree changed after delivery";
      if (msg != NULL) t_fail(&t, msg);
      bytebuf_free(&ser);
    }
    sgf_tree_free(t.games[i].kept);
    bytebuf_free(&t.games[i].ser);
  }
  sgf_collection_free(coll);
  sgf_tree_builder_destroy(t.b);
  free(t.games);
  free(t.stack);
  bytebuf_free(&t.model);
  bytebuf_free(&t.prop);
  bytebuf_free(&t.vbytes);
  if (!t.failed && (c.live != 0 || c.blocks != 0))
    t_fail(&t, "memory outstanding after everything was freed");
  if (!t.failed && c.bad != 0)
    t_fail(&t, "a free or realloc with a wrong size");
  if (t.failed) return fz_failf("tree: %s", t.err);
  return NULL;
}

/* ------------------------------------------------------------------ */
/* fuzz_roundtrip                                                      */

typedef struct rt {
  bytebuf ev;    /* the event stream, values merged and normalized */
  size_t vstart; /* where the open value's bytes begin in ev */
  int in_value;
  long diags;
  sgf_diag first;
  sgf_writer *w; /* the events are copied here (or NULL) */
  int wfail;
  /* variations per open game tree: a tree with exactly one is a
   * variation that is its parent's only child, which the tree writer
   * does not keep apart (writer.h) */
  size_t *kids;
  size_t kdepth, kcap;
  int lone;
} rt;

static void rt_free(rt *r) {
  bytebuf_free(&r->ev);
  free(r->kids);
  r->kids = NULL;
  r->kdepth = r->kcap = 0;
}

/* The writer's documented normalization of raw bytes
 * (tu_writer_normalize, test/support/testutil.c), of b from start on. */
void fz_raw_normalize(bytebuf *b, size_t start) {
  size_t n = b->len - start;
  char *v = malloc(n ? n : 1), *o = malloc(2 * n + 1);
  if (v == NULL || o == NULL) abort();
  memcpy(v, b->p + start, n);
  b->len = start;
  bytebuf_add(b, o, tu_writer_normalize(v, n, o));
  free(v);
  free(o);
}

#define RT_W(call)                     \
  do {                                 \
    if (r->w != NULL && (call) != 0) { \
      r->wfail = 1;                    \
      return SGF_ABORT;                \
    }                                  \
  } while (0)

static int rt_tb(sgf_parser *p, void *u) {
  rt *r = u;
  (void)p;
  bytebuf_add(&r->ev, "(", 1);
  if (r->kdepth > 0) r->kids[r->kdepth - 1]++;
  if (r->kdepth == r->kcap) {
    size_t cap = r->kcap ? 2 * r->kcap : 64;
    size_t *q = realloc(r->kids, cap * sizeof *q);
    if (q == NULL) abort();
    r->kids = q;
    r->kcap = cap;
  }
  r->kids[r->kdepth++] = 0;
  RT_W(sgf_writer_tree_begin(r->w));
  return SGF_CONTINUE;
}

static int rt_te(sgf_parser *p, void *u) {
  rt *r = u;
  (void)p;
  bytebuf_add(&r->ev, ")", 1);
  if (r->kdepth > 0 && r->kids[--r->kdepth] == 1) r->lone = 1;
  RT_W(sgf_writer_tree_end(r->w));
  return SGF_CONTINUE;
}

static int rt_node(sgf_parser *p, void *u) {
  rt *r = u;
  (void)p;
  bytebuf_add(&r->ev, ";", 1);
  RT_W(sgf_writer_node(r->w));
  return SGF_CONTINUE;
}

static int rt_prop(sgf_parser *p, void *u, const char *id, size_t n) {
  rt *r = u;
  (void)p;
  bytebuf_add(&r->ev, " P", 2);
  bytebuf_add(&r->ev, id, n);
  RT_W(sgf_writer_property(r->w, id, n));
  return SGF_CONTINUE;
}

static int rt_vb(sgf_parser *p, void *u) {
  rt *r = u;
  (void)p;
  bytebuf_add(&r->ev, "[", 1);
  r->vstart = r->ev.len;
  r->in_value = 1;
  RT_W(sgf_writer_value_begin(r->w));
  return SGF_CONTINUE;
}

static int rt_vd(sgf_parser *p, void *u, const char *at, size_t n) {
  rt *r = u;
  (void)p;
  bytebuf_add(&r->ev, at, n);
  RT_W(sgf_writer_value_data(r->w, at, n));
  return SGF_CONTINUE;
}

static int rt_ve(sgf_parser *p, void *u) {
  rt *r = u;
  (void)p;
  fz_raw_normalize(&r->ev, r->vstart);
  /* the length keeps values apart whatever their bytes */
  {
    char tmp[32];
    int k = snprintf(tmp, sizeof tmp, "]%zu", r->ev.len - r->vstart);
    bytebuf_add(&r->ev, tmp, (size_t)k);
  }
  r->in_value = 0;
  RT_W(sgf_writer_value_end(r->w));
  return SGF_CONTINUE;
}

static int rt_pe(sgf_parser *p, void *u) {
  rt *r = u;
  (void)p;
  bytebuf_add(&r->ev, "|", 1);
  RT_W(sgf_writer_property_end(r->w));
  return SGF_CONTINUE;
}

static int rt_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  rt *r = u;
  (void)p;
  if (r->diags++ == 0) r->first = *d;
  return SGF_CONTINUE;
}

static int rt_sink_limit;
static int rt_sink(void *ctx, const char *b, size_t n) {
  size_t take = n;
  if (rt_sink_limit > 0 && take > (size_t)rt_sink_limit)
    take = (size_t)rt_sink_limit;
  bytebuf_add(ctx, b, take);
  return (int)take;
}

/* Parse in with the recorder, copying to w (may be NULL). */
static int rt_parse(rt *r, const unsigned char *in, size_t len,
                    const sgf_options *opt, size_t chunk) {
  static const sgf_callbacks cb = {sizeof(sgf_callbacks),
                                   rt_tb,
                                   rt_te,
                                   rt_node,
                                   rt_prop,
                                   rt_vb,
                                   rt_vd,
                                   rt_ve,
                                   rt_pe,
                                   rt_diag,
                                   NULL,
                                   NULL,
                                   NULL};
  sgf_parser *p = sgf_parser_create(&cb, r, opt);
  int st = SGF_OK;
  size_t pos = 0;
  if (p == NULL) return SGF_EABORTED;
  while (pos < len && st == SGF_OK) {
    size_t n = len - pos;
    if (chunk && chunk < n) n = chunk;
    st = sgf_parser_feed(p, (const char *)in + pos, n, NULL);
    pos += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  sgf_parser_destroy(p);
  return st;
}

/* The tree writer, step 4 of fuzz_roundtrip. A tree builder (collecting)
 * parses the input as the first parse did; each game is written with
 * sgf_writer_write_tree() as it is delivered (to outa, the options of
 * the streaming writer, no allocation after creation), and the collection
 * at the end with sgf_writer_write_collection() (to outb, the other
 * layout). */
typedef struct twc {
  sgf_writer *w;
  int wfail;
} twc;

static int tw_on_game(sgf_tree_builder *b, void *u, sgf_tree *t) {
  twc *x = u;
  (void)b;
  if (sgf_writer_write_tree(x->w, t) != 0) {
    x->wfail = 1;
    return SGF_ABORT;
  }
  return SGF_CONTINUE;
}

static const char *tw_build(const unsigned char *in, size_t len,
                            const sgf_options *opt, size_t chunk,
                            const sgf_writer_options *woa,
                            const sgf_writer_options *wob, bytebuf *outa,
                            bytebuf *outb) {
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_tree_builder_callbacks cb;
  sgf_tree_builder *b;
  sgf_collection *coll;
  sgf_writer_options wa = *woa;
  sgf_writer *wb;
  sgf_parser *p;
  countalloc c;
  sgf_allocator a;
  twc x;
  int st = SGF_OK;
  size_t pos = 0;
  const char *res = NULL;
  countalloc_init(&c, &a, 1);
  wa.allocator = &a;
  memset(&x, 0, sizeof x);
  x.w = sgf_writer_create(rt_sink, outa, &wa);
  if (x.w == NULL) abort();
  countalloc_schedule(&c, 0, SIZE_MAX); /* no allocation from now on */
  sgf_tree_builder_options_init(&o);
  po = *opt;
  o.parser = &po;
  po.allocator = NULL;
  o.flags = SGF_TREE_COLLECT;
  sgf_tree_builder_callbacks_init(&cb);
  cb.on_game = tw_on_game;
  b = sgf_tree_builder_create(&cb, &x, &o);
  if (b == NULL) abort();
  p = sgf_tree_builder_parser(b);
  while (pos < len && st == SGF_OK) {
    size_t n = len - pos;
    if (chunk && chunk < n) n = chunk;
    st = sgf_parser_feed(p, (const char *)in + pos, n, NULL);
    pos += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  if (sgf_writer_finish(x.w) != 0 || x.wfail)
    res = fz_failf("roundtrip: sgf_writer_write_tree failed: %s",
                   sgf_strerror(sgf_writer_status(x.w)));
  else if (c.calls != 0)
    res = fz_failf("roundtrip: the tree writer allocated");
  else if (st != SGF_OK)
    res = fz_failf(
        "roundtrip: the tree builder's parse ended with status "
        "%d, the plain parse's with OK",
        (int)st);
  sgf_writer_destroy(x.w);
  if (res == NULL && (c.live != 0 || c.bad != 0))
    res = fz_failf("roundtrip: tree writer memory outstanding");
  if (res == NULL) {
    coll = sgf_tree_builder_collection_take(b);
    if (coll == NULL) abort();
    wb = sgf_writer_create(rt_sink, outb, wob);
    if (wb == NULL) abort();
    if (sgf_writer_write_collection(wb, coll) != 0 ||
        sgf_writer_finish(wb) != 0)
      res = fz_failf("roundtrip: sgf_writer_write_collection failed: %s",
                     sgf_strerror(sgf_writer_status(wb)));
    sgf_writer_destroy(wb);
    sgf_collection_free(coll);
  }
  sgf_tree_builder_destroy(b);
  return res;
}

/* Strictly, into a collection; NULL for empty output. *err set (and NULL
 * returned) when it does not parse cleanly. */
static sgf_collection *tw_parse(const bytebuf *out, const char *what,
                                const char **err) {
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_collection *c;
  sgf_diag d;
  if (out->len == 0) return NULL;
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  po.flags = SGF_OPT_STRICT;
  memset(&d, 0, sizeof d);
  c = sgf_collection_parse(out->p, out->len, &o, &d);
  if (c == NULL)
    *err = fz_failf(
        "roundtrip: %s does not parse strictly: %s at offset "
        "%" PRIu64 " of %zu",
        what, sgf_diag_name(d.code), d.pos.offset, out->len);
  return c;
}

/* The game trees written in a and b are the same, node for node. */
static const char *tw_same_trees(const bytebuf *a, const char *an,
                                 const bytebuf *b, const char *bn) {
  const char *err = NULL;
  sgf_collection *ca = tw_parse(a, an, &err), *cb = NULL;
  size_t i, na = ca ? sgf_collection_count(ca) : 0, nb;
  if (err == NULL) cb = tw_parse(b, bn, &err);
  nb = cb ? sgf_collection_count(cb) : 0;
  if (err == NULL && na != nb)
    err =
        fz_failf("roundtrip: %s holds %zu game trees, %s %zu", an, na, bn, nb);
  for (i = 0; err == NULL && i < na; i++) {
    bytebuf sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    fz_tree_ser(sgf_tree_root(sgf_collection_tree(ca, i)), &sa, 1);
    fz_tree_ser(sgf_tree_root(sgf_collection_tree(cb, i)), &sb, 1);
    if (!bytebuf_eq(&sa, &sb)) {
      char what[160];
      snprintf(what, sizeof what, "roundtrip: game %zu of %s and of %s", i, an,
               bn);
      err = ser_diff(what, &sa, &sb);
    }
    bytebuf_free(&sa);
    bytebuf_free(&sb);
  }
  sgf_collection_free(ca);
  sgf_collection_free(cb);
  return err;
}

static const char *tree_writer_check(const uint8_t *in, size_t len,
                                     const sgf_options *o1, size_t chunk,
                                     const sgf_writer_options *wo, const rt *r1,
                                     const bytebuf *out1) {
  sgf_writer_options wob = *wo, wa = *wo;
  bytebuf outa, outb, outs, outc;
  rt r4, r5;
  sgf_writer *w;
  sgf_collection *ca;
  const char *res;
  memset(&outa, 0, sizeof outa);
  memset(&outb, 0, sizeof outb);
  memset(&outs, 0, sizeof outs);
  memset(&outc, 0, sizeof outc);
  memset(&r4, 0, sizeof r4);
  memset(&r5, 0, sizeof r5);
  wa.allocator = NULL;
  wob.allocator = NULL;
  wob.layout = wo->layout == SGF_LAYOUT_COMPACT ? SGF_LAYOUT_READABLE
                                                : SGF_LAYOUT_COMPACT;
  res = tw_build(in, len, o1, chunk, &wa, &wob, &outa, &outb);
  /* the streaming writer in the other layout */
  if (res == NULL) {
    w = sgf_writer_create(rt_sink, &outs, &wob);
    if (w == NULL) abort();
    r4.w = w;
    (void)rt_parse(&r4, in, len, o1, chunk);
    if (sgf_writer_finish(w) != 0 || r4.wfail)
      res = fz_failf("roundtrip: the streaming writer failed (other layout)");
    sgf_writer_destroy(w);
  }
  /* writer.h: the same bytes as the streaming writer, unless a variation
   * was its parent's only child */
  if (res == NULL && !r1->lone && !bytebuf_eq(out1, &outa))
    res = ser_diff("roundtrip: streaming vs tree writer outputs", out1, &outa);
  if (res == NULL && !r1->lone && !bytebuf_eq(&outs, &outb))
    res = ser_diff(
        "roundtrip: streaming vs tree writer outputs (other "
        "layout)",
        &outs, &outb);
  /* always: the same game trees, node for node */
  if (res == NULL)
    res =
        tw_same_trees(out1, "the streaming output", &outa, "the tree writer's");
  if (res == NULL)
    res = tw_same_trees(&outa, "the tree writer's output", &outb,
                        "its other layout");
  /* the tree writer's output has nothing left to fold: written again
   * by either writer, it stays the same bytes */
  if (res == NULL && outa.len > 0) {
    ca = tw_parse(&outa, "the tree writer's output", &res);
    if (ca != NULL) {
      w = sgf_writer_create(rt_sink, &outc, &wa);
      if (w == NULL) abort();
      if (sgf_writer_write_collection(w, ca) != 0 || sgf_writer_finish(w))
        res = fz_failf(
            "roundtrip: writing the tree writer's output again "
            "failed");
      else if (!bytebuf_eq(&outa, &outc))
        res = ser_diff("roundtrip: tree writer not idempotent: outputs", &outa,
                       &outc);
      sgf_writer_destroy(w);
      sgf_collection_free(ca);
    }
  }
  if (res == NULL && outa.len > 0) {
    sgf_options strict;
    int st;
    sgf_options_init(&strict);
    strict.flags = SGF_OPT_STRICT;
    outc.len = 0;
    w = sgf_writer_create(rt_sink, &outc, &wa);
    if (w == NULL) abort();
    r5.w = w;
    st = rt_parse(&r5, (const unsigned char *)outa.p, outa.len, &strict, 0);
    if (sgf_writer_finish(w) != 0 || r5.wfail || st != SGF_OK || r5.diags)
      res = fz_failf("roundtrip: streaming the tree writer's output failed");
    else if (r5.lone)
      res = fz_failf(
          "roundtrip: the tree writer left a variation that is "
          "its parent's only child");
    else if (!bytebuf_eq(&outa, &outc))
      res = ser_diff("roundtrip: tree writer output, streamed again", &outa,
                     &outc);
    sgf_writer_destroy(w);
  }
  rt_free(&r4);
  rt_free(&r5);
  bytebuf_free(&outa);
  bytebuf_free(&outb);
  bytebuf_free(&outs);
  bytebuf_free(&outc);
  return res;
}

const char *fz_check_roundtrip(const uint8_t *data, size_t size) {
  static const size_t bufs[8] = {0, 256, 257, 300, 512, 1000, 4096, 65536};
  static const size_t widths[16] = {0,  1,  2,  3,  5,   8,   13,   20,
                                    40, 60, 78, 79, 100, 200, 1000, (size_t)-1};
  sgf_options o1, o2;
  sgf_writer_options wo;
  countalloc c;
  sgf_allocator a;
  rt r1, r2, r3;
  bytebuf out1, out2;
  sgf_writer *w;
  int st1, st2;
  const char *res = NULL;
  size_t chunk;
  if (size < 4) return NULL;
  fz_decode_options(data[0], &o1);
  sgf_writer_options_init(&wo);
  wo.layout = (data[1] & 1) ? SGF_LAYOUT_READABLE : SGF_LAYOUT_COMPACT;
  wo.buffer_size = bufs[(data[1] >> 1) & 7];
  wo.width = widths[data[1] >> 4];
  countalloc_init(&c, &a, 1);
  wo.allocator = &a;
  rt_sink_limit = data[2];
  chunk = data[3];
  memset(&out1, 0, sizeof out1);
  memset(&out2, 0, sizeof out2);
  memset(&r1, 0, sizeof r1);
  memset(&r2, 0, sizeof r2);
  memset(&r3, 0, sizeof r3);

  /* 1. parse the input, writing it */
  w = sgf_writer_create(rt_sink, &out1, &wo);
  if (w == NULL) return fz_failf("sgf_writer_create failed");
  countalloc_schedule(&c, 0, SIZE_MAX); /* no allocation from now on */
  r1.w = w;
  st1 = rt_parse(&r1, data + 4, size - 4, &o1, chunk);
  if (sgf_writer_finish(w) != 0 || r1.wfail)
    res = fz_failf(
        "roundtrip: the writer failed: %s (first parse status "
        "%d)",
        sgf_strerror(sgf_writer_status(w)), (int)st1);
  else if (c.calls != 0)
    res = fz_failf("roundtrip: the writer allocated after creation");
  sgf_writer_destroy(w);
  if (res == NULL && (c.live != 0 || c.bad != 0))
    res = fz_failf("roundtrip: writer memory outstanding after destroy");

  /* 1b. the parser straight into a writer, values whole
   * (sgf_writer_value_callbacks), values whole and move runs
   * (sgf_writer_copy_callbacks, as sgf fmt) and as three events
   * (sgf_writer_callbacks): the same bytes and status. (Not always the
   * bytes of 1: the writer's handlers pass no value-begin on, so a value
   * cut off at its '[' by an error leaves no trace there.) */
  if (res == NULL) {
    bytebuf outw[3];
    int stw[3];
    int way;
    for (way = 0; way < 3; way++) {
      sgf_writer_options wv = wo;
      sgf_callbacks vcb;
      sgf_parser *p;
      size_t pos = 0;
      int st = SGF_OK;
      memset(&outw[way], 0, sizeof outw[way]);
      wv.allocator = NULL;
      w = sgf_writer_create(rt_sink, &outw[way], &wv);
      if (w == NULL) abort();
      sgf_callbacks_init(&vcb);
      if (way == 2)
        sgf_writer_copy_callbacks(&vcb);
      else if (way)
        sgf_writer_value_callbacks(&vcb);
      else
        sgf_writer_callbacks(&vcb);
      p = sgf_parser_create(&vcb, w, &o1);
      if (p == NULL) abort();
      while (pos < size - 4 && st == SGF_OK) {
        size_t n = size - 4 - pos;
        if (chunk && chunk < n) n = chunk;
        st = sgf_parser_feed(p, (const char *)data + 4 + pos, n, NULL);
        pos += n;
      }
      if (st == SGF_OK) st = sgf_parser_finish(p);
      sgf_writer_finish(w);
      stw[way] = st;
      sgf_parser_destroy(p);
      sgf_writer_destroy(w);
    }
    for (way = 1; way < 3 && res == NULL; way++)
      if (stw[0] != stw[way] || !bytebuf_eq(&outw[0], &outw[way]))
        res = fz_failf(
            "roundtrip: sgf_writer_%s_callbacks wrote %zu bytes "
            "(status %d), sgf_writer_callbacks %zu (status %d)",
            way == 2 ? "copy" : "value", outw[way].len, (int)stw[way],
            outw[0].len, (int)stw[0]);
    for (way = 0; way < 3; way++) bytebuf_free(&outw[way]);
  }

  /* 2. the output, strictly: no diagnostic, and the same events */
  o2 = o1;
  o2.flags = SGF_OPT_STRICT;
  o2.allocator = NULL;
  if (res == NULL) {
    countalloc_init(&c, &a, 1);
    w = sgf_writer_create(rt_sink, &out2, &wo);
    if (w == NULL) abort();
    r2.w = w;
    st2 = rt_parse(&r2, (const unsigned char *)out1.p, out1.len, &o2, 0);
    if (sgf_writer_finish(w) != 0) r2.wfail = 1;
    sgf_writer_destroy(w);
    if (r1.ev.len == 0) {
      /* no game tree in, none out: an empty output (no-game-tree) */
      if (out1.len != 0) res = fz_failf("roundtrip: output with no events");
    } else if (r2.diags != 0 || st2 != SGF_OK)
      res = fz_failf(
          "roundtrip: the output has %s (%ld diagnostics) at "
          "offset %" PRIu64 " of %zu; status %d",
          r2.diags ? sgf_diag_name(r2.first.code) : "no diagnostic", r2.diags,
          r2.diags ? r2.first.pos.offset : 0, out1.len, (int)st2);
    else if (r2.wfail)
      res = fz_failf("roundtrip: writing the output again failed");
    else if (st1 == SGF_OK && !bytebuf_eq(&r1.ev, &r2.ev))
      res = ser_diff("roundtrip: events of the input and of the output", &r1.ev,
                     &r2.ev);
    else if (st1 == SGF_OK && !bytebuf_eq(&out1, &out2))
      res = ser_diff("roundtrip: writing is not idempotent: outputs", &out1,
                     &out2);
  }
  /* 3. the same output whatever the chunking of the first parse */
  if (res == NULL && chunk != 1) {
    bytebuf out3;
    memset(&out3, 0, sizeof out3);
    w = sgf_writer_create(rt_sink, &out3, &wo);
    if (w == NULL) abort();
    r3.w = w;
    (void)rt_parse(&r3, data + 4, size - 4, &o1, 1);
    if (sgf_writer_finish(w) != 0 || r3.wfail)
      res = fz_failf("roundtrip: the writer failed on byte-by-byte input");
    else if (!bytebuf_eq(&out1, &out3))
      res = ser_diff("roundtrip: output whole vs byte by byte", &out1, &out3);
    sgf_writer_destroy(w);
    bytebuf_free(&out3);
  }
  /* 4. the tree writer (sgf_writer_write_tree / _collection) */
  if (res == NULL && st1 == SGF_OK)
    res = tree_writer_check(data + 4, size - 4, &o1, chunk, &wo, &r1, &out1);
  rt_free(&r1);
  rt_free(&r2);
  rt_free(&r3);
  bytebuf_free(&out1);
  bytebuf_free(&out2);
  return res;
}

/* ------------------------------------------------------------------ */
/* fuzz_writer                                                         */

/* Run the script on w; returns 0 if every call succeeded, else -1. */
static int run_script(sgf_writer *w, const uint8_t *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned op = s[i++] & 15u;
    int r = 0;
    switch (op) {
      case 0:
      case 12:
        r = sgf_writer_tree_begin(w);
        break;
      case 1:
      case 13:
        r = sgf_writer_node(w);
        break;
      case 2:
      case 14: {
        char id[8];
        size_t k, len = 1;
        unsigned x = i < n ? s[i++] : 0;
        len = 1 + (x & 3u);
        for (k = 0; k < len; k++) {
          unsigned c = i < n ? s[i++] : 0;
          id[k] = (char)(((x & 0x80u) && (c & 1u) ? 'a' : 'A') + c % 26);
        }
        r = sgf_writer_property(w, id, len);
        break;
      }
      case 3:
        r = sgf_writer_value_begin(w);
        break;
      case 4:
      case 9:
      case 15: {
        size_t len = i < n ? s[i++] % 32u : 0;
        if (len > n - i) len = n - i;
        r = op == 4 ? sgf_writer_value_data(w, (const char *)s + i, len)
                    : sgf_writer_value(w, (const char *)s + i, len);
        i += len;
        break;
      }
      case 5: {
        unsigned x = i < n ? s[i++] : 0;
        size_t len = x % 32u;
        unsigned flags = 0;
        char text[32];
        if (x & 0x20u) flags |= SGF_ESCAPE_COMPOSE;
        if (x & 0x40u) flags |= SGF_ESCAPE_SIMPLE;
        if (len > n - i) len = n - i;
        memcpy(text, s + i, len);
        if (fz_tolerate("writer-text-nul")) { /* reported: NULs kept */
          size_t k;
          for (k = 0; k < len; k++)
            if (text[k] == 0) text[k] = 'x';
        }
        r = sgf_writer_value_text(w, text, len, flags);
        i += len;
        break;
      }
      case 6:
        r = sgf_writer_value_end(w);
        break;
      case 7:
        r = sgf_writer_property_end(w);
        break;
      case 8:
        r = sgf_writer_tree_end(w);
        break;
      case 10:
        r = sgf_writer_flush(w);
        break;
      default: /* 11 */
        r = sgf_writer_finish(w);
        break;
    }
    if (r != 0) return -1;
  }
  return sgf_writer_finish(w);
}

const char *fz_check_writer(const uint8_t *data, size_t size) {
  static const size_t bufs[8] = {0, 256, 257, 300, 512, 1000, 4096, 65536};
  static const size_t widths[16] = {0,  1,  2,  3,  5,   8,   13,   20,
                                    40, 60, 78, 79, 100, 200, 1000, (size_t)-1};
  sgf_writer_options wa, wb;
  countalloc c;
  sgf_allocator a;
  bytebuf outa, outb, outc;
  sgf_writer *w;
  int ra, rb;
  int sa, sb;
  const char *res = NULL;
  sgf_options strict;
  rt r1, r2, r3;
  if (size < 2) return NULL;
  sgf_writer_options_init(&wa);
  wa.layout = (data[0] & 1) ? SGF_LAYOUT_READABLE : SGF_LAYOUT_COMPACT;
  wa.buffer_size = bufs[(data[0] >> 1) & 7];
  wa.width = widths[data[0] >> 4];
  countalloc_init(&c, &a, 1);
  wa.allocator = &a;
  sgf_writer_options_init(&wb);
  memset(&outa, 0, sizeof outa);
  memset(&outb, 0, sizeof outb);
  memset(&outc, 0, sizeof outc);
  memset(&r1, 0, sizeof r1);
  memset(&r2, 0, sizeof r2);
  memset(&r3, 0, sizeof r3);

  rt_sink_limit = data[1];
  w = sgf_writer_create(rt_sink, &outa, &wa);
  if (w == NULL) abort();
  countalloc_schedule(&c, 0, SIZE_MAX);
  ra = run_script(w, data + 2, size - 2);
  sa = sgf_writer_status(w);
  if (c.calls != 0) res = fz_failf("writer: allocated after creation");
  if (res == NULL && (ra == 0) != (sa == SGF_OK))
    res = fz_failf("writer: calls returned %d but status %d", ra, (int)sa);
  sgf_writer_destroy(w);
  if (res == NULL && (c.live != 0 || c.bad != 0))
    res = fz_failf("writer: memory outstanding after destroy");

  rt_sink_limit = 0;
  w = sgf_writer_create(rt_sink, &outb, &wb);
  if (w == NULL) abort();
  rb = run_script(w, data + 2, size - 2);
  sb = sgf_writer_status(w);
  sgf_writer_destroy(w);
  if (res == NULL && sa != sb)
    res = fz_failf(
        "writer: status %d with the options, %d with the "
        "defaults",
        (int)sa, (int)sb);
  (void)rb;
  sgf_options_init(&strict);
  strict.flags = SGF_OPT_STRICT;
  /* FF[4] sets no depth limit and a script may nest deeper than the
   * parser's default: read the output back with no practical limit. */
  strict.max_depth = (uint64_t)1 << 40;
  if (res == NULL && sa == SGF_OK) {
    int s1 = rt_parse(&r1, (const unsigned char *)outa.p, outa.len, &strict, 0);
    int s2 = rt_parse(&r2, (const unsigned char *)outb.p, outb.len, &strict, 0);
    if (r2.ev.len == 0) {
      if (outb.len != 0) res = fz_failf("writer: output without a tree");
    } else if (r1.diags || s1 != SGF_OK) {
      res = fz_failf("writer: the output (options) has %s at offset %" PRIu64
                     " of %zu",
                     r1.diags ? sgf_diag_name(r1.first.code) : "an error",
                     r1.diags ? r1.first.pos.offset : 0, outa.len);
    } else if (r2.diags || s2 != SGF_OK) {
      res = fz_failf("writer: the output (defaults) has %s at offset %" PRIu64
                     " of %zu",
                     r2.diags ? sgf_diag_name(r2.first.code) : "an error",
                     r2.diags ? r2.first.pos.offset : 0, outb.len);
    } else if (!bytebuf_eq(&r1.ev, &r2.ev)) {
      res = ser_diff("writer: events of the outputs (options vs defaults)",
                     &r2.ev, &r1.ev);
    } else {
      /* idempotent: the parse of the output, written again */
      w = sgf_writer_create(rt_sink, &outc, &wb);
      if (w == NULL) abort();
      r3.w = w;
      (void)rt_parse(&r3, (const unsigned char *)outb.p, outb.len, &strict, 0);
      if (sgf_writer_finish(w) != 0 || r3.wfail)
        res = fz_failf("writer: writing its own output again failed");
      else if (!bytebuf_eq(&outb, &outc))
        res = ser_diff("writer: not idempotent: outputs", &outb, &outc);
      sgf_writer_destroy(w);
    }
  }
  rt_free(&r1);
  rt_free(&r2);
  rt_free(&r3);
  bytebuf_free(&outa);
  bytebuf_free(&outb);
  bytebuf_free(&outc);
  return res;
}
