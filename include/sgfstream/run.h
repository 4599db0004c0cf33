/* sgfstream/run.h - the nodes of a move run, and the events it stands
 * for.
 *
 * A run of plain move nodes (";B[qd]" and the like, line breaks between
 * them) comes in one on_moves call or one SGF_EVENT_MOVES record, in
 * place of its nodes' events: MOVE RUNS in <sgfstream/parser.h> gives the rule.
 * This header is the library's reading of that rule, so that no program
 * need write its own:
 *
 *   sgf_run_iter_init(), sgf_run_iter_next()
 *       walk the run's nodes, each with its bytes, its letter, its value
 *       and its position. Inline: a fast path (a tree builder, a writer,
 *       a counter) pays no call a node.
 *   sgf_run_iter_step()
 *       the same walk for a loop that counts the run's nodes: one test
 *       a node fewer.
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

/* The walk: fill it with sgf_run_iter_init(); its members are private.
 * Positions are kept as biases to add to a byte's address (unsigned
 * arithmetic, modulo 2^64): a node's offset and column cost one addition
 * each. */
typedef struct sgf_run_iter {
  const char *p;    /* the next node, or the line break before it */
  const char *end;  /* past the run's last byte */
  const char *stop; /* a node that begins before it is whole */
  uint64_t obias;   /* a byte's offset: its address + obias */
  uint64_t cbias;   /* its column on the current line: address + cbias */
  uint64_t line;    /* the line of the byte at p */
} sgf_run_iter;

/* A walk over the run at, len (on_moves' at and len, or a MOVES record's
 * sgf_event_bytes() and len). first: the position of its first ';'
 * (sgf_parser_position() in on_moves, sgf_batch_position() for a
 * record); NULL when the positions are not wanted (then offsets count
 * from the run's first byte, on line 1). */
static inline void sgf_run_iter_init(sgf_run_iter *it, const char *at,
                                     size_t len, const sgf_pos *first) {
  const uint64_t a = (uint64_t)(uintptr_t)at;
  it->p = at;
  it->end = at + len;
  it->stop = len >= 6 ? at + (len - 5) : at;
  it->obias = (first ? first->offset : 0) - a;
  it->cbias = (first ? first->column : 1) - a;
  it->line = first ? first->line : 1;
}

/* The next node into *n, for a walk that counts its nodes: only while
 * fewer nodes have been given (by this or sgf_run_iter_next()) than the
 * run holds (on_moves' count, sgf_event_count()). The same node as
 * sgf_run_iter_next() gives there, without its test of the run's end: a
 * loop that counts pays one test a node (the ';' or the line break
 * before it), not two. Past the run's count it reads past the run. */
static inline void sgf_run_iter_step(sgf_run_iter *it, sgf_run_node *n) {
  const char *q = it->p;
  if (*q != ';') { /* the line break after the node before: LF, or CR LF */
    q += (*q == '\r' && q[1] == '\n') ? 2 : 1;
    it->line++;
    it->cbias = 1 - (uint64_t)(uintptr_t)q;
  }
  n->at = q;
  n->value = q + 3;
  n->letter = q[1];
  n->offset = (uint64_t)(uintptr_t)q + it->obias;
  n->line = it->line;
  n->column = (uint64_t)(uintptr_t)q + it->cbias;
  it->p = q + 6;
}

/* The next node into *n: 1, or 0 at the run's end. A node is six bytes,
 * then the next node's ';' at once, after an LF or after a CR LF (each
 * line break counted into the next node's line). Bytes that are no run
 * are not refused, only read as if they were one, never past at + len
 * (fewer than six bytes left end the walk): give what on_moves or a
 * MOVES record gave. */
static inline int sgf_run_iter_next(sgf_run_iter *it, sgf_run_node *n) {
  const char *q = it->p;
  if (q >= it->stop) return 0;
  /* a line break first (LF, or CR LF): the node after it whole, or the
   * walk is over (the break left unwalked: see sgf_run_iter_pos) */
  if (*q != ';' && q + ((*q == '\r' && q[1] == '\n') ? 2 : 1) >= it->stop)
    return 0;
  sgf_run_iter_step(it, n);
  return 1;
}

/* Where the walk stands: the position of the next node's ';' (past the
 * line break after the node sgf_run_iter_next() gave last); once the
 * walk is over, of the ';' after the run (where the last node's
 * property ends). */
static inline sgf_pos sgf_run_iter_pos(const sgf_run_iter *it) {
  const char *q = it->p;
  sgf_pos r;
  r.line = it->line;
  r.column = (uint64_t)(uintptr_t)q + it->cbias;
  if (q < it->end && *q != ';') { /* a line break, not yet walked */
    q += (*q == '\r' && q + 1 < it->end && q[1] == '\n') ? 2 : 1;
    r.line++;
    r.column = 1;
  }
  r.offset = (uint64_t)(uintptr_t)q + it->obias;
  return r;
}

/* The position of the node sgf_run_iter_next() gave last (its ';'): what
 * it put in n->offset, n->line and n->column; once it has returned 0, the
 * run's last node's. Only after it has given a node. For a loop that
 * wants the position of few nodes (its last, say): the fields of n it
 * does not read cost nothing once inlined, and this costs nothing per
 * node. */
static inline sgf_pos sgf_run_iter_last(const sgf_run_iter *it) {
  const char *q = it->p - 6;
  sgf_pos r;
  r.offset = (uint64_t)(uintptr_t)q + it->obias;
  r.line = it->line;
  r.column = (uint64_t)(uintptr_t)q + it->cbias;
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
