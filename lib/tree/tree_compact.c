/* tree_compact.c - a built game, from the builder's scratch into the
 * tree's flat form (tree_internal.h): one allocation of exactly the size
 * the game needs.
 *
 * Two passes over the nodes in pre-order (b->ix). The first counts:
 * nodes, property records of the nodes that do not keep their one
 * property inline (ONE: one value of at most SGF__ONE_MAX bytes, like
 * every move), values kept out of line (a property's one value of at
 * most SGF__P_INL_MAX bytes stays in its record), their bytes, positions
 * and interned identifiers. The second fills: links become node ids
 * (the scratch's slot numbers are the pre-order ids), records are copied
 * and their value arrays and bytes laid out behind them. The scratch
 * holds what it held: the builder recycles it.
 *
 * Layout: the tree struct, nodes, props0, then (8-aligned) value arrays
 * (each behind a slot for its positions pointer when positions are
 * kept), positions, the identifier table, bytes (values with their NULs,
 * identifier strings).
 */
#include <string.h>

#include "build_priv.h"

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

/* A node of the scratch keeps its one property in the node record. */
static int one_of(const sgf__bnode *bn) {
  return bn->nprops == 1 && (bn->props[0].flags & SGF__P_INL) &&
         (bn->props[0].flags & SGF__P_LEN) <= SGF__ONE_MAX;
}

static uint32_t id_of(const sgf__bnode *n) { return n ? n->slot : SGF__NONE; }

sgf_tree *sgf__tb_compact(sgf_tree_builder *b, int *err) {
  const sgf_tree *s = b->tree;
  sgf__bnode *const *ix = b->ix;
  const uint32_t nn = s->nnodes;
  const int keep = b->keep_pos;
  size_t np = 0, vbytes = 0, npos = 0, nbytes = 0, sbytes = 0, rest, i, j;
  sgf_tree *t;
  char *mem, *bytes;
  sgf__tval *va;
  sgf_pos *pos = NULL;
  sgf__prop *pr;
  sgf__ident *ids;
  uint32_t id;

  for (id = 0; id < nn; id++) { /* sizes */
    const sgf__bnode *bn = ix[id];
    if (one_of(bn)) continue;
    np += bn->nprops + (bn->nprops >= SGF__NPROPS_BIG);
    for (i = 0; i < bn->nprops; i++) {
      const sgf__prop *p = &bn->props[i];
      if (p->flags & SGF__P_INL) continue;
      vbytes += p->nvalues * sizeof(sgf__tval);
      if (p->flags & SGF__P_POS) {
        vbytes += sizeof(void *);
        npos += 1 + (size_t)p->nvalues;
      }
      for (j = 0; j < p->nvalues; j++) nbytes += p->u.values[j].len + 1;
    }
  }
  if (keep) npos += nn;
  for (i = 0; i < s->nidents; i++) {
    sbytes += strlen(s->idents[i].ident) + 1;
    if (s->idents[i].raw) sbytes += strlen(s->idents[i].raw) + 1;
  }
  rest = vbytes + npos * sizeof(sgf_pos) + s->nidents * sizeof(sgf__ident) +
         round8(nbytes + sbytes);
  t = sgf__tree_make(&b->alloc, b->max_nodes, b->max_bytes, nn, np, rest, &mem);
  *err = SGF__ERR_NOMEM;
  if (!t) return NULL;
  if (t->bytes > b->max_bytes) { /* (the struct and tables count too) */
    sgf_tree_free(t);
    *err = SGF__ERR_BYTES;
    return NULL;
  }
  t->nnodes = nn;
  va = (sgf__tval *)(void *)mem;
  mem += vbytes;
  if (npos) {
    pos = (sgf_pos *)(void *)mem;
    mem += npos * sizeof(sgf_pos);
  }
  ids = (sgf__ident *)(void *)mem;
  bytes = mem + s->nidents * sizeof(sgf__ident);
  if (keep) { /* the nodes' positions first */
    t->npos = pos;
    for (id = 0; id < nn; id++)
      pos[id] = (ix[id]->flags & BN_POS) ? ((const sgf_pos *)ix[id])[-1]
                                         : (sgf_pos){0, 0, 0};
    pos += nn;
  }
  for (i = 0; i < s->nidents; i++) { /* identifiers */
    size_t n = strlen(s->idents[i].ident) + 1;
    memcpy(bytes, s->idents[i].ident, n);
    ids[i].ident = bytes;
    bytes += n;
    ids[i].raw = NULL;
    if (s->idents[i].raw) {
      n = strlen(s->idents[i].raw) + 1;
      memcpy(bytes, s->idents[i].raw, n);
      ids[i].raw = bytes;
      bytes += n;
    }
  }
  t->idents = ids;
  t->nidents = s->nidents;
  t->idents_cap = 0; /* in the allocation */
  pr = t->props0;
  for (id = 0; id < nn; id++) { /* nodes */
    const sgf__bnode *bn = ix[id];
    sgf_node *nd = sgf__root(t) + id;
    nd->parent = id_of(bn->parent);
    nd->first_child = id_of(bn->first_child);
    nd->next = id_of(bn->next);
    nd->slot = id;
    nd->flags = (uint16_t)(bn->flags & (SGF__N_MOVE | SGF__N_PL_B |
                                        SGF__N_PL_W | SGF__N_MN | SGF__N_HA2));
    if (one_of(bn)) {
      const sgf__prop *p = &bn->props[0];
      nd->flags |= (uint16_t)(SGF__N_ONE |
                              ((p->flags & SGF__P_LEN) << SGF__N_LEN_SHIFT));
      nd->code = p->code;
      memset(nd->u.inl, 0, sizeof nd->u.inl); /* the NUL, and no garbage */
      memcpy(nd->u.inl, p->u.inl, p->flags & SGF__P_LEN);
      continue;
    }
    if (bn->nprops >= SGF__NPROPS_BIG) { /* the count in a record before */
      memset(pr, 0, sizeof *pr);
      pr->nvalues = bn->nprops;
      pr++;
      nd->code = SGF__NPROPS_BIG;
    } else {
      nd->code = (uint16_t)bn->nprops;
    }
    nd->u.props = (uint32_t)(pr - t->props0);
    for (i = 0; i < bn->nprops; i++, pr++) {
      const sgf__prop *p = &bn->props[i];
      *pr = *p;
      if (p->flags & SGF__P_INL) { /* no stale byte after the NUL */
        size_t len = p->flags & SGF__P_LEN;
        memset(pr->u.inl + len, 0, sizeof pr->u.inl - len);
        continue;
      }
      if (p->flags & SGF__P_POS) { /* slot, then the values */
        const sgf_pos *sp = SGF__P_POSV(p);
        *(const sgf_pos **)(void *)va = pos;
        va = (sgf__tval *)(void *)((char *)va + sizeof(void *));
        memcpy(pos, sp, (1 + (size_t)p->nvalues) * sizeof *pos);
        pos += 1 + (size_t)p->nvalues;
      }
      pr->u.values = va;
      for (j = 0; j < p->nvalues; j++, va++) {
        size_t len = p->u.values[j].len;
        memcpy(bytes, p->u.values[j].raw, len + 1); /* with its NUL */
        va->raw = bytes;
        va->len = len;
        bytes += len + 1;
      }
    }
  }
  return t;
}
