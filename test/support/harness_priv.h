/* harness_priv.h - helpers shared by the files of the fuzz harness
 * (harness.c, harness_tree.c, harness_cursor.c, harness_text.c). Test
 * code only. */
#ifndef SGF_TEST_SUPPORT_HARNESS_PRIV_H
#define SGF_TEST_SUPPORT_HARNESS_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>

#include "bytebuf.h"

/* "@offset:line:column" appended to b (harness_tree.c). The byte
 * buffer is tools/common/bytebuf.h. */
void fz_buf_pos(bytebuf *b, sgf_pos p);

/* The writer's documented normalization of the raw bytes of b from
 * start on, in place: NUL bytes go (an escaped NUL with its backslash),
 * a lone backslash at the end is doubled (harness_tree.c). */
void fz_raw_normalize(bytebuf *b, size_t start);

/* One property as fz_node_ser writes it, value number skip (SIZE_MAX:
 * none) left out (harness_tree.c); how: values normalized (FZ_SER_NORM),
 * positions of the identifier and the values added (FZ_SER_POS). */
#define FZ_SER_NORM 0x1u
#define FZ_SER_POS 0x2u
void fz_prop_ser(const sgf_prop_view *p, size_t skip, bytebuf *b, unsigned how);
/* A node's properties and values (normalized with fz_raw_normalize when
 * norm is set), appended to b; no positions (harness_tree.c). */
void fz_node_ser(const sgf_node *n, bytebuf *b, int norm);
/* The subtree at top in pre-order, each node as its level below top
 * (counted by the links) and fz_node_ser; returns the number of nodes.
 * Iterative. Two trees with the same serialization have the same shape,
 * properties and values. */
size_t fz_tree_ser(const sgf_node *top, bytebuf *b, int norm);

/* The header of fz_check_quiet and fz_check_moves (harness.h): options
 * into *opt, the number of chunk sizes into *nchunks; returns the
 * header's length (the chunk sizes follow data[1]), or 0 if size is too
 * short for it (harness_quiet.c). */
size_t fz_chunk_header(const uint8_t *data, size_t size, sgf_options *opt,
                       size_t *nchunks);

/* Format the message the fz_check_* functions return (a static buffer). */
const char *fz_failf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* 1 if the check named tag is listed in $SGF_FUZZ_TOLERATE. */
int fz_tolerate(const char *tag);

#endif
