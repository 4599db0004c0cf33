/* check.c - the checker's events: games, nodes and properties
 * (sgfstream/check.h). The values' checks are in check_value.c.
 *
 * Game info on a path: FF[4] allows one node with game-info properties
 * on any path from the root. The path's first such node is the only one
 * to remember (a later one is reported, and is deeper), and it leaves
 * the path when the game tree (variation) holding it closes: when a tree
 * of depth d ends, a game-info node at depth d or more is gone. So its
 * depth is all the state this needs, whatever the nesting.
 */
#include <string.h>

#include "check_priv.h"

void sgf_check_options_init(sgf_check_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->size = sizeof *o;
}

static void game_reset(sgf_checker *c) {
  sgf_board_init(&c->board);
  c->gm = 1;
  c->utf8 = c->sz_seen = c->gm_seen = c->ca_seen = 0;
  c->gi_depth = 0;
  c->npending = 0;
}

static void node_reset(sgf_checker *c) {
  memset(c->seen, 0, sizeof c->seen);
  c->nlong = 0;
  c->has_move = c->has_setup = c->mixed = c->has_gi = 0;
  c->color = 0;
  c->def = NULL;
  c->nvalues = 0;
}

void sgf_checker_reset(sgf_checker *c) {
  if (!c) return;
  game_reset(c);
  node_reset(c);
  c->want_root = 1;
  c->node_open = c->in_root = 0;
  c->run_key = 0; /* the run table is made anew for the next run */
}

sgf_checker *sgf_checker_create(const sgf_check_options *opt) {
  sgf_check_options o;
  sgf_allocator a;
  sgf_checker *c;
  sgf_check_options_init(&o);
  if (opt) {
    /* This is the struct's first version: nothing shorter is valid. */
    if (opt->size < sizeof o) return NULL;
    memcpy(&o, opt, opt->size < sizeof o ? opt->size : sizeof o);
    o.size = sizeof o;
  }
  sgf__allocator_init(&a, o.allocator);
  c = sgf__malloc(&a, sizeof *c);
  if (!c) return NULL;
  memset(c, 0, sizeof *c);
  c->alloc = a;
  c->table = o.table;
  sgf_checker_reset(c);
  return c;
}

void sgf_checker_destroy(sgf_checker *c) {
  if (!c) return;
  sgf__free(&c->alloc, c, sizeof *c);
}

int check__report(sgf_parser *p, sgf_diag_code code, sgf_pos pos,
                  const sgf_pos *mark) {
  sgf_diag d;
  memset(&d, 0, sizeof d);
  d.code = code;
  d.severity = sgf_diag_severity(code);
  d.pos = pos;
  if (mark) {
    d.has_mark = 1;
    d.mark = *mark;
  }
  return sgf_parser_report(p, &d) == SGF_ABORT ? SGF_ABORT : SGF_CONTINUE;
}

/* The node is complete: the root's held values are checked. */
int check__node_done(sgf_checker *c, sgf_parser *p) {
  int act = SGF_CONTINUE;
  if (!c->node_open) return act;
  if (c->in_root) act = check__pending(c, p);
  c->node_open = c->in_root = 0;
  node_reset(c);
  return act;
}

int sgf_check_tree_begin(sgf_checker *c, sgf_parser *p) {
  int act;
  if (!c || !p) return SGF_CONTINUE;
  act = check__node_done(c, p);
  if (sgf_parser_depth(p) <= 1) {
    game_reset(c);
    c->want_root = 1;
  }
  return act;
}

int sgf_check_tree_end(sgf_checker *c, sgf_parser *p) {
  int act;
  if (!c || !p) return SGF_CONTINUE;
  act = check__node_done(c, p);
  if (c->gi_depth && c->gi_depth >= sgf_parser_depth(p)) c->gi_depth = 0;
  return act;
}

int sgf_check_node(sgf_checker *c, sgf_parser *p) {
  int act;
  if (!c || !p) return SGF_CONTINUE;
  act = check__node_done(c, p);
  c->node_open = 1;
  c->in_root = c->want_root;
  c->want_root = 0;
  return act;
}

int sgf_check_node_end(sgf_checker *c, sgf_parser *p) {
  if (!c || !p) return SGF_CONTINUE;
  return check__node_done(c, p);
}

/* FNV-1a: identifiers of three letters and more, remembered by hash. */
static uint64_t ident_hash(const char *s, size_t len) {
  uint64_t h = 14695981039346656037u;
  size_t i;
  for (i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211u;
  }
  return h;
}

static int upper(char ch) { return ch >= 'A' && ch <= 'Z'; }

/* 1 if the node had the identifier already; remembers it. */
static int seen_before(sgf_checker *c, const char *ident, size_t len) {
  size_t i;
  uint64_t h;
  if (len == 1 && upper(ident[0])) {
    i = (size_t)(ident[0] - 'A');
  } else if (len == 2 && upper(ident[0]) && upper(ident[1])) {
    i = 26 + (size_t)(ident[0] - 'A') * 26 + (size_t)(ident[1] - 'A');
  } else {
    h = ident_hash(ident, len);
    for (i = 0; i < c->nlong; i++)
      if (c->long_seen[i] == h) return 1;
    if (c->nlong < CHECK_LONG_IDENTS) c->long_seen[c->nlong++] = h;
    return 0;
  }
  if (c->seen[i / 8] & (1u << (i % 8))) return 1;
  c->seen[i / 8] |= (unsigned char)(1u << (i % 8));
  return 0;
}

/* The rules about a property's place: its node and its path. */
static int place_checks(sgf_checker *c, sgf_parser *p, sgf_pos pos) {
  const sgf_propdef *def = c->def;
  int act = SGF_CONTINUE;
  switch (def->category) {
    case SGF_PC_MOVE:
      if (c->has_setup && !c->mixed) {
        c->mixed = 1;
        act = check__report(p, SGF_DIAG_MOVE_AND_SETUP, pos, &c->setup_pos);
        if (act != SGF_CONTINUE) return act;
      }
      if (!c->has_move) {
        c->has_move = 1;
        c->move_pos = pos;
      }
      if (def->id == SGF_PROP_B || def->id == SGF_PROP_W) {
        char color = def->id == SGF_PROP_B ? 'B' : 'W';
        if (c->color && c->color != color)
          return check__report(p, SGF_DIAG_TWO_MOVES, pos, &c->color_pos);
        if (!c->color) {
          c->color = color;
          c->color_pos = pos;
        }
      }
      return act;
    case SGF_PC_SETUP:
      if (c->has_move && !c->mixed) {
        c->mixed = 1;
        act = check__report(p, SGF_DIAG_MOVE_AND_SETUP, pos, &c->move_pos);
      }
      if (!c->has_setup) {
        c->has_setup = 1;
        c->setup_pos = pos;
      }
      return act;
    case SGF_PC_ROOT:
      if (!c->in_root)
        return check__report(p, SGF_DIAG_ROOT_OUTSIDE_ROOT, pos, NULL);
      return act;
    case SGF_PC_GAME_INFO:
      if (c->has_gi) return act;
      c->has_gi = 1;
      if (c->gi_depth)
        return check__report(p, SGF_DIAG_GAME_INFO_TWICE, pos, &c->gi_pos);
      c->gi_depth = sgf_parser_depth(p);
      if (c->gi_depth == 0) c->gi_depth = 1;
      c->gi_pos = pos;
      return act;
    default:
      return act;
  }
}

int sgf_check_property(sgf_checker *c, sgf_parser *p, const char *ident,
                       size_t len) {
  sgf_pos pos;
  int act = SGF_CONTINUE;
  if (!c || !p || (!ident && len)) return SGF_CONTINUE;
  pos = sgf_parser_position(p);
  c->def = sgf_prop_lookup(c->table, ident, len);
  c->nvalues = 0;
  if (len && seen_before(c, ident, len)) {
    act = check__report(p, SGF_DIAG_DUPLICATE_PROPERTY, pos, NULL);
    if (act != SGF_CONTINUE) return act;
  }
  if (c->def) act = place_checks(c, p, pos);
  return act;
}

int sgf_check_value(sgf_checker *c, sgf_parser *p, const char *at, size_t len,
                    unsigned flags) {
  int act = SGF_CONTINUE;
  if (!c || !p || (!at && len)) return SGF_CONTINUE;
  if (flags & SGF_VALUE_FIRST) {
    c->val_pos = sgf_parser_position(p);
    check__value_begin(c);
    if (++c->nvalues == 2 && c->def && c->def->shape == SGF_VS_SINGLE) {
      act = check__report(p, SGF_DIAG_SEVERAL_VALUES, c->val_pos, NULL);
      if (act != SGF_CONTINUE) return act;
    }
  }
  return check__value(c, p, at, len, flags);
}

int sgf_check_property_end(sgf_checker *c, sgf_parser *p) {
  if (!c || !p) return SGF_CONTINUE;
  c->def = NULL;
  c->nvalues = 0;
  return SGF_CONTINUE;
}
