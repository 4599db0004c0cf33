/* test_moves.c - the move-run scanner (lib/simd/moves.c): with no
 * handler for a move node's events, runs of ";B[qd]" nodes are passed
 * in bulk. What such a parser reports (tree begin and end, diagnostics,
 * each with its line, column and offset and the identifier as written,
 * and the position after finish) must be what the general path
 * reports: the same parse with a no-op on_node handler, which turns the
 * scanner off.
 *
 * Inputs: runs of moves of every length up to past two 64-byte blocks,
 * with line breaks (LF, CR LF, a lone CR, blank lines) between nodes;
 * each byte of a run replaced by each byte that breaks the rule (a ']'
 * or ';' in the value, '\\', LF, CR, NUL, a high byte, a lowercase
 * letter, '(' ...) so that the break falls at every place of a block
 * (bytes 55..64 included); random runs. Each is fed whole, split in two
 * at every place, and in chunks of 1, 5, 63, 64 and 65 bytes. The
 * scanners are chosen once a process: test/cases-scanners.sh runs this
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

static void note(sgf_parser *p, bytebuf *log, const char *what, int code) {
  sgf_pos at = sgf_parser_position(p);
  size_t n = 0;
  const char *id = sgf_parser_raw_ident(p, &n);
  char line[200];
  int k = snprintf(line, sizeof line,
                   "%s %d %" PRIu64 ":%" PRIu64 "@%" PRIu64 " [%.*s]\n", what,
                   code, at.line, at.column, at.offset, (int)(n < 40 ? n : 40),
                   id ? id : "");
  bytebuf_add(log, line, (size_t)k);
}

static int on_tree_begin(sgf_parser *p, void *u) {
  note(p, u, "tree-begin", 0);
  return SGF_CONTINUE;
}
static int on_tree_end(sgf_parser *p, void *u) {
  note(p, u, "tree-end", 0);
  return SGF_CONTINUE;
}
static int on_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  char line[160];
  int k = snprintf(line, sizeof line,
                   "diag %d %" PRIu64 ":%" PRIu64 "@%" PRIu64 " mark %" PRIu64
                   ":%" PRIu64 "@%" PRIu64 "\n",
                   (int)d->code, d->pos.line, d->pos.column, d->pos.offset,
                   d->mark.line, d->mark.column, d->mark.offset);
  bytebuf_add(u, line, (size_t)k);
  note(p, u, "at-diag", 0);
  return SGF_CONTINUE;
}
static int on_node(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}

/* The log of in fed in the given pieces: split (0 < split < len) in
 * two, else chunks of chunk bytes (0: whole). */
static void run(const char *in, size_t len, int listen, size_t split,
                size_t chunk, bytebuf *log) {
  sgf_callbacks cb;
  sgf_parser *p;
  size_t off = 0;
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = on_tree_begin;
  cb.on_tree_end = on_tree_end;
  cb.on_diagnostic = on_diag;
  if (listen) cb.on_node = on_node;
  p = sgf_parser_create(&cb, log, NULL);
  assert_non_null(p);
  while (off < len) {
    size_t n = len - off;
    if (split && off < split) n = split - off;
    if (!split && chunk && n > chunk) n = chunk;
    assert_int_equal(sgf_parser_feed(p, in + off, n, NULL), SGF_OK);
    off += n;
  }
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  note(p, log, "end", 0);
  sgf_parser_destroy(p);
}

static unsigned long checked;

/* in parsed quietly and listening, in every way of feeding it (the
 * position during a diagnostic may depend on how the input was split,
 * never on who listens). */
static void check(const char *in, size_t len, int all_splits) {
  static const size_t chunks[] = {0, 1, 5, 63, 64, 65};
  for (size_t w = 0; w < len + sizeof chunks / sizeof *chunks; w++) {
    size_t split = 0, chunk = 0;
    bytebuf want, got;
    if (w < len) {
      if (w == 0 || (!all_splits && w % 13 != 0)) continue;
      split = w;
    } else {
      chunk = chunks[w - len];
    }
    bytebuf_init(&want);
    bytebuf_init(&got);
    run(in, len, 1, split, chunk, &want);
    run(in, len, 0, split, chunk, &got);
    if (got.len != want.len || memcmp(got.p, want.p, got.len) != 0) {
      fprintf(stderr, "input (%zu bytes, split %zu, chunk %zu): %.*s\n", len,
              split, chunk, (int)len, in);
      fprintf(stderr, "listening:\n%.*s\nquiet:\n%.*s\n", (int)want.len, want.p,
              (int)got.len, got.p);
      fail();
    }
    bytebuf_free(&want);
    bytebuf_free(&got);
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
        check(buf, game(buf, n, gap, every), n < 16);
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
      memcpy(buf, base, len);
      buf[i] = (char)bad[b];
      check(buf, len, 0);
    }
  /* a whole node missing its letter, or with a two-letter identifier */
  for (size_t i = 14; i + 6 < len; i++) {
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
  for (int iter = 0; iter < 3000; iter++) {
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
    check(buf, k, iter < 100);
  }
}

static int report(void **state) {
  (void)state;
  fprintf(stderr, "test_moves: %lu inputs, SGF_SIMD=%s\n", checked,
          getenv("SGF_SIMD") ? getenv("SGF_SIMD") : "(unset)");
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_runs),
      cmocka_unit_test(test_damage),
      cmocka_unit_test(test_random),
  };
  return cmocka_run_group_tests(tests, NULL, report);
}
