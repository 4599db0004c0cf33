/* sgfstream/parser.h - the push parser: an incremental parser for SGF game
 * records (the core API; <sgfstream.h> includes it with the rest).
 *
 * You create a parser with a set of callbacks, then feed it the input in
 * chunks of any size, split anywhere, and call sgf_parser_finish() at the end
 * of input. The parser emits events as it recognises them and keeps no
 * pointer into your buffers, so one read buffer can serve every chunk.
 * Memory use is fixed at creation and grows with neither the input size
 * nor the nesting depth, with one bounded exception: in lenient mode a
 * node written after a variation opens an implicit variation, and the
 * depths of those open at once are kept in a stack that grows on demand,
 * to at most 8 * max_depth bytes. No function here recurses over the input.
 *
 * Events, in the order SGF FF[4] gives them:
 *   on_tree_begin     '(' opened a game tree (or a variation)
 *   on_node           ';' began a node
 *   on_property       a property identifier, whole, with its first '['
 *                     (identifiers are short and bounded, never split)
 *   on_value_begin    '[' opened a value
 *   on_value_data     zero or more raw slices of the value (see below)
 *   on_value_end      ']' closed the value
 *   on_property_end   the property's last value was closed
 *   on_node_end       the node is complete: its last property is done
 *                     and ';' '(' or ')' follows (or the end of input)
 *   on_tree_end       ')' closed the game tree
 *   on_diagnostic     a warning, error or fatal error (see diag.h)
 * or, when on_value is set, in place of the three value events:
 *   on_value          a value whole, or one piece of it (see below)
 *
 * THE SLICE CONTRACT. A value arrives as zero or more (at, len) slices
 * between on_value_begin and on_value_end. A value may be split into any
 * number of slices at any byte, also between a backslash and the byte it
 * escapes, and the split points depend on how you chunked the input: never
 * assume one slice per value. Slices are raw: escapes are left in place
 * (\] and \\ and backslash-newline), so concatenating them gives the exact
 * bytes between '[' and ']'. Use sgf_text_decode() or sgf_text_decoder
 * (sgfstream/value.h) to get the text. A slice points into the buffer you
 * passed to sgf_parser_feed() and is valid only during the callback. The
 * exceptions: bytes the parser held back to decide a ']' in double-byte
 * text (below), and the first bytes of an input that may be UTF-16 (at
 * most four, until they tell), arrive from its own memory, during a later
 * feed or during sgf_parser_finish(); so does all of a UTF-16 input read
 * with SGF_OPT_UTF16, converted.
 *
 * DOUBLE-BYTE TEXT. In Shift_JIS, GBK, GB18030 and Big5 a character's
 * second byte may be '\' or ']'. Some writers escape those bytes, others
 * (Nihon Ki-in's downloads, with no CA property) do not. In lenient mode,
 * where a byte that may lead such a character (0x81..0xFE, not ending
 * valid UTF-8) stands right before "\]" or "]", the parser
 * looks at what follows the
 * ']': blanks then ';' '(' ')' '[', or letters then '[', or the end of
 * input mean the ']' closes the value, anything else that it does not.
 * Where that overrules FF[4]'s byte rules a warning says so
 * (dbcs-backslash: the raw value then ends in that backslash;
 * dbcs-bracket: the raw value holds that ']'). To look ahead the parser
 * may hold back up to SGF_MAX_HELD_BYTES (64) bytes of a chunk until the
 * next feed or finish.
 * Valid UTF-8 text is never affected. Strict mode uses FF[4]'s byte rules
 * only (valid FF[4] text with such a byte before an escaped ']' and
 * SGF-like text after it reads differently in lenient mode).
 *
 * THE RETURN CONTRACT. Every callback returns one of sgf_action:
 *   SGF_CONTINUE  go on.
 *   SGF_SKIP      pass over the rest of the innermost game tree (or
 *                 variation) that is open after this event, emitting no
 *                 further event until its on_tree_end (which is emitted).
 *                 From on_tree_end this skips the rest of the enclosing tree.
 *                 From on_node_end of a game's root node this skips the
 *                 rest of the game: read the root, decide, move on.
 *                 Diagnostics are not reported for skipped bytes,
 *                 but for the depth limit (max_depth), which holds in
 *                 skipped trees too: the fatal depth-limit.
 *   SGF_PAUSE     sgf_parser_feed() returns SGF_PAUSED at once, with
 *                 *consumed telling how many bytes were used. No callback
 *                 fires until sgf_parser_resume(); then feed the bytes from
 *                 buf + consumed on. Nothing is lost or repeated.
 *   SGF_ABORT     stop; sgf_parser_feed() returns SGF_EABORTED, and so does
 *                 every later call until sgf_parser_reset().
 * ACTIONS ARE NOT RESULTS. The actions have values no result code
 * (sgfstream/error.h) has, but for SGF_CONTINUE, which is SGF_OK (0): a
 * result returned where an action is expected (SGF_PAUSED from a feed
 * passed up as a callback's answer, say) is refused, never taken for the
 * action that happens to share its number. A callback (on_diagnostic and
 * the batch handler included) that returns anything but an sgf_action
 * stops the parser: sgf_parser_feed() and sgf_parser_finish() return
 * SGF_EACTION, and so does every later call until sgf_parser_reset().
 *
 * POSITIONS. Offsets are 0-based byte counts (64-bit: inputs over 4 GiB are
 * normal); lines and columns are 1-based; columns count bytes, not
 * characters. A line ends at LF, CR, or CR LF.
 *
 * THREADS. A parser is used by one thread at a time; different parsers are
 * independent. There is no global state but one choice made once.
 *
 * ENVIRONMENT. The library reads one environment variable, once, when
 * the first parser is created (the choice then holds for the process):
 * SGF_SIMD=none|portable|sse2|avx2|neon forces the bulk scanners of long
 * values; unset or another value, the fastest the CPU supports is used.
 * On x86-64 avx2 without the CPU's support, or neon, gives sse2; a build
 * without SIMD (configure --disable-simd) or for another machine has one
 * set only. Results are the same with each (the tests run under every
 * one); only speed differs. Nothing else is read from the environment:
 * the tree builder's general path, for instance, is a builder option
 * (SGF_TREE_GENERAL_ONLY).
 */
#ifndef SGFSTREAM_PARSER_H
#define SGFSTREAM_PARSER_H

#include <stddef.h>
#include <stdint.h>

#include "sgfstream/common.h"
#include "sgfstream/diag.h"
#include "sgfstream/error.h"
#include "sgfstream/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SGF_VERSION_MAJOR, _MINOR, _PATCH and _STRING: in sgfstream/version.h,
 * which configure writes from AC_INIT's version. */

/* The library's version string, for comparing with the header's
 * SGF_VERSION_STRING. */
SGF_EXTERN const char *sgf_version(void);

/* RESULTS. Functions returning int return SGF_OK (0) or a negative
 * SGF_E* code (sgfstream/error.h), listed at each; sgf_parser_feed() and
 * sgf_parser_finish() also return SGF_PAUSED (1). Functions returning a
 * pointer say when it is NULL; the rest cannot fail.
 *
 * What a result code (sgfstream/error.h) means, and its name ("EBUSY"):
 * static strings, never NULL; "unknown error" / "UNKNOWN" for a number
 * that is not a code. */
SGF_EXTERN const char *sgf_strerror(int code);
SGF_EXTERN const char *sgf_err_name(int code);

/* ---------------------------------------------------------------------- */
/* Positions and diagnostics                                               */

/* sgf_pos (a place in the input) is in sgfstream/common.h. */

typedef enum sgf_severity {
  SGF_SEV_WARNING = 1,
  SGF_SEV_ERROR = 2,
  SGF_SEV_FATAL = 3
} sgf_severity;

typedef struct sgf_diag {
  sgf_diag_code code;
  sgf_severity severity; /* as reported: in strict mode warnings are errors */
  sgf_pos pos;           /* where the problem was found */
  int has_mark;          /* 1 if mark is set */
  sgf_pos mark;          /* where the enclosing construct opened */
  uint64_t length;       /* bytes concerned at pos (junk run length...), 0 if
                            not known */
  void *reserved[4];     /* room to grow; zero */
} sgf_diag;

/* Name ("extra-paren"), message and catalogue severity of a code; NULL / 0
 * for unknown codes. The strings are static. */
SGF_EXTERN const char *sgf_diag_name(sgf_diag_code code);
SGF_EXTERN const char *sgf_diag_message(sgf_diag_code code);
SGF_EXTERN sgf_severity sgf_diag_severity(sgf_diag_code code);
/* "warning", "error", "fatal". */
SGF_EXTERN const char *sgf_severity_name(sgf_severity s);

/* ---------------------------------------------------------------------- */
/* Allocation, options, limits                                             */

/* The allocator hooks (sgf_allocator) are in sgfstream/common.h. */

/* Option flags. */
#define SGF_OPT_STRICT 0x1u /* stop at the first deviation from FF[4] */
/* Mainline only: every secondary variation (each child game tree after
 * the first) is passed over by the tokenizer with no events and no
 * diagnostics from inside it, as if it were not there. The first child of
 * each node is still delivered between its tree-begin and tree-end. A
 * node written after a variation (which lenient mode turns into a
 * variation of its own) is reported as in the other modes
 * (node-after-variation), then passed over. */
#define SGF_OPT_MAINLINE 0x2u
/* UTF-16 input: an input that begins with a UTF-16 byte-order mark (or
 * with '(' written as UTF-16: sgfstream/utf16.h, DETECTION) is converted
 * to UTF-8 as it is fed and parsed as UTF-8, with the warning
 * utf16-input (41) first; every position counts in the converted text;
 * a lone surrogate is the fatal utf16-invalid (42) at its place. Any
 * split of the input gives the same events. Without it such an input is
 * refused (the fatal utf16, 22). A leading NUL byte alone is never taken
 * for UTF-16. Added in 1.1 (sgfstream/utf16.h tells more). */
#define SGF_OPT_UTF16 0x4u

#define SGF_DEFAULT_MAX_DEPTH 10000u  /* nested '(' */
#define SGF_DEFAULT_MAX_IDENT_LEN 64u /* bytes, as written */

/* VERSIONED STRUCTS. Every struct you pass in (sgf_options,
 * sgf_callbacks, and the layers' options and callbacks) begins with
 * `size_t size`, the size of the struct as your header declares it. Set
 * it with the struct's _init function (which zeroes the rest), or set
 * size = sizeof the struct and every other member yourself, before use.
 * The library reads only the first `size` bytes and takes members past
 * them as 0 / NULL, so a program built against an older header works
 * with a newer library that has more members. A size below that of the
 * struct's first version (0 included) is invalid: the function taking it
 * refuses it (a create function returns NULL). */

typedef struct sgf_options {
  size_t size;                    /* sizeof(sgf_options): sgf_options_init() */
  unsigned flags;                 /* SGF_OPT_* */
  uint64_t max_depth;             /* 0 means SGF_DEFAULT_MAX_DEPTH */
  size_t max_ident_len;           /* 0 means SGF_DEFAULT_MAX_IDENT_LEN */
  const sgf_allocator *allocator; /* NULL means malloc/realloc/free; the
                                     struct is copied */
} sgf_options;

/* Fill *opt with the defaults (all zero: lenient, default limits, libc)
 * and set its size. */
SGF_EXTERN void sgf_options_init(sgf_options *opt);

/* ---------------------------------------------------------------------- */
/* The push parser                                                         */

typedef struct sgf_parser sgf_parser;

/* The actions (THE RETURN CONTRACT). 0x101 to 0x103: no result code is
 * in 0x100 to 0x1FF (sgfstream/error.h), so neither can pass for the
 * other; ordered from the weakest to the strongest. */
typedef enum sgf_action {
  SGF_CONTINUE = 0, /* = SGF_OK */
  SGF_SKIP = 0x101,
  SGF_PAUSE = 0x102,
  SGF_ABORT = 0x103
} sgf_action;

/* The callbacks return int, not sgf_action: a handler may return any
 * sgf_action value, and handlers written as returning int (every one
 * before 1.0) keep matching these types. With enum return types they
 * would not: calling through a function pointer of another type is
 * undefined in C and an error in C++, and an enum's size is the
 * compiler's choice (-fshort-enums), so it cannot be promised in an
 * ABI. A value that is not an sgf_action stops the parser with
 * SGF_EACTION (ACTIONS ARE NOT RESULTS above). */
typedef int (*sgf_cb)(sgf_parser *p, void *user);
typedef int (*sgf_data_cb)(sgf_parser *p, void *user, const char *at,
                           size_t len);
typedef int (*sgf_diag_cb)(sgf_parser *p, void *user, const sgf_diag *d);

/* WHOLE VALUES. With on_value set, on_value_begin, on_value_data and
 * on_value_end are not called: each value arrives as one or more pieces,
 * raw like slices (the slice contract above holds for them), flagged
 *   SGF_VALUE_FIRST  the value's first piece; sgf_parser_position() is
 *                    then its '['
 *   SGF_VALUE_LAST   the value's last piece (its ']' follows the bytes)
 * Otherwise the position is the piece's first byte (for an empty last
 * piece, the ']'). A value that lies whole in the buffer being fed (every
 * move and point of a record, most text) is one call with both flags;
 * "[]" is one call with len 0 and both flags. A value split by the end of
 * a chunk, a NUL byte or a double-byte decision comes in more pieces, the
 * last of which may be empty. The return contract is that of any event:
 * after a LAST piece the parser is past the ']'. One call in place of up
 * to three makes a value cheaper to receive. */
#define SGF_VALUE_FIRST 0x1u
#define SGF_VALUE_LAST 0x2u
typedef int (*sgf_value_cb)(sgf_parser *p, void *user, const char *at,
                            size_t len, unsigned flags);

/* MOVE RUNS. Most nodes of a game record are one move, ";B[qd]". With
 * on_moves set, the parser may deliver a run of such nodes in one call,
 * found 64 bytes at a time, in place of their events. A plain move node
 * is a ';', one uppercase letter, '[', two bytes none of which is ']'
 * '\\' ';' LF CR or NUL, and ']' (six bytes); a run is count (>= 1) of
 * them, each followed by the next run node's ';' at once, after an LF or
 * after a CR LF, and by a ';' after the last one. at and len are the
 * run's bytes: from its first ';' up to the ';' after its last node,
 * which is not included (that node is the next thing parsed).
 *
 * The call stands for exactly the events of those nodes: on_node_end of
 * the node open before the run, if one is; then for each node on_node,
 * on_property (the letter), its value (on_value with SGF_VALUE_FIRST and
 * SGF_VALUE_LAST, or the three value events) and on_property_end; and
 * on_node_end for each node but the last, which stays open: its node end
 * comes next, as an event. The parser takes a run only where it lies
 * whole in the buffer being fed and only where it chooses to: plain
 * move nodes may still come one event at a time (at a chunk boundary,
 * say), so a handler must take both. sgf_parser_position() gives the
 * position of the run's first ';'; a node's offset is that plus its
 * distance in at, and its line counts the line breaks before it in at.
 * sgf_parser_raw_ident() is the last node's letter. The return contract
 * is that of the last node's on_property_end: SGF_SKIP skips the rest of
 * the innermost open game tree, SGF_PAUSE stops the feed at the ';'
 * after the run (*consumed as for any pause: bytes held back for
 * look-ahead count as consumed). Never called in batch mode. Added in
 * 1.1. Do not walk a run by hand: sgfstream/run.h gives its nodes
 * (sgf_run_iter_next(), inline) and makes the events it stands for
 * (sgf_run_replay()). */
typedef int (*sgf_moves_cb)(sgf_parser *p, void *user, const char *at,
                            size_t len, size_t count);

/* Any member but size may be NULL. Initialize the struct with
 * sgf_callbacks_init() (or an initializer that sets size to
 * sizeof(sgf_callbacks)) before setting members one by one: see
 * VERSIONED STRUCTS. The first version ended at on_diagnostic: on_value
 * was added after it. on_property receives the identifier normalized
 * to FF[4] (its uppercase letters only: "CoPyright" gives "CP"; an
 * identifier written all in lowercase is upper-cased: "b" gives "B"); the
 * spelling as written is sgf_parser_raw_ident(). Neither is
 * NUL-terminated; both are valid during the callback only. on_diagnostic may
 * return SGF_ABORT (stop) or SGF_CONTINUE; SGF_SKIP and SGF_PAUSE count as
 * SGF_CONTINUE there, and any other value stops the parser (SGF_EACTION).
 */
typedef struct sgf_callbacks {
  size_t size; /* sizeof(sgf_callbacks): sgf_callbacks_init() */
  sgf_cb on_tree_begin;
  sgf_cb on_tree_end;
  sgf_cb on_node;
  sgf_data_cb on_property;
  sgf_cb on_value_begin;
  sgf_data_cb on_value_data;
  sgf_cb on_value_end;
  sgf_cb on_property_end;
  sgf_diag_cb on_diagnostic;
  /* If set: values come whole, or in pieces (WHOLE VALUES above), and
   * on_value_begin, on_value_data and on_value_end are not called. */
  sgf_value_cb on_value;
  /* NODE END. The node begun by the last on_node is complete: its last
   * property is done (on_property_end has fired) and the byte at
   * sgf_parser_position() is the ';' '(' or ')' that follows it, or the
   * end of input in sgf_parser_finish() (before the diagnostic for a
   * tree left open). Once per node, in every mode (slices or whole
   * values), unless the node was skipped or the parse stopped first.
   * SGF_SKIP from it skips the rest of the innermost open game tree,
   * which for a game's root node is the rest of the game. Added after
   * on_value. */
  sgf_cb on_node_end;
  /* MOVE RUNS (above): runs of plain move nodes in one call. Added
   * after on_node_end, in 1.1. */
  sgf_moves_cb on_moves;
} sgf_callbacks;

/* Zero *cb (every callback NULL) and set its size. */
SGF_EXTERN void sgf_callbacks_init(sgf_callbacks *cb);

/* Results of feed and finish (sgfstream/error.h):
 *   SGF_OK       all bytes consumed (feed) / input complete (finish)
 *   SGF_PAUSED   a callback paused; see *consumed
 *   SGF_EABORTED a callback aborted; sticky until reset
 *   SGF_EPARSE   a fatal error, or an error in strict mode; sticky until
 *                reset; sgf_parser_error() says which
 *   SGF_EACTION  a callback returned a value that is not an action
 *                (ACTIONS ARE NOT RESULTS); sticky until reset
 *   SGF_EBUSY    called from inside a callback; nothing was done
 *   SGF_EORDER   feed after finish; nothing was done */

/* Create a parser. cb and opt may be NULL (no callbacks, defaults); both
 * are copied (VERSIONED STRUCTS). Returns NULL if memory runs out or an
 * option or a struct size is invalid. */
SGF_EXTERN sgf_parser *sgf_parser_create(const sgf_callbacks *cb, void *user,
                                         const sgf_options *opt);

/* Free the parser. NULL is allowed. Returns SGF_OK, or SGF_EBUSY from
 * inside one of the parser's callbacks: then nothing is freed (the parse
 * goes on); destroy the parser once feed or finish has returned. */
SGF_EXTERN int sgf_parser_destroy(sgf_parser *p);

/* Feed len bytes. *consumed (may be NULL) receives how many bytes were
 * used: all of them unless the result is SGF_PAUSED (the rest must be fed
 * again after sgf_parser_resume()) or SGF_EABORTED / SGF_EPARSE.
 * Returns SGF_OK, SGF_PAUSED, SGF_EABORTED, SGF_EACTION, SGF_EPARSE
 * (sticky: every later feed returns it again, *consumed 0), SGF_EBUSY
 * (inside a callback) or SGF_EORDER (after finish); see the list above. */
SGF_EXTERN int sgf_parser_feed(sgf_parser *p, const char *buf, size_t len,
                               size_t *consumed);

/* End of input: closes what is still open (with diagnostics) and emits the
 * remaining events. Returns SGF_OK (also when called again after a
 * complete finish), SGF_PAUSED (call it again after resume),
 * SGF_EABORTED, SGF_EACTION, SGF_EPARSE (sticky, like feed's) or SGF_EBUSY.
 * After it, feed returns SGF_EORDER until sgf_parser_reset(). */
SGF_EXTERN int sgf_parser_finish(sgf_parser *p);

/* Leave the paused state. Does not feed anything by itself. No result:
 * on a parser that is not paused it does nothing. */
SGF_EXTERN void sgf_parser_resume(sgf_parser *p);

/* Forget everything about the input so far (also a sticky error) and start
 * again; callbacks, user pointer and options are kept. Returns SGF_OK, or
 * SGF_EBUSY from inside a callback (nothing is done). */
SGF_EXTERN int sgf_parser_reset(sgf_parser *p);

/* Inside a callback: where the current event's token starts ('(' ';' '['
 * ']' ')', the identifier's first byte, or the slice's first byte).
 * Outside: the position of the next byte to be fed. Never fails. */
SGF_EXTERN sgf_pos sgf_parser_position(const sgf_parser *p);

/* CUTTING BY POSITIONS. A caller that cuts the input by event positions
 * (a game's bytes from its '(' to its ')', as `sgf split` and `sgf
 * filter` do) must keep the bytes an event still to come may name, when
 * the bytes were fed earlier:
 * - SGF_MAX_HELD_BYTES is the most bytes of the input fed so far that the
 *   parser holds back unparsed (DOUBLE-BYTE TEXT's look-ahead); their
 *   events come with the next feed or finish. It never changes at run
 *   time.
 * - The '(' (or ';') that may open a game tree is reported only once
 *   what follows it proves it does (after any whitespace, which has no
 *   bound): on_tree_begin at depth 1 may name a byte fed long before.
 * sgf_parser_held_offset() says where both end: outside callbacks, the
 * offset of the earliest byte a later on_tree_begin or on_tree_end of a
 * game (depth 1) may name, and never after the first byte held back; at
 * most SGF_MAX_HELD_BYTES before the next byte to be fed, unless an
 * opener waits. Keep the bytes from there on (and a game's from its
 * '('). Never fails. */
#define SGF_MAX_HELD_BYTES 64
SGF_EXTERN uint64_t sgf_parser_held_offset(const sgf_parser *p);

/* Inside on_property: the identifier as written (e.g. "CoPyright"), not
 * NUL-terminated; its length in *len (len may be NULL). Elsewhere: the
 * last identifier, or "" before any. Never fails. */
SGF_EXTERN const char *sgf_parser_raw_ident(const sgf_parser *p, size_t *len);

/* A handler that wants the position of nearly every event can read it
 * without a call through the opt-in, versioned <sgfstream/event_state.h>
 * (not included here, not part of the stable API). */

/* Inside a callback: the depth of the game tree the event belongs to,
 * counting the game's own tree as 1: in a game's root node and in its
 * top-level on_tree_begin and on_tree_end alike 1, in a variation's
 * events 2, and so on (on_diagnostic: the trees open when it was found).
 * Outside callbacks: the game trees open (0 between game trees). */
SGF_EXTERN uint64_t sgf_parser_depth(const sgf_parser *p);

/* How many diagnostics of that severity (as reported: in strict mode
 * warnings are errors) the parser has reported since it was created or
 * reset, its own and those of sgf_parser_report(); whether or not
 * on_diagnostic is set. Diagnostics in skipped trees are not reported,
 * so not counted. 0 for any other severity. After a parse that ended
 * SGF_OK: errors short of fatal were repaired or dropped if the count
 * of SGF_SEV_ERROR is not 0. */
SGF_EXTERN uint64_t sgf_parser_diag_count(const sgf_parser *p,
                                          sgf_severity severity);

/* The diagnostic that stopped the parser (result SGF_EPARSE), else NULL. */
SGF_EXTERN const sgf_diag *sgf_parser_error(const sgf_parser *p);

/* For layers built on the callbacks (the reader, a tree builder): from
 * inside a callback, report a diagnostic of their own through this parser.
 * It goes to on_diagnostic like the parser's own (severity promoted in
 * strict mode, code/position taken from *d as given). If it is fatal (or
 * an error in strict mode) the parser stops: the feed or finish in
 * progress returns SGF_EPARSE and sgf_parser_error() returns a copy of it.
 * Returns the action on_diagnostic asked for (SGF_CONTINUE or SGF_ABORT),
 * or SGF_ABORT when the parser stops. */
SGF_EXTERN int sgf_parser_report(sgf_parser *p, const sgf_diag *d);

/* The user pointer given at creation, and a way to change it (allowed
 * from inside callbacks: the next callback gets the new one). */
SGF_EXTERN void *sgf_parser_user(const sgf_parser *p);
SGF_EXTERN void sgf_parser_set_user(sgf_parser *p, void *user);

/* Unescaping text: sgf_unescape() and sgf_unescaper, with the rest of
 * text decoding, are in sgfstream/value.h. */

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_PARSER_H */
