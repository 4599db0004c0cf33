/* tree_build.c - the tree builder (sgfstream/tree.h): trees from events,
 * the general path (build_priv.h says how the builder is split).
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
 * NOTHING DERIVED. Nodes are linked in pre-order, each as the last child
 * of `cur`; their slots are their pre-order ids. The derived facts are
 * left to the first query (tree_derive.c). A node gets no last-child
 * link: when `cur` has children it is because a ')' climbed back to it,
 * and the climb stopped at its last child (b->lastc).
 *
 * The core's lenient stream is FF[4]-shaped (a tree-begin is followed by a
 * node), but the builder copes with any order: a game tree opened before
 * the enclosing one had a node gets an empty node first (as the core
 * would make it), an empty game tree adds nothing, a node after variations
 * becomes one more variation, and events outside a game tree are ignored.
 *
 * SCRATCH, THEN ONE ALLOCATION. A game is built in the arena of the
 * builder's scratch tree (build_priv.h, SCRATCH): a node is one piece of
 * it, the node (sgf__bnode), its property records, its value arrays and
 * their bytes (each value's raw bytes followed by a NUL), in that order;
 * a short value stays in its property record. Identifiers are codes:
 * one or two uppercase letters written as such (nearly all of them) need
 * nothing, others are interned in the tree. A property the parser never
 * ended (the handler skipped, the input stopped) is left out. When the
 * game ends tree_compact.c copies it into the tree's flat form, one
 * allocation of exactly its size, and the scratch is recycled.
 *
 * TWO PATHS. This file is the general path: one plain handler per event
 * (b_* below, then the pass-through), every node BUFFERED. build_fast.c
 * adds a fast path for the usual cases (DIRECT, inline fast handlers,
 * LEAVES) that hands everything else to these handlers.
 * SGF_TREE_GENERAL_ONLY keeps a builder on this path alone (a detached
 * one: sgf_tree_builder_handlers_of()); test/unit/tree_paths.c and
 * fuzz_tree_paths check that both build the same trees. The DIRECT bits here
 * (open_node, close_node, to_staged at the head of the b_* handlers) are how
 * the general path takes over a node the fast path began.
 *
 * BUFFERED. The node is read into the builder's buffers: its properties
 * (pp), their values (vals) and one byte buffer (sb) for their bytes and
 * identifier copies. When the node ends (at the next node or tree event)
 * they are copied into one arena allocation. The buffers are the
 * builder's and are reused for every node and game, so with one game at
 * a time the memory is bounded by the largest game.
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
 * BLOCKS AGAIN. The scratch's arena blocks go to the next game
 * (tree_arena.c, REUSE), up to SPARE_MAX bytes, so building a run of
 * games allocates nothing but each game's tree once the largest one has
 * been seen.
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

#include <stdlib.h>
#include <string.h>

#include "sized.h"
#include "build_priv.h"

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
  /* The scratch's blocks 8 KB from the first, where the arena's policy
   * (a quarter of the bytes its blocks hold, 2 KB at least) starts at
   * 2 KB: a game of a few hundred moves fills two or three, not seven
   * (a move run's CHAIN stops at each block's end). The policy counts
   * from there: rbytes sizes blocks and nothing else. */
  t->rbytes = 4 * 8192;
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
  sgf__facts_free(t);
  sgf__free(&b->alloc, t->idents, t->idents_cap * sizeof *t->idents);
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
 * from its begin). */
static uint64_t pending_bytes(const sgf_tree_builder *b) {
  return (uint64_t)b->sblen + b->in_value +
         (uint64_t)b->nvals * sizeof(sgf__tval) +
         (uint64_t)(b->npp + b->in_prop) * sizeof(sgf__prop) +
         (b->open ? sizeof(sgf__bnode) : 0);
}

/* room from scratch (after something buffered was let go). */
void sgf__tb_room_set(sgf_tree_builder *b) {
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
  b->root = b->cur = b->lastc = NULL;
  b->open = b->fresh = 0;
  b->direct = b->dstate = 0;
  b->npp = b->nvals = b->sblen = 0;
  b->in_prop = b->in_value = 0;
  b->c_props = b->c_vbytes = b->c_pos = b->c_bytes = b->c_nodes = 0;
}

/* Report a failure (SGF__ERR_* or ERR_VALUE) at the current event and drop
 * the game; returns the action for the core. */
int sgf__tb_fail(sgf_tree_builder *b, sgf_parser *p, int err) {
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
int sgf__tb_grow(sgf_tree_builder *b, void **buf, size_t *cap, size_t want,
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

/* fn first, so that fncap >= ixcap whatever fails (the fast path tests
 * ixcap alone). */
int sgf__tb_ix_grow(sgf_tree_builder *b, uint32_t id) {
  return sgf__tb_grow(b, (void **)&b->fn, &b->fncap, (size_t)id + 1,
                      sizeof *b->fn, 64) ||
         sgf__tb_grow(b, (void **)&b->ix, &b->ixcap, (size_t)id + 1,
                      sizeof *b->ix, 64);
}

/* ------------------------------------------------------------------ */
/* Properties and values of the open node                              */

/* The value being read is left out. */
static void drop_value(sgf_tree_builder *b) {
  b->sblen = b->vals[--b->nvals].off;
  b->in_value = 0;
  sgf__tb_room_set(b);
}

/* The property being read is left out. */
void sgf__tb_drop_prop(sgf_tree_builder *b) {
  if (b->direct) {
    b->dstate = 0;
    return;
  }
  b->sblen = b->psb;
  b->nvals = b->pfirst;
  b->in_prop = b->in_value = 0;
  sgf__tb_room_set(b);
}

/* ------------------------------------------------------------------ */
/* Nodes and game trees                                                */

/* A node begins (at the current event), as a child of cur: in place
 * (DIRECT) when that may be, else buffered. */
static int open_node(sgf_tree_builder *b, sgf_parser *p, int head) {
  sgf_tree *t = b->tree;
  uint64_t used = t->bytes + sizeof(sgf__bnode);
  if (t->nnodes >= t->max_nodes) return sgf__tb_fail(b, p, SGF__ERR_NODES);
  if (used > b->max_bytes) return sgf__tb_fail(b, p, SGF__ERR_BYTES);
  b->npp = b->nvals = b->sblen = 0;
  b->open_flags = head ? SGF__N_HEAD : 0;
  if (b->direct_ok) {
    sgf__bnode *n = sgf__tree_reserve(t, DIRECT_SIZE);
    if (!n) return sgf__tb_fail(b, p, t->err);
    b->dn = n;
    b->direct = 1;
    b->dstate = 0;
  } else {
    b->room = b->max_bytes - used;
    b->open_pos = EVENT_POS(p);
  }
  b->open = 1;
  return 0;
}

/* The open buffered node ends: one scratch allocation holds it, its
 * properties, their values and bytes, and it is linked. 0, or the action
 * after a failure. */
int sgf__tb_close_staged(sgf_tree_builder *b, sgf_parser *p) {
  sgf_tree *t = b->tree;
  const size_t k = b->npp, m = b->nvals;
  const uint32_t id = t->nnodes;
  const char *const sb = b->sb;
  const int keep = b->keep_pos;
  size_t size, nv = 0, nb = 0, i, j;
  sgf__bnode *n;
  sgf__prop *pr;
  sgf__tval *va;
  sgf_pos *pos = NULL;
  char *bytes, *mem;

  /* what goes out of line: every value with positions kept, else all
   * but a property's one value of at most SGF__P_INL_MAX bytes */
  for (i = 0; i < k; i++) {
    const sprop *sp = &b->pp[i];
    if (!keep && sp->nvalues == 1 && b->vals[sp->first].len <= SGF__P_INL_MAX)
      continue;
    nv += sp->nvalues;
    for (j = 0; j < sp->nvalues; j++) nb += b->vals[sp->first + j].len + 1;
  }
  size = sizeof(sgf__bnode) + k * sizeof(sgf__prop) + nv * sizeof(sgf__tval) +
         ((nb + 7) & ~(size_t)7);
  if (keep) /* the node's position, and per property a pointer to its
               identifier's and values' positions */
    size += (1 + k + m) * sizeof(sgf_pos) + k * sizeof(void *);
  if (ix_room(b, id)) return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
  mem = sgf__tree_alloc8(t, size);
  if (!mem) return sgf__tb_fail(b, p, t->err);
  b->open = 0;
  if (keep) { /* positions first, the node's just before the node */
    pos = (sgf_pos *)mem;
    pos[k + m] = b->open_pos;
    mem = (char *)(pos + 1 + k + m);
  }
  n = (sgf__bnode *)mem;
  pr = (sgf__prop *)(n + 1);
  va = (sgf__tval *)(pr + k);
  bytes = (char *)(va + nv) + (keep ? k * sizeof(void *) : 0);
  /* (indexed: pp and vals may still be NULL when k or m is 0, and NULL
   * + 0 is undefined) */
  for (i = 0; i < k; i++) {
    const sprop *sp = &b->pp[i];
    const sval *sv = &b->vals[sp->first];
    int code = sgf__code_intern(
        t, sp->ident ? sp->ident : sb + sp->ident_off, sp->ident_len,
        sp->raw ? sp->raw : sb + sp->raw_off, sp->raw_len);
    if (code < 0) return sgf__tb_fail(b, p, t->err);
    pr[i].code = (uint16_t)code;
    pr[i].nvalues = (uint32_t)sp->nvalues;
    if (!keep && sp->nvalues == 1 && sv->len <= SGF__P_INL_MAX) {
      pr[i].flags = (uint16_t)(SGF__P_INL | sv->len);
      memset(pr[i].u.inl, 0, sizeof pr[i].u.inl);
      if (sv->len) memcpy(pr[i].u.inl, sb + sv->off, sv->len);
      continue;
    }
    pr[i].flags = 0;
    if (keep) { /* the slot before the values: their positions */
      va = (sgf__tval *)((const sgf_pos **)(void *)va + 1);
      ((const sgf_pos **)(void *)va)[-1] = pos;
      pr[i].flags = SGF__P_POS;
      *pos++ = sp->pos;
    }
    pr[i].u.values = va;
    for (j = 0; j < sp->nvalues; j++, sv++, va++) {
      va->raw = bytes;
      va->len = sv->len;
      memcpy(bytes, sb + sv->off, sv->len + 1); /* with its NUL */
      bytes += sv->len + 1;
      if (keep) *pos++ = sv->pos;
    }
  }
  b->npp = b->nvals = b->sblen = 0; /* zero outside BUFFERED */
  link_node(b, t, n, id, b->open_flags | (keep ? BN_POS : 0), k ? pr : NULL, k,
            1);
  return 0;
}

/* The open node ends. */
COLD int close_node(sgf_tree_builder *b, sgf_parser *p) {
  return b->direct ? close_direct(b, p) : sgf__tb_close_staged(b, p);
}

/* Whatever of the open node is pending ends, and the node too. */
static inline int end_node(sgf_tree_builder *b, sgf_parser *p) {
  if (b->in_prop) end_pending(b);
  return b->open ? close_node(b, p) : 0;
}

static int finish_game(sgf_tree_builder *b, sgf_parser *p) {
  sgf_tree *t;
  int r = SGF_CONTINUE, err;
  if (!b->root) { /* a game tree without a node adds nothing */
    drop_game(b);
    b->state = B_IDLE;
    return SGF_CONTINUE;
  }
  if ((b->flags & SGF_TREE_COLLECT) && sgf__collection_reserve(b->coll))
    return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
  /* the game, from the scratch into a tree of its own (no derived facts:
   * the first query makes them, tree_derive.c) */
  t = sgf__tb_compact(b, &err);
  if (!t) return sgf__tb_fail(b, p, err);
  drop_game(b); /* the scratch's blocks wait for the next game */
  b->state = B_IDLE;
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
      return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
    }
    sgf__collection_push(b->coll, t);
  } else {
    sgf_tree_free(t);
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
    if (!b->tree) return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
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
  } else if (b->cur && b->depth > 0) {
    /* close the sequence: climb to its first node (HEAD); cur goes back
     * to that node's parent, whose last child it is (not at the game's
     * end: the game is finished, nothing more hangs on it; the climb
     * would walk its whole last sequence, the main line of most games) */
    sgf__bnode *n = b->cur;
    while (!(n->flags & SGF__N_HEAD) && n->parent) n = n->parent;
    b->lastc = n;
    b->cur = n->parent;
  }
  return b->depth == 0 ? finish_game(b, p) : SGF_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

/* Identifiers of one or two uppercase letters need no copy. */
const char sgf__tb_letters[] =
    "A\0B\0C\0D\0E\0F\0G\0H\0I\0J\0K\0L\0M\0N\0O\0P\0Q\0R\0S\0T\0U\0V\0W\0X\0Y"
    "\0Z";
#define L2(c)                                                               \
  c "A\0" c "B\0" c "C\0" c "D\0" c "E\0" c "F\0" c "G\0" c "H\0" c "I\0" c \
    "J\0" c "K\0" c "L\0" c "M\0" c "N\0" c "O\0" c "P\0" c "Q\0" c "R\0" c \
    "S\0" c "T\0" c "U\0" c "V\0" c "W\0" c "X\0" c "Y\0" c "Z\0"
const char sgf__tb_letters2[] =
    L2("A") L2("B") L2("C") L2("D") L2("E") L2("F") L2("G") L2("H") L2("I")
        L2("J") L2("K") L2("L") L2("M") L2("N") L2("O") L2("P") L2("Q") L2("R")
            L2("S") L2("T") L2("U") L2("V") L2("W") L2("X") L2("Y") L2("Z");
#undef L2

static int b_property(sgf_tree_builder *b, sgf_parser *p, const char *id,
                      size_t n) {
  size_t rn, copy;
  const char *raw, *ident = NULL;
  sprop *sp;
  int same, r;
  if (!b->building) return idle_action(b);
  if (b->direct && (r = sgf__tb_to_staged(b, p)) != 0) return r;
  if (b->in_prop) end_pending(b);
  if (!b->open) return SGF_CONTINUE; /* not in a node */
  raw = RAW_IDENT(p, &rn);
  if (n == 1 && upper(id[0]))
    ident = sgf__tb_letters + 2 * (id[0] - 'A');
  else if (n == 2 && upper(id[0]) && upper(id[1]))
    ident = sgf__tb_letters2 + 3 * (26 * (id[0] - 'A') + (id[1] - 'A'));
  same = rn == n && (raw == id || memcmp(raw, id, n) == 0);
  copy = (ident ? 0 : n + 1) + (same ? 0 : rn + 1);
  if (b->npp >= b->ppcap && sgf__tb_grow(b, (void **)&b->pp, &b->ppcap,
                                         b->npp + 1, sizeof *b->pp, 16))
    return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
  if (sizeof(sgf__prop) + copy > b->room || b->npp >= UINT32_MAX)
    return sgf__tb_fail(b, p, SGF__ERR_BYTES);
  if (copy && sb_room(b, copy)) return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
  b->room -= sizeof(sgf__prop) + copy;
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
  else if (n == 2 &&
           ((id[0] == 'P' && id[1] == 'L') || (id[0] == 'M' && id[1] == 'N') ||
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
  if (b->direct && (r = sgf__tb_to_staged(b, p)) != 0) return r;
  if (!b->in_prop) return b->building ? SGF_CONTINUE : idle_action(b);
  if (b->in_value) { /* lazy: the value ended; else it never did */
    if (b->lazy)
      end_value(b);
    else
      drop_value(b);
  }
  if (sizeof(sgf__val) > b->vroom) return sgf__tb_fail(b, p, ERR_VALUE);
  if (sizeof(sgf__tval) + 1 > b->room)
    return sgf__tb_fail(b, p, SGF__ERR_BYTES);
  if (b->nvals >= b->valcap && sgf__tb_grow(b, (void **)&b->vals, &b->valcap,
                                            b->nvals + 1, sizeof *b->vals, 16))
    return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
  if (sb_room(b, 1))
    return sgf__tb_fail(b, p, SGF__ERR_NOMEM); /* for the NUL */
  b->vroom -= sizeof(sgf__val);
  b->room -= sizeof(sgf__tval) + 1;
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
  if (b->direct && (r = sgf__tb_to_staged(b, p)) != 0) return r;
  if (!b->in_value) return b->building ? SGF_CONTINUE : idle_action(b);
  if (n > b->vroom) return sgf__tb_fail(b, p, ERR_VALUE);
  if (n > b->room) return sgf__tb_fail(b, p, SGF__ERR_BYTES);
  if (sb_room(b, n + 1)) return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
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

int sgf__tb_b_value_end(sgf_tree_builder *b, sgf_parser *p) {
  int r;
  if (b->direct && (r = sgf__tb_to_staged(b, p)) != 0) return r;
  if (!b->in_value) return b->building ? SGF_CONTINUE : idle_action(b);
  end_value(b);
  return SGF_CONTINUE;
}

static int b_property_end(sgf_tree_builder *b, sgf_parser *p) {
  int r;
  if (b->direct && (r = sgf__tb_to_staged(b, p)) != 0) return r;
  if (!b->in_prop) return b->building ? SGF_CONTINUE : idle_action(b);
  if (b->in_value) drop_value(b); /* a value never ended is left out */
  commit_prop(b);
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------------ */
/* The handlers: the builder first, then the pass-through              */

/* The stronger of two actions: abort > pause > skip > continue (the
 * actions' order). A value that is not an action wins, so that the core
 * refuses it (SGF_EACTION) instead of it passing for another. */
static int stronger(int a, int b) {
  if (!SGF__IS_ACTION(b)) return b;
  return b > a ? b : a;
}

/* After the pass-through answered: unless the core goes on (continue or
 * pause), the property in progress will never be ended. */
int sgf__tb_passed(sgf_tree_builder *b, int r, int mine) {
  r = stronger(mine, r);
  if (r != SGF_CONTINUE && r != SGF_PAUSE && b->in_prop) sgf__tb_drop_prop(b);
  return r;
}

COLD_EXTERN int sgf__tb_slow_tree_begin(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_tree_begin(b, p);
  if (r != SGF_ABORT && b->ev.on_tree_begin)
    r = sgf__tb_passed(b, b->ev.on_tree_begin(p, b->user), r);
  return r;
}

COLD_EXTERN int sgf__tb_slow_tree_end(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_tree_end(b, p);
  if (r != SGF_ABORT && b->ev.on_tree_end)
    r = sgf__tb_passed(b, b->ev.on_tree_end(p, b->user), r);
  return r;
}

COLD_EXTERN int sgf__tb_slow_node(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_node(b, p);
  if (r != SGF_ABORT && b->ev.on_node)
    r = sgf__tb_passed(b, b->ev.on_node(p, b->user), r);
  return r;
}

COLD_EXTERN int sgf__tb_slow_property(sgf_parser *p, void *u, const char *at,
                                      size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_property(b, p, at, n);
  if (r != SGF_ABORT && b->ev.on_property)
    r = sgf__tb_passed(b, b->ev.on_property(p, b->user, at, n), r);
  return r;
}

COLD_EXTERN int sgf__tb_slow_value_begin(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_value_begin(b, p);
  if (r != SGF_ABORT && b->ev.on_value_begin)
    r = sgf__tb_passed(b, b->ev.on_value_begin(p, b->user), r);
  return r;
}

COLD_EXTERN int sgf__tb_slow_value_data(sgf_parser *p, void *u, const char *at,
                                        size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_value_data(b, p, at, n);
  if (r != SGF_ABORT && b->ev.on_value_data)
    r = sgf__tb_passed(b, b->ev.on_value_data(p, b->user, at, n), r);
  return r;
}

int sgf__tb_h_value_end(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = sgf__tb_b_value_end(b, p);
  if (r != SGF_ABORT && b->ev.on_value_end)
    r = sgf__tb_passed(b, b->ev.on_value_end(p, b->user), r);
  return r;
}

int sgf__tb_h_property_end(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  int r = b_property_end(b, p);
  if (r != SGF_ABORT && b->ev.on_property_end)
    r = sgf__tb_passed(b, b->ev.on_property_end(p, b->user), r);
  return r;
}

int sgf__tb_h_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  sgf_tree_builder *b = BUILDER(u);
  return b->cb.on_diagnostic ? b->cb.on_diagnostic(p, b->user, d)
                             : SGF_CONTINUE;
}

/* Whole values for the general path, when a pass-through handler wants
 * them (the core then calls the three value events no more): a piece is
 * value-begin (FIRST), value-data (bytes) and value-end (LAST), as the
 * three events would be. */
static int general_value(sgf_parser *p, void *u, const char *at, size_t n,
                         unsigned flags) {
  sgf_tree_builder *b = BUILDER(u);
  int r = SGF_CONTINUE;
  if (flags & SGF_VALUE_FIRST) r = b_value_begin(b, p);
  if (r == SGF_CONTINUE && n) r = b_value_data(b, p, at, n);
  if (r == SGF_CONTINUE && (flags & SGF_VALUE_LAST))
    r = sgf__tb_b_value_end(b, p);
  if (r != SGF_ABORT && b->ev.on_value)
    r = sgf__tb_passed(b, b->ev.on_value(p, b->user, at, n, flags), r);
  return r;
}

/* The general path's handlers: one plain handler per event. */
const sgf_event_state sgf__tb_no_state;

static const sgf_callbacks general_handlers = {sizeof(sgf_callbacks),
                                               sgf__tb_slow_tree_begin,
                                               sgf__tb_slow_tree_end,
                                               sgf__tb_slow_node,
                                               sgf__tb_slow_property,
                                               sgf__tb_slow_value_begin,
                                               sgf__tb_slow_value_data,
                                               sgf__tb_h_value_end,
                                               sgf__tb_h_property_end,
                                               sgf__tb_h_diagnostic,
                                               NULL,
                                               NULL,
                                               NULL};

/* A detached builder's handlers are static tables: the fast path's, or
 * with SGF_TREE_GENERAL_ONLY the general path's. Neither takes whole
 * values (on_value): a pass-through handler sees the three value events,
 * as a detached builder always gave them. */
const sgf_callbacks *sgf_tree_builder_handlers(void) {
  return &sgf__tb_fast_handlers;
}

const sgf_callbacks *sgf_tree_builder_handlers_of(const sgf_tree_builder *b) {
  return b != NULL && b->general ? &general_handlers : &sgf__tb_fast_handlers;
}

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
  else if (sgf__copy_sized(
               &o, sizeof o, opt,
               SGF__SIZE_UPTO(sgf_tree_builder_options, max_value_bytes)))
    return NULL;
  if (!o.parser)
    sgf_options_init(&po);
  else if (sgf__copy_sized(&po, sizeof po, o.parser,
                           SGF__SIZE_UPTO(sgf_options, allocator)))
    return NULL;
  if (cbg &&
      sgf__copy_sized(&cbc, sizeof cbc, cbg,
                      SGF__SIZE_UPTO(sgf_tree_builder_callbacks, events)))
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
  b->keep_pos = (b->flags & SGF_TREE_POSITIONS) != 0;
  b->mainline = (po.flags & SGF_OPT_MAINLINE) != 0;
  b->max_nodes = o.max_nodes ? o.max_nodes : SGF_DEFAULT_MAX_NODES;
  if (b->max_nodes > SGF__MAX_NODES_CAP) b->max_nodes = SGF__MAX_NODES_CAP;
  b->max_bytes =
      o.max_tree_bytes ? o.max_tree_bytes : SGF_DEFAULT_MAX_TREE_BYTES;
  b->max_value_bytes =
      o.max_value_bytes ? o.max_value_bytes : SGF_DEFAULT_MAX_VALUE_BYTES;
  if (b->flags & SGF_TREE_COLLECT) {
    b->coll = sgf__collection_new(&a);
    if (!b->coll) goto failed;
  }
  /* the switch (build_priv.h): the builder's own flag, nothing else */
  b->general = (b->flags & SGF_TREE_GENERAL_ONLY) != 0;
  if (!(b->flags & SGF_TREE_DETACHED)) {
    sgf_callbacks h;
    if (b->general) {
      /* every event, the three value events (unless a pass-through
       * handler wants whole values), not lazy, never DIRECT */
      h = general_handlers;
      if (b->ev.on_value) h.on_value = general_value;
    } else {
      h = sgf__tb_fast_handlers;
      sgf__tb_fast_setup(b, &h);
    }
    b->parser = sgf_parser_create(&h, b, &po);
    if (!b->parser) goto failed;
    if (event_state(b, b->parser) == &sgf__tb_no_state) b->direct_ok = 0;
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
  sgf__free(&a, b->fn, b->fncap * sizeof *b->fn);
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
