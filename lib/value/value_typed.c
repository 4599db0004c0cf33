/* value_typed.c - any value by its property's definition (the table's
 * type, second type, shape and flags), both ways; and the fixed buffer
 * that gathers a value's pieces from on_value.
 */
#include <string.h>

#include "value_priv.h"

void sgf_typed_value_init(sgf_typed_value *v) {
  memset(v, 0, sizeof *v);
  v->size = sizeof *v;
}

static int is_text(int type) {
  return type == SGF_VT_TEXT || type == SGF_VT_SIMPLETEXT;
}

static int is_point(int type) {
  return type == SGF_VT_POINT || type == SGF_VT_STONE;
}

/* One part at raw[0, len); offsets in *err_off relative to raw. rect: a
 * point may be a rectangle (a list's value that is not composed). */
static int decode_part(const sgf_prop_table *t, int type, const sgf_board *b,
                       const char *raw, size_t len, int rect, sgf_vpart *p,
                       size_t *err_off) {
  int rc = 0;
  p->type = type;
  switch (type) {
    case SGF_VT_NONE:
      return len ? sgf__verr(err_off, 0, SGF_ESYNTAX) : 0;
    case SGF_VT_NUMBER:
      return sgf_number_decode(raw, len, &p->u.number, err_off);
    case SGF_VT_REAL:
      return sgf_real_decode(raw, len, &p->u.real, err_off);
    case SGF_VT_DOUBLE:
      return sgf_double_decode(raw, len, &p->u.dbl, err_off);
    case SGF_VT_COLOR:
      return sgf_color_decode(raw, len, &p->u.color, err_off);
    case SGF_VT_SIMPLETEXT:
    case SGF_VT_TEXT:
      p->u.text.at = raw;
      p->u.text.len = len;
      return 0;
    case SGF_VT_MOVE:
      return sgf_move_decode(b, raw, len, &p->u.move, err_off);
    case SGF_VT_POINT:
    case SGF_VT_STONE:
      if (rect) {
        sgf_point_iter it;
        sgf_point_iter_init(&it, b, raw, len, 0);
        rc = sgf_point_iter_next(&it, NULL, err_off);
        if (rc < 0) return rc;
        p->u.rect.a = it.lo;
        p->u.rect.b = it.hi;
        return 0;
      }
      return sgf_board_point_decode(b, raw, len, &p->u.point, err_off);
    default: {
      void *ctx = NULL;
      sgf_vtype_check_fn check = sgf__vtype_check(t, type, &ctx);
      if (!check) return SGF_EINVAL;
      p->u.text.at = raw;
      p->u.text.len = len;
      return check(ctx, raw, len, err_off);
    }
  }
}

int sgf_value_decode(const sgf_prop_table *t, const sgf_propdef *def,
                     const sgf_board *b, const char *raw, size_t len,
                     sgf_typed_value *v, size_t *err_off) {
  sgf_typed_value tmp;
  size_t colon, off = 0;
  int rc, rect;
  if (!def || !b || (!raw && len)) return SGF_EINVAL;
  if (!v) v = &tmp;
  sgf_typed_value_init(v);
  if (len == 0 && def->type != SGF_VT_MOVE && !is_text(def->type) &&
      (def->shape == SGF_VS_ELIST || (def->flags & SGF_PF_EMPTY_OK))) {
    v->part[0].type = SGF_VT_NONE;
    return 0;
  }
  rect = def->shape != SGF_VS_SINGLE && def->type2 == SGF_VT_UNKNOWN;
  if (def->type2 == SGF_VT_UNKNOWN)
    return decode_part(t, def->type, b, raw, len, rect, &v->part[0], err_off);
  rc = sgf_compose_split(raw, len, &colon, err_off);
  if (rc < 0) {
    if (def->flags & SGF_PF_COMPOSE_OPT)
      return decode_part(t, def->type, b, raw, len, 0, &v->part[0], err_off);
    return rc;
  }
  v->composed = 1;
  rc = decode_part(t, def->type, b, raw, colon, 0, &v->part[0], &off);
  if (rc == 0) {
    rc = decode_part(t, def->type2, b, raw + colon + 1, len - colon - 1, 0,
                     &v->part[1], &off);
    off += colon + 1;
  }
  if (rc < 0 && err_off) *err_off = off;
  return rc;
}

/* The most a non-text part takes. */
#define PART_MAX SGF_REAL_MAX

static int encode_part(const sgf_prop_table *t, int type, const sgf_board *b,
                       const sgf_vpart *p, unsigned flags, int first_of_two,
                       int rect, char *out, size_t *err_off) {
  if (p->type != type && !(is_point(p->type) && is_point(type)))
    return SGF_EINVAL;
  switch (type) {
    case SGF_VT_NONE:
      return 0;
    case SGF_VT_NUMBER:
      return sgf_number_encode(p->u.number, out);
    case SGF_VT_REAL:
      return sgf_real_encode(p->u.real, out);
    case SGF_VT_DOUBLE:
      if (p->u.dbl != 1 && p->u.dbl != 2) return SGF_ERANGE;
      out[0] = (char)('0' + p->u.dbl);
      return 1;
    case SGF_VT_COLOR:
      if (p->u.color != 'B' && p->u.color != 'W') return SGF_ERANGE;
      out[0] = p->u.color;
      return 1;
    case SGF_VT_SIMPLETEXT:
    case SGF_VT_TEXT:
      return sgf_text_encode(p->u.text.at, p->u.text.len, out,
                             (type == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE : 0) |
                                 (first_of_two ? SGF_TEXT_COMPOSE : 0),
                             err_off);
    case SGF_VT_MOVE:
      return sgf_move_encode(b, &p->u.move, flags, out);
    case SGF_VT_POINT:
    case SGF_VT_STONE:
      return rect ? sgf_rect_encode(b, &p->u.rect, out)
                  : sgf_board_point_encode(b, p->u.point, out);
    default: {
      /* A registered type: its raw bytes, checked. */
      void *ctx = NULL;
      sgf_vtype_check_fn check = sgf__vtype_check(t, type, &ctx);
      int rc;
      if (!check) return SGF_EINVAL;
      rc = check(ctx, p->u.text.at, p->u.text.len, err_off);
      if (rc < 0) return rc;
      if (p->u.text.len) memcpy(out, p->u.text.at, p->u.text.len);
      return (int)p->u.text.len;
    }
  }
}

/* Room a part needs at most. */
static size_t part_room(const sgf_vpart *p) {
  if (is_text(p->type) || p->type >= SGF_VT_USER) return 2 * p->u.text.len;
  return PART_MAX;
}

int sgf_value_encode(const sgf_prop_table *t, const sgf_propdef *def,
                     const sgf_board *b, const sgf_typed_value *v,
                     unsigned flags, char *out, size_t cap, size_t *err_off) {
  int n0, n1, rect;
  size_t need;
  if (!def || !b || !v || !out) return SGF_EINVAL;
  need =
      part_room(&v->part[0]) + 1 + (v->composed ? part_room(&v->part[1]) : 0);
  if (need > cap || need > (size_t)INT32_MAX) return SGF_ERANGE;
  if (v->part[0].type == SGF_VT_NONE && !v->composed) {
    if (def->type == SGF_VT_NONE || def->shape == SGF_VS_ELIST ||
        (def->flags & SGF_PF_EMPTY_OK))
      return 0;
    return SGF_EINVAL;
  }
  rect = def->shape != SGF_VS_SINGLE && def->type2 == SGF_VT_UNKNOWN;
  if (v->composed && def->type2 == SGF_VT_UNKNOWN) return SGF_EINVAL;
  if (!v->composed && def->type2 != SGF_VT_UNKNOWN &&
      !(def->flags & SGF_PF_COMPOSE_OPT))
    return SGF_EINVAL;
  n0 = encode_part(t, def->type, b, &v->part[0], flags, v->composed, rect, out,
                   err_off);
  if (n0 < 0 || !v->composed) return n0;
  out[n0] = ':';
  n1 = encode_part(t, def->type2, b, &v->part[1], flags, 0, 0, out + n0 + 1,
                   err_off);
  return n1 < 0 ? n1 : n0 + 1 + n1;
}

int sgf_value_acc_piece(sgf_value_acc *a, const char *at, size_t len,
                        unsigned flags, const char **raw, size_t *rawlen) {
  if (!a || !raw || !rawlen || (!at && len)) return SGF_EINVAL;
  if ((flags & SGF_VALUE_FIRST) && (flags & SGF_VALUE_LAST)) {
    *raw = at; /* whole: no copy */
    *rawlen = len;
    return 1;
  }
  if (flags & SGF_VALUE_FIRST) a->len = 0;
  if (a->len < SGF_VALUE_ACC_CAP) {
    size_t k =
        SGF_VALUE_ACC_CAP - a->len < len ? SGF_VALUE_ACC_CAP - a->len : len;
    if (k) memcpy(a->buf + a->len, at, k);
  }
  a->len += len;
  if (!(flags & SGF_VALUE_LAST)) return 0;
  *rawlen = a->len;
  if (a->len > SGF_VALUE_ACC_CAP) return SGF_ERANGE;
  *raw = a->buf;
  return 1;
}
