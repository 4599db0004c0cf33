/* bench/util.h - what the benchmark programs share besides loading: clocks,
 * the check of the counting allocator, option parsing helpers and the results
 * file that bench/run reads to print its summary table. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <sgfstream.h>

#include "countalloc.h"

#include <stdint.h>
#include <stdio.h>

/* CLOCK_MONOTONIC and CLOCK_PROCESS_CPUTIME_ID, in seconds. */
double bench_now(void);
double bench_cpu(void);

/* Process peak RSS (getrusage ru_maxrss), in bytes. */
uint64_t bench_maxrss(void);

/* The counting allocator is test/support/countalloc.h (countalloc_init
 * with a realloc hook). */
/* After destroy: 0 if nothing is live and every size was right, else -1
 * with a message on stderr naming prog and what. */
int bench_alloc_check(const countalloc *a, const char *prog, const char *what);

/* "123", "5k", "20M", "1G" (10^3 multiples). Returns 0 or -1. */
int bench_parse_size(const char *s, size_t *out);

const char *bench_status_name(int st);

/* "1.2 KiB", "3.4 MiB" ... */
void bench_format_bytes(uint64_t n, char *out, size_t outlen);

/* The results file (option --results FILE): one tab-separated line per
 * measurement, appended:
 *   name  bytes  seconds  games  files  peak_bytes  peak_kind
 * peak_kind is "heap" (the library's own memory, through the allocator
 * hooks), "rss" (the process) or "-" (no memory figure). NULL f: nothing. */
void bench_result(FILE *f, const char *name, uint64_t bytes, double seconds,
                  uint64_t games, uint64_t files, uint64_t peak,
                  const char *peak_kind);

/* Open FILE for appending (NULL path: returns NULL, no error). Exits with
 * status 2 if it cannot be opened. */
FILE *bench_results_open(const char *prog, const char *path);

#endif /* BENCH_UTIL_H */
