/* conn.c - a stream of SGF games cut into whole games (conn.h).
 *
 * The game's bytes are cut from the parser's positions, as `sgf split`
 * finds games: the top-level on_tree_begin is at the '(' and the
 * top-level on_tree_end at the ')', by the game cutter (cutter.h): between
 * games it keeps only what the parser may still name of the bytes fed
 * (the '(' of the next game may lie before them).
 *
 * With ops->begin (the JSON Lines sink) this parser's events of each game
 * go to the sink's converter as well, so that a game is parsed once: the
 * parser that splits the stream also feeds the conversion.
 */
#include "conn.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

/* MOVE RUNS (sgfstream/parser.h): to *ev's on_moves, or as the events the run
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
  cutter_begin(&c->cut, c->gstart); /* kept: the cutter saw to it */
  if (c->ops->begin != NULL &&
      (c->ev_user = c->ops->begin(c->ctx, &c->ev, &c->ev_bytes)) != NULL)
    return c->ev->on_tree_begin(p, c->ev_user);
  return SGF_CONTINUE;
}

static void abandon(conn *c, uint64_t end, const char *reason) {
  uint64_t from = c->gstart < c->cut.base ? c->cut.base : c->gstart;
  size_t len;
  const char *b = cutter_gather(&c->cut, from, end, &len);
  c->in_game = 0;
  cutter_end(&c->cut);
  c->ops->abandon(c->ctx, b ? b : "", b ? len : 0, c->gstart, reason);
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
  const char *b;
  size_t len;
  int rc;
  if (c->ev_user && c->ev->on_tree_end(p, c->ev_user) == SGF_ABORT)
    return SGF_ABORT; /* out of memory: stopped() abandons the game */
  if (sgf_parser_depth(p) != 1 || !c->in_game) return SGF_CONTINUE;
  pos = sgf_parser_position(p);
  /* a tree the parser closes at the end of input has no ')' of its own */
  if (cutter_byte(&c->cut, pos.offset) != ')') {
    abandon(c, pos.offset,
            c->ending ? c->end_reason : "the input ended inside the game");
    return SGF_CONTINUE;
  }
  if (c->lim.max_game_bytes &&
      pos.offset + 1 - c->gstart > c->lim.max_game_bytes) {
    too_large(c, pos.offset + 1);
    return SGF_ABORT;
  }
  b = cutter_gather(&c->cut, c->gstart, pos.offset + 1, &len);
  if (b == NULL) { /* not kept: cannot happen */
    abandon(c, pos.offset + 1, "the game's first bytes were lost");
    return SGF_CONTINUE;
  }
  c->in_game = 0;
  cutter_end(&c->cut);
  g.index = c->games++;
  g.offset = c->gstart;
  g.pos = c->gpos;
  g.ev_user = c->ev_user;
  rc = c->ops->game(c->ctx, b, len, &g);
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
  cutter_init(&c->cut);
  return 0;
}

void conn_free(conn *c) {
  ev_release(c);
  sgf_parser_destroy(c->p);
  c->p = NULL;
  cutter_free(&c->cut);
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

/* Drop what neither the game nor the parser needs any more (the bytes
 * not parsed yet are kept: the parser may name them). */
static void trim(conn *c) { cutter_keep(&c->cut, c->p, UINT64_MAX); }

/* Parse the kept bytes from fed on, until paused, done or all parsed. */
static int run(conn *c) {
  while (!c->done && !c->paused && c->fed < cutter_end_offset(&c->cut)) {
    size_t n = (size_t)(cutter_end_offset(&c->cut) - c->fed), used = 0;
    int rc;
    if (n > SLICE) n = SLICE;
    rc =
        sgf_parser_feed(c->p, c->cut.held.p + (c->fed - c->cut.base), n, &used);
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
  if (cutter_add(&c->cut, buf, len) != 0) {
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
  if (c->in_game) abandon(c, cutter_end_offset(&c->cut), reason);
  c->done = 1;
  c->paused = 0; /* ended while paused (a limit, a stop): nothing waits */
  if (c->why[0] == '\0') snprintf(c->why, sizeof c->why, "%s", reason);
  return CONN_DONE;
}

size_t conn_held(const conn *c) {
  if (c->ev_user != NULL && c->ops->held != NULL)
    return c->cut.held.cap + c->ops->held(c->ctx, c->ev_user);
  return c->cut.held.cap + c->ev_bytes;
}
