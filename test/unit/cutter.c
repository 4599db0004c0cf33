/* cutter.c - the game cutter (tools/common/cutter.h) and the bound
 * it rests on (CUTTING BY POSITIONS in sgfstream.h): games cut from a
 * stream fed in any split are byte-exact, both with borrowed pieces (as
 * `sgf filter` and `sgf split --shards` feed) and with the bytes copied
 * in first (as `sgf serve` does), and the parser holds back at most
 * SGF_MAX_HELD_BYTES, exactly that many where a double-byte value's ']'
 * waits for what follows.
 *
 * The stream holds what makes an event name bytes fed earlier: a ']'
 * after a possible double-byte lead byte followed by blanks up to the
 * look-ahead's end (once closing the value, once not), a '(' followed by
 * more blanks than any fixed hold-back, and a ';' opening a game whose
 * '(' is missing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sgfstream.h>

#include "bytebuf.h"
#include "cutter.h"

#define MAXG 8

typedef struct stream {
  bytebuf all;
  size_t start[MAXG], end[MAXG]; /* each game: [start, end) */
  int n;
  size_t bracket; /* a ']' that waits for SGF_MAX_HELD_BYTES - 1 blanks */
} stream;

static void add_junk(stream *s, const char *text) {
  bytebuf_adds(&s->all, text);
}

static void add_game(stream *s, const char *text) {
  s->start[s->n] = s->all.len;
  bytebuf_adds(&s->all, text);
  s->end[s->n++] = s->all.len;
}

static void add_blanks(bytebuf *b, size_t n) {
  for (; n > 0; n--) bytebuf_add(b, " ", 1);
}

/* The stream; with_openers: also the games whose opener waits. */
static void make_stream(stream *s, int with_openers) {
  bytebuf g;
  memset(s, 0, sizeof *s);
  bytebuf_init(&g);
  add_junk(s, "junk before\n");
  /* "\x82]" then blanks to the look-ahead's end: the ']' closes */
  bytebuf_adds(&g, "(;GM[1]C[\x82");
  s->bracket = s->all.len + g.len;
  bytebuf_adds(&g, "]");
  add_blanks(&g, SGF_MAX_HELD_BYTES - 1);
  bytebuf_adds(&g, "PB[a])");
  add_game(s, g.p);
  add_junk(s, "\n");
  if (with_openers) {
    g.len = 0;
    bytebuf_adds(&g, "(");
    add_blanks(&g, 4 * SGF_MAX_HELD_BYTES + 5);
    bytebuf_adds(&g, "\n;GM[1]PW[b])");
    add_game(s, g.p);
    add_junk(s, "\n");
    add_game(s, ";  \n  PB[c]C[d])");
  }
  /* "\x82\]" then blanks and ']': the backslash escapes, the value goes
   * on to the next ']' */
  g.len = 0;
  bytebuf_adds(&g, "(;GM[1]C[\x82\\]");
  add_blanks(&g, SGF_MAX_HELD_BYTES - 1);
  bytebuf_adds(&g, "])");
  add_game(s, g.p);
  add_game(s, "(;B[aa];W[bb](;B[cc])(;B[dd]))");
  add_junk(s, "\n");
  bytebuf_free(&g);
}

typedef struct run {
  const stream *s;
  cutter c;
  int copied; /* the bytes go into the cutter first (the server's way) */
  int gather; /* games read with cutter_gather, else cutter_span */
  int games;
  bytebuf got;
} run;

static int on_tree_begin(sgf_parser *p, void *u) {
  run *r = u;
  if (sgf_parser_depth(p) == 1)
    assert_int_equal(cutter_begin(&r->c, sgf_parser_position(p).offset), 0);
  return SGF_CONTINUE;
}

static int collect(void *ctx, const char *buf, size_t n) {
  bytebuf_add(ctx, buf, n);
  return 0;
}

static int on_tree_end(sgf_parser *p, void *u) {
  run *r = u;
  const stream *s = r->s;
  uint64_t end = sgf_parser_position(p).offset + 1;
  if (sgf_parser_depth(p) != 1) return SGF_CONTINUE;
  assert_true(r->games < s->n);
  r->got.len = 0;
  if (r->gather) {
    size_t len;
    const char *b = cutter_gather(&r->c, r->c.game, end, &len);
    assert_non_null(b);
    bytebuf_add(&r->got, b, len);
  } else {
    assert_int_equal(cutter_span(&r->c, r->c.game, end, collect, &r->got), 0);
  }
  /* byte-exact: the game as it was in the stream */
  assert_int_equal(r->c.game, s->start[r->games]);
  assert_int_equal(r->got.len, s->end[r->games] - s->start[r->games]);
  assert_memory_equal(r->got.p, s->all.p + s->start[r->games], r->got.len);
  r->games++;
  cutter_end(&r->c);
  return SGF_CONTINUE;
}

/* Feed piece [at, at + n) of the stream. */
static void feed(run *r, sgf_parser *p, size_t at, size_t n) {
  const char *buf = r->s->all.p + at;
  if (r->copied) {
    assert_int_equal(cutter_add(&r->c, buf, n), 0);
    buf = r->c.held.p + (at - r->c.base);
  } else {
    cutter_piece(&r->c, buf, n);
  }
  assert_int_equal(sgf_parser_feed(p, buf, n, NULL), SGF_OK);
  assert_int_equal(cutter_keep(&r->c, p, UINT64_MAX), 0);
  /* nothing is kept but the game's bytes and what the parser may name */
  if (!r->c.in_game)
    assert_int_equal(cutter_held(&r->c), at + n - sgf_parser_held_offset(p));
}

/* Cut the stream fed at the boundaries cuts[0..ncuts) (increasing). */
static void cut_stream(const stream *s, const size_t *cuts, size_t ncuts,
                       int copied, int gather) {
  sgf_callbacks cb;
  sgf_parser *p;
  run r;
  size_t i, at = 0;
  memset(&r, 0, sizeof r);
  r.s = s;
  r.copied = copied;
  r.gather = gather;
  cutter_init(&r.c);
  cutter_restart(&r.c, 0);
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = on_tree_begin;
  cb.on_tree_end = on_tree_end;
  p = sgf_parser_create(&cb, &r, NULL);
  assert_non_null(p);
  for (i = 0; i <= ncuts; i++) {
    size_t to = i < ncuts ? cuts[i] : s->all.len;
    if (to > at) feed(&r, p, at, to - at);
    at = to;
  }
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(r.games, s->n);
  sgf_parser_destroy(p);
  cutter_free(&r.c);
  bytebuf_free(&r.got);
}

/* The bound is public and tight: a ']' that waits holds back
 * SGF_MAX_HELD_BYTES bytes, and no split makes it more. */
static void test_bound(void **state) {
  stream s;
  sgf_callbacks cb;
  sgf_parser *p;
  size_t at, max = 0;
  (void)state;
  make_stream(&s, 0);
  sgf_callbacks_init(&cb);
  p = sgf_parser_create(&cb, NULL, NULL);
  assert_non_null(p);
  for (at = 1; at < s.all.len; at++) {
    size_t held;
    assert_int_equal(sgf_parser_reset(p), SGF_OK);
    assert_int_equal(sgf_parser_feed(p, s.all.p, at, NULL), SGF_OK);
    held = at - (size_t)sgf_parser_held_offset(p);
    assert_true(held <= SGF_MAX_HELD_BYTES);
    if (held > max) max = held;
    if (at == s.bracket + SGF_MAX_HELD_BYTES) /* ']' and all blanks */
      assert_int_equal(held, SGF_MAX_HELD_BYTES);
  }
  assert_int_equal(max, SGF_MAX_HELD_BYTES);
  /* byte at a time: the same bound */
  assert_int_equal(sgf_parser_reset(p), SGF_OK);
  for (at = 0; at < s.all.len; at++) {
    assert_int_equal(sgf_parser_feed(p, s.all.p + at, 1, NULL), SGF_OK);
    assert_true(at + 1 - sgf_parser_held_offset(p) <= SGF_MAX_HELD_BYTES);
  }
  sgf_parser_destroy(p);
  bytebuf_free(&s.all);
}

/* Boundaries exactly at the bound after each ']' that waits, and one
 * byte either side; then pieces of every size around the bound. */
static void test_at_bound(void **state) {
  stream s;
  size_t cuts[4], k, d;
  int mode;
  (void)state;
  make_stream(&s, 1);
  for (mode = 0; mode < 4; mode++)
    for (d = 0; d < 3; d++) {
      cuts[0] = s.bracket + SGF_MAX_HELD_BYTES - 1 + d;
      cut_stream(&s, cuts, 1, mode & 1, mode >> 1);
      cuts[0] = s.bracket;
      cuts[1] = s.bracket + SGF_MAX_HELD_BYTES - 1 + d;
      cut_stream(&s, cuts, 2, mode & 1, mode >> 1);
    }
  for (k = 1; k <= 2 * SGF_MAX_HELD_BYTES + 2; k++) {
    size_t many[1024], n = 0, at;
    for (at = k; at < s.all.len && n < 1024; at += k) many[n++] = at;
    for (mode = 0; mode < 4; mode++)
      cut_stream(&s, many, n, mode & 1, mode >> 1);
  }
  bytebuf_free(&s.all);
}

/* Two pieces, split at every byte; three, around each game's '('. */
static void test_every_split(void **state) {
  stream s;
  size_t cuts[2], at;
  int mode, g;
  (void)state;
  make_stream(&s, 1);
  for (at = 1; at < s.all.len; at++)
    for (mode = 0; mode < 4; mode++) {
      cuts[0] = at;
      cut_stream(&s, cuts, 1, mode & 1, mode >> 1);
    }
  for (g = 0; g < s.n; g++)
    for (at = s.start[g] + 1; at < s.end[g]; at++) {
      cuts[0] = s.start[g] + 1;
      cuts[1] = at + 1;
      cut_stream(&s, cuts, 2, 0, 0);
      cut_stream(&s, cuts, 2, 1, 1);
    }
  bytebuf_free(&s.all);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bound),
      cmocka_unit_test(test_at_bound),
      cmocka_unit_test(test_every_split),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
