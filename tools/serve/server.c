/* server.c - `sgf serve`'s listening sockets, clients' life, signals,
 * limits and threads (server.h). A loop per shard does everything for
 * its clients; the sinks' writes and the directories' fsyncs run in
 * libuv's pool.
 *
 * THREADS. One loop parses and converts about 150 MB of SGF into JSON
 * Lines a CPU second: more needs more cores. With --threads N > 1 the
 * main thread accepts the raw port's connections and hands each socket
 * (a dup of the accepted one) to the next worker by uv_async; a worker
 * is the single-loop server over again for its clients. The main
 * thread keeps the HTTP port (its POSTs are small) and the signals,
 * which it passes on to the workers the same way.
 *
 * STOPPING (SIGINT, SIGTERM). The listeners close; every client stops
 * reading; what a client had received is parsed to its end (the sink may
 * pause it meanwhile), a game left open is quarantined, and the client
 * is closed once the sink has acknowledged its games. When the last
 * client is gone and the sink is idle the loop ends and serve exits 0.
 * What has not drained after --drain-timeout (a client that does not
 * read its answers, a body paused by a slow sink) is closed, with a log
 * line; one second later, if a sink still has not written what it holds,
 * the process exits 2 without waiting for it.
 *
 * BOUNDS. A client's answers not yet written count in --max-memory;
 * past OUT_HIGH the client is not read until they are down to OUT_LOW
 * (it sends nothing more to answer), and if it still takes nothing in
 * the idle timeout it is closed. Each client has one timer, armed for
 * its nearest deadline (idle, an HTTP request's headers, a body's rate,
 * a last answer's delivery) and re-armed when it fires early: bytes
 * coming in only note the time.
 */
#define _POSIX_C_SOURCE 200809L

#include "server.h"

#include "log.h"

#include <fcntl.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "ADDR:PORT" or "[ADDR]:PORT" into an address. Returns 0 or -1. */
static int parse_addr(const char *s, struct sockaddr_storage *ss) {
  char host[128];
  const char *colon = strrchr(s, ':');
  size_t n;
  int port;
  char *end;
  if (colon == NULL) return -1;
  port = (int)strtol(colon + 1, &end, 10);
  if (*end != '\0' || colon[1] == '\0' || port < 0 || port > 65535) return -1;
  n = (size_t)(colon - s);
  if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
    s++;
    n -= 2;
  }
  if (n == 0 || n >= sizeof host) return -1;
  memcpy(host, s, n);
  host[n] = '\0';
  if (uv_ip4_addr(host, port, (struct sockaddr_in *)ss) == 0) return 0;
  if (uv_ip6_addr(host, port, (struct sockaddr_in6 *)ss) == 0) return 0;
  return -1;
}

static void name_addr(const struct sockaddr_storage *ss, char *buf,
                      size_t cap) {
  char ip[64] = "?";
  int port = 0;
  if (ss->ss_family == AF_INET6) {
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
    uv_ip6_name(a, ip, sizeof ip);
    port = ntohs(a->sin6_port);
    snprintf(buf, cap, "[%s]:%d", ip, port);
    return;
  }
  uv_ip4_name((const struct sockaddr_in *)ss, ip, sizeof ip);
  port = ntohs(((const struct sockaddr_in *)ss)->sin_port);
  snprintf(buf, cap, "%s:%d", ip, port);
}

const conn_limits *server_limits(const server *s, conn_limits *l) {
  l->max_game_bytes = s->opt.max_game_bytes;
  l->max_games = s->opt.max_games;
  l->strict = s->opt.strict;
  return l;
}

#define OUT_HIGH (256u << 10) /* a client's answers unwritten: pause it */
#define OUT_LOW (64u << 10)   /* and read it again */
#define ADMIN_SLOTS 16        /* HTTP over --max-connections: monitoring */
#define SUMMARY_MS 10000      /* the log's summary line, at most this often */

/* ------------------------------------------------------------ the end */

static void closed_quietly(uv_handle_t *h) { (void)h; }

#define SUM(f) stats_total(s, offsetof(stats, f))

static void log_stopped(server *s, const char *extra) {
  slog("stopped: %" PRIu64 " games stored, %" PRIu64 " quarantined, %" PRIu64
       " store failures, %" PRIu64 " limits hit (%" PRIu64 " refused, %" PRIu64
       " timeouts, %" PRIu64 " clients dropped)%s",
       SUM(games_stored), SUM(games_quarantined), SUM(store_failures),
       SUM(limits_hit), SUM(refused), SUM(timeouts), SUM(dropped), extra);
}

static void maybe_exit(server *s) {
  if (!s->stopping || s->clients != NULL || !sink_idle(s->sink) ||
      !sink_idle(s->quar))
    return;
  if (s->index > 0) { /* a worker: its loop ends */
    uv_close((uv_handle_t *)&s->wake, closed_quietly);
    uv_close((uv_handle_t *)&s->flush_t, closed_quietly);
    uv_close((uv_handle_t *)&s->ack_chk, closed_quietly);
    uv_close((uv_handle_t *)&s->drain_t, closed_quietly);
    return;
  }
  if (atomic_load(&s->g->live) > 0) return; /* the flush timer comes back */
  log_stopped(s, "");
  uv_close((uv_handle_t *)&s->drain_t, closed_quietly);
  uv_close((uv_handle_t *)&s->sig_int, closed_quietly);
  uv_close((uv_handle_t *)&s->sig_term, closed_quietly);
  uv_close((uv_handle_t *)&s->sig_hup, closed_quietly);
  uv_close((uv_handle_t *)&s->flush_t, closed_quietly);
  uv_close((uv_handle_t *)&s->ack_chk, closed_quietly);
}

/* --drain-timeout passed: close what is left (STOPPING above). */
static void on_drain(uv_timer_t *t) {
  server *s = t->data;
  client *cl, *next;
  if (s->drained) { /* the main thread, a second later: a sink is stuck */
    char extra[96];
    snprintf(extra, sizeof extra, " (drain timeout: %zu bytes not written)",
             atomic_load(&s->g->backlog));
    log_stopped(s, extra);
    slog_flush();
    _exit(2); /* a pool thread may be stuck in write(2): no waiting */
  }
  s->drained = 1;
  for (cl = s->clients; cl != NULL; cl = next) {
    next = cl->next;
    if (cl->closed) continue;
    s->st.dropped++;
    slog("drain timeout: %s #%" PRIu64 " closed, %u games unacknowledged%s",
         cl->peer, cl->id, cl->inflight,
         cl->out_paused || cl->closing ? " (its answers were not read)"
         : cl->wait.waiting            ? " (paused by the sink)"
                                       : "");
    if (cl->conn_live && !cl->c.done)
      conn_end(&cl->c, "the server stopped inside the game");
    client_close(cl);
  }
  if (s->index == 0) uv_timer_start(t, on_drain, 1000, 0);
  maybe_exit(s);
}

/* Stop reading, finish what was received (STOPPING above). */
static void stop_clients(server *s) {
  client *cl, *next;
  s->stopping = 1;
  if (s->opt.drain_ms)
    uv_timer_start(&s->drain_t, on_drain, s->opt.drain_ms, 0);
  for (cl = s->clients; cl != NULL; cl = next) {
    next = cl->next;
    if (cl->is_http)
      http_stop(cl);
    else
      raw_stop(cl);
  }
  maybe_exit(s);
}

/* Ask every worker to stop (or reopen its sink): their wake handler. */
static void tell_workers(server *s, int stop) {
  unsigned i;
  for (i = 1; i < s->g->nshards; i++) {
    server *w = s->g->shard[i];
    uv_mutex_lock(&w->qlock);
    if (stop)
      w->want_stop = 1;
    else
      w->want_hup = 1;
    uv_mutex_unlock(&w->qlock);
    uv_async_send(&w->wake);
  }
}

static void on_signal(uv_signal_t *h, int signum) {
  server *s = h->data;
  if (signum == SIGHUP) {
    slog("SIGHUP: reopening the log and the sink");
    slog_reopen();
    sink_reopen(s->sink);
    /* stopping, a worker may have closed its wake already: its sink
     * is closed when it is done anyway */
    if (!s->stopping) tell_workers(s, 0);
    return;
  }
  if (s->stopping) return;
  slog("%s: stopping (%u clients)", signum == SIGINT ? "SIGINT" : "SIGTERM",
       atomic_load(&s->g->nclients));
  if (s->raw_on) uv_close((uv_handle_t *)&s->raw_l, closed_quietly);
  if (s->http_on) uv_close((uv_handle_t *)&s->http_l, closed_quietly);
  /* after the listener's close: no socket is handed on after the stop */
  tell_workers(s, 1);
  stop_clients(s);
}

/* ------------------------------------------------------------ clients */

/* The idle timeout, or 60 s with none: a client's last chance to take
 * its answers. */
static uint64_t patience(const server *s) {
  return s->opt.idle_ms ? s->opt.idle_ms : 60000;
}

static void on_timer(uv_timer_t *t) {
  client *cl = t->data;
  server *s = cl->srv;
  uint64_t now = uv_now(s->loop);
  if (cl->closed) return;
  if (cl->closing || cl->out_paused) {
    if (now - cl->out_since < patience(s)) {
      client_arm(cl);
      return;
    }
    s->st.limits_hit++;
    s->st.dropped++;
    slog("limit hit: %s #%" PRIu64 ": its answers not read for %" PRIu64
         " ms (%zu bytes waiting): closed",
         cl->peer, cl->id, patience(s), cl->out);
    if (cl->conn_live && !cl->c.done)
      conn_end(&cl->c, "the client did not read its answers");
    client_close(cl);
    return;
  }
  if (cl->is_http && http_deadline(cl, now)) return;
  if (cl->wait.waiting) cl->last_in = now; /* waiting is not idling */
  if (s->opt.idle_ms && !cl->timed_out && now - cl->last_in >= s->opt.idle_ms) {
    s->st.limits_hit++;
    s->st.timeouts++;
    slog("limit hit: %s idle for %" PRIu64 " ms: closed", cl->peer,
         s->opt.idle_ms);
    if (!cl->is_http) {
      cl->timed_out = 1; /* it ends once its games are acknowledged */
      raw_timeout(cl);
      return;
    }
    if (cl->conn_live && !cl->c.done)
      conn_end(&cl->c, "idle timeout inside the game");
    client_close(cl);
    return;
  }
  client_arm(cl);
}

void client_arm(client *cl) {
  server *s = cl->srv;
  uint64_t now = uv_now(s->loop), due = UINT64_MAX;
  if (cl->closed) return;
  if (cl->closing || cl->out_paused) {
    due = cl->out_since + patience(s);
  } else {
    if (s->opt.idle_ms && !cl->timed_out) due = cl->last_in + s->opt.idle_ms;
    if (cl->req_start && s->opt.header_ms &&
        cl->req_start + s->opt.header_ms < due)
      due = cl->req_start + s->opt.header_ms;
    if (cl->body_start && s->opt.min_rate && now + 1000 < due) due = now + 1000;
  }
  if (due == UINT64_MAX) {
    uv_timer_stop(&cl->idle);
    return;
  }
  uv_timer_start(&cl->idle, on_timer, due > now ? due - now : 0, 0);
}

void client_touch(client *cl) { cl->last_in = uv_now(cl->srv->loop); }

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b) {
  client *cl = (client *)h;
  (void)hint;
  *b = uv_buf_init(cl->srv->rbuf, sizeof cl->srv->rbuf);
}

void client_read_stop(client *cl) {
  if (!cl->reading) return;
  cl->reading = 0;
  uv_read_stop((uv_stream_t *)&cl->tcp);
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b);

void client_read_start(client *cl) {
  if (cl->reading || cl->closing || cl->eof || cl->srv->stopping ||
      cl->out_paused)
    return;
  if (uv_read_start((uv_stream_t *)&cl->tcp, on_alloc, on_read) == 0)
    cl->reading = 1;
}

/* ------------------------------------------------------------ acks
 * client_ack's lines: written once a turn of the loop (the check phase,
 * after the sink's callbacks), or before the client's next write, or
 * its end. */

static void write_now(client *cl, const char *buf, size_t len);

static void ack_unqueue(client *cl) {
  server *s = cl->srv;
  if (!cl->ack_queued) return;
  if (cl->ack_prev)
    cl->ack_prev->ack_next = cl->ack_next;
  else
    s->ack_head = cl->ack_next;
  if (cl->ack_next) cl->ack_next->ack_prev = cl->ack_prev;
  cl->ack_queued = 0;
}

static void ack_flush(client *cl) {
  ack_unqueue(cl);
  if (cl->acks.len == 0) return;
  if (!cl->closing) write_now(cl, cl->acks.p, cl->acks.len);
  cl->acks.len = 0;
}

static void on_ack_check(uv_check_t *h) {
  server *s = h->data;
  while (s->ack_head) ack_flush(s->ack_head);
  uv_check_stop(h);
}

void client_maybe_free(client *cl) {
  server *s = cl->srv;
  if (cl->handles > 0 || cl->inflight > 0) return;
  if (cl->begun && cl->is_http)
    slog("close %s #%" PRIu64 " (http): %" PRIu64 " bytes, %" PRIu64
         " requests, %" PRIu64 " games stored, %" PRIu64 " quarantined",
         cl->peer, cl->id, cl->bytes, cl->requests, cl->stored,
         cl->quarantined);
  else if (cl->begun)
    slog("close %s #%" PRIu64 ": %" PRIu64 " bytes, %" PRIu64
         " games stored, %" PRIu64 " quarantined",
         cl->peer, cl->id, cl->bytes, cl->stored, cl->quarantined);
  ack_unqueue(cl);
  bytebuf_free(&cl->acks);
  if (cl->prev)
    cl->prev->next = cl->next;
  else
    s->clients = cl->next;
  if (cl->next) cl->next->prev = cl->prev;
  s->nclients--;
  if (atomic_fetch_sub(&s->g->nclients, 1) == 1) s->g->shard[0]->trim_due = 1;
  atomic_fetch_sub(&s->g->held, cl->held);
  if (cl->conn_live) conn_free(&cl->c);
  if (cl->is_http) http_free(cl);
  free(cl);
  maybe_exit(s);
}

static void on_close(uv_handle_t *h) {
  client *cl = h->data;
  cl->handles--;
  client_maybe_free(cl);
}

/* Closes a client whose shutdown is waiting too (its answers unread). */
void client_close(client *cl) {
  if (cl->closed) return;
  ack_flush(cl);
  cl->closing = cl->closed = 1;
  client_read_stop(cl);
  sink_unwait(cl->srv->sink, &cl->wait);
  uv_close((uv_handle_t *)&cl->idle, on_close);
  uv_close((uv_handle_t *)&cl->tcp, on_close);
}

static void on_shutdown(uv_shutdown_t *req, int status) {
  client *cl = req->data;
  (void)status;
  free(req);
  client_close(cl);
}

void client_end(client *cl) {
  uv_shutdown_t *req;
  if (cl->closing) return;
  ack_flush(cl);
  client_read_stop(cl);
  sink_unwait(cl->srv->sink, &cl->wait);
  req = malloc(sizeof *req);
  if (req == NULL || uv_shutdown(req, (uv_stream_t *)&cl->tcp, on_shutdown)) {
    free(req);
    client_close(cl);
    return;
  }
  req->data = cl;
  cl->closing = 1;
  if (!cl->out_paused) cl->out_since = uv_now(cl->srv->loop);
  client_arm(cl); /* the answers must be taken in time */
}

size_t server_memory(const server *s) {
  return atomic_load(&s->g->held) + atomic_load(&s->g->backlog);
}

int client_count_held(client *cl) {
  server *s = cl->srv;
  size_t now = (cl->conn_live ? conn_held(&cl->c) : 0) + cl->out +
               cl->acks.cap + http_held(cl);
  if (now > cl->held)
    atomic_fetch_add(&s->g->held, now - cl->held);
  else if (now < cl->held)
    atomic_fetch_sub(&s->g->held, cl->held - now);
  cl->held = now;
  return s->opt.max_memory && server_memory(s) > s->opt.max_memory;
}

typedef struct wreq {
  uv_write_t req;
  size_t cost;
  char data[];
} wreq;

int client_out_full(client *cl) {
  if (cl->out_paused) return 1;
  if (cl->out <= OUT_HIGH || cl->closing) return 0;
  cl->out_paused = 1;
  cl->out_since = uv_now(cl->srv->loop);
  client_read_stop(cl);
  client_arm(cl);
  return 1;
}

static void on_written(uv_write_t *req, int status) {
  wreq *w = (wreq *)req;
  client *cl = req->handle->data;
  (void)status; /* a client gone: nothing to tell it */
  cl->out -= w->cost;
  free(req);
  if (cl->out_paused && cl->out <= OUT_LOW && !cl->closing) {
    cl->out_paused = 0; /* it reads again: so do we */
    client_count_held(cl);
    client_arm(cl);
    if (cl->is_http)
      http_pump(cl);
    else if (cl->conn_live && !cl->c.paused && !cl->c.done)
      client_read_start(cl);
  } else if (cl->out == 0 || cl->out_paused) {
    client_count_held(cl);
  }
}

static void write_now(client *cl, const char *buf, size_t len) {
  wreq *w;
  uv_buf_t b;
  w = malloc(sizeof *w + len);
  if (w == NULL) return;
  memcpy(w->data, buf, len);
  w->cost = sizeof *w + len;
  b = uv_buf_init(w->data, (unsigned)len);
  if (uv_write(&w->req, (uv_stream_t *)&cl->tcp, &b, 1, on_written) != 0) {
    free(w);
    return;
  }
  cl->out += w->cost;
  if (cl->out > OUT_HIGH) client_out_full(cl);
}

void client_write(client *cl, const char *buf, size_t len) {
  if (cl->closing) return;
  ack_flush(cl);
  write_now(cl, buf, len);
}

void client_ack(client *cl, const char *line, size_t len) {
  server *s = cl->srv;
  if (cl->closing) return;
  bytebuf_add(&cl->acks, line, len);
  if (cl->ack_queued) return;
  cl->ack_queued = 1;
  cl->ack_prev = NULL;
  cl->ack_next = s->ack_head;
  if (s->ack_head) s->ack_head->ack_prev = cl;
  s->ack_head = cl;
  uv_check_start(&s->ack_chk, on_ack_check);
}

/* Does a raw connection's first read begin an HTTP request? */
static int looks_http(const char *b, int n) {
  static const char *const methods[] = {"GET ", "POST", "HEAD",
                                        "PUT ", "DELE", "OPTI"};
  size_t i;
  if (n < 4) return 0;
  for (i = 0; i < sizeof methods / sizeof *methods; i++)
    if (memcmp(b, methods[i], 4) == 0) return 1;
  return 0;
}

/* The first 4 bytes of a raw port's connection decide: an HTTP method
 * makes it an HTTP client. They are kept until there are 4 (or the end). */
static void sniff(client *cl, const char *buf, ssize_t n) {
  size_t take = n > 0 ? (size_t)n : 0;
  if (take > 4 - (size_t)cl->nsniff) take = 4 - (size_t)cl->nsniff;
  memcpy(cl->sniff + cl->nsniff, buf, take);
  cl->nsniff += (int)take;
  if (cl->nsniff < 4 && n >= 0) return;
  cl->sniffed = 1;
  if (looks_http(cl->sniff, cl->nsniff)) {
    conn_free(&cl->c);
    cl->conn_live = 0;
    cl->is_http = 1;
    http_start(cl);
    http_read(cl, cl->sniff, cl->nsniff);
  } else if (cl->nsniff > 0) {
    raw_read(cl, cl->sniff, cl->nsniff);
  }
  if (n > 0 && (size_t)n > take) {
    if (cl->is_http)
      http_read(cl, buf + take, n - (ssize_t)take);
    else
      raw_read(cl, buf + take, n - (ssize_t)take);
  } else if (n < 0) {
    if (cl->is_http)
      http_read(cl, buf, n);
    else
      raw_read(cl, buf, n);
  }
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b) {
  client *cl = (client *)st;
  if (n > 0) {
    cl->bytes += (uint64_t)n;
    cl->srv->st.bytes_in += (uint64_t)n;
    client_touch(cl);
  }
  if (n != 0 && !cl->is_http && !cl->sniffed) {
    sniff(cl, b->base, n);
    return;
  }
  if (cl->is_http)
    http_read(cl, b->base, n);
  else
    raw_read(cl, b->base, n);
}

/* A client of shard s, its handles open, its socket not yet given.
 * counted: g->nclients counts it already (a socket handed on). */
static client *client_new(server *s, int is_http, int counted) {
  client *cl = calloc(1, sizeof *cl);
  if (cl == NULL) return NULL;
  cl->srv = s;
  uv_tcp_init(s->loop, &cl->tcp);
  uv_timer_init(s->loop, &cl->idle);
  cl->tcp.data = cl->idle.data = cl;
  cl->handles = 2;
  cl->is_http = is_http;
  cl->id = atomic_fetch_add(&s->g->next_id, 1) + 1;
  cl->next = s->clients;
  if (s->clients) s->clients->prev = cl;
  s->clients = cl;
  s->nclients++;
  if (!counted) atomic_fetch_add(&s->g->nclients, 1);
  cl->counted = counted;
  return cl;
}

/* The client's socket is open: the limits, then its protocol. */
static void client_begin(client *cl) {
  server *s = cl->srv;
  int is_http = cl->is_http;
  struct sockaddr_storage ss;
  int len = sizeof ss;
  memset(&ss, 0, sizeof ss);
  uv_tcp_getpeername(&cl->tcp, (struct sockaddr *)&ss, &len);
  name_addr(&ss, cl->peer, sizeof cl->peer);
  s->st.connections++;
  /* HTTP over a limit: a few more, for GET /health and /stats only */
  if (is_http &&
      ((s->opt.max_conn && atomic_load(&s->g->nclients) > s->opt.max_conn &&
        atomic_load(&s->g->nclients) <= s->opt.max_conn + ADMIN_SLOTS) ||
       (s->opt.max_memory && server_memory(s) > s->opt.max_memory)))
    cl->admin_only = 1;
  if (!cl->counted && s->opt.max_conn &&
      atomic_load(&s->g->nclients) > s->opt.max_conn + is_http * ADMIN_SLOTS) {
    s->st.limits_hit++;
    s->st.refused++;
    slog("limit hit: %s refused: %u connections (--max-connections)", cl->peer,
         s->opt.max_conn);
    client_close(cl);
    return;
  }
  if (s->opt.max_memory && server_memory(s) > s->opt.max_memory && !is_http) {
    s->st.limits_hit++;
    s->st.refused++;
    slog("limit hit: %s refused: memory over %" PRIu64 " bytes (--max-memory)",
         cl->peer, s->opt.max_memory);
    client_close(cl);
    return;
  }
  slog("connect %s #%" PRIu64 "%s%s", cl->peer, cl->id,
       is_http ? " (http)" : "",
       cl->admin_only ? ", over a limit: GET /health and /stats only" : "");
  cl->begun = 1;
  client_touch(cl);
  client_arm(cl);
  if (is_http)
    http_start(cl);
  else
    raw_start(cl);
}

static void accept_one(uv_stream_t *l, int status, int is_http) {
  server *s = l->data;
  client *cl;
  if (status < 0) {
    slog("accept: %s", uv_strerror(status));
    return;
  }
  if ((cl = client_new(s, is_http, 0)) == NULL) return;
  if (uv_accept(l, (uv_stream_t *)&cl->tcp) != 0) {
    client_close(cl);
    return;
  }
  client_begin(cl);
}

/* A raw connection for a worker: its socket, duplicated out of the main
 * loop's handle (closed here), goes on the worker's queue. */
static int hand_on(uv_stream_t *l) {
  server *s = l->data, *w;
  uv_tcp_t *t;
  uv_os_fd_t fd;
  int dup_fd;
  if ((t = malloc(sizeof *t)) == NULL) return -1;
  uv_tcp_init(s->loop, t);
  if (uv_accept(l, (uv_stream_t *)t) != 0 || uv_fileno((uv_handle_t *)t, &fd) ||
      (dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0) {
    uv_close((uv_handle_t *)t, (uv_close_cb)free);
    return -1;
  }
  uv_close((uv_handle_t *)t, (uv_close_cb)free);
  w = s->g->shard[1 + s->next_worker++ % (s->g->nshards - 1)];
  uv_mutex_lock(&w->qlock);
  if (w->nfdq == w->capfdq) {
    size_t cap = w->capfdq ? 2 * w->capfdq : 64;
    int *q = realloc(w->fdq, cap * sizeof *q);
    if (q == NULL) {
      uv_mutex_unlock(&w->qlock);
      close(dup_fd);
      return -1;
    }
    w->fdq = q;
    w->capfdq = cap;
  }
  w->fdq[w->nfdq++] = dup_fd;
  uv_mutex_unlock(&w->qlock);
  uv_async_send(&w->wake);
  return 0;
}

/* With workers, --max-connections is checked here, in the order of the
 * accepts: a connection over it is refused by the main thread, one under
 * it counted before it is handed on (a worker does not count again). */
static void on_raw(uv_stream_t *l, int status) {
  server *s = l->data;
  group *g = s->g;
  unsigned n = atomic_load(&g->nclients);
  if (g->nshards == 1 || status < 0 ||
      (s->opt.max_conn && n >= s->opt.max_conn)) {
    accept_one(l, status, 0);
    return;
  }
  atomic_fetch_add(&g->nclients, 1);
  if (hand_on(l) != 0) atomic_fetch_sub(&g->nclients, 1);
}

static void on_http(uv_stream_t *l, int status) { accept_one(l, status, 1); }

/* A worker's wake: the sockets handed to it, then a stop or a SIGHUP. */
static void on_wake(uv_async_t *h) {
  server *s = h->data;
  int *q, stop, hup;
  size_t n, i;
  uv_mutex_lock(&s->qlock);
  q = s->fdq;
  n = s->nfdq;
  s->fdq = NULL;
  s->nfdq = s->capfdq = 0;
  stop = s->want_stop;
  hup = s->want_hup;
  s->want_hup = 0;
  uv_mutex_unlock(&s->qlock);
  for (i = 0; i < n; i++) {
    client *cl = client_new(s, 0, 1);
    if (cl == NULL) {
      atomic_fetch_sub(&s->g->nclients, 1);
      close(q[i]);
      continue;
    }
    if (uv_tcp_open(&cl->tcp, q[i]) != 0) {
      close(q[i]);
      client_close(cl);
      continue;
    }
    client_begin(cl);
  }
  free(q);
  if (hup) sink_reopen(s->sink);
  if (stop && !s->stopping) stop_clients(s);
}

/* ------------------------------------------------------------ games */

int server_store(client *cl, const char *buf, size_t len, const conn_game *g,
                 sink_cb cb) {
  server *s = cl->srv;
  gack *a = malloc(sizeof *a);
  int behind;
  if (a == NULL) return 1;
  a->cl = cl;
  a->index = g->index;
  a->offset = g->offset;
  a->len = len;
  cl->inflight++;
  if (g->ev_user != NULL)
    behind = sink_put_events(s->sink, g->ev_user, cb, a);
  else
    behind = sink_put(s->sink, buf, len, cl->peer, cb, a);
  if (behind) s->st.pauses++;
  return behind;
}

void *server_game_events(void *ctx, const sgf_callbacks **ev, size_t *bytes) {
  client *cl = ctx;
  return sink_events(cl->srv->sink, cl->peer, ev, bytes);
}

void server_game_done(void *ctx, void *user) {
  client *cl = ctx;
  sink_events_done(cl->srv->sink, user);
}

size_t server_game_held(void *ctx, void *user) {
  (void)ctx;
  return sink_events_held(user);
}

int server_quarantine(client *cl, const char *buf, size_t len, uint64_t off,
                      const char *reason) {
  server *s = cl->srv;
  if (sink_reserve(s->quar, len) != 0) {
    s->st.limits_hit++;
    slog("limit hit: %s #%" PRIu64 ": %zu bytes from byte %" PRIu64
         " not kept: the quarantine is full (--max-quarantine %" PRIu64 "): %s",
         cl->peer, cl->id, len, off, s->opt.max_quarantine, reason);
    return -1;
  }
  cl->quarantined++;
  s->st.games_quarantined++;
  slog("quarantined %s #%" PRIu64 ": %zu bytes from byte %" PRIu64 ": %s",
       cl->peer, cl->id, len, off, reason);
  sink_put(s->quar, buf, len, cl->peer, NULL, NULL);
  return 0;
}

/* ------------------------------------------------------------ run */

/* The main thread's, every SUMMARY_MS while games come: what the log
 * says in one line instead of one a game (--log-games). */
static void summary_line(server *s) {
  uint64_t now = uv_now(s->loop), games = SUM(games_stored);
  uint64_t bytes = SUM(bytes_stored);
  if (now - s->summary_at < SUMMARY_MS || games == s->sum_games) return;
  slog("summary: %" PRIu64 " games stored (%" PRIu64 " bytes) in %" PRIu64
       " ms; in all %" PRIu64 " stored, %" PRIu64 " quarantined, %" PRIu64
       " store failures, %" PRIu64 " limits hit; %u connections open",
       games - s->sum_games, bytes - s->sum_bytes, now - s->summary_at, games,
       SUM(games_quarantined), SUM(store_failures), SUM(limits_hit),
       atomic_load(&s->g->nclients));
  s->summary_at = now;
  s->sum_games = games;
  s->sum_bytes = bytes;
}

static void on_flush(uv_timer_t *t) {
  server *s = t->data;
  if (s->index == 0) {
    summary_line(s);
    if (s->trim_due && atomic_load(&s->g->nclients) == 0) {
      s->trim_due = 0;
#ifdef __GLIBC__
      malloc_trim(0); /* the clients are gone: give back what they took */
#endif
    }
  }
  slog_flush();
  maybe_exit(s); /* the sinks' last writes end with no event here */
}

static int listen_on(server *s, uv_tcp_t *h, const char *addr,
                     uv_connection_cb cb, const char *what) {
  struct sockaddr_storage ss;
  char name[80];
  int len = sizeof ss, rc;
  memset(&ss, 0, sizeof ss);
  if (parse_addr(addr, &ss) != 0) {
    fprintf(stderr, "sgf: serve: invalid address '%s' (ADDR:PORT)\n", addr);
    return -1;
  }
  uv_tcp_init(s->loop, h);
  h->data = s;
  rc = uv_tcp_bind(h, (const struct sockaddr *)&ss, 0);
  if (rc == 0) rc = uv_listen((uv_stream_t *)h, 1024, cb);
  if (rc != 0) {
    fprintf(stderr, "sgf: serve: %s: %s\n", addr, uv_strerror(rc));
    uv_close((uv_handle_t *)h, NULL);
    return -1;
  }
  uv_tcp_getsockname(h, (struct sockaddr *)&ss, &len);
  name_addr(&ss, name, sizeof name);
  slog("listening on %s (%s)", name, what);
  return 0;
}

/* A shard's sinks, on its loop. Returns 0 or -1 (said). */
static int shard_sinks(server *s) {
  const server_opts *opt = &s->opt;
  sink_opts so;
  const char *err;
  memset(&so, 0, sizeof so);
  so.kind = opt->sink_kind;
  so.path = opt->sink_path;
  so.fmt = opt->fmt;
  so.high = opt->sink_high;
  so.total = &s->g->backlog;
  so.lock = &s->g->write_lock;
  so.quarantine = opt->quarantine; /* a partial last record found at open */
  so.no_sync = opt->no_fsync;
  s->sink = sink_create(s->loop, &so, &err);
  if (s->sink == NULL) {
    fprintf(stderr, "sgf: serve: sink %s: %s\n",
            opt->sink_path ? opt->sink_path : "stdout", err);
    return -1;
  }
  memset(&so, 0, sizeof so);
  so.kind = SINK_DIR;
  so.path = opt->quarantine;
  so.tag = "q-"; /* not counted in --max-memory, as before the threads */
  so.cap = opt->max_quarantine;
  so.used = &s->g->quar_used;
  s->quar = sink_create(s->loop, &so, &err);
  if (s->quar == NULL) {
    fprintf(stderr, "sgf: serve: quarantine %s: %s\n", opt->quarantine, err);
    return -1;
  }
  return 0;
}

static void shard_free(server *s) {
  if (s == NULL) return;
  sink_destroy(s->sink);
  sink_destroy(s->quar);
  if (s->index > 0) {
    uv_mutex_destroy(&s->qlock);
    free(s->fdq);
    if (s->loop) {
      uv_loop_close(s->loop);
      free(s->loop);
    }
  }
  free(s);
}

/* A worker: its own loop, till it has stopped. */
static void worker_main(void *arg) {
  server *s = arg;
  uv_run(s->loop, UV_RUN_DEFAULT);
  atomic_fetch_sub(&s->g->live, 1);
}

static server *shard_new(group *g, unsigned i, const server_opts *opt) {
  server *s = calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  g->shard[i] = s;
  s->g = g;
  s->index = i;
  s->opt = *opt;
  if (i == 0) {
    s->loop = uv_default_loop();
  } else {
    if ((s->loop = malloc(sizeof *s->loop)) == NULL ||
        uv_loop_init(s->loop) != 0) {
      free(s->loop);
      s->loop = NULL;
      return NULL;
    }
    uv_mutex_init(&s->qlock);
    uv_async_init(s->loop, &s->wake, on_wake);
    s->wake.data = s;
  }
  if (shard_sinks(s) != 0) return NULL;
  uv_timer_init(s->loop, &s->flush_t);
  s->flush_t.data = s;
  uv_timer_start(&s->flush_t, on_flush, 200, 200);
  uv_check_init(s->loop, &s->ack_chk);
  s->ack_chk.data = s;
  uv_timer_init(s->loop, &s->drain_t);
  s->drain_t.data = s;
  s->summary_at = uv_now(s->loop);
  return s;
}

/* A shard made (or half made) but never run: close its handles. */
static void shard_unrun(server *s) {
  if (s->index > 0) uv_close((uv_handle_t *)&s->wake, NULL);
  if (s->flush_t.data) {
    uv_close((uv_handle_t *)&s->flush_t, NULL);
    uv_close((uv_handle_t *)&s->ack_chk, NULL);
    uv_close((uv_handle_t *)&s->drain_t, NULL);
  }
  uv_run(s->loop, UV_RUN_NOWAIT);
}

int server_run(const server_opts *opt) {
  group g;
  server *s;
  unsigned i, started = 0, n = opt->threads > 1 ? opt->threads + 1 : 1;
  int status = 2;
  memset(&g, 0, sizeof g);
#ifdef __GLIBC__
  /* Fixed thresholds (glibc raises them after large frees otherwise):
   * a large buffer (a long game's, a converter's) is unmapped when freed
   * and a thread's heap trimmed, so what a burst took is given back. */
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  mallopt(M_TRIM_THRESHOLD, 4 << 20);
#endif
  if (opt->listen == NULL) n = 1; /* the workers are for raw connections */
  g.shard = calloc(n, sizeof *g.shard);
  if (g.shard == NULL) return 2;
  g.nshards = n;
  uv_mutex_init(&g.write_lock);
  if (slog_open(opt->log) != 0) {
    fprintf(stderr, "sgf: serve: %s: cannot open the log\n", opt->log);
    goto out;
  }
  for (i = 0; i < n; i++)
    if (shard_new(&g, i, opt) == NULL) break;
  s = g.shard[0];
  if (i < n) goto unrun;
  if (opt->listen &&
      listen_on(s, &s->raw_l, opt->listen, on_raw, "raw SGF") != 0)
    goto unrun;
  s->raw_on = opt->listen != NULL;
  if (opt->http && listen_on(s, &s->http_l, opt->http, on_http, "HTTP") != 0)
    goto unrun;
  s->http_on = opt->http != NULL;
  if (n > 1) slog("%u threads for raw connections", n - 1);
  uv_signal_init(s->loop, &s->sig_int);
  uv_signal_init(s->loop, &s->sig_term);
  uv_signal_init(s->loop, &s->sig_hup);
  s->sig_int.data = s->sig_term.data = s->sig_hup.data = s;
  uv_signal_start(&s->sig_int, on_signal, SIGINT);
  uv_signal_start(&s->sig_term, on_signal, SIGTERM);
  uv_signal_start(&s->sig_hup, on_signal, SIGHUP);
  for (started = 1; started < n; started++) {
    atomic_fetch_add(&g.live, 1);
    if (uv_thread_create(&g.shard[started]->thread, worker_main,
                         g.shard[started]) != 0) {
      atomic_fetch_sub(&g.live, 1);
      slog("cannot start a thread: %u threads", started - 1);
      break;
    }
  }
  uv_run(s->loop, UV_RUN_DEFAULT);
  status = 0;
  for (i = 1; i < started; i++) uv_thread_join(&g.shard[i]->thread);
  for (i = 0; i < n; i++)
    if (sink_failures(g.shard[i]->sink)) status = 2;
  goto out;
unrun:
  /* a failed start: close what was opened */
  if (g.shard[0] && g.shard[0]->raw_on)
    uv_close((uv_handle_t *)&g.shard[0]->raw_l, NULL);
  for (i = 0; i < n && g.shard[i] && g.shard[i]->loop; i++)
    shard_unrun(g.shard[i]);
out:
  for (i = 0; i < n; i++) shard_free(g.shard[i]);
  slog_close();
  uv_mutex_destroy(&g.write_lock);
  free(g.shard);
  return status;
}
