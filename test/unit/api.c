/* api.c - unit tests of the public API beyond the golden logs: the
 * skip/pause/abort contract, re-entrancy, positions, allocator hooks and
 * allocation failure, limits, unescaping, the diagnostic catalogue,
 * sgf_parser_report, and the property reader (sgfstream/reader.h). */
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
#include <sgfstream/event_state.h>

#include "countalloc.h"
#include "eventlog.h"
#include "stats.h"
#include "testutil.h"

/* ------------------------------------------------------------------ */
/* A scripted log: evlog plus "return ACTION at the nth event of KIND". */

typedef struct script {
  evlog log; /* first: the user pointer is &log */
  bytebuf out;
  sgf_callbacks inner;
  char kind; /* b e n p v d V P ! ; 0 for none */
  int nth;   /* 1-based */
  int seen;
  int action;
  int fired;
} script;

static int act(script *s, char kind, int r) {
  if (s->kind == kind && ++s->seen == s->nth) {
    s->fired++;
    return s->action;
  }
  return r;
}

static int s_tb(sgf_parser *p, void *u) {
  script *s = u;
  return act(s, 'b', s->inner.on_tree_begin(p, u));
}
static int s_te(sgf_parser *p, void *u) {
  script *s = u;
  return act(s, 'e', s->inner.on_tree_end(p, u));
}
static int s_n(sgf_parser *p, void *u) {
  script *s = u;
  return act(s, 'n', s->inner.on_node(p, u));
}
static int s_p(sgf_parser *p, void *u, const char *at, size_t n) {
  script *s = u;
  return act(s, 'p', s->inner.on_property(p, u, at, n));
}
static int s_vb(sgf_parser *p, void *u) {
  script *s = u;
  return act(s, 'v', s->inner.on_value_begin(p, u));
}
static int s_d(sgf_parser *p, void *u, const char *at, size_t n) {
  script *s = u;
  return act(s, 'd', s->inner.on_value_data(p, u, at, n));
}
static int s_ve(sgf_parser *p, void *u) {
  script *s = u;
  return act(s, 'V', s->inner.on_value_end(p, u));
}
static int s_pe(sgf_parser *p, void *u) {
  script *s = u;
  return act(s, 'P', s->inner.on_property_end(p, u));
}
static int s_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  script *s = u;
  return act(s, '!', s->inner.on_diagnostic(p, u, d));
}

static const sgf_callbacks script_cb = {sizeof(sgf_callbacks),
                                        s_tb,
                                        s_te,
                                        s_n,
                                        s_p,
                                        s_vb,
                                        s_d,
                                        s_ve,
                                        s_pe,
                                        s_diag,
                                        NULL,
                                        NULL,
                                        NULL};

static void script_init(script *s, char kind, int nth, int action) {
  memset(s, 0, sizeof *s);
  bytebuf_init(&s->out);
  evlog_callbacks(&s->inner);
  evlog_init(&s->log, bytebuf_sink, &s->out);
  s->kind = kind;
  s->nth = nth;
  s->action = action;
}

static void script_free(script *s) {
  evlog_free(&s->log);
  bytebuf_free(&s->out);
}

/* Parse in chunks of `chunk` bytes (0: whole), resuming after pauses;
 * stops at ERROR/ABORTED. Returns the final status; *npause counts. */
static int feed_all(sgf_parser *p, const char *in, size_t len, size_t chunk,
                    int *npause) {
  size_t off = 0;
  int dummy;
  if (!npause) npause = &dummy;
  *npause = 0;
  while (off < len) {
    size_t n = len - off;
    if (chunk && n > chunk) n = chunk;
    size_t used = 0;
    int st = sgf_parser_feed(p, in + off, n, &used);
    off += used;
    if (st == SGF_PAUSED) {
      ++*npause;
      sgf_parser_resume(p);
      continue;
    }
    if (st != SGF_OK) return st;
  }
  for (;;) {
    int st = sgf_parser_finish(p);
    if (st == SGF_PAUSED) {
      ++*npause;
      sgf_parser_resume(p);
      continue;
    }
    return st;
  }
}

/* Run a script over `in` whole and byte by byte; both logs must equal
 * `want` and the status must be `want_st`. */
static void expect_script(const char *in, const sgf_options *opt, char kind,
                          int nth, int action, const char *want, int want_st) {
  for (int pass = 0; pass < 2; pass++) {
    script s;
    script_init(&s, kind, nth, action);
    sgf_parser *p = sgf_parser_create(&script_cb, &s.log, opt);
    assert_non_null(p);
    int st = feed_all(p, in, strlen(in), pass ? 1 : 0, NULL);
    evlog_flush(&s.log);
    const char *got = s.out.p ? s.out.p : "";
    if (strcmp(got, want) != 0) {
      char what[128];
      snprintf(what, sizeof what, "%s, action %d at %c #%d",
               pass ? "byte by byte" : "whole", action, kind, nth);
      tu_print_diff(what, want, strlen(want), got, strlen(got));
      fail_msg("log differs for input %s", in);
    }
    assert_int_equal(st, want_st);
    if (kind) assert_int_equal(s.fired, 1);
    sgf_parser_destroy(p);
    script_free(&s);
  }
}

/* ------------------------------------------------------------------ */
/* Basics                                                              */

static void test_version(void **state) {
  (void)state;
  assert_non_null(sgf_version());
  assert_string_equal(sgf_version(), SGF_VERSION_STRING);
  /* the parts and the string come from one version (configure.ac) */
  char parts[64];
  snprintf(parts, sizeof parts, "%d.%d.%d", SGF_VERSION_MAJOR,
           SGF_VERSION_MINOR, SGF_VERSION_PATCH);
  assert_string_equal(parts, SGF_VERSION_STRING);
  assert_true(SGF_VERSION_MAJOR >= 1);
}

static void test_options_init(void **state) {
  (void)state;
  sgf_options o;
  memset(&o, 0xab, sizeof o);
  sgf_options_init(&o);
  assert_int_equal(o.flags, 0);
  assert_true(o.max_depth == 0 || o.max_depth == SGF_DEFAULT_MAX_DEPTH);
  assert_true(o.max_ident_len == 0 ||
              o.max_ident_len == SGF_DEFAULT_MAX_IDENT_LEN);
  assert_null(o.allocator);
  assert_int_equal(o.size, sizeof o);
}

static void test_null_callbacks(void **state) {
  (void)state;
  /* No callbacks and default options: parses, no crash. */
  sgf_parser *p = sgf_parser_create(NULL, NULL, NULL);
  assert_non_null(p);
  const char *in = "junk (;FF[4]C[x\\]y](;B[aa])(;W[bb])) )";
  assert_int_equal(feed_all(p, in, strlen(in), 0, NULL), SGF_OK);
  sgf_parser_reset(p);
  assert_int_equal(feed_all(p, in, strlen(in), 1, NULL), SGF_OK);
  sgf_parser_destroy(p);
  sgf_parser_destroy(NULL);
  sgf_reader_destroy(NULL);
}

static void test_user_pointer(void **state) {
  (void)state;
  int a, b;
  sgf_parser *p = sgf_parser_create(NULL, &a, NULL);
  assert_non_null(p);
  assert_ptr_equal(sgf_parser_user(p), &a);
  sgf_parser_set_user(p, &b);
  assert_ptr_equal(sgf_parser_user(p), &b);
  sgf_parser_reset(p);
  assert_ptr_equal(sgf_parser_user(p), &b); /* reset keeps it */
  sgf_parser_destroy(p);
}

/* ------------------------------------------------------------------ */
/* Skip                                                                */

/* Offsets: ( 0 ; 1 B[aa] 2-6 ( 7 ; 8 W[bb] 9-13 ; 14 B[cc] 15-19 ( 20 ;
 * 21 W[dd] 22-26 ) 27 ) 28 ( 29 ; 30 W[ee] 31-35 ) 36 ) 37 */
static const char var_in[] = "(;B[aa](;W[bb];B[cc](;W[dd]))(;W[ee]))";

static void test_skip_variation_tree_begin(void **state) {
  (void)state;
  /* Skip from the tree-begin of the first variation: only its tree-end
   * follows, then the second variation as usual. */
  expect_script(var_in, NULL, 'b', 2, SGF_SKIP,
                "0 1:1 tree-begin\n"
                "1 1:2 node\n"
                "2 1:3 property B\n"
                "3 1:4 value-begin\n"
                "4 1:5 value-data \"aa\"\n"
                "6 1:7 value-end\n"
                "7 1:8 property-end\n"
                "7 1:8 tree-begin\n"
                "28 1:29 tree-end\n"
                "29 1:30 tree-begin\n"
                "30 1:31 node\n"
                "31 1:32 property W\n"
                "32 1:33 value-begin\n"
                "33 1:34 value-data \"ee\"\n"
                "35 1:36 value-end\n"
                "36 1:37 property-end\n"
                "36 1:37 tree-end\n"
                "37 1:38 tree-end\n",
                SGF_OK);
}

static void test_skip_root(void **state) {
  (void)state;
  /* Skip from the root's tree-begin: the whole game is passed over, the
   * next game tree is parsed normally. */
  const char *in = "(;B[aa](;W[bb]))\n(;B[cc])";
  expect_script(in, NULL, 'b', 1, SGF_SKIP,
                "0 1:1 tree-begin\n"
                "15 1:16 tree-end\n"
                "17 2:1 tree-begin\n"
                "18 2:2 node\n"
                "19 2:3 property B\n"
                "20 2:4 value-begin\n"
                "21 2:5 value-data \"cc\"\n"
                "23 2:7 value-end\n"
                "24 2:8 property-end\n"
                "24 2:8 tree-end\n",
                SGF_OK);
  /* From the root node: the same tree is skipped. */
  expect_script(in, NULL, 'n', 1, SGF_SKIP,
                "0 1:1 tree-begin\n"
                "1 1:2 node\n"
                "15 1:16 tree-end\n"
                "17 2:1 tree-begin\n"
                "18 2:2 node\n"
                "19 2:3 property B\n"
                "20 2:4 value-begin\n"
                "21 2:5 value-data \"cc\"\n"
                "23 2:7 value-end\n"
                "24 2:8 property-end\n"
                "24 2:8 tree-end\n",
                SGF_OK);
}

static void test_skip_from_tree_end(void **state) {
  (void)state;
  /* From on_tree_end of the innermost variation (W[dd]): the rest of the
   * enclosing tree (W[bb]...) is skipped; its tree-end is emitted. */
  expect_script(var_in, NULL, 'e', 1, SGF_SKIP,
                "0 1:1 tree-begin\n"
                "1 1:2 node\n"
                "2 1:3 property B\n"
                "3 1:4 value-begin\n"
                "4 1:5 value-data \"aa\"\n"
                "6 1:7 value-end\n"
                "7 1:8 property-end\n"
                "7 1:8 tree-begin\n"
                "8 1:9 node\n"
                "9 1:10 property W\n"
                "10 1:11 value-begin\n"
                "11 1:12 value-data \"bb\"\n"
                "13 1:14 value-end\n"
                "14 1:15 property-end\n"
                "14 1:15 node\n"
                "15 1:16 property B\n"
                "16 1:17 value-begin\n"
                "17 1:18 value-data \"cc\"\n"
                "19 1:20 value-end\n"
                "20 1:21 property-end\n"
                "20 1:21 tree-begin\n"
                "21 1:22 node\n"
                "22 1:23 property W\n"
                "23 1:24 value-begin\n"
                "24 1:25 value-data \"dd\"\n"
                "26 1:27 value-end\n"
                "27 1:28 property-end\n"
                "27 1:28 tree-end\n"
                "28 1:29 tree-end\n"
                "29 1:30 tree-begin\n"
                "30 1:31 node\n"
                "31 1:32 property W\n"
                "32 1:33 value-begin\n"
                "33 1:34 value-data \"ee\"\n"
                "35 1:36 value-end\n"
                "36 1:37 property-end\n"
                "36 1:37 tree-end\n"
                "37 1:38 tree-end\n",
                SGF_OK);
}

/* Skip from a value-data slice: the rest of the value (with an escaped
 * bracket and parentheses in it) and of the tree is passed over. Byte by
 * byte the first slice is one byte long; whole, it may be longer, so this
 * test records its own events. */
typedef struct rec {
  bytebuf ev;
  int data_seen;
  int action;
} rec;
static int r_tb(sgf_parser *p, void *u) {
  bytebuf_addf(&((rec *)u)->ev, "b%llu ",
               (unsigned long long)sgf_parser_position(p).offset);
  return 0;
}
static int r_te(sgf_parser *p, void *u) {
  bytebuf_addf(&((rec *)u)->ev, "e%llu ",
               (unsigned long long)sgf_parser_position(p).offset);
  return 0;
}
static int r_n(sgf_parser *p, void *u) {
  bytebuf_addf(&((rec *)u)->ev, "n%llu ",
               (unsigned long long)sgf_parser_position(p).offset);
  return 0;
}
static int r_p(sgf_parser *p, void *u, const char *at, size_t n) {
  (void)p;
  bytebuf_addf(&((rec *)u)->ev, "p%.*s ", (int)n, at);
  return 0;
}
static int r_d(sgf_parser *p, void *u, const char *at, size_t n) {
  rec *r = u;
  (void)p;
  (void)at;
  (void)n;
  if (r->data_seen++ == 0) {
    bytebuf_adds(&r->ev, "d ");
    return r->action;
  }
  return 0;
}
static int r_ve(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_adds(&((rec *)u)->ev, "V ");
  return 0;
}
static int r_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  (void)p;
  bytebuf_addf(&((rec *)u)->ev, "!%s@%llu ", sgf_diag_name(d->code),
               (unsigned long long)d->pos.offset);
  return 0;
}

static void test_skip_from_value_data(void **state) {
  (void)state;
  /* ( 0 ; 1 C 2 [ 3 ... ] 18 ( 19 ;B[aa] ) 26 ) 27 ( 28 ; 29 W[bb] ) 35 */
  const char *in = "(;C[a \\] ) ( [ b\\\\](;B[aa]))(;W[bb])";
  assert_int_equal(in[18], ']');
  assert_int_equal(in[27], ')');
  for (size_t chunk = 0; chunk <= 3; chunk++) {
    rec r;
    memset(&r, 0, sizeof r);
    bytebuf_init(&r.ev);
    r.action = SGF_SKIP;
    sgf_callbacks cb = {sizeof(sgf_callbacks),
                        r_tb,
                        r_te,
                        r_n,
                        r_p,
                        NULL,
                        r_d,
                        r_ve,
                        NULL,
                        r_diag,
                        NULL,
                        NULL,
                        NULL};
    sgf_parser *p = sgf_parser_create(&cb, &r, NULL);
    assert_non_null(p);
    assert_int_equal(feed_all(p, in, strlen(in), chunk, NULL), SGF_OK);
    assert_string_equal(r.ev.p, "b0 n1 pC d e27 b28 n29 pW V e35 ");
    sgf_parser_destroy(p);
    bytebuf_free(&r.ev);
  }
}

static void test_skip_hides_diagnostics(void **state) {
  (void)state;
  /* Bytes passed over by a skip give no diagnostics: the variation holds
   * a lowercase identifier, a NUL byte, junk and an empty tree. */
  static const char in[] = "(;B[aa](;wHite[bb]\0 ?? ())(;W[cc]))";
  size_t len = sizeof in - 1;
  for (size_t chunk = 0; chunk <= 1; chunk++) {
    script s;
    script_init(&s, 'b', 2, SGF_SKIP);
    sgf_parser *p = sgf_parser_create(&script_cb, &s.log, NULL);
    assert_non_null(p);
    assert_int_equal(feed_all(p, in, len, chunk, NULL), SGF_OK);
    evlog_flush(&s.log);
    assert_string_equal(s.out.p,
                        "0 1:1 tree-begin\n"
                        "1 1:2 node\n"
                        "2 1:3 property B\n"
                        "3 1:4 value-begin\n"
                        "4 1:5 value-data \"aa\"\n"
                        "6 1:7 value-end\n"
                        "7 1:8 property-end\n"
                        "7 1:8 tree-begin\n"
                        "25 1:26 tree-end\n"
                        "26 1:27 tree-begin\n"
                        "27 1:28 node\n"
                        "28 1:29 property W\n"
                        "29 1:30 value-begin\n"
                        "30 1:31 value-data \"cc\"\n"
                        "32 1:33 value-end\n"
                        "33 1:34 property-end\n"
                        "33 1:34 tree-end\n"
                        "34 1:35 tree-end\n");
    sgf_parser_destroy(p);
    script_free(&s);
  }
}

/* ------------------------------------------------------------------ */
/* Pause and abort                                                     */

static void test_pause_blocks_until_resume(void **state) {
  (void)state;
  script s;
  script_init(&s, 'n', 1, SGF_PAUSE);
  sgf_parser *p = sgf_parser_create(&script_cb, &s.log, NULL);
  assert_non_null(p);
  const char *in = "(;B[aa];W[bb])";
  size_t used = 99;
  assert_int_equal(sgf_parser_feed(p, in, strlen(in), &used), SGF_PAUSED);
  assert_true(used >= 1 && used < strlen(in));
  long count = s.log.count;
  /* While paused nothing happens: no callback, nothing consumed. */
  size_t used2 = 99;
  int st = sgf_parser_feed(p, in + used, strlen(in) - used, &used2);
  assert_int_equal(st, SGF_PAUSED);
  assert_int_equal(used2, 0);
  assert_int_equal(sgf_parser_finish(p), SGF_PAUSED);
  assert_int_equal(s.log.count, count);
  sgf_parser_resume(p);
  assert_int_equal(sgf_parser_feed(p, in + used, strlen(in) - used, &used2),
                   SGF_OK);
  assert_int_equal(used + used2, strlen(in));
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  evlog_flush(&s.log);
  assert_string_equal(s.out.p,
                      "0 1:1 tree-begin\n"
                      "1 1:2 node\n"
                      "2 1:3 property B\n"
                      "3 1:4 value-begin\n"
                      "4 1:5 value-data \"aa\"\n"
                      "6 1:7 value-end\n"
                      "7 1:8 property-end\n"
                      "7 1:8 node\n"
                      "8 1:9 property W\n"
                      "9 1:10 value-begin\n"
                      "10 1:11 value-data \"bb\"\n"
                      "12 1:13 value-end\n"
                      "13 1:14 property-end\n"
                      "13 1:14 tree-end\n");
  sgf_parser_destroy(p);
  script_free(&s);
}

static void test_abort_sticky(void **state) {
  (void)state;
  script s;
  script_init(&s, 'p', 1, SGF_ABORT);
  sgf_parser *p = sgf_parser_create(&script_cb, &s.log, NULL);
  assert_non_null(p);
  const char *in = "(;B[aa];W[bb])";
  size_t used = 0;
  assert_int_equal(sgf_parser_feed(p, in, strlen(in), &used), SGF_EABORTED);
  long count = s.log.count;
  assert_int_equal(count, 3);
  assert_int_equal(sgf_parser_feed(p, in, strlen(in), &used), SGF_EABORTED);
  assert_int_equal(sgf_parser_feed(p, in, 0, &used), SGF_EABORTED);
  assert_int_equal(sgf_parser_finish(p), SGF_EABORTED);
  sgf_parser_resume(p); /* resume does not clear an abort */
  assert_int_equal(sgf_parser_feed(p, in, strlen(in), &used), SGF_EABORTED);
  assert_int_equal(s.log.count, count);
  assert_null(sgf_parser_error(p));
  /* Reset clears it; the action fired once, so the parse completes. */
  sgf_parser_reset(p);
  assert_int_equal(sgf_parser_feed(p, in, strlen(in), &used), SGF_OK);
  assert_int_equal(used, strlen(in));
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  sgf_parser_destroy(p);
  script_free(&s);
}

static void test_abort_from_diagnostic(void **state) {
  (void)state;
  /* on_diagnostic may abort. */
  expect_script("junk(;B[aa])", NULL, '!', 1, SGF_ABORT,
                "0 1:1 warning junk-before (6): text before the first game "
                "tree ignored\n",
                SGF_EABORTED);
  /* Other actions from on_diagnostic count as continue. */
  const char *in = "(;B[aa]))";
  const char *full =
      "0 1:1 tree-begin\n"
      "1 1:2 node\n"
      "2 1:3 property B\n"
      "3 1:4 value-begin\n"
      "4 1:5 value-data \"aa\"\n"
      "6 1:7 value-end\n"
      "7 1:8 property-end\n"
      "7 1:8 tree-end\n"
      "8 1:9 warning extra-paren (12): unmatched ')' "
      "ignored\n";
  expect_script(in, NULL, '!', 1, SGF_PAUSE, full, SGF_OK);
  expect_script(in, NULL, '!', 1, SGF_SKIP, full, SGF_OK);
  /* A value that is not an action is refused (ACTIONS ARE NOT RESULTS). */
  expect_script(in, NULL, '!', 1, 77, full, SGF_EACTION);
}

/* ACTIONS ARE NOT RESULTS: a result returned where an action is
 * expected (SGF_PAUSED, which shared its number with SGF_SKIP) stops the
 * parser with SGF_EACTION, sticky until reset: no skip, no pause. */
static int ar_value;
static int ar_nodes;
static int ar_node(sgf_parser *p, void *u) {
  (void)p, (void)u;
  return ++ar_nodes == 2 ? ar_value : SGF_CONTINUE;
}
static int ar_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  (void)p, (void)u, (void)b;
  return ar_value;
}
static int ar_moves(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  (void)p, (void)u, (void)at, (void)len, (void)count;
  return ar_value;
}
static int ar_game(sgf_tree_builder *b, void *u, sgf_tree *t) {
  (void)b, (void)u, (void)t;
  return ar_value;
}

static void test_result_is_not_an_action(void **state) {
  (void)state;
  const char *in = "(;B[aa];W[bb](;B[cc])(;B[dd]))(;B[ee])";
  static const int refused[] = {
      SGF_PAUSED, SGF_EPARSE, SGF_EABORTED, 4, 1, 2, 3, -1, 0x100, 0x104};
  /* The actions and the results share no value but 0. */
  for (int r = SGF_ERROR_LAST_ + 1; r <= SGF_PAUSED; r++)
    if (r != SGF_OK)
      assert_true(r != SGF_SKIP && r != SGF_PAUSE && r != SGF_ABORT);
  assert_int_equal(SGF_CONTINUE, SGF_OK);
  assert_string_equal(sgf_err_name(SGF_EACTION), "EACTION");
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    /* from an event callback */
    sgf_callbacks cb;
    sgf_callbacks_init(&cb);
    cb.on_node = ar_node;
    ar_value = refused[i];
    ar_nodes = 0;
    sgf_parser *p = sgf_parser_create(&cb, NULL, NULL);
    assert_non_null(p);
    size_t used = 0;
    assert_int_equal(sgf_parser_feed(p, in, strlen(in), &used), SGF_EACTION);
    assert_int_equal(ar_nodes, 2); /* stopped at once: no skip, no pause */
    assert_true(used < 9);         /* at the second node, not past its game */
    sgf_parser_resume(p);          /* not a pause: nothing to resume */
    assert_int_equal(sgf_parser_feed(p, in + used, strlen(in) - used, &used),
                     SGF_EACTION); /* sticky */
    assert_int_equal(sgf_parser_finish(p), SGF_EACTION);
    assert_int_equal(ar_nodes, 2);
    assert_int_equal(sgf_parser_reset(p), SGF_OK); /* reset clears it */
    ar_value = SGF_CONTINUE;
    assert_int_equal(sgf_parser_feed(p, in, strlen(in), &used), SGF_OK);
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    sgf_parser_destroy(p);

    /* from a move run */
    cb.on_node = NULL;
    cb.on_moves = ar_moves;
    ar_value = refused[i];
    p = sgf_parser_create(&cb, NULL, NULL);
    assert_non_null(p);
    const char *run = "(;B[aa];W[bb];B[cc];W[dd];B[ee];W[ff];B[gg];W[hh])";
    assert_int_equal(sgf_parser_feed(p, run, strlen(run), NULL), SGF_EACTION);
    sgf_parser_destroy(p);

    /* from a batch handler */
    sgf_event ev[4];
    sgf_batch_options bo;
    sgf_batch_options_init(&bo);
    bo.on_batch = ar_batch;
    bo.events = ev;
    bo.capacity = 4;
    p = sgf_parser_create(NULL, NULL, NULL);
    assert_non_null(p);
    assert_int_equal(sgf_parser_set_batch(p, &bo), SGF_OK);
    assert_int_equal(sgf_parser_feed(p, in, strlen(in), NULL), SGF_EACTION);
    sgf_parser_destroy(p);

    /* through the tree builder, whose own answer is weaker or stronger */
    sgf_tree_builder_callbacks tcb;
    sgf_tree_builder_callbacks_init(&tcb);
    tcb.on_game = ar_game;
    sgf_tree_builder *b = sgf_tree_builder_create(&tcb, NULL, NULL);
    assert_non_null(b);
    assert_int_equal(
        sgf_parser_feed(sgf_tree_builder_parser(b), in, strlen(in), NULL),
        SGF_EACTION);
    sgf_tree_builder_destroy(b);
  }
}

static void test_reset(void **state) {
  (void)state;
  sgf_options o;
  sgf_options_init(&o);
  o.flags = SGF_OPT_STRICT;
  script s;
  script_init(&s, 0, 0, 0);
  sgf_parser *p = sgf_parser_create(&script_cb, &s.log, &o);
  assert_non_null(p);
  /* A strict error is sticky... */
  size_t used;
  assert_int_equal(sgf_parser_feed(p, "xx(;)", 5, &used), SGF_EPARSE);
  assert_non_null(sgf_parser_error(p));
  assert_int_equal(sgf_parser_error(p)->code, SGF_DIAG_JUNK_BEFORE);
  assert_int_equal(sgf_parser_error(p)->severity, SGF_SEV_ERROR);
  assert_int_equal(sgf_parser_finish(p), SGF_EPARSE);
  /* ...until reset, which also forgets positions and depth. */
  sgf_parser_reset(p);
  assert_null(sgf_parser_error(p));
  sgf_pos pos = sgf_parser_position(p);
  assert_int_equal(pos.offset, 0);
  assert_int_equal(pos.line, 1);
  assert_int_equal(pos.column, 1);
  assert_int_equal(sgf_parser_depth(p), 0);
  bytebuf_clear(&s.out);
  assert_int_equal(sgf_parser_feed(p, "(;(;", 4, &used), SGF_OK);
  assert_int_equal(sgf_parser_depth(p), 2);
  sgf_parser_reset(p);
  assert_int_equal(sgf_parser_depth(p), 0);
  /* Options survive a reset: still strict. */
  assert_int_equal(sgf_parser_feed(p, "(;)x", 4, &used), SGF_EPARSE);
  assert_int_equal(sgf_parser_error(p)->code, SGF_DIAG_JUNK_AFTER);
  sgf_parser_destroy(p);
  script_free(&s);
}

/* ------------------------------------------------------------------ */
/* Re-entrancy                                                         */

typedef struct reent {
  const char *in;
  int calls;
  int feed_st, finish_st;
  size_t used;
} reent;

static int re_node(sgf_parser *p, void *u) {
  reent *r = u;
  if (r->calls++ == 0) {
    r->used = 1234;
    r->feed_st = sgf_parser_feed(p, "(;B[cc])", 8, &r->used);
    r->finish_st = sgf_parser_finish(p);
  }
  return SGF_CONTINUE;
}

static void test_feed_from_callback_busy(void **state) {
  (void)state;
  reent r;
  memset(&r, 0, sizeof r);
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_node = re_node;
  sgf_parser *p = sgf_parser_create(&cb, &r, NULL);
  assert_non_null(p);
  const char *in = "(;B[aa];W[bb])";
  assert_int_equal(feed_all(p, in, strlen(in), 0, NULL), SGF_OK);
  assert_int_equal(r.feed_st, SGF_EBUSY);
  assert_int_equal(r.finish_st, SGF_EBUSY);
  assert_true(r.used == 0 || r.used == 1234);
  assert_int_equal(r.calls, 2); /* the outer parse went on unharmed */
  sgf_parser_destroy(p);
}

/* ------------------------------------------------------------------ */
/* Positions                                                           */

typedef struct posrec {
  bytebuf ev;
} posrec;

/* sgf_parser_position(p), and the inline sgf_event_position equal to it. */
static sgf_pos both_pos(sgf_parser *p) {
  const sgf_event_state *es =
      sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION);
  sgf_pos a = sgf_parser_position(p), b = sgf_event_position(p, es);
  assert_ptr_equal(
      es, sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION)); /* stable */
  assert_int_equal(a.offset, b.offset);
  assert_int_equal(a.line, b.line);
  assert_int_equal(a.column, b.column);
  return a;
}

static void note_pos(sgf_parser *p, void *u, const char *what) {
  posrec *r = u;
  sgf_pos pos = both_pos(p);
  bytebuf_addf(&r->ev, "%s@%llu,%llu:%llu,d%llu ", what,
               (unsigned long long)pos.offset, (unsigned long long)pos.line,
               (unsigned long long)pos.column,
               (unsigned long long)sgf_parser_depth(p));
}
static int pq_node(sgf_parser *p, void *u) {
  note_pos(p, u, "n");
  return 0;
}
static int pq_prop(sgf_parser *p, void *u, const char *at, size_t n) {
  size_t rl = 0, rl2 = 0;
  const char *raw = sgf_parser_raw_ident(p, &rl);
  char what[64];
  assert_ptr_equal(
      sgf_event_raw_ident(sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION),
                          &rl2),
      raw);
  assert_int_equal(rl2, rl);
  snprintf(what, sizeof what, "p%.*s/%.*s", (int)n, at, (int)rl, raw);
  note_pos(p, u, what);
  return 0;
}
static int pq_ve(sgf_parser *p, void *u) {
  note_pos(p, u, "]");
  return 0;
}

static void test_positions(void **state) {
  (void)state;
  /* ( 0 ; 1 \r 2 \n 3 B 4 [ 5 a 6 ] 7 \r 8 ; 9 \n 10 ( 11 ; 12 CoPyright
   * 13-21 [ 22 x 23 ] 24 \n 25 \r 26 ) 27 ) 28 */
  const char *in = "(;\r\nB[a]\r;\n(;CoPyright[x]\n\r))";
  size_t len = strlen(in);
  const char *want =
      "n@1,1:2,d1 pB/B@4,2:1,d1 ]@7,2:4,d1 n@9,3:1,d1 n@12,4:2,d2 "
      "pCP/CoPyright@13,4:3,d2 ]@24,4:14,d2 ";
  for (size_t chunk = 0; chunk <= 2; chunk++) {
    posrec r;
    bytebuf_init(&r.ev);
    sgf_callbacks cb;
    sgf_callbacks_init(&cb);
    cb.on_node = pq_node;
    cb.on_property = pq_prop;
    cb.on_value_end = pq_ve;
    sgf_parser *p = sgf_parser_create(&cb, &r, NULL);
    assert_non_null(p);
    assert_int_equal(feed_all(p, in, len, chunk, NULL), SGF_OK);
    assert_string_equal(r.ev.p, want);
    sgf_parser_destroy(p);
    bytebuf_free(&r.ev);
  }
  /* Outside callbacks: the position of the next byte to be fed. */
  sgf_parser *p = sgf_parser_create(NULL, NULL, NULL);
  assert_non_null(p);
  for (size_t i = 0; i < len; i++) {
    size_t used = 0;
    assert_int_equal(sgf_parser_feed(p, in + i, 1, &used), SGF_OK);
    assert_int_equal(used, 1);
    sgf_pos want_pos = tu_end_pos(in, i + 1);
    sgf_pos got = both_pos(p);
    assert_int_equal(got.offset, want_pos.offset);
    assert_int_equal(got.line, want_pos.line);
    assert_int_equal(got.column, want_pos.column);
  }
  assert_int_equal(sgf_parser_depth(p), 0);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(sgf_parser_depth(p), 0);
  sgf_parser_destroy(p);
}

/* The opt-in event state (sgfstream/event_state.h) is given only to a
 * program compiled with the library's version of its layout. */
static void test_event_state_version(void **state) {
  (void)state;
  sgf_parser *p = sgf_parser_create(NULL, NULL, NULL);
  assert_non_null(p);
  assert_non_null(sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION));
  assert_null(sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION + 1));
  assert_null(sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION - 1));
  assert_null(sgf_parser_event_state(p, 0));
  sgf_parser_destroy(p);
}

/* sgf_parser_depth() is the depth of the tree an event belongs to: the
 * same in a tree's tree-begin, its nodes and its tree-end. */
static int dp_log(sgf_parser *p, void *u, char what) {
  bytebuf_addf(u, "%c%llu ", what, (unsigned long long)sgf_parser_depth(p));
  return SGF_CONTINUE;
}
static int dp_tb(sgf_parser *p, void *u) { return dp_log(p, u, 'b'); }
static int dp_te(sgf_parser *p, void *u) { return dp_log(p, u, 'e'); }
static int dp_n(sgf_parser *p, void *u) { return dp_log(p, u, 'n'); }
static int dp_pause(sgf_parser *p, void *u) {
  dp_log(p, u, 'e');
  return SGF_PAUSE;
}

static void test_depth(void **state) {
  (void)state;
  for (int pause = 0; pause <= 1; pause++) {
    bytebuf out;
    sgf_callbacks cb;
    bytebuf_init(&out);
    sgf_callbacks_init(&cb);
    cb.on_tree_begin = dp_tb;
    cb.on_tree_end = pause ? dp_pause : dp_te;
    cb.on_node = dp_n;
    sgf_parser *p = sgf_parser_create(&cb, &out, NULL);
    assert_non_null(p);
    /* the last tree is closed by finish */
    assert_int_equal(feed_all(p, "(;(;)(;(;)));(;", 15, 0, NULL), SGF_OK);
    assert_string_equal(out.p,
                        "b1 n1 b2 n2 e2 b2 n2 b3 n3 e3 e2 e1 "
                        "b1 n1 e1 ");
    assert_int_equal(sgf_parser_depth(p), 0);
    sgf_parser_destroy(p);
    bytebuf_free(&out);
  }
}

static void test_large_offsets_type(void **state) {
  (void)state;
  /* Offsets are 64-bit: the type must hold values over 4 GiB. */
  sgf_pos pos;
  pos.offset = (uint64_t)5 << 30;
  assert_true(pos.offset > UINT32_MAX);
  assert_true(sizeof pos.offset >= 8 && sizeof pos.line >= 8);
}

/* ------------------------------------------------------------------ */
/* Allocator hooks                                                     */

/* The counting allocator: test/support/countalloc.h. */

static void test_allocator_counts(void **state) {
  (void)state;
  for (int wr = 0; wr <= 1; wr++) {
    countalloc c;
    sgf_allocator a;
    countalloc_init(&c, &a, wr);
    sgf_options o;
    sgf_options_init(&o);
    o.allocator = &a;
    sgf_parser *p = sgf_parser_create(NULL, NULL, &o);
    assert_non_null(p);
    assert_true(c.calls > 0);
    size_t after_create = c.live;
    /* The parse itself allocates nothing more (memory is fixed). */
    const char *in = "(;FF[4]C[hello \\] world](;B[aa];W[bb])(;B[cc]))";
    assert_int_equal(feed_all(p, in, strlen(in), 1, NULL), SGF_OK);
    assert_int_equal(c.live, after_create);
    sgf_parser_destroy(p);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.blocks, 0);
    assert_int_equal(c.bad, 0);
  }
}

static void test_allocator_failure_parser(void **state) {
  (void)state;
  int succeeded = 0;
  for (long i = 0; i < 1000 && !succeeded; i++) {
    countalloc c;
    sgf_allocator a;
    countalloc_init(&c, &a, 1);
    countalloc_schedule(&c, (size_t)i, 1);
    sgf_options o;
    sgf_options_init(&o);
    o.allocator = &a;
    sgf_parser *p = sgf_parser_create(NULL, NULL, &o);
    if (p) {
      succeeded = 1;
      const char *in = "(;B[aa])";
      assert_int_equal(feed_all(p, in, strlen(in), 0, NULL), SGF_OK);
      sgf_parser_destroy(p);
    }
    assert_int_equal(c.live, 0); /* every failure cleans up */
    assert_int_equal(c.blocks, 0);
    assert_int_equal(c.bad, 0);
  }
  assert_true(succeeded);
}

/* ------------------------------------------------------------------ */
/* Limits                                                              */

typedef struct diagcount {
  long diags, fatal, props;
  sgf_diag last;
  long tree_begins;
} diagcount;

static int dc_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  diagcount *c = u;
  (void)p;
  c->diags++;
  if (d->severity == SGF_SEV_FATAL) c->fatal++;
  c->last = *d;
  return 0;
}
static int dc_tb(sgf_parser *p, void *u) {
  (void)p;
  ((diagcount *)u)->tree_begins++;
  return 0;
}

static void test_depth_limit_million(void **state) {
  (void)state;
  /* 1,000,000 nested "(;" : a clean fatal at depth 10001, no crash and
   * no memory growth. */
  size_t n = 1000000;
  char *in = malloc(2 * n);
  assert_non_null(in);
  for (size_t i = 0; i < n; i++) {
    in[2 * i] = '(';
    in[2 * i + 1] = ';';
  }
  for (int variant = 0; variant < 2; variant++) {
    countalloc c;
    sgf_allocator a;
    countalloc_init(&c, &a, 1);
    sgf_options o;
    sgf_options_init(&o);
    o.allocator = &a;
    diagcount dc;
    memset(&dc, 0, sizeof dc);
    sgf_callbacks cb;
    sgf_callbacks_init(&cb);
    cb.on_diagnostic = dc_diag;
    cb.on_tree_begin = dc_tb;
    sgf_parser *p = sgf_parser_create(&cb, &dc, &o);
    assert_non_null(p);
    size_t live = c.live;
    int st;
    if (variant == 0) {
      st = feed_all(p, in, 2 * n, 0, NULL);
    } else {
      /* "(;" then a million '(' (tree-without-node repairs on the way) */
      char *in2 = malloc(n + 2);
      assert_non_null(in2);
      in2[0] = '(';
      in2[1] = ';';
      memset(in2 + 2, '(', n);
      st = feed_all(p, in2, n + 2, 4096, NULL);
      free(in2);
    }
    assert_int_equal(st, SGF_EPARSE);
    assert_int_equal(dc.fatal, 1);
    assert_int_equal(dc.last.code, SGF_DIAG_DEPTH_LIMIT);
    assert_int_equal(dc.last.severity, SGF_SEV_FATAL);
    assert_int_equal(dc.tree_begins, SGF_DEFAULT_MAX_DEPTH);
    const sgf_diag *e = sgf_parser_error(p);
    assert_non_null(e);
    assert_int_equal(e->code, SGF_DIAG_DEPTH_LIMIT);
    if (variant == 0)
      assert_int_equal(e->pos.offset, 2 * SGF_DEFAULT_MAX_DEPTH);
    else
      assert_int_equal(e->pos.offset, SGF_DEFAULT_MAX_DEPTH + 1);
    assert_int_equal(c.live, live);
    sgf_parser_destroy(p);
    assert_int_equal(c.live, 0);
  }
  free(in);
}

static int dc_tb_skip(sgf_parser *p, void *u) {
  (void)p;
  ((diagcount *)u)->tree_begins++;
  return SGF_SKIP;
}

static void test_depth_limit_skipped(void **state) {
  (void)state;
  /* The depth limit holds in a tree a handler skips (SGF_SKIP from the
   * game's on_tree_begin: the tree skipper passes over it), and in a
   * secondary variation mainline mode passes over: the same fatal at the
   * same '(' as when every tree is read, whatever the chunks. */
  size_t n = 1000000, pre = 15; /* "(;B[aa](;W[bb])" */
  char *in = malloc(pre + 2 * n);
  assert_non_null(in);
  memcpy(in, "(;B[aa](;W[bb])", pre);
  for (size_t i = 0; i < n; i++) {
    in[pre + 2 * i] = '(';
    in[pre + 2 * i + 1] = ';';
  }
  static const size_t chunks[] = {0, 1, 63, 4096};
  for (int mainline = 0; mainline < 2; mainline++)
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
      if (chunks[k] == 1 && mainline) continue; /* slow, same path */
      sgf_options o;
      sgf_options_init(&o);
      if (mainline) o.flags |= SGF_OPT_MAINLINE;
      diagcount dc;
      memset(&dc, 0, sizeof dc);
      sgf_callbacks cb;
      sgf_callbacks_init(&cb);
      cb.on_diagnostic = dc_diag;
      cb.on_tree_begin = mainline ? dc_tb : dc_tb_skip;
      sgf_parser *p = sgf_parser_create(&cb, &dc, &o);
      assert_non_null(p);
      int st = feed_all(p, in, pre + 2 * n, chunks[k], NULL);
      assert_int_equal(st, SGF_EPARSE);
      assert_int_equal(dc.fatal, 1);
      assert_int_equal(dc.last.code, SGF_DIAG_DEPTH_LIMIT);
      /* skipped: the root tree, depth 1, and the chain from depth 2;
       * mainline: the root and its first variation are read */
      assert_int_equal(dc.tree_begins, mainline ? 2 : 1);
      const sgf_diag *e = sgf_parser_error(p);
      assert_non_null(e);
      assert_int_equal(e->code, SGF_DIAG_DEPTH_LIMIT);
      assert_int_equal(e->pos.offset, pre + 2 * (SGF_DEFAULT_MAX_DEPTH - 1));
      assert_int_equal(e->pos.column, e->pos.offset + 1);
      sgf_parser_destroy(p);
    }
  free(in);
}

static int dc_prop(sgf_parser *p, void *u, const char *at, size_t n) {
  (void)p;
  (void)at;
  (void)n;
  ((diagcount *)u)->props++;
  return 0;
}

static void test_ident_limit_default(void **state) {
  (void)state;
  /* 64 bytes is fine; 65 is an error: the property is dropped and, in
   * lenient mode, parsing goes on; strict mode stops there. */
  char in[256];
  for (int strict = 0; strict <= 1; strict++) {
    for (int k = 64; k <= 65; k++) {
      size_t n = 0;
      in[n++] = '(';
      in[n++] = ';';
      for (int i = 0; i < k; i++) in[n++] = (char)('A' + i % 26);
      memcpy(in + n, "[x]B[aa])", 9);
      n += 9;
      sgf_options o;
      sgf_options_init(&o);
      o.flags = strict ? SGF_OPT_STRICT : 0;
      diagcount dc;
      memset(&dc, 0, sizeof dc);
      sgf_callbacks cb;
      sgf_callbacks_init(&cb);
      cb.on_diagnostic = dc_diag;
      cb.on_property = dc_prop;
      sgf_parser *p = sgf_parser_create(&cb, &dc, &o);
      assert_non_null(p);
      int st = feed_all(p, in, n, 7, NULL);
      if (k == 64) {
        assert_int_equal(st, SGF_OK);
        assert_int_equal(dc.props, 2);
        assert_int_equal(dc.diags, 0);
      } else {
        assert_int_equal(dc.diags, 1);
        assert_int_equal(dc.last.code, SGF_DIAG_IDENT_LIMIT);
        assert_int_equal(dc.last.pos.offset, 2);
        assert_int_equal(dc.last.severity, SGF_SEV_ERROR);
        assert_int_equal(st, strict ? SGF_EPARSE : SGF_OK);
        assert_int_equal(dc.props, strict ? 0 : 1); /* B[aa] only */
      }
      sgf_parser_destroy(p);
    }
  }
}

/* ------------------------------------------------------------------ */
/* Unescaping                                                          */

static const struct {
  const char *raw, *text;
} unesc_cases[] = {
    {"", ""},
    {"plain text", "plain text"},
    {"a\\]b", "a]b"},
    {"a\\\\b", "a\\b"},
    {"\\\\\\]", "\\]"},
    {"\\:", ":"},
    {"\\x\\y", "xy"},
    {"one\\\ntwo", "onetwo"},
    {"one\\\rtwo", "onetwo"},
    {"one\\\r\ntwo", "onetwo"},
    {"one\\\n\rtwo", "onetwo"},
    {"one\\\n\ntwo", "one\ntwo"}, /* only one line break is soft */
    {"one\\\r\rtwo", "one\rtwo"},
    {"one\\\r\n\r\ntwo", "one\r\ntwo"},
    {"one\ntwo", "one\ntwo"}, /* hard line breaks stay */
    {"one\r\ntwo", "one\r\ntwo"},
    {"a\\\\\nb", "a\\\nb"}, /* escaped backslash, then a newline */
    {"a\\\\\\\nb", "a\\b"}, /* escaped backslash, soft break */
    {"\\\n", ""},
    {"\\\r\n", ""},
    {"\xc3\xa9\\\xc3\xa9", "\xc3\xa9\xc3\xa9"},
};

static void test_unescape(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof unesc_cases / sizeof unesc_cases[0]; i++) {
    const char *raw = unesc_cases[i].raw;
    const char *want = unesc_cases[i].text;
    size_t len = strlen(raw), wl = strlen(want);
    char out[64];
    memset(out, 0x55, sizeof out);
    size_t n = sgf_unescape(raw, len, out);
    if (n != wl || memcmp(out, want, wl) != 0)
      fail_msg("sgf_unescape case %zu: got %zu bytes", i, n);
    assert_true(n <= len);
    /* in place */
    char buf[64];
    memcpy(buf, raw, len);
    n = sgf_unescape(buf, len, buf);
    assert_int_equal(n, wl);
    assert_memory_equal(buf, want, wl);
    /* streaming: every 2-way and 3-way split */
    for (size_t s1 = 0; s1 <= len; s1++) {
      for (size_t s2 = s1; s2 <= len; s2++) {
        sgf_unescaper u;
        sgf_unescaper_init(&u);
        size_t o = 0;
        o += sgf_unescaper_feed(&u, raw, s1, out + o);
        o += sgf_unescaper_feed(&u, raw + s1, s2 - s1, out + o);
        o += sgf_unescaper_feed(&u, raw + s2, len - s2, out + o);
        if (o != wl || memcmp(out, want, wl) != 0)
          fail_msg("sgf_unescaper case %zu split %zu/%zu: got %zu bytes", i, s1,
                   s2, o);
      }
    }
    /* zero-initialized works like sgf_unescaper_init */
    sgf_unescaper z = {0};
    size_t o = 0;
    for (size_t k = 0; k < len; k++)
      o += sgf_unescaper_feed(&z, raw + k, 1, out + o);
    assert_int_equal(o, wl);
    assert_memory_equal(out, want, wl);
  }
}

/* ------------------------------------------------------------------ */
/* The diagnostic catalogue                                            */

static void test_diag_table(void **state) {
  (void)state;
  static const struct {
    int num;
    const char *name;
    sgf_severity sev;
    const char *msg;
  } want[] = {
#define XX(num, NAME, name, sev, msg) {num, name, SGF_SEV_##sev, msg},
      SGF_DIAG_MAP(XX)
#undef XX
  };
  size_t n = sizeof want / sizeof want[0];
  assert_int_equal(n, (size_t)SGF_DIAG_MAX_ - 1);
  for (size_t i = 0; i < n; i++) {
    sgf_diag_code code = (sgf_diag_code)want[i].num;
    assert_int_equal(want[i].num, (int)i + 1); /* dense, never renumbered */
    assert_non_null(sgf_diag_name(code));
    assert_string_equal(sgf_diag_name(code), want[i].name);
    assert_non_null(sgf_diag_message(code));
    assert_string_equal(sgf_diag_message(code), want[i].msg);
    assert_int_equal(sgf_diag_severity(code), want[i].sev);
    for (size_t j = 0; j < i; j++)
      assert_string_not_equal(want[i].name, want[j].name);
    /* names are lowercase words joined by '-' */
    for (const char *s = want[i].name; *s; s++)
      assert_true((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
                  *s == '-');
  }
  assert_null(sgf_diag_name(SGF_DIAG_NONE));
  assert_null(sgf_diag_message(SGF_DIAG_NONE));
  assert_int_equal(sgf_diag_severity(SGF_DIAG_NONE), 0);
  assert_null(sgf_diag_name(SGF_DIAG_MAX_));
  assert_null(sgf_diag_name((sgf_diag_code)9999));
  assert_null(sgf_diag_message((sgf_diag_code)-1));
  assert_int_equal(sgf_diag_severity((sgf_diag_code)9999), 0);
  assert_string_equal(sgf_severity_name(SGF_SEV_WARNING), "warning");
  assert_string_equal(sgf_severity_name(SGF_SEV_ERROR), "error");
  assert_string_equal(sgf_severity_name(SGF_SEV_FATAL), "fatal");
  /* stable numbers of a few codes users may have stored */
  assert_int_equal(SGF_DIAG_NOMEM, 1);
  assert_int_equal(SGF_DIAG_DEPTH_LIMIT, 2);
  assert_int_equal(SGF_DIAG_UTF16, 22);
  assert_int_equal(SGF_DIAG_NODE_AFTER_VARIATION, 23);
}

/* ------------------------------------------------------------------ */
/* sgf_parser_report                                                   */

typedef struct reporter {
  diagcount dc;
  sgf_diag_code code;
  sgf_severity sev;
  int report_ret;
  int reported;
  int abort_in_diag;
} reporter;

static int rp_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  reporter *r = u;
  dc_diag(p, &r->dc, d);
  return r->abort_in_diag ? SGF_ABORT : SGF_CONTINUE;
}

static int rp_node(sgf_parser *p, void *u) {
  reporter *r = u;
  if (r->reported++ == 0) {
    sgf_diag d;
    memset(&d, 0, sizeof d);
    d.code = r->code;
    d.severity = r->sev;
    d.pos.offset = 1234;
    d.pos.line = 56;
    d.pos.column = 78;
    d.has_mark = 1;
    d.mark.offset = 1;
    d.mark.line = 1;
    d.mark.column = 2;
    r->report_ret = sgf_parser_report(p, &d);
    return r->report_ret;
  }
  return SGF_CONTINUE;
}

static int report_run(reporter *r, unsigned flags) {
  sgf_options o;
  sgf_options_init(&o);
  o.flags = flags;
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_node = rp_node;
  cb.on_diagnostic = rp_diag;
  sgf_parser *p = sgf_parser_create(&cb, r, &o);
  assert_non_null(p);
  const char *in = "(;B[aa];W[bb])";
  int st = feed_all(p, in, strlen(in), 0, NULL);
  const sgf_diag *e = sgf_parser_error(p);
  if (st == SGF_EPARSE) {
    assert_non_null(e);
    assert_int_equal(e->code, r->code);
    assert_int_equal(e->pos.offset, 1234);
    assert_int_equal(e->pos.line, 56);
    assert_int_equal(e->pos.column, 78);
    assert_int_equal(e->has_mark, 1);
    assert_int_equal(e->mark.column, 2);
  } else {
    assert_null(e);
  }
  sgf_parser_destroy(p);
  return st;
}

static void test_report(void **state) {
  (void)state;
  reporter r;
  /* A warning passes through; the parse goes on. */
  memset(&r, 0, sizeof r);
  r.code = SGF_DIAG_JUNK;
  r.sev = SGF_SEV_WARNING;
  assert_int_equal(report_run(&r, 0), SGF_OK);
  assert_int_equal(r.report_ret, SGF_CONTINUE);
  assert_int_equal(r.dc.diags, 1);
  assert_int_equal(r.dc.last.code, SGF_DIAG_JUNK);
  assert_int_equal(r.dc.last.severity, SGF_SEV_WARNING);
  assert_int_equal(r.dc.last.pos.offset, 1234);
  assert_int_equal(r.reported, 2);
  /* A lenient error goes on too. */
  memset(&r, 0, sizeof r);
  r.code = SGF_DIAG_NO_GAME_TREE;
  r.sev = SGF_SEV_ERROR;
  assert_int_equal(report_run(&r, 0), SGF_OK);
  assert_int_equal(r.report_ret, SGF_CONTINUE);
  /* on_diagnostic's abort comes back from report. */
  memset(&r, 0, sizeof r);
  r.code = SGF_DIAG_JUNK;
  r.sev = SGF_SEV_WARNING;
  r.abort_in_diag = 1;
  assert_int_equal(report_run(&r, 0), SGF_EABORTED);
  assert_int_equal(r.report_ret, SGF_ABORT);
  /* A fatal one stops the parser. */
  memset(&r, 0, sizeof r);
  r.code = SGF_DIAG_NOMEM;
  r.sev = SGF_SEV_FATAL;
  assert_int_equal(report_run(&r, 0), SGF_EPARSE);
  assert_int_equal(r.report_ret, SGF_ABORT);
  assert_int_equal(r.dc.last.severity, SGF_SEV_FATAL);
  assert_int_equal(r.reported, 1);
  /* In strict mode a warning is promoted to an error and stops. */
  memset(&r, 0, sizeof r);
  r.code = SGF_DIAG_JUNK;
  r.sev = SGF_SEV_WARNING;
  assert_int_equal(report_run(&r, SGF_OPT_STRICT), SGF_EPARSE);
  assert_int_equal(r.report_ret, SGF_ABORT);
  assert_int_equal(r.dc.last.severity, SGF_SEV_ERROR);
}

/* ------------------------------------------------------------------ */
/* The property reader                                                 */

typedef struct rdr {
  bytebuf ev;
  int nprops;
  int action_at; /* property number (1-based) that returns action */
  int action;
  sgf_diag last;
  int ndiag;
} rdr;

static int rd_tb(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_adds(&((rdr *)u)->ev, "(");
  return 0;
}
static int rd_te(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_adds(&((rdr *)u)->ev, ")");
  return 0;
}
static int rd_n(sgf_parser *p, void *u) {
  (void)p;
  bytebuf_adds(&((rdr *)u)->ev, ";");
  return 0;
}
static int rd_prop(sgf_parser *p, void *u, const sgf_prop_view *prop) {
  rdr *r = u;
  (void)p;
  assert_int_equal(strlen(prop->ident), prop->ident_len);
  assert_int_equal(strlen(prop->raw_ident), prop->raw_ident_len);
  assert_true(prop->nvalues >= 1);
  bytebuf_addf(&r->ev, "%s", prop->ident);
  if (strcmp(prop->ident, prop->raw_ident) != 0)
    bytebuf_addf(&r->ev, "/%s", prop->raw_ident);
  bytebuf_addf(&r->ev, "@%llu", (unsigned long long)prop->pos.offset);
  for (size_t i = 0; i < prop->nvalues; i++) {
    sgf_value_view v = sgf_prop_value(prop, i);
    bytebuf_addf(&r->ev, "[%.*s@%llu]", (int)v.len, v.raw,
                 (unsigned long long)v.pos.offset);
  }
  /* past the last value: a view of nothing */
  assert_null(sgf_prop_value(prop, prop->nvalues).raw);
  assert_int_equal(sgf_prop_value(prop, prop->nvalues).len, 0);
  if (++r->nprops == r->action_at) return r->action;
  return 0;
}
static int rd_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  rdr *r = u;
  (void)p;
  r->last = *d;
  r->ndiag++;
  bytebuf_addf(&r->ev, "!%s", sgf_diag_name(d->code));
  return 0;
}

static const sgf_reader_callbacks rd_cb = {
    sizeof(sgf_reader_callbacks), rd_tb, rd_te, rd_n, rd_prop, rd_diag};

static int reader_run(const char *in, size_t len, size_t chunk,
                      const sgf_reader_options *opt, rdr *r, int *npause) {
  bytebuf_init(&r->ev);
  sgf_reader *rd = sgf_reader_create(&rd_cb, r, opt);
  assert_non_null(rd);
  sgf_parser *p = sgf_reader_parser(rd);
  assert_non_null(p);
  int st = feed_all(p, in, len, chunk, npause);
  if (st == SGF_EPARSE) {
    r->last = *sgf_parser_error(p);
  }
  sgf_reader_destroy(rd);
  return st;
}

static void test_reader_properties(void **state) {
  (void)state;
  /* ( 0 ; 1 AB 2 [aa] 4 [bb] 8 \n 12 [] 14 ; 16 B 17 [cc] 18 ( 22 ; 23 C 24
   * [x\]y] 25 CoPyright 31 [z] 40 ) 43 ) 44 */
  const char *in = "(;AB[aa][bb]\n [];B[cc](;C[x\\]y]CoPyright[z]))";
  for (size_t chunk = 0; chunk <= 3; chunk++) {
    rdr r;
    memset(&r, 0, sizeof r);
    assert_int_equal(reader_run(in, strlen(in), chunk, NULL, &r, NULL), SGF_OK);
    /* the lowercase warning comes first */
    const char *w =
        "(;AB@2[aa@4][bb@8][@14];B@17[cc@18](;C@24[x\\]y@25]"
        "!lowercase-identCP/CoPyright@31[z@40]))";
    assert_string_equal(r.ev.p, w);
    bytebuf_free(&r.ev);
  }
}

static void test_reader_value_limit_exact(void **state) {
  (void)state;
  /* The limit counts the raw value bytes of one property (reader.h,
   * sgf_options.max_value_bytes: "all its values, raw"): a property whose
   * values total exactly the limit is accepted. */
  sgf_reader_options o;
  sgf_reader_options_init(&o);
  o.max_value_bytes = 64;
  char in[512];
  size_t n = (size_t)snprintf(in, sizeof in, "(;C[%064d])", 0);
  for (size_t chunk = 0; chunk <= 1; chunk++) {
    rdr r;
    memset(&r, 0, sizeof r);
    int st = reader_run(in, n, chunk, &o, &r, NULL);
    bytebuf_free(&r.ev);
    assert_int_equal(st, SGF_OK);
    assert_int_equal(r.nprops, 1);
  }
  /* two values of 32 */
  n = (size_t)snprintf(in, sizeof in, "(;AB[%032d][%032d])", 1, 2);
  rdr r;
  memset(&r, 0, sizeof r);
  int st = reader_run(in, n, 0, &o, &r, NULL);
  bytebuf_free(&r.ev);
  assert_int_equal(st, SGF_OK);
}

static void test_reader_value_limit_over(void **state) {
  (void)state;
  /* Over the limit (two values, 600 + 600 raw bytes, limit 1000): fatal
   * value-limit, positioned at the second value, marked at the property;
   * nothing more is delivered. */
  sgf_reader_options o;
  sgf_reader_options_init(&o);
  o.max_value_bytes = 1000;
  static char in[2000];
  /* ( 0 ; 1 AB 2 [ 4 ...600... ] 605 [ 606 ...600... ] 1207 ) */
  size_t n =
      (size_t)snprintf(in, sizeof in, "(;AB[%0600d][%0600d])(;B[aa])", 1, 2);
  assert_int_equal(in[606], '[');
  for (size_t chunk = 0; chunk <= 1; chunk++) {
    rdr r;
    memset(&r, 0, sizeof r);
    int st = reader_run(in, n, chunk, &o, &r, NULL);
    bytebuf_free(&r.ev);
    assert_int_equal(st, SGF_EPARSE);
    assert_int_equal(r.nprops, 0);
    assert_int_equal(r.last.code, SGF_DIAG_VALUE_LIMIT);
    assert_int_equal(r.last.severity, SGF_SEV_FATAL);
    assert_int_equal(r.last.has_mark, 1);
    assert_int_equal(r.last.mark.offset, 2);
    assert_true(r.last.pos.offset >= 606 && r.last.pos.offset <= 1207);
    assert_int_equal(r.ndiag, 1);
  }
}

static void test_reader_pause_skip(void **state) {
  (void)state;
  const char *in = "(;GM[1]SZ[19](;B[aa];W[bb])(;B[cc]))(;GM[2])";
  /* ( 0 ;GM[1] 1-6 SZ[19] 7-12 ( 13 ;B[aa] 14-19 ;W[bb] 20-25 ) 26 ( 27
   * ;B[cc] 28-33 ) 34 ) 35 ( 36 ;GM[2] 37-42 ) 43 */
  const char *full =
      "(;GM@2[1@4]SZ@7[19@9](;B@15[aa@16];W@21[bb@22])"
      "(;B@29[cc@30]))(;GM@38[2@40])";
  for (int k = 1; k <= 6; k++) {
    for (size_t chunk = 0; chunk <= 1; chunk++) {
      rdr r;
      memset(&r, 0, sizeof r);
      r.action_at = k;
      r.action = SGF_PAUSE;
      int np = 0;
      assert_int_equal(reader_run(in, strlen(in), chunk, NULL, &r, &np),
                       SGF_OK);
      assert_string_equal(r.ev.p, full);
      assert_int_equal(np, 1);
      bytebuf_free(&r.ev);
    }
  }
  /* Skip from SZ (in the root): the rest of the root tree goes. */
  for (size_t chunk = 0; chunk <= 1; chunk++) {
    rdr r;
    memset(&r, 0, sizeof r);
    r.action_at = 2;
    r.action = SGF_SKIP;
    assert_int_equal(reader_run(in, strlen(in), chunk, NULL, &r, NULL), SGF_OK);
    assert_string_equal(r.ev.p, "(;GM@2[1@4]SZ@7[19@9])(;GM@38[2@40])");
    bytebuf_free(&r.ev);
  }
  /* Skip from B[aa]: the rest of its variation goes. */
  for (size_t chunk = 0; chunk <= 1; chunk++) {
    rdr r;
    memset(&r, 0, sizeof r);
    r.action_at = 3;
    r.action = SGF_SKIP;
    assert_int_equal(reader_run(in, strlen(in), chunk, NULL, &r, NULL), SGF_OK);
    assert_string_equal(r.ev.p,
                        "(;GM@2[1@4]SZ@7[19@9](;B@15[aa@16])"
                        "(;B@29[cc@30]))(;GM@38[2@40])");
    bytebuf_free(&r.ev);
  }
  /* Abort from a property. */
  {
    rdr r;
    memset(&r, 0, sizeof r);
    r.action_at = 1;
    r.action = SGF_ABORT;
    assert_int_equal(reader_run(in, strlen(in), 0, NULL, &r, NULL),
                     SGF_EABORTED);
    assert_string_equal(r.ev.p, "(;GM@2[1@4]");
    bytebuf_free(&r.ev);
  }
}

static void test_reader_allocation_failure(void **state) {
  (void)state;
  int succeeded = 0;
  for (long i = 0; i < 1000 && !succeeded; i++) {
    countalloc c;
    sgf_allocator a;
    countalloc_init(&c, &a, i % 2);
    countalloc_schedule(&c, (size_t)i, 1);
    sgf_options po;
    sgf_options_init(&po);
    po.allocator = &a;
    sgf_reader_options o;
    sgf_reader_options_init(&o);
    o.parser = &po;
    rdr r;
    memset(&r, 0, sizeof r);
    bytebuf_init(&r.ev);
    sgf_reader *rd = sgf_reader_create(&rd_cb, &r, &o);
    if (rd) {
      succeeded = 1;
      countalloc_schedule(&c, SIZE_MAX, 0);
      const char *in = "(;C[some text](;B[aa]))";
      assert_int_equal(feed_all(sgf_reader_parser(rd), in, strlen(in), 3, NULL),
                       SGF_OK);
      sgf_reader_destroy(rd);
    }
    bytebuf_free(&r.ev);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.blocks, 0);
    assert_int_equal(c.bad, 0);
  }
  assert_true(succeeded);
  /* Failures while buffering values: out-of-memory is fatal and clean. */
  int ok = 0;
  for (long i = 0; i < 1000 && !ok; i++) {
    countalloc c;
    sgf_allocator a;
    countalloc_init(&c, &a, 1);
    sgf_options po;
    sgf_options_init(&po);
    po.allocator = &a;
    sgf_reader_options o;
    sgf_reader_options_init(&o);
    o.parser = &po;
    rdr r;
    memset(&r, 0, sizeof r);
    bytebuf_init(&r.ev);
    sgf_reader *rd = sgf_reader_create(&rd_cb, &r, &o);
    assert_non_null(rd);
    countalloc_schedule(&c, (size_t)i, 1); /* from now on */
    char in[3000];
    size_t n =
        (size_t)snprintf(in, sizeof in, "(;C[%02000d]AB[aa][bb][cc])", 7);
    int st = feed_all(sgf_reader_parser(rd), in, n, 100, NULL);
    if (st == SGF_OK) {
      ok = 1;
    } else {
      assert_int_equal(st, SGF_EPARSE);
      assert_int_equal(sgf_parser_error(sgf_reader_parser(rd))->code,
                       SGF_DIAG_NOMEM);
    }
    sgf_reader_destroy(rd);
    bytebuf_free(&r.ev);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.bad, 0);
  }
  assert_true(ok);
}

/* ------------------------------------------------------------------ */
/* Stats do not depend on chunking                                     */

/* sgf stats's "variations" are alternative lines: a node's second,
 * third ... child game tree, not every nested '(' (a node's first child
 * tree continues its line). */
static void test_stats_variations(void **state) {
  (void)state;
  static const struct {
    const char *in;
    uint64_t variations, max_depth;
  } cases[] = {
      {"(;B[aa];W[bb])", 0, 1},
      {"(;B[aa](;W[bb]))", 0, 2},         /* one child tree: the line */
      {"(;B[aa](;W[bb])(;W[cc]))", 1, 2}, /* one alternative */
      {"(;B[aa](;W[bb])(;W[cc])(;W[dd]))", 2, 2},
      {"(;B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))", 2, 3},
      {"(;B[aa](;W[bb](;B[cc](;W[dd]))))", 0, 4}, /* nested, no branch */
      {"(;B[aa](;W[bb])(;W[cc]))(;B[aa](;W[bb]))", 1, 2}, /* two games */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    stats s;
    sgf_callbacks cb;
    stats_reset(&s);
    sgf_callbacks_init(&cb);
    stats_callbacks(&cb);
    sgf_parser *p = sgf_parser_create(&cb, &s, NULL);
    assert_non_null(p);
    assert_int_equal(sgf_parser_feed(p, cases[i].in, strlen(cases[i].in), NULL),
                     SGF_OK);
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    sgf_parser_destroy(p);
    assert_int_equal(s.variations, cases[i].variations);
    assert_int_equal(s.max_depth, cases[i].max_depth);
  }
}

static void stats_expect_equal(const stats *s, const stats *ref) {
  assert_int_equal(s->games, ref->games);
  assert_int_equal(s->variations, ref->variations);
  assert_int_equal(s->nodes, ref->nodes);
  assert_int_equal(s->properties, ref->properties);
  assert_int_equal(s->values, ref->values);
  assert_int_equal(s->moves, ref->moves);
  assert_int_equal(s->max_depth, ref->max_depth);
  assert_int_equal(s->warnings, ref->warnings);
  assert_int_equal(s->errors, ref->errors);
}

static void test_stats_chunking(void **state) {
  (void)state;
  static const char *const inputs[] = {
      ("(;FF[4](;C[a];C[b](;C[c])(;C[d];C[e]))(;C[f](;C[g];C[h];C[i])"
       "(;C[j])))"),
      "junk\xef\xbb\xbf(;B[aa]\n;W[bb]C[x\\]y])((;B[cc]))extra)",
      "(;AB[aa][bb]CoPyright[c] W [x](;B[aa](;W[bb]",
  };
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
    stats ref;
    stats_reset(&ref);
    for (size_t chunk = 0; chunk <= 5; chunk++) {
      stats s;
      stats_reset(&s);
      sgf_callbacks cb;
      sgf_callbacks_init(&cb);
      stats_callbacks(&cb);
      sgf_parser *p = sgf_parser_create(&cb, &s, NULL);
      assert_non_null(p);
      feed_all(p, inputs[i], strlen(inputs[i]), chunk, NULL);
      sgf_parser_destroy(p);
      if (chunk == 0) {
        ref = s;
        assert_true(s.games >= 1);
      } else {
        stats_expect_equal(&s, &ref);
      }
    }
  }
}

/* The records' fields: a 16-byte record; an identifier the parser
 * assembled (lowercase letters: "CoPyright" is "CP") has its bytes in
 * the parser's memory (SGF_EVENT_HELD, b->held) and ends its batch; one
 * in the buffer is at b->bytes + at; offsets add to b->offset; and
 * sgf_batch_position() outside a handler gives nothing. */
typedef struct rec_seen {
  char ident[3][8];
  unsigned flags[3];
  uint64_t off[3];
  size_t n, last_of_batch;
} rec_seen;
static int rec_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  rec_seen *r = u;
  for (size_t i = 0; i < b->n; i++) {
    const sgf_event *e = &b->ev[i];
    if (e->kind != SGF_EVENT_PROPERTY || r->n == 3) continue;
    memcpy(r->ident[r->n], sgf_event_bytes(b, e), e->len);
    r->ident[r->n][e->len] = '\0';
    r->flags[r->n] = e->flags;
    r->off[r->n] = b->offset + e->offset;
    assert_int_equal(sgf_batch_position(p, e).offset, r->off[r->n]);
    if (i == b->n - 1) r->last_of_batch |= 1u << r->n;
    r->n++;
  }
  return SGF_CONTINUE;
}
static void test_batch_records(void **state) {
  static const char in[] = "(;B[aa]CoPyright[x]AB[bb])";
  sgf_event ev[64];
  sgf_batch_options bo;
  rec_seen r;
  sgf_parser *p;
  sgf_pos none;
  (void)state;
  assert_int_equal(sizeof(sgf_event), 16);
  memset(&r, 0, sizeof r);
  p = sgf_parser_create(NULL, &r, NULL);
  assert_non_null(p);
  sgf_batch_options_init(&bo);
  bo.on_batch = rec_batch;
  bo.events = ev;
  bo.capacity = 64;
  assert_int_equal(sgf_parser_set_batch(p, &bo), SGF_OK);
  assert_int_equal(sgf_parser_feed(p, in, sizeof in - 1, NULL), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(r.n, 3);
  assert_string_equal(r.ident[0], "B");
  assert_string_equal(r.ident[1], "CP");
  assert_string_equal(r.ident[2], "AB");
  assert_int_equal(r.flags[0] & SGF_EVENT_HELD, 0);
  assert_int_equal(r.flags[1] & SGF_EVENT_HELD, SGF_EVENT_HELD);
  assert_int_equal(r.flags[2] & SGF_EVENT_HELD, 0);
  assert_int_equal(r.off[0], 2);
  assert_int_equal(r.off[1], 7);
  assert_int_equal(r.off[2], 19);
  assert_true(r.last_of_batch & 2u);
  none = sgf_batch_position(p, &ev[0]);
  assert_int_equal(none.line, 0);
  sgf_parser_destroy(p);
}

/* Runs of one-move nodes (the tokenizer writes their records in a loop
 * in batch mode) with LF and CR LF between nodes: every node's and
 * property end's position as the callbacks see it, at every split. */
typedef struct pos_list {
  sgf_pos pos[64];
  size_t n;
} pos_list;
static void pos_add(pos_list *l, sgf_pos pos) {
  assert_true(l->n < 64);
  l->pos[l->n++] = pos;
}
static int pl_node(sgf_parser *p, void *u) {
  pos_add(u, sgf_parser_position(p));
  return SGF_CONTINUE;
}
static int pl_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  for (size_t i = 0; i < b->n; i++)
    if (b->ev[i].kind == SGF_EVENT_NODE ||
        b->ev[i].kind == SGF_EVENT_PROPERTY_END)
      pos_add(u, sgf_batch_position(p, &b->ev[i]));
  return SGF_CONTINUE;
}
static void test_batch_move_lines(void **state) {
  static const char in[] =
      "(;B[aa];W[bb]\n;B[cc]\r\n;W[dd];B[ee]\r\n;W[ff]\n\n;B[gg]\r;W[hh])";
  const size_t len = sizeof in - 1;
  sgf_callbacks cb;
  sgf_event ev[64];
  sgf_batch_options bo;
  pos_list ref, got;
  (void)state;
  sgf_callbacks_init(&cb);
  cb.on_node = pl_node;
  cb.on_property_end = pl_node;
  memset(&ref, 0, sizeof ref);
  sgf_parser *p = sgf_parser_create(&cb, &ref, NULL);
  assert_non_null(p);
  feed_all(p, in, len, 0, NULL);
  sgf_parser_destroy(p);
  assert_int_equal(ref.n, 16);
  sgf_batch_options_init(&bo);
  bo.on_batch = pl_batch;
  bo.events = ev;
  bo.capacity = 64;
  for (size_t split = 0; split <= len; split++) {
    memset(&got, 0, sizeof got);
    p = sgf_parser_create(NULL, &got, NULL);
    assert_non_null(p);
    assert_int_equal(sgf_parser_set_batch(p, &bo), SGF_OK);
    assert_int_equal(sgf_parser_feed(p, in, split, NULL), SGF_OK);
    assert_int_equal(sgf_parser_feed(p, in + split, len - split, NULL), SGF_OK);
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    sgf_parser_destroy(p);
    assert_int_equal(got.n, ref.n);
    for (size_t i = 0; i < ref.n; i++) {
      assert_int_equal(got.pos[i].offset, ref.pos[i].offset);
      assert_int_equal(got.pos[i].line, ref.pos[i].line);
      assert_int_equal(got.pos[i].column, ref.pos[i].column);
    }
  }
}

/* Batched events give the same counts as the callbacks, whatever the
 * chunks and however small the batches (a tree's events split across
 * batches and feeds). */
/* sgf_parser_raw_ident() outside on_property is the last identifier,
 * also in a later feed, from another buffer, after the one that held it
 * was overwritten and freed (each buffer is malloc'd, so that ASan sees
 * a read of the old one), and after a pause. The fast paths hand the
 * identifier over in the caller's bytes; the parser keeps a copy. */
typedef struct rawlog {
  char seen[8][8];
  int n;
  int pause_at_property_end;
} rawlog;
static int rk_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  rawlog *r = u;
  size_t n = 0;
  const char *raw = sgf_parser_raw_ident(p, &n);
  (void)d;
  if (r->n < 8) snprintf(r->seen[r->n++], 8, "%.*s", (int)(n < 7 ? n : 7), raw);
  return SGF_CONTINUE;
}
static int rk_property_end(sgf_parser *p, void *u) {
  rawlog *r = u;
  (void)p;
  return r->pause_at_property_end ? SGF_PAUSE : SGF_CONTINUE;
}
static void test_raw_ident_after_feed(void **state) {
  static const char *const first[] = {"(;GM[1];B[aa]", "(;GM[1];W[bb];",
                                      "(;GM[1]\n;B[cc]\n;W[dd];"};
  static const char *const want[] = {"B", "W", "W"};
  (void)state;
  for (int pause = 0; pause < 2; pause++)
    for (size_t k = 0; k < sizeof first / sizeof *first; k++) {
      sgf_callbacks cb;
      rawlog r;
      size_t n1 = strlen(first[k]), used = 0;
      char *b1 = malloc(n1), *b2 = malloc(8);
      sgf_parser *p;
      int st;
      memset(&r, 0, sizeof r);
      r.pause_at_property_end = pause;
      sgf_callbacks_init(&cb);
      cb.on_diagnostic = rk_diag;
      cb.on_property_end = rk_property_end;
      p = sgf_parser_create(&cb, &r, NULL);
      assert_non_null(p);
      assert_non_null(b1);
      assert_non_null(b2);
      memcpy(b1, first[k], n1);
      for (size_t off = 0; off < n1; off += used) {
        st = sgf_parser_feed(p, b1 + off, n1 - off, &used);
        if (st == SGF_PAUSED) {
          sgf_parser_resume(p);
        } else {
          assert_int_equal(st, SGF_OK);
          used = n1 - off;
        }
      }
      memset(b1, 'x', n1);
      free(b1);
      /* a stray ']' after the node: a diagnostic before any identifier */
      memcpy(b2, "]]])", 4);
      r.pause_at_property_end = 0;
      assert_int_equal(sgf_parser_feed(p, b2, 4, NULL), SGF_OK);
      assert_int_equal(sgf_parser_finish(p), SGF_OK);
      assert_true(r.n >= 1);
      assert_string_equal(r.seen[0], want[k]);
      sgf_parser_destroy(p);
      free(b2);
    }
}

static void test_stats_batch(void **state) {
  (void)state;
  static const char *const inputs[] = {
      "(;B[aa](;W[bb])(;W[cc])(;W[dd]))",
      "(;B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee]))",
      "(;B[aa](;W[bb])(;W[cc]))(;B[aa](;W[bb]))",
      "(;B[aa]((;W[bb]))(;W[cc]))",
      "(;B[aa](;W[bb]);W[cc](;B[dd]))", /* node-after-variation */
      ("(;FF[4](;C[a];C[b](;C[c])(;C[d];C[e]))(;C[f](;C[g];C[h];C[i])"
       "(;C[j])))"),
      "junk\xef\xbb\xbf(;B[aa]\n;W[bb]C[x\\]y])((;B[cc]))extra)",
      "(;AB[aa][bb]CoPyright[c] W [x](;B[aa](;W[bb]",
      "(;BW[aa]Bx[bb]b[cc]W[]W[dd]C[long value, sliced by small chunks])",
      /* runs of plain move nodes: MOVES records (stats_batch asks for
       * them), other letters among them, line breaks between them */
      ("(;GM[1];B[aa];W[bb];C[cc];B[dd]\n;W[ee];B[ff]\r\n;W[gg];B[hh];W[ii];"
       "N[jj];B[kk](;W[ll];B[mm];W[nn];B[oo];W[pp])(;W[qq]))"),
  };
  static const size_t caps[] = {1, 2, 3, 256};
  sgf_event ev[256];
  for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
    size_t len = strlen(inputs[i]);
    stats ref;
    sgf_callbacks cb;
    stats_reset(&ref);
    stats_callbacks(&cb);
    sgf_parser *p = sgf_parser_create(&cb, &ref, NULL);
    assert_non_null(p);
    feed_all(p, inputs[i], len, 0, NULL);
    sgf_parser_destroy(p);
    for (size_t chunk = 0; chunk <= 5; chunk++)
      for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
        stats s;
        stats_reset(&s);
        p = sgf_parser_create(&cb, &s, NULL);
        assert_non_null(p);
        assert_int_equal(stats_batch(p, ev, caps[c]), SGF_OK);
        feed_all(p, inputs[i], len, chunk, NULL);
        sgf_parser_destroy(p);
        stats_expect_equal(&s, &ref);
      }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_version),
      cmocka_unit_test(test_options_init),
      cmocka_unit_test(test_null_callbacks),
      cmocka_unit_test(test_user_pointer),
      cmocka_unit_test(test_skip_variation_tree_begin),
      cmocka_unit_test(test_skip_root),
      cmocka_unit_test(test_skip_from_tree_end),
      cmocka_unit_test(test_skip_from_value_data),
      cmocka_unit_test(test_skip_hides_diagnostics),
      cmocka_unit_test(test_pause_blocks_until_resume),
      cmocka_unit_test(test_abort_sticky),
      cmocka_unit_test(test_abort_from_diagnostic),
      cmocka_unit_test(test_result_is_not_an_action),
      cmocka_unit_test(test_reset),
      cmocka_unit_test(test_feed_from_callback_busy),
      cmocka_unit_test(test_positions),
      cmocka_unit_test(test_event_state_version),
      cmocka_unit_test(test_depth),
      cmocka_unit_test(test_large_offsets_type),
      cmocka_unit_test(test_allocator_counts),
      cmocka_unit_test(test_allocator_failure_parser),
      cmocka_unit_test(test_depth_limit_million),
      cmocka_unit_test(test_depth_limit_skipped),
      cmocka_unit_test(test_ident_limit_default),
      cmocka_unit_test(test_unescape),
      cmocka_unit_test(test_diag_table),
      cmocka_unit_test(test_report),
      cmocka_unit_test(test_reader_properties),
      cmocka_unit_test(test_reader_value_limit_exact),
      cmocka_unit_test(test_reader_value_limit_over),
      cmocka_unit_test(test_reader_pause_skip),
      cmocka_unit_test(test_reader_allocation_failure),
      cmocka_unit_test(test_stats_chunking),
      cmocka_unit_test(test_stats_batch),
      cmocka_unit_test(test_batch_records),
      cmocka_unit_test(test_batch_move_lines),
      cmocka_unit_test(test_raw_ident_after_feed),
      cmocka_unit_test(test_stats_variations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
