/* value_raw.c - the values of a property view (RAW VALUES in
 * sgfstream/value.h).
 *
 * The reader and the tree both keep their array of values in priv[0];
 * a tree's view (sgf__prop_view() in lib/common/rawval.h) also has its
 * property record in priv[1] (positions, kept only when asked for), the
 * reader's has NULL there. One function serves both, called once per
 * value: a bounds check and a copy of a few words.
 */
#include "rawval.h"

sgf_value_view sgf_prop_value(const sgf_prop_view *p, size_t i) {
  static const sgf_value_view none;
  const sgf__prop *tp = p->priv[1];
  if (i >= p->nvalues) return none;
  if (tp) { /* a tree's: no positions unless kept */
    const sgf__tval *v = p->priv[0];
    sgf_value_view r = none;
    r.raw = v[i].raw;
    r.len = v[i].len;
    if (tp->pos) r.pos = tp->pos[1 + i];
    return r;
  }
  return sgf__value_view((const sgf__val *)p->priv[0] + i);
}
