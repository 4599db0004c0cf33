/* check_value.c - a value's checks: its type and range by the property
 * table (sgf_value_decode against the game's board), FF GM SZ and CA,
 * compressed point lists, and UTF-8 under CA[UTF-8].
 *
 * Non-text values are short: their pieces are gathered in a fixed
 * buffer (sgf_value_acc) and decoded when the last one arrives. Longer
 * values are decoded by their first SGF_VALUE_ACC_CAP bytes, which is
 * exact for text (always valid) and for the point of a label (LB), and
 * fails as it should for a point, move or number that long. UTF-8 is
 * checked byte by byte as the pieces come, with the position of each
 * byte counted from the value's '[' (lines end at LF, CR or CR LF, as
 * the parser counts them), so it does not depend on how the input was
 * split.
 */
#include <string.h>

#include "check_priv.h"

/* pos: of the byte b; becomes that of the byte after it. */
static void advance(sgf_pos *pos, int *cr, unsigned char b) {
  pos->offset++;
  if (b == '\n' && *cr) { /* the LF of CR LF: the line ended at the CR */
    *cr = 0;
    return;
  }
  *cr = b == '\r';
  if (b == '\n' || b == '\r') {
    pos->line++;
    pos->column = 1;
  } else {
    pos->column++;
  }
}

/* Where byte off of a value opened at open begins. */
static sgf_pos pos_in(sgf_pos open, const char *raw, size_t off) {
  sgf_pos pos = open;
  int cr = 0;
  size_t i;
  advance(&pos, &cr, '[');
  for (i = 0; i < off; i++) advance(&pos, &cr, (unsigned char)raw[i]);
  return pos;
}

void check__value_begin(sgf_checker *c) {
  c->next = c->val_pos;
  c->cr = 0;
  advance(&c->next, &c->cr, '[');
  c->need = 0;
  c->bad_utf8 = 0;
}

/* One byte of UTF-8: 0, or 1 if the sequence begun at c->lead is not
 * valid (RFC 3629: no overlong forms, no surrogates, up to U+10FFFF). */
static int utf8_step(sgf_checker *c, unsigned char b) {
  if (c->need) {
    if (b < c->lo || b > c->hi) return 1;
    c->need--;
    c->lo = 0x80;
    c->hi = 0xBF;
    return 0;
  }
  c->lead = c->next;
  c->lo = 0x80;
  c->hi = 0xBF;
  if (b < 0x80) return 0;
  if (b >= 0xC2 && b <= 0xDF) {
    c->need = 1;
  } else if (b >= 0xE0 && b <= 0xEF) {
    c->need = 2;
    if (b == 0xE0) c->lo = 0xA0;
    if (b == 0xED) c->hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    c->need = 3;
    if (b == 0xF0) c->lo = 0x90;
    if (b == 0xF4) c->hi = 0x8F;
  } else {
    return 1;
  }
  return 0;
}

static int utf8_piece(sgf_checker *c, sgf_parser *p, const char *at,
                      size_t len) {
  size_t i;
  for (i = 0; i < len; i++) {
    unsigned char b = (unsigned char)at[i];
    if (utf8_step(c, b)) {
      c->bad_utf8 = 1;
      return check__report(p, SGF_DIAG_BAD_UTF8, c->lead, NULL);
    }
    advance(&c->next, &c->cr, b);
  }
  return SGF_CONTINUE;
}

static int is_point(int t) {
  return t == SGF_VT_POINT || t == SGF_VT_STONE || t == SGF_VT_MOVE;
}

static int pointish(const sgf_propdef *def) {
  return is_point(def->type) || is_point(def->type2);
}

/* The value checked by its definition against the game's board. */
static int typed(sgf_checker *c, sgf_parser *p, const sgf_propdef *def,
                 sgf_pos open, const char *raw, size_t len) {
  size_t off = 0;
  int rc = sgf_value_decode(c->table, def, &c->board, raw, len, NULL, &off);
  if (rc == SGF_ESYNTAX || rc == SGF_ERANGE) {
    sgf_diag_code code = rc == SGF_ERANGE && pointish(def) ? SGF_DIAG_OFF_BOARD
                                                           : SGF_DIAG_BAD_VALUE;
    return check__report(p, code, pos_in(open, raw, off), NULL);
  }
  if (rc < 0) return SGF_CONTINUE;
  /* A compressed list's rectangle: FF[4] writes it upper left, lower
   * right, and never 1 x 1. */
  if (def->shape != SGF_VS_SINGLE && def->type2 == SGF_VT_UNKNOWN &&
      (def->type == SGF_VT_POINT || def->type == SGF_VT_STONE) && len > 2) {
    sgf_point_iter it;
    sgf_point_iter_init(&it, &c->board, raw, len, SGF_PTS_STRICT);
    if (sgf_point_iter_next(&it, NULL, &off) < 0)
      return check__report(p, SGF_DIAG_NOT_RECTANGLE, pos_in(open, raw, off),
                           NULL);
  }
  return SGF_CONTINUE;
}

static int blank(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* CA's value names UTF-8 ("UTF-8", "utf8", blanks around). */
static int names_utf8(const char *raw, size_t len) {
  static const char want[] = "UTF8";
  size_t i, j = 0;
  while (len && blank(raw[len - 1])) len--;
  for (i = 0; i < len && blank(raw[i]); i++) continue;
  for (; i < len; i++) {
    char ch = raw[i];
    if (ch == '-' && j == 3) continue;
    if (ch >= 'a' && ch <= 'z') ch = (char)(ch - 'a' + 'A');
    if (j >= 4 || ch != want[j]) return 0;
    j++;
  }
  return j == 4;
}

/* FF and GM: a number in lo..hi, else code; *n the number (0 if none). */
static int ranged(sgf_checker *c, sgf_parser *p, const char *raw, size_t len,
                  int64_t hi, sgf_diag_code code, int64_t *n) {
  size_t off = 0;
  int rc = sgf_number_decode(raw, len, n, &off);
  if (rc == SGF_ESYNTAX) {
    *n = 0;
    return check__report(p, SGF_DIAG_BAD_VALUE, pos_in(c->val_pos, raw, off),
                         NULL);
  }
  if (rc < 0 || *n < 1 || *n > hi) {
    *n = 0;
    return check__report(p, code, pos_in(c->val_pos, raw, 0), NULL);
  }
  return SGF_CONTINUE;
}

/* The root properties whose values set the game's rules. */
static int root_value(sgf_checker *c, sgf_parser *p, const char *raw,
                      size_t len) {
  int first = c->in_root && c->nvalues == 1;
  int64_t n = 0;
  int act = SGF_CONTINUE;
  size_t off = 0;
  sgf_board b;
  switch (c->def->id) {
    case SGF_PROP_FF:
      return ranged(c, p, raw, len, 4, SGF_DIAG_UNKNOWN_FF, &n);
    case SGF_PROP_GM:
      act = ranged(c, p, raw, len, 40, SGF_DIAG_UNKNOWN_GM, &n);
      if (first && !c->gm_seen && n) c->gm = n;
      if (first) c->gm_seen = 1;
      return act;
    case SGF_PROP_CA:
      if (first && !c->ca_seen) c->utf8 = names_utf8(raw, len);
      if (first) c->ca_seen = 1;
      return act;
    default: /* SZ */
      if (c->gm != 1) return typed(c, p, c->def, c->val_pos, raw, len);
      switch (sgf_board_decode(raw, len, &b, &off)) {
        case 0:
          if (first && !c->sz_seen) c->board = b;
          if (first) c->sz_seen = 1;
          return act;
        case SGF_ERANGE:
          return check__report(p, SGF_DIAG_SZ_RANGE,
                               pos_in(c->val_pos, raw, off), NULL);
        default:
          return check__report(p, SGF_DIAG_BAD_VALUE,
                               pos_in(c->val_pos, raw, off), NULL);
      }
  }
}

static int whole(sgf_checker *c, sgf_parser *p, const char *raw, size_t len) {
  const sgf_propdef *def = c->def;
  switch (def->id) {
    case SGF_PROP_FF:
    case SGF_PROP_GM:
    case SGF_PROP_CA:
    case SGF_PROP_SZ:
      return root_value(c, p, raw, len);
    case SGF_PROP_AP:
      /* name:version, but many writers give the name alone (Kombilo,
       * GoGui, Fox's foxwq): both parts are text, so nothing else can be
       * wrong with it. */
      return SGF_CONTINUE;
    default:
      break;
  }
  /* Text is always valid (its UTF-8 is checked as it comes): nothing to
   * decode. */
  if ((def->type == SGF_VT_TEXT || def->type == SGF_VT_SIMPLETEXT) &&
      def->type2 == SGF_VT_UNKNOWN)
    return SGF_CONTINUE;
  if (pointish(def)) {
    /* In the root node SZ may come after the points: hold them until
     * the node ends. */
    if (c->in_root && !c->sz_seen && len <= CHECK_PENDING_RAW &&
        c->npending < CHECK_PENDING_MAX) {
      check_pending *h = &c->pending[c->npending++];
      h->def = def;
      h->pos = c->val_pos;
      h->len = len;
      if (len) memcpy(h->raw, raw, len);
      return SGF_CONTINUE;
    }
    if (c->gm != 1) return SGF_CONTINUE;
  }
  return typed(c, p, def, c->val_pos, raw, len);
}

int check__value(sgf_checker *c, sgf_parser *p, const char *at, size_t len,
                 unsigned flags) {
  const char *raw = NULL;
  size_t rawlen = 0;
  int rc, act = SGF_CONTINUE;
  if (c->utf8 && !c->bad_utf8) {
    act = utf8_piece(c, p, at, len);
    if (act != SGF_CONTINUE) return act;
  }
  rc = sgf_value_acc_piece(&c->acc, at, len, flags, &raw, &rawlen);
  if (rc == 0) return act;
  if (rc == SGF_ERANGE) {
    raw = c->acc.buf;
    rawlen = SGF_VALUE_ACC_CAP;
  } else if (rc < 0) {
    return act;
  }
  if (c->utf8 && !c->bad_utf8 && c->need) {
    c->bad_utf8 = 1; /* the value ended inside a sequence */
    act = check__report(p, SGF_DIAG_BAD_UTF8, c->lead, NULL);
    if (act != SGF_CONTINUE) return act;
  }
  if (!c->def) return act;
  return whole(c, p, raw, rawlen);
}

int check__pending(sgf_checker *c, sgf_parser *p) {
  size_t i, n = c->npending;
  int act = SGF_CONTINUE;
  c->npending = 0;
  if (c->gm != 1) return act;
  for (i = 0; i < n && act == SGF_CONTINUE; i++) {
    const check_pending *h = &c->pending[i];
    act = typed(c, p, h->def, h->pos, h->raw, h->len);
  }
  return act;
}
