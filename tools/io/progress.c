/* progress.c - the progress line of progress.h.
 *
 * No timer: the line is drawn from progress_add_(), by whichever thread
 * reads bytes when the next update is due, so a job that reads nothing
 * for a while (one huge game being parsed) shows no update meanwhile.
 * That keeps the meter out of the loops of jobs.c and ranges.c and costs
 * nothing between reads.
 */
#define _POSIX_C_SOURCE 200809L

#include "progress.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#define FIRST_NS 500000000ull /* nothing before half a second */
#define EVERY_NS 250000000ull /* then four updates a second at most */

int progress_on_;
static int mode;
static const char *command;
static int64_t total; /* bytes, or -1 when unknown */
static uint64_t t0;
static _Atomic uint64_t bytes, games, next_ns;
static _Atomic int drawn; /* a line is on the screen */

void progress_mode(int m) { mode = m; }

void progress_option(int opt) {
  mode = opt == PROGRESS_OPT_ON ? PROGRESS_ON : PROGRESS_OFF;
}

/* The size of path if it is a file (regular or not a directory: an
 * archive, a compressed file, stdin on a file); -1 if unknown. */
static int64_t size_of(uv_loop_t *loop, const char *path) {
  uv_fs_t req;
  int64_t size = -1;
  int rc = strcmp(path, "-") == 0 ? uv_fs_fstat(loop, &req, 0, NULL)
                                  : uv_fs_stat(loop, &req, path, NULL);
  if (rc == 0 && S_ISREG(req.statbuf.st_mode))
    size = (int64_t)req.statbuf.st_size;
  uv_fs_req_cleanup(&req);
  return size;
}

void progress_start(const char *cmd, char **files, int nfiles) {
  uv_loop_t loop;
  int i;
  progress_on_ = mode == PROGRESS_ON || (mode == PROGRESS_AUTO && isatty(2));
  if (!progress_on_) return;
  command = cmd;
  total = 0;
  if (uv_loop_init(&loop) != 0) {
    total = -1;
  } else {
    for (i = 0; i < nfiles && total >= 0; i++) {
      int64_t s = size_of(&loop, files[i]);
      total = s < 0 ? -1 : total + s;
    }
    uv_loop_close(&loop);
  }
  t0 = uv_hrtime();
  atomic_store(&bytes, 0);
  atomic_store(&games, 0);
  atomic_store(&next_ns, t0 + (mode == PROGRESS_ON ? 0 : FIRST_NS));
}

/* "12.3 MB": decimal units, as sgf stats' MB/s. */
static void amount(char *buf, size_t n, double b) {
  static const char *unit[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (b >= 1000 && u < 4) {
    b /= 1000;
    u++;
  }
  snprintf(buf, n, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

static void draw(uint64_t now) {
  char line[256], done[32], all[32], rate[32];
  uint64_t b = atomic_load(&bytes), g = atomic_load(&games);
  double secs = (double)(now - t0) / 1e9, bps = secs > 0 ? b / secs : 0;
  int n;
  amount(done, sizeof done, (double)b);
  amount(rate, sizeof rate, bps);
  if (total > 0) {
    uint64_t t = (uint64_t)total, left;
    if (b > t) b = t; /* a file that grew, or a range read twice */
    amount(all, sizeof all, (double)t);
    left = bps > 0 ? (uint64_t)((double)(t - b) / bps) : 0;
    n = snprintf(line, sizeof line,
                 "\rsgf %s: %s of %s (%d%%), %llu games, %s/s, %llu:%02llu "
                 "left\033[K",
                 command, done, all, (int)(100.0 * (double)b / (double)t),
                 (unsigned long long)g, rate, (unsigned long long)left / 60,
                 (unsigned long long)left % 60);
  } else {
    n = snprintf(line, sizeof line, "\rsgf %s: %s, %llu games, %s/s\033[K",
                 command, done, (unsigned long long)g, rate);
  }
  if (n > 0 &&
      write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) > 0)
    atomic_store(&drawn, 1);
}

void progress_add_(uint64_t b, uint64_t g) {
  uint64_t now, due;
  if (b) atomic_fetch_add_explicit(&bytes, b, memory_order_relaxed);
  if (g) atomic_fetch_add_explicit(&games, g, memory_order_relaxed);
  now = uv_hrtime();
  due = atomic_load_explicit(&next_ns, memory_order_relaxed);
  /* One thread takes the update; the others go on. */
  if (now >= due &&
      atomic_compare_exchange_strong(&next_ns, &due, now + EVERY_NS))
    draw(now);
}

void progress_clear(void) {
  static const char erase[] = "\r\033[K";
  if (atomic_exchange(&drawn, 0) && write(2, erase, sizeof erase - 1) < 0)
    return; /* nothing to be done about it */
}

void progress_end(void) {
  progress_clear();
  progress_on_ = 0;
}
