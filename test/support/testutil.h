/* testutil.h - small helpers shared by the cmocka tests: file reading,
 * the writer's normalization, an independent line:col counter used to
 * check the library's positions, a diff printer. Test code only. The
 * byte buffer (bytebuf.h) and the counting allocator (countalloc.h) are
 * in tools/common, shared with the fuzz harness and the benchmark. */
#ifndef SGF_TEST_TESTUTIL_H
#define SGF_TEST_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>

#include "bytebuf.h"

/* Read a whole file; returns 0 on success, -1 if it cannot be read. */
int tu_read_file(const char *path, bytebuf *out);
/* 1 if path exists (any type). */
int tu_exists(const char *path);

/* The streaming writer's documented normalization of raw value bytes
 * (sgfstream/writer.h), written independently of the library: NUL bytes
 * go (an escaped NUL with its backslash), a lone backslash at the end is
 * doubled, an unescaped ']' gets a backslash. Writes at most 2 * len
 * bytes to out (which must not overlap raw); returns how many. */
size_t tu_writer_normalize(const char *raw, size_t len, char *out);

/* Position just past buf[0..len) counted independently of the library:
 * a line ends at LF, CR, or CR LF. */
sgf_pos tu_end_pos(const char *buf, size_t len);

/* Print expected vs actual logs, diff style, to stderr: the common prefix
 * is summarized, then differing lines are shown with '-' and '+'. */
void tu_print_diff(const char *what, const char *expected, size_t elen,
                   const char *actual, size_t alen);

#endif /* SGF_TEST_TESTUTIL_H */
