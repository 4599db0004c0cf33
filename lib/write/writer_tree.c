/* writer_tree.c - writing in-memory trees (sgfstream/tree.h) through the
 * streaming writer's events.
 *
 * A client of the public tree API only. In the node tree a variation
 * begins at a child of a node with two or more children (and at the top
 * node); it runs down through only children and ends at a leaf or at a
 * node with several children, whose variations come before its ')'. The
 * walk therefore needs no stack: at a leaf it closes the variation, then
 * climbs from the leaf to the variation's first node (over parents with
 * one child), and goes on with that node's next sibling, or, if it was
 * the last one, closes the parent's variation the same way. Every node is
 * climbed over once, so a tree of N nodes takes O(N) steps at any depth.
 */
#include "sgfstream.h"

/* A node and its properties, in file order. */
static int write_node(sgf_writer *w, const sgf_node *n) {
  size_t i, j, np = sgf_node_prop_count(n);
  if (sgf_writer_node(w)) return sgf_writer_status(w);
  for (i = 0; i < np; i++) {
    sgf_prop_view p = sgf_node_prop(n, i);
    if (sgf_writer_property(w, p.ident, p.ident_len))
      return sgf_writer_status(w);
    for (j = 0; j < p.nvalues; j++) {
      sgf_value_view v = sgf_prop_value(&p, j);
      if (sgf_writer_value(w, v.raw, v.len)) return sgf_writer_status(w);
    }
    if (sgf_writer_property_end(w)) return sgf_writer_status(w);
  }
  return 0;
}

int sgf_writer_write_subtree(sgf_writer *w, const sgf_node *top) {
  const sgf_node *n = top;
  if (sgf_writer_tree_begin(w)) return sgf_writer_status(w);
  for (;;) {
    const sgf_node *v;
    if (write_node(w, n)) return sgf_writer_status(w);
    switch (sgf_node_child_count(n)) {
      case 0:
        break;
      case 1: /* the sequence goes on */
        n = sgf_node_first_child(n);
        continue;
      default: /* variations */
        if (sgf_writer_tree_begin(w)) return sgf_writer_status(w);
        n = sgf_node_first_child(n);
        continue;
    }
    /* n is a leaf: close variations until one has a next sibling. */
    for (;;) {
      if (sgf_writer_tree_end(w)) return sgf_writer_status(w);
      v = n;
      while (v != top && sgf_node_child_count(sgf_node_parent(v)) == 1)
        v = sgf_node_parent(v);
      if (v == top) return 0;
      if (sgf_node_next_sibling(v) != NULL) {
        n = sgf_node_next_sibling(v);
        if (sgf_writer_tree_begin(w)) return sgf_writer_status(w);
        break;
      }
      n = sgf_node_parent(v); /* its last variation is closed: close it */
    }
  }
}

int sgf_writer_write_tree(sgf_writer *w, const sgf_tree *t) {
  return sgf_writer_write_subtree(w, sgf_tree_root(t));
}

int sgf_writer_write_collection(sgf_writer *w, const sgf_collection *c) {
  size_t i, n = sgf_collection_count(c);
  for (i = 0; i < n; i++) {
    const sgf_tree *t = sgf_collection_tree(c, i);
    if (t != NULL && sgf_writer_write_tree(w, t)) return sgf_writer_status(w);
  }
  return 0;
}
