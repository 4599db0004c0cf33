/* moves.c - the move-run scanner (lib/simd/moves.c) and on_moves
 * (MOVE RUNS in sgfstream/parser.h).
 *
 * With no handler for a move node's events, runs of ";B[qd]" nodes are
 * passed in bulk. What such a parser reports (tree begin and end,
 * diagnostics, each with its line, column and offset and the identifier
 * as written, and the position after finish) must be what the general
 * path reports: the same parse with a no-op on_node handler, which turns
 * the scanner off.
 *
 * With on_moves, a run comes in one call that stands for its nodes'
 * events: a handler that logs every event (with its position, the
 * identifier as written at each property, each value's bytes) and
 * expands each run into the events it stands for, with the positions
 * the contract says how to compute, must log exactly what the same
 * handler logs without on_moves; also when on_moves pauses the parse
 * at every other run (the feed resumed where it stopped).
 *
 * Inputs: runs of moves of every length up to past two 64-byte blocks,
 * with line breaks (LF, CR LF, a lone CR, blank lines) between nodes;
 * each byte of a run replaced by each byte that breaks the rule (a ']'
 * or ';' in the value, '\\', LF, CR, NUL, a high byte, a lowercase
 * letter, '(' ...) so that the break falls at every place of a block
 * (bytes 55..64 included); random runs. The same for batched events
 * with MOVES records opted into (check_batch), against on_value, with a
 * pause, a skip and an abort after MOVES records; and batches with kinds
 * left out (check_kinds) against one with every kind. Each is fed whole, split
 * in two at every place, and in chunks of 1, 5, 63, 64 and 65 bytes. The
 * scanners are chosen once a process: test/unit/cases-scanners.sh runs this
 * again with SGF_SIMD=portable and sse2.
 */
#define _POSIX_C_SOURCE 200809L /* rand_r */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "bytebuf.h"
#include "movelog.h"
#include "valuelog.h"

/* $SGF_TEST_QUICK=1 (test/unit/cases-scanners.sh in make check): a sample of
 * the inputs and split points below, not every one. */
static int quick;

/* Feed in to p in pieces: split (0 < split < len) in two, else chunks of
 * chunk bytes (0: whole); after a pause, the rest of the same piece (the
 * same chunk boundaries). v (may be NULL) is told the buffer being fed.
 * Returns SGF_OK, or the first other status of a feed. */
static int feed_pieces(sgf_parser *p, vlog *v, const char *in, size_t len,
                       size_t split, size_t chunk) {
  size_t off = 0;
  int r = SGF_OK;
  while (off < len) {
    size_t n = len - off, used = 0;
    if (split && off < split) n = split - off;
    if (!split && chunk && n > chunk) n = chunk;
    for (;;) {
      if (v) {
        v->win = in + off;
        v->winlen = n;
      }
      r = sgf_parser_feed(p, in + off, n, &used);
      if (v) v->win = NULL;
      if (r != SGF_PAUSED) break;
      /* after the run's ';', or later: bytes held back for look-ahead
       * count as consumed */
      assert_true(used <= n);
      off += used;
      n -= used;
      sgf_parser_resume(p);
      if (n == 0) {
        r = SGF_OK;
        break;
      }
    }
    if (r != SGF_OK) return r;
    off += n;
  }
  return r;
}

enum {
  QUIET = MOVELOG_QUIET,
  LISTEN = MOVELOG_LISTEN,
  FULL = MOVELOG_FULL,
  RUNS = MOVELOG_RUNS,
  RUNS_PAUSE = MOVELOG_RUNS_PAUSE,
  RUNS_SKIP = MOVELOG_RUNS_SKIP,
  REPLAY = MOVELOG_REPLAY,
  ITER = MOVELOG_ITER
};

/* The log of in fed in the given pieces: split (0 < split < len) in
 * two, else chunks of chunk bytes (0: whole). In a RUNS mode, *skips gets
 * where the runs skipped and paused; in FULL, the general parse acts there. */
static void run(const char *in, size_t len, int mode, size_t split,
                size_t chunk, bytebuf *log, movelog *skips) {
  sgf_callbacks cb;
  sgf_parser *p;
  movelog f;
  int st;
  movelog_init(&f, mode);
  if ((mode == FULL || mode == REPLAY) && skips) movelog_acts(&f, skips);
  movelog_callbacks(&cb, mode);
  p = sgf_parser_create(&cb, &f, NULL);
  assert_non_null(p);
  assert_int_equal(feed_pieces(p, NULL, in, len, split, chunk), SGF_OK);
  st = sgf_parser_finish(p);
  while (st == SGF_PAUSED) { /* a pause in the held-back bytes */
    sgf_parser_resume(p);
    st = sgf_parser_finish(p);
  }
  assert_int_equal(st, SGF_OK);
  movelog_note(p, &f.log, "end", 0);
  sgf_parser_destroy(p);
  if (f.bad) {
    fprintf(stderr, "input (%zu bytes): %.*s\n%s\n", len, (int)len, in, f.bad);
    fail();
  }
  bytebuf_add(log, f.log.p, f.log.len);
  if (mode >= RUNS && mode <= RUNS_SKIP && skips) movelog_acts(skips, &f);
  movelog_free(&f);
}

static unsigned long checked, batch_moves;

/* BATCHED EVENTS with MOVES records opted into (MOVE RUNS in batches):
 * replayed by test/support/valuelog.c, each MOVES record expanded into the
 * records it stands for, positioned as the header says, the log must be
 * what on_value logs for the same input in the same pieces; and with a
 * batch due after each MOVES record, a pause, a skip or an abort
 * returned there must act as on_value's at that run's last property
 * end (the same call). */
enum { CAP = 64 };
#define KINDS_MOVES (0xFEu | 1u << SGF_EVENT_MOVES)

/* Feed in to p in the pieces (split, chunk) as run() does, logging into
 * v, resuming after pauses; then finish. Returns the final status. */
static int vrun(sgf_parser *p, vlog *v, const char *in, size_t len,
                size_t split, size_t chunk) {
  int r;
  sgf_parser_reset(p);
  vlog_clear(v);
  v->input = in;
  v->inlen = len;
  r = feed_pieces(p, v, in, len, split, chunk);
  if (r != SGF_OK) return r;
  while ((r = sgf_parser_finish(p)) == SGF_PAUSED) sgf_parser_resume(p);
  return r;
}

static void vcompare(const vlog *w, const vlog *b, int sw, int sb,
                     const char *in, size_t len, size_t split, size_t chunk,
                     const char *what) {
  if (b->contract[0] || w->contract[0] || sw != sb ||
      w->out.len != b->out.len || memcmp(w->out.p, b->out.p, w->out.len) != 0) {
    fprintf(stderr,
            "input (%zu bytes, split %zu, chunk %zu, %s): %.*s\n"
            "contract: %s %s; status %d (on_value) %d (batches)\n",
            len, split, chunk, what, (int)len, in, w->contract, b->contract, sw,
            sb);
    fprintf(stderr, "on_value:\n%.*s\nbatches:\n%.*s\n", (int)w->out.len,
            w->out.p, (int)b->out.len, b->out.p);
    fail();
  }
}

static void check_batch(const char *in, size_t len, size_t split, size_t chunk,
                        int act) {
  static const int actions[3] = {SGF_PAUSE, SGF_SKIP, SGF_ABORT};
  sgf_event arr[CAP];
  sgf_batch_options bo;
  sgf_callbacks cw;
  vlog vw, vb;
  sgf_parser *pw, *pb;
  bytebuf ends, wk, bk;
  int sw, sb;
  vlog_init(&vw);
  vlog_init(&vb);
  vw.omit_raw = vb.omit_raw = 1;
  vb.moves = 1;
  vlog_whole_callbacks(&cw);
  pw = sgf_parser_create(&cw, &vw, NULL);
  pb = sgf_parser_create(&cw, &vb, NULL);
  assert_non_null(pw);
  assert_non_null(pb);
  sgf_batch_options_init(&bo);
  bo.on_batch = vlog_batch;
  bo.events = arr;
  bo.capacity = chunk == 5 ? 3 : CAP;
  bo.kinds = KINDS_MOVES;
  bo.stop_kinds = act ? 1u << SGF_EVENT_MOVES : 0u;
  assert_int_equal(sgf_parser_set_batch(pb, &bo), SGF_OK);
  sw = vrun(pw, &vw, in, len, split, chunk);
  sb = vrun(pb, &vb, in, len, split, chunk);
  vlog_drop_diags(&vw.out);
  vlog_drop_diags(&vb.out);
  vcompare(&vw, &vb, sw, sb, in, len, split, chunk, "MOVES");
  batch_moves += vb.nmoves;
  bytebuf_init(&ends);
  bytebuf_init(&wk);
  bytebuf_init(&bk);
  bytebuf_add(&ends, vb.mends.p, vb.mends.len);
  bytebuf_add(&wk, vw.kinds.p, vw.kinds.len);
  bytebuf_add(&bk, vb.kinds.p, vb.kinds.len);
  /* an action after each MOVES record (the first few, and the last) */
  for (size_t i = 0; act && i < ends.len / sizeof(long); i++) {
    long k = ((const long *)ends.p)[i];
    if (i >= 3 && i + 1 != ends.len / sizeof(long)) continue;
    for (int a = 0; a < 3; a++) {
      vb.action_at = k;
      vw.action_at = vlog_call_like(&bk, k, &wk);
      assert_true(vw.action_at >= 0);
      vw.action = vb.action = actions[a];
      sw = vrun(pw, &vw, in, len, split, chunk);
      sb = vrun(pb, &vb, in, len, split, chunk);
      vlog_drop_diags(&vw.out);
      vlog_drop_diags(&vb.out);
      vcompare(&vw, &vb, sw, sb, in, len, split, chunk,
               a == 0   ? "MOVES, pause"
               : a == 1 ? "MOVES, skip"
                        : "MOVES, abort");
    }
    vw.action_at = vb.action_at = -1;
  }
  bytebuf_free(&ends);
  bytebuf_free(&wk);
  bytebuf_free(&bk);
  sgf_parser_destroy(pw);
  sgf_parser_destroy(pb);
  vlog_free(&vw);
  vlog_free(&vb);
}

/* BATCHED EVENTS with kinds left out: the records of the kinds kept
 * must be those of a parse that keeps every kind, in the same order,
 * with the same fields (offsets made absolute, the bytes compared as
 * bytes) and positions (sgf_batch_position), whatever the capacity.
 * The move-run loop (tokenize.c, move_run) has its own instances for
 * the kinds without node ends (batch/sum's) and for all of them, and
 * one for any other set. */
/* The log of in parsed in batches of cap records, recording kinds (0:
 * all), logging the kinds log (of those it gets). */
static void krun(const char *in, size_t len, size_t split, size_t chunk,
                 unsigned kinds, unsigned log, size_t cap, bytebuf *out) {
  sgf_event arr[CAP];
  sgf_batch_options bo;
  sgf_callbacks cb;
  rlog k;
  sgf_parser *p;
  int r;
  sgf_callbacks_init(&cb);
  bytebuf_init(&k.out);
  k.kinds = log;
  p = sgf_parser_create(&cb, &k, NULL);
  assert_non_null(p);
  sgf_batch_options_init(&bo);
  bo.on_batch = rlog_batch;
  bo.events = arr;
  bo.capacity = cap;
  bo.kinds = kinds;
  assert_int_equal(sgf_parser_set_batch(p, &bo), SGF_OK);
  r = feed_pieces(p, NULL, in, len, split, chunk);
  assert_int_equal(r, SGF_OK);
  while ((r = sgf_parser_finish(p)) == SGF_PAUSED) sgf_parser_resume(p);
  assert_int_equal(r, SGF_OK);
  sgf_parser_destroy(p);
  *out = k.out;
}

static void check_kinds(const char *in, size_t len, size_t split,
                        size_t chunk) {
  static const unsigned sets[] = {
      0xFEu & ~(1u << SGF_EVENT_NODE_END), /* batch/sum's */
      0xFEu,
      1u << SGF_EVENT_VALUE | 1u << SGF_EVENT_PROPERTY_END |
          1u << SGF_EVENT_TREE_END,
      1u << SGF_EVENT_NODE | 1u << SGF_EVENT_PROPERTY,
  };
  /* a small capacity for every other way of feeding */
  const size_t cap = (split + chunk) % 2 ? 7 : CAP;
  for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
    bytebuf want, got;
    krun(in, len, split, chunk, 0, sets[s], CAP, &want);
    krun(in, len, split, chunk, sets[s], ~0u, cap, &got);
    if (got.len != want.len || memcmp(got.p, want.p, got.len) != 0) {
      fprintf(stderr,
              "input (%zu bytes, split %zu, chunk %zu, kinds %#x, "
              "capacity %zu): %.*s\n",
              len, split, chunk, sets[s], cap, (int)len, in);
      fprintf(stderr, "every kind:\n%.*s\nthese kinds:\n%.*s\n", (int)want.len,
              want.p, (int)got.len, got.p);
      fail();
    }
    bytebuf_free(&want);
    bytebuf_free(&got);
  }
}

/* in parsed quietly and listening, in every way of feeding it (the
 * position during a diagnostic may depend on how the input was split,
 * never on who listens). */
static void check(const char *in, size_t len, int all_splits) {
  static const size_t chunks[] = {0, 1, 5, 63, 64, 65};
  for (size_t w = 0; w < len + sizeof chunks / sizeof *chunks; w++) {
    size_t split = 0, chunk = 0;
    bytebuf want, got;
    if (w < len) {
      if (w == 0 || (!all_splits && w % (quick ? 41 : 13) != 0)) continue;
      split = w;
    } else {
      chunk = chunks[w - len];
    }
    check_batch(in, len, split, chunk,
                split % 7 == 3 || (!split && chunk < 64));
    if (split % 3 == 0) check_kinds(in, len, split, chunk);
    for (int m = LISTEN; m <= RUNS_SKIP; m++) {
      movelog skips;
      if (m == FULL) continue;
      bytebuf_init(&want);
      bytebuf_init(&got);
      memset(&skips, 0, sizeof skips);
      run(in, len, m == LISTEN ? QUIET : m, split, chunk, &got, &skips);
      run(in, len, m == LISTEN ? LISTEN : FULL, split, chunk, &want, &skips);
      if (got.len != want.len || memcmp(got.p, want.p, got.len) != 0) {
        fprintf(stderr,
                "input (%zu bytes, split %zu, chunk %zu, mode %d): %.*s\n", len,
                split, chunk, m, (int)len, in);
        fprintf(stderr, "general:\n%.*s\nruns:\n%.*s\n", (int)want.len, want.p,
                (int)got.len, got.p);
        fail();
      }
      /* the library's replay (acting where the general parse acts), and
       * its walk: the same log */
      for (int lib = REPLAY; m >= RUNS && lib <= ITER; lib++) {
        if (lib == ITER && m != RUNS) continue;
        bytebuf_clear(&got);
        run(in, len, lib, split, chunk, &got, &skips);
        if (got.len != want.len || memcmp(got.p, want.p, got.len) != 0) {
          fprintf(stderr,
                  "input (%zu bytes, split %zu, chunk %zu, mode %d, %s): "
                  "%.*s\n",
                  len, split, chunk, m,
                  lib == REPLAY ? "sgf_run_replay" : "sgf_run_iter_next",
                  (int)len, in);
          fprintf(stderr, "general:\n%.*s\nlibrary:\n%.*s\n", (int)want.len,
                  want.p, (int)got.len, got.p);
          fail();
        }
      }
      bytebuf_free(&want);
      bytebuf_free(&got);
    }
  }
  checked++;
}

/* A game of n moves after a short root, with line break kind gap (0 none,
 * 1 LF, 2 CR LF, 3 CR, 4 LF LF) after every every-th node, into buf;
 * returns the length. */
static size_t game(char *buf, unsigned n, int gap, unsigned every) {
  size_t k = 0;
  k += (size_t)sprintf(buf, "(;FF[4]SZ[19]\n");
  for (unsigned i = 0; i < n; i++) {
    k += (size_t)sprintf(buf + k, ";%c[%c%c]", i % 2 ? 'W' : 'B',
                         'a' + (int)(i * 7 % 19), 'a' + (int)(i * 3 % 19));
    if (every && (i + 1) % every == 0) {
      static const char *const gaps[] = {"", "\n", "\r\n", "\r", "\n\n"};
      k += (size_t)sprintf(buf + k, "%s", gaps[gap]);
    }
  }
  k += (size_t)sprintf(buf + k, ")\n");
  return k;
}

/* Runs of every length and line-break pattern. */
static void test_runs(void **state) {
  char buf[4096];
  (void)state;
  for (unsigned n = 0; n <= 30; n++)
    for (int gap = 0; gap < 5; gap++)
      for (unsigned every = 1; every <= 11; every += 5)
        check(buf, game(buf, n, gap, every), n < (quick ? 4 : 16));
}

/* Each byte of a run replaced by each byte that breaks the rule. */
static void test_damage(void **state) {
  static const unsigned char bad[] = {']',  ';',  '\\', '\n', '\r', 0,
                                      0x81, 0xff, 'a',  '[',  '(',  ')',
                                      ' ',  '\t', 'C',  0x80};
  char base[4096], buf[4096];
  size_t len = game(base, 24, 1, 10); /* past two blocks */
  (void)state;
  for (size_t i = 14; i + 2 < len; i++)
    for (size_t b = 0; b < sizeof bad; b++) {
      if (quick && (i + b) % 5 != 0) continue;
      memcpy(buf, base, len);
      buf[i] = (char)bad[b];
      check(buf, len, 0);
    }
  /* a whole node missing its letter, or with a two-letter identifier */
  for (size_t i = 14; i + 6 < len; i++) {
    if (quick && i % 5 != 0) continue;
    memcpy(buf, base, i);
    memcpy(buf + i, "\\]\\\\", 4);
    memcpy(buf + i + 4, base + i, len - i);
    check(buf, len + 4, 0);
    memcpy(buf + i, ";AB[cd]", 7);
    memcpy(buf + i + 7, base + i, len - i);
    check(buf, len + 7, 0);
  }
}

/* Random runs: mostly moves, sometimes other bytes. */
static void test_random(void **state) {
  static const char alphabet[] = ";;;;;;BBWW[[[]]]qdpcaz\n\n\r\\ ()AE\x81";
  char buf[600];
  unsigned seed = 16;
  (void)state;
  for (int iter = 0; iter < (quick ? 300 : 3000); iter++) {
    size_t k = (size_t)sprintf(buf, "(;GM[1]");
    size_t n = 20 + (size_t)(rand_r(&seed) % 300);
    while (k < n) {
      if (rand_r(&seed) % 8) {
        k +=
            (size_t)sprintf(buf + k, ";%c[%c%c]", "BW"[rand_r(&seed) % 2],
                            'a' + rand_r(&seed) % 19, 'a' + rand_r(&seed) % 19);
        if (rand_r(&seed) % 6 == 0) buf[k++] = '\n';
      } else {
        buf[k++] = alphabet[rand_r(&seed) % (sizeof alphabet - 1)];
      }
    }
    k += (size_t)sprintf(buf + k, ")");
    check(buf, k, iter < (quick ? 10 : 100));
  }
}

/* A run longer than a MOVES record counts (65535 nodes) comes as more
 * than one record; the log is still on_value's. */
static void test_long_run(void **state) {
  const unsigned n = 70000;
  char *buf = malloc((size_t)n * 8 + 64);
  size_t len;
  (void)state;
  assert_non_null(buf);
  len = game(buf, n, 1, 1000);
  check_batch(buf, len, 0, 0, 1);
  check_batch(buf, len, 0, 65536, 0);
  free(buf);
}

/* sgf_run_replay's actions: a pause from an event inside a run stops the
 * feed at the ';' after the run, every event of the run delivered; a
 * skip stops the events there and the parser skips the rest of the game,
 * as from that event without runs. */
typedef struct act {
  sgf_callbacks inner; /* what runs are replayed into */
  int nodes, ends, runs;
  int at, action; /* the at-th on_node returns action */
} act;
static int act_node(sgf_parser *p, void *u) {
  act *a = u;
  (void)p;
  return ++a->nodes == a->at ? a->action : SGF_CONTINUE;
}
static int act_node_end(sgf_parser *p, void *u) {
  (void)p;
  ((act *)u)->ends++;
  return SGF_CONTINUE;
}
static int act_moves(sgf_parser *p, void *u, const char *at, size_t len,
                     size_t count) {
  act *a = u;
  (void)count;
  a->runs++;
  return sgf_run_replay(p, at, len, &a->inner, a);
}

static void test_replay_actions(void **state) {
  static const char in[] =
      "(;GM[1];B[aa];W[bb];B[cc];W[dd];B[ee];W[ff]\n"
      ";B[gg]C[x])";
  const size_t after = strlen("(;GM[1];B[aa];W[bb];B[cc];W[dd];B[ee];W[ff]\n");
  sgf_callbacks cb;
  act a;
  sgf_parser *p;
  size_t used = 0;
  (void)state;
  memset(&a, 0, sizeof a);
  sgf_callbacks_init(&a.inner);
  a.inner.on_node = act_node;
  a.inner.on_node_end = act_node_end;
  cb = a.inner;
  cb.on_moves = act_moves;
  /* a pause at the run's second node: the feed stops after the run */
  a.at = 3;
  a.action = SGF_PAUSE;
  p = sgf_parser_create(&cb, &a, NULL);
  assert_non_null(p);
  assert_int_equal(sgf_parser_feed(p, in, sizeof in - 1, &used), SGF_PAUSED);
  assert_int_equal(a.runs, 1);
  assert_int_equal(used, after);
  assert_int_equal(a.nodes, 7); /* the root and the run's six */
  assert_int_equal(a.ends, 6);  /* the root's, the run's first five */
  sgf_parser_resume(p);
  assert_int_equal(sgf_parser_feed(p, in + used, sizeof in - 1 - used, NULL),
                   SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(a.nodes, 8);
  assert_int_equal(a.ends, 8);
  /* a skip at the same node: the rest of the game goes unseen */
  sgf_parser_reset(p);
  a.nodes = a.ends = a.runs = 0;
  a.action = SGF_SKIP;
  assert_int_equal(sgf_parser_feed(p, in, sizeof in - 1, NULL), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(a.runs, 1);
  assert_int_equal(a.nodes, 3);
  assert_int_equal(a.ends, 2);
  /* an abort: the parse stops */
  sgf_parser_reset(p);
  a.nodes = a.ends = a.runs = 0;
  a.action = SGF_ABORT;
  assert_int_equal(sgf_parser_feed(p, in, sizeof in - 1, NULL), SGF_EABORTED);
  assert_int_equal(a.nodes, 3);
  sgf_parser_destroy(p);
}

static int report(void **state) {
  (void)state;
  fprintf(
      stderr,
      "test_moves: %lu inputs (%lu nodes in MOVES records), SGF_SIMD=%s%s\n",
      checked, batch_moves, getenv("SGF_SIMD") ? getenv("SGF_SIMD") : "(unset)",
      quick ? " (quick)" : "");
  return 0;
}

int main(void) {
  const char *q = getenv("SGF_TEST_QUICK");
  quick = q && *q && strcmp(q, "0") != 0;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runs),           cmocka_unit_test(test_damage),
      cmocka_unit_test(test_random),         cmocka_unit_test(test_long_run),
      cmocka_unit_test(test_replay_actions),
  };
  return cmocka_run_group_tests(tests, NULL, report);
}
