/* bench/load.c - load a file, a directory or a list of files into memory
 * (see load.h). */
#define _POSIX_C_SOURCE 200809L

#include "load.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------------- */
/* A growing vector of strings                                             */

typedef struct strvec {
  char **v;
  size_t n, cap;
} strvec;

static int vec_push(strvec *s, char *str) {
  if (str == NULL) return -1;
  if (s->n == s->cap) {
    size_t ncap = s->cap ? s->cap * 2 : 64;
    char **nv = realloc(s->v, ncap * sizeof *nv);
    if (nv == NULL) {
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
  for (size_t i = 0; i < s->n; i++) free(s->v[i]);
  free(s->v);
  s->v = NULL;
  s->n = s->cap = 0;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p != NULL) memcpy(p, s, n);
  return p;
}

static char *join(const char *dir, const char *name) {
  size_t a = strlen(dir), b = strlen(name);
  while (a > 1 && dir[a - 1] == '/') a--;
  char *p = malloc(a + b + 2);
  if (p == NULL) return NULL;
  memcpy(p, dir, a);
  p[a] = '/';
  memcpy(p + a + 1, name, b + 1);
  return p;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_sgf_name(const char *name) {
  size_t n = strlen(name);
  return n > 4 && strcasecmp(name + n - 4, ".sgf") == 0;
}

/* ---------------------------------------------------------------------- */
/* Listing                                                                 */

/* Every *.sgf regular file below root into *files (unsorted). An explicit
 * stack of directories to visit: no recursion, whatever the depth. */
static int walk(const char *prog, const char *root, strvec *files) {
  strvec stack = {0};
  if (vec_push(&stack, dup_str(root)) != 0) goto nomem;
  while (stack.n > 0) {
    char *dir = stack.v[--stack.n];
    DIR *d = opendir(dir);
    if (d == NULL) {
      fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
      free(dir);
      vec_free(&stack);
      return -1;
    }
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d)) != NULL) {
      const char *nm = e->d_name;
      if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0) continue;
      char *path = join(dir, nm);
      struct stat st;
      if (path == NULL) {
        closedir(d);
        free(dir);
        goto nomem;
      }
      if (lstat(path, &st) != 0) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        free(path);
        continue;
      }
      if (S_ISDIR(st.st_mode)) {
        if (vec_push(&stack, path) != 0) {
          closedir(d);
          free(dir);
          goto nomem;
        }
        continue;
      }
      /* A symbolic link counts when it leads to a regular file; links to
       * directories are not followed (no loops). */
      if (S_ISLNK(st.st_mode) && stat(path, &st) != 0) {
        free(path);
        continue;
      }
      if (S_ISREG(st.st_mode) && is_sgf_name(nm)) {
        if (vec_push(files, path) != 0) {
          closedir(d);
          free(dir);
          goto nomem;
        }
      } else {
        free(path);
      }
      errno = 0;
    }
    closedir(d);
    free(dir);
  }
  vec_free(&stack);
  return 0;
nomem:
  fprintf(stderr, "%s: out of memory listing %s\n", prog, root);
  vec_free(&stack);
  return -1;
}

/* The lines of a list file into *files. */
static int read_list(const char *prog, const char *path, strvec *files) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, f)) >= 0) {
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = '\0';
    if (n == 0) continue;
    if (vec_push(files, dup_str(line)) != 0) {
      fprintf(stderr, "%s: out of memory reading %s\n", prog, path);
      free(line);
      fclose(f);
      return -1;
    }
  }
  free(line);
  fclose(f);
  return 0;
}

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */

typedef struct arena {
  char *p;
  size_t len, cap;
} arena;

static int arena_reserve(arena *a, size_t more) {
  if (a->cap - a->len >= more) return 0;
  if (more > SIZE_MAX - a->len) return -1;
  size_t ncap = a->cap < SIZE_MAX / 2 ? a->cap * 2 : SIZE_MAX;
  if (ncap < a->len + more) ncap = a->len + more;
  char *np = realloc(a->p, ncap);
  if (np == NULL) return -1;
  a->p = np;
  a->cap = ncap;
  return 0;
}

/* Append up to max bytes of the file at path (max 0: all of it) to *a;
 * *len gets the number of bytes read. */
static int read_into(const char *prog, const char *path, size_t max, arena *a,
                     size_t *len) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
    if (fd >= 0) close(fd);
    return -1;
  }
  size_t want = st.st_size > 0 ? (size_t)st.st_size : 0;
  if (max > 0 && want > max) want = max;
  size_t got = 0;
  for (;;) {
    /* One byte more than the size, so that EOF shows without a grow. */
    size_t room = want - got + 1;
    if (max > 0 && got + room > max) room = max - got;
    if (room == 0) break;
    if (arena_reserve(a, room) != 0) {
      fprintf(stderr, "%s: out of memory reading %s\n", prog, path);
      close(fd);
      return -1;
    }
    ssize_t n = read(fd, a->p + a->len + got, room);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
      close(fd);
      return -1;
    }
    if (n == 0) break;
    got += (size_t)n;
    if (got > want) want = got; /* the file grew */
  }
  close(fd);
  a->len += got;
  *len = got;
  return 0;
}

int bench_load(const char *prog, const char *path, bench_load_mode mode,
               size_t max_bytes, bench_inputs *in) {
  strvec files = {0};
  struct stat st;
  memset(in, 0, sizeof *in);
  in->what = path;

  if (mode == BENCH_LOAD_LIST) {
    if (read_list(prog, path, &files) != 0) goto fail;
    in->is_set = 1;
  } else {
    if (stat(path, &st) != 0) {
      fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
      return -1;
    }
    if (S_ISDIR(st.st_mode)) {
      if (walk(prog, path, &files) != 0) goto fail;
      if (files.n > 1) qsort(files.v, files.n, sizeof *files.v, cmp_str);
      in->is_set = 1;
    } else if (vec_push(&files, dup_str(path)) != 0) {
      fprintf(stderr, "%s: out of memory\n", prog);
      goto fail;
    }
  }
  if (files.n == 0) {
    fprintf(stderr, "%s: %s: no .sgf file found\n", prog, path);
    goto fail;
  }

  /* Offsets while the arena may move; pointers at the end. */
  size_t *off = malloc(files.n * sizeof *off);
  size_t *lens = malloc(files.n * sizeof *lens);
  size_t names_len = 0;
  arena a = {0};
  size_t n = 0;
  if (off == NULL || lens == NULL) {
    free(off);
    free(lens);
    fprintf(stderr, "%s: out of memory\n", prog);
    goto fail;
  }
  /* A set: room for every file at once (sizes as they are now). */
  if (in->is_set) {
    size_t total = 0;
    for (size_t i = 0; i < files.n; i++) {
      if (stat(files.v[i], &st) != 0) continue; /* read_into() reports it */
      if (max_bytes > 0 && i > 0 && total + (size_t)st.st_size > max_bytes)
        break;
      total += (size_t)st.st_size;
    }
    if (arena_reserve(&a, total + 1) != 0) {
      fprintf(stderr, "%s: out of memory (%zu bytes)\n", prog, total);
      free(off);
      free(lens);
      goto fail;
    }
  }
  for (size_t i = 0; i < files.n; i++) {
    size_t len = 0, max = 0;
    if (max_bytes > 0) {
      if (!in->is_set)
        max = max_bytes;
      else if (n > 0 && stat(files.v[i], &st) == 0 &&
               a.len + (size_t)st.st_size > max_bytes)
        break; /* whole files only */
    }
    off[n] = a.len;
    if (read_into(prog, files.v[i], max, &a, &len) != 0) {
      free(off);
      free(lens);
      free(a.p);
      goto fail;
    }
    lens[n] = len;
    names_len += strlen(files.v[i]) + 1;
    n++;
  }

  in->arena = a.p ? a.p : malloc(1);
  in->names = malloc(names_len);
  in->bufs = malloc(n * sizeof *in->bufs);
  if (in->arena == NULL || in->names == NULL || in->bufs == NULL) {
    fprintf(stderr, "%s: out of memory\n", prog);
    free(off);
    free(lens);
    bench_inputs_free(in);
    goto fail;
  }
  size_t np = 0;
  for (size_t i = 0; i < n; i++) {
    size_t l = strlen(files.v[i]) + 1;
    memcpy(in->names + np, files.v[i], l);
    in->bufs[i].data = in->arena + off[i];
    in->bufs[i].len = lens[i];
    in->bufs[i].name = in->names + np;
    in->bytes += lens[i];
    np += l;
  }
  in->count = n;
  free(off);
  free(lens);
  vec_free(&files);
  return 0;

fail:
  vec_free(&files);
  return -1;
}

void bench_inputs_free(bench_inputs *in) {
  free(in->arena);
  free(in->names);
  free(in->bufs);
  memset(in, 0, sizeof *in);
}

void bench_warm(const bench_inputs *in) {
  volatile unsigned char sink = 0;
  for (size_t i = 0; i < in->count; i++) {
    const bench_buf *b = &in->bufs[i];
    for (size_t j = 0; j < b->len; j += 4096) sink ^= (unsigned char)b->data[j];
    if (b->len > 0) sink ^= (unsigned char)b->data[b->len - 1];
  }
  (void)sink;
}

uint64_t bench_count_newlines(const bench_inputs *in) {
  uint64_t nl = 0;
  for (size_t i = 0; i < in->count; i++) {
    const char *q = in->bufs[i].data, *end = q + in->bufs[i].len;
    while (q < end && (q = memchr(q, '\n', (size_t)(end - q))) != NULL) {
      nl++;
      q++;
    }
  }
  return nl;
}

void bench_describe(const bench_inputs *in, char *out, size_t outlen) {
  if (in->is_set)
    snprintf(out, outlen, "%s: %zu files, %" PRIu64 " bytes (%.1f MB)",
             in->what, in->count, in->bytes, (double)in->bytes / 1e6);
  else
    snprintf(out, outlen, "%s, %" PRIu64 " bytes (%.1f MB)", in->what,
             in->bytes, (double)in->bytes / 1e6);
}
