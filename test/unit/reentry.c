/* reentry.c - feed, finish, reset and destroy called from inside
 * every kind of callback are refused with SGF_EBUSY, and the parse goes
 * on as if they had not been called (the same events). Run under ASan
 * (configure --enable-sanitizers) this also shows no use after free. The
 * layers' own entry points (reader, tree builder) are refused the same
 * way from their callbacks, and the writer's from its sink. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sgfstream.h"

/* Every event kind, a diagnostic (junk-after) included. */
static const char input[] = "(;GM[1]C[a\\]b](;B[aa])(;W[bb]))x";

typedef struct run {
  int poke;    /* call the four entry points from each callback */
  int events;  /* callbacks made */
  int refused; /* entry points that returned SGF_EBUSY */
  int other;   /* entry points that returned anything else */
} run;

static void poke(sgf_parser *p, run *r) {
  size_t used = 7;
  int rc[4], i;
  r->events++;
  if (!r->poke) return;
  rc[0] = sgf_parser_feed(p, "(;)", 3, &used);
  rc[1] = sgf_parser_finish(p);
  rc[2] = sgf_parser_reset(p);
  rc[3] = sgf_parser_destroy(p);
  for (i = 0; i < 4; i++) {
    if (rc[i] == SGF_EBUSY)
      r->refused++;
    else
      r->other++;
  }
  if (used != 0) r->other++;
}

static int e_cb(sgf_parser *p, void *u) {
  poke(p, u);
  return SGF_CONTINUE;
}
static int e_data(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)at, (void)len;
  poke(p, u);
  return SGF_CONTINUE;
}
static int e_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  (void)d;
  poke(p, u);
  return SGF_CONTINUE;
}
static int e_value(sgf_parser *p, void *u, const char *at, size_t len,
                   unsigned flags) {
  (void)at, (void)len, (void)flags;
  poke(p, u);
  return SGF_CONTINUE;
}

static void callbacks(sgf_callbacks *cb, int whole) {
  sgf_callbacks_init(cb);
  cb->on_tree_begin = e_cb;
  cb->on_tree_end = e_cb;
  cb->on_node = e_cb;
  cb->on_property = e_data;
  cb->on_value_begin = e_cb;
  cb->on_value_data = e_data;
  cb->on_value_end = e_cb;
  cb->on_property_end = e_cb;
  cb->on_diagnostic = e_diag;
  if (whole) cb->on_value = e_value;
}

static void parse(run *r, int whole, size_t chunk) {
  sgf_callbacks cb;
  sgf_parser *p;
  size_t off = 0, n = sizeof input - 1;
  callbacks(&cb, whole);
  p = sgf_parser_create(&cb, r, NULL);
  assert_non_null(p);
  while (off < n) {
    size_t k = chunk && n - off > chunk ? chunk : n - off;
    assert_int_equal(sgf_parser_feed(p, input + off, k, NULL), SGF_OK);
    off += k;
  }
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(sgf_parser_destroy(p), SGF_OK);
}

static void test_parser_entry_points(void **state) {
  int whole;
  size_t chunk;
  (void)state;
  for (whole = 0; whole <= 1; whole++) {
    for (chunk = 0; chunk <= 3; chunk++) {
      run plain, poked;
      memset(&plain, 0, sizeof plain);
      memset(&poked, 0, sizeof poked);
      poked.poke = 1;
      parse(&plain, whole, chunk);
      parse(&poked, whole, chunk);
      assert_true(plain.events > 10);
      assert_int_equal(poked.events, plain.events);
      assert_int_equal(poked.refused, 4 * poked.events);
      assert_int_equal(poked.other, 0);
    }
  }
}

/* The reader: its destroy (and the parser's) from on_property. */
typedef struct rd_run {
  sgf_reader *r;
  int props, busy;
} rd_run;

static int rd_prop(sgf_parser *p, void *u, const sgf_prop_view *prop) {
  rd_run *x = u;
  (void)prop;
  x->props++;
  if (sgf_reader_destroy(x->r) == SGF_EBUSY) x->busy++;
  if (sgf_parser_reset(p) == SGF_EBUSY) x->busy++;
  return SGF_CONTINUE;
}

static void test_reader_destroy_refused(void **state) {
  sgf_reader_callbacks cb;
  rd_run x;
  sgf_parser *p;
  (void)state;
  memset(&x, 0, sizeof x);
  sgf_reader_callbacks_init(&cb);
  cb.on_property = rd_prop;
  x.r = sgf_reader_create(&cb, &x, NULL);
  assert_non_null(x.r);
  p = sgf_reader_parser(x.r);
  assert_int_equal(sgf_parser_feed(p, input, sizeof input - 1, NULL), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(x.props, 4);
  assert_int_equal(x.busy, 2 * x.props);
  assert_int_equal(sgf_reader_destroy(x.r), SGF_OK);
}

/* The tree builder: destroy and reset from on_game, attached and
 * detached. */
typedef struct tb_run {
  sgf_tree_builder *b;
  int games, busy;
} tb_run;

static int tb_game(sgf_tree_builder *b, void *u, sgf_tree *t) {
  tb_run *x = u;
  (void)t;
  x->games++;
  if (sgf_tree_builder_destroy(b) == SGF_EBUSY) x->busy++;
  if (sgf_tree_builder_reset(b) == SGF_EBUSY) x->busy++;
  return SGF_CONTINUE;
}

static void test_tree_builder_refused(void **state) {
  sgf_tree_builder_callbacks cb;
  sgf_tree_builder_options o;
  tb_run x;
  int detached;
  (void)state;
  for (detached = 0; detached <= 1; detached++) {
    sgf_parser *p;
    memset(&x, 0, sizeof x);
    sgf_tree_builder_callbacks_init(&cb);
    cb.on_game = tb_game;
    sgf_tree_builder_options_init(&o);
    if (detached) o.flags = SGF_TREE_DETACHED;
    x.b = sgf_tree_builder_create(&cb, &x, &o);
    assert_non_null(x.b);
    if (detached) {
      p = sgf_parser_create(sgf_tree_builder_handlers(), x.b, NULL);
      assert_non_null(p);
    } else {
      p = sgf_tree_builder_parser(x.b);
    }
    assert_int_equal(sgf_parser_feed(p, input, sizeof input - 1, NULL), SGF_OK);
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    assert_int_equal(x.games, 1);
    assert_int_equal(x.busy, 2);
    if (detached) assert_int_equal(sgf_parser_destroy(p), SGF_OK);
    assert_int_equal(sgf_tree_builder_destroy(x.b), SGF_OK);
  }
}

/* The writer: its sink calling the writer's entry points back is
 * refused, every time, and the output is what it is without the calls. */
typedef struct w_run {
  sgf_writer *w;
  int poke;
  int calls, busy, other;
  char out[4096];
  size_t len;
} w_run;

static void w_expect(w_run *x, int rc) {
  if (rc == SGF_EBUSY)
    x->busy++;
  else
    x->other++;
}

static int w_sink(void *ctx, const char *buf, size_t len) {
  w_run *x = ctx;
  x->calls++;
  if (x->poke) {
    w_expect(x, sgf_writer_destroy(x->w));
    w_expect(x, sgf_writer_reset(x->w, NULL, NULL));
    w_expect(x, sgf_writer_finish(x->w));
    w_expect(x, sgf_writer_flush(x->w));
    w_expect(x, sgf_writer_node(x->w));
    w_expect(x, sgf_writer_tree_end(x->w));
    w_expect(x, sgf_writer_value(x->w, "zz", 2));
  }
  if (x->len + len > sizeof x->out) return -1;
  memcpy(x->out + x->len, buf, len);
  x->len += len;
  return (int)len;
}

static void w_write(w_run *x) {
  sgf_writer_options o;
  sgf_parser *p;
  sgf_callbacks cb;
  sgf_writer_options_init(&o);
  o.buffer_size = SGF_WRITER_MIN_BUFFER; /* many flushes */
  x->w = sgf_writer_create(w_sink, x, &o);
  assert_non_null(x->w);
  sgf_callbacks_init(&cb);
  sgf_writer_callbacks(&cb);
  p = sgf_parser_create(&cb, x->w, NULL);
  assert_non_null(p);
  for (int i = 0; i < 40; i++) /* 40 games: over 1 KiB of output */
    assert_int_equal(sgf_parser_feed(p, input, sizeof input - 2, NULL), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(sgf_writer_finish(x->w), SGF_OK);
  assert_int_equal(sgf_parser_destroy(p), SGF_OK);
  assert_int_equal(sgf_writer_destroy(x->w), SGF_OK);
}

static void test_writer_refused(void **state) {
  static w_run plain, poked;
  (void)state;
  memset(&plain, 0, sizeof plain);
  memset(&poked, 0, sizeof poked);
  poked.poke = 1;
  w_write(&plain);
  w_write(&poked);
  assert_true(poked.calls > 3);
  assert_int_equal(poked.busy, 7 * poked.calls);
  assert_int_equal(poked.other, 0);
  assert_int_equal(poked.len, plain.len);
  assert_memory_equal(poked.out, plain.out, plain.len);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_writer_refused),
      cmocka_unit_test(test_parser_entry_points),
      cmocka_unit_test(test_reader_destroy_refused),
      cmocka_unit_test(test_tree_builder_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
