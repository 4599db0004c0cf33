/* normalize.c - games rewritten normalized (normalize.h). */
#include "normalize.h"

#include <sgfstream.h>
#include <sgfstream/writer.h>

#include <stdlib.h>

struct normalizer {
  sgf_parser *p;
  sgf_writer *w;
  bytebuf *out;
};

static int to_buf(void *ctx, const char *buf, size_t len) {
  normalizer *n = ctx;
  return bytebuf_try_add(n->out, buf, len) == 0 ? SGF_OK : SGF_ESINK;
}

normalizer *normalizer_create(void) {
  normalizer *n = calloc(1, sizeof *n);
  sgf_callbacks cb;
  sgf_writer_options wo;
  if (n == NULL) return NULL;
  sgf_writer_options_init(&wo);
  wo.layout = SGF_LAYOUT_READABLE;
  n->w = sgf_writer_create(to_buf, n, &wo);
  sgf_callbacks_init(&cb);
  sgf_writer_value_callbacks(&cb);
  n->p = n->w ? sgf_parser_create(&cb, n->w, NULL) : NULL;
  if (n->p == NULL) {
    normalizer_destroy(n);
    return NULL;
  }
  return n;
}

int normalize_game(normalizer *n, const char *buf, size_t len, bytebuf *out) {
  size_t used = 0, mark = out->len;
  int rc;
  n->out = out;
  sgf_parser_reset(n->p);
  sgf_writer_reset(n->w, NULL, NULL);
  rc = sgf_parser_feed(n->p, buf, len, &used);
  if (rc == SGF_OK) rc = sgf_parser_finish(n->p);
  if (rc == SGF_OK) rc = sgf_writer_finish(n->w);
  if (rc != SGF_OK) {
    out->len = mark;
    return -1;
  }
  return 0;
}

void normalizer_destroy(normalizer *n) {
  if (n == NULL) return;
  sgf_parser_destroy(n->p);
  sgf_writer_destroy(n->w);
  free(n);
}
