/* sgfstream/run.h - the nodes of a move run, and the events it stands
 * for.
 *
 * A run of plain move nodes (";B[qd]" and the like, line breaks between
 * them) comes in one on_moves call or one SGF_EVENT_MOVES record, in
 * place of its nodes' events: MOVE RUNS in <sgfstream.h> gives the rule.
 * This header is the library's reading of that rule, so that no program
 * need write its own:
 *
 *   sgf_run_iter_init(), sgf_run_iter_next()
 *       walk the run's nodes, each with its bytes, its letter, its value
 *       and its position. Inline: a fast path (a tree builder, a writer,
 *       a counter) pays no call a node.
 *   sgf_run_replay()
 *       from on_moves: make the events the run stands for, positioned as
 *       the parser positions them, into a set of callbacks (a handler
 *       that takes runs passing them on to one that does not).
 *
 *   static int on_moves(sgf_parser *p, void *u, const char *at, size_t len,
 *                       size_t count) {
 *     sgf_pos first = sgf_parser_position(p);
 *     sgf_run_iter it;
 *     sgf_run_node n;
 *     sgf_run_iter_init(&it, at, len, &first);
 *     while (sgf_run_iter_next(&it, &n))
 *       printf("%c %.2s at %llu:%llu\n", n.letter, n.value,
 *              (unsigned long long)n.line, (unsigned long long)n.column);
 *     return SGF_CONTINUE;
 *   }
 *
 * This header needs only sgfstream/common.h; <sgfstream.h> includes it.
 */
#ifndef SGFSTREAM_RUN_H
#define SGFSTREAM_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "sgfstream/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* <sgfstream.h>'s parser and callbacks (sgf_run_replay), by their tags */
struct sgf_parser;
struct sgf_callbacks;

/* One node of a run: ";X[vv]", six bytes. */
typedef struct sgf_run_node {
  const char *at;    /* its ';' (at[1] the letter, at[2] '[', at[5] ']') */
  const char *value; /* its value's two bytes (at + 3), unescaped already:
                        a run's values hold no '\\' */
  char letter;       /* its identifier, one uppercase letter: 'B' or 'W'
                        for a move, any other (";C[ab]") as written */
  uint64_t offset;   /* its ';' in the input */
  uint64_t line;     /* its ';''s line and column: the first node's are */
  uint64_t column;   /* the position given to sgf_run_iter_init() */
} sgf_run_node;

/* The walk: fill it with sgf_run_iter_init(); its members are private. */
typedef struct sgf_run_iter {
  const char *p, *start, *end;
  uint64_t offset;     /* of start */
  uint64_t line;       /* the line of the node at p */
  uint64_t line_start; /* where that line begins (an offset) */
} sgf_run_iter;

/* A walk over the run at, len (on_moves' at and len, or a MOVES record's
 * sgf_event_bytes() and len). first: the position of its first ';'
 * (sgf_parser_position() in on_moves, sgf_batch_position() for a
 * record); NULL when the positions are not wanted (then offsets count
 * from the run's first byte, on line 1). */
static inline void sgf_run_iter_init(sgf_run_iter *it, const char *at,
                                     size_t len, const sgf_pos *first) {
  it->p = it->start = at;
  it->end = at + len;
  if (first) {
    it->offset = first->offset;
    it->line = first->line;
    it->line_start = first->offset - (first->column - 1);
  } else {
    it->offset = 0;
    it->line = 1;
    it->line_start = 0;
  }
}

/* The next node into *n: 1, or 0 at the run's end. A node is six bytes,
 * then the next node's ';' at once, after an LF or after a CR LF, each
 * line break counted into the next node's line. Bytes that are no run
 * are not refused (only their length is: fewer than six bytes left end
 * the walk): give what on_moves or a MOVES record gave. */
static inline int sgf_run_iter_next(sgf_run_iter *it, sgf_run_node *n) {
  const char *q = it->p;
  uint64_t off;
  if (it->end - q < 6) return 0;
  off = it->offset + (uint64_t)(q - it->start);
  n->at = q;
  n->value = q + 3;
  n->letter = q[1];
  n->offset = off;
  n->line = it->line;
  n->column = off - it->line_start + 1;
  q += 6;
  if (q < it->end && *q != ';') { /* a line break: LF, or CR LF */
    q += (*q == '\r' && q + 1 < it->end && q[1] == '\n') ? 2 : 1;
    it->line++;
    it->line_start = it->offset + (uint64_t)(q - it->start);
  }
  it->p = q;
  return 1;
}

/* Where the walk stands: the position of the next node's ';' (past the
 * line break after the node sgf_run_iter_next() gave last); once the
 * walk is over, of the ';' after the run (where the last node's
 * property ends). */
static inline sgf_pos sgf_run_iter_pos(const sgf_run_iter *it) {
  sgf_pos r;
  r.offset = it->offset + (uint64_t)(it->p - it->start);
  r.line = it->line;
  r.column = r.offset - it->line_start + 1;
  return r;
}

/* From on_moves (with its p, at and len): the events the run stands for
 * (MOVE RUNS in <sgfstream.h>), made into cb with user, each positioned
 * as the parser positions it (sgf_parser_position() and
 * sgf_parser_raw_ident() give, during each, what they give during that
 * event without on_moves): on_node_end of the node open before the run,
 * if one is (the parser knows only when its own callbacks set
 * on_node_end); then per node on_node at its ';', on_property (the
 * letter) at the letter, its value at the '[' (on_value with
 * SGF_VALUE_FIRST | SGF_VALUE_LAST when cb sets on_value, else
 * on_value_begin there, on_value_data at the first value byte and
 * on_value_end at the ']'), on_property_end at the next node's ';'; and
 * on_node_end there for each node but the last. Members of cb that are
 * NULL (or past cb->size) are left out; cb->on_moves is not called.
 *
 * Returns what the run's on_moves returns: SGF_CONTINUE, or the first
 * SGF_ABORT or SGF_SKIP an event returned (the events stop there: the
 * rest of the run is in the tree a skip skips), or else SGF_PAUSE if
 * one returned it: the feed then stops at the ';' after the run, not at
 * the event (a run is delivered whole). */
SGF_EXTERN int sgf_run_replay(struct sgf_parser *p, const char *at, size_t len,
                              const struct sgf_callbacks *cb, void *user);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_RUN_H */
