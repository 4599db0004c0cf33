/* tree_collection.c - collections of trees, and sgf_collection_parse()
 * (one call: a builder in collection mode over one buffer). */
#include <string.h>

#include "sized.h"
#include "tree_internal.h"

struct sgf_collection {
  sgf_allocator alloc;
  sgf_tree **trees;
  size_t n, cap;
};

sgf_collection *sgf__collection_new(const sgf_allocator *a) {
  sgf_collection *c = sgf__malloc(a, sizeof *c);
  if (!c) return NULL;
  memset(c, 0, sizeof *c);
  c->alloc = *a;
  return c;
}

int sgf__collection_reserve(sgf_collection *c) {
  size_t ncap;
  void *q;
  if (c->n < c->cap) return 0;
  ncap = c->cap ? c->cap * 2 : 8;
  if (ncap > SIZE_MAX / sizeof *c->trees) return -1;
  q = sgf__realloc(&c->alloc, c->trees, c->cap * sizeof *c->trees,
                   ncap * sizeof *c->trees);
  if (!q) return -1;
  c->trees = q;
  c->cap = ncap;
  return 0;
}

void sgf__collection_push(sgf_collection *c, sgf_tree *t) {
  c->trees[c->n++] = t;
}

void sgf__collection_clear(sgf_collection *c) {
  size_t i;
  for (i = 0; i < c->n; i++) sgf_tree_free(c->trees[i]);
  c->n = 0;
}

size_t sgf_collection_count(const sgf_collection *c) { return c->n; }

sgf_tree *sgf_collection_tree(const sgf_collection *c, size_t i) {
  return i < c->n ? c->trees[i] : NULL;
}

sgf_tree *sgf_collection_tree_take(sgf_collection *c, size_t i) {
  sgf_tree *t;
  if (i >= c->n) return NULL;
  t = c->trees[i];
  c->trees[i] = NULL;
  return t;
}

void sgf_collection_free(sgf_collection *c) {
  sgf_allocator a;
  if (!c) return;
  a = c->alloc;
  sgf__collection_clear(c);
  sgf__free(&a, c->trees, c->cap * sizeof *c->trees);
  sgf__free(&a, c, sizeof *c);
}

sgf_collection *sgf_collection_parse(const char *data, size_t len,
                                     const sgf_tree_builder_options *opt,
                                     sgf_diag *err) {
  sgf_tree_builder_options o;
  sgf_tree_builder *b;
  sgf_parser *p;
  int st;
  sgf_collection *c = NULL;
  if (!opt)
    sgf_tree_builder_options_init(&o);
  else if (sgf__copy_sized(
               &o, sizeof o, opt,
               SGF__SIZE_UPTO(sgf_tree_builder_options, max_value_bytes)))
    return NULL; /* NULL without parsing: *err is not set */
  o.flags = (o.flags | SGF_TREE_COLLECT) & ~SGF_TREE_DETACHED;
  if (err) {
    memset(err, 0, sizeof *err);
    err->code = SGF_DIAG_NOMEM;
    err->severity = SGF_SEV_FATAL;
  }
  b = sgf_tree_builder_create(NULL, NULL, &o);
  if (!b) return NULL;
  p = sgf_tree_builder_parser(b);
  st = sgf_parser_feed(p, data, len, NULL);
  if (st == SGF_OK) st = sgf_parser_finish(p);
  if (st == SGF_OK) {
    c = sgf_tree_builder_collection_take(b);
    if (c && err) memset(err, 0, sizeof *err);
  } else if (err && sgf_parser_error(p)) {
    *err = *sgf_parser_error(p);
  }
  sgf_tree_builder_destroy(b);
  return c;
}
