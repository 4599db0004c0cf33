/* stats.c - `GET /stats`: the server's counters as one JSON object. */
#define _POSIX_C_SOURCE 200809L

#include "server.h"

#include <inttypes.h>
#include <stdio.h>

void stats_json(const server *s, char *buf, size_t cap) {
  const stats *t = &s->st;
  snprintf(buf, cap,
           "{\"connections_total\":%" PRIu64
           ",\"connections_open\":%u"
           ",\"connections_refused\":%" PRIu64 ",\"bytes_received\":%" PRIu64
           ",\"games_stored\":%" PRIu64 ",\"bytes_stored\":%" PRIu64
           ",\"games_quarantined\":%" PRIu64 ",\"store_failures\":%" PRIu64
           ",\"warnings\":%" PRIu64 ",\"limits_hit\":%" PRIu64
           ",\"http_requests\":%" PRIu64 ",\"sink_pauses\":%" PRIu64
           ",\"sink_backlog_bytes\":%zu,\"held_bytes\":%zu,\"stopping\":%s}\n",
           t->connections, s->nclients, t->refused, t->bytes_in,
           t->games_stored, t->bytes_stored, t->games_quarantined,
           t->store_failures, t->warnings, t->limits_hit, t->http_requests,
           t->pauses, sink_backlog(s->sink), s->held,
           s->stopping ? "true" : "false");
}
