/* tree_edit.c - the cursor's edits that remove or move (sgfstream/tree.h):
 * delete a subtree, a property or a value; promote a line to the main
 * line; reparent a subtree.
 *
 * None allocates: arrays shrink in place (a node's properties and a
 * property's values are its own arena memory, and the room invariants of
 * tree_cursor.c hold for any smaller count), links are rewritten. So each
 * checks its arguments first and then cannot fail: a failed edit changes
 * nothing. A deleted subtree's memory stays in the arena until the tree
 * is freed (append-only); its nodes are marked as of no tree.
 */
#include <string.h>

#include "tree_internal.h"

/* Take n (not the root) out of its parent's children: O(children). */
static void unlink_node(sgf_tree *t, sgf_node *n) {
  sgf_node *p = n->parent, *prev = sgf__prev_sibling(n);
  if (prev)
    prev->next = n->next;
  else
    p->first_child = n->next;
  n->next = NULL;
  p->nchildren--;
  t->dirty = 1;
}

/* Link n as child number i of p (i <= p->nchildren). */
static void link_at(sgf_tree *t, sgf_node *n, sgf_node *p, size_t i) {
  sgf_node **at = &p->first_child; /* n goes there */
  while (i-- > 0) at = &(*at)->next;
  n->parent = p;
  n->next = *at;
  *at = n;
  p->nchildren++;
  t->dirty = 1;
}

int sgf_cursor_delete(sgf_cursor *c) {
  sgf_tree *t = c->tree;
  sgf_node *top = c->node, *n = top;
  uint32_t count = 0;
  if (!top->parent) return SGF_EINVAL;
  unlink_node(t, top);
  /* pre-order over the subtree (iterative): count it, mark it */
  while (n) {
    n->tree = NULL;
    count++;
    if (n->first_child) {
      n = n->first_child;
      continue;
    }
    while (n != top && !n->next) n = n->parent;
    n = n == top ? NULL : n->next;
  }
  t->nnodes -= count;
  c->node = top->parent;
  c->variation_next = 0;
  return SGF_OK;
}

/* Remove property p of n (its index in n->props). */
static void prop_remove(sgf_node *n, sgf__prop *p) {
  size_t i = (size_t)(p - n->props);
  memmove(p, p + 1, (n->nprops - i - 1) * sizeof *p);
  n->nprops--;
}

int sgf_cursor_delete_prop(sgf_cursor *c, const char *ident) {
  sgf_node *n = c->node;
  sgf__prop *p = ident ? sgf__node_find(n, ident) : NULL;
  if (!p) return SGF_EINVAL;
  prop_remove(n, p);
  sgf__node_touched(n);
  return SGF_OK;
}

int sgf_cursor_delete_value(sgf_cursor *c, const char *ident, size_t i) {
  sgf_node *n = c->node;
  sgf__prop *p = ident ? sgf__node_find(n, ident) : NULL;
  sgf__tval *v;
  if (!p || i >= p->nvalues) return SGF_EINVAL;
  if (p->nvalues == 1) {
    prop_remove(n, p);
  } else {
    /* (more than one value: an array, arena memory ours to change) */
    v = (sgf__tval *)p->u.values;
    memmove(v + i, v + i + 1, (p->nvalues - i - 1) * sizeof *v);
    if (p->flags & SGF__P_POS) { /* kept positions: pos[1 + i] is value i's */
      sgf_pos *pos = (sgf_pos *)SGF__P_POSV(p);
      memmove(pos + 1 + i, pos + 2 + i, (p->nvalues - i - 1) * sizeof *pos);
    }
    p->nvalues--;
  }
  sgf__node_touched(n);
  return SGF_OK;
}

int sgf_cursor_promote(sgf_cursor *c) {
  sgf_tree *t = c->tree;
  sgf_node *n;
  for (n = c->node; n->parent; n = n->parent)
    if (n->parent->first_child != n) {
      sgf_node *p = n->parent;
      unlink_node(t, n);
      link_at(t, n, p, 0);
    }
  return SGF_OK;
}

int sgf_cursor_reparent(sgf_cursor *c, const sgf_node *new_parent,
                        size_t index) {
  sgf_tree *t = c->tree;
  sgf_node *n = c->node, *p = (sgf_node *)new_parent, *a;
  size_t count;
  if (!n->parent || !p || p->tree != t) return SGF_EINVAL;
  for (a = p; a; a = a->parent) /* not into its own subtree */
    if (a == n) return SGF_EINVAL;
  count = p->nchildren - (n->parent == p);
  if (index > count) return SGF_EINVAL;
  unlink_node(t, n);
  link_at(t, n, p, index);
  c->variation_next = 0;
  return SGF_OK;
}
