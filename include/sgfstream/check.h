/* sgfstream/check.h - semantic checks: FF[4]'s rules about what
 * properties and values mean, on top of the parser's syntax.
 *
 * The parser checks syntax only. A checker adds the rules of FF[4] (and
 * of SGFC's catalogue) that need the property table and the values: a
 * move and setup in one node, B and W in one node, root properties
 * outside the root, game-info properties in two nodes of one path, a
 * property twice in a node, points off the board, values not of their
 * type, several values for a single-value property, an unknown FF or GM,
 * SZ out of range, a compressed point list not written as FF[4]'s
 * rectangle, bytes that are not UTF-8 under CA[UTF-8]. Each finding is a
 * diagnostic of the catalogue (codes 28 to 40 of sgfstream/diag.h, all
 * warnings) positioned at the property or at the offending byte of the
 * value, reported through sgf_parser_report(): it reaches the parser's
 * on_diagnostic, is counted by sgf_parser_diag_count(), and in strict
 * mode is an error that stops the parse, like the parser's own.
 *
 * CHAINING. The checks are off unless a program asks for them: it
 * creates a checker and calls the sgf_check_* function of each event
 * from its own callback of that event (on_tree_begin, on_tree_end,
 * on_node, on_property, on_value, on_property_end, on_node_end, and
 * on_moves: a program that takes MOVE RUNS must pass each run to
 * sgf_check_moves(), which checks its nodes as their events; a run not
 * passed is not checked), with the same arguments, before or after its
 * own work. The findings are the same with runs and without. Each returns
 * SGF_CONTINUE, or SGF_ABORT when the report stopped the parser (strict
 * mode) or on_diagnostic asked to abort: return it from the callback.
 * A program that reads values in slices (on_value_begin, on_value_data,
 * on_value_end) passes them as pieces: sgf_check_value(c, p, NULL, 0,
 * SGF_VALUE_FIRST) at the begin, (at, len, 0) per slice, (NULL, 0,
 * SGF_VALUE_LAST) at the end.
 *
 * STREAMING. The checker keeps no pointer into the input and decides
 * nothing by how it was chunked: input split anywhere gives the same
 * findings. Its memory is fixed at creation (one allocation, no growth):
 * per game the board, FF, GM and CA; per node the properties seen; per
 * value at most SGF_VALUE_ACC_CAP bytes (non-text values are short; text
 * is checked byte by byte). "Game info twice on a path" needs to know,
 * at each variation's end, whether the game-info node of the path lies
 * inside it: the depth of that node is enough, as the path's first
 * game-info node is the only one to remember.
 *
 * WHAT IS NOT FLAGGED. Everything FF[4] allows, and what older formats
 * wrote that FF[4] still reads: "tt" as a pass on boards up to 19 x 19,
 * an empty move as a pass, [] for the lists that may be empty (DD VW TB
 * TW), AP with a name and no ":version" (common: Kombilo, GoGui, Fox),
 * the FF[1]-FF[3] properties of the table (L, M...), properties the
 * table does not know (their values are checked for UTF-8 only). Points
 * are checked for Go only (GM[1] or no GM); for other games their syntax
 * is the game's.
 *
 * LIMITS. The board is the root node's SZ (19 x 19 without one); the
 * points of the root node before its SZ are checked when it ends, so SZ
 * may follow them there (up to 32 values; more are checked at once
 * against the board known so far). CA is read from the root node as it comes:
 * text in the root before CA[UTF-8] is not checked for UTF-8. A value's finding
 * is its first (and its first bytes that are not UTF-8); a node's identifiers
 * of three letters and more past the 64th are not checked for duplicates.
 *
 * This header is included by <sgfstream.h>; it stands alone too.
 */
#ifndef SGFSTREAM_CHECK_H
#define SGFSTREAM_CHECK_H

#include <stddef.h>

#include "sgfstream/parser.h"
#include "sgfstream/value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A versioned struct (VERSIONED STRUCTS in sgfstream/parser.h): initialize it
 * with sgf_check_options_init(). */
typedef struct sgf_check_options {
  size_t size; /* sizeof(sgf_check_options) */
  /* NULL: the built-in table; else kept (not copied): it must outlive
   * the checker. */
  const sgf_prop_table *table;
  const sgf_allocator *allocator; /* NULL: libc; copied */
} sgf_check_options;

SGF_EXTERN void sgf_check_options_init(sgf_check_options *o);

typedef struct sgf_checker sgf_checker;

/* opt may be NULL (defaults). NULL if memory runs out or opt's size is
 * invalid. */
SGF_EXTERN sgf_checker *sgf_checker_create(const sgf_check_options *opt);
SGF_EXTERN void sgf_checker_destroy(sgf_checker *c);
/* Forget the input so far: call it with sgf_parser_reset(). */
SGF_EXTERN void sgf_checker_reset(sgf_checker *c);

/* One per event, called from that event's callback (see CHAINING). */
SGF_EXTERN int sgf_check_tree_begin(sgf_checker *c, sgf_parser *p);
SGF_EXTERN int sgf_check_tree_end(sgf_checker *c, sgf_parser *p);
SGF_EXTERN int sgf_check_node(sgf_checker *c, sgf_parser *p);
/* ident and len: on_property's (the normalized identifier). */
SGF_EXTERN int sgf_check_property(sgf_checker *c, sgf_parser *p,
                                  const char *ident, size_t len);
/* at, len and flags: on_value's (SGF_VALUE_FIRST, SGF_VALUE_LAST). */
SGF_EXTERN int sgf_check_value(sgf_checker *c, sgf_parser *p, const char *at,
                               size_t len, unsigned flags);
SGF_EXTERN int sgf_check_property_end(sgf_checker *c, sgf_parser *p);
SGF_EXTERN int sgf_check_node_end(sgf_checker *c, sgf_parser *p);
/* at, len and count: on_moves' (MOVE RUNS in sgfstream/parser.h); call it from
 * on_moves only. The run's nodes are checked in bulk: a node that cannot
 * fail (B or W as the table defines them, a move on the board, not a
 * game's root) costs a table lookup per byte; from the first that can
 * (a point off the board, a bad value, another letter), the run is
 * replayed (sgf_run_replay()) and those nodes go through the checks of
 * each event, positioned as without runs: the same findings, positions
 * and order (the parser's position during each too). */
SGF_EXTERN int sgf_check_moves(sgf_checker *c, sgf_parser *p, const char *at,
                               size_t len, size_t count);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_CHECK_H */
