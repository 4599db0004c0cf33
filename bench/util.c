/* bench/util.c - see util.h. */
#define _POSIX_C_SOURCE 200809L

#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t bench_maxrss(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
  return (uint64_t)ru.ru_maxrss * 1024u; /* Linux: KiB */
}

/* ---------------------------------------------------------------------- */
/* Counting allocator check                                               */

int bench_alloc_check(const countalloc *a, const char *prog, const char *what) {
  if (a->live == 0 && a->bad == 0) return 0;
  fprintf(stderr,
          "%s: %s: allocator accounting: %zu bytes still live after "
          "destroy, %zu frees or reallocs with a wrong size\n",
          prog, what, a->live, a->bad);
  return -1;
}

/* ---------------------------------------------------------------------- */

int bench_parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno != 0 || end == s) return -1;
  switch (*end) {
    case '\0':
      break;
    case 'k':
    case 'K':
      v *= 1000ull;
      end++;
      break;
    case 'm':
    case 'M':
      v *= 1000000ull;
      end++;
      break;
    case 'g':
    case 'G':
      v *= 1000000000ull;
      end++;
      break;
    default:
      return -1;
  }
  if (*end != '\0') return -1;
  *out = (size_t)v;
  return 0;
}

const char *bench_status_name(int st) {
  switch (st) {
    case SGF_OK:
      return "SGF_OK";
    case SGF_PAUSED:
      return "SGF_PAUSED";
    case SGF_EABORTED:
      return "SGF_EABORTED";
    case SGF_EPARSE:
      return "SGF_EPARSE";
    case SGF_EBUSY:
      return "SGF_EBUSY";
  }
  return "unknown status";
}

void bench_format_bytes(uint64_t n, char *out, size_t outlen) {
  if (n < 1024)
    snprintf(out, outlen, "%" PRIu64 " B", n);
  else if (n < 1024u * 1024u)
    snprintf(out, outlen, "%.1f KiB", (double)n / 1024.0);
  else if (n < 1024ull * 1024u * 1024u)
    snprintf(out, outlen, "%.1f MiB", (double)n / (1024.0 * 1024.0));
  else
    snprintf(out, outlen, "%.2f GiB", (double)n / (1024.0 * 1024.0 * 1024.0));
}

void bench_result(FILE *f, const char *name, uint64_t bytes, double seconds,
                  uint64_t games, uint64_t files, uint64_t peak,
                  const char *peak_kind) {
  if (f == NULL) return;
  fprintf(f,
          "%s\t%" PRIu64 "\t%.9f\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%s\n",
          name, bytes, seconds, games, files, peak, peak_kind);
  fflush(f);
}

FILE *bench_results_open(const char *prog, const char *path) {
  if (path == NULL) return NULL;
  FILE *f = fopen(path, "a");
  if (f == NULL) {
    fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    exit(2);
  }
  return f;
}
