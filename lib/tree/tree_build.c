/* tree_build.c - the tree builder (sgfstream/tree.h): trees from events.
 *
 * A client of the public callback API, like the reader: the builder sees
 * the events any user could receive, reports through sgf_parser_report(),
 * and knows nothing of the tokenizer. Positions and identifiers as
 * written are read inline from the parser's public event state (see
 * EVENT_POS).
 *
 * SHAPE WITHOUT A STACK. Events come in document order, which is the
 * pre-order of the tree, so every new node is a child of the current node
 * `cur` (the root when there is none yet). The one thing to remember per
 * open game tree is where to return at its ')': the parent of its first
 * node. Instead of a stack of those, the first node of every game tree is
 * flagged HEAD, and at ')' the builder climbs from `cur` to the nearest
 * HEAD and takes its parent. A climb passes only over nodes of the
 * sequence being closed, so all climbs together visit each node once:
 * O(n) for the whole tree, whatever the nesting depth, with no memory.
 * `fresh` says that the innermost game tree has no node yet (its nodes
 * will hang from `cur`).
 *
 * DERIVED FACTS AS WE GO. Nodes are linked in pre-order, each as the last
 * child of `cur`, so a node's pre-order id is the number of nodes linked
 * before it, and its other facts (level, ply, depth, move numbers...)
 * follow from its parent and previous sibling, linked before it
 * (sgf__node_derive). A node climbed over at ')' never gets another
 * descendant (`cur` never goes back down to an old node), so the climb
 * sets its subtree size: the nodes linked since it, itself included. The
 * last ')' climbs out of the root, so every node is climbed over once.
 * The position index is kept in pre-order as nodes are linked and copied
 * into the arena when the game ends: a finished tree needs no extra pass.
 *
 * The core's lenient stream is FF[4]-shaped (a tree-begin is followed by a
 * node), but the builder copes with any order: a game tree opened before
 * the enclosing one had a node gets an empty node first (as the core
 * would make it), an empty game tree adds nothing, a node after variations
 * becomes one more variation, and events outside a game tree are ignored.
 *
 * ONE ALLOCATION PER NODE. A node is one piece of the arena: the node,
 * its property array, its value arrays and their bytes (each value's raw
 * bytes followed by a NUL), in that order. Identifiers of one or two
 * uppercase letters written as such (nearly all of them) point into
 * static tables; others are copied with the bytes. A property the parser
 * never ended (the handler skipped, the input stopped) is left out.
 *
 * DIRECT. Most nodes are a move: one property, one short value. When a
 * node begins, room for such a node (DIRECT_SIZE) is reserved at the
 * free end of the arena's head block, and the node, its property, its
 * value and the value's bytes are written there in place as the events
 * come; at the node's end the room used is taken. Anything else (a second
 * property or value, a value of DIRECT_BYTES or more, an identifier to
 * copy, a general path) first moves what was written to the buffers
 * below (to_staged), and the node goes on BUFFERED. Only with the
 * builder's own parser, lazy, and no pass-through handler.
 *
 * BUFFERED. The node is read into the builder's buffers: its properties
 * (pp), their values (vals) and one byte buffer (sb) for their bytes and
 * identifier copies. When the node ends (at the next node or tree event)
 * they are copied into one arena allocation. The buffers are the
 * builder's and are reused for every node and game, so with one game at
 * a time the memory is bounded by the largest game.
 *
 * FAST PATHS. Each event handler has an inline fast path for the usual
 * case (DIRECT, or BUFFERED with room everywhere) that does just what the
 * general path (COLD) would; everything else takes the general path. The
 * three events of a DIRECT move node go first through LEAVES: handlers
 * that call nothing at all (positions read inline from the event state),
 * so they save no registers and set up no frame; whatever they cannot do
 * without a call goes on to the general handlers.
 *
 * LEAN EVENTS. The core always ends a value before anything else happens
 * in the property, and ends a property before the next property, node or
 * tree event, unless a handler skips or aborts (or the parser is reset).
 * So when the builder has its own parser and no pass-through handler
 * wants value-end or property-end, it does not ask for those events (two
 * calls fewer per move): a value ends at the next value-begin or with its
 * property, a property at the next property, node or tree event, and a
 * property in progress is dropped when the answer to an event is to skip
 * or abort (lazy mode). Detached builders and builders with such
 * pass-through handlers get every event and drop a property that was not
 * ended, as before.
 *
 * BLOCKS AGAIN. The arena blocks of a game the builder frees (one game at
 * a time, or a game dropped) go to the next game (tree_arena.c, REUSE),
 * up to SPARE_MAX bytes, so a run of games allocates nothing once the
 * largest one has been seen.
 *
 * MAINLINE. With SGF_OPT_MAINLINE the builder's own parser passes over
 * every secondary variation, the implicit one it opens for a node written
 * after a variation included, so no second child arrives. A detached
 * builder gets the events of a parser that may not be in mainline mode:
 * there a game tree that would become a second child is skipped here
 * (`mskip` is its depth, every event answers SGF_SKIP until its
 * tree-end).
 *
 * STATES. IDLE between games; BUILD inside one; DROP after a limit with
 * SGF_TREE_SKIP_OVERSIZED (every event answers SGF_SKIP, so the core skips
 * the innermost tree, then from each tree-end the enclosing one, until the
 * game is over); FAILED after a fatal error (the parser stopped). A
 * tree-begin at parser depth 1 always starts a new game, so a parser
 * reset in the middle of a game discards the partial one. `building` is
 * BUILD without a mainline skip: the one test every hot event makes.
 */
#include <string.h>

#include "sgfstream/event_state.h"
#include "sized.h"
#include "tree_internal.h"

/* Where the current event is, and the identifier as written: through the
 * public API only, like every layer above the core, inline from the
 * parser's opt-in event state (sgfstream/event_state.h), so that the hot
 * handlers call nothing. Should the library's state be of another
 * version (NULL), es is no_state, whose live == 0 makes every read call
 * sgf_parser_position() / sgf_parser_raw_ident(), and DIRECT is not
 * used. A detached builder may be driven by any parser: the state is
 * looked up again when the parser changes. Used where a builder b is in
 * scope. */
#define EVENT_POS(p) sgf_event_position((p), event_state(b, (p)))
#define RAW_IDENT(p, len)                                   \
  (event_state(b, (p)) != &no_state                         \
       ? sgf_event_raw_ident(b->es, (len))                  \
       : sgf_parser_raw_ident((p), (len)))

#if defined(__GNUC__)
#define COLD static __attribute__((noinline, cold))
#define NOINLINE static __attribute__((noinline))
#define HOT_INLINE static inline __attribute__((always_inline))
#define LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define COLD static
#define NOINLINE static
#define HOT_INLINE static inline
#define LIKELY(x) (x)
#endif

enum { B_IDLE, B_BUILD, B_DROP, B_FAILED };

/* Failure causes beyond SGF__ERR_*. */
enum { ERR_VALUE = 100 };

/* Builder-only flag of the open node: it has PL, MN or HA (scan it). */
#define OPEN_SCAN 0x10000u

/* The arena blocks kept between games, at most. */
#define SPARE_MAX ((uint64_t)4 << 20)

/* DIRECT mode: a node with one property with one value of fewer than
 * DIRECT_BYTES bytes is written in place (node, property, value, bytes
 * and NUL, as a buffered node would be laid out) in DIRECT_SIZE bytes
 * reserved at the free end of the arena's head block. */
#define DIRECT_BYTES 8u
#define DIRECT_SIZE                                                     \
  (sizeof(sgf_node) + sizeof(sgf_property) + sizeof(sgf_value) +        \
   DIRECT_BYTES)
#define DPROP(n) ((sgf_property *)((n) + 1))
#define DVAL(n) ((sgf_value *)(DPROP(n) + 1))
#define DBYTES(n) ((char *)(DVAL(n) + 1))
/* What a DIRECT node with one value of len bytes takes of its room: the
 * value's NUL included, rounded up to the arena's 8 bytes. */
#define DIRECT_TAKE(len) \
  (DIRECT_SIZE - DIRECT_BYTES + (((len) + 8) & ~(size_t)7))

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
  int building;   /* state B_BUILD and mskip 0 */
  int lazy;       /* no value-end / property-end events (see the essay) */
  int in_prop, in_value;
  int open;       /* a node is being read: open_* */
  int fresh;      /* see the essay */
  uint32_t open_flags; /* HEAD, move, OPEN_SCAN */
  uint32_t prop_flags; /* what the current property adds to open_flags */
  sgf_tree *tree; /* the game being built */
  sgf_node *cur;  /* the node linked last that is not closed over */
  sgf_pos open_pos; /* the open node's ';' (DIRECT: in dn->pos) */

  sprop *pp; /* the open node's properties; pp[npp] is the current one */
  size_t npp, ppcap;
  sval *vals; /* their values */
  size_t nvals, valcap;
  char *sb; /* their bytes */
  size_t sblen, sbcap;
  uint64_t room;  /* bytes that may still be buffered before the game
                     reaches max_tree_bytes (see pending_bytes) */
  size_t pfirst;  /* first value of the current property */
  size_t psb;     /* sblen when the current property began */
  /* (not next to room: one wide load of both just after two narrow
     stores would stall on store forwarding) */
  size_t vroom;   /* bytes the current property may still take before
                     max_value_bytes (raw values + sizeof(sgf_value)
                     each, as the reader counts) */
  sgf_node **ix;  /* the game's nodes in pre-order: ixcap slots */
  size_t ixcap;

  const sgf_parser *es_parser; /* the parser whose event state es is */
  const sgf_event_state *es;

  /* DIRECT mode (see the essay) */
  int direct_ok;  /* may be used: own parser, lazy, no pass-through */
  int direct;     /* the open node is being written in place, at dn */
  int dstate;     /* 0: no property yet; 1: one, no value; 2: and a value */
  sgf_node *dn;
  size_t dlen;    /* bytes of that value so far */

  size_t max_value_bytes;
  uint64_t max_nodes, max_bytes;
  sgf_allocator alloc;
  sgf_parser *parser; /* NULL when detached */
  sgf_tree_builder_callbacks cb;
  sgf_callbacks ev; /* pass-through, zero if none */
  void *user;
  unsigned flags;

  int state;      /* B_* */
  uint64_t depth; /* game trees open */
  uint64_t mskip; /* mainline mode: depth of a variation being skipped */
  int mainline;   /* SGF_OPT_MAINLINE */
  sgf_pos game_pos; /* the game's '(' */

  sgf__block *spare;    /* blocks for the next game, in policy order */
  sgf_tree *spare_tree; /* a tree struct for the next game */

  sgf_tree *delivering; /* inside on_game */
  int kept;
  sgf_collection *coll; /* with SGF_TREE_COLLECT, never NULL */
};

/* The event state of a parser of another version: never live. */
static const sgf_event_state no_state;

/* The event state of p (see EVENT_POS). */
HOT_INLINE const sgf_event_state *event_state(sgf_tree_builder *b,
                                              const sgf_parser *p) {
  if (LIKELY(b->es_parser == p)) return b->es;
  b->es_parser = p;
  b->es = sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION);
  if (!b->es) b->es = &no_state;
  return b->es;
}

void sgf_tree_builder_options_init(sgf_tree_builder_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->size = sizeof *opt;
}

void sgf_tree_builder_callbacks_init(sgf_tree_builder_callbacks *cb) {
  memset(cb, 0, sizeof *cb);
  cb->size = sizeof *cb;
}

/* ------------------------------------------------------------------ */
/* Trees and their blocks                                              */

/* A tree for a new game, with the spare blocks to take first. */
static sgf_tree *game_tree(sgf_tree_builder *b) {
  sgf_tree *t = b->spare_tree;
  if (t) {
    b->spare_tree = NULL;
    memset(t, 0, sizeof *t);
    t->alloc = b->alloc;
    t->max_nodes = (uint32_t)b->max_nodes;
    t->max_bytes = b->max_bytes;
  } else {
    t = sgf__tree_new(&b->alloc, b->max_nodes, b->max_bytes);
    if (!t) return NULL;
  }
  t->reuse = b->spare;
  b->spare = NULL;
  return t;
}

/* A tree the builder is done with: its policy-sized blocks, in the order
 * they were taken, then those it did not take, become the spare blocks
 * (up to SPARE_MAX bytes); the rest is freed. */
static void recycle(sgf_tree_builder *b, sgf_tree *t) {
  sgf__block *list = NULL, *bl, *next, **tail;
  uint64_t kept = 0;
  for (bl = t->blocks; bl; bl = next) { /* newest first: reverse */
    next = bl->next;
    if (bl->own) {
      sgf__free(&b->alloc, bl, bl->size);
    } else {
      bl->next = list;
      list = bl;
    }
  }
  for (tail = &list; *tail; tail = &(*tail)->next) {
  }
  *tail = t->reuse;
  for (; *tail; tail = &(*tail)->next) {
  }
  *tail = b->spare;
  for (tail = &list; *tail; tail = &(*tail)->next) {
    if (kept + (*tail)->size > SPARE_MAX) break;
    kept += (*tail)->size;
  }
  sgf__blocks_free(&b->alloc, *tail);
  *tail = NULL;
  b->spare = list;
  if (!t->index_arena)
    sgf__free(&b->alloc, t->index, t->index_cap * sizeof *t->index);
  t->blocks = t->reuse = NULL;
  if (b->spare_tree)
    sgf__free(&b->alloc, t, sizeof *t);
  else
    b->spare_tree = t;
}

/* ------------------------------------------------------------------ */
/* Failure                                                             */

/* Bytes held for the game outside the arena: the open node as buffered
 * (a property and a value count from their first event, a value's NUL
 * from its begin). The position index counts when the game ends (it is
 * built in ix, then copied). */
static uint64_t pending_bytes(const sgf_tree_builder *b) {
  return (uint64_t)b->sblen + b->in_value +
         (uint64_t)b->nvals * sizeof(sgf_value) +
         (uint64_t)(b->npp + b->in_prop) * sizeof(sgf_property) +
         (b->open ? sizeof(sgf_node) : 0);
}

/* room from scratch (after something buffered was let go). */
static void room_set(sgf_tree_builder *b) {
  uint64_t used = b->tree->bytes + pending_bytes(b);
  b->room = used > b->max_bytes ? 0 : b->max_bytes - used;
}

/* Forget the game being built (its blocks go to the next game) and what
 * was buffered for it. */
static void drop_game(sgf_tree_builder *b) {
  if (b->tree) recycle(b, b->tree);
  b->tree = NULL;
  b->building = 0;
  b->mskip = 0;
  b->cur = NULL;
  b->open = b->fresh = 0;
  b->direct = b->dstate = 0;
  b->npp = b->nvals = b->sblen = 0;
  b->in_prop = b->in_value = 0;
}

/* Report a failure (SGF__ERR_* or ERR_VALUE) at the current event and drop
 * the game; returns the action for the core. */
static int fail(sgf_tree_builder *b, sgf_parser *p, int err) {
  sgf_diag d;
  int r;
  memset(&d, 0, sizeof d);
  d.pos = EVENT_POS(p);
  switch (err) {
    case SGF__ERR_NODES:
      d.code = SGF_DIAG_TREE_NODE_LIMIT;
      break;
    case SGF__ERR_BYTES:
      d.code = SGF_DIAG_TREE_BYTE_LIMIT;
      break;
    case ERR_VALUE:
      d.code = SGF_DIAG_VALUE_LIMIT;
      if (b->nvals > b->pfirst) d.pos = b->vals[b->nvals - 1].pos;
      break;
    default:
      d.code = SGF_DIAG_NOMEM;
      break;
  }
  d.severity = sgf_diag_severity(d.code);
  if (d.code != SGF_DIAG_NOMEM) {
    d.has_mark = 1;
    d.mark = d.code == SGF_DIAG_VALUE_LIMIT ? b->pp[b->npp].pos : b->game_pos;
  }
  drop_game(b);
  if (d.code != SGF_DIAG_NOMEM && (b->flags & SGF_TREE_SKIP_OVERSIZED)) {
    d.severity = SGF_SEV_ERROR;
    b->state = b->depth ? B_DROP : B_IDLE; /* at the game's end: over */
    r = sgf_parser_report(p, &d);
    return r == SGF_ABORT ? SGF_ABORT : SGF_SKIP;
  }
  b->state = B_FAILED;
  sgf_parser_report(p, &d);
  return SGF_ABORT;
}

/* What to answer for an event outside B_BUILD (or inside a variation
 * skipped in mainline mode). */
static int idle_action(const sgf_tree_builder *b) {
  if (b->state == B_DROP || b->mskip) return SGF_SKIP;
  if (b->state == B_FAILED) return SGF_ABORT;
  return SGF_CONTINUE;
}

/* Grow a buffer of elements to hold at least want of them. */
static int grow(sgf_tree_builder *b, void **buf, size_t *cap, size_t want,
                size_t elem, size_t first) {
  size_t ncap = *cap ? *cap : first;
  void *q;
  while (ncap < want) {
    if (ncap > SIZE_MAX / 2 / elem) return -1;
    ncap *= 2;
  }
  if (ncap == *cap) return 0;
  q = sgf__realloc(&b->alloc, *buf, *cap * elem, ncap * elem);
  if (!q) return -1;
  *buf = q;
  *cap = ncap;
  return 0;
}

/* Room in sb for add more bytes: 0, or -1 if memory runs out. */
static inline int sb_room(sgf_tree_builder *b, size_t add) {
  if (b->sbcap - b->sblen >= add) return 0;
  if (add > SIZE_MAX - b->sblen) return -1;
  return grow(b, (void **)&b->sb, &b->sbcap, b->sblen + add, 1, 256);
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

/* The value being read is left out. */
static void drop_value(sgf_tree_builder *b) {
  b->sblen = b->vals[--b->nvals].off;
  b->in_value = 0;
  room_set(b);
}

/* The property being read is left out. */
static void drop_prop(sgf_tree_builder *b) {
  if (b->direct) {
    b->dstate = 0;
    return;
  }
  b->sblen = b->psb;
  b->nvals = b->pfirst;
  b->in_prop = b->in_value = 0;
  room_set(b);
}

/* The property being read is complete (no value open). */
static inline void commit_prop(sgf_tree_builder *b) {
  size_t k = b->nvals - b->pfirst;
  sprop *sp;
  if (k == 0) { /* no value: left out */
    drop_prop(b);
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
    drop_prop(b);
    return;
  }
  if (b->in_value) end_value(b);
  commit_prop(b);
}

/* ------------------------------------------------------------------ */
/* Nodes and game trees                                                */

/* A node begins (at the current event), as a child of cur: in place
 * (DIRECT) when that may be, else buffered. */
static int open_node(sgf_tree_builder *b, sgf_parser *p, int head) {
  sgf_tree *t = b->tree;
  uint64_t used = t->bytes + sizeof(sgf_node);
  if (t->nnodes >= t->max_nodes) return fail(b, p, SGF__ERR_NODES);
  if (used > b->max_bytes) return fail(b, p, SGF__ERR_BYTES);
  b->npp = b->nvals = b->sblen = 0;
  b->open_flags = head ? SGF__N_HEAD : 0;
  if (b->direct_ok) {
    sgf_node *n = sgf__tree_reserve(t, DIRECT_SIZE);
    if (!n) return fail(b, p, t->err);
    b->dn = n;
    b->direct = 1;
    b->dstate = 0;
    n->pos = EVENT_POS(p);
  } else {
    b->room = b->max_bytes - used;
    b->open_pos = EVENT_POS(p);
  }
  b->open = 1;
  return 0;
}

/* The open node, written in place so far, is buffered from here on (for
 * a second property or value, a longer value, an identifier to copy...):
 * what DIRECT wrote moves to pp, vals and sb, as if read that way (the
 * room reserved stays free for the buffered node's allocation). 0, or the
 * action after a failure. */
COLD int to_staged(sgf_tree_builder *b, sgf_parser *p) {
  sgf_node *n = b->dn;
  b->direct = 0;
  b->open_pos = n->pos;
  b->npp = b->nvals = b->sblen = 0;
  if (b->dstate >= 1) {
    const sgf_property *pr = DPROP(n);
    sprop *sp;
    if (grow(b, (void **)&b->pp, &b->ppcap, 1, sizeof *b->pp, 16) ||
        grow(b, (void **)&b->vals, &b->valcap, 1, sizeof *b->vals, 16) ||
        sb_room(b, b->dlen + 1)) {
      b->dstate = 0;
      return fail(b, p, SGF__ERR_NOMEM);
    }
    sp = &b->pp[0];
    sp->ident = pr->ident;
    sp->raw = pr->raw_ident;
    sp->ident_len = pr->ident_len;
    sp->raw_len = pr->raw_ident_len;
    sp->pos = pr->pos;
    b->psb = b->pfirst = 0;
    b->vroom = b->max_value_bytes;
    b->in_prop = 1;
    if (b->dstate == 2) {
      const sgf_value *va = DVAL(n);
      if (b->dlen) memcpy(b->sb, DBYTES(n), b->dlen);
      b->sblen = b->dlen;
      b->vals[0].off = 0;
      b->vals[0].pos = va->pos;
      b->nvals = 1;
      b->in_value = 1;
      b->vroom -= sizeof(sgf_value) + b->dlen; /* direct_ok: no wrap */
    }
  }
  b->dstate = 0;
  room_set(b);
  return 0;
}

/* Link n (id, flags f, k properties at pr; its place, pos and properties
 * written) as the last child of cur, with its derived facts (as
 * sgf__node_derive gives them); it becomes cur. */
HOT_INLINE void link_node(sgf_tree_builder *b, sgf_tree *t, sgf_node *n,
                          uint32_t id, uint32_t f, sgf_property *pr,
                          size_t k, int may_scan) {
  sgf_node *const parent = b->cur, *prev;
  uint32_t last;
  int64_t movenum, nextnum;
  b->ix[id] = n;
  b->cur = n;
  t->nnodes = id + 1;
  n->parent = parent;
  n->first_child = n->last_child = n->next = NULL;
  n->tree = t;
  n->props = pr;
  n->nprops = n->propcap = (uint32_t)k;
  n->nchildren = 0;
  n->id = id;
  n->subtree = 1;
  n->mn = 0;
  if (may_scan && (f & OPEN_SCAN)) { /* PL, MN or HA: the full scan */
    n->flags = f & ~OPEN_SCAN;
    sgf__node_scan(n);
    f = n->flags;
  }
  if (parent) {
    uint32_t ci;
    prev = parent->last_child;
    if (prev) {
      prev->next = n;
      ci = prev->child_index + 1;
    } else {
      parent->first_child = n;
      ci = 0;
    }
    parent->last_child = n;
    parent->nchildren++;
    n->child_index = ci;
    n->level = parent->level + 1;
    n->depth = parent->depth + (ci > 0);
    n->ply = parent->ply;
    last = parent->flags & SGF__N_DERIVED;
    movenum = parent->movenum;
    nextnum = parent->nextnum;
  } else {
    prev = NULL;
    t->root = n;
    n->child_index = n->level = n->depth = n->ply = 0;
    last = 0;
    movenum = 0;
    nextnum = 1;
  }
  n->prev = prev;
  if (f & SGF__N_MOVE) {
    n->ply++;
    movenum = (f & SGF__N_MN) ? n->mn : nextnum;
    nextnum = movenum < INT64_MAX ? movenum + 1 : movenum;
    last = (f & SGF__N_BLACK) ? SGF__N_LAST_B : SGF__N_LAST_W;
  } else if (f & SGF__N_MN) {
    nextnum = n->mn;
  }
  n->movenum = movenum;
  n->nextnum = nextnum;
  n->flags = f | last;
}

/* Room in the index for one more node: 0, or -1 if memory runs out. */
static inline int ix_room(sgf_tree_builder *b, uint32_t id) {
  return id < b->ixcap ? 0
                       : grow(b, (void **)&b->ix, &b->ixcap, (size_t)id + 1,
                              sizeof *b->ix, 64);
}

/* The DIRECT node n's one value, of len bytes, is complete: its value and
 * property records get their bytes (the NUL after them is the caller's to
 * write, last); returns the property. */
HOT_INLINE sgf_property *direct_value_done(sgf_node *n, size_t len) {
  sgf_property *pr = DPROP(n);
  sgf_value *va = DVAL(n);
  va->raw = DBYTES(n);
  va->len = len;
  pr->nvalues = 1;
  pr->values = va;
  return pr;
}

/* The open DIRECT node ends: its reserved place is taken as far as used
 * (its value, if any, gets its length and NUL) and it is linked. */
HOT_INLINE int close_direct(sgf_tree_builder *b, sgf_parser *p) {
  sgf_tree *t = b->tree;
  sgf_node *n = b->dn;
  const uint32_t id = t->nnodes;
  uint32_t f = b->open_flags;
  if (ix_room(b, id)) return fail(b, p, SGF__ERR_NOMEM);
  b->open = b->direct = 0;
  if (b->dstate == 2) {
    const size_t len = b->dlen;
    f |= b->prop_flags;
    sgf__tree_take(t, DIRECT_TAKE(len));
    link_node(b, t, n, id, f, direct_value_done(n, len), 1, 1);
    DBYTES(n)[len] = '\0'; /* last: a char store may alias everything */
  } else { /* no property (one without a value is left out) */
    sgf__tree_take(t, sizeof(sgf_node));
    link_node(b, t, n, id, f, NULL, 0, 1);
  }
  return 0;
}

/* The open buffered node ends: one arena allocation holds it, its
 * properties, their values and bytes, and it is linked. 0, or the action
 * after a failure. */
static int close_staged(sgf_tree_builder *b, sgf_parser *p) {
  sgf_tree *t = b->tree;
  const size_t k = b->npp, m = b->nvals, sblen = b->sblen;
  const uint32_t id = t->nnodes;
  const char *const sb = b->sb;
  size_t size = sizeof(sgf_node) + k * sizeof(sgf_property) +
                m * sizeof(sgf_value) + ((sblen + 7) & ~(size_t)7);
  sgf_node *n;
  sgf_property *pr;
  sgf_value *va;
  char *bytes;
  size_t i;

  if (ix_room(b, id)) return fail(b, p, SGF__ERR_NOMEM);
    n = sgf__tree_alloc8(t, size);
  if (!n) return fail(b, p, t->err);
  b->open = 0;
  pr = (sgf_property *)(n + 1);
  va = (sgf_value *)(pr + k);
  bytes = (char *)(va + m);
  /* (indexed: pp and vals may still be NULL when k or m is 0, and NULL
   * + 0 is undefined) */
  for (i = 0; i < m; i++) {
    const sval *sv = &b->vals[i];
    va[i].raw = bytes + sv->off;
    va[i].len = sv->len;
    va[i].pos = sv->pos;
  }
  for (i = 0; i < k; i++) {
    const sprop *sp = &b->pp[i];
    pr[i].ident = sp->ident ? sp->ident : bytes + sp->ident_off;
    pr[i].ident_len = sp->ident_len;
    pr[i].raw_ident = sp->raw ? sp->raw : bytes + sp->raw_off;
    pr[i].raw_ident_len = sp->raw_len;
    pr[i].pos = sp->pos;
    pr[i].nvalues = sp->nvalues;
    pr[i].values = va + sp->first;
  }
  n->pos = b->open_pos;
  b->npp = b->nvals = b->sblen = 0; /* zero outside BUFFERED */
  if (sblen) memcpy(bytes, sb, sblen); /* before the scan reads values */
  link_node(b, t, n, id, b->open_flags, k ? pr : NULL, k, 1);
  return 0;
}

/* The open node ends. */
COLD int close_node(sgf_tree_builder *b, sgf_parser *p) {
  return b->direct ? close_direct(b, p) : close_staged(b, p);
}

/* Whatever of the open node is pending ends, and the node too. */
static inline int end_node(sgf_tree_builder *b, sgf_parser *p) {
  if (b->in_prop) end_pending(b);
  return b->open ? close_node(b, p) : 0;
}

static int finish_game(sgf_tree_builder *b, sgf_parser *p) {
  sgf_tree *t = b->tree;
  sgf_node **ix;
  size_t ixsize;
  int r = SGF_CONTINUE;
  if (!t->root) { /* a game tree without a node adds nothing */
    drop_game(b);
    b->state = B_IDLE;
    return SGF_CONTINUE;
  }
  /* the index: in the free end of the last block if it fits there, else
   * allocated by itself (a new block for it would mostly be waste) */
  ixsize = (size_t)t->nnodes * sizeof *ix;
  if (t->blocks && t->blocks->size - t->blocks->used >= ixsize) {
    ix = sgf__tree_alloc8(t, ixsize);
    t->index_arena = 1;
  } else {
    if (t->bytes > t->max_bytes || ixsize > t->max_bytes - t->bytes)
      return fail(b, p, SGF__ERR_BYTES);
    ix = sgf__malloc(&t->alloc, ixsize);
    if (!ix) return fail(b, p, SGF__ERR_NOMEM);
    t->bytes += ixsize;
  }
  memcpy(ix, b->ix, ixsize);
  t->index = ix;
  t->index_cap = t->nnodes;
  if (b->cur) {
    /* not climbed out of the root (cannot happen with balanced tree
     * events): derive everything again the slow way */
    sgf__tree_refresh(t);
  }
  t->index_ok = 1;
  t->dirty = 0;
  if ((b->flags & SGF_TREE_COLLECT) && sgf__collection_reserve(b->coll))
    return fail(b, p, SGF__ERR_NOMEM);
  /* blocks the game did not take wait for the next one */
  b->spare = t->reuse;
  t->reuse = NULL;
  b->tree = NULL;
  b->cur = NULL;
  b->state = B_IDLE;
  b->building = 0;
  if (b->cb.on_game) {
    b->delivering = t;
    b->kept = 0;
    r = b->cb.on_game(b, b->user, t);
    b->delivering = NULL;
    if (b->kept) return r;
  }
  if (b->flags & SGF_TREE_COLLECT) {
    /* on_game may have taken the collection: reserve in the new one */
    if (sgf__collection_reserve(b->coll)) {
      sgf_tree_free(t);
      return fail(b, p, SGF__ERR_NOMEM);
    }
    sgf__collection_push(b->coll, t);
  } else {
    recycle(b, t);
  }
  return r;
}

static int b_tree_begin(sgf_tree_builder *b, sgf_parser *p) {
  int r;
  if (b->depth == 0 || sgf_parser_depth(p) == 1) { /* a new game */
    drop_game(b);
    b->depth = 1;
    b->game_pos = EVENT_POS(p);
    b->tree = game_tree(b);
    if (!b->tree) return fail(b, p, SGF__ERR_NOMEM);
    b->state = B_BUILD;
    b->building = 1;
    b->fresh = 1;
    return SGF_CONTINUE;
  }
  b->depth++;
  if (!b->building) return idle_action(b);
  if ((r = end_node(b, p)) != 0) return r;
  if (b->mainline && !b->fresh && b->cur && b->cur->first_child) {
    b->mskip = b->depth; /* a second child: not on the main line */
    b->building = 0;
    return SGF_SKIP;
  }
  if (b->fresh) { /* "((": an empty node first */
    if ((r = open_node(b, p, 1)) != 0) return r;
    if ((r = close_node(b, p)) != 0) return r;
  }
  b->fresh = 1;
  return SGF_CONTINUE;
}

static int b_node(sgf_tree_builder *b, sgf_parser *p) {
  int r;
  if (!b->building) return idle_action(b);
  if ((r = end_node(b, p)) != 0) return r;
  if ((r = open_node(b, p, b->fresh)) != 0) return r;
  b->fresh = 0;
  return SGF_CONTINUE;
}

static int b_tree_end(sgf_tree_builder *b, sgf_parser *p) {
  int r;
  if (b->depth == 0) return SGF_CONTINUE; /* not ours */
  b->depth--;
  if (b->mskip) {
    if (b->depth >= b->mskip) return SGF_SKIP;
    b->mskip = 0; /* the skipped variation is over */
    b->building = b->state == B_BUILD;
    return SGF_CONTINUE;
  }
  if (b->state == B_DROP) {
    if (b->depth > 0) return SGF_SKIP; /* skip the enclosing tree too */
    b->state = B_IDLE;
    return SGF_CONTINUE;
  }
  if (!b->building) return idle_action(b);
  if ((r = end_node(b, p)) != 0) return r;
  if (b->fresh) {
    b->fresh = 0; /* an empty game tree: cur is where it hung */
  } else if (b->cur) {
    /* close the sequence: its nodes get no more descendants. They have
     * consecutive ids (what hangs from them comes after the last in
     * pre-order) but where a node was added after variations: walk the
     * index while that holds (loads that do not wait for each other),
     * the parent links from where it does not. */
    sgf_node **ix = b->ix, *n = b->cur;
    uint32_t count = b->tree->nnodes, i = n->id;
    for (;;) {
      n->subtree = count - i;
      if ((n->flags & SGF__N_HEAD) || !n->parent) break;
      if (n->parent == ix[i - 1]) {
        n = ix[--i];
      } else {
        n = n->parent;
        i = n->id;
      }
    }
    b->cur = n->parent;
  }
  return b->depth == 0 ? finish_game(b, p) : SGF_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

/* Identifiers of one or two uppercase letters need no copy. */
static const char letters[] =
    "A\0B\0C\0D\0E\0F\0G\0H\0I\0J\0K\0L\0M\0N\0O\0P\0Q\0R\0S\0T\0U\0V\0W\0X\0Y\0Z";
#define L2(c)                                                             \
  c "A\0" c "B\0" c "C\0" c "D\0" c "E\0" c "F\0" c "G\0" c "H\0" c "I\0" \
  c "J\0" c "K\0" c "L\0" c "M\0" c "N\0" c "O\0" c "P\0" c "Q\0" c "R\0" \
  c "S\0" c "T\0" c "U\0" c "V\0" c "W\0" c "X\0" c "Y\0" c "Z\0"
static const char letters2[] =
    L2("A") L2("B") L2("C") L2("D") L2("E") L2("F") L2("G") L2("H") L2("I")
    L2("J") L2("K") L2("L") L2("M") L2("N") L2("O") L2("P") L2("Q") L2("R")
    L2("S") L2("T") L2("U") L2("V") L2("W") L2("X") L2("Y") L2("Z");
#undef L2

static inline int upper(char c) { return c >= 'A' && c <= 'Z'; }

static int b_property(sgf_tree_builder *b, sgf_parser *p, const char *id,
                      size_t n) {
  size_t rn, copy;
  const char *raw, *ident = NULL;
  sprop *sp;
  int same, r;
  if (!b->building) return idle_action(b);
  if (b->direct && (r = to_staged(b, p)) != 0) return r;
  if (b->in_prop) end_pending(b);
  if (!b->open) return SGF_CONTINUE; /* not in a node */
  raw = RAW_IDENT(p, &rn);
  if (n == 1 && upper(id[0]))
    ident = letters + 2 * (id[0] - 'A');
  else if (n == 2 && upper(id[0]) && upper(id[1]))
    ident = letters2 + 3 * (26 * (id[0] - 'A') + (id[1] - 'A'));
  same = rn == n && (raw == id || memcmp(raw, id, n) == 0);
  copy = (ident ? 0 : n + 1) + (same ? 0 : rn + 1);
  if (b->npp >= b->ppcap &&
      grow(b, (void **)&b->pp, &b->ppcap, b->npp + 1, sizeof *b->pp, 16))
    return fail(b, p, SGF__ERR_NOMEM);
  if (sizeof(sgf_property) + copy > b->room || b->npp >= UINT32_MAX)
    return fail(b, p, SGF__ERR_BYTES);
  if (copy && sb_room(b, copy)) return fail(b, p, SGF__ERR_NOMEM);
  b->room -= sizeof(sgf_property) + copy;
  b->psb = b->sblen;
  sp = &b->pp[b->npp];
  sp->ident = ident;
  if (!ident) {
    sp->ident_off = b->sblen;
    memcpy(b->sb + b->sblen, id, n);
    b->sb[b->sblen + n] = '\0';
    b->sblen += n + 1;
  }
  if (same) {
    sp->raw = ident;
    sp->raw_off = sp->ident_off;
  } else {
    sp->raw = NULL;
    sp->raw_off = b->sblen;
    if (rn) memcpy(b->sb + b->sblen, raw, rn);
    b->sb[b->sblen + rn] = '\0';
    b->sblen += rn + 1;
  }
  sp->ident_len = n;
  sp->raw_len = rn;
  sp->pos = EVENT_POS(p);
  /* what it tells about the node (as sgf__node_scan would find) */
  if (n == 1 && (id[0] == 'B' || id[0] == 'W'))
    b->prop_flags = id[0] == 'B' ? SGF__N_BLACK : SGF__N_WHITE;
  else if (n == 2 && ((id[0] == 'P' && id[1] == 'L') ||
                      (id[0] == 'M' && id[1] == 'N') ||
                      (id[0] == 'H' && id[1] == 'A')))
    b->prop_flags = OPEN_SCAN;
  else
    b->prop_flags = 0;
  b->pfirst = b->nvals;
  b->vroom = b->max_value_bytes;
  b->in_prop = 1;
  return SGF_CONTINUE;
}

static int b_value_begin(sgf_tree_builder *b, sgf_parser *p) {
  sval *v;
  int r;
  if (b->direct && (r = to_staged(b, p)) != 0) return r;
  if (!b->in_prop) return b->building ? SGF_CONTINUE : idle_action(b);
  if (b->in_value) { /* lazy: the value ended; else it never did */
    if (b->lazy)
      end_value(b);
    else
      drop_value(b);
  }
  if (sizeof(sgf_value) > b->vroom) return fail(b, p, ERR_VALUE);
  if (sizeof(sgf_value) + 1 > b->room) return fail(b, p, SGF__ERR_BYTES);
  if (b->nvals >= b->valcap &&
      grow(b, (void **)&b->vals, &b->valcap, b->nvals + 1, sizeof *b->vals,
           16))
    return fail(b, p, SGF__ERR_NOMEM);
  if (sb_room(b, 1)) return fail(b, p, SGF__ERR_NOMEM); /* for the NUL */
  b->vroom -= sizeof(sgf_value);
  b->room -= sizeof(sgf_value) + 1;
  v = &b->vals[b->nvals++];
  v->off = b->sblen;
  v->pos = EVENT_POS(p);
  b->in_value = 1;
  return SGF_CONTINUE;
}

static int b_value_data(sgf_tree_builder *b, sgf_parser *p, const char *at,
                        size_t n) {
  char *d;
  int r;
  if (b->direct && (r = to_staged(b, p)) != 0) return r;
  if (!b->in_value) return b->building ? SGF_CONTINUE : idle_action(b);
  if (n > b->vroom) return fail(b, p, ERR_VALUE);
  if (n > b->room) return fail(b, p, SGF__ERR_BYTES);
  if (sb_room(b, n + 1)) return fail(b, p, SGF__ERR_NOMEM);
  b->vroom -= n;
  b->room -= n;
  d = b->sb + b->sblen;
  b->sblen += n;
  if (n == 2) { /* most values are points */
    d[0] = at[0];
    d[1] = at[1];
  } else {
    memcpy(d, at, n);
  }
  return SGF_CONTINUE;
}

static int b_value_end(sgf_tree_builder *b, sgf_parser *p) {
  int r;
  if (b->direct && (r = to_staged(b, p)) != 0) return r;
  if (!b->in_value) return b->building ? SGF_CONTINUE : idle_action(b);
  end_value(b);
  return SGF_CONTINUE;
}

static int b_property_end(sgf_tree_builder *b, sgf_parser *p) {
  int r;
  if (b->direct && (r = to_staged(b, p)) != 0) return r;
  if (!b->in_prop) return b->building ? SGF_CONTINUE : idle_action(b);
  if (b->in_value) drop_value(b); /* a value never ended is left out */
  commit_prop(b);
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* The handlers: the builder first, then the pass-through              */

/* The stronger of two actions: abort > pause > skip > continue (other
 * values, which the core treats as abort, win too). */
static int stronger(int a, int b) { return b > a ? b : a; }

/* After the pass-through answered: unless the core goes on (continue or
 * pause), the property in progress will never be ended. */
static int passed(sgf_tree_builder *b, int r, int mine) {
  r = stronger(mine, r);
  if (r != SGF_CONTINUE && r != SGF_PAUSE && b->in_prop) drop_prop(b);
  return r;
}

#define BUILDER(u) ((sgf_tree_builder *)(u))

/* Each handler has a general path (COLD: every state, the pass-through,
 * failures) and an inline fast path for the usual case (see FAST PATHS),
 * which does what the general path would and nothing else: a node, a
 * property of one or two uppercase letters written as such, a value and
 * its data, in place (DIRECT) or with room in every buffer and no
 * pass-through handler for the event. Fields of *b are read and updated
 * before bytes are stored through a char pointer (which may alias *b: the
 * compiler would reload them after it). */

COLD int slow_tree_begin(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_tree_begin(b, p);
  if (r != SGF_ABORT && b->ev.on_tree_begin)
    r = passed(b, b->ev.on_tree_begin(p, b->user), r);
  return r;
}

COLD int slow_tree_end(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_tree_end(b, p);
  if (r != SGF_ABORT && b->ev.on_tree_end)
    r = passed(b, b->ev.on_tree_end(p, b->user), r);
  return r;
}

COLD int slow_node(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_node(b, p);
  if (r != SGF_ABORT && b->ev.on_node)
    r = passed(b, b->ev.on_node(p, b->user), r);
  return r;
}

COLD int slow_property(sgf_parser *p, void *u, const char *at, size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_property(b, p, at, n);
  if (r != SGF_ABORT && b->ev.on_property)
    r = passed(b, b->ev.on_property(p, b->user, at, n), r);
  return r;
}

COLD int slow_value_begin(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_value_begin(b, p);
  if (r != SGF_ABORT && b->ev.on_value_begin)
    r = passed(b, b->ev.on_value_begin(p, b->user), r);
  return r;
}

COLD int slow_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_value_data(b, p, at, n);
  if (r != SGF_ABORT && b->ev.on_value_data)
    r = passed(b, b->ev.on_value_data(p, b->user, at, n), r);
  return r;
}

static int h_tree_begin(sgf_parser *p, void *u) { return slow_tree_begin(p, u); }

static int h_tree_end(sgf_parser *p, void *u) { return slow_tree_end(p, u); }

NOINLINE int node_general(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->building && b->open && !b->ev.on_node)) {
    sgf_tree *t;
    uint64_t used;
    int r;
    if (LIKELY(b->direct)) {
      r = close_direct(b, p);
    } else {
      if (b->in_prop) end_pending(b);
      r = close_staged(b, p);
    }
    if (r != 0) return r;
    /* open_node(b, p, 0): cur has just been linked, so fresh is 0 */
    t = b->tree;
    used = t->bytes + sizeof(sgf_node);
    if (LIKELY(t->nnodes < t->max_nodes && used <= b->max_bytes)) {
      if (LIKELY(b->direct_ok)) {
        sgf__block *bl = t->blocks;
        sgf_node *n;
        if (LIKELY(bl->size - bl->used >= DIRECT_SIZE)) {
          n = (sgf_node *)((char *)bl + bl->used);
        } else { /* a new block */
          n = sgf__tree_reserve(t, DIRECT_SIZE);
          if (!n) return fail(b, p, t->err);
        }
        b->dn = n;
        b->open = b->direct = 1;
        b->dstate = 0;
        b->open_flags = 0;
        n->pos = EVENT_POS(p);
        return SGF_CONTINUE;
      } else {
        b->room = b->max_bytes - used;
        b->npp = b->nvals = b->sblen = 0;
        b->open = 1;
        b->open_flags = 0;
        b->open_pos = EVENT_POS(p);
        return SGF_CONTINUE;
      }
    }
  }
  return slow_node(p, u);
}

/* The identifier of a property, when it is one or two uppercase letters
 * written as such (raw, rn: as written): a static string, else NULL; *pf
 * gets what it tells about the node (as sgf__node_scan would find). */
HOT_INLINE const char *static_ident(const char *id, size_t n,
                                    const char *raw, size_t rn,
                                    uint32_t *pf) {
  char c0 = id[0], c1;
  *pf = 0;
  if (rn != n || !upper(c0)) return NULL;
  if (n == 1 && (raw == id || raw[0] == c0)) {
    if (c0 == 'B') *pf = SGF__N_BLACK;
    if (c0 == 'W') *pf = SGF__N_WHITE;
    return letters + 2 * (c0 - 'A');
  }
  if (n == 2 && upper(c1 = id[1]) &&
      (raw == id || (raw[0] == c0 && raw[1] == c1))) {
    if ((c0 == 'P' && c1 == 'L') || (c0 == 'M' && c1 == 'N') ||
        (c0 == 'H' && c1 == 'A'))
      *pf = OPEN_SCAN;
    return letters2 + 3 * (26 * (c0 - 'A') + (c1 - 'A'));
  }
  return NULL;
}

/* The DIRECT node's property: a static identifier (what static_ident
 * gave, with its flags pf), its position still to be written. */
HOT_INLINE sgf_property *direct_property(sgf_tree_builder *b,
                                         const char *ident, size_t n,
                                         uint32_t pf) {
  sgf_property *pr = DPROP(b->dn);
  b->prop_flags = pf;
  b->dstate = 1;
  pr->ident = pr->raw_ident = ident;
  pr->ident_len = pr->raw_ident_len = n;
  return pr;
}

NOINLINE int property_general(sgf_parser *p, void *u, const char *at,
                              size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  size_t rn;
  const char *raw, *ident;
  uint32_t pf;
  if (LIKELY(b->direct)) { /* implies building, open, no pass-through */
    if (LIKELY(b->dstate == 0)) {
      raw = RAW_IDENT(p, &rn);
      ident = static_ident(at, n, raw, rn, &pf);
      if (LIKELY(ident != NULL)) {
        direct_property(b, ident, n, pf)->pos = EVENT_POS(p);
        return SGF_CONTINUE;
      }
    }
  } else if (LIKELY(b->building && b->open && !b->ev.on_property)) {
    if (b->in_prop) end_pending(b);
    raw = RAW_IDENT(p, &rn);
    ident = static_ident(at, n, raw, rn, &pf);
    if (LIKELY(ident && b->npp < b->ppcap && b->npp < UINT32_MAX &&
               b->room >= sizeof(sgf_property))) {
      sprop *sp = &b->pp[b->npp];
      b->room -= sizeof(sgf_property);
      b->psb = b->sblen;
      b->pfirst = b->nvals;
      b->vroom = b->max_value_bytes;
      b->prop_flags = pf;
      b->in_prop = 1;
      sp->ident = sp->raw = ident;
      sp->ident_len = sp->raw_len = n;
      sp->pos = EVENT_POS(p);
      return SGF_CONTINUE;
    }
  }
  return slow_property(p, u, at, n);
}

static int h_value_begin(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct)) {
    if (LIKELY(b->dstate == 1)) {
      b->dstate = 2;
      b->dlen = 0;
      DVAL(b->dn)->pos = EVENT_POS(p);
      return SGF_CONTINUE;
    }
  } else if (LIKELY(b->in_prop && (b->lazy || !b->in_value) &&
                    b->vroom >= sizeof(sgf_value) &&
                    b->room >= sizeof(sgf_value) + 1 &&
                    b->nvals < b->valcap && b->sbcap - b->sblen >= 2 &&
                    !b->ev.on_value_begin)) {
    sval *v;
    if (b->in_value) end_value(b);
    b->vroom -= sizeof(sgf_value);
    b->room -= sizeof(sgf_value) + 1;
    v = &b->vals[b->nvals++];
    v->off = b->sblen;
    v->pos = EVENT_POS(p);
    b->in_value = 1;
    return SGF_CONTINUE;
  }
  return slow_value_begin(p, u);
}

static int h_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  char *d;
  if (LIKELY(b->direct)) {
    if (LIKELY(b->dstate == 2 && n < DIRECT_BYTES - b->dlen)) {
      d = DBYTES(b->dn) + b->dlen;
      b->dlen += n;
      goto copy;
    }
  } else if (LIKELY(b->in_value && n <= b->vroom && n <= b->room &&
                    n < b->sbcap - b->sblen && !b->ev.on_value_data)) {
    d = b->sb + b->sblen;
    b->sblen += n;
    b->vroom -= n;
    b->room -= n;
    goto copy;
  }
  return slow_value_data(p, u, at, n);
copy:
  if (n == 2) { /* most values are points */
    d[0] = at[0];
    d[1] = at[1];
  } else {
    memcpy(d, at, n);
  }
  return SGF_CONTINUE;
}

/* Whole values (on_value): the builder's own parser uses this unless a
 * pass-through handler wants the three value events. A piece is
 * value-begin (FIRST), value-data (bytes), value-end (LAST; needed only
 * when not lazy), as the three events would be, in one call. */
NOINLINE int value_general(sgf_parser *p, void *u, const char *at,
                           size_t n, unsigned flags) {
  sgf_tree_builder *b = BUILDER(u);
  int r = SGF_CONTINUE;
  /* DIRECT, the first value of the node's property, whole and short (a
   * move): what value-begin and value-data do, at once */
  if (LIKELY(b->direct && b->dstate == 1 &&
             (flags & SGF_VALUE_FIRST) && n < DIRECT_BYTES)) {
    char *d = DBYTES(b->dn);
    b->dstate = 2;
    b->dlen = n;
    DVAL(b->dn)->pos = EVENT_POS(p);
    if (n == 2) { /* most values are points */
      d[0] = at[0];
      d[1] = at[1];
    } else if (n) {
      memcpy(d, at, n);
    }
    return SGF_CONTINUE; /* lazy (DIRECT is): LAST needs nothing */
  }
  if (flags & SGF_VALUE_FIRST) r = h_value_begin(p, u);
  if (r == SGF_CONTINUE && n) r = h_value_data(p, u, at, n);
  if (r == SGF_CONTINUE && (flags & SGF_VALUE_LAST) && !b->lazy)
    r = b_value_end(b, p);
  if (r != SGF_ABORT && b->ev.on_value)
    r = passed(b, b->ev.on_value(p, b->user, at, n, flags), r);
  return r;
}

/* LEAVES. The three events of a move node, in the usual case, handled
 * by functions that call nothing (no registers to save, no frame): the
 * DIRECT node with a static identifier, a value of 0 or 2 bytes, and a
 * position the event state gives inline (pos_inline). Anything else, or
 * anything that might call (a full scan for PL, MN or HA, the index or an
 * arena block to grow, a limit), takes the general handler above, which
 * does the same and more. */

/* In DIRECT mode, the event position is in the counters (as
 * sgf_event_position reads them). DIRECT is only for a builder's own
 * parser, whose event state es is from creation, and its events come
 * from inside its feed or finish (es->live): what is left to ask is
 * whether the event is on the current line. */
HOT_INLINE int pos_inline(const sgf_tree_builder *b) {
  const sgf_event_state *es = b->es;
  return es->offset >= es->line_start;
}

/* The position of the current event, when pos_inline holds. */
HOT_INLINE void put_pos(sgf_pos *d, const sgf_event_state *es) {
  d->offset = es->offset;
  d->line = es->line;
  d->column = es->offset - es->line_start + 1;
}

static int h_node(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct && b->dstate == 2 && pos_inline(b))) {
    sgf_tree *const t = b->tree;
    sgf__block *const bl = t->blocks;
    const uint32_t id = t->nnodes;
    const uint32_t f = b->open_flags | b->prop_flags;
    const size_t len = b->dlen;
    const size_t take = DIRECT_TAKE(len);
    /* the node written in place ends, the next begins behind it */
    if (LIKELY(!(f & OPEN_SCAN) && id < b->ixcap &&
               id + 1 < t->max_nodes &&
               t->bytes + sizeof(sgf_node) <= b->max_bytes &&
               bl->size - bl->used >= take + DIRECT_SIZE)) {
      sgf_node *const n = b->dn, *next;
      bl->used += take;
      next = (sgf_node *)((char *)bl + bl->used);
      link_node(b, t, n, id, f, direct_value_done(n, len), 1, 0);
      b->dn = next;
      b->dstate = 0;
      b->open_flags = 0;
      put_pos(&next->pos, b->es);
      DBYTES(n)[len] = '\0'; /* last: a char store may alias everything */
      return SGF_CONTINUE;
    }
  }
  return node_general(p, u);
}

static int h_property(sgf_parser *p, void *u, const char *at, size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct && b->dstate == 0 && pos_inline(b))) {
    const sgf_event_state *es = b->es;
    uint32_t pf;
    const char *ident =
        static_ident(at, n, es->raw_ident, es->raw_ident_len, &pf);
    if (LIKELY(ident != NULL)) {
      put_pos(&direct_property(b, ident, n, pf)->pos, es);
      return SGF_CONTINUE;
    }
  }
  return property_general(p, u, at, n);
}

static int h_value(sgf_parser *p, void *u, const char *at, size_t n,
                   unsigned flags) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct && b->dstate == 1 && (flags & SGF_VALUE_FIRST) &&
             (n == 2 || n == 0) && pos_inline(b))) {
    sgf_node *dn = b->dn;
    char *d = DBYTES(dn);
    b->dstate = 2;
    b->dlen = n;
    put_pos(&DVAL(dn)->pos, b->es);
    if (n) { /* a point */
      d[0] = at[0];
      d[1] = at[1];
    }
    return SGF_CONTINUE; /* lazy (DIRECT is): LAST needs nothing */
  }
  return value_general(p, u, at, n, flags);
}

static int h_value_end(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_value_end(b, p);
  if (r != SGF_ABORT && b->ev.on_value_end)
    r = passed(b, b->ev.on_value_end(p, b->user), r);
  return r;
}

static int h_property_end(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_property_end(b, p);
  if (r != SGF_ABORT && b->ev.on_property_end)
    r = passed(b, b->ev.on_property_end(p, b->user), r);
  return r;
}

static int h_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  sgf_tree_builder *b = BUILDER(u);
  return b->cb.on_diagnostic ? b->cb.on_diagnostic(p, b->user, d)
                             : SGF_CONTINUE;
}

static const sgf_callbacks handlers = {
    sizeof(sgf_callbacks),
    h_tree_begin, h_tree_end,  h_node,         h_property,  h_value_begin,
    h_value_data, h_value_end, h_property_end, h_diagnostic, NULL,
    NULL};

const sgf_callbacks *sgf_tree_builder_handlers(void) { return &handlers; }

/* ------------------------------------------------------------------ */
/* Life cycle                                                          */

sgf_tree_builder *sgf_tree_builder_create(const sgf_tree_builder_callbacks *cbg,
                                          void *user,
                                          const sgf_tree_builder_options *opt) {
  sgf_tree_builder_options o;
  sgf_tree_builder_callbacks cbc;
  const sgf_tree_builder_callbacks *cb = cbg ? &cbc : NULL;
  sgf_options po;
  sgf_callbacks evc;
  sgf_allocator a;
  sgf_tree_builder *b;
  /* VERSIONED STRUCTS (sgfstream.h): each read as far as its size says */
  if (!opt)
    sgf_tree_builder_options_init(&o);
  else if (sgf__copy_sized(&o, sizeof o, opt,
                           SGF__SIZE_UPTO(sgf_tree_builder_options,
                                          max_value_bytes)))
    return NULL;
  if (!o.parser)
    sgf_options_init(&po);
  else if (sgf__copy_sized(&po, sizeof po, o.parser,
                           SGF__SIZE_UPTO(sgf_options, allocator)))
    return NULL;
  if (cbg && sgf__copy_sized(&cbc, sizeof cbc, cbg,
                             SGF__SIZE_UPTO(sgf_tree_builder_callbacks,
                                            events)))
    return NULL;
  sgf_callbacks_init(&evc);
  if (cb && cb->events &&
      sgf__copy_sized(&evc, sizeof evc, cb->events,
                      SGF__SIZE_UPTO(sgf_callbacks, on_diagnostic)))
    return NULL;
  sgf__allocator_init(&a, po.allocator);
  b = sgf__malloc(&a, sizeof *b);
  if (!b) return NULL;
  memset(b, 0, sizeof *b);
  b->alloc = a;
  if (cb) {
    b->cb = *cb;
    if (cb->events) b->ev = evc;
    b->cb.events = NULL;
  }
  b->user = user;
  b->flags = o.flags;
  b->mainline = (po.flags & SGF_OPT_MAINLINE) != 0;
  b->max_nodes = o.max_nodes ? o.max_nodes : SGF_DEFAULT_MAX_NODES;
  if (b->max_nodes > SGF__MAX_NODES_CAP) b->max_nodes = SGF__MAX_NODES_CAP;
  b->max_bytes = o.max_tree_bytes ? o.max_tree_bytes
                                  : SGF_DEFAULT_MAX_TREE_BYTES;
  b->max_value_bytes =
      o.max_value_bytes ? o.max_value_bytes : SGF_DEFAULT_MAX_VALUE_BYTES;
  if (b->flags & SGF_TREE_COLLECT) {
    b->coll = sgf__collection_new(&a);
    if (!b->coll) goto failed;
  }
  if (!(b->flags & SGF_TREE_DETACHED)) {
    sgf_callbacks h = handlers;
    const sgf_callbacks *e = &b->ev;
    /* WHOLE VALUES: one call a value, unless a pass-through handler
     * wants the three events (with its on_value, the core calls those
     * three no more: neither do we) */
    if (e->on_value || (!e->on_value_begin && !e->on_value_data &&
                        !e->on_value_end)) {
      h.on_value = h_value;
      b->ev.on_value_begin = NULL;
      b->ev.on_value_data = NULL;
      b->ev.on_value_end = NULL;
    }
    if (!b->ev.on_value_end && !b->ev.on_property_end) {
      b->lazy = 1; /* see LEAN EVENTS */
      h.on_value_end = NULL;
      h.on_property_end = NULL;
    }
    /* DIRECT: no pass-through handler, and a value written in place is
     * always within max_value_bytes */
    b->direct_ok = b->lazy && !e->on_tree_begin && !e->on_tree_end &&
                   !e->on_node && !e->on_property && !e->on_value_begin &&
                   !e->on_value_data && !e->on_value &&
                   b->max_value_bytes >= sizeof(sgf_value) + DIRECT_BYTES;
    b->parser = sgf_parser_create(&h, b, &po);
    if (!b->parser) goto failed;
    if (event_state(b, b->parser) == &no_state) b->direct_ok = 0;
  }
  return b;
failed:
  sgf_tree_builder_destroy(b);
  return NULL;
}

int sgf_tree_builder_destroy(sgf_tree_builder *b) {
  sgf_allocator a;
  if (!b) return SGF_OK;
  /* inside on_game, or any callback of the builder's parser */
  if (b->delivering || sgf_parser_destroy(b->parser) != SGF_OK)
    return SGF_EBUSY;
  a = b->alloc;
  drop_game(b);
  sgf_collection_free(b->coll);
  sgf__blocks_free(&a, b->spare);
  sgf__free(&a, b->spare_tree, sizeof *b->spare_tree);
  sgf__free(&a, b->pp, b->ppcap * sizeof *b->pp);
  sgf__free(&a, b->vals, b->valcap * sizeof *b->vals);
  sgf__free(&a, b->sb, b->sbcap);
  sgf__free(&a, b->ix, b->ixcap * sizeof *b->ix);
  sgf__free(&a, b, sizeof *b);
  return SGF_OK;
}

sgf_parser *sgf_tree_builder_parser(sgf_tree_builder *b) { return b->parser; }

sgf_tree *sgf_tree_builder_keep(sgf_tree_builder *b) {
  if (!b->delivering || b->kept) return NULL;
  b->kept = 1;
  return b->delivering;
}

sgf_collection *sgf_tree_builder_collection_take(sgf_tree_builder *b) {
  sgf_collection *c, *fresh;
  if (!(b->flags & SGF_TREE_COLLECT)) return NULL;
  fresh = sgf__collection_new(&b->alloc);
  if (!fresh) return NULL;
  c = b->coll;
  b->coll = fresh;
  return c;
}

int sgf_tree_builder_reset(sgf_tree_builder *b) {
  if (b->delivering) return SGF_EBUSY;
  if (b->parser && sgf_parser_reset(b->parser) != SGF_OK) return SGF_EBUSY;
  drop_game(b);
  b->depth = 0;
  b->state = B_IDLE;
  if (b->coll) sgf__collection_clear(b->coll);
  return SGF_OK;
}
