/* harness_whole.c - fz_check_whole (harness.h): values whole (on_value)
 * against the three value events, differentially, with the logs of
 * test/support/valuelog.h. */
#include "harness.h"
#include "harness_priv.h"

#include <stdlib.h>
#include <string.h>

#include "valuelog.h"

typedef struct wcfg {
  sgf_options opt;
  const uint8_t *chunks; /* cycled; none: byte by byte */
  size_t nchunks;
  const unsigned char *in;
  size_t len;
} wcfg;

/* Parse the input under cfg into v (action as v says); the status. */
static int wrun(sgf_parser *p, vlog *v, const wcfg *cfg) {
  size_t off = 0, ci = 0;
  int st = SGF_OK;
  int pauses = 0;
  sgf_parser_reset(p);
  vlog_clear(v);
  v->input = (const char *)cfg->in;
  v->inlen = cfg->len;
  while (off < cfg->len && st == SGF_OK) {
    size_t n = cfg->len - off, done = 0;
    size_t want = cfg->nchunks ? cfg->chunks[ci++ % cfg->nchunks] : 1;
    if (want == 0) want = 1;
    if (n > want) n = want;
    while (done < n) {
      size_t used = (size_t)-1;
      v->win = (const char *)cfg->in + off + done;
      v->winlen = n - done;
      st = sgf_parser_feed(p, v->win, n - done, &used);
      v->win = NULL;
      if (st == SGF_EPARSE || st == SGF_EABORTED) return st;
      if (used > n - done) return SGF_EBUSY;
      done += used;
      if (st == SGF_PAUSED) {
        if (++pauses > 2) return SGF_EBUSY;
        sgf_parser_resume(p);
        st = SGF_OK;
        continue;
      }
      if (st != SGF_OK || done != n) return SGF_EBUSY;
    }
    off += n;
  }
  if (st != SGF_OK) return st;
  while ((st = sgf_parser_finish(p)) == SGF_PAUSED) {
    if (++pauses > 2) return SGF_EBUSY;
    sgf_parser_resume(p);
  }
  return st;
}

static int same(const bytebuf *a, const bytebuf *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

/* The input's header, the same for both checks: byte 0 the options,
 * byte 1 the action (top 2 bits) and the event it is taken at, byte 3
 * the number of chunk sizes that follow byte 3 (byte 2: unused by
 * fz_check_whole, the batch's shape for fz_check_batch); the rest is the SGF. 0
 * if the input is too short. */
static int header(const uint8_t *data, size_t size, wcfg *cfg, int *action,
                  long *k) {
  static const int actions[4] = {SGF_CONTINUE, SGF_SKIP, SGF_ABORT, SGF_PAUSE};
  size_t h;
  if (size < 4) return 0;
  memset(cfg, 0, sizeof *cfg);
  fz_decode_options(data[0], &cfg->opt);
  *action = actions[data[1] >> 6];
  *k = data[1] & 63;
  cfg->nchunks = data[3] & 15u;
  h = 4 + cfg->nchunks;
  if (size < h) return 0;
  cfg->chunks = data + 4;
  cfg->in = data + h;
  cfg->len = size - h;
  return 1;
}

const char *fz_check_whole(const uint8_t *data, size_t size) {
  wcfg cfg;
  vlog vs, vw;
  sgf_callbacks cs, cw;
  sgf_parser *ps, *pw;
  int ss, sw;
  const char *err = NULL;
  long k, *map = NULL;
  int action;
  if (!header(data, size, &cfg, &action, &k)) return NULL;
  vlog_init(&vs);
  vlog_init(&vw);
  vlog_single_callbacks(&cs);
  vlog_whole_callbacks(&cw);
  ps = sgf_parser_create(&cs, &vs, &cfg.opt);
  pw = sgf_parser_create(&cw, &vw, &cfg.opt);
  if (!ps || !pw) abort();
  ss = wrun(ps, &vs, &cfg);
  sw = wrun(pw, &vw, &cfg);
  if (ss == SGF_EBUSY || sw == SGF_EBUSY) {
    err = fz_failf("a feed broke its contract (or paused unasked)");
  } else if (vs.contract[0] || vw.contract[0]) {
    err = fz_failf("contract: %s", vw.contract[0] ? vw.contract : vs.contract);
  } else if (ss != sw || !same(&vs.out, &vw.out)) {
    err = fz_failf(
        "whole values (status %d) differ from the three value "
        "events (status %d)",
        (int)sw, (int)ss);
  } else if (action != SGF_CONTINUE && k < vw.calls) {
    bytebuf skinds, wkinds, ref;
    bytebuf_init(&skinds);
    bytebuf_init(&wkinds);
    bytebuf_init(&ref);
    bytebuf_add(&skinds, vs.kinds.p ? vs.kinds.p : "", vs.kinds.len);
    bytebuf_add(&wkinds, vw.kinds.p ? vw.kinds.p : "", vw.kinds.len);
    bytebuf_add(&ref, vs.out.p ? vs.out.p : "", vs.out.len);
    map = vlog_match_calls(&skinds, &wkinds);
    if (map[k] < 0) {
      err = fz_failf("whole-value call %ld matches no single event", k);
    } else {
      vw.action_at = k;
      vw.action = action;
      vs.action_at = map[k];
      vs.action = action;
      sw = wrun(pw, &vw, &cfg);
      ss = wrun(ps, &vs, &cfg);
      if (ss == SGF_EBUSY || sw == SGF_EBUSY)
        err = fz_failf(
            "a feed broke its contract with action %d at call "
            "%ld",
            action, k);
      else if (vs.contract[0] || vw.contract[0])
        err = fz_failf("contract with action %d at call %ld: %s", action, k,
                       vw.contract[0] ? vw.contract : vs.contract);
      else if (ss != sw || !same(&vs.out, &vw.out))
        err = fz_failf(
            "action %d at whole-value call %ld (single event "
            "%ld): statuses %d and %d, or the logs differ",
            action, k, map[k], (int)sw, (int)ss);
      else if (action == SGF_PAUSE && !same(&vw.out, &ref))
        err = fz_failf("a pause at call %ld changed the log", k);
    }
    free(map);
    bytebuf_free(&skinds);
    bytebuf_free(&wkinds);
    bytebuf_free(&ref);
  }
  sgf_parser_destroy(ps);
  sgf_parser_destroy(pw);
  vlog_free(&vs);
  vlog_free(&vw);
  return err;
}

/* fz_check_batch (harness.h): batched events against on_value. */
static int b_handler(sgf_parser *p, void *u, const sgf_batch *b) {
  return vlog_batch(p, u, b);
}

/* The status of the input parsed under cfg in batches of cap records,
 * recording kinds (0: all), logging the kinds log (rlog, valuelog.h)
 * into *out. */
static int krun(const wcfg *cfg, size_t cap, unsigned kinds, unsigned log,
                bytebuf *out) {
  sgf_event arr[64];
  sgf_batch_options bo;
  sgf_callbacks cb;
  rlog k;
  vlog v; /* wrun's window only */
  sgf_parser *p;
  int st;
  sgf_callbacks_init(&cb);
  bytebuf_init(&k.out);
  k.kinds = log;
  vlog_init(&v);
  p = sgf_parser_create(&cb, &k, &cfg->opt);
  sgf_batch_options_init(&bo);
  bo.on_batch = rlog_batch;
  bo.events = arr;
  bo.capacity = cap;
  bo.kinds = kinds;
  if (!p || sgf_parser_set_batch(p, &bo) != SGF_OK) abort();
  st = wrun(p, &v, cfg);
  sgf_parser_destroy(p);
  vlog_free(&v);
  *out = k.out;
  return st;
}

/* Batches with kinds left out (fz_check_batch, bits 6 and 7 of byte 3
 * choosing the set): every record a parse that records only those kinds
 * gets must be the record of that kind in a parse that records every
 * kind, in order. */
static const char *check_kinds(const wcfg *cfg, size_t cap, unsigned set) {
  static const unsigned sets[4] = {
      0xFEu & ~(1u << SGF_EVENT_NODE_END), /* bench_events' batch/sum */
      1u << SGF_EVENT_VALUE | 1u << SGF_EVENT_PROPERTY_END |
          1u << SGF_EVENT_TREE_END,
      1u << SGF_EVENT_NODE | 1u << SGF_EVENT_PROPERTY,
      0xFEu & ~(1u << SGF_EVENT_PROPERTY)};
  const unsigned kinds = sets[set & 3u];
  const char *err = NULL;
  bytebuf want, got;
  int sw = krun(cfg, 64, 0, kinds, &want);
  int sb = krun(cfg, cap, kinds, ~0u, &got);
  if (sw != sb || !same(&want, &got))
    err = fz_failf(
        "batches of kinds %#x (capacity %zu, status %d) differ from those "
        "kinds of a parse that records every kind (status %d)",
        kinds, cap, sb, sw);
  bytebuf_free(&want);
  bytebuf_free(&got);
  return err;
}

const char *fz_check_batch(const uint8_t *data, size_t size) {
  sgf_event arr[64];
  sgf_batch_options bo;
  wcfg cfg;
  vlog vw, vb;
  sgf_callbacks cw;
  sgf_parser *pw, *pb;
  int sw, sb, one, action;
  const char *err = NULL;
  long k;
  if (!header(data, size, &cfg, &action, &k)) return NULL;
  sgf_batch_options_init(&bo);
  bo.on_batch = b_handler;
  bo.events = arr;
  bo.capacity = 1 + (data[2] & 63u);
  /* bit 7: every kind stops a batch (one event a batch); bit 6: node
   * ends do (where a headers scan decides to skip) */
  bo.stop_kinds = (data[2] & 0x80)   ? 0xFEu
                  : (data[2] & 0x40) ? 1u << SGF_EVENT_NODE_END
                                     : 0u;
  one = bo.capacity == 1 || bo.stop_kinds == 0xFEu;
  vlog_init(&vw);
  vlog_init(&vb);
  vw.omit_raw = vb.omit_raw = 1;
  /* byte 3, bit 4: MOVES records opted into (expanded by vlog_batch);
   * bit 5: a batch due after each, and the action of byte [1] taken
   * after MOVES record number k (mod their count) */
  if (data[3] & 0x10) {
    bo.kinds = 0xFEu | 1u << SGF_EVENT_MOVES;
    vb.moves = 1;
    if (data[3] & 0x20) bo.stop_kinds |= 1u << SGF_EVENT_MOVES;
  }
  vlog_whole_callbacks(&cw);
  pw = sgf_parser_create(&cw, &vw, &cfg.opt);
  pb = sgf_parser_create(&cw, &vb, &cfg.opt);
  if (!pw || !pb || sgf_parser_set_batch(pb, &bo) != SGF_OK) abort();
  /* one event a batch: the action at call k of both; with MOVES records
   * (one batch, many calls) after a MOVES record instead (below) */
  if (one && !vb.moves && action != SGF_CONTINUE) {
    vw.action_at = vb.action_at = k;
    vw.action = vb.action = action;
  }
  sw = wrun(pw, &vw, &cfg);
  sb = wrun(pb, &vb, &cfg);
  if (!one) {
    vlog_drop_diags(&vw.out);
    vlog_drop_diags(&vb.out);
  }
  if (sw == SGF_EBUSY || sb == SGF_EBUSY)
    err = fz_failf("a feed broke its contract (or paused unasked)");
  else if (vw.contract[0] || vb.contract[0])
    err = fz_failf("contract: %s", vb.contract[0] ? vb.contract : vw.contract);
  else if (sw != sb || !same(&vw.out, &vb.out))
    err = fz_failf(
        "batches (capacity %zu, stop kinds %#x, action %d at call %ld: "
        "status %d) differ from on_value (status %d)",
        bo.capacity, bo.stop_kinds, one && !vb.moves ? action : 0, k, (int)sb,
        (int)sw);
  /* byte 3, bits 6 and 7 (no MOVES records): the kinds left out */
  if (!err && !vb.moves) err = check_kinds(&cfg, bo.capacity, data[3] >> 6);
  if (!err && vb.moves &&
      ((bo.stop_kinds >> SGF_EVENT_MOVES & 1u) || bo.capacity == 1) &&
      action != SGF_CONTINUE && vb.mends.len) {
    bytebuf wk, bk;
    long m =
        ((const long *)vb.mends.p)[(size_t)k % (vb.mends.len / sizeof(long))];
    bytebuf_init(&wk);
    bytebuf_init(&bk);
    bytebuf_add(&wk, vw.kinds.p, vw.kinds.len);
    bytebuf_add(&bk, vb.kinds.p, vb.kinds.len);
    vb.action_at = m;
    vw.action_at = vlog_call_like(&bk, m, &wk);
    vw.action = vb.action = action;
    sw = wrun(pw, &vw, &cfg);
    sb = wrun(pb, &vb, &cfg);
    vlog_drop_diags(&vw.out);
    vlog_drop_diags(&vb.out);
    if (vw.action_at < 0)
      err =
          fz_failf("MOVES record ending at call %ld: no such property end", m);
    else if (sw == SGF_EBUSY || sb == SGF_EBUSY)
      err = fz_failf("a feed broke its contract after a MOVES record");
    else if (vw.contract[0] || vb.contract[0])
      err =
          fz_failf("contract: %s", vb.contract[0] ? vb.contract : vw.contract);
    else if (sw != sb || !same(&vw.out, &vb.out))
      err = fz_failf(
          "action %d after a MOVES record (call %ld): status %d, on_value "
          "%d, or the logs differ",
          action, m, (int)sb, (int)sw);
    bytebuf_free(&wk);
    bytebuf_free(&bk);
  }
  sgf_parser_destroy(pw);
  sgf_parser_destroy(pb);
  vlog_free(&vw);
  vlog_free(&vb);
  return err;
}
