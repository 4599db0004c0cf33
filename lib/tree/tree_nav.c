/* tree_nav.c - reading a tree: structure, derived facts, properties,
 * iterators, points. Nothing recurses; the derived facts come from the
 * arrays tree_derive.c makes on first use (the only allocation here), or
 * by walking when they cannot be made.
 */
#include <string.h>

#include "tree_internal.h"

/* ------------------------------------------------------------------ */
/* Trees                                                               */

const sgf_node *sgf_tree_root(const sgf_tree *t) { return sgf__root(t); }

size_t sgf_tree_node_count(const sgf_tree *t) { return t->nnodes; }

uint64_t sgf_tree_byte_count(const sgf_tree *t) { return t->bytes; }

/* Without the derived arrays (memory, max_tree_bytes) every query
 * walks: the functions below named slow_* give the same answers in
 * O(path) or O(n). */

/* The next node in pre-order within top's subtree, or NULL. */
static const sgf_node *preorder_next(const sgf_node *top, const sgf_node *n) {
  const sgf_tree *t = sgf__tree_any(n);
  if (n->first_child != SGF__NONE) return sgf__node(t, n->first_child);
  while (n != top && n->next == SGF__NONE) n = sgf__node(t, n->parent);
  return n == top ? NULL : sgf__node(t, n->next);
}

const sgf_node *sgf_tree_node_at(const sgf_tree *t, size_t i) {
  const sgf_node *n;
  if (i >= t->nnodes) return NULL;
  n = sgf__index_at(t, i);
  if (n) return n;
  for (n = sgf__root(t); i > 0; i--) n = preorder_next(sgf__root(t), n);
  return n;
}

/* ------------------------------------------------------------------ */
/* Structure                                                           */

sgf_tree *sgf_node_tree(const sgf_node *n) { return sgf__tree_of(n); }
const sgf_node *sgf_node_root(const sgf_node *n) {
  return sgf__root(sgf__tree_any(n));
}
const sgf_node *sgf_node_parent(const sgf_node *n) {
  return sgf__node(sgf__tree_any(n), n->parent);
}
const sgf_node *sgf_node_first_child(const sgf_node *n) {
  return sgf__node(sgf__tree_any(n), n->first_child);
}
const sgf_node *sgf_node_last_child(const sgf_node *n) {
  return sgf__last_child(n);
}
const sgf_node *sgf_node_next_sibling(const sgf_node *n) {
  return sgf__node(sgf__tree_any(n), n->next);
}
const sgf_node *sgf_node_prev_sibling(const sgf_node *n) {
  return sgf__prev_sibling(n);
}
size_t sgf_node_child_count(const sgf_node *n) {
  const sgf_tree *t = sgf__tree_any(n);
  size_t k = 0;
  uint32_t c;
  for (c = n->first_child; c != SGF__NONE; c = sgf__node(t, c)->next) k++;
  return k;
}

const sgf_node *sgf_node_child(const sgf_node *n, size_t i) {
  const sgf_tree *t = sgf__tree_any(n);
  const sgf_node *c = sgf__node(t, n->first_child);
  for (; c && i > 0; i--) c = sgf__node(t, c->next);
  return c;
}

size_t sgf_node_child_index(const sgf_node *n) {
  const sgf__facts *f = sgf__facts_of(n);
  const sgf_node *c;
  size_t k = 0;
  if (f) return f->child_index;
  if (n->parent == SGF__NONE) return 0;
  for (c = sgf_node_first_child(sgf_node_parent(n)); c != n;
       c = sgf_node_next_sibling(c))
    k++;
  return k;
}

size_t sgf_node_index(const sgf_node *n) {
  const sgf__facts *f = sgf__facts_of(n);
  const sgf_node *top = sgf__root(sgf__tree_any(n)), *m = top;
  size_t k = 0;
  if (f) return f->id;
  while (m != n) {
    m = preorder_next(top, m);
    k++;
  }
  return k;
}

size_t sgf_node_id(const sgf_node *n) { return sgf__id(n); }

size_t sgf_tree_id_limit(const sgf_tree *t) { return t->nslots; }

size_t sgf_node_subtree_size(const sgf_node *n) {
  const sgf__facts *f = sgf__facts_of(n);
  const sgf_node *m = n;
  size_t k = 0;
  if (f) return f->subtree;
  for (; m; m = preorder_next(n, m)) k++;
  return k;
}

size_t sgf_node_tree_depth(const sgf_node *n) {
  const sgf__facts *f = sgf__facts_of(n);
  size_t k = 0;
  if (f) return f->level;
  for (; n->parent != SGF__NONE; n = sgf_node_parent(n)) k++;
  return k;
}

size_t sgf_node_ply(const sgf_node *n) {
  const sgf__facts *f = sgf__facts_of(n);
  size_t k = 0;
  if (f) return f->ply;
  for (; n; n = sgf_node_parent(n)) k += (n->flags & SGF__N_MOVE) != 0;
  return k;
}

size_t sgf_node_variation_depth(const sgf_node *n) {
  const sgf__facts *f = sgf__facts_of(n);
  size_t k = 0;
  if (f) return f->depth;
  for (; n->parent != SGF__NONE; n = sgf_node_parent(n))
    k += sgf_node_parent(n)->first_child != sgf__id(n);
  return k;
}

int sgf_node_is_mainline(const sgf_node *n) {
  return sgf_node_variation_depth(n) == 0;
}
int sgf_node_is_variation(const sgf_node *n) {
  return sgf_node_variation_depth(n) > 0;
}
int sgf_node_is_initial(const sgf_node *n) { return n->parent == SGF__NONE; }
int sgf_node_is_terminal(const sgf_node *n) {
  return n->first_child == SGF__NONE;
}

int sgf_node_is_ancestor(const sgf_node *a, const sgf_node *b) {
  const sgf__facts *fa, *fb;
  if (sgf__tree_of(a) != sgf__tree_of(b)) return 0;
  fa = sgf__facts_of(a);
  if (!fa) {
    for (; b; b = sgf_node_parent(b))
      if (b == a) return 1;
    return 0;
  }
  fb = &sgf__tree_any(a)->facts[sgf__id(b)];
  /* pre-order: a's subtree is the id range [a->id, a->id + subtree) */
  return fa->id <= fb->id && fb->id - fa->id < fa->subtree;
}

int sgf_node_is_descendant(const sgf_node *a, const sgf_node *b) {
  return sgf_node_is_ancestor(b, a);
}

const sgf_node *sgf_node_lca(const sgf_node *a, const sgf_node *b) {
  size_t la, lb;
  if (sgf__tree_of(a) != sgf__tree_of(b)) return NULL;
  if (sgf_node_is_ancestor(a, b)) return a;
  if (sgf_node_is_ancestor(b, a)) return b;
  la = sgf_node_tree_depth(a);
  lb = sgf_node_tree_depth(b);
  for (; la > lb; la--) a = sgf_node_parent(a);
  for (; lb > la; lb--) b = sgf_node_parent(b);
  while (a != b) {
    a = sgf_node_parent(a);
    b = sgf_node_parent(b);
  }
  return a;
}

size_t sgf_node_distance(const sgf_node *a, const sgf_node *b) {
  const sgf_node *c = sgf_node_lca(a, b);
  size_t pc;
  if (!c) return SIZE_MAX;
  pc = sgf_node_ply(c);
  return (sgf_node_ply(a) - pc) + (sgf_node_ply(b) - pc);
}

sgf_pos sgf_node_pos(const sgf_node *n) {
  static const sgf_pos none;
  const sgf_tree *t = sgf__tree_any(n);
  uint32_t id = sgf__id(n);
  return t->npos && id < t->n0 ? t->npos[id] : none;
}

/* ------------------------------------------------------------------ */
/* Game facts                                                          */

/* The node's first B or W property (with a value), or NULL. */
static long move_prop(const sgf_tree *t, const sgf_node *n) {
  uint32_t i, k = sgf__nprops(t, n);
  for (i = 0; i < k; i++) {
    sgf__prop tmp;
    const sgf__prop *p = sgf__prop_at(t, n, i, &tmp);
    const char *id = sgf__code_ident(t, p->code);
    if ((id[0] == 'B' || id[0] == 'W') && !id[1] && p->nvalues > 0)
      return (long)i;
  }
  return -1;
}

int sgf__node_move_value(const sgf_node *n, sgf__tval *v) {
  const sgf_tree *t = sgf__tree_any(n);
  long i;
  sgf_prop_view pv;
  sgf_value_view vv;
  if (!(n->flags & SGF__N_MOVE)) return 0;
  if ((i = move_prop(t, n)) < 0) return 0;
  pv = sgf__node_view(t, n, (uint32_t)i);
  vv = sgf_prop_value(&pv, 0);
  v->raw = vv.raw;
  v->len = vv.len;
  return 1;
}

sgf_color sgf_node_move(const sgf_node *n, sgf_value_view *value) {
  if (value) {
    const sgf_tree *t = sgf__tree_any(n);
    long i = (n->flags & SGF__N_MOVE) ? move_prop(t, n) : -1;
    if (i >= 0) {
      sgf_prop_view pv = sgf__node_view(t, n, (uint32_t)i);
      *value = sgf_prop_value(&pv, 0);
    } else {
      static const sgf_value_view none;
      *value = none;
    }
  }
  if (!(n->flags & SGF__N_MOVE)) return SGF_COLOR_NONE;
  return (n->flags & SGF__N_BLACK) ? SGF_COLOR_BLACK : SGF_COLOR_WHITE;
}

sgf_color sgf_node_move_raw(const sgf_node *n, const char **raw, size_t *len) {
  uint32_t f = n->flags;
  sgf_value_view v;
  sgf_color c;
  if ((f & SGF__N_MOVE) && (f & SGF__N_ONE)) { /* the move inline */
    if (raw) *raw = n->u.inl;
    if (len) *len = (f & SGF__N_LEN) >> SGF__N_LEN_SHIFT;
    return (f & SGF__N_BLACK) ? SGF_COLOR_BLACK : SGF_COLOR_WHITE;
  }
  c = sgf_node_move(n, &v); /* the rest: through the view */
  if (raw) *raw = v.raw;
  if (len) *len = v.len;
  return c;
}

/* (sgf_node_line reads the colour from the flags' bits) */
_Static_assert(SGF__N_BLACK == 1 && SGF__N_WHITE == 2 && SGF_COLOR_BLACK == 1 &&
                   SGF_COLOR_WHITE == 2,
               "move flags are the colours");

size_t sgf_node_line(const sgf_node *n, sgf_line_node *out, size_t cap,
                     const sgf_node **rest) {
  size_t k = 0;
  if (n && cap > 0) {
    const sgf_tree *t = sgf__tree_any(n);
    const sgf_node *const base = sgf__root(t);
    const uint32_t n0 = t->n0;
    /* a node's first child is an id: the next node's, found once */
    uint32_t id = sgf__id(n);
    for (;;) {
      sgf_line_node *e = out + k++;
      const uint32_t f = n->flags;
      e->node = n;
      e->id = id;
      /* ONE and a move bit, in one test: the move inline */
      if ((f & (SGF__N_MOVE | SGF__N_ONE)) > SGF__N_ONE) {
        /* (SGF__N_BLACK is 1: SGF_COLOR_WHITE less it is the colour) */
        e->nprops = 1;
        e->move = (sgf_color)(SGF_COLOR_WHITE - (f & SGF__N_BLACK));
        e->raw = n->u.inl;
        e->len = (f & SGF__N_LEN) >> SGF__N_LEN_SHIFT;
      } else {
        e->nprops = sgf__nprops(t, n);
        e->move = sgf_node_move_raw(n, &e->raw, &e->len);
      }
      id = n->first_child;
      /* chunk 0 (the nodes as built) first: sgf__node's usual case,
       * never NULL */
      if (id < n0) {
        n = base + id;
        if (k == cap) break;
      } else if (!(n = sgf__node(t, id)) || k == cap) {
        break;
      }
    }
  }
  if (rest) *rest = n;
  return k;
}

static int64_t sat_add(int64_t a, uint64_t k) {
  return (uint64_t)(INT64_MAX - a) < k ? INT64_MAX : a + (int64_t)k;
}

/* The move number without the arrays: from the last move on the path up
 * to the nearest MN (or the root), counting moves. */
static int64_t slow_move_number(const sgf_node *n) {
  uint64_t k = 0; /* moves from m (included) down to n's last move */
  while (n && !(n->flags & SGF__N_MOVE)) n = sgf_node_parent(n);
  if (!n) return 0;
  for (; n; n = sgf_node_parent(n)) {
    const sgf_tree *t = sgf__tree_any(n);
    if (n->flags & SGF__N_MOVE) {
      if (n->flags & SGF__N_MN) return sat_add(sgf__node_mn(t, n), k);
      k++;
    } else if (n->flags & SGF__N_MN) {
      return sat_add(sgf__node_mn(t, n), k - 1);
    }
  }
  return k > INT64_MAX ? INT64_MAX : (int64_t)k;
}

int64_t sgf_node_move_number(const sgf_node *n) {
  const sgf__facts *f = sgf__facts_of(n);
  return f ? f->movenum : slow_move_number(n);
}

sgf_color sgf_node_to_play(const sgf_node *n) {
  const sgf__facts *f;
  uint32_t last;
  if (n->flags & SGF__N_PL_B) return SGF_COLOR_BLACK;
  if (n->flags & SGF__N_PL_W) return SGF_COLOR_WHITE;
  f = sgf__facts_of(n);
  if (f) {
    last = f->last;
  } else {
    const sgf_node *m = n;
    while (m && !(m->flags & SGF__N_MOVE)) m = sgf_node_parent(m);
    last = m ? m->flags & SGF__N_MOVE : 0;
  }
  if (last & SGF__N_BLACK) return SGF_COLOR_WHITE;
  if (last & SGF__N_WHITE) return SGF_COLOR_BLACK;
  return (sgf_node_root(n)->flags & SGF__N_HA2) ? SGF_COLOR_WHITE
                                                : SGF_COLOR_BLACK;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

size_t sgf_node_prop_count(const sgf_node *n) {
  return sgf__nprops(sgf__tree_any(n), n);
}

sgf_prop_view sgf_node_prop(const sgf_node *n, size_t i) {
  const sgf_tree *t = sgf__tree_any(n);
  if (i >= sgf__nprops(t, n)) return sgf__view(t, NULL);
  return sgf__node_view(t, n, (uint32_t)i);
}

long sgf__node_find(const sgf_tree *t, const sgf_node *n, const char *ident) {
  uint32_t i, k = sgf__nprops(t, n);
  int code = sgf__code_static(ident, strlen(ident));
  const sgf__prop *pr;
  sgf__prop tmp;
  if (k == 0) return -1;
  /* the records found once (ONE: its copy, of the one property) */
  pr = (n->flags & SGF__N_ONE) ? sgf__prop_at(t, n, 0, &tmp) : sgf__props(t, n);
  for (i = 0; i < k; i++)
    if (sgf__prop_is(t, &pr[i], ident, code)) return (long)i;
  return -1;
}

sgf_prop_view sgf_node_find_prop(const sgf_node *n, const char *ident) {
  const sgf_tree *t = sgf__tree_any(n);
  long i = sgf__node_find(t, n, ident);
  return i < 0 ? sgf__view(t, NULL) : sgf__node_view(t, n, (uint32_t)i);
}

/* ------------------------------------------------------------------ */
/* Iterators                                                           */

enum { ITER_PREORDER, ITER_MAINLINE };

void sgf_node_iter_preorder_init(sgf_node_iter *it, const sgf_node *n) {
  it->top = n;
  it->next = n;
  it->mode = ITER_PREORDER;
}

void sgf_node_iter_mainline_init(sgf_node_iter *it, const sgf_node *n) {
  it->top = n;
  it->next = n;
  it->mode = ITER_MAINLINE;
}

const sgf_node *sgf_node_iter_next(sgf_node_iter *it) {
  const sgf_node *r = it->next, *s;
  if (!r) return NULL;
  if (it->mode == ITER_MAINLINE)
    s = sgf_node_first_child(r);
  else
    s = preorder_next(it->top, r);
  it->next = s;
  return r;
}
