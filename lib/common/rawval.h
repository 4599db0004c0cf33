/* rawval.h - how the reader and the tree keep a property and its values
 * behind the views of sgfstream/value.h (RAW VALUES).
 *
 * Private: the public API hands out sgf_prop_view / sgf_value_view copies
 * only, so this layout may change (the tree will keep small fixed-size
 * entries in flat arrays) without an API change. Both keep their values
 * as an array of sgf__val; a view made by sgf__prop_view() carries that
 * array in priv[0], which is all sgf_prop_value() (lib/value) needs.
 * priv[1] is free for a later layout (a tree's byte buffer, say).
 */
#ifndef SGF_RAWVAL_H
#define SGF_RAWVAL_H

#include <stddef.h>

#include "sgfstream.h"

/* One value: its raw bytes (escapes intact, NUL after them), where its
 * '[' was. */
typedef struct sgf__val {
  const char *raw;
  size_t len;
  sgf_pos pos;
} sgf__val;

/* One property: identifiers (normalized and as written, NUL-terminated),
 * where it was, nvalues >= 1 values. */
typedef struct sgf__prop {
  const char *ident;
  size_t ident_len;
  const char *raw_ident;
  size_t raw_ident_len;
  sgf_pos pos;
  size_t nvalues;
  const sgf__val *values;
} sgf__prop;

/* The view of a property kept as p (NULL: a view of nothing). */
static inline sgf_prop_view sgf__prop_view(const sgf__prop *p) {
  sgf_prop_view v;
  if (!p) {
    static const sgf_prop_view none;
    return none;
  }
  v.ident = p->ident;
  v.ident_len = p->ident_len;
  v.raw_ident = p->raw_ident;
  v.raw_ident_len = p->raw_ident_len;
  v.pos = p->pos;
  v.nvalues = p->nvalues;
  v.priv[0] = p->values;
  v.priv[1] = NULL;
  return v;
}

/* The view of a value kept as s. */
static inline sgf_value_view sgf__value_view(const sgf__val *s) {
  sgf_value_view v;
  v.raw = s->raw;
  v.len = s->len;
  v.pos = s->pos;
  return v;
}

#endif
