/* node_end.c - on_node_end (a node is complete) and
 * sgf_parser_diag_count() (did a finished parse have errors).
 *
 * The golden cases (cases.c) check on_node_end's place in every
 * case's log under every chunking and pause; here: its positions by hand,
 * the headers scan it was made for (read the root, decide, skip the game)
 * in slice and whole-value mode, at every chunk size and with a pause at
 * every callback, and the diagnostic counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <sgfstream.h>

#include "eventlog.h"
#include "testutil.h"

/* Parse in chunks of `chunk` bytes (0: whole), resuming after pauses.
 * Returns the final status. */
static int parse(sgf_parser *p, const char *in, size_t chunk) {
  size_t off = 0, len = strlen(in);
  int st;
  while (off < len) {
    size_t n = len - off, used = 0;
    if (chunk && n > chunk) n = chunk;
    st = sgf_parser_feed(p, in + off, n, &used);
    off += used;
    if (st == SGF_PAUSED) {
      sgf_parser_resume(p);
      continue;
    }
    if (st != SGF_OK) return st;
  }
  while ((st = sgf_parser_finish(p)) == SGF_PAUSED) sgf_parser_resume(p);
  return st;
}

/* The event log of in, with node-end lines; the node-end lines only when
 * only_ends is set. */
static void node_end_log(const char *in, unsigned flags, int only_ends,
                         bytebuf *out) {
  evlog l;
  sgf_callbacks cb;
  sgf_options opt;
  bytebuf all;
  bytebuf_init(&all);
  evlog_init(&l, bytebuf_sink, &all);
  evlog_callbacks(&cb);
  evlog_node_end(&cb);
  sgf_options_init(&opt);
  opt.flags = flags;
  sgf_parser *p = sgf_parser_create(&cb, &l, &opt);
  assert_non_null(p);
  parse(p, in, 0);
  evlog_flush(&l);
  sgf_parser_destroy(p);
  evlog_free(&l);
  for (const char *s = all.p ? all.p : "", *end = s + all.len; s < end;) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t n = nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
    if (!only_ends || (n >= 10 && memcmp(s + n - 10, " node-end\n", 10) == 0))
      bytebuf_add(out, s, n);
    s += n;
  }
  bytebuf_add(out, "", 1);
  bytebuf_free(&all);
}

static void expect_ends(const char *in, unsigned flags, const char *want) {
  bytebuf got;
  bytebuf_init(&got);
  node_end_log(in, flags, 1, &got);
  assert_string_equal(got.p, want);
  bytebuf_free(&got);
}

/* Where a node ends: at the ';' '(' or ')' after its last property. */
static void test_positions(void **state) {
  (void)state;
  /* ( 0 ; 1 FF[4] 2-6 ( 7 ; 8 B[aa] 9-13 ) 14 ( 15 ; 16 W[bb] 17-21
   * space 22 ; 23 B[cc] 24-28 \n 29 ) 30 ) 31 */
  expect_ends("(;FF[4](;B[aa])(;W[bb] ;B[cc]\n))", 0,
              "7 1:8 node-end\n"
              "14 1:15 node-end\n"
              "23 1:24 node-end\n"
              "30 2:1 node-end\n");
  /* An empty node, and a node with only junk and an orphan value. */
  expect_ends("(;;x[]\n[v];)", 0,
              "2 1:3 node-end\n"
              "10 2:4 node-end\n"
              "11 2:5 node-end\n");
  /* A dropped "()" does not end the node: the node goes on after it
   * (lenient mode keeps a property written after it in the node), and
   * ends at the '(' that opens a tree. fuzz_parse found a property after
   * the node's end when it ended at the "()". */
  expect_ends("(;B[aa]()(;W[bb]))", 0,
              "9 1:10 node-end\n"
              "16 1:17 node-end\n");
  expect_ends("(;B[aa]()C[x](;W[bb]))", 0,
              "13 1:14 node-end\n"
              "20 1:21 node-end\n");
}

/* The full log around it: after property-end, before the next event,
 * and at the end of input before the diagnostic for the open tree. */
static void test_order(void **state) {
  (void)state;
  bytebuf got;
  bytebuf_init(&got);
  node_end_log("(;B[aa]", 0, 0, &got);
  assert_string_equal(got.p,
                      "0 1:1 tree-begin\n"
                      "1 1:2 node\n"
                      "2 1:3 property B\n"
                      "3 1:4 value-begin\n"
                      "4 1:5 value-data \"aa\"\n"
                      "6 1:7 value-end\n"
                      "7 1:8 property-end\n"
                      "7 1:8 node-end\n"
                      "7 1:8 warning unclosed-tree (11): game tree not "
                      "closed at end of input [opened at 1:1]\n"
                      "7 1:8 tree-end\n");
  bytebuf_free(&got);
}

/* THE HEADERS SCAN. Read each game's root properties, and skip the rest
 * of the game from the root's on_node_end: no look-ahead, no events for
 * the moves. */
typedef struct scan {
  uint64_t level;  /* game trees open, by our own count */
  int in_root;     /* inside a game's root node */
  char heads[512]; /* "PB PW RE|" per game: the root's identifiers */
  size_t nheads;
  int moves; /* B or W properties seen: must stay 0 */
  int nodes, ends, trees;
  long count, pause_at; /* callbacks so far; pause at this one (-1) */
} scan;

static int sc_action(scan *s) {
  return s->count++ == s->pause_at ? SGF_PAUSE : SGF_CONTINUE;
}
static int sc_tree_begin(sgf_parser *p, void *u) {
  scan *s = u;
  (void)p;
  s->level++;
  return sc_action(s);
}
static int sc_tree_end(sgf_parser *p, void *u) {
  scan *s = u;
  (void)p;
  if (--s->level == 0) s->trees++;
  return sc_action(s);
}
static int sc_node(sgf_parser *p, void *u) {
  scan *s = u;
  (void)p;
  s->nodes++;
  s->in_root = s->level == 1;
  return sc_action(s);
}
static int sc_property(sgf_parser *p, void *u, const char *id, size_t n) {
  scan *s = u;
  (void)p;
  if (n == 1 && (id[0] == 'B' || id[0] == 'W')) s->moves++;
  if (s->in_root && s->nheads + n + 2 < sizeof s->heads) {
    memcpy(s->heads + s->nheads, id, n);
    s->nheads += n;
    s->heads[s->nheads++] = ' ';
    s->heads[s->nheads] = '\0';
  }
  return sc_action(s);
}
static int sc_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  (void)p;
  (void)at;
  (void)len;
  (void)flags;
  return sc_action(u);
}
static int sc_node_end(sgf_parser *p, void *u) {
  scan *s = u;
  int a = sc_action(s);
  (void)p;
  s->ends++;
  if (!s->in_root) return a;
  s->in_root = 0;
  if (s->nheads + 2 < sizeof s->heads) {
    s->heads[s->nheads++] = '|';
    s->heads[s->nheads] = '\0';
  }
  /* decided: the rest of the game is not wanted (a pause asked for here
   * is honoured at the next callback instead) */
  if (a == SGF_PAUSE) s->pause_at = s->count;
  return SGF_SKIP;
}

static void headers_scan(int whole, size_t chunk, long pause_at, scan *s) {
  static const char in[] =
      "(;GM[1]PB[Black]PW[White]RE[B+R];B[aa];W[bb](;B[cc])(;B[dd]))\n"
      "(;PB[Sai] C[a comment with ; and ( and ) in it];W[ee]\n"
      "(;B[ff];W[gg])(;B[hh]))(;FF[4];B[ii])";
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = sc_tree_begin;
  cb.on_tree_end = sc_tree_end;
  cb.on_node = sc_node;
  cb.on_property = sc_property;
  if (whole) cb.on_value = sc_value;
  cb.on_node_end = sc_node_end;
  memset(s, 0, sizeof *s);
  s->pause_at = pause_at;
  sgf_parser *p = sgf_parser_create(&cb, s, NULL);
  assert_non_null(p);
  assert_int_equal(parse(p, in, chunk), SGF_OK);
  sgf_parser_destroy(p);
}

static void test_headers_scan(void **state) {
  (void)state;
  for (int whole = 0; whole <= 1; whole++) {
    scan ref;
    headers_scan(whole, 0, -1, &ref);
    assert_string_equal(ref.heads, "GM PB PW RE |PB C |FF |");
    assert_int_equal(ref.moves, 0); /* no move was ever delivered */
    assert_int_equal(ref.nodes, 3); /* the roots only */
    assert_int_equal(ref.ends, 3);
    assert_int_equal(ref.trees, 3); /* each game's tree-end still comes */
    for (size_t chunk = 1; chunk <= 80; chunk++) {
      scan s;
      headers_scan(whole, chunk, -1, &s);
      assert_string_equal(s.heads, ref.heads);
      assert_int_equal(s.nodes, 3);
      assert_int_equal(s.moves, 0);
    }
    for (long k = 0; k < ref.count; k++) {
      scan s;
      headers_scan(whole, k % 3 ? 0 : 1, k, &s);
      assert_string_equal(s.heads, ref.heads);
      assert_int_equal(s.nodes, 3);
      assert_int_equal(s.moves, 0);
    }
  }
}

/* Skip from a node that is not a root: the rest of the innermost open
 * tree (its variation) goes, its tree-end comes. */
static int sk_end(sgf_parser *p, void *u) {
  int *n = u;
  (void)p;
  return ++*n == 2 ? SGF_SKIP : SGF_CONTINUE;
}
static void test_skip_inner(void **state) {
  (void)state;
  int n = 0;
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_node_end = sk_end;
  sgf_parser *p = sgf_parser_create(&cb, &n, NULL);
  assert_non_null(p);
  /* node-ends: the root (1), B[aa] (2: skip the variation, so W[bb] and
   * B[cc] are never seen), then the second variation's node (3) */
  assert_int_equal(parse(p, "(;(;B[aa];W[bb];B[cc])(;B[dd]))", 0), SGF_OK);
  assert_int_equal(n, 3);
  sgf_parser_destroy(p);
}

/* ---------------------------------------------------------------- counts */

static void counts(const char *in, unsigned flags, size_t max_ident,
                   uint64_t max_depth, int want_status, uint64_t w, uint64_t e,
                   uint64_t f) {
  sgf_options opt;
  sgf_options_init(&opt);
  opt.flags = flags;
  opt.max_ident_len = max_ident;
  opt.max_depth = max_depth;
  sgf_parser *p = sgf_parser_create(NULL, NULL, &opt); /* no handler */
  assert_non_null(p);
  assert_int_equal(parse(p, in, 0), want_status);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_WARNING), w);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_ERROR), e);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_FATAL), f);
  assert_int_equal(sgf_parser_diag_count(p, (sgf_severity)0), 0);
  assert_int_equal(sgf_parser_diag_count(p, (sgf_severity)4), 0);
  assert_int_equal(sgf_parser_reset(p), SGF_OK);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_WARNING), 0);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_ERROR), 0);
  sgf_parser_destroy(p);
}

static void test_diag_count(void **state) {
  (void)state;
  counts("(;B[aa])", 0, 0, 0, SGF_OK, 0, 0, 0);
  /* two warnings: junk after the tree, an extra ')' */
  counts("(;B[aa])\n) x", 0, 0, 0, SGF_OK, 2, 0, 0);
  /* an error short of fatal, the parse SGF_OK: an identifier over the
   * limit (dropped), twice; a tree left open is a warning */
  counts("(;ABC[x];DEF[aa]B[aa])", 0, 2, 0, SGF_OK, 0, 2, 0);
  counts("(;B[aa]", 0, 0, 0, SGF_OK, 1, 0, 0);
  /* strict mode: the warning is reported, and counted, as an error */
  counts("(;b[aa])", SGF_OPT_STRICT, 0, 0, SGF_EPARSE, 0, 1, 0);
  /* fatal: too deep */
  counts("(;(;B[aa]))", 0, 0, 1, SGF_EPARSE, 0, 0, 1);
}

/* Diagnostics of a layer (sgf_parser_report) count too. */
static int rep_node(sgf_parser *p, void *u) {
  sgf_diag d;
  (void)u;
  memset(&d, 0, sizeof d);
  d.code = SGF_DIAG_JUNK;
  d.severity = SGF_SEV_WARNING;
  d.pos = sgf_parser_position(p);
  sgf_parser_report(p, &d);
  return SGF_CONTINUE;
}
static void test_diag_count_report(void **state) {
  (void)state;
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_node = rep_node;
  sgf_parser *p = sgf_parser_create(&cb, NULL, NULL);
  assert_non_null(p);
  assert_int_equal(parse(p, "(;;;)", 0), SGF_OK);
  assert_int_equal(sgf_parser_diag_count(p, SGF_SEV_WARNING), 3);
  sgf_parser_destroy(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_positions),
      cmocka_unit_test(test_order),
      cmocka_unit_test(test_headers_scan),
      cmocka_unit_test(test_skip_inner),
      cmocka_unit_test(test_diag_count),
      cmocka_unit_test(test_diag_count_report),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
