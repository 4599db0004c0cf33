/* build_priv.h - what the two halves of the tree builder share: the
 * builder struct, its storage modes and the inline steps both take.
 *
 * tree_build.c is the GENERAL path: every event handled by one plain
 * handler per event (b_* then the pass-through), buffering each node
 * (BUFFERED) and copying it into the arena when it ends; the life cycle.
 * build_fast.c is the FAST path: the DIRECT storage mode and the two
 * faster tiers of handlers (inline fast paths, LEAVES) that do what the
 * general path does in the usual cases and hand everything else to it.
 * SGF_TREE_GENERAL_ONLY (a builder option, no environment variable) makes
 * a builder use the general path alone; test/unit/tree_paths.c checks
 * that both build the same trees.
 */
#ifndef SGF_BUILD_PRIV_H
#define SGF_BUILD_PRIV_H

#include <string.h>

#include "sgfstream/event_state.h"
#include "tree_internal.h"

/* Where the current event is, and the identifier as written: through the
 * public API only, like every layer above the core, inline from the
 * parser's opt-in event state (sgfstream/event_state.h), so that the hot
 * handlers call nothing. Should the library's state be of another
 * version (NULL), es is sgf__tb_no_state, whose live == 0 makes every
 * read call sgf_parser_position() / sgf_parser_raw_ident(), and DIRECT is
 * not used. A detached builder may be driven by any parser: the state is
 * looked up again when the parser changes. Used where a builder b is in
 * scope. */
#define EVENT_POS(p) sgf_event_position((p), event_state(b, (p)))
#define RAW_IDENT(p, len)                   \
  (event_state(b, (p)) != &sgf__tb_no_state \
       ? sgf_event_raw_ident(b->es, (len))  \
       : sgf_parser_raw_ident((p), (len)))

#if defined(__GNUC__)
#define COLD static __attribute__((noinline, cold))
#define COLD_EXTERN __attribute__((noinline, cold))
#define NOINLINE static __attribute__((noinline))
#define HOT_INLINE static inline __attribute__((always_inline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define COLD static
#define COLD_EXTERN
#define NOINLINE static
#define HOT_INLINE static inline
#define LIKELY(x) (x)
#endif

enum { B_IDLE, B_BUILD, B_DROP, B_FAILED };

/* Failure causes beyond SGF__ERR_*. */
enum { ERR_VALUE = 100 };

/* Builder-only flag of the open node: it has PL, MN or HA (scan it). */
#define OPEN_SCAN 0x10000u
/* A built node whose position is the sgf_pos just before it. */
#define BN_POS 0x20000u

/* SCRATCH. A game is built in the arena of a scratch tree the builder
 * keeps from game to game (its blocks reused: no page faults, no
 * allocation per node), as nodes linked by pointers, each with its
 * property records (the tree's own sgf__prop) and values right behind
 * it. When the game ends, tree_compact.c copies it into one allocation
 * of the tree's own flat form (tree_internal.h) and the scratch is
 * recycled. */
typedef struct sgf__bnode sgf__bnode;
struct sgf__bnode {
  sgf__bnode *parent, *first_child, *next;
  sgf__prop *props; /* nprops, in file order */
  uint32_t nprops;
  uint32_t flags; /* SGF__N_* (move, PL, MN, HA, HEAD), BN_POS */
  uint32_t slot;  /* pre-order id */
  uint32_t pad;
};

/* The arena blocks kept between games, at most. */
#define SPARE_MAX ((uint64_t)4 << 20)

/* DIRECT mode: a node with one property with one value of fewer than
 * DIRECT_BYTES bytes is written in place (node, then its property with
 * the value inline, as a buffered node would be laid out) in DIRECT_SIZE
 * bytes reserved at the free end of the arena's head block. */
#define DIRECT_BYTES (SGF__P_INL_MAX + 1)
#define DIRECT_SIZE (sizeof(sgf__bnode) + sizeof(sgf__prop))
#define DPROP(n) ((sgf__prop *)((n) + 1))
#define DBYTES(n) (DPROP(n)->u.inl)
/* What a DIRECT node with one value of len bytes takes of its room. */
#define DIRECT_TAKE(len) DIRECT_SIZE

/* A property of the open node. Identifiers are static strings, or (NULL)
 * copies in sb at *_off. */
typedef struct sprop {
  const char *ident, *raw;
  size_t ident_off, raw_off;
  size_t ident_len, raw_len;
  sgf_pos pos;
  size_t first, nvalues; /* its values: vals[first .. first + nvalues) */
} sprop;

/* A value of the open node: raw bytes at sb + off. */
typedef struct sval {
  size_t off, len;
  sgf_pos pos;
} sval;

struct sgf_tree_builder {
  /* what every event looks at first */
  int building; /* state B_BUILD and mskip 0 */
  int lazy;     /* no value-end / property-end events (see the essay) */
  int in_prop, in_value;
  int open;            /* a node is being read: open_* */
  int fresh;           /* see the essay */
  uint32_t open_flags; /* HEAD, move, OPEN_SCAN */
  uint32_t prop_flags; /* what the current property adds to open_flags */
  sgf_tree *tree;      /* the game being built */
  sgf__bnode *root;    /* of the game being built */
  sgf__bnode *cur;     /* the node linked last that is not closed over */
  sgf__bnode *lastc;   /* where the last ')' climbed to: cur's last child
                        when cur has children (nodes keep no last-child
                        link) */
  sgf_pos open_pos;    /* the open node's ';' (read with keep_pos only) */

  sprop *pp; /* the open node's properties; pp[npp] is the current one */
  size_t npp, ppcap;
  sval *vals; /* their values */
  size_t nvals, valcap;
  char *sb; /* their bytes */
  size_t sblen, sbcap;
  uint64_t room; /* bytes that may still be buffered before the game
                    reaches max_tree_bytes (see pending_bytes) */
  size_t pfirst; /* first value of the current property */
  size_t psb;    /* sblen when the current property began */
  /* (not next to room: one wide load of both just after two narrow
     stores would stall on store forwarding) */
  size_t vroom;    /* bytes the current property may still take before
                      max_value_bytes (raw values + sizeof(sgf__val)
                      each, as the reader counts) */
  sgf__bnode **ix; /* the game's nodes in pre-order: ixcap slots (not
                      written for the nodes a move run's CHAIN closes,
                      which tree_compact.c takes from fn alone) */
  size_t ixcap;
  sgf_node *fn; /* the same nodes as the tree will hold them (FLAT AS
                   THEY COME): fncap >= ixcap slots */
  size_t fncap;
  /* what the game's nodes that do not keep their one property inline
     need in the tree (counted as they are linked: tree_compact.c) */
  size_t c_props, c_vbytes, c_pos, c_bytes;
  size_t c_nodes; /* how many nodes they are (the rest: ONE) */

  const sgf_parser *es_parser; /* the parser whose event state es is */
  const sgf_event_state *es;

  /* DIRECT mode (see the essay) */
  int direct_ok;   /* may be used: own parser, lazy, no pass-through */
  int direct;      /* the open node is being written in place, at dn */
  int keep_pos;    /* SGF_TREE_POSITIONS: never DIRECT */
  sgf_pos dpos[2]; /* DIRECT: where its property and its value were (for
                      to_staged and diagnostics; not kept; the node's own
                      position is read only when positions are kept,
                      which DIRECT never is) */
  int dstate;      /* 0: no property yet; 1: one, no value; 2: and a value */
  sgf__bnode *dn;
  size_t dlen; /* bytes of that value so far */

  size_t max_value_bytes;
  uint64_t max_nodes, max_bytes;
  sgf_allocator alloc;
  sgf_parser *parser; /* NULL when detached */
  sgf_tree_builder_callbacks cb;
  sgf_callbacks ev; /* pass-through, zero if none */
  void *user;
  unsigned flags;
  int general; /* SGF_TREE_GENERAL_ONLY: the general path alone */

  int state;        /* B_* */
  uint64_t depth;   /* game trees open */
  uint64_t mskip;   /* mainline mode: depth of a variation being skipped */
  int mainline;     /* SGF_OPT_MAINLINE */
  sgf_pos game_pos; /* the game's '(' */

  sgf__block *spare;    /* blocks for the next game, in policy order */
  sgf_tree *spare_tree; /* a tree struct for the next game */

  sgf_tree *delivering; /* inside on_game */
  int kept;
  sgf_collection *coll; /* with SGF_TREE_COLLECT, never NULL */
};

/* The event state of a parser of another version: never live
 * (tree_build.c). */
extern const sgf_event_state sgf__tb_no_state;

/* The event state of p (see EVENT_POS). */
HOT_INLINE const sgf_event_state *event_state(sgf_tree_builder *b,
                                              const sgf_parser *p) {
  if (LIKELY(b->es_parser == p)) return b->es;
  b->es_parser = p;
  b->es = sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION);
  if (!b->es) b->es = &sgf__tb_no_state;
  return b->es;
}

#define BUILDER(u) ((sgf_tree_builder *)(u))

/* Shared by the two halves (tree_build.c unless said). */
int sgf__tb_fail(sgf_tree_builder *b, sgf_parser *p, int err);
int sgf__tb_grow(sgf_tree_builder *b, void **buf, size_t *cap, size_t want,
                 size_t elem, size_t first);
void sgf__tb_drop_prop(sgf_tree_builder *b);
void sgf__tb_room_set(sgf_tree_builder *b);
int sgf__tb_close_staged(sgf_tree_builder *b, sgf_parser *p);
int sgf__tb_b_value_end(sgf_tree_builder *b, sgf_parser *p);
int sgf__tb_passed(sgf_tree_builder *b, int r, int mine);
int sgf__tb_slow_tree_begin(sgf_parser *p, void *u);
int sgf__tb_slow_tree_end(sgf_parser *p, void *u);
int sgf__tb_slow_node(sgf_parser *p, void *u);
int sgf__tb_slow_property(sgf_parser *p, void *u, const char *at, size_t n);
int sgf__tb_slow_value_begin(sgf_parser *p, void *u);
int sgf__tb_slow_value_data(sgf_parser *p, void *u, const char *at, size_t n);
int sgf__tb_h_value_end(sgf_parser *p, void *u);
int sgf__tb_h_property_end(sgf_parser *p, void *u);
int sgf__tb_h_diagnostic(sgf_parser *p, void *u, const sgf_diag *d);
extern const char sgf__tb_letters[], sgf__tb_letters2[];
/* build_fast.c: DIRECT to BUFFERED; the fast handlers, and what a
 * builder with its own parser sets up to use them (lazy, DIRECT, whole
 * values) in h, the handlers it will give its parser. */
int sgf__tb_to_staged(sgf_tree_builder *b, sgf_parser *p);
/* tree_compact.c: the game built in b->tree (nodes b->ix[0 ..
 * b->tree->nnodes)) as a tree of its own; NULL with *err set
 * (SGF__ERR_NOMEM, or SGF__ERR_BYTES over max_tree_bytes). */
sgf_tree *sgf__tb_compact(sgf_tree_builder *b, int *err);
extern const sgf_callbacks sgf__tb_fast_handlers;
void sgf__tb_fast_setup(sgf_tree_builder *b, sgf_callbacks *h);

static inline int upper(char c) { return c >= 'A' && c <= 'Z'; }

/* Room in sb for add more bytes: 0, or -1 if memory runs out. */
static inline int sb_room(sgf_tree_builder *b, size_t add) {
  if (b->sbcap - b->sblen >= add) return 0;
  if (add > SIZE_MAX - b->sblen) return -1;
  return sgf__tb_grow(b, (void **)&b->sb, &b->sbcap, b->sblen + add, 1, 256);
}

/* ------------------------------------------------------------------ */
/* Properties and values of the open node                              */

/* The value being read is complete. */
static inline void end_value(sgf_tree_builder *b) {
  sval *v = &b->vals[b->nvals - 1];
  v->len = b->sblen - v->off;
  b->sb[b->sblen++] = '\0'; /* room kept since value-begin */
  b->in_value = 0;
}

/* The property being read is complete (no value open). */
static inline void commit_prop(sgf_tree_builder *b) {
  size_t k = b->nvals - b->pfirst;
  sprop *sp;
  if (k == 0) { /* no value: left out */
    sgf__tb_drop_prop(b);
    return;
  }
  sp = &b->pp[b->npp++];
  sp->first = b->pfirst;
  sp->nvalues = k;
  if (!(b->open_flags & SGF__N_MOVE))
    b->open_flags |= b->prop_flags;
  else
    b->open_flags |= b->prop_flags & OPEN_SCAN;
  b->in_prop = 0;
}

/* A node, property or tree event: the property being read ends there in
 * lazy mode; otherwise it was never ended and is left out. */
static inline void end_pending(sgf_tree_builder *b) {
  if (!b->in_prop) return;
  if (!b->lazy) {
    sgf__tb_drop_prop(b);
    return;
  }
  if (b->in_value) end_value(b);
  commit_prop(b);
}

/* tree_compact.c: the sizes a node that does not keep its one property
 * inline adds to the tree (c_props ...: FLAT AS THEY COME). */
void sgf__tb_count(sgf_tree_builder *b, const sgf__prop *pr, size_t k);

/* The bytes of a value of 0 .. SGF__ONE_MAX bytes kept, the rest 0. */
extern const unsigned char sgf__tb_one_mask[SGF__ONE_MAX + 1][4];

/* FLAT AS THEY COME. A linked node's record as the tree will hold it
 * (tree_internal.h), written into b->fn at once, so that the game's end
 * copies the node array whole: links as ids (a child's id patched into
 * its parent's or its previous sibling's record as it comes), flags, and
 * the one property inline (ONE) when it can be; the records and values
 * of other nodes' properties are counted here and laid out at the end. */
HOT_INLINE void flat_node(sgf_tree_builder *b, const sgf__bnode *parent,
                          uint32_t id, uint32_t f, const sgf__prop *pr,
                          size_t k) {
  sgf_node *const nd = &b->fn[id];
  nd->parent = parent ? parent->slot : SGF__NONE;
  nd->first_child = nd->next = SGF__NONE;
  nd->slot = id;
  f &= SGF__N_MOVE | SGF__N_PL_B | SGF__N_PL_W | SGF__N_MN | SGF__N_HA2;
  if (k == 1 && (pr->flags & SGF__P_INL) &&
      (pr->flags & SGF__P_LEN) <= SGF__ONE_MAX) {
    const size_t len = pr->flags & SGF__P_LEN;
    uint32_t w, m;
    memcpy(&w, pr->u.inl, 4); /* (its NUL may not be written yet) */
    memcpy(&m, sgf__tb_one_mask[len], 4);
    w &= m;
    memcpy(nd->u.inl, &w, 4);
    nd->code = pr->code;
    nd->flags = (uint16_t)(f | SGF__N_ONE | (len << SGF__N_LEN_SHIFT));
    return;
  }
  nd->flags = (uint16_t)f; /* code and u.props: at the end */
  b->c_nodes++;
  if (k == 1 && (pr->flags & SGF__P_INL))
    b->c_props++;
  else
    sgf__tb_count(b, pr, k);
}

/* Link n (slot id, flags f, k properties at pr; its place and
 * properties written) as the last child of cur; it becomes cur. */
HOT_INLINE void link_node(sgf_tree_builder *b, sgf_tree *t, sgf__bnode *n,
                          uint32_t id, uint32_t f, sgf__prop *pr, size_t k,
                          int may_scan) {
  sgf__bnode *const parent = b->cur;
  b->ix[id] = n;
  b->cur = n;
  t->nnodes = t->nslots = id + 1;
  n->parent = parent;
  n->first_child = n->next = NULL;
  n->props = pr;
  n->nprops = (uint32_t)k;
  n->slot = id;
  n->flags = f;
  if (may_scan && (f & OPEN_SCAN)) { /* PL, MN or HA: the full scan */
    n->flags = f & ~OPEN_SCAN;
    n->flags = sgf__scan(t, n->props, n->nprops, n->flags);
  }
  flat_node(b, parent, id, n->flags, pr, k);
  if (parent) {
    /* a parent with children is cur only after a ')' climbed back to
       it, and the climb stopped at its last child (b->lastc) */
    if (parent->first_child) {
      b->lastc->next = n;
      b->fn[b->lastc->slot].next = id;
    } else {
      parent->first_child = n;
      b->fn[parent->slot].first_child = id;
    }
  } else {
    b->root = n;
  }
}

/* Room in the index (ix and fn) for one more node: 0, or -1 if memory
 * runs out. */
int sgf__tb_ix_grow(sgf_tree_builder *b, uint32_t id);
static inline int ix_room(sgf_tree_builder *b, uint32_t id) {
  return id < b->ixcap ? 0 : sgf__tb_ix_grow(b, id);
}

/* The DIRECT node n's one value, of len bytes, is complete: its
 * property record gets its count and flags (the NUL after the bytes is
 * the caller's to write, last); returns the property. */
HOT_INLINE sgf__prop *direct_value_done(sgf__bnode *n, size_t len) {
  sgf__prop *pr = DPROP(n);
  pr->nvalues = 1;
  pr->flags = (uint16_t)(SGF__P_INL | len);
  return pr;
}

/* The open DIRECT node ends: its reserved place is taken as far as used
 * (its value, if any, gets its length and NUL) and it is linked. */
HOT_INLINE int close_direct(sgf_tree_builder *b, sgf_parser *p) {
  sgf_tree *t = b->tree;
  sgf__bnode *n = b->dn;
  const uint32_t id = t->nnodes;
  uint32_t f = b->open_flags;
  if (ix_room(b, id)) return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
  b->open = b->direct = 0;
  if (b->dstate == 2) {
    const size_t len = b->dlen;
    f |= b->prop_flags;
    sgf__tree_take(t, DIRECT_TAKE(len));
    link_node(b, t, n, id, f, direct_value_done(n, len), 1, 1);
    DBYTES(n)[len] = '\0'; /* last: a char store may alias everything */
  } else {                 /* no property (one without a value is left out) */
    sgf__tree_take(t, sizeof(sgf__bnode));
    link_node(b, t, n, id, f, NULL, 0, 1);
  }
  return 0;
}

#endif
