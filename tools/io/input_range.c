/* input_range.c - byte ranges of one plain file, for reading a large file
 * in several tasks of the thread pool at once (ranges.c). Positional
 * uv_fs_read calls done in place (the caller is on a pool thread), into
 * the reader's buffer. */
#define _POSIX_C_SOURCE 200809L

#include "input_priv.h"
#include "progress.h"

#include <string.h>
#include <sys/stat.h>

#define PROBE ((size_t)40 << 10) /* bytes input_plain_size() looks at */

static int open_file(input_reader *r, const char *path) {
  uv_fs_t req;
  int fd = uv_fs_open(&r->loop, &req, path, UV_FS_O_RDONLY, 0, NULL);
  uv_fs_req_cleanup(&req);
  return fd;
}

static void close_file(input_reader *r, int fd) {
  uv_fs_t req;
  uv_fs_close(&r->loop, &req, fd, NULL);
  uv_fs_req_cleanup(&req);
}

/* Read up to cap bytes at off: > 0 read, 0 at end, < 0 a libuv error. */
static ssize_t read_at(input_reader *r, int fd, char *buf, size_t cap,
                       int64_t off) {
  uv_fs_t req;
  uv_buf_t b = uv_buf_init(buf, (unsigned)cap);
  ssize_t n;
  uv_fs_read(&r->loop, &req, fd, &b, 1, off, NULL);
  n = req.result;
  uv_fs_req_cleanup(&req);
  if (n > 0) progress_bytes((uint64_t)n);
  return n;
}

int64_t input_plain_size(input_reader *r, const char *path, int64_t min_size) {
  uv_fs_t req;
  int64_t size = -1;
  ssize_t n;
  int fd;
  if (strcmp(path, "-") == 0) return -1;
  fd = open_file(r, path);
  if (fd < 0) return -1;
  if (uv_fs_fstat(&r->loop, &req, fd, NULL) == 0 &&
      S_ISREG(req.statbuf.st_mode))
    size = (int64_t)req.statbuf.st_size;
  uv_fs_req_cleanup(&req);
  if (size >= 0 && size < min_size) size = -1;
  if (size >= 0) {
    /* Enough for every signature input__archive_magic() knows (the last,
     * ISO 9660's, is at 32769), and no more: the bytes are read again. */
    n = read_at(r, fd, r->rbuf, r->rcap < PROBE ? r->rcap : PROBE, 0);
    if (n <= 0 ||
        (input__sgf_name(path) != INPUT__SGF_PLAIN &&
         input__archive_magic((const unsigned char *)r->rbuf, (size_t)n) !=
             INPUT__MAGIC_NONE) ||
        sgf_utf16_detect(r->rbuf, (size_t)n, 1, NULL) != SGF_UTF16_NONE)
      size = -1; /* UTF-16 is transcoded from its start: not in ranges */
  }
  close_file(r, fd);
  return size;
}

int input_read_range(input_reader *r, const char *path, int64_t off,
                     int64_t len, size_t first,
                     int (*data)(void *ctx, const char *buf, size_t n),
                     void *ctx) {
  int fd = open_file(r, path), rc = 0;
  size_t chunk = first > 0 && first < r->rcap ? first : r->rcap;
  if (fd < 0) return fd;
  while (len > 0) {
    size_t want = len < (int64_t)chunk ? (size_t)len : chunk;
    ssize_t n = read_at(r, fd, r->rbuf, want, off);
    if (n <= 0) {
      rc = n < 0 ? (int)n : UV_EOF; /* shorter than it was */
      break;
    }
    off += n;
    len -= n;
    if (chunk < r->rcap) chunk = chunk * 2 < r->rcap ? chunk * 2 : r->rcap;
    if (data(ctx, r->rbuf, (size_t)n)) break;
  }
  close_file(r, fd);
  return rc;
}
