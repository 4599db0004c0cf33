/* log.c - the log of `sgf serve` (log.h). Lines are written whole with one
 * fprintf and flushed, so a reader of the file sees complete lines. The
 * shards' threads share it: a lock keeps SIGHUP's swap of the file from
 * a line being written. */
#define _POSIX_C_SOURCE 200809L

#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <uv.h>

static FILE *log_file;
static const char *log_path;
static uv_mutex_t log_lock;

int slog_open(const char *path) {
  static char ebuf[65536];
  uv_mutex_init(&log_lock);
  log_path = path;
  if (path == NULL) {
    /* buffered: slog() flushes each line, slogq() lets lines gather */
    setvbuf(stderr, ebuf, _IOFBF, sizeof ebuf);
    return 0;
  }
  log_file = fopen(path, "a");
  return log_file ? 0 : -1;
}

int slog_reopen(void) {
  FILE *f;
  if (log_path == NULL) return 0;
  f = fopen(log_path, "a");
  if (f == NULL) return -1;
  uv_mutex_lock(&log_lock);
  if (log_file) fclose(log_file);
  log_file = f;
  uv_mutex_unlock(&log_lock);
  return 0;
}

void slog_close(void) {
  if (log_file) fclose(log_file);
  log_file = NULL;
  uv_mutex_destroy(&log_lock);
}

static void vslog(int flush, const char *fmt, va_list ap) {
  FILE *f;
  char line[1024], stamp[32];
  struct timespec ts;
  struct tm tm;
  clock_gettime(CLOCK_REALTIME, &ts);
  gmtime_r(&ts.tv_sec, &tm);
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
  vsnprintf(line, sizeof line, fmt, ap);
  uv_mutex_lock(&log_lock);
  f = log_file ? log_file : stderr;
  fprintf(f, "%s.%03ldZ sgf serve: %s\n", stamp, ts.tv_nsec / 1000000, line);
  if (flush) fflush(f);
  uv_mutex_unlock(&log_lock);
}

void slog(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vslog(1, fmt, ap);
  va_end(ap);
}

void slogq(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vslog(0, fmt, ap);
  va_end(ap);
}

void slog_flush(void) {
  uv_mutex_lock(&log_lock);
  fflush(log_file ? log_file : stderr);
  uv_mutex_unlock(&log_lock);
}
