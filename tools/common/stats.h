/* stats.h - counting callbacks, for `sgf stats` and the tests.
 *
 * Give the parser a struct stats as its user pointer; stats_reset() it
 * before each input. Nothing in it depends on how the input was chunked.
 * Two ways to count, with the same results: the callbacks
 * (stats_callbacks), or batched events (stats_batch), which `sgf stats`
 * uses (without --summary, whose handlers are callbacks) because they
 * are faster: callgrind, sgf stats -t on aeb-5mb.sgf, 105.1 M
 * instructions with the callbacks, 98.6 M with batches; on the 100 MB
 * aeb.sgf, best of 5 alternating runs on a loaded machine, 482 MB/s with
 * the callbacks, 753 MB/s with batches. stats_batch opts into MOVES
 * records (a run of plain move nodes in one record, counted from its
 * bytes): callgrind, sgf stats -t on aeb-5mb.sgf, 97.96 M instructions
 * before, 35.67 M with them; hyperfine on aeb.sgf, one run, 102.9 ms
 * before, 57.5 ms with them. stats_batch is tested against the
 * callbacks (test/unit/api).
 */
#ifndef SGF_TOOLS_STATS_H
#define SGF_TOOLS_STATS_H

#include <stdint.h>

#include <sgfstream.h>

typedef struct stats {
  uint64_t games;      /* top-level game trees */
  uint64_t variations; /* alternative lines: each node's second, third ...
                          child game tree (CQL's variations: a move that
                          is not the main continuation). A node's first
                          child tree continues its line and is not one. */
  uint64_t nodes;
  uint64_t properties;
  uint64_t values;
  uint64_t moves;     /* B and W properties */
  uint64_t max_depth; /* deepest nesting of game trees (1: no variation) */
  uint64_t bytes;     /* not counted by the callbacks: the feeder adds it */
  uint64_t warnings;  /* diagnostics of severity warning */
  uint64_t errors;    /* error and fatal */
  uint64_t depth;     /* game trees open now (working state) */
  int after_end;      /* the last event closed a game tree (working) */
} stats;

/* Fill all callbacks that count (on_value_data stays NULL: values are
 * counted at on_value_end, so slices cost nothing). */
void stats_callbacks(sgf_callbacks *cb);

/* Batched events (sgf_parser_set_batch) into the array events of
 * capacity records: only the kinds that are counted are recorded, and
 * MOVES records (BATCHED EVENTS in sgfstream.h). The
 * parser's callbacks must still include stats_callbacks()'s
 * on_diagnostic. Returns what sgf_parser_set_batch() does. */
int stats_batch(sgf_parser *p, sgf_event *events, size_t capacity);

/* A run of plain move nodes (MOVE RUNS in sgfstream/parser.h: on_moves'
 * at, len and count, or a MOVES record's bytes): the moves among its
 * nodes (B and W), and the same counted into s as the events the run
 * stands for would count them. */
uint64_t stats_run_moves(const char *at, size_t len);
uint64_t stats_run(stats *s, const char *at, size_t len, size_t count);

/* Zero every counter. */
void stats_reset(stats *s);

/* total += s; max_depth takes the larger. */
void stats_add(stats *total, const stats *s);

#endif /* SGF_TOOLS_STATS_H */
