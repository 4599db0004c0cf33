/* valuelog.h - one log for both ways of receiving values, to check that
 * whole values (sgf_callbacks.on_value) carry what the three value events
 * carry.
 *
 * A value is one line however it arrived: the position of its '[', its
 * raw bytes, and the position of its ']' (single events: where value-end
 * is; on_value: computed from the pieces' positions and bytes, as a user
 * would). Every other event and every diagnostic is a line with its
 * position. Test code only.
 *
 * The on_value side also checks the contract: pieces of one value FIRST
 * ... LAST, each at the position its bytes follow from, inside the buffer
 * being fed (or held-back input bytes), the input's bytes there.
 *
 * Each call is also noted in `kinds`, one letter: b e n p v d V P for the
 * single events, and for pieces f (FIRST only), m (neither), l (LAST
 * only), w (FIRST and LAST); diagnostics are not calls and not noted. */
#ifndef SGF_TEST_VALUELOG_H
#define SGF_TEST_VALUELOG_H

#include <sgfstream.h>

#include "testutil.h"

typedef struct vlog {
  bytebuf out;        /* the log */
  bytebuf kinds;      /* one letter per call */
  char contract[256]; /* first contract violation seen, "" if none */
  /* the buffer being fed and the whole input, for the slice contract */
  const char *win, *input;
  size_t winlen;
  uint64_t inlen;
  /* the call (0-based, diagnostics not counted) that returns action;
   * -1 for none */
  long action_at;
  int action;
  long calls;
  /* batches (vlog_batch): the position of the record being replayed, in
   * place of sgf_parser_position(); omit_raw: log no raw identifier
   * (batches do not give it; set it on both sides of a comparison) */
  const sgf_pos *pos;
  unsigned long nbatch; /* batches replayed */
  /* MOVES records: expected (set it when kinds names SGF_EVENT_MOVES);
   * the nodes they stood for; the call (a long each) ending each one */
  int moves;
  unsigned long nmoves;
  bytebuf mends;
  int omit_raw;
  /* private */
  int in_value;
  sgf_pos vpos; /* the value's '[' */
  bytebuf vbytes;
  uint64_t off, line, ls, cr_end; /* on_value: position after the bytes */
} vlog;

void vlog_init(vlog *v);
void vlog_free(vlog *v);
void vlog_clear(vlog *v);

/* Callbacks writing the log: the three value events, or on_value. */
void vlog_single_callbacks(sgf_callbacks *cb);
void vlog_whole_callbacks(sgf_callbacks *cb);

/* A batch handler (sgf_parser_set_batch, user: the vlog): replays each
 * record into the whole-value log as the callbacks would log it (node
 * ends are not logged, nor counted as calls); a MOVES record is expanded
 * into the records it stands for, positioned as the header says. A
 * record other than the batch's last that asks for an action is a
 * contract violation, and so is an action at any call a MOVES record
 * stands for but its last. */
int vlog_batch(sgf_parser *p, void *u, const sgf_batch *b);

/* The call of kinds to that is of the same kind as call k of kinds from,
 * and as many of that kind before it (-1 if none): where a MOVES
 * record's run ends (a property end) in a parse without them, whose
 * values may come in more pieces (a possible double-byte lead). */
long vlog_call_like(const bytebuf *from, long k, const bytebuf *to);

/* Remove the diagnostic lines ('!') of a log (batches deliver
 * diagnostics at once, ahead of the events batched before them). */
void vlog_drop_diags(bytebuf *b);

/* For each call j of a whole-value run (its kinds w), the index of the
 * call of the single-event run of the same input and chunks (kinds s)
 * after which the parser stands where it stands after call j: a piece
 * that ends its value matches value-end, one that does not its
 * value-data; value-begin has no call of its own. An entry is -1 where
 * the two do not match (a bug). Free the array (w->len + 1 entries). */
long *vlog_match_calls(const bytebuf *s, const bytebuf *w);

/* A log of batch records as they are (no replay): one line a record of
 * the kinds in `kinds` (bit 1 << kind), with its kind, absolute offset
 * (0 with SGF_EVENT_FAR), sgf_batch_position, len, ident, flags and, for
 * a property or a value, its bytes. rlog_batch is an on_batch handler
 * whose user is the rlog. Compares a parse that leaves kinds out with
 * the records of those kinds in one that keeps every kind. */
typedef struct rlog {
  bytebuf out;
  unsigned kinds;
} rlog;
int rlog_batch(sgf_parser *p, void *u, const sgf_batch *b);

#endif /* SGF_TEST_VALUELOG_H */
