/* tree_internal.h - what the tree files share: the node and tree structs,
 * the arena, and the facts derived per node.
 *
 * Facts kept in two ways:
 *   linked at once   parent, children, siblings, nchildren, tree->nnodes,
 *                    props and the node's own flags (move, PL, MN, HA),
 *                    updated by whoever links or edits (builder, cursor).
 *   derived          pre-order id, subtree size, child index, level, ply,
 *                    variation depth, move numbers, last move colour and
 *                    the position index. The builder derives them as it
 *                    links each node (sgf__node_derive: a node's facts
 *                    follow from its parent's and its previous sibling's)
 *                    and sets subtree sizes as game trees close, so a
 *                    finished tree needs no extra pass. After a cursor
 *                    edit one iterative pass (sgf__tree_refresh) recomputes
 *                    them whenever tree->dirty is set, so queries stay
 *                    O(1) and edits stay cheap.
 */
#ifndef SGF_TREE_INTERNAL_H
#define SGF_TREE_INTERNAL_H

#include <stdint.h>

#include "alloc.h"
#include "rawval.h"
#include "sgfstream.h"

/* Node flags. */
enum {
  SGF__N_BLACK = 0x1,     /* holds a move, and its first B/W is B */
  SGF__N_WHITE = 0x2,     /* ... is W */
  SGF__N_PL_B = 0x4,      /* PL[B] */
  SGF__N_PL_W = 0x8,      /* PL[W] */
  SGF__N_MN = 0x10,       /* MN[k] with an integer k (in node->mn) */
  SGF__N_HA2 = 0x20,      /* HA[k] with k >= 2 */
  SGF__N_LAST_B = 0x40,   /* derived: the last move on the path is black */
  SGF__N_LAST_W = 0x80,   /* derived: ... white */
  SGF__N_HEAD = 0x100,    /* builder: first node of a game tree's sequence */
  SGF__N_EDIT = 0x200,    /* each property's values have room: see
                             tree_cursor.c */
  SGF__N_PROPROOM = 0x400 /* props has room: see tree_cursor.c */
};
#define SGF__N_MOVE (SGF__N_BLACK | SGF__N_WHITE)
#define SGF__N_DERIVED (SGF__N_LAST_B | SGF__N_LAST_W)

struct sgf_node {
  sgf_node *parent, *first_child, *last_child, *next, *prev;
  sgf_tree *tree;
  sgf__prop *props; /* nprops in file order (room: SGF__N_PROPROOM) */
  uint32_t nprops;
  uint32_t flags;
  uint32_t nchildren;
  /* derived */
  uint32_t id, subtree, child_index, level, ply, depth;
  int64_t movenum; /* number of this node's move, or of the last before */
  int64_t nextnum; /* number the next move on the path gets */
  /* where the ';' was: NULL unless the builder keeps positions
     (SGF_TREE_POSITIONS), then the first of the node's positions (see
     sgf__tb_close_staged) */
  const sgf_pos *pos;
};

/* An arena block: this header, then the bytes handed out. */
typedef struct sgf__block sgf__block;
struct sgf__block {
  sgf__block *next;
  size_t size; /* bytes, header included */
  size_t used; /* bytes, header included; always a multiple of 8 */
  size_t own;  /* 1: sized for one request (or cut short by the byte
                  limit), not by the block policy: never reused */
};
#define SGF__ARENA_ALIGN 8u
#define SGF__BLOCK_HDR                           \
  ((sizeof(sgf__block) + SGF__ARENA_ALIGN - 1) & \
   ~(size_t)(SGF__ARENA_ALIGN - 1))

/* Allocation failures, in tree->err. */
enum { SGF__ERR_NONE = 0, SGF__ERR_NOMEM, SGF__ERR_BYTES, SGF__ERR_NODES };

#define SGF__MAX_NODES_CAP 0xFFFFFFF0u

struct sgf_tree {
  sgf__block *blocks; /* head: the block being filled */
  uint64_t bytes;     /* arena blocks + index (when not in the arena) */
  uint64_t max_bytes;
  uint32_t nnodes, max_nodes;
  sgf_node *root;
  sgf_node **index; /* position index: index_cap slots */
  size_t index_cap;
  int index_arena;   /* the index lives in the arena (not freed by itself) */
  int index_ok;      /* index matches the tree */
  int dirty;         /* derived facts are stale */
  int err;           /* SGF__ERR_* of the last failed allocation */
  uint64_t rbytes;   /* bytes of the blocks sized by the policy */
  sgf__block *reuse; /* blocks lent by a builder (from an earlier game),
                        in the order the policy would allocate them:
                        taken before new ones */
  sgf_allocator alloc;
};

/* A tree with no node yet (limits 0 mean the defaults); NULL on OOM. */
sgf_tree *sgf__tree_new(const sgf_allocator *a, uint64_t max_nodes,
                        uint64_t max_bytes);
/* Arena allocation of size bytes aligned to align (1, 2, 4 or 8); NULL
 * with t->err set on failure (out of memory, or max_bytes). */
void *sgf__tree_alloc(sgf_tree *t, size_t size, size_t align);
/* The same for a size that is a multiple of 8 (8-aligned), with the
 * common case inline. */
static inline void *sgf__tree_alloc8(sgf_tree *t, size_t size) {
  sgf__block *b = t->blocks;
  if (b && b->size - b->used >= size) {
    void *r = (char *)b + b->used;
    b->used += size;
    return r;
  }
  return sgf__tree_alloc(t, size, SGF__ARENA_ALIGN);
}
/* Room for size bytes (a multiple of 8) at the free end of the head
 * block, taking a new block if needed, but not taken: the next
 * allocations of the tree start there. NULL with t->err set on failure. */
void *sgf__tree_reserve(sgf_tree *t, size_t size);
/* Take size bytes (a multiple of 8) of what sgf__tree_reserve() kept. */
static inline void sgf__tree_take(sgf_tree *t, size_t size) {
  t->blocks->used += size;
}
/* Free a chain of blocks (through next). */
void sgf__blocks_free(const sgf_allocator *a, sgf__block *b);
/* A zeroed node of t, not linked yet; NULL with t->err set on failure
 * (also SGF__ERR_NODES at max_nodes). */
sgf_node *sgf__node_alloc(sgf_tree *t);
/* Link n as the first (first != 0) or last child of parent, or as the root
 * when parent is NULL; counts it and marks the tree dirty. */
void sgf__node_link(sgf_tree *t, sgf_node *n, sgf_node *parent, int first);
/* Recompute the node's own flags (move, PL, MN, HA) from its properties. */
void sgf__node_scan(sgf_node *n);
/* The value of the node's MN (its first MN property), when SGF__N_MN
 * says it is an integer: kept nowhere, parsed again when asked. */
int64_t sgf__node_mn(const sgf_node *n);
/* Recompute the derived facts of every node (and fill the index when it
 * has room); clears dirty. Iterative; never fails. */
void sgf__tree_refresh(sgf_tree *t);

/* The derived facts of n but id and subtree, from its parent and previous
 * sibling (whose facts must be fresh) and its own flags. */
static inline void sgf__node_derive(sgf_node *n) {
  const sgf_node *p = n->parent;
  uint32_t f = n->flags & ~(uint32_t)SGF__N_DERIVED;
  int64_t movenum = 0, nextnum = 1;
  if (p) {
    n->child_index = n->prev ? n->prev->child_index + 1 : 0;
    n->level = p->level + 1;
    n->depth = p->depth + (n->child_index > 0);
    n->ply = p->ply;
    f |= p->flags & SGF__N_DERIVED;
    movenum = p->movenum;
    nextnum = p->nextnum;
  } else {
    n->child_index = n->level = n->depth = n->ply = 0;
  }
  if (f & SGF__N_MOVE) {
    n->ply++;
    movenum = (f & SGF__N_MN) ? sgf__node_mn(n) : nextnum;
    nextnum = movenum < INT64_MAX ? movenum + 1 : movenum;
    f &= ~(uint32_t)SGF__N_DERIVED;
    f |= (f & SGF__N_BLACK) ? SGF__N_LAST_B : SGF__N_LAST_W;
  } else if (f & SGF__N_MN) {
    nextnum = sgf__node_mn(n);
  }
  n->movenum = movenum;
  n->nextnum = nextnum;
  n->flags = f;
}
/* Refresh and make the position index valid: 0, or SGF__ERR_*. */
int sgf__tree_index(sgf_tree *t);

/* Derived facts are fresh from here on. */
static inline void sgf__fresh(const sgf_node *n) {
  if (n->tree->dirty) sgf__tree_refresh(n->tree);
}

/* The first property of n whose normalized identifier is ident, or NULL
 * (the tree's own storage: the cursor edits it in place). */
sgf__prop *sgf__node_find(const sgf_node *n, const char *ident);

/* The typed setters' edit (tree_cursor.c): ident on nd gets the n
 * values lens[] cut from bytes in turn, replacing its own; n 0 removes
 * it. All or nothing. */
int sgf__node_replace(sgf_node *nd, const char *ident, const char *bytes,
                      const size_t *lens, size_t n);

/* The first value of n's move (its first B or W), or NULL. */
const sgf__tval *sgf__node_move_value(const sgf_node *n);

/* Integer value of a raw property value (optional sign, digits, blanks
 * around); 0 if it is not an integer. */
int sgf__parse_int(const char *raw, size_t len, int64_t *out);

/* A cursor (tree_cursor.c, tree_edit.c). */
struct sgf_cursor {
  sgf_tree *tree;
  sgf_node *node;
  int variation_next; /* the next node added here is the last child */
};

/* The node's properties changed, so may its own flags: derived facts
 * follow lazily (the tree is marked dirty when they may differ). */
static inline void sgf__node_touched(sgf_node *n) {
  uint32_t before = n->flags;
  sgf__node_scan(n);
  /* an MN value may have changed with the flags as they were */
  if (before != n->flags || (n->flags & SGF__N_MN)) n->tree->dirty = 1;
}

/* Collections (tree_collection.c). */
sgf_collection *sgf__collection_new(const sgf_allocator *a);
/* Make room for one more tree: 0, or -1 if memory runs out. */
int sgf__collection_reserve(sgf_collection *c);
/* Append (room reserved before). */
void sgf__collection_push(sgf_collection *c, sgf_tree *t);
/* Free every tree; the collection is empty again. */
void sgf__collection_clear(sgf_collection *c);

#endif
