/* parser.c - the incremental SGF tokenizer.
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
 *   NODE          inside a node, between properties.
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
 *   SKIP, SKIP_VALUE, SKIP_ESC  a handler asked to skip: only brackets and
 *                 parentheses are tracked until the skipped tree closes.
 *   FIN_CLOSE     finish(): closing the trees left open.
 *   DONE          finish() completed.
 *
 * DOUBLE-BYTE TEXT. In Shift_JIS, GBK, GB18030 and Big5 the second byte of
 * a character may be '\' (0x5C) or ']' (0x5D). Writers disagree: some
 * escape such bytes like any other (SGFC does), others write the
 * characters as they are (Nihon Ki-in's downloads, with no CA at all), so
 * "PB[..\x83\\]" ends the value for one and escapes the ']' for the
 * other. Byte rules alone swallow the next properties of the second kind
 * without a word. So in lenient mode, where a byte that can lead a
 * double-byte character (0x81..0xFE, not the end of a valid UTF-8
 * sequence) stands right before "\]" or "]", what follows the ']'
 * decides: blanks and then ';' '(' ')' '[' or letters and '[' (or the end
 * of input) mean the ']' closes the value; anything else means it does
 * not. When that overrules byte rules, a warning says so (dbcs-backslash,
 * dbcs-bracket). Strict mode reads FF[4] to the letter, byte rules only,
 * as valid FF[4] such as the writer's output needs: text with such a byte
 * before an escaped ']' and SGF-like text after it reads differently in
 * lenient mode, whose reading is the repair real double-byte files need.
 * The decision looks at most
 * SGF__LOOKAHEAD bytes ahead; when a chunk ends before it can be made, the
 * rest of the chunk is held back in the parser (la) and parsed first with
 * the next feed, so decisions, like everything else, do not depend on
 * where chunks end. The bytes before a ']' may be in an earlier chunk:
 * the last few bytes of the open value are kept (vtail). Valid UTF-8 text
 * never meets the rule; skipped game trees and orphan values keep byte
 * rules.
 */
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "parser.h"
#include "sized.h"
#include "scan.h"

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

/* Byte classes for the structural states. */
enum {
  C_OTHER = 0,
  C_WS,     /* space, tab, VT, FF */
  C_NL,     /* LF, CR */
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
    ['A'] = C_UPPER, ['B'] = C_UPPER, ['C'] = C_UPPER, ['D'] = C_UPPER, ['E']
    = C_UPPER, ['F'] = C_UPPER, ['G'] = C_UPPER, ['H'] = C_UPPER, ['I'] =
    C_UPPER, ['J'] = C_UPPER, ['K'] = C_UPPER, ['L'] = C_UPPER, ['M'] =
    C_UPPER, ['N'] = C_UPPER, ['O'] = C_UPPER, ['P'] = C_UPPER, ['Q'] =
    C_UPPER, ['R'] = C_UPPER, ['S'] = C_UPPER, ['T'] = C_UPPER, ['U'] =
    C_UPPER, ['V'] = C_UPPER, ['W'] = C_UPPER, ['X'] = C_UPPER, ['Y'] =
    C_UPPER, ['Z'] = C_UPPER,
    ['a'] = C_LOWER, ['b'] = C_LOWER, ['c'] = C_LOWER, ['d'] = C_LOWER, ['e']
    = C_LOWER, ['f'] = C_LOWER, ['g'] = C_LOWER, ['h'] = C_LOWER, ['i'] =
    C_LOWER, ['j'] = C_LOWER, ['k'] = C_LOWER, ['l'] = C_LOWER, ['m'] =
    C_LOWER, ['n'] = C_LOWER, ['o'] = C_LOWER, ['p'] = C_LOWER, ['q'] =
    C_LOWER, ['r'] = C_LOWER, ['s'] = C_LOWER, ['t'] = C_LOWER, ['u'] =
    C_LOWER, ['v'] = C_LOWER, ['w'] = C_LOWER, ['x'] = C_LOWER, ['y'] =
    C_LOWER, ['z'] = C_LOWER,
    [' '] = C_WS, ['\t'] = C_WS, ['\v'] = C_WS, ['\f'] = C_WS,
    ['\n'] = C_NL, ['\r'] = C_NL, [0] = C_NUL,
    ['('] = C_LPAREN, [')'] = C_RPAREN, [';'] = C_SEMI,
    ['['] = C_LBRACK, [']'] = C_RBRACK, ['\\'] = C_BSLASH};
/* Bytes that stop the scan inside a value: ']' '\\' LF CR NUL. */
static const unsigned char value_stop[256] = {
    [']'] = 1, ['\\'] = 1, ['\n'] = 1, ['\r'] = 1, [0] = 1};

/* ------------------------------------------------------------------ */
/* Double-byte text (see DOUBLE-BYTE TEXT above)                       */

/* feed_core() stopped for look-ahead: the rest of the chunk is held back. */
#define SGF__NEED 100

enum { LA_CLOSE, LA_GO_ON, LA_NEED };

static int is_blank_byte(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

static int is_alpha_byte(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Does the ']' just before s close its value? LA_CLOSE if blanks and then
 * ';' '(' ')' '[', or letters and '[', follow (or the end of input, or
 * SGF__LOOKAHEAD bytes without an answer), LA_GO_ON if something else
 * does, LA_NEED if the bytes up to end do not tell yet. */
static int bracket_closes(const unsigned char *s, const unsigned char *end,
                          int eof) {
  size_t n = (size_t)(end - s), i = 0;
  int letters = 0;
  if (n > SGF__LOOKAHEAD) n = SGF__LOOKAHEAD;
  while (i < n && is_blank_byte(s[i])) i++;
  if (i < n && is_alpha_byte(s[i])) {
    letters = 1;
    while (i < n && is_alpha_byte(s[i])) i++;
    while (i < n && is_blank_byte(s[i])) i++;
  }
  if (i == n)
    return (n == SGF__LOOKAHEAD || eof) ? LA_CLOSE : LA_NEED;
  if (s[i] == '[') return LA_CLOSE;
  if (!letters && (s[i] == ';' || s[i] == '(' || s[i] == ')'))
    return LA_CLOSE;
  return LA_GO_ON;
}

/* 1 if the last of the n value bytes b (oldest first) may lead a
 * double-byte character: 0x81..0xFE, and not the end of a valid UTF-8
 * sequence. (A backslash before it proves nothing: it may be the trail
 * byte of the character before.) */
static int dbcs_lead_at_end(const unsigned char *b, size_t n) {
  unsigned char c;
  size_t j;
  if (n == 0) return 0;
  c = b[n - 1];
  if (c < 0x81 || c == 0xFF) return 0;
  if (c >= 0xC0) return 1; /* a UTF-8 lead byte ends no sequence */
  for (j = 1; j <= 3 && j < n; j++) {
    unsigned char x = b[n - 1 - j];
    if (x >= 0x80 && x <= 0xBF) continue;
    if ((j == 1 && x >= 0xC2 && x <= 0xDF) ||
        (j == 2 && x >= 0xE0 && x <= 0xEF) ||
        (j == 3 && x >= 0xF0 && x <= 0xF4))
      return 0;
    break;
  }
  return 1;
}

/* The up to SGF__VTAIL bytes of the open value just before at (in the buffer
 * being parsed, p->buf), oldest first, into out: vtail's, then the
 * buffer's from the value's first byte on. Returns how many. */
static size_t value_before(const sgf_parser *p, const unsigned char *at,
                           unsigned char *out) {
  const unsigned char *buf = p->buf;
  const uint64_t base = p->offset; /* while feeding: where buf starts */
  const uint64_t first = p->value_pos.off + 1;
  const unsigned char *lo = buf;
  size_t nb, nt = 0;
  if (first > base) lo = buf + (size_t)(first - base);
  nb = at > lo ? (size_t)(at - lo) : 0;
  if (nb > SGF__VTAIL) nb = SGF__VTAIL;
  if (nb < SGF__VTAIL && first < base) {
    nt = p->vtail_len < SGF__VTAIL - nb ? p->vtail_len : SGF__VTAIL - nb;
    memcpy(out, p->vtail + p->vtail_len - nt, nt);
  }
  memcpy(out + nt, at - nb, nb);
  return nt + nb;
}

/* May the byte before the backslash just before at lead a double-byte
 * character? (at is the escaped byte.) Never in strict mode. */
static int dbcs_before_escape(const sgf_parser *p, const unsigned char *at) {
  unsigned char b[SGF__VTAIL];
  size_t n;
  if (p->flags & SGF_OPT_STRICT) return 0;
  n = value_before(p, at, b);
  return n >= 2 && dbcs_lead_at_end(b, n - 1);
}

/* May the byte just before at lead a double-byte character? Never in
 * strict mode. */
static int dbcs_before(const sgf_parser *p, const unsigned char *at) {
  unsigned char b[SGF__VTAIL];
  size_t n;
  if (p->flags & SGF_OPT_STRICT) return 0;
  n = value_before(p, at, b);
  return dbcs_lead_at_end(b, n);
}

/* Leaving a buffer at s in state st: keep the open value's last bytes. */
static void keep_vtail(sgf_parser *p, int st, const unsigned char *s) {
  unsigned char b[SGF__VTAIL];
  if (st == ST_VALUE || st == ST_VALUE_ESC || st == ST_VALUE_TRAIL) {
    p->vtail_len = value_before(p, s, b);
    memcpy(p->vtail, b, p->vtail_len);
  } else {
    p->vtail_len = 0;
  }
}

/* ------------------------------------------------------------------ */
/* Creation and small accessors                                        */

void sgf_options_init(sgf_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->size = sizeof *opt;
}

void sgf_callbacks_init(sgf_callbacks *cb) {
  memset(cb, 0, sizeof *cb);
  cb->size = sizeof *cb;
}

static void parser_clear(sgf_parser *p) {
  p->state = ST_TOP;
  p->status = SGF_OK;
  p->ev.live = 0;
  p->seen_tree = 0;
  p->quiet = 0;
  p->ws_seen = 0;
  p->first_nul = 0;
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
  memset(p->ndiag, 0, sizeof p->ndiag);
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
  p->cb = cb;
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
  sgf__free(&a, p, sizeof *p);
  return SGF_OK;
}

int sgf_parser_reset(sgf_parser *p) {
  if (p->ev.live) return SGF_EBUSY;
  parser_clear(p);
  return SGF_OK;
}

void sgf_parser_resume(sgf_parser *p) {
  if (p->status == SGF_PAUSED) p->status = SGF_OK;
}

static sgf_pos mark_pos(const sgf__mark *m) {
  sgf_pos r;
  r.offset = m->off;
  r.line = m->line;
  r.column = m->off - m->line_start + 1;
  return r;
}

sgf_pos sgf_parser_position(const sgf_parser *p) {
  sgf__mark m;
  if (p->ev.live) {
    if (p->ev.offset < p->ev.line_start) return mark_pos(&p->ev_saved);
    m.off = p->ev.offset;
    m.line = p->ev.line;
    m.line_start = p->ev.line_start;
  } else {
    /* after the bytes held back for look-ahead, if any (their line
     * breaks counted as newline() will count them) */
    uint64_t cr = p->cr_end;
    size_t i;
    m.off = p->offset;
    m.line = p->ev.line;
    m.line_start = p->ev.line_start;
    for (i = 0; i < p->la_len; i++, m.off++) {
      if (p->la[i] == '\r') {
        m.line++;
        cr = m.off + 1;
        m.line_start = m.off + 1;
      } else if (p->la[i] == '\n') {
        if (cr != m.off) m.line++;
        m.line_start = m.off + 1;
      }
    }
  }
  return mark_pos(&m);
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
 * 2 if the handler aborted. */
static int deliver(sgf_parser *p, sgf_diag *d) {
  int r = SGF_CONTINUE;
  int stop;
  if (d->severity == SGF_SEV_WARNING && (p->flags & SGF_OPT_STRICT))
    d->severity = SGF_SEV_ERROR;
  stop = d->severity == SGF_SEV_FATAL ||
         (d->severity == SGF_SEV_ERROR && (p->flags & SGF_OPT_STRICT));
  if (d->severity >= SGF_SEV_WARNING && d->severity <= SGF_SEV_FATAL)
    p->ndiag[d->severity - 1]++;
  if (p->cb.on_diagnostic) r = p->cb.on_diagnostic(p, p->user, d);
  if (stop) {
    p->error = *d;
    p->has_error = 1;
    p->status = SGF_EPARSE;
    return 1;
  }
  return r == SGF_ABORT ? 2 : 0;
}

static int diag(sgf_parser *p, sgf_diag_code code, const sgf__mark *at,
                const sgf__mark *mark) {
  sgf_diag d;
  memset(&d, 0, sizeof d);
  d.code = code;
  d.severity = sgf_diag_severity(code);
  d.pos = mark_pos(at);
  if (mark) {
    d.has_mark = 1;
    d.mark = mark_pos(mark);
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

/* ------------------------------------------------------------------ */
/* The feed loop                                                       */

static int is_letter(int cls) { return cls == C_UPPER || cls == C_LOWER; }

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

/* The skip state matching a resume state. */
static int skip_state(int st) {
  if (st == ST_VALUE) return ST_SKIP_VALUE;
  if (st == ST_VALUE_ESC) return ST_SKIP_ESC;
  if (st == ST_VALUE_TRAIL) return ST_SKIP_VALUE;
  return ST_SKIP;
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
static const unsigned char *text_run(sgf_parser *p, const unsigned char *s,
                                     const unsigned char *end,
                                     uint64_t bias) {
  sgf__lines ln;
  const uint64_t o = (uint64_t)(uintptr_t)s + bias;
  s = p->scan->text(s, end, p->cr_end == o, &ln);
  p->ev.line += ln.n;
  if (ln.last) p->ev.line_start = (uint64_t)(uintptr_t)ln.last + bias + 1;
  if (ln.last_cr) p->cr_end = (uint64_t)(uintptr_t)ln.last_cr + bias + 1;
  return s;
}

/* Finish the identifier: the normalized form keeps the uppercase letters
 * (FF[3] allowed lowercase ones, which FF[4] ignores); an identifier
 * written all in lowercase is upper-cased instead. */
static void ident_finish(sgf_parser *p) {
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

#define OFF(q) ((uint64_t)(uintptr_t)(q) + bias)
/* The current event is at offset ev.offset; when that is before the current
 * line (a deferred event, a slice spanning lines) ev_saved has its mark. */
#define SETEV(m) (p->ev.offset = (m).off, p->ev_saved = (m))

#define HERE(m)                           \
  do {                                    \
    (m).off = OFF(s);                     \
    (m).line = p->ev.line;                \
    (m).line_start = p->ev.line_start;    \
  } while (0)

/* Call back; on anything but continue, act on it. The state to resume in
 * (st) and the byte to resume at (s) must be set before. */
#define CALLBACK(call)                    \
  do {                                    \
    int r_ = (call);                      \
    if (r_ != SGF_CONTINUE) {             \
      if (r_ == SGF_SKIP) {               \
        if (p->depth > 0) {               \
          st = skip_state(st);            \
          p->skip_target = p->depth;      \
          p->node_open = 0;               \
        }                                 \
      } else if (r_ == SGF_PAUSE) {       \
        goto paused;                      \
      } else {                            \
        goto aborted;                     \
      }                                   \
    }                                     \
  } while (0)

#define EMIT(name)                                     \
  do {                                                 \
    if (p->cb.name) CALLBACK(p->cb.name(p, p->user));  \
  } while (0)
#define EMIT_DATA(name, at, len)                                 \
  do {                                                           \
    if (p->cb.name) CALLBACK(p->cb.name(p, p->user, (at), (len))); \
  } while (0)

/* The three value events, or with on_value (WHOLE VALUES in sgfstream.h)
 * the pieces: value-begin only notes that the first piece is to come; a
 * slice is a piece (the first one at the '['); value-end is an empty last
 * piece (or the whole value, when nothing came before). VPIECE with last
 * set delivers a slice that ends the value in one call; its caller sets
 * the state after the ']' first. */
#if defined(__GNUC__)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define UNLIKELY(x) (x)
#endif

#define EMIT_VBEGIN()                               \
  do {                                              \
    if (p->cb.on_value)                             \
      p->vfirst = 1;                                \
    else if (p->cb.on_value_begin)                  \
      CALLBACK(p->cb.on_value_begin(p, p->user));   \
  } while (0)
#define VPIECE(at, len, last)                                        \
  do {                                                               \
    unsigned f_ = (last) ? SGF_VALUE_LAST : 0u;                      \
    if (p->vfirst) {                                                 \
      p->vfirst = 0;                                                 \
      f_ |= SGF_VALUE_FIRST;                                         \
      SETEV(p->value_pos);                                           \
    }                                                                \
    CALLBACK(p->cb.on_value(p, p->user, (at), (len), f_));           \
  } while (0)
#define EMIT_VDATA(at, len)                                  \
  do {                                                       \
    if (p->cb.on_value)                                      \
      VPIECE((at), (len), 0);                                \
    else if (p->cb.on_value_data)                            \
      CALLBACK(p->cb.on_value_data(p, p->user, (at), (len))); \
  } while (0)
#define EMIT_VEND()                                 \
  do {                                              \
    if (p->cb.on_value)                             \
      VPIECE("", 0, 1);                             \
    else if (p->cb.on_value_end)                    \
      CALLBACK(p->cb.on_value_end(p, p->user));     \
  } while (0)

/* Node and tree events end a run of junk or NUL bytes (one warning a run). */
#define EMIT_Q(name)  \
  do {                \
    p->quiet = 0;     \
    EMIT(name);       \
  } while (0)

/* A tree ends; sgf_parser_depth() still counts it during the event (a
 * pause or an abort leaves closing set: feed and finish clear it). */
#define EMIT_TREE_END()     \
  do {                      \
    p->closing = 1;         \
    EMIT_Q(on_tree_end);    \
    p->closing = 0;         \
  } while (0)

/* A node begins: it is open until NODE_END. */
#define EMIT_NODE()         \
  do {                      \
    p->node_open = 1;       \
    EMIT_Q(on_node);         \
  } while (0)

/* The open node ends at the byte at s (';' '(' or ')'; in finish, the end
 * of input), which is looked at again after the event: the state to
 * resume in is the current one. node_open is kept only for on_node_end:
 * without it the flag is never read, and the hot loop pays one test. */
#define NODE_END()                                          \
  do {                                                      \
    if (UNLIKELY(p->cb.on_node_end != NULL) && p->node_open) { \
      p->node_open = 0;                                     \
      p->ev.offset = OFF(s);                                \
      CALLBACK(p->cb.on_node_end(p, p->user));              \
    }                                                       \
  } while (0)

/* Report a diagnostic at a mark; stop on error or abort. */
#define DIAG(code, at, mark)                 \
  do {                                       \
    int d_ = diag(p, (code), (at), (mark));  \
    if (d_ == 1) goto failed;                \
    if (d_ == 2) goto aborted;               \
  } while (0)
#define DIAG_HERE(code)   \
  do {                    \
    sgf__mark h_;         \
    HERE(h_);             \
    DIAG(code, &h_, NULL); \
  } while (0)

/* A NUL between tokens is whitespace with a warning (one per run). */
#define NUL_AS_SPACE()                 \
  do {                                 \
    if (!(p->quiet & 2)) {             \
      p->quiet |= 2;                   \
      DIAG_HERE(SGF_DIAG_NUL_BYTE);    \
    }                                  \
    s++;                               \
  } while (0)

/* Junk: one warning per run of unexpected bytes (until the next event). */
#define JUNK(code, at)                  \
  do {                                  \
    if (!(p->quiet & 1)) {              \
      p->quiet |= 1;                    \
      DIAG(code, at, NULL);             \
    }                                   \
  } while (0)

/* Parse len bytes at buf, the next ones of the input. Returns an
 * int, or SGF__NEED when it stopped at a ']' whose meaning the
 * bytes up to the end do not tell yet (DOUBLE-BYTE TEXT): *consumed says
 * where, and the caller holds the rest back. */
static int feed_core(sgf_parser *p, const unsigned char *buf, size_t len,
                     size_t *consumed) {
  const unsigned char *s = buf, *end = buf + len;
  const uint64_t base = p->offset;
  /* OFF(q) = base + (q - buf), in one addition (wraps around harmlessly) */
  const uint64_t bias = base - (uint64_t)(uintptr_t)buf;
  int st = p->state;
  int cls;

  p->ev.live = 1;
  p->closing = 0;
  p->buf = buf;

  while (s < end) {
    switch (st) {
      /* ---------------------------------------------- the hot states */
      case ST_VALUE:
      case ST_VALUE_ESC:
      case ST_VALUE_TRAIL:
      L_value: {
        const unsigned char *start = s;
        sgf__mark m;
        HERE(m);
        if (st != ST_VALUE) {
          if (st == ST_VALUE_ESC) {
            if (*s == ']' && dbcs_before_escape(p, s)) {
              int d = bracket_closes(s + 1, end, p->at_eof);
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
            if (*s == '\n' || *s == '\r') newline(p, OFF(s), *s);
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
            if (*s == ']' && dbcs_before_escape(p, s)) {
              st = ST_VALUE_ESC; /* decided above, after the bytes before */
              break;
            }
            if (*s == '\n' || *s == '\r') newline(p, OFF(s), *s);
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
          if (UNLIKELY(p->cb.on_value != NULL) && s < end &&
              st == ST_VALUE && *s == ']' &&
              !(s[-1] >= 0x81 && dbcs_before(p, s))) {
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
        if ((s == start || s[-1] >= 0x81) && dbcs_before(p, s)) {
          int d = bracket_closes(s + 1, end, p->at_eof);
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
        } else if (cls == C_WS) {
          s++;
        } else if (cls == C_NL) {
          newline(p, OFF(s), *s);
          s++;
        } else if (cls == C_NUL) {
          NUL_AS_SPACE();
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
              byte_class[s[0]] == C_UPPER && !value_stop[s[2]] &&
              !value_stop[s[3]] && s[3] < 0x81) {
            p->ev.raw_ident = (const char *)s;
            p->ev.raw_ident_len = 1;
            p->ev.offset = OFF(s);
            s++;
            st = ST_PROP;
            EMIT_DATA(on_property, (const char *)s - 1, 1);
            if (st != ST_PROP) continue;
            HERE(p->value_pos);
            p->ev.offset = p->value_pos.off;
            if (UNLIKELY(p->cb.on_value != NULL)) { /* whole, one call */
              s += 4;
              st = ST_AFTER_VALUE;
              CALLBACK(p->cb.on_value(p, p->user, (const char *)s - 3, 2,
                                      SGF_VALUE_FIRST | SGF_VALUE_LAST));
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
          L_ident_fast: {
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
            st = ST_IDENT;
            continue;
          case C_WS:
            s++;
            continue;
          case C_NL:
            newline(p, OFF(s), *s);
            s++;
            continue;
          case C_LPAREN:
            NODE_END();
            if (st != ST_NODE) continue;
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
          default: {
            sgf__mark h;
            HERE(h);
            JUNK(SGF_DIAG_JUNK, &h);
            s++;
            continue;
          }
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
          ident_finish(p);
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
          newline(p, OFF(s), *s);
          s++;
        } else if (cls == C_NUL) {
          p->ws_seen = 1;
          NUL_AS_SPACE();
        } else {
          ident_finish(p);
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
              /* A secondary variation: pass over it without any event. */
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
            s++;
            continue;
          case C_NL:
            newline(p, OFF(s), *s);
            s++;
            continue;
          case C_NUL:
            NUL_AS_SPACE();
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
          default: {
            sgf__mark h;
            HERE(h);
            JUNK(SGF_DIAG_JUNK, &h);
            s++;
            continue;
          }
        }

      case ST_OPEN:
        cls = byte_class[*s];
        if (cls == C_WS) {
          s++;
        } else if (cls == C_NL) {
          newline(p, OFF(s), *s);
          s++;
        } else if (cls == C_NUL) {
          NUL_AS_SPACE();
        } else if (cls == C_RPAREN) {
          DIAG(SGF_DIAG_EMPTY_TREE, &p->open_pos, NULL);
          st = p->open_ret;
          s++;
        } else {
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
            s++;
            continue;
          case C_NL:
            newline(p, OFF(s), *s);
            s++;
            continue;
          case C_NUL:
            NUL_AS_SPACE();
            continue;
          case C_UPPER:
          case C_LOWER:
          case C_LBRACK:
            DIAG_HERE(SGF_DIAG_MISSING_SEMICOLON);
            p->ev.offset = OFF(s);
            st = ST_NODE;
            EMIT_NODE();
            continue;
          case C_LPAREN:
          case C_RPAREN:
            DIAG_HERE(SGF_DIAG_TREE_WITHOUT_NODE);
            p->ev.offset = OFF(s);
            st = ST_NODE;
            EMIT_NODE();
            continue;
          default: {
            sgf__mark h;
            HERE(h);
            JUNK(SGF_DIAG_JUNK, &h);
            s++;
            continue;
          }
        }

      /* ---------------------------------------------- between trees */
      case ST_TOP:
        cls = byte_class[*s];
        if (p->first_nul && OFF(s) == 1 && cls != C_LPAREN) {
          sgf__mark z = {0, 1, 0};
          JUNK(SGF_DIAG_JUNK_BEFORE, &z);
        }
        if (cls == C_LPAREN || cls == C_SEMI) {
          if (cls == C_LPAREN && OFF(s) == 1 && p->first_nul) {
            DIAG_HERE(SGF_DIAG_UTF16);
          }
          HERE(p->cand_pos);
          p->cand = *s;
          st = ST_TOP_OPEN;
          s++;
        } else if (cls == C_WS) {
          s++;
        } else if (cls == C_NL) {
          newline(p, OFF(s), *s);
          s++;
        } else if (OFF(s) == 0 && (*s == 0xEF || *s == 0xFE || *s == 0xFF)) {
          st = ST_BOM;
          p->cand = *s;
          s++;
        } else if (OFF(s) == 0 && *s == 0) {
          p->first_nul = 1; /* UTF-16BE if '(' follows; junk otherwise */
          s++;
        } else {
          sgf__mark h;
          HERE(h);
          if (cls == C_RPAREN && p->seen_tree && !(p->quiet & 1)) {
            DIAG(SGF_DIAG_EXTRA_PAREN, &h, NULL);
          } else {
            JUNK(p->seen_tree ? SGF_DIAG_JUNK_AFTER : SGF_DIAG_JUNK_BEFORE,
                 &h);
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
              sgf__mark z = {0, 1, 0};
              st = ST_TOP;
              DIAG(SGF_DIAG_BOM, &z, NULL);
            }
            continue;
          }
        } else if ((p->cand == 0xFE && *s == 0xFF) ||
                   (p->cand == 0xFF && *s == 0xFE)) {
          sgf__mark z = {0, 1, 0};
          DIAG(SGF_DIAG_UTF16, &z, NULL);
        }
        {
          sgf__mark z = {0, 1, 0};
          st = ST_TOP;
          JUNK(SGF_DIAG_JUNK_BEFORE, &z);
        }
        continue;
      }

      case ST_TOP_OPEN:
        cls = byte_class[*s];
        if (cls == C_WS) {
          s++;
        } else if (cls == C_NL) {
          newline(p, OFF(s), *s);
          s++;
        } else if (cls == C_NUL && p->cand_pos.off == 0 && OFF(s) == 1) {
          DIAG_HERE(SGF_DIAG_UTF16);
        } else if (p->cand == '(' && (cls == C_SEMI || cls == C_LPAREN)) {
          goto begin_top_tree;
        } else if (p->cand == '(' && cls == C_RPAREN) {
          DIAG(SGF_DIAG_EMPTY_TREE, &p->cand_pos, NULL);
          st = ST_TOP;
          s++;
        } else if (is_letter(cls)) {
          HERE(p->ident_pos);
          p->ident_len = p->ev.raw_ident_len = 0;
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
          if (p->cand == ';')
            DIAG(SGF_DIAG_MISSING_PAREN, &p->cand_pos, NULL);
          goto begin_top_tree;
        } else {
          goto not_a_tree;
        }
        continue;

      case ST_CONFIRM_NODE:
        if (p->cand == '(')
          DIAG(SGF_DIAG_MISSING_SEMICOLON, &p->ident_pos, NULL);
        SETEV(p->cand == '(' ? p->ident_pos : p->cand_pos);
        st = ST_AFTER_IDENT;
        EMIT_NODE();
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
          newline(p, OFF(s), *s);
          s++;
        } else {
          st = ST_NODE;
        }
        continue;

      case ST_ORPHAN:
      case ST_ORPHAN_ESC:
        if (st == ST_ORPHAN_ESC) {
          if (*s == '\n' || *s == '\r') newline(p, OFF(s), *s);
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
        s = p->scan->skip(s, end);
        if (s == end) continue;
        if (*s == '[') {
          st = ST_SKIP_VALUE;
        } else if (*s == '(') {
          p->depth++;
        } else if (*s == ')') {
          goto close_tree;
        } else {
          newline(p, OFF(s), *s);
        }
        s++;
        continue;

      case ST_SKIP_VALUE:
      case ST_SKIP_ESC:
        if (st == ST_SKIP_ESC) {
          if (*s == '\n' || *s == '\r') newline(p, OFF(s), *s);
          st = ST_SKIP_VALUE;
          s++;
        }
        s = text_run(p, s, end, bias);
        if (s == end) continue;
        if (*s == ']')
          st = ST_SKIP;
        else if (*s == '\\')
          st = ST_SKIP_ESC;
        s++; /* a NUL: passed over */
        continue;

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
    JUNK(p->seen_tree ? SGF_DIAG_JUNK_AFTER : SGF_DIAG_JUNK_BEFORE,
         &p->cand_pos);
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

  keep_vtail(p, st, end);
  p->state = st;
  p->ev.live = 0;
  p->offset = base + len;
  *consumed = len;
  return SGF_OK;

need_more:
  keep_vtail(p, st, s);
  p->ev.live = 0;
  p->state = st;
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return SGF__NEED;

paused:
  keep_vtail(p, st, s);
  p->ev.live = 0;
  p->state = st;
  p->status = SGF_PAUSED;
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return SGF_PAUSED;

aborted:
  p->ev.live = 0;
  p->state = st;
  if (p->status != SGF_EPARSE) p->status = SGF_EABORTED;
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return p->status;

failed:
  p->ev.live = 0;
  p->state = st;
  p->status = SGF_EPARSE;
  p->offset = OFF(s);
  *consumed = (size_t)(s - buf);
  return SGF_EPARSE;
}

/* Bytes held back (la) are parsed first, with as many of the new ones as
 * fit after them; when they are all parsed the rest goes straight from
 * the caller's buffer. Bytes copied into la count as consumed. An empty
 * feed does nothing at all (no callback fires). */
int sgf_parser_feed(sgf_parser *p, const char *data, size_t len,
                    size_t *consumed) {
  const unsigned char *in = (const unsigned char *)data;
  size_t used = 0, u;
  int r;

  if (consumed) *consumed = 0;
  if (p->ev.live) return SGF_EBUSY;
  if (p->status != SGF_OK) return p->status;
  if (p->state == ST_DONE || p->state == ST_FIN_CLOSE) return SGF_EORDER;
  if (len == 0) return SGF_OK; /* held-back bytes wait for more, or finish */
  for (;;) {
    if (p->la_len) {
      size_t take = sizeof p->la - p->la_len;
      if (take > len - used) take = len - used;
      if (take) memcpy(p->la + p->la_len, in + used, take);
      p->la_len += take;
      used += take;
      r = feed_core(p, p->la, p->la_len, &u);
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
    r = feed_core(p, in + used, len - used, &u);
    if (r == SGF__NEED) { /* fewer than SGF__LOOKAHEAD + 1 bytes */
      p->la_len = len - used - u;
      memcpy(p->la, in + used + u, p->la_len);
      break;
    }
    used += u;
    if (r != SGF_OK) {
      if (consumed) *consumed = used;
      return r;
    }
    break;
  }
  if (consumed) *consumed = len;
  return SGF_OK;
}

/* ------------------------------------------------------------------ */
/* End of input                                                        */

static int finish_core(sgf_parser *p) {
  static const unsigned char nothing[1];
  const unsigned char *buf = nothing, *s = nothing;
  const uint64_t base = p->offset;
  const uint64_t bias = base - (uint64_t)(uintptr_t)buf;
  int st = p->state;

  p->ev.live = 1;
  p->closing = 0;

  for (;;) {
    switch (st) {
      case ST_DONE:
        p->state = st;
        p->ev.live = 0;
        return SGF_OK;
      case ST_TOP:
        st = ST_DONE;
        if (!p->seen_tree) DIAG_HERE(SGF_DIAG_NO_GAME_TREE);
        continue;
      case ST_BOM: {
        sgf__mark z = {0, 1, 0};
        st = ST_TOP;
        JUNK(SGF_DIAG_JUNK_BEFORE, &z);
        continue;
      }
      case ST_TOP_OPEN:
      case ST_TOP_IDENT:
      case ST_TOP_IDENT_WS:
        st = ST_TOP;
        JUNK(p->seen_tree ? SGF_DIAG_JUNK_AFTER : SGF_DIAG_JUNK_BEFORE,
             &p->cand_pos);
        continue;
      case ST_CONFIRM_NODE:
        if (p->cand == '(')
          DIAG(SGF_DIAG_MISSING_SEMICOLON, &p->ident_pos, NULL);
        SETEV(p->cand == '(' ? p->ident_pos : p->cand_pos);
        st = ST_AFTER_IDENT;
        EMIT_NODE();
        continue;
      case ST_OPEN:
        st = p->open_ret;
        DIAG(SGF_DIAG_EMPTY_TREE, &p->open_pos, NULL);
        continue;
      case ST_SEQ_START:
        DIAG_HERE(SGF_DIAG_TREE_WITHOUT_NODE);
        p->ev.offset = OFF(s);
        st = ST_NODE;
        EMIT_NODE();
        continue;
      case ST_IDENT:
      case ST_AFTER_IDENT:
        ident_finish(p);
        st = ST_NODE;
        DIAG(SGF_DIAG_NO_VALUE, &p->ident_pos, NULL);
        continue;
      case ST_PROP: /* paused at the property and the '[' never fed again */
        st = ST_AFTER_VALUE;
        continue;
      case ST_VALUE:
      case ST_VALUE_ESC:
      case ST_VALUE_TRAIL:
        {
          sgf__mark h;
          HERE(h);
          p->ev.offset = h.off;
          DIAG(SGF_DIAG_UNCLOSED_VALUE, &h, &p->value_pos);
        }
        st = ST_AFTER_VALUE;
        EMIT_VEND();
        continue;
      case ST_AFTER_VALUE:
        p->ev.offset = OFF(s);
        st = ST_NODE;
        EMIT(on_property_end);
        continue;
      case ST_ORPHAN:
      case ST_ORPHAN_ESC:
      case ST_LONG_IDENT:
      case ST_DROP_VALUES:
        st = ST_NODE;
        continue;
      case ST_NODE:
        NODE_END();
        if (st != ST_NODE) continue;
        /* fall through */
      case ST_AFTER_CHILD:
      case ST_SKIP:
      case ST_SKIP_VALUE:
      case ST_SKIP_ESC:
        if (p->depth == 0) {
          st = ST_TOP;
          continue;
        }
        st = ST_FIN_CLOSE;
        {
          sgf__mark h;
          HERE(h);
          DIAG(SGF_DIAG_UNCLOSED_TREE, &h, &p->tree_open);
        }
        continue;
      case ST_FIN_CLOSE:
        if (p->depth == 0) {
          st = ST_DONE;
          continue;
        }
        if (p->nimplicit && p->implicit[p->nimplicit - 1] == p->depth)
          p->nimplicit--;
        p->depth--;
        if (p->skip_target) {
          if (p->depth >= p->skip_target) continue;
          p->skip_target = 0;
          if (p->skip_silent) {
            p->skip_silent = 0;
            continue;
          }
        }
        p->ev.offset = OFF(s);
        EMIT_TREE_END();
        continue;
      default:
        st = ST_DONE;
        continue;
    }
  }

paused:
  p->ev.live = 0;
  p->state = st;
  p->status = SGF_PAUSED;
  return SGF_PAUSED;

aborted:
  p->ev.live = 0;
  p->state = st;
  if (p->status != SGF_EPARSE) p->status = SGF_EABORTED;
  return p->status;

failed:
  p->ev.live = 0;
  p->state = st;
  p->status = SGF_EPARSE;
  return SGF_EPARSE;
}

/* The bytes held back for look-ahead are parsed first: nothing follows
 * them now, which decides every ']' they wait on. */
int sgf_parser_finish(sgf_parser *p) {
  if (p->ev.live) return SGF_EBUSY;
  if (p->status != SGF_OK) return p->status;
  while (p->la_len) {
    size_t u;
    int r;
    p->at_eof = 1;
    r = feed_core(p, p->la, p->la_len, &u);
    p->at_eof = 0;
    p->la_len -= u;
    if (p->la_len) memmove(p->la, p->la + u, p->la_len);
    if (r != SGF_OK) return r;
  }
  return finish_core(p);
}
