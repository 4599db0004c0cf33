/* sgfstream/tree.h - game trees: build, navigate, record.
 *
 * THE TREE BUILDER is a client of the public callback API: it turns the
 * event stream of a parser into one sgf_tree per top-level game tree and
 * hands each completed tree to on_game. Two modes:
 *   one game at a time (default): after on_game returns, the builder frees
 *     the tree unless the callback took it with sgf_tree_builder_keep().
 *     Memory is bounded by the largest game, not by the collection.
 *   collection (SGF_TREE_COLLECT): every completed tree is also kept in a
 *     sgf_collection, taken with sgf_tree_builder_collection_take().
 * Mainline only: set SGF_OPT_MAINLINE in options.parser->flags; the core
 * then passes over every secondary variation and the trees hold the main
 * line only.
 *
 * NODES keep their properties in file order: the identifier normalized
 * and as written, the values raw (escapes intact, the core's slices
 * concatenated; sgf_unescape() gives the text), with positions when the
 * builder was asked to keep them (SGF_TREE_POSITIONS). They are
 * read through views returned by value (sgf_prop_view, sgf_value_view in
 * sgfstream/value.h), not through the tree's own storage, which may
 * change. Every value's raw bytes are followed by a NUL byte for
 * convenience (a value may itself contain NUL bytes: use len).
 *
 * MEMORY. A tree keeps its nodes, properties and values in flat arrays
 * of small fixed-size records linked by 32-bit indices (a move node
 * takes 24 bytes), in ONE allocation of exactly the size the game needs,
 * taken through the allocator hooks of options.parser->allocator; the
 * builder builds each game in scratch memory of its own (reused from
 * game to game) and copies it there when the game ends. What a cursor
 * adds goes to blocks of up to 64 KiB beside it, so nodes never move.
 * sgf_tree_free() returns it all. Per tree, max_nodes and max_tree_bytes
 * bound what a game may take (the builder's scratch included);
 * exceeding one is a positioned diagnostic (SGF_DIAG_TREE_NODE_LIMIT /
 * SGF_DIAG_TREE_BYTE_LIMIT, marked at the game's '('), never unbounded
 * growth. Out of memory is SGF_DIAG_NOMEM. Either way the partial game is
 * freed at once and nothing leaks. Memory only grows: what a cursor
 * deletes or replaces (sgf_cursor_delete and the edits beside it) stays
 * in sgf_tree_byte_count() until the tree is freed; write the tree and
 * parse it again to compact it. A tree holds at most 64,834 distinct
 * identifiers other than one or two uppercase letters written as such.
 *
 * NO RECURSION. Building, walking, searching and freeing are iterative:
 * trees as deep (nested variations) or as long (single lines) as the
 * limits allow are fine.
 *
 * DERIVED FACTS (pre-order index, subtree size, child index, ply,
 * variation depth, move number, ...) are not stored in the nodes: the
 * first query that needs one computes them for the whole tree at once
 * (one O(n) pass into arrays the tree holds, counted in
 * sgf_tree_byte_count()), so queries are O(1) from then on (or O(path
 * length) where said). After an edit through a cursor the next query
 * computes them again (one pass for a run of edits). Should memory or
 * max_tree_bytes not allow the arrays, each query walks the tree instead
 * (O(path length), or O(n) for indexes and subtree sizes): queries never
 * fail.
 *
 * THREADS. Builders and cursors are used by one thread at a time. A tree
 * may be read by several threads at once once sgf_tree_node_at() has been
 * called on it (by one thread: the first call makes the derived facts and
 * the position index, and the first after a cursor's change refreshes
 * them; both write to the tree) and no cursor changed it since; different
 * objects are independent.
 *
 * This header is included by <sgfstream.h>; it stands alone too.
 */
#ifndef SGFSTREAM_TREE_H
#define SGFSTREAM_TREE_H

#include "sgfstream/parser.h"
#include "sgfstream/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sgf_tree sgf_tree;
typedef struct sgf_node sgf_node;
typedef struct sgf_collection sgf_collection;
typedef struct sgf_tree_builder sgf_tree_builder;
typedef struct sgf_cursor sgf_cursor;

typedef enum sgf_color {
  SGF_COLOR_NONE = 0,
  SGF_COLOR_BLACK = 1,
  SGF_COLOR_WHITE = 2
} sgf_color;

/* ---------------------------------------------------------------------- */
/* The tree builder                                                        */

#define SGF_TREE_COLLECT 0x1u /* keep every completed tree in a collection */
/* A game over a builder limit (nodes, bytes, value bytes) is dropped: the
 * diagnostic is reported as an error instead of fatal, the rest of that
 * game is skipped, and parsing goes on with the next game. */
#define SGF_TREE_SKIP_OVERSIZED 0x2u
/* No parser of its own: sgf_tree_builder_parser() returns NULL and you
 * call the handlers of sgf_tree_builder_handlers() from your own parser's
 * callbacks. */
#define SGF_TREE_DETACHED 0x4u
/* Build through the general path alone: one plain handler per event,
 * every node buffered, none of the fast tiers that handle the usual
 * cases (moves) in place. The trees are the same (test/unit/tree_paths.c
 * checks it), only slower: this is for testing and for telling a bug of
 * the fast path from one of the general path. A detached builder takes
 * it through sgf_tree_builder_handlers_of(). */
#define SGF_TREE_GENERAL_ONLY 0x8u
/* Keep positions: where each node's ';', each property's identifier and
 * each value's '[' were (sgf_node_pos(), the views' pos). Without it
 * they are all zeros, and a tree takes much less memory (a move node: 24
 * bytes instead of about 150: its value is not kept inline). */
#define SGF_TREE_POSITIONS 0x10u

#define SGF_DEFAULT_MAX_NODES 10000000u         /* per tree */
#define SGF_DEFAULT_MAX_TREE_BYTES (256u << 20) /* per tree: 256 MiB */

/* A versioned struct (VERSIONED STRUCTS in sgfstream/parser.h): initialize it
 * with sgf_tree_builder_options_init(). */
typedef struct sgf_tree_builder_options {
  size_t size;               /* sizeof(sgf_tree_builder_options) */
  const sgf_options *parser; /* for the parser the builder creates (NULL:
                              defaults; copied): flags (SGF_OPT_STRICT,
                              SGF_OPT_MAINLINE), limits; its allocator is
                              used for the trees too */
  unsigned flags;            /* SGF_TREE_* */
  uint64_t max_nodes;        /* per tree; 0 means SGF_DEFAULT_MAX_NODES
                                (at most 4,294,967,280) */
  uint64_t max_tree_bytes;   /* per tree: its memory, derived facts and
                                what is buffered for it; 0 means
                                SGF_DEFAULT_MAX_TREE_BYTES */
  size_t max_value_bytes;    /* bytes buffered for one property's raw
                                values; 0 means SGF_DEFAULT_MAX_VALUE_BYTES
                                (sgfstream/reader.h) */
} sgf_tree_builder_options;

/* Fill *opt with the defaults (all zero) and set its size. */
SGF_EXTERN void sgf_tree_builder_options_init(sgf_tree_builder_options *opt);

/* on_game receives each completed top-level game tree. The tree belongs to
 * the builder: it is freed (or, with SGF_TREE_COLLECT, kept in the
 * collection) when on_game returns, unless on_game calls
 * sgf_tree_builder_keep(). Returns an sgf_action like any callback
 * (SGF_SKIP means nothing here). */
typedef int (*sgf_tree_cb)(sgf_tree_builder *b, void *user, sgf_tree *tree);

/* A versioned struct: initialize it with
 * sgf_tree_builder_callbacks_init(). */
typedef struct sgf_tree_builder_callbacks {
  size_t size;               /* sizeof(sgf_tree_builder_callbacks) */
  sgf_tree_cb on_game;       /* may be NULL */
  sgf_diag_cb on_diagnostic; /* every diagnostic, the core's and the
                                builder's; may be NULL */
  /* Optional: your own event handlers, called with user after the builder
   * has taken each event (at the end of a game: after on_game). Their
   * return values are honoured (the strongest of yours and the builder's:
   * abort > pause > skip > continue). Its on_diagnostic is not used. The
   * struct is copied (its own size says how much of it is read).
   * sgf_parser_user() of the parser is the builder. */
  const sgf_callbacks *events;
} sgf_tree_builder_callbacks;

SGF_EXTERN void sgf_tree_builder_callbacks_init(sgf_tree_builder_callbacks *cb);

/* Create a builder and (unless SGF_TREE_DETACHED) its parser. cb and opt
 * may be NULL; both are copied. Returns NULL if memory runs out or an
 * option or a struct size is invalid. */
SGF_EXTERN sgf_tree_builder *sgf_tree_builder_create(
    const sgf_tree_builder_callbacks *cb, void *user,
    const sgf_tree_builder_options *opt);

/* Free the builder, its parser, a partial game and the trees of its
 * collection not taken. NULL is allowed. Returns SGF_OK, or SGF_EBUSY
 * from inside one of the builder's callbacks (nothing is freed). */
SGF_EXTERN int sgf_tree_builder_destroy(sgf_tree_builder *b);

/* The parser to feed, finish, resume; owned by the builder. NULL for a
 * detached builder. Reset through sgf_tree_builder_reset() (a plain
 * sgf_parser_reset() also works: the partial game is discarded when the
 * next game begins). */
SGF_EXTERN sgf_parser *sgf_tree_builder_parser(sgf_tree_builder *b);

/* Only inside on_game: take the tree being delivered. It is yours; free it
 * with sgf_tree_free(). It is not added to the collection. Returns the
 * tree, or NULL outside on_game. */
SGF_EXTERN sgf_tree *sgf_tree_builder_keep(sgf_tree_builder *b);

/* With SGF_TREE_COLLECT: the trees completed so far, in input order, as a
 * collection that is yours (free with sgf_collection_free()); the builder
 * starts a new, empty one. Returns NULL if memory runs out (the trees stay
 * in the builder) or without SGF_TREE_COLLECT. */
SGF_EXTERN sgf_collection *sgf_tree_builder_collection_take(
    sgf_tree_builder *b);

/* Discard the partial game and the collected trees not taken, and reset
 * the parser (if the builder has one). Returns SGF_OK, or SGF_EBUSY from
 * inside one of the builder's callbacks (nothing is done). */
SGF_EXTERN int sgf_tree_builder_reset(sgf_tree_builder *b);

/* For SGF_TREE_DETACHED builders: the builder's event handlers. Call each
 * from your parser's callback of the same name with user = the builder,
 * and return what it returns (or a stronger action); a handler the table
 * leaves NULL is not needed. Diagnostics of the builder go through
 * sgf_parser_report() on your parser. Static tables.
 * sgf_tree_builder_handlers_of() gives the ones for builder b, whose flags
 * choose: with SGF_TREE_GENERAL_ONLY the general path's, else the same
 * as sgf_tree_builder_handlers(), the fast path's, which serve every
 * builder. */
SGF_EXTERN const sgf_callbacks *sgf_tree_builder_handlers(void);
SGF_EXTERN const sgf_callbacks *sgf_tree_builder_handlers_of(
    const sgf_tree_builder *b);

/* ---------------------------------------------------------------------- */
/* Collections                                                             */

/* Number of trees. */
SGF_EXTERN size_t sgf_collection_count(const sgf_collection *c);
/* The i-th tree (0-based), owned by the collection; NULL if i is out of
 * range or the tree was taken. */
SGF_EXTERN sgf_tree *sgf_collection_tree(const sgf_collection *c, size_t i);
/* Take the i-th tree out: it is yours (sgf_tree_free()), its slot stays
 * and holds NULL. */
SGF_EXTERN sgf_tree *sgf_collection_tree_take(sgf_collection *c, size_t i);
/* Free the collection and the trees it still holds. NULL is allowed. */
SGF_EXTERN void sgf_collection_free(sgf_collection *c);

/* One call: parse len bytes into a collection (SGF_TREE_COLLECT is
 * implied). Warnings are not reported. Returns the collection (yours), or
 * NULL when parsing stopped (a fatal error or, in strict mode, an error):
 * then *err (may be NULL) receives the diagnostic (code SGF_DIAG_NOMEM if
 * memory ran out before parsing). opt may be NULL; if its size (or its
 * parser options' size) is invalid, NULL is returned and *err is not
 * set. */
SGF_EXTERN sgf_collection *sgf_collection_parse(
    const char *data, size_t len, const sgf_tree_builder_options *opt,
    sgf_diag *err);

/* ---------------------------------------------------------------------- */
/* Trees                                                                   */

/* A new tree with one empty root node, for recording through a cursor.
 * alloc may be NULL (libc); it is copied. Limits are the defaults.
 * Returns NULL if memory runs out. */
SGF_EXTERN sgf_tree *sgf_tree_create(const sgf_allocator *alloc);

/* Free a tree and all its nodes. NULL is allowed. Nodes, views and
 * cursors of the tree must not be used afterwards. */
SGF_EXTERN void sgf_tree_free(sgf_tree *t);

/* The root node (never NULL), valid as long as the tree. */
SGF_EXTERN const sgf_node *sgf_tree_root(const sgf_tree *t);

/* Number of nodes (those a cursor deleted no longer count). */
SGF_EXTERN size_t sgf_tree_node_count(const sgf_tree *t);

/* Bytes of memory the tree holds (its allocation, the blocks of a
 * cursor's edits, and the derived facts with the position index once
 * made). */
SGF_EXTERN uint64_t sgf_tree_byte_count(const sgf_tree *t);

/* The node whose pre-order index (sgf_node_index(), see NAMES below) is
 * i, in O(1); NULL if i is out of range. The index is made with the
 * derived facts (DERIVED FACTS above) by the first call (and again after
 * an edit); should memory or max_tree_bytes not allow it, the node is
 * found by walking the tree in pre-order, O(i). */
SGF_EXTERN const sgf_node *sgf_tree_node_at(const sgf_tree *t, size_t i);

/* ---------------------------------------------------------------------- */
/* Nodes: structure. All O(1) unless said; NULL when there is none. Nodes
 * live as long as their tree. A node links to its parent, its first child
 * and its next sibling only (ABI 2: the last child and the previous
 * sibling are found from the parent's first child, O(children)).       */

SGF_EXTERN sgf_tree *sgf_node_tree(const sgf_node *n);
SGF_EXTERN const sgf_node *sgf_node_root(const sgf_node *n);
SGF_EXTERN const sgf_node *sgf_node_parent(const sgf_node *n);
/* The first child is the main line's continuation. */
SGF_EXTERN const sgf_node *sgf_node_first_child(const sgf_node *n);
/* O(children). */
SGF_EXTERN const sgf_node *sgf_node_last_child(const sgf_node *n);
SGF_EXTERN const sgf_node *sgf_node_next_sibling(const sgf_node *n);
/* O(children). */
SGF_EXTERN const sgf_node *sgf_node_prev_sibling(const sgf_node *n);
/* The i-th child (0-based), O(i); NULL if out of range. */
SGF_EXTERN const sgf_node *sgf_node_child(const sgf_node *n, size_t i);
/* O(children) (ABI 2). */
SGF_EXTERN size_t sgf_node_child_count(const sgf_node *n);
/* Index among the parent's children: 0 for the first child (and the root).
 * O(1) with the derived facts. */
SGF_EXTERN size_t sgf_node_child_index(const sgf_node *n);

/* NAMES. Where CQL (the Chess Query Language, whose vocabulary for game
 * trees we follow) has a word, the function uses it: ply, variation depth
 * (CQL's `depth`), initial, terminal, mainline, variation, lca, ancestor,
 * descendant, distance. The depth of a node in the tree, counted in
 * nodes, is its tree depth; the parser's sgf_parser_depth() counts open
 * game trees instead.
 *
 * Pre-order index: the node's place in pre-order (document order), the
 * root 0, the last node sgf_tree_node_count() - 1; sgf_tree_node_at()
 * gives the node back. It is a position, not an identity: an edit
 * through a cursor that adds a node before n in pre-order (a variation
 * added above it, say) shifts n's index, and the indexes are refreshed
 * by the next query. To keep hold of a node across edits keep the
 * sgf_node pointer, which stays valid as long as the tree. */
SGF_EXTERN size_t sgf_node_index(const sgf_node *n);
/* Identity number: the node's number in its tree, 0 for the root, below
 * sgf_tree_id_limit(). Unlike the pre-order index it is fixed for the
 * node's life (no edit changes it) and never given to another node of
 * the tree; a deleted node keeps its own. O(1). For tables that go
 * beside a tree: an array indexed by id. */
SGF_EXTERN size_t sgf_node_id(const sgf_node *n);
/* One more than the largest id a node of t has had: the number of nodes
 * t was built with, raised by each node a cursor adds (deleted nodes
 * still count). O(1). */
SGF_EXTERN size_t sgf_tree_id_limit(const sgf_tree *t);
/* Nodes in the subtree rooted at n, n included. */
SGF_EXTERN size_t sgf_node_subtree_size(const sgf_node *n);
/* Tree depth: the number of nodes on the path from the root to n, minus
 * one (root: 0). Not a variation depth: a main line of 200 moves has tree
 * depth 200 at its end and variation depth 0. */
SGF_EXTERN size_t sgf_node_tree_depth(const sgf_node *n);
/* Ply: the number of nodes holding a move (B or W) on the path from the
 * root to n, both included. */
SGF_EXTERN size_t sgf_node_ply(const sgf_node *n);
/* Variation depth (CQL's `depth`): the number of nodes on the path from
 * the root to n, n included, that are not the first child of their
 * parent, that is how many variations deep n lies. 0 on the main line. */
SGF_EXTERN size_t sgf_node_variation_depth(const sgf_node *n);
/* Variation depth 0 / variation depth > 0. */
SGF_EXTERN int sgf_node_is_mainline(const sgf_node *n);
SGF_EXTERN int sgf_node_is_variation(const sgf_node *n);
/* Initial: n is the root. Terminal: n has no children. */
SGF_EXTERN int sgf_node_is_initial(const sgf_node *n);
SGF_EXTERN int sgf_node_is_terminal(const sgf_node *n);

/* Latest common ancestor of a and b (a node is its own ancestor), in
 * O(path length); NULL if they are in different trees. */
SGF_EXTERN const sgf_node *sgf_node_lca(const sgf_node *a, const sgf_node *b);
/* 1 if a is an ancestor of b (a node is its own ancestor), else 0. O(1).
 */
SGF_EXTERN int sgf_node_is_ancestor(const sgf_node *a, const sgf_node *b);
/* 1 if a is a descendant of b (a node is its own descendant), else 0. */
SGF_EXTERN int sgf_node_is_descendant(const sgf_node *a, const sgf_node *b);
/* Distance in plies: moves from a up to the latest common ancestor plus
 * moves from there down to b, that is ply(a) + ply(b) - 2 ply(lca).
 * O(path length). SIZE_MAX if a and b are in different trees. */
SGF_EXTERN size_t sgf_node_distance(const sgf_node *a, const sgf_node *b);

/* Where the node's ';' was in the input: zeros for nodes a cursor made,
 * and unless the builder kept positions (SGF_TREE_POSITIONS). */
SGF_EXTERN sgf_pos sgf_node_pos(const sgf_node *n);

/* ---------------------------------------------------------------------- */
/* Nodes: game facts                                                       */

/* The move the node holds: the colour of its first B or W property (in
 * file order), or SGF_COLOR_NONE. If value is not NULL it receives that
 * property's first value (a view of nothing, raw NULL, when there is no
 * move), valid as the views below are. */
SGF_EXTERN sgf_color sgf_node_move(const sgf_node *n, sgf_value_view *value);

/* The same move without a view, for readers that want only its letters:
 * the colour of the node's first B or W (SGF_COLOR_NONE if none), and
 * in *raw and *len (each may be NULL) the raw bytes of that property's
 * first value, followed by NUL, valid as a view's (NULL and 0 when
 * there is no move). O(1) for a node whose one property is its move
 * (most move nodes), else O(number of properties). */
SGF_EXTERN sgf_color sgf_node_move_raw(const sgf_node *n, const char **raw,
                                       size_t *len);

/* Move number. Moves (nodes holding B or W) are numbered 1, 2, 3 ... along
 * the path from the root. A node with MN[k] that holds a move gives that
 * move the number k, and later moves count on from k (k+1, ...); MN[k] in a
 * node without a move gives the next move on the path the number k. For a
 * node without a move the result is the number of the last move on the
 * path before it (0 if there is none). MN values that are not integers are
 * ignored. */
SGF_EXTERN int64_t sgf_node_move_number(const sgf_node *n);

/* Side to move after the node: its PL (B or W) if it has one; else the
 * opposite of the colour of the last move on the path from the root to
 * the node (the node included); else, no move having been made yet, white
 * if the root has HA[k] with k >= 2, else black. */
SGF_EXTERN sgf_color sgf_node_to_play(const sgf_node *n);

/* ---------------------------------------------------------------------- */
/* Nodes: properties, in file order, as views (RAW VALUES in
 * sgfstream/value.h) returned by value. A view and the bytes it points to
 * stay valid until the tree is freed or a cursor changes that node; the
 * values come through sgf_prop_value(). All O(1) unless said.            */

SGF_EXTERN size_t sgf_node_prop_count(const sgf_node *n);
/* The i-th property (0-based); a view of nothing (nvalues 0, NULL
 * pointers) if i is out of range. */
SGF_EXTERN sgf_prop_view sgf_node_prop(const sgf_node *n, size_t i);
/* The first property whose normalized identifier is ident ("B", "AB"); a
 * view of nothing (nvalues 0) if there is none: test nvalues. O(number
 * of properties). */
SGF_EXTERN sgf_prop_view sgf_node_find_prop(const sgf_node *n,
                                            const char *ident);

/* ---------------------------------------------------------------------- */
/* A line in bulk: what sgf_node_first_child(), sgf_node_id(),
 * sgf_node_prop_count() and sgf_node_move_raw() give, for many nodes in
 * one call (a program that reads every move of a game's main line, a
 * binding that makes an object per node).                                */

typedef struct sgf_line_node {
  const sgf_node *node; /* the node */
  size_t id;            /* sgf_node_id(node) */
  size_t nprops;        /* sgf_node_prop_count(node) */
  sgf_color move;       /* sgf_node_move_raw(node, &raw, &len) */
  const char *raw;      /* (NULL when there is no move) */
  size_t len;
} sgf_line_node;

/* Up to cap nodes of the line from n along first children (n first),
 * into out. Returns the number written; *rest (may be NULL) receives the
 * node after the last one written, NULL at the end of the line: call
 * again from there for more. O(nodes written). */
SGF_EXTERN size_t sgf_node_line(const sgf_node *n, sgf_line_node *out,
                                size_t cap, const sgf_node **rest);

/* ---------------------------------------------------------------------- */
/* Iterators (no allocation, no recursion). The struct is plain data:
 * declare it anywhere; its members are private.                           */

typedef struct sgf_node_iter {
  const sgf_node *top;  /* private */
  const sgf_node *next; /* private */
  int mode;             /* private */
} sgf_node_iter;

/* Pre-order (document order) over the subtree rooted at n, n first. */
SGF_EXTERN void sgf_node_iter_preorder_init(sgf_node_iter *it,
                                            const sgf_node *n);
/* From n along first children down to the end of its main line. */
SGF_EXTERN void sgf_node_iter_mainline_init(sgf_node_iter *it,
                                            const sgf_node *n);
/* The next node, or NULL at the end. The tree must not be changed while
 * iterating. */
SGF_EXTERN const sgf_node *sgf_node_iter_next(sgf_node_iter *it);

/* Points: sgf_point_encode(), sgf_point_decode() and SGF_PASS, the
 * cursor's coordinates as letters, are in sgfstream/value.h with the rest
 * of points and moves. */

/* ---------------------------------------------------------------------- */
/* Recording a game: a cursor is a tree plus a current node.               */

/* What the cursor functions return (sgfstream/error.h): SGF_OK, or
 *   SGF_ENOMEM  memory ran out
 *   SGF_EINVAL  a bad argument, or no such node to go to
 *   SGF_ELIMIT  the tree's node or byte limit
 * On failure the tree is as it was (though memory may have been
 * spent), except as said for sgf_cursor_header(). */

/* Add as the last variation instead of as the new main line. */
#define SGF_CURSOR_VARIATION 0x1u

typedef enum sgf_markup {
  SGF_MARKUP_TRIANGLE = 0, /* TR */
  SGF_MARKUP_CIRCLE = 1,   /* CR */
  SGF_MARKUP_SQUARE = 2,   /* SQ */
  SGF_MARKUP_CROSS = 3     /* MA */
} sgf_markup;

/* Create a cursor on t, at its root. The cursor borrows t: free the cursor
 * before the tree. Several cursors may share a tree. Returns NULL if
 * memory runs out. */
SGF_EXTERN sgf_cursor *sgf_cursor_create(sgf_tree *t);
/* Free the cursor (not the tree). NULL is allowed. */
SGF_EXTERN void sgf_cursor_destroy(sgf_cursor *c);

SGF_EXTERN sgf_tree *sgf_cursor_tree(const sgf_cursor *c);
/* The current node. */
SGF_EXTERN const sgf_node *sgf_cursor_node(const sgf_cursor *c);

/* Moving: back to the parent, forward to the first child, to the root, or
 * to any node of the cursor's tree. SGF_OK, or SGF_EINVAL (no
 * such node; the cursor stays). */
SGF_EXTERN int sgf_cursor_back(sgf_cursor *c);
SGF_EXTERN int sgf_cursor_forward(sgf_cursor *c);
SGF_EXTERN int sgf_cursor_rewind(sgf_cursor *c);
SGF_EXTERN int sgf_cursor_goto(sgf_cursor *c, const sgf_node *n);

/* Game information for sgf_cursor_header(). Strings are UTF-8 text, NULL
 * to leave out; they are escaped as needed. */
typedef struct sgf_game_header {
  unsigned board_size;     /* SZ; 0 to leave out */
  int has_komi;            /* write KM */
  double komi;             /* KM, written with at most two decimals */
  unsigned handicap;       /* HA; 0 to leave out */
  const char *black;       /* PB */
  const char *white;       /* PW */
  const char *date;        /* DT */
  const char *rules;       /* RU */
  const char *event;       /* EV */
  const char *application; /* AP */
  void *reserved[4];       /* zero */
} sgf_game_header;

/* Write GM[1] FF[4] and the given game information into the root node
 * (replacing properties of the same names). The cursor does not move. On
 * SGF_ENOMEM / SGF_ELIMIT some of the properties may have been
 * written (calling again with the same header is safe). */
SGF_EXTERN int sgf_cursor_header(sgf_cursor *c, const sgf_game_header *h);

/* Play: add a child of the current node holding B or W at (x, y) (pass:
 * x or y SGF_PASS) and move to it. The child becomes the new main line
 * (first child) unless flags has SGF_CURSOR_VARIATION (last child) or a
 * variation was started. If a child holding that same move exists
 * already, the cursor moves to it instead and nothing is added.
 * The point is NOT checked against the board: any x, y in 0..51 is
 * written as its letters (B[uu] on a 9x9 board, an off-board move a
 * reader will refuse); SGF_EINVAL only outside 0..51. To record a game,
 * use sgf_cursor_play() (<sgfstream/typed.h>), which checks the move
 * against the root's SZ and writes a pass as [] (FF[4]). */
SGF_EXTERN int sgf_cursor_add_move(sgf_cursor *c, sgf_color color, int x, int y,
                                   unsigned flags);

/* Add an empty child node (placed as for a move) and move to it. */
SGF_EXTERN int sgf_cursor_add_node(sgf_cursor *c, unsigned flags);

/* Go back to the parent; the next node added there (move or empty node)
 * becomes its last variation. SGF_EINVAL at the root. */
SGF_EXTERN int sgf_cursor_start_variation(sgf_cursor *c);

/* Setup stone at (x, y) in the current node: AB (black), AW (white) or AE
 * (SGF_COLOR_NONE). A point already listed is not added twice. FF[4]
 * wants setup and moves in different nodes: add a node first if the
 * current one holds a move. */
SGF_EXTERN int sgf_cursor_add_stone(sgf_cursor *c, sgf_color color, int x,
                                    int y);

/* Comment (C) on the current node; text is escaped (']' and '\\'). An
 * existing comment is extended with a newline and text. */
SGF_EXTERN int sgf_cursor_add_comment(sgf_cursor *c, const char *text);

/* Markup at (x, y) on the current node (TR, CR, SQ, MA). */
SGF_EXTERN int sgf_cursor_add_markup(sgf_cursor *c, sgf_markup kind, int x,
                                     int y);
/* Label LB[xy:text] on the current node; text is escaped. */
SGF_EXTERN int sgf_cursor_add_label(sgf_cursor *c, int x, int y,
                                    const char *text);

/* Set ident (uppercase letters) on the current node to the one escaped
 * text value (replacing its values, or added at the end). */
SGF_EXTERN int sgf_cursor_set_text(sgf_cursor *c, const char *ident,
                                   const char *text);
/* Append a raw value (escapes already in place) to ident on the current
 * node (the property is added at the end if absent). SGF_EINVAL if
 * raw has an unescaped ']' or ends in a lone backslash. */
SGF_EXTERN int sgf_cursor_add_value(sgf_cursor *c, const char *ident,
                                    const char *raw, size_t len);

/* The result (RE) on the root, e.g. "B+R", "W+3.5", "0" (escaped). */
SGF_EXTERN int sgf_cursor_set_result(sgf_cursor *c, const char *result);

/* Removing and moving (as sgfmill's tree nodes do). None of them
 * allocates: each succeeds, or fails with SGF_EINVAL and changes
 * nothing. */

/* Delete the current node and its subtree; the cursor goes to the
 * parent. SGF_EINVAL at the root. The deleted nodes belong to no tree
 * from then on (sgf_node_tree() is NULL, sgf_cursor_goto() refuses them);
 * their memory stays with the tree until it is freed, but nothing else
 * of them may be used: move any other cursor standing in the subtree
 * (sgf_cursor_goto, sgf_cursor_rewind) before using it again. */
SGF_EXTERN int sgf_cursor_delete(sgf_cursor *c);

/* Delete the first property named ident (normalized, "AB") of the
 * current node, with its values. SGF_EINVAL if there is none. */
SGF_EXTERN int sgf_cursor_delete_prop(sgf_cursor *c, const char *ident);

/* Delete value i (0-based) of the first property named ident of the
 * current node; the property goes with its last value. SGF_EINVAL if
 * there is no such value. */
SGF_EXTERN int sgf_cursor_delete_value(sgf_cursor *c, const char *ident,
                                       size_t i);

/* Promote the current node's line to the main line: it and each of its
 * ancestors becomes the first child of its parent (the other children
 * keep their order). Always SGF_OK. */
SGF_EXTERN int sgf_cursor_promote(sgf_cursor *c);

/* Move the current node with its subtree to become child number index
 * (0-based, counted without the node itself; index equal to that count
 * appends) of new_parent, a node of the same tree outside that subtree.
 * The cursor stays on the node. SGF_EINVAL at the root, for a node of
 * another tree or of the subtree, or an index past the end. */
SGF_EXTERN int sgf_cursor_reparent(sgf_cursor *c, const sgf_node *new_parent,
                                   size_t index);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_TREE_H */
