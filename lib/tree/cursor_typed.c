/* cursor_typed.c - typed setters on the cursor (sgfstream/typed.h).
 *
 * Each setter checks and encodes everything first (the value codecs of
 * sgfstream/value.h, the board from the root's SZ), then makes its one
 * edit through sgf__node_replace, which allocates before it links: a
 * failed set leaves the tree as it was.
 */
#include <string.h>

#include "sgfstream/typed.h"
#include "tree_internal.h"

static sgf_node *cur(sgf_cursor *c) { return (sgf_node *)sgf_cursor_node(c); }

/* May ident hold values of type t (or t2)? Unknown identifiers are the
 * application's: any type. */
static int type_ok(const char *ident, int t, int t2) {
  const sgf_propdef *d;
  if (!ident) return 0;
  d = sgf_prop_lookup(NULL, ident, strlen(ident));
  return !d || d->type == t || d->type == t2;
}

static int set_one(sgf_node *n, const char *ident, const char *raw,
                   size_t len) {
  return sgf__node_replace(n, ident, raw, &len, 1);
}

int sgf_cursor_set_number(sgf_cursor *c, const char *ident, int64_t v) {
  char buf[24];
  if (!c || !type_ok(ident, SGF_VT_NUMBER, SGF_VT_NUMBER)) return SGF_EINVAL;
  return set_one(cur(c), ident, buf, (size_t)sgf_number_encode(v, buf));
}

int sgf_cursor_set_real(sgf_cursor *c, const char *ident, double v) {
  char buf[SGF_REAL_MAX];
  int k;
  if (!c || !type_ok(ident, SGF_VT_REAL, SGF_VT_REAL)) return SGF_EINVAL;
  if ((k = sgf_real_encode(v, buf)) < 0) return k;
  return set_one(cur(c), ident, buf, (size_t)k);
}

int sgf_cursor_set_double(sgf_cursor *c, const char *ident, int v) {
  char d = (char)('0' + v);
  if (!c || !type_ok(ident, SGF_VT_DOUBLE, SGF_VT_DOUBLE)) return SGF_EINVAL;
  if (v != 1 && v != 2) return SGF_ERANGE;
  return set_one(cur(c), ident, &d, 1);
}

int sgf_cursor_set_color(sgf_cursor *c, const char *ident, sgf_color v) {
  if (!c || !type_ok(ident, SGF_VT_COLOR, SGF_VT_COLOR)) return SGF_EINVAL;
  if (v != SGF_COLOR_BLACK && v != SGF_COLOR_WHITE) return SGF_EINVAL;
  return set_one(cur(c), ident, v == SGF_COLOR_BLACK ? "B" : "W", 1);
}

int sgf_cursor_set_board(sgf_cursor *c, const sgf_board *b) {
  char buf[8];
  int k;
  if (!c || !b) return SGF_EINVAL;
  if ((k = sgf_board_encode(b, buf)) < 0) return k;
  return set_one(sgf__root(sgf_cursor_tree(c)), "SZ", buf, (size_t)k);
}

int sgf_cursor_set_point(sgf_cursor *c, const char *ident, sgf_point pt) {
  sgf_board b;
  char buf[2];
  int r;
  if (!c || !type_ok(ident, SGF_VT_POINT, SGF_VT_STONE)) return SGF_EINVAL;
  if ((r = sgf_node_get_board(cur(c), &b)) != SGF_OK) return r;
  if ((r = sgf_board_point_encode(&b, pt, buf)) < 0) return r;
  return set_one(cur(c), ident, buf, 2);
}

int sgf_cursor_set_points(sgf_cursor *c, const char *ident,
                          const sgf_point *pts, size_t n) {
  const sgf_allocator *a;
  const sgf_propdef *d;
  sgf_board b;
  unsigned char *set;
  sgf_rect *rects;
  size_t *lens, cells, size, i, k = 0;
  char *bytes;
  int r, nr;
  if (!c || (n && !pts) || !type_ok(ident, SGF_VT_POINT, SGF_VT_STONE))
    return SGF_EINVAL;
  d = sgf_prop_lookup(NULL, ident, strlen(ident));
  if (n == 0) /* [] where the property may be empty, else no property */
    return sgf__node_replace(cur(c), ident, "", &k,
                             (!d || d->shape == SGF_VS_ELIST) ? 1 : 0);
  if ((r = sgf_node_get_board(cur(c), &b)) != SGF_OK) return r;
  for (i = 0; i < n; i++)
    if (pts[i].x < 0 || pts[i].x >= b.width || pts[i].y < 0 ||
        pts[i].y >= b.height)
      return SGF_ERANGE;
  /* the board's cells, then as many rectangles, their lengths and bytes */
  cells = (size_t)b.width * (size_t)b.height;
  size = cells * (sizeof *rects + sizeof *lens + 5 + 1);
  a = &sgf_cursor_tree(c)->alloc;
  rects = sgf__malloc(a, size);
  if (!rects) return SGF_ENOMEM;
  lens = (size_t *)(rects + cells);
  bytes = (char *)(lens + cells);
  set = (unsigned char *)bytes + 5 * cells;
  memset(set, 0, cells);
  for (i = 0; i < n; i++) set[pts[i].y * b.width + pts[i].x] = 1;
  nr = sgf_points_compress(&b, set, rects, cells);
  for (i = 0; nr > 0 && i < (size_t)nr; i++) {
    lens[i] = (size_t)sgf_rect_encode(&b, &rects[i], bytes + k);
    k += lens[i];
  }
  r = nr < 0 ? nr : sgf__node_replace(cur(c), ident, bytes, lens, (size_t)nr);
  sgf__free(a, rects, size);
  return r;
}

/* Does the root declare a charset other than UTF-8? */
static int root_not_utf8(sgf_cursor *c) {
  sgf_prop_view p = sgf_node_find_prop(sgf__root(sgf_cursor_tree(c)), "CA");
  sgf_value_view v;
  char name[16];
  size_t len, i;
  if (p.nvalues == 0) return 0;
  v = sgf_prop_value(&p, 0);
  while (v.len && (v.raw[0] == ' ' || v.raw[0] == '\t')) v.raw++, v.len--;
  while (v.len && (v.raw[v.len - 1] == ' ' || v.raw[v.len - 1] == '\t'))
    v.len--;
  if (v.len > sizeof name) return 1;
  for (len = 0, i = 0; i < v.len; i++)
    if (v.raw[i] != '-' && v.raw[i] != '_')
      name[len++] =
          (char)(v.raw[i] >= 'a' && v.raw[i] <= 'z' ? v.raw[i] - 32 : v.raw[i]);
  return !(len == 4 && memcmp(name, "UTF8", 4) == 0);
}

int sgf_cursor_set_utf8(sgf_cursor *c, const char *ident, const char *text,
                        size_t len, size_t *err_off) {
  const sgf_allocator *a;
  const sgf_propdef *d;
  char *out;
  int k, r;
  if (!c || (!text && len) || !type_ok(ident, SGF_VT_TEXT, SGF_VT_SIMPLETEXT))
    return SGF_EINVAL;
  if (sgf_utf8_valid(text, len) != len || root_not_utf8(c)) return SGF_EINVAL;
  if (len > (SIZE_MAX - 1) / 2) return SGF_ENOMEM;
  d = sgf_prop_lookup(NULL, ident, strlen(ident));
  a = &sgf_cursor_tree(c)->alloc;
  out = sgf__malloc(a, 2 * len + 1);
  if (!out) return SGF_ENOMEM;
  k = sgf_text_encode(text, len, out,
                      d && d->type == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE : 0,
                      err_off);
  r = k < 0 ? k : set_one(cur(c), ident, out, (size_t)k);
  sgf__free(a, out, 2 * len + 1);
  return r;
}

int sgf_cursor_play(sgf_cursor *c, sgf_color color, const sgf_move *m,
                    unsigned flags) {
  sgf_board b;
  char buf[2];
  int r;
  if (!c || !m || (color != SGF_COLOR_BLACK && color != SGF_COLOR_WHITE))
    return SGF_EINVAL;
  if (m->pass) return sgf_cursor_add_move(c, color, SGF_PASS, SGF_PASS, flags);
  if ((r = sgf_node_get_board(cur(c), &b)) != SGF_OK) return r;
  if ((r = sgf_board_point_encode(&b, m->pt, buf)) < 0) return r;
  return sgf_cursor_add_move(c, color, m->pt.x, m->pt.y, flags);
}
