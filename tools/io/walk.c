/* walk.c - a directory given as FILE: every regular file below it whose
 * name ends in ".sgf", or in ".sgf" and a compression suffix ("x.sgf.gz",
 * see input__sgf_name()), in any case, in sorted order, read like a FILE.
 *
 * The walk is iterative (an explicit stack of directory paths), lists each
 * directory with uv_fs_scandir, and does not follow symbolic links to
 * directories (whatever their name), so a link loop cannot make it run
 * forever; a link to anything else named like an SGF file is read. With
 * input_walk_no_links() (fmt -i) no link is followed: the links that would
 * be read or walked are returned as INPUT_WALK_LINK instead.
 *
 * It is an iterator (input_walk_next), so that a caller can hand the files
 * to other threads one by one (jobs.c) in exactly the order input_read()
 * reads them: the files of a directory sorted by name, then its
 * subdirectories, sorted, each walked whole. Only one directory's listing
 * is held at a time, with the stack of directories still to list.
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

struct input_walk {
  input_reader *r;
  strvec dirs;  /* still to list; the next one on top */
  strvec files; /* the .sgf files of the directory listed last, sorted */
  size_t next;  /* the next of them to return */
  strvec links; /* input_walk_no_links(): its links, sorted, returned first */
  size_t next_link;
  int no_links;
  char *failed; /* the directory returned with INPUT_WALK_FAIL */
  int lost;     /* a path was dropped for want of memory */
};

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

int input__sgf_name(const char *name) {
  static const char *const zip[] = {"",     ".gz",   ".bz2", ".xz", ".zst",
                                    ".lz4", ".lzma", ".lz",  ".z"};
  size_t n = strlen(name), i;
  for (i = 0; i < sizeof zip / sizeof zip[0]; i++) {
    size_t k = strlen(zip[i]);
    if (n > 4 + k && strcasecmp(name + n - k, zip[i]) == 0 &&
        strncasecmp(name + n - k - 4, ".sgf", 4) == 0)
      return i == 0 ? INPUT__SGF_PLAIN : INPUT__SGF_COMPRESSED;
  }
  return 0;
}

int input__fd_is_dir(input_reader *r, uv_file fd) {
  uv_fs_t req;
  int dir = 0;
  if (uv_fs_fstat(&r->loop, &req, fd, NULL) == 0)
    dir = (req.statbuf.st_mode & S_IFMT) == S_IFDIR;
  uv_fs_req_cleanup(&req);
  return dir;
}

int input_is_dir(input_reader *r, const char *path) {
  uv_fs_t req;
  int dir = 0;
  if (uv_fs_stat(&r->loop, &req, path, NULL) == 0)
    dir = (req.statbuf.st_mode & S_IFMT) == S_IFDIR;
  uv_fs_req_cleanup(&req);
  return dir;
}

input_walk *input_walk_open(input_reader *r, const char *root) {
  input_walk *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->r = r;
  if (vec_push(&w->dirs, strdup(root)) < 0) {
    free(w);
    return NULL;
  }
  return w;
}

void input_walk_no_links(input_walk *w) { w->no_links = 1; }

void input_walk_close(input_walk *w) {
  if (!w) return;
  vec_free(&w->dirs);
  vec_free(&w->files);
  vec_free(&w->links);
  free(w->failed);
  free(w);
}

/* List dir: its .sgf files into w->files (sorted), its subdirectories onto
 * the stack (in reverse, so they come off sorted). 0 or a libuv error. */
static int list_dir(input_walk *w, const char *dir) {
  strvec subs = {0};
  uv_fs_t req;
  uv_dirent_t ent;
  size_t i;
  int n = uv_fs_scandir(&w->r->loop, &req, dir, 0, NULL);
  if (n < 0) {
    uv_fs_req_cleanup(&req);
    return n;
  }
  while (uv_fs_scandir_next(&req, &ent) != UV_EOF) {
    int type = ent.type;
    char *path = join(dir, ent.name);
    if (!path) {
      w->lost = 1;
      continue;
    }
    if (type == UV_DIRENT_UNKNOWN) { /* file systems without d_type */
      uv_fs_t st;
      if (uv_fs_lstat(&w->r->loop, &st, path, NULL) == 0) {
        unsigned m = (unsigned)(st.statbuf.st_mode & S_IFMT);
        type = m == S_IFDIR   ? UV_DIRENT_DIR
               : m == S_IFREG ? UV_DIRENT_FILE
               : m == S_IFLNK ? UV_DIRENT_LINK
                              : UV_DIRENT_UNKNOWN;
      }
      uv_fs_req_cleanup(&st);
    }
    if (type == UV_DIRENT_LINK) {
      /* to a directory: never walked; to a file named so: read */
      int sgf = input__sgf_name(ent.name) != 0, to_dir = 0;
      strvec *v = NULL;
      if (sgf || w->no_links) to_dir = input_is_dir(w->r, path);
      if (w->no_links && (sgf || to_dir))
        v = &w->links;
      else if (!w->no_links && sgf && !to_dir)
        v = &w->files;
      if (v == NULL)
        free(path);
      else if (vec_push(v, path) < 0)
        w->lost = 1;
    } else if (type == UV_DIRENT_DIR) {
      if (vec_push(&subs, path) < 0) w->lost = 1;
    } else if (type == UV_DIRENT_FILE && input__sgf_name(ent.name)) {
      if (vec_push(&w->files, path) < 0) w->lost = 1;
    } else {
      free(path);
    }
  }
  uv_fs_req_cleanup(&req);
  if (w->files.n > 1) /* (qsort wants a pointer even for no element) */
    qsort(w->files.v, w->files.n, sizeof *w->files.v, cmp_str);
  if (w->links.n > 1)
    qsort(w->links.v, w->links.n, sizeof *w->links.v, cmp_str);
  if (subs.n > 1) qsort(subs.v, subs.n, sizeof *subs.v, cmp_str);
  for (i = subs.n; i-- > 0;) {
    if (vec_push(&w->dirs, subs.v[i]) < 0) w->lost = 1;
    subs.v[i] = NULL;
  }
  subs.n = 0;
  vec_free(&subs);
  return 0;
}

int input_walk_next(input_walk *w, const char **path, const char **error) {
  free(w->failed);
  w->failed = NULL;
  for (;;) {
    char *dir;
    int e;
    if (w->next_link < w->links.n) {
      *path = w->links.v[w->next_link++];
      return INPUT_WALK_LINK;
    }
    if (w->next < w->files.n) {
      *path = w->files.v[w->next++];
      return INPUT_WALK_FILE;
    }
    vec_free(&w->files);
    vec_free(&w->links);
    w->next = w->next_link = 0;
    if (w->dirs.n == 0) return INPUT_WALK_END;
    dir = w->dirs.v[--w->dirs.n];
    e = list_dir(w, dir);
    if (e < 0) {
      w->failed = dir;
      *path = dir;
      *error = input__errmsg(e);
      return INPUT_WALK_FAIL;
    }
    free(dir);
  }
}

int input__walk(input_reader *r, const char *root, const input_sink *sink,
                void *ctx) {
  input_walk *w = input_walk_open(r, root);
  const char *path, *error;
  int k, rc = 0, found = 0;
  if (!w) {
    sink->fail(ctx, root, "out of memory");
    return -1;
  }
  while ((k = input_walk_next(w, &path, &error)) != INPUT_WALK_END) {
    if (k == INPUT_WALK_FAIL) {
      sink->fail(ctx, path, error);
      rc = -1;
    } else {
      found = 1;
      if (input_read(r, path, sink, ctx) < 0) rc = -1;
    }
  }
  if (w->lost) rc = -1;
  input_walk_close(w);
  if (!found && rc == 0) sink->none(ctx, root, INPUT_NO_SGF_FILE);
  return rc;
}
