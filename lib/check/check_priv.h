/* check_priv.h - the checker's state (sgfstream/check.h), shared by
 * check.c (events, nodes, properties) and check_value.c (values).
 */
#ifndef SGF_CHECK_PRIV_H
#define SGF_CHECK_PRIV_H

#include <stdint.h>

#include "alloc.h"
#include "sgfstream/check.h"

/* Point values of the root node held until it ends (SZ may follow). */
#define CHECK_PENDING_MAX 32
#define CHECK_PENDING_RAW 16
/* Identifiers of three letters and more remembered per node. */
#define CHECK_LONG_IDENTS 64
/* One bit per identifier of one or two letters: A-Z, then AA-ZZ. */
#define CHECK_SHORT_IDENTS (26 + 26 * 26)

typedef struct check_pending {
  const sgf_propdef *def;
  sgf_pos pos; /* of the '[' */
  size_t len;
  char raw[CHECK_PENDING_RAW];
} check_pending;

struct sgf_checker {
  sgf_allocator alloc;
  const sgf_prop_table *table;
  /* The game. */
  sgf_board board;
  int64_t gm; /* 1 without GM */
  int utf8;   /* the root's CA is UTF-8 */
  int sz_seen, gm_seen, ca_seen;
  int want_root;     /* the next node is a game's root */
  uint64_t gi_depth; /* depth of the path's game-info node; 0: none */
  sgf_pos gi_pos;    /* its first game-info property */
  size_t npending;
  check_pending pending[CHECK_PENDING_MAX];
  /* The node. */
  int node_open, in_root;
  unsigned char seen[(CHECK_SHORT_IDENTS + 7) / 8];
  uint64_t long_seen[CHECK_LONG_IDENTS];
  size_t nlong;
  int has_move, has_setup, mixed, has_gi;
  sgf_pos move_pos, setup_pos, color_pos;
  char color; /* 'B' or 'W': the node's first move */
  /* The property. */
  const sgf_propdef *def; /* NULL: unknown to the table */
  uint64_t nvalues;
  /* The value. */
  sgf_pos val_pos; /* of the '[' */
  sgf_value_acc acc;
  sgf_pos next; /* of the next byte, while checking UTF-8 */
  int cr;       /* the last byte was a CR */
  int need;     /* UTF-8 continuation bytes still expected */
  unsigned char lo, hi;
  sgf_pos lead; /* where the sequence began */
  int bad_utf8; /* reported for this value */
  /* MOVE RUNS (check_run.c): by byte, what a run node's letter and
   * value bytes may be for the node to pass every check, made for the
   * game and the table as run_key says (0: not made). */
  uint32_t run_key;
  unsigned char run_ok[256];
};

/* Report code at pos (mark: NULL or where the construct began). Returns
 * SGF_CONTINUE or SGF_ABORT (sgf_parser_report's). */
int check__report(sgf_parser *p, sgf_diag_code code, sgf_pos pos,
                  const sgf_pos *mark);

/* The node is complete (its end, or the next node, tree or run): the
 * root's held values are checked, the node's state is reset. */
int check__node_done(sgf_checker *c, sgf_parser *p);

/* check_value.c */
void check__value_begin(sgf_checker *c);
/* A piece of the value (on_value's); checks it whole after its last. */
int check__value(sgf_checker *c, sgf_parser *p, const char *at, size_t len,
                 unsigned flags);
/* The root node's held values, against the board it gave. */
int check__pending(sgf_checker *c, sgf_parser *p);

#endif /* SGF_CHECK_PRIV_H */
