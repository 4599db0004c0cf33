/* bench/tree_floor.c - the floor of a tree builder (see tree_floor.h). */
#include "tree_floor.h"

#include <sgfstream/event_state.h>

#include <stdlib.h>
#include <string.h>

typedef struct fnode fnode;
typedef struct fprop fprop;
typedef struct fvalue fvalue;

struct fvalue {
  fvalue *next;
  size_t len; /* the bytes follow the struct */
  sgf_pos pos;
};
struct fprop {
  fprop *next;
  const char *ident; /* as the core hands it over (static or copied
                        later by a real builder; the floor keeps the
                        pointer, which is enough for a lower bound) */
  size_t ident_len;
  fvalue *values, *last_value;
  sgf_pos pos;
};
struct fnode {
  fnode *parent, *first_child, *last_child, *next;
  fprop *props, *last_prop;
  sgf_pos pos;
};

/* Arena blocks: BLOCK bytes each, kept from game to game. */
#define BLOCK 65536u
typedef struct fblock fblock;
struct fblock {
  fblock *next;
  char data[BLOCK];
};

struct tree_floor {
  sgf_parser *p;
  const sgf_event_state *es; /* the parser's: positions inline */
  int positions;             /* TREE_FLOOR_* */
  fblock *first, *block;     /* the blocks; the one being filled */
  size_t used;               /* bytes of block->data taken */
  fnode *cur;                /* the node linked last, where children go */
  fvalue *value;             /* the value being read (its bytes at the top) */
  fvalue **vlink;            /* the pointer to it: its property's values or
                                the previous value's next */
  fnode **ret;               /* per open variation: cur at its '(' */
  size_t nret, retcap;
  uint64_t depth, game_nodes, games, nodes;
  int failed;
};

/* n bytes (n > 0, at most BLOCK) at the top of the arena, 8-aligned. */
static void *take(tree_floor *f, size_t n) {
  void *r;
  n = (n + 7) & ~(size_t)7;
  if (n > BLOCK) return NULL;
  if (BLOCK - f->used < n) {
    if (!f->block->next) {
      fblock *b = malloc(sizeof *b);
      if (!b) return NULL;
      b->next = NULL;
      f->block->next = b;
    }
    f->block = f->block->next;
    f->used = 0;
  }
  r = f->block->data + f->used;
  f->used += n;
  return r;
}

static int fail(tree_floor *f) {
  f->failed = 1;
  return SGF_ABORT;
}

static int on_tree_begin(sgf_parser *p, void *u) {
  tree_floor *f = u;
  (void)p;
  if (f->depth++ == 0) { /* a new game: the arena from the start */
    f->block = f->first;
    f->used = 0;
    f->cur = NULL;
    f->nret = 0;
    f->game_nodes = 0;
    return SGF_CONTINUE;
  }
  if (f->nret == f->retcap) {
    size_t cap = f->retcap ? 2 * f->retcap : 64;
    fnode **q = realloc(f->ret, cap * sizeof *q);
    if (!q) return fail(f);
    f->ret = q;
    f->retcap = cap;
  }
  f->ret[f->nret++] = f->cur;
  return SGF_CONTINUE;
}

static int on_tree_end(sgf_parser *p, void *u) {
  tree_floor *f = u;
  (void)p;
  if (f->depth == 0) return SGF_CONTINUE;
  if (--f->depth == 0) {
    f->games++;
    f->nodes += f->game_nodes;
  } else if (f->nret) {
    f->cur = f->ret[--f->nret];
  }
  return SGF_CONTINUE;
}

/* The position of the current event, as f->positions says. */
#define FLOOR_POS(f, p)                                           \
  ((f)->positions == TREE_FLOOR_POS_CALL ? sgf_parser_position(p) \
                                         : sgf_event_position((p), (f)->es))

/* Append x to a list kept as first and last. */
#define APPEND(first, last, x) \
  do {                         \
    if (last)                  \
      (last)->next = (x);      \
    else                       \
      (first) = (x);           \
    (last) = (x);              \
  } while (0)

static int on_node(sgf_parser *p, void *u) {
  tree_floor *f = u;
  fnode *n = take(f, sizeof *n), *parent = f->cur;
  if (!n) return fail(f);
  n->parent = parent;
  n->first_child = n->last_child = n->next = NULL;
  n->props = n->last_prop = NULL;
  if (parent) APPEND(parent->first_child, parent->last_child, n);
  if (f->positions) n->pos = FLOOR_POS(f, p);
  f->cur = n;
  f->game_nodes++;
  return SGF_CONTINUE;
}

static int on_property(sgf_parser *p, void *u, const char *id, size_t len) {
  tree_floor *f = u;
  fprop *q = take(f, sizeof *q);
  fnode *n = f->cur;
  if (!q || !n) return q ? SGF_CONTINUE : fail(f);
  q->next = NULL;
  q->ident = id;
  q->ident_len = len;
  q->values = q->last_value = NULL;
  if (f->positions) q->pos = FLOOR_POS(f, p);
  APPEND(n->props, n->last_prop, q);
  return SGF_CONTINUE;
}

static int on_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  tree_floor *f = u;
  fvalue *v = f->value;
  fprop *q;
  if (!f->cur || !(q = f->cur->last_prop)) return SGF_CONTINUE;
  if (flags & SGF_VALUE_FIRST) {
    v = take(f, sizeof *v + len + 1);
    if (!v) return fail(f);
    v->next = NULL;
    v->len = 0;
    if (f->positions) v->pos = FLOOR_POS(f, p);
    f->vlink = q->last_value ? &q->last_value->next : &q->values;
    APPEND(q->values, q->last_value, v);
    f->value = v;
  } else if (len) { /* more bytes: grow in place, or move to a new block */
    size_t have = sizeof *v + v->len + 1, want = have + len;
    char *top = (char *)v + ((have + 7) & ~(size_t)7);
    if (top == f->block->data + f->used && want <= BLOCK &&
        (size_t)((char *)v - f->block->data) + want <= BLOCK) {
      f->used =
          (size_t)((char *)v - f->block->data) + ((want + 7) & ~(size_t)7);
    } else if (want <= BLOCK) {
      fvalue *w = take(f, want);
      if (!w) return fail(f);
      memcpy(w, v, have);
      *f->vlink = w;
      q->last_value = f->value = v = w;
    } else {
      return fail(f); /* a value over 64 KiB: not a floor's business */
    }
  }
  if (len) memcpy((char *)(v + 1) + v->len, at, len);
  v->len += len;
  ((char *)(v + 1))[v->len] = '\0';
  return SGF_CONTINUE;
}

tree_floor *tree_floor_create(int positions) {
  sgf_callbacks cb;
  tree_floor *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->positions = positions;
  f->first = f->block = malloc(sizeof *f->first);
  if (!f->first) {
    free(f);
    return NULL;
  }
  f->first->next = NULL;
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = on_tree_begin;
  cb.on_tree_end = on_tree_end;
  cb.on_node = on_node;
  cb.on_property = on_property;
  cb.on_value = on_value;
  f->p = sgf_parser_create(&cb, f, NULL);
  if (!f->p) {
    tree_floor_destroy(f);
    return NULL;
  }
  f->es = sgf_parser_event_state(f->p, SGF_EVENT_STATE_VERSION);
  if (!f->es && f->positions == TREE_FLOOR_POS_INLINE)
    f->positions = TREE_FLOOR_POS_CALL; /* a library of another version */
  return f;
}

void tree_floor_destroy(tree_floor *f) {
  fblock *b, *next;
  if (!f) return;
  sgf_parser_destroy(f->p);
  for (b = f->first; b; b = next) {
    next = b->next;
    free(b);
  }
  free(f->ret);
  free(f);
}

sgf_parser *tree_floor_parser(tree_floor *f) { return f->p; }

void tree_floor_reset(tree_floor *f) {
  sgf_parser_reset(f->p);
  f->depth = 0; /* a game left open is dropped */
}

void tree_floor_counts(const tree_floor *f, uint64_t *games, uint64_t *nodes) {
  *games = f->games;
  *nodes = f->failed ? 0 : f->nodes;
}
