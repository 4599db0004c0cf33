/* rawval.h - how the reader and the tree keep a property and its values
 * behind the views of sgfstream/value.h (RAW VALUES).
 *
 * Private: the public API hands out sgf_prop_view / sgf_value_view copies
 * only, so this layout may change without an API change. The reader
 * keeps a property's values as an array of sgf__val (with positions) in
 * priv[0] of the view, NULL in priv[1]; the tree's views say in priv[1]
 * how their values are kept (sgf__tview_tags below; sgf_prop_value() in
 * lib/value).
 */
#ifndef SGF_RAWVAL_H
#define SGF_RAWVAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sgfstream.h"

/* The reader's value: its raw bytes (escapes intact, NUL after them),
 * where its '[' was. */
typedef struct sgf__val {
  const char *raw;
  size_t len;
  sgf_pos pos;
} sgf__val;

/* The tree's records (lib/tree). A value: its raw bytes (escapes
 * intact, NUL after them). */
typedef struct sgf__tval {
  const char *raw;
  size_t len;
} sgf__tval;

/* A property of a tree, 16 bytes: its identifier as a code (the tree
 * turns it into the normalized identifier and the one as written: see
 * lib/tree/tree_internal.h), nvalues >= 1 values and either
 *   SGF__P_INL  the one value of at most SGF__P_INL_MAX bytes inline in
 *               u.inl, NUL after it (its length in the low flag bits),
 *   or          an array of nvalues sgf__tval at u.values; with
 *               SGF__P_POS, the slot just before that array holds a
 *               pointer to nvalues + 1 positions: the identifier's, then
 *               each value's (SGF__P_POSV). */
typedef struct sgf__prop {
  uint16_t code;
  uint16_t flags;
  uint32_t nvalues;
  union {
    char inl[8];
    const sgf__tval *values;
  } u;
} sgf__prop;
#define SGF__P_LEN 0x7u
#define SGF__P_INL 0x8u
#define SGF__P_POS 0x10u
#define SGF__P_INL_MAX 7u
#define SGF__P_POSV(p) (((const sgf_pos *const *)(p)->u.values)[-1])

/* What priv[1] of a tree's view points into (lib/value/value_raw.c):
 * &sgf__tview_tags[0] for an array of values without positions,
 * &sgf__tview_tags[1 + len] for one inline value of len bytes (priv[0]
 * then points to its bytes); anything else is the positions of the
 * values (priv[0] the array); the reader's views have NULL. */
extern const char sgf__tview_tags[SGF__P_INL_MAX + 2];

/* The view of a tree's property p whose identifiers are ident and raw
 * (NULL: a view of nothing). */
static inline sgf_prop_view sgf__prop_view(const sgf__prop *p,
                                           const char *ident, const char *raw) {
  sgf_prop_view v;
  static const sgf_pos nopos;
  if (!p) {
    static const sgf_prop_view none;
    return none;
  }
  v.ident = ident;
  v.ident_len = strlen(ident);
  v.raw_ident = raw ? raw : ident;
  v.raw_ident_len = raw ? strlen(raw) : v.ident_len;
  v.pos = nopos;
  v.nvalues = p->nvalues;
  if (p->flags & SGF__P_INL) {
    v.priv[0] = p->u.inl;
    v.priv[1] = &sgf__tview_tags[1 + (p->flags & SGF__P_LEN)];
  } else if (p->flags & SGF__P_POS) {
    const sgf_pos *pos = SGF__P_POSV(p);
    v.pos = pos[0];
    v.priv[0] = p->u.values;
    v.priv[1] = pos + 1;
  } else {
    v.priv[0] = p->u.values;
    v.priv[1] = &sgf__tview_tags[0];
  }
  return v;
}

/* The view of the reader's value s. */
static inline sgf_value_view sgf__value_view(const sgf__val *s) {
  sgf_value_view v;
  v.raw = s->raw;
  v.len = s->len;
  v.pos = s->pos;
  return v;
}

#endif
