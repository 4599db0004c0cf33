/* bench/load.h - the input of a benchmark program, loaded into memory
 * before any timing: one file (a collection), or every .sgf file of a
 * directory, or the files named in a list, each its own buffer.
 *
 * A benchmark then times parsing each buffer as a separate input, as a
 * program handling many small files would: one buffer for a collection,
 * one per file for a directory or a list.
 */
#ifndef BENCH_LOAD_H
#define BENCH_LOAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_buf {
  const char *data;
  size_t len;
  const char *name; /* the path it was read from */
} bench_buf;

typedef struct bench_inputs {
  bench_buf *bufs;
  size_t count;     /* number of buffers (files) */
  uint64_t bytes;   /* total over all buffers */
  int is_set;       /* 1: a directory or a list (one buffer per file) */
  const char *what; /* the path given */
  /* private */
  char *arena; /* every file's bytes, one after the other */
  char *names; /* every name, NUL-terminated, one after the other */
} bench_inputs;

/* How bench_load() reads PATH. */
typedef enum bench_load_mode {
  BENCH_LOAD_PATH = 0, /* a file (one buffer) or a directory (every file
                          below it whose name ends in ".sgf", any case,
                          sorted byte-wise by path; the walk is iterative
                          and does not follow symbolic links to
                          directories) */
  BENCH_LOAD_LIST = 1  /* PATH is a text file naming one file per line
                          (relative to the current directory); they are
                          read in that order */
} bench_load_mode;

/* Load PATH into *in. max_bytes > 0 keeps only that much: the first
 * max_bytes bytes of a single file, or the first whole files of a set
 * whose total stays within max_bytes (at least one). Errors are printed
 * to stderr prefixed with prog. Returns 0, or -1 on error (nothing to
 * free then). */
int bench_load(const char *prog, const char *path, bench_load_mode mode,
               size_t max_bytes, bench_inputs *in);

void bench_inputs_free(bench_inputs *in);

/* Touch every page of the input (page faults, caches) before timing. */
void bench_warm(const bench_inputs *in);

/* The ceiling: newlines counted with memchr() over every buffer. */
uint64_t bench_count_newlines(const bench_inputs *in);

/* "FILE (N bytes)" or "DIR: N files, N bytes" for the heading. */
void bench_describe(const bench_inputs *in, char *out, size_t outlen);

#endif /* BENCH_LOAD_H */
