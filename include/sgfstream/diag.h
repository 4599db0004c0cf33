/* sgfstream/diag.h - the catalogue of diagnostics.
 *
 * One X-macro table gives every diagnostic its stable number, its
 * short name, its severity and its message. Numbers are never reused or
 * renumbered; new entries are appended with the version that added them.
 *
 * Severity is the severity in lenient mode (the default):
 *   SGF_SEV_WARNING  the input deviates from FF[4]; the parser repaired it and
 *                nothing the user gave was lost without this report.
 *   SGF_SEV_ERROR    the input is wrong in a way a layer could not repair
 *                (for instance a game dropped by a tree builder limit);
 *                parsing goes on.
 *   SGF_SEV_FATAL    parsing stops (a limit was exceeded, memory ran out).
 * In strict mode (SGF_OPT_STRICT) every warning is reported as an error
 * and parsing stops at the first one.
 *
 * Codes 28 to 40 (since 1.1) are the semantic checks of sgfstream/check.h: the
 * input is well formed but breaks an FF[4] rule about what properties
 * and values mean. The parser never reports them by itself (they are off
 * by default); a checker chained onto its callbacks does. All are
 * warnings (nothing is repaired or dropped: the report is all they do):
 *   move-and-setup      a node mixes move (B W KO MN) and setup (AB AE AW
 *                       PL) properties; FF[4] forbids it
 *   two-moves           B and W in one node
 *   root-outside-root   AP CA FF GM ST SZ in a node that is not a root
 *   game-info-twice     a second node with game-info properties (PB DT
 *                       RE KM...) on one path from the root
 *   duplicate-property  one property twice in a node (FF[4]: at most once)
 *   off-board           a point, stone or move off the board SZ gives
 *                       (Go only; "tt" is a pass on boards up to 19x19)
 *   bad-value           a value that is not of its property's type (KM[abc],
 *                       an empty value where none is allowed)
 *   several-values      more than one value for a single-value property
 *   unknown-ff          FF other than 1 to 4
 *   unknown-gm          GM other than 1 to 40 (the FF[4] list)
 *   sz-range            SZ not 1 to 52 (Go)
 *   not-rectangle       a compressed point list value "xy:xy" whose corners
 *                       are not upper left then lower right (or a 1x1)
 *   bad-utf8            bytes that are not UTF-8 in a value of a game whose
 *                       CA is UTF-8
 *
 * This header is included by <sgfstream.h>; it stands alone too (it
 * declares nothing but constants).
 */
#ifndef SGFSTREAM_DIAG_H
#define SGFSTREAM_DIAG_H

/* XX(number, NAME, name, severity, message)  -- since 0.1 unless noted */
#define SGF_DIAG_MAP(XX)                                                       \
  XX(1, NOMEM, "out-of-memory", FATAL, "out of memory")                        \
  XX(2, DEPTH_LIMIT, "depth-limit", FATAL,                                     \
     "game trees nested deeper than the configured limit")                     \
  XX(3, IDENT_LIMIT, "ident-limit", ERROR,                                     \
     "property identifier longer than the configured limit; property dropped") \
  XX(4, VALUE_LIMIT, "value-limit", FATAL,                                     \
     "property values longer than the configured limit")                       \
  XX(5, BOM, "byte-order-mark", WARNING,                                       \
     "UTF-8 byte-order mark before the collection ignored")                    \
  XX(6, JUNK_BEFORE, "junk-before", WARNING,                                   \
     "text before the first game tree ignored")                                \
  XX(7, JUNK_AFTER, "junk-after", WARNING, "text after a game tree ignored")   \
  XX(8, JUNK, "junk", WARNING, "unexpected characters ignored")                \
  XX(9, MISSING_PAREN, "missing-paren", WARNING,                               \
     "game tree starts without '('")                                           \
  XX(10, MISSING_SEMICOLON, "missing-semicolon", WARNING,                      \
     "node starts without ';'")                                                \
  XX(11, UNCLOSED_TREE, "unclosed-tree", WARNING,                              \
     "game tree not closed at end of input")                                   \
  XX(12, EXTRA_PAREN, "extra-paren", WARNING, "unmatched ')' ignored")         \
  XX(13, LOWERCASE_IDENT, "lowercase-ident", WARNING,                          \
     "lowercase letters in property identifier")                               \
  XX(14, SPACE_BEFORE_VALUE, "space-before-value", WARNING,                    \
     "whitespace between property identifier and '['")                         \
  XX(15, EMPTY_TREE, "empty-tree", WARNING, "empty game tree '()' ignored")    \
  XX(16, NO_VALUE, "no-value", WARNING, "property without value ignored")      \
  XX(17, ORPHAN_VALUE, "orphan-value", WARNING,                                \
     "value without property identifier ignored")                              \
  XX(18, UNCLOSED_VALUE, "unclosed-value", WARNING,                            \
     "value not closed at end of input")                                       \
  XX(19, NUL_BYTE, "nul-byte", WARNING, "NUL byte in input")                   \
  XX(20, TREE_WITHOUT_NODE, "tree-without-node", WARNING,                      \
     "game tree has no node before its variations; empty node inserted")       \
  XX(21, NO_GAME_TREE, "no-game-tree", ERROR, "input contains no game tree")   \
  XX(22, UTF16, "utf16", FATAL,                                                \
     "input is UTF-16 encoded; convert it to UTF-8 first")                     \
  XX(23, NODE_AFTER_VARIATION, "node-after-variation", WARNING,                \
     "node after a variation; it opens a variation of its own")                \
  XX(24, TREE_NODE_LIMIT, "tree-node-limit", FATAL,                            \
     "game tree has more nodes than the configured limit")                     \
  XX(25, TREE_BYTE_LIMIT, "tree-byte-limit", FATAL,                            \
     "game tree needs more memory than the configured limit")                  \
  XX(26, DBCS_BACKSLASH, "dbcs-backslash", WARNING,                            \
     "backslash after a double-byte lead byte read as the character's "        \
     "second byte: the ']' after it closes the value")                         \
  XX(27, DBCS_BRACKET, "dbcs-bracket", WARNING,                                \
     "']' after a double-byte lead byte read as the character's second "       \
     "byte: the value goes on")                                                \
  XX(28, MOVE_AND_SETUP, "move-and-setup", WARNING,                            \
     "move and setup properties in one node")                                  \
  XX(29, TWO_MOVES, "two-moves", WARNING, "black and white move in one node")  \
  XX(30, ROOT_OUTSIDE_ROOT, "root-outside-root", WARNING,                      \
     "root property outside the root node")                                    \
  XX(31, GAME_INFO_TWICE, "game-info-twice", WARNING,                          \
     "game-info properties in a second node of one path")                      \
  XX(32, DUPLICATE_PROPERTY, "duplicate-property", WARNING,                    \
     "property given twice in one node")                                       \
  XX(33, OFF_BOARD, "off-board", WARNING, "point off the board")               \
  XX(34, BAD_VALUE, "bad-value", WARNING, "value not of the property's type")  \
  XX(35, SEVERAL_VALUES, "several-values", WARNING,                            \
     "several values for a single-value property")                             \
  XX(36, UNKNOWN_FF, "unknown-ff", WARNING,                                    \
     "unknown file format (FF other than 1-4)")                                \
  XX(37, UNKNOWN_GM, "unknown-gm", WARNING,                                    \
     "unknown game (GM other than 1-40)")                                      \
  XX(38, SZ_RANGE, "sz-range", WARNING, "board size out of range (SZ 1-52)")   \
  XX(39, NOT_RECTANGLE, "not-rectangle", WARNING,                              \
     "compressed point list value not written upper-left:lower-right")         \
  XX(40, BAD_UTF8, "bad-utf8", WARNING, "invalid UTF-8 under CA[UTF-8]")       \
  /* 41, 42 (1.1): UTF-16 input read converted to UTF-8, with the parser       \
   * option SGF_OPT_UTF16 (without it: utf16, 22); see sgfstream/utf16.h */    \
  XX(41, UTF16_INPUT, "utf16-input", WARNING,                                  \
     "input is UTF-16, read converted to UTF-8 (columns and offsets count "    \
     "in the converted text)")                                                 \
  XX(42, UTF16_INVALID, "utf16-invalid", FATAL,                                \
     "UTF-16 input with a lone surrogate or a character cut off here; the "    \
     "rest of the input is not read")

typedef enum sgf_diag_code {
  SGF_DIAG_NONE = 0,
#define SGF__DIAG_ENUM(num, NAME, name, sev, msg) SGF_DIAG_##NAME = num,
  SGF_DIAG_MAP(SGF__DIAG_ENUM)
#undef SGF__DIAG_ENUM
      SGF_DIAG_MAX_
} sgf_diag_code;

#endif /* SGFSTREAM_DIAG_H */
