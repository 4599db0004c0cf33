/* value_raw.c - the values of a property view (RAW VALUES in
 * sgfstream/value.h).
 *
 * The reader and the tree both make their views with sgf__prop_view()
 * (lib/common/rawval.h): priv[0] is their array of values, so one
 * function serves both, called once per value: a bounds check and a
 * copy of three words.
 */
#include "rawval.h"

sgf_value_view sgf_prop_value(const sgf_prop_view *p, size_t i) {
  static const sgf_value_view none;
  const sgf__val *v = p->priv[0];
  return i < p->nvalues ? sgf__value_view(v + i) : none;
}
