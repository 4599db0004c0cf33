/* harness_paths.c - the builder's two paths build the same trees
 * (fuzz_tree_paths, test/unit/tree_paths.c).
 *
 * The tree builder has a fast path (DIRECT nodes written in place, inline
 * fast handlers, lazy events, whole values) and a general one (one plain
 * handler per event, every node buffered); SGF_TREE_GENERAL_ONLY forces
 * the general one. Here the same input, fed whole or in chunks, is built
 * both ways and each result is written out in full by a walk of the
 * trees: per node in pre-order its id, parent, child index, children,
 * subtree size, level, ply, variation depth, move number, move colour,
 * side to play, position and whether the position index finds it; per
 * property its identifier normalized and as written and its position;
 * per value its position and raw bytes. The diagnostics, with their
 * positions, and the final status are written too. The two dumps must be
 * equal byte for byte. With SGF_TREE_DETACHED the builder is driven from
 * a parser of the caller's, through sgf_tree_builder_handlers_of(): its
 * flag reaches the general path through the API alone.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "harness_priv.h"

/* Length-prefixed bytes: any byte, NUL included, unambiguous. */
static void dump_bytes(bytebuf *b, const char *s, size_t n) {
  bytebuf_addf(b, "%zu:", n);
  if (n) bytebuf_add(b, s, n);
}

static void dump_node(bytebuf *b, const sgf_tree *t, const sgf_node *n) {
  size_t i, j, np = sgf_node_prop_count(n);
  const sgf_node *par = sgf_node_parent(n);
  size_t id = sgf_node_index(n);
  bytebuf_addf(b,
               "N%zu p%lld ci%zu nc%zu st%zu lv%zu ply%zu d%zu mn%" PRId64
               " mv%d tp%d ix%d",
               id, par ? (long long)sgf_node_index(par) : -1LL,
               sgf_node_child_index(n), sgf_node_child_count(n),
               sgf_node_subtree_size(n), sgf_node_tree_depth(n),
               sgf_node_ply(n), sgf_node_variation_depth(n),
               sgf_node_move_number(n), (int)sgf_node_move(n, NULL),
               (int)sgf_node_to_play(n), sgf_tree_node_at(t, id) == n);
  fz_buf_pos(b, sgf_node_pos(n));
  bytebuf_addf(b, " props%zu\n", np);
  for (i = 0; i < np; i++) {
    sgf_prop_view p = sgf_node_prop(n, i);
    bytebuf_add(b, " P", 2);
    dump_bytes(b, p.ident, p.ident_len);
    bytebuf_add(b, "/", 1);
    dump_bytes(b, p.raw_ident, p.raw_ident_len);
    fz_buf_pos(b, p.pos);
    bytebuf_addf(b, " nv%zu\n", p.nvalues);
    for (j = 0; j < p.nvalues; j++) {
      sgf_value_view v = sgf_prop_value(&p, j);
      bytebuf_add(b, "  V", 3);
      fz_buf_pos(b, v.pos);
      dump_bytes(b, v.raw, v.len);
      bytebuf_add(b, "\n", 1);
    }
  }
}

static void dump_tree(bytebuf *b, const sgf_tree *t) {
  sgf_node_iter it;
  const sgf_node *n;
  bytebuf_addf(b, "T nodes%zu\n", sgf_tree_node_count(t));
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) dump_node(b, t, n);
}

typedef struct paths_run {
  bytebuf *out;
} paths_run;

static int on_game(sgf_tree_builder *bl, void *user, sgf_tree *t) {
  (void)bl;
  dump_tree(((paths_run *)user)->out, t);
  return SGF_CONTINUE;
}

static int on_diag(sgf_parser *p, void *user, const sgf_diag *d) {
  bytebuf *b = ((paths_run *)user)->out;
  (void)p;
  bytebuf_addf(b, "D%d s%d", (int)d->code, (int)d->severity);
  fz_buf_pos(b, d->pos);
  if (d->has_mark) fz_buf_pos(b, d->mark);
  bytebuf_add(b, "\n", 1);
  return SGF_CONTINUE;
}

/* Build data with the given options into a dump in out. */
static void build_dump(const char *data, size_t len, size_t chunk,
                       unsigned flags, unsigned pflags, uint64_t max_nodes,
                       uint64_t max_bytes, bytebuf *out) {
  sgf_tree_builder_options o;
  sgf_tree_builder_callbacks cb;
  sgf_options po;
  sgf_tree_builder *bl;
  sgf_parser *p;
  paths_run run;
  size_t off = 0;
  int st = SGF_OK;
  run.out = out;
  sgf_options_init(&po);
  po.flags = pflags;
  sgf_tree_builder_options_init(&o);
  o.parser = &po;
  o.flags = flags;
  o.max_nodes = max_nodes;
  o.max_tree_bytes = max_bytes;
  sgf_tree_builder_callbacks_init(&cb);
  cb.on_game = on_game;
  cb.on_diagnostic = on_diag;
  bl = sgf_tree_builder_create(&cb, &run, &o);
  if (!bl) {
    bytebuf_add(out, "create failed\n", 14);
    return;
  }
  p = sgf_tree_builder_parser(bl);
  if (flags & SGF_TREE_DETACHED) /* the builder's handlers, on our parser */
    p = sgf_parser_create(sgf_tree_builder_handlers_of(bl), bl, &po);
  if (!p) {
    bytebuf_add(out, "parser failed\n", 14);
    sgf_tree_builder_destroy(bl);
    return;
  }
  if (chunk == 0) chunk = len ? len : 1;
  while (off < len && st == SGF_OK) {
    size_t n = len - off < chunk ? len - off : chunk;
    st = sgf_parser_feed(p, data + off, n, NULL);
    off += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  bytebuf_addf(out, "status %d at %zu\n", st, off);
  if (flags & SGF_TREE_DETACHED) sgf_parser_destroy(p);
  sgf_tree_builder_destroy(bl);
}

/* The first line where a and b differ, for the message. */
static const char *first_diff(const bytebuf *a, const bytebuf *b,
                              const char *what) {
  size_t i = 0, line = 1, ls = 0, n = a->len < b->len ? a->len : b->len;
  size_t ea, eb;
  while (i < n && a->p[i] == b->p[i]) {
    if (a->p[i] == '\n') {
      line++;
      ls = i + 1;
    }
    i++;
  }
  for (ea = ls; ea < a->len && a->p[ea] != '\n'; ea++) {
  }
  for (eb = ls; eb < b->len && b->p[eb] != '\n'; eb++) {
  }
  return fz_failf(
      "%s: fast and general paths differ at dump line %zu:\n"
      "  fast:    %.*s\n  general: %.*s",
      what, line, (int)(ea - ls > 200 ? 200 : ea - ls), a->p + ls,
      (int)(eb - ls > 200 ? 200 : eb - ls), b->p + ls);
}

const char *fz_tree_paths_compare(const char *data, size_t len, size_t chunk,
                                  unsigned flags, unsigned pflags,
                                  uint64_t max_nodes, uint64_t max_bytes) {
  bytebuf fast = {NULL, 0, 0}, general = {NULL, 0, 0};
  const char *err = NULL;
  char what[96];
  build_dump(data, len, chunk, flags, pflags, max_nodes, max_bytes, &fast);
  build_dump(data, len, chunk, flags | SGF_TREE_GENERAL_ONLY, pflags, max_nodes,
             max_bytes, &general);
  if (!bytebuf_eq(&fast, &general)) {
    snprintf(what, sizeof what,
             "chunk %zu, tree flags %#x, parser flags %#x, max_nodes %" PRIu64
             ", max_bytes %" PRIu64,
             chunk, flags, pflags, max_nodes, max_bytes);
    err = first_diff(&fast, &general, what);
  }
  bytebuf_free(&fast);
  bytebuf_free(&general);
  return err;
}

const char *fz_check_tree_paths(const uint8_t *data, size_t size) {
  static const size_t chunks[] = {0, 1, 2, 3, 7, 64};
  sgf_options po;
  unsigned flags = 0;
  uint64_t max_nodes = 0, max_bytes = 0; /* no byte limit (below) */
  const char *in, *err;
  size_t len, i;
  if (size < 2) return NULL;
  fz_decode_options(data[0], &po);
  /* [1]: builder flags and small limits */
  if (data[1] & 1) flags |= SGF_TREE_SKIP_OVERSIZED;
  if (data[1] & 2) flags |= SGF_TREE_COLLECT;
  if (data[1] & 4) max_nodes = 1 + (data[1] >> 4);
  /* (bit 3 does not set a byte limit: the paths report tree-byte-limit
   * at different places, a known difference: see
   * test/unit/tree_paths.c; it keeps positions) */
  if (data[1] & 8) flags |= SGF_TREE_POSITIONS;
  in = (const char *)data + 2;
  len = size - 2;
  for (i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
    if (chunks[i] == 1 && len > 4096) continue; /* bytewise: small ones */
    err = fz_tree_paths_compare(in, len, chunks[i], flags, po.flags, max_nodes,
                                max_bytes);
    if (err) return err;
  }
  return NULL;
}
