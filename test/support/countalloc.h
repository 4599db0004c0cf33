/* countalloc.h - the counting allocator of the tests, the fuzz harness
 * and the benchmark: sgf_allocator hooks that count calls, live bytes and
 * blocks and the peak, check the sizes the library passes to free and
 * realloc, and fail calls on a schedule (for the allocation-failure
 * loops of test/unit/alloc.c and test/support/harness*.c). Not used by the
 * tool itself. */
#ifndef SGF_TEST_SUPPORT_COUNTALLOC_H
#define SGF_TEST_SUPPORT_COUNTALLOC_H

#include <stddef.h>

#include <sgfstream.h>

/* Every block carries a header recording its size, so the sizes the
 * library passes to free and realloc are checked (bad counts mismatches)
 * and the bytes outstanding are exact. */
typedef struct countalloc {
  size_t live;        /* bytes outstanding */
  size_t peak;        /* the most bytes ever outstanding at once */
  size_t blocks;      /* blocks outstanding */
  size_t calls;       /* malloc and realloc calls so far, failed ones too */
  size_t failures;    /* calls made to fail so far */
  size_t bad;         /* frees/reallocs with a wrong size or pointer */
  size_t fail_at;     /* the 0-based call index that fails first ... */
  size_t fail_count;  /* ... and how many calls from there (SIZE_MAX: all) */
  size_t fail_stride; /* 1: consecutive calls fail; 2: every other one */
} countalloc;

/* Reset c (no failures scheduled) and point *a at it. with_realloc 0
 * leaves a->realloc NULL, so the library's malloc+copy+free path runs. */
void countalloc_init(countalloc *c, sgf_allocator *a, int with_realloc);
/* Restart the call count and fail fail_count calls from the fail_at-th
 * (0-based) on; fail_count SIZE_MAX fails every call from there. */
void countalloc_schedule(countalloc *c, size_t fail_at, size_t fail_count);
/* Make the peak the bytes outstanding now. */
void countalloc_reset_peak(countalloc *c);

#endif
