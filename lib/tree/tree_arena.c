/* tree_arena.c - a tree's memory: the arena, and creating, linking and
 * freeing nodes and trees.
 *
 * Everything a tree holds (nodes, property arrays, value arrays, value
 * bytes, identifiers, the builder's position index) is carved from blocks
 * taken through the tree's allocator hooks. A new block is a quarter of
 * what the tree's policy-sized blocks hold already, at least 2 KiB and at
 * most 64 KiB: a collection of many short games does not pay 64 KiB each,
 * and the free end of the last block is never more than about a fifth of
 * the tree (pure doubling wastes up to half). A request bigger than that
 * gets a block of its own, linked behind the one being filled so that
 * block's free room is not lost. Nothing is freed piecemeal:
 * sgf_tree_free() returns every block.
 *
 * REUSE. The block sizes depend only on the policy-sized blocks taken so
 * far, so the k-th such block of every tree has the same size. A builder
 * hands the blocks of a game it freed to the next game (tree->reuse, in
 * allocation order), which takes them instead of new ones: in one-game
 * mode a run of games allocates nothing once the largest game so far has
 * been seen, and what is held never exceeds the largest game.
 *
 * Every block (and a position index outside the arena) is counted in
 * tree->bytes and checked against max_bytes before it is taken (the
 * builder checks what it buffers itself, and allocates in the arena only
 * when nothing is buffered). Offsets in a block stay multiples of 8
 * (sgf__tree_alloc8 relies on it).
 */
#include <string.h>

#include "tree_internal.h"

#define ARENA_ALIGN SGF__ARENA_ALIGN
#define MIN_BLOCK 2048u
#define MAX_BLOCK 65536u
#define HDR SGF__BLOCK_HDR

/* A zeroed tree struct of size bytes (limits 0: the defaults). */
static sgf_tree *tree_alloc(const sgf_allocator *a, size_t size,
                            uint64_t max_nodes, uint64_t max_bytes) {
  sgf_tree *t = sgf__malloc(a, size);
  if (!t) return NULL;
  memset(t, 0, sizeof *t);
  t->alloc = *a;
  if (max_nodes == 0) max_nodes = SGF_DEFAULT_MAX_NODES;
  if (max_nodes > SGF__MAX_NODES_CAP) max_nodes = SGF__MAX_NODES_CAP;
  t->max_nodes = (uint32_t)max_nodes;
  t->max_bytes = max_bytes ? max_bytes : SGF_DEFAULT_MAX_TREE_BYTES;
  return t;
}

sgf_tree *sgf__tree_new(const sgf_allocator *a, uint64_t max_nodes,
                        uint64_t max_bytes) {
  return tree_alloc(a, sizeof(sgf_tree), max_nodes, max_bytes);
}

/* A new block with room for size bytes (a multiple of 8) after its
 * header, used up to there; it becomes the head unless it is sized for
 * this request alone and head_only is 0 (then it goes behind the head,
 * whose free room stays). NULL with t->err set on failure. */
static sgf__block *new_block(sgf_tree *t, size_t size, int head_only) {
  sgf__block *b = t->blocks, *nb;
  size_t need = HDR + size, bsize;
  int own;
  uint64_t used = t->bytes;

  bsize = t->rbytes / 4 < MIN_BLOCK   ? MIN_BLOCK
          : t->rbytes / 4 > MAX_BLOCK ? MAX_BLOCK
                                      : (size_t)(t->rbytes / 4);
  own = need > bsize;
  if (own) bsize = need;
  nb = NULL;
  if (!own && t->reuse && t->reuse->size >= need && used <= t->max_bytes &&
      t->reuse->size <= t->max_bytes - used) {
    nb = t->reuse; /* the block the policy would take (see REUSE) */
    t->reuse = nb->next;
    bsize = nb->size;
  } else {
    if (used > t->max_bytes || bsize > t->max_bytes - used) {
      /* near the limit: a smaller ordinary block may still fit */
      if (own || used > t->max_bytes || need > t->max_bytes - used) {
        t->err = SGF__ERR_BYTES;
        return NULL;
      }
      bsize = (size_t)(t->max_bytes - used);
      own = 1; /* off the policy: not to be reused */
    }
    nb = sgf__malloc(&t->alloc, bsize);
    if (!nb) {
      t->err = SGF__ERR_NOMEM;
      return NULL;
    }
    nb->size = bsize;
  }
  nb->used = need;
  nb->own = (size_t)own;
  t->bytes += bsize;
  if (!own) t->rbytes += bsize;
  if (own && b && !head_only) {
    nb->next = b->next;
    b->next = nb;
  } else {
    nb->next = b;
    t->blocks = nb;
  }
  return nb;
}

void *sgf__tree_alloc(sgf_tree *t, size_t size, size_t align) {
  sgf__block *b = t->blocks;
  (void)align; /* every offset is a multiple of ARENA_ALIGN */
  if (size > SIZE_MAX - HDR - ARENA_ALIGN) {
    t->err = SGF__ERR_NOMEM;
    return NULL;
  }
  size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
  if (b && b->size - b->used >= size) {
    void *r = (char *)b + b->used;
    b->used += size;
    return r;
  }
  b = new_block(t, size, 0);
  return b ? (char *)b + HDR : NULL;
}

void *sgf__tree_reserve(sgf_tree *t, size_t size) {
  sgf__block *b = t->blocks;
  if (!(b && b->size - b->used >= size)) {
    b = new_block(t, size, 1);
    if (!b) return NULL;
    b->used -= size; /* reserved, not taken */
  }
  return (char *)b + b->used;
}

void sgf__blocks_free(const sgf_allocator *a, sgf__block *b) {
  sgf__block *next;
  for (; b; b = next) {
    next = b->next;
    sgf__free(a, b, b->size);
  }
}

sgf_tree *sgf__tree_make(const sgf_allocator *a, uint64_t max_nodes,
                         uint64_t max_bytes, uint32_t n0, size_t np, size_t nb,
                         char **rest) {
  size_t size = sizeof(sgf_tree);
  sgf_tree *t;
  if (n0 > (SIZE_MAX / 2 - size) / sizeof(sgf_node) ||
      np > (SIZE_MAX / 2) / sizeof(sgf__prop) || nb > SIZE_MAX / 4)
    return NULL;
  size += n0 * sizeof(sgf_node) + np * sizeof(sgf__prop);
  size = (size + 7) & ~(size_t)7;
  if (nb > SIZE_MAX - size) return NULL;
  size += nb;
  t = tree_alloc(a, size, max_nodes, max_bytes);
  if (!t) return NULL;
  t->size0 = size;
  t->bytes = size;
  t->n0 = t->nslots = n0;
  t->props0 = (sgf__prop *)(void *)(sgf__root(t) + n0);
  t->hdr0.tree = t;
  t->hdr0.first = 0;
  t->hdr0.cap = n0;
  t->dirty = 1;
  *rest = (char *)t + (size - nb);
  return t;
}

/* Chunk j of added nodes holds 8 << j of them, from id n0 + 8 (2^j - 1). */
static uint32_t chunk_of(uint32_t e) {
  uint32_t j = 0;
  while (((uint64_t)8 << (j + 1)) - 8 <= e) j++;
  return j;
}

sgf_node *sgf__node_far(const sgf_tree *t, uint32_t id) {
  uint32_t e = id - t->n0, j = chunk_of(e);
  sgf__nchunk *h = t->chunks[j];
  return (sgf_node *)(void *)(h + 1) + (id - h->first);
}

sgf_node *sgf__node_alloc(sgf_tree *t) {
  sgf_node *n;
  uint32_t e, j, id;
  sgf__nchunk *h;
  if (t->nnodes >= t->max_nodes || t->nslots >= SGF__MAX_NODES_CAP) {
    t->err = SGF__ERR_NODES;
    return NULL;
  }
  id = t->nslots;
  e = id - t->n0;
  j = chunk_of(e);
  if (j >= t->nchunks) { /* a new chunk (and room for its pointer) */
    size_t cap = (size_t)8 << j;
    if (t->nchunks == t->chunks_cap) {
      size_t nc = t->chunks_cap ? 2 * (size_t)t->chunks_cap : 4;
      size_t old = t->chunks_cap * sizeof *t->chunks;
      sgf__nchunk **c;
      if (t->bytes > t->max_bytes ||
          nc * sizeof *c - old > t->max_bytes - t->bytes) {
        t->err = SGF__ERR_BYTES;
        return NULL;
      }
      c = sgf__realloc(&t->alloc, t->chunks, old, nc * sizeof *c);
      if (!c) {
        t->err = SGF__ERR_NOMEM;
        return NULL;
      }
      t->chunks = c;
      t->chunks_cap = (uint32_t)nc;
      t->bytes += nc * sizeof *c - old;
    }
    h = sgf__tree_alloc(t, sizeof *h + cap * sizeof *n, 8);
    if (!h) return NULL;
    h->tree = t;
    h->first = t->n0 + (uint32_t)(((uint64_t)8 << j) - 8);
    h->cap = (uint32_t)cap;
    t->chunks[t->nchunks++] = h;
  }
  h = t->chunks[j];
  n = (sgf_node *)(void *)(h + 1) + (id - h->first);
  memset(n, 0, sizeof *n);
  n->parent = n->first_child = n->next = SGF__NONE;
  n->slot = id - h->first;
  t->nslots++;
  return n;
}

void sgf__node_link(sgf_tree *t, sgf_node *n, sgf_node *parent, int first) {
  uint32_t id = sgf__id(n);
  n->parent = sgf__id(parent);
  if (first || parent->first_child == SGF__NONE) {
    n->next = parent->first_child;
    parent->first_child = id;
  } else {
    sgf__last_child(parent)->next = id; /* O(children) */
  }
  t->nnodes++;
  t->dirty = 1;
}

sgf_tree *sgf_tree_create(const sgf_allocator *alloc) {
  sgf_allocator a;
  sgf_tree *t;
  sgf_node *root;
  char *rest;
  sgf__allocator_init(&a, alloc);
  t = sgf__tree_make(&a, 0, 0, 1, 0, 0, &rest);
  if (!t) return NULL;
  root = sgf__root(t);
  memset(root, 0, sizeof *root);
  root->parent = root->first_child = root->next = SGF__NONE;
  t->nnodes = 1;
  return t;
}

void sgf_tree_free(sgf_tree *t) {
  sgf_allocator a;
  if (!t) return;
  a = t->alloc;
  sgf__blocks_free(&a, t->blocks);
  sgf__blocks_free(&a, t->reuse);
  sgf__facts_free(t);
  if (t->idents_cap) /* (0: in the allocation) */
    sgf__free(&a, t->idents, t->idents_cap * sizeof *t->idents);
  sgf__free(&a, t->chunks, t->chunks_cap * sizeof *t->chunks);
  sgf__free(&a, t->ext, t->ext_cap * sizeof *t->ext);
  if (t->size0)
    sgf__free(&a, t, t->size0);
  else
    sgf__free(&a, t, sizeof *t);
}

/* A copy of s (n bytes) in the arena, NUL-terminated; NULL on failure. */
static const char *arena_str(sgf_tree *t, const char *s, size_t n) {
  char *c = sgf__tree_alloc(t, n + 1, 1);
  if (!c) return NULL;
  memcpy(c, s, n);
  c[n] = '\0';
  return c;
}

static int same(const char *a, const char *b, size_t n) {
  return strlen(a) == n && memcmp(a, b, n) == 0;
}

int sgf__code_intern(sgf_tree *t, const char *ident, size_t n, const char *raw,
                     size_t rn) {
  int code = sgf__code_static(ident, n);
  uint32_t i;
  sgf__ident *e;
  /* the usual case first: a static code (n is 1 or 2) written as such,
   * compared inline (no call to memcmp for a byte or two) */
  if (code >= 0 && (!raw || (rn == n && raw[0] == ident[0] &&
                             (n == 1 || raw[1] == ident[1]))))
    return code;
  if (raw && rn == n && memcmp(raw, ident, n) == 0) raw = NULL;
  if (!raw && code >= 0) return code;
  for (i = 0; i < t->nidents; i++) { /* few per tree: a linear search */
    e = &t->idents[i];
    if (same(e->ident, ident, n) &&
        (raw ? e->raw && same(e->raw, raw, rn) : !e->raw))
      return (int)(SGF__CODE_DYN + i);
  }
  if (SGF__CODE_DYN + t->nidents > SGF__CODE_MAX) {
    t->err = SGF__ERR_BYTES;
    return -1;
  }
  if (t->nidents >= t->idents_cap) { /* (cap 0: in the allocation) */
    size_t cap = t->nidents ? 2 * (size_t)t->nidents : 4;
    size_t old = t->idents_cap * sizeof *e, add = cap * sizeof *e - old;
    if (t->bytes > t->max_bytes || add > t->max_bytes - t->bytes) {
      t->err = SGF__ERR_BYTES;
      return -1;
    }
    if (t->idents_cap) {
      e = sgf__realloc(&t->alloc, t->idents, old, cap * sizeof *e);
    } else {
      e = sgf__malloc(&t->alloc, cap * sizeof *e);
      if (e && t->nidents) memcpy(e, t->idents, t->nidents * sizeof *e);
    }
    if (!e) {
      t->err = SGF__ERR_NOMEM;
      return -1;
    }
    t->idents = e;
    t->idents_cap = (uint32_t)cap;
    t->bytes += add;
  }
  e = &t->idents[t->nidents];
  e->ident = arena_str(t, ident, n);
  e->raw = e->ident && raw ? arena_str(t, raw, rn) : NULL;
  if (!e->ident || (raw && !e->raw)) return -1;
  return (int)(SGF__CODE_DYN + t->nidents++);
}
