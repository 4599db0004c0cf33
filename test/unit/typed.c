/* typed.c - typed getters on nodes and typed setters on the cursor
 * (sgfstream/typed.h), against hand-checked answers: values decoded
 * from a parsed game, points and moves checked against its SZ, text
 * through its CA, setters reading back through the getters with the raw
 * bytes they write, refusals that write nothing, and an allocation-
 * failure loop over the setters (every failed set leaves the tree as it
 * was). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>
#include <sgfstream/typed.h>

#include "bytebuf.h"
#include "countalloc.h"

static sgf_collection *parse(const char *s) {
  sgf_diag err;
  sgf_collection *c = sgf_collection_parse(s, strlen(s), NULL, &err);
  assert_non_null(c);
  return c;
}

/* The raw value i of n's ident, NUL-ended (NULL if there is none). */
static const char *raw_of(const sgf_node *n, const char *ident, size_t i) {
  sgf_prop_view p = sgf_node_find_prop(n, ident);
  return sgf_prop_value(&p, i).raw;
}

/* Every node's properties and raw values, in pre-order, into b. */
static void dump(const sgf_tree *t, bytebuf *b) {
  sgf_node_iter it;
  const sgf_node *n;
  bytebuf_clear(b);
  sgf_node_iter_preorder_init(&it, sgf_tree_root(t));
  while ((n = sgf_node_iter_next(&it)) != NULL) {
    size_t i, j;
    bytebuf_addf(b, ";%zu:", sgf_node_child_count(n));
    for (i = 0; i < sgf_node_prop_count(n); i++) {
      sgf_prop_view p = sgf_node_prop(n, i);
      bytebuf_adds(b, p.ident);
      for (j = 0; j < p.nvalues; j++) {
        sgf_value_view v = sgf_prop_value(&p, j);
        bytebuf_adds(b, "[");
        bytebuf_add(b, v.raw, v.len);
        bytebuf_adds(b, "]");
      }
    }
  }
}

/* ------------------------------------------------------------------ */
/* Getters                                                             */

static const char game[] =
    "(;GM[1]FF[4]SZ[13]KM[6.5]HA[2]PL[W]GN[a\\]b]C[one\ntwo]N[x\ny]"
    "AB[aa:bb][cc]DD[]GB[2]AW[zz]TR[aa][nn]"
    ";B[mm];W[];B[tt];W[nn];AE[ab])";

static void test_get_scalars(void **state) {
  sgf_collection *c = parse(game);
  const sgf_node *r = sgf_tree_root(sgf_collection_tree(c, 0));
  int64_t num = -7;
  double real = -7;
  int dbl = 0;
  sgf_color col = SGF_COLOR_NONE;
  sgf_board b;
  (void)state;
  assert_int_equal(sgf_node_get_number(r, "HA", &num), SGF_OK);
  assert_int_equal(num, 2);
  assert_int_equal(sgf_node_get_number(r, "SZ", &num), SGF_OK);
  assert_int_equal(num, 13);
  /* 6.5 is a Real, not a Number: refused, *out unchanged */
  assert_int_equal(sgf_node_get_number(r, "KM", &num), SGF_ESYNTAX);
  assert_int_equal(num, 13);
  assert_int_equal(sgf_node_get_real(r, "KM", &real), SGF_OK);
  assert_true(real == 6.5);
  assert_int_equal(sgf_node_get_real(r, "HA", &real), SGF_OK);
  assert_true(real == 2.0);
  /* absent */
  assert_int_equal(sgf_node_get_number(r, "MN", &num), SGF_EINVAL);
  assert_int_equal(sgf_node_get_real(r, "TM", &real), SGF_EINVAL);
  assert_int_equal(sgf_node_get_number(NULL, "HA", &num), SGF_EINVAL);
  assert_int_equal(sgf_node_get_double(r, "GB", &dbl), SGF_OK);
  assert_int_equal(dbl, 2);
  assert_int_equal(sgf_node_get_double(r, "SZ", &dbl), SGF_ERANGE);
  assert_int_equal(sgf_node_get_color(r, "PL", &col), SGF_OK);
  assert_int_equal(col, SGF_COLOR_WHITE);
  assert_int_equal(sgf_node_get_color(r, "GN", &col), SGF_ESYNTAX);
  assert_int_equal(sgf_node_get_board(sgf_node_first_child(r), &b), SGF_OK);
  assert_int_equal(b.width, 13);
  assert_int_equal(b.height, 13);
  sgf_collection_free(c);
}

static void test_get_points_moves(void **state) {
  sgf_collection *c = parse(game);
  const sgf_node *r = sgf_tree_root(sgf_collection_tree(c, 0)), *n;
  static const sgf_point ab[] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {2, 2}};
  sgf_node_points it;
  sgf_point pt = {-1, -1};
  sgf_color col;
  sgf_move m;
  size_t i, bad = 99;
  (void)state;
  /* a compressed list, point by point, row by row */
  assert_int_equal(sgf_node_get_points(r, "AB", &it), SGF_OK);
  for (i = 0; i < 5; i++) {
    assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 1);
    assert_int_equal(pt.x, ab[i].x);
    assert_int_equal(pt.y, ab[i].y);
  }
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 0);
  /* DD[]: an empty elist */
  assert_int_equal(sgf_node_get_points(r, "DD", &it), SGF_OK);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 0);
  /* absent: SGF_EINVAL, and the iterator yields nothing */
  assert_int_equal(sgf_node_get_points(r, "AE", &it), SGF_EINVAL);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 0);
  /* AW[zz] is off the 13 x 13 board */
  assert_int_equal(sgf_node_get_points(r, "AW", &it), SGF_OK);
  assert_int_equal(sgf_node_points_next(&it, &pt, &bad), SGF_ERANGE);
  assert_int_equal(bad, 0);
  /* TR[aa][nn]: one point, then the error at value 1, and it stays */
  assert_int_equal(sgf_node_get_points(r, "TR", &it), SGF_OK);
  assert_int_equal(sgf_node_points_next(&it, &pt, &bad), 1);
  assert_int_equal(sgf_node_points_next(&it, &pt, &bad), SGF_ERANGE);
  assert_int_equal(bad, 1);
  assert_int_equal(sgf_node_points_next(&it, &pt, &bad), SGF_ERANGE);
  /* a single point getter on a rectangle value */
  assert_int_equal(sgf_node_get_point(r, "AB", &pt), SGF_ESYNTAX);
  assert_int_equal(sgf_node_get_point(r, "TR", &pt), SGF_OK);
  assert_int_equal(pt.x, 0);
  assert_int_equal(pt.y, 0);
  /* moves on 13 x 13: mm is (12, 12); [] and tt are passes; nn is off */
  assert_int_equal(sgf_node_get_move(r, &col, &m), SGF_EINVAL);
  n = sgf_node_first_child(r);
  assert_int_equal(sgf_node_get_move(n, &col, &m), SGF_OK);
  assert_int_equal(col, SGF_COLOR_BLACK);
  assert_int_equal(m.pass, 0);
  assert_int_equal(m.pt.x, 12);
  assert_int_equal(m.pt.y, 12);
  n = sgf_node_first_child(n);
  assert_int_equal(sgf_node_get_move(n, &col, &m), SGF_OK);
  assert_int_equal(col, SGF_COLOR_WHITE);
  assert_int_equal(m.pass, 1);
  n = sgf_node_first_child(n);
  assert_int_equal(sgf_node_get_move(n, &col, &m), SGF_OK);
  assert_int_equal(col, SGF_COLOR_BLACK);
  assert_int_equal(m.pass, 1);
  n = sgf_node_first_child(n);
  col = SGF_COLOR_NONE;
  assert_int_equal(sgf_node_get_move(n, &col, &m), SGF_ERANGE);
  assert_int_equal(col, SGF_COLOR_NONE);
  sgf_collection_free(c);
}

/* A malformed SZ: the board is not known, so points and moves fail. */
static void test_get_bad_board(void **state) {
  sgf_collection *c = parse("(;SZ[x]AB[aa];B[aa])");
  const sgf_node *r = sgf_tree_root(sgf_collection_tree(c, 0));
  sgf_board b;
  sgf_point pt;
  sgf_color col;
  sgf_move m;
  sgf_node_points it;
  (void)state;
  assert_int_equal(sgf_node_get_board(r, &b), SGF_ESYNTAX);
  assert_int_equal(b.width, 19);
  assert_int_equal(sgf_node_get_point(r, "AB", &pt), SGF_ESYNTAX);
  assert_int_equal(sgf_node_get_points(r, "AB", &it), SGF_ESYNTAX);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), SGF_ESYNTAX);
  assert_int_equal(sgf_node_get_move(sgf_node_first_child(r), &col, &m),
                   SGF_ESYNTAX);
  sgf_collection_free(c);
  /* no SZ: 19 x 19, where "tt" is a pass and "ss" the last point */
  c = parse("(;B[ss];W[tt])");
  r = sgf_tree_root(sgf_collection_tree(c, 0));
  assert_int_equal(sgf_node_get_board(r, &b), SGF_OK);
  assert_int_equal(b.width, 19);
  assert_int_equal(sgf_node_get_move(r, &col, &m), SGF_OK);
  assert_int_equal(m.pt.x, 18);
  assert_int_equal(sgf_node_get_move(sgf_node_first_child(r), &col, &m),
                   SGF_OK);
  assert_int_equal(m.pass, 1);
  sgf_collection_free(c);
}

static void test_get_text(void **state) {
  sgf_collection *c = parse(game);
  const sgf_node *r = sgf_tree_root(sgf_collection_tree(c, 0));
  sgf_charset *cs = sgf_charset_create(NULL);
  char *out = NULL;
  size_t cap = 0, off = 99;
  (void)state;
  assert_non_null(cs);
  /* escapes resolved (SimpleText GN) */
  assert_int_equal(sgf_node_get_text(r, "GN", cs, &out, &cap, NULL), 3);
  assert_string_equal(out, "a]b");
  /* Text keeps its line break, SimpleText makes it a space */
  assert_int_equal(sgf_node_get_text(r, "C", cs, &out, &cap, NULL), 7);
  assert_string_equal(out, "one\ntwo");
  assert_int_equal(sgf_node_get_text(r, "N", cs, &out, &cap, NULL), 3);
  assert_string_equal(out, "x y");
  assert_int_equal(sgf_node_get_text(r, "PB", cs, &out, &cap, NULL),
                   SGF_EINVAL);
  sgf_collection_free(c);
  /* the game's CA: Latin-1 e-acute becomes two UTF-8 bytes */
  c = parse("(;CA[ISO-8859-1]C[caf\xe9];C[\xe9t\xe9])");
  r = sgf_tree_root(sgf_collection_tree(c, 0));
  assert_int_equal(sgf_node_get_text(r, "C", cs, &out, &cap, NULL), 5);
  assert_string_equal(out, "caf\xc3\xa9");
  assert_int_equal(
      sgf_node_get_text(sgf_node_first_child(r), "C", cs, &out, &cap, NULL), 5);
  assert_string_equal(out, "\xc3\xa9t\xc3\xa9");
  sgf_collection_free(c);
  /* UTF-8 declared, bytes that are not: an error with the offset, the
   * text read as Latin-1, never replaced */
  c = parse("(;CA[UTF-8]C[ab\xff])");
  r = sgf_tree_root(sgf_collection_tree(c, 0));
  assert_int_equal(sgf_node_get_text(r, "C", cs, &out, &cap, &off),
                   SGF_ESYNTAX);
  assert_int_equal(off, 2);
  assert_memory_equal(out, "ab\xc3\xbf", 4);
  sgf_collection_free(c);
  sgf_charset_free(cs, out, cap);
  sgf_charset_destroy(cs);
}

/* ------------------------------------------------------------------ */
/* Setters                                                             */

static void test_set_scalars(void **state) {
  sgf_tree *t = sgf_tree_create(NULL);
  sgf_cursor *c = sgf_cursor_create(t);
  const sgf_node *r = sgf_tree_root(t);
  int64_t num;
  double real;
  sgf_color col;
  int dbl;
  bytebuf before, after;
  (void)state;
  bytebuf_init(&before);
  bytebuf_init(&after);
  assert_int_equal(sgf_cursor_set_number(c, "HA", 3), SGF_OK);
  assert_string_equal(raw_of(r, "HA", 0), "3");
  assert_int_equal(sgf_cursor_set_number(c, "HA", -9000000000LL), SGF_OK);
  assert_string_equal(raw_of(r, "HA", 0), "-9000000000");
  assert_int_equal(sgf_node_get_number(r, "HA", &num), SGF_OK);
  assert_true(num == -9000000000LL);
  assert_int_equal(sgf_node_prop_count(r), 1); /* replaced, not added */
  assert_int_equal(sgf_cursor_set_real(c, "KM", 6.5), SGF_OK);
  assert_string_equal(raw_of(r, "KM", 0), "6.5");
  assert_int_equal(sgf_cursor_set_real(c, "KM", -0.25), SGF_OK);
  assert_int_equal(sgf_node_get_real(r, "KM", &real), SGF_OK);
  assert_true(real == -0.25);
  assert_int_equal(sgf_cursor_set_color(c, "PL", SGF_COLOR_WHITE), SGF_OK);
  assert_string_equal(raw_of(r, "PL", 0), "W");
  assert_int_equal(sgf_node_get_color(r, "PL", &col), SGF_OK);
  assert_int_equal(col, SGF_COLOR_WHITE);
  assert_int_equal(sgf_cursor_set_double(c, "GB", 2), SGF_OK);
  assert_int_equal(sgf_node_get_double(r, "GB", &dbl), SGF_OK);
  assert_int_equal(dbl, 2);
  /* an application's own property takes any type */
  assert_int_equal(sgf_cursor_set_number(c, "XN", 42), SGF_OK);
  assert_string_equal(raw_of(r, "XN", 0), "42");
  /* refusals write nothing */
  dump(t, &before);
  assert_int_equal(sgf_cursor_set_number(c, "B", 1), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_number(c, "KM", 7), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_real(c, "HA", 7), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_real(c, "KM", NAN), SGF_ERANGE);
  assert_int_equal(sgf_cursor_set_real(c, "KM", 1e15), SGF_ERANGE);
  assert_int_equal(sgf_cursor_set_double(c, "GB", 3), SGF_ERANGE);
  assert_int_equal(sgf_cursor_set_color(c, "PL", SGF_COLOR_NONE), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_number(c, "bad", 1), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_number(c, NULL, 1), SGF_EINVAL);
  dump(t, &after);
  assert_true(bytebuf_eq(&before, &after));
  bytebuf_free(&before);
  bytebuf_free(&after);
  sgf_cursor_destroy(c);
  sgf_tree_free(t);
}

static void test_set_points_play(void **state) {
  sgf_tree *t = sgf_tree_create(NULL);
  sgf_cursor *c = sgf_cursor_create(t);
  const sgf_node *r = sgf_tree_root(t);
  sgf_board nine = {9, 9};
  /* a 2 x 2 block, a lone point, and a duplicate */
  sgf_point pts[] = {{1, 1}, {0, 0}, {1, 0}, {0, 1}, {4, 4}, {0, 0}};
  sgf_point off[] = {{0, 0}, {9, 0}};
  sgf_point pt;
  sgf_node_points it;
  sgf_move m;
  sgf_color col;
  size_t nodes;
  bytebuf before, after;
  (void)state;
  bytebuf_init(&before);
  bytebuf_init(&after);
  assert_int_equal(sgf_cursor_set_board(c, &nine), SGF_OK);
  assert_string_equal(raw_of(r, "SZ", 0), "9");
  assert_int_equal(sgf_cursor_set_points(c, "AB", pts, 6), SGF_OK);
  assert_int_equal(sgf_node_find_prop(r, "AB").nvalues, 2);
  assert_string_equal(raw_of(r, "AB", 0), "aa:bb");
  assert_string_equal(raw_of(r, "AB", 1), "ee");
  assert_int_equal(sgf_node_get_points(r, "AB", &it), SGF_OK);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 1);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 1);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 1);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 1);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 1);
  assert_int_equal(pt.x, 4);
  assert_int_equal(sgf_node_points_next(&it, &pt, NULL), 0);
  assert_int_equal(sgf_cursor_set_point(c, "TR", pts[4]), SGF_OK);
  assert_string_equal(raw_of(r, "TR", 0), "ee");
  /* off the 9 x 9 board, wrong type: nothing written */
  dump(t, &before);
  assert_int_equal(sgf_cursor_set_points(c, "AB", off, 2), SGF_ERANGE);
  assert_int_equal(sgf_cursor_set_point(c, "TR", off[1]), SGF_ERANGE);
  assert_int_equal(sgf_cursor_set_points(c, "KM", pts, 1), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_point(c, "B", pts[0]), SGF_EINVAL);
  dump(t, &after);
  assert_true(bytebuf_eq(&before, &after));
  /* none: DD (an elist) gets [], AB goes */
  assert_int_equal(sgf_cursor_set_points(c, "DD", NULL, 0), SGF_OK);
  assert_int_equal(sgf_node_find_prop(r, "DD").nvalues, 1);
  assert_string_equal(raw_of(r, "DD", 0), "");
  assert_int_equal(sgf_cursor_set_points(c, "AB", NULL, 0), SGF_OK);
  assert_int_equal(sgf_node_find_prop(r, "AB").nvalues, 0);
  /* play, checked against 9 x 9 */
  m.pass = 0;
  m.pt.x = 8;
  m.pt.y = 8;
  assert_int_equal(sgf_cursor_play(c, SGF_COLOR_BLACK, &m, 0), SGF_OK);
  assert_string_equal(raw_of(sgf_cursor_node(c), "B", 0), "ii");
  nodes = sgf_tree_node_count(t);
  m.pt.x = 9;
  assert_int_equal(sgf_cursor_play(c, SGF_COLOR_WHITE, &m, 0), SGF_ERANGE);
  assert_int_equal(sgf_tree_node_count(t), nodes);
  assert_int_equal(sgf_cursor_play(c, SGF_COLOR_NONE, &m, 0), SGF_EINVAL);
  /* the contrast tree.h and typed.h document: sgf_cursor_add_move checks
   * only that the letters exist (0..51), so it writes W[uu] on 9 x 9 */
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_WHITE, 20, 20, 0), SGF_OK);
  assert_string_equal(raw_of(sgf_cursor_node(c), "W", 0), "uu");
  assert_int_equal(sgf_tree_node_count(t), nodes + 1);
  assert_int_equal(sgf_cursor_add_move(c, SGF_COLOR_BLACK, 52, 0, 0),
                   SGF_EINVAL);
  assert_int_equal(sgf_cursor_goto(c, sgf_node_parent(sgf_cursor_node(c))),
                   SGF_OK);
  m.pass = 1;
  assert_int_equal(sgf_cursor_play(c, SGF_COLOR_WHITE, &m, 0), SGF_OK);
  assert_string_equal(raw_of(sgf_cursor_node(c), "W", 0), "");
  assert_int_equal(sgf_node_get_move(sgf_cursor_node(c), &col, &m), SGF_OK);
  assert_int_equal(col, SGF_COLOR_WHITE);
  assert_int_equal(m.pass, 1);
  /* SZ set from a deeper node goes to the root */
  nine.width = 19;
  nine.height = 13;
  assert_int_equal(sgf_cursor_set_board(c, &nine), SGF_OK);
  assert_string_equal(raw_of(r, "SZ", 0), "19:13");
  assert_int_equal(sgf_node_find_prop(sgf_cursor_node(c), "SZ").nvalues, 0);
  bytebuf_free(&before);
  bytebuf_free(&after);
  sgf_cursor_destroy(c);
  sgf_tree_free(t);
}

static void test_set_utf8(void **state) {
  sgf_tree *t = sgf_tree_create(NULL);
  sgf_cursor *c = sgf_cursor_create(t);
  const sgf_node *r = sgf_tree_root(t);
  sgf_charset *cs = sgf_charset_create(NULL);
  static const char text[] = "a]b\\c\nd \xc3\xa9:";
  char *out = NULL;
  size_t cap = 0, off = 99;
  bytebuf before, after;
  (void)state;
  bytebuf_init(&before);
  bytebuf_init(&after);
  assert_int_equal(sgf_cursor_set_utf8(c, "C", text, strlen(text), NULL),
                   SGF_OK);
  assert_string_equal(raw_of(r, "C", 0), "a\\]b\\\\c\nd \xc3\xa9:");
  /* reads back as given */
  assert_int_equal(sgf_node_get_text(r, "C", cs, &out, &cap, NULL),
                   (int)strlen(text));
  assert_string_equal(out, text);
  assert_int_equal(sgf_cursor_set_utf8(c, "GN", "x]", 2, NULL), SGF_OK);
  assert_string_equal(raw_of(r, "GN", 0), "x\\]");
  dump(t, &before);
  /* a line break in SimpleText, a tab: they would not read back */
  assert_int_equal(sgf_cursor_set_utf8(c, "GN", "x\ny", 3, &off), SGF_ERANGE);
  assert_int_equal(off, 1);
  assert_int_equal(sgf_cursor_set_utf8(c, "C", "ab\t", 3, &off), SGF_ERANGE);
  assert_int_equal(off, 2);
  /* not UTF-8; not a text property */
  assert_int_equal(sgf_cursor_set_utf8(c, "C", "\xff", 1, NULL), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_utf8(c, "HA", "2", 1, NULL), SGF_EINVAL);
  dump(t, &after);
  assert_true(bytebuf_eq(&before, &after));
  /* a root that declares Latin-1: UTF-8 text would be misread */
  assert_int_equal(sgf_cursor_set_text(c, "CA", "ISO-8859-1"), SGF_OK);
  assert_int_equal(sgf_cursor_set_utf8(c, "C", "x", 1, NULL), SGF_EINVAL);
  assert_int_equal(sgf_cursor_set_text(c, "CA", " utf8 "), SGF_OK);
  assert_int_equal(sgf_cursor_set_utf8(c, "C", "x", 1, NULL), SGF_OK);
  sgf_charset_free(cs, out, cap);
  sgf_charset_destroy(cs);
  bytebuf_free(&before);
  bytebuf_free(&after);
  sgf_cursor_destroy(c);
  sgf_tree_free(t);
}

/* ------------------------------------------------------------------ */
/* Allocation failure                                                  */

#define STEPS_END 1000 /* not a result code */

/* Step k of a recording that needs new arena blocks and scratch memory
 * (large text, a full board of points); STEPS_END past the end. */
static int step(sgf_cursor *c, int k, const char *big, size_t nbig,
                const sgf_point *all, size_t nall) {
  static const sgf_board b = {19, 19};
  sgf_move m = {0, {3, 3}};
  switch (k) {
    case 0:
      return sgf_cursor_set_board(c, &b);
    case 1:
      return sgf_cursor_set_utf8(c, "GC", big, nbig, NULL);
    case 2:
      return sgf_cursor_set_points(c, "AB", all, nall);
    case 3:
      return sgf_cursor_set_number(c, "HA", 9);
    case 4:
      return sgf_cursor_set_real(c, "KM", 0.5);
    case 5:
      return sgf_cursor_play(c, SGF_COLOR_WHITE, &m, 0);
    case 6:
      return sgf_cursor_set_utf8(c, "C", big, nbig, NULL);
    case 7:
      return sgf_cursor_set_points(c, "TR", all, nall / 2);
    case 8:
      return sgf_cursor_set_color(c, "PL", SGF_COLOR_BLACK);
    case 9:
      return sgf_cursor_set_utf8(c, "C", big, nbig / 2, NULL);
    default:
      return STEPS_END;
  }
}

/* A tree that kept positions: a setter's new values have none (zeros),
 * however many there are, and the identifier keeps its own. */
static void test_set_positions(void **state) {
  static const char src[] = "(;FF[4]SZ[9]\nAB[aa][bb]HA[2])";
  static const sgf_point pts[] = {{0, 0}, {2, 2}, {3, 4}, {5, 1}, {8, 8}};
  sgf_tree_builder_options o;
  sgf_diag err;
  sgf_collection *col;
  sgf_tree *t;
  sgf_cursor *c;
  const sgf_node *r;
  sgf_prop_view p;
  size_t i;
  (void)state;
  sgf_tree_builder_options_init(&o);
  o.flags = SGF_TREE_POSITIONS;
  col = sgf_collection_parse(src, strlen(src), &o, &err);
  assert_non_null(col);
  t = sgf_collection_tree(col, 0);
  c = sgf_cursor_create(t);
  r = sgf_tree_root(t);
  assert_int_equal(sgf_cursor_set_points(c, "AB", pts, 5), SGF_OK);
  p = sgf_node_find_prop(r, "AB");
  assert_int_equal(p.nvalues, 5);
  assert_int_equal(p.pos.line, 2);
  assert_int_equal(p.pos.column, 1);
  for (i = 0; i < p.nvalues; i++) {
    sgf_value_view v = sgf_prop_value(&p, i);
    assert_int_equal(v.pos.line, 0);
    assert_int_equal(v.pos.offset, 0);
  }
  assert_string_equal(raw_of(r, "AB", 4), "ii");
  /* the property after it keeps its positions */
  p = sgf_node_find_prop(r, "HA");
  assert_int_equal(p.pos.line, 2);
  assert_int_equal(p.pos.column, 11);
  assert_int_equal(sgf_prop_value(&p, 0).pos.column, 13);
  sgf_cursor_destroy(c);
  sgf_collection_free(col);
}

static void test_set_alloc_failure(void **state) {
  size_t nbig = 70000, nall = 0, fail, failed_total = 0;
  char *big = malloc(nbig);
  sgf_point all[361];
  bytebuf before, after;
  int x, y;
  (void)state;
  assert_non_null(big);
  memset(big, 'x', nbig);
  for (y = 0; y < 19; y++)
    for (x = 0; x < 19; x += 2) { /* stripes: many rectangles */
      all[nall].x = x;
      all[nall++].y = y;
    }
  bytebuf_init(&before);
  bytebuf_init(&after);
  for (fail = 1;; fail++) {
    countalloc cnt;
    sgf_allocator a;
    sgf_tree *t;
    sgf_cursor *c;
    int k, r, failures = 0;
    countalloc_init(&cnt, &a, 1);
    countalloc_schedule(&cnt, fail - 1, 1);
    t = sgf_tree_create(&a);
    c = t ? sgf_cursor_create(t) : NULL;
    if (!c) {
      sgf_tree_free(t);
      assert_int_equal(cnt.live, 0);
      continue;
    }
    for (k = 0;; k++) {
      dump(t, &before);
      r = step(c, k, big, nbig, all, nall);
      if (r == STEPS_END) break;
      if (r != SGF_OK) {
        assert_int_equal(r, SGF_ENOMEM);
        failures++;
        dump(t, &after);
        assert_true(bytebuf_eq(&before, &after)); /* nothing changed */
        /* and the same step goes through once memory is back */
        assert_int_equal(step(c, k, big, nbig, all, nall), SGF_OK);
      }
    }
    sgf_cursor_destroy(c);
    sgf_tree_free(t);
    assert_int_equal(cnt.live, 0);
    assert_int_equal(cnt.bad, 0);
    failed_total += (size_t)failures;
    if (cnt.failures == 0) break; /* the schedule went past every call */
  }
  assert_true(failed_total >= 5); /* the loop did reach the setters */
  bytebuf_free(&before);
  bytebuf_free(&after);
  free(big);
}

/* The text getter's scratch memory comes from the tree's allocator: out
 * of memory is SGF_ENOMEM, with nothing leaked and *out untouched. */
static void test_get_text_nomem(void **state) {
  countalloc cnt;
  sgf_allocator a;
  sgf_tree *t;
  sgf_cursor *c;
  sgf_charset *cs = sgf_charset_create(NULL);
  char *out = NULL;
  size_t cap = 0;
  (void)state;
  countalloc_init(&cnt, &a, 1);
  t = sgf_tree_create(&a);
  c = sgf_cursor_create(t);
  assert_non_null(c);
  assert_int_equal(sgf_cursor_set_utf8(c, "C", "abc", 3, NULL), SGF_OK);
  countalloc_schedule(&cnt, 0, 1); /* the next call fails */
  assert_int_equal(
      sgf_node_get_text(sgf_tree_root(t), "C", cs, &out, &cap, NULL),
      SGF_ENOMEM);
  assert_null(out);
  assert_int_equal(
      sgf_node_get_text(sgf_tree_root(t), "C", cs, &out, &cap, NULL), 3);
  assert_string_equal(out, "abc");
  sgf_charset_free(cs, out, cap);
  sgf_charset_destroy(cs);
  sgf_cursor_destroy(c);
  sgf_tree_free(t);
  assert_int_equal(cnt.live, 0);
  assert_int_equal(cnt.bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_get_scalars),
      cmocka_unit_test(test_get_points_moves),
      cmocka_unit_test(test_get_bad_board),
      cmocka_unit_test(test_get_text),
      cmocka_unit_test(test_get_text_nomem),
      cmocka_unit_test(test_set_scalars),
      cmocka_unit_test(test_set_points_play),
      cmocka_unit_test(test_set_utf8),
      cmocka_unit_test(test_set_positions),
      cmocka_unit_test(test_set_alloc_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
