/* tree_edit.c - the cursor's edits that remove or move (sgfstream/tree.h):
 * delete a subtree, a property or a value; promote a line to the main
 * line; reparent a subtree.
 *
 * None allocates: arrays shrink in place (a node's property records and
 * a property's values are its own memory, in the tree's allocation or
 * the arena, and the room invariants of tree_cursor.c hold for any
 * smaller count), links are rewritten. So each
 * checks its arguments first and then cannot fail: a failed edit changes
 * nothing. A deleted subtree's memory stays in the arena until the tree
 * is freed (append-only); its nodes are marked as of no tree.
 */
#include <string.h>

#include "tree_internal.h"

/* Take n (not the root) out of its parent's children: O(children). */
static void unlink_node(sgf_tree *t, sgf_node *n) {
  sgf_node *p = sgf__node(t, n->parent), *prev = sgf__prev_sibling(n);
  if (prev)
    prev->next = n->next;
  else
    p->first_child = n->next;
  n->next = SGF__NONE;
  t->dirty = 1;
}

/* The number of children of p. */
static size_t child_count(const sgf_tree *t, const sgf_node *p) {
  size_t k = 0;
  uint32_t c;
  for (c = p->first_child; c != SGF__NONE; c = sgf__node(t, c)->next) k++;
  return k;
}

/* Link n as child number i of p (i <= its child count). */
static void link_at(sgf_tree *t, sgf_node *n, sgf_node *p, size_t i) {
  uint32_t *at = &p->first_child; /* n goes there */
  while (i-- > 0) at = &sgf__node(t, *at)->next;
  n->parent = sgf__id(p);
  n->next = *at;
  *at = sgf__id(n);
  t->dirty = 1;
}

int sgf_cursor_delete(sgf_cursor *c) {
  sgf_tree *t = c->tree;
  sgf_node *top = c->node, *n = top, *parent;
  uint32_t count = 0;
  if (top->parent == SGF__NONE) return SGF_EINVAL;
  parent = sgf__node(t, top->parent);
  unlink_node(t, top);
  /* pre-order over the subtree (iterative): count it, then mark it (the
   * walk reads links only, marks change none) */
  while (n) {
    count++;
    if (n->first_child != SGF__NONE) {
      n = sgf__node(t, n->first_child);
      continue;
    }
    while (n != top && n->next == SGF__NONE) n = sgf__node(t, n->parent);
    n = n == top ? NULL : sgf__node(t, n->next);
  }
  for (n = top; n;) {
    sgf_node *next;
    if (n->first_child != SGF__NONE) {
      next = sgf__node(t, n->first_child);
    } else {
      const sgf_node *m = n;
      while (m != top && m->next == SGF__NONE) m = sgf__node(t, m->parent);
      next = m == top ? NULL : sgf__node(t, m->next);
    }
    n->flags |= SGF__N_DEL;
    n = next;
  }
  t->nnodes -= count;
  c->node = parent;
  c->variation_next = 0;
  return SGF_OK;
}

/* Remove property i of n, in whichever form n keeps them (nothing
 * allocated). */
static void prop_remove(sgf_tree *t, sgf_node *n, uint32_t i) {
  uint32_t k = sgf__nprops(t, n);
  if (n->flags & SGF__N_ONE) { /* its one property */
    n->flags &= (uint16_t) ~(SGF__N_ONE | SGF__N_LEN);
    n->code = 0;
    return;
  }
  memmove(sgf__props(t, n) + i, sgf__props(t, n) + i + 1,
          (k - i - 1) * sizeof(sgf__prop));
  if (n->flags & SGF__N_EXT)
    t->ext[n->u.props].nprops--;
  else if (n->code == SGF__NPROPS_BIG)
    t->props0[n->u.props - 1].nvalues--;
  else
    n->code--;
}

int sgf_cursor_delete_prop(sgf_cursor *c, const char *ident) {
  sgf_tree *t = c->tree;
  sgf_node *n = c->node;
  long i = ident ? sgf__node_find(t, n, ident) : -1;
  if (i < 0) return SGF_EINVAL;
  prop_remove(t, n, (uint32_t)i);
  sgf__node_touched(t, n);
  return SGF_OK;
}

int sgf_cursor_delete_value(sgf_cursor *c, const char *ident, size_t i) {
  sgf_tree *t = c->tree;
  sgf_node *n = c->node;
  long j = ident ? sgf__node_find(t, n, ident) : -1;
  sgf__prop tmp, *p;
  sgf__tval *v;
  if (j < 0) return SGF_EINVAL;
  p = (sgf__prop *)sgf__prop_at(t, n, (uint32_t)j, &tmp);
  if (i >= p->nvalues) return SGF_EINVAL;
  if (p->nvalues == 1) {
    prop_remove(t, n, (uint32_t)j);
  } else {
    /* (more than one value: an array, memory ours to change) */
    v = (sgf__tval *)p->u.values;
    memmove(v + i, v + i + 1, (p->nvalues - i - 1) * sizeof *v);
    if (p->flags & SGF__P_POS) { /* kept positions: pos[1 + i] is value i's */
      sgf_pos *pos = (sgf_pos *)SGF__P_POSV(p);
      memmove(pos + 1 + i, pos + 2 + i, (p->nvalues - i - 1) * sizeof *pos);
    }
    p->nvalues--;
  }
  sgf__node_touched(t, n);
  return SGF_OK;
}

int sgf_cursor_promote(sgf_cursor *c) {
  sgf_tree *t = c->tree;
  sgf_node *n, *p;
  for (n = c->node; n->parent != SGF__NONE; n = p) {
    p = sgf__node(t, n->parent);
    if (p->first_child != sgf__id(n)) {
      unlink_node(t, n);
      link_at(t, n, p, 0);
    }
  }
  return SGF_OK;
}

int sgf_cursor_reparent(sgf_cursor *c, const sgf_node *new_parent,
                        size_t index) {
  sgf_tree *t = c->tree;
  sgf_node *n = c->node, *p = (sgf_node *)new_parent;
  const sgf_node *a;
  size_t count;
  if (n->parent == SGF__NONE || !p || sgf__tree_of(p) != t) return SGF_EINVAL;
  for (a = p; a; a = sgf__node(t, a->parent)) /* not into its own subtree */
    if (a == n) return SGF_EINVAL;
  count = child_count(t, p) - (n->parent == sgf__id(p));
  if (index > count) return SGF_EINVAL;
  unlink_node(t, n);
  link_at(t, n, p, index);
  c->variation_next = 0;
  return SGF_OK;
}
