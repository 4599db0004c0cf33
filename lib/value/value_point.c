/* value_point.c - board size, points, moves, compressed point lists and
 * the two other coordinate systems (GTP's display form, sgfmill's
 * (row, col)).
 *
 * Letters: 'a'-'z' are 0-25, 'A'-'Z' 26-51 (FF[4], boards up to 52).
 * A point's offsets: 0 for its column letter, 1 for its row letter, so a
 * caller adds them to the value's position.
 */
#include <string.h>

#include "value_priv.h"

static int letter(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}

static char letter_of(int v) {
  return (char)(v < 26 ? 'a' + v : 'A' + (v - 26));
}

static int board_ok(const sgf_board *b) {
  return b && b->width >= 1 && b->width <= SGF_BOARD_MAX && b->height >= 1 &&
         b->height <= SGF_BOARD_MAX;
}

void sgf_board_init(sgf_board *b) {
  b->width = 19;
  b->height = 19;
}

/* One side of SZ at raw[from, to): a number 1..52. */
static int side(const char *raw, size_t from, size_t to, int *v,
                size_t *err_off) {
  int64_t n;
  size_t off;
  int rc = sgf_number_decode(raw + from, to - from, &n, &off);
  if (rc == SGF_ESYNTAX) return sgf__verr(err_off, from + off, rc);
  if (rc < 0 || n < 1 || n > SGF_BOARD_MAX)
    return sgf__verr(err_off, from, SGF_ERANGE);
  *v = (int)n;
  return 0;
}

int sgf_board_decode(const char *raw, size_t len, sgf_board *b,
                     size_t *err_off) {
  const char *colon;
  int w, h, rc;
  if (!b || (!raw && len)) return SGF_EINVAL;
  colon = len ? memchr(raw, ':', len) : NULL;
  if (!colon) {
    rc = side(raw, 0, len, &w, err_off);
    if (rc < 0) return rc;
    h = w;
  } else {
    size_t c = (size_t)(colon - raw);
    rc = side(raw, 0, c, &w, err_off);
    if (rc == 0) rc = side(raw, c + 1, len, &h, err_off);
    if (rc < 0) return rc;
  }
  b->width = w;
  b->height = h;
  return 0;
}

int sgf_board_encode(const sgf_board *b, char *out) {
  int n;
  if (!board_ok(b) || !out) return SGF_EINVAL;
  n = sgf_number_encode(b->width, out);
  if (b->height != b->width) {
    out[n++] = ':';
    n += sgf_number_encode(b->height, out + n);
  }
  return n;
}

int sgf_board_point_decode(const sgf_board *b, const char *raw, size_t len,
                           sgf_point *pt, size_t *err_off) {
  int x, y;
  if (!board_ok(b) || (!raw && len)) return SGF_EINVAL;
  if (len < 2) return sgf__verr(err_off, len, SGF_ESYNTAX);
  x = letter(raw[0]);
  if (x < 0) return sgf__verr(err_off, 0, SGF_ESYNTAX);
  y = letter(raw[1]);
  if (y < 0) return sgf__verr(err_off, 1, SGF_ESYNTAX);
  if (len > 2) return sgf__verr(err_off, 2, SGF_ESYNTAX);
  if (x >= b->width) return sgf__verr(err_off, 0, SGF_ERANGE);
  if (y >= b->height) return sgf__verr(err_off, 1, SGF_ERANGE);
  if (pt) {
    pt->x = x;
    pt->y = y;
  }
  return 0;
}

static int point_ok(const sgf_board *b, sgf_point pt) {
  return pt.x >= 0 && pt.x < b->width && pt.y >= 0 && pt.y < b->height;
}

int sgf_board_point_encode(const sgf_board *b, sgf_point pt, char *out) {
  if (!board_ok(b) || !out) return SGF_EINVAL;
  if (!point_ok(b, pt)) return SGF_ERANGE;
  out[0] = letter_of(pt.x);
  out[1] = letter_of(pt.y);
  return 2;
}

static int tt_is_pass(const sgf_board *b) {
  return b->width <= 19 && b->height <= 19;
}

int sgf_move_decode(const sgf_board *b, const char *raw, size_t len,
                    sgf_move *m, size_t *err_off) {
  sgf_point pt;
  int rc;
  /* The common case first (value.h: the same test callers may inline). */
  if (sgf_move_decode_letters(b, raw, len, m)) return 0;
  if (!board_ok(b) || (!raw && len)) return SGF_EINVAL;
  if (len == 0 ||
      (len == 2 && raw[0] == 't' && raw[1] == 't' && tt_is_pass(b))) {
    if (m) {
      m->pass = 1;
      m->pt.x = m->pt.y = -1;
    }
    return 0;
  }
  rc = sgf_board_point_decode(b, raw, len, &pt, err_off);
  if (rc < 0) return rc;
  if (m) {
    m->pass = 0;
    m->pt = pt;
  }
  return 0;
}

int sgf_move_encode(const sgf_board *b, const sgf_move *m, unsigned flags,
                    char *out) {
  if (!board_ok(b) || !m || !out) return SGF_EINVAL;
  if (m->pass) {
    if (!(flags & SGF_MOVE_PASS_TT) || !tt_is_pass(b)) return 0;
    out[0] = out[1] = 't';
    return 2;
  }
  /* On a board of at most 19 x 19, the point "tt" does not exist (t is
   * the 20th letter), so a point never encodes as a pass. */
  return sgf_board_point_encode(b, m->pt, out);
}

static const char gtp_columns[] = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

int sgf_point_to_gtp(const sgf_board *b, sgf_point pt, char *out) {
  int row, n = 0;
  if (!board_ok(b) || !out) return SGF_EINVAL;
  if (b->width > 25 || !point_ok(b, pt)) return SGF_ERANGE;
  row = b->height - pt.y;
  out[n++] = gtp_columns[pt.x];
  if (row >= 10) out[n++] = (char)('0' + row / 10);
  out[n++] = (char)('0' + row % 10);
  return n;
}

int sgf_point_from_gtp(const sgf_board *b, const char *s, size_t len,
                       sgf_point *pt, size_t *err_off) {
  const char *col;
  char c;
  int row = 0;
  size_t i;
  if (!board_ok(b) || (!s && len)) return SGF_EINVAL;
  if (len < 2 || len > 3)
    return sgf__verr(err_off, len < 2 ? len : 3, SGF_ESYNTAX);
  c = s[0] >= 'a' && s[0] <= 'z' ? (char)(s[0] - 'a' + 'A') : s[0];
  col = c ? strchr(gtp_columns, c) : NULL;
  if (!col) return sgf__verr(err_off, 0, SGF_ESYNTAX);
  for (i = 1; i < len; i++) {
    if (s[i] < '0' || s[i] > '9' || (i == 1 && s[i] == '0'))
      return sgf__verr(err_off, i, SGF_ESYNTAX);
    row = row * 10 + (s[i] - '0');
  }
  if (col - gtp_columns >= b->width) return sgf__verr(err_off, 0, SGF_ERANGE);
  if (row > b->height) return sgf__verr(err_off, 1, SGF_ERANGE);
  if (pt) {
    pt->x = (int)(col - gtp_columns);
    pt->y = b->height - row;
  }
  return 0;
}

int sgf_point_to_rowcol(const sgf_board *b, sgf_point pt, int *row, int *col) {
  if (!board_ok(b)) return SGF_EINVAL;
  if (!point_ok(b, pt)) return SGF_ERANGE;
  if (row) *row = b->height - 1 - pt.y;
  if (col) *col = pt.x;
  return 0;
}

/* ---------------------------------------------------------------------- */

enum { IT_DONE = 0, IT_ACTIVE = 1 };

static void iter_fail(sgf_point_iter *it, int rc, size_t off) {
  it->state = rc;
  it->err_off = off;
}

void sgf_point_iter_init(sgf_point_iter *it, const sgf_board *b,
                         const char *raw, size_t len, unsigned flags) {
  sgf_point a, c;
  size_t off;
  int rc;
  memset(it, 0, sizeof *it);
  it->size = sizeof *it;
  if (!board_ok(b) || (!raw && len)) {
    iter_fail(it, SGF_EINVAL, 0);
    return;
  }
  if (len == 0) {
    if (flags & SGF_PTS_EMPTY_OK)
      it->state = IT_DONE;
    else
      iter_fail(it, SGF_ESYNTAX, 0);
    return;
  }
  rc = sgf_board_point_decode(b, raw, len < 2 ? len : 2, &a, &off);
  if (rc < 0) {
    iter_fail(it, rc, off);
    return;
  }
  c = a;
  if (len > 2) {
    if (raw[2] != ':') {
      iter_fail(it, SGF_ESYNTAX, 2);
      return;
    }
    rc = sgf_board_point_decode(b, raw + 3, len - 3, &c, &off);
    if (rc < 0) {
      iter_fail(it, rc, off + 3);
      return;
    }
    if ((flags & SGF_PTS_STRICT) &&
        (c.x < a.x || c.y < a.y || (c.x == a.x && c.y == a.y))) {
      iter_fail(it, SGF_ESYNTAX, 3);
      return;
    }
  }
  it->lo.x = a.x < c.x ? a.x : c.x;
  it->lo.y = a.y < c.y ? a.y : c.y;
  it->hi.x = a.x < c.x ? c.x : a.x;
  it->hi.y = a.y < c.y ? c.y : a.y;
  it->next = it->lo;
  it->state = IT_ACTIVE;
}

int sgf_point_iter_next(sgf_point_iter *it, sgf_point *pt, size_t *err_off) {
  if (!it) return SGF_EINVAL;
  if (it->state < 0) return sgf__verr(err_off, it->err_off, it->state);
  if (it->state == IT_DONE) return 0;
  if (pt) *pt = it->next;
  if (it->next.x < it->hi.x) {
    it->next.x++;
  } else if (it->next.y < it->hi.y) {
    it->next.x = it->lo.x;
    it->next.y++;
  } else {
    it->state = IT_DONE;
  }
  return 1;
}

int sgf_points_compress(const sgf_board *b, unsigned char *set, sgf_rect *out,
                        size_t cap) {
  int x, y, w;
  size_t n = 0;
  if (!board_ok(b) || !set || (!out && cap)) return SGF_EINVAL;
  w = b->width;
  for (y = 0; y < b->height; y++) {
    for (x = 0; x < w; x++) {
      int x2 = x, y2 = y, i, j, full;
      if (!set[y * w + x]) continue;
      while (x2 + 1 < w && set[y * w + x2 + 1]) x2++;
      do { /* as many rows down as the whole run [x, x2] is set */
        full = y2 + 1 < b->height;
        for (i = x; full && i <= x2; i++) full = set[(y2 + 1) * w + i] != 0;
        if (full) y2++;
      } while (full);
      if (n == cap) return SGF_ERANGE;
      for (j = y; j <= y2; j++)
        for (i = x; i <= x2; i++) set[j * w + i] = 0;
      out[n].a.x = x;
      out[n].a.y = y;
      out[n].b.x = x2;
      out[n].b.y = y2;
      n++;
      x = x2;
    }
  }
  return (int)n;
}

int sgf_rect_encode(const sgf_board *b, const sgf_rect *r, char *out) {
  int rc;
  if (!board_ok(b) || !r || !out) return SGF_EINVAL;
  if (r->b.x < r->a.x || r->b.y < r->a.y) return SGF_ERANGE;
  rc = sgf_board_point_encode(b, r->a, out);
  if (rc < 0 || (r->a.x == r->b.x && r->a.y == r->b.y)) return rc;
  out[2] = ':';
  rc = sgf_board_point_encode(b, r->b, out + 3);
  return rc < 0 ? rc : 5;
}

/* The board-less forms (the cursor's coordinates): the codec above on
 * the largest board, where any two letters are a point ("tt" too) and
 * only the empty value is a pass. */
int sgf_point_encode(int x, int y, char out[2]) {
  const sgf_board b = {SGF_BOARD_MAX, SGF_BOARD_MAX};
  sgf_point pt;
  if (x == SGF_PASS || y == SGF_PASS) return 0;
  pt.x = x;
  pt.y = y;
  return sgf_board_point_encode(&b, pt, out);
}

int sgf_point_decode(const char *raw, size_t len, int *x, int *y) {
  const sgf_board b = {SGF_BOARD_MAX, SGF_BOARD_MAX};
  sgf_move m;
  int rc;
  if (!x || !y) return SGF_EINVAL;
  rc = sgf_move_decode(&b, raw, len, &m, NULL);
  if (rc < 0) return rc;
  *x = m.pass ? SGF_PASS : m.pt.x;
  *y = m.pass ? SGF_PASS : m.pt.y;
  return SGF_OK;
}
