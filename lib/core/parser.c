/* parser.c - the push parser's life cycle and API: create, destroy,
 * reset, feed, the queries, and diagnostics delivery. The tokenizer is
 * tokenize.c, the double-byte look-ahead dbcs.c, the end of input
 * finish.c; parser.h is the state they share, emit.h how they deliver.
 *
 * DESIGN
 *
 * The parser is a byte-driven state machine whose whole state lives in
 * struct sgf_parser (parser.h): a state number, a depth counter, a few
 * saved positions and the identifier buffers (bounded by max_ident_len).
 * Nothing grows with the input or with the nesting depth, and nothing
 * recurses. A chunk may end anywhere: every state can be left at any byte
 * and re-entered with the next chunk, and no consumed byte is ever looked
 * at again.
 *
 * Events are emitted with one discipline everywhere: before calling back,
 * the code stores the state to continue in and moves the cursor to the
 * byte to continue at. A callback that returns SGF_PAUSE therefore leaves
 * the parser exactly resumable, and a byte that produces two events (';'
 * after a pending '(' gives tree-begin, then node) is simply looked at
 * again in the next state.
 *
 * The states (ST_*) are described in tokenize.c, the double-byte
 * look-ahead in dbcs.c.
 */
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "parser.h"
#include "sized.h"
#include "scan.h"

/* ------------------------------------------------------------------ */
/* Creation and small accessors                                        */

/* How runs of move nodes are passed (the move-run scanner): 2 to
 * on_moves, 1 in silence when no handler listens to any event a move
 * node makes, else 0 (one event at a time). */
static int quiet_moves(const sgf_callbacks *cb) {
  if (cb->on_moves) return 2;
  return !cb->on_node && !cb->on_property && !cb->on_value_begin &&
         !cb->on_value_data && !cb->on_value_end && !cb->on_value &&
         !cb->on_property_end && !cb->on_node_end;
}

void sgf_options_init(sgf_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->size = sizeof *opt;
}

void sgf_callbacks_init(sgf_callbacks *cb) {
  memset(cb, 0, sizeof *cb);
  cb->size = sizeof *cb;
}

void sgf_batch_options_init(sgf_batch_options *b) {
  memset(b, 0, sizeof *b);
  b->size = sizeof *b;
}

static void parser_clear(sgf_parser *p) {
  p->state = ST_TOP;
  p->status = SGF_OK;
  p->refused = 0;
  p->ev.live = 0;
  p->seen_tree = 0;
  p->quiet = 0;
  p->ws_seen = 0;
  p->cand = 0;
  p->open_ret = ST_NODE;
  p->orphan_ret = ST_NODE;
  p->depth = 0;
  p->skip_target = 0;
  p->skip_silent = 0;
  p->nimplicit = 0;
  p->offset = 0;
  p->ev.line = 1;
  p->ev.line_start = 0;
  p->cr_end = UINT64_MAX;
  memset(&p->ev_saved, 0, sizeof p->ev_saved);
  p->ev_saved.line = 1;
  p->ev.offset = 0;
  p->tree_open = p->cand_pos = p->open_pos = p->ident_pos = p->value_pos =
      p->ev_saved;
  p->ev.raw_ident = p->raw;
  p->ident_len = p->ev.raw_ident_len = 0;
  p->ident[0] = p->raw[0] = '\0';
  memset(&p->error, 0, sizeof p->error);
  p->has_error = 0;
  p->vtail_len = 0;
  p->at_eof = 0;
  p->la_len = 0;
  p->vfirst = 0;
  p->node_open = 0;
  p->bcur = p->bev;
  memset(p->ndiag, 0, sizeof p->ndiag);
  p->enc = SGF_UTF16_UNDECIDED;
  p->u16bad = 0;
  p->nhead = 0;
  p->pend = NULL;
  p->pend_len = 0;
}

sgf_parser *sgf_parser_create(const sgf_callbacks *cbg, void *user,
                              const sgf_options *given) {
  sgf_allocator a;
  sgf_parser *p;
  size_t idlen;
  sgf_options o;
  sgf_callbacks cb;
  const sgf_options *opt = &o;
  /* VERSIONED STRUCTS: the first sgf_callbacks ended at on_diagnostic */
  if (!given)
    sgf_options_init(&o);
  else if (sgf__copy_sized(&o, sizeof o, given,
                           SGF__SIZE_UPTO(sgf_options, allocator)))
    return NULL;
  if (!cbg)
    sgf_callbacks_init(&cb);
  else if (sgf__copy_sized(&cb, sizeof cb, cbg,
                           SGF__SIZE_UPTO(sgf_callbacks, on_diagnostic)))
    return NULL;
  sgf__allocator_init(&a, opt->allocator);
  idlen = opt->max_ident_len ? opt->max_ident_len : SGF_DEFAULT_MAX_IDENT_LEN;
  if (idlen > ((size_t)1 << 30)) return NULL;
  p = sgf__malloc(&a, sizeof *p);
  if (!p) return NULL;
  memset(p, 0, sizeof *p);
  p->alloc = a;
  p->scan = sgf__scanners_get();
  p->max_ident_len = idlen;
  p->ident = sgf__malloc(&a, idlen + 1);
  p->raw = p->ident ? sgf__malloc(&a, idlen + 1) : NULL;
  if (!p->raw) {
    sgf__free(&a, p->ident, idlen + 1);
    sgf__free(&a, p, sizeof *p);
    return NULL;
  }
  if (opt->flags & SGF_OPT_UTF16) {
    p->u16out = sgf__malloc(&a, SGF__U16_OUT);
    if (!p->u16out) {
      sgf__free(&a, p->raw, idlen + 1);
      sgf__free(&a, p->ident, idlen + 1);
      sgf__free(&a, p, sizeof *p);
      return NULL;
    }
  }
  p->cb = cb;
  p->whole = cb.on_value != NULL;
  p->want_node_end = cb.on_node_end != NULL;
  p->quiet_moves = quiet_moves(&cb);
  p->user = user;
  p->flags = opt->flags;
  p->max_depth = opt->max_depth ? opt->max_depth : SGF_DEFAULT_MAX_DEPTH;
  parser_clear(p);
  return p;
}

int sgf_parser_destroy(sgf_parser *p) {
  sgf_allocator a;
  if (!p) return SGF_OK;
  if (p->ev.live) return SGF_EBUSY; /* the feed loop still uses p */
  a = p->alloc;
  sgf__free(&a, p->ident, p->max_ident_len + 1);
  sgf__free(&a, p->raw, p->max_ident_len + 1);
  sgf__free(&a, p->implicit, p->implicit_cap * sizeof(uint64_t));
  if (p->u16out) sgf__free(&a, p->u16out, SGF__U16_OUT);
  sgf__free(&a, p, sizeof *p);
  return SGF_OK;
}

int sgf_parser_reset(sgf_parser *p) {
  if (p->ev.live) return SGF_EBUSY;
  parser_clear(p);
  return SGF_OK;
}

/* The placeholders of p->cb in batch mode: never called (emit.h). */
static int batch_cb(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_ABORT;
}
static int batch_data_cb(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)at;
  (void)len;
  return batch_cb(p, u);
}

int sgf_parser_set_batch(sgf_parser *p, const sgf_batch_options *given) {
  sgf_batch_options b;
  if (p->ev.live) return SGF_EBUSY;
  if (!given) {
    if (p->bev) p->cb = p->ucb;
    p->bev = NULL;
    p->whole = p->cb.on_value != NULL;
    p->want_node_end = p->cb.on_node_end != NULL;
    p->quiet_moves = quiet_moves(&p->cb);
    return SGF_OK;
  }
  if (sgf__copy_sized(&b, sizeof b, given,
                      SGF__SIZE_UPTO(sgf_batch_options, kinds)) ||
      !b.on_batch || !b.events || b.capacity == 0)
    return SGF_EINVAL;
  if (!p->bev) p->ucb = p->cb;
  p->bev = b.events;
  p->bend = b.events + b.capacity;
  p->bstop = b.stop_kinds;
  /* kinds 0: every kind but MOVES, which is only ever opted into */
  p->bkinds = b.kinds ? b.kinds : ~(1u << SGF_EVENT_MOVES);
  /* a kind left out has no placeholder: its events cost one test */
#define PLACE(m, k, f) p->cb.m = ((p->bkinds >> (k)) & 1u) ? (f) : NULL
  PLACE(on_tree_begin, SGF_EVENT_TREE_BEGIN, batch_cb);
  PLACE(on_tree_end, SGF_EVENT_TREE_END, batch_cb);
  PLACE(on_node, SGF_EVENT_NODE, batch_cb);
  PLACE(on_property_end, SGF_EVENT_PROPERTY_END, batch_cb);
  PLACE(on_node_end, SGF_EVENT_NODE_END, batch_cb);
  PLACE(on_property, SGF_EVENT_PROPERTY, batch_data_cb);
#undef PLACE
  p->bturbo =
      !(b.stop_kinds & (1u << SGF_EVENT_NODE_END | 1u << SGF_EVENT_NODE |
                        1u << SGF_EVENT_PROPERTY | 1u << SGF_EVENT_VALUE |
                        1u << SGF_EVENT_PROPERTY_END));
  /* MOVES records: named in kinds, and no kind they stand for (recorded)
   * stops a batch, which must then stop at its own event */
  p->bmoves = ((p->bkinds >> SGF_EVENT_MOVES) & 1u) &&
              !(b.stop_kinds & p->bkinds &
                (1u << SGF_EVENT_NODE_END | 1u << SGF_EVENT_NODE |
                 1u << SGF_EVENT_PROPERTY | 1u << SGF_EVENT_VALUE |
                 1u << SGF_EVENT_PROPERTY_END));
  p->on_batch = b.on_batch;
  p->bcur = p->bev;
  p->whole = 1;
  p->want_node_end = (p->bkinds >> SGF_EVENT_NODE_END) & 1u;
  p->quiet_moves = 0; /* the callback copy of the tokenizer is not used */
  return SGF_OK;
}

/* The records go before the handler runs: it may feed nothing (the
 * parser is live), but it may look at sgf_parser_depth() and the like. */
int sgf__batch_flush(sgf_parser *p) {
  sgf_batch b;
  b.ev = p->bev;
  b.n = (size_t)(p->bcur - p->bev);
  b.offset = p->bbase;
  b.bytes = p->bbytes;
  b.held = p->ident;
  p->bcur = p->bev;
  return p->on_batch(p, p->user, &b);
}

/* The base lies SGF__PASS_MAX before the pass (or at 0), so that a
 * record deferred from an earlier buffer (an identifier's, a value's
 * '[') still has its offset; the line cursor starts at the pass. */
void sgf__batch_pass(sgf_parser *p, const void *buf) {
  p->bbytes = buf;
  p->bpass = p->offset;
  p->bbias = p->offset < SGF__PASS_MAX ? p->offset : SGF__PASS_MAX;
  p->bbase = p->offset - p->bbias;
  p->bl0.off = p->offset;
  p->bl0.line = p->ev.line;
  p->bl0.line_start = p->ev.line_start;
  p->bl0_cr = p->cr_end;
  p->bl = p->bl0;
  p->bl_cr = p->bl0_cr;
  p->bearly = 0;
}

int sgf__rec_slow(sgf_parser *p, sgf_event *e, unsigned kind, const char *at,
                  size_t len, unsigned flags) {
  uint64_t d = p->ev.offset - p->bbase;
  if (!((p->bkinds >> kind) & 1u)) return 0;
  p->bearly = 0;
  if (p->ev.offset < p->bpass) { /* its line is not in this pass's bytes */
    if (p->ev.offset < p->ev.line_start) {
      p->bfar = p->ev_saved;
    } else {
      p->bfar.off = p->ev.offset;
      p->bfar.line = p->ev.line;
      p->bfar.line_start = p->ev.line_start;
    }
  }
  if (d > UINT32_MAX) {
    flags |= SGF_EVENT_FAR;
    d = 0;
  }
  e->offset = (uint32_t)d;
  if (!at) {
    e->at = 0;
  } else if (at == p->ident) {
    e->at = 0;
    flags |= SGF_EVENT_HELD;
  } else {
    e->at = (uint32_t)(at - p->bbytes);
  }
  e->len = (uint32_t)len;
  e->ident = 0;
  if (kind == SGF_EVENT_PROPERTY && len - 1 < 2)
    e->ident = (uint16_t)SGF_IDENT(at[0], len == 2 ? at[1] : 0);
  e->kind = (uint8_t)kind;
  e->flags = (uint8_t)flags;
  return 1;
}

/* Line breaks are counted as newline() (tokenize.c) counts them: a CR,
 * or an LF not right after a CR. */
sgf_pos sgf_batch_position(sgf_parser *p, const sgf_event *ev) {
  const unsigned char *b = (const unsigned char *)p->bbytes, *q, *e;
  const uint64_t t = p->bbase + ev->offset;
  sgf_pos r;
  if (!p->ev.live || !p->bev) {
    sgf_pos none = {0, 0, 0};
    return none;
  }
  if ((ev->flags & SGF_EVENT_FAR) || t < p->bpass)
    return sgf__mark_pos(&p->bfar);
  if (t < p->bl.off) {
    p->bl = p->bl0;
    p->bl_cr = p->bl0_cr;
  }
  /* most bytes are above '\r': eight at a time while none of them is
   * '\r' or below (a byte under 0x0E sets its high bit in w - 0x0E..
   * while its own is clear), else one test each */
  for (q = b + (p->bl.off - p->bpass), e = b + (t - p->bpass); q < e; q++) {
    while (e - q >= 8) {
      uint64_t w;
      memcpy(&w, q, 8);
      if ((w - 0x0E0E0E0E0E0E0E0Eu) & ~w & 0x8080808080808080u) break;
      q += 8;
    }
    if (q >= e) break;
    if (*q > '\r') continue;
    if (*q == '\r') {
      p->bl.line++;
      p->bl_cr = p->bl.line_start = (uint64_t)(q - b) + p->bpass + 1;
    } else if (*q == '\n') {
      uint64_t o = (uint64_t)(q - b) + p->bpass;
      if (p->bl_cr != o) p->bl.line++;
      p->bl.line_start = o + 1;
    }
  }
  p->bl.off = t;
  r.offset = t;
  r.line = p->bl.line;
  r.column = t - p->bl.line_start + 1;
  return r;
}

void sgf_parser_resume(sgf_parser *p) {
  if (p->status == SGF_PAUSED) p->status = SGF_OK;
}

sgf_pos sgf_parser_position(const sgf_parser *p) {
  sgf__mark m;
  if (p->ev.live) {
    if (p->ev.offset < p->ev.line_start) return sgf__mark_pos(&p->ev_saved);
    m.off = p->ev.offset;
    m.line = p->ev.line;
    m.line_start = p->ev.line_start;
  } else {
    /* after the bytes held back for look-ahead, then those taken but
     * not parsed (the first bytes, converted text), if any (their line
     * breaks counted as newline() will count them) */
    uint64_t cr = p->cr_end;
    size_t i, k;
    m.off = p->offset;
    m.line = p->ev.line;
    m.line_start = p->ev.line_start;
    for (k = 0; k < 3; k++) {
      const unsigned char *b = k == 0 ? p->la : k == 1 ? p->pend : p->head;
      size_t n = k == 0   ? p->la_len
                 : k == 1 ? p->pend_len
                          : (p->enc == SGF_UTF16_UNDECIDED ? p->nhead : 0);
      for (i = 0; i < n; i++, m.off++) {
        if (b[i] == '\r') {
          m.line++;
          cr = m.off + 1;
          m.line_start = m.off + 1;
        } else if (b[i] == '\n') {
          if (cr != m.off) m.line++;
          m.line_start = m.off + 1;
        }
      }
    }
  }
  return sgf__mark_pos(&m);
}

/* The bytes held back (la) begin at p->offset: a ']' whose meaning is
 * open and fewer than SGF__LOOKAHEAD bytes after it (dbcs.c). */
_Static_assert(SGF_MAX_HELD_BYTES >= SGF__LOOKAHEAD,
               "SGF_MAX_HELD_BYTES must cover the look-ahead held back");

uint64_t sgf_parser_held_offset(const sgf_parser *p) {
  uint64_t off = p->offset;
  if ((p->state == ST_TOP_OPEN || p->state == ST_TOP_IDENT ||
       p->state == ST_TOP_IDENT_WS) &&
      p->cand_pos.off < off)
    off = p->cand_pos.off; /* an opener not yet proved */
  return off;
}

const sgf_event_state *sgf_parser_event_state(const sgf_parser *p,
                                              int version) {
  return version == SGF_EVENT_STATE_VERSION ? &p->ev : NULL;
}

const char *sgf_parser_raw_ident(const sgf_parser *p, size_t *len) {
  if (len) *len = p->ev.raw_ident_len;
  return p->ev.raw_ident;
}

/* In on_tree_end the tree has been counted out already (the state to
 * resume in is set before a callback): closing adds it back. */
uint64_t sgf_parser_depth(const sgf_parser *p) {
  return p->depth + (uint64_t)(p->ev.live && p->closing);
}

uint64_t sgf_parser_diag_count(const sgf_parser *p, sgf_severity severity) {
  if (severity < SGF_SEV_WARNING || severity > SGF_SEV_FATAL) return 0;
  return p->ndiag[severity - 1];
}

const sgf_diag *sgf_parser_error(const sgf_parser *p) {
  return p->has_error ? &p->error : NULL;
}

void *sgf_parser_user(const sgf_parser *p) { return p->user; }
void sgf_parser_set_user(sgf_parser *p, void *user) { p->user = user; }

/* ------------------------------------------------------------------ */
/* Diagnostics                                                         */

/* Deliver d; returns 0 to go on, 1 if the parser stopped (error set),
 * 2 if the handler aborted. (sgf__diag's results: parser.h.) */
static int deliver(sgf_parser *p, sgf_diag *d) {
  int r = SGF_CONTINUE;
  int stop;
  if (d->severity == SGF_SEV_WARNING && (p->flags & SGF_OPT_STRICT))
    d->severity = SGF_SEV_ERROR;
  stop = d->severity == SGF_SEV_FATAL ||
         (d->severity == SGF_SEV_ERROR && (p->flags & SGF_OPT_STRICT));
  if (d->severity >= SGF_SEV_WARNING && d->severity <= SGF_SEV_FATAL)
    p->ndiag[d->severity - 1]++;
  if (p->cb.on_diagnostic) {
    r = p->cb.on_diagnostic(p, p->user, d);
    if (!SGF__IS_ACTION(r)) { /* a result, say: refused (SGF_EACTION) */
      p->refused = 1;
      r = SGF_ABORT;
    }
  }
  if (stop) {
    p->error = *d;
    p->has_error = 1;
    p->status = SGF_EPARSE;
    return 1;
  }
  return r == SGF_ABORT ? 2 : 0;
}

int sgf__diag(sgf_parser *p, sgf_diag_code code, const sgf__mark *at,
              const sgf__mark *mark) {
  sgf_diag d;
  memset(&d, 0, sizeof d);
  d.code = code;
  d.severity = sgf_diag_severity(code);
  d.pos = sgf__mark_pos(at);
  if (mark) {
    d.has_mark = 1;
    d.mark = sgf__mark_pos(mark);
  }
  return deliver(p, &d);
}

int sgf_parser_report(sgf_parser *p, const sgf_diag *d) {
  sgf_diag copy = *d;
  int r;
  if (copy.severity == 0) copy.severity = sgf_diag_severity(copy.code);
  r = deliver(p, &copy);
  return r ? SGF_ABORT : SGF_CONTINUE;
}

/* Finish the identifier: the normalized form keeps the uppercase letters
 * (FF[3] allowed lowercase ones, which FF[4] ignores); an identifier
 * written all in lowercase is upper-cased instead. */
void sgf__ident_finish(sgf_parser *p) {
  if (p->ident_len == 0) {
    size_t i;
    for (i = 0; i < p->ev.raw_ident_len; i++) {
      char c = p->raw[i];
      p->ident[i] = (c >= 'a' && c <= 'z') ? (char)(c - 'a' + 'A') : c;
    }
    p->ident_len = p->ev.raw_ident_len;
  }
  p->ident[p->ident_len] = '\0';
  p->raw[p->ev.raw_ident_len] = '\0';
}

/* After a pass: the last identifier, if the fast paths left it in the
 * bytes just parsed (the caller's, or the held-back ones about to move),
 * copied into raw, so that sgf_parser_raw_ident() outside on_property
 * still gives it after the pass (in a later feed's diagnostic, after a
 * pause, after finish). An identifier being read is already in raw. */
void sgf__keep_raw(sgf_parser *p) {
  size_t n = p->ev.raw_ident_len;
  if (p->ev.raw_ident == p->raw) return;
  if (n > p->max_ident_len) n = p->max_ident_len;
  memmove(p->raw, p->ev.raw_ident, n);
  p->raw[n] = '\0';
  p->ev.raw_ident = p->raw;
  p->ev.raw_ident_len = n;
}

/* Bytes held back (la) are parsed first, with as many of the new ones as
 * fit after them; when they are all parsed the rest goes straight from
 * the caller's buffer. Bytes copied into la count as consumed. An empty
 * feed does nothing at all (no callback fires). */
static int feed_bytes(sgf_parser *p, const unsigned char *in, size_t len,
                      size_t *consumed) {
  size_t used = 0, u, part;
  int r;

  *consumed = 0;
  for (;;) {
    if (p->la_len) {
      size_t take = sizeof p->la - p->la_len;
      if (take > len - used) take = len - used;
      if (take) memcpy(p->la + p->la_len, in + used, take);
      p->la_len += take;
      used += take;
      r = sgf__feed_core(p, p->la, p->la_len, &u);
      sgf__keep_raw(p);
      p->la_len -= u;
      if (p->la_len) memmove(p->la, p->la + u, p->la_len);
      if (r == SGF__NEED) {
        if (used == len) break;
        continue;
      }
      if (r != SGF_OK) {
        if (consumed) *consumed = used;
        return r;
      }
      continue;
    }
    if (used == len) break;
    part = len - used < SGF__PASS_MAX ? len - used : SGF__PASS_MAX;
    r = sgf__feed_core(p, in + used, part, &u);
    sgf__keep_raw(p);
    if (r == SGF__NEED) { /* fewer than SGF__LOOKAHEAD + 1 bytes */
      p->la_len = part - u;
      memcpy(p->la, in + used + u, p->la_len);
      used += part;
      if (used == len) break;
      continue;
    }
    used += u;
    if (r != SGF_OK) {
      *consumed = used;
      return r;
    }
  }
  *consumed = len;
  return SGF_OK;
}

/* ------------------------------------------------------------------ */
/* The first bytes, and UTF-16 input (sgfstream/utf16.h)               */

/* A diagnostic of the input's encoding: at its start, or where the next
 * byte goes in the converted text. Returns SGF_OK to go on, or the
 * parser's status once it stopped (SGF_EPARSE, or SGF_EABORTED when the
 * handler aborted, SGF_EACTION when it returned no action). */
static int enc_diag(sgf_parser *p, sgf_diag_code code, int at_start) {
  sgf__mark m;
  int r;
  memset(&m, 0, sizeof m);
  m.line = 1;
  if (!at_start) {
    sgf_pos pos = sgf_parser_position(p);
    m.off = pos.offset;
    m.line = pos.line;
    m.line_start = pos.offset - (pos.column - 1);
  }
  /* delivered as the parser's own are, inside (ev.live: no re-entry),
   * with the event state at the diagnostic's place */
  {
    sgf_event_state saved = p->ev;
    p->ev.live = 1;
    p->ev.offset = m.off;
    p->ev.line = m.line;
    p->ev.line_start = m.line_start;
    r = sgf__diag(p, code, &m, NULL);
    p->ev = saved;
  }
  if (r == 2) p->status = p->refused ? SGF_EACTION : SGF_EABORTED;
  return r ? p->status : SGF_OK;
}

/* Decide what the input is once head holds enough of its first bytes
 * (all of them: at_end): pend then holds head's text to parse. */
static int decide(sgf_parser *p, int at_end) {
  size_t mark, u, w;
  int r, enc;
  enc = sgf_utf16_detect((const char *)p->head, p->nhead, at_end, &mark);
  if (enc == SGF_UTF16_UNDECIDED) return SGF_OK;
  p->enc = enc;
  p->pend = p->head;
  p->pend_len = p->nhead;
  if (enc == SGF_UTF16_NONE) return SGF_OK;
  p->pend_len = 0;
  if (!(p->flags & SGF_OPT_UTF16)) return enc_diag(p, SGF_DIAG_UTF16, 1);
  r = enc_diag(p, SGF_DIAG_UTF16_INPUT, 1);
  if (r != SGF_OK) return r;
  sgf_utf16_decoder_init(&p->u16, enc);
  if (sgf_utf16_decode(&p->u16, (const char *)p->head + mark, p->nhead - mark,
                       &u, (char *)p->u16out, SGF__U16_OUT, &w) != SGF_OK)
    p->u16bad = 1;
  p->pend = p->u16out;
  p->pend_len = w;
  return SGF_OK;
}

/* Parse the bytes taken and not parsed yet; then report a code unit
 * that does not decode after them. */
static int feed_pending(sgf_parser *p) {
  size_t u;
  int r;
  if (p->pend_len) {
    r = feed_bytes(p, p->pend, p->pend_len, &u);
    p->pend += u;
    p->pend_len -= u;
    if (r != SGF_OK) return r;
  }
  if (p->u16bad) return enc_diag(p, SGF_DIAG_UTF16_INVALID, 0);
  return SGF_OK;
}

/* The first bytes are kept until they tell whether the input is UTF-16
 * (at most four; for most inputs the first byte tells); with
 * SGF_OPT_UTF16 a UTF-16 input is converted, at most SGF__U16_OUT bytes
 * of text at a time, and parsed from u16out. Bytes taken count as
 * consumed. */
int sgf_parser_feed(sgf_parser *p, const char *data, size_t len,
                    size_t *consumed) {
  const unsigned char *in = (const unsigned char *)data;
  size_t used = 0, u, w, dummy;
  int r;

  if (!consumed) consumed = &dummy;
  *consumed = 0;
  if (p->ev.live) return SGF_EBUSY;
  if (p->status != SGF_OK) return p->status;
  if (p->state == ST_DONE || p->state == ST_FIN_CLOSE) return SGF_EORDER;
  if (len == 0) return SGF_OK; /* held-back bytes wait for more, or finish */
  if (p->enc == SGF_UTF16_NONE && p->pend_len == 0)
    return feed_bytes(p, in, len, consumed);
  while (p->enc == SGF_UTF16_UNDECIDED) {
    if (used == len) {
      *consumed = len;
      return SGF_OK;
    }
    p->head[p->nhead++] = in[used++];
    r = decide(p, 0);
    if (r != SGF_OK) {
      *consumed = used;
      return r;
    }
  }
  for (;;) {
    r = feed_pending(p);
    if (r != SGF_OK) {
      *consumed = used;
      return r;
    }
    if (used == len) break;
    if (p->enc == SGF_UTF16_NONE) {
      r = feed_bytes(p, in + used, len - used, &u);
      *consumed = used + u;
      return r;
    }
    if (sgf_utf16_decode(&p->u16, (const char *)in + used, len - used, &u,
                         (char *)p->u16out, SGF__U16_OUT, &w) != SGF_OK)
      p->u16bad = 1;
    used += u;
    p->pend = p->u16out;
    p->pend_len = w;
  }
  *consumed = len;
  return SGF_OK;
}

/* finish.c: the end of input for the first bytes and UTF-16. */
int sgf__finish_input(sgf_parser *p) {
  int r;
  if (p->enc == SGF_UTF16_UNDECIDED) {
    r = decide(p, 1);
    if (r != SGF_OK) return r;
  }
  r = feed_pending(p);
  if (r != SGF_OK) return r;
  if (p->enc != SGF_UTF16_NONE && sgf_utf16_decode_end(&p->u16) != SGF_OK)
    return enc_diag(p, SGF_DIAG_UTF16_INVALID, 0);
  return SGF_OK;
}
