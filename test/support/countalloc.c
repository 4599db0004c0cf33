/* countalloc.c - the counting allocator (see countalloc.h). */
#include "countalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CA_MAGIC ((size_t)0x5a6b7c8dU)

typedef union ca_hdr {
  struct {
    size_t size;
    size_t magic;
  } h;
  max_align_t align;
} ca_hdr;

static int ca_fails(countalloc *c) {
  size_t i = c->calls++, k;
  if (i < c->fail_at) return 0;
  k = i - c->fail_at;
  if (c->fail_stride > 1) {
    if (k % c->fail_stride != 0) return 0;
    k /= c->fail_stride;
  }
  if (k < c->fail_count) {
    c->failures++;
    return 1;
  }
  return 0;
}

static void ca_count(countalloc *c, size_t add, size_t sub) {
  c->live = c->live - sub + add;
  if (c->live > c->peak) c->peak = c->live;
}

static void *ca_malloc(void *ctx, size_t size) {
  countalloc *c = ctx;
  ca_hdr *b;
  if (ca_fails(c)) return NULL;
  if (size > SIZE_MAX - sizeof(ca_hdr)) return NULL;
  b = malloc(sizeof(ca_hdr) + size);
  if (b == NULL) return NULL;
  b->h.size = size;
  b->h.magic = CA_MAGIC;
  c->blocks++;
  ca_count(c, size, 0);
  return b + 1;
}

/* The header of a block the library hands back, or NULL (counted bad)
 * if it is not one of ours or its size is not the one allocated. */
static ca_hdr *ca_header(countalloc *c, void *ptr, size_t size) {
  ca_hdr *b = (ca_hdr *)ptr - 1;
  if (b->h.magic != CA_MAGIC) {
    c->bad++;
    return NULL;
  }
  if (b->h.size != size) c->bad++;
  return b;
}

static void *ca_realloc(void *ctx, void *ptr, size_t old_size,
                        size_t new_size) {
  countalloc *c = ctx;
  ca_hdr *b, *nb;
  size_t had;
  if (ptr == NULL) return ca_malloc(ctx, new_size);
  if (ca_fails(c)) return NULL;
  b = ca_header(c, ptr, old_size);
  if (b == NULL || new_size > SIZE_MAX - sizeof(ca_hdr)) return NULL;
  had = b->h.size;
  nb = realloc(b, sizeof(ca_hdr) + new_size);
  if (nb == NULL) return NULL;
  nb->h.size = new_size;
  ca_count(c, new_size, had);
  return nb + 1;
}

static void ca_free(void *ctx, void *ptr, size_t size) {
  countalloc *c = ctx;
  ca_hdr *b;
  if (ptr == NULL) return;
  b = ca_header(c, ptr, size);
  if (b == NULL) return;
  ca_count(c, 0, b->h.size);
  c->blocks--;
  b->h.magic = 0;
  free(b);
}

void countalloc_init(countalloc *c, sgf_allocator *a, int with_realloc) {
  memset(c, 0, sizeof *c);
  c->fail_at = SIZE_MAX;
  c->fail_stride = 1;
  memset(a, 0, sizeof *a);
  a->malloc = ca_malloc;
  a->realloc = with_realloc ? ca_realloc : NULL;
  a->free = ca_free;
  a->ctx = c;
}

void countalloc_schedule(countalloc *c, size_t fail_at, size_t fail_count) {
  c->calls = 0;
  c->fail_stride = 1;
  c->fail_at = fail_at;
  c->fail_count = fail_count;
}

void countalloc_reset_peak(countalloc *c) { c->peak = c->live; }
