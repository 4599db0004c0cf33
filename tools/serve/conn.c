/* conn.c - a stream of SGF games cut into whole games (conn.h).
 *
 * The game's bytes are cut from the parser's positions, as `sgf split`
 * finds games: the top-level on_tree_begin is at the '(' and the
 * top-level on_tree_end at the ')'. Between games only the last KEEP
 * bytes are kept: the parser may hold back up to 64 bytes (its double-byte
 * look-ahead), so the '(' of the next game may lie a little before the
 * bytes fed last.
 *
 * With ops->begin (the JSON Lines sink) this parser's events of each game
 * go to the sink's converter as well, so that a game is parsed once: the
 * parser that splits the stream also feeds the conversion.
 */
#include "conn.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define KEEP 256
#define SLICE 65536 /* bytes per parser feed: limits are checked between */

/* ------------------------------------------------------------ events
 * A game's events for ops->begin's callbacks (conn.h). */

static void ev_release(conn *c) {
  void *user = c->ev_user;
  if (user == NULL) return;
  c->ev_user = NULL;
  c->ev = NULL;
  c->ev_bytes = 0;
  c->ops->release(c->ctx, user);
}

static int ev_node(sgf_parser *p, void *u) {
  conn *c = u;
  return c->ev_user ? c->ev->on_node(p, c->ev_user) : SGF_CONTINUE;
}

static int ev_property(sgf_parser *p, void *u, const char *at, size_t len) {
  conn *c = u;
  return c->ev_user ? c->ev->on_property(p, c->ev_user, at, len) : SGF_CONTINUE;
}

static int ev_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  conn *c = u;
  return c->ev_user ? c->ev->on_value(p, c->ev_user, at, len, flags)
                    : SGF_CONTINUE;
}

static int ev_property_end(sgf_parser *p, void *u) {
  conn *c = u;
  return c->ev_user ? c->ev->on_property_end(p, c->ev_user) : SGF_CONTINUE;
}

static int ev_node_end(sgf_parser *p, void *u) {
  conn *c = u;
  return c->ev_user && c->ev->on_node_end ? c->ev->on_node_end(p, c->ev_user)
                                          : SGF_CONTINUE;
}

/* MOVE RUNS (sgfstream.h): to *ev's on_moves, or as the events the run
 * stands for (node ends included, each positioned at its node) when it
 * has none. */
static int ev_moves(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  conn *c = u;
  const sgf_callbacks *ev = c->ev;
  void *user = c->ev_user;
  if (user == NULL) return SGF_CONTINUE;
  if (ev->on_moves) return ev->on_moves(p, user, at, len, count);
  return sgf_run_replay(p, at, len, ev, user);
}

/* ------------------------------------------------------------ games */

static int on_tree_begin(sgf_parser *p, void *u) {
  conn *c = u;
  if (sgf_parser_depth(p) != 1)
    return c->ev_user ? c->ev->on_tree_begin(p, c->ev_user) : SGF_CONTINUE;
  if (c->lim.max_games && c->games >= c->lim.max_games) {
    snprintf(c->why, sizeof c->why,
             "limit hit: more than %" PRIu64 " games on one connection",
             c->lim.max_games);
    c->done = 1;
    return SGF_ABORT;
  }
  c->in_game = 1;
  c->gpos = sgf_parser_position(p);
  c->gstart = c->gpos.offset;
  if (c->ops->begin != NULL &&
      (c->ev_user = c->ops->begin(c->ctx, &c->ev, &c->ev_bytes)) != NULL)
    return c->ev->on_tree_begin(p, c->ev_user);
  return SGF_CONTINUE;
}

static void abandon(conn *c, uint64_t end, const char *reason) {
  uint64_t from = c->gstart < c->base ? c->base : c->gstart;
  uint64_t top = c->base + c->buf.len;
  if (end > top) end = top;
  if (end < from) end = from;
  c->in_game = 0;
  c->ops->abandon(c->ctx, c->buf.p + (from - c->base), (size_t)(end - from),
                  c->gstart, reason);
  ev_release(c);
}

/* The game grew over --max-game-bytes: quarantined, and the stream ends. */
static void too_large(conn *c, uint64_t end) {
  snprintf(c->why, sizeof c->why,
           "limit hit: game larger than %" PRIu64 " bytes",
           c->lim.max_game_bytes);
  abandon(c, end, c->why);
  c->done = 1;
}

static int on_tree_end(sgf_parser *p, void *u) {
  conn *c = u;
  sgf_pos pos;
  conn_game g;
  int rc;
  if (c->ev_user && c->ev->on_tree_end(p, c->ev_user) == SGF_ABORT)
    return SGF_ABORT; /* out of memory: stopped() abandons the game */
  if (sgf_parser_depth(p) != 1 || !c->in_game) return SGF_CONTINUE;
  pos = sgf_parser_position(p);
  /* a tree the parser closes at the end of input has no ')' of its own */
  if (pos.offset < c->base || pos.offset >= c->base + c->buf.len ||
      c->buf.p[pos.offset - c->base] != ')') {
    abandon(c, pos.offset,
            c->ending ? c->end_reason : "the input ended inside the game");
    return SGF_CONTINUE;
  }
  if (c->lim.max_game_bytes &&
      pos.offset + 1 - c->gstart > c->lim.max_game_bytes) {
    too_large(c, pos.offset + 1);
    return SGF_ABORT;
  }
  c->in_game = 0;
  g.index = c->games++;
  g.offset = c->gstart;
  g.pos = c->gpos;
  g.ev_user = c->ev_user;
  rc = c->ops->game(c->ctx, c->buf.p + (c->gstart - c->base),
                    (size_t)(pos.offset + 1 - c->gstart), &g);
  ev_release(c);
  if (rc) {
    c->paused = 1;
    return SGF_PAUSE;
  }
  return SGF_CONTINUE;
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  conn *c = u;
  (void)p;
  if (d->severity != SGF_SEV_FATAL && !c->lim.strict)
    c->ops->warning(c->ctx, d, c->in_game ? (int64_t)c->games : -1);
  return SGF_CONTINUE;
}

int conn_init(conn *c, const conn_limits *lim, const conn_ops *ops, void *ctx) {
  memset(c, 0, sizeof *c);
  c->ops = ops;
  c->ctx = ctx;
  c->lim = *lim;
  bytebuf_init(&c->buf);
  return 0;
}

void conn_free(conn *c) {
  ev_release(c);
  sgf_parser_destroy(c->p);
  c->p = NULL;
  bytebuf_free(&c->buf);
}

static int make_parser(conn *c) {
  sgf_callbacks cb;
  sgf_options opt;
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = on_tree_begin;
  cb.on_tree_end = on_tree_end;
  cb.on_diagnostic = on_diagnostic;
  if (c->ops->begin != NULL) {
    cb.on_node = ev_node;
    cb.on_property = ev_property;
    cb.on_value = ev_value;
    cb.on_property_end = ev_property_end;
    cb.on_node_end = ev_node_end;
    cb.on_moves = ev_moves;
  }
  sgf_options_init(&opt);
  if (c->lim.strict) opt.flags |= SGF_OPT_STRICT;
  c->p = sgf_parser_create(&cb, c, &opt);
  return c->p ? 0 : -1;
}

/* The parser stopped (fatal error, strict refusal, or our abort). */
static int stopped(conn *c, int rc) {
  const sgf_diag *d = sgf_parser_error(c->p);
  char reason[160];
  if (c->done) {
    if (c->in_game) abandon(c, c->fed, c->why);
    return CONN_DONE;
  }
  if (rc == SGF_EPARSE && d != NULL) {
    const char *name = sgf_diag_name(d->code);
    snprintf(reason, sizeof reason, "%s at %" PRIu64 ":%" PRIu64 ": %s [%s]",
             c->lim.strict ? "refused (strict)" : "parse stopped", d->pos.line,
             d->pos.column,
             sgf_diag_message(d->code) ? sgf_diag_message(d->code) : "?",
             name ? name : "?");
  } else {
    snprintf(reason, sizeof reason, "parser failed: %s", sgf_strerror(rc));
  }
  snprintf(c->why, sizeof c->why, "%s", reason);
  if (c->in_game) abandon(c, c->fed, reason);
  c->done = 1;
  return CONN_DONE;
}

/* Drop what no game needs any more. */
static void trim(conn *c) {
  uint64_t keep = c->in_game ? c->gstart : (c->fed > KEEP ? c->fed - KEEP : 0);
  size_t drop;
  if (keep <= c->base) return;
  drop = (size_t)(keep - c->base);
  if (drop > c->buf.len) drop = c->buf.len;
  memmove(c->buf.p, c->buf.p + drop, c->buf.len - drop);
  c->buf.len -= drop;
  c->base += drop;
}

/* Parse the kept bytes from fed on, until paused, done or all parsed. */
static int run(conn *c) {
  while (!c->done && !c->paused && c->fed < c->base + c->buf.len) {
    size_t at = (size_t)(c->fed - c->base), n = c->buf.len - at, used = 0;
    int rc;
    if (n > SLICE) n = SLICE;
    rc = sgf_parser_feed(c->p, c->buf.p + at, n, &used);
    c->fed += used;
    if (rc != SGF_OK && rc != SGF_PAUSED) return stopped(c, rc);
    if (c->in_game && c->lim.max_game_bytes &&
        c->fed - c->gstart > c->lim.max_game_bytes) {
      too_large(c, c->fed);
      return CONN_DONE;
    }
    trim(c);
  }
  if (c->done) return CONN_DONE;
  return c->paused ? CONN_PAUSED : CONN_OK;
}

int conn_feed(conn *c, const char *buf, size_t len) {
  if (c->done) return CONN_DONE;
  if (c->p == NULL && make_parser(c) != 0) {
    snprintf(c->why, sizeof c->why, "out of memory");
    c->done = 1;
    return CONN_DONE;
  }
  if (bytebuf_try_add(&c->buf, buf, len) != 0) {
    snprintf(c->why, sizeof c->why, "out of memory");
    if (c->in_game) abandon(c, c->fed, c->why);
    c->done = 1;
    return CONN_DONE;
  }
  return run(c);
}

int conn_resume(conn *c) {
  if (c->done) return CONN_DONE;
  if (!c->paused) return CONN_OK;
  c->paused = 0;
  sgf_parser_resume(c->p);
  return run(c);
}

int conn_end(conn *c, const char *reason) {
  int rc;
  if (!c->done && c->p != NULL && !c->paused) {
    c->ending = 1;
    c->end_reason = reason;
    rc = sgf_parser_finish(c->p);
    /* a game the held-back bytes completed may pause: the game is
     * delivered all the same; nothing is left to parse */
    while (rc == SGF_PAUSED) {
      c->paused = 0;
      sgf_parser_resume(c->p);
      rc = sgf_parser_finish(c->p);
    }
  }
  if (c->in_game) abandon(c, c->base + c->buf.len, reason);
  c->done = 1;
  c->paused = 0; /* ended while paused (a limit, a stop): nothing waits */
  if (c->why[0] == '\0') snprintf(c->why, sizeof c->why, "%s", reason);
  return CONN_DONE;
}

size_t conn_held(const conn *c) {
  if (c->ev_user != NULL && c->ops->held != NULL)
    return c->buf.cap + c->ops->held(c->ctx, c->ev_user);
  return c->buf.cap + c->ev_bytes;
}
