/* harness_charset.c - fuzz_charset's checks (harness.h): random bytes
 * through every path of sgfstream/charset.h, and through the tools'
 * UTF-16 decoder (sgfstream/utf16.h), piece by piece against whole.
 *
 * sgf_charset_convert() has no streaming form, so "split anywhere" is
 * checked where the answer is known from the whole: text declared
 * ISO-8859-1 converts byte by byte, so any split converts to the same
 * bytes; valid UTF-8 declared UTF-8 splits at any character boundary.
 * The streaming text decoder and the UTF-16 converter take pieces of
 * any size, and must give exactly what the whole gives. Every output is
 * valid UTF-8; a decode error means the ISO-8859-1 reading, never a
 * replacement; the same input gives the same answer with the buffer
 * reused and with a fresh converter.
 */
#include <stdlib.h>
#include <string.h>

#include <sgfstream/charset.h>

#include "harness.h"
#include "harness_priv.h"

/* The charsets tried: none, the FF[4] default and what files declare,
 * the double-byte ones and their aliases, single-byte ones, one iconv
 * does not know. */
static const char *const names[] = {
    NULL,       "UTF-8",       "ISO-8859-1", "Shift_JIS", "GB2312", "GBK",
    "GB18030",  "Big5",        "EUC-KR",     "CP1252",    "EUC-JP", "KOI8-R",
    "UTF-16LE", "no-such-set", "utf8",       "latin1"};
#define NNAMES (sizeof names / sizeof names[0])

/* Each byte one code point: the reading a decode error falls back to. */
static void latin1(const char *in, size_t len, bytebuf *b) {
  size_t i;
  bytebuf_clear(b);
  for (i = 0; i < len; i++) {
    unsigned char c = (unsigned char)in[i];
    if (c < 0x80) {
      bytebuf_add(b, &in[i], 1);
    } else {
      char two[2];
      two[0] = (char)(0xC0 | c >> 6);
      two[1] = (char)(0x80 | (c & 0x3F));
      bytebuf_add(b, two, 2);
    }
  }
}

static int eq(const char *a, size_t alen, const char *b, size_t blen) {
  return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

static int is_name(const char *n, const char *a, const char *b) {
  return n != NULL && (strcmp(n, a) == 0 || (b && strcmp(n, b) == 0));
}

typedef struct conv_result {
  int r;
  size_t len, off;
  const char *out;
} conv_result;

/* A converter for name (as the CA, or as the override), reset and given
 * the CA as a game would be. NULL if create refused. */
static sgf_charset *open_cs(const char *name, int override, unsigned flags,
                            int *ca_rc) {
  sgf_charset_options o;
  sgf_charset *cs;
  sgf_charset_options_init(&o);
  o.flags = flags;
  if (override) o.override = name;
  cs = sgf_charset_create(&o);
  *ca_rc = 0;
  if (cs != NULL && !override && name != NULL)
    *ca_rc = sgf_charset_set_ca(cs, name, strlen(name));
  return cs;
}

static int convert(sgf_charset *cs, const char *in, size_t len, char **out,
                   size_t *cap, conv_result *res, sgf_charset_info *info) {
  res->off = (size_t)-1;
  res->r = sgf_charset_convert(cs, in, len, out, cap, info, &res->off);
  res->len = info->len;
  res->out = *out;
  return res->r;
}

/* sgf_charset_convert and friends on text. */
static const char *check_convert(const uint8_t *h, const char *text,
                                 size_t len) {
  const char *name = names[h[0] % NNAMES];
  int override = name != NULL && (h[1] & 2);
  unsigned flags = (h[1] & 1) ? SGF_CS_GUESS : 0;
  int known = !is_name(name, "no-such-set", NULL), ca_rc;
  sgf_charset *cs = open_cs(name, override, flags, &ca_rc), *fresh;
  sgf_charset_info info, info2;
  conv_result a, b;
  char *out = NULL, *out2 = NULL;
  size_t cap = 0, cap2 = 0;
  const char *err = NULL;
  bytebuf l1;
  int utf8 = sgf_utf8_valid(text, len) == len;
  if (override && !known) /* an override iconv does not know: refused */
    return cs == NULL ? NULL : fz_failf("charset: override %s accepted", name);
  if (cs == NULL) return fz_failf("charset: create failed (%s)", name);
  if (name != NULL && !override && (ca_rc == 0) != known) {
    sgf_charset_destroy(cs);
    return fz_failf("charset: set_ca(%s) gave %d", name, ca_rc);
  }
  if (name != NULL && known &&
      (sgf_charset_declared(cs) == NULL ||
       strcmp(sgf_charset_declared(cs), name) != 0)) {
    sgf_charset_destroy(cs);
    return fz_failf("charset: declared is not %s", name);
  }
  bytebuf_init(&l1);
  latin1(text, len, &l1);
  convert(cs, text, len, &out, &cap, &a, &info);
  if (a.r < 0 && a.r != SGF_ESYNTAX) {
    err = fz_failf("charset %s: convert gave %d", name ? name : "-", a.r);
  } else if (a.r >= 0 && (size_t)a.r != a.len) {
    err = fz_failf("charset: %d bytes returned, info.len %zu", a.r, a.len);
  } else if (info.charset == NULL) {
    err = fz_failf("charset: info.charset NULL");
  } else if (sgf_utf8_valid(a.out, a.len) != a.len) {
    err = fz_failf("charset %s (read as %s): output not UTF-8",
                   name ? name : "-", info.charset);
  } else if (a.r == SGF_ESYNTAX &&
             (a.off >= len || !eq(a.out, a.len, l1.p, l1.len))) {
    err = fz_failf(
        "charset %s: decode error at %zu of %zu without the "
        "ISO-8859-1 reading",
        info.charset, a.off, len);
  } else if (is_name(name, "UTF-8", "utf8") && known && utf8 &&
             !eq(a.out, a.len, text, len)) {
    err = fz_failf("charset: valid UTF-8 declared UTF-8 changed");
  } else if ((name == NULL || !known) && !flags &&
             (a.r < 0 ||
              !eq(a.out, a.len, utf8 ? text : l1.p, utf8 ? len : l1.len))) {
    err = fz_failf(
        "charset: no CA (or one iconv does not know): not the "
        "FF[4] default reading");
  } else if (is_name(name, "ISO-8859-1", "latin1") && !flags &&
             (a.r < 0 || !eq(a.out, a.len, l1.p, l1.len))) {
    err = fz_failf("charset: ISO-8859-1 not read byte by byte");
  }
  /* the same game again, into the grown buffer; then a fresh converter */
  if (err == NULL) {
    sgf_charset_reset(cs);
    if (!override && name != NULL) sgf_charset_set_ca(cs, name, strlen(name));
    convert(cs, text, len, &out2, &cap2, &b, &info2);
    if (b.r != a.r || !eq(b.out, b.len, a.out, a.len) ||
        (a.r < 0 && b.off != a.off))
      err = fz_failf("charset: a second conversion differs");
    /* into out, as grown by the first one */
    if (err == NULL) {
      convert(cs, text, len, &out, &cap, &b, &info2);
      if (b.r != a.r || !eq(b.out, b.len, out2, a.len))
        err = fz_failf("charset: conversion into a reused buffer differs");
    }
  }
  if (err == NULL) {
    int rc;
    fresh = open_cs(name, override, flags, &rc);
    if (fresh == NULL) {
      err = fz_failf("charset: second create failed");
    } else {
      char *o3 = NULL;
      size_t c3 = 0;
      convert(fresh, text, len, &o3, &c3, &b, &info2);
      if (b.r != a.r || !eq(b.out, b.len, out2, a.len))
        err = fz_failf("charset: a fresh converter differs");
      sgf_charset_free(fresh, o3, c3);
      sgf_charset_destroy(fresh);
    }
  }
  /* split anywhere where the whole tells the answer */
  if (err == NULL && !flags && a.r >= 0 &&
      (is_name(name, "ISO-8859-1", "latin1") ||
       (is_name(name, "UTF-8", "utf8") && known && utf8))) {
    size_t s = len ? (size_t)h[2] * len / 255 : 0, n1;
    bytebuf got;
    if (is_name(name, "UTF-8", "utf8"))
      while (s > 0 && s < len && ((unsigned char)text[s] & 0xC0) == 0x80) s--;
    bytebuf_init(&got);
    convert(cs, text, s, &out2, &cap2, &b, &info2);
    n1 = b.len;
    bytebuf_add(&got, out2, n1);
    convert(cs, text + s, len - s, &out2, &cap2, &b, &info2);
    bytebuf_add(&got, out2, b.len);
    if (!eq(got.p, got.len, a.out, a.len))
      err = fz_failf("charset %s: split at %zu of %zu differs from whole", name,
                     s, len);
    bytebuf_free(&got);
  }
  sgf_charset_free(cs, out, cap);
  sgf_charset_free(cs, out2, cap2);
  sgf_charset_destroy(cs);
  bytebuf_free(&l1);
  return err;
}

/* FF[4] text decoding: double-byte aware for a charset name, streaming in
 * pieces, in place. */
static const char *check_text(const uint8_t *h, const char *text, size_t len) {
  const char *name = names[h[0] % NNAMES];
  unsigned tflags = (h[1] & 4) ? SGF_TEXT_SIMPLE : 0;
  size_t piece = (size_t)(h[3] % 16) + 1, at, n, whole, dn, sn = 0;
  char *w = malloc(len + 1), *d = malloc(len + 1), *st = malloc(len + 1);
  char *ip = malloc(len + 1);
  const char *err = NULL;
  int dbcs = is_name(name, "Shift_JIS", "GB2312") ||
             is_name(name, "GBK", "GB18030") || is_name(name, "Big5", NULL);
  sgf_text_decoder dec;
  if (!w || !d || !st || !ip) {
    err = fz_failf("text: out of memory");
    goto out;
  }
  whole = sgf_text_decode(text, len, w, tflags);
  dn = sgf_text_decode_dbcs(text, len, d, tflags, name);
  if (whole > len || dn > len) {
    err = fz_failf("text: decoded longer than the input");
  } else if (!dbcs && !eq(d, dn, w, whole)) {
    err = fz_failf("text: %s decodes otherwise than sgf_text_decode",
                   name ? name : "no charset");
  }
  /* in place */
  if (err == NULL) {
    if (len) memcpy(ip, text, len);
    n = sgf_text_decode_dbcs(ip, len, ip, tflags, name);
    if (!eq(ip, n, d, dn)) err = fz_failf("text: in place differs (%s)", name);
  }
  /* the streaming decoder in pieces, the first split at h[2] */
  if (err == NULL) {
    size_t first = len ? (size_t)h[2] * len / 255 : 0;
    sgf_text_decoder_init(&dec, tflags);
    sn = sgf_text_decoder_feed(&dec, text, first, st);
    for (at = first; at < len; at += n) {
      n = len - at < piece ? len - at : piece;
      sn += sgf_text_decoder_feed(&dec, text + at, n, st + sn);
    }
    if (!eq(st, sn, w, whole))
      err = fz_failf("text: decoded in pieces of %zu (first %zu) differs",
                     piece, first);
  }
out:
  free(w);
  free(d);
  free(st);
  free(ip);
  return err;
}

/* The library's UTF-16 decoder (sgfstream/utf16.h): pieces against
 * whole, into an output of a few bytes (the piece size + 3: every call
 * must go on until its input is used). */
static int feed16(sgf_utf16_decoder *d, const char *in, size_t n, size_t cap,
                  bytebuf *out) {
  char o[32];
  while (n > 0) {
    size_t u, w;
    int rc = sgf_utf16_decode(d, in, n, &u, o, cap, &w);
    bytebuf_add(out, o, w);
    if (rc != SGF_OK) return rc;
    if (u == 0 && w == 0) return -100; /* no progress */
    in += u;
    n -= u;
  }
  return SGF_OK;
}

static const char *run16(int order, const char *in, size_t len, size_t first,
                         size_t piece, bytebuf *out, int *rc, uint64_t *off) {
  sgf_utf16_decoder d;
  size_t at, n;
  sgf_utf16_decoder_init(&d, order);
  bytebuf_clear(out);
  *off = 0;
  if (first > len) first = len;
  *rc = feed16(&d, in, first, piece + 3, out);
  for (at = first; *rc == 0 && at < len; at += n) {
    n = len - at < piece ? len - at : piece;
    *rc = feed16(&d, in + at, n, piece + 3, out);
  }
  if (*rc == 0) *rc = sgf_utf16_decode_end(&d);
  if (*rc != 0) *off = d.error_offset;
  return NULL;
}

static const char *check_utf16(const uint8_t *h, const char *text, size_t len) {
  int order = (h[1] & 8) ? SGF_UTF16_BE : SGF_UTF16_LE, rw, rp;
  size_t piece = (size_t)(h[3] % 16) + 1;
  size_t first = len ? (size_t)h[2] * len / 255 : 0;
  uint64_t ow, op;
  bytebuf w, p;
  const char *err;
  bytebuf_init(&w);
  bytebuf_init(&p);
  err = run16(order, text, len, len, 1, &w, &rw, &ow);
  if (err == NULL) err = run16(order, text, len, first, piece, &p, &rp, &op);
  if (err == NULL &&
      (rw != rp || !eq(w.p, w.len, p.p, p.len) || (rw != 0 && ow != op)))
    err = fz_failf(
        "utf16: pieces of %zu (first %zu) differ from whole: "
        "%d/%d, %zu/%zu bytes, error at %llu/%llu",
        piece, first, rw, rp, w.len, p.len, (unsigned long long)ow,
        (unsigned long long)op);
  if (err == NULL && rw != 0 && rw != SGF_ESYNTAX)
    err = fz_failf("utf16: status %d", rw);
  if (err == NULL && rw != 0 && ow >= len + (len & 1))
    err = fz_failf("utf16: error offset %llu of %zu", (unsigned long long)ow,
                   len);
  if (err == NULL && sgf_utf8_valid(w.p, w.len) != w.len)
    err = fz_failf("utf16: output not UTF-8");
  /* valid UTF-16 gives 1 to 3 bytes of UTF-8 per 2 input bytes */
  if (err == NULL && rw == 0 && (len % 2 != 0 || w.len > len / 2 * 3))
    err = fz_failf("utf16: %zu bytes read whole as %zu", len, w.len);
  bytebuf_free(&w);
  bytebuf_free(&p);
  return err;
}

const char *fz_check_charset(const uint8_t *data, size_t size) {
  const char *text, *err;
  char *copy;
  size_t len;
  if (size < 4) return NULL;
  len = size - 4;
  /* a block of exactly its size: a read past the end is caught */
  copy = malloc(len ? len : 1);
  if (copy == NULL) return fz_failf("charset: out of memory");
  if (len) memcpy(copy, data + 4, len);
  text = copy;
  err = check_convert(data, text, len);
  if (err == NULL) err = check_text(data, text, len);
  if (err == NULL) err = check_utf16(data, text, len);
  free(copy);
  return err;
}
