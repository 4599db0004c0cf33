/* emit.h - how the tokenizer (tokenize.c) and finish (finish.c) deliver
 * events and diagnostics: the discipline of parser.c's essay, spelled
 * once. Each macro works on the locals those functions share: p, st (the
 * state to resume in), s (the byte to resume at) and bias (OFF), and
 * jumps to their labels paused, aborted and failed. Private to lib/core.
 */
#ifndef SGF_EMIT_H
#define SGF_EMIT_H

#include "parser.h"

#if defined(__GNUC__)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UNLIKELY(x) (x)
#endif

/* The skip state matching a resume state. */
static inline int skip_state(int st) {
  if (st == ST_VALUE) return ST_SKIP_VALUE;
  if (st == ST_VALUE_ESC) return ST_SKIP_ESC;
  if (st == ST_VALUE_TRAIL) return ST_SKIP_VALUE;
  return ST_SKIP;
}

#define OFF(q) ((uint64_t)(uintptr_t)(q) + bias)
/* The current event is at offset ev.offset; when that is before the current
 * line (a deferred event, a slice spanning lines) ev_saved has its mark. */
#define SETEV(m) \
  (p->ev.offset = (m).off, p->ev_saved = (m), SGF__EARLY((m).off))

#define HERE(m)                        \
  do {                                 \
    (m).off = OFF(s);                  \
    (m).line = p->ev.line;             \
    (m).line_start = p->ev.line_start; \
  } while (0)

/* Call back; on anything but continue, act on it. The state to resume in
 * (st) and the byte to resume at (s) must be set before. A value that is
 * not an action stops the parse as an abort does, with SGF_EACTION
 * (ACTIONS ARE NOT RESULTS in sgfstream/parser.h). */
#define CALLBACK(call)                       \
  do {                                       \
    int r_ = (call);                         \
    if (r_ != SGF_CONTINUE) {                \
      if (r_ == SGF_SKIP) {                  \
        if (p->depth > 0) {                  \
          st = skip_state(st);               \
          p->skip_target = p->depth;         \
          p->node_open = 0;                  \
        }                                    \
      } else if (r_ == SGF_PAUSE) {          \
        goto paused;                         \
      } else {                               \
        if (r_ != SGF_ABORT) p->refused = 1; \
        goto aborted;                        \
      }                                      \
    }                                        \
  } while (0)

/* BATCHED EVENTS (sgfstream.h): with p->bev set, events are recorded
 * in the caller's array instead of called back, and the batch is
 * delivered through CALLBACK when it is due, so that its result acts on
 * the event recorded last. SGF__BATCH says which: tokenize.c is compiled
 * twice, with it 0 (callbacks) and 1 (tokenize_batch.c), so that neither
 * copy of the hot loop tests the mode per event; elsewhere (finish.c) it
 * is the test. The record kinds of the callbacks: */
#ifndef SGF__BATCH
#define SGF__BATCH UNLIKELY(p->bev != NULL)
#endif
/* The only events whose position may lie before the pass are those
 * placed with SETEV (a mark taken earlier): it tells sgf__rec, which
 * then takes the slow path (that offsets set from the cursor need no
 * test). A flag left set by an event not recorded costs one slow record. */
#define SGF__EARLY(off) \
  (SGF__BATCH ? (void)(p->bearly = (off) < p->bpass) : (void)0)
#define K_on_tree_begin SGF_EVENT_TREE_BEGIN
#define K_on_tree_end SGF_EVENT_TREE_END
#define K_on_node SGF_EVENT_NODE
#define K_on_property SGF_EVENT_PROPERTY
#define K_on_property_end SGF_EVENT_PROPERTY_END
#define K_on_node_end SGF_EVENT_NODE_END
/* (never recorded: batches take values whole) */
#define K_on_value_begin 0
#define K_on_value_data 0
#define K_on_value_end 0

/* The batch being filled, in locals of the tokenizer (br): the next
 * record and the pass's constants (copies of p's, set by
 * sgf__batch_pass), so that they stay in registers. A record's narrow
 * stores (uint8_t) may alias anything for the compiler: fields of p
 * would be loaded again after every record. p->bcur is written back
 * only to deliver the batch. */
typedef struct sgf__brec {
  sgf_event *cur;
  const sgf_event *end;
  unsigned stop;
  uint64_t base;
  const char *bytes;
} sgf__brec;
#define BREC_LOAD()       \
  do {                    \
    br.cur = p->bcur;     \
    br.end = p->bend;     \
    br.stop = p->bstop;   \
    br.base = p->bbase;   \
    br.bytes = p->bbytes; \
  } while (0)

/* Record an event of that kind at the current event position; nonzero
 * when the batch is due (full, or a stop kind). Inlined: kind is a
 * constant at every use. A record is a few stores; what is rare (bytes
 * the parser holds, a position before the pass) goes to sgf__rec_slow.
 * Only values need the kind test: other kinds left out have no
 * placeholder callback, and EMIT tests that first. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int
sgf__rec(sgf_parser *p, sgf__brec *b, unsigned kind, const char *at, size_t len,
         unsigned flags) {
  sgf_event *e;
  uint64_t d = p->ev.offset - b->base;
  unsigned ident = 0;
  if (kind == SGF_EVENT_VALUE && !((p->bkinds >> kind) & 1u)) return 0;
  if (UNLIKELY(p->bearly)) {
    int r = sgf__rec_slow(p, b->cur, kind, at, len, flags);
    b->cur += r;
    return r;
  }
  if (kind == SGF_EVENT_PROPERTY && len - 1 < 2)
    ident = SGF_IDENT(at[0], len == 2 ? at[1] : 0);
  e = b->cur++;
  e->offset = (uint32_t)d;
  e->at = (kind == SGF_EVENT_PROPERTY || kind == SGF_EVENT_VALUE)
              ? (uint32_t)(at - b->bytes)
              : 0u;
  e->len = (uint32_t)len;
  e->ident = (uint16_t)ident;
  e->kind = (uint8_t)kind;
  e->flags = (uint8_t)flags;
  return b->cur == b->end || ((b->stop >> kind) & 1u);
}
/* Deliver the batch. */
#define BFLUSH()                   \
  do {                             \
    p->bcur = br.cur;              \
    br.cur = p->bev;               \
    CALLBACK(sgf__batch_flush(p)); \
  } while (0)
#define REC(kind, at, len, flags)                                 \
  do {                                                            \
    if (sgf__rec(p, &br, (kind), (at), (len), (flags))) BFLUSH(); \
  } while (0)
/* Deliver what the batch holds (at the end of a buffer). */
#define FLUSH()                     \
  do {                              \
    if (br.cur != p->bev) BFLUSH(); \
  } while (0)
/* The same on the way out after a stop: the handler's result is moot. */
#define FLUSH_AT_STOP()     \
  do {                      \
    if (br.cur != p->bev) { \
      p->bcur = br.cur;     \
      br.cur = p->bev;      \
      sgf__batch_flush(p);  \
    }                       \
  } while (0)

/* In batch mode every event callback of p->cb is a placeholder that is
 * never called (parser.c), so that the callback test below is the only
 * one an event pays when nobody listens. */
#define EMIT(name)                        \
  do {                                    \
    if (p->cb.name) {                     \
      if (SGF__BATCH)                     \
        REC(K_##name, NULL, 0, 0);        \
      else                                \
        CALLBACK(p->cb.name(p, p->user)); \
    }                                     \
  } while (0)
/* A property's identifier in the parser's buffer (p->ident) is valid
 * until the next identifier: the batch is delivered at once. */
#define EMIT_DATA(name, at, len)                                        \
  do {                                                                  \
    if (p->cb.name) {                                                   \
      if (SGF__BATCH) {                                                 \
        if ((const char *)(at) == p->ident) {                           \
          br.cur += sgf__rec_slow(p, br.cur, K_##name, (at), (len), 0); \
          BFLUSH();                                                     \
        } else if (sgf__rec(p, &br, K_##name, (at), (len), 0)) {        \
          BFLUSH();                                                     \
        }                                                               \
      } else {                                                          \
        CALLBACK(p->cb.name(p, p->user, (at), (len)));                  \
      }                                                                 \
    }                                                                   \
  } while (0)

/* A value whole in one piece (or one piece of it, flags f). */
#define WHOLE_VALUE(at, len, f)                               \
  do {                                                        \
    if (SGF__BATCH)                                           \
      REC(SGF_EVENT_VALUE, (at), (len), (f));                 \
    else                                                      \
      CALLBACK(p->cb.on_value(p, p->user, (at), (len), (f))); \
  } while (0)

/* The three value events, or with whole values (on_value, or batches:
 * WHOLE VALUES in sgfstream.h) the pieces: value-begin only notes that
 * the first piece is to come; a slice is a piece (the first one at the
 * '['); value-end is an empty last piece (or the whole value, when
 * nothing came before). VPIECE with last set delivers a slice that ends
 * the value in one call; its caller sets the state after the ']' first. */

#define EMIT_VBEGIN()                             \
  do {                                            \
    if (SGF__BATCH || p->whole)                   \
      p->vfirst = 1;                              \
    else if (p->cb.on_value_begin)                \
      CALLBACK(p->cb.on_value_begin(p, p->user)); \
  } while (0)
#define VPIECE(at, len, last)                   \
  do {                                          \
    unsigned f_ = (last) ? SGF_VALUE_LAST : 0u; \
    if (p->vfirst) {                            \
      p->vfirst = 0;                            \
      f_ |= SGF_VALUE_FIRST;                    \
      SETEV(p->value_pos);                      \
    }                                           \
    WHOLE_VALUE((at), (len), f_);               \
  } while (0)
#define EMIT_VDATA(at, len)                                   \
  do {                                                        \
    if (SGF__BATCH || p->whole)                               \
      VPIECE((at), (len), 0);                                 \
    else if (p->cb.on_value_data)                             \
      CALLBACK(p->cb.on_value_data(p, p->user, (at), (len))); \
  } while (0)
#define EMIT_VEND()                             \
  do {                                          \
    if (SGF__BATCH || p->whole)                 \
      VPIECE((const char *)s, 0, 1);            \
    else if (p->cb.on_value_end)                \
      CALLBACK(p->cb.on_value_end(p, p->user)); \
  } while (0)

/* Node and tree events end a run of junk or NUL bytes (one warning a run). */
#define EMIT_Q(name) \
  do {               \
    p->quiet = 0;    \
    EMIT(name);      \
  } while (0)

/* A tree ends; sgf_parser_depth() still counts it during the event (a
 * pause or an abort leaves closing set: feed and finish clear it). */
#define EMIT_TREE_END()  \
  do {                   \
    p->closing = 1;      \
    EMIT_Q(on_tree_end); \
    p->closing = 0;      \
  } while (0)

/* A node begins: it is open until NODE_END. */
#define EMIT_NODE()   \
  do {                \
    p->node_open = 1; \
    EMIT_Q(on_node);  \
  } while (0)

/* The open node ends at the byte at s (';' '(' or ')'; in finish, the end
 * of input), which is looked at again after the event: the state to
 * resume in is the current one. node_open is kept only for node ends
 * (want_node_end): without them the flag is never read, and the hot loop
 * pays one test. */
#define NODE_END()                                    \
  do {                                                \
    if (UNLIKELY(p->want_node_end) && p->node_open) { \
      p->node_open = 0;                               \
      p->ev.offset = OFF(s);                          \
      EMIT(on_node_end);                              \
    }                                                 \
  } while (0)

/* Report a diagnostic at a mark; stop on error or abort. */
#define DIAG(code, at, mark)                     \
  do {                                           \
    int d_ = sgf__diag(p, (code), (at), (mark)); \
    if (d_ == 1) goto failed;                    \
    if (d_ == 2) goto aborted;                   \
  } while (0)
#define DIAG_HERE(code)    \
  do {                     \
    sgf__mark h_;          \
    HERE(h_);              \
    DIAG(code, &h_, NULL); \
  } while (0)

/* Junk: one warning per run of unexpected bytes (until the next event). */
#define JUNK(code, at)      \
  do {                      \
    if (!(p->quiet & 1)) {  \
      p->quiet |= 1;        \
      DIAG(code, at, NULL); \
    }                       \
  } while (0)

/* Junk at the cursor. */
#define JUNK_HERE(code) \
  do {                  \
    sgf__mark h_;       \
    HERE(h_);           \
    JUNK((code), &h_);  \
  } while (0)

/* Junk between game trees: before the first, or after one. */
#define JUNK_TOP(at) \
  JUNK(p->seen_tree ? SGF_DIAG_JUNK_AFTER : SGF_DIAG_JUNK_BEFORE, (at))

/* The first byte of the input, for what is about its very start. */
static const sgf__mark sgf__input_start = {0, 1, 0};

/* A candidate at depth 0 opened a tree whose first identifier came
 * right after it: the node, at the ';' or (';' missing) the identifier.
 * missing-semicolon follows tree-begin, as it does inside a tree. */
#define CONFIRM_NODE()                                                         \
  do {                                                                         \
    if (p->cand == '(') DIAG(SGF_DIAG_MISSING_SEMICOLON, &p->ident_pos, NULL); \
    SETEV(p->cand == '(' ? p->ident_pos : p->cand_pos);                        \
    st = ST_AFTER_IDENT;                                                       \
    EMIT_NODE();                                                               \
  } while (0)

/* Leave feed or finish in state st with status SGF_PAUSED, SGF_EABORTED
 * (SGF_EACTION when a callback's value was refused) or SGF_EPARSE (an
 * abort after a stop keeps SGF_EPARSE); returns it. */
static inline int sgf__leave(sgf_parser *p, int st, int status) {
  p->ev.live = 0;
  p->state = st;
  if (status == SGF_EABORTED && p->refused) status = SGF_EACTION;
  if ((status != SGF_EABORTED && status != SGF_EACTION) ||
      p->status != SGF_EPARSE)
    p->status = status;
  return p->status;
}

#endif
