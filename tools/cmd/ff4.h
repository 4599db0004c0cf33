/* ff4.h - `sgf fmt --ff4`: converting FF[1]-FF[3] records to FF[4] as
 * SGFC does, as an event filter between the parser and the writer.
 *
 * What changes (each change is a positioned warning, FILE:LINE:COL,
 * counted as a repair: exit status 1; none drops what the input said, so
 * `fmt -i --ff4` needs no --force for them):
 *   - the root node of each game gets FF[4] (first), in place of the FF
 *     it had; GM[1] is added when it has no GM;
 *   - L (letters) becomes LB with the labels a, b, c... in order, M
 *     (mark) MA on an empty point and TR on a stone (the board is played
 *     through the game, captures included), merged into the node's LB,
 *     MA and TR (FF[4] allows one of each per node); Go games only;
 *   - KI (komi in half points) becomes KM (KI[11] is KM[5.5]) unless the
 *     node has a KM;
 *   - VW of two points in an old record (the corners of the view, FF[3])
 *     becomes one rectangle: VW[ba][db] is VW[ba:db];
 *   - TE and BM in one node of an old record become IT (TE first) or DO
 *     (BM first), FF[3]'s way of saying interesting or doubtful (FF[4]
 *     allows one move annotation a node; the warning shows both values);
 *   - values of the non-text types are decoded and encoded again by the
 *     value layer: "+5" is 5, "6.50" is 6.5, a "tt" pass is [] on boards
 *     up to 19x19, a rectangle is written upper-left:lower-right; in old
 *     records an upper-case point that is off the board ("DD" on 19x19)
 *     is read in lower case, as FF[3] only had lower-case points.
 * What stays as written, with a warning: a value that is not of its
 * type, KI beside KM, a point L or M would label or mark twice (as an L or
 * M property of its own: FF[4] allows unknown properties), and every
 * FF[1]-FF[3] property FF[4] has no equivalent for (BS, WS, ID, CH, SI,
 * OM, OP, OV, TC, EL, EX, LT, RG, SC, SE), without a warning. Text is
 * never changed.
 *
 * Memory: the node's LB, MA, TR, L, M and KI values (points and short
 * labels) until the node ends, the board (52 x 52 bytes), and, inside
 * variations, the board changes made since the variation began, to undo
 * them at its ')'. No recursion.
 */
#ifndef SGF_TOOLS_FF4_H
#define SGF_TOOLS_FF4_H

#include <sgfstream.h>

typedef struct ff4 ff4;

/* A new converter (NULL: out of memory). */
ff4 *ff4_create(void);
void ff4_destroy(ff4 *c);

/* The parser's event handlers for a rewrite (rewrite.h) whose cmd_ctx is
 * the converter: they pass the events on to the rewrite's writer,
 * converted. Fills every event member of *cb (on_value for values). */
void ff4_callbacks(sgf_callbacks *cb);

#endif /* SGF_TOOLS_FF4_H */
