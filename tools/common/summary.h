/* summary.h - what `sgf stats --summary` counts over a collection: games
 * by result (RE), board size (SZ), year (the first four-digit number of
 * DT), rules (RU) and player (PB and PW: a game counts once for each of
 * its two players), and the distribution of game lengths (moves on the
 * main line).
 *
 * Text is read from the root node, FF[4]-decoded and converted to UTF-8
 * through the game's CA (sgfstream/charset.h, as `sgf json` does), blanks
 * trimmed. A property that is absent counts as "(none)", a DT without a
 * year as "(unknown)".
 *
 * Mergeable: everything is a count, so the summaries of parts of a
 * collection add up to the summary of the whole (summary_merge(), and
 * contrib/dask/sgf_merge.py on the JSON): no average is kept, only sums
 * and counts (the mean length is length_sum / games).
 *
 * Bounded memory: each table keeps at most SUMMARY_MAX_KEYS distinct
 * values in at most SUMMARY_MAX_KEY_BYTES of keys, exactly counted; a new
 * value past either is counted under
 * "(other)" and the table's "overflow" says how many games went there
 * (then the table, and a merge of it, is exact only for the values it
 * has). A value is kept whole up to SUMMARY_MAX_VALUE bytes (as written
 * in the file, before decoding); a longer one (a team game's player list)
 * is cut there, back to the start of a character of its charset, and its
 * key ends in SUMMARY_CUT_MARK, "..." (U+2026): never a character split,
 * never the value read in another charset because of the cut. So a table
 * holds at most SUMMARY_MAX_KEYS keys of at most 4 * SUMMARY_MAX_VALUE + 3
 * bytes (converted text) - in practice about SUMMARY_MAX_VALUE. Lengths past
 * SUMMARY_MAX_MOVES count in one bucket "SUMMARY_MAX_MOVES+".
 */
#ifndef SGF_TOOLS_SUMMARY_H
#define SGF_TOOLS_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include <sgfstream.h>
#include <sgfstream/charset.h>

#include "stats.h"

#define SUMMARY_MAX_KEYS 1000000u
/* ... and at most this many bytes of keys (long names fill it first) */
#define SUMMARY_MAX_KEY_BYTES (64u << 20)
#define SUMMARY_MAX_VALUE 1024u
#define SUMMARY_CUT_MARK "\xe2\x80\xa6" /* U+2026 ... ends a cut value */
#define SUMMARY_MAX_MOVES 1000u

enum { SUM_RESULT = 0, SUM_SIZE, SUM_YEAR, SUM_RULES, SUM_PLAYER, SUM_TABLES };

/* A string -> count table (open addressing). */
typedef struct sum_table {
  char **keys;
  uint64_t *counts;
  size_t cap, n;
  size_t bytes;      /* of the keys held, their NULs included */
  uint64_t overflow; /* games counted under "(other)" */
} sum_table;

/* The root properties read: RE SZ DT RU PB PW CA. */
#define SUM_PROPS 7

typedef struct summary {
  stats *st; /* the stats counted alongside (stats_callbacks()) */
  sgf_callbacks scb;
  sum_table t[SUM_TABLES];
  uint64_t lengths[SUMMARY_MAX_MOVES + 1];
  uint64_t length_sum, games;
  int failed; /* memory ran out: the summary is incomplete */
  /* The game being read. */
  sgf_charset *cs;
  char *conv;
  size_t conv_cap;
  uint64_t depth, main_moves;
  int in_root, on_main, prop; /* prop: SUM_PROPS index, or -1 */
  int node_open;              /* a node began and has not ended */
  int got[SUM_PROPS];         /* the value was read */
  int cut[SUM_PROPS];         /* ... and cut to SUMMARY_MAX_VALUE bytes */
  size_t len[SUM_PROPS];
  char raw[SUM_PROPS][SUMMARY_MAX_VALUE];
  /* decoded (UTF-8 takes at most 4 bytes a byte), SUMMARY_CUT_MARK */
  char key[SUM_PROPS - 1][SUMMARY_MAX_VALUE * 4 + sizeof SUMMARY_CUT_MARK];
} summary;

/* The parser's callbacks for a summary (its user pointer); they count st
 * too, as stats_callbacks() do. They take move runs (on_moves: a run
 * counted from its bytes, no call a node); with on_moves cleared every
 * move comes as its events, counted the same. */
void summary_callbacks(sgf_callbacks *cb);

/* 0, or -1 if memory fails. st: the stats to count alongside. */
int summary_init(summary *s, stats *st);
void summary_free(summary *s);

/* Before each input (the parser reset). */
void summary_begin(summary *s);

/* After each input: a game the parse left open (a fatal error stopped
 * it) is counted with what was read of it. */
void summary_end(summary *s);

/* into += from. 0, or -1 if memory fails. */
int summary_merge(summary *into, const summary *from);

/* The summary as text (the top players only, top of them) or as the
 * members of a JSON object ("results": {...}, ...: all of it). */
void summary_print(const summary *s, FILE *f, unsigned top);
void summary_json(const summary *s, FILE *f);

#endif /* SGF_TOOLS_SUMMARY_H */
