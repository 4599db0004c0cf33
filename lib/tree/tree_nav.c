/* tree_nav.c - reading a tree: structure, derived facts, properties,
 * iterators, points. Nothing here allocates (but sgf_tree_node_at after
 * an edit) and nothing recurses; derived facts are refreshed first when a
 * cursor changed the tree (sgf__fresh).
 */
#include <string.h>

#include "tree_internal.h"

/* ------------------------------------------------------------------ */
/* Trees                                                               */

const sgf_node *sgf_tree_root(const sgf_tree *t) { return t->root; }

size_t sgf_tree_node_count(const sgf_tree *t) { return t->nnodes; }

uint64_t sgf_tree_byte_count(const sgf_tree *t) { return t->bytes; }

/* Node i found from the root through the subtree sizes (fresh), when
 * there is no index: O(children along the path). */
static const sgf_node *node_at_walk(const sgf_tree *t, size_t i) {
  const sgf_node *n = t->root;
  while (n->id != i) {
    const sgf_node *c = n->first_child;
    while (c->next && c->next->id <= i) c = c->next;
    n = c;
  }
  return n;
}

const sgf_node *sgf_tree_node_at(const sgf_tree *t, size_t i) {
  sgf_tree *m = (sgf_tree *)t; /* the index is a cache */
  if (i >= t->nnodes) return NULL;
  if ((t->dirty || !t->index_ok) && sgf__tree_index(m) != 0) {
    /* no room for the index (memory, max_tree_bytes): the slow way */
    if (t->dirty) sgf__tree_refresh(m);
    return node_at_walk(t, i);
  }
  return t->index[i];
}

/* ------------------------------------------------------------------ */
/* Structure                                                           */

sgf_tree *sgf_node_tree(const sgf_node *n) { return n->tree; }
const sgf_node *sgf_node_root(const sgf_node *n) { return n->tree->root; }
const sgf_node *sgf_node_parent(const sgf_node *n) { return n->parent; }
const sgf_node *sgf_node_first_child(const sgf_node *n) {
  return n->first_child;
}
const sgf_node *sgf_node_last_child(const sgf_node *n) { return n->last_child; }
const sgf_node *sgf_node_next_sibling(const sgf_node *n) { return n->next; }
const sgf_node *sgf_node_prev_sibling(const sgf_node *n) { return n->prev; }
size_t sgf_node_child_count(const sgf_node *n) { return n->nchildren; }

const sgf_node *sgf_node_child(const sgf_node *n, size_t i) {
  const sgf_node *c;
  size_t k;
  if (i >= n->nchildren) return NULL;
  if (i <= n->nchildren / 2) {
    for (c = n->first_child; i > 0; i--) c = c->next;
  } else {
    for (c = n->last_child, k = n->nchildren - 1 - i; k > 0; k--) c = c->prev;
  }
  return c;
}

size_t sgf_node_child_index(const sgf_node *n) {
  sgf__fresh(n);
  return n->child_index;
}

size_t sgf_node_index(const sgf_node *n) {
  sgf__fresh(n);
  return n->id;
}

size_t sgf_node_subtree_size(const sgf_node *n) {
  sgf__fresh(n);
  return n->subtree;
}

size_t sgf_node_tree_depth(const sgf_node *n) {
  sgf__fresh(n);
  return n->level;
}

size_t sgf_node_ply(const sgf_node *n) {
  sgf__fresh(n);
  return n->ply;
}

size_t sgf_node_variation_depth(const sgf_node *n) {
  sgf__fresh(n);
  return n->depth;
}

int sgf_node_is_mainline(const sgf_node *n) {
  return sgf_node_variation_depth(n) == 0;
}
int sgf_node_is_variation(const sgf_node *n) {
  return sgf_node_variation_depth(n) > 0;
}
int sgf_node_is_initial(const sgf_node *n) { return n->parent == NULL; }
int sgf_node_is_terminal(const sgf_node *n) { return n->first_child == NULL; }

int sgf_node_is_ancestor(const sgf_node *a, const sgf_node *b) {
  if (a->tree != b->tree) return 0;
  sgf__fresh(a);
  /* pre-order: a's subtree is the id range [a->id, a->id + subtree) */
  return a->id <= b->id && b->id - a->id < a->subtree;
}

int sgf_node_is_descendant(const sgf_node *a, const sgf_node *b) {
  return sgf_node_is_ancestor(b, a);
}

const sgf_node *sgf_node_lca(const sgf_node *a, const sgf_node *b) {
  if (a->tree != b->tree) return NULL;
  if (sgf_node_is_ancestor(a, b)) return a;
  if (sgf_node_is_ancestor(b, a)) return b;
  while (a->level > b->level) a = a->parent;
  while (b->level > a->level) b = b->parent;
  while (a != b) {
    a = a->parent;
    b = b->parent;
  }
  return a;
}

size_t sgf_node_distance(const sgf_node *a, const sgf_node *b) {
  const sgf_node *c = sgf_node_lca(a, b);
  if (!c) return SIZE_MAX;
  return (size_t)(a->ply - c->ply) + (size_t)(b->ply - c->ply);
}

sgf_pos sgf_node_pos(const sgf_node *n) {
  static const sgf_pos none;
  return n->pos ? *n->pos : none;
}

/* ------------------------------------------------------------------ */
/* Game facts                                                          */

/* The node's first B or W property (with a value), or NULL. */
static const sgf__prop *move_prop(const sgf_node *n) {
  uint32_t i;
  for (i = 0; i < n->nprops; i++) {
    const sgf__prop *p = &n->props[i];
    if ((p->ident[0] == 'B' || p->ident[0] == 'W') && !p->ident[1] &&
        p->nvalues > 0)
      return p;
  }
  return NULL;
}

const sgf__tval *sgf__node_move_value(const sgf_node *n) {
  const sgf__prop *p;
  if (!(n->flags & SGF__N_MOVE)) return NULL;
  p = move_prop(n);
  return p ? &p->values[0] : NULL;
}

sgf_color sgf_node_move(const sgf_node *n, sgf_value_view *value) {
  if (value) {
    const sgf__prop *p = (n->flags & SGF__N_MOVE) ? move_prop(n) : NULL;
    if (p) {
      sgf_prop_view pv = sgf__prop_view(p);
      *value = sgf_prop_value(&pv, 0);
    } else {
      static const sgf_value_view none;
      *value = none;
    }
  }
  if (!(n->flags & SGF__N_MOVE)) return SGF_COLOR_NONE;
  return (n->flags & SGF__N_BLACK) ? SGF_COLOR_BLACK : SGF_COLOR_WHITE;
}

int64_t sgf_node_move_number(const sgf_node *n) {
  sgf__fresh(n);
  return n->movenum;
}

sgf_color sgf_node_to_play(const sgf_node *n) {
  sgf__fresh(n);
  if (n->flags & SGF__N_PL_B) return SGF_COLOR_BLACK;
  if (n->flags & SGF__N_PL_W) return SGF_COLOR_WHITE;
  if (n->flags & SGF__N_LAST_B) return SGF_COLOR_WHITE;
  if (n->flags & SGF__N_LAST_W) return SGF_COLOR_BLACK;
  return (n->tree->root->flags & SGF__N_HA2) ? SGF_COLOR_WHITE
                                             : SGF_COLOR_BLACK;
}

/* ------------------------------------------------------------------ */
/* Properties                                                          */

size_t sgf_node_prop_count(const sgf_node *n) { return n->nprops; }

sgf_prop_view sgf_node_prop(const sgf_node *n, size_t i) {
  return sgf__prop_view(i < n->nprops ? &n->props[i] : NULL);
}

sgf__prop *sgf__node_find(const sgf_node *n, const char *ident) {
  uint32_t i;
  for (i = 0; i < n->nprops; i++) {
    sgf__prop *p = &n->props[i];
    if (strcmp(p->ident, ident) == 0) return p;
  }
  return NULL;
}

sgf_prop_view sgf_node_find_prop(const sgf_node *n, const char *ident) {
  return sgf__prop_view(sgf__node_find(n, ident));
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
  if (r->first_child) {
    s = r->first_child;
  } else if (it->mode == ITER_MAINLINE) {
    s = NULL;
  } else {
    for (s = r; s != it->top && !s->next; s = s->parent) {
    }
    s = s == it->top ? NULL : s->next;
  }
  it->next = s;
  return r;
}

/* ------------------------------------------------------------------ */
/* Points                                                              */

int sgf_point_encode(int x, int y, char out[2]) {
  if (x == SGF_PASS || y == SGF_PASS) return 0;
  if (x < 0 || x > 51 || y < 0 || y > 51) return SGF_EINVAL;
  out[0] = (char)(x < 26 ? 'a' + x : 'A' + (x - 26));
  out[1] = (char)(y < 26 ? 'a' + y : 'A' + (y - 26));
  return 2;
}

static int letter(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}

int sgf_point_decode(const char *raw, size_t len, int *x, int *y) {
  int a, b;
  if (len == 0) {
    *x = *y = SGF_PASS;
    return SGF_OK;
  }
  if (len != 2) return SGF_EINVAL;
  a = letter(raw[0]);
  b = letter(raw[1]);
  if (a < 0 || b < 0) return SGF_EINVAL;
  *x = a;
  *y = b;
  return SGF_OK;
}
