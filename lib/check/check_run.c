/* check_run.c - sgf_check_moves(): the checks of a MOVE RUN's nodes
 * (sgfstream/check.h), decided in bulk.
 *
 * A run node is ";X[vv]": one property, one value of two bytes, in a node
 * of its own (the parser starts no run at a game's root, but the
 * contract does not promise it: a root goes the long way). Its checks (check.c,
 * check_value.c) find nothing when X is B or W as the table defines them (a
 * move of one value, in the move category), the node is not a root and vv is a
 * move on the board: two letters inside it ("tt" too on boards up to 19 x 19),
 * or, for games other than Go (GM not 1), where points are not checked,
 * any bytes but those UTF-8 would look at under CA[UTF-8]. No such node
 * can fail: the checks of a run are one table lookup per byte of letter
 * and value, and the only state a run leaves is that of its last node
 * (still open, as the parser keeps it) and of the node open before it
 * (now complete).
 *
 * Every other node (a point off the board, a bad value, another letter,
 * a root node) can fail and goes the long way: from the first such node
 * on, the run is replayed (sgf_run_replay(): each event positioned as the
 * parser positions it) and the events of the nodes that can fail go to
 * the checks of each event, as they would without runs; those of the
 * nodes that cannot fail are dropped. So findings, their positions and
 * their order are those of the general path, and a run costs at most one
 * replay.
 */
#include "check_priv.h"

#include "sgfstream/run.h"

/* run_ok's bits, by byte */
#define OK_COLUMN 1u /* a column on the board (a move's first byte) */
#define OK_ROW 2u    /* a row on the board (its second) */
#define OK_LETTER 4u /* a property letter whose run nodes can pass */

static int letter_value(unsigned ch) {
  if (ch >= 'a' && ch <= 'z') return (int)(ch - 'a');
  if (ch >= 'A' && ch <= 'Z') return (int)(ch - 'A') + 26;
  return -1;
}

/* A definition under which a run node of that letter finds nothing but
 * what its value's bytes decide: the built-in B or W's shape. */
static int plain_move(const sgf_propdef *d, int id) {
  return d && d->id == id && d->category == SGF_PC_MOVE &&
         d->type == SGF_VT_MOVE && d->type2 == SGF_VT_UNKNOWN &&
         d->shape == SGF_VS_SINGLE;
}

/* run_ok for the game and table as they stand now (made again only when
 * they changed since it was). */
static void run_table(sgf_checker *c) {
  const int fb = plain_move(sgf_prop_lookup(c->table, "B", 1), SGF_PROP_B);
  const int fw = plain_move(sgf_prop_lookup(c->table, "W", 1), SGF_PROP_W);
  const int w = c->board.width, h = c->board.height, go = c->gm == 1;
  const uint32_t key = 1u | (uint32_t)(w & 127) << 1 |
                       (uint32_t)(h & 127) << 8 | (uint32_t)go << 15 |
                       (uint32_t)(c->utf8 != 0) << 16 | (uint32_t)fb << 17 |
                       (uint32_t)fw << 18;
  unsigned ch;
  if (c->run_key == key) return;
  for (ch = 0; ch < 256; ch++) {
    unsigned char ok = 0;
    if (go) {
      const int v = letter_value(ch);
      if (v >= 0 && v < w) ok |= OK_COLUMN;
      if (v >= 0 && v < h) ok |= OK_ROW;
    } else if (ch < 0x80 || !c->utf8) {
      ok = OK_COLUMN | OK_ROW; /* points unchecked; nothing for UTF-8 */
    }
    c->run_ok[ch] = ok;
  }
  if (fb) c->run_ok['B'] |= OK_LETTER;
  if (fw) c->run_ok['W'] |= OK_LETTER;
  c->run_key = key;
}

/* 1 if the run node at q (its ';') passes by its bytes' bits alone (the
 * common case: one branch). */
static inline unsigned passes(const unsigned char *ok, const char *q) {
  return (unsigned)(ok[(unsigned char)q[1]] >> 2) & ok[(unsigned char)q[3]] &
         (unsigned)(ok[(unsigned char)q[4]] >> 1) & 1u;
}

/* 1 if the run node at q can fail a check. */
static int can_fail(const sgf_checker *c, const char *q) {
  if (passes(c->run_ok, q)) return 0;
  /* a letter that can fail, or a value not on the board: "tt" is a pass
   * up to 19 x 19 (in Go; in other games any byte passed above) */
  return !((c->run_ok[(unsigned char)q[1]] & OK_LETTER) && q[3] == 't' &&
           q[4] == 't' && c->board.width <= 19 && c->board.height <= 19);
}

/* The state the general path leaves after a node that cannot fail, the
 * run's last (open: its end comes as an event): its letter seen, a move
 * of that colour at pos (its letter). */
static void open_last(sgf_checker *c, char letter, sgf_pos pos) {
  c->node_open = 1;
  c->in_root = 0;
  c->seen[(letter - 'A') / 8] |= (unsigned char)(1u << ((letter - 'A') % 8));
  c->has_move = 1;
  c->move_pos = pos;
  c->color = letter;
  c->color_pos = pos;
}

/* The replay from the first node that can fail: each node's events go to
 * the checks (slow) or nowhere, decided at its on_node by walking the
 * run beside the replay. */
typedef struct replay {
  sgf_checker *c;
  sgf_run_iter it;
  const char *from; /* the first node that can fail: those before pass */
  int slow;         /* the current node's events go to the checks */
  char letter;      /* the current node's letter, and where it is */
  sgf_pos pos;
} replay;

static int r_node(sgf_parser *p, void *u) {
  replay *r = u;
  sgf_run_node n;
  if (!sgf_run_iter_next(&r->it, &n)) return SGF_CONTINUE; /* (cannot be) */
  r->slow = n.at >= r->from && (r->c->want_root || can_fail(r->c, n.at));
  if (r->slow) return sgf_check_node(r->c, p);
  r->letter = n.letter;
  r->pos.offset = n.offset + 1;
  r->pos.line = n.line;
  r->pos.column = n.column + 1;
  return SGF_CONTINUE;
}
static int r_property(sgf_parser *p, void *u, const char *id, size_t len) {
  replay *r = u;
  return r->slow ? sgf_check_property(r->c, p, id, len) : SGF_CONTINUE;
}
static int r_value(sgf_parser *p, void *u, const char *at, size_t len,
                   unsigned flags) {
  replay *r = u;
  return r->slow ? sgf_check_value(r->c, p, at, len, flags) : SGF_CONTINUE;
}
static int r_property_end(sgf_parser *p, void *u) {
  replay *r = u;
  return r->slow ? sgf_check_property_end(r->c, p) : SGF_CONTINUE;
}
/* (before the first on_node: the end of the node open before the run,
 * done already) */
static int r_node_end(sgf_parser *p, void *u) {
  replay *r = u;
  return r->slow ? sgf_check_node_end(r->c, p) : SGF_CONTINUE;
}

int sgf_check_moves(sgf_checker *c, sgf_parser *p, const char *at, size_t len,
                    size_t count) {
  sgf_run_iter it;
  sgf_run_node n;
  sgf_pos first;
  const char *from = NULL; /* the first node that can fail */
  int act;
  (void)count;
  if (!c || !p || (!at && len)) return SGF_CONTINUE;
  /* The node open before the run is complete: the replay's first event,
   * at the run's first ';', where the parser stands during on_moves. */
  act = check__node_done(c, p);
  if (act != SGF_CONTINUE) return act;
  run_table(c);
  first = sgf_parser_position(p);
  sgf_run_iter_init(&it, at, len, &first);
  n.at = NULL;
  if (c->want_root) { /* the run's first node is a game's root */
    from = at;
  } else {
    const unsigned char *ok = c->run_ok;
    while (sgf_run_iter_next(&it, &n)) {
      if (!passes(ok, n.at) && can_fail(c, n.at)) {
        from = n.at;
        break;
      }
    }
  }
  if (!from) {
    if (n.at) { /* the last node stays open */
      sgf_pos pos = sgf_run_iter_last(&it);
      pos.offset++;
      pos.column++;
      open_last(c, n.letter, pos);
    }
    return SGF_CONTINUE;
  }
  {
    sgf_callbacks cb;
    replay r;
    r.c = c;
    sgf_run_iter_init(&r.it, at, len, &first);
    r.from = from;
    r.slow = 0;
    r.letter = 0;
    sgf_callbacks_init(&cb);
    cb.on_node = r_node;
    cb.on_property = r_property;
    cb.on_value = r_value;
    cb.on_property_end = r_property_end;
    cb.on_node_end = r_node_end;
    act = sgf_run_replay(p, at, len, &cb, &r);
    if (act == SGF_CONTINUE && !r.slow && r.letter)
      open_last(c, r.letter, r.pos);
    return act;
  }
}
