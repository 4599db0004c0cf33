/* harness_quiet.c - fz_check_quiet (harness.h): a parser with no handler
 * for a move node's events passes runs of moves in bulk (the move-run
 * scanner, lib/simd/moves.c); what it still reports (tree begin and end,
 * diagnostics, each with its position and the identifier as written, the
 * status and the final position) must be what the same parse reports
 * with a no-op on_node, which takes the general path. */
#include "harness.h"
#include "harness_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bytebuf.h"

static void qnote(sgf_parser *p, bytebuf *log, const char *what) {
  sgf_pos at = sgf_parser_position(p);
  size_t n = 0;
  const char *id = sgf_parser_raw_ident(p, &n);
  char line[200];
  int k =
      snprintf(line, sizeof line,
               "%s %" PRIu64 ":%" PRIu64 "@%" PRIu64 " [%.*s]\n", what, at.line,
               at.column, at.offset, (int)(n < 40 ? n : 40), id ? id : "");
  bytebuf_add(log, line, (size_t)k);
}
static int q_tree_begin(sgf_parser *p, void *u) {
  qnote(p, u, "tree-begin");
  return SGF_CONTINUE;
}
static int q_tree_end(sgf_parser *p, void *u) {
  qnote(p, u, "tree-end");
  return SGF_CONTINUE;
}
static int q_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  char line[160];
  int k = snprintf(line, sizeof line,
                   "diag %d %" PRIu64 ":%" PRIu64 "@%" PRIu64 " mark %" PRIu64
                   "@%" PRIu64 "\n",
                   (int)d->code, d->pos.line, d->pos.column, d->pos.offset,
                   d->mark.line, d->mark.offset);
  bytebuf_add(u, line, (size_t)k);
  qnote(p, u, "at-diag");
  return SGF_CONTINUE;
}
static int q_node(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}

/* The log of one parse, fed in the chunks given (cycled; none: whole). */
static void qrun(const uint8_t *in, size_t len, const sgf_options *opt,
                 const uint8_t *chunks, size_t nchunks, int listen,
                 bytebuf *log) {
  sgf_callbacks cb;
  sgf_parser *p;
  size_t off = 0, ci = 0;
  int st = SGF_OK;
  char line[64];
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = q_tree_begin;
  cb.on_tree_end = q_tree_end;
  cb.on_diagnostic = q_diag;
  if (listen) cb.on_node = q_node;
  p = sgf_parser_create(&cb, log, opt);
  if (!p) return;
  while (off < len && st == SGF_OK) {
    size_t n = len - off;
    if (nchunks) {
      size_t c = (size_t)chunks[ci++ % nchunks] + 1;
      if (n > c) n = c;
    }
    st = sgf_parser_feed(p, (const char *)in + off, n, NULL);
    off += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  snprintf(line, sizeof line, "status %d\n", st);
  bytebuf_add(log, line, strlen(line));
  qnote(p, log, "end");
  sgf_parser_destroy(p);
}

size_t fz_chunk_header(const uint8_t *data, size_t size, sgf_options *opt,
                       size_t *nchunks) {
  if (size < 2) return 0;
  fz_decode_options(data[0], opt);
  *nchunks = data[1] & 7u;
  return size < 2 + *nchunks ? 0 : 2 + *nchunks;
}

const char *fz_check_quiet(const uint8_t *data, size_t size) {
  sgf_options opt;
  size_t nchunks, h = fz_chunk_header(data, size, &opt, &nchunks);
  bytebuf a, b;
  const char *res = NULL;
  if (h == 0) return NULL;
  bytebuf_init(&a);
  bytebuf_init(&b);
  qrun(data + h, size - h, &opt, data + 2, nchunks, 1, &a);
  qrun(data + h, size - h, &opt, data + 2, nchunks, 0, &b);
  if (a.len != b.len || (a.len && memcmp(a.p, b.p, a.len) != 0))
    res = fz_failf("quiet vs listening: the logs differ:\n%.*s\nvs\n%.*s",
                   (int)(a.len < 2000 ? a.len : 2000), a.p ? a.p : "",
                   (int)(b.len < 2000 ? b.len : 2000), b.p ? b.p : "");
  bytebuf_free(&a);
  bytebuf_free(&b);
  return res;
}
