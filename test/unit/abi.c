/* abi.c - VERSIONED STRUCTS (sgfstream.h): a caller built against
 * an older header passes a shorter struct, and the library reads (and
 * writes) nothing past it. The short struct sits at the very end of a
 * page followed by a PROT_NONE page, so one byte too far is a SIGSEGV. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "sgfstream.h"

/* sgf_callbacks as the first version declared it: no on_value. */
typedef struct old_callbacks {
  size_t size;
  sgf_cb on_tree_begin;
  sgf_cb on_tree_end;
  sgf_cb on_node;
  sgf_data_cb on_property;
  sgf_cb on_value_begin;
  sgf_data_cb on_value_data;
  sgf_cb on_value_end;
  sgf_cb on_property_end;
  sgf_diag_cb on_diagnostic;
} old_callbacks;

typedef struct guarded {
  unsigned char *map;
  size_t page;
} guarded;

/* size bytes that end where the guard page begins. */
static void *guarded_alloc(guarded *g, size_t size) {
  g->page = (size_t)sysconf(_SC_PAGESIZE);
  g->map = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(g->map != MAP_FAILED);
  assert_int_equal(mprotect(g->map + g->page, g->page, PROT_NONE), 0);
  return g->map + g->page - size;
}

static void guarded_free(guarded *g) { munmap(g->map, 2 * g->page); }

typedef struct counts {
  int nodes, values, props;
} counts;

static int c_prop(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p, (void)at, (void)len;
  ((counts *)u)->props++;
  return SGF_CONTINUE;
}
static int c_n(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->nodes++;
  return SGF_CONTINUE;
}
static int c_ve(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->values++;
  return SGF_CONTINUE;
}

static void test_short_callbacks(void **state) {
  guarded g;
  old_callbacks *cb = guarded_alloc(&g, sizeof *cb);
  counts c = {0, 0, 0};
  sgf_parser *p;
  (void)state;
  memset(cb, 0, sizeof *cb);
  cb->size = sizeof *cb;
  cb->on_node = c_n;
  cb->on_property = c_prop;
  cb->on_value_end = c_ve;
  /* a newer struct would have on_value right here, in the guard page */
  assert_true(sizeof *cb < sizeof(sgf_callbacks));
  p = sgf_parser_create((const sgf_callbacks *)cb, &c, NULL);
  assert_non_null(p);
  assert_int_equal(sgf_parser_feed(p, "(;B[aa];W[bb]C[x][y])", 21, NULL),
                   SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  /* on_value is taken as NULL: the three value events are delivered */
  assert_int_equal(c.nodes, 2);
  assert_int_equal(c.props, 3);
  assert_int_equal(c.values, 4);
  sgf_parser_destroy(p);
  /* the writer's helpers write nothing past the caller's size either */
  sgf_writer_callbacks((sgf_callbacks *)cb);
  sgf_writer_value_callbacks((sgf_callbacks *)cb);
  assert_non_null(cb->on_value_data);
  assert_non_null(cb->on_value_end);
  guarded_free(&g);
}

static void test_too_short_refused(void **state) {
  sgf_callbacks cb;
  sgf_options o;
  sgf_writer_options wo;
  sgf_tree_builder_options to;
  sgf_tree_builder_callbacks tc;
  sgf_reader_options ro;
  sgf_reader_callbacks rc;
  (void)state;
  sgf_callbacks_init(&cb);
  assert_int_equal(cb.size, sizeof cb);
  cb.size = 0;
  assert_null(sgf_parser_create(&cb, NULL, NULL));
  cb.size = offsetof(sgf_callbacks, on_diagnostic); /* before version 1 */
  assert_null(sgf_parser_create(&cb, NULL, NULL));
  sgf_options_init(&o);
  o.size = sizeof o - 1;
  assert_null(sgf_parser_create(NULL, NULL, &o));
  sgf_writer_options_init(&wo);
  wo.size = 0;
  assert_null(sgf_writer_create((sgf_write_fn)1, NULL, &wo));
  sgf_tree_builder_options_init(&to);
  to.size = 0;
  assert_null(sgf_tree_builder_create(NULL, NULL, &to));
  sgf_tree_builder_callbacks_init(&tc);
  tc.size = 0;
  assert_null(sgf_tree_builder_create(&tc, NULL, NULL));
  sgf_reader_options_init(&ro);
  ro.size = 0;
  assert_null(sgf_reader_create(NULL, NULL, &ro));
  sgf_reader_callbacks_init(&rc);
  rc.size = 0;
  assert_null(sgf_reader_create(&rc, NULL, NULL));
  /* a nested struct is checked too */
  sgf_options_init(&o);
  o.size = 0;
  sgf_reader_options_init(&ro);
  ro.parser = &o;
  assert_null(sgf_reader_create(NULL, NULL, &ro));
  sgf_tree_builder_options_init(&to);
  to.parser = &o;
  assert_null(sgf_tree_builder_create(NULL, NULL, &to));
}

/* The values a compiled program holds: the actions (ABI 4: 0x101 to
 * 0x103, not 1 to 3) and the result codes they must never equal, but
 * SGF_CONTINUE = SGF_OK. A program built against the ABI 3 header
 * returns 1 for SGF_SKIP: SGF_PAUSED's number, which this library
 * refuses (SGF_EACTION) instead of taking it for either. */
static void test_action_values(void **state) {
  (void)state;
  assert_int_equal(SGF_CONTINUE, 0);
  assert_int_equal(SGF_SKIP, 0x101);
  assert_int_equal(SGF_PAUSE, 0x102);
  assert_int_equal(SGF_ABORT, 0x103);
  assert_int_equal(SGF_OK, 0);
  assert_int_equal(SGF_PAUSED, 1);
  assert_int_equal(SGF_EACTION, -12);
  for (int r = SGF_ERROR_LAST_ + 1; r < 0x100; r++) {
    assert_int_not_equal(r, SGF_SKIP);
    assert_int_not_equal(r, SGF_PAUSE);
    assert_int_not_equal(r, SGF_ABORT);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_action_values),
      cmocka_unit_test(test_short_callbacks),
      cmocka_unit_test(test_too_short_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
