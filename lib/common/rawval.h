/* rawval.h - how the reader and the tree keep a property and its values
 * behind the views of sgfstream/value.h (RAW VALUES).
 *
 * Private: the public API hands out sgf_prop_view / sgf_value_view copies
 * only, so this layout may change without an API change. Both keep a
 * property's values as an array in priv[0] of the view: the reader's
 * sgf__val (with positions), with NULL in priv[1]; the tree's smaller
 * sgf__tval, with its sgf__prop in priv[1] (see sgf_prop_value() in
 * lib/value).
 */
#ifndef SGF_RAWVAL_H
#define SGF_RAWVAL_H

#include <stddef.h>
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
 * intact, NUL after them). Positions are not kept here: a tree keeps them
 * only when asked (SGF_TREE_POSITIONS), in one array per property. */
typedef struct sgf__tval {
  const char *raw;
  size_t len;
} sgf__tval;

/* A property of a tree: identifiers (normalized and, when it differs, as
 * written; NUL-terminated), nvalues >= 1 values, and pos: NULL, or where
 * the identifier (pos[0]) and each value i (pos[1 + i]) were. */
typedef struct sgf__prop {
  const char *ident;
  const char *raw_ident; /* NULL: as ident */
  const sgf__tval *values;
  const sgf_pos *pos;
  size_t nvalues;
} sgf__prop;

/* The view of a tree's property p (NULL: a view of nothing). priv[1] is
 * p itself, which tells sgf_prop_value() (lib/value) that priv[0] is an
 * array of sgf__tval and where the positions are. */
static inline sgf_prop_view sgf__prop_view(const sgf__prop *p) {
  sgf_prop_view v;
  static const sgf_pos nopos;
  if (!p) {
    static const sgf_prop_view none;
    return none;
  }
  v.ident = p->ident;
  v.ident_len = strlen(p->ident);
  v.raw_ident = p->raw_ident ? p->raw_ident : p->ident;
  v.raw_ident_len = p->raw_ident ? strlen(p->raw_ident) : v.ident_len;
  v.pos = p->pos ? p->pos[0] : nopos;
  v.nvalues = p->nvalues;
  v.priv[0] = p->values;
  v.priv[1] = p;
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
