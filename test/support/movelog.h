/* movelog.h - a log of every event of a parse, each with its position,
 * for the MOVE RUNS differential (test/unit/moves.c, and fuzz_split's
 * fz_check_moves): with on_moves set, each run is expanded into the
 * events it stands for, positioned as the contract in sgfstream.h says;
 * the log must then be what the same handlers log without on_moves.
 *
 * A movelog's first member is the bytebuf the tree and diagnostic
 * handlers log into, so that those handlers also serve a bare bytebuf.
 */
#ifndef SGF_TEST_MOVELOG_H
#define SGF_TEST_MOVELOG_H

#include <sgfstream.h>
#include <stddef.h>
#include <stdint.h>

#include "bytebuf.h"

/* What a parse listens to: only trees and diagnostics (QUIET); those and
 * a no-op on_node (LISTEN); every event (FULL); every event and on_moves
 * (RUNS), pausing at every other run (RUNS_PAUSE) or skipping at every
 * third (RUNS_SKIP). */
enum {
  MOVELOG_QUIET,
  MOVELOG_LISTEN,
  MOVELOG_FULL,
  MOVELOG_RUNS,
  MOVELOG_RUNS_PAUSE,
  MOVELOG_RUNS_SKIP,
  /* every event, and on_moves expanding each run with the library's
   * sgf_run_replay() into the FULL handlers (REPLAY), or logging it with
   * sgf_run_iter_next() (ITER): checked against the expansion here
   * (RUNS) and the general path (FULL); REPLAY pauses and skips where
   * its handlers do (movelog_acts), ITER never */
  MOVELOG_REPLAY,
  MOVELOG_ITER
};

typedef struct movelog {
  bytebuf log; /* first: the tree and diagnostic handlers log into it */
  int open;    /* a node is open (for the node end a run stands for) */
  int pause;   /* on_moves pauses every other run */
  unsigned long runs;
  bytebuf val; /* the value so far, from the piece at vpos */
  sgf_pos vpos;
  /* on_moves skips at every third run, noting where its last node's
   * property ends; the general parse (FULL, given skip_at) skips from
   * on_property_end there */
  int skip;
  uint64_t skip_at[64];
  size_t nskip, iskip;
  /* likewise where on_moves paused (every other run), so that the
   * general parse pauses there too: a pause starts a new pass, and where
   * a pass begins decides where a long value's slices begin (the
   * position during a diagnostic inside a value) */
  uint64_t pause_at[64];
  size_t npause, ipause;
  const char *bad;    /* the first breach of the contract a run showed */
  sgf_callbacks full; /* REPLAY: the FULL handlers the runs replay into */
} movelog;

/* f zeroed, for mode; its log and val empty. */
void movelog_init(movelog *f, int mode);
/* Where from's runs skipped and paused, for the general parse f (FULL,
 * or REPLAY) to act at the same places; to is f. */
void movelog_acts(movelog *to, const movelog *from);
void movelog_free(movelog *f);
/* The callbacks of mode, into cb (initialized here). */
void movelog_callbacks(sgf_callbacks *cb, int mode);
/* A line "WHAT CODE LINE:COL@OFFSET [raw identifier]" into log. */
void movelog_note(sgf_parser *p, bytebuf *log, const char *what, int code);

#endif
