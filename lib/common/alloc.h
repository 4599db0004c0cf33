/* alloc.h - the allocator hooks every part of the library goes through. */
#ifndef SGF_ALLOC_H
#define SGF_ALLOC_H

#include "sgfstream.h"

/* Copy *src into *dst, filling missing hooks with libc's. src may be NULL. */
void sgf__allocator_init(sgf_allocator *dst, const sgf_allocator *src);

void *sgf__malloc(const sgf_allocator *a, size_t size);
void *sgf__realloc(const sgf_allocator *a, void *ptr, size_t old_size,
                   size_t new_size);
void sgf__free(const sgf_allocator *a, void *ptr, size_t size);

#endif
