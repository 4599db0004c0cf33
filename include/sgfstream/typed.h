/* sgfstream/typed.h - typed property values on tree nodes (getters) and
 * on the cursor (setters), in the spirit of GNU Go's sgfGetIntProperty
 * and friends, with the library's error space.
 *
 * GETTERS read the FIRST property of a node with the given normalized
 * identifier ("KM", "AB") and decode its value with the typed codecs of
 * sgfstream/value.h. Points and moves are checked against the tree's
 * board: the root's SZ (19 x 19 without one). Every getter returns
 *   SGF_OK      decoded (*out set)
 *   SGF_EINVAL  no such property on the node (or a NULL argument);
 *               *out unchanged
 *   SGF_ESYNTAX the value is not of the type asked for; *out unchanged
 *   SGF_ERANGE  well formed but out of range (a point off the board, a
 *               number beyond 64 bits); *out unchanged
 * To report a bad value at FILE:LINE:COL, the view (sgf_node_find_prop,
 * sgf_prop_value) has its position; decode it with the codec of
 * sgfstream/value.h for the byte offset.
 *
 * SETTERS act on the cursor's current node (setup and annotation) or add
 * a node (sgf_cursor_play), replacing every value of the property (or
 * adding it at the end of the node). They encode with the same codecs,
 * so what a setter writes reads back equal through the getter. A
 * property the table knows (built-ins) must be of the setter's type:
 * sgf_cursor_set_number on "B" is SGF_EINVAL. Unknown identifiers are
 * the application's own and take any of them. Points are checked
 * against the board (the root's SZ) as the getters check them. The
 * cursor's contract holds: SGF_OK, or SGF_EINVAL / SGF_ERANGE (nothing
 * written), SGF_ENOMEM / SGF_ELIMIT, and on every failure the tree is as
 * it was (some arena bytes may have been spent).
 *
 * Opt-in: <sgfstream.h> does not include this header; it stands alone
 * (it includes the headers it needs, never <sgfstream.h>).
 */
#ifndef SGFSTREAM_TYPED_H
#define SGFSTREAM_TYPED_H

#include "sgfstream/charset.h"
#include "sgfstream/parser.h"
#include "sgfstream/value.h"
#include "sgfstream/tree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* Getters on nodes                                                        */

/* Number ("HA", "MN", "GM"): 64 bits, sign allowed. */
SGF_EXTERN int sgf_node_get_number(const sgf_node *n, const char *ident,
                                   int64_t *out);
/* Real ("KM", "TM", "BL"). */
SGF_EXTERN int sgf_node_get_real(const sgf_node *n, const char *ident,
                                 double *out);
/* Double ("GB", "TE"...): 1 normal, 2 emphasized. */
SGF_EXTERN int sgf_node_get_double(const sgf_node *n, const char *ident,
                                   int *out);
/* Color ("PL"): SGF_COLOR_BLACK or SGF_COLOR_WHITE. */
SGF_EXTERN int sgf_node_get_color(const sgf_node *n, const char *ident,
                                  sgf_color *out);

/* The tree's board: the root's SZ, or 19 x 19 when the root has none.
 * SGF_ESYNTAX / SGF_ERANGE when SZ is malformed (*out is then 19 x 19,
 * and the point and move getters below return that same error: the
 * board is not known). */
SGF_EXTERN int sgf_node_get_board(const sgf_node *n, sgf_board *out);

/* One point ("VW" has lists: see sgf_node_get_points), on the board. */
SGF_EXTERN int sgf_node_get_point(const sgf_node *n, const char *ident,
                                  sgf_point *out);

/* The node's move (its first B or W, as sgf_node_move() finds it), on
 * the board: *color and *out set (a pass: out->pass 1; "tt" is a pass
 * on boards up to 19 x 19). SGF_EINVAL when the node holds no move. */
SGF_EXTERN int sgf_node_get_move(const sgf_node *n, sgf_color *color,
                                 sgf_move *out);

/* Points of a list property ("AB", "TR", "DD"), every value in turn, a
 * compressed one ("aa:cc") as all its points row by row, checked against
 * the board. The struct is plain data; its members are private. */
typedef struct sgf_node_points {
  sgf_prop_view prop; /* private */
  size_t next;        /* private: the next value */
  sgf_board board;    /* private */
  unsigned flags;     /* private: SGF_PTS_* */
  int state;          /* private: < 0 the error to return */
  sgf_point_iter it;  /* private */
} sgf_node_points;

/* Start on ident's values: SGF_OK, SGF_EINVAL when there is no such
 * property (the iterator then yields nothing), or the board's error.
 * An empty value [] is allowed (and yields no point) for the
 * properties that may be empty (DD, VW, TB, TW: shape ELIST) and for
 * unknown ones. */
SGF_EXTERN int sgf_node_get_points(const sgf_node *n, const char *ident,
                                   sgf_node_points *it);
/* 1 and *pt the next point, 0 at the end, or SGF_ESYNTAX / SGF_ERANGE
 * for a bad value (then *value its index, if value is not NULL, and
 * every later call returns the same error). */
SGF_EXTERN int sgf_node_points_next(sgf_node_points *it, sgf_point *pt,
                                    size_t *value);

/* Text ("C", "GN", "PB") as UTF-8: FF[4] decoded (SimpleText for the
 * properties the table says are, Text otherwise: line breaks kept), then
 * converted from the game's charset by cs: this call resets cs and gives
 * it the root's CA, so cs's own override and SGF_CS_GUESS apply. A
 * composed value ("LB", "AP") is read whole, the ':' included. The
 * output goes to *out, a buffer of *cap bytes that cs grows (*out NULL,
 * *cap 0 to start; free it with sgf_charset_free(cs, ...)), NUL-ended.
 * Returns the UTF-8 length (>= 0), SGF_EINVAL (no such property),
 * SGF_ENOMEM, or SGF_ESYNTAX when bytes do not decode in the charset:
 * *out then holds the text read as ISO-8859-1 (see charset.h, DECODE
 * ERRORS), *err_off (may be NULL) the offset in the decoded text. */
SGF_EXTERN int sgf_node_get_text(const sgf_node *n, const char *ident,
                                 sgf_charset *cs, char **out, size_t *cap,
                                 size_t *err_off);

/* ---------------------------------------------------------------------- */
/* Setters on the cursor (its current node unless said)                    */

SGF_EXTERN int sgf_cursor_set_number(sgf_cursor *c, const char *ident,
                                     int64_t v);
/* SGF_ERANGE for NaN, infinities and magnitudes of 1e15 and more. */
SGF_EXTERN int sgf_cursor_set_real(sgf_cursor *c, const char *ident, double v);
/* 1 or 2. */
SGF_EXTERN int sgf_cursor_set_double(sgf_cursor *c, const char *ident, int v);
/* SGF_COLOR_BLACK or SGF_COLOR_WHITE. */
SGF_EXTERN int sgf_cursor_set_color(sgf_cursor *c, const char *ident,
                                    sgf_color v);

/* SZ on the root. Points and moves already in the tree are not checked
 * against the new size. */
SGF_EXTERN int sgf_cursor_set_board(sgf_cursor *c, const sgf_board *b);

/* One point as the property's only value; SGF_ERANGE off the board. */
SGF_EXTERN int sgf_cursor_set_point(sgf_cursor *c, const char *ident,
                                    sgf_point pt);
/* A list of points, written compressed (sgf_points_compress: rectangles
 * "aa:cc" where they fit); duplicates count once. n 0 writes [] for the
 * properties that may be empty (ELIST, unknown ones) and removes the
 * property otherwise. SGF_ERANGE if a point is off the board (nothing
 * written). Unlike sgf_cursor_add_stone, the other setup (or markup)
 * properties keep their points: this sets one property. */
SGF_EXTERN int sgf_cursor_set_points(sgf_cursor *c, const char *ident,
                                     const sgf_point *pts, size_t n);

/* UTF-8 text of len bytes, FF[4] encoded (sgf_text_encode: ']' and '\\'
 * escaped), SimpleText for the properties the table says are. Refused,
 * so that the value reads back as given: SGF_EINVAL when text is not
 * valid UTF-8 or the root declares a CA other than UTF-8 (set CA first,
 * or convert); SGF_ERANGE for a byte that would not decode back to
 * itself (tab, vertical tab, form feed; CR or LF in SimpleText), with
 * its offset in *err_off (may be NULL). (sgf_cursor_set_text in tree.h
 * escapes any bytes and checks nothing.) */
SGF_EXTERN int sgf_cursor_set_utf8(sgf_cursor *c, const char *ident,
                                   const char *text, size_t len,
                                   size_t *err_off);

/* sgf_cursor_add_move() with the move checked against the board (the
 * root's SZ): a pass is written [] (FF[4]); SGF_ERANGE for a point off
 * the board, and nothing is added. sgf_cursor_add_move() (tree.h) checks
 * only that the letters exist: it writes B[uu] on 9x9. */
SGF_EXTERN int sgf_cursor_play(sgf_cursor *c, sgf_color color,
                               const sgf_move *m, unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_TYPED_H */
