/* alloc.c - default allocator hooks (libc) and the wrappers that use them. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

static void *libc_malloc(void *ctx, size_t size) {
  (void)ctx;
  return malloc(size ? size : 1);
}

static void *libc_realloc(void *ctx, void *ptr, size_t old_size,
                          size_t new_size) {
  (void)ctx;
  (void)old_size;
  return realloc(ptr, new_size ? new_size : 1);
}

static void libc_free(void *ctx, void *ptr, size_t size) {
  (void)ctx;
  (void)size;
  free(ptr);
}

void sgf__allocator_init(sgf_allocator *dst, const sgf_allocator *src) {
  if (src && src->malloc && src->free) {
    *dst = *src;
  } else {
    dst->malloc = libc_malloc;
    dst->realloc = libc_realloc;
    dst->free = libc_free;
    dst->ctx = NULL;
  }
}

void *sgf__malloc(const sgf_allocator *a, size_t size) {
  return a->malloc(a->ctx, size);
}

void *sgf__realloc(const sgf_allocator *a, void *ptr, size_t old_size,
                   size_t new_size) {
  void *q;
  if (ptr == NULL) return a->malloc(a->ctx, new_size);
  if (a->realloc) return a->realloc(a->ctx, ptr, old_size, new_size);
  q = a->malloc(a->ctx, new_size);
  if (q == NULL) return NULL;
  memcpy(q, ptr, old_size < new_size ? old_size : new_size);
  a->free(a->ctx, ptr, old_size);
  return q;
}

void sgf__free(const sgf_allocator *a, void *ptr, size_t size) {
  if (ptr) a->free(a->ctx, ptr, size);
}
