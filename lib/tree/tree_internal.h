/* tree_internal.h - what the tree files share: the flat storage of a
 * tree, the arena for edits, and the facts derived per node.
 *
 * FLAT STORAGE (issue 16). A tree is arrays of small fixed-size records
 * linked by 32-bit indices, not structs linked by pointers:
 *   node      24 bytes: parent, first child, next sibling (node ids),
 *             its slot in its chunk, 16 bits of flags, and its
 *             properties: the one property inline when it has one value
 *             of at most 3 bytes (ONE: a move "pd" is the identifier code
 *             and "pd\0" in the record, so a move node costs 24 bytes in
 *             all), else a count and the index of its first record in
 *             props0 (EXT: a cursor's array in the arena).
 *   property  16 bytes (sgf__prop, lib/common/rawval.h): a 16-bit
 *             identifier code (IDENTIFIER CODES below: no string per
 *             property), flags, the number of values, and either one
 *             value of at most 7 bytes inline or a pointer to an array of
 *             values.
 *   value     16 bytes (sgf__tval): pointer and length into the byte
 *             area, each value followed by NUL (the view's contract).
 * The public views point into these records (an inline value's raw
 * pointer points into its node or property record), which never move.
 *
 * ONE ALLOCATION. The builder builds a game in a scratch tree of its own
 * (build_priv.h, SCRATCH: pointer-linked nodes in arena blocks reused
 * from game to game), writing each node's record as the tree will hold
 * it as the node is linked (FLAT AS THEY COME), and when the game ends
 * tree_compact.c copies it into one allocation: this struct, the nodes
 * (chunk 0, in pre-order: node id = pre-order index as built; one
 * memcpy), props0, value arrays, positions,
 * identifiers, bytes. Nothing else is allocated for a tree nobody edits
 * or asks about: on the 100 MB collection 26.5 bytes a node all in
 * (3.95 times the input), against 218 with one struct per node.
 *
 * NODES NEVER MOVE. sgf_node pointers are handles that last as long as
 * the tree. A node reaches its tree through the header of its chunk
 * (sgf__nchunk, found at node - slot): chunk 0's is the last member of
 * sgf_tree, right before the nodes; the nodes a cursor adds go to chunks
 * of 8 << j nodes carved from the arena (tree->chunks[j]), so an id maps
 * to a node in O(1) (sgf__node) and a node to its id and tree (sgf__id,
 * sgf__tree_of) in O(1). A deleted node stays where it is, flagged DEL
 * (of no tree).
 *
 * EDITS. The cursor edits a node's properties in an array of its own in
 * the arena (EXT, tree->ext: made by the first edit, with room to grow);
 * records of props0 it leaves are garbage until the tree is freed (the
 * arena only grows; sgf_tree_byte_count() counts it). Deleting a
 * property or a value shrinks whichever array holds it in place, so it
 * never allocates. No last-child or previous-sibling link: those, the
 * child count and the i-th child are O(children) walks.
 *
 * DERIVED FACTS. Pre-order id, subtree size, child index, level, ply,
 * variation depth, move numbers, last move colour and the position index
 * are kept in no node. The first query computes them all into arrays by
 * node id (tree->facts, tree->index; tree_derive.c), and a cursor's edit
 * marks them stale (tree->dirty) for the next query to compute again.
 * Without memory for the arrays, queries walk (tree_nav.c). Positions
 * (SGF_TREE_POSITIONS) are a parallel array for chunk 0's nodes (npos)
 * and, per property, a pointer in the slot before its value array.
 */
#ifndef SGF_TREE_INTERNAL_H
#define SGF_TREE_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "rawval.h"
#include "sgfstream.h"

/* Node flags (16 bits). */
enum {
  SGF__N_BLACK = 0x1,  /* holds a move, and its first B/W is B */
  SGF__N_WHITE = 0x2,  /* ... is W */
  SGF__N_PL_B = 0x4,   /* PL[B] */
  SGF__N_PL_W = 0x8,   /* PL[W] */
  SGF__N_MN = 0x10,    /* MN[k] with an integer k */
  SGF__N_HA2 = 0x20,   /* HA[k] with k >= 2 */
  SGF__N_ONE = 0x40,   /* one property, its one value inline: code is its
                          identifier code, u.inl its bytes and NUL */
  SGF__N_LEN = 0x180,  /* ONE: the value's length (0-3) << 7 */
  SGF__N_EXT = 0x200,  /* properties in tree->ext[u.props] (edited) */
  SGF__N_EDIT = 0x400, /* each property's values have room: see
                          tree_cursor.c */
  SGF__N_DEL = 0x800,  /* deleted by a cursor: of no tree */
  SGF__N_HEAD = 0x1000 /* builder: first node of a game tree's sequence */
};
#define SGF__N_MOVE (SGF__N_BLACK | SGF__N_WHITE)
#define SGF__N_LEN_SHIFT 7
#define SGF__ONE_MAX 3u       /* bytes of a value kept in the node */
#define SGF__NONE 0xFFFFFFFFu /* no node */
#define SGF__NPROPS_BIG 0xFFFFu

/* A node, 24 bytes: links as node ids (SGF__NONE for none), its place in
 * its chunk (slot), its own flags and its properties:
 *   ONE     the one property inline (code, u.inl);
 *   EXT     tree->ext[u.props] (a node a cursor edited);
 *   else    code properties from tree->props0[u.props] (code
 *           SGF__NPROPS_BIG: the count is props0[u.props - 1].nvalues).
 * Nothing derived (see DERIVED FACTS above). */
struct sgf_node {
  uint32_t parent, first_child, next;
  uint32_t slot; /* index in its chunk: the chunk header is before
                    node - slot (sgf__tree_of) */
  uint16_t flags;
  uint16_t code;
  union {
    char inl[4];
    uint32_t props;
  } u;
};

/* What precedes the nodes of a chunk: the tree, and the id of its first
 * node. Chunk 0 (the nodes a builder made, in pre-order) is in the
 * tree's own allocation; nodes a cursor adds go to chunks of 8 << j
 * nodes in the arena (tree->chunks[j]). */
typedef struct sgf__nchunk {
  sgf_tree *tree;
  uint32_t first, cap;
} sgf__nchunk;

/* An edited node's properties: nprops records with room for cap, in the
 * arena. */
typedef struct sgf__ext {
  sgf__prop *props;
  uint32_t nprops, cap;
} sgf__ext;

/* The derived facts of one node (tree->facts[id]). */
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

/* A tree: one allocation holds this struct, chunk 0's nodes right
 * after it, then props0, values, positions, identifiers and bytes
 * (tree_compact.c); a cursor's edits use the arena blocks. A builder's
 * scratch tree is the same struct with no nodes of its own (n0 0): its
 * arena holds the game being built (sgf__bnode, build_priv.h). */
struct sgf_tree {
  uint64_t bytes; /* the allocation, arena blocks, tables and derived
                     arrays */
  uint64_t max_bytes;
  uint32_t nnodes, max_nodes;
  uint32_t n0;     /* nodes in chunk 0 */
  uint32_t nslots; /* node ids handed out (chunk 0's and the chunks') */
  size_t size0;    /* bytes of the allocation */
  sgf__prop *props0;
  const sgf_pos *npos; /* chunk 0's nodes' positions, or NULL */
  sgf__nchunk **chunks;
  uint32_t nchunks, chunks_cap;
  sgf__ext *ext;
  uint32_t next, ext_cap;
  /* derived facts (tree_derive.c): NULL until first asked for */
  sgf__facts *facts; /* facts_cap entries, by node id */
  sgf_node **index;  /* by pre-order id: facts_cap slots */
  size_t facts_cap;
  int dirty;          /* facts and index are stale (or absent) */
  int err;            /* SGF__ERR_* of the last failed allocation */
  sgf__block *blocks; /* arena: head, the block being filled */
  uint64_t rbytes;    /* bytes of the blocks sized by the policy */
  sgf__block *reuse;  /* blocks lent by a builder (from an earlier game),
                         in the order the policy would allocate them:
                         taken before new ones */
  /* identifiers interned (IDENTIFIER CODES): codes SGF__CODE_DYN + i */
  sgf__ident *idents;
  uint32_t nidents, idents_cap; /* idents_cap 0: in the allocation */
  sgf_allocator alloc;
  sgf__nchunk hdr0; /* last: chunk 0's nodes follow */
};

/* The tree of n, NULL once deleted; its id; the node of an id. */
static inline sgf_tree *sgf__tree_of(const sgf_node *n) {
  const sgf__nchunk *h = (const sgf__nchunk *)(const void *)(n - n->slot) - 1;
  return (n->flags & SGF__N_DEL) ? NULL : h->tree;
}
static inline sgf_tree *sgf__tree_any(const sgf_node *n) {
  return ((const sgf__nchunk *)(const void *)(n - n->slot) - 1)->tree;
}
static inline uint32_t sgf__id(const sgf_node *n) {
  return ((const sgf__nchunk *)(const void *)(n - n->slot) - 1)->first +
         n->slot;
}
sgf_node *sgf__node_far(const sgf_tree *t, uint32_t id);
static inline sgf_node *sgf__node(const sgf_tree *t, uint32_t id) {
  if (id < t->n0) return (sgf_node *)(void *)(t + 1) + id;
  return id == SGF__NONE ? NULL : sgf__node_far(t, id);
}
static inline sgf_node *sgf__root(const sgf_tree *t) {
  return (sgf_node *)(void *)(t + 1);
}
#define SGF__PARENT(t, n) sgf__node((t), (n)->parent)
#define SGF__FIRST(t, n) sgf__node((t), (n)->first_child)
#define SGF__NEXT(t, n) sgf__node((t), (n)->next)

/* The number of properties of n. */
static inline uint32_t sgf__nprops(const sgf_tree *t, const sgf_node *n) {
  if (n->flags & SGF__N_ONE) return 1;
  if (n->flags & SGF__N_EXT) return t->ext[n->u.props].nprops;
  if (n->code == SGF__NPROPS_BIG) return t->props0[n->u.props - 1].nvalues;
  return n->code;
}
/* n's property records (not for ONE). */
static inline sgf__prop *sgf__props(const sgf_tree *t, const sgf_node *n) {
  if (n->flags & SGF__N_EXT) return t->ext[n->u.props].props;
  return t->props0 + n->u.props;
}
/* Property i of n: the record, or for ONE a copy in *tmp (whose inline
 * bytes are the node's: use sgf__raw_of for a pointer that lasts). */
static inline const sgf__prop *sgf__prop_at(const sgf_tree *t,
                                            const sgf_node *n, uint32_t i,
                                            sgf__prop *tmp) {
  if (n->flags & SGF__N_ONE) {
    tmp->code = n->code;
    tmp->flags =
        (uint16_t)(SGF__P_INL | ((n->flags & SGF__N_LEN) >> SGF__N_LEN_SHIFT));
    tmp->nvalues = 1;
    memset(tmp->u.inl, 0, sizeof tmp->u.inl);
    memcpy(tmp->u.inl, n->u.inl, sizeof n->u.inl);
    return tmp;
  }
  return sgf__props(t, n) + i;
}

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
/* The view of property i of n (i < count). */
static inline sgf_prop_view sgf__node_view(const sgf_tree *t, const sgf_node *n,
                                           uint32_t i) {
  sgf__prop tmp;
  sgf_prop_view v = sgf__view(t, sgf__prop_at(t, n, i, &tmp));
  if (n->flags & SGF__N_ONE) v.priv[0] = n->u.inl; /* lasts: the node's */
  return v;
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
/* A new node of t with no property, not linked yet (in a chunk); NULL
 * with t->err set on failure (also SGF__ERR_NODES at max_nodes). */
sgf_node *sgf__node_alloc(sgf_tree *t);
/* Link n as the first (first != 0) or last child of parent; counts it
 * and marks the tree dirty. */
void sgf__node_link(sgf_tree *t, sgf_node *n, sgf_node *parent, int first);
/* The node flags (move, PL, MN, HA) that k properties at p give; other
 * bits from old. */
uint32_t sgf__scan(const sgf_tree *t, const sgf__prop *p, size_t k,
                   uint32_t old);
/* Recompute n's own flags from its properties. */
void sgf__node_scan(sgf_tree *t, sgf_node *n);
/* The value of the node's MN (its first MN property), when SGF__N_MN
 * says it is an integer: kept nowhere, parsed again when asked. */
int64_t sgf__node_mn(const sgf_tree *t, const sgf_node *n);
/* A tree of exactly one allocation with n0 nodes (ids 0 .. n0-1), np
 * property records, room for nb bytes after them (8-aligned, at
 * *rest); nodes and records uninitialized. NULL on failure. */
sgf_tree *sgf__tree_make(const sgf_allocator *a, uint64_t max_nodes,
                         uint64_t max_bytes, uint32_t n0, size_t np, size_t nb,
                         char **rest);
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

/* The index of the first property of n whose normalized identifier is
 * ident, or -1. */
long sgf__node_find(const sgf_tree *t, const sgf_node *n, const char *ident);

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
static inline void sgf__node_touched(sgf_tree *t, sgf_node *n) {
  uint32_t before = n->flags;
  sgf__node_scan(t, n);
  /* an MN value may have changed with the flags as they were */
  if (before != n->flags || (n->flags & SGF__N_MN)) t->dirty = 1;
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
