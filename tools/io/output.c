/* output.c - output files through libuv (see output.h). */
#define _POSIX_C_SOURCE 200809L

#include "output.h"

#include <poll.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

static const char *errmsg(int err) {
  /* libuv codes are negated errno values on Unix, except its own few. */
  if (err < 0 && err > -3000) return strerror(-err);
  return uv_strerror(err);
}

static int fail(output *o, const char *what, int err) {
  if (o->err == 0) {
    o->err = err;
    o->what = what;
  }
  return err;
}

const char *output_error(const output *o) {
  static char msg[300];
  if (o->err == 0) return NULL;
  snprintf(msg, sizeof msg, "%s: %s", o->what, errmsg(o->err));
  return msg;
}

void output_stdout(output *o, uv_loop_t *loop) {
  memset(o, 0, sizeof o[0]);
  o->loop = loop;
  o->fd = 1;
  o->is_stdout = 1;
}

static char *dup_string(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL) memcpy(d, s, n);
  return d;
}

/* DIR/.BASE.NNNNN-K.tmp: in the directory of path, hidden, unique. BASE
 * is cut to 200 bytes, so that a file whose name is near the longest a
 * directory allows (255 bytes) can still be replaced. */
static char *temp_name(const char *path, unsigned long pid, unsigned k) {
  const char *slash = strrchr(path, '/');
  size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
  const char *base = path + dirlen;
  size_t n = strlen(path) + 48;
  char *t = malloc(n);
  if (t == NULL) return NULL;
  snprintf(t, n, "%.*s.%.200s.%lu-%u.tmp", (int)dirlen, path, base, pid, k);
  return t;
}

/* Give the temporary file the owner and group of the file it replaces,
 * as far as we may: only root may give a file away, but a user may keep
 * the group when a member of it. Not being permitted is no failure: the
 * file then belongs to whoever rewrote it, as any new file would. */
static void keep_owner(output *o, uv_uid_t uid, uv_gid_t gid) {
  uv_fs_t req;
  int rc = uv_fs_fchown(o->loop, &req, o->fd, uid, gid, NULL);
  uv_fs_req_cleanup(&req);
  if (rc == UV_EPERM) {
    (void)uv_fs_fchown(o->loop, &req, o->fd, (uv_uid_t)-1, gid, NULL);
    uv_fs_req_cleanup(&req);
  }
}

int output_open(output *o, uv_loop_t *loop, const char *path, int atomic,
                const char *like) {
  uv_fs_t req;
  int rc, mode, owner = 0;
  uv_uid_t uid = 0;
  uv_gid_t gid = 0;
  unsigned k;
  mode_t mask = umask(0);
  umask(mask);
  mode = (int)(0666 & ~mask);
  memset(o, 0, sizeof o[0]);
  o->loop = loop;
  o->fd = -1;
  if (atomic && uv_fs_realpath(loop, &req, path, NULL) == 0) {
    /* Replace what a symbolic link points to, not the link. */
    o->path = dup_string(req.ptr);
    uv_fs_req_cleanup(&req);
  } else {
    if (atomic) uv_fs_req_cleanup(&req);
    o->path = dup_string(path);
  }
  if (o->path == NULL) return fail(o, "open", UV_ENOMEM);
  path = o->path;
  if (!atomic) {
    rc = uv_fs_open(loop, &req, path,
                    UV_FS_O_WRONLY | UV_FS_O_CREAT | UV_FS_O_TRUNC, mode, NULL);
    uv_fs_req_cleanup(&req);
    if (rc < 0) return fail(o, "create", rc);
    o->fd = rc;
    o->created = 1;
    return 0;
  }
  if (like != NULL) {
    rc = uv_fs_stat(loop, &req, like, NULL);
    if (rc == 0) {
      mode = (int)(req.statbuf.st_mode & 07777);
      uid = (uv_uid_t)req.statbuf.st_uid;
      gid = (uv_gid_t)req.statbuf.st_gid;
      owner = 1;
    }
    uv_fs_req_cleanup(&req);
  }
  for (k = 0; k < 100; k++) {
    o->tmp = temp_name(path, (unsigned long)uv_os_getpid(), k);
    if (o->tmp == NULL) return fail(o, "create", UV_ENOMEM);
    rc = uv_fs_open(loop, &req, o->tmp,
                    UV_FS_O_WRONLY | UV_FS_O_CREAT | UV_FS_O_EXCL, 0600, NULL);
    uv_fs_req_cleanup(&req);
    if (rc != UV_EEXIST) break;
    free(o->tmp);
    o->tmp = NULL;
  }
  if (rc < 0) {
    free(o->tmp);
    o->tmp = NULL;
    return fail(o, "create temporary file", rc);
  }
  o->fd = rc;
  if (owner) keep_owner(o, uid, gid);
  /* The mode of the file it replaces, or the usual one for a new file
   * (the temporary file was created private). After the owner: a change
   * of owner clears the set-user-ID bit. */
  rc = uv_fs_fchmod(loop, &req, o->fd, mode, NULL);
  uv_fs_req_cleanup(&req);
  return 0;
}

/* Wait until a non-blocking descriptor can take more. */
static void wait_writable(uv_file fd) {
  struct pollfd pfd;
  pfd.fd = fd;
  pfd.events = POLLOUT;
  pfd.revents = 0;
  (void)poll(&pfd, 1, -1);
}

int output_write(void *ctx, const char *buf, size_t len) {
  output *o = ctx;
  size_t done = 0;
  if (o->err != 0 || o->fd < 0) return -1;
  while (done < len) {
    uv_fs_t req;
    uv_buf_t b = uv_buf_init((char *)buf + done, (unsigned)(len - done));
    int rc = uv_fs_write(o->loop, &req, o->fd, &b, 1, -1, NULL);
    uv_fs_req_cleanup(&req);
    if (rc == UV_EAGAIN) {
      wait_writable(o->fd);
      continue;
    }
    if (rc <= 0) {
      fail(o, "write error", rc < 0 ? rc : UV_EIO);
      return -1;
    }
    done += (size_t)rc;
  }
  return (int)len;
}

static void close_fd(output *o) {
  uv_fs_t req;
  int rc;
  if (o->fd < 0 || o->is_stdout) return;
  rc = uv_fs_close(o->loop, &req, o->fd, NULL);
  uv_fs_req_cleanup(&req);
  if (rc < 0) fail(o, "close", rc);
  o->fd = -1;
}

static void release(output *o) {
  free(o->path);
  free(o->tmp);
  o->path = o->tmp = NULL;
}

int output_commit(output *o) {
  uv_fs_t req;
  int rc;
  if (o->is_stdout) return o->err != 0 ? -1 : 0;
  if (o->tmp != NULL && o->err == 0 && o->fd >= 0) {
    rc = uv_fs_fsync(o->loop, &req, o->fd, NULL);
    uv_fs_req_cleanup(&req);
    if (rc < 0) fail(o, "sync", rc);
  }
  close_fd(o);
  if (o->tmp != NULL) {
    if (o->err == 0) {
      rc = uv_fs_rename(o->loop, &req, o->tmp, o->path, NULL);
      uv_fs_req_cleanup(&req);
      if (rc < 0) fail(o, "rename", rc);
    }
    if (o->err != 0) {
      rc = uv_fs_unlink(o->loop, &req, o->tmp, NULL);
      uv_fs_req_cleanup(&req);
    }
  }
  release(o);
  return o->err != 0 ? -1 : 0;
}

void output_discard(output *o) {
  uv_fs_t req;
  if (o->is_stdout) return;
  close_fd(o);
  /* Only what this output created: never the name an atomic output was
   * to replace (its temporary file may not even exist, when creating it
   * failed), nor a file that could not be opened. */
  if (o->tmp != NULL || (o->created && o->path != NULL)) {
    (void)uv_fs_unlink(o->loop, &req, o->tmp != NULL ? o->tmp : o->path, NULL);
    uv_fs_req_cleanup(&req);
  }
  release(o);
}
