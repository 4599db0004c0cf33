/* server.h - `sgf serve`: the server's state, shared by its parts:
 * server.c (listening, clients' life, signals, limits), raw.c (a raw TCP
 * client: its stream is one conn), http.c (an HTTP/1.1 client: each
 * POST's body is one conn), stats.c (the counters as JSON).
 *
 * A client's handles are its TCP handle and its idle timer; it is freed
 * once both are closed and every game it handed to the sink has been
 * acknowledged (ack.cl is still valid in the sink's callback).
 */
#ifndef SGF_SERVE_SERVER_H
#define SGF_SERVE_SERVER_H

#include <stdint.h>

#include <uv.h>

#include "bytebuf.h"
#include "conn.h"
#include "sink.h"

typedef struct server_opts {
  const char *listen, *http; /* ADDR:PORT, or NULL */
  const char *log, *sink_path, *quarantine;
  int sink_kind, fmt, strict;
  unsigned max_conn;
  uint64_t max_game_bytes, max_games, max_memory;
  uint64_t idle_ms;
  size_t sink_high;
} server_opts;

typedef struct stats {
  uint64_t connections, refused, bytes_in, games_stored, bytes_stored;
  uint64_t games_quarantined, warnings, limits_hit, http_requests;
  uint64_t pauses, store_failures;
} stats;

struct client;
struct http_state;

typedef struct server {
  uv_loop_t *loop;
  server_opts opt;
  uv_tcp_t raw_l, http_l;
  int raw_on, http_on;
  uv_signal_t sig_int, sig_term, sig_hup;
  uv_timer_t flush_t;
  uv_check_t ack_chk; /* writes the acknowledgements gathered (client_ack) */
  struct client *ack_head;
  sink *sink, *quar;
  struct client *clients; /* list */
  unsigned nclients;
  uint64_t next_id;
  size_t held; /* bytes the clients' conns hold */
  int stopping;
  stats st;
  char rbuf[65536];
} server;

typedef struct client {
  uv_tcp_t tcp; /* first: the handle is the client */
  uv_timer_t idle;
  server *srv;
  struct client *next, *prev;
  uint64_t id;
  char peer[80];
  int is_http;
  char sniff[4]; /* a raw port's first bytes: an HTTP method? */
  int nsniff, sniffed;
  conn c;
  int conn_live;
  size_t held; /* conn_held() last counted in srv->held */
  sink_waiter wait;
  int reading, eof, closing, finished, handles;
  unsigned inflight;
  uint64_t stored, quarantined, bytes;
  struct http_state *http;
  bytebuf acks; /* client_ack's lines, not yet written */
  struct client *ack_next, *ack_prev;
  int ack_queued;
} client;

/* A game handed to the sink, for its acknowledgement. */
typedef struct gack {
  client *cl;
  uint64_t index, offset, len;
} gack;

/* server.c */
int server_run(const server_opts *opt);
void client_read_start(client *cl);
void client_read_stop(client *cl);
void client_touch(client *cl); /* bytes came: restart the idle timer */
void client_close(client *cl);
/* Close once what was written has gone (uv_shutdown first). */
void client_end(client *cl);
void client_maybe_free(client *cl);
/* The conn's buffer changed size: recount srv->held. Returns 1 when the
 * total memory limit is exceeded. */
int client_count_held(client *cl);
void client_write(client *cl, const char *buf, size_t len);
/* A line written with the others of this turn of the loop (the sink
 * acknowledges games in batches: one write a batch, not one a game);
 * before anything client_write() writes. */
void client_ack(client *cl, const char *line, size_t len);
/* Games: to the sink (returns 1: pause), to the quarantine. */
int server_store(client *cl, const char *buf, size_t len, const conn_game *g,
                 sink_cb cb);
void server_quarantine(client *cl, const char *buf, size_t len, uint64_t off,
                       const char *reason);
/* conn_ops' begin and release (ctx: the client): a game converted from
 * its parser events when the sink does that (sink_events). */
void *server_game_events(void *ctx, const sgf_callbacks **ev, size_t *bytes);
void server_game_done(void *ctx, void *user);
const conn_limits *server_limits(const server *s, conn_limits *l);

/* raw.c */
void raw_start(client *cl);
void raw_stop(client *cl); /* the server is stopping */
void raw_read(client *cl, const char *buf, ssize_t n);

/* http.c */
void http_start(client *cl);
void http_stop(client *cl);
void http_read(client *cl, const char *buf, ssize_t n);
void http_free(client *cl);

/* stats.c */
void stats_json(const server *s, char *buf, size_t cap);

#endif /* SGF_SERVE_SERVER_H */
