/* harness_priv.h - helpers shared by the files of the fuzz harness
 * (harness.c, harness_tree.c). Test code only. */
#ifndef SGF_TEST_FUZZ_HARNESS_PRIV_H
#define SGF_TEST_FUZZ_HARNESS_PRIV_H

#include <stddef.h>

/* A growable byte buffer; aborts when memory runs out (test code). */
typedef struct fz_buf {
  char *p;
  size_t len, cap;
} fz_buf;

/* Append n bytes to the fz_buf ctx (an evlog_write_fn). */
void fz_buf_add(void *ctx, const char *s, size_t n);
void fz_buf_free(fz_buf *b);
/* 1 if a and b hold the same bytes. */
int fz_buf_eq(const fz_buf *a, const fz_buf *b);

/* Format the message the fz_check_* functions return (a static buffer). */
const char *fz_failf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* 1 if the check named tag is listed in $SGF_FUZZ_TOLERATE. */
int fz_tolerate(const char *tag);

#endif
