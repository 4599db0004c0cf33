/* failfile.c - an LD_PRELOAD shim for test/serve/failfile.sh: I/O
 * errors on one file, the sink's (SGF_FAIL_PATH, as the fd's
 * /proc/self/fd link names it), as a failing disk gives them.
 * SGF_FAIL_MODE:
 *   sync   the first fdatasync(2) fails with EIO;
 *   trunc  the first write(2) writes half its bytes, the next one fails
 *          with ENOSPC, and the first ftruncate(2) fails with EIO.
 * Built by the test with $CC. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static int is_target(int fd) {
  char link[64], path[4096];
  const char *want = getenv("SGF_FAIL_PATH");
  ssize_t n;
  if (want == NULL) return 0;
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  n = readlink(link, path, sizeof path - 1);
  if (n < 0) return 0;
  path[n] = '\0';
  return strcmp(path, want) == 0;
}

static int mode(const char *m) {
  const char *v = getenv("SGF_FAIL_MODE");
  return v != NULL && strcmp(v, m) == 0;
}

int fdatasync(int fd) {
  static int failed;
  int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  if (mode("sync") && !failed && is_target(fd)) {
    failed = 1;
    errno = EIO;
    return -1;
  }
  return real ? real(fd) : 0;
}

ssize_t write(int fd, const void *buf, size_t len) {
  static int step;
  ssize_t (*real)(int, const void *, size_t) =
      (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
  if (mode("trunc") && step < 2 && is_target(fd)) {
    if (step++ == 0 && len > 1) return real(fd, buf, len / 2);
    errno = ENOSPC;
    return -1;
  }
  return real(fd, buf, len);
}

int ftruncate(int fd, off_t len) {
  static int failed;
  int (*real)(int, off_t) = (int (*)(int, off_t))dlsym(RTLD_NEXT, "ftruncate");
  if (mode("trunc") && !failed && is_target(fd)) {
    failed = 1;
    errno = EIO;
    return -1;
  }
  return real(fd, len);
}
