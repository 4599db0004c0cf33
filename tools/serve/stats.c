/* stats.c - `GET /stats`: the server's counters as one JSON object,
 * summed over its shards (threads). */
#define _POSIX_C_SOURCE 200809L

#include "server.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>

/* A counter summed over the shards. */
uint64_t stats_total(const server *s, size_t field) {
  uint64_t n = 0;
  unsigned i;
  for (i = 0; i < s->g->nshards; i++)
    n += atomic_load(
        (const counter *)((const char *)&s->g->shard[i]->st + field));
  return n;
}

#define SUM(f) stats_total(s, offsetof(stats, f))

void stats_json(const server *s, char *buf, size_t cap) {
  snprintf(buf, cap,
           "{\"connections_total\":%" PRIu64
           ",\"connections_open\":%u"
           ",\"connections_refused\":%" PRIu64 ",\"bytes_received\":%" PRIu64
           ",\"games_stored\":%" PRIu64 ",\"bytes_stored\":%" PRIu64
           ",\"games_quarantined\":%" PRIu64 ",\"store_failures\":%" PRIu64
           ",\"warnings\":%" PRIu64 ",\"limits_hit\":%" PRIu64
           ",\"timeouts\":%" PRIu64 ",\"clients_dropped\":%" PRIu64
           ",\"http_requests\":%" PRIu64 ",\"sink_pauses\":%" PRIu64
           ",\"sink_backlog_bytes\":%zu,\"held_bytes\":%zu"
           ",\"threads\":%u,\"stopping\":%s}\n",
           SUM(connections), atomic_load(&s->g->nclients), SUM(refused),
           SUM(bytes_in), SUM(games_stored), SUM(bytes_stored),
           SUM(games_quarantined), SUM(store_failures), SUM(warnings),
           SUM(limits_hit), SUM(timeouts), SUM(dropped), SUM(http_requests),
           SUM(pauses), atomic_load(&s->g->backlog), atomic_load(&s->g->held),
           s->g->nshards > 1 ? s->g->nshards - 1 : 1,
           s->stopping ? "true" : "false");
}
