/* value_text.c - Text and SimpleText per FF[4], both ways.
 *
 * FF[4] (section "Text"): a backslash makes the next byte literal, except
 * that whitespace stays whitespace; a backslash before a line break is a
 * soft line break and is removed with it; whitespace other than line
 * breaks becomes a space; in SimpleText line breaks become spaces too. A
 * line break is LF, CR, CR LF or LF CR (one break, not two). Text keeps
 * its hard line breaks as written (CR LF stays CR LF): FF[4] says to keep
 * them, not to rewrite them.
 *
 * The decoder is a small state machine so that a value may arrive in
 * pieces split anywhere, also between a backslash and what it escapes or
 * inside a CR LF pair.
 */
#include "value_priv.h"

#include <stdint.h>
#include <string.h>

enum {
  T_PLAIN = 0,
  T_ESC,     /* after a backslash */
  T_SOFT_CR, /* after a soft break's CR: an LF belongs to it */
  T_SOFT_LF, /* after a soft break's LF: a CR belongs to it */
  T_HARD_CR, /* SimpleText, after a hard CR: an LF belongs to it */
  T_HARD_LF  /* SimpleText, after a hard LF: a CR belongs to it */
};

void sgf_text_decoder_init(sgf_text_decoder *d, unsigned flags) {
  d->flags = flags;
  d->state = T_PLAIN;
}

static int is_blank(char c) { return c == '\t' || c == '\v' || c == '\f'; }

/* Whether any of the 8 bytes at s is at most '\r' or a backslash (the
 * word-at-a-time tests of "Bit Twiddling Hacks": a byte below n, or 0
 * after the xor, sets its high bit, bytes >= 0x80 taken out by ~x). */
static int special8(const char *s) {
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  uint64_t x, b;
  memcpy(&x, s, 8);
  b = x ^ (ones * '\\');
  return (((x - ones * ('\r' + 1)) | (b - ones)) & ~x & high) != 0;
}

size_t sgf_text_decoder_feed(sgf_text_decoder *d, const char *raw, size_t len,
                             char *out) {
  size_t i, n = 0;
  int st = d->state;
  int simple = (d->flags & SGF_TEXT_SIMPLE) != 0;
  int blank = (d->flags & SGF_TEXT_RAW) ? 0 : ' '; /* a blank's byte */
  for (i = 0; i < len; i++) {
    char c;
    if (st == T_PLAIN) {
      /* most text: a run of bytes that are themselves (not a backslash,
       * not whitespace other than the space), copied in one piece */
      size_t run = i;
      while (len - i >= 8 && !special8(raw + i)) i += 8;
      while (i < len && (unsigned char)raw[i] > '\r' && raw[i] != '\\') i++;
      if (i > run) {
        memmove(out + n, raw + run, i - run); /* in place: out <= raw */
        n += i - run;
        if (i == len) break;
      }
    }
    c = raw[i];
    switch (st) {
      case T_SOFT_CR:
      case T_HARD_CR:
      case T_SOFT_LF:
      case T_HARD_LF: {
        char partner = (st == T_SOFT_CR || st == T_HARD_CR) ? '\n' : '\r';
        st = T_PLAIN;
        if (c == partner) continue; /* the second byte of the same break */
        break;
      }
      case T_ESC:
        st = T_PLAIN;
        if (c == '\r') {
          st = T_SOFT_CR;
        } else if (c == '\n') {
          st = T_SOFT_LF;
        } else {
          out[n++] = is_blank(c) && blank ? (char)blank : c;
        }
        continue;
      default:
        break;
    }
    if (c == '\\') {
      st = T_ESC;
    } else if (is_blank(c)) {
      out[n++] = blank ? (char)blank : c;
    } else if (simple && (c == '\r' || c == '\n')) {
      out[n++] = ' ';
      st = c == '\r' ? T_HARD_CR : T_HARD_LF;
    } else {
      out[n++] = c;
    }
  }
  d->state = st;
  return n;
}

size_t sgf_text_decode(const char *raw, size_t len, char *out, unsigned flags) {
  sgf_text_decoder d;
  sgf_text_decoder_init(&d, flags);
  return sgf_text_decoder_feed(&d, raw, len, out);
}

/* sgf_unescape and sgf_unescaper: the decoder with SGF_TEXT_RAW (ONE
 * HOME in value.h). */
void sgf_unescaper_init(sgf_unescaper *u) { u->state = T_PLAIN; }

size_t sgf_unescaper_feed(sgf_unescaper *u, const char *raw, size_t len,
                          char *out) {
  sgf_text_decoder d;
  size_t n;
  d.flags = SGF_TEXT_RAW;
  d.state = u->state;
  n = sgf_text_decoder_feed(&d, raw, len, out);
  u->state = d.state;
  return n;
}

size_t sgf_unescape(const char *raw, size_t len, char *out) {
  return sgf_text_decode(raw, len, out, SGF_TEXT_RAW);
}

int sgf_text_encode(const char *text, size_t len, char *out, unsigned flags,
                    size_t *err_off) {
  size_t i, n = 0;
  sgf_escaper e;
  if (!text && len) return SGF_EINVAL;
  /* what would not read back as itself: refused */
  for (i = 0; i < len; i++) {
    char c = text[i];
    if (c == '\0' || is_blank(c) ||
        ((flags & SGF_TEXT_SIMPLE) && (c == '\r' || c == '\n')))
      return sgf__verr(err_off, i, SGF_ERANGE);
  }
  /* the rest: the escaper's bytes (ONE HOME in value.h) */
  sgf_escaper_init(&e, (flags & SGF_TEXT_COMPOSE) ? SGF_ESCAPE_COMPOSE : 0u);
  n = len ? sgf_escape_text(&e, text, len, out) : 0;
  if (n > (size_t)INT32_MAX) return SGF_ERANGE;
  return (int)n;
}
