/* sgfstream/reader.h - the property reader: whole properties, not slices.
 *
 * For handler writers who do not want value slices. The reader sits on a
 * parser's public callbacks and hands you each property once it is
 * complete: its identifier and all its values, each value whole and raw
 * (escapes intact; sgf_unescape() gives the text). Values are assembled
 * in one buffer bounded by sgf_reader_options.max_value_bytes: a property
 * whose raw values exceed it in total, or that has more than
 * max_value_bytes / 16 values (at least 64), ends parsing with the fatal
 * diagnostic SGF_DIAG_VALUE_LIMIT (positioned at the value, marked at the
 * property), never with unbounded growth.
 *
 * Feed, finish, resume and reset through the parser that
 * sgf_reader_parser() returns. The same return contract as the core
 * applies to every callback here (continue, skip, pause, abort).
 *
 * This header is included by <sgfstream.h>; it stands alone too. The
 * property and value views are in sgfstream/value.h (raw values).
 */
#ifndef SGFSTREAM_READER_H
#define SGFSTREAM_READER_H

#include "sgfstream/parser.h"
#include "sgfstream/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The property, complete: *prop and everything it points to (its
 * identifiers, and its values through sgf_prop_value()) are valid during
 * the callback only. */
typedef int (*sgf_property_cb)(sgf_parser *p, void *user,
                               const sgf_prop_view *prop);

/* A versioned struct (VERSIONED STRUCTS in sgfstream/parser.h): initialize it
 * with sgf_reader_callbacks_init(). Any callback may be NULL. */
typedef struct sgf_reader_callbacks {
  size_t size; /* sizeof(sgf_reader_callbacks) */
  sgf_cb on_tree_begin;
  sgf_cb on_tree_end;
  sgf_cb on_node;
  sgf_property_cb on_property;
  sgf_diag_cb on_diagnostic;
} sgf_reader_callbacks;

SGF_EXTERN void sgf_reader_callbacks_init(sgf_reader_callbacks *cb);

#define SGF_DEFAULT_MAX_VALUE_BYTES (1u << 20)

/* A versioned struct: initialize it with sgf_reader_options_init(). */
typedef struct sgf_reader_options {
  size_t size;               /* sizeof(sgf_reader_options) */
  const sgf_options *parser; /* for the reader's parser; NULL: defaults;
                                copied */
  size_t max_value_bytes;    /* bytes buffered for one property (all its
                                values, raw); 0 means
                                SGF_DEFAULT_MAX_VALUE_BYTES */
} sgf_reader_options;

SGF_EXTERN void sgf_reader_options_init(sgf_reader_options *opt);

typedef struct sgf_reader sgf_reader;

/* Create a reader and its parser; cb and opt may be NULL (both are
 * copied). user is passed to every callback. Returns NULL if memory runs
 * out or an option or a struct size is invalid. */
SGF_EXTERN sgf_reader *sgf_reader_create(const sgf_reader_callbacks *cb,
                                         void *user,
                                         const sgf_reader_options *opt);
/* Free the reader and its parser. NULL is allowed. Returns SGF_OK, or
 * SGF_EBUSY from inside one of its callbacks (nothing is freed). */
SGF_EXTERN int sgf_reader_destroy(sgf_reader *r);

/* The parser to feed. Owned by the reader. */
SGF_EXTERN sgf_parser *sgf_reader_parser(sgf_reader *r);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_READER_H */
