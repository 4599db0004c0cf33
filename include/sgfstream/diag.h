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
  /* 28, 29: reported by the sgf tool, which reads UTF-16 input converted      \
   * to UTF-8 (the library itself refuses it: utf16, 22) */                    \
  XX(28, UTF16_INPUT, "utf16-input", WARNING,                                  \
     "input is UTF-16, read converted to UTF-8 (columns and offsets count "    \
     "in the converted text)")                                                 \
  XX(29, UTF16_INVALID, "utf16-invalid", FATAL,                                \
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
