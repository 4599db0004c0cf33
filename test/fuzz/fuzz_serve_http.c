#define _GNU_SOURCE /* memmem */
/* fuzz_serve_http.c - `sgf serve`'s HTTP request path (tools/serve/http.c
 * with http-parser and conn.c) without sockets: the server functions
 * http.c calls are stubs here that record what it does. The input (after
 * 8 bytes seeding the choices) is what a client sends, in random splits,
 * with the sink "behind" at random games and its acknowledgements
 * delayed, and the connection ending at the end. Checks: no crash, no
 * leak (ASan), every answer begins "HTTP/1.1 " and carries as many body
 * bytes as its Content-Length says, every game stored ends with its ')' and is
 * no longer than what was sent, and a paused client is resumed. With
 * SERVE_FUZZ_MAIN (make check: test/serve/fuzz_http) main() runs it over random
 * request streams for a bounded count. */
#include "log.h"
#include "server.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bytebuf out; /* what the server wrote */
static const uint8_t *input;
static size_t input_len;
static uint64_t rng;
static int closed, reading;
static sink_waiter *waiting;
typedef struct pend {
  sink_cb cb;
  void *ctx;
} pend;
static pend acks[4096];
static size_t nacks;
static unsigned long answers, games; /* for main()'s report */

static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void die(const char *what) {
  fprintf(stderr, "fuzz_serve_http: %s\n", what);
  abort();
}

/* ---------------------------------------------------------- stubs */
void slog(const char *fmt, ...) { (void)fmt; }
void slogq(const char *fmt, ...) { (void)fmt; }
void slogq_stored(const char *peer, uint64_t id, uint64_t index, uint64_t len,
                  const char *from, uint64_t offset, const char *name) {
  (void)peer, (void)id, (void)index, (void)len, (void)from, (void)offset;
  (void)name;
}
void client_read_start(client *cl) { reading = !cl->closing; }
void client_read_stop(client *cl) {
  (void)cl;
  reading = 0;
}
void client_touch(client *cl) { (void)cl; }
void client_arm(client *cl) { (void)cl; }
int client_out_full(client *cl) {
  (void)cl;
  return 0;
}
void client_close(client *cl) {
  cl->closing = 1;
  closed = 1;
}
void client_end(client *cl) { client_close(cl); }
void client_maybe_free(client *cl) { (void)cl; }
int client_count_held(client *cl) {
  (void)cl;
  return 0;
}
void client_write(client *cl, const char *buf, size_t len) {
  if (!cl->closing) bytebuf_add(&out, buf, len);
}
int server_store(client *cl, const char *buf, size_t len, const conn_game *g,
                 sink_cb cb) {
  gack *a = malloc(sizeof *a);
  (void)g;
  /* (a chunked body's game may span chunks: not one run of the input) */
  if (len > input_len || len == 0 || buf[len - 1] != ')')
    die("a stored game is not a game of what the client sent");
  a->cl = cl;
  a->len = len;
  a->index = g->index;
  a->offset = g->offset;
  cl->inflight++;
  games++;
  if (nacks == sizeof acks / sizeof *acks) die("too many games");
  acks[nacks].cb = cb;
  acks[nacks++].ctx = a;
  return next() % 4 == 0;
}
int server_quarantine(client *cl, const char *buf, size_t len, uint64_t off,
                      const char *reason) {
  (void)cl;
  (void)buf;
  (void)len;
  (void)off;
  (void)reason;
  return next() % 8 == 0 ? -1 : 0; /* now and then the quarantine is full */
}
/* a sink that stores bytes: no game's events wanted */
void *server_game_events(void *ctx, const sgf_callbacks **ev, size_t *bytes) {
  (void)ctx;
  (void)ev;
  (void)bytes;
  return NULL;
}
void server_game_done(void *ctx, void *user) {
  (void)ctx;
  (void)user;
  die("events released that were never begun");
}
size_t server_game_held(void *ctx, void *user) {
  (void)ctx;
  (void)user;
  die("events held that were never begun");
  return 0;
}
const conn_limits *server_limits(const server *s, conn_limits *l) {
  (void)s;
  memset(l, 0, sizeof *l);
  l->max_game_bytes = 4096;
  return l;
}
void sink_wait(sink *s, sink_waiter *w) {
  (void)s;
  w->waiting = 1;
  waiting = w;
}
void sink_unwait(sink *s, sink_waiter *w) {
  (void)s;
  w->waiting = 0;
  if (waiting == w) waiting = NULL;
}
size_t sink_backlog(const sink *s) {
  (void)s;
  return 0;
}
void stats_json(const server *s, char *buf, size_t cap) {
  (void)s;
  snprintf(buf, cap, "{}\n");
}

/* Acknowledge the games waiting, then resume a paused client. */
static void settle(void) {
  while (nacks > 0 || waiting) {
    if (nacks > 0) {
      pend p = acks[--nacks];
      p.cb(p.ctx, next() % 8 == 0 ? -5 : 0, NULL);
    } else {
      sink_waiter *w = waiting;
      waiting = NULL;
      w->waiting = 0;
      w->resume(w);
    }
  }
}

/* Every answer: "HTTP/1.1 ", headers, Content-Length bytes of body. */
static void check_answers(void) {
  const char *p = out.p, *end;
  if (out.len == 0) return; /* out.p may be NULL: no arithmetic on it */
  end = out.p + out.len;
  while (p < end) {
    const char *h = memmem(p, (size_t)(end - p), "\r\n\r\n", 4), *cl;
    size_t len;
    if ((size_t)(end - p) < 9 || memcmp(p, "HTTP/1.1 ", 9) != 0)
      die("an answer does not begin HTTP/1.1");
    if (h == NULL) die("an answer's headers do not end");
    cl = memmem(p, (size_t)(h - p), "Content-Length: ", 16);
    if (cl == NULL) die("an answer without Content-Length");
    len = strtoul(cl + 16, NULL, 10);
    if ((size_t)(end - (h + 4)) < len) die("an answer's body is short");
    p = h + 4 + len;
    answers++;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static server srv;
  client *cl;
  size_t at = 8, i;
  if (size < 8) return 0;
  rng = 0x9e3779b97f4a7c15ull;
  for (i = 0; i < 8; i++) rng = rng * 131 + data[i] + 1;
  input = data + 8;
  input_len = size - 8;
  out.len = 0;
  closed = 0;
  nacks = 0;
  waiting = NULL;
  cl = calloc(1, sizeof *cl);
  srv.loop = uv_default_loop(); /* uv_now() for the deadlines */
  cl->srv = &srv;
  cl->handles = 0;
  http_start(cl);
  while (at < size && !cl->closing) {
    size_t n = 1 + next() % 300;
    if (n > size - at) n = size - at;
    if (reading || next() % 2)
      http_read(cl, (const char *)data + at, (ssize_t)n);
    at += n;
    if (next() % 3 == 0) settle();
  }
  settle();
  if (!cl->closing) {
    http_read(cl, NULL, UV_EOF);
    settle();
  }
  check_answers();
  if (cl->conn_live) conn_free(&cl->c);
  http_free(cl);
  free(cl);
  return 0;
}

#ifdef SERVE_FUZZ_MAIN
int main(int argc, char **argv) {
  static const char *const piece[] = {
      "POST /games HTTP/1.1\r\n",
      "GET /health HTTP/1.1\r\n",
      "GET /stats HTTP/1.1\r\n",
      "GET /nope HTTP/1.1\r\n",
      "PUT /games HTTP/1.1\r\n",
      "Host: x\r\n",
      "Content-Length: 20\r\n",
      "Content-Length: 7\r\n",
      "Transfer-Encoding: chunked\r\n",
      "Connection: close\r\n",
      "\r\n",
      "(;GM[1]B[aa];W[bb])\n",
      "(;B[",
      "14\r\n",
      "7\r\n",
      "0\r\n\r\n",
      "garbage",
      ")",
      "\r\n\r\n",
      "POST /games HTTP/1.1\r\nContent-Length: 20\r\n\r\n"
      "(;GM[1]B[aa];W[bb])\n",
      "POST /games HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      "7\r\n(;B[aa]\r\nd\r\n;W[bb])(;B[cc\r\n0\r\n\r\n"};
  uint8_t buf[8192];
  uint64_t s = 29;
  long runs = argc > 1 ? atol(argv[1]) : 3000, k;
  for (k = 0; k < runs; k++) {
    size_t n = 8, np = 1 + (s = s * 6364136223846793005ull + 1) % 40, j;
    for (j = 0; j < 8; j++) buf[j] = (uint8_t)(s >> (8 * j));
    for (j = 0; j < np; j++) {
      const char *p;
      size_t l;
      s = s * 6364136223846793005ull + 1442695040888963407ull;
      p = piece[(s >> 33) % (sizeof piece / sizeof *piece)];
      l = strlen(p);
      if (n + l > sizeof buf) break;
      memcpy(buf + n, p, l);
      n += l;
    }
    LLVMFuzzerTestOneInput(buf, n);
  }
  bytebuf_free(&out);
  printf(
      "serve_fuzz_http: %ld random request streams: %lu answers well "
      "formed, %lu games stored\n",
      runs, answers, games);
  if (answers == 0 || games == 0) return 1;
  return 0;
}
#endif
