/* bytebuf.h - a growable byte buffer (libc memory), shared by the tool,
 * the tests, the fuzz harness and the benchmark. The bytes are always
 * followed by a NUL (once anything was added), so text can be used as a
 * string.
 *
 * Two ways to append: bytebuf_try_add and bytebuf_reserve report running
 * out of memory (-1, the buffer unchanged) for the tool, which must say
 * so; bytebuf_add, _adds, _addf and bytebuf_sink abort with a message
 * instead, for test and benchmark code, where a lost byte would make a
 * comparison meaningless. A zeroed bytebuf is an empty one. */
#ifndef SGF_TOOLS_COMMON_BYTEBUF_H
#define SGF_TOOLS_COMMON_BYTEBUF_H

#include <stddef.h>

typedef struct bytebuf {
  char *p;
  size_t len, cap;
} bytebuf;

void bytebuf_init(bytebuf *b);
void bytebuf_free(bytebuf *b);
/* Empty it, keeping the memory. */
void bytebuf_clear(bytebuf *b);

/* Room for n more bytes (and the NUL after them): 0, or -1 when memory
 * runs out or the size overflows. */
int bytebuf_reserve(bytebuf *b, size_t n);
/* Append n bytes: 0, or -1 (nothing appended) when memory runs out. */
int bytebuf_try_add(bytebuf *b, const void *data, size_t n);

/* Append, aborting when memory runs out (test and benchmark code). */
void bytebuf_add(bytebuf *b, const void *data, size_t n);
void bytebuf_adds(bytebuf *b, const char *s);
void bytebuf_addf(bytebuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* An evlog write function (eventlog.h): bytebuf_add to the bytebuf ctx. */
void bytebuf_sink(void *ctx, const char *s, size_t n);

/* 1 if a and b hold the same bytes. */
int bytebuf_eq(const bytebuf *a, const bytebuf *b);

#endif
