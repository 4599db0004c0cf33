/* tokenize.c - the tokenizer: the byte-driven state machine behind
 * sgf_parser_feed() (see the design in parser.c). One function,
 * sgf__feed_core(), with the hot states first and the transitions they
 * share after the switch; its helpers that run per byte (newline,
 * text_run) are here with it, so that the hot loop is one unit.
 *
 * States (ST_*):
 *   TOP           depth 0, between game trees (preamble, trailing text).
 *   BOM           offset 1..2 of a possible byte-order mark.
 *   TOP_OPEN      depth 0, a '(' or ';' was seen that may open a tree. A
 *                 '(' opens one only if ';' follows (after whitespace), or
 *                 letters and '[' (lenient: ';' missing). Prose such as
 *                 "(MA property)" stays junk. A ';' followed by letters
 *                 and '[' opens a tree with the '(' missing.
 *   TOP_IDENT(_WS) the letters (and whitespace) after such a candidate.
 *   CONFIRM_NODE  a candidate was confirmed: the node is emitted next.
 *   OPEN          depth >= 1, a '(' is pending: "()" is dropped with a
 *                 warning, anything else begins the variation.
 *   SEQ_START     a tree has begun and has no node yet.
 *   NODE          inside a node, between properties. At a ';' with no
 *                 handler for a move node's events (quiet_moves), a run
 *                 of ";B[qd]" nodes is passed in bulk by the move-run
 *                 scanner (scan.h, moves.c), up to the first node that
 *                 is none, or handed to on_moves in one call (MOVE RUNS
 *                 in sgfstream.h); batches write such runs with
 *                 move_run.
 *   IDENT         inside an identifier (buffered, never split).
 *   AFTER_IDENT   the identifier ended; '[' must follow. The property
 *                 event fires at the '[' (an identifier with no value is
 *                 dropped with a warning, never half-reported).
 *   PROP          the property was emitted; the '[' is next.
 *   VALUE(_ESC)   inside a value (after a backslash). The hot loop: it
 *                 skips bytes the class table calls uninteresting and
 *                 emits maximal slices. Once a line break is met, the
 *                 text scanner (scan.h) takes over up to the next ']'
 *                 '\\' or NUL and counts the line breaks it passes in
 *                 bulk, so multi-line comments cost no stop per line.
 *   AFTER_VALUE   after ']': another '[' continues the property; anything
 *                 else ends it (property-end) and is looked at in NODE.
 *   ORPHAN(_ESC)  a value with no identifier, skipped with a warning.
 *   AFTER_CHILD   after a variation's ')': only '(' or ')' belong here. In
 *                 lenient mode a node here opens an implicit variation
 *                 (closed by the enclosing ')'), so nothing is lost and
 *                 the event stream stays FF[4]-shaped.
 *   SKIP, SKIP_VALUE, SKIP_ESC  a handler asked to skip: outside a value,
 *                 inside one, after a backslash in one. The tree skipper
 *                 (scan.h) passes over the rest of the tree in bulk, up
 *                 to the ')' that closes it.
 *   FIN_CLOSE     finish(): closing the trees left open.
 *   DONE          finish() completed.
 *
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
/* Compiled twice: here for the callbacks, and by tokenize_batch.c for
 * batched events (SGF__BATCH in emit.h); parser.h's sgf__feed_core()
 * picks one per feed. */
#ifndef SGF__BATCH
#define SGF__BATCH 0
#define SGF__FEED_CORE sgf__feed_core_cb
#endif

#include "emit.h"
#include "parser.h"
#include "scan.h"

/* Byte classes for the structural states. */
enum {
  C_OTHER = 0,
  C_WS, /* space, tab, VT, FF */
  C_NL, /* LF, CR */
  C_NUL,
  C_LPAREN,
  C_RPAREN,
  C_SEMI,
  C_LBRACK,
  C_RBRACK,
  C_BSLASH,
  C_UPPER,
  C_LOWER
};

/* Constant tables: nothing to initialize, nothing shared that changes. */
static const unsigned char byte_class[256] = {
    ['A'] = C_UPPER,  ['B'] = C_UPPER, ['C'] = C_UPPER,  ['D'] = C_UPPER,
    ['E'] = C_UPPER,  ['F'] = C_UPPER, ['G'] = C_UPPER,  ['H'] = C_UPPER,
    ['I'] = C_UPPER,  ['J'] = C_UPPER, ['K'] = C_UPPER,  ['L'] = C_UPPER,
    ['M'] = C_UPPER,  ['N'] = C_UPPER, ['O'] = C_UPPER,  ['P'] = C_UPPER,
    ['Q'] = C_UPPER,  ['R'] = C_UPPER, ['S'] = C_UPPER,  ['T'] = C_UPPER,
    ['U'] = C_UPPER,  ['V'] = C_UPPER, ['W'] = C_UPPER,  ['X'] = C_UPPER,
    ['Y'] = C_UPPER,  ['Z'] = C_UPPER, ['a'] = C_LOWER,  ['b'] = C_LOWER,
    ['c'] = C_LOWER,  ['d'] = C_LOWER, ['e'] = C_LOWER,  ['f'] = C_LOWER,
    ['g'] = C_LOWER,  ['h'] = C_LOWER, ['i'] = C_LOWER,  ['j'] = C_LOWER,
    ['k'] = C_LOWER,  ['l'] = C_LOWER, ['m'] = C_LOWER,  ['n'] = C_LOWER,
    ['o'] = C_LOWER,  ['p'] = C_LOWER, ['q'] = C_LOWER,  ['r'] = C_LOWER,
    ['s'] = C_LOWER,  ['t'] = C_LOWER, ['u'] = C_LOWER,  ['v'] = C_LOWER,
    ['w'] = C_LOWER,  ['x'] = C_LOWER, ['y'] = C_LOWER,  ['z'] = C_LOWER,
    [' '] = C_WS,     ['\t'] = C_WS,   ['\v'] = C_WS,    ['\f'] = C_WS,
    ['\n'] = C_NL,    ['\r'] = C_NL,   [0] = C_NUL,      ['('] = C_LPAREN,
    [')'] = C_RPAREN, [';'] = C_SEMI,  ['['] = C_LBRACK, [']'] = C_RBRACK,
    ['\\'] = C_BSLASH};
/* Bytes that stop the scan inside a value: ']' '\\' LF CR NUL. */
static const unsigned char value_stop[256] = {
    [']'] = 1, ['\\'] = 1, ['\n'] = 1, ['\r'] = 1, [0] = 1};

/* The bytes of a move node (MOVE RUNS below, and the general path's
 * fast path), one lookup each: M_LETTER an uppercase letter (the
 * identifier); M_VALUE a byte value_stop passes; M_LAST such a byte below
 * 0x81, so that it is no lead byte for the ']' after it (DOUBLE-BYTE
 * TEXT). From byte 0, 24 a row. */
enum { M_LETTER = 1, M_VALUE = 2, M_LAST = 4 };
static const unsigned char move_byte[256] = {
    0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 0, 6, 6, 0, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 6, 0, 0, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

static int is_letter(int cls) { return cls == C_UPPER || cls == C_LOWER; }

/* MOVE RUNS (batched events only). A node that is one move, ";B[qd]"
 * (one uppercase letter, a two-byte value, the ']' not a trail byte),
 * fills most of a game record. move_at() says whether one starts at q;
 * move_run() writes the records of a run of them in a tight loop, as the
 * general path would write them (node end, node, property, value,
 * property end), up to the first node that is not followed by another ';'
 * (at once, or after an LF or a CR LF). It needs no handler call in
 * between: the caller takes it only when none of those kinds stops a
 * batch and the array has room for a move's records and one more, so it
 * never fills the array. */
static inline int move_at(const unsigned char *q) {
  return q[2] == '[' && q[5] == ']' && (move_byte[q[1]] & M_LETTER) &&
         (move_byte[q[3]] & M_VALUE) && (move_byte[q[4]] & M_LAST);
}
static inline void put(sgf_event *e, uint64_t off, uint64_t at, uint32_t len,
                       unsigned ident, unsigned kind, unsigned flags) {
  e->offset = (uint32_t)off;
  e->at = (uint32_t)at;
  e->len = len;
  e->ident = (uint16_t)ident;
  e->kind = (uint8_t)kind;
  e->flags = (uint8_t)flags;
}

/* A record as two 64-bit words where the byte order is known (EV_WORDS):
 * offset and at (EV_LO), len, ident, kind and flags (EV_HI), each stored
 * with one memcpy, so that a record is two stores. A run's words are
 * kept in registers: EV_LO(d, d) added to one moves both its offset and
 * its at by d, which never carries from one into the other when neither
 * field can reach 2^32 in the pass (move_run checks that once). */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define EV_WORDS 1
#define EV_LO(off, at) ((uint64_t)(off) | (uint64_t)(at) << 32)
#define EV_HI(len, ident, kind, flags)                                  \
  ((uint64_t)(len) | (uint64_t)(ident) << 32 | (uint64_t)(kind) << 48 | \
   (uint64_t)(flags) << 56)
#define EV_LO_OFF(lo) ((lo)&0xFFFFFFFFu) /* the offset alone (at 0) */
#elif defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define EV_WORDS 1
#define EV_LO(off, at) ((uint64_t)(off) << 32 | (uint64_t)(at))
#define EV_HI(len, ident, kind, flags)                                       \
  ((uint64_t)(len) << 32 | (uint64_t)(ident) << 16 | (uint64_t)(kind) << 8 | \
   (uint64_t)(flags))
#define EV_LO_OFF(lo) ((lo) & ~(uint64_t)0xFFFFFFFFu)
#else
#define EV_WORDS 0
#endif
#if !EV_WORDS
#define EV_LO(off, at) ((uint64_t)0)
#define EV_HI(len, ident, kind, flags) ((void)(ident), (uint64_t)0)
#define EV_LO_OFF(lo) (lo)
#endif
#if EV_WORDS
_Static_assert(sizeof(sgf_event) == 16 && offsetof(sgf_event, at) == 4 &&
                   offsetof(sgf_event, len) == 8 &&
                   offsetof(sgf_event, ident) == 12 &&
                   offsetof(sgf_event, kind) == 14 &&
                   offsetof(sgf_event, flags) == 15,
               "sgf_event is two 64-bit words");
static inline void put_words(sgf_event *e, uint64_t lo, uint64_t hi) {
  memcpy((char *)e, &lo, 8);
  memcpy((char *)e + 8, &hi, 8);
}
#else
static inline void put_words(sgf_event *e, uint64_t lo, uint64_t hi) {
  (void)e, (void)lo, (void)hi; /* not reached */
}
#endif

/* The kinds a move's records have (recorded or not: bkinds says). */
#define MOVE_KINDS                                    \
  (1u << SGF_EVENT_NODE_END | 1u << SGF_EVENT_NODE |  \
   1u << SGF_EVENT_PROPERTY | 1u << SGF_EVENT_VALUE | \
   1u << SGF_EVENT_PROPERTY_END)

/* move_run's loop for the kinds k (a constant where it is inlined, so
 * that the records not kept are not written, and the next record's place
 * is known). From the ';' at q (a move, with 7 bytes left): records from
 * br->cur, rb = offset of byte 0 of the address space minus the batch's
 * base (as OFF). Returns where it stopped: at a ';' after a whole move
 * (its property end recorded), or right after a move's ']' when no ';'
 * follows (*mid set: the property is still open). Line breaks between
 * nodes are counted in locals, as newline() would count them, and
 * written back once. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline const unsigned char *
move_run_k(sgf_parser *p, sgf__brec *br, const unsigned char *q,
           const unsigned char *end, uint64_t rb, int *mid, const unsigned k,
           const int words) {
  const unsigned ne = (k >> SGF_EVENT_NODE_END) & 1u;
  const unsigned nn = (k >> SGF_EVENT_NODE) & 1u;
  const unsigned np = (k >> SGF_EVENT_PROPERTY) & 1u;
  const unsigned nv = (k >> SGF_EVENT_VALUE) & 1u;
  const unsigned npe = (k >> SGF_EVENT_PROPERTY_END) & 1u;
  unsigned first_ne = ne & (unsigned)p->node_open;
  sgf_event *e = br->cur;
  const sgf_event *lim = br->end - 6;
  const unsigned char *last = end - 7; /* the last ';' a move may be at */
  const uint64_t lb = rb + br->base;   /* as bias */
  uint64_t line = p->ev.line, line_start = p->ev.line_start;
  uint64_t cr_end = p->cr_end;
  /* with words: offset and at of the ';' at q, in one word */
  uint64_t w = EV_LO((uint32_t)((uint64_t)(uintptr_t)q + rb),
                     (uint32_t)((const char *)q - br->bytes));
  for (;;) {
    if (words) {
      const uint64_t id = q[1];
      put_words(e, EV_LO_OFF(w), EV_HI(0, 0, SGF_EVENT_NODE_END, 0));
      e += first_ne;
      put_words(e, EV_LO_OFF(w), EV_HI(0, 0, SGF_EVENT_NODE, 0));
      e += nn;
      put_words(e, w + EV_LO(1, 1),
                EV_HI(1, 0, SGF_EVENT_PROPERTY, 0) | EV_HI(0, id, 0, 0));
      e += np;
      put_words(e, w + EV_LO(2, 3),
                EV_HI(2, 0, SGF_EVENT_VALUE, SGF_VALUE_FIRST | SGF_VALUE_LAST));
      e += nv;
      w += EV_LO(6, 6);
    } else {
      const uint64_t o = (uint64_t)(uintptr_t)q + rb;
      const uint64_t a = (uint64_t)((const char *)q - br->bytes);
      put(e, o, 0, 0, 0, SGF_EVENT_NODE_END, 0);
      e += first_ne;
      put(e, o, 0, 0, 0, SGF_EVENT_NODE, 0);
      e += nn;
      put(e, o + 1, a + 1, 1, q[1], SGF_EVENT_PROPERTY, 0);
      e += np;
      put(e, o + 2, a + 3, 2, 0, SGF_EVENT_VALUE,
          SGF_VALUE_FIRST | SGF_VALUE_LAST);
      e += nv;
    }
    q += 6;
    if (UNLIKELY(*q != ';')) {
      if (*q == '\n' && end - q > 1 && q[1] == ';') {
        /* a line break between nodes (after a ']': never part of CR LF) */
        line++;
        line_start = (uint64_t)(uintptr_t)q + 1 + lb;
        q++;
        w += EV_LO(1, 1);
      } else if (*q == '\r' && end - q > 2 && q[1] == '\n' && q[2] == ';') {
        /* CR LF: one line break, the CR's (newline() on each) */
        line++;
        cr_end = (uint64_t)(uintptr_t)q + 1 + lb;
        line_start = cr_end + 1;
        q += 2;
        w += EV_LO(2, 2);
      } else {
        *mid = 1;
        break;
      }
    }
    if (words)
      put_words(e, EV_LO_OFF(w), EV_HI(0, 0, SGF_EVENT_PROPERTY_END, 0));
    else
      put(e, (uint64_t)(uintptr_t)q + rb, 0, 0, 0, SGF_EVENT_PROPERTY_END, 0);
    e += npe;
    first_ne = ne;
    if (e > lim || q > last || !move_at(q)) {
      *mid = 0;
      break;
    }
  }
  p->ev.line = line;
  p->ev.line_start = line_start;
  p->cr_end = cr_end;
  br->cur = e;
  return q;
}

/* move_run_k's instances, out of line: a run is long (a hundred moves,
 * often), and each loop gets registers of its own rather than what
 * feed_core's leaves it. Their words only when offsets and ats cannot
 * reach 2^32 in this pass (as they cannot unless a buffer of about 2 GiB
 * is given). */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif
#define MOVE_RUN_ARGS                                   \
  sgf_parser *p, sgf__brec *br, const unsigned char *q, \
      const unsigned char *end, uint64_t rb, int *mid
/* the kinds of batch/sum and the like: no node ends */
static NOINLINE const unsigned char *move_run_4(MOVE_RUN_ARGS) {
  return move_run_k(p, br, q, end, rb, mid,
                    MOVE_KINDS & ~(1u << SGF_EVENT_NODE_END), 1);
}
static NOINLINE const unsigned char *move_run_5(MOVE_RUN_ARGS) {
  return move_run_k(p, br, q, end, rb, mid, MOVE_KINDS, 1);
}
static NOINLINE const unsigned char *move_run_any(MOVE_RUN_ARGS, int words) {
  return move_run_k(p, br, q, end, rb, mid, p->bkinds & MOVE_KINDS, words);
}
/* A run of moves from the ';' at q: move_run_k for the kinds recorded. */
static inline const unsigned char *move_run(MOVE_RUN_ARGS) {
  const unsigned k = p->bkinds & MOVE_KINDS;
  if (!EV_WORDS ||
      UNLIKELY((uint64_t)((const char *)end - br->bytes) + p->bbias >=
               UINT32_MAX - 8))
    return move_run_any(p, br, q, end, rb, mid, 0);
  if (k == (MOVE_KINDS & ~(1u << SGF_EVENT_NODE_END)))
    return move_run_4(p, br, q, end, rb, mid);
  if (k == MOVE_KINDS) return move_run_5(p, br, q, end, rb, mid);
  return move_run_any(p, br, q, end, rb, mid, 1);
}

/* Room for one more implicit variation (at most max_depth in all, since
 * each is a level of depth). */
static int implicit_grow(sgf_parser *p) {
  size_t ncap = p->implicit_cap ? p->implicit_cap * 2 : 16;
  void *q;
  if (ncap > p->max_depth) ncap = (size_t)p->max_depth;
  if (ncap <= p->implicit_cap) return -1;
  q = sgf__realloc(&p->alloc, p->implicit, p->implicit_cap * sizeof(uint64_t),
                   ncap * sizeof(uint64_t));
  if (!q) return -1;
  p->implicit = q;
  p->implicit_cap = ncap;
  return 0;
}

/* Account for the line break at offset o (byte c is LF or CR). */
static inline void newline(sgf_parser *p, uint64_t o, unsigned char c) {
  if (c == '\r') {
    p->ev.line++;
    p->cr_end = o + 1;
  } else if (p->cr_end != o) {
    p->ev.line++;
  }
  p->ev.line_start = o + 1;
}

/* Text from s (inside a value) up to the next ']' '\\' NUL or end, its
 * line breaks counted in bulk as newline() would count them one by one;
 * bias as in feed_core (OFF). Returns where the scan stopped. (Out of
 * line: it keeps the scanner's result off feed_core's frame.) */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static const unsigned char *
text_run(sgf_parser *p, const unsigned char *s, const unsigned char *end,
         uint64_t bias) {
  sgf__lines ln;
  const uint64_t o = (uint64_t)(uintptr_t)s + bias;
  s = p->scan->text(s, end, p->cr_end == o, &ln);
  p->ev.line += ln.n;
  if (ln.last) p->ev.line_start = (uint64_t)(uintptr_t)ln.last + bias + 1;
  if (ln.last_cr) p->cr_end = (uint64_t)(uintptr_t)ln.last_cr + bias + 1;
  return s;
}

/* A run of move nodes from the ';' at s, nobody listening to their
 * events (p->quiet_moves), or on_moves to be called for it: passed in
 * bulk by the move-run scanner (moves.c), up to the ';' of the first
 * node that is no plain move, its line breaks counted as newline() would
 * count them, its nodes into *count; bias as in feed_core (OFF). Leaves
 * what the general path would leave that anyone may read (a diagnostic
 * handler: the quiet flags, the node open, the identifier as written).
 * Returns the ';' it stopped at. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static const unsigned char *
moves_run(sgf_parser *p, const unsigned char *s, const unsigned char *end,
          uint64_t bias, uint64_t *count) {
  sgf__lines ln;
  const unsigned char *q = p->scan->moves(s, end, &ln);
  *count = ln.nodes;
  if (q == s) return s;
  if (p->quiet_moves == 2) { /* for sgf_run_replay(), during on_moves */
    p->run_open = p->node_open && p->want_node_end;
    p->run_raw = p->ev.raw_ident;
    p->run_raw_len = p->ev.raw_ident_len;
  }
  p->ev.line += ln.n;
  if (ln.last) p->ev.line_start = (uint64_t)(uintptr_t)ln.last + bias + 1;
  if (ln.last_cr) p->cr_end = (uint64_t)(uintptr_t)ln.last_cr + bias + 1;
  p->quiet = 0;
  p->node_open = 1;
  /* the last move's letter: 6, 7 (LF) or 8 (CR LF) bytes before q */
  p->ev.raw_ident = (const char *)q - (q[-1] == ']' ? 5 : q[-2] == ']' ? 6 : 7);
  p->ev.raw_ident_len = 1;
  return q;
}

/* Can a run begin at the ';' at s (nine bytes readable)? A part of the
 * move-run scanner's rule (moves.c), tested before it is called: a node
 * that is no plain move followed by the next node's ';' (an indented
 * node of sgf fmt's readable layout, a node of several properties)
 * costs these few tests, not a pass of the scanner that finds nothing. */
static inline int may_run(const unsigned char *s) {
  return s[2] == '[' && s[5] == ']' &&
         (s[6] == ';' || (s[6] == '\n' && s[7] == ';') ||
          (s[6] == '\r' && s[7] == '\n' && s[8] == ';'));
}

/* The mark the general path would leave in p->ev_saved after the run
 * [r, q) (m: the mark at r), for a parser with on_value (p->whole): a
 * node whose value's second byte is 0x81 or above may be a double-byte
 * lead, so the general path takes it the long way, which places its
 * value with SETEV; every other node of a run takes the ";B[qd]" fast
 * path, which leaves ev_saved alone. saved: the mark before the run. */
static sgf__mark run_saved(const unsigned char *r, const unsigned char *q,
                           const sgf__mark *m, sgf__mark saved, uint64_t bias) {
  uint64_t line = m->line, line_start = m->line_start;
  /* most runs hold no byte of 0x80 or above: then none is such a node,
   * and the walk below finds nothing (32 bytes a test) */
  const unsigned char *w = r;
  uint64_t high = 0;
  for (; q - w >= 32 && !high; w += 32) {
    uint64_t x[4];
    memcpy(x, w, 32);
    high = (x[0] | x[1] | x[2] | x[3]) & 0x8080808080808080u;
  }
  for (; w < q && !high; w++) high = *w & 0x80u;
  if (!high) return saved;
  while (r < q) {
    if (r[4] >= 0x81) {
      saved.off = (uint64_t)(uintptr_t)(r + 2) + bias;
      saved.line = line;
      saved.line_start = line_start;
    }
    r += 6;
    if (r < q && *r == '\r') r++; /* a run holds CR LF, no lone CR */
    if (r < q && *r == '\n') {
      r++;
      line++;
      line_start = (uint64_t)(uintptr_t)r + bias;
    }
  }
  return saved;
}

/* MOVES records (batches): the run from q holds more nodes than a record
 * counts. Cut it after its first 65535 nodes: the line state (m0, cr0:
 * as it was at q) counted again up to there as newline() counts it, the
 * identifier as written the last node's. Returns the ';' it cut at (the
 * next node's: the run goes on there). */
#define SGF__MOVES_MAX 0xFFFFu
static const unsigned char *moves_cut(sgf_parser *p, const unsigned char *q,
                                      uint64_t bias, const sgf__mark *m0,
                                      uint64_t cr0) {
  unsigned n;
  p->ev.line = m0->line;
  p->ev.line_start = m0->line_start;
  p->cr_end = cr0;
  for (n = 0; n < SGF__MOVES_MAX; n++) {
    p->ev.raw_ident = (const char *)q + 1;
    q += 6;
    if (*q == '\r') {
      newline(p, OFF(q), '\r');
      q++;
    }
    if (*q == '\n') {
      newline(p, OFF(q), '\n');
      q++;
    }
  }
  return q;
}

/* A NUL between tokens is whitespace with a warning (one per run). */
#define NUL_AS_SPACE()              \
  do {                              \
    if (!(p->quiet & 2)) {          \
      p->quiet |= 2;                \
      DIAG_HERE(SGF_DIAG_NUL_BYTE); \
    }                               \
    s++;                            \
  } while (0)

/* A blank between tokens at the cursor (class cls: C_WS, C_NL or C_NUL):
 * passed, a line break counted, a NUL warned about. */
#define BLANK(cls)           \
  do {                       \
    if ((cls) == C_NL)       \
      NEWLINE_STEP();        \
    else if ((cls) == C_NUL) \
      NUL_AS_SPACE();        \
    else                     \
      s++;                   \
  } while (0)

/* A line break at the cursor, when the byte is one. */
#define NEWLINE_IF_BREAK()                                \
  do {                                                    \
    if (*s == '\n' || *s == '\r') newline(p, OFF(s), *s); \
  } while (0)

/* A line break at the cursor (class C_NL): counted and passed. */
#define NEWLINE_STEP()      \
  do {                      \
    newline(p, OFF(s), *s); \
    s++;                    \
  } while (0)

/* Parse len bytes at buf, the next ones of the input. Returns an
 * int, or SGF__NEED when it stopped at a ']' whose meaning the
 * bytes up to the end do not tell yet (DOUBLE-BYTE TEXT): *consumed says
 * where, and the caller holds the rest back. */
int SGF__FEED_CORE(sgf_parser *p, const unsigned char *buf, size_t len,
                   size_t *consumed) {
  const unsigned char *s = buf, *end = buf + len;
  const uint64_t base = p->offset;
  /* OFF(q) = base + (q - buf), in one addition (wraps around harmlessly) */
  const uint64_t bias = base - (uint64_t)(uintptr_t)buf;
  int st = p->state;
  sgf__brec br = {0}; /* batched events: emit.h */
  int cls;

  p->ev.live = 1;
  p->closing = 0;
  p->buf = buf;
  if (SGF__BATCH) {
    sgf__batch_pass(p, buf);
    BREC_LOAD();
  }

  while (s < end) {
    switch (st) {
      /* ---------------------------------------------- the hot states */
      case ST_VALUE:
      case ST_VALUE_ESC:
      case ST_VALUE_TRAIL:
      L_value : {
        const unsigned char *start = s;
        sgf__mark m;
        HERE(m);
        if (st != ST_VALUE) {
          if (st == ST_VALUE_ESC) {
            if (*s == ']' && sgf__dbcs_before_escape(p, s)) {
              int d = sgf__bracket_closes(s + 1, end, p->at_eof);
              if (d == LA_NEED) goto need_more;
              if (d == LA_CLOSE) { /* the backslash was a trail byte */
                sgf__mark b;
                b.off = OFF(s) - 1;
                b.line = p->ev.line;
                b.line_start = p->ev.line_start;
                st = ST_VALUE;
                DIAG(SGF_DIAG_DBCS_BACKSLASH, &b, &p->value_pos);
                goto value_close;
              }
            }
            NEWLINE_IF_BREAK();
          }
          s++; /* the escaped byte, or a ']' that is a trail byte */
          st = ST_VALUE;
        }
        for (;;) {
          /* Short values (moves, points) inline; long ones in bulk. */
          const unsigned char *lim = (end - s > 16) ? s + 16 : end;
          while (s < lim && !value_stop[*s]) s++;
          if (s == lim && s < end) s = p->scan->value(s, end);
          if (s == end) break;
          if (*s == ']') break;
          if (*s == '\\') {
            if (++s == end) {
              st = ST_VALUE_ESC;
              break;
            }
            if (*s == ']' && sgf__dbcs_before_escape(p, s)) {
              st = ST_VALUE_ESC; /* decided above, after the bytes before */
              break;
            }
            NEWLINE_IF_BREAK();
            s++;
          } else if (*s == 0) {
            if (!(p->quiet & 2)) {
              if (s > start) break; /* deliver the bytes before it first */
              p->quiet |= 2;
              DIAG_HERE(SGF_DIAG_NUL_BYTE);
            }
            s++;
          } else { /* a line break: multi-line text, counted in bulk */
            s = text_run(p, s, end, bias);
          }
        }
        if (s > start) {
          p->ev.offset = m.off;
          if (m.off < p->ev.line_start) p->ev_saved = m;
          if ((SGF__BATCH || UNLIKELY(p->whole)) && s < end && st == ST_VALUE &&
              *s == ']' && !(s[-1] >= 0x81 && sgf__dbcs_before(p, s))) {
            /* the slice ends the value: one piece, begin to end */
            st = ST_AFTER_VALUE;
            s++;
            VPIECE((const char *)start, (size_t)(s - 1 - start), 1);
            if (s < end && st == ST_AFTER_VALUE) goto L_after_value;
            continue;
          }
          EMIT_VDATA((const char *)start, (size_t)(s - start));
          if (s == end || st != ST_VALUE || *s != ']') continue;
        }
        /* s is at ']' (a byte before it in this pass is a quick no) */
        if ((s == start || s[-1] >= 0x81) && sgf__dbcs_before(p, s)) {
          int d = sgf__bracket_closes(s + 1, end, p->at_eof);
          if (d == LA_NEED) goto need_more;
          if (d == LA_GO_ON) { /* the ']' is a trail byte */
            sgf__mark b;
            HERE(b);
            st = ST_VALUE_TRAIL;
            DIAG(SGF_DIAG_DBCS_BRACKET, &b, &p->value_pos);
            goto L_value;
          }
        }
      value_close:
        p->ev.offset = OFF(s);
        st = ST_AFTER_VALUE;
        s++;
        EMIT_VEND();
        if (s < end && st == ST_AFTER_VALUE) goto L_after_value;
        continue;
      }

      case ST_AFTER_VALUE:
      L_after_value:
        cls = byte_class[*s];
        if (cls == C_LBRACK) {
          p->ev.offset = OFF(s);
          HERE(p->value_pos);
          st = ST_VALUE;
          s++;
          EMIT_VBEGIN();
          if (s < end && st == ST_VALUE) goto L_value;
        } else if (cls == C_WS || cls == C_NL || cls == C_NUL) {
          BLANK(cls);
        } else {
          p->ev.offset = OFF(s);
          st = ST_NODE;
          EMIT(on_property_end);
          if (st == ST_NODE) goto L_node;
        }
        continue;

      case ST_NODE:
      L_node:
        if (*s == ';') { /* the common cases first, before the jump table */
          if (!SGF__BATCH && p->quiet_moves && end - s >= 16 && may_run(s)) {
            const unsigned char *r = s;
            sgf__mark m;
            uint64_t count;
            HERE(m);
            s = moves_run(p, s, end, bias, &count);
            if (p->quiet_moves == 2 && s != r) {
              /* MOVE RUNS (sgfstream/parser.h): positioned at the first ';',
               * resumed at the ';' after the run; the saved mark is left
               * as the events would leave it (a later diagnostic may
               * read it) */
              const sgf__mark saved = p->ev_saved;
              int act;
              SETEV(m);
              act = p->cb.on_moves(p, p->user, (const char *)r, (size_t)(s - r),
                                   (size_t)count);
              p->ev_saved =
                  UNLIKELY(p->whole) ? run_saved(r, s, &m, saved, bias) : saved;
              p->ev.offset = OFF(s);
              CALLBACK(act);
              if (st != ST_NODE) continue;
            }
          }
          if (SGF__BATCH && p->bmoves && end - s >= 16 && may_run(s)) {
            /* MOVES records (BATCHED EVENTS in sgfstream.h): a run of
             * plain move nodes in one record, at its first ';'; the
             * batch has room for it (a full one was delivered) */
            const unsigned char *r = s;
            const sgf__mark m0 = {0, p->ev.line, p->ev.line_start};
            const uint64_t cr0 = p->cr_end;
            uint64_t count;
            s = moves_run(p, s, end, bias, &count);
            if (s != r) {
              if (UNLIKELY(count > SGF__MOVES_MAX)) {
                s = moves_cut(p, r, bias, &m0, cr0);
                count = SGF__MOVES_MAX;
              }
              put(br.cur++, OFF(r) - br.base,
                  (uint64_t)((const char *)r - br.bytes), (uint32_t)(s - r),
                  (unsigned)count, SGF_EVENT_MOVES, 0);
              p->ev.offset = OFF(s);
              if (br.cur == br.end || ((br.stop >> SGF_EVENT_MOVES) & 1u))
                BFLUSH();
              if (st != ST_NODE) continue;
              if (UNLIKELY(count == SGF__MOVES_MAX) && end - s >= 16)
                goto L_node;
            }
          }
          if (SGF__BATCH && p->bturbo && end - s >= 7 && br.end - br.cur >= 7 &&
              move_at(s)) {
            int mid;
            s = move_run(p, &br, s, end, bias - br.base, &mid);
            /* the state after the last record: as the general path
             * leaves it (the fields it sets that anyone reads) */
            p->quiet = 0;
            p->node_open = 1;
            p->ev.raw_ident = (const char *)s - 5;
            p->ev.raw_ident_len = 1;
            if (mid) {
              HERE(p->value_pos);
              p->value_pos.off -= 4;
              p->ev.offset = p->value_pos.off;
              st = ST_AFTER_VALUE;
              goto L_after_value;
            }
            p->ev.offset = OFF(s);
          }
          NODE_END();
          if (st != ST_NODE) continue;
          p->ev.offset = OFF(s);
          s++;
          EMIT_NODE();
          if (st != ST_NODE) continue;
          /* Fast path for the node that fills game records: ";B[qd]", a
           * one-letter identifier and a two-byte value, all in this chunk.
           * Same events, positions and stopping points as the general
           * path below; only the state dispatch between them is saved. */
          if (end - s >= 5 && s[1] == '[' && s[4] == ']' &&
              (move_byte[s[0]] & M_LETTER) && (move_byte[s[2]] & M_VALUE) &&
              (move_byte[s[3]] & M_LAST)) {
            p->ev.raw_ident = (const char *)s;
            p->ev.raw_ident_len = 1;
            p->ev.offset = OFF(s);
            s++;
            st = ST_PROP;
            EMIT_DATA(on_property, (const char *)s - 1, 1);
            if (st != ST_PROP) continue;
            HERE(p->value_pos);
            p->ev.offset = p->value_pos.off;
            if ((SGF__BATCH || UNLIKELY(p->whole))) { /* whole, one call */
              s += 4;
              st = ST_AFTER_VALUE;
              WHOLE_VALUE((const char *)s - 3, 2,
                          SGF_VALUE_FIRST | SGF_VALUE_LAST);
            } else {
              s++;
              st = ST_VALUE;
              EMIT(on_value_begin);
              if (st != ST_VALUE) continue;
              p->ev.offset = OFF(s);
              s += 2;
              EMIT_DATA(on_value_data, (const char *)s - 2, 2);
              if (st != ST_VALUE) continue;
              p->ev.offset = OFF(s);
              s++;
              st = ST_AFTER_VALUE;
              EMIT(on_value_end);
            }
            if (s == end || st != ST_AFTER_VALUE) continue;
            if (*s != ';') goto L_after_value;
            /* the next node at once (AFTER_VALUE's last case, inline) */
            p->ev.offset = OFF(s);
            st = ST_NODE;
            EMIT(on_property_end);
            if (st == ST_NODE) goto L_node;
            continue;
          }
          if (s < end) goto L_node;
          continue;
        }
        cls = byte_class[*s];
        if (cls == C_UPPER) goto L_ident_fast;
        switch (cls) {
          case C_SEMI:
            p->ev.offset = OFF(s);
            s++;
            EMIT_NODE();
            if (s < end && st == ST_NODE) goto L_node;
            continue;
          case C_UPPER:
          L_ident_fast : {
            /* Fast path: an FF[4] identifier followed directly by '['. */
            const unsigned char *q = s + 1;
            size_t n;
            while (q < end && byte_class[*q] == C_UPPER) q++;
            n = (size_t)(q - s);
            if (q < end && *q == '[' && n <= p->max_ident_len) {
              /* handed over in place: valid during the callback */
              p->ev.raw_ident = (const char *)s;
              p->ev.raw_ident_len = n;
              p->ev.offset = OFF(s);
              s = q;
              st = ST_PROP;
              EMIT_DATA(on_property, (const char *)s - n, n);
              if (st == ST_PROP) goto L_prop;
              continue;
            }
          }
          /* fall through */
          case C_LOWER:
            HERE(p->ident_pos);
            p->ident_len = p->ev.raw_ident_len = 0;
            p->ev.raw_ident = p->raw; /* read into raw from here */
            st = ST_IDENT;
            continue;
          case C_WS:
            s++;
            continue;
          case C_NL:
            NEWLINE_STEP();
            continue;
          case C_LPAREN:
            /* The node ends here only if this '(' opens a tree: an empty
             * "()" is ignored and the node goes on (ST_OPEN decides). */
            HERE(p->open_pos);
            p->open_ret = ST_NODE;
            p->orphan_ret = ST_NODE;
            st = ST_OPEN;
            s++;
            continue;
          case C_RPAREN:
            NODE_END();
            if (st != ST_NODE) continue;
            goto close_tree;
          case C_LBRACK:
            DIAG_HERE(SGF_DIAG_ORPHAN_VALUE);
            p->orphan_ret = ST_NODE;
            st = ST_ORPHAN;
            s++;
            continue;
          case C_NUL:
            NUL_AS_SPACE();
            continue;
          default:
            JUNK_HERE(SGF_DIAG_JUNK);
            s++;
            continue;
        }

      case ST_IDENT:
        while (s < end) {
          cls = byte_class[*s];
          if (cls == C_UPPER) {
            if (p->ev.raw_ident_len == p->max_ident_len) goto ident_limit;
            p->raw[p->ev.raw_ident_len++] = (char)*s;
            p->ident[p->ident_len++] = (char)*s;
          } else if (cls == C_LOWER) {
            if (p->ev.raw_ident_len == p->max_ident_len) goto ident_limit;
            p->raw[p->ev.raw_ident_len++] = (char)*s;
          } else {
            st = ST_AFTER_IDENT;
            p->ws_seen = 0;
            break;
          }
          s++;
        }
        continue;

      case ST_AFTER_IDENT:
        cls = byte_class[*s];
        if (cls == C_LBRACK) {
          sgf__ident_finish(p);
          p->ev.raw_ident = p->raw;
          if (p->ident_len != p->ev.raw_ident_len ||
              memcmp(p->ident, p->raw, p->ev.raw_ident_len) != 0)
            DIAG(SGF_DIAG_LOWERCASE_IDENT, &p->ident_pos, NULL);
          if (p->ws_seen)
            DIAG(SGF_DIAG_SPACE_BEFORE_VALUE, &p->ident_pos, NULL);
          SETEV(p->ident_pos);
          st = ST_PROP;
          EMIT_DATA(on_property, p->ident, p->ident_len);
        } else if (cls == C_WS) {
          p->ws_seen = 1;
          s++;
        } else if (cls == C_NL) {
          p->ws_seen = 1;
          NEWLINE_STEP();
        } else if (cls == C_NUL) {
          p->ws_seen = 1;
          NUL_AS_SPACE();
        } else {
          sgf__ident_finish(p);
          DIAG(SGF_DIAG_NO_VALUE, &p->ident_pos, NULL);
          st = ST_NODE;
        }
        continue;

      case ST_PROP: /* *s is the first '[' */
      L_prop:
        p->ev.offset = OFF(s);
        HERE(p->value_pos);
        st = ST_VALUE;
        s++;
        EMIT_VBEGIN();
        if (s < end && st == ST_VALUE) goto L_value;
        continue;

      /* ---------------------------------------------- tree structure */
      case ST_AFTER_CHILD:
        cls = byte_class[*s];
        switch (cls) {
          case C_LPAREN:
            if (p->flags & SGF_OPT_MAINLINE) {
              /* A secondary variation: pass over it without any event
               * (within the depth limit, as any other). */
              if (p->depth >= p->max_depth) goto depth_limit;
              p->depth++;
              p->skip_target = p->depth;
              p->skip_silent = 1;
              st = ST_SKIP;
              s++;
              continue;
            }
            HERE(p->open_pos);
            p->open_ret = ST_AFTER_CHILD;
            st = ST_OPEN;
            s++;
            continue;
          case C_RPAREN:
            goto close_tree;
          case C_WS:
          case C_NL:
          case C_NUL:
            BLANK(cls);
            continue;
          case C_SEMI:
          case C_UPPER:
          case C_LOWER:
          case C_LBRACK:
            /* A node after a variation: open an implicit variation that
             * the enclosing ')' will close. */
            if (p->depth >= p->max_depth) goto depth_limit;
            if (p->nimplicit == p->implicit_cap && implicit_grow(p) < 0) {
              DIAG_HERE(SGF_DIAG_NOMEM);
              goto failed; /* fatal: not reached */
            }
            /* the repair is reported in mainline mode too (an error in
             * strict mode), though the variation is then passed over */
            DIAG_HERE(SGF_DIAG_NODE_AFTER_VARIATION);
            if (p->flags & SGF_OPT_MAINLINE) { /* secondary: pass over it */
              p->implicit[p->nimplicit++] = ++p->depth;
              p->skip_target = p->depth;
              p->skip_silent = 1;
              st = ST_SKIP;
              continue;
            }
            p->implicit[p->nimplicit++] = ++p->depth;
            p->ev.offset = OFF(s);
            st = ST_SEQ_START;
            EMIT_Q(on_tree_begin);
            continue;
          default:
            JUNK_HERE(SGF_DIAG_JUNK);
            s++;
            continue;
        }

      case ST_OPEN:
        cls = byte_class[*s];
        if (cls == C_WS || cls == C_NL || cls == C_NUL) {
          BLANK(cls);
        } else if (cls == C_RPAREN) {
          DIAG(SGF_DIAG_EMPTY_TREE, &p->open_pos, NULL);
          st = p->open_ret;
          s++;
        } else {
          if (UNLIKELY(p->want_node_end) && p->node_open) {
            /* The node before this '(' ends at it. A skip from here
             * counts the '(' already passed as a level of its own. */
            p->node_open = 0;
            SETEV(p->open_pos);
            EMIT(on_node_end);
            if (st != ST_OPEN) {
              p->depth++;
              continue;
            }
          }
          if (p->depth >= p->max_depth) {
            DIAG(SGF_DIAG_DEPTH_LIMIT, &p->open_pos, NULL);
            goto failed; /* fatal: not reached */
          }
          p->depth++;
          SETEV(p->open_pos);
          st = ST_SEQ_START;
          EMIT_Q(on_tree_begin);
        }
        continue;

      case ST_SEQ_START:
        cls = byte_class[*s];
        switch (cls) {
          case C_SEMI:
            p->ev.offset = OFF(s);
            st = ST_NODE;
            s++;
            EMIT_NODE();
            continue;
          case C_WS:
          case C_NL:
          case C_NUL:
            BLANK(cls);
            continue;
          case C_UPPER:
          case C_LOWER:
          case C_LBRACK:
          case C_LPAREN:
          case C_RPAREN: /* the node is there, its ';' is not */
            DIAG_HERE(cls == C_LPAREN || cls == C_RPAREN
                          ? SGF_DIAG_TREE_WITHOUT_NODE
                          : SGF_DIAG_MISSING_SEMICOLON);
            p->ev.offset = OFF(s);
            st = ST_NODE;
            EMIT_NODE();
            continue;
          default:
            JUNK_HERE(SGF_DIAG_JUNK);
            s++;
            continue;
        }

      /* ---------------------------------------------- between trees */
      case ST_TOP:
        cls = byte_class[*s];
        if (cls == C_LPAREN || cls == C_SEMI) {
          HERE(p->cand_pos);
          p->cand = *s;
          st = ST_TOP_OPEN;
          s++;
        } else if (cls == C_WS) {
          s++;
        } else if (cls == C_NL) {
          NEWLINE_STEP();
        } else if (OFF(s) == 0 && (*s == 0xEF || *s == 0xFE || *s == 0xFF)) {
          st = ST_BOM;
          p->cand = *s;
          s++;
        } else {
          sgf__mark h;
          HERE(h);
          if (cls == C_RPAREN && p->seen_tree && !(p->quiet & 1)) {
            DIAG(SGF_DIAG_EXTRA_PAREN, &h, NULL);
          } else {
            JUNK_TOP(&h);
          }
          s++;
        }
        continue;

      case ST_BOM: {
        /* p->cand holds the first byte; OFF(s) is 1 or 2. */
        static const unsigned char utf8_bom[3] = {0xEF, 0xBB, 0xBF};
        uint64_t o = OFF(s);
        if (p->cand == 0xEF) {
          if (*s == utf8_bom[o]) {
            s++;
            if (o == 2) {
              st = ST_TOP;
              DIAG(SGF_DIAG_BOM, &sgf__input_start, NULL);
            }
            continue;
          }
        } else if ((p->cand == 0xFE && *s == 0xFF) ||
                   (p->cand == 0xFF && *s == 0xFE)) {
          DIAG(SGF_DIAG_UTF16, &sgf__input_start, NULL);
        }
        st = ST_TOP;
        JUNK(SGF_DIAG_JUNK_BEFORE, &sgf__input_start);
        continue;
      }

      case ST_TOP_OPEN:
        cls = byte_class[*s];
        if (cls == C_WS) {
          s++;
        } else if (cls == C_NL) {
          NEWLINE_STEP();
        } else if (cls == C_NUL) {
          NUL_AS_SPACE(); /* UTF-16 was told by its first bytes (parser.c) */
        } else if (p->cand == '(' && (cls == C_SEMI || cls == C_LPAREN)) {
          goto begin_top_tree;
        } else if (p->cand == '(' && cls == C_RPAREN) {
          DIAG(SGF_DIAG_EMPTY_TREE, &p->cand_pos, NULL);
          st = ST_TOP;
          s++;
        } else if (is_letter(cls)) {
          HERE(p->ident_pos);
          p->ident_len = p->ev.raw_ident_len = 0;
          p->ev.raw_ident = p->raw;
          st = ST_TOP_IDENT;
        } else {
          goto not_a_tree;
        }
        continue;

      case ST_TOP_IDENT:
      case ST_TOP_IDENT_WS:
        cls = byte_class[*s];
        if (is_letter(cls) && st == ST_TOP_IDENT) {
          if (p->ev.raw_ident_len == p->max_ident_len) goto not_a_tree;
          p->raw[p->ev.raw_ident_len++] = (char)*s;
          if (cls == C_UPPER) p->ident[p->ident_len++] = (char)*s;
          s++;
        } else if (cls == C_WS || cls == C_NL) {
          if (cls == C_NL) newline(p, OFF(s), *s);
          st = ST_TOP_IDENT_WS;
          s++;
        } else if (cls == C_LBRACK) {
          p->ws_seen = (st == ST_TOP_IDENT_WS);
          /* missing-semicolon follows tree-begin (CONFIRM_NODE), as it
           * does inside a tree; missing-paren comes first */
          if (p->cand == ';') DIAG(SGF_DIAG_MISSING_PAREN, &p->cand_pos, NULL);
          goto begin_top_tree;
        } else {
          goto not_a_tree;
        }
        continue;

      case ST_CONFIRM_NODE:
        CONFIRM_NODE();
        continue;

      /* ---------------------------------------------- values without use */
      case ST_LONG_IDENT: /* the rest of an identifier over the limit */
        cls = byte_class[*s];
        if (is_letter(cls))
          s++;
        else
          st = ST_DROP_VALUES;
        continue;

      case ST_DROP_VALUES: /* the values of a dropped property */
        cls = byte_class[*s];
        if (cls == C_LBRACK) {
          p->orphan_ret = ST_DROP_VALUES;
          st = ST_ORPHAN;
          s++;
        } else if (cls == C_WS) {
          s++;
        } else if (cls == C_NL) {
          NEWLINE_STEP();
        } else {
          st = ST_NODE;
        }
        continue;

      case ST_ORPHAN:
      case ST_ORPHAN_ESC:
        if (st == ST_ORPHAN_ESC) {
          NEWLINE_IF_BREAK();
          st = ST_ORPHAN;
        } else if (*s == ']') {
          st = p->orphan_ret;
        } else if (*s == '\\') {
          st = ST_ORPHAN_ESC;
        } else if (*s == '\n' || *s == '\r') {
          newline(p, OFF(s), *s);
        }
        s++;
        continue;

      /* ---------------------------------------------- skipping */
      case ST_SKIP:
      case ST_SKIP_VALUE:
      case ST_SKIP_ESC: { /* the tree skipper, up to the closing ')' */
        sgf__skip sk;
        sgf__lines ln;
        sk.levels = p->depth - p->skip_target;
        sk.max_levels = p->max_depth - p->skip_target;
        sk.in_value = st != ST_SKIP;
        sk.escaped = st == ST_SKIP_ESC;
        s = p->scan->tree(s, end, p->cr_end == OFF(s), &sk, &ln);
        p->ev.line += ln.n;
        if (ln.last) p->ev.line_start = (uint64_t)(uintptr_t)ln.last + bias + 1;
        if (ln.last_cr) p->cr_end = (uint64_t)(uintptr_t)ln.last_cr + bias + 1;
        p->depth = p->skip_target + sk.levels;
        st = !sk.in_value ? ST_SKIP : sk.escaped ? ST_SKIP_ESC : ST_SKIP_VALUE;
        if (s == end) continue;
        /* a '(' past the depth limit: fatal in a skipped tree too */
        if (*s == '(') goto depth_limit;
        goto close_tree;
      }

      default:
        s = end; /* not reached */
        continue;
    }

    /* Shared transitions, reached by goto from the states above. */
  close_tree:
    /* *s is a ')' inside a tree. */
    p->ev.offset = OFF(s);
    if (p->nimplicit && p->implicit[p->nimplicit - 1] == p->depth) {
      /* An implicit variation closes first; the ')' is looked at again
       * for the tree that really owns it. */
      p->nimplicit--;
      p->depth--;
      st = ST_AFTER_CHILD;
    } else {
      p->depth--;
      st = p->depth ? ST_AFTER_CHILD : ST_TOP;
      s++;
    }
    if (p->skip_target) {
      if (p->depth >= p->skip_target) { /* closed a level inside the skip */
        st = ST_SKIP;
        continue;
      }
      p->skip_target = 0;
      if (p->skip_silent) { /* a variation mainline mode passed over */
        p->skip_silent = 0;
        continue;
      }
    }
    EMIT_TREE_END();
    continue;

  begin_top_tree:
    /* A candidate at depth 0 proved to open a game tree; *s is ';' or '('
     * after '(' (looked at again in SEQ_START), or the '[' after the
     * first identifier of a tree whose '(' or ';' is missing. */
    if (p->max_depth < 1) {
      DIAG(SGF_DIAG_DEPTH_LIMIT, &p->cand_pos, NULL);
      goto failed; /* fatal: not reached */
    }
    p->depth = 1;
    p->seen_tree = 1;
    p->tree_open = p->cand_pos;
    SETEV(p->cand_pos);
    st = (*s == '[') ? ST_CONFIRM_NODE : ST_SEQ_START;
    EMIT_Q(on_tree_begin);
    continue;

  not_a_tree:
    JUNK_TOP(&p->cand_pos);
    st = ST_TOP;
    continue;

  ident_limit:
    /* An error, not fatal: the rest of the identifier and the property's
     * values are passed over (ORPHAN), nothing more is buffered. */
    DIAG(SGF_DIAG_IDENT_LIMIT, &p->ident_pos, NULL);
    st = ST_LONG_IDENT;
    continue;

  depth_limit:
    DIAG_HERE(SGF_DIAG_DEPTH_LIMIT);
    goto failed; /* fatal: not reached */
  }

  FLUSH();
  sgf__keep_vtail(p, st, end);
  p->state = st;
  p->ev.live = 0;
  p->offset = base + len;
  *consumed = len;
  return SGF_OK;

need_more:
  FLUSH();
  sgf__keep_vtail(p, st, s);
  p->ev.live = 0;
  p->state = st;
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return SGF__NEED;

paused:
  sgf__keep_vtail(p, st, s);
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return sgf__leave(p, st, SGF_PAUSED);

aborted:
  FLUSH_AT_STOP(); /* the events before the stop */
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return sgf__leave(p, st, SGF_EABORTED);

failed:
  FLUSH_AT_STOP();
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return sgf__leave(p, st, SGF_EPARSE);
}
