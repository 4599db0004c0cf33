/* charset.c - text values to UTF-8 by the game's CA (sgfstream/charset.h).
 *
 * UTF-8 and ISO-8859-1, the two charsets nearly every file is in, are
 * checked and converted here without iconv; everything else goes through
 * glibc's iconv, one descriptor per charset kept open for the run (a
 * collection's games mostly share one CA, so a new game costs nothing).
 *
 * The guess scores each candidate charset by where its double-byte
 * characters fall: every CJK charset decodes much of the others' bytes
 * "cleanly" (GB18030 nearly all of them), so decoding alone cannot
 * decide; but each puts its common characters in known rows, and text in
 * charset A read as charset B lands mostly outside B's common rows.
 */
#include "value_priv.h"

#include <sgfstream/charset.h>

#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"

enum { CS_AUTO = 0, CS_UTF8, CS_LATIN1, CS_ICONV };
enum { G_EUCKR = 0, G_GB, G_BIG5, G_SJIS, G_N };

static const char *const guess_name[G_N] = {"EUC-KR", "GB18030", "BIG5",
                                            "SHIFT_JIS"};
/* What iconv is asked for: supersets of what the names promise. */
static const char *const guess_iconv[G_N] = {"CP949", "GB18030", "BIG5",
                                             "CP932"};

#define NAME_MAX_ 64
#define NCACHE 8

typedef struct cs_kind {
  int kind;             /* CS_* */
  iconv_t cd;           /* CS_ICONV */
  char name[NAME_MAX_]; /* as given (for sgf_charset_info) */
} cs_kind;

struct sgf_charset {
  sgf_allocator alloc;
  unsigned flags;
  int have_override;
  cs_kind over, ca;
  iconv_t guess_cd[G_N];
  struct {
    char name[NAME_MAX_]; /* iconv's name */
    iconv_t cd;
  } cache[NCACHE];
  int ncache;
  char *scratch;
  size_t scratch_cap;
};

void sgf_charset_options_init(sgf_charset_options *o) {
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
}

/* ------------------------------------------------------------ names */

static int upper(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }

static int name_is(const char *a, const char *b) {
  while (*a && *b && upper((unsigned char)*a) == *b) a++, b++;
  return *a == '\0' && *b == '\0';
}

static const char *const alias[][2] = {
    {"GB2312", "GB18030"},  {"GBK", "GB18030"},   {"CP936", "GB18030"},
    {"EUC-CN", "GB18030"},  {"EUCCN", "GB18030"}, {"SHIFT_JIS", "CP932"},
    {"SHIFT-JIS", "CP932"}, {"SJIS", "CP932"},    {"MS_KANJI", "CP932"},
    {"EUC-KR", "CP949"},    {"EUCKR", "CP949"},   {"X-SJIS", "CP932"},
};

static const char *const utf8_names[] = {"UTF-8", "UTF8"};
static const char *const latin1_names[] = {
    "ISO-8859-1", "ISO8859-1", "ISO_8859-1", "LATIN1",
    "LATIN-1",    "L1",        "ISO-IR-100", "CP819"};

static int in_list(const char *n, const char *const *list, size_t count) {
  size_t i;
  for (i = 0; i < count; i++)
    if (name_is(n, list[i])) return 1;
  return 0;
}

static iconv_t cached_open(sgf_charset *c, const char *iname) {
  iconv_t cd;
  int i;
  for (i = 0; i < c->ncache; i++)
    if (strcmp(c->cache[i].name, iname) == 0) return c->cache[i].cd;
  cd = iconv_open("UTF-8", iname);
  if (cd == (iconv_t)-1 || c->ncache == NCACHE)
    return cd; /* a ninth charset is opened each time it is set */
  strcpy(c->cache[c->ncache].name, iname);
  c->cache[c->ncache++].cd = cd;
  return cd;
}

static int is_cached(const sgf_charset *c, iconv_t cd) {
  int i;
  for (i = 0; i < c->ncache; i++)
    if (c->cache[i].cd == cd) return 1;
  return 0;
}

static void kind_clear(sgf_charset *c, cs_kind *k) {
  if (k->kind == CS_ICONV && !is_cached(c, k->cd)) iconv_close(k->cd);
  k->kind = CS_AUTO;
  k->name[0] = '\0';
}

/* Set k from a name (len bytes, blanks around it ignored). */
static int kind_set(sgf_charset *c, cs_kind *k, const char *s, size_t len) {
  const char *iname;
  size_t i;
  kind_clear(c, k);
  while (len > 0 && (*s == ' ' || *s == '\t')) s++, len--;
  while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t')) len--;
  if (len == 0 || len >= NAME_MAX_ || memchr(s, '\0', len) != NULL)
    return SGF_EINVAL;
  memcpy(k->name, s, len);
  k->name[len] = '\0';
  if (in_list(k->name, utf8_names, 2)) {
    k->kind = CS_UTF8;
    return 0;
  }
  if (in_list(k->name, latin1_names,
              sizeof latin1_names / sizeof *latin1_names)) {
    k->kind = CS_LATIN1;
    return 0;
  }
  iname = k->name;
  for (i = 0; i < sizeof alias / sizeof alias[0]; i++)
    if (name_is(k->name, alias[i][0])) iname = alias[i][1];
  k->cd = cached_open(c, iname);
  if (k->cd == (iconv_t)-1) {
    k->name[0] = '\0';
    return SGF_EINVAL;
  }
  k->kind = CS_ICONV;
  return 0;
}

sgf_charset *sgf_charset_create(const sgf_charset_options *o) {
  sgf_allocator a;
  sgf_charset *c;
  int i;
  if (o != NULL &&
      o->size < sizeof(size_t) + sizeof(unsigned) + sizeof(const char *) * 2)
    return NULL;
  sgf__allocator_init(&a, o ? o->allocator : NULL);
  c = sgf__malloc(&a, sizeof *c);
  if (c == NULL) return NULL;
  memset(c, 0, sizeof *c);
  c->alloc = a;
  c->flags = o ? o->flags : 0;
  for (i = 0; i < G_N; i++) c->guess_cd[i] = (iconv_t)-1;
  if (o != NULL && o->override != NULL) {
    if (kind_set(c, &c->over, o->override, strlen(o->override)) != 0) {
      sgf_charset_destroy(c);
      return NULL;
    }
    c->have_override = 1;
  }
  return c;
}

void sgf_charset_destroy(sgf_charset *c) {
  int i;
  if (c == NULL) return;
  kind_clear(c, &c->over);
  kind_clear(c, &c->ca);
  for (i = 0; i < G_N; i++)
    if (c->guess_cd[i] != (iconv_t)-1) iconv_close(c->guess_cd[i]);
  for (i = 0; i < c->ncache; i++) iconv_close(c->cache[i].cd);
  sgf__free(&c->alloc, c->scratch, c->scratch_cap);
  sgf__free(&c->alloc, c, sizeof *c);
}

void sgf_charset_reset(sgf_charset *c) { kind_clear(c, &c->ca); }

int sgf_charset_set_ca(sgf_charset *c, const char *name, size_t len) {
  if (c == NULL || (name == NULL && len > 0)) return SGF_EINVAL;
  return kind_set(c, &c->ca, name, len);
}

void sgf_charset_free(sgf_charset *c, char *buf, size_t cap) {
  sgf__free(&c->alloc, buf, cap);
}

/* ------------------------------------------------------------ UTF-8 */

/* The length of the ASCII bytes s begins with: eight at a time, as text
 * is mostly ASCII. */
static size_t ascii_prefix(const char *s, size_t len) {
  size_t i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (w & 0x8080808080808080u) break;
  }
  while (i < len && (unsigned char)s[i] < 0x80) i++;
  return i;
}

size_t sgf_utf8_valid(const char *s, size_t len) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0;
  while (i < len) {
    unsigned char b = u[i];
    size_t n, k;
    unsigned cp;
    if (b < 0x80) {
      i += ascii_prefix(s + i, len - i);
      continue;
    }
    if (b >= 0xC2 && b <= 0xDF)
      n = 1, cp = b & 0x1F;
    else if (b >= 0xE0 && b <= 0xEF)
      n = 2, cp = b & 0x0F;
    else if (b >= 0xF0 && b <= 0xF4)
      n = 3, cp = b & 0x07;
    else
      return i;
    if (len - i <= n) return i;
    for (k = 1; k <= n; k++) {
      if ((u[i + k] & 0xC0) != 0x80) return i;
      cp = cp << 6 | (u[i + k] & 0x3F);
    }
    /* overlong, surrogates, beyond U+10FFFF */
    if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += n + 1;
  }
  return len;
}

static int has_high(const char *s, size_t len) {
  return ascii_prefix(s, len) < len;
}

static size_t count_high(const char *s, size_t len) {
  size_t i, n = 0;
  for (i = 0; i < len; i++) n += (unsigned char)s[i] >= 0x80;
  return n;
}

/* ------------------------------------------------------------ output */

static int reserve(sgf_charset *c, char **out, size_t *cap, size_t need) {
  char *nb;
  size_t ncap;
  if (*cap >= need) return 0;
  ncap = *cap ? *cap : 256;
  while (ncap < need) ncap *= 2;
  nb = sgf__realloc(&c->alloc, *out, *cap, ncap);
  if (nb == NULL) return SGF_ENOMEM;
  *out = nb;
  *cap = ncap;
  return 0;
}

static int put_latin1(sgf_charset *c, const char *in, size_t len, char **out,
                      size_t *cap) {
  size_t i, n = 0;
  if (len > ((size_t)-1 - 16) / 2 || reserve(c, out, cap, 2 * len + 16))
    return SGF_ENOMEM;
  for (i = 0; i < len; i++) {
    unsigned char b = (unsigned char)in[i];
    if (b < 0x80) {
      (*out)[n++] = (char)b;
    } else {
      (*out)[n++] = (char)(0xC0 | b >> 6);
      (*out)[n++] = (char)(0x80 | (b & 0x3F));
    }
  }
  return (int)n;
}

static int put_copy(sgf_charset *c, const char *in, size_t len, char **out,
                    size_t *cap) {
  if (reserve(c, out, cap, len + 16)) return SGF_ENOMEM;
  if (len) memcpy(*out, in, len);
  return (int)len;
}

/* iconv into *out; SGF_ESYNTAX with *err_off for bytes that do not
 * decode (and for a sequence cut off at the end). */
static int put_iconv(sgf_charset *c, iconv_t cd, const char *in, size_t len,
                     char **out, size_t *cap, size_t *err_off) {
  char *ip = (char *)in, *op;
  size_t il = len, ol, done = 0, r;
  if (len > ((size_t)-1 - 64) / 4 || reserve(c, out, cap, 4 * len + 64))
    return SGF_ENOMEM;
  iconv(cd, NULL, NULL, NULL, NULL); /* the initial shift state */
  while (il > 0) {
    op = *out + done;
    ol = *cap - done;
    r = iconv(cd, &ip, &il, &op, &ol);
    done = (size_t)(op - *out);
    if (r != (size_t)-1) continue;
    if (errno == E2BIG) {
      if (reserve(c, out, cap, *cap * 2)) return SGF_ENOMEM;
      continue;
    }
    if (err_off != NULL) *err_off = (size_t)(ip - in);
    return SGF_ESYNTAX;
  }
  for (;;) { /* back to the initial state (ISO-2022-JP) */
    op = *out + done;
    ol = *cap - done;
    r = iconv(cd, NULL, NULL, &op, &ol);
    done = (size_t)(op - *out);
    if (r != (size_t)-1 || errno != E2BIG) break;
    if (reserve(c, out, cap, *cap * 2)) return SGF_ENOMEM;
  }
  return (int)done;
}

/* ------------------------------------------------------------ guessing */

/* Of the multibyte characters of s read as charset g, how many (of
 * *total) are in its common rows. */
static size_t common_chars(int g, const unsigned char *s, size_t len,
                           size_t *total) {
  size_t i = 0, common = 0, all = 0;
  while (i < len) {
    unsigned b = s[i], t = i + 1 < len ? s[i + 1] : 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    all++;
    switch (g) {
      case G_EUCKR: /* hangul syllables */
        common += b >= 0xB0 && b <= 0xC8;
        i += 2;
        break;
      case G_GB: /* GB2312 symbols, levels 1 and 2 */
        if (t >= 0x30 && t <= 0x39) {
          i += 4;
          break;
        }
        common += b >= 0xA1 && b <= 0xF7 && t >= 0xA1;
        i += 2;
        break;
      case G_BIG5: /* symbols and level 1 */
        common += b >= 0xA1 && b <= 0xC6;
        i += 2;
        break;
      default: /* Shift_JIS: symbols, kana, level 1 kanji; no half-width */
        if (b >= 0xA1 && b <= 0xDF) {
          i++;
          break;
        }
        common += b <= 0x83 || (b >= 0x88 && b <= 0x98);
        i += 2;
        break;
    }
  }
  *total = all;
  return common;
}

/* The best candidate for s, decoded into *out; -1 if none decodes. With
 * need_all, only one whose characters are all common counts. */
static int guess(sgf_charset *c, const char *in, size_t len, char **out,
                 size_t *cap, int need_all, int *n_out) {
  int g, best = -1, r;
  double best_score = -1.0;
  for (g = 0; g < G_N; g++) {
    size_t total, common, off;
    double score;
    if (c->guess_cd[g] == (iconv_t)-1)
      c->guess_cd[g] = iconv_open("UTF-8", guess_iconv[g]);
    if (c->guess_cd[g] == (iconv_t)-1) continue;
    r = put_iconv(c, c->guess_cd[g], in, len, &c->scratch, &c->scratch_cap,
                  &off);
    if (r < 0) continue;
    common = common_chars(g, (const unsigned char *)in, len, &total);
    score = total ? (double)common / (double)total : 0.0;
    if (need_all && common != total) continue;
    if (score > best_score) {
      best_score = score;
      best = g;
    }
  }
  if (best < 0) return -1;
  r = put_iconv(c, c->guess_cd[best], in, len, out, cap, NULL);
  if (r < 0) return -1;
  *n_out = r;
  return best;
}

/* ------------------------------------------------------------ convert */

static int convert_kind(sgf_charset *c, const cs_kind *k, const char *in,
                        size_t len, char **out, size_t *cap, size_t *err_off) {
  size_t v;
  switch (k->kind) {
    case CS_UTF8:
      v = sgf_utf8_valid(in, len);
      if (v != len) {
        *err_off = v;
        return SGF_ESYNTAX;
      }
      return put_copy(c, in, len, out, cap);
    case CS_LATIN1:
      return put_latin1(c, in, len, out, cap);
    default:
      return put_iconv(c, k->cd, in, len, out, cap, err_off);
  }
}

static int convert(sgf_charset *c, const char *in, size_t len, char **out,
                   size_t *cap, sgf_charset_info *info, size_t *err_off) {
  const cs_kind *k;
  size_t off = 0;
  int r, n = 0, g;
  info->guessed = 0;
  k = c->have_override ? &c->over : &c->ca;
  if (k->kind != CS_ICONV && !has_high(in, len)) {
    info->charset = k->kind == CS_AUTO ? "UTF-8" : k->name;
    return put_copy(c, in, len, out, cap); /* ASCII: the same everywhere */
  }
  if (k->kind == CS_AUTO) {
    if (sgf_utf8_valid(in, len) == len) {
      info->charset = "UTF-8";
      return put_copy(c, in, len, out, cap);
    }
    if ((c->flags & SGF_CS_GUESS) &&
        (g = guess(c, in, len, out, cap, 0, &n)) >= 0) {
      info->charset = guess_name[g];
      return n;
    }
    info->charset = "ISO-8859-1";
    return put_latin1(c, in, len, out, cap);
  }
  info->charset = k->name;
  if (k->kind == CS_LATIN1 && (c->flags & SGF_CS_GUESS)) {
    /* the CA many programs write whatever they write */
    if (sgf_utf8_valid(in, len) == len) {
      info->charset = "UTF-8";
      info->guessed = 1;
      return put_copy(c, in, len, out, cap);
    }
    if ((g = guess(c, in, len, out, cap, 1, &n)) >= 0) {
      info->charset = guess_name[g];
      info->guessed = 1;
      return n;
    }
  }
  r = convert_kind(c, k, in, len, out, cap, &off);
  if (r != SGF_ESYNTAX) return r;
  if (c->flags & SGF_CS_GUESS) {
    if (sgf_utf8_valid(in, len) == len) {
      info->charset = "UTF-8";
      info->guessed = 1;
      return put_copy(c, in, len, out, cap);
    }
    if ((g = guess(c, in, len, out, cap, 0, &n)) >= 0) {
      info->charset = guess_name[g];
      info->guessed = 1;
      return n;
    }
  }
  if (err_off != NULL) *err_off = off;
  r = put_latin1(c, in, len, out, cap);
  return r < 0 ? r : SGF_ESYNTAX;
}

int sgf_charset_convert(sgf_charset *c, const char *in, size_t len, char **out,
                        size_t *cap, sgf_charset_info *info, size_t *err_off) {
  sgf_charset_info dummy;
  int r;
  if (info == NULL) info = &dummy;
  info->charset = NULL;
  info->guessed = 0;
  info->len = 0;
  if (c == NULL || (in == NULL && len > 0) || out == NULL || cap == NULL ||
      len > (size_t)0x1fffffff)
    return SGF_EINVAL;
  r = convert(c, in, len, out, cap, info, err_off);
  if (r >= 0)
    info->len = (size_t)r;
  else if (r == SGF_ESYNTAX) /* the ISO-8859-1 form: 2 bytes a high byte */
    info->len = len + count_high(in, len);
  return r;
}

const char *sgf_charset_declared(const sgf_charset *c) {
  const cs_kind *k;
  if (c == NULL) return NULL;
  k = c->have_override ? &c->over : &c->ca;
  return k->kind == CS_AUTO ? NULL : k->name;
}

/* ------------------------------------------------------------ DBCS text */

enum { DB_NONE = 0, DB_SJIS, DB_OTHER };

static int dbcs_kind(const char *name) {
  static const char *const sjis[] = {"SHIFT_JIS", "SHIFT-JIS", "SJIS",
                                     "MS_KANJI",  "X-SJIS",    "CP932"};
  static const char *const other[] = {"GB18030", "GBK",       "GB2312",
                                      "CP936",   "BIG5",      "BIG-5",
                                      "CP950",   "BIG5-HKSCS"};
  if (name == NULL) return DB_NONE;
  if (in_list(name, sjis, sizeof sjis / sizeof *sjis)) return DB_SJIS;
  if (in_list(name, other, sizeof other / sizeof *other)) return DB_OTHER;
  return DB_NONE;
}

static int is_lead(int kind, unsigned char b) {
  if (kind == DB_SJIS)
    return (b >= 0x81 && b <= 0x9F) || (b >= 0xE0 && b <= 0xFC);
  return b >= 0x81 && b <= 0xFE;
}

size_t sgf_text_decode_dbcs(const char *raw, size_t len, char *out,
                            unsigned flags, const char *charset) {
  int kind = dbcs_kind(charset);
  sgf_text_decoder d;
  size_t i = 0, run = 0, n = 0;
  if (kind == DB_NONE) return sgf_text_decode(raw, len, out, flags);
  sgf_text_decoder_init(&d, flags);
  while (i < len) {
    if (!is_lead(kind, (unsigned char)raw[i]) || i + 1 == len) {
      i++;
      continue;
    }
    /* the run before and the lead byte through the FF[4] decoder (the
     * lead may be escaped; it leaves the decoder in its plain state),
     * the second byte as it is, or escaped: '\' then '\' or ']' (a ']'
     * in a value is escaped: after an unescaped second byte '\' it would
     * have closed the value, as the parser reads it) */
    n += sgf_text_decoder_feed(&d, raw + run, i + 1 - run, out + n);
    if (raw[i + 1] == '\\' && i + 2 < len &&
        (raw[i + 2] == '\\' || raw[i + 2] == ']')) {
      out[n++] = raw[i + 2];
      i += 3;
    } else {
      out[n++] = raw[i + 1];
      i += 2;
    }
    run = i;
  }
  n += sgf_text_decoder_feed(&d, raw + run, len - run, out + n);
  return n;
}
