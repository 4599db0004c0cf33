/* failsync.c - an LD_PRELOAD shim for test/serve/dirsync.sh: the
 * first fsync(2) of a directory fails with EIO (as a disk error would),
 * the later ones are the real fsync. Built by the test with $CC. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

int fsync(int fd) {
  static int failed;
  int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  struct stat st;
  if (!failed && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    failed = 1;
    errno = EIO;
    return -1;
  }
  return real ? real(fd) : 0;
}
