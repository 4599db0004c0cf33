/* value_raw.c - the values of a property view (RAW VALUES in
 * sgfstream/value.h).
 *
 * The reader keeps its array of values in priv[0] and NULL in priv[1]; a
 * tree's view (sgf__prop_view() in lib/common/rawval.h) says in priv[1]
 * whether priv[0] is an array of values (with their positions, kept only
 * when asked for) or the bytes of one short value kept inline. One
 * function serves both, called once per value: a bounds check and a copy
 * of a few words.
 */
#include "rawval.h"

const char sgf__tview_tags[SGF__P_INL_MAX + 2];

sgf_value_view sgf_prop_value(const sgf_prop_view *p, size_t i) {
  static const sgf_value_view none;
  const char *tag = p->priv[1];
  uintptr_t k;
  if (i >= p->nvalues) return none;
  if (!tag) return sgf__value_view((const sgf__val *)p->priv[0] + i);
  k = (uintptr_t)tag - (uintptr_t)sgf__tview_tags;
  if (k == 0 || k >= sizeof sgf__tview_tags) { /* a tree's array */
    const sgf__tval *v = p->priv[0];
    sgf_value_view r = none;
    r.raw = v[i].raw;
    r.len = v[i].len;
    if (k) r.pos = ((const sgf_pos *)(const void *)tag)[i];
    return r;
  } else { /* one value inline */
    sgf_value_view r = none;
    r.raw = p->priv[0];
    r.len = (size_t)k - 1;
    return r;
  }
}
