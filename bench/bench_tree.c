/* bench_tree.c - throughput of the tree builder (sgfstream/tree.h) on an
 * in-memory input.
 *
 *   bench/bench_tree [-n REPS] [-c CHUNK] [-m MAXBYTES] [--collect]
 *                    [--positions] [--no-count] [--no-floor]
 *                    [--floor-only none|inline|call] [--results FILE]
 *                    FILE | DIR | --list LISTFILE
 *
 * The input is read into memory once (bench/load.c: a FILE is one input, a
 * DIR or the files named in LISTFILE one input per file) and fed to a
 * builder in CHUNK-byte pieces (default 64 KiB); between files the builder
 * is reset (sgf_tree_builder_reset), as a program reading many files
 * would. In the default one-game-at-a-time mode on_game only counts the
 * game and returns (the builder frees the tree); with --collect every tree
 * is kept in the builder's collection, which is freed at the end of the
 * run. Each line is the best (shortest) of REPS runs (default 3), timed
 * with CLOCK_MONOTONIC around builder creation, the feed loop, finish (and
 * reset) for every input, and destruction.
 *
 * Memory is counted through sgf_allocator hooks in one more, untimed run
 * (left out with --no-count, e.g. under callgrind, where -n 1 --no-count
 * is exactly one pass over the input): "peak" is the highest number of
 * bytes outstanding at once (parser, builder buffers, trees), and every
 * free is checked to give back the size that was allocated.
 *
 * Then, unless --no-floor, the same inputs go through the floor builder
 * (tree_floor.h: the least a builder on the callbacks does, links, bytes
 * and positions), best of REPS, with the three positions per move read
 * inline (sgfstream/event_state.h), read by sgf_parser_position() calls,
 * and not read (--floor-only: just one of them): how far the real
 * builder is from what the events themselves cost, and what the opt-in
 * event state buys. Its node count must equal the builder's; where it
 * cannot build (a value over 64 KiB) or counts otherwise, the floor is
 * left out with a word on stderr, and the exit status does not change.
 *
 * --results FILE appends one line for bench/run's summary (see util.h),
 * and one more ("trees floor") for the floor with positions.
 *
 * "tree memory" is what the trees hold, the sum of sgf_tree_byte_count()
 * over every tree as delivered (arena blocks, no position index: see
 * sgf_tree_node_at), per node and per input byte, next to GNU Go's SGF
 * library (sgftree.c: about 120-146 bytes a node on the same files, as
 * measured for issue 16). --positions builds with SGF_TREE_POSITIONS.
 *
 * MB means 10^6 bytes. Exit status: 0, 1 if a run did not parse or leaked,
 * 2 on usage or I/O errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <sgfstream.h>

#include "load.h"
#include "tree_floor.h"
#include "util.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char prog[] = "bench_tree";

typedef struct run_stats {
  uint64_t games, nodes, biggest_tree, tree_bytes;
} run_stats;

static unsigned tree_flags; /* --positions */

static int on_game(sgf_tree_builder *b, void *user, sgf_tree *t) {
  run_stats *r = user;
  uint64_t bytes = sgf_tree_byte_count(t);
  (void)b;
  r->games++;
  r->nodes += sgf_tree_node_count(t);
  r->tree_bytes += bytes;
  if (bytes > r->biggest_tree) r->biggest_tree = bytes;
  return SGF_CONTINUE;
}

static int on_diag(sgf_parser *p, void *user, const sgf_diag *d) {
  (void)p;
  (void)user;
  (void)d;
  return SGF_CONTINUE;
}

/* Feed every input to p in chunk-byte pieces and finish it, calling
 * reset(ctx) between inputs; stops at the first input that does not
 * parse (*failed_on, if not NULL, names it). */
static int feed_all(const bench_inputs *in, size_t chunk, sgf_parser *p,
                    void (*reset)(void *), void *ctx,
                    const bench_buf **failed_on) {
  int st = SGF_OK;
  for (size_t i = 0; i < in->count && st == SGF_OK; i++) {
    const bench_buf *buf = &in->bufs[i];
    size_t off = 0;
    if (i > 0) reset(ctx);
    while (off < buf->len && st == SGF_OK) {
      size_t n = buf->len - off < chunk ? buf->len - off : chunk, used = 0;
      st = sgf_parser_feed(p, buf->data + off, n, &used);
      off += used;
    }
    if (st == SGF_OK) st = sgf_parser_finish(p);
    if (st != SGF_OK && failed_on) *failed_on = buf;
  }
  return st;
}

static void reset_builder(void *b) { sgf_tree_builder_reset(b); }
static void reset_floor(void *f) { tree_floor_reset(f); }

/* Build trees over every input; returns the seconds taken, or -1 on
 * failure. counting: through the counting allocator *cnt. */
static double run(const bench_inputs *in, size_t chunk, int collect,
                  int counting, run_stats *rs, countalloc *cnt, double *cpu) {
  sgf_tree_builder_callbacks cb = {sizeof(sgf_tree_builder_callbacks), on_game,
                                   on_diag, NULL};
  sgf_tree_builder_options o;
  sgf_options po;
  sgf_allocator a;
  sgf_tree_builder *b;
  sgf_parser *p;
  int st;
  const bench_buf *failed_on = NULL;
  double t0, t1, c0;
  memset(rs, 0, sizeof *rs);
  sgf_tree_builder_options_init(&o);
  sgf_options_init(&po);
  o.parser = &po;
  if (collect) o.flags |= SGF_TREE_COLLECT;
  o.flags |= tree_flags;
  if (counting) {
    countalloc_init(cnt, &a, 1);
    po.allocator = &a;
  }
  c0 = bench_cpu();
  t0 = bench_now();
  b = sgf_tree_builder_create(&cb, rs, &o);
  if (!b) {
    fprintf(stderr, "%s: could not create the builder\n", prog);
    return -1;
  }
  p = sgf_tree_builder_parser(b);
  st = feed_all(in, chunk, p, reset_builder, b, &failed_on);
  sgf_tree_builder_destroy(b);
  t1 = bench_now();
  *cpu = bench_cpu() - c0;
  if (st != SGF_OK) {
    fprintf(stderr, "%s: %s: parse status %s\n", prog,
            failed_on ? failed_on->name : "?", bench_status_name(st));
    return -1;
  }
  if (counting && bench_alloc_check(cnt, prog, "tree builder") != 0) return -1;
  return t1 - t0;
}

/* The same inputs through the floor builder (tree_floor.h); returns the
 * seconds taken, or -1 on failure. Never inlined, so that a profiler can
 * look at it alone: valgrind --tool=callgrind --toggle-collect=run_floor
 * bench/bench_tree -n 1 --no-count --floor-only call FILE */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static double
run_floor(const bench_inputs *in, size_t chunk, int positions, uint64_t *games,
          uint64_t *nodes) {
  tree_floor *f;
  sgf_parser *p;
  int st;
  double t0, t1;
  t0 = bench_now();
  f = tree_floor_create(positions);
  if (!f) {
    fprintf(stderr, "%s: could not create the floor builder\n", prog);
    return -1;
  }
  p = tree_floor_parser(f);
  st = feed_all(in, chunk, p, reset_floor, f, NULL);
  tree_floor_counts(f, games, nodes);
  tree_floor_destroy(f);
  t1 = bench_now();
  if (st != SGF_OK || *nodes == 0) {
    fprintf(stderr,
            "%s: the floor builder stopped (%s): a value over 64 KiB, "
            "a parse error or no memory\n",
            prog, bench_status_name(st));
    return -1;
  }
  return t1 - t0;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench_tree [-n REPS] [-c CHUNK] [-m MAXBYTES] [--collect] "
          "[--positions] [--no-count]\n"
          "                  [--no-floor] [--floor-only none|inline|call] "
          "[--results FILE]\n"
          "                  FILE | DIR | --list LISTFILE\n");
}

int main(int argc, char **argv) {
  int reps = 3, collect = 0, count = 1, floor = 1, floor_only = -1, i;
  size_t chunk = 65536, max = 0;
  const char *path = NULL, *results_path = NULL;
  bench_load_mode mode = BENCH_LOAD_PATH;
  bench_inputs in;
  double best = -1, best_cpu = -1, cpu;
  run_stats rs;
  countalloc cnt;
  FILE *results;
  memset(&cnt, 0, sizeof cnt);
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
      chunk = (size_t)strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &max) != 0) {
        fprintf(stderr, "%s: bad size for -m: %s\n", prog, argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--collect")) {
      collect = 1;
    } else if (!strcmp(argv[i], "--positions")) {
      tree_flags |= SGF_TREE_POSITIONS;
    } else if (!strcmp(argv[i], "--no-count")) {
      count = 0;
    } else if (!strcmp(argv[i], "--no-floor")) {
      floor = 0;
    } else if (!strcmp(argv[i], "--floor-only") && i + 1 < argc) {
      const char *m = argv[++i];
      floor_only = !strcmp(m, "none")     ? TREE_FLOOR_NO_POS
                   : !strcmp(m, "inline") ? TREE_FLOOR_POS_INLINE
                   : !strcmp(m, "call")   ? TREE_FLOOR_POS_CALL
                                          : -2;
      if (floor_only == -2) {
        usage(stderr);
        return 2;
      }
    } else if (!strcmp(argv[i], "--results") && i + 1 < argc) {
      results_path = argv[++i];
    } else if (!strcmp(argv[i], "--list") && i + 1 < argc && !path) {
      path = argv[++i];
      mode = BENCH_LOAD_LIST;
    } else if ((argv[i][0] == '-' && argv[i][1] != '\0') || path) {
      usage(stderr);
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (!path || reps < 1 || chunk == 0) {
    usage(stderr);
    return 2;
  }
  if (bench_load(prog, path, mode, max, &in) != 0) return 2;
  results = bench_results_open(prog, results_path);
  bench_warm(&in);

  /* timed runs: libc allocator */
  for (i = 0; i < reps; i++) {
    double t = run(&in, chunk, collect, 0, &rs, &cnt, &cpu);
    if (t < 0) {
      bench_inputs_free(&in);
      return 1;
    }
    if (best < 0 || t < best) best = t;
    if (best_cpu < 0 || cpu < best_cpu) best_cpu = cpu;
  }
  /* one untimed run with the counting allocator */
  if (count && run(&in, chunk, collect, 1, &rs, &cnt, &cpu) < 0) {
    bench_inputs_free(&in);
    return 1;
  }
  printf("tree builder, %s%s, %zu-byte chunks, best of %d\n",
         collect ? "collection" : "one game at a time",
         tree_flags ? ", positions kept" : "", chunk, reps);
  if (in.is_set)
    printf(
        "  input          %s: %zu files (builder reset between files), "
        "%" PRIu64 " bytes, %" PRIu64 " games, %" PRIu64 " nodes\n",
        in.what, in.count, in.bytes, rs.games, rs.nodes);
  else
    printf("  input          %s: %" PRIu64 " bytes, %" PRIu64
           " games, "
           "%" PRIu64 " nodes\n",
           in.what, in.bytes, rs.games, rs.nodes);
  printf("  time           %.3f s (CPU time %.3f s: %.1f MB/s)\n", best,
         best_cpu, (double)in.bytes / best_cpu / 1e6);
  printf("  MB/s           %.1f\n", (double)in.bytes / best / 1e6);
  printf("  games/s        %.0f\n", (double)rs.games / best);
  if (in.is_set) printf("  files/s        %.0f\n", (double)in.count / best);
  printf("  nodes/s        %.0f (%.1f ns/node)\n", (double)rs.nodes / best,
         best * 1e9 / (double)(rs.nodes ? rs.nodes : 1));
  printf("  tree memory    %" PRIu64
         " bytes: %.1f bytes/node, %.2f x input (GNU Go: about 120-146 "
         "bytes/node)\n",
         rs.tree_bytes,
         (double)rs.tree_bytes / (double)(rs.nodes ? rs.nodes : 1),
         (double)rs.tree_bytes / (double)(in.bytes ? in.bytes : 1));
  if (count) {
    printf("  peak memory    %zu bytes (largest tree %" PRIu64 " bytes)\n",
           cnt.peak, rs.biggest_tree);
    printf("  allocations    %zu\n", cnt.calls);
  }
  bench_result(results, collect ? "trees/collect" : "trees", in.bytes, best,
               rs.games, in.count, count ? cnt.peak : 0, count ? "heap" : "-");
  if (floor) { /* the floor: positions inline, by call, none */
    static const int modes[] = {TREE_FLOOR_POS_INLINE, TREE_FLOOR_POS_CALL,
                                TREE_FLOOR_NO_POS};
    static const char *const label[] = {"floor, no pos  ", "floor          ",
                                        "floor, pos call"};
    static const char *const what[] = {
        " only", " and the 3 positions (inline)",
        " and the 3 positions (sgf_parser_position calls)"};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
      const int pos = modes[m];
      double fbest = -1;
      uint64_t fg = 0, fn = 0;
      if (floor_only >= 0 && pos != floor_only) continue;
      for (i = 0; i < reps && fbest != -2; i++) {
        double t = run_floor(&in, chunk, pos, &fg, &fn);
        if (t < 0)
          fbest = -2; /* said why on stderr */
        else if (fbest < 0 || t < fbest)
          fbest = t;
      }
      if (fbest > 0 && fn != rs.nodes) {
        fprintf(stderr,
                "%s: the floor builder counted %" PRIu64
                " nodes, the builder %" PRIu64 ": no floor\n",
                prog, fn, rs.nodes);
        fbest = -2;
      }
      if (fbest < 0) {
        printf("  floor          not measured on this input\n");
        break;
      }
      printf(
          "  %s %7.1f MB/s (%.1f ns/node): bench/tree_floor.c, "
          "links and bytes%s\n",
          label[pos], (double)in.bytes / fbest / 1e6,
          fbest * 1e9 / (double)(fn ? fn : 1), what[pos]);
      if (pos == TREE_FLOOR_POS_INLINE)
        bench_result(results, "trees floor", in.bytes, fbest, fg, in.count, 0,
                     "-");
    }
  }
  if (results) fclose(results);
  bench_inputs_free(&in);
  return 0;
}
