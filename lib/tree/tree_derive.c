/* tree_derive.c - the facts derived from a tree's shape and moves.
 *
 * A node's own flags (does it hold a move, a PL, an MN, an HA >= 2) come
 * from its properties (sgf__node_scan). Everything that depends on the
 * path from the root (pre-order id, subtree size, child index, level,
 * ply, variation depth, move numbers, colour of the last move) follows
 * from the parent's and the previous sibling's facts (sgf__node_derive,
 * tree_internal.h). The builder applies it to each node as it links it;
 * after cursor edits, one pre-order walk (sgf__tree_refresh) that needs
 * no stack applies it to every node: it goes down through first children
 * and up through parents, and always sees a node's parent and previous
 * sibling before the node.
 */
#include <string.h>

#include "tree_internal.h"

int sgf__parse_int(const char *raw, size_t len, int64_t *out) {
  size_t i = 0;
  int neg = 0, digits = 0;
  uint64_t v = 0;
  while (i < len && (raw[i] == ' ' || raw[i] == '\t')) i++;
  if (i < len && (raw[i] == '+' || raw[i] == '-')) neg = raw[i++] == '-';
  while (i < len && raw[i] >= '0' && raw[i] <= '9') {
    if (v > ((uint64_t)INT64_MAX - 9) / 10) return 0;
    v = v * 10 + (uint64_t)(raw[i++] - '0');
    digits++;
  }
  while (i < len && (raw[i] == ' ' || raw[i] == '\t')) i++;
  if (!digits || i != len) return 0;
  *out = neg ? -(int64_t)v : (int64_t)v;
  return 1;
}

/* The colour a PL value names: B/b/1 black, W/w/2 white (first byte after
 * blanks; "Black", "white" work too). */
static unsigned pl_flag(const sgf__tval *v) {
  size_t i = 0;
  while (i < v->len && (v->raw[i] == ' ' || v->raw[i] == '\t')) i++;
  if (i == v->len) return 0;
  switch (v->raw[i]) {
    case 'B':
    case 'b':
    case '1':
      return SGF__N_PL_B;
    case 'W':
    case 'w':
    case '2':
      return SGF__N_PL_W;
    default:
      return 0;
  }
}

void sgf__node_scan(sgf_node *n) {
  uint32_t i, f = n->flags & ~(uint32_t)(SGF__N_MOVE | SGF__N_PL_B |
                                         SGF__N_PL_W | SGF__N_MN | SGF__N_HA2);
  int move = 0, pl = 0, mn = 0, ha = 0;
  for (i = 0; i < n->nprops; i++) {
    const sgf__prop *p = &n->props[i];
    const char *id = p->ident;
    if (p->nvalues == 0) continue;
    if (!move && (id[0] == 'B' || id[0] == 'W') && !id[1]) {
      f |= id[0] == 'B' ? SGF__N_BLACK : SGF__N_WHITE;
      move = 1;
    } else if (id[0] == 'P' && id[1] == 'L' && !id[2] && !pl) {
      f |= pl_flag(&p->values[0]);
      pl = 1;
    } else if (id[0] == 'M' && id[1] == 'N' && !id[2] && !mn) {
      int64_t k;
      if (sgf__parse_int(p->values[0].raw, p->values[0].len, &k))
        f |= SGF__N_MN;
      mn = 1;
    } else if (id[0] == 'H' && id[1] == 'A' && !id[2] && !ha) {
      int64_t k;
      if (sgf__parse_int(p->values[0].raw, p->values[0].len, &k) && k >= 2)
        f |= SGF__N_HA2;
      ha = 1;
    }
  }
  n->flags = f;
}

int64_t sgf__node_mn(const sgf_node *n) {
  uint32_t i;
  for (i = 0; i < n->nprops; i++) {
    const sgf__prop *p = &n->props[i];
    const char *id = p->ident;
    int64_t k = 0;
    if (p->nvalues > 0 && id[0] == 'M' && id[1] == 'N' && !id[2]) {
      sgf__parse_int(p->values[0].raw, p->values[0].len, &k);
      return k;
    }
  }
  return 0;
}

void sgf__tree_refresh(sgf_tree *t) {
  sgf_node *top = t->root, *n = top;
  uint32_t id = 0;
  int fill = t->index && t->index_cap >= t->nnodes;
  while (n) {
    sgf__node_derive(n);
    n->subtree = 1;
    n->id = id;
    if (fill) t->index[id] = n;
    id++;
    if (n->first_child) {
      n = n->first_child;
      continue;
    }
    /* leave n, and every ancestor whose last child we just left */
    for (;;) {
      if (n == top) {
        n = NULL;
        break;
      }
      n->parent->subtree += n->subtree;
      if (n->next) {
        n = n->next;
        break;
      }
      n = n->parent;
    }
  }
  t->index_ok = fill;
  t->dirty = 0;
}

int sgf__tree_index(sgf_tree *t) {
  if (!t->dirty && t->index_ok) return 0;
  if (t->index_cap < t->nnodes) {
    size_t cap = t->index_cap * 2 > t->nnodes ? t->index_cap * 2 : t->nnodes;
    /* an index in the arena stays there (and counted) until the tree goes */
    size_t old = t->index_arena ? 0 : t->index_cap * sizeof *t->index;
    uint64_t used = t->bytes - old;
    sgf_node **ix;
    if (cap > SIZE_MAX / sizeof *ix) return t->err = SGF__ERR_NOMEM;
    if (used > t->max_bytes || cap * sizeof *ix > t->max_bytes - used)
      return t->err = SGF__ERR_BYTES;
    ix = sgf__malloc(&t->alloc, cap * sizeof *ix);
    if (!ix) return t->err = SGF__ERR_NOMEM;
    if (!t->index_arena) sgf__free(&t->alloc, t->index, old);
    t->index = ix;
    t->index_cap = cap;
    t->index_arena = 0;
    t->bytes = t->bytes - old + cap * sizeof *ix;
  }
  sgf__tree_refresh(t);
  return 0;
}
