/* bench_write.c - throughput of parse + write: the push parser driving the
 * streaming writer (sgfstream/writer.h), on an in-memory input.
 *
 *   bench/bench_write [-n REPS] [-c CHUNK] [-m MAXBYTES]
 *                     [--layout compact|readable|both] [--no-check]
 *                     [--results FILE] FILE | DIR | --list LISTFILE
 *
 * The input is read into memory once (bench/load.c: a FILE is one input, a
 * DIR or the files named in LISTFILE one input per file). Each run parses
 * every input in CHUNK-byte pieces (default 64 KiB) with the writer's own
 * handlers, values whole (sgf_writer_copy_callbacks: move runs too, as `sgf
 * fmt` uses them) and writes it, in the compact and in the readable layout, to
 * a sink that only counts the bytes: the cost of parse
 * + write without any I/O. Between files the parser and the writer are
 * reset, as `sgf fmt` on many files would (each file's output is finished
 * first). Each line is the best (shortest) of REPS runs (default 3), timed
 * with CLOCK_MONOTONIC around the creation of parser and writer, the feed
 * loop, finish and flush (and reset) for every input, and destruction.
 * MB/s and games/s are of the input.
 *
 * One more, untimed run per layout (left out with --no-check) counts the
 * memory of parser and writer through sgf_allocator hooks (peak bytes live
 * at once; every free is checked to pass the size allocated) and checks
 * the output (written through sgf_writer_callbacks, the three value
 * events; test/corpus/roundtrip.c checks that both write the same bytes): its
 * sink feeds a second parser, in strict mode, one file's
 * output at a time, and that parser must see no diagnostic and the same
 * number of games, game trees, nodes, properties (those with a value: the
 * writer drops a property without one), values and value bytes as the
 * parse of the input. The output must not be empty.
 *
 * --results FILE appends one line per layout for bench/run's summary (see
 * util.h).
 *
 * MB means 10^6 bytes. Exit status: 0, 1 if a run did not parse or write,
 * leaked, or the check failed, 2 on usage or I/O errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <sgfstream.h>

#include "load.h"
#include "util.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char prog[] = "bench_write";

/* ---------------------------------------------------------------------- */
/* Structure counts                                                        */

typedef struct shape {
  uint64_t games, trees, nodes, properties, values, value_bytes, diagnostics;
  uint64_t depth;   /* open game trees */
  int pending_prop; /* a property whose first value has not come */
} shape;

static void on_tree_begin_count(shape *s) {
  s->trees++;
  if (s->depth++ == 0) s->games++;
}

static void on_tree_end_count(shape *s) {
  if (s->depth > 0) s->depth--;
}

static void on_value_begin_count(shape *s) {
  s->values++;
  if (s->pending_prop) {
    s->properties++; /* counted once it has a value */
    s->pending_prop = 0;
  }
}

/* The verifier's handlers: a plain parser over the written output. */
static int v_tree_begin(sgf_parser *p, void *u) {
  (void)p;
  on_tree_begin_count(u);
  return SGF_CONTINUE;
}
static int v_tree_end(sgf_parser *p, void *u) {
  (void)p;
  on_tree_end_count(u);
  return SGF_CONTINUE;
}
static int v_node(sgf_parser *p, void *u) {
  (void)p;
  ((shape *)u)->nodes++;
  return SGF_CONTINUE;
}
static int v_property(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p;
  (void)at;
  (void)len;
  ((shape *)u)->pending_prop = 1;
  return SGF_CONTINUE;
}
static int v_value_begin(sgf_parser *p, void *u) {
  (void)p;
  on_value_begin_count(u);
  return SGF_CONTINUE;
}
static int v_value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p;
  (void)at;
  ((shape *)u)->value_bytes += len;
  return SGF_CONTINUE;
}
static int v_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  shape *s = u;
  (void)p;
  if (s->diagnostics++ == 0)
    fprintf(stderr,
            "%s: check: the written output has a diagnostic: %s (%s) at "
            "%" PRIu64 ":%" PRIu64 "\n",
            prog, sgf_diag_message(d->code), sgf_diag_name(d->code),
            d->pos.line, d->pos.column);
  return SGF_CONTINUE;
}

static const sgf_callbacks verify_callbacks = {sizeof(sgf_callbacks),
                                               v_tree_begin,
                                               v_tree_end,
                                               v_node,
                                               v_property,
                                               v_value_begin,
                                               v_value_data,
                                               NULL,
                                               NULL,
                                               v_diagnostic,
                                               NULL,
                                               NULL,
                                               NULL};

/* ---------------------------------------------------------------------- */
/* Sinks                                                                   */

typedef struct sink {
  uint64_t bytes;
  uint64_t file_bytes; /* of the current input's output */
  sgf_parser *verify;  /* check run: the output is fed to this parser */
  int failed;
} sink;

static int sink_count(void *ctx, const char *buf, size_t len) {
  (void)buf;
  ((sink *)ctx)->bytes += len;
  return (int)len;
}

static int sink_verify(void *ctx, const char *buf, size_t len) {
  sink *s = ctx;
  s->bytes += len;
  s->file_bytes += len;
  if (!s->failed && sgf_parser_feed(s->verify, buf, len, NULL) != SGF_OK)
    s->failed = 1;
  return (int)len;
}

/* ---------------------------------------------------------------------- */
/* The check run's handlers: count the input's structure, then pass the
 * event on to the writer's handler (the parser's user pointer is the
 * writer; our context hangs on it through sgf_writer_set_user). */

static sgf_callbacks writer_cb; /* filled by sgf_writer_callbacks() */

static shape *in_shape(void *u) { return sgf_writer_user(u); }

static int w_tree_begin(sgf_parser *p, void *u) {
  on_tree_begin_count(in_shape(u));
  return writer_cb.on_tree_begin(p, u);
}
static int w_tree_end(sgf_parser *p, void *u) {
  on_tree_end_count(in_shape(u));
  return writer_cb.on_tree_end(p, u);
}
static int w_node(sgf_parser *p, void *u) {
  in_shape(u)->nodes++;
  return writer_cb.on_node(p, u);
}
static int w_property(sgf_parser *p, void *u, const char *at, size_t len) {
  in_shape(u)->pending_prop = 1;
  return writer_cb.on_property(p, u, at, len);
}
static int w_value_begin(sgf_parser *p, void *u) {
  on_value_begin_count(in_shape(u));
  return writer_cb.on_value_begin ? writer_cb.on_value_begin(p, u)
                                  : SGF_CONTINUE;
}
static int w_value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  in_shape(u)->value_bytes += len;
  return writer_cb.on_value_data(p, u, at, len);
}
static int w_value_end(sgf_parser *p, void *u) {
  return writer_cb.on_value_end(p, u);
}
static int w_property_end(sgf_parser *p, void *u) {
  return writer_cb.on_property_end ? writer_cb.on_property_end(p, u)
                                   : SGF_CONTINUE;
}

static const sgf_callbacks check_callbacks = {sizeof(sgf_callbacks),
                                              w_tree_begin,
                                              w_tree_end,
                                              w_node,
                                              w_property,
                                              w_value_begin,
                                              w_value_data,
                                              w_value_end,
                                              w_property_end,
                                              NULL,
                                              NULL,
                                              NULL,
                                              NULL};

/* ---------------------------------------------------------------------- */
/* One run                                                                 */

typedef struct run_result {
  double seconds;
  uint64_t out_bytes;
  shape input, output; /* check run only */
  countalloc mem;      /* check run only */
} run_result;

static void report_failure(const char *layout, const bench_buf *b,
                           sgf_parser *p, sgf_writer *w, int st) {
  fprintf(stderr, "%s: %s: %s: parse %s", prog, layout, b->name,
          bench_status_name(st));
  const sgf_diag *d = sgf_parser_error(p);
  if (d != NULL)
    fprintf(stderr, ": %s (%s) at %" PRIu64 ":%" PRIu64,
            sgf_diag_message(d->code), sgf_diag_name(d->code), d->pos.line,
            d->pos.column);
  if (sgf_writer_status(w) != SGF_OK)
    fprintf(stderr, "; writer: %s", sgf_strerror(sgf_writer_status(w)));
  fputc('\n', stderr);
}

/* Parse and write every input once. check: the counting allocator, the
 * counting handlers and the verifying sink. Returns 0 or -1 (reported). */
static int run(const bench_inputs *in, size_t chunk, sgf_layout layout,
               int check, run_result *res) {
  const char *lname = layout == SGF_LAYOUT_COMPACT ? "compact" : "readable";
  sgf_options popt;
  sgf_writer_options wopt;
  sgf_allocator hooks;
  sgf_callbacks cb;
  sink sk;
  sgf_parser *verify = NULL;
  int rc = 0;

  memset(res, 0, sizeof *res);
  memset(&sk, 0, sizeof sk);
  sgf_options_init(&popt);
  sgf_writer_options_init(&wopt);
  wopt.layout = layout;
  if (check) {
    sgf_options vopt;
    countalloc_init(&res->mem, &hooks, 1);
    popt.allocator = &hooks;
    wopt.allocator = &hooks;
    sgf_options_init(&vopt);
    vopt.flags = SGF_OPT_STRICT;
    verify = sgf_parser_create(&verify_callbacks, &res->output, &vopt);
    if (verify == NULL) {
      fprintf(stderr, "%s: could not create the checking parser\n", prog);
      return -1;
    }
    sk.verify = verify;
    cb = check_callbacks;
  } else {
    sgf_callbacks_init(&cb);
    sgf_writer_copy_callbacks(&cb); /* as sgf fmt */
  }

  double t0 = bench_now();
  sgf_writer *w =
      sgf_writer_create(check ? sink_verify : sink_count, &sk, &wopt);
  sgf_parser *p = w ? sgf_parser_create(&cb, w, &popt) : NULL;
  if (p == NULL) {
    fprintf(stderr, "%s: could not create the parser or the writer\n", prog);
    sgf_writer_destroy(w);
    sgf_parser_destroy(verify);
    return -1;
  }
  if (check) sgf_writer_set_user(w, &res->input);

  for (size_t i = 0; i < in->count && rc == 0; i++) {
    const bench_buf *b = &in->bufs[i];
    size_t off = 0;
    int st = SGF_OK;
    if (i > 0) {
      sgf_parser_reset(p);
      sgf_writer_reset(w, NULL, NULL);
      if (verify) sgf_parser_reset(verify);
    }
    sk.file_bytes = 0;
    while (off < b->len && st == SGF_OK) {
      size_t n = b->len - off < chunk ? b->len - off : chunk, used = 0;
      st = sgf_parser_feed(p, b->data + off, n, &used);
      off += used;
    }
    if (st == SGF_OK) st = sgf_parser_finish(p);
    if (st != SGF_OK || sgf_writer_finish(w) != 0) {
      report_failure(lname, b, p, w, st);
      rc = -1;
    }
    /* An input without a game tree writes nothing, and nothing is no
     * valid SGF: there is no output to check then. */
    if (verify && rc == 0 && !sk.failed && sk.file_bytes > 0 &&
        sgf_parser_finish(verify) != SGF_OK)
      sk.failed = 1;
    if (sk.failed && rc == 0) {
      const sgf_diag *d = sgf_parser_error(verify);
      fprintf(stderr, "%s: check: %s: the %s output of %s does not parse", prog,
              lname, lname, b->name);
      if (d != NULL)
        fprintf(stderr, ": %s (%s) at %" PRIu64 ":%" PRIu64,
                sgf_diag_message(d->code), sgf_diag_name(d->code), d->pos.line,
                d->pos.column);
      fputc('\n', stderr);
      rc = -1;
    }
  }
  sgf_parser_destroy(p);
  sgf_writer_destroy(w);
  res->seconds = bench_now() - t0;
  res->out_bytes = sk.bytes;
  sgf_parser_destroy(verify);
  if (check && bench_alloc_check(&res->mem, prog, lname) != 0) rc = -1;
  return rc;
}

/* The check: the output's structure is the input's. */
static int same_shape(const char *lname, const shape *a, const shape *b) {
  if (a->games == b->games && a->trees == b->trees && a->nodes == b->nodes &&
      a->properties == b->properties && a->values == b->values &&
      a->value_bytes == b->value_bytes && b->diagnostics == 0)
    return 1;
  fprintf(stderr,
          "%s: check: %s: input / re-parsed output differ: games %" PRIu64
          " / %" PRIu64 ", game trees %" PRIu64 " / %" PRIu64 ", nodes %" PRIu64
          " / %" PRIu64 ", properties %" PRIu64 " / %" PRIu64
          ", values %" PRIu64 " / %" PRIu64 ", value bytes %" PRIu64
          " / %" PRIu64 ", diagnostics in the output %" PRIu64 "\n",
          prog, lname, a->games, b->games, a->trees, b->trees, a->nodes,
          b->nodes, a->properties, b->properties, a->values, b->values,
          a->value_bytes, b->value_bytes, b->diagnostics);
  return 0;
}

/* ---------------------------------------------------------------------- */

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench_write [-n REPS] [-c CHUNK] [-m MAXBYTES] "
          "[--layout compact|readable|both]\n"
          "                   [--no-check] [--results FILE] "
          "FILE | DIR | --list LISTFILE\n");
}

int main(int argc, char **argv) {
  int reps = 3, check = 1, want_compact = 1, want_readable = 1;
  size_t chunk = 65536, max = 0;
  const char *path = NULL, *results_path = NULL;
  bench_load_mode mode = BENCH_LOAD_PATH;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "-n") && i + 1 < argc) {
      reps = atoi(argv[++i]);
    } else if (!strcmp(a, "-c") && i + 1 < argc) {
      chunk = (size_t)strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(a, "-m") && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &max) != 0) {
        fprintf(stderr, "%s: bad size for -m: %s\n", prog, argv[i]);
        return 2;
      }
    } else if (!strcmp(a, "--layout") && i + 1 < argc) {
      const char *l = argv[++i];
      want_compact = !strcmp(l, "compact") || !strcmp(l, "both");
      want_readable = !strcmp(l, "readable") || !strcmp(l, "both");
      if (!want_compact && !want_readable) {
        usage(stderr);
        return 2;
      }
    } else if (!strcmp(a, "--no-check")) {
      check = 0;
    } else if (!strcmp(a, "--results") && i + 1 < argc) {
      results_path = argv[++i];
    } else if (!strcmp(a, "--list") && i + 1 < argc && !path) {
      path = argv[++i];
      mode = BENCH_LOAD_LIST;
    } else if ((a[0] == '-' && a[1] != '\0') || path) {
      usage(stderr);
      return 2;
    } else {
      path = a;
    }
  }
  if (!path || reps < 1 || chunk == 0) {
    usage(stderr);
    return 2;
  }

  sgf_callbacks_init(&writer_cb);
  sgf_writer_callbacks(&writer_cb);

  bench_inputs in;
  if (bench_load(prog, path, mode, max, &in) != 0) return 2;
  FILE *results = bench_results_open(prog, results_path);
  bench_warm(&in);

  char desc[512];
  bench_describe(&in, desc, sizeof desc);
  printf(
      "parse + write (streaming writer, sink counting bytes), %zu-byte "
      "chunks, best of %d\n  input: %s%s\n",
      chunk, reps, desc,
      in.is_set ? ", each file a separate input (parser and writer "
                  "reset between files)"
                : "");
  printf("  %-9s %9s %11s", "layout", "MB/s", "games/s");
  if (in.is_set) printf(" %9s", "files/s");
  printf(" %11s %8s %10s\n", "output MB", "out/in", "memory");

  int failed = 0;
  uint64_t games = 0;
  const sgf_layout layouts[2] = {SGF_LAYOUT_COMPACT, SGF_LAYOUT_READABLE};
  const int wanted[2] = {want_compact, want_readable};
  shape first_input;
  memset(&first_input, 0, sizeof first_input);
  int have_first = 0;
  for (int l = 0; l < 2; l++) {
    if (!wanted[l]) continue;
    const char *lname = l == 0 ? "compact" : "readable";
    run_result res, chk;
    double best = -1;
    uint64_t out_bytes = 0;
    memset(&chk, 0, sizeof chk);
    int ok = 1;
    for (int r = 0; r < reps; r++) {
      if (run(&in, chunk, layouts[l], 0, &res) != 0) {
        ok = 0;
        break;
      }
      if (best < 0 || res.seconds < best) best = res.seconds;
      out_bytes = res.out_bytes;
    }
    if (!ok) {
      failed = 1;
      continue;
    }
    if (check) {
      if (run(&in, chunk, layouts[l], 1, &chk) != 0) {
        failed = 1;
      } else {
        if (!same_shape(lname, &chk.input, &chk.output)) failed = 1;
        if (chk.out_bytes != out_bytes) {
          fprintf(stderr,
                  "%s: %s: the check run wrote %" PRIu64
                  " bytes, the timed "
                  "runs %" PRIu64 "\n",
                  prog, lname, chk.out_bytes, out_bytes);
          failed = 1;
        }
        if (!have_first) {
          first_input = chk.input;
          have_first = 1;
        }
        games = chk.input.games;
      }
    }
    if (out_bytes == 0 && (check ? games > 0 : in.bytes > 0)) {
      fprintf(stderr, "%s: %s: the output is empty\n", prog, lname);
      failed = 1;
    }
    char mem[32] = "-", gs[32] = "-";
    if (check) bench_format_bytes(chk.mem.peak, mem, sizeof mem);
    if (games > 0) snprintf(gs, sizeof gs, "%.0f", (double)games / best);
    printf("  %-9s %9.1f %11s", lname, (double)in.bytes / 1e6 / best, gs);
    if (in.is_set) printf(" %9.0f", (double)in.count / best);
    printf(" %11.1f %7.2fx %10s\n", (double)out_bytes / 1e6,
           in.bytes ? (double)out_bytes / (double)in.bytes : 0.0, mem);
    fflush(stdout);
    char label[32];
    snprintf(label, sizeof label, "write/%s", lname);
    bench_result(results, label, in.bytes, best, games, in.count,
                 check ? chk.mem.peak : 0, check ? "heap" : "-");
  }
  if (check && have_first)
    printf(
        "  check: %s: re-parsing the output (strict) gives the same "
        "%" PRIu64 " games, %" PRIu64 " game trees, %" PRIu64
        " nodes, "
        "%" PRIu64 " properties, %" PRIu64 " values, %" PRIu64
        " value bytes, no diagnostic\n",
        failed ? "FAILED (see above)" : "ok", first_input.games,
        first_input.trees, first_input.nodes, first_input.properties,
        first_input.values, first_input.value_bytes);
  else if (!check)
    printf("  check: skipped (--no-check); games/s and memory not known\n");
  printf(
      "  memory: the peak of the bytes parser and writer hold, through "
      "the allocator hooks (the input buffers not included)\n");

  if (results) fclose(results);
  bench_inputs_free(&in);
  return failed ? 1 : 0;
}
