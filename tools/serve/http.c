/* http.c - an HTTP/1.1 client of `sgf serve` (nodejs' http-parser reads
 * the requests):
 *
 *   POST /games   the body (Content-Length or chunked) is a stream of
 *                 games, one conn; its complete games are held (counted
 *                 in --max-memory) until the body has ended, then put
 *                 in the sink: a request that does not complete (the
 *                 connection ends, the server stops, a limit cuts it)
 *                 stores nothing. The answer, once the sink has
 *                 acknowledged every game, is a JSON summary:
 *                 {"stored":N,"failed":N,"quarantined":N,"dropped":N,
 *                  "games":[...], "warnings":[...],"rejected":[...]},
 *                 "games" in the body's order
 *   GET /health   {"status":"ok"} (or "stopping")
 *   GET /stats    the counters (stats.c)
 *
 * One request at a time: at the end of a message the parser is paused
 * (http_parser_pause) until the answer is on its way; bytes of a
 * pipelined next request wait in h->rest, and reading stops meanwhile.
 * The body's conn is paused by the sink like a raw stream's; reading
 * stops then too. An answer lists at most MAX_GAMES games (the first
 * of the body; the rest counted, the last named): its size is bounded
 * whatever the body. "Expect: 100-continue" is answered at once.
 */
#define _POSIX_C_SOURCE 200809L

#include "server.h"

#include "log.h"

#include <http_parser.h>
#include <inttypes.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 100 /* warnings, rejected listed (all are counted) */
#define MAX_GAMES 1000 /* games listed in a summary (all are counted) */

enum { R_NONE, R_GAMES, R_HEALTH, R_STATS, R_NOTFOUND, R_METHOD, R_BUSY };

typedef struct http_state {
  http_parser hp;
  char url[256];
  size_t url_len;
  int route, msg_done, keep_alive, body_on;
  int body_ended, cut; /* cut: the body's conn was done before the body */
  bytebuf rest;        /* bytes after a paused message */
  bytebuf warns, rejected;
  bytebuf held;  /* the complete games' bytes, until the body has ended */
  bytebuf recs;  /* hgame[]: the complete games, in the body's order */
  int committed; /* the held games are in the sink */
  uint64_t nstored, nfailed, nquar, ndropped, nwarn;
  char hname[8]; /* the header being read (Expect?) */
  size_t hname_len;
  int hval, expect; /* in a value; it is Expect's */
  char hexpect[16];
  size_t hexpect_len;
  unsigned inflight; /* this request's games not yet acknowledged */
  int mem_paused;    /* reading stopped: over --max-memory */
} http_state;

/* A complete game of the body. */
typedef struct hgame {
  uint64_t index, offset, len;
  size_t at;  /* in held */
  int status; /* 0 not yet acknowledged, 1 stored, 2 failed */
} hgame;

static http_parser_settings settings;

static void json_str(bytebuf *b, const char *s) {
  bytebuf_add(b, "\"", 1);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      bytebuf_addf(b, "\\%c", c);
    else if (c < 0x20)
      bytebuf_addf(b, "\\u%04x", c);
    else
      bytebuf_add(b, s, 1);
  }
  bytebuf_add(b, "\"", 1);
}

static void reset_request(http_state *h) {
  h->url_len = 0;
  h->route = R_NONE;
  h->msg_done = 0;
  h->body_on = 0;
  h->body_ended = h->cut = 0;
  h->warns.len = h->rejected.len = h->recs.len = 0;
  bytebuf_free(&h->held); /* a large body's buffer is not kept */
  h->committed = 0;
  h->nstored = h->nfailed = h->nquar = h->ndropped = h->nwarn = 0;
  h->hname_len = h->hexpect_len = 0;
  h->hval = h->expect = 0;
}

static void respond(client *cl, int code, const char *body, size_t len) {
  http_state *h = cl->http;
  bytebuf b;
  const char *why = code == 200   ? "OK"
                    : code == 404 ? "Not Found"
                    : code == 405 ? "Method Not Allowed"
                    : code == 408 ? "Request Timeout"
                    : code == 503 ? "Service Unavailable"
                                  : "Bad Request";
  bytebuf_init(&b);
  bytebuf_addf(&b,
               "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\n"
               "Content-Length: %zu\r\n%s\r\n",
               code, why, len, h->keep_alive ? "" : "Connection: close\r\n");
  bytebuf_add(&b, body, len);
  client_write(cl, b.p, b.len);
  bytebuf_free(&b);
}

/* cut: why the body's stream ended before the body did (a limit, a
 * refusal in strict mode), or NULL: what followed was not read, and the
 * client must be told. */
/* A game's entry in the summary. */
static void game_entry(bytebuf *b, const char *sep, const hgame *g) {
  bytebuf_addf(b,
               "%s{\"index\":%" PRIu64 ",\"offset\":%" PRIu64
               ",\"length\":%" PRIu64 ",\"status\":\"%s\"}",
               sep, g->index, g->offset, g->len,
               g->status == 1 ? "stored" : "failed");
}

static void summary(client *cl, const char *cut) {
  http_state *h = cl->http;
  const hgame *g = (const hgame *)h->recs.p;
  size_t i, n = h->recs.len / sizeof(hgame);
  bytebuf b;
  bytebuf_init(&b);
  bytebuf_addf(&b,
               "{\"stored\":%" PRIu64 ",\"failed\":%" PRIu64
               ",\"quarantined\":%" PRIu64 ",\"dropped\":%" PRIu64
               ",\"warnings_total\":%" PRIu64,
               h->nstored, h->nfailed, h->nquar, h->ndropped, h->nwarn);
  if (cut) {
    bytebuf_adds(&b, ",\"error\":");
    json_str(&b, cut);
  }
  bytebuf_adds(&b, ",\"games\":[");
  for (i = 0; i < n && i < MAX_GAMES; i++) game_entry(&b, i ? "," : "", g + i);
  bytebuf_adds(&b, "]");
  if (n > MAX_GAMES) {
    bytebuf_addf(&b, ",\"games_unlisted\":%zu,\"last_game\":", n - MAX_GAMES);
    game_entry(&b, "", g + n - 1);
  }
  bytebuf_adds(&b, ",\"warnings\":[");
  if (h->warns.len) bytebuf_add(&b, h->warns.p, h->warns.len - 1);
  bytebuf_adds(&b, "],\"rejected\":[");
  if (h->rejected.len) bytebuf_add(&b, h->rejected.p, h->rejected.len - 1);
  bytebuf_adds(&b, "]}\n");
  respond(cl, 200, b.p, b.len);
  bytebuf_free(&b);
}

/* ------------------------------------------------------------ the body */

static void acked(void *ctx, int status, const char *name) {
  gack *a = ctx;
  client *cl = a->cl;
  server *s = cl->srv;
  http_state *h = cl->http;
  hgame *rec = (hgame *)h->recs.p;
  size_t i, n = h->recs.len / sizeof(hgame);
  (void)name;
  cl->inflight--;
  h->inflight--;
  /* the game's record: at its index, as the body's games are numbered */
  i = a->index < n && rec[a->index].index == a->index ? (size_t)a->index : 0;
  while (i < n && rec[i].index != a->index) i++;
  if (i < n) rec[i].status = status == 0 ? 1 : 2;
  if (status == 0) {
    h->nstored++;
    cl->stored++;
    s->st.games_stored++;
    s->st.bytes_stored += a->len;
    if (s->opt.log_games)
      slogq_stored(cl->peer, cl->id, a->index, a->len, "body byte", a->offset,
                   NULL);
  } else {
    h->nfailed++;
    s->st.store_failures++;
  }
  free(a);
  if (cl->closing)
    client_maybe_free(cl);
  else
    http_pump(cl);
}

/* A complete game: held until the body has ended (commit()). */
static int on_game(void *ctx, const char *buf, size_t len, const conn_game *g) {
  client *cl = ctx;
  http_state *h = cl->http;
  hgame r;
  memset(&r, 0, sizeof r);
  r.index = g->index;
  r.offset = g->offset;
  r.len = len;
  r.at = h->held.len;
  bytebuf_add(&h->held, buf, len);
  bytebuf_add(&h->recs, &r, sizeof r);
  return 0;
}

/* The body has ended: its games go to the sink. */
static void commit(client *cl) {
  http_state *h = cl->http;
  size_t i, n = h->recs.len / sizeof(hgame);
  if (h->committed) return;
  h->committed = 1;
  for (i = 0; i < n; i++) {
    const hgame *r = (const hgame *)h->recs.p + i;
    conn_game g;
    memset(&g, 0, sizeof g);
    g.index = r->index;
    g.offset = r->offset;
    h->inflight++;
    server_store(cl, h->held.p + r->at, (size_t)r->len, &g, acked);
  }
  bytebuf_free(&h->held);
  client_count_held(cl);
}

/* The request ends before its body: its games are not stored. */
static void drop_held(client *cl, const char *why) {
  http_state *h = cl->http;
  size_t n = h->recs.len / sizeof(hgame);
  if (h->committed || (!h->body_on && h->url_len == 0)) return;
  if (h->route == R_GAMES)
    slog("POST /games %s #%" PRIu64
         ": %s: the request is incomplete, %zu "
         "complete games in it not stored",
         cl->peer, cl->id, why, n);
  h->committed = 1;
  h->recs.len = 0;
  bytebuf_free(&h->held);
  client_count_held(cl);
}

size_t http_held(const client *cl) {
  return cl->http ? cl->http->held.len + cl->http->recs.cap : 0;
}

static void on_abandon(void *ctx, const char *buf, size_t len, uint64_t off,
                       const char *reason) {
  client *cl = ctx;
  http_state *h = cl->http;
  int kept = server_quarantine(cl, buf, len, off, reason) == 0;
  if (kept)
    h->nquar++;
  else
    h->ndropped++;
  if (h->nquar + h->ndropped > MAX_LISTED) return;
  bytebuf_addf(&h->rejected,
               "{\"offset\":%" PRIu64
               ",\"length\":%zu,\"quarantined\":%s"
               ",\"reason\":",
               off, len, kept ? "true" : "false");
  json_str(&h->rejected, reason);
  bytebuf_add(&h->rejected, "},", 2);
}

static void on_warning(void *ctx, const sgf_diag *d, int64_t game) {
  client *cl = ctx;
  http_state *h = cl->http;
  const char *name = sgf_diag_name(d->code);
  const char *msg = sgf_diag_message(d->code);
  cl->srv->st.warnings++;
  if (h->nwarn++ >= MAX_LISTED) return;
  bytebuf_addf(&h->warns,
               "{\"game\":%" PRId64 ",\"offset\":%" PRIu64 ",\"line\":%" PRIu64
               ",\"column\":%" PRIu64 ",\"code\":",
               game, d->pos.offset, d->pos.line, d->pos.column);
  json_str(&h->warns, name ? name : "?");
  bytebuf_adds(&h->warns, ",\"message\":");
  json_str(&h->warns, msg ? msg : "?");
  bytebuf_add(&h->warns, "},", 2);
}

/* No begin, release or held: a game is put in the sink after the body,
 * from its bytes (a JSON Lines sink converts them then). */
static const conn_ops body_ops = {on_game, on_abandon, on_warning,
                                  NULL,    NULL,       NULL};

static void resumed(sink_waiter *w) {
  client *cl = (client *)((char *)w - offsetof(client, wait));
  if (cl->body_start) { /* the body's rate: from now on */
    cl->body_start = uv_now(cl->srv->loop);
    cl->body_bytes = 0;
  }
  if (cl->conn_live) conn_resume(&cl->c);
  http_pump(cl);
}

/* ------------------------------------------------------------ deadlines */

int http_deadline(client *cl, uint64_t now) {
  server *s = cl->srv;
  http_state *h = cl->http;
  char why[96];
  if (h == NULL) return 0;
  if (cl->req_start && s->opt.header_ms &&
      now - cl->req_start >= s->opt.header_ms)
    snprintf(why, sizeof why, "request headers not complete in %" PRIu64 " ms",
             s->opt.header_ms);
  else if (cl->body_start && s->opt.min_rate && !cl->wait.waiting &&
           !h->mem_paused && now - cl->body_start >= RATE_GRACE_MS &&
           cl->body_bytes * 1000 < s->opt.min_rate * (now - cl->body_start))
    snprintf(why, sizeof why, "request body slower than %" PRIu64 " bytes/s",
             s->opt.min_rate);
  else
    return 0;
  s->st.limits_hit++;
  s->st.timeouts++;
  slog("limit hit: %s #%" PRIu64 ": %s: closed", cl->peer, cl->id, why);
  if (cl->conn_live && !cl->c.done) conn_end(&cl->c, why);
  drop_held(cl, why);
  cl->req_start = cl->body_start = 0;
  h->keep_alive = 0;
  respond(cl, 408, "{\"error\":\"limit hit: request timeout\"}\n", 39);
  client_end(cl);
  return 1;
}

/* ------------------------------------------------------------ parsing */

static int on_url(http_parser *p, const char *at, size_t len) {
  http_state *h = ((client *)p->data)->http;
  size_t room = sizeof h->url - 1 - h->url_len;
  if (len > room) len = room;
  memcpy(h->url + h->url_len, at, len);
  h->url_len += len;
  h->url[h->url_len] = '\0';
  return 0;
}

static int on_begin(http_parser *p) {
  client *cl = p->data;
  cl->req_start = uv_now(cl->srv->loop);
  if (cl->srv->opt.header_ms) client_arm(cl);
  return 0;
}

static int on_hfield(http_parser *p, const char *at, size_t len) {
  http_state *h = ((client *)p->data)->http;
  size_t room;
  if (h->hval) h->hval = 0, h->hname_len = 0;
  room = h->hname_len < sizeof h->hname ? sizeof h->hname - h->hname_len : 0;
  memcpy(h->hname + h->hname_len, at, len < room ? len : room);
  h->hname_len += len; /* the name's length: only "expect" is looked at */
  return 0;
}

static int on_hvalue(http_parser *p, const char *at, size_t len) {
  http_state *h = ((client *)p->data)->http;
  size_t room = sizeof h->hexpect - 1 - h->hexpect_len;
  if (!h->hval) {
    h->hval = 1;
    h->expect = h->hname_len == 6 && strncasecmp(h->hname, "expect", 6) == 0;
  }
  if (!h->expect) return 0;
  memcpy(h->hexpect + h->hexpect_len, at, len < room ? len : room);
  h->hexpect_len += len < room ? len : room;
  h->hexpect[h->hexpect_len] = '\0';
  return 0;
}

static int on_headers(http_parser *p) {
  client *cl = p->data;
  http_state *h = cl->http;
  size_t n = strcspn(h->url, "?");
  h->keep_alive = http_should_keep_alive(p);
  if (n == 6 && strncmp(h->url, "/games", 6) == 0)
    h->route = p->method == HTTP_POST ? R_GAMES : R_METHOD;
  else if (n == 7 && strncmp(h->url, "/health", 7) == 0)
    h->route = p->method == HTTP_GET ? R_HEALTH : R_METHOD;
  else if (n == 6 && strncmp(h->url, "/stats", 6) == 0)
    h->route = p->method == HTTP_GET ? R_STATS : R_METHOD;
  else
    h->route = R_NOTFOUND;
  if (cl->admin_only && h->route == R_GAMES) h->route = R_BUSY;
  cl->req_start = 0;
  if (h->route == R_GAMES) {
    cl->body_start = uv_now(cl->srv->loop);
    cl->body_bytes = 0;
  }
  client_arm(cl);
  if (h->hexpect_len == 12 && strncasecmp(h->hexpect, "100-continue", 12) == 0)
    client_write(cl, "HTTP/1.1 100 Continue\r\n\r\n", 25);
  return 0;
}

static int on_body(http_parser *p, const char *at, size_t len) {
  client *cl = p->data;
  http_state *h = cl->http;
  conn_limits l;
  if (h->route != R_GAMES) return 0;
  cl->body_bytes += len;
  if (!h->body_on) {
    if (cl->conn_live) conn_free(&cl->c);
    conn_init(&cl->c, server_limits(cl->srv, &l), &body_ops, cl);
    cl->conn_live = 1;
    h->body_on = 1;
  }
  conn_feed(&cl->c, at, len);
  return 0;
}

static int on_message(http_parser *p) {
  client *cl = p->data;
  http_state *h = cl->http;
  cl->body_start = 0;
  cl->requests++;
  h->msg_done = 1;
  http_parser_pause(p, 1);
  return 0;
}

/* The request is whole: answer once its games are acknowledged. Returns
 * 1 when answered. */
static int answer(client *cl) {
  http_state *h = cl->http;
  server *s = cl->srv;
  char body[2048];
  static const char busy[] =
      "{\"error\":\"limit hit: over a limit, GET /health and /stats only\"}\n";
  if (h->route == R_GAMES) {
    const char *cut;
    if (h->body_on && cl->c.paused) return 0;
    if (h->body_on && !h->body_ended) {
      h->body_ended = 1;
      if (cl->c.done)
        h->cut = 1;
      else
        conn_end(&cl->c, "the request body ended inside the game");
    }
    commit(cl);
    if (h->inflight > 0) return 0;
    cut = h->cut ? cl->c.why : NULL;
    s->st.http_requests++;
    if (cut) {
      s->st.limits_hit += strncmp(cut, "limit hit", 9) == 0;
      slog("%s #%" PRIu64
           ": POST /games: %s: the rest of the body was"
           " not read",
           cl->peer, cl->id, cut);
    }
    summary(cl, cut);
    slog("POST /games %s #%" PRIu64 ": %" PRIu64 " stored, %" PRIu64
         " quarantined, %" PRIu64 " failed",
         cl->peer, cl->id, h->nstored, h->nquar, h->nfailed);
  } else if (h->route == R_HEALTH) {
    s->st.http_requests++;
    if (s->stopping) {
      respond(cl, 503, "{\"status\":\"stopping\"}\n", 22);
    } else {
      respond(cl, 200, "{\"status\":\"ok\"}\n", 16);
    }
  } else if (h->route == R_STATS) {
    s->st.http_requests++;
    stats_json(s, body, sizeof body);
    respond(cl, 200, body, strlen(body));
  } else if (h->route == R_BUSY) {
    s->st.limits_hit++;
    s->st.refused++;
    h->keep_alive = 0;
    respond(cl, 503, busy, strlen(busy));
  } else if (h->route == R_METHOD) {
    respond(cl, 405, "{\"error\":\"method not allowed\"}\n", 31);
  } else {
    respond(cl, 404, "{\"error\":\"not found\"}\n", 22);
  }
  if (cl->conn_live) {
    conn_free(&cl->c);
    cl->conn_live = 0;
  }
  client_count_held(cl);
  return 1;
}

static void bad_request(client *cl, const char *why) {
  char body[256];
  int n = snprintf(body, sizeof body, "{\"error\":\"%s\"}\n", why);
  cl->http->keep_alive = 0;
  slog("%s #%" PRIu64 ": bad request: %s", cl->peer, cl->id, why);
  respond(cl, 400, body, (size_t)n);
  client_end(cl);
}

/* Over --max-memory (the connections' bytes and the sink's backlog):
 * while the sink has a backlog, which its writes bring down, reading
 * stops until it has written (backpressure, as for a sink behind);
 * with none, the bytes are the connections' own and waiting would not
 * bring them down: the request is cut, as a raw stream is (503, the
 * open game quarantined, the connection closed). Only while a POST's
 * body is read. Returns 1 when reading must not go on. */
static int memory_over(client *cl) {
  http_state *h = cl->http;
  server *s = cl->srv;
  /* only a games body is held back: GET /stats and /health answer */
  if (!client_count_held(cl) || h->route != R_GAMES || h->msg_done) {
    h->mem_paused = 0;
    return 0;
  }
  if (sink_backlog(s->sink) > 0) {
    if (!h->mem_paused) {
      s->st.pauses++;
      slog("%s #%" PRIu64 ": memory over %" PRIu64
           " bytes (--max-memory): reading paused for the sink",
           cl->peer, cl->id, s->opt.max_memory);
    }
    h->mem_paused = 1;
    client_read_stop(cl);
    sink_wait(s->sink, &cl->wait);
    return 1;
  }
  s->st.limits_hit++;
  slog("limit hit: %s #%" PRIu64 ": memory over %" PRIu64
       " bytes (--max-memory): closed",
       cl->peer, cl->id, s->opt.max_memory);
  if (cl->conn_live && !cl->c.done && !cl->c.paused)
    conn_end(&cl->c, "limit hit: total memory");
  drop_held(cl, "limit hit: total memory");
  h->keep_alive = 0;
  {
    static const char body[] =
        "{\"error\":\"limit hit: total memory\",\"stored\":0}\n";
    respond(cl, 503, body, sizeof body - 1);
  }
  client_end(cl);
  return 1;
}

/* Parse bytes; returns how many were used (the rest waits in h->rest). */
static size_t execute(client *cl, const char *buf, size_t len) {
  http_state *h = cl->http;
  size_t used = http_parser_execute(&h->hp, &settings, buf, len);
  enum http_errno e = HTTP_PARSER_ERRNO(&h->hp);
  if (e == HPE_PAUSED) return used;
  if (e != HPE_OK) {
    bad_request(cl, http_errno_name(e));
    return len;
  }
  return used;
}

/* Go as far as the state allows: finish the body, answer, parse what
 * waits, read on. */
void http_pump(client *cl) {
  http_state *h = cl->http;
  server *s = cl->srv;
  if (cl->closing) return;
  if (cl->conn_live && cl->c.paused) {
    client_read_stop(cl);
    sink_wait(s->sink, &cl->wait);
    return;
  }
  /* stopping: a body paused then resumed ends here, as in http_stop */
  if (s->stopping && !h->msg_done && h->body_on && !cl->eof) {
    if (cl->conn_live && !cl->c.done)
      conn_end(&cl->c, "the server stopped inside the request");
    cl->eof = 1;
  }
  while (h->msg_done || (h->rest.len > 0 && !cl->eof)) {
    size_t used;
    if (h->msg_done) {
      if (!answer(cl)) return;
      if (!h->keep_alive || s->stopping) {
        client_end(cl);
        return;
      }
      reset_request(h);
      http_parser_pause(&h->hp, 0);
    }
    /* answers the client does not read: no more requests parsed */
    if (h->rest.len == 0 || client_out_full(cl)) break;
    used = execute(cl, h->rest.p, h->rest.len);
    if (cl->closing) return;
    memmove(h->rest.p, h->rest.p + used, h->rest.len - used);
    h->rest.len -= used;
    if (cl->conn_live && cl->c.paused) {
      client_read_stop(cl);
      sink_wait(s->sink, &cl->wait);
      return;
    }
  }
  if (cl->eof) {
    int open = h->url_len > 0 && !h->msg_done;
    if (h->body_on && cl->conn_live && !cl->c.done)
      conn_end(&cl->c, s->stopping ? "the server stopped inside the request"
                                   : "the connection ended inside the request");
    if (open) {
      drop_held(cl, s->stopping ? "the server stopped"
                                : "the connection ended before the body");
      /* a client that only shut its side down reads this */
      h->keep_alive = 0;
      bad_request(cl, s->stopping ? "the server stopped inside the request: "
                                    "nothing of it stored"
                                  : "the request ended before its body: "
                                    "nothing of it stored");
      return;
    }
    if (cl->inflight == 0) client_close(cl);
    return;
  }
  if (s->stopping && !h->body_on) {
    client_end(cl);
    return;
  }
  if (h->rest.len == 0 && !memory_over(cl)) client_read_start(cl);
}

void http_read(client *cl, const char *buf, ssize_t n) {
  http_state *h = cl->http;
  if (n < 0) {
    cl->eof = 1;
    client_read_stop(cl);
    http_pump(cl);
    return;
  }
  if (n == 0 || cl->closing) return;
  if (h->msg_done || h->rest.len > 0) {
    bytebuf_add(&h->rest, buf, (size_t)n);
    client_read_stop(cl);
    return;
  }
  {
    size_t used = execute(cl, buf, (size_t)n);
    if (cl->closing) return;
    if (used < (size_t)n) bytebuf_add(&h->rest, buf + used, (size_t)n - used);
  }
  if (!(cl->conn_live && cl->c.paused) && memory_over(cl)) return;
  http_pump(cl);
}

/* Once: the main thread and a worker (an HTTP request on the raw port)
 * may start a client at the same time. */
static uv_once_t settings_once = UV_ONCE_INIT;

static void settings_init(void) {
  http_parser_settings_init(&settings);
  settings.on_message_begin = on_begin;
  settings.on_url = on_url;
  settings.on_header_field = on_hfield;
  settings.on_header_value = on_hvalue;
  settings.on_headers_complete = on_headers;
  settings.on_body = on_body;
  settings.on_message_complete = on_message;
}

void http_start(client *cl) {
  http_state *h = calloc(1, sizeof *h);
  if (h == NULL) {
    client_close(cl);
    return;
  }
  uv_once(&settings_once, settings_init);
  cl->http = h;
  cl->wait.resume = resumed;
  http_parser_init(&h->hp, HTTP_REQUEST);
  h->hp.data = cl;
  bytebuf_init(&h->rest);
  bytebuf_init(&h->held);
  bytebuf_init(&h->recs);
  bytebuf_init(&h->warns);
  bytebuf_init(&h->rejected);
  client_read_start(cl);
}

void http_stop(client *cl) {
  http_state *h = cl->http;
  if (h == NULL) return;
  client_read_stop(cl);
  if (!h->body_on && !h->msg_done) { /* no request, or its headers only */
    client_end(cl);
    return;
  }
  /* a request whose body has not all come: its open game is quarantined
   * now, the games complete in it are not stored (drop_held), and the
   * client is told so if it still reads. A body paused by the sink ends so once
   * the sink resumes it (http_pump), or at --drain-timeout. */
  if (!cl->c.paused) http_pump(cl);
}

void http_free(client *cl) {
  http_state *h = cl->http;
  if (h == NULL) return;
  bytebuf_free(&h->rest);
  bytebuf_free(&h->held);
  bytebuf_free(&h->recs);
  bytebuf_free(&h->warns);
  bytebuf_free(&h->rejected);
  free(h);
  cl->http = NULL;
}
