/* reader.c - the property reader (sgfstream/reader.h).
 *
 * A client of the public callback API only: it collects the slices of a
 * property's values into one buffer and calls on_property at the core's
 * on_property_end, as a view (sgf_prop_view) whose values are kept the
 * way the tree keeps them (rawval.h), so sgf_prop_value() serves both.
 * Values are recorded as offsets while the buffer may still move, and
 * turned into pointers just before delivery. Everything
 * buffered for one property is bounded: raw bytes by max_value_bytes,
 * the number of values by max_value_bytes / 16 (at least 64).
 */
#include <string.h>

#include "alloc.h"
#include "rawval.h"
#include "sgfstream.h"
#include "sgfstream/event_state.h"
#include "sized.h"

struct sgf_reader {
  sgf_parser *parser;
  const sgf_event_state *es; /* the parser's, positions inline; no_state
                                if of another version (event_state.h) */
  sgf_reader_callbacks cb;
  void *user;
  sgf_allocator alloc;
  size_t max_bytes;
  size_t max_values;

  char *buf; /* raw value bytes of the current property */
  size_t len, cap;
  sgf__val *vals; /* .raw holds an offset into buf until delivery */
  size_t nvals, vcap;
  int failed; /* the current property exceeded the limit */

  sgf_prop_view prop;      /* what on_property gets: priv[0] is vals */
  char *ident, *raw_ident; /* max_ident_len + 1 each */
  size_t ident_cap;
};

/* The limits: raw bytes up to max_bytes, and values up to max_values
 * (max_bytes / 16, at least 64), so the value records stay within a small
 * multiple of max_bytes however many empty values a property has. */
static int fits(const sgf_reader *r, size_t extra_bytes, size_t extra_vals) {
  return r->len + extra_bytes <= r->max_bytes &&
         r->nvals + extra_vals <= r->max_values;
}

/* at: the '[' of the value that did not fit. */
static int over_limit(sgf_reader *r, sgf_parser *p, sgf_pos at) {
  sgf_diag d;
  memset(&d, 0, sizeof d);
  d.code = SGF_DIAG_VALUE_LIMIT;
  d.severity = sgf_diag_severity(d.code);
  d.pos = at;
  d.has_mark = 1;
  d.mark = r->prop.pos;
  r->failed = 1;
  sgf_parser_report(p, &d); /* fatal: the parser stops */
  return SGF_ABORT;
}

static int out_of_memory(sgf_reader *r, sgf_parser *p) {
  sgf_diag d;
  memset(&d, 0, sizeof d);
  d.code = SGF_DIAG_NOMEM;
  d.severity = SGF_SEV_FATAL;
  d.pos = sgf_parser_position(p);
  r->failed = 1;
  sgf_parser_report(p, &d);
  return SGF_ABORT;
}

static int on_tree_begin(sgf_parser *p, void *u) {
  sgf_reader *r = u;
  return r->cb.on_tree_begin ? r->cb.on_tree_begin(p, r->user) : 0;
}

static int on_tree_end(sgf_parser *p, void *u) {
  sgf_reader *r = u;
  return r->cb.on_tree_end ? r->cb.on_tree_end(p, r->user) : 0;
}

static int on_node(sgf_parser *p, void *u) {
  sgf_reader *r = u;
  return r->cb.on_node ? r->cb.on_node(p, r->user) : 0;
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  sgf_reader *r = u;
  return r->cb.on_diagnostic ? r->cb.on_diagnostic(p, r->user, d) : 0;
}

/* Identifiers are a few bytes: a loop beats a call to memcpy. */
static void copy_short(char *dst, const char *src, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) dst[i] = src[i];
  dst[n] = '\0';
}

/* The current event's position and identifier as written: inline from
 * the event state, through the parser's functions without one. */
/* The event state of a parser of another version: never live, so
 * sgf_event_position() asks sgf_parser_position() (one test, and the
 * hot path stays inline: a NULL check here made the compiler keep these
 * helpers out of line, 12% of the reader's instructions). */
static const sgf_event_state no_state;

static inline sgf_pos event_pos(const sgf_reader *r, const sgf_parser *p) {
  return sgf_event_position(p, r->es);
}

static inline const char *event_raw_ident(const sgf_reader *r,
                                          const sgf_parser *p, size_t *len) {
  return r->es != &no_state ? sgf_event_raw_ident(r->es, len)
                            : sgf_parser_raw_ident(p, len);
}

static int same_short(const char *a, const char *b, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (a[i] != b[i]) return 0;
  return 1;
}

static int on_property(sgf_parser *p, void *u, const char *id, size_t n) {
  sgf_reader *r = u;
  size_t rn;
  const char *raw = event_raw_ident(r, p, &rn);
  if (n > r->ident_cap || rn > r->ident_cap) return out_of_memory(r, p);
  copy_short(r->ident, id, n);
  r->prop.ident = r->ident;
  r->prop.ident_len = n;
  if (rn == n && same_short(raw, id, n)) { /* written as FF[4] wants */
    r->prop.raw_ident = r->ident;
  } else {
    copy_short(r->raw_ident, raw, rn);
    r->prop.raw_ident = r->raw_ident;
  }
  r->prop.raw_ident_len = rn;
  r->prop.pos = event_pos(r, p);
  r->len = 0;
  r->nvals = 0;
  r->failed = 0;
  return SGF_CONTINUE;
}

static int on_value_begin(sgf_parser *p, void *u) {
  sgf_reader *r = u;
  sgf__val *v;
  if (!fits(r, 0, 1)) return over_limit(r, p, sgf_parser_position(p));
  if (r->nvals == r->vcap) {
    size_t ncap = r->vcap ? r->vcap * 2 : 16;
    void *q = sgf__realloc(&r->alloc, r->vals, r->vcap * sizeof *r->vals,
                           ncap * sizeof *r->vals);
    if (!q) return out_of_memory(r, p);
    r->vals = q;
    r->vcap = ncap;
  }
  v = &r->vals[r->nvals++];
  v->raw = NULL;
  v->len = r->len; /* start offset until value end */
  v->pos = event_pos(r, p);
  return SGF_CONTINUE;
}

static void copy_short_raw(char *dst, const char *src, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) dst[i] = src[i];
}

static int on_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  sgf_reader *r = u;
  if (!fits(r, n, 0)) return over_limit(r, p, r->vals[r->nvals - 1].pos);
  if (r->len + n > r->cap) {
    size_t ncap = r->cap ? r->cap : 256;
    void *q;
    while (ncap < r->len + n) ncap *= 2;
    if (ncap > r->max_bytes) ncap = r->max_bytes; /* fits() said it does */
    q = sgf__realloc(&r->alloc, r->buf, r->cap, ncap);
    if (!q) return out_of_memory(r, p);
    r->buf = q;
    r->cap = ncap;
  }
  if (n <= 16)
    copy_short_raw(r->buf + r->len, at, n);
  else
    memcpy(r->buf + r->len, at, n);
  r->len += n;
  return SGF_CONTINUE;
}

static int on_value_end(sgf_parser *p, void *u) {
  sgf_reader *r = u;
  sgf__val *v = &r->vals[r->nvals - 1];
  (void)p;
  v->len = r->len - v->len; /* was the start offset */
  return SGF_CONTINUE;
}

static int on_property_end(sgf_parser *p, void *u) {
  sgf_reader *r = u;
  size_t i, off = 0;
  if (r->failed || r->nvals == 0) return SGF_CONTINUE;
  for (i = 0; i < r->nvals; i++) {
    r->vals[i].raw = r->buf ? r->buf + off : "";
    off += r->vals[i].len;
  }
  r->prop.nvalues = r->nvals;
  r->prop.priv[0] = r->vals; /* as sgf__prop_view() would make it */
  return r->cb.on_property ? r->cb.on_property(p, r->user, &r->prop) : 0;
}

void sgf_reader_callbacks_init(sgf_reader_callbacks *cb) {
  memset(cb, 0, sizeof *cb);
  cb->size = sizeof *cb;
}

void sgf_reader_options_init(sgf_reader_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->size = sizeof *opt;
}

sgf_reader *sgf_reader_create(const sgf_reader_callbacks *cbg, void *user,
                              const sgf_reader_options *given) {
  static const sgf_callbacks core = {sizeof(sgf_callbacks),
                                     on_tree_begin,
                                     on_tree_end,
                                     on_node,
                                     on_property,
                                     on_value_begin,
                                     on_value_data,
                                     on_value_end,
                                     on_property_end,
                                     on_diagnostic,
                                     NULL,
                                     NULL,
                                     NULL};
  sgf_allocator a;
  sgf_reader *r;
  sgf_reader_options ro;
  sgf_reader_callbacks cb;
  sgf_options po;
  const sgf_options *opt = &po;
  if (!given)
    sgf_reader_options_init(&ro);
  else if (sgf__copy_sized(&ro, sizeof ro, given,
                           SGF__SIZE_UPTO(sgf_reader_options, max_value_bytes)))
    return NULL;
  if (!cbg)
    sgf_reader_callbacks_init(&cb);
  else if (sgf__copy_sized(&cb, sizeof cb, cbg,
                           SGF__SIZE_UPTO(sgf_reader_callbacks, on_diagnostic)))
    return NULL;
  if (!ro.parser)
    sgf_options_init(&po);
  else if (sgf__copy_sized(&po, sizeof po, ro.parser,
                           SGF__SIZE_UPTO(sgf_options, allocator)))
    return NULL;
  sgf__allocator_init(&a, opt->allocator);
  r = sgf__malloc(&a, sizeof *r);
  if (!r) return NULL;
  memset(r, 0, sizeof *r);
  r->alloc = a;
  r->cb = cb;
  r->user = user;
  r->max_bytes =
      ro.max_value_bytes ? ro.max_value_bytes : SGF_DEFAULT_MAX_VALUE_BYTES;
  r->max_values = r->max_bytes / 16 < 64 ? 64 : r->max_bytes / 16;
  r->ident_cap =
      opt->max_ident_len ? opt->max_ident_len : SGF_DEFAULT_MAX_IDENT_LEN;
  r->ident = sgf__malloc(&a, r->ident_cap + 1);
  r->raw_ident = r->ident ? sgf__malloc(&a, r->ident_cap + 1) : NULL;
  r->parser = r->raw_ident ? sgf_parser_create(&core, r, opt) : NULL;
  if (!r->parser) {
    sgf_reader_destroy(r);
    return NULL;
  }
  r->es = sgf_parser_event_state(r->parser, SGF_EVENT_STATE_VERSION);
  if (r->es == NULL) r->es = &no_state;
  return r;
}

int sgf_reader_destroy(sgf_reader *r) {
  sgf_allocator a;
  if (!r) return SGF_OK;
  /* from inside a callback the parser refuses: so do we */
  if (sgf_parser_destroy(r->parser) != SGF_OK) return SGF_EBUSY;
  a = r->alloc;
  sgf__free(&a, r->buf, r->cap);
  sgf__free(&a, r->vals, r->vcap * sizeof *r->vals);
  sgf__free(&a, r->ident, r->ident_cap + 1);
  sgf__free(&a, r->raw_ident, r->ident_cap + 1);
  sgf__free(&a, r, sizeof *r);
  return SGF_OK;
}

sgf_parser *sgf_reader_parser(sgf_reader *r) { return r->parser; }
