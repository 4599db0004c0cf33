/* drops.c - which diagnostics mean that a rewrite loses bytes of the
 * input (rewrite.h, rewrite_diag_drops()).
 *
 * `sgf fmt -i` replaces the user's file, so it must not lose what the
 * user wrote unless told to (--force). Every lenient repair is reported by
 * a diagnostic; the question for each is whether the rewritten file still
 * holds everything the input said, only spelled the FF[4] way (a repair
 * that RESPELLS), or whether bytes the user wrote are gone from it (a
 * repair that DROPS). The switch has no default case, so a diagnostic
 * added to <sgfstream/diag.h> breaks the build (-Wswitch, -Werror) until
 * it is classified here.
 *
 * The fatal diagnostics and no-game-tree are errors: a file with errors
 * is never rewritten in place, --force or not (the parse stopped part
 * way, or there is nothing to write), so their answer here only matters
 * for the message. They are counted as drops all the same, since that is
 * what writing their output would do.
 */
#define _POSIX_C_SOURCE 200809L

#include "rewrite.h"

int rewrite_diag_drops(sgf_diag_code code) {
  switch (code) {
    /* RESPELLS: nothing of the input is lost. */
    case SGF_DIAG_BOM:
      /* The UTF-8 byte-order mark says "UTF-8"; the output is the same
       * UTF-8 bytes, and FF[4] has CA[] for the charset. */
    case SGF_DIAG_MISSING_PAREN:
    case SGF_DIAG_MISSING_SEMICOLON:
    case SGF_DIAG_UNCLOSED_TREE:
    case SGF_DIAG_TREE_WITHOUT_NODE:
      /* Syntax the input left out is added: bytes are inserted, none
       * removed. */
    case SGF_DIAG_UNCLOSED_VALUE:
      /* The value is closed with every byte of it kept (a backslash ending
       * it is doubled so that it stays a backslash). */
    case SGF_DIAG_LOWERCASE_IDENT:
      /* FF[3] "CoPyright" means CP: the lowercase letters were a comment on
       * the identifier by definition, and the normalized one is what every
       * reader understands. */
    case SGF_DIAG_SPACE_BEFORE_VALUE:
      /* Whitespace between tokens carries nothing; the layout is rewritten
       * anyway. */
    case SGF_DIAG_EMPTY_TREE:
      /* "()" holds no node and no property: two syntax bytes with no
       * content. */
    case SGF_DIAG_NODE_AFTER_VARIATION:
      /* The node is kept, as the variation the parser reads it as. */
    case SGF_DIAG_DBCS_BACKSLASH:
    case SGF_DIAG_DBCS_BRACKET:
      /* The double-byte character keeps its bytes; the writer adds the
       * backslash FF[4] needs so that the value reads back the same. */
    case SGF_DIAG_MOVE_AND_SETUP:
    case SGF_DIAG_TWO_MOVES:
    case SGF_DIAG_ROOT_OUTSIDE_ROOT:
    case SGF_DIAG_GAME_INFO_TWICE:
    case SGF_DIAG_DUPLICATE_PROPERTY:
    case SGF_DIAG_OFF_BOARD:
    case SGF_DIAG_BAD_VALUE:
    case SGF_DIAG_SEVERAL_VALUES:
    case SGF_DIAG_UNKNOWN_FF:
    case SGF_DIAG_UNKNOWN_GM:
    case SGF_DIAG_SZ_RANGE:
    case SGF_DIAG_NOT_RECTANGLE:
    case SGF_DIAG_BAD_UTF8:
      /* The semantic checks (sgfstream/check.h) only report: the parser
       * keeps every property and value as written. */
    case SGF_DIAG_UTF16_INPUT:
      /* Every character is kept, in UTF-8 (fmt -i refuses to replace a
       * UTF-16 file by UTF-8 on its own: inplace.c). */
      return 0;

    /* DROPS: bytes the user wrote are not in the output. */
    case SGF_DIAG_JUNK_BEFORE:
    case SGF_DIAG_JUNK_AFTER:
    case SGF_DIAG_JUNK:
      /* Text outside any property (a mail header, a note, "1 2" between
       * moves, random bytes) is skipped. */
    case SGF_DIAG_EXTRA_PAREN:
      /* A ')' closing nothing: perhaps the end of a tree whose '(' was
       * lost, the structure the user meant is unknown. */
    case SGF_DIAG_NO_VALUE:
      /* The identifier of a property without value is not written (FF[4]
       * needs a value). */
    case SGF_DIAG_ORPHAN_VALUE:
      /* A value without identifier is not written: its text is lost. */
    case SGF_DIAG_NUL_BYTE:
      /* NUL bytes are never valid SGF; the writer drops them, also inside
       * values. */
    case SGF_DIAG_IDENT_LIMIT:
      /* The property with the over-long identifier is dropped, values and
       * all (an error). */
      return 1;

    /* Errors that stop the parse or leave nothing to write: see above. */
    case SGF_DIAG_NOMEM:
    case SGF_DIAG_DEPTH_LIMIT:
    case SGF_DIAG_VALUE_LIMIT:
    case SGF_DIAG_TREE_NODE_LIMIT:
    case SGF_DIAG_TREE_BYTE_LIMIT:
    case SGF_DIAG_UTF16:
    case SGF_DIAG_UTF16_INVALID:
    case SGF_DIAG_NO_GAME_TREE:
      return 1;

    case SGF_DIAG_NONE:
    case SGF_DIAG_MAX_:
      break;
  }
  return 1; /* not a known code: assume the worst */
}
