/* tree_derive.c - the facts derived from a tree's shape and moves.
 *
 * A node's own flags (does it hold a move, a PL, an MN, an HA >= 2) come
 * from its properties (sgf__node_scan) and live in the node. Everything
 * that depends on the path from the root (pre-order id, subtree size,
 * child index, level, ply, variation depth, move numbers, colour of the
 * last move) follows from the parent's and the previous sibling's facts
 * (derive). Nothing of it is kept in the nodes: the first query computes
 * it for every node at once into tree->facts (by slot) and the position
 * index (by pre-order id), one walk that needs no stack, and a cursor's
 * edit marks them stale (tree->dirty) so that the next query walks
 * again. A tree nobody asks about never pays for them (56 bytes a node
 * when asked). When memory or max_tree_bytes refuse the arrays the
 * queries walk instead (tree_nav.c), so no query fails.
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
static unsigned pl_flag(const sgf__tval v) {
  size_t i = 0;
  while (i < v.len && (v.raw[i] == ' ' || v.raw[i] == '\t')) i++;
  if (i == v.len) return 0;
  switch (v.raw[i]) {
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

uint32_t sgf__scan(const sgf_tree *t, const sgf__prop *props, size_t count,
                   uint32_t old) {
  uint32_t f = old & ~(uint32_t)(SGF__N_MOVE | SGF__N_PL_B | SGF__N_PL_W |
                                 SGF__N_MN | SGF__N_HA2);
  size_t i;
  int move = 0, pl = 0, mn = 0, ha = 0;
  for (i = 0; i < count; i++) {
    const sgf__prop *p = &props[i];
    const char *id = sgf__code_ident(t, p->code);
    sgf__tval v0;
    if (p->nvalues == 0) continue;
    v0 = sgf__pval(p, 0);
    if (!move && (id[0] == 'B' || id[0] == 'W') && !id[1]) {
      f |= id[0] == 'B' ? SGF__N_BLACK : SGF__N_WHITE;
      move = 1;
    } else if (id[0] == 'P' && id[1] == 'L' && !id[2] && !pl) {
      f |= pl_flag(v0);
      pl = 1;
    } else if (id[0] == 'M' && id[1] == 'N' && !id[2] && !mn) {
      int64_t k;
      if (sgf__parse_int(v0.raw, v0.len, &k)) f |= SGF__N_MN;
      mn = 1;
    } else if (id[0] == 'H' && id[1] == 'A' && !id[2] && !ha) {
      int64_t k;
      if (sgf__parse_int(v0.raw, v0.len, &k) && k >= 2) f |= SGF__N_HA2;
      ha = 1;
    }
  }
  return f;
}

void sgf__node_scan(sgf_tree *t, sgf_node *n) {
  sgf__prop tmp;
  uint32_t k = sgf__nprops(t, n);
  n->flags = (uint16_t)sgf__scan(t, k ? sgf__prop_at(t, n, 0, &tmp) : NULL, k,
                                 n->flags);
}

int64_t sgf__node_mn(const sgf_tree *t, const sgf_node *n) {
  uint32_t i, k = sgf__nprops(t, n);
  for (i = 0; i < k; i++) {
    sgf__prop tmp;
    const sgf__prop *p = sgf__prop_at(t, n, i, &tmp);
    const char *id = sgf__code_ident(t, p->code);
    int64_t mn = 0;
    if (p->nvalues > 0 && id[0] == 'M' && id[1] == 'N' && !id[2]) {
      sgf__tval v0 = sgf__pval(p, 0);
      sgf__parse_int(v0.raw, v0.len, &mn);
      return mn;
    }
  }
  return 0;
}

/* The facts of the child c of a node with facts pf, c's previous sibling
 * having facts sf (NULL: c is the first child); pf NULL: c is the root. */
static void derive(const sgf_tree *t, sgf__facts *f, const sgf_node *c,
                   const sgf__facts *pf, const sgf__facts *sf) {
  uint32_t fl = c->flags;
  int64_t movenum = 0, nextnum = 1;
  uint32_t last = 0;
  if (pf) {
    f->child_index = sf ? sf->child_index + 1 : 0;
    f->level = pf->level + 1;
    f->depth = pf->depth + (f->child_index > 0);
    f->ply = pf->ply;
    last = pf->last;
    movenum = pf->movenum;
    nextnum = pf->nextnum;
  } else {
    f->child_index = f->level = f->depth = f->ply = 0;
  }
  if (fl & SGF__N_MOVE) {
    f->ply++;
    movenum = (fl & SGF__N_MN) ? sgf__node_mn(t, c) : nextnum;
    nextnum = movenum < INT64_MAX ? movenum + 1 : movenum;
    last = fl & SGF__N_MOVE;
  } else if (fl & SGF__N_MN) {
    nextnum = sgf__node_mn(t, c);
  }
  f->movenum = movenum;
  f->nextnum = nextnum;
  f->last = last;
  f->pad = 0;
}

/* Arrays for every slot of t: 0, or -1 (memory, max_bytes). */
static int facts_room(sgf_tree *t) {
  size_t cap = t->nslots, old, need;
  uint64_t used;
  sgf__facts *f;
  sgf_node **ix;
  const size_t each = sizeof *f + sizeof *ix;
  if (t->facts && t->facts_cap >= cap) return 0;
  old = t->facts_cap * each;
  if (t->facts_cap && cap < t->facts_cap + t->facts_cap / 2)
    cap = t->facts_cap + t->facts_cap / 2; /* edits add nodes one by one */
  if (cap > SIZE_MAX / each) return -1;
  need = cap * each;
  used = t->bytes - old;
  if (used > t->max_bytes || need > t->max_bytes - used) return -1;
  f = sgf__malloc(&t->alloc, cap * sizeof *f);
  ix = f ? sgf__malloc(&t->alloc, cap * sizeof *ix) : NULL;
  if (!ix) {
    sgf__free(&t->alloc, f, cap * sizeof *f);
    return -1;
  }
  sgf__facts_free(t);
  t->facts = f;
  t->index = ix;
  t->facts_cap = cap;
  t->bytes = used + need;
  return 0;
}

void sgf__facts_free(sgf_tree *t) {
  if (!t->facts) return;
  sgf__free(&t->alloc, t->facts, t->facts_cap * sizeof *t->facts);
  sgf__free(&t->alloc, t->index, t->facts_cap * sizeof *t->index);
  t->bytes -= t->facts_cap * (sizeof *t->facts + sizeof *t->index);
  t->facts = NULL;
  t->index = NULL;
  t->facts_cap = 0;
  t->dirty = 1;
}

/* One pre-order walk that needs no stack (down through first children, up
 * through parents): it sees a node's parent and previous sibling before
 * the node, and leaves a node once its subtree is done. */
static void refresh(sgf_tree *t) {
  sgf__facts *const fa = t->facts;
  sgf_node *top = sgf__root(t), *n = top;
  const sgf__facts *prev = NULL; /* facts of n's previous sibling */
  uint32_t id = 0, me = 0;
  while (n) {
    sgf__facts *f = &fa[me];
    derive(t, f, n, n->parent != SGF__NONE ? &fa[n->parent] : NULL, prev);
    f->subtree = 1;
    f->id = id;
    t->index[id++] = n;
    if (n->first_child != SGF__NONE) {
      me = n->first_child;
      n = sgf__node(t, me);
      prev = NULL;
      continue;
    }
    /* leave n, and every ancestor whose last child we just left */
    for (;;) {
      if (n == top) {
        n = NULL;
        break;
      }
      fa[n->parent].subtree += fa[me].subtree;
      if (n->next != SGF__NONE) {
        prev = &fa[me];
        me = n->next;
        n = sgf__node(t, me);
        break;
      }
      me = n->parent;
      n = sgf__node(t, me);
    }
  }
  t->dirty = 0;
}

const sgf__facts *sgf__facts_of(const sgf_node *n) {
  sgf_tree *t = sgf__tree_any(n);
  if (t->dirty || !t->facts) {
    if (facts_room(t) != 0) return NULL;
    refresh(t);
  }
  return &t->facts[sgf__id(n)];
}

const sgf_node *sgf__index_at(const sgf_tree *t, size_t i) {
  return sgf__facts_of(sgf__root(t)) ? t->index[i] : NULL;
}

sgf_node *sgf__prev_sibling(const sgf_node *n) {
  const sgf_tree *t = sgf__tree_any(n);
  uint32_t id = sgf__id(n), c;
  sgf_node *cn;
  if (n->parent == SGF__NONE) return NULL;
  c = sgf__node(t, n->parent)->first_child;
  if (c == id) return NULL;
  for (cn = sgf__node(t, c); cn->next != id; cn = sgf__node(t, cn->next)) {
  }
  return cn;
}

sgf_node *sgf__last_child(const sgf_node *n) {
  const sgf_tree *t = sgf__tree_any(n);
  sgf_node *c = sgf__node(t, n->first_child);
  if (c)
    while (c->next != SGF__NONE) c = sgf__node(t, c->next);
  return c;
}
