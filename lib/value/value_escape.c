/* value_escape.c - plain text to raw SGF values: the escaper
 * (sgfstream/value.h), the one encoder of text (sgf_text_encode is it
 * after a check).
 *
 * FF[4] escapes with a backslash: "\]" and "\\" always, "\:" in one half
 * of a compose value. Anything else may be escaped but need not be, so
 * nothing else is. For SimpleText a line break becomes one space; the only
 * state kept between pieces is "the last byte was a CR (or LF)", so the
 * LF (or CR) of a pair split between two calls is swallowed.
 */
#include "value_priv.h"

enum {
  E_PLAIN = 0,
  E_AFTER_CR, /* SimpleText: a CR became a space; an LF next belongs to it */
  E_AFTER_LF  /* ... an LF became a space; a CR next belongs to it */
};

void sgf_escaper_init(sgf_escaper *e, unsigned flags) {
  e->flags = flags;
  e->state = E_PLAIN;
}

static int needs_escape(unsigned flags, char c) {
  return c == ']' || c == '\\' || (c == ':' && (flags & SGF_ESCAPE_COMPOSE));
}

size_t sgf_escape_text(sgf_escaper *e, const char *text, size_t len,
                       char *out) {
  size_t i, n = 0;
  unsigned flags = e->flags;
  for (i = 0; i < len; i++) {
    char c = text[i];
    if (c == '\0') continue; /* never valid in SGF text: dropped */
    if (needs_escape(flags, c)) out[n++] = '\\';
    out[n++] = c;
  }
  e->state = E_PLAIN;
  return n;
}

size_t sgf_escape_simple(sgf_escaper *e, const char *text, size_t len,
                         char *out) {
  size_t i, n = 0;
  unsigned flags = e->flags;
  int st = e->state;
  for (i = 0; i < len; i++) {
    char c = text[i];
    if ((st == E_AFTER_CR && c == '\n') || (st == E_AFTER_LF && c == '\r')) {
      st = E_PLAIN; /* the second half of one line break */
      continue;
    }
    st = E_PLAIN;
    if (c == '\0') continue; /* never valid in SGF text: dropped */
    if (c == '\r' || c == '\n') {
      out[n++] = ' ';
      st = c == '\r' ? E_AFTER_CR : E_AFTER_LF;
      continue;
    }
    if (needs_escape(flags, c)) out[n++] = '\\';
    out[n++] = c;
  }
  e->state = st;
  return n;
}
