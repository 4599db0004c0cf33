/* harness_moves.c - fz_check_moves (harness.h): with on_moves, each run
 * of plain move nodes comes in one call that stands for its nodes'
 * events (MOVE RUNS in sgfstream/parser.h). A handler logging every event with
 * its position, expanding each run as the contract says
 * (test/support/movelog.c), must log what it logs without on_moves: when
 * on_moves continues, when it pauses at every other run (the feed resumed where
 * it stopped; the general parse pausing at the same places), and when it skips
 * at every third run (the general parse skipping from the last node's
 * on_property_end, at the same offset). The library's own expansion,
 * sgf_run_replay() (REPLAY: acting where the general parse acts), and its walk,
 * sgf_run_iter_next() (ITER), must log the same. */
#include "harness.h"
#include "harness_priv.h"

#include <stdio.h>
#include <string.h>

#include "movelog.h"

/* The log of one parse in mode, fed in the chunks given (cycled; none:
 * whole), pauses resumed; *skips: where the runs skipped and paused
 * (movelog_acts), for FULL to act there too. Returns a breach of the contract
 * seen by the expansion, or NULL. */
static const char *mrun(const uint8_t *in, size_t len, const sgf_options *opt,
                        const uint8_t *chunks, size_t nchunks, int mode,
                        movelog *skips, bytebuf *out) {
  sgf_callbacks cb;
  sgf_parser *p;
  movelog f;
  size_t off = 0, ci = 0, paused = 0;
  int st = SGF_OK;
  char line[64];
  const char *bad;
  const int general = mode == MOVELOG_FULL || mode == MOVELOG_REPLAY;
  movelog_init(&f, mode);
  if (general) movelog_acts(&f, skips);
  movelog_callbacks(&cb, mode);
  p = sgf_parser_create(&cb, &f, opt);
  if (!p) {
    movelog_free(&f);
    return NULL;
  }
  while (off < len && st == SGF_OK) {
    size_t n = len - off, used = 0;
    if (nchunks) {
      size_t c = (size_t)chunks[ci++ % nchunks] + 1;
      if (n > c) n = c;
    }
    st = sgf_parser_feed(p, (const char *)in + off, n, &used);
    while (st == SGF_PAUSED) { /* the rest of the same chunk */
      paused++;
      off += used;
      n -= used;
      sgf_parser_resume(p);
      used = 0;
      st = n ? sgf_parser_feed(p, (const char *)in + off, n, &used) : SGF_OK;
    }
    off += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  while (st == SGF_PAUSED) { /* a run in the held-back bytes: call again */
    paused++;
    sgf_parser_resume(p);
    st = sgf_parser_finish(p);
  }
  snprintf(line, sizeof line, "status %d\n", st);
  bytebuf_add(&f.log, line, strlen(line));
  movelog_note(p, &f.log, "end", 0);
  sgf_parser_destroy(p);
  bytebuf_add(out, f.log.p, f.log.len);
  if (!general && mode != MOVELOG_ITER) movelog_acts(skips, &f);
  bad = f.bad;
  if (!bad && general && f.ipause != f.npause)
    bad = "the general parse met no property end where a run paused";
  if (!bad && paused != (general ? f.ipause : f.npause))
    bad = "a feed paused other than where a handler asked";
  movelog_free(&f);
  return bad;
}

const char *fz_check_moves(const uint8_t *data, size_t size) {
  static const int modes[] = {MOVELOG_RUNS, MOVELOG_RUNS_PAUSE,
                              MOVELOG_RUNS_SKIP};
  sgf_options opt;
  size_t nchunks, h = fz_chunk_header(data, size, &opt, &nchunks);
  const char *res = NULL;
  if (h == 0) return NULL;
  for (size_t m = 0; m < sizeof modes / sizeof *modes && !res; m++) {
    movelog skips;
    bytebuf a, b;
    const char *bad, *full_bad;
    memset(&skips, 0, sizeof skips);
    bytebuf_init(&a);
    bytebuf_init(&b);
    bad =
        mrun(data + h, size - h, &opt, data + 2, nchunks, modes[m], &skips, &b);
    full_bad = mrun(data + h, size - h, &opt, data + 2, nchunks, MOVELOG_FULL,
                    &skips, &a);
    if (!bad) bad = full_bad;
    /* the library's replay and walk: FULL's log too */
    for (int lib = MOVELOG_REPLAY; !bad && lib <= MOVELOG_ITER; lib++) {
      if (lib == MOVELOG_ITER && modes[m] != MOVELOG_RUNS) continue;
      bytebuf_clear(&b);
      bad = mrun(data + h, size - h, &opt, data + 2, nchunks, lib, &skips, &b);
      if (!bad && (a.len != b.len || (a.len && memcmp(a.p, b.p, a.len) != 0)))
        bad = lib == MOVELOG_REPLAY ? "sgf_run_replay's log is not FULL's"
                                    : "sgf_run_iter_next's log is not FULL's";
    }
    if (bad)
      res = fz_failf("on_moves (mode %d): %s", modes[m], bad);
    else if (a.len != b.len || (a.len && memcmp(a.p, b.p, a.len) != 0))
      res =
          fz_failf("on_moves (mode %d): the logs differ:\n%.*s\nvs\n%.*s",
                   modes[m], (int)(a.len < 2000 ? a.len : 2000), a.p ? a.p : "",
                   (int)(b.len < 2000 ? b.len : 2000), b.p ? b.p : "");
    bytebuf_free(&a);
    bytebuf_free(&b);
  }
  return res;
}
