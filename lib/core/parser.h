/* parser.h - the parser's private state and the functions the units of
 * lib/core share (see parser.c for the design). Visible to no other
 * layer. */
#ifndef SGF_PARSER_H
#define SGF_PARSER_H

#include "sgfstream.h"
#include "sgfstream/event_state.h"
#include "sgfstream/utf16.h"
#include "sized.h"

/* A position as the parser keeps it: the column is derived on demand. */
typedef struct sgf__mark {
  uint64_t off;
  uint64_t line;
  uint64_t line_start; /* offset of the first byte of that line */
} sgf__mark;

struct sgf__scanners;

/* Bytes looked at after a ']' whose meaning depends on what follows. */
#define SGF__LOOKAHEAD 64
/* Value bytes kept from before the buffer being parsed, to look back. */
#define SGF__VTAIL 8

struct sgf_parser {
  sgf_callbacks cb;
  const struct sgf__scanners *scan; /* bulk scanners (scan.h) */
  void *user;
  sgf_allocator alloc;
  unsigned flags;
  uint64_t max_depth;
  size_t max_ident_len;

  int state;      /* ST_* in parser.c */
  int status;     /* sticky: SGF_OK, SGF_PAUSED, SGF_EABORTED, SGF_EPARSE,
                     SGF_EACTION */
  int refused;    /* the stop was a callback's value that is not an
                     action (ACTIONS ARE NOT RESULTS): SGF_EACTION */
  int seen_tree;  /* a game tree has begun */
  int quiet;      /* bit 0: junk reported; bit 1: NUL reported, since the
                     last event */
  int ws_seen;    /* whitespace between identifier and '[' */
  int cand;       /* '(' or ';' that may open a game tree at depth 0 */
  int open_ret;   /* state to return to after an empty "()" */
  int orphan_ret; /* state to return to after a value passed over */

  uint64_t depth;       /* game trees open (implicit ones included) */
  uint64_t skip_target; /* 0, or the depth whose tree is being skipped */
  int skip_silent;      /* that tree gets no tree-end (mainline mode) */
  uint64_t *implicit;   /* depths of open implicit variations: grows on
                           demand, never past max_depth entries */
  size_t nimplicit, implicit_cap;

  /* The opt-in event state (sgfstream/event_state.h, version
   * SGF_EVENT_STATE_VERSION: a change here raises it):
   *   ev.offset        offset of the event being delivered
   *   ev.line          current line
   *   ev.line_start    offset where it began
   *   ev.raw_ident, ev.raw_ident_len
   *                    what sgf_parser_raw_ident returns: raw, or the
   *                    identifier in the caller's buffer (fast path)
   *   ev.live          inside feed or finish: callbacks may not re-enter
   * sgf_event_position() reads the first three when ev.live is set and
   * ev.offset >= ev.line_start, exactly as sgf_parser_position() would:
   * keep the two in step. */
  sgf_event_state ev;
  uint64_t offset; /* bytes consumed so far */
  uint64_t cr_end; /* offset just after the last CR (CR LF is one) */

  sgf__mark ev_saved;  /* the event's full mark when ev.offset is before
                          ev.line_start */
  sgf__mark tree_open; /* '(' of the current top-level tree */
  sgf__mark cand_pos;  /* the candidate opener at depth 0 */
  sgf__mark open_pos;  /* pending '(' inside a tree */
  sgf__mark ident_pos; /* first byte of the current identifier */
  sgf__mark value_pos; /* '[' of the current value */

  char *ident; /* normalized identifier, NUL-terminated */
  size_t ident_len;
  char *raw; /* identifier as written, NUL-terminated; its length
                is ev.raw_ident_len when ev.raw_ident is raw */

  sgf_diag error; /* the diagnostic that stopped the parser */
  int has_error;

  /* Double-byte trail bytes (see DOUBLE-BYTE TEXT in parser.c). */
  const unsigned char *buf;        /* while feeding: the buffer being parsed */
  unsigned char vtail[SGF__VTAIL]; /* the last bytes of the open value
                                      before the buffer being parsed,
                                      oldest first */
  size_t vtail_len;
  int at_eof;        /* finish(): no byte follows the held-back ones */
  int vfirst;        /* on_value: the open value's first piece is
                        still to be delivered */
  int closing;       /* on_tree_end is being delivered */
  int node_open;     /* a node began and on_node_end has not fired
                        (kept for on_node_end only) */
  uint64_t ndiag[3]; /* diagnostics reported, per severity - 1 */
  size_t la_len;     /* bytes held back in la, not yet parsed */

  /* BATCHED EVENTS (sgfstream.h): bev is NULL in callback mode. whole:
   * values come as pieces (on_value set, or batches); want_node_end:
   * node ends are delivered (on_node_end set, or batches). */
  sgf_callbacks ucb; /* the callbacks given (cb holds placeholders) */
  sgf_event *bev, *bcur, *bend; /* the array, the next record, its end */
  unsigned bstop;
  unsigned bkinds; /* the kinds recorded (never 0) */
  sgf_batch_cb on_batch;
  /* The pass (one buffer given to the tokenizer, sgf__batch_pass): its
   * bytes and offset; the batch's base offset (bbias before it, so that
   * records deferred from an earlier buffer fit a record); the line
   * state at its start (bl0) and sgf_batch_position's cursor (bl); the
   * mark of a record positioned before the pass (bfar). */
  const char *bbytes;
  uint64_t bpass, bbase, bbias;
  int bearly;      /* ev.offset may lie before the pass (SGF__EARLY) */
  int bturbo;      /* no kind of a move's records stops a batch (move_run) */
  int bmoves;      /* MOVES records are written (kinds names them, and no
                      kind they stand for stops a batch) */
  int quiet_moves; /* callbacks: 1 when no handler listens to a move
                      node's events (node, property, value, property end,
                      node end), so runs of them are passed in bulk
                      (moves.c); 2 when on_moves takes such runs */
  sgf__mark bl0, bl, bfar;
  uint64_t bl0_cr, bl_cr;
  int whole;
  int want_node_end;

  /* During on_moves, for sgf_run_replay(): a node was open before the
   * run (its node end is the run's first event; kept for on_node_end
   * only), and the identifier as written before it (what the events
   * before the run's first property give). */
  int run_open;
  const char *run_raw;
  size_t run_raw_len;
  unsigned char la[2 * SGF__LOOKAHEAD + 8];

  /* THE FIRST BYTES (parser.c): enc is SGF_UTF16_UNDECIDED until the
   * first bytes, kept in head, decide (sgf_utf16_detect); then
   * SGF_UTF16_NONE (the bytes are parsed as fed) or, with SGF_OPT_UTF16,
   * the byte order of the UTF-16 input, converted by u16 into u16out
   * before parsing. pend: bytes taken from the caller (head, or text in
   * u16out) and not parsed yet; they come before any byte fed next.
   * u16bad: a code unit that does not decode follows them. */
  int enc;
  int u16bad;
  unsigned char head[4];
  size_t nhead;
  const unsigned char *pend;
  size_t pend_len;
  unsigned char *u16out; /* SGF__U16_OUT bytes, with SGF_OPT_UTF16 */
  sgf_utf16_decoder u16;
};

/* The converted text of a UTF-16 input is parsed this many bytes at a
 * time at most. */
#define SGF__U16_OUT 4096

/* The states of the tokenizer (described in tokenize.c). */
enum {
  ST_TOP,
  ST_BOM,
  ST_TOP_OPEN,
  ST_TOP_IDENT,
  ST_TOP_IDENT_WS,
  ST_CONFIRM_NODE,
  ST_OPEN,
  ST_SEQ_START,
  ST_NODE,
  ST_IDENT,
  ST_AFTER_IDENT,
  ST_PROP,
  ST_VALUE,
  ST_VALUE_ESC,
  ST_VALUE_TRAIL, /* the ']' at the cursor is a trail byte: value data */
  ST_AFTER_VALUE,
  ST_ORPHAN,
  ST_ORPHAN_ESC,
  ST_LONG_IDENT,
  ST_DROP_VALUES,
  ST_AFTER_CHILD,
  ST_SKIP,
  ST_SKIP_VALUE,
  ST_SKIP_ESC,
  ST_FIN_CLOSE,
  ST_DONE
};

/* sgf__feed_core() stopped for look-ahead: the rest of the chunk is held
 * back (DOUBLE-BYTE TEXT in dbcs.c). */
#define SGF__NEED 100

/* What a look-ahead after a ']' found (sgf__bracket_closes). */
enum { LA_CLOSE, LA_GO_ON, LA_NEED };

/* A mark as the API gives positions. */
static inline sgf_pos sgf__mark_pos(const sgf__mark *m) {
  sgf_pos r;
  r.offset = m->off;
  r.line = m->line;
  r.column = m->off - m->line_start + 1;
  return r;
}

/* parser.c: report a diagnostic of the parser's at a mark; 0 to go on,
 * 1 if the parser stopped (the error is set), 2 if the handler aborted. */
int sgf__diag(sgf_parser *p, sgf_diag_code code, const sgf__mark *at,
              const sgf__mark *mark);
/* parser.c: deliver the batch (it is not empty); the handler's result. */
int sgf__batch_flush(sgf_parser *p);
/* parser.c: a pass over buf (at p->offset) begins (the batch is empty). */
void sgf__batch_pass(sgf_parser *p, const void *buf);
/* parser.c: record at e an event the fast path of emit.h (sgf__rec)
 * does not take: its bytes in p->ident, or its position before the
 * pass. Returns 1 if recorded (the batch is then due at once), 0 if its
 * kind is not recorded. */
int sgf__rec_slow(sgf_parser *p, sgf_event *e, unsigned kind, const char *at,
                  size_t len, unsigned flags);

/* A pass covers at most this many bytes (sgf_parser_feed splits a
 * bigger buffer), and the batch's base lies at most this far before it:
 * every offset within the pass fits a record's 32 bits. */
#define SGF__PASS_MAX ((size_t)1 << 31)
/* parser.c: before sgf_parser_finish() closes the input: the first
 * bytes decided, the bytes taken parsed, a UTF-16 character cut off at
 * the end reported. SGF_OK or the status that stopped the parser. */
int sgf__finish_input(sgf_parser *p);
/* parser.c: the buffered identifier is complete: normalize it. */
void sgf__ident_finish(sgf_parser *p);
/* After a pass of sgf__feed_core: the last identifier kept in raw if it
 * lies in the bytes parsed (parser.c). */
void sgf__keep_raw(sgf_parser *p);

/* tokenize.c: parse len bytes at buf, the next ones of the input. Returns
 * SGF_OK, SGF_PAUSED, SGF_EABORTED, SGF_EPARSE, or SGF__NEED when it
 * stopped at a ']' whose meaning the bytes up to the end do not tell yet:
 * *consumed says where, and the caller holds the rest back. */
int sgf__feed_core_cb(sgf_parser *p, const unsigned char *buf, size_t len,
                      size_t *consumed);
/* tokenize_batch.c: the same for batched events (p->bev set). */
int sgf__feed_core_batch(sgf_parser *p, const unsigned char *buf, size_t len,
                         size_t *consumed);
static inline int sgf__feed_core(sgf_parser *p, const unsigned char *buf,
                                 size_t len, size_t *consumed) {
  return p->bev ? sgf__feed_core_batch(p, buf, len, consumed)
                : sgf__feed_core_cb(p, buf, len, consumed);
}

/* dbcs.c (see DOUBLE-BYTE TEXT there). */
int sgf__bracket_closes(const unsigned char *s, const unsigned char *end,
                        int eof);
int sgf__dbcs_before_escape(const sgf_parser *p, const unsigned char *at);
int sgf__dbcs_before(const sgf_parser *p, const unsigned char *at);
void sgf__keep_vtail(sgf_parser *p, int st, const unsigned char *s);

#endif
