/* bytebuf.c - the growable byte buffer (see bytebuf.h). */
#include "bytebuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bytebuf_init(bytebuf *b) {
  b->p = NULL;
  b->len = b->cap = 0;
}

void bytebuf_free(bytebuf *b) {
  free(b->p);
  bytebuf_init(b);
}

void bytebuf_clear(bytebuf *b) {
  b->len = 0;
  if (b->p) b->p[0] = '\0';
}

int bytebuf_reserve(bytebuf *b, size_t n) {
  size_t cap;
  char *np;
  if (b->cap - b->len > n) return 0; /* n bytes and the NUL */
  if (n >= (size_t)-1 - b->len) return -1;
  cap = b->cap ? b->cap : 256;
  while (cap - b->len <= n) {
    if (cap > (size_t)-1 / 2) return -1;
    cap *= 2;
  }
  np = realloc(b->p, cap);
  if (np == NULL) return -1;
  b->p = np;
  b->cap = cap;
  return 0;
}

int bytebuf_try_add(bytebuf *b, const void *data, size_t n) {
  if (bytebuf_reserve(b, n) != 0) return -1;
  if (n) memcpy(b->p + b->len, data, n);
  b->len += n;
  b->p[b->len] = '\0';
  return 0;
}

static void nomem(void) {
  fprintf(stderr, "bytebuf: out of memory\n");
  abort();
}

void bytebuf_add(bytebuf *b, const void *data, size_t n) {
  if (bytebuf_try_add(b, data, n) != 0) nomem();
}

void bytebuf_adds(bytebuf *b, const char *s) { bytebuf_add(b, s, strlen(s)); }

void bytebuf_addf(bytebuf *b, const char *fmt, ...) {
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (bytebuf_reserve(b, (size_t)n) != 0) nomem();
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void bytebuf_sink(void *ctx, const char *s, size_t n) {
  bytebuf_add(ctx, s, n);
}

int bytebuf_eq(const bytebuf *a, const bytebuf *b) {
  return a->len == b->len && (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}
