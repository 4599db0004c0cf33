/* raw.c - a raw TCP client of `sgf serve`: the connection's bytes are one
 * stream of SGF games (one conn). The server answers with a line per
 * event, so that a sender knows what was acknowledged:
 *
 *   stored INDEX OFFSET LENGTH        the game is in the sink
 *   failed INDEX OFFSET LENGTH        the sink could not store it
 *   quarantined OFFSET LENGTH REASON  an incomplete or refused game
 *   dropped OFFSET LENGTH REASON      such a game not kept either: the
 *                                     quarantine is full
 *   error REASON                      a limit hit: nothing more is read
 *   done STORED QUARANTINED           the last line, before the close
 *
 * INDEX counts the connection's complete games from 0; OFFSET is the
 * byte of the game's '(' in the connection's stream.
 */
#define _POSIX_C_SOURCE 200809L

#include "server.h"

#include "decimal.h"
#include "log.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void raw_pump(client *cl, int rc);

/* All acknowledged and nothing more to read: say so and close. */
static void maybe_finish(client *cl) {
  char line[96];
  int n;
  if (cl->closing || cl->inflight > 0 || !cl->c.done || cl->c.paused) return;
  n = snprintf(line, sizeof line, "done %" PRIu64 " %" PRIu64 "\n", cl->stored,
               cl->quarantined);
  client_write(cl, line, (size_t)n);
  client_end(cl); /* the close is logged once the client is gone */
}

static void acked(void *ctx, int status, const char *name) {
  gack *a = ctx;
  client *cl = a->cl;
  server *s = cl->srv;
  char line[96], *q;
  cl->inflight--;
  if (status == 0) {
    cl->stored++;
    s->st.games_stored++;
    s->st.bytes_stored += a->len;
    if (s->opt.log_games)
      slogq_stored(cl->peer, cl->id, a->index, a->len, "byte", a->offset, name);
  } else {
    s->st.store_failures++;
  }
  /* "stored INDEX OFFSET LENGTH\n" (or failed), digits by hand */
  memcpy(line, status == 0 ? "stored " : "failed ", 7);
  q = line + 7;
  q += decimal_u64(q, a->index);
  *q++ = ' ';
  q += decimal_u64(q, a->offset);
  *q++ = ' ';
  q += decimal_u64(q, a->len);
  *q++ = '\n';
  free(a);
  client_ack(cl, line, (size_t)(q - line));
  if (cl->closing)
    client_maybe_free(cl);
  else
    maybe_finish(cl);
}

static int on_game(void *ctx, const char *buf, size_t len, const conn_game *g) {
  client *cl = ctx;
  return server_store(cl, buf, len, g, acked);
}

static void on_abandon(void *ctx, const char *buf, size_t len, uint64_t off,
                       const char *reason) {
  client *cl = ctx;
  char line[384];
  int n;
  int kept = server_quarantine(cl, buf, len, off, reason) == 0;
  n = snprintf(
      line, sizeof line, "%s %" PRIu64 " %zu %s%s\n",
      kept ? "quarantined" : "dropped", off, len,
      kept ? "" : "the quarantine is full (--max-quarantine): ", reason);
  client_write(cl, line, (size_t)n);
}

static void on_warning(void *ctx, const sgf_diag *d, int64_t game) {
  client *cl = ctx;
  (void)d;
  (void)game;
  cl->srv->st.warnings++;
}

static const conn_ops raw_ops = {on_game,          on_abandon,
                                 on_warning,       server_game_events,
                                 server_game_done, server_game_held};

static void resumed(sink_waiter *w) {
  client *cl = (client *)((char *)w - offsetof(client, wait));
  raw_pump(cl, conn_resume(&cl->c));
}

/* After a feed or a resume: read on, wait for the sink, or end. */
static void raw_pump(client *cl, int rc) {
  server *s = cl->srv;
  if (client_count_held(cl) && rc != CONN_DONE) {
    s->st.limits_hit++;
    slog("limit hit: %s #%" PRIu64 ": memory over %" PRIu64
         " bytes (--max-memory): closed",
         cl->peer, cl->id, s->opt.max_memory);
    /* paused too: nothing waits for the sink now (conn_end) */
    sink_unwait(s->sink, &cl->wait);
    rc = conn_end(&cl->c, "limit hit: total memory");
  }
  if (rc == CONN_PAUSED) {
    client_read_stop(cl);
    sink_wait(s->sink, &cl->wait);
    return;
  }
  if (rc == CONN_DONE) {
    char line[200];
    int n;
    if (!cl->eof && !s->stopping) {
      s->st.limits_hit += strncmp(cl->c.why, "limit hit", 9) == 0;
      slog("%s #%" PRIu64 ": %s: closed", cl->peer, cl->id, cl->c.why);
      n = snprintf(line, sizeof line, "error %s\n", cl->c.why);
      client_write(cl, line, (size_t)n);
    }
    client_read_stop(cl);
    client_count_held(cl);
    maybe_finish(cl);
    return;
  }
  if (cl->eof || s->stopping) {
    conn_end(&cl->c, cl->eof ? "the connection ended inside the game"
                             : "the server stopped inside the game");
    client_read_stop(cl);
    client_count_held(cl);
    maybe_finish(cl);
    return;
  }
  client_read_start(cl);
}

void raw_start(client *cl) {
  conn_limits l;
  cl->wait.resume = resumed;
  conn_init(&cl->c, server_limits(cl->srv, &l), &raw_ops, cl);
  cl->conn_live = 1;
  client_read_start(cl);
}

void raw_read(client *cl, const char *buf, ssize_t n) {
  if (n > 0) {
    raw_pump(cl, conn_feed(&cl->c, buf, (size_t)n));
    return;
  }
  if (n == 0) return;
  cl->eof = 1;
  client_read_stop(cl);
  if (n != UV_EOF)
    slog("%s #%" PRIu64 ": read: %s", cl->peer, cl->id, uv_strerror((int)n));
  if (!cl->c.paused) raw_pump(cl, cl->c.done ? CONN_DONE : CONN_OK);
}

void raw_timeout(client *cl) {
  server *s = cl->srv;
  client_read_stop(cl);
  sink_unwait(s->sink, &cl->wait);
  if (!cl->c.done) conn_end(&cl->c, "idle timeout inside the game");
  client_write(cl, "error limit hit: idle timeout\n", 30);
  client_count_held(cl);
  maybe_finish(cl); /* "done" once its games are acknowledged */
}

void raw_stop(client *cl) {
  client_read_stop(cl);
  if (!cl->c.paused) raw_pump(cl, cl->c.done ? CONN_DONE : CONN_OK);
}
