/* fuzz_serve_conn.c - `sgf serve`'s connection state machine
 * (tools/serve/conn.c) fed the input in any split, with the sink
 * "behind" at any game (pause, then resume), and the connection ending
 * at any point. The first 8 bytes seed the choices; the rest is the
 * stream. Checks, against the same stream fed whole with no pause and no
 * early end:
 *   - every game delivered is the stream's bytes at its offset, starts
 *     with '(' and ends with ')', in order, not overlapping;
 *   - split and pauses change nothing: the same games, the same
 *     abandoned bytes, when the stream is not cut short;
 *   - cut short at byte k, the games delivered are those of the whole
 *     run that end before k, and nothing delivered is past k;
 *   - the game's events (ops->begin, for the JSON Lines sink): each
 *     begin released once, game() given what begin returned, with its
 *     trees balanced and the same events however the stream is split;
 *     and they are the events of the game's bytes parsed alone, each at
 *     its offset (the sink takes no MOVE RUNS: the connection's parser
 *     does, and replays them, node ends and positions included).
 * With SERVE_FUZZ_MAIN (make check: test/serve/fuzz_conn) main() runs it over
 * random streams built from SGF pieces, for a bounded count. */
#include "conn.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXG 4096

/* The events of one game (ops->begin's user); log: each event's kind
 * and offset (offset << 3 | kind), as far as it has room. */
#define MAXEV 16384
typedef struct tap {
  int live;
  long depth;
  uint64_t events;
  uint64_t log[MAXEV];
  size_t nlog;
  int over; /* more events than log holds */
} tap;

static void note(sgf_parser *p, tap *t, unsigned kind) {
  if (t->nlog < MAXEV)
    t->log[t->nlog++] = sgf_parser_position(p).offset << 3 | kind;
  else
    t->over = 1;
}

typedef struct run {
  tap t;
  uint64_t ev[MAXG]; /* events per game delivered */
  const uint8_t *in;
  size_t n;
  uint64_t rng;
  int pausy;
  uint64_t off[MAXG], len[MAXG];
  size_t ngames;
  uint64_t qoff[MAXG], qlen[MAXG];
  size_t nquar;
} run;

static uint64_t next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void die(const char *what) {
  fprintf(stderr, "fuzz_serve_conn: %s\n", what);
  abort();
}

static void same_alone(const tap *t, const char *buf, size_t len, uint64_t off);

static int on_game(void *ctx, const char *buf, size_t len, const conn_game *g) {
  run *r = ctx;
  if (g->offset + len > r->n || memcmp(r->in + g->offset, buf, len) != 0)
    die("a game is not the stream's bytes at its offset");
  /* a lenient game may begin without its '(' (a node outside any tree
   * opens one): it ends at a ')' all the same */
  if (len < 1 || buf[len - 1] != ')') die("a game does not end with ')'");
  if (r->ngames > 0 &&
      g->offset < r->off[r->ngames - 1] + r->len[r->ngames - 1])
    die("games overlap or go back");
  if (g->ev_user != &r->t || !r->t.live || r->t.depth != 0)
    die("a game's events were not its own, or its trees not balanced");
  if (buf[0] == '(') same_alone(&r->t, buf, len, g->offset);
  if (r->ngames < MAXG) {
    r->ev[r->ngames] = r->t.events;
    r->off[r->ngames] = g->offset;
    r->len[r->ngames++] = len;
  }
  return r->pausy && next(&r->rng) % 3 == 0;
}

static void on_abandon(void *ctx, const char *buf, size_t len, uint64_t off,
                       const char *reason) {
  run *r = ctx;
  (void)reason;
  if (off + len > r->n || memcmp(r->in + off, buf, len) != 0)
    die("abandoned bytes are not the stream's");
  if (r->nquar < MAXG) {
    r->qoff[r->nquar] = off;
    r->qlen[r->nquar++] = len;
  }
}

static void on_warning(void *ctx, const sgf_diag *d, int64_t game) {
  (void)ctx;
  (void)d;
  (void)game;
}

static int ev_tree_begin(sgf_parser *p, void *u) {
  tap *t = u;
  note(p, t, 1);
  t->depth++;
  t->events++;
  return SGF_CONTINUE;
}

static int ev_tree_end(sgf_parser *p, void *u) {
  tap *t = u;
  note(p, t, 2);
  if (--t->depth < 0) die("a tree ended that the game's events did not begin");
  t->events++;
  return SGF_CONTINUE;
}

static int ev_other(sgf_parser *p, void *u) {
  tap *t = u;
  (void)p;
  t->events++;
  return SGF_CONTINUE;
}

static int ev_node(sgf_parser *p, void *u) {
  note(p, u, 3);
  return ev_other(p, u);
}

static int ev_property_end(sgf_parser *p, void *u) {
  note(p, u, 4);
  return ev_other(p, u);
}

static int ev_node_end(sgf_parser *p, void *u) {
  note(p, u, 5);
  return ev_other(p, u);
}

static int ev_bytes(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)at;
  (void)len;
  note(p, u, 6);
  return ev_other(p, u);
}

/* a value may come in pieces, as the stream was split: counted once, at
 * its first piece (its '[') */
static int ev_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  (void)at;
  (void)len;
  if (flags & SGF_VALUE_FIRST) note(p, u, 7);
  if (!(flags & SGF_VALUE_LAST)) return SGF_CONTINUE;
  return ev_other(p, u);
}

static const sgf_callbacks *tap_callbacks(void) {
  static sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = ev_tree_begin;
  cb.on_tree_end = ev_tree_end;
  cb.on_node = ev_node;
  cb.on_property = ev_bytes;
  cb.on_value = ev_value;
  cb.on_property_end = ev_property_end;
  cb.on_node_end = ev_node_end;
  return &cb;
}

/* The game's bytes parsed alone (no MOVE RUNS) log what the connection's
 * events logged, offsets taken from the game's start. */
static void same_alone(const tap *t, const char *buf, size_t len,
                       uint64_t off) {
  static tap alone;
  sgf_parser *p;
  size_t i;
  if (t->over) return;
  memset(&alone, 0, sizeof alone);
  p = sgf_parser_create(tap_callbacks(), &alone, NULL);
  if (!p) die("out of memory");
  sgf_parser_feed(p, buf, len, NULL);
  sgf_parser_finish(p);
  sgf_parser_destroy(p);
  if (alone.nlog != t->nlog) die("a game's events are not its bytes' alone");
  for (i = 0; i < t->nlog; i++)
    if (t->log[i] != alone.log[i] + (off << 3))
      die("a game's event is not where its bytes alone put it");
}

static void *begin(void *ctx, const sgf_callbacks **ev, size_t *bytes) {
  run *r = ctx;
  if (r->t.live) die("a game's events began before the last was released");
  memset(&r->t, 0, sizeof r->t);
  r->t.live = 1;
  *ev = tap_callbacks();
  *bytes = 1;
  return &r->t;
}

static void release(void *ctx, void *user) {
  run *r = ctx;
  if (user != &r->t || !r->t.live) die("events released twice or not begun");
  r->t.live = 0;
}

static const conn_ops ops = {on_game, on_abandon, on_warning,
                             begin,   release,    NULL};

/* Feed r->in[0, cut) in random pieces; pauses resumed at once or after
 * more bytes were kept. */
static void feed(run *r, size_t cut, int split) {
  conn c;
  conn_limits lim;
  size_t at = 0;
  int rc = CONN_OK;
  memset(&lim, 0, sizeof lim);
  conn_init(&c, &lim, &ops, r);
  while (at < cut && rc != CONN_DONE) {
    size_t n = split ? 1 + next(&r->rng) % 700 : cut - at;
    if (n > cut - at) n = cut - at;
    rc = conn_feed(&c, (const char *)r->in + at, n);
    at += n;
    while (rc == CONN_PAUSED && (at == cut || next(&r->rng) % 2))
      rc = conn_resume(&c);
  }
  while (rc == CONN_PAUSED) rc = conn_resume(&c);
  conn_end(&c, "end");
  conn_free(&c);
  if (r->t.live) die("a game's events were not released");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static run whole, split;
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  size_t i, cut;
  if (size < 8) return 0;
  for (i = 0; i < 8; i++) seed = seed * 131 + data[i];
  memset(&whole, 0, sizeof whole);
  whole.in = data + 8;
  whole.n = size - 8;
  whole.rng = seed | 1;
  split = whole;
  split.pausy = 1;
  feed(&whole, whole.n, 0);
  feed(&split, split.n, 1);
  if (whole.ngames != split.ngames ||
      memcmp(whole.off, split.off, whole.ngames * sizeof *whole.off) != 0 ||
      memcmp(whole.len, split.len, whole.ngames * sizeof *whole.len) != 0)
    die("the split or the pauses changed the games");
  if (memcmp(whole.ev, split.ev, whole.ngames * sizeof *whole.ev) != 0)
    die("the split or the pauses changed a game's events");
  if (whole.nquar != split.nquar ||
      memcmp(whole.qoff, split.qoff, whole.nquar * sizeof *whole.qoff) != 0)
    die("the split or the pauses changed what was abandoned");
  /* cut short: a prefix of the whole run's games */
  cut = whole.n ? (size_t)(next(&split.rng) % whole.n) : 0;
  memset(split.off, 0, sizeof split.off);
  split.ngames = split.nquar = 0;
  split.n = cut;
  feed(&split, cut, 1);
  for (i = 0; i < split.ngames; i++)
    if (split.off[i] != whole.off[i] || split.len[i] != whole.len[i] ||
        split.off[i] + split.len[i] > cut)
      die("cut short: a game differs from the whole run's");
  for (i = split.ngames; i < whole.ngames; i++)
    if (whole.off[i] + whole.len[i] <= cut &&
        whole.off[i] + whole.len[i] + 64 < cut)
      die("cut short: a game complete before the cut was not delivered");
  return 0;
}

#ifdef SERVE_FUZZ_MAIN
/* Random streams of SGF pieces and noise, a bounded number of runs. */
int main(int argc, char **argv) {
  /* a '(' and more blanks than any fixed hold-back: its on_tree_begin
   * names a byte fed long before (CUTTING BY POSITIONS, sgfstream.h) */
  static char opener[2 + 4 * SGF_MAX_HELD_BYTES];
  static const char *const piece[] = {"(;GM[1]FF[4]SZ[19]",
                                      opener,
                                      ";B[pd]",
                                      ";W[dp]",
                                      ";B[pd];W[dp];B[qq];W[zz]\n;B[cc];W[dd]",
                                      "(",
                                      ")",
                                      "C[a\\]b]",
                                      "[x]",
                                      "\n",
                                      " junk ",
                                      "(;",
                                      ")\n(;",
                                      "C[",
                                      "]",
                                      "\\",
                                      ";",
                                      "((",
                                      "))",
                                      "PB[\x82\\]",
                                      "\xef\xbb\xbf",
                                      "AB[aa][bb]"};
  uint8_t buf[8192];
  uint64_t s = 17;
  long runs = argc > 1 ? atol(argv[1]) : 3000, k;
  memset(opener, ' ', sizeof opener - 1);
  opener[0] = '(';
  for (k = 0; k < runs; k++) {
    size_t n = 8, np = 1 + next(&s) % 60, j;
    for (j = 0; j < 8; j++) buf[j] = (uint8_t)next(&s);
    for (j = 0; j < np; j++) {
      const char *p = piece[next(&s) % (sizeof piece / sizeof *piece)];
      size_t l = strlen(p);
      if (next(&s) % 10 == 0) { /* a random byte */
        if (n < sizeof buf) buf[n++] = (uint8_t)next(&s);
        continue;
      }
      if (n + l > sizeof buf) break;
      memcpy(buf + n, p, l);
      n += l;
    }
    LLVMFuzzerTestOneInput(buf, n);
  }
  printf(
      "serve_fuzz: conn: %ld random streams, every split, pause and cut "
      "agree\n",
      runs);
  return 0;
}
#endif
