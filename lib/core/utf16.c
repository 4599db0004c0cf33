/* utf16.c - UTF-16 to UTF-8 in chunks, and the sniffing of an input's
 * first bytes (sgfstream/utf16.h). The parser uses both for
 * SGF_OPT_UTF16 (parser.c); libc only. */
#include <stdint.h>
#include <string.h>

#include "sgfstream.h"
#include "sgfstream/utf16.h"

int sgf_utf16_detect(const char *buf, size_t len, int at_end,
                     size_t *mark_len) {
  const unsigned char *u = (const unsigned char *)buf;
  /* how many bytes the answer needs; the answer once they are there */
  size_t need = 1;
  int order = SGF_UTF16_NONE;
  if (mark_len) *mark_len = 0;
  if (len == 0) return at_end ? SGF_UTF16_NONE : SGF_UTF16_UNDECIDED;
  switch (u[0]) {
    case 0xFE: /* FE FF */
      need = 2;
      if (len >= 2 && u[1] == 0xFF) order = SGF_UTF16_BE;
      break;
    case 0xFF: /* FF FE, not FF FE 00 00 (UTF-32LE) */
      need = 2;
      if (len < 2 || u[1] != 0xFE) break;
      need = 4; /* (fewer at the end: a mark, then a cut unit) */
      if (len < 4 || u[2] != 0 || u[3] != 0) order = SGF_UTF16_LE;
      break;
    case '(': /* "(" 00 X 00, X not 00 */
      need = (len >= 2 && u[1] != 0) ? 2 : (len >= 3 && u[2] == 0) ? 3 : 4;
      if (len >= 4 && u[1] == 0 && u[2] != 0 && u[3] == 0) order = SGF_UTF16_LE;
      break;
    case 0: /* 00 "(" 00 X, X not 00 */
      need = (len >= 2 && u[1] != '(') ? 2 : (len >= 3 && u[2] != 0) ? 3 : 4;
      if (len >= 4 && u[1] == '(' && u[2] == 0 && u[3] != 0)
        order = SGF_UTF16_BE;
      break;
    default:
      break;
  }
  if (len < need && !at_end) return SGF_UTF16_UNDECIDED;
  if (mark_len && order != SGF_UTF16_NONE && (u[0] == 0xFE || u[0] == 0xFF))
    *mark_len = 2;
  return order;
}

void sgf_utf16_decoder_init(sgf_utf16_decoder *d, int order) {
  memset(d, 0, sizeof *d);
  d->order = order == SGF_UTF16_BE ? SGF_UTF16_BE : SGF_UTF16_LE;
}

/* The code point c as UTF-8 at o; its length. */
static size_t put_utf8(unsigned long c, unsigned char *o) {
  if (c < 0x80) {
    o[0] = (unsigned char)c;
    return 1;
  }
  if (c < 0x800) {
    o[0] = (unsigned char)(0xC0 | (c >> 6));
    o[1] = (unsigned char)(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    o[0] = (unsigned char)(0xE0 | (c >> 12));
    o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    o[2] = (unsigned char)(0x80 | (c & 0x3F));
    return 3;
  }
  o[0] = (unsigned char)(0xF0 | (c >> 18));
  o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
  o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
  o[3] = (unsigned char)(0x80 | (c & 0x3F));
  return 4;
}

static size_t utf8_len(unsigned long c) {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
}

int sgf_utf16_decode(sgf_utf16_decoder *d, const char *in, size_t len,
                     size_t *used, char *out, size_t cap, size_t *written) {
  const unsigned char *s = (const unsigned char *)in, *end = s + len;
  unsigned char *o = (unsigned char *)out, *oend = o + cap;
  const int be = d->order == SGF_UTF16_BE;
  int rc = SGF_OK;
  *used = 0;
  *written = 0;
  if (d->failed) return SGF_ESYNTAX;
  while (s < end) {
    unsigned unit, b0, b1;
    unsigned long c;
    if (d->carry == 0 && end - s == 1) { /* a unit cut by the chunk's end */
      d->carry = 1u + *s++;
      d->fed++;
      break;
    }
    if (d->carry) {
      b0 = d->carry - 1u;
      b1 = *s;
    } else {
      b0 = s[0];
      b1 = s[1];
    }
    unit = be ? (b0 << 8 | b1) : (b1 << 8 | b0);
    if (unit >= 0xDC00 && unit <= 0xDFFF && d->high == 0) {
      d->error_offset = d->fed - (d->carry ? 1u : 0u);
      goto bad; /* a low surrogate alone */
    }
    if (d->high != 0 && !(unit >= 0xDC00 && unit <= 0xDFFF)) {
      d->error_offset = d->fed - (d->carry ? 3u : 2u);
      goto bad; /* the high one waiting stands alone */
    }
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      d->high = unit; /* the pair's first half: no output yet */
      c = 0;
    } else if (d->high != 0) {
      c = 0x10000ul + (((unsigned long)d->high - 0xD800u) << 10) +
          (unit - 0xDC00u);
    } else {
      c = unit;
    }
    if (c != 0 || d->high == 0) {
      if ((size_t)(oend - o) < utf8_len(c)) break; /* no room */
      o += put_utf8(c, o);
      d->high = 0;
    }
    if (d->carry) {
      d->carry = 0;
      s += 1;
      d->fed += 1;
    } else {
      s += 2;
      d->fed += 2;
    }
  }
  goto done;
bad:
  d->failed = 1;
  rc = SGF_ESYNTAX;
done:
  *used = (size_t)(s - (const unsigned char *)in);
  *written = (size_t)(o - (unsigned char *)out);
  return rc;
}

int sgf_utf16_decode_end(sgf_utf16_decoder *d) {
  if (d->failed) return SGF_ESYNTAX;
  if (d->carry || d->high) {
    d->error_offset = d->fed - (d->carry ? 1u : 0u) - (d->high ? 2u : 0u);
    d->failed = 1;
    return SGF_ESYNTAX;
  }
  return SGF_OK;
}
