/* bench_tree.c - throughput of the tree builder (sgfstream/tree.h) on an
 * in-memory input.
 *
 *   bench/bench_tree [-n REPS] [-c CHUNK] [-m MAXBYTES] [--collect]
 *                    [--no-count] FILE
 *
 * The file is read into memory once and fed to a builder in CHUNK-byte
 * pieces (default 64 KiB). In the default one-game-at-a-time mode on_game
 * only counts the game and returns (the builder frees the tree); with
 * --collect every tree is kept in the builder's collection, which is
 * freed at the end of the run. Each line is the best (shortest) of REPS
 * runs (default 3), timed with CLOCK_MONOTONIC around builder creation,
 * the feed loop, finish and destruction.
 *
 * Memory is counted through sgf_allocator hooks in one more, untimed run
 * (left out with --no-count, e.g. under callgrind, where -n 1 --no-count
 * is exactly one pass over the input): "peak" is the highest number of
 * bytes outstanding at once (parser, builder buffers, trees), and every
 * free is checked to give back the size that was allocated.
 *
 * MB means 10^6 bytes. Exit status: 0, 1 if a run did not parse or leaked,
 * 2 on usage or I/O errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <sgfstream.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU time of the process: on a shared machine, less disturbed by other
 * processes than the wall clock (the numbers are still the wall clock's). */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *load_file(const char *path, size_t max, size_t *len_out) {
  struct stat st;
  size_t cap, len = 0;
  char *buf;
  int fd = open(path, O_RDONLY);
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(stderr, "bench_tree: %s: %s\n", path, strerror(errno));
    if (fd >= 0) close(fd);
    return NULL;
  }
  cap = (size_t)st.st_size;
  if (max && cap > max) cap = max;
  buf = malloc(cap ? cap : 1);
  if (!buf) {
    fprintf(stderr, "bench_tree: out of memory\n");
    close(fd);
    return NULL;
  }
  while (len < cap) {
    ssize_t r = read(fd, buf + len, cap - len);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      fprintf(stderr, "bench_tree: %s: %s\n", path, strerror(errno));
      free(buf);
      close(fd);
      return NULL;
    }
    if (r == 0) break;
    len += (size_t)r;
  }
  close(fd);
  *len_out = len;
  return buf;
}

/* ---------------------------------------------------------------------- */
/* A counting allocator                                                     */

typedef struct counter {
  size_t outstanding, peak, calls;
  int bad_size;
} counter;

#define AHDR 16

static void *a_malloc(void *ctx, size_t size) {
  counter *c = ctx;
  char *p = malloc(size + AHDR);
  if (!p) return NULL;
  memcpy(p, &size, sizeof size);
  c->calls++;
  c->outstanding += size;
  if (c->outstanding > c->peak) c->peak = c->outstanding;
  return p + AHDR;
}

static void a_free(void *ctx, void *ptr, size_t size) {
  counter *c = ctx;
  size_t real;
  char *p;
  if (!ptr) return;
  p = (char *)ptr - AHDR;
  memcpy(&real, p, sizeof real);
  if (real != size) c->bad_size = 1;
  c->outstanding -= real;
  free(p);
}

static void *a_realloc(void *ctx, void *ptr, size_t old, size_t size) {
  counter *c = ctx;
  size_t real;
  char *p = (char *)ptr - AHDR;
  memcpy(&real, p, sizeof real);
  if (real != old) c->bad_size = 1;
  p = realloc(p, size + AHDR);
  if (!p) return NULL;
  memcpy(p, &size, sizeof size);
  c->calls++;
  c->outstanding = c->outstanding - real + size;
  if (c->outstanding > c->peak) c->peak = c->outstanding;
  return p + AHDR;
}

/* ---------------------------------------------------------------------- */
/* One run                                                                  */

typedef struct run_stats {
  uint64_t games, nodes, biggest_tree;
} run_stats;

static int on_game(sgf_tree_builder *b, void *user, sgf_tree *t) {
  run_stats *r = user;
  uint64_t bytes = sgf_tree_byte_count(t);
  (void)b;
  r->games++;
  r->nodes += sgf_tree_node_count(t);
  if (bytes > r->biggest_tree) r->biggest_tree = bytes;
  return SGF_CONTINUE;
}

static int on_diag(sgf_parser *p, void *user, const sgf_diag *d) {
  (void)p;
  (void)user;
  (void)d;
  return SGF_CONTINUE;
}

/* Build trees over data; returns the seconds taken, or -1 on failure. */
static double run(const char *data, size_t len, size_t chunk, int collect,
                  int counting, run_stats *rs, counter *cnt, double *cpu) {
  sgf_tree_builder_callbacks cb = {on_game, on_diag, NULL};
  sgf_tree_builder_options o;
  sgf_allocator a = {a_malloc, a_realloc, a_free, cnt};
  sgf_tree_builder *b;
  sgf_parser *p;
  sgf_status st = SGF_OK;
  size_t off = 0;
  double t0, t1, c0;
  memset(rs, 0, sizeof *rs);
  memset(cnt, 0, sizeof *cnt);
  sgf_tree_builder_options_init(&o);
  if (collect) o.flags |= SGF_TREE_COLLECT;
  if (counting) o.parser.allocator = &a;
  c0 = cpu_seconds();
  t0 = now_seconds();
  b = sgf_tree_builder_create(&cb, rs, &o);
  if (!b) return -1;
  p = sgf_tree_builder_parser(b);
  while (off < len && st == SGF_OK) {
    size_t n = len - off < chunk ? len - off : chunk, used = 0;
    st = sgf_parser_feed(p, data + off, n, &used);
    off += used;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  sgf_tree_builder_destroy(b);
  t1 = now_seconds();
  *cpu = cpu_seconds() - c0;
  if (st != SGF_OK) {
    fprintf(stderr, "bench_tree: parse status %d\n", (int)st);
    return -1;
  }
  if (counting && (cnt->outstanding != 0 || cnt->bad_size)) {
    fprintf(stderr, "bench_tree: allocator misuse (outstanding %zu)\n",
            cnt->outstanding);
    return -1;
  }
  return t1 - t0;
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench_tree [-n REPS] [-c CHUNK] [-m MAXBYTES] [--collect] "
          "[--no-count] FILE\n");
}

int main(int argc, char **argv) {
  int reps = 3, collect = 0, count = 1, i;
  size_t chunk = 65536, max = 0, len = 0;
  const char *path = NULL;
  char *data;
  double best = -1, best_cpu = -1, cpu;
  run_stats rs;
  counter cnt;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "-c") && i + 1 < argc) {
      chunk = (size_t)strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      max = (size_t)strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "--collect")) {
      collect = 1;
    } else if (!strcmp(argv[i], "--no-count")) {
      count = 0;
    } else if (argv[i][0] == '-' || path) {
      usage();
      return 2;
    } else {
      path = argv[i];
    }
  }
  if (!path || reps < 1 || chunk == 0) {
    usage();
    return 2;
  }
  data = load_file(path, max, &len);
  if (!data) return 2;

  /* timed runs: libc allocator hooks */
  for (i = 0; i < reps; i++) {
    double t = run(data, len, chunk, collect, 0, &rs, &cnt, &cpu);
    if (t < 0) {
      free(data);
      return 1;
    }
    if (best < 0 || t < best) best = t;
    if (best_cpu < 0 || cpu < best_cpu) best_cpu = cpu;
  }
  /* one untimed run with the counting allocator */
  if (count && run(data, len, chunk, collect, 1, &rs, &cnt, &cpu) < 0) {
    free(data);
    return 1;
  }
  printf("tree builder, %s, %zu-byte chunks, best of %d\n",
         collect ? "collection" : "one game at a time", chunk, reps);
  printf("  input          %zu bytes, %" PRIu64 " games, %" PRIu64 " nodes\n",
         len, rs.games, rs.nodes);
  printf("  time           %.3f s (CPU time %.3f s: %.1f MB/s)\n", best,
         best_cpu, (double)len / best_cpu / 1e6);
  printf("  MB/s           %.1f\n", (double)len / best / 1e6);
  printf("  games/s        %.0f\n", (double)rs.games / best);
  printf("  nodes/s        %.0f (%.1f ns/node)\n", (double)rs.nodes / best,
         best * 1e9 / (double)(rs.nodes ? rs.nodes : 1));
  if (count) {
    printf("  peak memory    %zu bytes (largest tree %" PRIu64 " bytes)\n",
           cnt.peak, rs.biggest_tree);
    printf("  allocations    %zu\n", cnt.calls);
  }
  free(data);
  return 0;
}
