/* filter_pred.c - `sgf filter`: the predicates on a game's root node.
 *
 * Text is compared as UTF-8: each value is FF[4]-decoded (SimpleText for
 * the game-info properties) and converted by the game's CA (sgf_charset),
 * as `sgf json` writes it. Names (--black, --white, --player, --event,
 * --rules, --rank) match as a substring with ASCII case ignored, --result
 * as a prefix with case ignored; --prop ID=TEXT exactly, ID:TEXT as a
 * substring (case kept), ID~REGEX by POSIX extended regular expressions
 * (regcomp, REG_EXTENDED | REG_NOSUB). A property with several values
 * matches when any value does. Dates follow FF[4]'s DT: a list of
 * partial dates, each an interval of days (filter.h: fdate_each).
 */
#define _POSIX_C_SOURCE 200809L

#include "filter.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ parsing */

static fpred *new_pred(fpreds *ps, const char *option, int kind) {
  fpred *p;
  if (ps->n == ps->cap) {
    size_t cap = ps->cap ? 2 * ps->cap : 8;
    fpred *np = realloc(ps->p, cap * sizeof *np);
    if (np == NULL) {
      fprintf(stderr, "sgf: filter: out of memory\n");
      return NULL;
    }
    ps->p = np;
    ps->cap = cap;
  }
  p = &ps->p[ps->n++];
  memset(p, 0, sizeof *p);
  p->kind = kind;
  p->option = option;
  return p;
}

static int bad(const char *option, const char *arg, const char *what) {
  fprintf(stderr,
          "sgf: filter: %s '%s': %s\n"
          "Try 'sgf filter --help'.\n",
          option, arg, what);
  return -1;
}

/* ids: one or two identifiers separated by a space. */
static void set_ids(fpred *p, const char *ids) {
  const char *sp = strchr(ids, ' ');
  size_t n = sp ? (size_t)(sp - ids) : strlen(ids);
  memcpy(p->ids[0], ids, n);
  p->ids[0][n] = '\0';
  p->nids = 1;
  if (sp) {
    strcpy(p->ids[1], sp + 1);
    p->nids = 2;
  }
}

int fpred_add_text(fpreds *ps, const char *option, const char *ids, int how,
                   const char *arg) {
  fpred *p;
  if (arg[0] == '\0') return bad(option, arg, "an empty text");
  p = new_pred(ps, option, FK_TEXT);
  if (p == NULL) return -1;
  set_ids(p, ids);
  p->how = how;
  p->text = arg;
  p->len = strlen(arg);
  return 0;
}

int fpred_add_prop(fpreds *ps, const char *arg) {
  size_t i = 0;
  fpred *p;
  while (arg[i] >= 'A' && arg[i] <= 'Z') i++;
  if (i == 0 || i > SGF_PROP_IDENT_MAX ||
      (arg[i] != '\0' && arg[i] != '=' && arg[i] != ':' && arg[i] != '~'))
    return bad("--prop", arg,
               "not ID, ID=TEXT, ID:TEXT or ID~REGEX (ID in capitals)");
  p = new_pred(ps, "--prop", FK_TEXT);
  if (p == NULL) return -1;
  memcpy(p->ids[0], arg, i);
  p->ids[0][i] = '\0';
  p->nids = 1;
  p->text = arg[i] ? arg + i + 1 : "";
  p->len = strlen(p->text);
  switch (arg[i]) {
    case '\0':
      p->how = FM_PRESENT;
      break;
    case '=':
      p->how = FM_EXACT;
      break;
    case ':':
      p->how = FM_SUBSTR;
      break;
    default: {
      int rc = regcomp(&p->re, p->text, REG_EXTENDED | REG_NOSUB);
      if (rc != 0) {
        char msg[200];
        regerror(rc, &p->re, msg, sizeof msg);
        ps->n--;
        return bad("--prop", arg, msg);
      }
      p->have_re = 1;
      p->how = FM_REGEX;
    }
  }
  return 0;
}

/* Digits at s: up to max of them, at least 1; the number, or -1. */
static int digits(const char *s, size_t len, size_t *at, int min, int max) {
  int v = 0, n = 0;
  while (*at < len && n < max && s[*at] >= '0' && s[*at] <= '9') {
    v = 10 * v + (s[*at] - '0');
    (*at)++;
    n++;
  }
  return n >= min ? v : -1;
}

static int is_sep(char c) { return c == '-' || c == '.' || c == '/'; }

/* A query date YYYY[-MM[-DD]]: its first and last day. */
static int query_date(const char *s, int32_t *from, int32_t *to) {
  size_t at = 0, len = strlen(s);
  int y = digits(s, len, &at, 4, 4), m = -1, d = -1;
  if (y < 0) return -1;
  if (at < len && is_sep(s[at])) {
    at++;
    m = digits(s, len, &at, 1, 2);
    if (m < 1 || m > 12) return -1;
    if (at < len && is_sep(s[at])) {
      at++;
      d = digits(s, len, &at, 1, 2);
      if (d < 1 || d > 31) return -1;
    }
  }
  if (at != len) return -1;
  *from = y * 10000 + (m < 0 ? 101 : m * 100 + (d < 0 ? 1 : d));
  *to = y * 10000 + (m < 0 ? 1231 : m * 100 + (d < 0 ? 31 : d));
  return 0;
}

int fpred_add_date(fpreds *ps, const char *option, const char *arg) {
  int32_t from, to;
  fpred *p;
  if (query_date(arg, &from, &to) != 0)
    return bad(option, arg, "not a date YYYY, YYYY-MM or YYYY-MM-DD");
  p = new_pred(ps, option, FK_DATE);
  if (p == NULL) return -1;
  p->from = INT32_MIN;
  p->to = INT32_MAX;
  if (strcmp(option, "--date-to") != 0) p->from = from;
  if (strcmp(option, "--date-from") != 0) p->to = to;
  return 0;
}

int fpred_add_number(fpreds *ps, const char *option, int kind,
                     const char *arg) {
  fpred p0;
  fpred *p;
  sgf_board b;
  size_t len = strlen(arg);
  memset(&p0, 0, sizeof p0);
  switch (kind) {
    case FK_KOMI:
      if (sgf_real_decode(arg, len, &p0.num, NULL) != 0)
        return bad(option, arg, "not a number (such as 6.5 or -0.5)");
      break;
    case FK_HANDICAP:
      if (sgf_number_decode(arg, len, &p0.n, NULL) != 0 || p0.n < 0)
        return bad(option, arg, "not a number of stones");
      break;
    default: /* FK_SIZE: 19, 19:13 or 19x13 */
    {
      char buf[16];
      size_t i;
      if (len >= sizeof buf) return bad(option, arg, "not a board size");
      for (i = 0; i <= len; i++) buf[i] = arg[i] == 'x' ? ':' : arg[i];
      if (sgf_board_decode(buf, len, &b, NULL) != 0)
        return bad(option, arg, "not a board size (19, or 19x13: 1 to 52)");
      p0.w = b.width;
      p0.h = b.height;
    }
  }
  p = new_pred(ps, option, kind);
  if (p == NULL) return -1;
  p->num = p0.num;
  p->n = p0.n;
  p->w = p0.w;
  p->h = p0.h;
  return 0;
}

void fpreds_free(fpreds *ps) {
  size_t i;
  for (i = 0; i < ps->n; i++)
    if (ps->p[i].have_re) regfree(&ps->p[i].re);
  free(ps->p);
  ps->p = NULL;
  ps->n = ps->cap = 0;
}

/* ------------------------------------------------------------ the root */

void froot_clear(froot *r) {
  r->rec.len = 0;
  sgf_board_init(&r->board);
}

int froot_prop(froot *r, const char *ident, size_t len) {
  unsigned char n = (unsigned char)(len > SGF_PROP_IDENT_MAX ? 0 : len);
  if (bytebuf_reserve(&r->rec, 2 + (size_t)n) != 0) return -1;
  r->rec.p[r->rec.len++] = 'P';
  r->rec.p[r->rec.len++] = (char)n;
  return bytebuf_try_add(&r->rec, ident, n);
}

int froot_value(froot *r, const char *raw, size_t len) {
  if (bytebuf_reserve(&r->rec, 1 + sizeof len + len) != 0) return -1;
  r->rec.p[r->rec.len++] = 'V';
  bytebuf_try_add(&r->rec, &len, sizeof len);
  return bytebuf_try_add(&r->rec, raw, len);
}

/* Steps through the records: the values of ident, *at 0 to start; 1 and
 * the value, or 0 at the end. */
static int next_value(const froot *r, const char *ident, size_t *at, int *in,
                      const char **s, size_t *len) {
  size_t idlen = strlen(ident);
  while (*at < r->rec.len) {
    const char *p = r->rec.p + *at;
    if (*p == 'P') {
      size_t n = (unsigned char)p[1];
      *in = n == idlen && memcmp(p + 2, ident, n) == 0;
      *at += 2 + n;
      continue;
    }
    memcpy(len, p + 1, sizeof *len);
    *s = p + 1 + sizeof *len;
    *at += 1 + sizeof *len + *len;
    if (*in) return 1;
  }
  return 0;
}

static int first_value(const froot *r, const char *ident, const char **s,
                       size_t *len) {
  size_t at = 0;
  int in = 0;
  return next_value(r, ident, &at, &in, s, len);
}

void froot_done(froot *r, ftext *t, int input_utf8) {
  const char *s;
  size_t len;
  sgf_board_init(&r->board);
  if (first_value(r, "SZ", &s, &len))
    sgf_board_decode(s, len, &r->board, NULL); /* else 19 x 19 */
  sgf_charset_reset(t->cs);
  if (input_utf8) {
    sgf_charset_set_ca(t->cs, "UTF-8", 5);
  } else if (first_value(r, "CA", &s, &len)) {
    t->dec.len = 0;
    if (bytebuf_reserve(&t->dec, len + 1) != 0) return;
    sgf_charset_set_ca(t->cs, t->dec.p,
                       sgf_text_decode(s, len, t->dec.p, SGF_TEXT_SIMPLE));
    /* a CA iconv does not know: the default applies (sgf json warns) */
  }
}

/* The UTF-8 text of one raw value in t->utf (NUL-terminated); -1 if
 * memory runs out. Text that does not decode in its charset is read as
 * ISO-8859-1, as sgf json writes it. */
static int to_utf8(ftext *t, const char *raw, size_t len, int simple) {
  sgf_charset_info info;
  size_t n, off;
  int k;
  t->dec.len = 0;
  t->utf.len = 0;
  if (bytebuf_reserve(&t->dec, len + 1) != 0) return -1;
  n = sgf_text_decode_dbcs(raw, len, t->dec.p, simple ? SGF_TEXT_SIMPLE : 0,
                           sgf_charset_declared(t->cs));
  k = sgf_charset_convert(t->cs, t->dec.p, n, &t->conv, &t->conv_cap, &info,
                          &off);
  if (k == SGF_ESYNTAX) k = (int)info.len; /* read as ISO-8859-1 */
  if (k < 0) return -1;
  if (bytebuf_try_add(&t->utf, t->conv, (size_t)k) != 0) return -1;
  if (t->utf.p == NULL && bytebuf_try_add(&t->utf, "", 1) == 0)
    t->utf.len = 0; /* an empty text: still a string */
  return 0;
}

int froot_each_text(const froot *r, ftext *t, const char *ident, int simple,
                    int (*fn)(void *ctx, const char *s, size_t len),
                    void *ctx) {
  size_t at = 0, len;
  int in = 0, rc;
  const char *s;
  while (next_value(r, ident, &at, &in, &s, &len)) {
    if (to_utf8(t, s, len, simple) != 0) continue;
    if ((rc = fn(ctx, t->utf.p, t->utf.len)) != 0) return rc;
  }
  return 0;
}

/* ------------------------------------------------------------ matching */

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int has_ci(const char *s, size_t len, const char *q, size_t qlen,
                  int prefix) {
  size_t i, j;
  if (qlen > len) return 0;
  for (i = 0; i + qlen <= len; i++) {
    for (j = 0; j < qlen; j++)
      if (lower((unsigned char)s[i + j]) != lower((unsigned char)q[j])) break;
    if (j == qlen) return 1;
    if (prefix) return 0;
  }
  return 0;
}

static int has(const char *s, size_t len, const char *q, size_t qlen) {
  size_t i;
  if (qlen == 0) return 1;
  for (i = 0; i + qlen <= len; i++) {
    const char *c = memchr(s + i, q[0], len - qlen + 1 - i);
    if (c == NULL) return 0;
    i = (size_t)(c - s);
    if (memcmp(c, q, qlen) == 0) return 1;
  }
  return 0;
}

/* Blanks around a name or a result are not part of it. */
static void trim(const char **s, size_t *len) {
  while (*len > 0 && isspace((unsigned char)**s)) (*s)++, (*len)--;
  while (*len > 0 && isspace((unsigned char)(*s)[*len - 1])) (*len)--;
}

static int text_matches(void *ctx, const char *s, size_t len) {
  const fpred *p = ctx;
  switch (p->how) {
    case FM_SUBSTR_CI:
      trim(&s, &len);
      return has_ci(s, len, p->text, p->len, 0);
    case FM_PREFIX_CI:
      trim(&s, &len);
      return has_ci(s, len, p->text, p->len, 1);
    case FM_EXACT:
      return len == p->len && memcmp(s, p->text, len) == 0;
    case FM_SUBSTR:
      return has(s, len, p->text, p->len);
    case FM_REGEX:
      return regexec(&p->re, s, 0, NULL, 0) == 0;
    default: /* FM_PRESENT */
      return 1;
  }
}

typedef struct date_ctx {
  const fpred *p;
  int hit;
} date_ctx;

static void date_overlaps(void *ctx, int32_t from, int32_t to) {
  date_ctx *c = ctx;
  if (from <= c->p->to && to >= c->p->from) c->hit = 1;
}

static int date_matches(void *ctx, const char *s, size_t len) {
  date_ctx c;
  c.p = ctx;
  c.hit = 0;
  fdate_each(s, len, date_overlaps, &c);
  return c.hit;
}

static int simple_text(const char *id) {
  const sgf_propdef *def = sgf_prop_lookup(NULL, id, strlen(id));
  return def == NULL || def->type != SGF_VT_TEXT;
}

static int pred_matches(const fpred *p, const froot *r, ftext *t) {
  const char *s;
  size_t len;
  int i;
  switch (p->kind) {
    case FK_TEXT:
      for (i = 0; i < p->nids; i++)
        if (froot_each_text(r, t, p->ids[i], simple_text(p->ids[i]),
                            text_matches, (void *)p))
          return 1;
      return 0;
    case FK_DATE:
      return froot_each_text(r, t, "DT", 1, date_matches, (void *)p);
    case FK_KOMI: {
      double k;
      return first_value(r, "KM", &s, &len) &&
             sgf_real_decode(s, len, &k, NULL) == 0 && fabs(k - p->num) < 1e-9;
    }
    case FK_HANDICAP: {
      int64_t n = 0; /* no HA: no handicap */
      if (first_value(r, "HA", &s, &len) &&
          sgf_number_decode(s, len, &n, NULL) != 0)
        return 0;
      return n == p->n;
    }
    default: /* FK_SIZE */
      return r->board.width == p->w && r->board.height == p->h;
  }
}

static int is_ident(const char *ident, size_t len, const char *id) {
  return strlen(id) == len && memcmp(ident, id, len) == 0;
}

int fpreds_wants(const fpreds *ps, const char *ident, size_t len) {
  static const char *const kind_id[] = {
      [FK_DATE] = "DT", [FK_KOMI] = "KM", [FK_HANDICAP] = "HA"};
  size_t i;
  int k;
  if (is_ident(ident, len, "SZ") || is_ident(ident, len, "CA")) return 1;
  for (i = 0; i < ps->n; i++) {
    const fpred *p = &ps->p[i];
    if (p->kind != FK_TEXT) {
      if (p->kind != FK_SIZE && is_ident(ident, len, kind_id[p->kind]))
        return 1;
      continue;
    }
    for (k = 0; k < p->nids; k++)
      if (is_ident(ident, len, p->ids[k])) return 1;
  }
  return 0;
}

int fpreds_match(const fpreds *ps, const froot *r, ftext *t) {
  size_t i;
  for (i = 0; i < ps->n; i++)
    if (!pred_matches(&ps->p[i], r, t)) return 0;
  return 1;
}

/* ------------------------------------------------------------ dates */

/* FF[4] DT: "YYYY-MM-DD", partial dates "YYYY-MM" and "YYYY", and lists
 * in which a later item may leave out what it shares with the one before:
 * "1996-05-06,07,08" (days), "1996-05,06" (months), "1996-05-06,11-12"
 * (a month and a day). An item of two digits is a day after a full date,
 * a month after a year and month. '.' and '/' are read as '-' (as real
 * files write them), and what follows an item's date ("2020-01-05
 * 10:00") is passed over. */
int fdate_each(const char *s, size_t len,
               void (*fn)(void *ctx, int32_t from, int32_t to), void *ctx) {
  size_t at = 0;
  int y = -1, m = -1, d = -1, found = 0;
  while (at < len) {
    size_t start;
    int a, b = -1, c = -1, ok = 1;
    while (at < len && (s[at] == ' ' || s[at] == ',')) at++;
    start = at;
    a = digits(s, len, &at, 1, 4);
    if (a >= 0 && at < len && is_sep(s[at])) {
      size_t k = at + 1;
      b = digits(s, len, &k, 1, 2);
      if (b >= 0) {
        at = k;
        if (at < len && is_sep(s[at])) {
          k = at + 1;
          c = digits(s, len, &k, 1, 2);
          if (c >= 0) at = k;
        }
      }
    }
    if (a < 0) {
      ok = 0;
    } else if (at - start >= 4 && a >= 1000) { /* YYYY[-MM[-DD]] */
      y = a;
      m = b;
      d = b >= 0 ? c : -1;
    } else if (y < 0) {
      ok = 0;
    } else if (b >= 0 && c < 0 && m >= 0) { /* MM-DD */
      m = a;
      d = b;
    } else if (b < 0 && d >= 0) { /* DD */
      d = a;
    } else if (b < 0 && m >= 0) { /* MM */
      m = a;
    } else {
      ok = 0;
    }
    if (ok && (m == 0 || m > 12 || d == 0 || d > 31)) ok = 0;
    if (ok) {
      int32_t base = y * 10000;
      if (m < 0)
        fn(ctx, base + 101, base + 1231);
      else if (d < 0)
        fn(ctx, base + m * 100 + 1, base + m * 100 + 31);
      else
        fn(ctx, base + m * 100 + d, base + m * 100 + d);
      found++;
    }
    /* the rest of the item */
    while (at < len && s[at] != ',') at++;
  }
  return found;
}
