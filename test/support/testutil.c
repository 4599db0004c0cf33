/* testutil.c - helpers for the cmocka tests (see testutil.h). */
#define _POSIX_C_SOURCE 200809L

#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int tu_read_file(const char *path, bytebuf *out) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  bytebuf_clear(out);
  bytebuf_add(out, "", 0); /* out->p is a string, even for an empty file */
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) bytebuf_add(out, chunk, n);
  int err = ferror(f);
  fclose(f);
  return err ? -1 : 0;
}

int tu_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

sgf_pos tu_end_pos(const char *buf, size_t len) {
  sgf_pos pos = {0, 1, 1};
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)buf[i];
    if (c == '\n') {
      if (!(i > 0 && buf[i - 1] == '\r')) {
        pos.line++;
        pos.column = 1;
      }
    } else if (c == '\r') {
      pos.line++;
      pos.column = 1;
    } else {
      pos.column++;
    }
  }
  pos.offset = len;
  return pos;
}

/* Split into lines (without '\n'); returns count, fills starts/lens. */
static size_t split_lines(const char *s, size_t len, const char ***starts,
                          size_t **lens) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] == '\n') n++;
  if (len && s[len - 1] != '\n') n++;
  *starts = calloc(n + 1, sizeof **starts);
  *lens = calloc(n + 1, sizeof **lens);
  if (!*starts || !*lens) abort();
  size_t k = 0, b = 0;
  for (size_t i = 0; i <= len; i++) {
    if (i == len || s[i] == '\n') {
      if (i == len && b == len) break;
      (*starts)[k] = s + b;
      (*lens)[k] = i - b;
      k++;
      b = i + 1;
    }
  }
  return k;
}

void tu_print_diff(const char *what, const char *expected, size_t elen,
                   const char *actual, size_t alen) {
  const char **es, **as;
  size_t *el, *al;
  size_t ne = split_lines(expected, elen, &es, &el);
  size_t na = split_lines(actual, alen, &as, &al);
  size_t pre = 0;
  while (pre < ne && pre < na && el[pre] == al[pre] &&
         memcmp(es[pre], as[pre], el[pre]) == 0)
    pre++;
  size_t suf = 0;
  while (suf < ne - pre && suf < na - pre &&
         el[ne - 1 - suf] == al[na - 1 - suf] &&
         memcmp(es[ne - 1 - suf], as[na - 1 - suf], el[ne - 1 - suf]) == 0)
    suf++;
  fprintf(stderr, "--- expected (%s)\n+++ actual\n", what);
  fprintf(stderr,
          "@@ first difference at line %zu (%zu expected lines, %zu "
          "actual) @@\n",
          pre + 1, ne, na);
  size_t ctx = pre >= 3 ? pre - 3 : 0;
  for (size_t i = ctx; i < pre; i++)
    fprintf(stderr, " %.*s\n", (int)el[i], es[i]);
  const size_t maxshow = 40;
  size_t shown = 0;
  for (size_t i = pre; i < ne - suf && shown < maxshow; i++, shown++)
    fprintf(stderr, "-%.*s\n", (int)el[i], es[i]);
  if (ne - suf - pre > maxshow)
    fprintf(stderr, "-... (%zu more)\n", ne - suf - pre - maxshow);
  shown = 0;
  for (size_t i = pre; i < na - suf && shown < maxshow; i++, shown++)
    fprintf(stderr, "+%.*s\n", (int)al[i], as[i]);
  if (na - suf - pre > maxshow)
    fprintf(stderr, "+... (%zu more)\n", na - suf - pre - maxshow);
  for (size_t i = ne - suf; i < ne && i < ne - suf + 3; i++)
    fprintf(stderr, " %.*s\n", (int)el[i], es[i]);
  free(es);
  free(el);
  free(as);
  free(al);
}

size_t tu_writer_normalize(const char *raw, size_t len, char *out) {
  size_t i, o = 0;
  for (i = 0; i < len; i++) {
    char c = raw[i];
    if (c == '\\' && i + 1 < len) {
      if (raw[i + 1] != 0) {
        out[o++] = c;
        out[o++] = raw[i + 1];
      }
      i++;
    } else if (c == '\\' || c == ']') {
      out[o++] = '\\';
      out[o++] = c;
    } else if (c != 0) {
      out[o++] = c;
    }
  }
  return o;
}
