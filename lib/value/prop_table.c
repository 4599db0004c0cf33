/* prop_table.c - the property table: the built-in definitions of
 * SGF_PROP_MAP, tables holding them plus an application's own, lookup.
 *
 * Lookup is a direct index on the one or two letters of an identifier:
 * (c1 - 'A') * 27 + (c2 ? c2 - 'A' + 1 : 0), 702 slots. The built-ins'
 * index is a static const array whose slots are computed by the
 * preprocessor from the X-macro's letters, so sgf_prop_lookup(NULL, ...)
 * needs no table and no initialization. A table copies the definitions
 * and the index once, at creation, and then only changes what the
 * application registers. Identifiers of three letters or more (only an
 * application's) are kept in a list searched linearly: there are few.
 */
#include <string.h>

#include "alloc.h"
#include "value_priv.h"

#define NSLOTS SGF_PROP_SLOTS
_Static_assert(SGF_PROP_BUILTIN_MAX_ <= 256,
               "sgf_prop_builtin_slots holds built-in ids in bytes");

/* Letter numbers for the preprocessor: L_A is 1 ... L_Z 26, L_ (an empty
 * second letter) 0. */
enum {
  L_ = 0,
  L_A,
  L_B,
  L_C,
  L_D,
  L_E,
  L_F,
  L_G,
  L_H,
  L_I,
  L_J,
  L_K,
  L_L,
  L_M,
  L_N,
  L_O,
  L_P,
  L_Q,
  L_R,
  L_S,
  L_T,
  L_U,
  L_V,
  L_W,
  L_X,
  L_Y,
  L_Z
};
#define SLOT(c1, c2) ((L_##c1 - 1) * 27 + L_##c2)

static const sgf_propdef builtin[SGF_PROP_BUILTIN_MAX_] = {
    {0, 0, "", SGF_VT_UNKNOWN, SGF_VT_UNKNOWN, SGF_VS_SINGLE, SGF_PC_NONE, 0,
     NULL},
#define DEF(c1, c2, t, t2, sh, cat, fl, d)                                   \
  {sizeof(sgf_propdef), SGF_PROP_##c1##c2, #c1 #c2, SGF_VT_##t, SGF_VT_##t2, \
   SGF_VS_##sh,         SGF_PC_##cat,      fl,      d},
    SGF_PROP_MAP(DEF)
#undef DEF
};

/* Slot -> index in builtin[] (0: none), which is the built-in's id
 * (value.h: sgf_prop_builtin_id reads it inline). uint8_t: fewer than 256
 * built-ins. */
const unsigned char sgf_prop_builtin_slots[SGF_PROP_SLOTS] = {
#define IDX(c1, c2, t, t2, sh, cat, fl, d) [SLOT(c1, c2)] = SGF_PROP_##c1##c2,
    SGF_PROP_MAP(IDX)
#undef IDX
};

typedef struct user_type {
  char name[24];
  sgf_vtype_check_fn check;
  void *ctx;
} user_type;

struct sgf_prop_table {
  sgf_allocator alloc;
  uint16_t index[NSLOTS]; /* slot -> index in defs (0: none) */
  sgf_propdef *defs;      /* defs[0] unused; built-ins first */
  size_t ndefs, cap;
  int next_user_id;
  user_type *types;
  size_t ntypes;
};

void sgf_propdef_init(sgf_propdef *d) {
  memset(d, 0, sizeof *d);
  d->size = sizeof *d;
}

sgf_prop_table *sgf_prop_table_create(const sgf_allocator *alloc) {
  sgf_allocator a;
  sgf_prop_table *t;
  size_t i;
  sgf__allocator_init(&a, alloc);
  t = sgf__malloc(&a, sizeof *t);
  if (!t) return NULL;
  memset(t, 0, sizeof *t);
  t->alloc = a;
  t->cap = SGF_PROP_BUILTIN_MAX_ + 16;
  t->defs = sgf__malloc(&a, t->cap * sizeof *t->defs);
  if (!t->defs) {
    sgf__free(&a, t, sizeof *t);
    return NULL;
  }
  memcpy(t->defs, builtin, sizeof builtin);
  t->ndefs = SGF_PROP_BUILTIN_MAX_;
  for (i = 0; i < NSLOTS; i++) t->index[i] = sgf_prop_builtin_slots[i];
  t->next_user_id = SGF_PROP_USER;
  return t;
}

void sgf_prop_table_destroy(sgf_prop_table *t) {
  if (!t) return;
  sgf__free(&t->alloc, t->defs, t->cap * sizeof *t->defs);
  if (t->types) sgf__free(&t->alloc, t->types, t->ntypes * sizeof *t->types);
  sgf__free(&t->alloc, t, sizeof *t);
}

/* Identifiers of three letters or more: the list of an application's
 * own. Out of line, so the one- and two-letter path of sgf_prop_lookup
 * below is a leaf that saves no registers (it runs once per property
 * of every game read). */
__attribute__((noinline, cold)) static const sgf_propdef *lookup_long(
    const sgf_prop_table *t, const char *ident, size_t len) {
  size_t i;
  if (!t || len > SGF_PROP_IDENT_MAX) return NULL;
  for (i = SGF_PROP_BUILTIN_MAX_; i < t->ndefs; i++)
    if (strlen(t->defs[i].ident) == len &&
        memcmp(t->defs[i].ident, ident, len) == 0)
      return &t->defs[i];
  return NULL;
}

const sgf_propdef *sgf_prop_lookup(const sgf_prop_table *t, const char *ident,
                                   size_t len) {
  int slot;
  unsigned k;
  if (!ident) return NULL;
  slot = sgf_prop_slot(ident, len);
  if (slot < 0) return len > 2 ? lookup_long(t, ident, len) : NULL;
  if (!t) {
    k = sgf_prop_builtin_slots[slot];
    return k ? &builtin[k] : NULL;
  }
  k = t->index[slot];
  return k ? &t->defs[k] : NULL;
}

static int type_known(const sgf_prop_table *t, int type) {
  if (type > SGF_VT_UNKNOWN && type < SGF_VT_BUILTIN_MAX_) return 1;
  return type >= SGF_VT_USER && (size_t)(type - SGF_VT_USER) < t->ntypes;
}

int sgf_prop_table_add(sgf_prop_table *t, const sgf_propdef *def) {
  size_t len, i;
  const sgf_propdef *old;
  sgf_propdef *d;
  int slot;
  if (!t || !def || def->size < sizeof *def) return SGF_EINVAL;
  {
    const char *nul = memchr(def->ident, 0, sizeof def->ident);
    len = nul ? (size_t)(nul - def->ident) : sizeof def->ident;
  }
  if (len == 0 || len > SGF_PROP_IDENT_MAX) return SGF_EINVAL;
  for (i = 0; i < len; i++)
    if (def->ident[i] < 'A' || def->ident[i] > 'Z') return SGF_EINVAL;
  if (!type_known(t, def->type) ||
      (def->type2 != SGF_VT_UNKNOWN && !type_known(t, def->type2)) ||
      (unsigned)def->shape > SGF_VS_ELIST ||
      (unsigned)def->category > SGF_PC_MISC)
    return SGF_EINVAL;
  old = sgf_prop_lookup(t, def->ident, len);
  if (old) {
    d = &t->defs[old - t->defs];
  } else {
    if (t->ndefs == t->cap) {
      size_t ncap = t->cap * 2;
      sgf_propdef *nd = sgf__realloc(&t->alloc, t->defs, t->cap * sizeof *nd,
                                     ncap * sizeof *nd);
      if (!nd) return SGF_ENOMEM;
      t->defs = nd;
      t->cap = ncap;
    }
    d = &t->defs[t->ndefs];
    slot = sgf_prop_slot(def->ident, len);
    if (slot >= 0) t->index[slot] = (uint16_t)t->ndefs;
    t->ndefs++;
  }
  {
    int id = old ? old->id : t->next_user_id++;
    *d = *def;
    d->size = sizeof *d;
    d->id = id;
    memset(d->ident + len, 0, sizeof d->ident - len);
  }
  return d->id;
}

int sgf_prop_table_add_type(sgf_prop_table *t, const char *name,
                            sgf_vtype_check_fn check, void *ctx) {
  user_type *nt;
  if (!t || !name || !check || strlen(name) >= sizeof nt->name)
    return SGF_EINVAL;
  nt = sgf__realloc(&t->alloc, t->types, t->ntypes * sizeof *nt,
                    (t->ntypes + 1) * sizeof *nt);
  if (!nt) return SGF_ENOMEM;
  t->types = nt;
  nt += t->ntypes;
  memset(nt, 0, sizeof *nt);
  strcpy(nt->name, name);
  nt->check = check;
  nt->ctx = ctx;
  return SGF_VT_USER + (int)t->ntypes++;
}

sgf_vtype_check_fn sgf__vtype_check(const sgf_prop_table *t, int type,
                                    void **ctx) {
  if (!t || type < SGF_VT_USER || (size_t)(type - SGF_VT_USER) >= t->ntypes)
    return NULL;
  *ctx = t->types[type - SGF_VT_USER].ctx;
  return t->types[type - SGF_VT_USER].check;
}

const char *sgf_vtype_name(const sgf_prop_table *t, int type) {
  static const char *const names[] = {
#define NAME(NAME, name) name,
      SGF_VTYPE_MAP(NAME)
#undef NAME
  };
  if (type > SGF_VT_UNKNOWN && type < SGF_VT_BUILTIN_MAX_)
    return names[type - 1];
  if (t && type >= SGF_VT_USER && (size_t)(type - SGF_VT_USER) < t->ntypes)
    return t->types[type - SGF_VT_USER].name;
  return NULL;
}

const char *sgf_pcat_name(sgf_pcat c) {
  static const char *const names[] = {"-",          "root",   "game-info",
                                      "setup",      "move",   "markup",
                                      "annotation", "timing", "misc"};
  if ((unsigned)c >= sizeof names / sizeof names[0]) return NULL;
  return names[c];
}
