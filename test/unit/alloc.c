/* alloc.c - allocation-failure loops. For every entry point that
 * allocates, fail the i-th allocation for i = 0, 1, 2 ... until the
 * operation succeeds; each failure must end cleanly (a NULL return, or a
 * fatal out-of-memory diagnostic and SGF_EPARSE) and leave nothing
 * outstanding after destroy. The counting allocator (test/support/countalloc.c)
 * also checks the sizes the library passes to free and realloc.
 *
 * Each loop runs twice: with a realloc hook, and without one (the
 * library's malloc + copy + free path). A second schedule fails every
 * call from the i-th on.
 *
 * Entry points covered: sgf_parser_create, sgf_reader_create, a reader
 * parse that grows both of the reader's buffers, sgf_tree_builder_create
 * (attached, detached, collecting), a tree builder parse (one game at a
 * time and collected, a game kept), sgf_collection_parse, sgf_tree_create
 * and sgf_cursor_create, every kind of cursor edit (a failed edit must
 * return SGF_ENOMEM and leave the tree exactly as it was), and
 * sgf_writer_create (the writer must not allocate afterwards).
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "harness.h"

/* A loop that stops: no entry point here needs more than this. */
#define MAX_CALLS 10000

static void test_parser_create(void **state) {
  int hooks, all;
  (void)state;
  for (hooks = 0; hooks < 2; hooks++) {
    for (all = 0; all < 2; all++) {
      size_t i;
      for (i = 0; i < MAX_CALLS; i++) {
        countalloc c;
        sgf_allocator a;
        sgf_options o;
        sgf_parser *p;
        countalloc_init(&c, &a, hooks);
        countalloc_schedule(&c, i, all ? SIZE_MAX : 1);
        sgf_options_init(&o);
        o.allocator = &a;
        p = sgf_parser_create(NULL, NULL, &o);
        if (p == NULL) {
          assert_true(c.failures > 0);
          assert_int_equal(c.live, 0);
          assert_int_equal(c.blocks, 0);
          assert_int_equal(c.bad, 0);
          continue;
        }
        assert_int_equal(c.failures, 0);
        /* it works: feed something, then destroy */
        assert_int_equal(sgf_parser_feed(p, "(;B[aa])", 8, NULL), SGF_OK);
        assert_int_equal(sgf_parser_finish(p), SGF_OK);
        sgf_parser_destroy(p);
        assert_int_equal(c.live, 0);
        assert_int_equal(c.bad, 0);
        break;
      }
      assert_true(i > 0); /* creation allocates */
      assert_true(i < MAX_CALLS);
    }
  }
}

static void test_reader_create(void **state) {
  int hooks, all;
  (void)state;
  for (hooks = 0; hooks < 2; hooks++) {
    for (all = 0; all < 2; all++) {
      size_t i;
      for (i = 0; i < MAX_CALLS; i++) {
        countalloc c;
        sgf_allocator a;
        sgf_options o;
        sgf_reader_options ro;
        sgf_reader *r;
        countalloc_init(&c, &a, hooks);
        countalloc_schedule(&c, i, all ? SIZE_MAX : 1);
        sgf_options_init(&o);
        o.allocator = &a;
        sgf_reader_options_init(&ro);
        ro.parser = &o;
        r = sgf_reader_create(NULL, NULL, &ro);
        if (r == NULL) {
          assert_true(c.failures > 0);
          assert_int_equal(c.live, 0);
          assert_int_equal(c.blocks, 0);
          assert_int_equal(c.bad, 0);
          continue;
        }
        assert_int_equal(c.failures, 0);
        sgf_reader_destroy(r);
        assert_int_equal(c.live, 0);
        assert_int_equal(c.bad, 0);
        break;
      }
      assert_true(i > 0);
      assert_true(i < MAX_CALLS);
    }
  }
}

/* A reader parse whose properties grow the value buffer (a 100 KB
 * comment) and the value array (200 values). */
typedef struct seen {
  int props;
  size_t values, bytes;
  int diags;
  sgf_diag last;
} seen;

static int s_prop(sgf_parser *p, void *u, const sgf_prop_view *pr) {
  seen *s = u;
  size_t i;
  (void)p;
  s->props++;
  s->values += pr->nvalues;
  for (i = 0; i < pr->nvalues; i++) s->bytes += sgf_prop_value(pr, i).len;
  return SGF_CONTINUE;
}

static int s_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  seen *s = u;
  (void)p;
  s->diags++;
  s->last = *d;
  return SGF_CONTINUE;
}

static char *grow_input(size_t *len) {
  const size_t comment = 100000, nvals = 200;
  size_t n = 0, i;
  char *in = malloc(comment + nvals * 4 + 64);
  assert_non_null(in);
  memcpy(in + n, "(;GM[1]C[", 9);
  n += 9;
  memset(in + n, 'c', comment);
  n += comment;
  memcpy(in + n, "]AB", 3);
  n += 3;
  for (i = 0; i < nvals; i++) {
    in[n++] = '[';
    in[n++] = (char)('a' + i % 19);
    in[n++] = (char)('a' + i / 19);
    in[n++] = ']';
  }
  memcpy(in + n, ";B[aa])", 7);
  n += 7;
  *len = n;
  return in;
}

/* Run the grow input through a reader failing call `at` (counted from
 * after creation), `count` calls. Returns 1 when no call failed. */
static int reader_parse_once(const char *in, size_t len, size_t chunk,
                             int hooks, size_t at, size_t count) {
  countalloc c;
  sgf_allocator a;
  sgf_options o;
  sgf_reader_options ro;
  sgf_reader_callbacks cb;
  sgf_reader *r;
  sgf_parser *p;
  seen s;
  size_t off = 0;
  int st = SGF_OK;
  int clean;
  countalloc_init(&c, &a, hooks);
  sgf_options_init(&o);
  o.allocator = &a;
  sgf_reader_callbacks_init(&cb);
  cb.on_property = s_prop;
  cb.on_diagnostic = s_diag;
  memset(&s, 0, sizeof s);
  sgf_reader_options_init(&ro);
  ro.parser = &o;
  r = sgf_reader_create(&cb, &s, &ro);
  assert_non_null(r);
  p = sgf_reader_parser(r);
  countalloc_schedule(&c, at, count);
  while (off < len && st == SGF_OK) {
    size_t n = len - off < chunk ? len - off : chunk;
    st = sgf_parser_feed(p, in + off, n, NULL);
    off += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  clean = c.failures == 0;
  if (clean) {
    assert_int_equal(st, SGF_OK);
    assert_int_equal(s.props, 4);
    assert_int_equal(s.values, 203);
    assert_int_equal(s.bytes, 100000 + 1 + 400 + 2);
    assert_int_equal(s.diags, 0);
  } else {
    const sgf_diag *e = sgf_parser_error(p);
    assert_int_equal(st, SGF_EPARSE);
    assert_non_null(e);
    assert_int_equal(e->code, SGF_DIAG_NOMEM);
    assert_int_equal(e->severity, SGF_SEV_FATAL);
    assert_true(e->pos.offset <= len);
    assert_true(e->pos.line >= 1 && e->pos.column >= 1);
    assert_int_equal(s.diags, 1); /* reported once, through the handler */
    assert_int_equal(s.last.code, SGF_DIAG_NOMEM);
    /* sticky */
    assert_int_equal(sgf_parser_feed(p, ")", 1, NULL), SGF_EPARSE);
    assert_int_equal(sgf_parser_finish(p), SGF_EPARSE);
  }
  sgf_reader_destroy(r);
  assert_int_equal(c.live, 0);
  assert_int_equal(c.blocks, 0);
  assert_int_equal(c.bad, 0);
  return clean;
}

static void test_reader_parse_growth(void **state) {
  size_t len, chunks[3] = {0, 4096, 7};
  char *in = grow_input(&len);
  int hooks, all, k;
  (void)state;
  chunks[0] = len;
  for (hooks = 0; hooks < 2; hooks++) {
    for (all = 0; all < 2; all++) {
      for (k = 0; k < 3; k++) {
        size_t i;
        for (i = 0; i < MAX_CALLS; i++)
          if (reader_parse_once(in, len, chunks[k], hooks, i,
                                all ? SIZE_MAX : 1))
            break;
        assert_true(i > 1); /* it did grow */
        assert_true(i < MAX_CALLS);
      }
    }
  }
  free(in);
}

/* The parser allocates after creation only for nodes written after a
 * variation (its stack of implicit variations, at most max_depth
 * entries): fail each of those allocations in turn. */
static void test_parser_implicit_growth(void **state) {
  char in[4 + 4 * 300];
  size_t n = 0, k, i;
  int hooks;
  (void)state;
  in[n++] = '(';
  in[n++] = ';';
  for (k = 0; k < 300; k++) {
    memcpy(in + n, "(;);", 4);
    n += 4;
  }
  in[n++] = ')';
  for (hooks = 0; hooks < 2; hooks++) {
    for (i = 0; i < MAX_CALLS; i++) {
      countalloc c;
      sgf_allocator a;
      sgf_options o;
      sgf_parser *p;
      int st;
      countalloc_init(&c, &a, hooks);
      sgf_options_init(&o);
      o.allocator = &a;
      p = sgf_parser_create(NULL, NULL, &o);
      assert_non_null(p);
      countalloc_schedule(&c, i, 1);
      st = sgf_parser_feed(p, in, n, NULL);
      if (st == SGF_OK) st = sgf_parser_finish(p);
      if (c.failures > 0) {
        const sgf_diag *e = sgf_parser_error(p);
        assert_int_equal(st, SGF_EPARSE);
        assert_non_null(e);
        assert_int_equal(e->code, SGF_DIAG_NOMEM);
        assert_true(e->pos.offset < n);
        assert_int_equal(in[e->pos.offset], ';');
      } else {
        assert_int_equal(st, SGF_OK);
        assert_int_equal(sgf_parser_depth(p), 0);
      }
      sgf_parser_destroy(p);
      assert_int_equal(c.live, 0);
      assert_int_equal(c.bad, 0);
      if (c.failures == 0) break;
    }
    assert_true(i > 0 && i < MAX_CALLS);
  }
}

/* The parser alone never allocates after creation on input without nodes
 * after variations, whatever it parses. */
static void test_parser_no_allocation(void **state) {
  size_t len;
  char *in = grow_input(&len);
  countalloc c;
  sgf_allocator a;
  sgf_options o;
  sgf_parser *p;
  (void)state;
  countalloc_init(&c, &a, 1);
  sgf_options_init(&o);
  o.allocator = &a;
  p = sgf_parser_create(NULL, NULL, &o);
  assert_non_null(p);
  countalloc_schedule(&c, 0, SIZE_MAX); /* any allocation now fails */
  assert_int_equal(sgf_parser_feed(p, in, len, NULL), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(c.calls, 0);
  sgf_parser_destroy(p);
  assert_int_equal(c.live, 0);
  free(in);
}

/* ------------------------------------------------------------------ */
/* The tree builder                                                    */

static void test_tree_builder_create(void **state) {
  unsigned flags;
  (void)state;
  for (flags = 0; flags < 8; flags++) { /* COLLECT, SKIP_OVERSIZED, DETACHED */
    int hooks;
    for (hooks = 0; hooks < 2; hooks++) {
      size_t i;
      for (i = 0; i < MAX_CALLS; i++) {
        countalloc c;
        sgf_allocator a;
        sgf_tree_builder_options o;
        sgf_options po;
        sgf_tree_builder *b;
        countalloc_init(&c, &a, hooks);
        countalloc_schedule(&c, i, 1);
        sgf_tree_builder_options_init(&o);
        sgf_options_init(&po);
        o.parser = &po;
        po.allocator = &a;
        o.flags = flags;
        b = sgf_tree_builder_create(NULL, NULL, &o);
        if (b == NULL) {
          assert_true(c.failures > 0);
          assert_int_equal(c.live, 0);
          assert_int_equal(c.bad, 0);
          continue;
        }
        assert_int_equal(c.failures, 0);
        assert_true((sgf_tree_builder_parser(b) == NULL) ==
                    ((flags & SGF_TREE_DETACHED) != 0));
        sgf_tree_builder_destroy(b);
        assert_int_equal(c.live, 0);
        break;
      }
      assert_true(i > 0 && i < MAX_CALLS);
    }
  }
}

/* Build the grow input plus variations, one game at a time or collected,
 * failing call `at` after creation. Returns 1 when nothing failed. */
typedef struct games {
  int n;
  size_t nodes;
  sgf_tree *kept;
} games;

static int g_game(sgf_tree_builder *b, void *u, sgf_tree *t) {
  games *g = u;
  g->n++;
  g->nodes += sgf_tree_node_count(t);
  if (g->n == 2) g->kept = sgf_tree_builder_keep(b);
  return SGF_CONTINUE;
}

static char *tree_input(size_t *len) {
  size_t n, glen;
  char *grow = grow_input(&glen), *in;
  static const char vars[] =
      "(;GM[1];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]C[x]))(;W[ff])(;W[gg]))"
      "(;FF[4]C[second]AB[aa][bb](;B[cc])(;B[dd];W[ee]))";
  in = malloc(glen + sizeof vars);
  assert_non_null(in);
  memcpy(in, grow, glen);
  memcpy(in + glen, vars, sizeof vars - 1);
  n = glen + sizeof vars - 1;
  free(grow);
  *len = n;
  return in;
}

static int tree_parse_once(const char *in, size_t len, unsigned flags,
                           int hooks, size_t at, size_t count) {
  countalloc c;
  sgf_allocator a;
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_tree_builder_callbacks cb;
  sgf_tree_builder *b;
  sgf_parser *p;
  sgf_collection *coll = NULL;
  games g;
  int st;
  countalloc_init(&c, &a, hooks);
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  po.allocator = &a;
  o.flags = flags;
  sgf_tree_builder_callbacks_init(&cb);
  cb.on_game = g_game;
  memset(&g, 0, sizeof g);
  b = sgf_tree_builder_create(&cb, &g, &o);
  assert_non_null(b);
  p = sgf_tree_builder_parser(b);
  countalloc_schedule(&c, at, count);
  st = sgf_parser_feed(p, in, len, NULL);
  if (st == SGF_OK) st = sgf_parser_finish(p);
  if (c.failures == 0) {
    assert_int_equal(st, SGF_OK);
    assert_int_equal(g.n, 3);
    assert_int_equal(g.nodes, 2 + 8 + 4);
    if (flags & SGF_TREE_COLLECT) {
      /* taking the collection allocates a new one: it may fail too, and
       * then the trees stay in the builder (destroy frees them) */
      coll = sgf_tree_builder_collection_take(b);
      if (coll == NULL)
        assert_true(c.failures > 0);
      else
        assert_int_equal(sgf_collection_count(coll), 2); /* one kept */
    }
  } else {
    const sgf_diag *e = sgf_parser_error(p);
    assert_int_equal(st, SGF_EPARSE);
    assert_non_null(e);
    assert_int_equal(e->code, SGF_DIAG_NOMEM);
    assert_int_equal(e->severity, SGF_SEV_FATAL);
    assert_true(e->pos.offset <= len);
    if (flags & SGF_TREE_COLLECT)
      coll = sgf_tree_builder_collection_take(b); /* NULL or the trees */
  }
  if (g.kept != NULL) {
    size_t dl;
    const char *err = NULL;
    char *dump = fz_tree_dump(g.kept, &dl, &err);
    if (dump == NULL) print_error("kept tree: %s\n", err);
    assert_non_null(dump);
    free(dump);
  }
  sgf_tree_free(g.kept);
  sgf_collection_free(coll);
  sgf_tree_builder_destroy(b);
  assert_int_equal(c.live, 0);
  assert_int_equal(c.blocks, 0);
  assert_int_equal(c.bad, 0);
  return c.failures == 0;
}

static void test_tree_builder_parse(void **state) {
  size_t len;
  char *in = tree_input(&len);
  unsigned flags;
  (void)state;
  for (flags = 0; flags < 2; flags++) { /* one at a time, collected */
    int hooks, all;
    for (hooks = 0; hooks < 2; hooks++) {
      for (all = 0; all < 2; all++) {
        size_t i;
        for (i = 0; i < MAX_CALLS; i++)
          if (tree_parse_once(in, len, flags, hooks, i, all ? SIZE_MAX : 1))
            break;
        assert_true(i > 1);
        assert_true(i < MAX_CALLS);
      }
    }
  }
  free(in);
}

static void test_collection_parse(void **state) {
  size_t len, i;
  char *in = tree_input(&len);
  (void)state;
  for (i = 0; i < MAX_CALLS; i++) {
    countalloc c;
    sgf_allocator a;
    sgf_tree_builder_options o;
    sgf_options po;
    sgf_collection *coll;
    sgf_diag err;
    countalloc_init(&c, &a, 1);
    countalloc_schedule(&c, i, 1);
    sgf_tree_builder_options_init(&o);
    sgf_options_init(&po);
    o.parser = &po;
    po.allocator = &a;
    memset(&err, 0, sizeof err);
    coll = sgf_collection_parse(in, len, &o, &err);
    if (coll == NULL) {
      assert_true(c.failures > 0);
      assert_int_equal(err.code, SGF_DIAG_NOMEM);
      assert_int_equal(c.live, 0);
      assert_int_equal(c.bad, 0);
      continue;
    }
    assert_int_equal(c.failures, 0);
    assert_int_equal(sgf_collection_count(coll), 3);
    sgf_collection_free(coll);
    assert_int_equal(c.live, 0);
    break;
  }
  assert_true(i > 1 && i < MAX_CALLS);
  free(in);
}

/* ------------------------------------------------------------------ */
/* Recording through a cursor: a failed edit leaves the tree unchanged */

#define N_EDITS 22

/* Edit number k on the cursor. The edits that remove or move (14, 16,
 * 18-20) allocate nothing; the ones after them add to what they
 * shrank. */
static int do_edit(sgf_cursor *cur, int k) {
  sgf_game_header h;
  switch (k) {
    case 0:
      memset(&h, 0, sizeof h);
      h.board_size = 19;
      h.has_komi = 1;
      h.komi = 6.5;
      h.black = "Black ]\\ player";
      h.white = "White";
      h.application = "test_alloc";
      return sgf_cursor_header(cur, &h);
    case 1:
      return sgf_cursor_add_move(cur, SGF_COLOR_BLACK, 3, 3, 0);
    case 2:
      return sgf_cursor_add_move(cur, SGF_COLOR_WHITE, 15, 15, 0);
    case 3:
      return sgf_cursor_add_comment(cur, "a comment with ] and \\");
    case 4:
      return sgf_cursor_add_comment(cur, "and more");
    case 5:
      return sgf_cursor_start_variation(cur);
    case 6:
      return sgf_cursor_add_move(cur, SGF_COLOR_WHITE, 2, 16, 0);
    case 7:
      return sgf_cursor_add_node(cur, 0);
    case 8:
      return sgf_cursor_add_stone(cur, SGF_COLOR_BLACK, 4, 4);
    case 9:
      return sgf_cursor_add_markup(cur, SGF_MARKUP_TRIANGLE, 4, 4);
    case 10:
      return sgf_cursor_add_label(cur, 5, 5, "A: label");
    case 11:
      return sgf_cursor_set_text(cur, "GN", "the game");
    case 12:
      return sgf_cursor_add_value(cur, "XX", "raw\\]", 6);
    case 13:
      return sgf_cursor_add_stone(cur, SGF_COLOR_BLACK, 6, 6);
    case 14:
      return sgf_cursor_delete_value(cur, "AB", 0);
    case 15:
      return sgf_cursor_add_stone(cur, SGF_COLOR_BLACK, 7, 7);
    case 16:
      return sgf_cursor_delete_prop(cur, "TR");
    case 17:
      return sgf_cursor_add_markup(cur, SGF_MARKUP_SQUARE, 1, 1);
    case 18:
      return sgf_cursor_promote(cur);
    case 19:
      return sgf_cursor_reparent(cur, sgf_tree_root(sgf_cursor_tree(cur)), 0);
    case 20:
      return sgf_cursor_delete(cur);
    case 21:
      return sgf_cursor_add_move(cur, SGF_COLOR_BLACK, 9, 9, 0);
    default:
      return sgf_cursor_set_result(cur, "B+R");
  }
}

static void test_cursor_edits(void **state) {
  int k;
  (void)state;
  for (k = 0; k < N_EDITS; k++) {
    int hooks;
    for (hooks = 0; hooks < 2; hooks++) {
      size_t i;
      for (i = 0; i < MAX_CALLS; i++) {
        countalloc c;
        sgf_allocator a;
        sgf_tree *t;
        sgf_cursor *cur;
        char *before, *after;
        size_t bl, al;
        const char *err = NULL;
        int j, r;
        countalloc_init(&c, &a, hooks);
        t = sgf_tree_create(&a);
        assert_non_null(t);
        cur = sgf_cursor_create(t);
        assert_non_null(cur);
        for (j = 0; j < k; j++) assert_int_equal(do_edit(cur, j), SGF_OK);
        before = fz_tree_dump(t, &bl, &err);
        if (before == NULL) print_error("edit %d: %s\n", k, err);
        assert_non_null(before);
        countalloc_schedule(&c, i, 1);
        r = do_edit(cur, k);
        countalloc_schedule(&c, SIZE_MAX, 0);
        after = fz_tree_dump(t, &al, &err);
        if (after == NULL) print_error("edit %d: %s\n", k, err);
        assert_non_null(after);
        if (c.failures > 0) {
          if (r != SGF_ENOMEM)
            print_error("edit %d, failing call %zu: returned %d\n", k, i, r);
          assert_int_equal(r, SGF_ENOMEM);
          if (bl != al || memcmp(before, after, bl) != 0)
            print_error("edit %d, failing call %zu: the tree changed\n", k, i);
          assert_true(bl == al && memcmp(before, after, bl) == 0);
        } else {
          assert_int_equal(r, SGF_OK);
        }
        free(before);
        free(after);
        sgf_cursor_destroy(cur);
        sgf_tree_free(t);
        assert_int_equal(c.live, 0);
        assert_int_equal(c.bad, 0);
        if (c.failures == 0) break;
      }
      assert_true(i < MAX_CALLS);
    }
  }
}

static void test_tree_and_cursor_create(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < MAX_CALLS; i++) {
    countalloc c;
    sgf_allocator a;
    sgf_tree *t;
    sgf_cursor *cur;
    countalloc_init(&c, &a, 1);
    countalloc_schedule(&c, i, 1);
    t = sgf_tree_create(&a);
    cur = t ? sgf_cursor_create(t) : NULL;
    if (cur == NULL) {
      assert_true(c.failures > 0);
      sgf_tree_free(t);
      assert_int_equal(c.live, 0);
      continue;
    }
    assert_int_equal(c.failures, 0);
    sgf_cursor_destroy(cur);
    sgf_tree_free(t);
    assert_int_equal(c.live, 0);
    break;
  }
  assert_true(i > 0 && i < MAX_CALLS);
}

/* ------------------------------------------------------------------ */
/* The writer                                                          */

static int null_sink(void *ctx, const char *b, size_t n) {
  (void)ctx;
  (void)b;
  return (int)n;
}

static void test_writer_create(void **state) {
  int hooks;
  (void)state;
  for (hooks = 0; hooks < 2; hooks++) {
    size_t i;
    for (i = 0; i < MAX_CALLS; i++) {
      countalloc c;
      sgf_allocator a;
      sgf_writer_options o;
      sgf_writer *w;
      countalloc_init(&c, &a, hooks);
      countalloc_schedule(&c, i, 1);
      sgf_writer_options_init(&o);
      o.allocator = &a;
      w = sgf_writer_create(null_sink, NULL, &o);
      if (w == NULL) {
        assert_true(c.failures > 0);
        assert_int_equal(c.live, 0);
        assert_int_equal(c.bad, 0);
        continue;
      }
      assert_int_equal(c.failures, 0);
      /* nothing allocated while writing */
      countalloc_schedule(&c, 0, SIZE_MAX);
      assert_int_equal(sgf_writer_tree_begin(w), 0);
      assert_int_equal(sgf_writer_node(w), 0);
      assert_int_equal(sgf_writer_property(w, "C", 1), 0);
      assert_int_equal(sgf_writer_value_begin(w), 0);
      assert_int_equal(sgf_writer_value_text(w, "x]y", 3, 0), 0);
      assert_int_equal(sgf_writer_value_end(w), 0);
      assert_int_equal(sgf_writer_finish(w), 0);
      assert_int_equal(c.calls, 0);
      sgf_writer_destroy(w);
      assert_int_equal(c.live, 0);
      assert_int_equal(c.bad, 0);
      break;
    }
    assert_true(i > 0 && i < MAX_CALLS);
  }
}

/* An allocator with malloc but no free is not complete: libc is used. */
static void *only_malloc(void *ctx, size_t n) {
  (void)ctx;
  (void)n;
  return NULL;
}

static void test_incomplete_allocator(void **state) {
  sgf_allocator a;
  sgf_options o;
  sgf_reader_options ro;
  sgf_parser *p;
  (void)state;
  memset(&a, 0, sizeof a);
  a.malloc = only_malloc;
  sgf_options_init(&o);
  o.allocator = &a;
  p = sgf_parser_create(NULL, NULL, &o);
  assert_non_null(p);
  sgf_parser_destroy(p);
  /* an absurd identifier limit is refused, not allocated */
  sgf_options_init(&o);
  o.max_ident_len = (size_t)-1;
  assert_null(sgf_parser_create(NULL, NULL, &o));
  sgf_reader_options_init(&ro);
  ro.parser = &o;
  assert_null(sgf_reader_create(NULL, NULL, &ro));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parser_create),
      cmocka_unit_test(test_reader_create),
      cmocka_unit_test(test_reader_parse_growth),
      cmocka_unit_test(test_parser_no_allocation),
      cmocka_unit_test(test_parser_implicit_growth),
      cmocka_unit_test(test_tree_builder_create),
      cmocka_unit_test(test_tree_builder_parse),
      cmocka_unit_test(test_collection_parse),
      cmocka_unit_test(test_tree_and_cursor_create),
      cmocka_unit_test(test_cursor_edits),
      cmocka_unit_test(test_writer_create),
      cmocka_unit_test(test_incomplete_allocator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
