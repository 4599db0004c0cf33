/* check.c - the semantic checks (sgfstream/check.h).
 *
 * Each check with inputs that break its rule (the diagnostics expected,
 * written by hand as name@LINE:COL) and inputs that keep it (none
 * expected), among them what FF[4] and older formats allow and real
 * files use: "tt" passes, [] passes and empty lists, FF[3]'s L and M,
 * sibling variations with game info each. Every input is checked whole,
 * byte by byte, cut in two at every byte, and in slice mode (values in
 * on_value_begin / data / end): the findings must not depend on how the
 * input was split. Each of those again with on_moves taking MOVE RUNS
 * (sgf_check_moves): the findings must not depend on whether the parser
 * passed plain move nodes as runs (test_runs: problems inside runs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <sgfstream.h>

typedef struct run {
  sgf_checker *ck;
  char out[2048];
  size_t n;
  unsigned long runs; /* on_moves calls */
} run;

static int on_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  run *r = u;
  int k;
  (void)p;
  k = snprintf(r->out + r->n, sizeof r->out - r->n, "%s%s@%llu:%llu",
               r->n ? " " : "", sgf_diag_name(d->code),
               (unsigned long long)d->pos.line,
               (unsigned long long)d->pos.column);
  if (k > 0 && (size_t)k < sizeof r->out - r->n) r->n += (size_t)k;
  return SGF_CONTINUE;
}

#define CK(u) (((run *)(u))->ck)
static int tree_begin(sgf_parser *p, void *u) {
  return sgf_check_tree_begin(CK(u), p);
}
static int tree_end(sgf_parser *p, void *u) {
  return sgf_check_tree_end(CK(u), p);
}
static int node(sgf_parser *p, void *u) { return sgf_check_node(CK(u), p); }
static int node_end(sgf_parser *p, void *u) {
  return sgf_check_node_end(CK(u), p);
}
static int property(sgf_parser *p, void *u, const char *id, size_t len) {
  return sgf_check_property(CK(u), p, id, len);
}
static int property_end(sgf_parser *p, void *u) {
  return sgf_check_property_end(CK(u), p);
}
static int value(sgf_parser *p, void *u, const char *at, size_t len,
                 unsigned flags) {
  return sgf_check_value(CK(u), p, at, len, flags);
}
static int moves(sgf_parser *p, void *u, const char *at, size_t len,
                 size_t count) {
  ((run *)u)->runs++;
  return sgf_check_moves(CK(u), p, at, len, count);
}
/* Slice mode, as check.h says to pass it. */
static int value_begin(sgf_parser *p, void *u) {
  return sgf_check_value(CK(u), p, NULL, 0, SGF_VALUE_FIRST);
}
static int value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  return sgf_check_value(CK(u), p, at, len, 0);
}
static int value_end(sgf_parser *p, void *u) {
  return sgf_check_value(CK(u), p, NULL, 0, SGF_VALUE_LAST);
}

static unsigned long runs_seen; /* on_moves calls, over all parses */

/* Check in[0, len) fed as [0, cut) then the rest in chunks of chunk
 * bytes (0: whole), slices: values in slices; runs: MOVE RUNS taken.
 * Returns the findings; *st the final status. */
static const char *check_split(const char *in, size_t len, size_t cut,
                               size_t chunk, int slices, int runs,
                               unsigned flags, int *st) {
  static run r;
  sgf_callbacks cb;
  sgf_options opt;
  sgf_parser *p;
  size_t off = 0;
  memset(&r, 0, sizeof r);
  r.ck = sgf_checker_create(NULL);
  assert_non_null(r.ck);
  sgf_callbacks_init(&cb);
  cb.on_diagnostic = on_diag;
  cb.on_tree_begin = tree_begin;
  cb.on_tree_end = tree_end;
  cb.on_node = node;
  cb.on_node_end = node_end;
  cb.on_property = property;
  cb.on_property_end = property_end;
  if (slices) {
    cb.on_value_begin = value_begin;
    cb.on_value_data = value_data;
    cb.on_value_end = value_end;
  } else {
    cb.on_value = value;
  }
  if (runs) cb.on_moves = moves;
  sgf_options_init(&opt);
  opt.flags = flags;
  p = sgf_parser_create(&cb, &r, &opt);
  assert_non_null(p);
  *st = SGF_OK;
  while (off < len && *st == SGF_OK) {
    size_t n = len - off;
    if (off < cut && n > cut - off) n = cut - off;
    if (off >= cut && chunk && n > chunk) n = chunk;
    *st = sgf_parser_feed(p, in + off, n, NULL);
    off += n;
  }
  if (*st == SGF_OK) *st = sgf_parser_finish(p);
  sgf_parser_destroy(p);
  sgf_checker_destroy(r.ck);
  runs_seen += r.runs;
  return r.out;
}

/* in gives exactly want, whole and split in every way, with and without
 * MOVE RUNS. */
static void expect(const char *in, const char *want) {
  size_t len = strlen(in), cut;
  int st, mode;
  for (mode = 0; mode < 4; mode++) {
    const int slices = mode & 1, runs = mode >> 1;
    const char *got = check_split(in, len, 0, 0, slices, runs, 0, &st);
    if (strcmp(got, want) != 0)
      fail_msg("%s (slices %d, runs %d): got \"%s\", want \"%s\"", in, slices,
               runs, got, want);
    assert_int_equal(st, SGF_OK);
    got = check_split(in, len, 0, 1, slices, runs, 0, &st);
    if (strcmp(got, want) != 0)
      fail_msg("%s byte by byte (slices %d, runs %d): got \"%s\", want \"%s\"",
               in, slices, runs, got, want);
    for (cut = 1; cut < len; cut++) {
      got = check_split(in, len, cut, 0, slices, runs, 0, &st);
      if (strcmp(got, want) != 0)
        fail_msg("%s cut at %zu (slices %d, runs %d): got \"%s\", want \"%s\"",
                 in, cut, slices, runs, got, want);
    }
  }
}

static void test_move_and_setup(void **state) {
  (void)state;
  expect("(;B[aa]AB[bb])", "move-and-setup@1:8");
  expect("(;AW[aa]KO[]W[bb])", "move-and-setup@1:9");
  expect("(;AB[aa];B[bb])", "");
  expect("(;AB[aa]AW[bb]PL[W];W[cc]C[x])", "");
}

static void test_two_moves(void **state) {
  (void)state;
  expect("(;B[aa]W[bb])", "two-moves@1:8");
  expect("(;B[aa];W[bb];B[])", "");
}

static void test_root_outside_root(void **state) {
  (void)state;
  expect("(;FF[4];SZ[9])", "root-outside-root@1:9");
  expect("(;FF[4](;B[aa])(;CA[UTF-8]))", "root-outside-root@1:18");
  /* each game of a collection has a root of its own */
  expect("(;FF[4]SZ[9])(;SZ[19]GM[1]AP[x:1]ST[2])", "");
}

static void test_game_info_twice(void **state) {
  (void)state;
  expect("(;PB[x];PW[y])", "game-info-twice@1:9");
  expect("(;PB[x](;B[aa](;PW[y])))", "game-info-twice@1:17");
  /* siblings: each path has one game-info node */
  expect("(;B[aa](;PB[x])(;PB[y]))", "");
  expect("(;B[aa](;PB[x];B[bb](;W[cc])(;W[dd]))(;PW[y]RE[W+R]))", "");
  /* one node with several game-info properties */
  expect("(;PB[x]PW[y]RE[B+1.5]KM[6.5])", "");
  /* a second game starts a path of its own */
  expect("(;PB[x])(;PB[y])", "");
}

static void test_duplicate(void **state) {
  (void)state;
  expect("(;C[a]C[b])", "duplicate-property@1:7");
  expect("(;XYZ[a]XYZ[b])", "duplicate-property@1:9");
  expect("(;FF[4]B[aa]B[bb])", "duplicate-property@1:13");
  expect("(;C[a];C[b](;C[c]))", "");
  expect("(;XY[a]XYZ[b]X[c])", "");
}

static void test_off_board(void **state) {
  (void)state;
  expect("(;SZ[9];B[aj])", "off-board@1:12");
  expect("(;SZ[9];B[ja])", "off-board@1:11");
  expect("(;SZ[9]AB[aa:jj])", "off-board@1:14");
  expect("(;SZ[19:13];W[an])", "off-board@1:16");
  /* in the root, SZ may follow the points */
  expect("(;AB[pp]SZ[9])", "off-board@1:6");
  expect("(;AB[tt]SZ[21])", "");
  /* passes: [] always, "tt" up to 19 x 19 */
  expect("(;SZ[9];B[tt];W[])", "");
  expect("(;B[tt];W[ss])", "");
  expect("(;SZ[21];B[tt];W[uu])", "");
  expect("(;SZ[52];B[ZZ])", "");
  /* another game's points are not Go's */
  expect("(;GM[2]SZ[8];B[zz])", "");
  /* FF[3]: L and M are point lists */
  expect("(;FF[3];B[aa]L[bb][cc]M[dd])", "");
}

static void test_bad_value(void **state) {
  (void)state;
  expect("(;KM[abc])", "bad-value@1:6");
  expect("(;C[x]\nKM[6.5x])", "bad-value@2:7");
  expect("(;KM[6\r\n5])", "bad-value@1:7");
  expect("(;AB[])", "bad-value@1:6");
  expect("(;B[a])", "bad-value@1:6");
  expect("(;GB[3])", "bad-value@1:6");
  expect("(;PL[X])", "bad-value@1:6");
  expect("(;KM[6.5]HA[2]TM[300]GB[1]PL[W]TB[]VW[]DO[]C[])", "");
  /* a label longer than the checker keeps of a value */
  expect(
      "(;AP[Kombilo]LB[aa:x][bb:a label longer than sixty-four bytes, "
      "read by its first bytes \\] only])",
      "");
}

static void test_several_values(void **state) {
  (void)state;
  expect("(;KM[6.5][7])", "several-values@1:10");
  expect("(;PW[a][b][c])", "several-values@1:8");
  expect("(;AB[aa][bb]TR[cc][dd:ee])", "");
}

static void test_ff_gm(void **state) {
  (void)state;
  expect("(;FF[5])", "unknown-ff@1:6");
  expect("(;FF[0])", "unknown-ff@1:6");
  expect("(;FF[x])", "bad-value@1:6");
  expect("(;GM[41])", "unknown-gm@1:6");
  expect("(;FF[1])(;FF[3])(;FF[4]GM[1])(;GM[40])", "");
}

static void test_sz(void **state) {
  (void)state;
  expect("(;SZ[53])", "sz-range@1:6");
  expect("(;SZ[0])", "sz-range@1:6");
  expect("(;SZ[19:53])", "sz-range@1:9");
  expect("(;SZ[x])", "bad-value@1:6");
  expect("(;SZ[1])(;SZ[52])(;SZ[19:13])", "");
}

static void test_not_rectangle(void **state) {
  (void)state;
  expect("(;AB[cc:aa])", "not-rectangle@1:9");
  expect("(;AB[aa:aa])", "not-rectangle@1:9");
  expect("(;SZ[9];MA[ca:ac])", "not-rectangle@1:15");
  expect("(;AB[aa:cc]AW[dd:dd:])", "bad-value@1:20");
  expect("(;AB[aa:cc][dd:ee]AE[ff:gg])", "");
  /* AR and LN are pairs of points, not rectangles */
  expect("(;AR[cc:aa]LN[dd:bb])", "");
}

static void test_utf8(void **state) {
  (void)state;
  expect("(;CA[UTF-8]C[\xc3\x28])", "bad-utf8@1:14");
  expect("(;CA[utf8]C[ab\xe2\x82])", "bad-utf8@1:15");
  expect("(;CA[UTF-8]C[ok\r\nthen \xff])", "bad-utf8@2:6");
  expect("(;CA[UTF-8]C[\xed\xa0\x80])", "bad-utf8@1:14"); /* surrogate */
  expect("(;CA[UTF-8]C[\xc0\xaf])", "bad-utf8@1:14");     /* overlong */
  expect("(;CA[UTF-8]C[\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80]PB[\xe6\x9c\xac])",
         "");
  /* not under CA[UTF-8] */
  expect("(;C[\xff])", "");
  expect("(;CA[ISO-8859-1]C[\xff])", "");
  expect("(;CA[UTF-8]C[x])(;C[\xff])", "");
}

/* The example of issue 15, clean for the parser: every problem in it. */
static void test_example(void **state) {
  (void)state;
  expect("(;FF[4]SZ[19]B[aa]B[bb]W[zz]KM[abc]SZ[-3];B[aa]AB[cc];W[aa])",
         "duplicate-property@1:19 two-moves@1:24 off-board@1:26 "
         "bad-value@1:32 duplicate-property@1:36 sz-range@1:39 "
         "move-and-setup@1:48");
}

/* Problems inside runs of plain move nodes (";B[qd]", line breaks between
 * them), which a program taking MOVE RUNS gets in one on_moves call:
 * points off the board (19 x 19, then 9 x 9, where "tt" is still a
 * pass), a move that is no point, each found where it is, as without
 * runs (expect). */
static void test_runs(void **state) {
  const char *in =
      "(;FF[4]SZ[19]\n;B[pd];W[dp];B[zz];W[qq];B[dd];W[pp]\r\n"
      ";B[a1];W[tt];B[sa];W[as];C[ok];W[dd];B[ee];W[ff]\n"
      ";B[gg];W[hh];B[ii];W[jj];B[kk];W[sz];B[ll])"
      "(;SZ[9]\n;B[cc];W[gg];B[jj];W[dd];B[ee];W[ff];B[tt])";
  unsigned long before = runs_seen;
  int st;
  const char *got;
  (void)state;
  expect(in, "off-board@2:16 bad-value@3:5 off-board@4:35 off-board@5:16");
  assert_true(runs_seen > before); /* the parser did pass runs */
  /* in strict mode the first finding inside a run stops the parse */
  got = check_split(in, strlen(in), 0, 0, 0, 1, SGF_OPT_STRICT, &st);
  assert_string_equal(got, "off-board@2:16");
  assert_int_equal(st, SGF_EPARSE);
}

/* In strict mode the first finding is an error that stops the parse. */
static void test_strict(void **state) {
  const char *in = "(;FF[4]SZ[19]B[aa]B[bb]W[zz])";
  int st;
  const char *got;
  (void)state;
  got = check_split(in, strlen(in), 0, 0, 0, 0, SGF_OPT_STRICT, &st);
  assert_string_equal(got, "duplicate-property@1:19");
  assert_int_equal(st, SGF_EPARSE);
}

/* A checker is reusable after reset, and takes NULL. */
static void test_api(void **state) {
  sgf_check_options o;
  sgf_checker *c;
  (void)state;
  sgf_check_options_init(&o);
  assert_int_equal(o.size, sizeof o);
  o.size = 0;
  assert_null(sgf_checker_create(&o));
  c = sgf_checker_create(NULL);
  assert_non_null(c);
  sgf_checker_reset(c);
  assert_int_equal(sgf_check_node(c, NULL), SGF_CONTINUE);
  assert_int_equal(sgf_check_node(NULL, NULL), SGF_CONTINUE);
  sgf_checker_destroy(c);
  sgf_checker_destroy(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_move_and_setup),
      cmocka_unit_test(test_two_moves),
      cmocka_unit_test(test_root_outside_root),
      cmocka_unit_test(test_game_info_twice),
      cmocka_unit_test(test_duplicate),
      cmocka_unit_test(test_off_board),
      cmocka_unit_test(test_bad_value),
      cmocka_unit_test(test_several_values),
      cmocka_unit_test(test_ff_gm),
      cmocka_unit_test(test_sz),
      cmocka_unit_test(test_not_rectangle),
      cmocka_unit_test(test_utf8),
      cmocka_unit_test(test_example),
      cmocka_unit_test(test_runs),
      cmocka_unit_test(test_strict),
      cmocka_unit_test(test_api),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
