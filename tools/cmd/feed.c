/* feed.c - feeding a parser in --chunk pieces, the way a pausing caller
 * must: after SGF_PAUSED, resume and feed again from the first byte not
 * consumed. The tools never pause, but their loop is the model. */
#include "sgf.h"

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
