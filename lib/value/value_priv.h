/* value_priv.h - what the files of lib/value share. */
#ifndef SGF_VALUE_PRIV_H
#define SGF_VALUE_PRIV_H

#include "sgfstream.h"
#include "sgfstream.h"

/* The check function of a registered type (and its ctx), or NULL. */
sgf_vtype_check_fn sgf__vtype_check(const sgf_prop_table *t, int type,
                                    void **ctx);

/* Store an error offset where the caller asked for one; return code. */
static inline int sgf__verr(size_t *err_off, size_t off, int code) {
  if (err_off) *err_off = off;
  return code;
}

#endif
