/* stream_text.c - headers(): the diagnostic of header text that does not
 * decode in the game's charset (CA, or charset=). The text is still given,
 * read as ISO-8859-1 (nothing the input held is lost); the diagnostic
 * says so where `sgf json --headers` says it (tools/json/json_value.c):
 * the same position (the byte that does not decode, in the raw value),
 * severity (error) and message, with the name the JavaScript package
 * gives it: bad-utf8 (40, the catalogue's) under UTF-8, else bad-text
 * (100, the bindings' own). stream.c puts it on the game's dict
 * ("diagnostics") or, in strict mode, raises SGFError with it.
 */
#include <stdio.h>
#include <strings.h>

#include "sgfpy.h"

/* The raw offset of decoded byte k: the decoder maps several raw bytes
 * to one (an escape, a soft line break), never one to several. */
static size_t raw_offset(const char *raw, size_t len, unsigned flags,
                         size_t k) {
  sgf_text_decoder d;
  char tmp[8];
  size_t n = 0;
  sgf_text_decoder_init(&d, flags);
  for (size_t i = 0; i < len; i++) {
    n += sgf_text_decoder_feed(&d, raw + i, 1, tmp);
    if (n > k) return i;
  }
  return len;
}

/* The position of raw byte k of a value whose '[' is at pos: line
 * breaks (LF, CR LF, a lone CR) in the bytes before it move to the next
 * line. */
static sgf_pos pos_in_value(sgf_pos pos, const char *raw, size_t k) {
  pos.offset += 1 + k;
  pos.column += 1 + k;
  for (size_t i = 0; i < k; i++) {
    int brk = raw[i] == '\n' ||
              (raw[i] == '\r' && (i + 1 >= k || raw[i + 1] != '\n'));
    if (brk) {
      pos.line++;
      pos.column = k - i; /* the bytes after the break, then this one */
    }
  }
  return pos;
}

PyObject *sgfpy_text_diag(PyObject *file, sgf_pos pos, const char *raw,
                          size_t rawlen, unsigned flags, size_t off,
                          const char *charset, unsigned char bad) {
  char msg[256];
  const char *cs = charset ? charset : "?";
  int utf8 = strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "UTF8") == 0;
  snprintf(msg, sizeof msg,
           "text does not decode as %.100s (byte 0x%02x); the value is "
           "written as ISO-8859-1",
           cs, (unsigned)bad);
  sgf_pos at = pos_in_value(pos, raw, raw_offset(raw, rawlen, flags, off));
  return sgfpy_diagnostic_make(file, at,
                               utf8 ? SGF_DIAG_BAD_UTF8 : SGFPY_DIAG_BAD_TEXT,
                               utf8 ? "bad-utf8" : "bad-text", "error", msg);
}
