/* sgfstream/batch.h - batched events: the parser's events as compact
 * records in an array you provide, one handler call per batch, and move
 * runs as single records. The contracts it refers to as "above" (MOVE
 * RUNS, WHOLE VALUES, THE RETURN CONTRACT) are in sgfstream/parser.h.
 * <sgfstream.h> includes it with the rest; it stands alone too.
 */
#ifndef SGFSTREAM_BATCH_H
#define SGFSTREAM_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "sgfstream/common.h"
#include "sgfstream/parser.h"

#ifdef __cplusplus
extern "C" {
#endif

/* BATCHED EVENTS. A second way to receive the events: the parser fills
 * an array you provide with compact records and calls one handler per
 * batch, so that a consumer loops over an array instead of taking an
 * indirect call per event. Set it with sgf_parser_set_batch(); then
 * the event callbacks of sgf_callbacks are not called (on_diagnostic
 * still is), and each record is one event:
 *   SGF_EVENT_TREE_BEGIN, _TREE_END, _NODE, _PROPERTY_END, _NODE_END
 *                      as on_tree_begin ... on_node_end;
 *   SGF_EVENT_PROPERTY at, len: the identifier normalized, as
 *                      on_property gets it; ident: its code when it is
 *                      one or two letters (SGF_IDENT('B', 0),
 *                      SGF_IDENT('A', 'B')), else 0;
 *   SGF_EVENT_VALUE    a value whole, or one piece of it, with flags
 *                      SGF_VALUE_FIRST / SGF_VALUE_LAST: exactly the
 *                      calls on_value would get (WHOLE VALUES).
 * A record is 16 bytes, and relative to its batch (sgf_batch):
 *   offset   the event's input offset is b->offset + ev->offset: what
 *            sgf_parser_position() would give as offset in its callback.
 *            The line and column are not recorded: sgf_batch_position()
 *            computes them, during the handler, from the bytes of the
 *            batch (counted lazily, forward from the last one asked).
 *   at, len  PROPERTY and VALUE: the bytes are sgf_event_bytes(b, ev),
 *            that is b->bytes + at (the buffer being fed, or the bytes
 *            held back for look-ahead), or with SGF_EVENT_HELD in flags
 *            b->held + at (an identifier the parser assembled: split by
 *            a feed, lowercase letters, blanks before its '['). Valid
 *            during the handler only. The raw identifier is not given.
 *   flags    SGF_VALUE_FIRST, SGF_VALUE_LAST; SGF_EVENT_HELD; and
 *            SGF_EVENT_FAR when the position lies more than 2 GiB before
 *            the buffer being parsed (an identifier followed by that many
 *            blanks before its '['): offset is then 0, and only
 *            sgf_batch_position() has it. A record positioned before the
 *            buffer being parsed is always the last of its batch.
 *
 * kinds, if not 0, leaves the other kinds out of the batches (a consumer
 * that only counts needs no PROPERTY_END or NODE_END records): fewer
 * records to write and to read.
 *
 * MOVE RUNS in batches (added in 1.1). With SGF_EVENT_MOVES named in
 * kinds (only then: kinds 0 means every kind but MOVES), a run of plain
 * move nodes, as MOVE RUNS above defines it, may come as ONE record:
 *   SGF_EVENT_MOVES    offset: the run's first ';'; at, len: the run's
 *                      bytes, from that ';' up to the ';' after its
 *                      last node (not included, but there to read at
 *                      at + len), always in b->bytes (never
 *                      SGF_EVENT_HELD); sgf_event_count(ev): its
 *                      nodes, 1 to 65535 (a longer run comes as several
 *                      records). flags 0.
 * It stands for exactly the records of those nodes, of whichever kinds
 * you named: the NODE_END of the node open before the run, if one is;
 * then for each node NODE (at its ';'), PROPERTY (the letter, ident its
 * SGF_IDENT), VALUE (the two bytes, SGF_VALUE_FIRST | SGF_VALUE_LAST, at
 * the '['), PROPERTY_END (at the next node's ';'); and NODE_END (at the
 * next node's ';') for each node but the last, which stays open: its
 * node end comes next, as a record. A node's offset is the record's
 * plus its distance in the bytes; its line counts the line breaks before
 * it there (LF, or CR LF: a run holds no lone CR). sgf_batch_position()
 * of a MOVES record is its first ';'. A MOVES record is due (its batch
 * delivered right after it) when stop_kinds names SGF_EVENT_MOVES, and
 * the handler's result then acts as that of the last node's
 * PROPERTY_END: SGF_SKIP skips the rest of the innermost open game
 * tree, SGF_PAUSE stops the feed at the ';' after the run. When
 * stop_kinds names a kind a MOVES record stands for (NODE, PROPERTY,
 * VALUE, PROPERTY_END, NODE_END) among those recorded, no MOVES records
 * are written, so that each stop falls at its event. The parser writes
 * MOVES records only where it chooses to (a run must lie whole in the
 * buffer being parsed, for one): plain move nodes may still come as
 * their records one by one, so a consumer must take both. Walk a MOVES
 * record's nodes with sgf_run_iter_next() (sgfstream/run.h).
 *
 * When a batch is delivered: when the array is full, right after an
 * event whose kind is in stop_kinds (bit 1 << kind), and at the end of
 * every sgf_parser_feed() and sgf_parser_finish() (more than once in a
 * feed when bytes held back for look-ahead are parsed first). The
 * handler's result acts as the result of the callback of the batch's
 * last event (THE RETURN CONTRACT): SGF_SKIP from a batch delivered at a
 * node end skips what on_node_end's SGF_SKIP would; at the end of a
 * feed it skips the innermost tree still open. SGF_PAUSE makes feed
 * return SGF_PAUSED with *consumed after the last event's bytes.
 * Diagnostics go to on_diagnostic at once, so one may arrive before the
 * batch that holds the events before it: compare offsets. */
typedef enum sgf_event_kind {
  SGF_EVENT_TREE_BEGIN = 1,
  SGF_EVENT_TREE_END = 2,
  SGF_EVENT_NODE = 3,
  SGF_EVENT_PROPERTY = 4,
  SGF_EVENT_VALUE = 5,
  SGF_EVENT_PROPERTY_END = 6,
  SGF_EVENT_NODE_END = 7,
  SGF_EVENT_MOVES = 8 /* opt-in: MOVE RUNS in batches (1.1) */
} sgf_event_kind;

#define SGF_IDENT(a, b) \
  ((unsigned)(unsigned char)(a) | ((unsigned)(unsigned char)(b) << 8))

#define SGF_EVENT_HELD 0x40u /* at is relative to b->held */
#define SGF_EVENT_FAR 0x80u  /* offset not recorded: sgf_batch_position() */

typedef struct sgf_event {
  uint32_t offset; /* the event's position, minus the batch's offset */
  uint32_t at;     /* PROPERTY: the identifier; VALUE: the bytes; else 0 */
  uint32_t len;
  uint16_t ident; /* PROPERTY: SGF_IDENT of a 1- or 2-letter identifier;
                     MOVES: the node count (sgf_event_count) */
  uint8_t kind;   /* sgf_event_kind */
  uint8_t flags;  /* SGF_VALUE_FIRST, SGF_VALUE_LAST, SGF_EVENT_HELD, _FAR */
} sgf_event;

/* One batch: n (>= 1) records at ev, and what their fields are relative
 * to (valid during the handler only). */
typedef struct sgf_batch {
  const sgf_event *ev;
  size_t n;
  uint64_t offset;   /* added to each record's offset */
  const char *bytes; /* at is relative to it, */
  const char *held;  /* or to this with SGF_EVENT_HELD */
} sgf_batch;

/* The bytes of a PROPERTY or VALUE record. */
static inline const char *sgf_event_bytes(const sgf_batch *b,
                                          const sgf_event *ev) {
  return ((ev->flags & SGF_EVENT_HELD) ? b->held : b->bytes) + ev->at;
}

/* The number of nodes a MOVES record stands for (1 to 65535); 0 for a
 * record of any other kind. */
static inline size_t sgf_event_count(const sgf_event *ev) {
  return ev->kind == SGF_EVENT_MOVES ? (size_t)ev->ident : 0u;
}

/* The position of a record of the batch being delivered (call it from
 * the handler): the offset, line and column sgf_parser_position() would
 * have given in the event's callback. Asked in order it counts each
 * byte's line breaks once; asking for an earlier record counts again
 * from the start of the buffer. */
SGF_EXTERN sgf_pos sgf_batch_position(sgf_parser *p, const sgf_event *ev);

/* The batch handler. Returns an sgf_action. */
typedef int (*sgf_batch_cb)(sgf_parser *p, void *user, const sgf_batch *b);

typedef struct sgf_batch_options {
  size_t size;           /* sizeof(sgf_batch_options): _init() */
  sgf_batch_cb on_batch; /* required */
  sgf_event *events;     /* the array the parser fills; yours, kept */
  size_t capacity;       /* its length, at least 1 */
  unsigned stop_kinds;   /* deliver right after these kinds (1u << kind) */
  unsigned kinds;        /* record only these kinds (1u << kind); 0: all
                            but SGF_EVENT_MOVES */
} sgf_batch_options;

/* Zero *b and set its size. */
SGF_EXTERN void sgf_batch_options_init(sgf_batch_options *b);

/* Receive the events in batches (b copied; VERSIONED STRUCTS), or with
 * b NULL through the callbacks again. Between feeds only. Returns SGF_OK,
 * SGF_EBUSY (inside a callback) or SGF_EINVAL (b invalid: no handler,
 * no array, capacity 0, or a bad size; nothing changed). */
SGF_EXTERN int sgf_parser_set_batch(sgf_parser *p, const sgf_batch_options *b);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_BATCH_H */
