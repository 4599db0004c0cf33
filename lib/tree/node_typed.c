/* node_typed.c - typed getters on tree nodes (sgfstream/typed.h): the
 * first value of a property through the codecs of sgfstream/value.h,
 * points and moves checked against the root's SZ.
 *
 * They live in the tree layer, not in lib/value, because the text getter
 * needs scratch memory from the tree's allocator; everything else here
 * uses only the public tree and value API.
 */
#include <string.h>

#include "sgfstream/typed.h"
#include "tree_internal.h"

/* The first value of ident on n, or SGF_EINVAL (also when out, where
 * the caller's result goes, is NULL). */
static int value_for(const sgf_node *n, const char *ident, const void *out,
                     sgf_value_view *v) {
  sgf_prop_view p;
  if (!n || !ident || !out) return SGF_EINVAL;
  p = sgf_node_find_prop(n, ident);
  if (p.nvalues == 0) return SGF_EINVAL;
  *v = sgf_prop_value(&p, 0);
  return SGF_OK;
}

int sgf_node_get_number(const sgf_node *n, const char *ident, int64_t *out) {
  sgf_value_view v;
  int r = value_for(n, ident, out, &v);
  return r ? r : sgf_number_decode(v.raw, v.len, out, NULL);
}

int sgf_node_get_real(const sgf_node *n, const char *ident, double *out) {
  sgf_value_view v;
  int r = value_for(n, ident, out, &v);
  return r ? r : sgf_real_decode(v.raw, v.len, out, NULL);
}

int sgf_node_get_double(const sgf_node *n, const char *ident, int *out) {
  sgf_value_view v;
  int r = value_for(n, ident, out, &v);
  return r ? r : sgf_double_decode(v.raw, v.len, out, NULL);
}

int sgf_node_get_color(const sgf_node *n, const char *ident, sgf_color *out) {
  sgf_value_view v;
  char c;
  int r = value_for(n, ident, out, &v);
  if (r != SGF_OK) return r;
  if ((r = sgf_color_decode(v.raw, v.len, &c, NULL)) < 0) return r;
  *out = c == 'B' ? SGF_COLOR_BLACK : SGF_COLOR_WHITE;
  return SGF_OK;
}

int sgf_node_get_board(const sgf_node *n, sgf_board *out) {
  sgf_value_view v;
  sgf_board b;
  int r;
  if (!n || !out) return SGF_EINVAL;
  sgf_board_init(&b);
  r = value_for(sgf_node_root(n), "SZ", out, &v) == SGF_OK
          ? sgf_board_decode(v.raw, v.len, &b, NULL)
          : SGF_OK;
  *out = b; /* unchanged by a failed decode: 19 x 19 */
  return r;
}

int sgf_node_get_point(const sgf_node *n, const char *ident, sgf_point *out) {
  sgf_value_view v;
  sgf_board b;
  int r = value_for(n, ident, out, &v);
  if (r != SGF_OK) return r;
  if ((r = sgf_node_get_board(n, &b)) != SGF_OK) return r;
  return sgf_board_point_decode(&b, v.raw, v.len, out, NULL);
}

int sgf_node_get_move(const sgf_node *n, sgf_color *color, sgf_move *out) {
  sgf_value_view v;
  sgf_board b;
  sgf_color col;
  int r;
  if (!n || !color || !out) return SGF_EINVAL;
  col = sgf_node_move(n, &v);
  if (col == SGF_COLOR_NONE) return SGF_EINVAL;
  if ((r = sgf_node_get_board(n, &b)) != SGF_OK) return r;
  if ((r = sgf_move_decode(&b, v.raw, v.len, out, NULL)) < 0) return r;
  *color = col;
  return SGF_OK;
}

/* ------------------------------------------------------------------ */
/* Point lists                                                         */

int sgf_node_get_points(const sgf_node *n, const char *ident,
                        sgf_node_points *it) {
  const sgf_propdef *def;
  int r;
  if (!it) return SGF_EINVAL;
  memset(it, 0, sizeof *it);
  if (!n || !ident) return SGF_EINVAL;
  it->prop = sgf_node_find_prop(n, ident); /* nvalues 0: yields nothing */
  if (it->prop.nvalues == 0) return SGF_EINVAL;
  def = sgf_prop_lookup(NULL, ident, strlen(ident));
  if (!def || def->shape == SGF_VS_ELIST) it->flags = SGF_PTS_EMPTY_OK;
  if ((r = sgf_node_get_board(n, &it->board)) != SGF_OK) {
    it->state = r;
    return r;
  }
  it->state = 0; /* no value started */
  return SGF_OK;
}

int sgf_node_points_next(sgf_node_points *it, sgf_point *pt, size_t *value) {
  for (;;) {
    int r;
    if (it->state < 0) {
      if (value) *value = it->next - 1;
      return it->state;
    }
    if (it->state == 1) { /* within value next - 1 */
      r = sgf_point_iter_next(&it->it, pt, NULL);
      if (r == 1) return 1;
      if (r < 0) {
        it->state = r;
        continue;
      }
      it->state = 0;
    }
    if (it->next >= it->prop.nvalues) return 0;
    {
      sgf_value_view v = sgf_prop_value(&it->prop, it->next++);
      sgf_point_iter_init(&it->it, &it->board, v.raw, v.len, it->flags);
      it->state = 1;
    }
  }
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

int sgf_node_get_text(const sgf_node *n, const char *ident, sgf_charset *cs,
                      char **out, size_t *cap, size_t *err_off) {
  const sgf_allocator *a;
  const sgf_propdef *def;
  sgf_value_view v, ca;
  unsigned flags = 0;
  char *scratch;
  size_t len, size;
  int has_ca, r = value_for(n, ident, out, &v);
  if (r != SGF_OK || !cs || !cap) return r ? r : SGF_EINVAL;
  def = sgf_prop_lookup(NULL, ident, strlen(ident));
  if (def && def->type == SGF_VT_SIMPLETEXT) flags = SGF_TEXT_SIMPLE;
  a = &sgf__tree_any(n)->alloc;
  /* the CA value (SimpleText) first, then the text in that charset: one
   * scratch buffer, as long as the longer of the two, and a NUL */
  has_ca = value_for(sgf_node_root(n), "CA", out, &ca) == SGF_OK;
  size = (has_ca && ca.len > v.len ? ca.len : v.len) + 1;
  scratch = sgf__malloc(a, size);
  if (!scratch) return SGF_ENOMEM;
  sgf_charset_reset(cs);
  if (has_ca) /* a charset iconv does not know: the default applies */
    sgf_charset_set_ca(
        cs, scratch, sgf_text_decode(ca.raw, ca.len, scratch, SGF_TEXT_SIMPLE));
  len = sgf_text_decode_dbcs(v.raw, v.len, scratch, flags,
                             sgf_charset_declared(cs));
  scratch[len] = '\0'; /* converted too: the output ends in a NUL */
  r = sgf_charset_convert(cs, scratch, len + 1, out, cap, NULL, err_off);
  sgf__free(a, scratch, size);
  return r > 0 ? r - 1 : r;
}
