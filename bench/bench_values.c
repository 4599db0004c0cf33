/* bench_values.c - the typed value decoders (sgfstream/value.h) on the
 * parser's callbacks, against the parser with no-op handlers, in the same
 * run on the same bytes:
 *
 *   events/no-op    the three value callbacks, each returning at once
 *   values/no-op    on_value in their place, returning at once
 *   moves/decoded   on_value; B and W found by the built-in property
 *                   index (sgf_prop_builtin_id: value.h's inline form of
 *                   sgf_prop_lookup(NULL, ...)->id), every move gathered by
 *                   sgf_value_acc_piece_fast and decoded by
 *                   sgf_move_decode_fast on the board SZ gives (value.h's
 *                   static inline forms, as a handler writer would use
 *                   them: the common case - a value whole, two letters -
 *                   inline, the rest through the library)
 *   typed/all       on_value; every value of every known property
 *                   decoded by sgf_value_decode (text only located)
 *   gameinfo/utf8   on_value; every value of every game-info Text or
 *                   SimpleText property FF[4]-decoded and converted to
 *                   UTF-8 (sgfstream/charset.h) as charset.h says: the
 *                   root node's values held until on_node_end, as CA may
 *                   follow them, then the game's CA set and each decoded
 *                   (sgf_text_decode_dbcs, by the declared charset) and
 *                   converted; values in later nodes at once. Only
 *                   the four callbacks it needs are set
 *   games/skip      values/no-op reading each game's root node only:
 *                   SGF_SKIP from its on_node_end passes over the rest
 *                   of the game (the floor under sgf json --headers)
 *
 * Usage: bench_values FILE|DIR [-n REPS] [--max-bytes N] [--results FILE]
 * Prints MB/s (best of REPS) per row, and MB/s of the best CPU time
 * (the process's, CLOCK_PROCESS_CPUTIME_ID: on a busy machine the time
 * not scheduled is left out, so the ratios between rows hold better), and the
 * number of moves decoded and of UTF-8 bytes produced (the same in every
 * repetition, checked) so the work is not optimized away. 64 KiB chunks, as
 * bench_events.
 * --results FILE appends two lines per row for bench/run's summary
 * (util.h), named as the row and "ROW cpu" (the best CPU time).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>
#include <sgfstream/charset.h>

#include "load.h"
#include "util.h"

#define CHUNK (64 * 1024)

typedef struct counts {
  sgf_board board;
  const sgf_propdef *def; /* of the current property, NULL if unknown */
  int is_move, is_sz;
  sgf_value_acc acc;
  uint64_t moves, passes, sum, values, bad;
  struct gameinfo *gi; /* gameinfo/utf8's state, NULL in other rows */
  uint64_t games, utf8, undecodable; /* gameinfo/utf8, games/skip */
  int root;                          /* games/skip: in the root node */
} counts;

/* gameinfo/utf8: the raw bytes of the values held (the value in pieces,
 * and the root node's whole values until the node ends), where each
 * held value starts and whether it is SimpleText, and the buffers of the
 * decoded and the converted text. Grown as needed, kept across games. */
typedef struct gameinfo {
  sgf_charset *cs;
  int root;    /* 1: the game's root node is being read */
  int is_text; /* the current property: 0, SGF_TEXT_SIMPLE + 1 or 1 */
  int is_ca;
  char *raw, *text, *conv;
  size_t raw_len, raw_cap, text_cap, conv_cap;
  size_t start; /* of the value being gathered in raw */
  size_t *held; /* start, end, flags of each held value */
  size_t nheld, held_cap;
  size_t ca_start, ca_len;
  int have_ca;
} gameinfo;

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
  const sgf_propdef *d = sgf_prop_lookup(NULL, id, len);
  int pid = d ? d->id : 0; /* read once: c's ints might alias d->id */
  (void)p;
  c->def = d;
  c->is_move = pid == SGF_PROP_B || pid == SGF_PROP_W;
  c->is_sz = pid == SGF_PROP_SZ;
  return SGF_CONTINUE;
}

/* moves/decoded needs the id only: no call. */
static int on_move_property(sgf_parser *p, void *u, const char *id,
                            size_t len) {
  counts *c = u;
  int pid = sgf_prop_builtin_id(id, len);
  (void)p;
  c->is_move = pid == SGF_PROP_B || pid == SGF_PROP_W;
  c->is_sz = pid == SGF_PROP_SZ;
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
      sgf_value_acc_piece_fast(&c->acc, at, len, flags, &raw, &n) != 1)
    return SGF_CONTINUE;
  if (c->is_sz) {
    size_from(c, raw, n);
  } else if (sgf_move_decode_fast(&c->board, raw, n, &m, NULL) < 0) {
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

/* games/skip */

static int on_skip_tree_begin(sgf_parser *p, void *u) {
  counts *c = u;
  if (sgf_parser_depth(p) == 1) c->root = 1, c->games++;
  return SGF_CONTINUE;
}

static int on_skip_node_end(sgf_parser *p, void *u) {
  counts *c = u;
  (void)p;
  if (!c->root) return SGF_CONTINUE;
  c->root = 0;
  return SGF_SKIP;
}

/* gameinfo/utf8 */

static int grow(void *pp, size_t *cap, size_t need, size_t each) {
  void *n;
  size_t c = *cap ? *cap : 256;
  if (need <= *cap) return 0;
  while (c < need) c *= 2;
  if (!(n = realloc(*(void **)pp, c * each))) return -1;
  *(void **)pp = n;
  *cap = c;
  return 0;
}

/* Decode and convert raw[a, b) with the game's charset; count the bytes. */
static void convert(counts *c, size_t a, size_t b, unsigned flags) {
  gameinfo *g = c->gi;
  sgf_charset_info info;
  size_t n, off;
  int r;
  if (grow(&g->text, &g->text_cap, b - a + 1, 1) != 0) {
    c->bad++;
    return;
  }
  n = sgf_text_decode_dbcs(g->raw + a, b - a, g->text, flags,
                           sgf_charset_declared(g->cs));
  r = sgf_charset_convert(g->cs, g->text, n, &g->conv, &g->conv_cap, &info,
                          &off);
  if (r == SGF_ESYNTAX) { /* read as ISO-8859-1, the caller's to report */
    c->undecodable++;
    c->utf8 += info.len;
  } else if (r < 0) {
    c->bad++;
  } else {
    c->utf8 += (uint64_t)r;
    c->values++;
  }
}

static int on_gi_tree_begin(sgf_parser *p, void *u) {
  counts *c = u;
  if (sgf_parser_depth(p) != 1) return SGF_CONTINUE;
  sgf_charset_reset(c->gi->cs);
  c->gi->root = 1;
  c->gi->have_ca = 0;
  c->gi->raw_len = c->gi->nheld = 0;
  c->games++;
  return SGF_CONTINUE;
}

/* The root node is complete: its CA known, its held values converted. */
static int on_gi_node_end(sgf_parser *p, void *u) {
  counts *c = u;
  gameinfo *g = c->gi;
  size_t i, n;
  char ca[64];
  (void)p;
  if (!g->root) return SGF_CONTINUE;
  g->root = 0;
  if (g->have_ca && g->ca_len < sizeof ca) {
    n = sgf_text_decode(g->raw + g->ca_start, g->ca_len, ca, SGF_TEXT_SIMPLE);
    sgf_charset_set_ca(g->cs, ca, n); /* unknown: the default applies */
  }
  for (i = 0; i < g->nheld; i++)
    convert(c, g->held[3 * i], g->held[3 * i + 1],
            (unsigned)g->held[3 * i + 2]);
  g->raw_len = g->nheld = 0;
  return SGF_CONTINUE;
}

static int on_gi_property(sgf_parser *p, void *u, const char *id, size_t len) {
  counts *c = u;
  const sgf_propdef *d = sgf_prop_lookup(NULL, id, len);
  (void)p;
  c->gi->is_ca = d && d->id == SGF_PROP_CA && c->gi->root;
  c->gi->is_text = 0;
  if (d && d->category == SGF_PC_GAME_INFO)
    c->gi->is_text = d->type == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE + 1
                     : d->type == SGF_VT_TEXT     ? 1
                                                  : 0;
  return SGF_CONTINUE;
}

static int on_gi_value(sgf_parser *p, void *u, const char *at, size_t len,
                       unsigned flags) {
  counts *c = u;
  gameinfo *g = c->gi;
  (void)p;
  if (!g->is_text && !g->is_ca) return SGF_CONTINUE;
  if (flags & SGF_VALUE_FIRST) g->start = g->raw_len;
  if (grow(&g->raw, &g->raw_cap, g->raw_len + len, 1) != 0) {
    c->bad++;
    return SGF_CONTINUE;
  }
  memcpy(g->raw + g->raw_len, at, len);
  g->raw_len += len;
  if (!(flags & SGF_VALUE_LAST)) return SGF_CONTINUE;
  if (g->is_ca) {
    g->have_ca = 1;
    g->ca_start = g->start;
    g->ca_len = g->raw_len - g->start;
  } else if (!g->root) {
    convert(c, g->start, g->raw_len, (unsigned)(g->is_text - 1));
    g->raw_len = 0;
  } else if (grow(&g->held, &g->held_cap, 3 * (g->nheld + 1),
                  sizeof *g->held) != 0) {
    c->bad++;
  } else {
    g->held[3 * g->nheld] = g->start;
    g->held[3 * g->nheld + 1] = g->raw_len;
    g->held[3 * g->nheld + 2] = (size_t)(g->is_text - 1);
    g->nheld++;
  }
  return SGF_CONTINUE;
}

typedef struct row {
  const char *name;
  sgf_callbacks cb;
  double best, best_cpu;
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

#define NROWS 6
#define USAGE                                                          \
  "usage: bench_values FILE|DIR [-n REPS] [--max-bytes N] [--results " \
  "FILE]\n"

int main(int argc, char **argv) {
  const char *path = NULL, *results_path = NULL;
  int reps = 3, i, k;
  size_t max_bytes = 0;
  bench_inputs in;
  char what[512];
  row rows[NROWS];
  gameinfo gi;
  FILE *results;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc)
      max_bytes = (size_t)strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--results") && i + 1 < argc)
      results_path = argv[++i];
    else if (!path && argv[i][0] != '-')
      path = argv[i];
    else {
      fprintf(stderr, USAGE);
      return 2;
    }
  }
  if (!path || reps < 1) {
    fprintf(stderr, USAGE);
    return 2;
  }
  if (bench_load("bench_values", path, BENCH_LOAD_PATH, max_bytes, &in) != 0)
    return 2;
  results = bench_results_open("bench_values", results_path);
  memset(&gi, 0, sizeof gi);
  if (!(gi.cs = sgf_charset_create(NULL))) return 2;
  bench_warm(&in);
  bench_describe(&in, what, sizeof what);
  printf("bench_values: %s\n", what);

  memset(rows, 0, sizeof rows);
  for (k = 0; k < NROWS; k++) sgf_callbacks_init(&rows[k].cb);
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
  rows[2].cb.on_property = on_move_property;
  rows[2].cb.on_value = on_move_value;
  rows[3] = rows[2];
  rows[3].name = "typed/all";
  rows[3].cb.on_property = on_property;
  rows[3].cb.on_value = on_typed_value;
  /* only the callbacks it needs, as a consumer (and sgf stats) sets */
  rows[4].name = "gameinfo/utf8";
  rows[4].cb.on_tree_begin = on_gi_tree_begin;
  rows[4].cb.on_node_end = on_gi_node_end;
  rows[4].cb.on_property = on_gi_property;
  rows[4].cb.on_value = on_gi_value;
  rows[5] = rows[1];
  rows[5].name = "games/skip";
  rows[5].cb.on_tree_begin = on_skip_tree_begin;
  rows[5].cb.on_node_end = on_skip_node_end;

  for (k = 0; k < reps; k++) {
    for (i = 0; i < NROWS; i++) {
      counts c;
      double t0, c0, t, tc;
      memset(&c, 0, sizeof c);
      sgf_board_init(&c.board);
      if (i == 4) c.gi = &gi;
      t0 = bench_now();
      c0 = bench_cpu();
      if (run(&in, &rows[i], &c) != 0) return 2;
      t = bench_now() - t0;
      tc = bench_cpu() - c0;
      if (k == 0 || t < rows[i].best) rows[i].best = t;
      if (k == 0 || tc < rows[i].best_cpu) rows[i].best_cpu = tc;
      if (k > 0 &&
          (c.moves != rows[i].last.moves || c.sum != rows[i].last.sum ||
           c.utf8 != rows[i].last.utf8 || c.games != rows[i].last.games))
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
  if (rows[4].last.games != rows[5].last.games) {
    fprintf(stderr, "bench_values: gameinfo/utf8 and games/skip disagree\n");
    return 1;
  }
  for (i = 0; i < NROWS; i++) {
    double mb = (double)in.bytes / 1e6;
    printf("%-16s %8.1f MB/s  %7.3f s  cpu %8.1f MB/s", rows[i].name,
           mb / rows[i].best, rows[i].best, mb / rows[i].best_cpu);
    if (i == 2 || i == 3)
      printf("  moves %llu passes %llu values %llu undecodable %llu",
             (unsigned long long)rows[i].last.moves,
             (unsigned long long)rows[i].last.passes,
             (unsigned long long)rows[i].last.values,
             (unsigned long long)rows[i].last.bad);
    if (i == 4)
      printf(
          "  games %llu values %llu utf8 bytes %llu undecodable %llu "
          "failed %llu",
          (unsigned long long)rows[i].last.games,
          (unsigned long long)rows[i].last.values,
          (unsigned long long)rows[i].last.utf8,
          (unsigned long long)rows[i].last.undecodable,
          (unsigned long long)rows[i].last.bad);
    if (i == 5) printf("  games %llu", (unsigned long long)rows[i].last.games);
    printf("\n");
    bench_result(results, rows[i].name, in.bytes, rows[i].best,
                 rows[4].last.games, in.count, 0, "-");
    snprintf(what, sizeof what, "%s cpu", rows[i].name);
    bench_result(results, what, in.bytes, rows[i].best_cpu, rows[4].last.games,
                 in.count, 0, "-");
  }
  if (results) fclose(results);
  free(gi.raw);
  free(gi.text);
  free(gi.held);
  sgf_charset_free(gi.cs, gi.conv, gi.conv_cap);
  sgf_charset_destroy(gi.cs);
  bench_inputs_free(&in);
  return 0;
}
