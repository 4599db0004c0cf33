/* tree_compact.c - a built game, from the builder's scratch into the
 * tree's flat form (tree_internal.h): one allocation of exactly the size
 * the game needs.
 *
 * Nothing is counted or linked here: as each node was linked the builder
 * wrote its record as the tree holds it (b->fn, FLAT AS THEY COME in
 * build_priv.h: links as ids, a move's property inline) and counted what
 * the other nodes' properties need (sgf__tb_count: property records,
 * values kept out of line - a property's one value of at most
 * SGF__P_INL_MAX bytes stays in its record -, their bytes, positions).
 * So the end of a game is one allocation of the summed size, one memcpy
 * of the node array, and a pass that copies the property records of the
 * nodes that do not keep theirs inline, laying out their value arrays
 * and bytes behind them. The scratch holds what it held: the builder
 * recycles it.
 *
 * Layout: the tree struct, nodes, props0, then (8-aligned) value arrays
 * (each behind a slot for its positions pointer when positions are
 * kept), positions, the identifier table, bytes (values with their NULs,
 * identifier strings).
 */
#include <string.h>

#include "build_priv.h"

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

const unsigned char sgf__tb_one_mask[SGF__ONE_MAX + 1][4] = {
    {0, 0, 0, 0}, {255, 0, 0, 0}, {255, 255, 0, 0}, {255, 255, 255, 0}};

void sgf__tb_count(sgf_tree_builder *b, const sgf__prop *pr, size_t k) {
  size_t i, j;
  b->c_props += k + (k >= SGF__NPROPS_BIG);
  for (i = 0; i < k; i++) {
    const sgf__prop *p = &pr[i];
    if (p->flags & SGF__P_INL) continue;
    b->c_vbytes += p->nvalues * sizeof(sgf__tval);
    if (p->flags & SGF__P_POS) {
      b->c_vbytes += sizeof(void *);
      b->c_pos += 1 + (size_t)p->nvalues;
    }
    for (j = 0; j < p->nvalues; j++) b->c_bytes += p->u.values[j].len + 1;
  }
}

sgf_tree *sgf__tb_compact(sgf_tree_builder *b, int *err) {
  const sgf_tree *s = b->tree;
  sgf__bnode *const *ix = b->ix;
  const uint32_t nn = s->nnodes;
  const int keep = b->keep_pos;
  size_t np = b->c_props, vbytes = b->c_vbytes, npos = b->c_pos;
  size_t nbytes = b->c_bytes, sbytes = 0, rest, i, j, left;
  sgf_tree *t;
  char *mem, *bytes;
  sgf__tval *va;
  sgf_pos *pos = NULL;
  sgf__prop *pr;
  sgf__ident *ids;
  sgf_node *nd;
  uint32_t id;

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
  /* the nodes as they came (FLAT AS THEY COME, build_priv.h); then the
     properties of those that do not keep their one property inline */
  memcpy(sgf__root(t), b->fn, (size_t)nn * sizeof *b->fn);
  pr = t->props0;
  /* (up to the last of them: most games have few, the root first) */
  for (id = 0, nd = sgf__root(t), left = b->c_nodes; left > 0 && id < nn;
       id++, nd++) {
    const sgf__bnode *bn;
    if (nd->flags & SGF__N_ONE) continue;
    left--;
    bn = ix[id];
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
