/* check_runs.c - the semantic checks (sgfstream/check.h) over files,
 * with MOVE RUNS and without (test/check-runs.sh): sgf_check_moves()
 * decides a run's nodes in bulk and sends only those that can fail the
 * long way, and must find what the checks of each event find without
 * runs (fz_semantic_log in test/support/harness_check.c logs both ways).
 *
 *   check_runs [-v] [--every] FILE...
 *
 * Each FILE is checked without on_moves, fed whole (the reference), and
 * with on_moves: fed whole, in chunks of 1, 2, 3, 5, 7, 64 and 4096
 * bytes, and cut in two at 64 points spread over the input (with
 * --every: at every byte, so that every run is cut everywhere); each
 * again in strict mode (the first finding stops the parse). Every log
 * (the diagnostics with their positions and marks, the result, the
 * counts) must be the reference's: prints the first difference and exits
 * 1; exits 2 if a file cannot be read. -v prints per file the findings
 * and how many runs on_moves took (fed whole). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static char *slurp(const char *name, size_t *len) {
  FILE *f = fopen(name, "rb");
  bytebuf b;
  char chunk[65536];
  size_t k;
  if (!f) return NULL;
  bytebuf_init(&b);
  while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) bytebuf_add(&b, chunk, k);
  if (ferror(f)) {
    fclose(f);
    bytebuf_free(&b);
    return NULL;
  }
  fclose(f);
  bytebuf_add(&b, "", 1); /* not empty: p is set */
  *len = b.len - 1;
  return b.p;
}

/* One comparison; 1 if it differs (printed). */
static int compare(const char *name, const char *how, const bytebuf *ref,
                   const bytebuf *got) {
  const char *err = fz_semantic_differ(ref, got);
  if (!err) return 0;
  printf("FAIL: %s: %s: %s\n", name, how, err);
  return 1;
}

int main(int argc, char **argv) {
  static const size_t chunks[] = {1, 2, 3, 5, 7, 64, 4096};
  bytebuf ref, got;
  sgf_options opt;
  int i, every = 0, verbose = 0, fail = 0, strict;
  unsigned long files = 0, runs = 0;
  for (i = 1; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "--every") == 0) {
      every = 1;
    } else if (strcmp(argv[i], "-v") == 0) {
      verbose = 1;
    } else {
      fprintf(stderr, "usage: check_runs [-v] [--every] FILE...\n");
      return 2;
    }
  }
  bytebuf_init(&ref);
  bytebuf_init(&got);
  for (; i < argc; i++) {
    size_t len, c, k, step;
    char *in = slurp(argv[i], &len);
    char how[64];
    unsigned long whole_runs = 0;
    if (!in) {
      fprintf(stderr, "check_runs: cannot read %s\n", argv[i]);
      return 2;
    }
    files++;
    for (strict = 0; strict <= 1; strict++) {
      const char *mode = strict ? "strict, " : "";
      int bad = 0;
      sgf_options_init(&opt);
      if (strict) opt.flags |= SGF_OPT_STRICT;
      fz_semantic_log(in, len, &opt, 0, NULL, 0, 0, &ref);
      k = fz_semantic_log(in, len, &opt, 1, NULL, 0, 0, &got);
      if (!strict) whole_runs = (unsigned long)k;
      snprintf(how, sizeof how, "%swhole", mode);
      bad |= compare(argv[i], how, &ref, &got);
      if (verbose && !strict)
        printf("%s: %lu runs whole; the findings:\n%.*s", argv[i], whole_runs,
               (int)ref.len, ref.p ? ref.p : "");
      for (c = 0; c < sizeof chunks / sizeof chunks[0] && !bad; c++) {
        runs += fz_semantic_log(in, len, &opt, 1, &chunks[c], 1, 0, &got);
        snprintf(how, sizeof how, "%sin chunks of %zu", mode, chunks[c]);
        bad |= compare(argv[i], how, &ref, &got);
      }
      step = every || len <= 64 ? 1 : len / 64;
      for (k = 1; k < len && !bad; k += step) {
        runs += fz_semantic_log(in, len, &opt, 1, NULL, 0, k, &got);
        snprintf(how, sizeof how, "%scut at byte %zu", mode, k);
        bad |= compare(argv[i], how, &ref, &got);
      }
      fail |= bad;
    }
    runs += whole_runs;
    free(in);
  }
  bytebuf_free(&ref);
  bytebuf_free(&got);
  printf("check_runs: %lu files, %lu runs taken: %s\n", files, runs,
         fail ? "FINDINGS DIFFER" : "the same findings with runs and without");
  return fail;
}
