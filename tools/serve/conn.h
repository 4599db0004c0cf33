/* conn.h - the per-connection state machine of `sgf serve`: bytes in, in
 * any split, games out. Knows no sockets (test/fuzz/fuzz_serve_conn.c
 * drives it with bytes alone).
 *
 * Every byte fed is appended to one buffer (the game cutter, cutter.h)
 * that holds the stream from the '(' of the game being read (or, between
 * games, from the first byte the parser may still name) on; the parser
 * reads from it. A game is complete at its top-level ')': its bytes,
 * exactly as received, go to ops->game(). When that says the sink
 * is behind, the parser is paused (the core's SGF_PAUSE) and further
 * bytes are only kept, not parsed, until conn_resume(): the caller stops
 * reading the connection then, so what is kept is at most one read.
 *
 * A game the input ends inside, one the parser stops in (a fatal error, or
 * any error in strict mode) and one over the size limit go to
 * ops->abandon() with the reason: never to ops->game().
 */
#ifndef SGF_SERVE_CONN_H
#define SGF_SERVE_CONN_H

#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>

#include "cutter.h"

enum {
  CONN_OK = 0, /* go on feeding */
  CONN_PAUSED, /* the sink is behind: keep feeding nothing, conn_resume() */
  CONN_DONE    /* no more input is wanted (c->why says why) */
};

typedef struct conn_game {
  uint64_t index;  /* games of this stream so far, from 0 */
  uint64_t offset; /* the '(' in the stream */
  sgf_pos pos;
  void *ev_user; /* what saw the game's events (ops->begin), or NULL */
} conn_game;

typedef struct conn_ops {
  /* A complete game. Returns 0, or 1 when the sink is behind (pause). */
  int (*game)(void *ctx, const char *buf, size_t len, const conn_game *g);
  /* An incomplete or refused game, from its '(' (at off) on. */
  void (*abandon)(void *ctx, const char *buf, size_t len, uint64_t off,
                  const char *reason);
  /* A warning (lenient mode); game: its index, or -1 between games. */
  void (*warning)(void *ctx, const sgf_diag *d, int64_t game);
  /* Optional (NULL): the game's parser events as well, for a sink that
   * converts a game as it is parsed (JSON Lines) instead of parsing its
   * bytes again. begin() at the game's '(' returns the user pointer of
   * the callbacks it sets in *ev (NULL: no events for this game; else
   * the tree, node, property and value handlers all set, on_node_end
   * if wanted, and on_moves when it takes MOVE RUNS: without it a run
   * comes as its events, sgf_run_replay()'s) and the bytes
   * it holds; from that '(' to its ')' each of those events goes to *ev
   * too (before game() sees the game, as g->ev_user); release() once
   * the game is over: after game() or abandon(), or at conn_free(). */
  void *(*begin)(void *ctx, const sgf_callbacks **ev, size_t *bytes);
  void (*release)(void *ctx, void *user);
  /* Optional: what begin's user holds now (it may grow with the game);
   * NULL: the bytes begin() said. */
  size_t (*held)(void *ctx, void *user);
} conn_ops;

typedef struct conn_limits {
  uint64_t max_game_bytes; /* 0: none */
  uint64_t max_games;      /* per stream; 0: none */
  int strict;
} conn_limits;

typedef struct conn {
  const conn_ops *ops;
  void *ctx;
  conn_limits lim;
  sgf_parser *p;
  cutter cut;   /* the stream: the game's bytes, and what is not parsed */
  uint64_t fed; /* stream offset of the next byte for the parser */
  int in_game;
  uint64_t gstart; /* the game's '(' */
  sgf_pos gpos;
  uint64_t games;          /* complete games delivered */
  const sgf_callbacks *ev; /* ops->begin's, for the game being read */
  void *ev_user;
  size_t ev_bytes;
  int paused, done, ending;
  const char *end_reason; /* conn_end()'s, during its finish */
  char why[160];          /* CONN_DONE's reason */
} conn;

/* Returns 0 or -1 (out of memory). The parser is made on first data. */
int conn_init(conn *c, const conn_limits *lim, const conn_ops *ops, void *ctx);
void conn_free(conn *c);
/* Take len more bytes of the stream. */
int conn_feed(conn *c, const char *buf, size_t len);
/* The sink caught up: parse what is kept. */
int conn_resume(conn *c);
/* The end of the stream (after the last conn_feed): a game still open is
 * abandoned. Paused (a limit or a stop cuts it), what is kept unparsed
 * is not parsed: the open game is abandoned with what came of it, and
 * the conn is no longer paused. Returns CONN_DONE. */
int conn_end(conn *c, const char *reason);
/* Bytes held (for the server's memory limit). */
size_t conn_held(const conn *c);

#endif /* SGF_SERVE_CONN_H */
