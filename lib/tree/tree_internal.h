/* tree_internal.h - what the tree files share: the node and tree structs,
 * the arena, and the facts derived per node.
 *
 * Facts kept in two ways:
 *   linked at once   parent, first child, next sibling, nchildren,
 *                    tree->nnodes, props and the node's own flags (move,
 *                    PL, MN, HA), updated by whoever links or edits
 *                    (builder, cursor). No last-child or previous-sibling
 *                    link: those are O(children) walks.
 *   derived          pre-order id, subtree size, child index, level, ply,
 *                    variation depth, move numbers, last move colour and
 *                    the position index: nothing of it in the nodes. The
 *                    first query computes them all into arrays by slot
 *                    (tree->facts, tree->index; tree_derive.c), and a
 *                    cursor's edit marks them stale (tree->dirty) for the
 *                    next query to compute again. Without memory for the
 *                    arrays, queries walk (tree_nav.c).
 */
#ifndef SGF_TREE_INTERNAL_H
#define SGF_TREE_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "rawval.h"
#include "sgfstream.h"

/* Node flags. */
enum {
  SGF__N_BLACK = 0x1,     /* holds a move, and its first B/W is B */
  SGF__N_WHITE = 0x2,     /* ... is W */
  SGF__N_PL_B = 0x4,      /* PL[B] */
  SGF__N_PL_W = 0x8,      /* PL[W] */
  SGF__N_MN = 0x10,       /* MN[k] with an integer k */
  SGF__N_HA2 = 0x20,      /* HA[k] with k >= 2 */
  SGF__N_POS = 0x40,      /* the node's position is the sgf_pos just
                             before it in the arena (SGF_TREE_POSITIONS) */
  SGF__N_HEAD = 0x100,    /* builder: first node of a game tree's sequence */
  SGF__N_EDIT = 0x200,    /* each property's values have room: see
                             tree_cursor.c */
  SGF__N_PROPROOM = 0x400 /* props has room: see tree_cursor.c */
};
#define SGF__N_MOVE (SGF__N_BLACK | SGF__N_WHITE)

/* A node: links, its properties, its own flags and its storage number.
 * Nothing derived (see DERIVED FACTS above). 56 bytes. */
struct sgf_node {
  sgf_node *parent, *first_child, *next;
  sgf_tree *tree;   /* NULL once a cursor deleted it */
  sgf__prop *props; /* nprops in file order (room: SGF__N_PROPROOM) */
  uint32_t nprops;
  uint32_t flags;
  uint32_t nchildren;
  uint32_t slot; /* storage number: 0, 1, 2 ... in the order nodes were
                    made (builder: pre-order), never reused; indexes the
                    derived facts */
};

/* The derived facts of one node (tree->facts[node->slot]). */
typedef struct sgf__facts {
  uint32_t id, subtree, child_index, level, ply, depth;
  int64_t movenum; /* number of this node's move, or of the last before */
  int64_t nextnum; /* number the next move on the path gets */
  uint32_t last;   /* colour of the last move on the path: SGF__N_BLACK,
                      SGF__N_WHITE or 0 */
  uint32_t pad;
} sgf__facts;

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

typedef struct sgf__ident {
  const char *ident; /* normalized */
  const char *raw;   /* as written, NULL: the same */
} sgf__ident;

struct sgf_tree {
  sgf__block *blocks; /* head: the block being filled */
  uint64_t bytes;     /* arena blocks + derived arrays */
  uint64_t max_bytes;
  uint32_t nnodes, max_nodes;
  uint32_t nslots; /* nodes ever made (slot numbers handed out) */
  sgf_node *root;
  /* derived facts (tree_derive.c): NULL until first asked for */
  sgf__facts *facts; /* facts_cap entries, by slot */
  sgf_node **index;  /* by pre-order id: facts_cap slots */
  size_t facts_cap;
  int dirty;         /* facts and index are stale (or absent) */
  int err;           /* SGF__ERR_* of the last failed allocation */
  uint64_t rbytes;   /* bytes of the blocks sized by the policy */
  sgf__block *reuse; /* blocks lent by a builder (from an earlier game),
                        in the order the policy would allocate them:
                        taken before new ones */
  /* identifiers interned (IDENTIFIER CODES): codes SGF__CODE_DYN + i */
  sgf__ident *idents;
  uint32_t nidents, idents_cap;
  sgf_allocator alloc;
};

/* IDENTIFIER CODES. A property names its identifier by a 16-bit code:
 * below SGF__CODE_DYN, one or two uppercase letters written as such
 * (1 letter c: c - 'A'; 2 letters: 26 + 26 (c1 - 'A') + (c2 - 'A')),
 * whose strings are static; from SGF__CODE_DYN on, the tree's interned
 * identifiers (tree->idents): longer ones, and any written otherwise than
 * normalized (raw set). */
#define SGF__CODE_DYN 702u
#define SGF__CODE_MAX 0xFFFFu

/* The static code of a normalized identifier of n bytes, or -1. */
static inline int sgf__code_static(const char *id, size_t n) {
  unsigned c1 = (unsigned)(unsigned char)id[0] - 'A', c2;
  if (n == 0 || n > 2 || c1 >= 26) return -1;
  if (n == 1) return (int)c1;
  c2 = (unsigned)(unsigned char)id[1] - 'A';
  return c2 < 26 ? (int)(26 + 26 * c1 + c2) : -1;
}
/* The static strings: "A\0B\0..." and "AA\0AB\0..." (tree_build.c). */
extern const char sgf__tb_letters[], sgf__tb_letters2[];
/* The normalized identifier of a code. */
static inline const char *sgf__code_ident(const sgf_tree *t, unsigned code) {
  if (code < 26) return sgf__tb_letters + 2 * code;
  if (code < SGF__CODE_DYN) return sgf__tb_letters2 + 3 * (code - 26);
  return t->idents[code - SGF__CODE_DYN].ident;
}
/* The identifier as written, NULL where it is the normalized one. */
static inline const char *sgf__code_raw(const sgf_tree *t, unsigned code) {
  return code < SGF__CODE_DYN ? NULL : t->idents[code - SGF__CODE_DYN].raw;
}
/* The code of ident (n bytes, normalized) written as raw (rn bytes; raw
 * NULL: as ident), interned in t when not static: a code, or -1 with
 * t->err set (memory, max_tree_bytes, or more than SGF__CODE_MAX codes:
 * SGF__ERR_BYTES). */
int sgf__code_intern(sgf_tree *t, const char *ident, size_t n, const char *raw,
                     size_t rn);
/* 1 if p's normalized identifier is ident (code: ident's static code, or
 * -1). */
static inline int sgf__prop_is(const sgf_tree *t, const sgf__prop *p,
                               const char *ident, int code) {
  if (p->code == code) return 1;
  return p->code >= SGF__CODE_DYN &&
         strcmp(t->idents[p->code - SGF__CODE_DYN].ident, ident) == 0;
}
/* The public view of p, a property of a node of t. */
static inline sgf_prop_view sgf__view(const sgf_tree *t, const sgf__prop *p) {
  if (!p) return sgf__prop_view(NULL, NULL, NULL);
  return sgf__prop_view(p, sgf__code_ident(t, p->code),
                        sgf__code_raw(t, p->code));
}
/* Value i of p. */
static inline sgf__tval sgf__pval(const sgf__prop *p, size_t i) {
  sgf__tval v;
  if (p->flags & SGF__P_INL) {
    v.raw = p->u.inl;
    v.len = p->flags & SGF__P_LEN;
  } else {
    v = p->u.values[i];
  }
  return v;
}

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
/* The derived facts of n, fresh: computed for the whole tree into
 * tree->facts when stale, one O(n) pass (tree_derive.c); NULL when memory
 * or max_tree_bytes do not allow the arrays: then the callers compute
 * what they need by walking (O(path) or O(n)). */
const sgf__facts *sgf__facts_of(const sgf_node *n);
/* The same pass, for the position index: the node whose pre-order id is
 * i, or NULL without the arrays. */
const sgf_node *sgf__index_at(const sgf_tree *t, size_t i);
/* Free the derived arrays (sgf_tree_free, and a builder recycling). */
void sgf__facts_free(sgf_tree *t);
/* The previous sibling and the last child: O(children). */
sgf_node *sgf__prev_sibling(const sgf_node *n);
sgf_node *sgf__last_child(const sgf_node *n);

/* The first property of n whose normalized identifier is ident, or NULL
 * (the tree's own storage: the cursor edits it in place). */
sgf__prop *sgf__node_find(const sgf_node *n, const char *ident);

/* The typed setters' edit (tree_cursor.c): ident on nd gets the n
 * values lens[] cut from bytes in turn, replacing its own; n 0 removes
 * it. All or nothing. */
int sgf__node_replace(sgf_node *nd, const char *ident, const char *bytes,
                      const size_t *lens, size_t n);

/* The first value of n's move (its first B or W): 1, or 0 if none. */
int sgf__node_move_value(const sgf_node *n, sgf__tval *v);

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
