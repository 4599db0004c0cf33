/* harness_check.c - fz_semantic_log and fz_check_semantic (harness.h):
 * the semantic checks (sgfstream/check.h) with MOVE RUNS and without.
 * sgf_check_moves() decides a run's nodes in bulk and sends only those
 * that can fail the long way; it must find what the checks of each event
 * find without runs: the same diagnostics at the same positions, with the
 * same marks, in the same order, and the same result. (Not the parser's
 * position during each: a finding in a value comes with the value's last
 * piece, which the general path may give at the ']' of a value whole in
 * the buffer, where the value's double-byte look-ahead holds it, and a
 * replayed run always at the '[':
 * test/regressions/split-moves-high-second-byte-saved-mark.)
 * test/unit/check_runs.c runs it over files (the golden cases, the corpus,
 * crafted inputs). */
#include "harness.h"
#include "harness_priv.h"

#include <inttypes.h>
#include <string.h>

typedef struct semlog {
  sgf_checker *ck;
  bytebuf *log;
  unsigned long runs;
} semlog;

static int s_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  semlog *l = u;
  (void)p;
  bytebuf_addf(l->log,
               "%s/%d %d %" PRIu64 ":%" PRIu64 "@%" PRIu64 " mark %d %" PRIu64
               ":%" PRIu64 "@%" PRIu64 "\n",
               sgf_diag_name(d->code), (int)d->code, (int)d->severity,
               d->pos.line, d->pos.column, d->pos.offset, d->has_mark,
               d->mark.line, d->mark.column, d->mark.offset);
  return SGF_CONTINUE;
}

#define CK(u) (((semlog *)(u))->ck)
static int s_tree_begin(sgf_parser *p, void *u) {
  return sgf_check_tree_begin(CK(u), p);
}
static int s_tree_end(sgf_parser *p, void *u) {
  return sgf_check_tree_end(CK(u), p);
}
static int s_node(sgf_parser *p, void *u) { return sgf_check_node(CK(u), p); }
static int s_node_end(sgf_parser *p, void *u) {
  return sgf_check_node_end(CK(u), p);
}
static int s_property(sgf_parser *p, void *u, const char *id, size_t len) {
  return sgf_check_property(CK(u), p, id, len);
}
static int s_property_end(sgf_parser *p, void *u) {
  return sgf_check_property_end(CK(u), p);
}
static int s_value(sgf_parser *p, void *u, const char *at, size_t len,
                   unsigned flags) {
  return sgf_check_value(CK(u), p, at, len, flags);
}
static int s_moves(sgf_parser *p, void *u, const char *at, size_t len,
                   size_t count) {
  ((semlog *)u)->runs++;
  return sgf_check_moves(CK(u), p, at, len, count);
}

unsigned long fz_semantic_log(const char *in, size_t len,
                              const sgf_options *opt, int runs,
                              const size_t *chunks, size_t nchunks,
                              size_t split, bytebuf *log) {
  sgf_callbacks cb;
  sgf_parser *p;
  semlog l;
  size_t off = 0, ci = 0;
  int st = SGF_OK;
  bytebuf_clear(log);
  l.log = log;
  l.runs = 0;
  sgf_callbacks_init(&cb);
  cb.on_diagnostic = s_diag;
  cb.on_tree_begin = s_tree_begin;
  cb.on_tree_end = s_tree_end;
  cb.on_node = s_node;
  cb.on_node_end = s_node_end;
  cb.on_property = s_property;
  cb.on_property_end = s_property_end;
  cb.on_value = s_value;
  if (runs) cb.on_moves = s_moves;
  l.ck = sgf_checker_create(NULL);
  p = l.ck ? sgf_parser_create(&cb, &l, opt) : NULL;
  if (!p) {
    bytebuf_adds(log, "out of memory\n");
    sgf_checker_destroy(l.ck);
    return 0;
  }
  while (off < len && st == SGF_OK) {
    size_t n = len - off;
    if (nchunks && n > chunks[ci % nchunks]) n = chunks[ci++ % nchunks];
    if (split && off < split && n > split - off) n = split - off;
    st = sgf_parser_feed(p, in + off, n, NULL);
    off += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  bytebuf_addf(log,
               "status %d, %" PRIu64 " warnings, %" PRIu64 " errors, %" PRIu64
               " fatal\n",
               st, sgf_parser_diag_count(p, SGF_SEV_WARNING),
               sgf_parser_diag_count(p, SGF_SEV_ERROR),
               sgf_parser_diag_count(p, SGF_SEV_FATAL));
  sgf_parser_destroy(p);
  sgf_checker_destroy(l.ck);
  return l.runs;
}

const char *fz_semantic_differ(const bytebuf *ref, const bytebuf *got) {
  size_t i = 0, start = 0, ea, eb, line = 1;
  const char *a = ref->p ? ref->p : "", *b = got->p ? got->p : "";
  if (bytebuf_eq(ref, got)) return NULL;
  while (i < ref->len && i < got->len && a[i] == b[i]) {
    if (a[i] == '\n') {
      line++;
      start = i + 1;
    }
    i++;
  }
  for (ea = start; ea < ref->len && a[ea] != '\n'; ea++) continue;
  for (eb = start; eb < got->len && b[eb] != '\n'; eb++) continue;
  return fz_failf(
      "line %zu of the findings differs:\n  without runs: %.*s\n"
      "  with runs:    %.*s",
      line, (int)(ea - start), a + start, (int)(eb - start), b + start);
}

const char *fz_check_semantic(const uint8_t *data, size_t size) {
  sgf_options opt;
  size_t nchunks, i, h = fz_chunk_header(data, size, &opt, &nchunks);
  size_t chunks[8];
  const char *in = (const char *)data + h, *res;
  bytebuf ref, got;
  if (h == 0) return NULL;
  for (i = 0; i < nchunks; i++) chunks[i] = (size_t)data[2 + i] + 1;
  bytebuf_init(&ref);
  bytebuf_init(&got);
  fz_semantic_log(in, size - h, &opt, 0, NULL, 0, 0, &ref);
  fz_semantic_log(in, size - h, &opt, 1, NULL, 0, 0, &got);
  res = fz_semantic_differ(&ref, &got);
  if (res == NULL && nchunks) {
    fz_semantic_log(in, size - h, &opt, 1, chunks, nchunks, 0, &got);
    res = fz_semantic_differ(&ref, &got);
  }
  bytebuf_free(&ref);
  bytebuf_free(&got);
  return res;
}
