/* server.h - `sgf serve`: the server's state, shared by its parts:
 * server.c (listening, clients' life, signals, limits), raw.c (a raw TCP
 * client: its stream is one conn), http.c (an HTTP/1.1 client: each
 * POST's body is one conn), stats.c (the counters as JSON).
 *
 * A client's handles are its TCP handle and its idle timer; it is freed
 * once both are closed and every game it handed to the sink has been
 * acknowledged (ack.cl is still valid in the sink's callback).
 *
 * THREADS (--threads N, server.c). With N > 1 there are N worker
 * threads, each a `server` of its own (a shard): its own loop, clients,
 * sink and quarantine objects, acks and timers. The main thread's
 * server listens, takes the signals and the HTTP port's clients, and
 * hands each raw connection's socket to a worker in turn. What the
 * shards share is in their `group`: the connection and memory counts
 * the limits are checked against, the clients' ids, and a lock each
 * stream sink's batch is written under (whole lines in one file). The
 * counters (stats) are atomics, summed over the shards by /stats.
 */
#ifndef SGF_SERVE_SERVER_H
#define SGF_SERVE_SERVER_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "bytebuf.h"
#include "conn.h"
#include "sink.h"

#define RATE_GRACE_MS 5000 /* an HTTP body's rate is checked after this */

typedef struct server_opts {
  const char *listen, *http; /* ADDR:PORT, or NULL */
  const char *log, *sink_path, *quarantine;
  int sink_kind, fmt, strict;
  unsigned max_conn;
  uint64_t max_game_bytes, max_games, max_memory;
  uint64_t idle_ms, max_quarantine;
  uint64_t header_ms; /* an HTTP request's headers, whole (0: none) */
  uint64_t min_rate;  /* an HTTP body's bytes a second (0: none) */
  uint64_t drain_ms;  /* SIGTERM: then what is left is closed */
  int log_games;      /* a log line per game stored */
  int no_fsync;       /* --no-fsync: stream sinks acknowledge once written */
  size_t sink_high;
  unsigned threads; /* workers for raw connections; 0 or 1: none */
} server_opts;

/* Atomic: a shard's counters are read by another's /stats. */
typedef _Atomic uint64_t counter;

typedef struct stats {
  counter connections, refused, bytes_in, games_stored, bytes_stored;
  counter games_quarantined, warnings, limits_hit, http_requests;
  counter pauses, store_failures;
  counter timeouts, dropped; /* idle, header, body rate; not reading */
} stats;

struct client;
struct http_state;
struct server;

/* What the shards share (see THREADS above). */
typedef struct group {
  _Atomic unsigned nclients;
  counter next_id;
  _Atomic size_t held;        /* bytes the conns of every shard hold */
  _Atomic size_t backlog;     /* bytes every sink holds (sink_opts.total) */
  _Atomic unsigned live;      /* workers still running */
  _Atomic uint64_t quar_used; /* bytes in the quarantine directory */
  uv_mutex_t write_lock;      /* sink_opts.lock */
  struct server **shard;      /* [0] the main thread's, then the workers' */
  unsigned nshards;
} group;

typedef struct server {
  uv_loop_t *loop;
  server_opts opt;
  group *g;
  unsigned index; /* in g->shard */
  /* a worker's: sockets handed to it, and requests (under qlock) */
  uv_thread_t thread;
  uv_async_t wake;
  uv_mutex_t qlock;
  int *fdq;
  size_t nfdq, capfdq;
  int want_stop, want_hup;
  unsigned next_worker; /* the main thread's: round robin */
  uv_tcp_t raw_l, http_l;
  int raw_on, http_on;
  uv_signal_t sig_int, sig_term, sig_hup;
  uv_timer_t flush_t;
  uv_timer_t drain_t;            /* SIGTERM's --drain-timeout */
  int drain_on, drained;         /* drained: the timeout passed */
  uint64_t summary_at;           /* uv_now of the last summary line */
  uint64_t sum_games, sum_bytes; /* stored at the last summary */
  _Atomic int trim_due;          /* memory to give back once idle */
  uv_check_t ack_chk; /* writes the acknowledgements gathered (client_ack) */
  struct client *ack_head;
  sink *sink, *quar;
  struct client *clients; /* list */
  unsigned nclients;      /* this shard's; g->nclients counts them all */
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
  int counted;   /* in g->nclients before it came (handed on) */
  char sniff[4]; /* a raw port's first bytes: an HTTP method? */
  int nsniff, sniffed;
  conn c;
  int conn_live;
  size_t held; /* conn_held() last counted in srv->held */
  sink_waiter wait;
  int reading, eof, closing, handles;
  int timed_out;      /* idle: its stream ended (raw), no second time */
  int closed;         /* uv_close called (closing: a shutdown may come first) */
  int begun;          /* past the limits: its close is logged */
  int admin_only;     /* over a limit: GET /health and /stats only */
  int out_paused;     /* its answers pile up: not read till they drain */
  size_t out;         /* bytes of answers not yet written */
  uint64_t out_since; /* uv_now: paused for them, or ending */
  uint64_t last_in, req_start, body_start, body_bytes; /* uv_now, bytes */
  uint64_t requests;
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
void client_touch(client *cl); /* bytes came: the idle timer starts anew */
/* The timer's next deadline (idle, an HTTP request's headers or body
 * rate), from now: call when one of them changes. */
void client_arm(client *cl);
void client_close(client *cl);
/* Close once what was written has gone (uv_shutdown first). */
void client_end(client *cl);
void client_maybe_free(client *cl);
/* The conn's buffer changed size: recount g->held. Returns 1 when the
 * total memory limit is exceeded. */
int client_count_held(client *cl);
void client_write(client *cl, const char *buf, size_t len);
/* A line written with the others of this turn of the loop (the sink
 * acknowledges games in batches: one write a batch, not one a game);
 * before anything client_write() writes. */
void client_ack(client *cl, const char *line, size_t len);
/* The client's answers are over its share (it does not read them):
 * reading stops till they drain. 1: paused. */
int client_out_full(client *cl);
/* Games: to the sink (returns 1: pause), to the quarantine. */
int server_store(client *cl, const char *buf, size_t len, const conn_game *g,
                 sink_cb cb);
/* Returns 0, or -1 when the quarantine is full (--max-quarantine): the
 * game is not kept (logged), and the caller must say so. */
int server_quarantine(client *cl, const char *buf, size_t len, uint64_t off,
                      const char *reason);
/* conn_ops' begin and release (ctx: the client): a game converted from
 * its parser events when the sink does that (sink_events). */
void *server_game_events(void *ctx, const sgf_callbacks **ev, size_t *bytes);
void server_game_done(void *ctx, void *user);
size_t server_game_held(void *ctx, void *user); /* conn_ops' held */
const conn_limits *server_limits(const server *s, conn_limits *l);

/* raw.c */
void raw_start(client *cl);
void raw_stop(client *cl);    /* the server is stopping */
void raw_timeout(client *cl); /* idle: the stream ends, with "done" */
void raw_read(client *cl, const char *buf, ssize_t n);

/* http.c */
void http_start(client *cl);
void http_stop(client *cl);
void http_read(client *cl, const char *buf, ssize_t n);
void http_free(client *cl);
void http_pump(client *cl); /* go on as far as the state allows */
/* The timer fired: 1 when the client was closed for a deadline of HTTP's
 * (headers too slow, body under the minimum rate). */
int http_deadline(client *cl, uint64_t now);
/* Bytes of a POST's complete games held until its body has ended. */
size_t http_held(const client *cl);

/* Bytes held by every shard's conns and sinks (--max-memory). */
size_t server_memory(const server *s);

/* stats.c */
void stats_json(const server *s, char *buf, size_t cap);
/* A counter (its offsetof in stats) summed over the shards. */
uint64_t stats_total(const server *s, size_t field);

#endif /* SGF_SERVE_SERVER_H */
