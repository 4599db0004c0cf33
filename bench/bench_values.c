/* bench_values.c - the typed value decoders (sgfstream/value.h) on the
 * parser's callbacks, against the parser with no-op handlers, in the same
 * run on the same bytes:
 *
 *   events/no-op    the three value callbacks, each returning at once
 *   values/no-op    on_value in their place, returning at once
 *   moves/decoded   on_value; B and W found by the property table
 *                   (sgf_prop_lookup), every move gathered by
 *                   sgf_value_acc_piece and decoded by sgf_move_decode
 *                   on the board SZ gives
 *   typed/all       on_value; every value of every known property
 *                   decoded by sgf_value_decode (text only located)
 *
 * Usage: bench_values FILE|DIR [-n REPS] [--max-bytes N]
 * Prints MB/s (best of REPS) per row, and the number of moves decoded
 * (the same in every repetition, checked) so the work is not optimized
 * away. 64 KiB chunks, as bench_events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "load.h"
#include "util.h"

#define CHUNK (64 * 1024)

typedef struct counts {
  sgf_board board;
  const sgf_propdef *def; /* of the current property, NULL if unknown */
  int is_move, is_sz;
  sgf_value_acc acc;
  uint64_t moves, passes, sum, values, bad;
} counts;

static int nop(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}
static int nop_data(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p;
  (void)u;
  (void)at;
  (void)len;
  return SGF_CONTINUE;
}
static int nop_value(sgf_parser *p, void *u, const char *at, size_t len,
                     unsigned flags) {
  (void)p;
  (void)u;
  (void)at;
  (void)len;
  (void)flags;
  return SGF_CONTINUE;
}

static int on_tree_begin(sgf_parser *p, void *u) {
  counts *c = u;
  if (sgf_parser_depth(p) == 1) sgf_board_init(&c->board);
  return SGF_CONTINUE;
}

static int on_property(sgf_parser *p, void *u, const char *id, size_t len) {
  counts *c = u;
  (void)p;
  c->def = sgf_prop_lookup(NULL, id, len);
  c->is_move = c->def && (c->def->id == SGF_PROP_B || c->def->id == SGF_PROP_W);
  c->is_sz = c->def && c->def->id == SGF_PROP_SZ;
  return SGF_CONTINUE;
}

static void size_from(counts *c, const char *raw, size_t len) {
  if (sgf_board_decode(raw, len, &c->board, NULL) < 0) c->bad++;
}

static int on_move_value(sgf_parser *p, void *u, const char *at, size_t len,
                         unsigned flags) {
  counts *c = u;
  const char *raw;
  size_t n;
  sgf_move m;
  (void)p;
  if (!(c->is_move || c->is_sz) ||
      sgf_value_acc_piece(&c->acc, at, len, flags, &raw, &n) != 1)
    return SGF_CONTINUE;
  if (c->is_sz) {
    size_from(c, raw, n);
  } else if (sgf_move_decode(&c->board, raw, n, &m, NULL) < 0) {
    c->bad++;
  } else if (m.pass) {
    c->passes++;
  } else {
    c->moves++;
    c->sum += (uint64_t)(m.pt.x * 52 + m.pt.y);
  }
  return SGF_CONTINUE;
}

static int on_typed_value(sgf_parser *p, void *u, const char *at, size_t len,
                          unsigned flags) {
  counts *c = u;
  const char *raw;
  size_t n;
  sgf_typed_value v;
  int t;
  (void)p;
  if (!c->def) return SGF_CONTINUE;
  t = c->def->type;
  if (t == SGF_VT_TEXT || t == SGF_VT_SIMPLETEXT) { /* located, not copied */
    if (flags & SGF_VALUE_LAST) c->values++;
    return SGF_CONTINUE;
  }
  if (sgf_value_acc_piece(&c->acc, at, len, flags, &raw, &n) != 1)
    return SGF_CONTINUE;
  if (c->is_sz) size_from(c, raw, n);
  if (sgf_value_decode(NULL, c->def, &c->board, raw, n, &v, NULL) < 0) {
    c->bad++;
    return SGF_CONTINUE;
  }
  c->values++;
  if (t == SGF_VT_MOVE) {
    if (v.part[0].u.move.pass) {
      c->passes++;
    } else {
      c->moves++;
      c->sum += (uint64_t)(v.part[0].u.move.pt.x * 52 + v.part[0].u.move.pt.y);
    }
  }
  return SGF_CONTINUE;
}

typedef struct row {
  const char *name;
  sgf_callbacks cb;
  double best;
  counts last;
} row;

static int run(const bench_inputs *in, row *r, counts *c) {
  sgf_parser *p = sgf_parser_create(&r->cb, c, NULL);
  size_t i, off;
  if (!p) return -1;
  for (i = 0; i < in->count; i++) {
    const bench_buf *b = &in->bufs[i];
    sgf_parser_reset(p);
    for (off = 0; off < b->len; off += CHUNK) {
      size_t k = b->len - off < CHUNK ? b->len - off : CHUNK;
      if (sgf_parser_feed(p, b->data + off, k, NULL) != SGF_OK) break;
    }
    sgf_parser_finish(p);
  }
  sgf_parser_destroy(p);
  return 0;
}

int main(int argc, char **argv) {
  const char *path = NULL;
  int reps = 3, i, k;
  size_t max_bytes = 0;
  bench_inputs in;
  char what[512];
  row rows[4];
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc)
      max_bytes = (size_t)strtoull(argv[++i], NULL, 10);
    else if (!path && argv[i][0] != '-')
      path = argv[i];
    else {
      fprintf(stderr,
              "usage: bench_values FILE|DIR [-n REPS] "
              "[--max-bytes N]\n");
      return 2;
    }
  }
  if (!path || reps < 1) {
    fprintf(stderr, "usage: bench_values FILE|DIR [-n REPS] [--max-bytes N]\n");
    return 2;
  }
  if (bench_load("bench_values", path, BENCH_LOAD_PATH, max_bytes, &in) != 0)
    return 2;
  bench_warm(&in);
  bench_describe(&in, what, sizeof what);
  printf("bench_values: %s\n", what);

  memset(rows, 0, sizeof rows);
  for (k = 0; k < 4; k++) sgf_callbacks_init(&rows[k].cb);
  rows[0].name = "events/no-op";
  rows[0].cb.on_tree_begin = rows[0].cb.on_tree_end = nop;
  rows[0].cb.on_node = rows[0].cb.on_property_end = nop;
  rows[0].cb.on_property = nop_data;
  rows[0].cb.on_value_begin = rows[0].cb.on_value_end = nop;
  rows[0].cb.on_value_data = nop_data;
  rows[1] = rows[0];
  rows[1].name = "values/no-op";
  rows[1].cb.on_value = nop_value;
  rows[2] = rows[1];
  rows[2].name = "moves/decoded";
  rows[2].cb.on_tree_begin = on_tree_begin;
  rows[2].cb.on_property = on_property;
  rows[2].cb.on_value = on_move_value;
  rows[3] = rows[2];
  rows[3].name = "typed/all";
  rows[3].cb.on_value = on_typed_value;

  for (k = 0; k < reps; k++) {
    for (i = 0; i < 4; i++) {
      counts c;
      double t0, t;
      memset(&c, 0, sizeof c);
      sgf_board_init(&c.board);
      t0 = bench_now();
      if (run(&in, &rows[i], &c) != 0) return 2;
      t = bench_now() - t0;
      if (k == 0 || t < rows[i].best) rows[i].best = t;
      if (k > 0 && (c.moves != rows[i].last.moves || c.sum != rows[i].last.sum))
        return fprintf(stderr, "bench_values: %s: results differ\n",
                       rows[i].name),
               1;
      rows[i].last = c;
    }
  }
  if (rows[2].last.moves != rows[3].last.moves ||
      rows[2].last.sum != rows[3].last.sum) {
    fprintf(stderr, "bench_values: moves/decoded and typed/all disagree\n");
    return 1;
  }
  for (i = 0; i < 4; i++) {
    double mb = (double)in.bytes / 1e6;
    printf("%-16s %8.1f MB/s  %7.3f s", rows[i].name, mb / rows[i].best,
           rows[i].best);
    if (i >= 2)
      printf("  moves %llu passes %llu values %llu undecodable %llu",
             (unsigned long long)rows[i].last.moves,
             (unsigned long long)rows[i].last.passes,
             (unsigned long long)rows[i].last.values,
             (unsigned long long)rows[i].last.bad);
    printf("\n");
  }
  bench_inputs_free(&in);
  return 0;
}
