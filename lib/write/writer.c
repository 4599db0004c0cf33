/* writer.c - the streaming writer (sgfstream/writer.h).
 *
 * DESIGN
 *
 * A client of the public API only: it takes events, the same ones any
 * parser user receives, and keeps just enough state to write them as valid
 * FF[4]: where in the grammar the output stands (W_* in writer_priv.h),
 * the nesting depth as a counter (nothing recurses, nothing grows with the
 * depth), whether the value's last raw byte was a pending backslash, and
 * for the readable layout where the current output line began.
 *
 * All output goes through one buffer of fixed size; when it is full it is
 * handed to the sink. Small puts never check the sink's result: a failing
 * sink sets the sticky status and the buffer keeps being recycled.
 *
 * Each event has an inlined fast path for the usual case (the state the
 * parser's events lead to, room in the buffer, compact layout or a short
 * indentation) and a general function for everything else: repairs, order
 * errors, line breaks, flushes. Only general functions can fail; on
 * failure they park the writer in W_FAILED, a state no fast path accepts,
 * so the fast paths test `where` and never `status`. This keeps the
 * writer's cost per event under a nanosecond: parse + write runs at about
 * three quarters of the speed of the parser with no-op callbacks. The
 * parser callbacks leave out value-begin and property-end (a value begins
 * with its data or its end, a property ends at the next event), sparing
 * the parser a sixth of its calls.
 *
 * A property is written as soon as it is announced, but a property must
 * have a value: until its first '[' the identifier is retractable. The
 * property event reserves room for the identifier and the '[' so nothing
 * is flushed between them, and a property that ends without a value is
 * taken back by truncating the buffer to prop_mark.
 *
 * Values are copied in pieces that fit the buffer twice over (a byte never
 * becomes more than two), by a loop that looks only at the bytes of a
 * small table: '\\' (an escape pair is copied whole; the pair may be split
 * between slices, hence `esc`), ']' (escaped), NUL (dropped), and in the
 * readable layout line breaks (to know the column).
 */
#include <string.h>

#include "alloc.h"
#include "sized.h"
#include "writer_priv.h"

/* The event functions are inlined into both their public function and
 * their parser callback: one call per event, not two. */
#if defined(__GNUC__)
#define EV_INLINE static inline __attribute__((always_inline))
#else
#define EV_INLINE static inline
#endif

/* Bytes the value copy stops at: compact, and readable (+ line breaks). */
static const unsigned char stop_compact[256] = {[0] = 1, ['\\'] = 1, [']'] = 1};
static const unsigned char stop_readable[256] = {
    [0] = 1, ['\\'] = 1, [']'] = 1, ['\n'] = 1, ['\r'] = 1};

/* ------------------------------------------------------------------ */
/* The buffer                                                          */

/* Hand the buffer to the sink. On failure the status is set and the
 * bytes are dropped; the buffer is empty afterwards either way. While
 * the sink runs the writer is busy: status SGF_EBUSY and where W_FAILED,
 * so that every entry point the sink (or code it calls) may reach
 * refuses at its first test, the hot events included, at no cost to
 * them; destroy and reset test the status too. */
static void flush_buf(sgf_writer *w) {
  size_t off = 0;
  const int where = w->where;
  while (w->status == SGF_OK && off < w->len) {
    int n;
    w->status = SGF_EBUSY;
    w->where = W_FAILED;
    n = w->write(w->ctx, w->buf + off, w->len - off);
    w->where = where;
    w->status = SGF_OK;
    if (n <= 0 || (size_t)n > w->len - off) {
      w->status = SGF_ESINK;
      break;
    }
    off += (size_t)n;
  }
  w->flushed += w->len;
  w->len = 0;
}

static inline void put1(sgf_writer *w, char c) {
  if (w->len == w->cap) flush_buf(w);
  w->buf[w->len++] = c;
}

/* Make sure n bytes (n <= cap) fit without a flush. */
static inline void reserve(sgf_writer *w, size_t n) {
  if (w->cap - w->len < n) flush_buf(w);
}

static uint64_t out_pos(const sgf_writer *w) { return w->flushed + w->len; }

/* Readable layout: a line break and `indent` spaces, at most
 * MAX_INDENT: deeper levels line up at that column, so the output stays
 * within a constant factor of the input however deep the nesting (one
 * column per level would make it quadratic in the depth). */
#define MAX_INDENT 32u
static const char blanks[MAX_INDENT] = "                                ";
static void newline_indent(sgf_writer *w, uint64_t indent) {
  if (indent > MAX_INDENT) indent = MAX_INDENT;
  if (w->cap - w->len >= MAX_INDENT + 2) { /* the usual case */
    char *o = w->buf + w->len;
    *o++ = '\n';
    memcpy(o, blanks, MAX_INDENT); /* all, then as many kept */
    w->len += 1 + (size_t)indent;
    w->line_start = out_pos(w) - indent;
    return;
  }
  put1(w, '\n');
  w->line_start = out_pos(w);
  while (indent > 0) {
    size_t room, k;
    if (w->len == w->cap) flush_buf(w);
    room = w->cap - w->len;
    k = indent < room ? (size_t)indent : room;
    memset(w->buf + w->len, ' ', k);
    w->len += k;
    indent -= k;
  }
}

static int line_full(const sgf_writer *w) {
  return out_pos(w) - w->line_start >= w->width;
}

static int order_error(sgf_writer *w) {
  if (w->status == SGF_OK) w->status = SGF_EORDER;
  w->where = W_FAILED;
  return w->status;
}

/* The end of an event that may have flushed: on failure, also leave every
 * fast path (they test `where` only, never `status`). */
static inline int result(sgf_writer *w) {
  if (w->status == SGF_OK) return 0;
  w->where = W_FAILED;
  return w->status;
}

/* ------------------------------------------------------------------ */
/* Events                                                              */

/* Each event has a general function (COLD: every state, repairs, order
 * errors, line breaks, flushes) and an inlined fast path for the usual
 * case. The fast paths read what they need from *w first and store the
 * output bytes last: a store through a char pointer may alias *w, and the
 * compiler would reload every field after it. */
#if defined(__GNUC__)
#define COLD static __attribute__((noinline))
#else
#define COLD static
#endif

static int is_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(unsigned char c) { return c >= 'a' && c <= 'z'; }

COLD int tree_begin_slow(sgf_writer *w) {
  if (w->status) return w->status;
  switch (w->where) {
    case W_TOP:
      break;
    case W_SEQ_START: /* a tree needs a node before its variations */
      put1(w, ';');
      break;
    case W_PROP:
      w->len = w->prop_mark;
      break;
    case W_NODE:
    case W_AFTER_VALUE:
    case W_AFTER_CHILD:
      break;
    default:
      return order_error(w);
  }
  if (w->readable && w->depth > 0) newline_indent(w, w->depth);
  put1(w, '(');
  w->depth++;
  w->where = W_SEQ_START;
  return result(w);
}

COLD int node_slow(sgf_writer *w) {
  if (w->status) return w->status;
  switch (w->where) {
    case W_SEQ_START:
      break;
    case W_PROP:
      w->len = w->prop_mark;
      /* fall through */
    case W_NODE:
    case W_AFTER_VALUE:
      if (w->readable) newline_indent(w, w->depth);
      break;
    default: /* outside a tree, or after a variation */
      return order_error(w);
  }
  put1(w, ';');
  w->where = W_NODE;
  w->node_props = 0;
  return result(w);
}

EV_INLINE int ev_node(sgf_writer *w) {
  const int where = w->where;
  const size_t len = w->len;
  if (w->cap - len >= 40 &&
      (where == W_SEQ_START || ((where == W_NODE || where == W_AFTER_VALUE) &&
                                (!w->readable || w->depth <= MAX_INDENT)))) {
    char *b = w->buf;
    size_t k = len;
    w->where = W_NODE;
    w->node_props = 0;
    if (w->readable && where != W_SEQ_START) {
      unsigned d = (unsigned)w->depth;
      w->line_start = w->flushed + len + 1;
      b[k++] = '\n';
      /* all MAX_INDENT blanks (room checked above), then as many kept */
      memcpy(b + k, blanks, MAX_INDENT);
      k += d;
    }
    b[k++] = ';';
    w->len = k;
    return 0;
  }
  return node_slow(w);
}

/* Any identifier, in any state: checked, normalized, maybe after a line
 * break. */
COLD int property_slow(sgf_writer *w, const unsigned char *id, size_t n) {
  size_t i, upper = 0;
  if (w->status) return w->status;
  switch (w->where) {
    case W_PROP:
      w->len = w->prop_mark;
      break;
    case W_NODE:
    case W_AFTER_VALUE:
      break;
    default:
      return order_error(w);
  }
  w->where = W_NODE;
  if (n == 0 || n > w->cap - 2) goto bad_ident;
  for (i = 0; i < n; i++) {
    if (is_upper(id[i]))
      upper++;
    else if (!is_lower(id[i]))
      goto bad_ident;
  }
  if (w->readable && w->node_props > 0 && line_full(w))
    newline_indent(w, w->depth + 1);
  reserve(w, n + 1); /* the identifier and its '[' go out together */
  w->prop_mark = w->len;
  for (i = 0; i < n; i++) {
    /* FF[4] ignores lowercase letters (FF[3] style); an all-lowercase
     * identifier is upper-cased, as the parser does. */
    if (upper == 0)
      w->buf[w->len++] = (char)(id[i] - 'a' + 'A');
    else if (is_upper(id[i]))
      w->buf[w->len++] = (char)id[i];
  }
  w->where = W_PROP;
  return result(w);
bad_ident:
  w->status = SGF_EIDENT;
  w->where = W_FAILED;
  return w->status;
}

EV_INLINE int ev_property(sgf_writer *w, const char *ident, size_t n) {
  const unsigned char *id = (const unsigned char *)ident;
  const int where = w->where;
  const size_t len = w->len;
  if ((where == W_NODE || where == W_AFTER_VALUE) && n - 1 < 2 &&
      is_upper(id[0]) && is_upper(id[n - 1]) && w->cap - len >= 3 &&
      (!w->readable || w->node_props == 0 ||
       w->flushed + len - w->line_start < w->width)) {
    /* One or two uppercase letters; room for them and the '['; no line
     * break before them (the line is not full). */
    char *b = w->buf;
    w->where = W_PROP;
    w->prop_mark = len;
    w->len = len + n;
    b[len] = (char)id[0];
    b[len + n - 1] = (char)id[n - 1];
    return 0;
  }
  return property_slow(w, id, n);
}

COLD int value_begin_slow(sgf_writer *w) {
  if (w->status) return w->status;
  if (w->where == W_PROP) {
    w->node_props++;
  } else if (w->where == W_AFTER_VALUE) {
    if (w->readable && line_full(w)) newline_indent(w, w->depth + 1);
  } else {
    return order_error(w);
  }
  put1(w, '[');
  w->where = W_VALUE;
  w->esc = 0;
  w->text.state = 0; /* sgf_writer_value_text's escaper, for this value */
  return result(w);
}

EV_INLINE int ev_value_begin(sgf_writer *w) {
  const int where = w->where;
  const size_t len = w->len;
  if (len < w->cap &&
      (where == W_PROP || (where == W_AFTER_VALUE && !w->readable))) {
    char *b = w->buf;
    if (where == W_PROP) w->node_props++;
    w->where = W_VALUE;
    w->esc = 0;
    w->text.state = 0;
    w->len = len + 1;
    b[len] = '[';
    return 0;
  }
  return value_begin_slow(w);
}

/* An escape pair: backslash and c (never NUL). */
static inline unsigned char *put_pair(sgf_writer *w, unsigned char *o,
                                      unsigned char c) {
  *o++ = '\\';
  *o++ = c;
  if (c == '\n' || c == '\r')
    w->line_start = w->flushed + (uint64_t)(o - (unsigned char *)w->buf);
  return o;
}

/* Any slice: see DESIGN. */
COLD int value_data_slow(sgf_writer *w, const unsigned char *s, size_t n) {
  const unsigned char *end = s + n;
  const unsigned char *stop = w->stop;
  if (w->status) return w->status;
  if (n == 0) /* nothing: it begins no value either */
    return w->where == W_VALUE || w->where == W_PROP ||
                   w->where == W_AFTER_VALUE
               ? 0
               : order_error(w);
  if ((w->where == W_PROP || w->where == W_AFTER_VALUE) && value_begin_slow(w))
    return w->status; /* data after a property or a value begins a value */
  if (w->where != W_VALUE) return order_error(w);
  if (w->esc) { /* the backslash that ended the last slice */
    unsigned char *o;
    w->esc = 0;
    reserve(w, 2);
    o = (unsigned char *)w->buf + w->len;
    if (*s != 0) o = put_pair(w, o, *s); /* an escaped NUL is dropped */
    w->len = (size_t)(o - (unsigned char *)w->buf);
    s++;
  }
  while (s < end) {
    /* A piece whose output (at most two bytes per input byte, plus one
     * escape pair reaching past it) fits the buffer. */
    size_t room = w->cap - w->len, k;
    const unsigned char *pe;
    unsigned char *o;
    if (room < 16) {
      flush_buf(w);
      room = w->cap;
    }
    k = (room - 2) / 2;
    if (k > (size_t)(end - s)) k = (size_t)(end - s);
    pe = s + k;
    o = (unsigned char *)w->buf + w->len;
    while (s < pe) {
      unsigned char c = *s;
      if (!stop[c]) {
        *o++ = c;
        s++;
        continue;
      }
      if (c == '\\') {
        if (s + 1 == end) { /* the pair is split: wait for the next byte */
          w->esc = 1;
          s++;
          break;
        }
        if (s[1] != 0) o = put_pair(w, o, s[1]); /* escaped NUL: dropped */
        s += 2;
      } else if (c == ']') { /* unescaped: only from a caller's raw bytes */
        *o++ = '\\';
        *o++ = ']';
        s++;
      } else if (c == 0) {
        s++;
      } else { /* a line break (readable layout) */
        *o++ = c;
        s++;
        w->line_start = w->flushed + (uint64_t)(o - (unsigned char *)w->buf);
      }
    }
    w->len = (size_t)(o - (unsigned char *)w->buf);
  }
  return result(w);
}

EV_INLINE int ev_value_data(sgf_writer *w, const char *raw, size_t n) {
  const unsigned char *s = (const unsigned char *)raw;
  const int where = w->where;
  const size_t len = w->len;
  if (n - 1 < 16 && !w->esc && w->cap - len >= 2 * 16 + 3 &&
      (where == W_VALUE || where == W_PROP ||
       (where == W_AFTER_VALUE && !w->readable))) {
    /* A short slice that fits: copy it unless a byte needs a look (then
     * the general path starts over; the bytes copied are overwritten).
     * After a property or a value, it begins a value: '[' first. */
    const unsigned char *stop = w->stop;
    const size_t open = where != W_VALUE;
    unsigned char *o = (unsigned char *)w->buf + len + open;
    size_t i;
    for (i = 0; i < n; i++) {
      if (stop[s[i]]) return value_data_slow(w, s, n);
      o[i] = s[i];
    }
    if (open) {
      if (where == W_PROP) w->node_props++;
      w->where = W_VALUE;
      w->text.state = 0;
      w->len = len + 1 + n;
      w->buf[len] = '[';
    } else {
      w->len = len + n;
    }
    return 0;
  }
  return value_data_slow(w, s, n);
}

COLD int value_end_slow(sgf_writer *w) {
  if (w->status) return w->status;
  if ((w->where == W_PROP || w->where == W_AFTER_VALUE) && value_begin_slow(w))
    return w->status; /* an end after a property or a value: an empty value */
  if (w->where != W_VALUE) return order_error(w);
  if (w->esc) { /* a lone backslash at the end stands for itself */
    reserve(w, 2);
    w->buf[w->len++] = '\\';
    w->buf[w->len++] = '\\';
    w->esc = 0;
  }
  put1(w, ']');
  w->where = W_AFTER_VALUE;
  return result(w);
}

EV_INLINE int ev_value_end(sgf_writer *w) {
  const int where = w->where;
  const size_t len = w->len;
  if (!w->esc && w->cap - len >= 2) {
    char *b = w->buf;
    if (where == W_VALUE) {
      w->where = W_AFTER_VALUE;
      w->len = len + 1;
      b[len] = ']';
      return 0;
    }
    if (where == W_PROP || (where == W_AFTER_VALUE && !w->readable)) {
      /* an end with no begin: an empty value */
      if (where == W_PROP) w->node_props++;
      w->where = W_AFTER_VALUE;
      w->text.state = 0;
      w->len = len + 2;
      b[len] = '[';
      b[len + 1] = ']';
      return 0;
    }
  }
  return value_end_slow(w);
}

EV_INLINE int ev_property_end(sgf_writer *w) {
  switch (w->where) {
    case W_PROP:
      w->len = w->prop_mark;
      /* fall through */
    case W_AFTER_VALUE:
    case W_NODE:
      w->where = W_NODE;
      return 0;
    case W_FAILED:
      return w->status;
    default:
      return order_error(w);
  }
}

COLD int tree_end_slow(sgf_writer *w) {
  if (w->status) return w->status;
  switch (w->where) {
    case W_SEQ_START:
      put1(w, ';');
      break;
    case W_PROP:
      w->len = w->prop_mark;
      break;
    case W_NODE:
    case W_AFTER_VALUE:
    case W_AFTER_CHILD:
      break;
    default:
      return order_error(w);
  }
  put1(w, ')');
  if (--w->depth == 0) {
    put1(w, '\n');
    w->line_start = out_pos(w);
    w->where = W_TOP;
  } else {
    w->where = W_AFTER_CHILD;
  }
  return result(w);
}

EV_INLINE int ev_tree_begin(sgf_writer *w) { return tree_begin_slow(w); }
EV_INLINE int ev_tree_end(sgf_writer *w) { return tree_end_slow(w); }

/* ------------------------------------------------------------------ */
/* Public API                                                          */

void sgf_writer_options_init(sgf_writer_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->size = sizeof *opt;
}

static void writer_clear(sgf_writer *w, sgf_write_fn write, void *ctx) {
  w->write = write;
  w->ctx = ctx;
  w->len = 0;
  w->where = W_TOP;
  w->esc = 0;
  w->status = SGF_OK;
  w->depth = 0;
  w->prop_mark = 0;
  w->node_props = 0;
  w->flushed = 0;
  w->line_start = 0;
  sgf_escaper_init(&w->text, 0);
}

sgf_writer *sgf_writer_create(sgf_write_fn write, void *ctx,
                              const sgf_writer_options *given) {
  sgf_allocator a;
  sgf_writer *w;
  sgf_writer_options o;
  const sgf_writer_options *opt = &o;
  size_t cap;
  if (!write) return NULL;
  if (!given)
    sgf_writer_options_init(&o);
  else if (sgf__copy_sized(&o, sizeof o, given,
                           SGF__SIZE_UPTO(sgf_writer_options, allocator)))
    return NULL;
  cap = opt->buffer_size ? opt->buffer_size : SGF_WRITER_DEFAULT_BUFFER;
  if (cap < SGF_WRITER_MIN_BUFFER) cap = SGF_WRITER_MIN_BUFFER;
  if (cap > 0x7fffffffu) cap = 0x7fffffffu; /* the sink returns an int */
  sgf__allocator_init(&a, opt->allocator);
  w = sgf__malloc(&a, sizeof *w);
  if (!w) return NULL;
  memset(w, 0, sizeof *w);
  w->alloc = a;
  w->buf = sgf__malloc(&a, cap);
  if (!w->buf) {
    sgf__free(&a, w, sizeof *w);
    return NULL;
  }
  w->cap = cap;
  w->readable = opt->layout == SGF_LAYOUT_READABLE;
  w->stop = w->readable ? stop_readable : stop_compact;
  w->width = opt->width ? opt->width : SGF_WRITER_DEFAULT_WIDTH;
  writer_clear(w, write, ctx);
  return w;
}

int sgf_writer_destroy(sgf_writer *w) {
  sgf_allocator a;
  if (!w) return SGF_OK;
  if (w->status == SGF_EBUSY) return SGF_EBUSY; /* inside the sink */
  a = w->alloc;
  sgf__free(&a, w->buf, w->cap);
  sgf__free(&a, w, sizeof *w);
  return SGF_OK;
}

int sgf_writer_reset(sgf_writer *w, sgf_write_fn write, void *ctx) {
  if (w->status == SGF_EBUSY) return SGF_EBUSY;
  writer_clear(w, write ? write : w->write, write ? ctx : w->ctx);
  return SGF_OK;
}

int sgf_writer_tree_begin(sgf_writer *w) { return ev_tree_begin(w); }
int sgf_writer_node(sgf_writer *w) { return ev_node(w); }
int sgf_writer_property(sgf_writer *w, const char *ident, size_t len) {
  return ev_property(w, ident, len);
}
int sgf_writer_value_begin(sgf_writer *w) { return ev_value_begin(w); }
int sgf_writer_value_data(sgf_writer *w, const char *raw, size_t len) {
  return ev_value_data(w, raw, len);
}
int sgf_writer_value_end(sgf_writer *w) { return ev_value_end(w); }
int sgf_writer_property_end(sgf_writer *w) { return ev_property_end(w); }
int sgf_writer_tree_end(sgf_writer *w) { return ev_tree_end(w); }

int sgf_writer_value(sgf_writer *w, const char *raw, size_t len) {
  if (ev_value_begin(w) || ev_value_data(w, raw, len)) return w->status;
  return ev_value_end(w);
}

int sgf_writer_value_text(sgf_writer *w, const char *text, size_t len,
                          unsigned flags) {
  if (w->status) return w->status;
  if ((w->where == W_PROP || w->where == W_AFTER_VALUE) && len > 0 &&
      value_begin_slow(w))
    return w->status; /* text after a property or a value begins a value */
  if (w->where != W_VALUE) return order_error(w);
  if (w->esc) { /* raw data ended in a backslash: it stands for itself */
    w->esc = 0;
    reserve(w, 2);
    w->buf[w->len++] = '\\';
    w->buf[w->len++] = '\\';
  }
  w->text.flags = flags & SGF_ESCAPE_COMPOSE;
  while (len > 0) {
    size_t k, n, room = w->cap - w->len;
    char *o;
    if (room < 16) {
      flush_buf(w);
      room = w->cap;
    }
    k = room / 2 < len ? room / 2 : len;
    o = w->buf + w->len;
    if (flags & SGF_ESCAPE_SIMPLE) {
      n = sgf_escape_simple(&w->text, text, k, o);
    } else {
      const char *nl;
      n = sgf_escape_text(&w->text, text, k, o);
      /* the column, after the last line break written */
      for (nl = o + n; nl > o; nl--)
        if (nl[-1] == '\n' || nl[-1] == '\r') {
          w->line_start = w->flushed + (uint64_t)(nl - w->buf);
          break;
        }
    }
    w->len += n;
    text += k;
    len -= k;
  }
  return result(w);
}

int sgf_writer_finish(sgf_writer *w) {
  if (w->status) return w->status;
  if (w->where == W_VALUE && ev_value_end(w)) return w->status;
  while (w->depth > 0)
    if (ev_tree_end(w)) return w->status;
  return sgf_writer_flush(w);
}

int sgf_writer_flush(sgf_writer *w) {
  if (w->status) return w->status;
  if (w->where == W_PROP) {
    /* The identifier may still be taken back: flush what precedes it and
     * keep it (and only it) in the buffer. */
    size_t keep = w->len - w->prop_mark;
    w->len = w->prop_mark;
    flush_buf(w);
    memmove(w->buf, w->buf + w->prop_mark, keep);
    w->len = keep;
    w->prop_mark = 0;
  } else {
    flush_buf(w);
  }
  return result(w);
}

int sgf_writer_status(const sgf_writer *w) { return w->status; }

uint64_t sgf_writer_bytes(const sgf_writer *w) { return out_pos(w); }

uint64_t sgf_writer_depth(const sgf_writer *w) { return w->depth; }

void sgf_writer_set_user(sgf_writer *w, void *user) { w->user = user; }
void *sgf_writer_user(const sgf_writer *w) { return w->user; }

/* ------------------------------------------------------------------ */
/* Parser callbacks: the parser's user pointer is the writer.          */

#define CB_RESULT(call) ((call) ? SGF_ABORT : SGF_CONTINUE)

static int cb_tree_begin(sgf_parser *p, void *u) {
  (void)p;
  return CB_RESULT(ev_tree_begin(u));
}
static int cb_tree_end(sgf_parser *p, void *u) {
  (void)p;
  return CB_RESULT(ev_tree_end(u));
}
static int cb_node(sgf_parser *p, void *u) {
  (void)p;
  return CB_RESULT(ev_node(u));
}
static int cb_property(sgf_parser *p, void *u, const char *id, size_t n) {
  (void)p;
  return CB_RESULT(ev_property(u, id, n));
}
static int cb_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  (void)p;
  return CB_RESULT(ev_value_data(u, at, n));
}
static int cb_value_end(sgf_parser *p, void *u) {
  (void)p;
  return CB_RESULT(ev_value_end(u));
}

/* Values whole (on_value): a piece's bytes, then its end. A value begins
 * with its data or its end, as with the three events. */
static int cb_value(sgf_parser *p, void *u, const char *at, size_t n,
                    unsigned flags) {
  (void)p;
  if (n && ev_value_data(u, at, n)) return SGF_ABORT;
  return (flags & SGF_VALUE_LAST) ? CB_RESULT(ev_value_end(u)) : SGF_CONTINUE;
}

/* A run of move nodes (MOVE RUNS in sgfstream/parser.h), written as its
 * nodes' events would write it, but at copy speed: a run node is six
 * bytes ";X[vv]" that the events write unchanged (an uppercase letter,
 * a value with no byte the value copy stops at), so the output is the
 * run with its line breaks left out (compact), or each node on a line
 * of its own after the node's indentation (readable). (The node end of
 * the node before, and the run's property ends, write nothing.) In any
 * other state (a property without value pending, a failed writer) the
 * nodes go through the events one by one. */
static int run_events(sgf_writer *w, const char *at, size_t len) {
  sgf_run_iter it;
  sgf_run_node n;
  sgf_run_iter_init(&it, at, len, NULL);
  while (sgf_run_iter_next(&it, &n))
    if (ev_node(w) || ev_property(w, n.at + 1, 1) ||
        ev_value_data(w, n.value, 2) || ev_value_end(w))
      return SGF_ABORT;
  return SGF_CONTINUE;
}

/* Compact: the run's bytes but its line breaks (LF, or CR LF). */
static int run_compact(sgf_writer *w, const char *at, size_t len) {
  const char *s = at, *end = at + len;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    const char *e = nl ? nl : end;
    if (nl && e > s && e[-1] == '\r') e--;
    while (s < e) {
      size_t k = (size_t)(e - s), room = w->cap - w->len;
      if (room == 0) {
        flush_buf(w);
        if (w->status) return SGF_ABORT;
        room = w->cap;
      }
      if (k > room) k = room;
      memcpy(w->buf + w->len, s, k);
      w->len += k;
      s += k;
    }
    s = nl ? nl + 1 : end;
  }
  return SGF_CONTINUE;
}

/* Readable: each node after a line break and the indentation, but the
 * first one of a sequence (where is W_SEQ_START). The loop keeps the
 * buffer's state in locals (a store through a char pointer may alias
 * *w) and writes a short indentation with the line break in one store
 * of eight bytes. */
static int run_readable(sgf_writer *w, const char *at, size_t len, int first) {
  static const char nl_blanks[8] = "\n       ";
  const size_t indent = w->depth < MAX_INDENT ? (size_t)w->depth : MAX_INDENT;
  const size_t step = 1 + indent + 6; /* a node's bytes but the first */
  sgf_run_iter it;
  sgf_run_node n;
  size_t k = w->len, line = 0; /* line: the last line's start in buf */
  int broke = 0;
  char *b = w->buf;
  const size_t room = w->cap - (MAX_INDENT + 8); /* cap >= MIN_BUFFER */
  sgf_run_iter_init(&it, at, len, NULL);
  if (first && sgf_run_iter_next(&it, &n)) {
    if (k > room) {
      flush_buf(w);
      if (w->status) return SGF_ABORT;
      k = 0;
    }
    memcpy(b + k, n.at, 6);
    k += 6;
  }
  while (sgf_run_iter_next(&it, &n)) {
    if (k > room) {
      w->len = k;
      if (broke) w->line_start = w->flushed + line;
      broke = 0;
      flush_buf(w);
      if (w->status) return SGF_ABORT;
      k = 0;
    }
    if (indent < 8) {
      memcpy(b + k, nl_blanks, 8); /* all, then as many kept */
    } else {
      b[k] = '\n';
      memcpy(b + k + 1, blanks, MAX_INDENT);
    }
    line = k + 1;
    broke = 1;
    memcpy(b + k + 1 + indent, n.at, 6);
    k += step;
  }
  w->len = k;
  if (broke) w->line_start = w->flushed + line;
  return SGF_CONTINUE;
}

static int cb_moves(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  sgf_writer *w = u;
  const int where = w->where;
  int rc;
  (void)p;
  (void)count;
  if (where != W_SEQ_START && where != W_NODE && where != W_AFTER_VALUE)
    return run_events(w, at, len);
  rc = w->readable ? run_readable(w, at, len, where == W_SEQ_START)
                   : run_compact(w, at, len);
  if (rc != SGF_CONTINUE || w->status) {
    w->where = W_FAILED;
    return SGF_ABORT;
  }
  /* where the last node's events leave the writer */
  w->where = W_AFTER_VALUE;
  w->node_props = 1;
  w->prop_mark = w->len >= 5 ? w->len - 5 : 0; /* its letter */
  w->esc = 0;
  w->text.state = 0;
  return SGF_CONTINUE;
}

/* A struct from a header without on_value (VERSIONED STRUCTS) keeps the
 * three value members: nothing is written past cb->size. Likewise
 * on_moves. */
#define HAS_ON_VALUE(cb) ((cb)->size >= SGF__SIZE_UPTO(sgf_callbacks, on_value))
#define HAS_ON_MOVES(cb) ((cb)->size >= SGF__SIZE_UPTO(sgf_callbacks, on_moves))

void sgf_writer_value_callbacks(sgf_callbacks *cb) {
  sgf_writer_callbacks(cb);
  if (!HAS_ON_VALUE(cb)) return;
  cb->on_value_data = NULL;
  cb->on_value_end = NULL;
  cb->on_value = cb_value;
}

void sgf_writer_copy_callbacks(sgf_callbacks *cb) {
  sgf_writer_value_callbacks(cb);
  if (HAS_ON_MOVES(cb)) cb->on_moves = cb_moves;
}

void sgf_writer_callbacks(sgf_callbacks *cb) {
  cb->on_tree_begin = cb_tree_begin;
  cb->on_tree_end = cb_tree_end;
  cb->on_node = cb_node;
  cb->on_property = cb_property;
  cb->on_value_data = cb_value_data;
  cb->on_value_end = cb_value_end;
  /* Not needed: a value begins with its data or its end, a property ends
   * at the next event. Each callback the parser need not make is ~10% of
   * the time of parse + write. */
  cb->on_value_begin = NULL;
  cb->on_property_end = NULL;
  /* the three value callbacks above, so that a filter can wrap them */
  if (HAS_ON_VALUE(cb)) cb->on_value = NULL;
  if (HAS_ON_MOVES(cb)) cb->on_moves = NULL;
}
