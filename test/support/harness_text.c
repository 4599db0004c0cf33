/* harness_text.c - the checks of fuzz_unescape, also applied to every
 * value fuzz_reader sees (see harness.h): sgf_unescape() and the
 * streaming sgf_unescaper against each other and against a model of the
 * FF[4] rules written here, and the escaper (sgf_escape_text(),
 * sgf_escape_simple()) against its documented output, whole and in
 * pieces, and through sgf_unescape() back to the text.
 *
 * Every output buffer is a heap block of exactly the room the API
 * promises to need (len bytes for unescaping, 2 * len for escaping), so
 * a byte written past it is an AddressSanitizer report.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "harness_priv.h"

/* A heap block of n bytes (at least one, so malloc(0) is never asked). */
static char *block(size_t n) {
  char *p = malloc(n ? n : 1);
  if (p == NULL) abort();
  return p;
}

static int same(const char *a, size_t an, const char *b, size_t bn) {
  return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

/* The piece sizes: sizes[] cycled; a 0 is an empty piece, then one byte
 * (so the walk always moves on); no sizes at all: one byte a piece. */
typedef struct pieces {
  const uint8_t *sizes;
  size_t n, k;
  int empty_done;
} pieces;

static void pieces_init(pieces *p, const uint8_t *sizes, size_t n) {
  p->sizes = sizes;
  p->n = n;
  p->k = 0;
  p->empty_done = 0;
}

/* The length of the next piece when left bytes remain (may be 0). */
static size_t piece_next(pieces *p, size_t left) {
  size_t s;
  if (p->n == 0) return left ? 1 : 0;
  if (p->empty_done) {
    p->empty_done = 0;
    return left ? 1 : 0;
  }
  s = p->sizes[p->k++ % p->n];
  if (s == 0) p->empty_done = 1;
  return s < left ? s : left;
}

/* ------------------------------------------------------------------ */
/* Models                                                              */

/* FF[4] text: "\x" stands for x; a backslash and a line break (LF, CR,
 * CR LF, LF CR) are both removed. A backslash that ends the value escapes
 * nothing and is dropped. */
static size_t model_unescape(const char *raw, size_t len, char *out) {
  size_t i = 0, n = 0;
  while (i < len) {
    char c = raw[i];
    if (c != '\\') {
      out[n++] = c;
      i++;
      continue;
    }
    if (i + 1 == len) break;
    c = raw[i + 1];
    i += 2;
    if (c == '\r' || c == '\n') {
      if (i < len && (raw[i] == '\r' || raw[i] == '\n') && raw[i] != c) i++;
      continue;
    }
    out[n++] = c;
  }
  return n;
}

/* The escaper as writer.h documents it. simple: SimpleText (a line
 * break, LF, CR, CR LF or LF CR, becomes one space). */
static size_t model_escape(const char *text, size_t len, int compose,
                           int simple, char *out) {
  size_t i = 0, n = 0;
  while (i < len) {
    char c = text[i++];
    if (c == '\0') continue;
    if (simple && (c == '\r' || c == '\n')) {
      if (i < len && (text[i] == '\r' || text[i] == '\n') && text[i] != c) i++;
      out[n++] = ' ';
      continue;
    }
    if (c == ']' || c == '\\' || (compose && c == ':')) out[n++] = '\\';
    out[n++] = c;
  }
  return n;
}

/* What unescaping the escaper's output must give back: the text without
 * its NUL bytes (and, for SimpleText, with line breaks as spaces). */
static size_t model_text_back(const char *text, size_t len, int simple,
                              char *out) {
  size_t i = 0, n = 0;
  while (i < len) {
    char c = text[i++];
    if (c == '\0') continue;
    if (simple && (c == '\r' || c == '\n')) {
      if (i < len && (text[i] == '\r' || text[i] == '\n') && text[i] != c) i++;
      c = ' ';
    }
    out[n++] = c;
  }
  return n;
}

/* 1 if raw is a valid value (no unescaped ']', no lone final backslash)
 * and, with compose, has no unescaped ':' either. */
static int raw_valid(const char *raw, size_t len, int compose) {
  size_t i;
  for (i = 0; i < len; i++) {
    if (raw[i] == '\\') {
      if (++i == len) return 0;
    } else if (raw[i] == ']' || (compose && raw[i] == ':')) {
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* Unescaping                                                          */

const char *fz_unescape_check(const char *raw, size_t len, const uint8_t *sizes,
                              size_t nsizes) {
  char *whole = block(len), *model = block(len), *inplace = block(len);
  char *joined = block(len);
  size_t nw, nm, ni, nj = 0, pos = 0;
  sgf_unescaper u;
  pieces pc;
  const char *res = NULL;

  nw = sgf_unescape(raw, len, whole);
  nm = model_unescape(raw, len, model);
  if (nw > len) {
    res = fz_failf("unescape: %zu bytes out of %zu in", nw, len);
    goto done;
  }
  if (!same(whole, nw, model, nm)) {
    res = fz_failf(
        "unescape: %zu bytes, the FF[4] model %zu (input of %zu "
        "bytes)",
        nw, nm, len);
    goto done;
  }
  /* in place: out == raw */
  if (len) memcpy(inplace, raw, len);
  ni = sgf_unescape(inplace, len, inplace);
  if (!same(whole, nw, inplace, ni)) {
    res = fz_failf("unescape in place differs (%zu vs %zu bytes)", ni, nw);
    goto done;
  }
  /* streaming, in pieces; each piece writes into the last k bytes of a
   * block (a byte more is past its end) */
  sgf_unescaper_init(&u);
  pieces_init(&pc, sizes, nsizes);
  while (pos < len || pc.empty_done) {
    size_t k = piece_next(&pc, len - pos), got;
    char *out = inplace + len - k;
    got = sgf_unescaper_feed(&u, raw + pos, k, out);
    if (got > k) {
      res = fz_failf("unescaper: %zu bytes out of a %zu-byte piece", got, k);
      goto done;
    }
    if (got) memmove(joined + nj, out, got);
    nj += got;
    pos += k;
  }
  if (!same(whole, nw, joined, nj)) {
    res = fz_failf("unescaper in pieces: %zu bytes, whole %zu", nj, nw);
    goto done;
  }
  /* a zero-initialized unescaper works as well as an initialized one */
  {
    sgf_unescaper z;
    memset(&z, 0, sizeof z);
    nj = sgf_unescaper_feed(&z, raw, len, joined);
    if (!same(whole, nw, joined, nj))
      res = fz_failf("a zeroed unescaper differs from sgf_unescape()");
  }
  /* the text, escaped again, unescapes to itself */
  if (res == NULL) {
    res = fz_escape_check(whole, nw, sizes, nsizes);
    if (res != NULL) {
      char copy[700];
      snprintf(copy, sizeof copy, "%s", res);
      res = fz_failf("the unescaped value: %s", copy);
    }
  }
done:
  free(whole);
  free(model);
  free(inplace);
  free(joined);
  return res;
}

/* ------------------------------------------------------------------ */
/* Escaping                                                            */

/* Escape text (whole, then in pieces) with flags; check against the
 * model, then unescape back. */
static const char *escape_once(const char *text, size_t len, unsigned flags,
                               int simple, const uint8_t *sizes,
                               size_t nsizes) {
  int compose = (flags & SGF_ESCAPE_COMPOSE) != 0;
  char *esc = block(2 * len), *want = block(2 * len), *joined = block(2 * len);
  char *back = block(2 * len), *textback = block(len);
  size_t ne, nw, nj = 0, nb, nt, pos = 0;
  sgf_escaper e;
  pieces pc;
  const char *what = simple ? "sgf_escape_simple" : "sgf_escape_text";
  const char *res = NULL;

  sgf_escaper_init(&e, flags);
  ne = simple ? sgf_escape_simple(&e, text, len, esc)
              : sgf_escape_text(&e, text, len, esc);
  nw = model_escape(text, len, compose, simple, want);
  if (ne > 2 * len) {
    res = fz_failf("%s: %zu bytes for %zu of text", what, ne, len);
    goto done;
  }
  if (!same(esc, ne, want, nw)) {
    res = fz_failf("%s (flags %u): %zu bytes, documented %zu", what, flags, ne,
                   nw);
    goto done;
  }
  if (!raw_valid(esc, ne, compose)) {
    res =
        fz_failf("%s (flags %u): the output is not a valid value", what, flags);
    goto done;
  }
  /* pieces: the same bytes in total */
  sgf_escaper_init(&e, flags);
  pieces_init(&pc, sizes, nsizes);
  while (pos < len || pc.empty_done) {
    size_t k = piece_next(&pc, len - pos), got;
    char *out = back + 2 * (len - k); /* the last 2k bytes of a block */
    got = simple ? sgf_escape_simple(&e, text + pos, k, out)
                 : sgf_escape_text(&e, text + pos, k, out);
    if (got > 2 * k || nj + got > 2 * len) {
      res = fz_failf("%s: %zu bytes out of a %zu-byte piece", what, got, k);
      goto done;
    }
    if (got) memcpy(joined + nj, out, got);
    nj += got;
    pos += k;
  }
  if (!same(esc, ne, joined, nj)) {
    res = fz_failf("%s (flags %u) in pieces: %zu bytes, whole %zu", what, flags,
                   nj, ne);
    goto done;
  }
  /* and back */
  nb = sgf_unescape(esc, ne, back);
  nt = model_text_back(text, len, simple, textback);
  if (!same(back, nb, textback, nt))
    res = fz_failf(
        "%s (flags %u) then sgf_unescape: %zu bytes, the text "
        "has %zu",
        what, flags, nb, nt);
done:
  free(esc);
  free(want);
  free(joined);
  free(back);
  free(textback);
  return res;
}

const char *fz_escape_check(const char *text, size_t len, const uint8_t *sizes,
                            size_t nsizes) {
  static const unsigned flagset[3] = {0, SGF_ESCAPE_COMPOSE,
                                      SGF_ESCAPE_COMPOSE | SGF_ESCAPE_SIMPLE};
  size_t f;
  for (f = 0; f < 3; f++) {
    const char *res = escape_once(text, len, flagset[f], 0, sizes, nsizes);
    if (res == NULL && f < 2)
      res = escape_once(text, len, flagset[f], 1, sizes, nsizes);
    if (res != NULL) return res;
  }
  return NULL;
}

/* ------------------------------------------------------------------ */
/* fuzz_unescape                                                       */

const char *fz_check_unescape(const uint8_t *data, size_t size) {
  size_t n, h;
  const char *res;
  char *copy;
  if (size < 1) return NULL;
  n = data[0] & 7u;
  h = 1 + n;
  if (size < h) return NULL;
  /* a copy of its own size: a read past the end is caught */
  copy = block(size - h);
  if (size > h) memcpy(copy, data + h, size - h);
  res = fz_unescape_check(copy, size - h, data + 1, n);
  if (res == NULL) res = fz_escape_check(copy, size - h, data + 1, n);
  free(copy);
  return res;
}
