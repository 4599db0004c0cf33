/* unescape.c - SGF FF[4] text escapes: "\x" stands for x, and a backslash
 * followed by a line break (LF, CR, CR LF or LF CR) is a soft line break
 * that is removed. Both forms work in place (out may equal raw). */
#include "sgfstream.h"

enum {
  U_PLAIN = 0, /* ordinary text */
  U_ESC,       /* after a backslash */
  U_SOFT_CR,   /* after backslash CR: a following LF belongs to it */
  U_SOFT_LF    /* after backslash LF: a following CR belongs to it */
};

void sgf_unescaper_init(sgf_unescaper *u) { u->state = U_PLAIN; }

size_t sgf_unescaper_feed(sgf_unescaper *u, const char *raw, size_t len,
                          char *out) {
  size_t i, n = 0;
  int st = u->state;
  for (i = 0; i < len; i++) {
    char c = raw[i];
    if (st == U_SOFT_CR || st == U_SOFT_LF) {
      int pair = (st == U_SOFT_CR) ? (c == '\n') : (c == '\r');
      st = U_PLAIN;
      if (pair) continue; /* second half of the soft line break */
    }
    if (st == U_ESC) {
      if (c == '\r')
        st = U_SOFT_CR;
      else if (c == '\n')
        st = U_SOFT_LF;
      else {
        out[n++] = c;
        st = U_PLAIN;
      }
    } else if (c == '\\') {
      st = U_ESC;
    } else {
      out[n++] = c;
    }
  }
  u->state = st;
  return n;
}

size_t sgf_unescape(const char *raw, size_t len, char *out) {
  sgf_unescaper u;
  sgf_unescaper_init(&u);
  return sgf_unescaper_feed(&u, raw, len, out);
}
