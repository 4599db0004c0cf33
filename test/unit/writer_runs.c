/* test_writer_runs.c - the streaming writer's move runs
 * (sgf_writer_copy_callbacks: on_moves writes a run of plain move nodes
 * at copy speed) write the bytes their nodes' events write
 * (sgf_writer_value_callbacks, no on_moves): both layouts, the smallest
 * buffer and larger ones, a sink that takes a few bytes a call, the
 * input fed whole or in pieces; runs with LF, CR LF or nothing between
 * their nodes, runs that begin a game tree, follow a property without
 * value or a variation, deeper than 8 and than 32 levels (the readable
 * indentation), a run of more than 65535 nodes; and a sink that fails
 * in a run stops the parse (SGF_EABORTED, SGF_ESINK), having taken no
 * more than the buffer past the failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "testutil.h"

typedef struct sink {
  bytebuf out;
  size_t max;        /* bytes taken a call at most (0: all) */
  size_t fail_after; /* fail once this many bytes were taken (0: never) */
} sink;

static int sink_write(void *ctx, const char *d, size_t n) {
  sink *s = ctx;
  if (s->fail_after && s->out.len >= s->fail_after) return -1;
  if (s->max && n > s->max) n = s->max;
  bytebuf_add(&s->out, d, n);
  return (int)n;
}

/* A deterministic run of n nodes: letters mostly B and W, values on a
 * 19 x 19 board, "tt" and off-board "zz" now and then; between nodes
 * nothing, LF or CR LF (sep 0, 1, 2; 3: each in turn). */
static void add_run(bytebuf *b, size_t n, int sep, unsigned *seed) {
  size_t i;
  for (i = 0; i < n; i++) {
    char node[9];
    size_t k = 6;
    unsigned r;
    *seed = *seed * 1103515245u + 12345u;
    r = *seed >> 8;
    node[0] = ';';
    node[1] = r % 23 == 0 ? 'C' : (i % 2 ? 'W' : 'B');
    node[2] = '[';
    node[3] = r % 31 == 0 ? 't' : r % 37 == 0 ? 'z' : (char)('a' + r % 19);
    node[4] = r % 31 == 0   ? 't'
              : r % 37 == 0 ? 'z'
                            : (char)('a' + (r >> 5) % 19);
    node[5] = ']';
    switch (sep == 3 ? (int)(i % 3) : sep) {
      case 1:
        node[k++] = '\n';
        break;
      case 2:
        node[k++] = '\r';
        node[k++] = '\n';
        break;
      default:
        break;
    }
    bytebuf_add(b, node, k);
  }
}

static char *runs_input(size_t *len) {
  bytebuf b;
  unsigned seed = 30;
  int sep, d;
  memset(&b, 0, sizeof b);
  for (sep = 0; sep < 4; sep++) {
    /* a root with properties, then a run, a variation of runs */
    bytebuf_add(&b, "(;FF[4]SZ[19]PB[a]\n", 19);
    add_run(&b, 40, sep, &seed);
    bytebuf_add(&b, "(", 1);
    add_run(&b, 7, sep, &seed);
    bytebuf_add(&b, ")(", 2);
    add_run(&b, 3, sep, &seed);
    bytebuf_add(&b, "C[v])", 5);
    bytebuf_add(&b, ")\n", 2);
    /* a run that holds the root; a property without value before one */
    bytebuf_add(&b, "(", 1);
    add_run(&b, 12, sep, &seed);
    bytebuf_add(&b, "C", 1);
    add_run(&b, 5, sep, &seed);
    bytebuf_add(&b, ")\n", 2);
    /* deep: 12 and 40 levels */
    for (d = 12; d <= 40; d += 28) {
      int i;
      bytebuf_add(&b, "(;GM[1]", 7);
      for (i = 0; i < d; i++) {
        bytebuf_add(&b, "(", 1);
        add_run(&b, 4, sep, &seed);
      }
      for (i = 0; i <= d; i++) bytebuf_add(&b, ")", 1);
      bytebuf_add(&b, "\n", 1);
    }
  }
  /* more than 65535 nodes in one run */
  bytebuf_add(&b, "(;SZ[19]", 8);
  add_run(&b, 70000, 0, &seed);
  bytebuf_add(&b, ")\n", 2);
  *len = b.len;
  return b.p;
}

/* The input written with copy (runs) or value (events) callbacks into
 * s (its fail_after kept); piece: feed that many bytes at a time (0:
 * all). Returns the first feed result that is not SGF_OK (the writer's
 * status then in *wstatus), or SGF_OK once all is written. */
static int write_it(const char *in, size_t len, sgf_layout layout,
                    size_t bufsize, size_t max, size_t piece, int runs, sink *s,
                    int *wstatus) {
  sgf_writer_options wo;
  sgf_callbacks cb;
  sgf_parser *p;
  sgf_writer *w;
  size_t at = 0, fail_after = s->fail_after;
  int rc = SGF_OK;
  memset(s, 0, sizeof *s);
  s->max = max;
  s->fail_after = fail_after;
  sgf_writer_options_init(&wo);
  wo.layout = layout;
  wo.buffer_size = bufsize;
  w = sgf_writer_create(sink_write, s, &wo);
  assert_non_null(w);
  sgf_callbacks_init(&cb);
  if (runs)
    sgf_writer_copy_callbacks(&cb);
  else
    sgf_writer_value_callbacks(&cb);
  p = sgf_parser_create(&cb, w, NULL);
  assert_non_null(p);
  while (rc == SGF_OK && at < len) {
    size_t n = piece && piece < len - at ? piece : len - at;
    rc = sgf_parser_feed(p, in + at, n, NULL);
    at += n;
  }
  if (rc == SGF_OK) {
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    assert_int_equal(sgf_writer_finish(w), SGF_OK);
  } else {
    assert_int_equal(sgf_writer_node(w), sgf_writer_status(w)); /* stuck */
  }
  *wstatus = sgf_writer_status(w);
  sgf_parser_destroy(p);
  sgf_writer_destroy(w);
  return rc;
}

static void test_runs_as_events(void **state) {
  static const size_t bufsizes[] = {1, 300, 4096, 1u << 18};
  static const size_t pieces[] = {0, 7, 4099};
  size_t len, b, k;
  char *in = runs_input(&len);
  int layout, ws;
  (void)state;
  for (layout = 0; layout < 2; layout++) {
    const sgf_layout l = layout ? SGF_LAYOUT_READABLE : SGF_LAYOUT_COMPACT;
    sink want = {0};
    assert_int_equal(write_it(in, len, l, 0, 0, 0, 0, &want, &ws), SGF_OK);
    assert_true(want.out.len > len / 2);
    for (b = 0; b < sizeof bufsizes / sizeof bufsizes[0]; b++)
      for (k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
        sink got = {0};
        assert_int_equal(write_it(in, len, l, bufsizes[b], b == 1 ? 97 : 0,
                                  pieces[k], 1, &got, &ws),
                         SGF_OK);
        assert_int_equal(got.out.len, want.out.len);
        assert_memory_equal(got.out.p, want.out.p, want.out.len);
        bytebuf_free(&got.out);
      }
    bytebuf_free(&want.out);
  }
  free(in);
}

/* A sink failing in the long run: the parse stops there. */
static void test_runs_sink_failure(void **state) {
  size_t len;
  char *in = runs_input(&len);
  int layout, ws;
  (void)state;
  for (layout = 0; layout < 2; layout++) {
    sink s = {0};
    s.fail_after = len - 100000; /* inside the run of 70000 nodes */
    assert_int_equal(
        write_it(in, len, layout ? SGF_LAYOUT_READABLE : SGF_LAYOUT_COMPACT,
                 256, 0, 0, 1, &s, &ws),
        SGF_EABORTED);
    assert_int_equal(ws, SGF_ESINK);
    assert_true(s.out.len <= s.fail_after + 256);
    bytebuf_free(&s.out);
  }
  free(in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runs_as_events),
      cmocka_unit_test(test_runs_sink_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
