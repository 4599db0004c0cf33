/* sgfstream/writer.h - writing SGF: a streaming writer.
 *
 * THE STREAMING WRITER. An sgf_writer takes the same events the parser
 * emits (tree begin, node, property, value begin / data / end, property
 * end, tree end) and writes FF[4] text to a sink function through one
 * bounded buffer (64 KiB by default): parse -> filter -> write runs in
 * constant memory, whatever the size of the input or the depth of the
 * trees. Connect it to a parser with sgf_writer_callbacks(), or call the
 * sgf_writer_* event functions from your own handlers (to drop, rename or
 * add properties, say). Trees of sgfstream/tree.h are written through the
 * same events by sgf_writer_write_tree() and its siblings, so both kinds
 * of output look the same.
 *
 * WHAT IS WRITTEN. The output is always valid FF[4]; it parses with no
 * diagnostic, also in strict mode (SGF_OPT_STRICT):
 *   - identifiers are written normalized to FF[4] (uppercase letters only:
 *     "CoPyright" becomes "CP", "b" becomes "B"), because lowercase letters
 *     are an error in strict mode. The spelling as written survives only
 *     in the parser's event stream (sgf_parser_raw_ident()).
 *   - values are raw (escapes intact, as the parser delivers them) and are
 *     written byte for byte, so reading the output gives back the same raw
 *     bytes, with three exceptions where the raw bytes were not valid:
 *     a NUL byte (also an escaped one) is dropped; a ']' that is not
 *     escaped (in values you pass yourself, or a double-byte character's
 *     second byte the parser reported as dbcs-bracket) is escaped; a
 *     backslash that ends a value (a value left open at the end of the
 *     input, or a trail byte reported as dbcs-backslash) is doubled, so
 *     it stands for itself instead of escaping ']'.
 *   - a property with no value is dropped (FF[4] requires one); a game tree
 *     with no node gets an empty node ';' (as the parser repairs it).
 *   - events in an impossible order (a node outside any game tree, a node
 *     after a variation, a value outside a property...) are refused with
 *     SGF_EORDER; nothing of them is written.
 *
 * LAYOUTS.
 *   SGF_LAYOUT_COMPACT   no whitespace at all, except what values contain
 *                        and one newline after each game tree of the
 *                        collection (so a collection lists one game per
 *                        line).
 *   SGF_LAYOUT_READABLE  one node per line; a variation starts a new line
 *                        and is indented one column per nesting level, so
 *                        each ';' lines up with the first node of its
 *                        sequence (up to 32 columns: deeper levels stay
 *                        there, so the output grows linearly with the
 *                        input however deep the nesting). When a line reaches
 * `width` bytes, a line break is inserted before the next property or value.
 * Line breaks are only ever inserted BETWEEN properties or values (where FF[4]
 * allows whitespace), never inside a value, so no value changes, however long.
 *   Example (readable):  (;FF[4]GM[1]
 *                         ;B[pd]
 *                         (;W[dd]
 *                          ;B[pq])
 *                         (;W[dp]))
 *
 * THE SINK. sgf_write_fn(ctx, buf, len) receives the output in order, at
 * most the buffer size at a time. It returns how many bytes it took
 * (1..len; the rest is offered again at once) or a negative number on
 * failure. 0 also counts as failure, so a sink that makes no progress
 * cannot hang the writer. After a failure the writer writes nothing more
 * and every call returns SGF_ESINK (sticky, see sgf_writer_status()).
 *
 * Nothing here recurses; the nesting depth is a counter. A writer is used
 * by one thread at a time.
 *
 * This header is included by <sgfstream.h>; it stands alone too.
 */
#ifndef SGFSTREAM_WRITER_H
#define SGFSTREAM_WRITER_H

#include <stddef.h>

#include "sgfstream/parser.h"
#include "sgfstream/tree.h" /* the tree writer takes trees */

#ifdef __cplusplus
extern "C" {
#endif

/* Escaping text into raw SGF values: the escaper (sgf_escaper,
 * sgf_escape_text, sgf_escape_simple, SGF_ESCAPE_*) is in
 * sgfstream/value.h with the rest of text encoding. */

/* ---------------------------------------------------------------------- */
/* The streaming writer                                                    */

/* Receives the output; see THE SINK above. */
typedef int (*sgf_write_fn)(void *ctx, const char *buf, size_t len);

typedef enum sgf_layout {
  SGF_LAYOUT_COMPACT = 0,
  SGF_LAYOUT_READABLE = 1
} sgf_layout;

#define SGF_WRITER_DEFAULT_BUFFER (64u * 1024u) /* bytes */
#define SGF_WRITER_MIN_BUFFER 256u              /* smaller sizes are raised */
#define SGF_WRITER_DEFAULT_WIDTH 78u            /* readable line width */

/* A versioned struct (VERSIONED STRUCTS in sgfstream/parser.h): initialize it
 * with sgf_writer_options_init(). */
typedef struct sgf_writer_options {
  size_t size;        /* sizeof(sgf_writer_options) */
  sgf_layout layout;  /* SGF_LAYOUT_COMPACT (0) by default */
  size_t buffer_size; /* output buffer; 0 means SGF_WRITER_DEFAULT_BUFFER;
                         at least SGF_WRITER_MIN_BUFFER, at most INT_MAX */
  size_t width;       /* readable: break lines between properties or
                         values once they are this long; 0 means
                         SGF_WRITER_DEFAULT_WIDTH, SIZE_MAX never */
  const sgf_allocator *allocator; /* NULL: libc; the struct is copied */
} sgf_writer_options;

/* Fill *opt with the defaults (all zero: compact, 64 KiB, libc) and set
 * its size. */
SGF_EXTERN void sgf_writer_options_init(sgf_writer_options *opt);

/* Errors (sgfstream/error.h) the writer reports, sticky once one is:
 *   SGF_EORDER  an event where FF[4] allows none (a node outside a game
 *               tree, a node after a variation, value data outside a
 *               value...)
 *   SGF_EIDENT  an identifier that is empty, not letters only, or longer
 *               than the buffer
 *   SGF_ESINK   the sink returned a failure */

typedef struct sgf_writer sgf_writer;

/* Create a writer that writes through write(ctx, ...). opt may be NULL
 * (copied). Allocates the writer and its buffer, nothing later. Returns
 * NULL if memory runs out, write is NULL or opt's size is invalid. */
SGF_EXTERN sgf_writer *sgf_writer_create(sgf_write_fn write, void *ctx,
                                         const sgf_writer_options *opt);

/* RE-ENTRY. While the sink runs, the writer is busy: every function
 * here called on it from inside the sink (or from code the sink calls,
 * e.g. a parser handler) does nothing and returns SGF_EBUSY;
 * sgf_writer_status() then says SGF_EBUSY. Nothing is written, freed or
 * forgotten; the writer goes on once the sink returns. */

/* Free the writer. Output still in the buffer is NOT flushed: call
 * sgf_writer_finish() or sgf_writer_flush() first. NULL is allowed.
 * Returns SGF_OK, or SGF_EBUSY from inside the sink (nothing freed). */
SGF_EXTERN int sgf_writer_destroy(sgf_writer *w);

/* Start again, as if just created, writing to a new sink (e.g. the next
 * file of `sgf split`; write NULL keeps the current one); buffered output
 * is discarded, a failure forgotten. The byte count restarts at 0.
 * Returns SGF_OK, or SGF_EBUSY from inside the sink (nothing done). */
SGF_EXTERN int sgf_writer_reset(sgf_writer *w, sgf_write_fn write, void *ctx);

/* The events. Each returns SGF_OK, or the writer's sticky error code if
 * it has failed, now or before (SGF_EORDER, SGF_EIDENT, SGF_ESINK). The
 * identifier given to
 * sgf_writer_property() is normalized as the parser does (lowercase
 * letters dropped, or all upper-cased if there is no uppercase one). Value
 * data is raw (escapes intact), in any number of slices split anywhere;
 * sgf_writer_value_text() adds plain text instead, escaping it (flags:
 * SGF_ESCAPE_COMPOSE, SGF_ESCAPE_SIMPLE). sgf_writer_value_begin() may be
 * left out: value data (or text) right after a property or after a value's
 * end begins a new value, and so does a value end (an empty value). A
 * property ends at sgf_writer_property_end() or at the next property, node
 * or tree event. */
SGF_EXTERN int sgf_writer_tree_begin(sgf_writer *w);
SGF_EXTERN int sgf_writer_node(sgf_writer *w);
SGF_EXTERN int sgf_writer_property(sgf_writer *w, const char *ident,
                                   size_t len);
SGF_EXTERN int sgf_writer_value_begin(sgf_writer *w);
SGF_EXTERN int sgf_writer_value_data(sgf_writer *w, const char *raw,
                                     size_t len);
SGF_EXTERN int sgf_writer_value_text(sgf_writer *w, const char *text,
                                     size_t len, unsigned flags);
SGF_EXTERN int sgf_writer_value_end(sgf_writer *w);
SGF_EXTERN int sgf_writer_property_end(sgf_writer *w);
SGF_EXTERN int sgf_writer_tree_end(sgf_writer *w);

/* A whole raw value: value_begin, value_data, value_end. */
SGF_EXTERN int sgf_writer_value(sgf_writer *w, const char *raw, size_t len);

/* End of output: closes an open value and every open game tree (as the
 * parser's finish does), then flushes. Returns SGF_OK or the sticky error
 * code. The writer can go
 * on with a new game tree afterwards. */
SGF_EXTERN int sgf_writer_finish(sgf_writer *w);

/* Hand everything buffered to the sink. Returns SGF_OK or the sticky
 * error code (SGF_ESINK). */
SGF_EXTERN int sgf_writer_flush(sgf_writer *w);

/* Why the writer failed: SGF_OK if it has not, else the sticky code
 * (SGF_EORDER, SGF_EIDENT, SGF_ESINK); sgf_strerror() describes it. */
SGF_EXTERN int sgf_writer_status(const sgf_writer *w);

/* Bytes written so far (handed to the sink or still buffered). */
SGF_EXTERN uint64_t sgf_writer_bytes(const sgf_writer *w);

/* Game trees open in the output (0 between game trees). */
SGF_EXTERN uint64_t sgf_writer_depth(const sgf_writer *w);

/* cb->size must be set (sgf_callbacks_init(), VERSIONED STRUCTS in
 * sgfstream/parser.h): no member past it is written.
 * Fill the event members of *cb with handlers that pass each event to the
 * writer that is the parser's user pointer: sgf_parser_create(&cb, writer,
 * &opt) copies a parse to the writer. A handler returns SGF_ABORT once the
 * writer has failed. on_diagnostic is left as it is; on_value (WHOLE
 * VALUES in sgfstream/parser.h) is set to NULL, so that the three value members
 * are used and can be wrapped; on_value_begin and
 * on_property_end are set to NULL, since the writer needs neither (see
 * the events above) and the parser makes no call for a NULL member: each
 * is about a tenth of the time of parse + write. To filter, replace a
 * member with your own handler that calls the one it replaced (or the
 * sgf_writer_* function, for the two NULL ones) only for what it keeps;
 * to drop a property, pass on neither its on_property nor its values'
 * on_value_data and on_value_end. */
SGF_EXTERN void sgf_writer_callbacks(sgf_callbacks *cb);

/* The same, with values whole (WHOLE VALUES in sgfstream/parser.h): on_value
 * set, on_value_data and on_value_end NULL. One call a value in place of two:
 * parse + write is faster. To filter values, wrap on_value. */
SGF_EXTERN void sgf_writer_value_callbacks(sgf_callbacks *cb);

/* The same, and on_moves too (MOVE RUNS in sgfstream/parser.h): a run of move
 * nodes in one call, written with no call a node, at copy speed: the
 * run's bytes without their line breaks (compact), or each node after
 * its line break and indentation (readable); the same bytes as its
 * nodes' events would write. For copying a parse as
 * it is: a filter set on top of these must replace on_moves as well, or
 * set it to NULL (the runs then come as events). (on_moves is left out of
 * sgf_writer_value_callbacks so that a filter written for 1.0, which
 * wraps on_node, on_property and on_value, still sees every move.) Added
 * in 1.1. */
SGF_EXTERN void sgf_writer_copy_callbacks(sgf_callbacks *cb);

/* ---------------------------------------------------------------------- */
/* Writing trees (sgfstream/tree.h)                                        */

/* Write a whole game tree, a node's subtree (as a game tree of its own:
 * the node, its descendants, and the variations below it), or every tree
 * of a collection (slots whose tree was taken are passed over), through
 * the same events and layout as the streaming writer: a tree built from a
 * parse writes the same bytes as the parse written directly, except that
 * a tree does not keep a variation that is its parent's only child apart
 * from the parent's sequence ("(;B[aa](;W[bb]))" is written
 * "(;B[aa];W[bb])", the same game tree). Properties in file order, values
 * raw. The walk is a loop over parent / first child
 * / next sibling links: no recursion, no allocation. The writer must be
 * between game trees (or inside a node, for a variation: then the subtree
 * is written as a variation of the output's current tree). Returns SGF_OK
 * or the writer's sticky error code. */
SGF_EXTERN int sgf_writer_write_tree(sgf_writer *w, const sgf_tree *t);
SGF_EXTERN int sgf_writer_write_subtree(sgf_writer *w, const sgf_node *n);
SGF_EXTERN int sgf_writer_write_collection(sgf_writer *w,
                                           const sgf_collection *c);

/* A pointer of yours kept by the writer (NULL at creation), for handlers
 * installed next to sgf_writer_callbacks(): their user pointer is the
 * writer, and this finds your context (say, in on_diagnostic). */
SGF_EXTERN void sgf_writer_set_user(sgf_writer *w, void *user);
SGF_EXTERN void *sgf_writer_user(const sgf_writer *w);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_WRITER_H */
