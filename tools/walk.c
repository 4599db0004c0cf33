/* walk.c - a directory given as FILE: every regular file below it whose
 * name ends in ".sgf" (any case), in sorted order, read like a FILE.
 *
 * The walk is iterative (an explicit stack of directory paths), lists each
 * directory with uv_fs_scandir, and does not follow symbolic links to
 * directories, so a link loop cannot make it run forever.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input_priv.h"

typedef struct strvec {
  char **v;
  size_t n, cap;
} strvec;

static int vec_push(strvec *s, char *str) {
  if (!str) return -1;
  if (s->n == s->cap) {
    size_t ncap = s->cap ? s->cap * 2 : 16;
    char **nv = realloc(s->v, ncap * sizeof *nv);
    if (!nv) {
      free(str);
      return -1;
    }
    s->v = nv;
    s->cap = ncap;
  }
  s->v[s->n++] = str;
  return 0;
}

static void vec_free(strvec *s) {
  size_t i;
  for (i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  char *p = malloc(a + b + 2);
  if (!p) return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  if (a && dir[a - 1] == '/') memmove(p + a, p + a + 1, b + 1);
  return p;
}

static int is_sgf_name(const char *name) {
  size_t n = strlen(name);
  return n > 4 && strcasecmp(name + n - 4, ".sgf") == 0;
}

int input__fd_is_dir(input_reader *r, uv_file fd) {
  uv_fs_t req;
  int dir = 0;
  if (uv_fs_fstat(&r->loop, &req, fd, NULL) == 0)
    dir = (req.statbuf.st_mode & S_IFMT) == S_IFDIR;
  uv_fs_req_cleanup(&req);
  return dir;
}

int input__walk(input_reader *r, const char *root, const input_sink *sink,
                void *ctx) {
  strvec dirs = {0}, files = {0}, subs = {0};
  int rc = 0;
  if (vec_push(&dirs, strdup(root)) < 0) {
    sink->fail(ctx, root, "out of memory");
    return -1;
  }
  while (dirs.n > 0) {
    char *dir = dirs.v[--dirs.n];
    uv_fs_t req;
    uv_dirent_t ent;
    size_t i;
    int n = uv_fs_scandir(&r->loop, &req, dir, 0, NULL);
    if (n < 0) {
      sink->fail(ctx, dir, input__errmsg(n));
      rc = -1;
      uv_fs_req_cleanup(&req);
      free(dir);
      continue;
    }
    while (uv_fs_scandir_next(&req, &ent) != UV_EOF) {
      int type = ent.type;
      char *path = join(dir, ent.name);
      if (!path) continue;
      if (type == UV_DIRENT_UNKNOWN) { /* file systems without d_type */
        uv_fs_t st;
        if (uv_fs_lstat(&r->loop, &st, path, NULL) == 0) {
          unsigned m = (unsigned)(st.statbuf.st_mode & S_IFMT);
          type = m == S_IFDIR ? UV_DIRENT_DIR
                 : m == S_IFREG ? UV_DIRENT_FILE
                 : m == S_IFLNK ? UV_DIRENT_LINK : UV_DIRENT_UNKNOWN;
        }
        uv_fs_req_cleanup(&st);
      }
      if (type == UV_DIRENT_DIR)
        rc |= vec_push(&subs, path);
      else if ((type == UV_DIRENT_FILE || type == UV_DIRENT_LINK) &&
               is_sgf_name(ent.name))
        rc |= vec_push(&files, path); /* a link to a file is read */
      else
        free(path);
    }
    uv_fs_req_cleanup(&req);
    free(dir);
    qsort(files.v, files.n, sizeof *files.v, cmp_str);
    for (i = 0; i < files.n; i++)
      if (input_read(r, files.v[i], sink, ctx) < 0) rc = -1;
    vec_free(&files);
    /* Subdirectories go on the stack in reverse, so they come off sorted. */
    qsort(subs.v, subs.n, sizeof *subs.v, cmp_str);
    for (i = subs.n; i-- > 0;) {
      rc |= vec_push(&dirs, subs.v[i]);
      subs.v[i] = NULL;
    }
    subs.n = 0;
  }
  vec_free(&dirs);
  vec_free(&subs);
  return rc < 0 ? -1 : 0;
}
