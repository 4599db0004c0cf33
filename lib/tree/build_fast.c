/* build_fast.c - the tree builder's fast path (build_priv.h): the DIRECT
 * storage mode and the two faster tiers of handlers. Each does what the
 * general path (tree_build.c) would do and nothing else, for the usual
 * case only; everything else goes on to the general handlers.
 *
 * DIRECT. Most nodes are a move: one property, one short value. When a
 * node begins, room for such a node (DIRECT_SIZE) is reserved at the
 * free end of the scratch arena's head block, and the node and its
 * property, the value inline in the property record, are written there
 * in place as the events come; at the node's end the room is taken. Anything
 * else (a second property or value, a value of DIRECT_BYTES or more, an
 * identifier to copy, a general path) first moves what was written to the
 * buffers below (to_staged), and the node goes on BUFFERED. Only with the
 * builder's own parser, lazy, and no pass-through handler.
 *
 * FAST PATHS. Each event handler has an inline fast path for the usual
 * case (DIRECT, or BUFFERED with room everywhere) that does just what the
 * general path (COLD) would; everything else takes the general path. The
 * three events of a DIRECT move node go first through LEAVES: handlers
 * that call nothing at all (positions read inline from the event state),
 * so they save no registers and set up no frame; whatever they cannot do
 * without a call goes on to the general handlers.
 */
#include <string.h>

#include "build_priv.h"

/* The open node, written in place so far, is buffered from here on (for
 * a second property or value, a longer value, an identifier to copy...):
 * what DIRECT wrote moves to pp, vals and sb, as if read that way (the
 * room reserved stays free for the buffered node's allocation). 0, or the
 * action after a failure. */
COLD_EXTERN int sgf__tb_to_staged(sgf_tree_builder *b, sgf_parser *p) {
  sgf__bnode *n = b->dn;
  b->direct = 0; /* (open_pos: only kept positions read it, never DIRECT) */
  b->npp = b->nvals = b->sblen = 0;
  if (b->dstate >= 1) {
    const sgf__prop *pr = DPROP(n);
    sprop *sp;
    if (sgf__tb_grow(b, (void **)&b->pp, &b->ppcap, 1, sizeof *b->pp, 16) ||
        sgf__tb_grow(b, (void **)&b->vals, &b->valcap, 1, sizeof *b->vals,
                     16) ||
        sb_room(b, b->dlen + 1)) {
      b->dstate = 0;
      return sgf__tb_fail(b, p, SGF__ERR_NOMEM);
    }
    sp = &b->pp[0];
    sp->ident = sp->raw = sgf__code_ident(b->tree, pr->code); /* static */
    sp->ident_len = sp->raw_len = strlen(sp->ident);
    sp->pos = b->dpos[0];
    b->psb = b->pfirst = 0;
    b->vroom = b->max_value_bytes;
    b->in_prop = 1;
    if (b->dstate == 2) {
      if (b->dlen) memcpy(b->sb, DBYTES(n), b->dlen);
      b->sblen = b->dlen;
      b->vals[0].off = 0;
      b->vals[0].pos = b->dpos[1];
      b->nvals = 1;
      b->in_value = 1;
      b->vroom -= sizeof(sgf__val) + b->dlen; /* direct_ok: no wrap */
    }
  }
  b->dstate = 0;
  sgf__tb_room_set(b);
  return 0;
}

/* Each handler has a general path (COLD: every state, the pass-through,
 * failures) and an inline fast path for the usual case (see FAST PATHS),
 * which does what the general path would and nothing else: a node, a
 * property of one or two uppercase letters written as such, a value and
 * its data, in place (DIRECT) or with room in every buffer and no
 * pass-through handler for the event. Fields of *b are read and updated
 * before bytes are stored through a char pointer (which may alias *b: the
 * compiler would reload them after it). */

static int h_tree_begin(sgf_parser *p, void *u) {
  return sgf__tb_slow_tree_begin(p, u);
}

static int h_tree_end(sgf_parser *p, void *u) {
  return sgf__tb_slow_tree_end(p, u);
}

NOINLINE int node_general(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->building && b->open && !b->ev.on_node)) {
    sgf_tree *t;
    uint64_t used;
    int r;
    if (LIKELY(b->direct)) {
      r = close_direct(b, p);
    } else {
      if (b->in_prop) end_pending(b);
      r = sgf__tb_close_staged(b, p);
    }
    if (r != 0) return r;
    /* open_node(b, p, 0): cur has just been linked, so fresh is 0 */
    t = b->tree;
    used = t->bytes + sizeof(sgf__bnode);
    if (LIKELY(t->nnodes < t->max_nodes && used <= b->max_bytes)) {
      if (LIKELY(b->direct_ok)) {
        sgf__block *bl = t->blocks;
        sgf__bnode *n;
        if (LIKELY(bl->size - bl->used >= DIRECT_SIZE)) {
          n = (sgf__bnode *)((char *)bl + bl->used);
        } else { /* a new block */
          n = sgf__tree_reserve(t, DIRECT_SIZE);
          if (!n) return sgf__tb_fail(b, p, t->err);
        }
        b->dn = n;
        b->open = b->direct = 1;
        b->dstate = 0;
        b->open_flags = 0;
        return SGF_CONTINUE;
      } else {
        b->room = b->max_bytes - used;
        b->npp = b->nvals = b->sblen = 0;
        b->open = 1;
        b->open_flags = 0;
        b->open_pos = EVENT_POS(p);
        return SGF_CONTINUE;
      }
    }
  }
  return sgf__tb_slow_node(p, u);
}

/* The identifier of a property, when it is one or two uppercase letters
 * written as such (raw, rn: as written): a static string, else NULL; *pf
 * gets what it tells about the node (as sgf__node_scan would find). */
HOT_INLINE const char *static_ident(const char *id, size_t n, const char *raw,
                                    size_t rn, uint32_t *pf) {
  char c0 = id[0], c1;
  *pf = 0;
  if (rn != n || !upper(c0)) return NULL;
  if (n == 1 && (raw == id || raw[0] == c0)) {
    if (c0 == 'B') *pf = SGF__N_BLACK;
    if (c0 == 'W') *pf = SGF__N_WHITE;
    return sgf__tb_letters + 2 * (c0 - 'A');
  }
  if (n == 2 && upper(c1 = id[1]) &&
      (raw == id || (raw[0] == c0 && raw[1] == c1))) {
    if ((c0 == 'P' && c1 == 'L') || (c0 == 'M' && c1 == 'N') ||
        (c0 == 'H' && c1 == 'A'))
      *pf = OPEN_SCAN;
    return sgf__tb_letters2 + 3 * (26 * (c0 - 'A') + (c1 - 'A'));
  }
  return NULL;
}

/* The DIRECT node's property: a static identifier written as such (what
 * static_ident gave, with its flags pf); its position (b->dpos[0]) still
 * to be written. */
HOT_INLINE void direct_property(sgf_tree_builder *b, const char *ident,
                                uint32_t pf) {
  sgf__prop *pr = DPROP(b->dn);
  b->prop_flags = pf;
  b->dstate = 1;
  /* the static strings' code (IDENTIFIER CODES in tree_internal.h) */
  pr->code = (uint16_t)(ident[1] ? 26 + (ident - sgf__tb_letters2) / 3
                                 : (ident - sgf__tb_letters) / 2);
}

NOINLINE int property_general(sgf_parser *p, void *u, const char *at,
                              size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  size_t rn;
  const char *raw, *ident;
  uint32_t pf;
  if (LIKELY(b->direct)) { /* implies building, open, no pass-through */
    if (LIKELY(b->dstate == 0)) {
      raw = RAW_IDENT(p, &rn);
      ident = static_ident(at, n, raw, rn, &pf);
      if (LIKELY(ident != NULL)) {
        direct_property(b, ident, pf);
        b->dpos[0] = EVENT_POS(p);
        return SGF_CONTINUE;
      }
    }
  } else if (LIKELY(b->building && b->open && !b->ev.on_property)) {
    if (b->in_prop) end_pending(b);
    raw = RAW_IDENT(p, &rn);
    ident = static_ident(at, n, raw, rn, &pf);
    if (LIKELY(ident && b->npp < b->ppcap && b->npp < UINT32_MAX &&
               b->room >= sizeof(sgf__prop))) {
      sprop *sp = &b->pp[b->npp];
      b->room -= sizeof(sgf__prop);
      b->psb = b->sblen;
      b->pfirst = b->nvals;
      b->vroom = b->max_value_bytes;
      b->prop_flags = pf;
      b->in_prop = 1;
      sp->ident = sp->raw = ident;
      sp->ident_len = sp->raw_len = n;
      sp->pos = EVENT_POS(p);
      return SGF_CONTINUE;
    }
  }
  return sgf__tb_slow_property(p, u, at, n);
}

static int h_value_begin(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct)) {
    if (LIKELY(b->dstate == 1)) {
      b->dstate = 2;
      b->dlen = 0;
      b->dpos[1] = EVENT_POS(p);
      return SGF_CONTINUE;
    }
  } else if (LIKELY(b->in_prop && (b->lazy || !b->in_value) &&
                    b->vroom >= sizeof(sgf__val) &&
                    b->room >= sizeof(sgf__tval) + 1 && b->nvals < b->valcap &&
                    b->sbcap - b->sblen >= 2 && !b->ev.on_value_begin)) {
    sval *v;
    if (b->in_value) end_value(b);
    b->vroom -= sizeof(sgf__val);
    b->room -= sizeof(sgf__tval) + 1;
    v = &b->vals[b->nvals++];
    v->off = b->sblen;
    v->pos = EVENT_POS(p);
    b->in_value = 1;
    return SGF_CONTINUE;
  }
  return sgf__tb_slow_value_begin(p, u);
}

static int h_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  char *d;
  if (LIKELY(b->direct)) {
    if (LIKELY(b->dstate == 2 && n < DIRECT_BYTES - b->dlen)) {
      d = DBYTES(b->dn) + b->dlen;
      b->dlen += n;
      goto copy;
    }
  } else if (LIKELY(b->in_value && n <= b->vroom && n <= b->room &&
                    n < b->sbcap - b->sblen && !b->ev.on_value_data)) {
    d = b->sb + b->sblen;
    b->sblen += n;
    b->vroom -= n;
    b->room -= n;
    goto copy;
  }
  return sgf__tb_slow_value_data(p, u, at, n);
copy:
  if (n == 2) { /* most values are points */
    d[0] = at[0];
    d[1] = at[1];
  } else {
    memcpy(d, at, n);
  }
  return SGF_CONTINUE;
}

/* Whole values (on_value): the builder's own parser uses this unless a
 * pass-through handler wants the three value events. A piece is
 * value-begin (FIRST), value-data (bytes), value-end (LAST; needed only
 * when not lazy), as the three events would be, in one call. */
NOINLINE int value_general(sgf_parser *p, void *u, const char *at, size_t n,
                           unsigned flags) {
  sgf_tree_builder *b = BUILDER(u);
  int r = SGF_CONTINUE;
  /* DIRECT, the first value of the node's property, whole and short (a
   * move): what value-begin and value-data do, at once */
  if (LIKELY(b->direct && b->dstate == 1 && (flags & SGF_VALUE_FIRST) &&
             n < DIRECT_BYTES)) {
    char *d = DBYTES(b->dn);
    b->dstate = 2;
    b->dlen = n;
    b->dpos[1] = EVENT_POS(p);
    if (n == 2) { /* most values are points */
      d[0] = at[0];
      d[1] = at[1];
    } else if (n) {
      memcpy(d, at, n);
    }
    return SGF_CONTINUE; /* lazy (DIRECT is): LAST needs nothing */
  }
  /* BUFFERED, lazy, no pass-through, a value's first piece (a header
   * value, most often whole): what value-begin and value-data do, at
   * once, with room for both (else each on its own, below) */
  if (LIKELY(!b->direct && b->lazy && (flags & SGF_VALUE_FIRST) && b->in_prop &&
             !b->ev.on_value && !b->ev.on_value_begin && !b->ev.on_value_data &&
             b->nvals < b->valcap && b->vroom >= sizeof(sgf__val) &&
             n <= b->vroom - sizeof(sgf__val) &&
             b->room >= sizeof(sgf__tval) + 1 &&
             n <= b->room - (sizeof(sgf__tval) + 1) &&
             b->sbcap - b->sblen >= 2 &&
             n + (size_t)(b->in_value != 0) < b->sbcap - b->sblen)) {
    sval *v;
    char *d;
    if (b->in_value) end_value(b);
    b->vroom -= sizeof(sgf__val) + n;
    b->room -= sizeof(sgf__tval) + 1 + n;
    v = &b->vals[b->nvals++];
    v->off = b->sblen;
    v->pos = EVENT_POS(p);
    b->in_value = 1;
    d = b->sb + b->sblen;
    b->sblen += n;
    if (n == 2) {
      d[0] = at[0];
      d[1] = at[1];
    } else if (n) {
      memcpy(d, at, n);
    }
    return SGF_CONTINUE; /* lazy: LAST needs nothing */
  }
  if (flags & SGF_VALUE_FIRST) r = h_value_begin(p, u);
  if (r == SGF_CONTINUE && n) r = h_value_data(p, u, at, n);
  if (r == SGF_CONTINUE && (flags & SGF_VALUE_LAST) && !b->lazy)
    r = sgf__tb_b_value_end(b, p);
  if (r != SGF_ABORT && b->ev.on_value)
    r = sgf__tb_passed(b, b->ev.on_value(p, b->user, at, n, flags), r);
  return r;
}

/* LEAVES. The three events of a move node, in the usual case, handled
 * by functions that call nothing (no registers to save, no frame): the
 * DIRECT node with a static identifier, a value of 0 or 2 bytes, and a
 * position the event state gives inline (pos_inline). Anything else, or
 * anything that might call (a full scan for PL, MN or HA, the index or an
 * arena block to sgf__tb_grow, a limit), takes the general handler above, which
 * does the same and more. */

/* In DIRECT mode, the event position is in the counters (as
 * sgf_event_position reads them). DIRECT is only for a builder's own
 * parser, whose event state es is from creation, and its events come
 * from inside its feed or finish (es->live): what is left to ask is
 * whether the event is on the current line. */
HOT_INLINE int pos_inline(const sgf_tree_builder *b) {
  const sgf_event_state *es = b->es;
  return es->offset >= es->line_start;
}

/* The position of the current event, when pos_inline holds. */
HOT_INLINE void put_pos(sgf_pos *d, const sgf_event_state *es) {
  d->offset = es->offset;
  d->line = es->line;
  d->column = es->offset - es->line_start + 1;
}

static int h_node(sgf_parser *p, void *u) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct && b->dstate == 2)) {
    sgf_tree *const t = b->tree;
    sgf__block *const bl = t->blocks;
    const uint32_t id = t->nnodes;
    const uint32_t f = b->open_flags | b->prop_flags;
    const size_t len = b->dlen;
    const size_t take = DIRECT_TAKE(len);
    /* the node written in place ends, the next begins behind it */
    if (LIKELY(!(f & OPEN_SCAN) && id < b->ixcap && id + 1 < t->max_nodes &&
               t->bytes + sizeof(sgf__bnode) <= b->max_bytes &&
               bl->size - bl->used >= take + DIRECT_SIZE)) {
      sgf__bnode *const n = b->dn, *next;
      bl->used += take;
      next = (sgf__bnode *)((char *)bl + bl->used);
      link_node(b, t, n, id, f, direct_value_done(n, len), 1, 0);
      b->dn = next;
      b->dstate = 0;
      b->open_flags = 0;
      DBYTES(n)[len] = '\0'; /* last: a char store may alias everything */
      return SGF_CONTINUE;
    }
  }
  return node_general(p, u);
}

static int h_property(sgf_parser *p, void *u, const char *at, size_t n) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct && b->dstate == 0 && pos_inline(b))) {
    const sgf_event_state *es = b->es;
    uint32_t pf;
    const char *ident =
        static_ident(at, n, es->raw_ident, es->raw_ident_len, &pf);
    if (LIKELY(ident != NULL)) {
      direct_property(b, ident, pf);
      put_pos(&b->dpos[0], es);
      return SGF_CONTINUE;
    }
  }
  return property_general(p, u, at, n);
}

static int h_value(sgf_parser *p, void *u, const char *at, size_t n,
                   unsigned flags) {
  sgf_tree_builder *b = BUILDER(u);
  if (LIKELY(b->direct && b->dstate == 1 && (flags & SGF_VALUE_FIRST) &&
             (n == 2 || n == 0) && pos_inline(b))) {
    sgf__bnode *dn = b->dn;
    char *d = DBYTES(dn);
    b->dstate = 2;
    b->dlen = n;
    put_pos(&b->dpos[1], b->es);
    if (n) { /* a point */
      d[0] = at[0];
      d[1] = at[1];
    }
    return SGF_CONTINUE; /* lazy (DIRECT is): LAST needs nothing */
  }
  return value_general(p, u, at, n, flags);
}

/* MOVE RUNS (sgfstream/parser.h). A run of plain move nodes is the events it
 * stands for, each node's node, property and value (a DIRECT builder is
 * lazy and has no node-end handler).
 *
 * In the usual case (the node before is a whole DIRECT move, and the
 * block, the index and the limits have room for k more nodes) the next k
 * nodes are what h_node, h_property and h_value would do on their fast
 * paths, in a loop with no call (CHAIN): each node linked when the next
 * begins, as h_node links it, and written in place behind it. After the
 * first, a node's parent is the node before, fresh and childless, and its
 * value two bytes: chain_link links it in fewer steps than link_node.
 *
 * Otherwise a node's three events go to those handlers, positioned as the
 * parser would have positioned them, through an event state of the run's
 * own (ks) that b->es points to meanwhile: they read their positions
 * inline from it, and a general path (a new block, the index to grow, a
 * limit) from it too. The positions of a DIRECT node's property and value
 * (dpos) are written for the run's last node only: the ';' that follows
 * a run node ends it, so they are read for no other. */

/* Link n (slot id, flags f: BLACK, WHITE or 0; its identifier's code
 * code; its value the two bytes v) as the only child of parent, the node
 * linked just before it; as link_node (may_scan 0) and direct_value_done
 * would, but for what no one reads of a node CHAIN closes: its record
 * in the scratch keeps only its links (parent, children, next, slot,
 * flags), not its property record, value bytes nor index slot (ix), for
 * the tree takes a node whose one property is inline (SGF__N_ONE) from
 * fn alone (tree_compact.c), and a closed node is never opened again. */
HOT_INLINE void chain_link(sgf_node *fn, sgf__bnode *parent, sgf__bnode *n,
                           uint32_t id, uint32_t f, unsigned code,
                           const char *v) {
  sgf_node nd;
  /* (whole records, written as such: no field read back) */
  n->parent = parent;
  n->first_child = n->next = NULL;
  n->props = NULL; /* (no record: see above) */
  n->nprops = 0;
  n->flags = f;
  n->slot = id;
  nd.parent = id - 1;
  nd.first_child = nd.next = SGF__NONE;
  nd.slot = id;
  nd.flags =
      (uint16_t)((f & SGF__N_MOVE) | SGF__N_ONE | (2u << SGF__N_LEN_SHIFT));
  nd.code = (uint16_t)code;
  nd.u.inl[0] = v[0];
  nd.u.inl[1] = v[1];
  nd.u.inl[2] = nd.u.inl[3] = 0;
  fn[id] = nd;
  parent->first_child = n;
  fn[id - 1].first_child = id;
}

/* The flags of a move's letter c, as static_ident gives them. */
HOT_INLINE uint32_t move_flags(char c) {
  return c == 'B' ? SGF__N_BLACK : c == 'W' ? SGF__N_WHITE : 0;
}

/* How many nodes CHAIN may take from here (0: none): the steps h_node's
 * fast path would take, each needing an index slot, a node under the
 * limit and room for the node closed and the one begun. */
HOT_INLINE size_t chain_room(const sgf_tree_builder *b, const sgf_tree *t) {
  const sgf__block *bl = t->blocks;
  size_t k, room;
  if (!b->direct || b->dstate != 2 || b->tree != t ||
      ((b->open_flags | b->prop_flags) & OPEN_SCAN) ||
      t->bytes + sizeof(sgf__bnode) > b->max_bytes ||
      t->nnodes + 1 >= t->max_nodes || t->nnodes >= b->ixcap)
    return 0;
  room = bl->size - bl->used;
  if (room < DIRECT_TAKE(2) + DIRECT_SIZE) return 0;
  k = (room - DIRECT_SIZE) / DIRECT_TAKE(2);
  if (k > b->ixcap - t->nnodes) k = b->ixcap - t->nnodes;
  if (k > t->max_nodes - 1 - t->nnodes) k = t->max_nodes - 1 - t->nnodes;
  return k;
}

/* A run of move nodes (MOVE RUNS in sgfstream/parser.h), walked with
 * sgf_run_iter_next(): CHAIN links as many nodes as the block takes in
 * one go; a node CHAIN may not take goes through h_node, h_property and
 * h_value, positioned by an event state of its own (ks). */
static int h_moves(sgf_parser *p, void *u, const char *at, size_t len,
                   size_t count) {
  sgf_tree_builder *b = BUILDER(u);
  /* (never sgf__tb_no_state: the parser is of this library) */
  const sgf_event_state *const es = event_state(b, p);
  const sgf_pos p0 = EVENT_POS(p);
  sgf_tree *const t = b->tree;
  sgf_event_state ks;
  sgf_run_iter it;
  sgf_run_node nd;
  const char *last; /* the last node taken */
  sgf_pos lpos;     /* its position */
  int r = SGF_CONTINUE, more;
  (void)count;
  ks.live = 1;
  ks.raw_ident_len = 1;
  b->es = &ks;
  sgf_run_iter_init(&it, at, len, &p0);
  if (!(more = sgf_run_iter_next(&it, &nd))) { /* (never: count >= 1) */
    b->es = es;
    return r;
  }
  last = nd.at;
  lpos = sgf_run_iter_last(&it);
  while (more) {
    size_t k = chain_room(b, t);
    if (LIKELY(k > 0)) { /* CHAIN: k nodes at most */
      sgf__block *const bl = t->blocks;
      sgf__bnode *n = b->dn, *next;
      uint32_t id = t->nnodes;
      size_t used = bl->used;
      char c;
      /* the first: n is the open node, linked as h_node links it */
      used += DIRECT_TAKE(b->dlen);
      next = (sgf__bnode *)((char *)bl + used);
      bl->used = used;
      link_node(b, t, n, id, b->open_flags | b->prop_flags,
                direct_value_done(n, b->dlen), 1, 0);
      DBYTES(n)[b->dlen] = '\0';
      sgf__bnode *parent = b->cur; /* (locals: no reload after a store) */
      sgf_node *const fn = b->fn;
      /* the walk's state in locals too: the next node found as
       * sgf_run_iter_next finds it, written back to it after the loop */
      const char *ip = it.p, *const stop = it.stop, *ra = nd.at;
      uint64_t line = it.line, cbias = it.cbias;
      for (;;) {
        const char *q = ip;
        c = ra[1];
        n = next;
        last = ra;
        if (--k == 0) break; /* the last CHAIN takes: the next node below */
        if (q >= stop) {
          more = 0;
          break;
        }
        if (*q != ';') { /* the line break after last: LF, or CR LF */
          const char *nq = q + ((*q == '\r' && q[1] == '\n') ? 2 : 1);
          if (nq >= stop) {
            more = 0;
            break;
          }
          q = nq;
          line++;
          cbias = 1 - (uint64_t)(uintptr_t)q;
        }
        ra = q;
        ip = q + 6;
        /* n ends (its value: two bytes), the next begins behind it */
        used += DIRECT_TAKE(2);
        next = (sgf__bnode *)((char *)bl + used);
        id++;
        /* (the letter's code: IDENTIFIER CODES) */
        chain_link(fn, parent, n, id, move_flags(c), (unsigned)(c - 'A'),
                   last + 3);
        parent = n;
      }
      it.p = ip;
      it.line = line;
      it.cbias = cbias;
      lpos = sgf_run_iter_last(&it); /* last's */
      if (k == 0) more = sgf_run_iter_next(&it, &nd);
      b->cur = parent;
      /* n, the last node taken, stays open: DIRECT, whole */
      DPROP(n)->code = (uint16_t)(c - 'A'); /* IDENTIFIER CODES */
      bl->used = used;
      t->nnodes = t->nslots = id + 1;
      b->dn = n;
      b->open_flags = 0;
      b->prop_flags = move_flags(c);
      b->dlen = 2;
      DBYTES(n)[0] = last[3];
      DBYTES(n)[1] = last[4];
    } else {
      /* (nd's position from the walk: nd's own fields, read here, would
       * be computed for every node CHAIN takes) */
      const sgf_pos o = sgf_run_iter_last(&it);
      ks.offset = o.offset;
      ks.line = o.line;
      ks.line_start = o.offset - (o.column - 1);
      ks.raw_ident = es->raw_ident; /* on_node: the one before, unread */
      if ((r = h_node(p, u)) != SGF_CONTINUE) break;
      ks.offset = o.offset + 1;
      ks.raw_ident = nd.at + 1;
      if ((r = h_property(p, u, nd.at + 1, 1)) != SGF_CONTINUE) break;
      ks.offset = o.offset + 2;
      if ((r = h_value(p, u, nd.value, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST)) !=
          SGF_CONTINUE)
        break;
      last = nd.at;
      lpos = o;
      more = sgf_run_iter_next(&it, &nd);
    }
  }
  b->es = es;
  if (r == SGF_CONTINUE && b->direct && b->dstate == 2) {
    /* the last node's property and value */
    b->dpos[0].offset = lpos.offset + 1;
    b->dpos[0].line = lpos.line;
    b->dpos[0].column = lpos.column + 1;
    b->dpos[1] = b->dpos[0];
    b->dpos[1].offset++;
    b->dpos[1].column++;
  }
  return r;
}

const sgf_callbacks sgf__tb_fast_handlers = {sizeof(sgf_callbacks),
                                             h_tree_begin,
                                             h_tree_end,
                                             h_node,
                                             h_property,
                                             h_value_begin,
                                             h_value_data,
                                             sgf__tb_h_value_end,
                                             sgf__tb_h_property_end,
                                             sgf__tb_h_diagnostic,
                                             NULL,
                                             NULL,
                                             NULL};

/* A builder with its own parser and the fast path: what it asks of the
 * parser (h, a copy of sgf__tb_fast_handlers) and of itself. */
void sgf__tb_fast_setup(sgf_tree_builder *b, sgf_callbacks *h) {
  const sgf_callbacks *e = &b->ev;
  /* WHOLE VALUES: one call a value, unless a pass-through handler
   * wants the three events (with its on_value, the core calls those
   * three no more: neither do we) */
  if (e->on_value ||
      (!e->on_value_begin && !e->on_value_data && !e->on_value_end)) {
    h->on_value = h_value;
    b->ev.on_value_begin = NULL;
    b->ev.on_value_data = NULL;
    b->ev.on_value_end = NULL;
  }
  if (!b->ev.on_value_end && !b->ev.on_property_end) {
    b->lazy = 1; /* see LEAN EVENTS in tree_build.c */
    h->on_value_end = NULL;
    h->on_property_end = NULL;
  }
  /* DIRECT: no pass-through handler, and a value written in place is
   * always within max_value_bytes */
  b->direct_ok = b->lazy && !b->keep_pos && !e->on_tree_begin &&
                 !e->on_tree_end && !e->on_node && !e->on_property &&
                 !e->on_value_begin && !e->on_value_data && !e->on_value &&
                 b->max_value_bytes >= sizeof(sgf__val) + DIRECT_BYTES;
  /* MOVE RUNS: the run's events are those of h_node, h_property and
   * h_value, and nothing else listens (DIRECT) */
  if (b->direct_ok && !e->on_node_end && !e->on_moves) h->on_moves = h_moves;
}
