/* bench/skip_floor.c - the floor of "skip after the root" (bench_events'
 * skip/root row): what reading each game's root and passing over the
 * rest costs at the least, measured in one process next to events/null.
 *
 *   bench/skip_floor [-n REPS] FILE
 *
 * Rows (MB/s of FILE's bytes, best of REPS, 64 KiB chunks):
 *   events/null        the tokenizer with no handler, on FILE;
 *   skip/all           every game skipped from its tree begin: the tree
 *                      skipper alone, over every byte of FILE;
 *   roots/null         the tokenizer with no handler on the games' root
 *                      nodes only (each cut after its root node and
 *                      closed, in one buffer made before timing);
 *   skip/root floor    the time of roots/null plus the time of skip/all
 *                      over the bytes that are not roots: no skip after
 *                      the root can take less, whatever its handlers
 *                      (they parse the roots and skip the rest);
 * and the floor over events/null, next to the issue 16 target (1.5).
 * The roots are found by a parse of FILE (a tree begin at depth 1 to the
 * first node end). Exit status 0, or 2 on usage or I/O errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <sgfstream.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "util.h"

static const char *prog = "skip_floor";

/* The roots: where the game began, whether its root is still open. */
typedef struct roots {
  char *out;
  size_t len, cap;
  const char *buf; /* the buffer being fed, at input offset base */
  uint64_t base, start;
  int open;
} roots;

static int r_tree_begin(sgf_parser *p, void *u) {
  roots *r = u;
  if (sgf_parser_depth(p) == 1) {
    r->start = sgf_parser_position(p).offset;
    r->open = 1;
  }
  return SGF_CONTINUE;
}

/* The root ends: its bytes (from the game's '(') and a ')' and a line
 * break, then the rest of the game skipped. */
static int r_node_end(sgf_parser *p, void *u) {
  roots *r = u;
  uint64_t end = sgf_parser_position(p).offset;
  size_t n;
  if (!r->open) return SGF_CONTINUE;
  r->open = 0;
  n = (size_t)(end - r->start);
  if (r->len + n + 2 > r->cap) {
    r->cap = (r->len + n + 2) * 2;
    r->out = realloc(r->out, r->cap);
    if (!r->out) return SGF_ABORT;
  }
  memcpy(r->out + r->len, r->buf + (r->start - r->base), n);
  r->len += n;
  memcpy(r->out + r->len, ")\n", 2);
  r->len += 2;
  return SGF_SKIP;
}

static int skip_tree(sgf_parser *p, void *u) {
  (void)u;
  return sgf_parser_depth(p) == 1 ? SGF_SKIP : SGF_CONTINUE;
}

/* Best time of reps parses of buf with cb (NULL: no handler). */
static double timed(const char *buf, size_t len, const sgf_callbacks *cb,
                    int reps) {
  double best = 0;
  for (int i = 0; i < reps; i++) {
    sgf_parser *p = sgf_parser_create(cb, NULL, NULL);
    double t0;
    if (!p) exit(2);
    t0 = bench_now();
    for (size_t o = 0; o < len; o += 65536)
      sgf_parser_feed(p, buf + o, len - o < 65536 ? len - o : 65536, NULL);
    sgf_parser_finish(p);
    t0 = bench_now() - t0;
    if (best == 0 || t0 < best) best = t0;
    sgf_parser_destroy(p);
  }
  return best;
}

int main(int argc, char **argv) {
  int reps = 5;
  const char *path = NULL;
  bench_inputs in;
  sgf_callbacks cb;
  roots r;
  sgf_parser *p;
  double t_null, t_skip, t_roots, floor_s;
  const char *buf;
  size_t len;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!path)
      path = argv[i];
  }
  if (!path || reps < 1) {
    fprintf(stderr, "usage: %s [-n REPS] FILE\n", prog);
    return 2;
  }
  if (bench_load(prog, path, BENCH_LOAD_PATH, 0, &in) != 0) return 2;
  bench_warm(&in);
  if (in.count != 1) {
    fprintf(stderr, "%s: %s: one file (a collection), please\n", prog, path);
    return 2;
  }
  buf = in.bufs[0].data;
  len = in.bufs[0].len;
  /* the roots, untimed: fed whole, so that r.buf covers every root */
  memset(&r, 0, sizeof r);
  r.buf = buf;
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = r_tree_begin;
  cb.on_node_end = r_node_end;
  p = sgf_parser_create(&cb, &r, NULL);
  if (!p || sgf_parser_feed(p, buf, len, NULL) != SGF_OK ||
      sgf_parser_finish(p) != SGF_OK || !r.out) {
    fprintf(stderr, "%s: %s: could not cut the roots\n", prog, path);
    return 2;
  }
  sgf_parser_destroy(p);
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = skip_tree;
  t_null = timed(buf, len, NULL, reps);
  t_skip = timed(buf, len, &cb, reps);
  t_roots = timed(r.out, r.len, NULL, reps);
  floor_s = t_roots + t_skip * (double)(len - r.len) / (double)len;
  printf("%-18s %10.1f MB/s\n", "events/null", len / 1e6 / t_null);
  printf("%-18s %10.1f MB/s\n", "skip/all", len / 1e6 / t_skip);
  printf("%-18s %10.1f MB/s  (%zu bytes of roots, %.1f%% of the input)\n",
         "roots/null", r.len / 1e6 / t_roots, r.len, 100.0 * r.len / len);
  printf("%-18s %10.1f MB/s  = %.2f x events/null (issue 16 target: 1.5 x)\n",
         "skip/root floor", len / 1e6 / floor_s, t_null / floor_s);
  free(r.out);
  bench_inputs_free(&in);
  return 0;
}
