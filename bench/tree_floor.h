/* bench/tree_floor.h - the floor of a tree builder on the public callbacks.
 *
 * The least that any builder of game trees on sgfstream's event API does
 * for a game record, and nothing more: one node per node event, linked
 * as the last child of the node before it (parent, first child, next
 * sibling) with a return point per open variation; one property per
 * property event with the identifier the core hands over; one value per
 * value with its raw bytes copied (the input is gone after the callback);
 * with positions, the node's, property's and value's place in the file,
 * read inline (sgf_event_position, as the real builder does) or by call. Bump
 * allocation in 64 KiB blocks reused from game to game, so no malloc per game.
 *
 * What it leaves out, and the real builder (lib/tree/tree_build.c) does: the
 * identifier as written (sgf_parser_raw_ident) and identifier copies,
 * the node and byte limits, derived facts (ply, depth, move numbers, ids,
 * subtree sizes), the position index, the property and value records
 * behind the views (sgf_prop_view, sgf_value_view), and every failure
 * path. So bench_tree's "trees"
 * row can approach this floor but not pass it; the floor says how much
 * of the time is the events and positions themselves.
 */
#ifndef BENCH_TREE_FLOOR_H
#define BENCH_TREE_FLOOR_H

#include <sgfstream.h>

#include <stddef.h>
#include <stdint.h>

typedef struct tree_floor tree_floor;

/* How the floor takes the three positions of a move. */
enum {
  TREE_FLOOR_NO_POS = 0,     /* not at all */
  TREE_FLOOR_POS_INLINE = 1, /* sgf_event_position(): event_state.h */
  TREE_FLOOR_POS_CALL = 2    /* sgf_parser_position() calls */
};

/* A floor builder and its parser (default options), taking positions as
 * TREE_FLOOR_*. NULL on OOM. */
tree_floor *tree_floor_create(int positions);
void tree_floor_destroy(tree_floor *f);
/* Its parser: feed, finish and reset it like any other. */
sgf_parser *tree_floor_parser(tree_floor *f);
/* Reset the parser for a new input; a game left open is dropped. */
void tree_floor_reset(tree_floor *f);
/* Games completed and nodes in them, since the floor was created. */
void tree_floor_counts(const tree_floor *f, uint64_t *games, uint64_t *nodes);

#endif /* BENCH_TREE_FLOOR_H */
