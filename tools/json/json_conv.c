/* json_conv.c - the JSON converter (json_conv.h): JSON Lines, one game a
 * line, written as the parser's events arrive (no tree is built). For
 * `sgf json` (tools/cmd/cmd_json.c), `sgf filter --json` and `sgf serve`.
 *
 * STREAMING. A line is written in event order: the root node's values are
 * held until the root node is complete (the next ';', '(' or ')'; the
 * core's on_node_end event, when it lands, can take that role), because
 * CA may follow text and the header fields come first. Then the header
 * fields, then the tree node by node, and last the main line's moves,
 * gathered while the tree went by. The tree is a flat list of its game
 * trees (variations) in file order, each naming its parent by index:
 * nested JSON would be as deep as the variations, and jq 1.6 (depth 256)
 * and Python (recursion limit) refuse deep documents. The open game trees
 * live in an explicit stack (jlevel), never in recursion.
 *
 * --headers writes the root node only and returns SGF_SKIP at the first
 * event after it, so the tokenizer passes over the rest of each game.
 * --mainline uses the parser's mainline mode (SGF_OPT_MAINLINE) and
 * writes no tree. A game the parser stops inside (a fatal error) is closed
 * as it stands and marked "incomplete": every line is valid JSON.
 *
 * MEMORY. Held: the main line's moves (written last), a value in pieces
 * (whole, to be decoded) and the root node's records. --headers and
 * --mainline hold only what they write: of the root the first value of
 * each header field and of CA, capped (JHEAD_VALUE_MAX), and B and W;
 * elsewhere only B and W values. So their memory does not grow with the
 * comments they do not print (test/tool/json-bugs.sh measures it).
 */
#define _POSIX_C_SOURCE 200809L

#include "json_conv.h"
#include "json_game.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

typedef struct jrun {
  jgame g;
  sgf_callbacks cb;
  const char *arg;         /* the FILE argument as inputs are named */
  void (*game_done)(void); /* json_options */
  int stopped;
  int have_error;
  sgf_diag last_error;
} jrun;

/* ------------------------------------------------------------ the tree */

static int tree_mode(const jgame *g) { return g->mode == JSON_FULL; }

static jlevel *top(jgame *g) { return &g->stack[g->depth - 1]; }

static int push(jgame *g, unsigned flags) {
  if (g->depth == g->stack_cap) {
    size_t cap = g->stack_cap ? 2 * g->stack_cap : 64;
    jlevel *s = realloc(g->stack, cap * sizeof *s);
    if (s == NULL) return -1;
    g->stack = s;
    g->stack_cap = cap;
  }
  g->stack[g->depth].entry = g->entries;
  g->stack[g->depth++].flags = flags;
  return 0;
}

static void node_close(jgame *g) {
  if (g->node_open && tree_mode(g)) jout_byte(g->out, ']');
  g->node_open = 0;
}

/* A "tree" entry: {"parent":N,"nodes":[ (parent < 0: null). */
static void entry_open(jgame *g, int64_t parent) {
  if (tree_mode(g)) {
    jout_cstr(g->out, g->entries ? ",{\"parent\":" : "{\"parent\":");
    if (parent < 0)
      jout_cstr(g->out, "null");
    else
      jout_int(g->out, parent);
    jout_cstr(g->out, ",\"nodes\":[");
  }
  g->entries++;
  g->entry_open = 1;
  g->any_node = 0;
}

static void entry_close(jgame *g) {
  node_close(g);
  if (g->entry_open && tree_mode(g)) jout_cstr(g->out, "]}");
  g->entry_open = 0;
}

static void node_open(jgame *g) {
  if (!g->entry_open) {
    /* a node after a child tree in the same tree (the parser makes that
     * an implicit variation): it continues from the tree's entry */
    int64_t parent = (int64_t)top(g)->entry;
    node_close(g);
    top(g)->entry = g->entries;
    entry_open(g, parent);
  }
  if (tree_mode(g)) { /* ], [ in one piece: the node before closed */
    char *q = jout_room(g->out, 3);
    size_t n = 0;
    if (g->node_open) q[n++] = ']';
    if (g->any_node) q[n++] = ',';
    q[n++] = '[';
    g->out->len += n;
  }
  g->any_node = 1;
  g->node_open = 1;
  g->nprops = 0;
}

static void prop_begin(jgame *g, const char *ident, size_t len) {
  const sgf_propdef *def;
  char color = 0;
  if (len == 1 && (ident[0] == 'B' || ident[0] == 'W')) {
    if (g->def_b == NULL) { /* once: the most frequent properties */
      g->def_b = sgf_prop_lookup(NULL, "B", 1);
      g->def_w = sgf_prop_lookup(NULL, "W", 1);
    }
    color = ident[0];
    def = color == 'B' ? g->def_b : g->def_w;
  } else {
    /* the same few properties again and again (BL, WL, C): a small
     * cache by the table's slot, the lookup once per game and slot */
    int slot = sgf_prop_slot(ident, len);
    jdefslot *e = &g->defs[(unsigned)slot % JDEF_CACHE];
    if (slot < 0) {
      def = sgf_prop_lookup(NULL, ident, len);
    } else {
      if (e->slot != slot + 1) {
        e->slot = slot + 1;
        e->def = sgf_prop_lookup(NULL, ident, len);
      }
      def = e->def;
    }
  }
  g->move_color = color;
  g->def = def;
  if (!tree_mode(g)) return;
  if (len <= SGF_PROP_IDENT_MAX) { /* ,["ID" in one piece, no memcpy call */
    jout *o = g->out;
    const size_t c = g->nprops > 0; /* the comma after a property */
    char *q = jout_room(o, len + 4);
    const size_t n = o->len + c + len + 3; /* (read before the stores) */
    size_t i;
    g->nprops++;
    q[0] = ',';
    q[c] = '[';
    q[c + 1] = '"';
    if (len == 2) { /* most: two letters */
      q[c + 2] = ident[0];
      q[c + 3] = ident[1];
    } else if (len == 1) {
      q[c + 2] = ident[0];
    } else {
      for (i = 0; i < len; i++) q[c + 2 + i] = ident[i]; /* uppercase */
    }
    q[c + 2 + len] = '"';
    o->len = n;
    return;
  }
  if (g->nprops++) jout_byte(g->out, ',');
  jout_cstr(g->out, "[\"");
  jout_bytes(g->out, ident, len);
  jout_byte(g->out, '"');
}

/* A move jplain_move() accepts: kept, and written without decoding.
 * -1: memory ran out keeping it (for the caller to report: where the
 * value is, it knows). */
static int plain_move(jgame *g, const char *raw) {
  int rc = (top(g)->flags & JL_MAIN) ? jkeep_plain(g, raw) : 0;
  if (tree_mode(g)) {
    char *q = jout_room(g->out, 5);
    q[0] = ',';
    q[1] = '"';
    q[2] = raw[0];
    q[3] = raw[1];
    q[4] = '"';
    g->out->len += 5;
  }
  return rc;
}

static const char nomem_moves[] = "out of memory keeping the main line";

static void prop_value(jgame *g, const char *raw, size_t len,
                       const sgf_pos *pos) {
  if (g->move_color && !g->raw && !g->slow && jplain_move(g, raw, len)) {
    if (plain_move(g, raw) != 0) jdiag(g, *pos, 1, nomem_moves);
    return;
  }
  if (g->move_color && (top(g)->flags & JL_MAIN)) jkeep_move(g, raw, len, *pos);
  if (!tree_mode(g)) return;
  jout_byte(g->out, ',');
  jwrite_value(g, raw, len, pos);
}

static void prop_end(jgame *g) {
  if (tree_mode(g)) jout_byte(g->out, ']');
}

/* {"source":{"file":F,"member":M,"game": - the same for every game of
 * an input: made once (g->src) while F and M stay the same. */
static void write_source(jgame *g) {
  jout *o = g->out;
  const char *m = g->member ? g->member : "";
  size_t flen = strlen(g->file), mlen = strlen(m), start, worst;
  if (g->src.len > 0 && g->src_member == (g->member != NULL) &&
      g->src_key.len == flen + mlen + 1 &&
      memcmp(g->src_key.p, g->file, flen + 1) == 0 &&
      memcmp(g->src_key.p + flen + 1, m, mlen) == 0) {
    jout_bytes(o, g->src.p, g->src.len);
    return;
  }
  /* a byte's escape is at most 6 bytes: with room for the worst, the
   * buffer is not flushed while it is written, and what was is kept */
  worst = 6 * (flen + mlen) + 64;
  if (worst <= JOUT_CAP / 2) jout_room(o, worst);
  start = o->len;
  jout_cstr(o, "{\"source\":{\"file\":");
  jwrite_name(g, g->file);
  jout_cstr(o, ",\"member\":");
  if (g->member)
    jwrite_name(g, g->member);
  else
    jout_cstr(o, "null");
  jout_cstr(o, ",\"game\":");
  g->src.len = 0;
  g->src_key.len = 0;
  if (worst > JOUT_CAP / 2) return;
  if (bytebuf_try_add(&g->src, o->buf + start, o->len - start) != 0 ||
      bytebuf_try_add(&g->src_key, g->file, flen + 1) != 0 ||
      bytebuf_try_add(&g->src_key, m, mlen) != 0) {
    g->src.len = 0; /* not kept: made again */
    return;
  }
  g->src_member = g->member != NULL;
}

/* The root node is complete: CA and SZ, the header, then the node. */
static void root_done(jgame *g) {
  int had_node = g->root_phase == 1, slot = -1;
  size_t at = 0;
  jrec r;
  g->root_phase = 2;
  /* 16 bytes after the records, zeroed: a value of up to 16 bytes in
   * them is scanned in one load (jwrite_text) */
  g->root_padded = bytebuf_reserve(&g->root, JROOT_PAD) == 0;
  if (g->root_padded) memset(g->root.p + g->root.len, 0, JROOT_PAD);
  jroot_settings(g);
  write_source(g);
  jout_uint(g->out, g->index);
  jout_cstr(g->out, ",\"offset\":");
  jout_uint(g->out, g->pos.offset);
  jout_cstr(g->out, ",\"line\":");
  jout_uint(g->out, g->pos.line);
  jout_cstr(g->out, ",\"column\":");
  jout_uint(g->out, g->pos.column);
  jout_byte(g->out, '}');
  jwrite_header(g);
  if (g->mode == JSON_HEADERS) return;
  if (tree_mode(g)) jout_cstr(g->out, ",\"tree\":[");
  entry_open(g, -1);
  if (!had_node) return;
  node_open(g);
  /* --mainline writes of the root only its moves (B and W): none, no
   * walk (the header fields are written) */
  if (!tree_mode(g) && !g->root_moves) return;
  while (jroot_next(g, &at, &r)) {
    if (!r.is_value) {
      if (g->nprops) prop_end(g);
      prop_begin(g, r.s, r.len);
      slot = jheader_slot(r.s, r.len);
      if (slot >= JHEAD_FIELDS || (slot >= 0 && !(g->root_seen & 1u << slot)))
        slot = -1;
    } else if (!r.dropped) {
      /* a header field's value: its decoding error is reported once */
      g->mute_decode = slot >= 0 && g->first_at[slot] == r.at;
      prop_value(g, r.s, r.len, &r.pos);
      g->mute_decode = 0;
    }
  }
  if (g->nprops) prop_end(g);
}

static void game_begin(jgame *g, sgf_pos pos) {
  g->pos = jpos_abs(g, pos);
  g->root_phase = 0;
  g->text_utf8 = 0;
  g->node_open = 0;
  g->nprops = 0;
  g->guess_warned = 0;
  g->depth = 0;
  g->entries = 0;
  g->entry_open = 0;
  g->root.len = 0;
  g->root_have = 0;
  g->root_seen = 0;
  g->root_moves = 0;
  if (g->root.cap > JKEEP_CAP) bytebuf_free(&g->root); /* a large one's */
  if (g->val.cap > JKEEP_CAP) bytebuf_free(&g->val);
  g->moves.len = 0;
  g->move_raw.len = 0;
  g->nraw = 0;
  sgf_board_init(&g->board);
  jplain_set(g);
  push(g, JL_MAIN);
}

/* Close the innermost game tree; at the top, the line. */
static void tree_close(jgame *g, int incomplete) {
  if (g->root_phase != 2) root_done(g);
  entry_close(g);
  g->depth--;
  if (g->depth > 0) return;
  if (tree_mode(g)) jout_byte(g->out, ']');
  if (g->mode != JSON_HEADERS) jwrite_moves(g);
  if (incomplete) jout_cstr(g->out, ",\"incomplete\":true");
  jout_cstr(g->out, "}\n");
  g->index++;
}

/* ------------------------------------------------------------ events */

static int on_tree_begin(sgf_parser *p, void *u) {
  jrun *r = u;
  jgame *g = &r->g;
  jlevel *t;
  unsigned flags;
  int64_t parent;
  if (g->depth == 0) {
    game_begin(g, sgf_parser_position(p));
    return SGF_CONTINUE;
  }
  if (g->root_phase != 2) root_done(g);
  entry_close(g);
  t = top(g);
  flags = (t->flags & JL_MAIN) && !(t->flags & JL_CHILD) ? JL_MAIN : 0;
  t->flags |= JL_CHILD;
  parent = (int64_t)t->entry;
  if (push(g, flags) != 0) {
    jdiag(g, sgf_parser_position(p), 1, "out of memory");
    return SGF_ABORT;
  }
  entry_open(g, parent);
  /* --headers: the root node is written; pass over this variation (and
   * from its end, the rest of the game: on_tree_end) */
  return g->mode == JSON_HEADERS ? SGF_SKIP : SGF_CONTINUE;
}

static int on_tree_end(sgf_parser *p, void *u) {
  jrun *r = u;
  jgame *g = &r->g;
  (void)p;
  if (g->depth == 0) return SGF_CONTINUE;
  tree_close(g, 0);
  if (g->depth == 0 && r->game_done) r->game_done();
  /* --headers: a variation right after the root node was skipped; skip
   * the rest of the game too. */
  if (g->mode == JSON_HEADERS && g->depth > 0) return SGF_SKIP;
  return SGF_CONTINUE;
}

static int on_node(sgf_parser *p, void *u) {
  jrun *r = u;
  jgame *g = &r->g;
  (void)p;
  if (g->depth == 0) return SGF_CONTINUE;
  if (g->root_phase == 0 && g->depth == 1) {
    g->root_phase = 1; /* the root node: held until complete */
    return SGF_CONTINUE;
  }
  if (g->root_phase != 2) {
    /* TODO: with the core's on_node_end, complete the root there. */
    root_done(g);
    if (g->mode == JSON_HEADERS) return SGF_SKIP;
  }
  node_open(g);
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------ the root */

/* The root node is held as records (jroot_next) until it is complete.
 * The full output writes all of it; --headers and --mainline keep only
 * what they write: the first value of each header field and of CA, up
 * to JHEAD_VALUE_MAX bytes (one longer is dropped, with a warning, and
 * its field is null), and (--mainline) B and W. Nothing else of the
 * root is held, so a large comment in it costs no memory. A value's
 * pieces go straight into its record. */

static const char nomem_root[] = "out of memory holding the root node";

static int root_property(jgame *g, sgf_parser *p, const char *at, size_t len) {
  const size_t n = len > 255 ? 255 : len;
  const int slot = jheader_slot(at, len);
  char *q;
  size_t i;
  g->head_slot = slot;
  g->root_slot = -1;
  g->root_keep = 1;
  if (g->mode != JSON_FULL) {
    const int move = len == 1 && (at[0] == 'B' || at[0] == 'W');
    g->root_slot = slot;
    g->root_keep = (slot >= 0 && !(g->root_have & 1u << slot)) ||
                   (g->mode == JSON_MAINLINE && move);
    if (!g->root_keep) return SGF_CONTINUE;
    g->root_moves |= move;
  }
  if (g->root.cap - g->root.len <= 2 + n &&
      bytebuf_reserve(&g->root, 2 + n) != 0) {
    jdiag(g, sgf_parser_position(p), 1, nomem_root);
    return SGF_ABORT;
  }
  q = g->root.p + g->root.len;
  q[0] = 'P';
  q[1] = (char)n;
  for (i = 0; i < n; i++) q[2 + i] = at[i]; /* a letter or two: no call */
  q[2 + n] = '\0';
  g->root.len += 2 + n;
  return SGF_CONTINUE;
}

/* A header value over JHEAD_VALUE_MAX: its record becomes a 'D'. */
static void root_drop(jgame *g) {
  char *q = g->root.p + g->vrec; /* room: the 'V' record's head */
  q[0] = 'D';
  memcpy(q + 1, &g->vpos, sizeof g->vpos);
  g->root.len = g->vrec + 1 + sizeof g->vpos;
  g->root.p[g->root.len] = '\0';
  g->rv = JRV_DROPPED;
  if (g->root_slot < JHEAD_FIELDS)
    jdiag(g, g->vpos, 0,
          "%s: value over %zu bytes, not kept (--headers and --mainline "
          "keep header values up to that size): \"%s\" written as null",
          jheader_id(g->root_slot), JHEAD_VALUE_MAX, jheader_key(g->root_slot));
  else
    jdiag(g, g->vpos, 0,
          "CA: value over %zu bytes, not kept (--headers and --mainline "
          "keep header values up to that size): text read as with no CA",
          JHEAD_VALUE_MAX);
}

/* A piece of a value of the root node (known: its position, when the
 * event has one; else the parser's). */
static NOINLINE int root_value_piece(jgame *g, sgf_parser *p,
                                     const sgf_pos *known, const char *at,
                                     size_t len, unsigned flags) {
  size_t n;
  if (!g->root_keep) return SGF_CONTINUE;
  if (flags & SGF_VALUE_FIRST) {
    char *q;
    g->rv = JRV_SKIP;
    if (g->root_slot >= 0) { /* the first value only */
      if (g->root_have & 1u << g->root_slot) return SGF_CONTINUE;
      g->root_have |= 1u << g->root_slot;
    }
    /* for diagnostics only: none are written when quiet (sgf serve) */
    if (!g->quiet) g->vpos = known ? *known : sgf_parser_position(p);
    if (g->root.cap - g->root.len <= JREC_HEAD + len &&
        bytebuf_reserve(&g->root, JREC_HEAD + len) != 0) {
      jdiag(g, g->vpos, 1, nomem_root);
      return SGF_ABORT;
    }
    g->vrec = g->root.len;
    q = g->root.p + g->root.len;
    q[0] = 'V';
    memcpy(q + 1, &g->vpos, sizeof g->vpos);
    g->root.len += JREC_HEAD; /* the length: below */
    g->rv = JRV_KEEP;
    if (g->head_slot >= 0 && !(g->root_seen & 1u << g->head_slot)) {
      g->root_seen |= 1u << g->head_slot; /* a header field's first */
      g->first_at[g->head_slot] = g->vrec;
    }
  }
  if (g->rv != JRV_KEEP) return SGF_CONTINUE;
  if (g->root_slot >= 0 &&
      len > JHEAD_VALUE_MAX - (g->root.len - g->vrec - JREC_HEAD)) {
    root_drop(g);
    return SGF_CONTINUE;
  }
  /* (a value in one piece: its room reserved with its head) */
  if (g->root.cap - g->root.len <= len && bytebuf_reserve(&g->root, len) != 0) {
    jdiag(g, g->vpos, 1, nomem_root);
    return SGF_ABORT;
  }
  memcpy(g->root.p + g->root.len, at, len);
  g->root.len += len;
  g->root.p[g->root.len] = '\0';
  /* the length so far: whole, also if the game stops inside the value */
  n = g->root.len - g->vrec - JREC_HEAD;
  memcpy(g->root.p + g->vrec + 1 + sizeof g->vpos, &n, sizeof n);
  return SGF_CONTINUE;
}

static int on_property(sgf_parser *p, void *u, const char *at, size_t len) {
  jrun *r = u;
  jgame *g = &r->g;
  if (g->depth == 0) return SGF_CONTINUE;
  if (g->root_phase == 1) return root_property(g, p, at, len);
  if (!g->node_open) /* a property before any node: not in a node */
    return SGF_CONTINUE;
  prop_begin(g, at, len);
  return SGF_CONTINUE;
}

/* A value now belongs to the property being written (not to the root
 * node's records, not to a property outside any node). */
static int in_property(const jgame *g) {
  return g->root_phase != 1 && g->node_open && (g->nprops > 0 || !tree_mode(g));
}

/* A value's event; its position, when needed, is *known (a node of a
 * move run: on_moves) or the parser's. A value in pieces is held whole
 * (g->val) to be decoded: only one that is written. */
static int value_event(jrun *r, sgf_parser *p, const sgf_pos *known,
                       const char *at, size_t len, unsigned flags) {
  jgame *g = &r->g;
  if (g->depth == 0) return SGF_CONTINUE;
  if (g->root_phase == 1) /* the root node's: held */
    return root_value_piece(g, p, known, at, len, flags);
  if ((flags & SGF_VALUE_FIRST) && (flags & SGF_VALUE_LAST) && g->move_color &&
      !g->raw && !g->slow && in_property(g) && jplain_move(g, at, len)) {
    /* most values: a move in one piece, needing no position */
    if (plain_move(g, at) != 0)
      jdiag(g, known ? *known : sgf_parser_position(p), 1, nomem_moves);
    return SGF_CONTINUE;
  }
  if (!in_property(g) || (!tree_mode(g) && !g->move_color))
    return SGF_CONTINUE; /* not written (--mainline: only the moves) */
  if (flags & SGF_VALUE_FIRST) {
    /* for diagnostics only: none are written when quiet (sgf serve) */
    if (!g->quiet) g->vpos = known ? *known : sgf_parser_position(p);
    g->val.len = 0;
  }
  if ((flags & SGF_VALUE_FIRST) && (flags & SGF_VALUE_LAST)) {
    prop_value(g, at, len, &g->vpos);
    return SGF_CONTINUE;
  }
  if (bytebuf_try_add(&g->val, at, len) != 0) {
    jdiag(g, g->vpos, 1, "out of memory");
    return SGF_ABORT;
  }
  if (flags & SGF_VALUE_LAST) prop_value(g, g->val.p, g->val.len, &g->vpos);
  return SGF_CONTINUE;
}

static int on_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  jrun *r = u;
  /* the root node's straight to its records: a call that saves and
   * restores only the registers of its own */
  if (r->g.root_phase == 1 && r->g.depth > 0)
    return root_value_piece(&r->g, p, NULL, at, len, flags);
  return value_event(r, p, NULL, at, len, flags);
}

static int on_property_end(sgf_parser *p, void *u) {
  jrun *r = u;
  jgame *g = &r->g;
  (void)p;
  if (g->depth == 0 || g->root_phase == 1 || !g->node_open) return SGF_CONTINUE;
  prop_end(g);
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------ move runs */

/* MOVE RUNS (sgfstream/parser.h): plain move nodes, ";B[qd]", a run of them in
 * one call. A node the template takes (B or W, a move jplain_move()
 * accepts, after an open node of a written root) is written as the
 * general path writes it, "],[["B","qd"]", and kept for "moves" on the
 * main line; any other node (the first of a variation, the root, a pass
 * "tt", a point off the board, another property) goes through the event
 * handlers, positioned where it is. The last node stays open with its
 * one property, as the general path leaves it. */

/* Where a node of a run is: the run is walked without positions (the
 * node's relative to the run's first ';'), the first position asked
 * only for a node that takes the general path. */
static sgf_pos run_pos(sgf_parser *p, sgf_pos *first, int *have,
                       const sgf_run_iter *it) {
  const sgf_pos rel = sgf_run_iter_last(it);
  sgf_pos pos;
  if (!*have) {
    *first = sgf_parser_position(p);
    *have = 1;
  }
  pos.offset = first->offset + rel.offset;
  pos.line = first->line + rel.line - 1;
  pos.column = rel.line == 1 ? first->column + rel.column - 1 : rel.column;
  return pos;
}

/* The node at nd (';' at pos), its events one by one. */
static int run_node(jrun *r, sgf_parser *p, const char *nd, sgf_pos pos) {
  int rc;
  pos.offset += 2; /* the value's '[' */
  pos.column += 2;
  if ((rc = on_node(p, r)) != SGF_CONTINUE) return rc;
  if ((rc = on_property(p, r, nd + 1, 1)) != SGF_CONTINUE) return rc;
  rc = value_event(r, p, &pos, nd + 3, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST);
  if (rc != SGF_CONTINUE) return rc;
  return on_property_end(p, r);
}

#define TEMPLATE_BYTES 13 /* ],[["B","qd"] */
#define TEMPLATE_SPARE 3  /* written past a template, then overwritten */

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* A node's template at q (tree) and its main line entry at m (main), c
 * its letter and v its value. Where the byte order is known, as words of
 * constant bytes with the letter and the value stored over them: no
 * per-byte work, a few stores. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORDS 1
/* ],[["c", */
#define TW(c) (0x2c2200225b5b2c5dull | (uint64_t)(c) << 40)
/* ,["c"," (byte 7 written by the value's word) */
#define MW(c) (0x00222c2200225b2cull | (uint64_t)(c) << 24)
#else
#define WORDS 0
#endif

/* run_loop's body for one node, at s (its ';'): 0 when the template
 * does not take it. The three tests (the letter B or W, the two bytes
 * on the board) are lookups in g, made together: one branch, and no
 * table's address held in a register. */
static ALWAYS_INLINE int put_node(const jgame *g, char *q, char *m, int tree,
                                  int main, const char *s) {
  const unsigned char c = (unsigned char)s[1];
  const char *v = s + 3;
#if WORDS
  /* the letter's test and the value's, one branch; then the words of
   * constant bytes, the letter and the value stored over them */
  const uint64_t tk = TW(0), t1 = 0x5d22000022ull, mk = MW(0);
  uint16_t vv;
  if (!(g->move_letter[c] & g->plain[0][(unsigned char)v[0]] &
        g->plain[1][(unsigned char)v[1]]))
    return 0;
  memcpy(&vv, v, 2); /* once: the stores below may alias v */
  if (tree) {        /* ],[["c", "vv"] (3 bytes spare after) */
    memcpy(q, &tk, 8);
    q[5] = (char)c;
    memcpy(q + 8, &t1, 8);
    memcpy(q + 9, &vv, 2);
  }
  if (main) { /* ,["c"," then vv"] from byte 7 */
    const uint32_t m1 = 0x5d220000u | vv;
    memcpy(m, &mk, 8);
    m[3] = (char)c;
    memcpy(m + 7, &m1, 4);
  }
#else
  if ((c != 'B' && c != 'W') || !jplain_move(g, v, 2)) return 0;
  if (tree) {
    memcpy(q, "],[[\"B\",\"pd\"]", TEMPLATE_BYTES);
    q[5] = (char)c;
    q[9] = v[0];
    q[10] = v[1];
  }
  if (main) {
    memcpy(m, ",[\"B\",\"pd\"]", MOVE_BYTES);
    m[3] = (char)c;
    m[7] = v[0];
    m[8] = v[1];
  }
#endif
  return 1;
}

/* run_template's loop, for constant tree and main: up to n nodes (n >= 1,
 * as many as there is room for at *q and *m, no more than the run has
 * from *s on), while the template takes them. Returns how many it took;
 * *q and *m past what it wrote, *s the node not taken, or the last node
 * taken when all n were (the walk it then past it), *last the letter of
 * the last taken (read from what was written). The walk counts: one
 * test a node (sgf_run_iter_step()). */
static ALWAYS_INLINE size_t run_loop(const jgame *g, sgf_run_iter *it,
                                     const char **s, size_t n, char **q,
                                     char **m, char *last, int tree, int main) {
  char *tq = *q, *tm = *m;
  sgf_run_iter w = *it; /* locals, in registers */
  sgf_run_node cur;
  const char *at = *s;
  size_t left = n;
  while (put_node(g, tq, tm, tree, main, at)) {
    if (tree) tq += TEMPLATE_BYTES;
    if (main) tm += MOVE_BYTES;
    if (!tree && !main) *last = at[1];
    if (--left == 0) break;
    sgf_run_iter_step(&w, &cur);
    at = cur.at;
  }
  *it = w;
  *s = at;
  *q = tq;
  *m = tm;
  /* the last letter: from what was written */
  if (left < n && tree)
    *last = tq[5 - TEMPLATE_BYTES];
  else if (left < n && main)
    *last = tm[3 - MOVE_BYTES];
  return n - left;
}

/* Each on its own (not inlined, NOINLINE): a loop in a function of its
 * own keeps its pointers in registers. */
#define RUN_LOOP(name, tree, main)                                          \
  static NOINLINE size_t name(const jgame *g, sgf_run_iter *it,             \
                              const char **s, size_t n, char **q, char **m, \
                              char *last) {                                 \
    return run_loop(g, it, s, n, q, m, last, tree, main);                   \
  }
RUN_LOOP(run_tree_main, 1, 1)
RUN_LOOP(run_tree, 1, 0)
RUN_LOOP(run_main, 0, 1)
RUN_LOOP(run_none, 0, 0)
#undef RUN_LOOP

/* Up to n nodes from *nd on (the walk it; n no more than the run has
 * from *nd on) by the template, while it takes them: a node is open, the
 * root written. Returns how many; *nd the node after them (when fewer
 * than n). A run's node is ';', a letter, '[', two bytes and ']'
 * (sgfstream/parser.h): one whose letter is B or W (a word of the
 * letter's table) and whose two bytes are letters on the board (g->plain,
 * one lookup a byte) needs no other test. */
static size_t run_template(jgame *g, sgf_run_iter *itp, sgf_run_node *ndp,
                           size_t n) {
  jout *o = g->out;
  const int tree = tree_mode(g), main = (top(g)->flags & JL_MAIN) != 0;
  sgf_run_iter it = *itp; /* locals: the fields not read cost nothing */
  const char *s = ndp->at;
  char *m = NULL, *m0 = NULL, last = 0;
  size_t k = 0;
  /* the main line's room once (out of memory: the general path says
   * so, where the node is) */
  if (main) {
    if (bytebuf_reserve(&g->moves, n * MOVE_BYTES) != 0) return 0;
    m = m0 = g->moves.p + g->moves.len;
  }
  for (;;) {
    /* the worst case of as many nodes as the buffer holds, reserved once */
    const size_t most = (JOUT_CAP - TEMPLATE_SPARE) / TEMPLATE_BYTES;
    size_t b = n - k < most ? n - k : most;
    size_t done;
    char *q = tree ? jout_room(o, TEMPLATE_BYTES * b + TEMPLATE_SPARE) : NULL;
    if (tree && main)
      done = run_tree_main(g, &it, &s, b, &q, &m, &last);
    else if (tree)
      done = run_tree(g, &it, &s, b, &q, &m, &last);
    else if (main)
      done = run_main(g, &it, &s, b, &q, &m, &last);
    else
      done = run_none(g, &it, &s, b, &q, &m, &last);
    if (tree) o->len = (size_t)(q - o->buf);
    k += done;
    if (done < b || k == n) break;
    sgf_run_iter_step(&it, ndp); /* the next block's first node */
    s = ndp->at;
  }
  if (main) {
    g->moves.len += (size_t)(m - m0);
    g->moves.p[g->moves.len] = '\0';
  }
  if (k > 0) { /* the last node's property, as prop_begin() leaves it */
    g->move_color = last;
    g->def = last == 'B' ? g->def_b : g->def_w;
    g->nprops = 1;
  }
  *itp = it;
  ndp->at = s;
  ndp->value = s + 3;
  ndp->letter = s[1];
  return k;
}

static int on_moves(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  jrun *r = u;
  jgame *g = &r->g;
  sgf_run_iter it;
  sgf_run_node nd;
  sgf_pos first;
  int have = 0;
  if (g->def_b == NULL) { /* as prop_begin() looks them up */
    g->def_b = sgf_prop_lookup(NULL, "B", 1);
    g->def_w = sgf_prop_lookup(NULL, "W", 1);
  }
  sgf_run_iter_init(&it, at, len, NULL);
  if (!sgf_run_iter_next(&it, &nd)) return SGF_CONTINUE;
  while (count > 0) {
    int rc;
    if (g->depth > 0 && g->root_phase == 2 && g->node_open && !g->raw &&
        !g->slow) {
      size_t k = run_template(g, &it, &nd, count);
      if ((count -= k) == 0) break;
    }
    /* a SKIP or an abort here stands for the rest of the run: skipped
     * or not parsed after it either way */
    rc = run_node(r, p, nd.at, run_pos(p, &first, &have, &it));
    if (rc != SGF_CONTINUE) return rc;
    if (--count == 0 || !sgf_run_iter_next(&it, &nd)) break;
  }
  return SGF_CONTINUE;
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  jrun *r = u;
  const char *msg = sgf_diag_message(d->code);
  const char *name = sgf_diag_name(d->code);
  sgf_pos pos = jpos_abs(&r->g, d->pos);
  (void)p;
  if (r->g.have_origin && pos.offset < r->g.quiet_before &&
      d->severity != SGF_SEV_FATAL)
    return SGF_CONTINUE; /* sgf filter reported it */
  if (d->severity == SGF_SEV_WARNING) {
    r->g.status = jst_worse(r->g.status, JST_WARNINGS);
  } else {
    r->g.status = jst_worse(r->g.status, JST_ERRORS);
    r->last_error = *d;
    r->have_error = 1;
  }
  if (r->g.quiet) return SGF_CONTINUE;
  if (jdiag_shared()) {
    jout_flush(r->g.out);
    fflush(stdout);
  }
  if (r->g.before_message) r->g.before_message();
  fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s: %s [%s]\n", r->g.name,
          pos.line, pos.column, sgf_severity_name(d->severity),
          msg ? msg : "unknown diagnostic", name ? name : "unknown");
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------ inputs */

static void stopped(jrun *r) {
  const sgf_diag *d = sgf_parser_error(r->g.p);
  r->stopped = 1;
  r->g.status = jst_worse(r->g.status, JST_ERRORS);
  if (d != NULL && !(r->have_error && d->code == r->last_error.code &&
                     d->pos.offset == r->last_error.pos.offset))
    on_diagnostic(r->g.p, r, d);
}

static void begin(void *ctx, const char *name) {
  jrun *r = ctx;
  size_t n = strlen(r->arg);
  sgf_parser_reset(r->g.p);
  r->stopped = 0;
  r->have_error = 0;
  r->g.name = name;
  r->g.index = 0;
  r->g.depth = 0;
  r->g.file = name;
  r->g.member = NULL;
  r->g.input_utf8 = 0;
  if (strcmp(name, r->arg) != 0 && strncmp(name, r->arg, n) == 0 &&
      name[n] == ':') {
    r->g.file = r->arg;
    r->g.member = name + n + 1;
  }
}

/* The bytes of a game or an input, whole: the handlers never pause. */
static int feed(jrun *r, const char *buf, size_t len) {
  if (len > 0 && sgf_parser_feed(r->g.p, buf, len, NULL) != SGF_OK) {
    stopped(r);
    return 1;
  }
  return 0;
}

static void end(jrun *r) {
  if (!r->stopped && sgf_parser_finish(r->g.p) != SGF_OK) stopped(r);
  while (r->g.depth > 0) /* the parser stopped inside a game */
    tree_close(&r->g, 1);
  jout_flush(r->g.out);
}

/* runs: take MOVE RUNS (on_moves), which only the fast paths use: not
 * with SGF_JSON_SLOW, --raw or --headers (which writes no node). */
static void set_callbacks(sgf_callbacks *cb, int runs) {
  sgf_callbacks_init(cb);
  cb->on_tree_begin = on_tree_begin;
  cb->on_tree_end = on_tree_end;
  cb->on_node = on_node;
  cb->on_property = on_property;
  cb->on_value = on_value;
  cb->on_property_end = on_property_end;
  cb->on_diagnostic = on_diagnostic;
  if (runs) cb->on_moves = on_moves;
}

static int runs_wanted(const jgame *g) {
  return !g->slow && !g->raw && g->mode != JSON_HEADERS;
}

/* ------------------------------------------------------------ the converter */

struct json_conv {
  jrun r;        /* first: the handlers' user pointer is the json_conv */
  bytebuf *to;   /* json_options.to */
  bytebuf spill; /* events: a line longer than the jout buffer */
};

void json_options_init(json_options *o) { memset(o, 0, sizeof *o); }

void json_conv_destroy(json_conv *c) {
  jgame *g;
  if (c == NULL) return;
  g = &c->r.g;
  bytebuf_free(&c->spill);
  sgf_parser_destroy(g->p);
  if (g->cs) {
    sgf_charset_free(g->cs, g->conv, g->conv_cap);
    sgf_charset_destroy(g->cs);
  }
  free(g->stack);
  free(g->val.p);
  free(g->root.p);
  free(g->moves.p);
  free(g->move_raw.p);
  free(g->text.p);
  free(g->src.p);
  free(g->src_key.p);
  free(g->out);
  free(c);
}

json_conv *json_conv_create(const json_options *opt, const char **error) {
  json_conv *c = calloc(1, sizeof *c);
  sgf_charset_options copt;
  sgf_options popt;
  jgame *g;
  *error = "out of memory";
  if (c == NULL) return NULL;
  g = &c->r.g;
  g->mode = opt->mode;
  g->raw = opt->raw;
  g->quiet = opt->quiet;
  g->before_message = opt->before_message;
  c->to = opt->to;
  c->r.game_done = opt->game_done;
  g->slow = jslow_wanted();
  jout_use_portable(g->slow);
  g->out = malloc(sizeof *g->out); /* 64 KiB: not zeroed */
  g->move_letter['B'] = g->move_letter['W'] = 1;
  if (opt->charset) {
    copt = *opt->charset;
  } else {
    sgf_charset_options_init(&copt);
  }
  if (opt->parse) {
    popt = *opt->parse;
  } else {
    sgf_options_init(&popt);
  }
  if (g->mode == JSON_MAINLINE) popt.flags |= SGF_OPT_MAINLINE;
  if (g->out == NULL) goto fail;
  g->out->len = 0;
  g->out->to = NULL; /* stdout */
  if ((g->cs = sgf_charset_create(&copt)) == NULL) {
    *error = "unknown charset";
    goto fail;
  }
  set_callbacks(&c->r.cb, runs_wanted(g));
  /* a property's end writes its ']' in the tree only: without one, not
   * asked for (json_conv_callbacks' set keeps it: sgf serve calls it) */
  if (!tree_mode(g)) c->r.cb.on_property_end = NULL;
  g->p = sgf_parser_create(&c->r.cb, &c->r, &popt);
  if (g->p == NULL) goto fail;
  return c;
fail:
  json_conv_destroy(c);
  return NULL;
}

int json_conv_status(const json_conv *c) { return c->r.g.status; }

void json_conv_begin(json_conv *c, const char *name, const char *arg) {
  c->r.arg = arg;
  begin(&c->r, name);
}

sgf_parser *json_conv_parser(json_conv *c) { return c->r.g.p; }

void json_conv_stop(json_conv *c) { stopped(&c->r); }

int json_conv_stopped(const json_conv *c) { return c->r.stopped; }

void json_conv_input_utf8(json_conv *c) { c->r.g.input_utf8 = 1; }

void json_conv_end(json_conv *c) {
  while (c->r.g.depth > 0) /* the parser stopped inside a game */
    tree_close(&c->r.g, 1);
}

void json_conv_flush(json_conv *c) { jout_flush(c->r.g.out); }

/* ------------------------------------------------------------ for filter */

int json_conv_cut(json_conv *c, const char *name, const char *arg,
                  uint64_t index, sgf_pos origin, uint64_t quiet_before,
                  const char *bytes, size_t len) {
  jrun *r = &c->r;
  r->g.have_origin = 1;
  r->g.status = JST_CLEAN;
  json_conv_begin(c, name, arg);
  r->g.index = index;
  r->g.origin = origin;
  r->g.quiet_before = quiet_before;
  feed(r, bytes, len); /* a stop is reported, and end() closes the line */
  end(r);
  return r->g.status;
}

/* ------------------------------------------------------------ sgf serve */

int json_conv_game(json_conv *c, const char *name, const char *buf,
                   size_t len) {
  jrun *r = &c->r;
  bytebuf *out = c->to;
  size_t mark;
  if (out == NULL) return -1;
  mark = out->len;
  json_conv_begin(c, name, name);
  r->g.out->to = out;
  feed(r, buf, len);
  end(r);
  r->g.out->to = NULL;
  return out->len > mark ? 0 : -1;
}

/* The game's '(' in another parser's stream: the source as for the
 * game's bytes alone (json_conv_game). */
static int conv_tree_begin(sgf_parser *p, void *u) {
  jrun *r = u;
  int top = r->g.depth == 0, rc = on_tree_begin(p, u);
  if (top) {
    r->g.pos.offset = 0;
    r->g.pos.line = 1;
    r->g.pos.column = 1;
  }
  return rc;
}

void json_conv_callbacks(const json_conv *c, sgf_callbacks *cb) {
  set_callbacks(cb, runs_wanted(&c->r.g));
  cb->on_tree_begin = conv_tree_begin;
  cb->on_diagnostic = NULL; /* quiet: they change no line */
}

void json_conv_start(json_conv *c, const char *name) {
  jgame *g = &c->r.g;
  c->r.arg = name;
  g->name = g->file = name;
  g->member = NULL;
  g->index = 0;
  g->depth = 0;
  g->input_utf8 = 0;
  g->out->len = 0;
  c->spill.len = 0;
  g->out->to = &c->spill;
}

int json_conv_take(json_conv *c) {
  jout *o = c->r.g.out;
  bytebuf *out = c->to;
  int rc = -1;
  if (out != NULL && c->r.g.depth == 0 && c->spill.len + o->len > 0) {
    if (c->spill.len > 0) {
      jout_flush(o);
      rc = bytebuf_try_add(out, c->spill.p, c->spill.len);
    } else {
      rc = bytebuf_try_add(out, o->buf, o->len);
    }
  }
  o->len = 0;
  c->spill.len = 0;
  return rc == 0 ? 0 : -1;
}

size_t json_conv_size(void) { return sizeof(json_conv) + sizeof(jout); }

size_t json_conv_held(const json_conv *c) {
  const jgame *g = &c->r.g;
  return json_conv_size() + c->spill.cap + g->val.cap + g->root.cap +
         g->src.cap + g->src_key.cap + g->moves.cap + g->move_raw.cap +
         g->text.cap + g->conv_cap + g->stack_cap * sizeof *g->stack;
}
