/* log.c - the log of `sgf serve` (log.h). Lines are written whole with one
 * fprintf and flushed, so a reader of the file sees complete lines. The
 * shards' threads share it: a lock keeps SIGHUP's swap of the file from
 * a line being written. */
#define _POSIX_C_SOURCE 200809L

#include "log.h"

#include "decimal.h"

#include <stdarg.h>
#include <stdint.h>
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

/* The time stamp's seconds, formatted once a second (under the lock):
 * gmtime_r and strftime cost more than the rest of a line. */
static time_t stamp_sec = (time_t)-1;
static char stamp[32];
static size_t stamp_len;

/* One line, the message given formatted: the stamp before it, one write
 * to the stdio buffer. */
static void put_line(int flush, const char *msg, size_t len) {
  FILE *f;
  char line[1100], *q = line;
  struct timespec ts;
  long ms;
  clock_gettime(CLOCK_REALTIME, &ts);
  ms = ts.tv_nsec / 1000000;
  if (len > sizeof line - 64) len = sizeof line - 64;
  uv_mutex_lock(&log_lock);
  if (ts.tv_sec != stamp_sec) {
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    stamp_len = strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    stamp_sec = ts.tv_sec;
  }
  memcpy(q, stamp, stamp_len);
  q += stamp_len;
  *q++ = '.';
  *q++ = (char)('0' + ms / 100);
  *q++ = (char)('0' + ms / 10 % 10);
  *q++ = (char)('0' + ms % 10);
  memcpy(q, "Z sgf serve: ", 13);
  q += 13;
  memcpy(q, msg, len);
  q += len;
  *q++ = '\n';
  f = log_file ? log_file : stderr;
  fwrite(line, 1, (size_t)(q - line), f);
  if (flush) fflush(f);
  uv_mutex_unlock(&log_lock);
}

static void vslog(int flush, const char *fmt, va_list ap) {
  char line[1024];
  int n = vsnprintf(line, sizeof line, fmt, ap);
  if (n < 0) return;
  put_line(flush, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

void slogq_stored(const char *peer, uint64_t id, uint64_t index, uint64_t len,
                  const char *from, uint64_t offset, const char *name) {
  char line[1024], *q = line;
  size_t np = strnlen(peer, 256), nf = strlen(from);
  size_t nn = name ? strnlen(name, 512) : 0;
  memcpy(q, "stored ", 7);
  q += 7;
  memcpy(q, peer, np);
  q += np;
  memcpy(q, " #", 2);
  q += 2;
  q += decimal_u64(q, id);
  memcpy(q, " game ", 6);
  q += 6;
  q += decimal_u64(q, index);
  memcpy(q, ": ", 2);
  q += 2;
  q += decimal_u64(q, len);
  memcpy(q, " bytes from ", 12);
  q += 12;
  memcpy(q, from, nf);
  q += nf;
  *q++ = ' ';
  q += decimal_u64(q, offset);
  if (name) {
    memcpy(q, " as ", 4);
    memcpy(q + 4, name, nn);
    q += 4 + nn;
  }
  put_line(0, line, (size_t)(q - line));
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
