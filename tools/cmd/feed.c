/* feed.c - feeding a parser in --chunk pieces, the way a pausing caller
 * must: after SGF_PAUSED, resume and feed again from the first byte not
 * consumed. The tools never pause, but their loop is the model. */
#define _POSIX_C_SOURCE 200809L

#include "sgf.h"

#include <string.h>

#include "input.h"

int feed_chunked(sgf_parser *p, const char *buf, size_t len, size_t chunk) {
  while (len > 0) {
    size_t n = (chunk != 0 && chunk < len) ? chunk : len;
    size_t done = 0;
    while (done < n) {
      size_t used = 0;
      int st = sgf_parser_feed(p, buf + done, n - done, &used);
      done += used;
      if (st == SGF_PAUSED) {
        sgf_parser_resume(p);
        continue;
      }
      if (st != SGF_OK) return st;
      break; /* all of it consumed */
    }
    buf += n;
    len -= n;
  }
  return SGF_OK;
}

int finish_chunked(sgf_parser *p) {
  int st;
  while ((st = sgf_parser_finish(p)) == SGF_PAUSED) sgf_parser_resume(p);
  return st;
}

void report_input_note(sgf_parser *p, int what, uint64_t off) {
  sgf_diag d;
  (void)off; /* a byte of the UTF-16 file: positions count in UTF-8 */
  memset(&d, 0, sizeof d);
  d.code = what == INPUT_NOTE_BAD_UTF16 ? SGF_DIAG_UTF16_INVALID
                                        : SGF_DIAG_UTF16_INPUT;
  d.pos = sgf_parser_position(p);
  sgf_parser_report(p, &d);
}
