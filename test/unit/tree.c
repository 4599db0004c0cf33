/* tree.c - unit tests of the tree layer (sgfstream/tree.h): the
 * builder, navigation against hand-checked answers (the FF[4] variation
 * example and the CQL worked example), limits and diagnostics, the
 * skip/pause/abort contract through the builder, allocation failure,
 * deep and long generated trees, memory bound in one-game mode, the
 * record-a-game cursor, and every file of ../shared/corpus/edge when it
 * exists. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "bytebuf.h"
#include "countalloc.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* The counting allocator (test/support/countalloc.h), failing its n-th
 * call from now on (1-based; 0 never). */
static void fail_nth(countalloc *c, size_t n) {
  countalloc_schedule(c, n ? n - 1 : SIZE_MAX, n ? 1 : 0);
}

/* Parse s into a collection with builder flags tflags, asserting
 * success. */
static sgf_collection *parse_with(const char *s, unsigned popt_flags,
                                  unsigned tflags) {
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_diag err;
  sgf_collection *c;
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  o.flags = tflags;
  po.flags = popt_flags;
  c = sgf_collection_parse(s, strlen(s), &o, &err);
  assert_non_null(c);
  return c;
}

static sgf_collection *parse(const char *s, unsigned popt_flags) {
  return parse_with(s, popt_flags, 0);
}

/* Value i of n's first property ident (raw NULL if there is none). */
static sgf_value_view val_of(const sgf_node *n, const char *ident, size_t i) {
  sgf_prop_view p = sgf_node_find_prop(n, ident);
  return sgf_prop_value(&p, i);
}

/* Value j of n's i-th property (raw NULL if there is none). */
static sgf_value_view val_at(const sgf_node *n, size_t i, size_t j) {
  sgf_prop_view p = sgf_node_prop(n, i);
  return sgf_prop_value(&p, j);
}

/* The first node (pre-order) whose C value is text. */
static const sgf_node *by_comment(const sgf_tree *t, const char *text) {
  sgf_node_iter it;
  const sgf_node *n;
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    sgf_value_view v = val_of(n, "C", 0);
    if (v.raw && v.len == strlen(text) && memcmp(v.raw, text, v.len) == 0)
      return n;
  }
  fail_msg("no node with C[%s]", text);
  return NULL;
}

/* A text form of a tree: per node in pre-order, its parent's id and its
 * properties (normalized[raw-ident]=values, raw). */
static void signature(const sgf_tree *t, bytebuf *out) {
  sgf_node_iter it;
  const sgf_node *n;
  char tmp[64];
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    size_t i, j;
    snprintf(
        tmp, sizeof tmp, "%zu<%ld:", sgf_node_index(n),
        sgf_node_parent(n) ? (long)sgf_node_index(sgf_node_parent(n)) : -1L);
    bytebuf_adds(out, tmp);
    for (i = 0; i < sgf_node_prop_count(n); i++) {
      sgf_prop_view p = sgf_node_prop(n, i);
      bytebuf_add(out, p.ident, p.ident_len);
      bytebuf_adds(out, "/");
      bytebuf_add(out, p.raw_ident, p.raw_ident_len);
      for (j = 0; j < p.nvalues; j++) {
        sgf_value_view v = sgf_prop_value(&p, j);
        bytebuf_adds(out, "[");
        bytebuf_add(out, v.raw, v.len);
        bytebuf_adds(out, "]");
      }
    }
    bytebuf_adds(out, "\n");
  }
}

/* Check every derived fact of every node against its definition, from
 * the parent and siblings (no recursion: a pre-order walk). */
static void check_invariants(const sgf_tree *t) {
  sgf_node_iter it;
  const sgf_node *n;
  size_t count = 0;
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    const sgf_node *p = sgf_node_parent(n);
    size_t mv = sgf_node_move(n, NULL) != SGF_COLOR_NONE;
    assert_int_equal(sgf_node_index(n), count);
    assert_ptr_equal(sgf_tree_node_at(t, count), n);
    assert_ptr_equal(sgf_node_tree(n), t);
    count++;
    if (!p) {
      assert_ptr_equal(n, sgf_tree_root(t));
      assert_int_equal(sgf_node_tree_depth(n), 0);
      assert_int_equal(sgf_node_variation_depth(n), 0);
      assert_int_equal(sgf_node_ply(n), mv);
      assert_true(sgf_node_is_initial(n));
    } else {
      size_t ci = sgf_node_child_index(n);
      assert_ptr_equal(sgf_node_child(p, ci), n);
      assert_int_equal(sgf_node_tree_depth(n), sgf_node_tree_depth(p) + 1);
      assert_int_equal(sgf_node_variation_depth(n),
                       sgf_node_variation_depth(p) + (ci > 0));
      assert_int_equal(sgf_node_ply(n), sgf_node_ply(p) + mv);
      assert_true(sgf_node_is_ancestor(p, n));
      assert_false(sgf_node_is_ancestor(n, p));
      assert_ptr_equal(sgf_node_lca(n, p), p);
      assert_false(sgf_node_is_initial(n));
      if (sgf_node_prev_sibling(n))
        assert_ptr_equal(sgf_node_next_sibling(sgf_node_prev_sibling(n)), n);
    }
    assert_int_equal(sgf_node_is_terminal(n), sgf_node_child_count(n) == 0);
    assert_int_equal(sgf_node_is_mainline(n), sgf_node_variation_depth(n) == 0);
    assert_true(sgf_node_is_ancestor(n, n));
    assert_true(sgf_node_subtree_size(n) >= 1);
  }
  assert_int_equal(count, sgf_tree_node_count(t));
  assert_null(sgf_tree_node_at(t, count));
}

/* ------------------------------------------------------------------ */
/* The FF[4] variation example                                         */

static const char ff4_example[] =
    "(;FF[4](;C[a];C[b](;C[c])(;C[d];C[e]))(;C[f](;C[g];C[h];C[i])(;C[j])))";

static void test_ff4_example(void **state) {
  /* Hand-checked (the spec's picture): root -> a -> b -> {c, d -> e};
   * root -> f -> {g -> h -> i, j}. Pre-order: root a b c d e f g h i j. */
  static const struct {
    const char *c, *parent;
    size_t id, children, index, level, depth, subtree;
  } want[] = {
      {"a", NULL, 1, 1, 0, 1, 0, 5}, {"b", "a", 2, 2, 0, 2, 0, 4},
      {"c", "b", 3, 0, 0, 3, 0, 1},  {"d", "b", 4, 1, 1, 3, 1, 2},
      {"e", "d", 5, 0, 0, 4, 1, 1},  {"f", NULL, 6, 2, 1, 1, 1, 5},
      {"g", "f", 7, 1, 0, 2, 1, 3},  {"h", "g", 8, 1, 0, 3, 1, 2},
      {"i", "h", 9, 0, 0, 4, 1, 1},  {"j", "f", 10, 0, 1, 2, 2, 1},
  };
  sgf_collection *col = parse_with(ff4_example, 0, SGF_TREE_POSITIONS);
  const sgf_tree *t;
  const sgf_node *root, *n;
  sgf_prop_view p;
  sgf_node_iter it;
  size_t i;
  const char *order = "abcdefghij";
  (void)state;

  assert_int_equal(sgf_collection_count(col), 1);
  t = sgf_collection_tree(col, 0);
  assert_int_equal(sgf_tree_node_count(t), 11);
  root = sgf_tree_root(t);
  assert_int_equal(sgf_node_child_count(root), 2);
  assert_int_equal(sgf_node_subtree_size(root), 11);
  assert_int_equal(sgf_node_index(root), 0);
  p = sgf_node_find_prop(root, "FF");
  assert_true(p.nvalues > 0);
  assert_int_equal(p.nvalues, 1);
  assert_string_equal(sgf_prop_value(&p, 0).raw, "4");
  assert_int_equal(sgf_node_find_prop(root, "C").nvalues, 0);

  for (i = 0; i < sizeof want / sizeof want[0]; i++) {
    n = by_comment(t, want[i].c);
    assert_ptr_equal(sgf_node_parent(n),
                     want[i].parent ? by_comment(t, want[i].parent) : root);
    assert_int_equal(sgf_node_index(n), want[i].id);
    assert_int_equal(sgf_node_child_count(n), want[i].children);
    assert_int_equal(sgf_node_child_index(n), want[i].index);
    assert_int_equal(sgf_node_tree_depth(n), want[i].level);
    assert_int_equal(sgf_node_variation_depth(n), want[i].depth);
    assert_int_equal(sgf_node_subtree_size(n), want[i].subtree);
    assert_int_equal(sgf_node_ply(n), 0);
    assert_int_equal(sgf_node_move_number(n), 0);
    assert_int_equal(sgf_node_to_play(n), SGF_COLOR_BLACK);
    assert_ptr_equal(sgf_node_root(n), root);
    assert_ptr_equal(sgf_tree_node_at(t, want[i].id), n);
  }
  /* position ids follow the document */
  for (i = 0; i < 10; i++) {
    sgf_value_view c = val_of(sgf_tree_node_at(t, i + 1), "C", 0);
    assert_int_equal(c.raw[0], order[i]);
  }
  /* siblings, child(i) */
  assert_ptr_equal(sgf_node_next_sibling(by_comment(t, "c")),
                   by_comment(t, "d"));
  assert_ptr_equal(sgf_node_prev_sibling(by_comment(t, "d")),
                   by_comment(t, "c"));
  assert_null(sgf_node_next_sibling(by_comment(t, "d")));
  assert_ptr_equal(sgf_node_next_sibling(by_comment(t, "a")),
                   by_comment(t, "f"));
  assert_ptr_equal(sgf_node_prev_sibling(by_comment(t, "j")),
                   by_comment(t, "g"));
  assert_ptr_equal(sgf_node_child(root, 1), by_comment(t, "f"));
  assert_ptr_equal(sgf_node_child(by_comment(t, "f"), 1), by_comment(t, "j"));
  assert_null(sgf_node_child(by_comment(t, "f"), 2));
  assert_ptr_equal(sgf_node_last_child(root), by_comment(t, "f"));
  assert_null(sgf_node_parent(root));
  /* terminal / mainline */
  assert_true(sgf_node_is_terminal(by_comment(t, "c")));
  assert_true(sgf_node_is_terminal(by_comment(t, "e")));
  assert_true(sgf_node_is_terminal(by_comment(t, "i")));
  assert_true(sgf_node_is_terminal(by_comment(t, "j")));
  assert_false(sgf_node_is_terminal(by_comment(t, "h")));
  assert_true(sgf_node_is_mainline(by_comment(t, "c")));
  assert_true(sgf_node_is_variation(by_comment(t, "d")));
  assert_true(sgf_node_is_variation(by_comment(t, "g")));
  assert_true(sgf_node_is_initial(root));
  /* latest common ancestors */
  assert_ptr_equal(sgf_node_lca(by_comment(t, "c"), by_comment(t, "e")),
                   by_comment(t, "b"));
  assert_ptr_equal(sgf_node_lca(by_comment(t, "e"), by_comment(t, "i")), root);
  assert_ptr_equal(sgf_node_lca(by_comment(t, "h"), by_comment(t, "j")),
                   by_comment(t, "f"));
  assert_ptr_equal(sgf_node_lca(by_comment(t, "a"), by_comment(t, "e")),
                   by_comment(t, "a"));
  assert_ptr_equal(sgf_node_lca(by_comment(t, "i"), by_comment(t, "i")),
                   by_comment(t, "i"));
  assert_true(sgf_node_is_ancestor(by_comment(t, "a"), by_comment(t, "e")));
  assert_false(sgf_node_is_ancestor(by_comment(t, "e"), by_comment(t, "a")));
  assert_false(sgf_node_is_ancestor(by_comment(t, "f"), by_comment(t, "c")));
  assert_false(sgf_node_is_ancestor(by_comment(t, "c"), by_comment(t, "d")));
  assert_true(sgf_node_is_descendant(by_comment(t, "e"), by_comment(t, "a")));
  assert_true(sgf_node_is_descendant(by_comment(t, "j"), root));
  assert_int_equal(sgf_node_distance(by_comment(t, "e"), by_comment(t, "j")),
                   0);
  /* iterators */
  sgf_node_iter_mainline_init(&it, root);
  assert_ptr_equal(sgf_node_iter_next(&it), root);
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "a"));
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "b"));
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "c"));
  assert_null(sgf_node_iter_next(&it));
  assert_null(sgf_node_iter_next(&it));
  sgf_node_iter_preorder_init(&it, by_comment(t, "b")); /* a subtree */
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "b"));
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "c"));
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "d"));
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "e"));
  assert_null(sgf_node_iter_next(&it));
  sgf_node_iter_preorder_init(&it, by_comment(t, "j")); /* a leaf */
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "j"));
  assert_null(sgf_node_iter_next(&it));
  /* positions of nodes: the ';' */
  assert_int_equal(sgf_node_pos(root).offset, 1);
  assert_int_equal(sgf_node_pos(by_comment(t, "a")).offset,
                   strstr(ff4_example, ";C[a]") - ff4_example);
  assert_int_equal(sgf_node_pos(by_comment(t, "a")).column,
                   strstr(ff4_example, ";C[a]") - ff4_example + 1);
  check_invariants(t);
  sgf_collection_free(col);
}

/* ------------------------------------------------------------------ */
/* The CQL worked example: 1. e4 (1. d4 Nf6 (1...d5 2. c4)) (1. Nf3 d5)
 * 1...e5 2. d4, chess moves written as B/W (black plays chess white's
 * moves); the squares become points (file letter, rank a..h).        */

static const char cql_example[] =
    "(;GM[1]C[start]"
    "(;B[ed]C[1. e4];W[ee]C[1...e5];B[dd]C[2. d4])"
    "(;B[dd]C[1. d4](;W[ff]C[1...Nf6])(;W[de]C[1...d5];B[cd]C[2. c4]))"
    "(;B[fc]C[1. Nf3];W[de]C[1...d5/Nf3]))";

static void test_cql_example(void **state) {
  /* hand-checked: comment, ply, depth, move number, side to move */
  static const struct {
    const char *c;
    size_t ply, depth;
    int color;
  } want[] = {
      {"start", 0, 0, SGF_COLOR_BLACK},  {"1. e4", 1, 0, SGF_COLOR_WHITE},
      {"1...e5", 2, 0, SGF_COLOR_BLACK}, {"2. d4", 3, 0, SGF_COLOR_WHITE},
      {"1. d4", 1, 1, SGF_COLOR_WHITE},  {"1...Nf6", 2, 1, SGF_COLOR_BLACK},
      {"1...d5", 2, 2, SGF_COLOR_BLACK}, {"2. c4", 3, 2, SGF_COLOR_WHITE},
      {"1. Nf3", 1, 1, SGF_COLOR_WHITE}, {"1...d5/Nf3", 2, 1, SGF_COLOR_BLACK},
  };
  /* pairs: x, y, lca, distance */
  static const struct {
    const char *x, *y, *lca;
    size_t dist;
  } pairs[] = {
      {"2. d4", "2. c4", "start", 6},   /* 3 up, 3 down */
      {"1...Nf6", "2. c4", "1. d4", 3}, /* 1 up, 2 down */
      {"1...e5", "1...d5/Nf3", "start", 4},
      {"2. c4", "1...d5", "1...d5", 1}, /* ancestor */
      {"1. Nf3", "1...d5/Nf3", "1. Nf3", 1},
      {"start", "2. d4", "start", 3},
      {"1. e4", "1. d4", "start", 2},
      {"2. c4", "2. c4", "2. c4", 0},
  };
  sgf_collection *col = parse(cql_example, 0);
  const sgf_tree *t = sgf_collection_tree(col, 0);
  sgf_value_view v;
  sgf_node_iter it;
  size_t i;
  (void)state;
  assert_int_equal(sgf_tree_node_count(t), 10);
  for (i = 0; i < sizeof want / sizeof want[0]; i++) {
    const sgf_node *n = by_comment(t, want[i].c);
    assert_int_equal(sgf_node_index(n), i); /* listed in document order */
    assert_int_equal(sgf_node_ply(n), want[i].ply);
    assert_int_equal(sgf_node_variation_depth(n), want[i].depth);
    assert_int_equal(sgf_node_move_number(n), (int64_t)want[i].ply);
    assert_int_equal(sgf_node_to_play(n), want[i].color);
  }
  /* the two positions CQL's manual spells out */
  assert_int_equal(sgf_node_variation_depth(by_comment(t, "1. d4")), 1);
  assert_int_equal(sgf_node_variation_depth(by_comment(t, "2. d4")), 0);
  assert_true(sgf_node_is_mainline(by_comment(t, "2. d4")));
  assert_true(sgf_node_is_variation(by_comment(t, "1. d4")));
  for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
    const sgf_node *x = by_comment(t, pairs[i].x),
                   *y = by_comment(t, pairs[i].y);
    assert_ptr_equal(sgf_node_lca(x, y), by_comment(t, pairs[i].lca));
    assert_ptr_equal(sgf_node_lca(y, x), by_comment(t, pairs[i].lca));
    assert_int_equal(sgf_node_distance(x, y), pairs[i].dist);
    assert_int_equal(sgf_node_distance(y, x), pairs[i].dist);
  }
  assert_int_equal(sgf_node_move(by_comment(t, "1. Nf3"), &v), SGF_COLOR_BLACK);
  assert_string_equal(v.raw, "fc");
  assert_int_equal(sgf_node_move(by_comment(t, "1...Nf6"), &v),
                   SGF_COLOR_WHITE);
  assert_string_equal(v.raw, "ff");
  assert_int_equal(sgf_node_move(by_comment(t, "start"), &v), SGF_COLOR_NONE);
  assert_null(v.raw);
  assert_int_equal(v.len, 0);
  sgf_node_iter_mainline_init(&it, by_comment(t, "1. d4"));
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "1. d4"));
  assert_ptr_equal(sgf_node_iter_next(&it), by_comment(t, "1...Nf6"));
  assert_null(sgf_node_iter_next(&it));
  check_invariants(t);
  sgf_collection_free(col);
}

/* Move numbers with MN; side to move with PL and HA. */
static void test_move_numbers_and_side(void **state) {
  sgf_collection *col = parse(
      "(;C[r];B[aa]C[1];W[bb]MN[10]C[10];B[cc]C[11]"
      "(;W[dd]C[12])(;C[x]MN[20];W[ee]C[20];PL[W]C[pl])(;MN[zz]B[ff]C[mnbad]))"
      "(;HA[2]AB[dd][pp]C[ha];C[setup];W[qq]C[w1];PL[W]B[cc]C[b-pl-w])"
      "(;HA[1]C[ha1];C[empty])",
      0);
  const sgf_tree *t = sgf_collection_tree(col, 0);
  (void)state;
  assert_int_equal(sgf_collection_count(col), 3);
  assert_int_equal(sgf_node_move_number(by_comment(t, "r")), 0);
  assert_int_equal(sgf_node_move_number(by_comment(t, "1")), 1);
  assert_int_equal(sgf_node_move_number(by_comment(t, "10")), 10);
  assert_int_equal(sgf_node_move_number(by_comment(t, "11")), 11);
  assert_int_equal(sgf_node_move_number(by_comment(t, "12")), 12);
  assert_int_equal(sgf_node_move_number(by_comment(t, "x")), 11);
  assert_int_equal(sgf_node_move_number(by_comment(t, "20")), 20);
  assert_int_equal(sgf_node_move_number(by_comment(t, "pl")), 20);
  assert_int_equal(sgf_node_move_number(by_comment(t, "mnbad")), 12);
  assert_int_equal(sgf_node_ply(by_comment(t, "20")), 4);
  assert_int_equal(sgf_node_to_play(by_comment(t, "x")), SGF_COLOR_WHITE);
  assert_int_equal(sgf_node_to_play(by_comment(t, "20")), SGF_COLOR_BLACK);
  assert_int_equal(sgf_node_to_play(by_comment(t, "pl")), SGF_COLOR_WHITE);

  t = sgf_collection_tree(col, 1);
  assert_int_equal(sgf_node_to_play(by_comment(t, "ha")), SGF_COLOR_WHITE);
  assert_int_equal(sgf_node_to_play(by_comment(t, "setup")), SGF_COLOR_WHITE);
  assert_int_equal(sgf_node_to_play(by_comment(t, "w1")), SGF_COLOR_BLACK);
  /* PL in the node wins over its own move */
  assert_int_equal(sgf_node_to_play(by_comment(t, "b-pl-w")), SGF_COLOR_WHITE);
  t = sgf_collection_tree(col, 2);
  assert_int_equal(sgf_node_to_play(by_comment(t, "ha1")), SGF_COLOR_BLACK);
  assert_int_equal(sgf_node_to_play(by_comment(t, "empty")), SGF_COLOR_BLACK);
  sgf_collection_free(col);
}

/* Identifiers normalized and as written; values raw, in file order. */
/* Positions of move nodes (node ';', identifier, '[') in every layout
 * the builder's fast handlers meet or must hand on: on one line, after
 * line breaks of each kind, an identifier and its '[' on different lines,
 * an empty value; the whole input at once and byte by byte. */
static int pos_keep(sgf_tree_builder *b, void *user, sgf_tree *t) {
  (void)user;
  *(sgf_tree **)user = sgf_tree_builder_keep(b);
  (void)t;
  return SGF_CONTINUE;
}

/* got is byte off of in: line breaks LF, CR or CR LF, columns in bytes. */
static void assert_pos_at(sgf_pos got, const char *in, size_t off) {
  uint64_t line = 1, col = 1;
  for (size_t i = 0; i < off; i++) {
    if (in[i] == '\r' || in[i] == '\n') {
      if (in[i] == '\r' && i + 1 < off && in[i + 1] == '\n') i++;
      line++;
      col = 1;
    } else {
      col++;
    }
  }
  assert_int_equal(got.offset, off);
  assert_int_equal(got.line, line);
  assert_int_equal(got.column, col);
}

static void test_move_positions(void **state) {
  const char *in =
      "(;FF[4]\n;B[aa];W[bb]\n;B\n[cc];W[]\r\n;B[dd]\r;W"
      "\r\n[ee];B[ff]\n\n;W[gg])";
  size_t len = strlen(in);
  (void)state;
  for (size_t chunk = 1; chunk <= len; chunk += len - 1) {
    sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                     pos_keep, NULL, NULL};
    sgf_tree *t = NULL;
    sgf_tree_builder_options o;
    sgf_tree_builder *b;
    sgf_parser *p;
    const sgf_node *n;
    size_t off, moves = 0;
    sgf_tree_builder_options_init(&o);
    o.flags = SGF_TREE_POSITIONS;
    b = sgf_tree_builder_create(&cb, &t, &o);
    p = sgf_tree_builder_parser(b);
    for (size_t i = 0; i < len; i += chunk)
      assert_int_equal(
          sgf_parser_feed(p, in + i, len - i < chunk ? len - i : chunk, NULL),
          SGF_OK);
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    assert_non_null(t);
    off = (size_t)(strchr(in, ';') - in); /* the root's */
    assert_pos_at(sgf_node_pos(sgf_tree_root(t)), in, off);
    n = sgf_node_first_child(sgf_tree_root(t));
    for (; n; n = sgf_node_first_child(n), moves++) {
      sgf_prop_view pr = sgf_node_prop(n, 0);
      off = (size_t)(strchr(in + off + 1, ';') - in);
      assert_pos_at(sgf_node_pos(n), in, off);
      assert_int_equal(pr.nvalues, 1);
      assert_pos_at(pr.pos, in, (size_t)(strpbrk(in + off, "BW") - in));
      assert_pos_at(sgf_prop_value(&pr, 0).pos, in,
                    (size_t)(strchr(in + off, '[') - in));
    }
    assert_int_equal(moves, 8);
    sgf_tree_free(t);
    sgf_tree_builder_destroy(b);
  }
}

/* sgf_node_line() against the one-node calls it stands for, in chunks of
 * every size from 1 to past the line's end, on a parsed tree (moves
 * inline, others not, variations off the line), with positions kept, and
 * after a cursor's edits. */
static void test_node_line(void **state) {
  const char *in =
      "(;FF[4]C[r];B[pd];W[]C[x];C[y]W[qq]B[aa];B[tt]"
      "(;B[abcd];W[dd][ee])(;B[qq]))";
  (void)state;
  for (int pass = 0; pass < 3; pass++) {
    sgf_collection *col = parse_with(in, 0, pass == 1 ? SGF_TREE_POSITIONS : 0);
    sgf_tree *t = sgf_collection_tree(col, 0);
    const sgf_node *root = sgf_tree_root(t), *m;
    size_t want = 0;
    if (pass == 2) { /* edited: a node added at the end, values changed */
      sgf_cursor *c = sgf_cursor_create(t);
      for (m = root; sgf_node_first_child(m); m = sgf_node_first_child(m))
        ;
      assert_int_equal(sgf_cursor_goto(c, m), SGF_OK);
      assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 3, 4, 0),
                       SGF_OK);
      assert_int_equal(sgf_cursor_goto(c, sgf_node_first_child(root)), SGF_OK);
      assert_int_equal(sgf_cursor_add_value(c, "TE", "1", 1), SGF_OK);
      sgf_cursor_destroy(c);
    }
    for (m = root; m; m = sgf_node_first_child(m)) want++;
    assert_int_equal(want, pass == 2 ? 8 : 7);
    for (size_t cap = 1; cap <= want + 1; cap++) {
      sgf_line_node buf[16];
      const sgf_node *rest = root;
      size_t got = 0;
      m = root;
      while (rest) {
        size_t k = sgf_node_line(rest, buf, cap, &rest);
        assert_true(k >= 1 && k <= cap);
        for (size_t i = 0; i < k; i++, got++, m = sgf_node_first_child(m)) {
          const char *raw;
          size_t len;
          sgf_color c = sgf_node_move_raw(m, &raw, &len);
          assert_ptr_equal(buf[i].node, m);
          assert_int_equal(buf[i].id, sgf_node_id(m));
          assert_int_equal(buf[i].nprops, sgf_node_prop_count(m));
          assert_int_equal(buf[i].move, c);
          assert_ptr_equal(buf[i].raw, raw);
          assert_int_equal(buf[i].len, len);
        }
        if (rest) assert_ptr_equal(rest, m);
      }
      assert_int_equal(got, want);
      assert_null(m);
    }
    {
      sgf_line_node one;
      const sgf_node *rest = root;
      assert_int_equal(sgf_node_line(NULL, &one, 1, &rest), 0);
      assert_null(rest);
      assert_int_equal(sgf_node_line(root, &one, 0, &rest), 0);
      assert_ptr_equal(rest, root);
      assert_int_equal(sgf_node_line(root, &one, 1, NULL), 1);
    }
    sgf_collection_free(col);
  }
}

/* Identity numbers: dense, the root 0, below the limit; kept by every
 * edit (added nodes get new ones, deletion frees none, promotion and
 * reparenting change pre-order indexes but no id). */
static void test_node_ids(void **state) {
  sgf_collection *col =
      parse("(;C[r](;C[a];C[b](;C[c])(;C[d]))(;C[e];C[f]))", 0);
  sgf_tree *t = sgf_collection_tree(col, 0);
  const char *names = "rabcdef";
  size_t id[7], n = strlen(names), limit = sgf_tree_id_limit(t);
  unsigned char seen[16] = {0};
  sgf_cursor *c = sgf_cursor_create(t);
  (void)state;
  assert_int_equal(limit, sgf_tree_node_count(t));
  for (size_t i = 0; i < n; i++) {
    char nm[2] = {names[i], 0};
    id[i] = sgf_node_id(by_comment(t, nm));
    assert_true(id[i] < limit);
    assert_false(seen[id[i]]);
    seen[id[i]] = 1;
  }
  assert_int_equal(id[0], 0);
  assert_int_equal(sgf_node_id(sgf_tree_root(t)), 0);
  /* promote e's line: pre-order indexes change, ids do not */
  assert_int_equal(sgf_cursor_goto(c, by_comment(t, "f")), SGF_OK);
  assert_int_equal(sgf_cursor_promote(c), SGF_OK);
  assert_int_equal(sgf_node_index(by_comment(t, "e")), 1);
  /* d under f; a new node after b; c deleted */
  assert_int_equal(sgf_cursor_goto(c, by_comment(t, "d")), SGF_OK);
  assert_int_equal(sgf_cursor_reparent(c, by_comment(t, "f"), 0), SGF_OK);
  assert_int_equal(sgf_cursor_goto(c, by_comment(t, "b")), SGF_OK);
  assert_int_equal(sgf_cursor_add_node(c, SGF_CURSOR_VARIATION), SGF_OK);
  assert_int_equal(sgf_node_id(sgf_cursor_node(c)), limit);
  assert_int_equal(sgf_tree_id_limit(t), limit + 1);
  assert_int_equal(sgf_cursor_goto(c, by_comment(t, "c")), SGF_OK);
  assert_int_equal(sgf_cursor_delete(c), SGF_OK);
  assert_int_equal(sgf_tree_id_limit(t), limit + 1);
  for (size_t i = 0; i < n; i++) {
    char nm[2] = {names[i], 0};
    if (names[i] != 'c')
      assert_int_equal(sgf_node_id(by_comment(t, nm)), id[i]);
  }
  check_invariants(t);
  sgf_cursor_destroy(c);
  /* a new tree: its root is 0 */
  {
    sgf_tree *u = sgf_tree_create(NULL);
    assert_non_null(u);
    assert_int_equal(sgf_node_id(sgf_tree_root(u)), 0);
    assert_int_equal(sgf_tree_id_limit(u), 1);
    sgf_tree_free(u);
  }
  sgf_collection_free(col);
}

/* sgf_node_move_raw() against sgf_node_move()'s view and a hand-checked
 * answer: a move inline in its node, a longer value, a pass, a move
 * among other properties, W before B (the first counts), two values, no
 * move; with and without positions (no inline moves then), and on a
 * node a cursor edited. */
static void test_move_raw(void **state) {
  static const struct {
    sgf_color color;
    const char *raw;
  } want[] = {
      {SGF_COLOR_NONE, NULL}, /* root */
      {SGF_COLOR_BLACK, "pd"},   {SGF_COLOR_WHITE, ""},
      {SGF_COLOR_BLACK, "abcd"}, {SGF_COLOR_WHITE, "dd"},
      {SGF_COLOR_WHITE, "qq"},   {SGF_COLOR_BLACK, "ee"},
      {SGF_COLOR_NONE, NULL},    {SGF_COLOR_BLACK, "tt"},
  };
  const char *in =
      "(;FF[4]SZ[19];B[pd];W[];B[abcd];W[dd]C[x];C[y]W[qq]B[aa]"
      ";B[ee][ff];C[z]AB[cc];B[tt])";
  (void)state;
  for (int pass = 0; pass < 3; pass++) {
    sgf_collection *col = parse_with(in, 0, pass == 1 ? SGF_TREE_POSITIONS : 0);
    sgf_tree *t = sgf_collection_tree(col, 0);
    const sgf_node *n = sgf_tree_root(t);
    size_t i = 0;
    if (pass == 2) { /* every node's properties edited by a cursor */
      sgf_cursor *c = sgf_cursor_create(t);
      for (const sgf_node *m = n; m; m = sgf_node_first_child(m)) {
        assert_int_equal(sgf_cursor_goto(c, m), SGF_OK);
        assert_int_equal(sgf_cursor_add_value(c, "TE", "1", 1), SGF_OK);
      }
      sgf_cursor_destroy(c);
    }
    for (; n; n = sgf_node_first_child(n), i++) {
      const char *raw = "junk";
      size_t len = 99;
      sgf_value_view v;
      sgf_color col_view = sgf_node_move(n, &v);
      assert_true(i < sizeof want / sizeof want[0]);
      assert_int_equal(sgf_node_move_raw(n, &raw, &len), want[i].color);
      assert_int_equal(col_view, want[i].color);
      assert_int_equal(sgf_node_move_raw(n, NULL, NULL), want[i].color);
      if (!want[i].raw) {
        assert_null(raw);
        assert_int_equal(len, 0);
        continue;
      }
      assert_int_equal(len, strlen(want[i].raw));
      assert_memory_equal(raw, want[i].raw, len);
      assert_int_equal(raw[len], '\0');
      assert_ptr_equal(raw, v.raw); /* the view's own bytes */
      assert_int_equal(len, v.len);
    }
    assert_int_equal(i, sizeof want / sizeof want[0]);
    sgf_collection_free(col);
  }
}

/* Positions are kept only when asked for: without SGF_TREE_POSITIONS
 * the same tree has zeros there and takes fewer bytes. */
static void test_positions_opt_in(void **state) {
  sgf_collection *kept = parse_with(ff4_example, 0, SGF_TREE_POSITIONS);
  sgf_collection *plain = parse(ff4_example, 0);
  const sgf_tree *tk = sgf_collection_tree(kept, 0);
  const sgf_tree *tp = sgf_collection_tree(plain, 0);
  sgf_node_iter ik, ip;
  const sgf_node *nk, *np;
  size_t nodes = 0, values = 0;
  char game[4000];
  (void)state;
  assert_int_equal(sgf_tree_node_count(tk), sgf_tree_node_count(tp));
  /* fewer bytes: on a game big enough for the arena's blocks to tell */
  strcpy(game, "(;GM[1]");
  for (int i = 0; i < 300; i++) strcat(game, i % 2 ? ";W[bb]" : ";B[aa]");
  strcat(game, ")");
  {
    sgf_collection *a = parse_with(game, 0, SGF_TREE_POSITIONS);
    sgf_collection *b = parse(game, 0);
    sgf_tree *tb = sgf_collection_tree(b, 0);
    uint64_t before = sgf_tree_byte_count(tb);
    assert_true(before < sgf_tree_byte_count(sgf_collection_tree(a, 0)));
    /* the position index (with the other derived facts) is made when
     * first asked for, and counted */
    assert_ptr_equal(sgf_tree_node_at(tb, 0), sgf_tree_root(tb));
    assert_true(sgf_tree_byte_count(tb) >=
                before + sgf_tree_node_count(tb) * sizeof(void *));
    sgf_collection_free(a);
    sgf_collection_free(b);
  }
  sgf_node_iter_preorder_init(&ik, sgf_tree_root(tk));
  sgf_node_iter_preorder_init(&ip, sgf_tree_root(tp));
  while ((nk = sgf_node_iter_next(&ik)) != NULL) {
    np = sgf_node_iter_next(&ip);
    assert_non_null(np);
    assert_int_equal(sgf_node_pos(np).offset, 0);
    assert_int_equal(sgf_node_pos(np).line, 0);
    assert_true(sgf_node_pos(nk).line > 0);
    assert_int_equal(sgf_node_prop_count(nk), sgf_node_prop_count(np));
    for (size_t i = 0; i < sgf_node_prop_count(nk); i++) {
      sgf_prop_view a = sgf_node_prop(nk, i), b = sgf_node_prop(np, i);
      assert_string_equal(a.ident, b.ident);
      assert_int_equal(b.pos.offset, 0);
      assert_true(a.pos.offset > 0);
      assert_int_equal(a.nvalues, b.nvalues);
      for (size_t j = 0; j < a.nvalues; j++, values++) {
        sgf_value_view va = sgf_prop_value(&a, j), vb = sgf_prop_value(&b, j);
        assert_int_equal(va.len, vb.len);
        assert_memory_equal(va.raw, vb.raw, va.len);
        assert_true(va.pos.offset > 0);
        assert_int_equal(vb.pos.offset, 0);
        assert_int_equal(vb.pos.column, 0);
      }
    }
    nodes++;
  }
  assert_null(sgf_node_iter_next(&ip));
  assert_true(nodes > 10 && values >= nodes);
  sgf_collection_free(kept);
  sgf_collection_free(plain);
}

static void test_properties_raw(void **state) {
  const char *s =
      "(;CoPyright[x]b[aa]C[a\\]b\\\\]AB[aa][bb]\n[cc]XX[]"
      "C[second])";
  sgf_collection *col = parse_with(s, 0, SGF_TREE_POSITIONS);
  const sgf_node *n = sgf_tree_root(sgf_collection_tree(col, 0));
  sgf_prop_view p;
  char out[16];
  size_t k;
  (void)state;
  assert_int_equal(sgf_node_prop_count(n), 6);
  p = sgf_node_prop(n, 0);
  assert_string_equal(p.ident, "CP");
  assert_string_equal(p.raw_ident, "CoPyright");
  assert_int_equal(p.raw_ident_len, 9);
  assert_int_equal(p.pos.offset, 2);
  assert_int_equal(sgf_prop_value(&p, 0).pos.offset, 11);
  p = sgf_node_prop(n, 1);
  assert_string_equal(p.ident, "B");
  assert_string_equal(p.raw_ident, "b");
  assert_int_equal(sgf_node_move(n, NULL), SGF_COLOR_BLACK);
  p = sgf_node_find_prop(n, "C"); /* the first C */
  assert_ptr_equal(p.ident, sgf_node_prop(n, 2).ident);
  assert_int_equal(p.pos.offset, sgf_node_prop(n, 2).pos.offset);
  assert_int_equal(sgf_prop_value(&p, 0).len, 6);
  assert_memory_equal(sgf_prop_value(&p, 0).raw, "a\\]b\\\\", 6);
  k = sgf_unescape(sgf_prop_value(&p, 0).raw, sgf_prop_value(&p, 0).len, out);
  assert_int_equal(k, 4);
  assert_memory_equal(out, "a]b\\", 4);
  p = sgf_node_find_prop(n, "AB");
  assert_int_equal(p.nvalues, 3);
  assert_string_equal(sgf_prop_value(&p, 2).raw, "cc");
  assert_int_equal(sgf_prop_value(&p, 2).pos.line, 2);
  assert_null(sgf_prop_value(&p, 3).raw);
  p = sgf_node_find_prop(n, "XX");
  assert_int_equal(sgf_prop_value(&p, 0).len, 0);
  assert_string_equal(sgf_prop_value(&p, 0).raw, "");
  assert_string_equal(val_at(n, 5, 0).raw, "second");
  assert_int_equal(sgf_node_prop(n, 6).nvalues, 0);
  assert_null(sgf_node_prop(n, 6).ident);
  assert_int_equal(sgf_node_find_prop(n, "W").nvalues, 0);
  sgf_collection_free(col);
}

static void test_points(void **state) {
  char pt[2];
  int x = -5, y = -5;
  (void)state;
  assert_int_equal(sgf_point_encode(0, 0, pt), 2);
  assert_memory_equal(pt, "aa", 2);
  assert_int_equal(sgf_point_encode(3, 15, pt), 2);
  assert_memory_equal(pt, "dp", 2);
  assert_int_equal(sgf_point_encode(25, 26, pt), 2);
  assert_memory_equal(pt, "zA", 2);
  assert_int_equal(sgf_point_encode(51, 30, pt), 2);
  assert_memory_equal(pt, "ZE", 2);
  assert_int_equal(sgf_point_encode(SGF_PASS, SGF_PASS, pt), 0);
  assert_int_equal(sgf_point_encode(52, 0, pt), SGF_ERANGE);
  assert_int_equal(sgf_point_encode(-2, 0, pt), SGF_ERANGE);
  assert_int_equal(sgf_point_decode("dp", 2, &x, &y), SGF_OK);
  assert_int_equal(x, 3);
  assert_int_equal(y, 15);
  assert_int_equal(sgf_point_decode("ZE", 2, &x, &y), SGF_OK);
  assert_int_equal(x, 51);
  assert_int_equal(y, 30);
  assert_int_equal(sgf_point_decode("", 0, &x, &y), SGF_OK);
  assert_int_equal(x, SGF_PASS);
  assert_int_equal(y, SGF_PASS);
  assert_int_equal(sgf_point_decode("tt", 2, &x, &y), SGF_OK);
  assert_int_equal(x, 19);
  assert_int_equal(sgf_point_decode("a1", 2, &x, &y), SGF_ESYNTAX);
  assert_int_equal(sgf_point_decode("abc", 3, &x, &y), SGF_ESYNTAX);
}

/* ------------------------------------------------------------------ */
/* The builder: modes, callbacks, contract                             */

typedef struct gamelog {
  size_t games, kept_count;
  int keep_every; /* keep every k-th game (0: none) */
  int action;     /* returned by on_game */
  sgf_tree *kept[64];
  bytebuf sig;
  size_t diags;
  sgf_diag last;
  int take_in_game; /* take the collection from inside on_game */
  sgf_collection *taken[8];
  size_t ntaken;
  countalloc *quiet; /* no failures while reading a tree in on_game (its
                        derived facts are a cache made on first use,
                        whose failure only makes the queries walk) */
} gamelog;

static int g_on_game(sgf_tree_builder *b, void *user, sgf_tree *t) {
  gamelog *g = user;
  g->games++;
  if (g->quiet) {
    size_t fc = g->quiet->fail_count;
    g->quiet->fail_count = 0;
    signature(t, &g->sig);
    g->quiet->fail_count = fc;
  } else {
    signature(t, &g->sig);
  }
  bytebuf_adds(&g->sig, "--\n");
  if (g->keep_every && g->games % (size_t)g->keep_every == 0) {
    sgf_tree *k = sgf_tree_builder_keep(b);
    assert_ptr_equal(k, t);
    assert_null(sgf_tree_builder_keep(b)); /* only once */
    g->kept[g->kept_count++] = k;
  }
  if (g->take_in_game && g->ntaken < 8)
    g->taken[g->ntaken++] = sgf_tree_builder_collection_take(b);
  return g->action;
}

static int g_on_diag(sgf_parser *p, void *user, const sgf_diag *d) {
  gamelog *g = user;
  (void)p;
  g->diags++;
  g->last = *d;
  return SGF_CONTINUE;
}

static void gamelog_free(gamelog *g) {
  size_t i;
  for (i = 0; i < g->kept_count; i++) sgf_tree_free(g->kept[i]);
  for (i = 0; i < g->ntaken; i++) sgf_collection_free(g->taken[i]);
  bytebuf_free(&g->sig);
}

static int feed_all(sgf_parser *p, const char *s, size_t len, size_t chunk) {
  size_t off = 0;
  int st = SGF_OK;
  if (chunk == 0) chunk = len ? len : 1;
  while (off < len && st == SGF_OK) {
    size_t n = len - off < chunk ? len - off : chunk, used;
    st = sgf_parser_feed(p, s + off, n, &used);
    off += used;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  return st;
}

static void test_one_game_mode_and_keep(void **state) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, g_on_diag, NULL};
  gamelog g;
  sgf_tree_builder *b;
  size_t chunk;
  bytebuf whole = {0};
  (void)state;
  /* the reference: whole buffer */
  for (chunk = 0; chunk <= 7; chunk++) {
    memset(&g, 0, sizeof g);
    g.keep_every = 2;
    b = sgf_tree_builder_create(&cb, &g, NULL);
    assert_non_null(b);
    assert_null(sgf_tree_builder_collection_take(b)); /* not collecting */
    assert_int_equal(feed_all(sgf_tree_builder_parser(b), cql_example,
                              strlen(cql_example), chunk),
                     SGF_OK);
    assert_int_equal(feed_all(sgf_tree_builder_parser(b), "", 0, 0), SGF_OK);
    sgf_parser_reset(sgf_tree_builder_parser(b));
    assert_int_equal(feed_all(sgf_tree_builder_parser(b), ff4_example,
                              strlen(ff4_example), chunk),
                     SGF_OK);
    sgf_tree_builder_destroy(b);
    assert_int_equal(g.games, 2);
    assert_int_equal(g.kept_count, 1);
    assert_int_equal(sgf_tree_node_count(g.kept[0]), 11); /* ff4, kept */
    check_invariants(g.kept[0]);
    if (chunk == 0)
      bytebuf_adds(&whole, g.sig.p);
    else
      assert_string_equal(g.sig.p, whole.p);
    gamelog_free(&g);
  }
  bytebuf_free(&whole);
}

static void test_collection_mode(void **state) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, g_on_diag, NULL};
  sgf_tree_builder_options o;
  gamelog g;
  sgf_tree_builder *b;
  sgf_collection *c;
  sgf_tree *t;
  bytebuf s = {0};
  (void)state;
  bytebuf_adds(&s, ff4_example);
  bytebuf_adds(&s, "\n");
  bytebuf_adds(&s, cql_example);
  bytebuf_adds(&s, "(;C[third])");
  sgf_tree_builder_options_init(&o);
  o.flags = SGF_TREE_COLLECT;
  memset(&g, 0, sizeof g);
  g.keep_every = 3; /* the third is kept by on_game, not collected */
  b = sgf_tree_builder_create(&cb, &g, &o);
  assert_int_equal(feed_all(sgf_tree_builder_parser(b), s.p, s.len, 5), SGF_OK);
  c = sgf_tree_builder_collection_take(b);
  assert_non_null(c);
  assert_int_equal(sgf_collection_count(c), 2);
  assert_int_equal(sgf_tree_node_count(sgf_collection_tree(c, 0)), 11);
  assert_int_equal(sgf_tree_node_count(sgf_collection_tree(c, 1)), 10);
  assert_null(sgf_collection_tree(c, 2));
  t = sgf_collection_tree_take(c, 0);
  assert_null(sgf_collection_tree(c, 0));
  assert_int_equal(sgf_collection_count(c), 2);
  sgf_collection_free(c);
  check_invariants(t);
  sgf_tree_free(t);
  /* the builder goes on with a new, empty collection */
  c = sgf_tree_builder_collection_take(b);
  assert_int_equal(sgf_collection_count(c), 0);
  sgf_collection_free(c);
  /* reset discards collected trees */
  sgf_parser_reset(sgf_tree_builder_parser(b));
  assert_int_equal(feed_all(sgf_tree_builder_parser(b), s.p, s.len, 0), SGF_OK);
  sgf_tree_builder_reset(b);
  c = sgf_tree_builder_collection_take(b);
  assert_int_equal(sgf_collection_count(c), 0);
  sgf_collection_free(c);
  /* taking the collection from inside on_game */
  g.take_in_game = 1;
  g.keep_every = 0;
  assert_int_equal(feed_all(sgf_tree_builder_parser(b), s.p, s.len, 0), SGF_OK);
  assert_int_equal(g.ntaken, 3);
  /* each take happened before its own tree was added */
  assert_int_equal(sgf_collection_count(g.taken[0]), 0);
  assert_int_equal(sgf_collection_count(g.taken[1]), 1);
  assert_int_equal(sgf_collection_count(g.taken[2]), 1);
  c = sgf_tree_builder_collection_take(b);
  assert_int_equal(sgf_collection_count(c), 1);
  assert_int_equal(sgf_tree_node_count(sgf_collection_tree(c, 0)), 1);
  sgf_collection_free(c);
  sgf_tree_builder_destroy(b);
  gamelog_free(&g);
  bytebuf_free(&s);
}

static void test_mainline_mode(void **state) {
  sgf_collection *col = parse(ff4_example, SGF_OPT_MAINLINE);
  const sgf_tree *t = sgf_collection_tree(col, 0);
  sgf_node_iter it;
  const sgf_node *n;
  size_t k = 0;
  (void)state;
  assert_int_equal(sgf_tree_node_count(t), 4); /* root a b c */
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    assert_true(sgf_node_child_count(n) <= 1);
    assert_true(sgf_node_is_mainline(n));
    k++;
  }
  assert_int_equal(k, 4);
  assert_non_null(by_comment(t, "c"));
  sgf_collection_free(col);
  col = parse(cql_example, SGF_OPT_MAINLINE);
  t = sgf_collection_tree(col, 0);
  assert_int_equal(sgf_tree_node_count(t), 4);
  assert_int_equal(sgf_node_ply(by_comment(t, "2. d4")), 3);
  sgf_collection_free(col);
  /* a node after a variation opens an implicit variation (lenient core):
   * in mainline mode it is not on the main line either */
  col = parse("(;C[a](;C[b];C[b2])(;C[x]);C[c](;C[e]);C[d])(;C[z])",
              SGF_OPT_MAINLINE);
  assert_int_equal(sgf_collection_count(col), 2);
  t = sgf_collection_tree(col, 0);
  assert_int_equal(sgf_tree_node_count(t), 3); /* a b b2 */
  assert_int_equal(sgf_node_child_count(sgf_tree_root(t)), 1);
  check_invariants(t);
  assert_int_equal(sgf_tree_node_count(sgf_collection_tree(col, 1)), 1);
  sgf_collection_free(col);
  /* ... and that repair is still reported: an error in strict mode */
  {
    sgf_tree_builder_options o;
    sgf_options po;
    sgf_diag err;
    const char *bad = "(;C[a](;C[b])(;C[x]);C[c])";
    sgf_tree_builder_options_init(&o);
    sgf_options_init(&po);
    o.parser = &po;
    po.flags = SGF_OPT_MAINLINE | SGF_OPT_STRICT;
    memset(&err, 0, sizeof err);
    assert_null(sgf_collection_parse(bad, strlen(bad), &o, &err));
    assert_int_equal(err.code, SGF_DIAG_NODE_AFTER_VARIATION);
    assert_int_equal(err.pos.offset, strstr(bad, ";C[c]") - bad);
  }
}

/* Lenient repairs reach the tree as the core reports them. */
static void test_lenient_shapes(void **state) {
  sgf_collection *col = parse(
      "junk(;C[r](;C[a])(;C[b]);C[after])(;C[t2]()(;C[x]))(C[noSemi])", 0);
  const sgf_tree *t = sgf_collection_tree(col, 0);
  (void)state;
  assert_int_equal(sgf_collection_count(col), 3);
  /* a node after variations opens a variation of its own */
  assert_int_equal(sgf_node_child_count(sgf_tree_root(t)), 3);
  assert_int_equal(sgf_node_child_index(by_comment(t, "after")), 2);
  assert_int_equal(sgf_node_variation_depth(by_comment(t, "after")), 1);
  t = sgf_collection_tree(col, 1);
  assert_int_equal(sgf_tree_node_count(t), 2);
  t = sgf_collection_tree(col, 2);
  assert_int_equal(sgf_tree_node_count(t), 1);
  check_invariants(t);
  sgf_collection_free(col);
}

/* Orders the core never produces, through the detached handlers. */
static void test_detached_robust_order(void **state) {
  sgf_tree_builder_options o;
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, NULL, NULL};
  const sgf_callbacks *h = sgf_tree_builder_handlers();
  sgf_parser *p = sgf_parser_create(NULL, NULL, NULL);
  sgf_tree_builder *b;
  gamelog g;
  sgf_tree *t;
  (void)state;
  memset(&g, 0, sizeof g);
  g.keep_every = 1;
  sgf_tree_builder_options_init(&o);
  o.flags = SGF_TREE_DETACHED;
  b = sgf_tree_builder_create(&cb, &g, &o);
  assert_null(sgf_tree_builder_parser(b));
  /* node and property outside a game: ignored */
  assert_int_equal(h->on_node(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_tree_end(p, b), SGF_CONTINUE);
  /* "((;B[aa]" ")" ")" : the outer tree gets an empty node */
  assert_int_equal(h->on_tree_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_tree_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_node(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_property(p, b, "B", 1), SGF_CONTINUE);
  assert_int_equal(h->on_value_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_value_data(p, b, "a", 1), SGF_CONTINUE);
  assert_int_equal(h->on_value_data(p, b, "a", 1), SGF_CONTINUE);
  assert_int_equal(h->on_value_end(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_property_end(p, b), SGF_CONTINUE);
  /* a property never ended, then an empty variation */
  assert_int_equal(h->on_property(p, b, "C", 1), SGF_CONTINUE);
  assert_int_equal(h->on_value_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_tree_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_tree_end(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_tree_end(p, b), SGF_CONTINUE);
  assert_int_equal(g.games, 0);
  assert_int_equal(h->on_tree_end(p, b), SGF_CONTINUE);
  assert_int_equal(g.games, 1);
  t = g.kept[0];
  assert_int_equal(sgf_tree_node_count(t), 2);
  assert_int_equal(sgf_node_prop_count(sgf_tree_root(t)), 0);
  {
    const sgf_node *n = sgf_node_first_child(sgf_tree_root(t));
    assert_int_equal(sgf_node_prop_count(n), 1); /* C left out */
    assert_string_equal(val_at(n, 0, 0).raw, "aa");
    assert_int_equal(sgf_node_ply(n), 1);
  }
  /* a game with no node adds nothing */
  assert_int_equal(h->on_tree_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_tree_end(p, b), SGF_CONTINUE);
  assert_int_equal(g.games, 1);
  /* a game left open, then a new one: the partial one is dropped */
  assert_int_equal(h->on_tree_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_node(p, b), SGF_CONTINUE);
  sgf_tree_builder_reset(b);
  assert_int_equal(h->on_tree_begin(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_node(p, b), SGF_CONTINUE);
  assert_int_equal(h->on_tree_end(p, b), SGF_CONTINUE);
  assert_int_equal(g.games, 2);
  assert_int_equal(sgf_tree_node_count(g.kept[1]), 1);
  sgf_tree_builder_destroy(b);
  sgf_parser_destroy(p);
  gamelog_free(&g);
}

/* Detached: a user parser whose own handlers call the builder's. */
typedef struct combo {
  sgf_tree_builder *b;
  size_t nodes;
} combo;

static int combo_node(sgf_parser *p, void *u) {
  combo *c = u;
  c->nodes++;
  return sgf_tree_builder_handlers()->on_node(p, c->b);
}
#define FWD(name)                                                      \
  static int combo_##name(sgf_parser *p, void *u) {                    \
    return sgf_tree_builder_handlers()->on_##name(p, ((combo *)u)->b); \
  }
FWD(tree_begin)
FWD(tree_end)
FWD(value_begin)
FWD(value_end)
FWD(property_end)
#undef FWD
static int combo_property(sgf_parser *p, void *u, const char *at, size_t n) {
  return sgf_tree_builder_handlers()->on_property(p, ((combo *)u)->b, at, n);
}
static int combo_data(sgf_parser *p, void *u, const char *at, size_t n) {
  return sgf_tree_builder_handlers()->on_value_data(p, ((combo *)u)->b, at, n);
}

static void test_detached_with_own_parser(void **state) {
  sgf_callbacks mine = {sizeof(sgf_callbacks),
                        combo_tree_begin,
                        combo_tree_end,
                        combo_node,
                        combo_property,
                        combo_value_begin,
                        combo_data,
                        combo_value_end,
                        combo_property_end,
                        NULL,
                        NULL,
                        NULL,
                        NULL};
  sgf_tree_builder_options o;
  combo c;
  sgf_parser *p;
  sgf_collection *col;
  (void)state;
  sgf_tree_builder_options_init(&o);
  o.flags = SGF_TREE_DETACHED | SGF_TREE_COLLECT;
  c.b = sgf_tree_builder_create(NULL, NULL, &o);
  c.nodes = 0;
  p = sgf_parser_create(&mine, &c, NULL);
  assert_int_equal(feed_all(p, cql_example, strlen(cql_example), 3), SGF_OK);
  assert_int_equal(c.nodes, 10);
  col = sgf_tree_builder_collection_take(c.b);
  assert_int_equal(sgf_collection_count(col), 1);
  assert_int_equal(sgf_tree_node_count(sgf_collection_tree(col, 0)), 10);
  check_invariants(sgf_collection_tree(col, 0));
  sgf_collection_free(col);
  sgf_parser_destroy(p);
  sgf_tree_builder_destroy(c.b);
}

/* Pass-through events: the user's actions are honoured. */
typedef struct passer {
  gamelog g; /* first */
  size_t events;
  size_t act_at; /* 1-based event number to act at (0: never) */
  int action;
  size_t nodes;
} passer;

static int pa(passer *u) {
  return ++u->events == u->act_at ? u->action : SGF_CONTINUE;
}
static int pa_plain(sgf_parser *p, void *u) {
  (void)p;
  return pa(u);
}
static int pa_node(sgf_parser *p, void *u) {
  (void)p;
  ((passer *)u)->nodes++;
  return pa(u);
}
static int pa_data(sgf_parser *p, void *u, const char *at, size_t n) {
  (void)p;
  (void)at;
  (void)n;
  return pa(u);
}

static int pa_value(sgf_parser *p, void *u, const char *at, size_t n,
                    unsigned flags) {
  (void)p;
  (void)at;
  (void)n;
  (void)flags;
  return pa(u);
}

static const sgf_callbacks pass_events = {sizeof(sgf_callbacks),
                                          pa_plain,
                                          pa_plain,
                                          pa_node,
                                          pa_data,
                                          pa_plain,
                                          pa_data,
                                          pa_plain,
                                          pa_plain,
                                          NULL,
                                          NULL,
                                          NULL,
                                          NULL};
/* The same, values whole (on_value): the builder's parser then delivers
 * values whole too. */
static const sgf_callbacks pass_whole = {sizeof(sgf_callbacks),
                                         pa_plain,
                                         pa_plain,
                                         pa_node,
                                         pa_data,
                                         NULL,
                                         NULL,
                                         NULL,
                                         pa_plain,
                                         NULL,
                                         pa_value,
                                         NULL,
                                         NULL};
static const sgf_callbacks *passing = &pass_events;

/* Run cql+ff4 with an action at event k; returns the feed status. */
static int run_passer(passer *u, size_t k, int action, size_t chunk) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, g_on_diag, passing};
  sgf_tree_builder *b;
  sgf_parser *p;
  bytebuf s = {0};
  int st = SGF_OK;
  size_t off = 0;
  memset(u, 0, sizeof *u);
  u->act_at = k;
  u->action = action;
  bytebuf_adds(&s, cql_example);
  bytebuf_adds(&s, ff4_example);
  b = sgf_tree_builder_create(&cb, u, NULL);
  p = sgf_tree_builder_parser(b);
  assert_ptr_equal(sgf_parser_user(p), b);
  if (chunk == 0) chunk = s.len;
  for (;;) {
    size_t used, n = s.len - off < chunk ? s.len - off : chunk;
    if (off == s.len) {
      st = sgf_parser_finish(p);
      if (st == SGF_PAUSED) {
        sgf_parser_resume(p);
        continue;
      }
      break;
    }
    st = sgf_parser_feed(p, s.p + off, n, &used);
    off += used;
    if (st == SGF_PAUSED) {
      sgf_parser_resume(p);
      continue;
    }
    if (st != SGF_OK) break;
  }
  sgf_tree_builder_destroy(b);
  bytebuf_free(&s);
  return st;
}

static void test_pass_through_pause_skip_abort(void **state) {
  passer ref, u;
  size_t k, total;
  size_t chunks[] = {0, 1, 4};
  size_t ci;
  (void)state;
  assert_int_equal(run_passer(&ref, 0, SGF_CONTINUE, 0), SGF_OK);
  assert_int_equal(ref.g.games, 2);
  assert_int_equal(ref.nodes, 21);
  total = ref.events;
  /* pausing anywhere changes nothing */
  for (ci = 0; ci < sizeof chunks / sizeof chunks[0]; ci++)
    for (k = 1; k <= total; k++) {
      assert_int_equal(run_passer(&u, k, SGF_PAUSE, chunks[ci]), SGF_OK);
      assert_string_equal(u.g.sig.p, ref.g.sig.p);
      if (chunks[ci] == 0) assert_int_equal(u.events, total);
      gamelog_free(&u.g);
    }
  /* aborting anywhere stops cleanly (no leak: valgrind / ASan) */
  for (k = 1; k <= total; k++) {
    assert_int_equal(run_passer(&u, k, SGF_ABORT, 0), SGF_EABORTED);
    assert_int_equal(u.events, k);
    assert_true(u.g.games <= 2);
    gamelog_free(&u.g);
  }
  /* skipping anywhere gives well-formed, smaller trees */
  for (k = 1; k <= total; k++) {
    assert_int_equal(run_passer(&u, k, SGF_SKIP, 0), SGF_OK);
    assert_true(u.events <= total);
    assert_true(u.g.games <= 2);
    gamelog_free(&u.g);
  }
  gamelog_free(&ref.g);
}

/* The same with the pass-through taking values whole: the trees are the
 * same as with no pass-through at all, and every action is honoured. */
static void test_pass_through_whole_values(void **state) {
  passer single, u;
  size_t k;
  (void)state;
  assert_int_equal(run_passer(&single, 0, SGF_CONTINUE, 0), SGF_OK);
  passing = &pass_whole;
  assert_int_equal(run_passer(&u, 0, SGF_CONTINUE, 0), SGF_OK);
  assert_string_equal(u.g.sig.p, single.g.sig.p);
  assert_int_equal(u.nodes, single.nodes);
  /* fewer calls: one a value in place of three */
  assert_true(u.events < single.events);
  {
    size_t total = u.events;
    gamelog_free(&u.g);
    for (k = 1; k <= total; k++) {
      assert_int_equal(run_passer(&u, k, SGF_PAUSE, 1), SGF_OK);
      assert_string_equal(u.g.sig.p, single.g.sig.p);
      gamelog_free(&u.g);
      assert_int_equal(run_passer(&u, k, SGF_ABORT, 0), SGF_EABORTED);
      assert_int_equal(u.events, k);
      gamelog_free(&u.g);
      assert_int_equal(run_passer(&u, k, SGF_SKIP, 3), SGF_OK);
      assert_true(u.g.games <= 2);
      gamelog_free(&u.g);
    }
  }
  passing = &pass_events;
  gamelog_free(&single.g);
}

static void test_skip_shapes(void **state) {
  passer u;
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, NULL, &pass_events};
  sgf_tree_builder *b;
  (void)state;
  /* skip at the 3rd node event (";C[b]"): the rest of the tree "a" lives in
   * (a, b and its variations c, d, e) is cut after b */
  memset(&u, 0, sizeof u);
  u.g.keep_every = 1;
  b = sgf_tree_builder_create(&cb, &u, NULL);
  {
    /* events: tree-begin 1, node 2 (root), property FF 3, value-begin 4,
     * data 5, value-end 6, property-end 7, tree-begin 8, node(a) 9 */
    u.act_at = 9;
    u.action = SGF_SKIP;
  }
  assert_int_equal(
      feed_all(sgf_tree_builder_parser(b), ff4_example, strlen(ff4_example), 0),
      SGF_OK);
  assert_int_equal(u.g.games, 1);
  /* a was made (its event came first), its property and the rest of its
   * tree skipped; the variation f... stays */
  assert_int_equal(sgf_tree_node_count(u.g.kept[0]), 7);
  {
    const sgf_node *a = sgf_node_first_child(sgf_tree_root(u.g.kept[0]));
    assert_int_equal(sgf_node_prop_count(a), 0);
    assert_int_equal(sgf_node_child_count(a), 0);
    check_invariants(u.g.kept[0]);
  }
  sgf_tree_builder_destroy(b);
  gamelog_free(&u.g);
}

static void test_on_game_actions(void **state) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, NULL, NULL};
  sgf_tree_builder *b;
  gamelog g;
  bytebuf s = {0};
  size_t used;
  int st;
  (void)state;
  bytebuf_adds(&s, ff4_example);
  bytebuf_adds(&s, cql_example);
  memset(&g, 0, sizeof g);
  g.action = SGF_PAUSE;
  b = sgf_tree_builder_create(&cb, &g, NULL);
  st = sgf_parser_feed(sgf_tree_builder_parser(b), s.p, s.len, &used);
  assert_int_equal(st, SGF_PAUSED);
  assert_int_equal(used, strlen(ff4_example));
  assert_int_equal(g.games, 1);
  sgf_parser_resume(sgf_tree_builder_parser(b));
  g.action = SGF_ABORT;
  st = sgf_parser_feed(sgf_tree_builder_parser(b), s.p + used, s.len - used,
                       &used);
  assert_int_equal(st, SGF_EABORTED);
  assert_int_equal(g.games, 2);
  sgf_tree_builder_destroy(b);
  gamelog_free(&g);
  bytebuf_free(&s);
}

/* A parser reset in the middle of a game: the partial game is dropped when
 * the next game begins. */
static void test_reset_mid_game(void **state) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, NULL, NULL};
  sgf_tree_builder *b;
  sgf_parser *p;
  gamelog g;
  countalloc cnt;
  sgf_tree_builder_options o;
  sgf_options po;
  (void)state;
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  po.allocator = NULL;
  {
    sgf_allocator a;
    countalloc_init(&cnt, &a, 1);
    po.allocator = &a;
    memset(&g, 0, sizeof g);
    g.keep_every = 1;
    b = sgf_tree_builder_create(&cb, &g, &o);
  }
  p = sgf_tree_builder_parser(b);
  assert_int_equal(sgf_parser_feed(p, ff4_example, 30, NULL), SGF_OK);
  sgf_parser_reset(p);
  assert_int_equal(feed_all(p, cql_example, strlen(cql_example), 0), SGF_OK);
  assert_int_equal(g.games, 1);
  assert_int_equal(sgf_tree_node_count(g.kept[0]), 10);
  /* again, with the builder's own reset */
  sgf_tree_builder_reset(b);
  assert_int_equal(sgf_parser_feed(p, ff4_example, 30, NULL), SGF_OK);
  sgf_tree_builder_reset(b);
  assert_int_equal(feed_all(p, ff4_example, strlen(ff4_example), 0), SGF_OK);
  assert_int_equal(g.games, 2);
  assert_int_equal(sgf_tree_node_count(g.kept[1]), 11);
  /* and a game left open at destroy */
  sgf_tree_builder_reset(b);
  assert_int_equal(sgf_parser_feed(p, ff4_example, 30, NULL), SGF_OK);
  sgf_tree_builder_destroy(b);
  gamelog_free(&g);
  assert_int_equal(cnt.live, 0);
  assert_int_equal(cnt.bad, 0);
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */

static int run_limited(const char *s, const sgf_tree_builder_options *o,
                       gamelog *g) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, g_on_diag, NULL};
  sgf_tree_builder *b = sgf_tree_builder_create(&cb, g, o);
  int st;
  assert_non_null(b);
  st = feed_all(sgf_tree_builder_parser(b), s, strlen(s), 0);
  if (st == SGF_EPARSE) {
    const sgf_diag *e = sgf_parser_error(sgf_tree_builder_parser(b));
    assert_non_null(e);
    assert_int_equal(e->code, g->last.code);
    assert_int_equal(e->severity, g->last.severity);
    assert_int_equal(e->pos.offset, g->last.pos.offset);
    assert_int_equal(e->mark.offset, g->last.mark.offset);
  }
  sgf_tree_builder_destroy(b);
  return st;
}

static void test_node_limit(void **state) {
  sgf_tree_builder_options o;
  sgf_options po;
  gamelog g;
  bytebuf s = {0};
  (void)state;
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  o.max_nodes = 5; /* root a b c d: e is one too many */
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(ff4_example, &o, &g), SGF_EPARSE);
  assert_int_equal(g.games, 0);
  assert_int_equal(g.last.code, SGF_DIAG_TREE_NODE_LIMIT);
  assert_int_equal(g.last.severity, SGF_SEV_FATAL);
  assert_int_equal(g.last.pos.offset,
                   strstr(ff4_example, ";C[e]") - ff4_example);
  assert_int_equal(g.last.has_mark, 1);
  assert_int_equal(g.last.mark.offset, 0);
  assert_string_equal(sgf_diag_name(SGF_DIAG_TREE_NODE_LIMIT),
                      "tree-node-limit");
  gamelog_free(&g);
  o.max_nodes = 11; /* exactly enough */
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(ff4_example, &o, &g), SGF_OK);
  assert_int_equal(g.games, 1);
  gamelog_free(&g);
  /* dropping the oversized game and going on */
  bytebuf_adds(&s, "(;C[one])\n");
  bytebuf_adds(&s, ff4_example);
  bytebuf_adds(&s, "(;C[three];B[aa])");
  o.max_nodes = 5;
  o.flags = SGF_TREE_SKIP_OVERSIZED;
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(s.p, &o, &g), SGF_OK);
  assert_int_equal(g.games, 2);
  assert_int_equal(g.diags, 1);
  assert_int_equal(g.last.code, SGF_DIAG_TREE_NODE_LIMIT);
  assert_int_equal(g.last.severity, SGF_SEV_ERROR);
  assert_int_equal(g.last.mark.offset, 10);
  gamelog_free(&g);
  /* in strict mode an error stops */
  po.flags = SGF_OPT_STRICT;
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(s.p, &o, &g), SGF_EPARSE);
  assert_int_equal(g.games, 1);
  gamelog_free(&g);
  bytebuf_free(&s);
}

static void test_byte_and_value_limits(void **state) {
  sgf_tree_builder_options o;
  sgf_options po;
  gamelog g;
  bytebuf s = {0};
  size_t i;
  (void)state;
  bytebuf_adds(&s, "(;C[");
  for (i = 0; i < 5000; i++) bytebuf_adds(&s, "x");
  bytebuf_adds(&s, "];B[aa])");
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  o.max_tree_bytes = 4096;
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(s.p, &o, &g), SGF_EPARSE);
  assert_int_equal(g.last.code, SGF_DIAG_TREE_BYTE_LIMIT);
  assert_int_equal(g.last.mark.offset, 0);
  assert_int_equal(g.games, 0);
  gamelog_free(&g);
  /* many small nodes hit it too */
  bytebuf_free(&s);
  bytebuf_adds(&s, "(;GM[1]");
  for (i = 0; i < 2000; i++) bytebuf_adds(&s, ";B[aa]");
  bytebuf_adds(&s, ")");
  o.max_tree_bytes = 100000;
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(s.p, &o, &g), SGF_EPARSE);
  assert_int_equal(g.last.code, SGF_DIAG_TREE_BYTE_LIMIT);
  gamelog_free(&g);
  o.max_tree_bytes = 0;
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(s.p, &o, &g), SGF_OK);
  gamelog_free(&g);
  /* the value limit: positioned at the value, marked at the property */
  o.max_value_bytes = 100;
  bytebuf_free(&s);
  bytebuf_adds(&s, "(;C[short]AB[aa]\n[bb]C[");
  for (i = 0; i < 200; i++) bytebuf_adds(&s, "y");
  bytebuf_adds(&s, "])");
  memset(&g, 0, sizeof g);
  assert_int_equal(run_limited(s.p, &o, &g), SGF_EPARSE);
  assert_int_equal(g.last.code, SGF_DIAG_VALUE_LIMIT);
  assert_int_equal(g.last.pos.offset, 22);
  assert_int_equal(g.last.mark.offset, 21);
  assert_int_equal(g.last.pos.line, 2);
  gamelog_free(&g);
  bytebuf_free(&s);
}

/* ------------------------------------------------------------------ */
/* Allocation failure                                                  */

static void test_allocation_failure_builder(void **state) {
  bytebuf s = {0};
  size_t i;
  int modes;
  (void)state;
  bytebuf_adds(&s, ff4_example);
  bytebuf_adds(&s, cql_example);
  bytebuf_adds(&s, "(;CoPyright[x]C[");
  for (i = 0; i < 300; i++) bytebuf_adds(&s, "long comment ");
  bytebuf_adds(&s, "])");
  for (modes = 0; modes < 3; modes++) {
    for (i = 1;; i++) {
      countalloc c;
      sgf_allocator a;
      sgf_tree_builder_options o;
      sgf_options po;
      sgf_diag err;
      sgf_collection *col = NULL;
      int done;
      sgf_tree_builder_options_init(&o);
      sgf_options_init(&po);
      o.parser = &po;
      po.allocator = &a;
      countalloc_init(&c, &a, 1);
      fail_nth(&c, i);
      if (modes == 0) {
        col = sgf_collection_parse(s.p, s.len, &o, &err);
        if (!col) {
          assert_true(c.failures > 0);
          assert_int_equal(err.code, SGF_DIAG_NOMEM);
        } else {
          assert_int_equal(sgf_collection_count(col), 3);
          assert_int_equal(err.code, SGF_DIAG_NONE);
        }
        done = (c.failures == 0);
        sgf_collection_free(col);
      } else {
        /* one game at a time, keeping every game, fed in small chunks */
        sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                         g_on_game, g_on_diag, NULL};
        gamelog g;
        sgf_tree_builder *b;
        memset(&g, 0, sizeof g);
        g.keep_every = modes == 1 ? 1 : 0;
        g.quiet = &c;
        b = sgf_tree_builder_create(&cb, &g, &o);
        if (!b) {
          assert_true(c.failures > 0);
          done = 0;
        } else {
          int st = feed_all(sgf_tree_builder_parser(b), s.p, s.len, 7);
          if (c.failures > 0) {
            assert_int_equal(st, SGF_EPARSE);
            assert_int_equal(g.last.code, SGF_DIAG_NOMEM);
            assert_int_equal(sgf_parser_error(sgf_tree_builder_parser(b))->code,
                             SGF_DIAG_NOMEM);
          } else {
            assert_int_equal(st, SGF_OK);
            assert_int_equal(g.games, 3);
          }
          done = (c.failures == 0);
          sgf_tree_builder_destroy(b);
        }
        gamelog_free(&g);
      }
      assert_int_equal(c.live, 0); /* no leak on any path */
      assert_int_equal(c.bad, 0);
      assert_int_equal(c.blocks, 0);
      if (done) break;
    }
    assert_true(i > 5);
  }
  bytebuf_free(&s);
}

/* Every cursor operation with every allocation failing: the result is
 * SGF_ENOMEM and the tree is as it was, or success. */
typedef int (*edit_fn)(sgf_cursor *c, int step);

static int edit_script(sgf_cursor *c, int step) {
  sgf_game_header h;
  switch (step) {
    case 0:
      memset(&h, 0, sizeof h);
      h.board_size = 19;
      h.has_komi = 1;
      h.komi = 6.5;
      h.black = "B]lack";
      return sgf_cursor_header(c, &h);
    case 1:
      return sgf_cursor_add_move(c, SGF_COLOR_BLACK, 3, 3, 0);
    case 2:
      return sgf_cursor_add_comment(c, "first");
    case 3:
      return sgf_cursor_add_comment(c, "second");
    case 4:
      return sgf_cursor_add_move(c, SGF_COLOR_WHITE, 15, 15, 0);
    case 5:
      return sgf_cursor_back(c);
    case 6:
      return sgf_cursor_add_move(c, SGF_COLOR_WHITE, 2, 2, 0);
    case 7:
      return sgf_cursor_add_node(c, 0);
    case 8:
      return sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 1, 1);
    case 9:
      return sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 1, 2);
    case 10:
      return sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 1, 3);
    case 11:
      return sgf_cursor_add_stone(c, SGF_COLOR_WHITE, 1, 2);
    case 12:
      return sgf_cursor_add_markup(c, SGF_MARKUP_TRIANGLE, 4, 4);
    case 13:
      return sgf_cursor_add_label(c, 5, 5, "A:b");
    case 14:
      return sgf_cursor_set_result(c, "B+R");
    case 15:
      return sgf_cursor_start_variation(c);
    case 16:
      return sgf_cursor_add_move(c, SGF_COLOR_BLACK, SGF_PASS, 0, 0);
    case 17:
      return sgf_cursor_add_value(c, "XX", "a\\]", 3);
    default:
      return 99;
  }
}

static void test_allocation_failure_cursor(void **state) {
  bytebuf ref = {0};
  size_t i;
  (void)state;
  for (i = 0;; i++) {
    countalloc c;
    sgf_allocator a;
    sgf_tree *t;
    sgf_cursor *cur;
    int step, r, failures = 0;
    bytebuf sig = {0};
    countalloc_init(&c, &a, 1);
    fail_nth(&c, i);
    t = sgf_tree_create(&a);
    cur = t ? sgf_cursor_create(t) : NULL;
    if (!cur) {
      assert_true(c.failures > 0);
      sgf_tree_free(t);
      assert_int_equal(c.live, 0);
      assert_int_equal(c.bad, 0);
      continue;
    }
    for (step = 0; (r = edit_script(cur, step)) != 99; step++) {
      if (r == SGF_ENOMEM) { /* retry: the tree was left as it was */
        failures++;
        r = edit_script(cur, step);
      }
      assert_int_equal(r, SGF_OK);
    }
    fail_nth(&c, 0); /* the checks below may build the position index */
    signature(t, &sig);
    if (i == 0)
      bytebuf_adds(&ref, sig.p);
    else
      assert_string_equal(sig.p, ref.p);
    check_invariants(t);
    sgf_cursor_destroy(cur);
    sgf_tree_free(t);
    bytebuf_free(&sig);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.bad, 0);
    if (i > 0 && (c.failures == 0)) break;
    assert_true(failures <= 1);
  }
  bytebuf_free(&ref);
}

/* ------------------------------------------------------------------ */
/* Deep and long trees                                                 */

static void test_long_line(void **state) {
  enum { N = 100000 };
  bytebuf s = {0};
  sgf_tree_builder_options o;
  sgf_collection *col;
  const sgf_tree *t;
  const sgf_node *n, *last = NULL;
  sgf_node_iter it;
  sgf_diag err;
  size_t i, k = 0;
  (void)state;
  bytebuf_adds(&s, "(;GM[1]SZ[19]");
  for (i = 1; i < N; i++) bytebuf_adds(&s, i % 2 ? ";B[dd]" : ";W[pp]");
  bytebuf_adds(&s, ")");
  sgf_tree_builder_options_init(&o);
  col = sgf_collection_parse(s.p, s.len, &o, &err);
  assert_non_null(col);
  t = sgf_collection_tree(col, 0);
  assert_int_equal(sgf_tree_node_count(t), N);
  sgf_node_iter_mainline_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    assert_int_equal(sgf_node_index(n), k);
    k++;
    last = n;
  }
  assert_int_equal(k, N);
  assert_ptr_equal(sgf_tree_node_at(t, N - 1), last);
  assert_int_equal(sgf_node_ply(last), N - 1);
  assert_int_equal(sgf_node_tree_depth(last), N - 1);
  assert_int_equal(sgf_node_move_number(last), N - 1);
  assert_int_equal(sgf_node_variation_depth(last), 0);
  assert_ptr_equal(sgf_node_lca(last, sgf_tree_node_at(t, 5)),
                   sgf_tree_node_at(t, 5));
  assert_int_equal(sgf_node_distance(sgf_tree_root(t), last), N - 1);
  assert_true(sgf_node_is_ancestor(sgf_tree_root(t), last));
  k = 0;
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while (sgf_node_iter_next(&it)) k++;
  assert_int_equal(k, N);
  sgf_collection_free(col);
  bytebuf_free(&s);
}

static void test_deep_variations(void **state) {
  enum { D = 10000 };
  bytebuf s = {0};
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_collection *col;
  const sgf_tree *t;
  const sgf_node *n, *deepest, *leaf1;
  sgf_node_iter it;
  sgf_diag err;
  size_t i, k = 0;
  (void)state;
  /* N_k has two children: a leaf W[aa] first, then N_{k+1} (a variation) */
  bytebuf_adds(&s, "(;C[r]");
  for (i = 0; i < D; i++) bytebuf_adds(&s, "(;W[aa])(;B[bb]");
  for (i = 0; i < D; i++) bytebuf_adds(&s, ")");
  bytebuf_adds(&s, ")");
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  /* the default depth limit stops it, positioned */
  col = sgf_collection_parse(s.p, s.len, &o, &err);
  assert_null(col);
  assert_int_equal(err.code, SGF_DIAG_DEPTH_LIMIT);
  po.max_depth = 2 * D;
  col = sgf_collection_parse(s.p, s.len, &o, &err);
  assert_non_null(col);
  t = sgf_collection_tree(col, 0);
  assert_int_equal(sgf_tree_node_count(t), 2 * D + 1);
  deepest = sgf_tree_node_at(t, 2 * D);
  assert_int_equal(sgf_node_variation_depth(deepest), D);
  assert_int_equal(sgf_node_tree_depth(deepest), D);
  assert_int_equal(sgf_node_ply(deepest), D);
  assert_true(sgf_node_is_terminal(deepest));
  leaf1 = sgf_tree_node_at(t, 1);
  assert_int_equal(sgf_node_variation_depth(leaf1), 0);
  assert_ptr_equal(sgf_node_lca(leaf1, deepest), sgf_tree_root(t));
  assert_int_equal(sgf_node_distance(leaf1, deepest), D + 1);
  assert_int_equal(sgf_node_distance(sgf_tree_node_at(t, 2 * D - 1), deepest),
                   2);
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    assert_int_equal(sgf_node_index(n), k);
    k++;
  }
  assert_int_equal(k, 2 * D + 1);
  sgf_collection_free(col);
  /* plain nesting, one node per level */
  bytebuf_free(&s);
  for (i = 0; i < D; i++) bytebuf_adds(&s, "(;B[cc]");
  for (i = 0; i < D; i++) bytebuf_adds(&s, ")");
  col = sgf_collection_parse(s.p, s.len, &o, &err);
  assert_non_null(col);
  t = sgf_collection_tree(col, 0);
  assert_int_equal(sgf_tree_node_count(t), D);
  assert_int_equal(sgf_node_variation_depth(sgf_tree_node_at(t, D - 1)), 0);
  assert_int_equal(sgf_node_ply(sgf_tree_node_at(t, D - 1)), D);
  check_invariants(t);
  sgf_collection_free(col);
  bytebuf_free(&s);
}

/* ------------------------------------------------------------------ */
/* Memory bound in one-game mode                                       */

static void make_game(bytebuf *s, size_t moves, size_t tag) {
  char tmp[64];
  size_t i;
  snprintf(tmp, sizeof tmp, "(;GM[1]C[game %zu]", tag);
  bytebuf_adds(s, tmp);
  for (i = 0; i < moves; i++) {
    bytebuf_adds(s, i % 2 ? ";W[pp]" : ";B[dd]");
    if (i % 50 == 0) bytebuf_adds(s, "C[a comment on this move, not short]");
  }
  bytebuf_adds(s, ")\n");
}

static size_t peak_one_game(const char *s, size_t len, size_t *games) {
  countalloc c;
  sgf_allocator a;
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   g_on_game, NULL, NULL};
  sgf_tree_builder *b;
  gamelog g;
  countalloc_init(&c, &a, 1);
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  po.allocator = &a;
  memset(&g, 0, sizeof g);
  b = sgf_tree_builder_create(&cb, &g, &o);
  assert_int_equal(feed_all(sgf_tree_builder_parser(b), s, len, 4096), SGF_OK);
  sgf_tree_builder_destroy(b);
  *games = g.games;
  gamelog_free(&g);
  assert_int_equal(c.live, 0);
  assert_int_equal(c.bad, 0);
  return c.peak;
}

static void test_one_game_memory_bound(void **state) {
  bytebuf all = {0}, big = {0};
  size_t i, games, peak_all, peak_big, sum = 0, max = 0;
  sgf_collection *col;
  (void)state;
  for (i = 0; i < 40; i++) make_game(&all, i == 20 ? 6000 : 1500, i);
  make_game(&big, 6000, 20);
  /* what the trees take, all kept and read (as on_game below reads
   * them: their derived facts made) */
  col = parse(all.p, 0);
  assert_int_equal(sgf_collection_count(col), 40);
  for (i = 0; i < 40; i++) {
    size_t b;
    sgf_tree_node_at(sgf_collection_tree(col, i), 0);
    b = (size_t)sgf_tree_byte_count(sgf_collection_tree(col, i));
    sum += b;
    if (b > max) max = b;
  }
  sgf_collection_free(col);
  peak_all = peak_one_game(all.p, all.len, &games);
  assert_int_equal(games, 40);
  peak_big = peak_one_game(big.p, big.len, &games);
  assert_int_equal(games, 1);
  /* bounded by the largest game, not the collection */
  assert_true(peak_all <= peak_big + 4096);
  assert_true(peak_all < 5 * max / 2 + 65536);
  /* (the collection has 10.75 times the largest game's nodes; one game
   * at a time holds that game twice and a half: in the builder's
   * scratch, as the node records the tree will hold (24 bytes a node,
   * FLAT AS THEY COME in build_priv.h), and as delivered) */
  assert_true(peak_all * 4 < sum);
  bytebuf_free(&all);
  bytebuf_free(&big);
}

/* ------------------------------------------------------------------ */
/* The cursor                                                          */

static void test_cursor_record(void **state) {
  sgf_tree *t = sgf_tree_create(NULL);
  sgf_cursor *c = sgf_cursor_create(t);
  sgf_game_header h;
  const sgf_node *root = sgf_tree_root(t), *b1, *w1, *pass, *w2, *w3;
  sgf_prop_view p;
  char out[64];
  size_t n;
  (void)state;
  assert_int_equal(sgf_tree_node_count(t), 1);
  assert_ptr_equal(sgf_cursor_node(c), root);
  assert_ptr_equal(sgf_cursor_tree(c), t);
  memset(&h, 0, sizeof h);
  h.board_size = 19;
  h.has_komi = 1;
  h.komi = 6.5;
  h.black = "Black]Player";
  h.white = "W\\hite";
  h.date = "2024-01-01";
  assert_int_equal(sgf_cursor_header(c, &h), SGF_OK);
  assert_string_equal(val_of(root, "GM", 0).raw, "1");
  assert_string_equal(val_of(root, "FF", 0).raw, "4");
  assert_string_equal(val_of(root, "SZ", 0).raw, "19");
  assert_string_equal(val_of(root, "KM", 0).raw, "6.5");
  assert_string_equal(val_of(root, "PB", 0).raw, "Black\\]Player");
  assert_string_equal(val_of(root, "PW", 0).raw, "W\\\\hite");
  assert_int_equal(sgf_node_find_prop(root, "HA").nvalues, 0);
  h.komi = -0.25;
  h.handicap = 3;
  assert_int_equal(sgf_cursor_header(c, &h), SGF_OK);
  assert_string_equal(val_of(root, "KM", 0).raw, "-0.25");
  assert_string_equal(val_of(root, "HA", 0).raw, "3");
  assert_int_equal(sgf_node_prop_count(root), 8); /* 7 replaced, HA */
  assert_string_equal(sgf_node_prop(root, 3).ident, "KM");
  h.komi = 7;
  h.handicap = 0;
  assert_int_equal(sgf_cursor_header(c, &h), SGF_OK);
  assert_string_equal(val_of(root, "KM", 0).raw, "7");
  /* HA[3] stays: HA is only written when given */
  assert_int_equal(sgf_node_to_play(root), SGF_COLOR_WHITE);
  assert_int_equal(sgf_cursor_set_text(c, "HA", "0"), SGF_OK);
  assert_int_equal(sgf_node_to_play(root), SGF_COLOR_BLACK);

  /* a game: B dd, W pp, B pass */
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_BLACK, 3, 3, 0), SGF_OK);
  b1 = sgf_cursor_node(c);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 15, 15, 0), SGF_OK);
  w1 = sgf_cursor_node(c);
  assert_int_equal(sgf_cursor_add_comment(c, "a ] comment \\ here"), SGF_OK);
  assert_int_equal(sgf_cursor_add_comment(c, "more"), SGF_OK);
  p = sgf_node_find_prop(w1, "C");
  assert_string_equal(sgf_prop_value(&p, 0).raw,
                      "a \\] comment \\\\ here\nmore");
  n = sgf_unescape(sgf_prop_value(&p, 0).raw, sgf_prop_value(&p, 0).len, out);
  assert_int_equal(n, strlen("a ] comment \\ here\nmore"));
  assert_memory_equal(out, "a ] comment \\ here\nmore", n);
  assert_int_equal(
      sgf_cursor_add_move(c, SGF_COLOR_BLACK, SGF_PASS, SGF_PASS, 0), SGF_OK);
  pass = sgf_cursor_node(c);
  {
    sgf_value_view v;
    assert_int_equal(sgf_node_move(pass, &v), SGF_COLOR_BLACK);
    assert_int_equal(v.len, 0);
    assert_non_null(v.raw);
  }
  assert_int_equal(sgf_node_ply(pass), 3);
  assert_int_equal(sgf_node_move_number(pass), 3);
  assert_int_equal(sgf_node_to_play(pass), SGF_COLOR_WHITE);
  assert_int_equal(sgf_tree_node_count(t), 4);

  /* replaying an existing move reuses the child */
  assert_int_equal(sgf_cursor_back(c), SGF_OK);
  assert_int_equal(sgf_cursor_back(c), SGF_OK);
  assert_ptr_equal(sgf_cursor_node(c), b1);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 15, 15, 0), SGF_OK);
  assert_ptr_equal(sgf_cursor_node(c), w1);
  assert_int_equal(sgf_tree_node_count(t), 4);
  assert_int_equal(sgf_cursor_forward(c), SGF_OK);
  assert_ptr_equal(sgf_cursor_node(c), pass);
  assert_int_equal(sgf_cursor_forward(c), SGF_EINVAL);
  assert_ptr_equal(sgf_cursor_node(c), pass);

  /* a variation appended last */
  assert_int_equal(sgf_cursor_goto(c, b1), SGF_OK);
  assert_int_equal(
      sgf_cursor_add_move(c, SGF_COLOR_WHITE, 2, 2, SGF_CURSOR_VARIATION),
      SGF_OK);
  w2 = sgf_cursor_node(c);
  assert_int_equal(sgf_node_child_count(b1), 2);
  assert_int_equal(sgf_node_child_index(w2), 1);
  assert_int_equal(sgf_node_variation_depth(w2), 1);
  assert_int_equal(sgf_node_variation_depth(pass), 0);
  /* a new main line: the old one becomes a variation */
  assert_int_equal(sgf_cursor_back(c), SGF_OK);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 16, 3, 0), SGF_OK);
  w3 = sgf_cursor_node(c);
  assert_ptr_equal(sgf_node_first_child(b1), w3);
  assert_int_equal(sgf_node_child_index(w1), 1);
  assert_int_equal(sgf_node_child_index(w2), 2);
  assert_int_equal(sgf_node_variation_depth(pass), 1);
  assert_int_equal(sgf_node_variation_depth(w3), 0);
  assert_int_equal(sgf_node_index(w3), 2);
  assert_int_equal(sgf_node_index(w1), 3);
  assert_ptr_equal(sgf_tree_node_at(t, 4), pass);
  assert_ptr_equal(sgf_tree_node_at(t, 5), w2);
  assert_int_equal(sgf_node_distance(w3, pass), 3);
  /* start a variation: back to b1, the next move goes last */
  assert_int_equal(sgf_cursor_start_variation(c), SGF_OK);
  assert_ptr_equal(sgf_cursor_node(c), b1);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 30, 0, 0), SGF_OK);
  assert_ptr_equal(sgf_node_last_child(b1), sgf_cursor_node(c));
  assert_string_equal(val_of(sgf_cursor_node(c), "W", 0).raw, "Ea");
  assert_int_equal(sgf_cursor_rewind(c), SGF_OK);
  assert_int_equal(sgf_cursor_start_variation(c), SGF_EINVAL);
  assert_int_equal(sgf_cursor_back(c), SGF_EINVAL);

  /* setup, markup, labels */
  assert_int_equal(sgf_cursor_goto(c, pass), SGF_OK);
  assert_int_equal(sgf_cursor_add_node(c, 0), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 0, 0), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 1, 0), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 2, 0), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 2, 0), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_WHITE, 5, 5), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_NONE, 1, 0), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, SGF_PASS, 0),
                   SGF_EINVAL);
  p = sgf_node_find_prop(sgf_cursor_node(c), "AB");
  assert_int_equal(p.nvalues, 2); /* ba moved to AE */
  assert_string_equal(sgf_prop_value(&p, 0).raw, "aa");
  assert_string_equal(sgf_prop_value(&p, 1).raw, "ca");
  assert_string_equal(val_of(sgf_cursor_node(c), "AE", 0).raw, "ba");
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_WHITE, 5, 6), SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 5, 5), SGF_OK);
  assert_int_equal(sgf_node_find_prop(sgf_cursor_node(c), "AW").nvalues, 1);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 5, 6), SGF_OK);
  assert_int_equal(sgf_node_find_prop(sgf_cursor_node(c), "AW").nvalues,
                   0); /* emptied */
  assert_int_equal(sgf_cursor_add_markup(c, SGF_MARKUP_TRIANGLE, 3, 3), SGF_OK);
  assert_int_equal(sgf_cursor_add_markup(c, SGF_MARKUP_CIRCLE, 4, 4), SGF_OK);
  assert_int_equal(sgf_cursor_add_markup(c, SGF_MARKUP_SQUARE, 3, 3), SGF_OK);
  assert_int_equal(sgf_cursor_add_markup(c, SGF_MARKUP_CROSS, 6, 6), SGF_OK);
  assert_int_equal(sgf_node_find_prop(sgf_cursor_node(c), "TR").nvalues, 0);
  assert_string_equal(val_of(sgf_cursor_node(c), "SQ", 0).raw, "dd");
  assert_int_equal(sgf_cursor_add_markup(c, (sgf_markup)9, 1, 1), SGF_EINVAL);
  assert_int_equal(sgf_cursor_add_label(c, 2, 3, "A:]"), SGF_OK);
  assert_int_equal(sgf_cursor_add_label(c, 4, 3, "x"), SGF_OK);
  assert_int_equal(sgf_cursor_add_label(c, 2, 3, "B"), SGF_OK);
  p = sgf_node_find_prop(sgf_cursor_node(c), "LB");
  assert_int_equal(p.nvalues, 2);
  assert_string_equal(sgf_prop_value(&p, 0).raw, "cd:B");
  assert_string_equal(sgf_prop_value(&p, 1).raw, "ed:x");
  assert_int_equal(sgf_cursor_add_label(c, 2, 2, "A:]"), SGF_OK);
  p = sgf_node_find_prop(sgf_cursor_node(c), "LB"); /* the node changed */
  assert_string_equal(sgf_prop_value(&p, 2).raw, "cc:A\\:\\]");
  assert_int_equal(sgf_node_move(sgf_cursor_node(c), NULL), SGF_COLOR_NONE);
  assert_int_equal(sgf_node_to_play(sgf_cursor_node(c)), SGF_COLOR_WHITE);
  /* raw values are checked */
  assert_int_equal(sgf_cursor_add_value(c, "XX", "a]", 2), SGF_EINVAL);
  assert_int_equal(sgf_cursor_add_value(c, "XX", "a\\", 2), SGF_EINVAL);
  assert_int_equal(sgf_cursor_add_value(c, "xx", "a", 1), SGF_EINVAL);
  assert_int_equal(sgf_cursor_add_value(c, "XX", "a\\]", 3), SGF_OK);
  assert_int_equal(sgf_cursor_add_value(c, "XX", "", 0), SGF_OK);
  assert_int_equal(sgf_node_find_prop(sgf_cursor_node(c), "XX").nvalues, 2);
  assert_int_equal(sgf_cursor_set_text(c, "PL", "W"), SGF_OK);
  assert_int_equal(sgf_node_to_play(sgf_cursor_node(c)), SGF_COLOR_WHITE);
  assert_int_equal(sgf_cursor_set_text(c, "PL", "B"), SGF_OK);
  assert_int_equal(sgf_node_to_play(sgf_cursor_node(c)), SGF_COLOR_BLACK);
  assert_int_equal(sgf_cursor_set_text(c, "MN", "40"), SGF_OK);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 9, 9, 0), SGF_OK);
  assert_int_equal(sgf_node_move_number(sgf_cursor_node(c)), 40);

  /* bad arguments */
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_NONE, 1, 1, 0), SGF_EINVAL);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_BLACK, 60, 1, 0),
                   SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_text(c, "", "x"), SGF_EINVAL);
  assert_int_equal(sgf_cursor_header(c, NULL), SGF_EINVAL);

  /* the result on the root */
  assert_int_equal(sgf_cursor_set_result(c, "W+3.5"), SGF_OK);
  assert_int_equal(sgf_cursor_set_result(c, "B+R"), SGF_OK);
  assert_string_equal(val_of(root, "RE", 0).raw, "B+R");
  check_invariants(t);
  sgf_cursor_destroy(c);
  sgf_tree_free(t);
}

/* Editing a parsed tree: values arrays sized exactly by the builder. */
static void test_cursor_on_parsed_tree(void **state) {
  sgf_collection *col = parse("(;AB[aa][bb][cc]AW[dd]C[x];B[ee])", 0);
  sgf_tree *t = sgf_collection_tree(col, 0);
  sgf_cursor *c = sgf_cursor_create(t);
  sgf_prop_view p;
  int i;
  (void)state;
  for (i = 0; i < 10; i++)
    assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 10 + i, 0),
                     SGF_OK);
  assert_int_equal(sgf_cursor_add_stone(c, SGF_COLOR_BLACK, 3, 3), SGF_OK);
  p = sgf_node_find_prop(sgf_tree_root(t), "AB");
  assert_int_equal(p.nvalues, 14);
  assert_string_equal(sgf_prop_value(&p, 0).raw, "aa");
  assert_string_equal(sgf_prop_value(&p, 2).raw, "cc");
  assert_string_equal(sgf_prop_value(&p, 12).raw, "ta");
  assert_string_equal(sgf_prop_value(&p, 13).raw, "dd");
  assert_int_equal(sgf_node_find_prop(sgf_tree_root(t), "AW").nvalues, 0);
  assert_int_equal(sgf_node_prop_count(sgf_tree_root(t)), 2);
  /* the parsed move is found and reused */
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_BLACK, 4, 4, 0), SGF_OK);
  assert_int_equal(sgf_tree_node_count(t), 2);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 4, 5, 0), SGF_OK);
  assert_int_equal(sgf_node_ply(sgf_cursor_node(c)), 2);
  check_invariants(t);
  sgf_cursor_destroy(c);
  sgf_collection_free(col);
}

/* The comments C of the children of n, in order, as one string. */
static void children_text(const sgf_node *n, char *out) {
  out[0] = '\0';
  for (n = sgf_node_first_child(n); n; n = sgf_node_next_sibling(n)) {
    sgf_value_view v = val_of(n, "C", 0);
    strncat(out, v.raw ? v.raw : "-", v.raw ? v.len : 1);
  }
}

/* Deleting a subtree, a property, a value; promoting; reparenting: each
 * on a parsed tree (positions kept), the failures changing nothing. */
static void test_cursor_remove_move(void **state) {
  sgf_collection *col = parse_with(
      "(;AB[aa][bb][cc]C[r](;C[a];C[a2](;C[x])(;C[y]))(;C[b];C[b2])(;C[c]))", 0,
      SGF_TREE_POSITIONS);
  sgf_tree *t = sgf_collection_tree(col, 0);
  const sgf_node *root = sgf_tree_root(t), *a, *b, *a2, *y;
  sgf_cursor *c = sgf_cursor_create(t);
  sgf_prop_view p;
  char kids[16];
  (void)state;
  a = by_comment(t, "a");
  b = by_comment(t, "b");
  a2 = by_comment(t, "a2");
  y = by_comment(t, "y");
  assert_int_equal(sgf_tree_node_count(t), 8);
  /* values and properties */
  assert_int_equal(sgf_cursor_delete_value(c, "AB", 3), SGF_EINVAL);
  assert_int_equal(sgf_cursor_delete_value(c, "AW", 0), SGF_EINVAL);
  assert_int_equal(sgf_cursor_delete_value(c, "AB", 1), SGF_OK);
  p = sgf_node_find_prop(root, "AB");
  assert_int_equal(p.nvalues, 2);
  assert_string_equal(sgf_prop_value(&p, 1).raw, "cc");
  assert_int_equal(sgf_prop_value(&p, 1).pos.offset, 12); /* "cc" */
  assert_int_equal(sgf_cursor_delete_prop(c, "AW"), SGF_EINVAL);
  assert_int_equal(sgf_cursor_delete_prop(c, "AB"), SGF_OK);
  assert_int_equal(sgf_node_prop_count(root), 1);
  assert_string_equal(sgf_node_prop(root, 0).ident, "C");
  assert_int_equal(sgf_cursor_delete_value(c, "C", 0), SGF_OK);
  assert_int_equal(sgf_node_prop_count(root), 0);
  /* promote y: y first under a2, a2 stays first under a, a first */
  assert_int_equal(sgf_cursor_goto(c, y), SGF_OK);
  assert_int_equal(sgf_cursor_promote(c), SGF_OK);
  children_text(a2, kids);
  assert_string_equal(kids, "yx");
  assert_true(sgf_node_is_mainline(y));
  assert_int_equal(sgf_node_index(y), 3);
  /* promote b2: b before a */
  assert_int_equal(sgf_cursor_goto(c, by_comment(t, "b2")), SGF_OK);
  assert_int_equal(sgf_cursor_promote(c), SGF_OK);
  children_text(root, kids);
  assert_string_equal(kids, "bac");
  assert_true(sgf_node_is_variation(y));
  /* reparent: refused at the root, into its own subtree, past the end */
  assert_int_equal(sgf_cursor_rewind(c), SGF_OK);
  assert_int_equal(sgf_cursor_reparent(c, b, 0), SGF_EINVAL);
  assert_int_equal(sgf_cursor_goto(c, a), SGF_OK);
  assert_int_equal(sgf_cursor_reparent(c, y, 0), SGF_EINVAL);
  assert_int_equal(sgf_cursor_reparent(c, a, 0), SGF_EINVAL);
  assert_int_equal(sgf_cursor_reparent(c, root, 3), SGF_EINVAL);
  assert_int_equal(sgf_cursor_reparent(c, NULL, 0), SGF_EINVAL);
  children_text(root, kids);
  assert_string_equal(kids, "bac");
  /* within the same parent, then under another node */
  assert_int_equal(sgf_cursor_reparent(c, root, 2), SGF_OK);
  children_text(root, kids);
  assert_string_equal(kids, "bca");
  assert_int_equal(sgf_cursor_reparent(c, b, 1), SGF_OK);
  children_text(root, kids);
  assert_string_equal(kids, "bc");
  children_text(b, kids);
  assert_string_equal(kids, "b2a");
  assert_ptr_equal(sgf_cursor_node(c), a);
  assert_int_equal(sgf_node_tree_depth(y), 4);
  assert_int_equal(sgf_tree_node_count(t), 8);
  /* delete: refused at the root; a's subtree goes, the cursor to b */
  assert_int_equal(sgf_cursor_delete(c), SGF_OK);
  assert_ptr_equal(sgf_cursor_node(c), b);
  assert_int_equal(sgf_tree_node_count(t), 4);
  assert_null(sgf_node_tree(y));
  assert_int_equal(sgf_cursor_goto(c, y), SGF_EINVAL);
  children_text(b, kids);
  assert_string_equal(kids, "b2");
  assert_ptr_equal(sgf_tree_node_at(t, 3), by_comment(t, "c"));
  assert_int_equal(sgf_cursor_rewind(c), SGF_OK);
  assert_int_equal(sgf_cursor_delete(c), SGF_EINVAL);
  assert_int_equal(sgf_tree_node_count(t), 4);
  check_invariants(t);
  sgf_cursor_destroy(c);
  sgf_collection_free(col);
}

/* Recording a long game through the cursor stays linear. */
static void test_cursor_long_game(void **state) {
  sgf_tree *t = sgf_tree_create(NULL);
  sgf_cursor *c = sgf_cursor_create(t);
  int i;
  (void)state;
  for (i = 0; i < 20000; i++) {
    assert_int_equal(
        sgf_cursor_add_move(c, i % 2 ? SGF_COLOR_WHITE : SGF_COLOR_BLACK,
                            i % 19, (i / 19) % 19, 0),
        SGF_OK);
    if (i % 1000 == 0)
      assert_int_equal(sgf_node_ply(sgf_cursor_node(c)), i + 1);
  }
  assert_int_equal(sgf_tree_node_count(t), 20001);
  assert_int_equal(sgf_node_move_number(sgf_cursor_node(c)), 20000);
  sgf_cursor_destroy(c);
  sgf_tree_free(t);
}

/* ------------------------------------------------------------------ */
/* The shared corpus (edge cases), when it is there                    */

static int read_file(const char *path, bytebuf *out) {
  FILE *f = fopen(path, "rb");
  char tmp[65536];
  size_t n;
  if (!f) return -1;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0) bytebuf_add(out, tmp, n);
  fclose(f);
  return 0;
}

typedef struct corpus_run {
  size_t games, nodes, values;
  bytebuf sig;
} corpus_run;

static int corpus_game(sgf_tree_builder *b, void *user, sgf_tree *t) {
  corpus_run *r = user;
  sgf_node_iter it;
  const sgf_node *n;
  (void)b;
  r->games++;
  r->nodes += sgf_tree_node_count(t);
  check_invariants(t);
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    size_t i;
    for (i = 0; i < sgf_node_prop_count(n); i++)
      r->values += sgf_node_prop(n, i).nvalues;
  }
  signature(t, &r->sig);
  return SGF_CONTINUE;
}

static int corpus_build(const bytebuf *in, unsigned pflags, size_t chunk,
                        corpus_run *r) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks),
                                   corpus_game, NULL, NULL};
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_tree_builder *b;
  int st;
  memset(r, 0, sizeof *r);
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  po.flags = pflags;
  b = sgf_tree_builder_create(&cb, r, &o);
  assert_non_null(b);
  st = feed_all(sgf_tree_builder_parser(b), in->p ? in->p : "", in->len, chunk);
  sgf_tree_builder_destroy(b);
  return st;
}

static void test_corpus_edge(void **state) {
  const char *srcdir = getenv("srcdir");
  char dir[4096];
  DIR *d;
  struct dirent *e;
  size_t files = 0;
  (void)state;
  snprintf(dir, sizeof dir, "%s/../shared/corpus/edge", srcdir ? srcdir : ".");
  d = opendir(dir);
  if (!d) {
    skip(); /* no corpus beside the source tree */
    return;
  }
  while ((e = readdir(d)) != NULL) {
    char path[8192];
    bytebuf in = {0};
    corpus_run whole, chunked, main;
    int st;
    size_t len = strlen(e->d_name);
    if (len < 4 || (strcmp(e->d_name + len - 4, ".sgf") != 0 &&
                    strcmp(e->d_name + len - 4, ".SGF") != 0))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (read_file(path, &in) != 0) continue;
    files++;
    st = corpus_build(&in, 0, 0, &whole);
    assert_true(st == SGF_OK || st == SGF_EPARSE);
    /* chunked feeding builds the same trees */
    assert_int_equal(corpus_build(&in, 0, 7, &chunked), st);
    assert_int_equal(chunked.games, whole.games);
    assert_int_equal(chunked.nodes, whole.nodes);
    if (whole.sig.p) assert_string_equal(chunked.sig.p, whole.sig.p);
    /* mainline mode: single lines */
    corpus_build(&in, SGF_OPT_MAINLINE, 0, &main);
    assert_true(main.nodes <= whole.nodes);
    if (st == SGF_OK) assert_int_equal(main.games, whole.games);
    bytebuf_free(&whole.sig);
    bytebuf_free(&chunked.sig);
    bytebuf_free(&main.sig);
    bytebuf_free(&in);
  }
  closedir(d);
  assert_true(files > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ff4_example),
      cmocka_unit_test(test_cql_example),
      cmocka_unit_test(test_move_numbers_and_side),
      cmocka_unit_test(test_properties_raw),
      cmocka_unit_test(test_move_positions),
      cmocka_unit_test(test_cursor_remove_move),
      cmocka_unit_test(test_positions_opt_in),
      cmocka_unit_test(test_points),
      cmocka_unit_test(test_one_game_mode_and_keep),
      cmocka_unit_test(test_collection_mode),
      cmocka_unit_test(test_mainline_mode),
      cmocka_unit_test(test_lenient_shapes),
      cmocka_unit_test(test_detached_robust_order),
      cmocka_unit_test(test_detached_with_own_parser),
      cmocka_unit_test(test_pass_through_pause_skip_abort),
      cmocka_unit_test(test_pass_through_whole_values),
      cmocka_unit_test(test_skip_shapes),
      cmocka_unit_test(test_on_game_actions),
      cmocka_unit_test(test_reset_mid_game),
      cmocka_unit_test(test_node_limit),
      cmocka_unit_test(test_byte_and_value_limits),
      cmocka_unit_test(test_allocation_failure_builder),
      cmocka_unit_test(test_allocation_failure_cursor),
      cmocka_unit_test(test_long_line),
      cmocka_unit_test(test_deep_variations),
      cmocka_unit_test(test_one_game_memory_bound),
      cmocka_unit_test(test_cursor_record),
      cmocka_unit_test(test_cursor_on_parsed_tree),
      cmocka_unit_test(test_move_raw),
      cmocka_unit_test(test_node_ids),
      cmocka_unit_test(test_node_line),
      cmocka_unit_test(test_cursor_long_game),
      cmocka_unit_test(test_corpus_edge),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
