/* writer_priv.h - the streaming writer's private state (see writer.c).
 * The tree writer (writer_tree.c) does not use it: it writes through the
 * public event functions like any client. */
#ifndef SGF_WRITER_PRIV_H
#define SGF_WRITER_PRIV_H

#include "sgfstream.h"

/* Where the output stands (the FF[4] grammar position). */
enum {
  W_TOP,         /* between game trees */
  W_SEQ_START,   /* '(' written, no node yet */
  W_NODE,        /* in a node, no property open */
  W_PROP,        /* identifier written (retractable), no value yet */
  W_VALUE,       /* inside '[' ... */
  W_AFTER_VALUE, /* the property has a value; another may follow */
  W_AFTER_CHILD, /* a variation closed: only '(' or ')' may follow */
  W_FAILED       /* the writer failed (status says why): nothing goes */
};

struct sgf_writer {
  /* The output buffer: len bytes pending, never more than cap. */
  char *buf;
  size_t len, cap;
  int where;    /* W_* */
  int esc;      /* the value's last raw byte was a backslash (pending) */
  int readable; /* SGF_LAYOUT_READABLE */
  int status;   /* SGF_OK or a negative code (sgfstream/error.h); sticky */
  const unsigned char *stop; /* bytes the value copy looks at */
  uint64_t depth;            /* game trees open */
  size_t prop_mark;    /* buf offset of the open property's identifier: the
                          buffer is never flushed between there and the
                          first '[', so a property without value is taken
                          back by truncating */
  uint64_t node_props; /* properties (with a value) in the current node */
  uint64_t flushed;    /* bytes handed to the sink */
  uint64_t line_start; /* output offset of the current line's first byte */
  size_t width;
  sgf_escaper text; /* for sgf_writer_value_text */
  sgf_write_fn write;
  void *ctx;
  void *user; /* sgf_writer_set_user */
  sgf_allocator alloc;
};

#endif
