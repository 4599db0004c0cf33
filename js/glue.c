/* js/glue.c - what the JavaScript package (js/sgfstream.js) calls in
 * sgfstream.wasm: the push parser in batch mode, its records copied into
 * one compact buffer that the JavaScript side decodes in bulk after each
 * feed. One call from JavaScript per chunk of input (or per 32,768
 * records), never one per byte, event or property.
 *
 * THE OUTPUT. Records of four 32-bit words, in sj_out():
 *   w0  kind (bits 0-7) | flags (bits 8-15) | extra (bits 16-31)
 *   w1  where the bytes are: an address in the module's memory, or with
 *       SJ_ARENA in flags an offset into sj_arena()
 *   w2  their length
 *   w3  the event's input offset: its low 32 bits; the high 32 are
 *       those of the last SJ_HI record (0 before the first)
 * kinds: the sgf_event_kind values (TREE_BEGIN, TREE_END, NODE, PROPERTY,
 * VALUE, MOVES; extra is the 1- or 2-letter identifier's code for
 * PROPERTY, the node count for MOVES; flags SJ_PLAIN on a VALUE whole in
 * one record whose bytes are ASCII with no '\\' or CR: its text as it
 * stands), and
 *   SJ_PV    a PROPERTY with a 1- or 2-letter identifier and its first
 *            VALUE in one record, when that value is whole, plain (as
 *            SJ_PLAIN) and under SJ_PV_MAX bytes: extra the identifier's
 *            code, w1 the value's bytes, w2 its length (bits 0-15) and a
 *            hash of its bytes (bits 16-31: equal bytes, equal hash), w3
 *            the PROPERTY's offset (the value's is not needed: plain text
 *            has no diagnostic of its own).
 *   SJ_DIAG  a diagnostic: flags its severity, extra its code; w1 its
 *            line, w2 its column, w3 its offset (low 32 bits each), then
 *            an SJ_EXT record: w1-w3 their high 32 bits.
 *   SJ_GAME  (modes SJ_ROOTS and SJ_HEADERS) right after a game's last
 *            TREE_END: w1 the offset of its first byte, w2 the offset
 *            after its last (low 32 bits), w3 its node count (SJ_ROOTS
 *            only: a game skipped after its root counts 1), then an
 *            SJ_EXT record: w1, w2 the offsets' high 32 bits.
 *   SJ_HI    before the first record whose offset's high 32 bits differ
 *            from those of the record before it: w1 the new high bits.
 *   SJ_POS   before the first piece of a VALUE that holds a byte over
 *            0x7F or comes in pieces (text a charset may fail to decode):
 *            w1 the low and w3 the high 32 bits of the line of its '[',
 *            w2 its column (extra: the column's bits 32-47).
 * Offsets are 64-bit (inputs over 4 GiB): sj_set_bias() adds a number to
 * each, so that a test reaches past 4 GiB without feeding it.
 * A run of moves one of whose values holds a byte over 0x7F is written
 * as the NODE, PROPERTY and VALUE records of its nodes (each such value
 * with its SJ_POS).
 * Bytes an event names outside the input buffer (the parser's held-back
 * look-ahead, an identifier it assembled) are copied into the arena, so
 * that every record stays readable until the next feed.
 *
 * MODES. SJ_FULL: every event. SJ_ROOTS: the whole input is parsed (every
 * diagnostic reported, nodes counted) but only the records of each
 * game's root node and the game's TREE_BEGIN, TREE_END and SJ_GAME are
 * written, and the VALUE records (with their SJ_POS) of the other nodes'
 * values that hold a byte over 0x7F or come in pieces, so that text that
 * does not decode is found by the first pass; with SJ_UTF8 (the input is
 * UTF-8 made from JavaScript text, read as UTF-8: every value decodes)
 * not those. SJ_HEADERS: as SJ_ROOTS, but the
 * parser skips each game after its root node (SGF_SKIP): the rest is passed
 * over, with no diagnostics.
 *
 * No recursion; memory: the parser's (fixed), the input buffer, and the
 * output and arena, bounded by pausing the feed when 32,768 records wait.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#include "sgfstream.h"

#define SJ_EXPORT(name) __attribute__((export_name(#name)))

#define SJ_PV 9
#define SJ_PV_MAX 65536
#define SJ_DIAG 16
#define SJ_GAME 17
#define SJ_HI 18
#define SJ_EXT 19
#define SJ_POS 20
#define SJ_ARENA 0x20u
#define SJ_CHECK 0x10u /* SJ_ROOTS: a VALUE of a node not written */
#define SJ_PLAIN 0x40u /* a whole VALUE of ASCII bytes, no '\\' or CR */

#define SJ_FULL 0
#define SJ_ROOTS 1
#define SJ_HEADERS 2
#define SJ_UTF8 0x100 /* with SJ_ROOTS: no SJ_CHECK values (below) */

#define SJ_BATCH 256
#define SJ_OUT_PAUSE 32768

typedef struct sj {
  sgf_parser *p;
  int mode;
  int utf8; /* SJ_UTF8 given */
  sgf_event batch[SJ_BATCH];
  uint32_t *out; /* 4 words a record */
  size_t out_n, out_cap;
  unsigned char *arena;
  size_t arena_len, arena_cap;
  unsigned char *in;
  size_t in_cap;
  size_t consumed;
  int failed; /* memory ran out in the glue */
  /* SJ_ROOTS, SJ_HEADERS: where we are in the game. */
  uint64_t depth;
  uint64_t game_start;
  uint32_t game_nodes;
  uint64_t bias;   /* added to every offset written (sj_set_bias) */
  uint32_t hi;     /* the high 32 bits of the last event offset written */
  unsigned xflags; /* added to the flags of the records put() writes */
  uint16_t *u16;   /* sj_u16(): text to encode, in_cap / 3 units */
  uint32_t *blk;   /* sj_from_u16()'s table of blocks */
} sj;

/* The module has no environment: the library's one getenv() (the SIMD
 * choice, which here has one set) finds nothing. Defined here so that
 * the module imports nothing from WASI. */
char *getenv(const char *name);
char *getenv(const char *name) {
  (void)name;
  return NULL;
}

static uint32_t *out_room(sj *s, size_t n) {
  if (s->out_n + n > s->out_cap) {
    size_t cap = s->out_cap ? s->out_cap * 2 : 1024;
    uint32_t *o;
    while (cap < s->out_n + n) cap *= 2;
    o = realloc(s->out, cap * 16);
    if (!o) {
      s->failed = 1;
      return NULL;
    }
    s->out = o;
    s->out_cap = cap;
  }
  s->out_n += n;
  return s->out + (s->out_n - n) * 4;
}

/* The address of the bytes, or their arena offset (*flags |= SJ_ARENA). */
static uint32_t keep_bytes(sj *s, const char *at, size_t len, unsigned *flags) {
  const unsigned char *u = (const unsigned char *)at;
  size_t off;
  if (u >= s->in && u + len <= s->in + s->in_cap) return (uint32_t)(uintptr_t)u;
  if (s->arena_len + len > s->arena_cap) {
    size_t cap = s->arena_cap ? s->arena_cap * 2 : 4096;
    unsigned char *a;
    while (cap < s->arena_len + len) cap *= 2;
    a = realloc(s->arena, cap);
    if (!a) {
      s->failed = 1;
      return 0;
    }
    s->arena = a;
    s->arena_cap = cap;
  }
  off = s->arena_len;
  memcpy(s->arena + off, at, len);
  s->arena_len += len;
  *flags |= SJ_ARENA;
  return (uint32_t)off;
}

/* An event's offset (with the bias); an SJ_HI record first when its high
 * 32 bits are not those of the record before. */
static uint32_t event_offset(sj *s, uint64_t off) {
  uint32_t hi;
  off += s->bias;
  hi = (uint32_t)(off >> 32);
  if (hi != s->hi) {
    uint32_t *w = out_room(s, 1);
    if (w) {
      w[0] = SJ_HI;
      w[1] = hi;
      w[2] = 0;
      w[3] = 0;
    }
    s->hi = hi;
  }
  return (uint32_t)off;
}

/* Does any byte have its high bit set? Eight bytes at a time, no branch
 * per word: this runs over every run of moves and every value. */
static int has_high(const char *at, size_t len) {
  const unsigned char *u = (const unsigned char *)at;
  uint64_t any = 0;
  size_t i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, u + i, 8);
    any |= w;
  }
  for (; i < len; i++) any |= u[i];
  return (any & 0x8080808080808080u) != 0;
}

/* Is a value plain text as it stands: no byte over 0x7F, no backslash
 * (an escape) and no CR (dropped)? Eight bytes at a time: a byte equal
 * to c in w shows as the high bit of its lane in has_byte. */
#define LANES(c) (0x0101010101010101u * (uint64_t)(c))
static uint64_t has_byte(uint64_t w, unsigned char c) {
  uint64_t v = w ^ LANES(c);
  return (v - LANES(1)) & ~v & LANES(0x80);
}
static int is_plain(const char *at, size_t len) {
  const unsigned char *u = (const unsigned char *)at;
  uint64_t bad = 0;
  size_t i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, u + i, 8);
    bad |= w | has_byte(w, '\\') | has_byte(w, '\r');
  }
  for (; i < len; i++)
    bad |= (uint64_t)u[i] | (u[i] == '\\' || u[i] == '\r' ? 0x80u : 0u);
  return (bad & LANES(0x80)) == 0;
}

/* is_plain() and, when plain, a 16-bit hash of the bytes in *hash (the
 * same for the same bytes), eight bytes at a time. */
static int plain_hash(const char *at, size_t len, uint32_t *hash) {
  const unsigned char *u = (const unsigned char *)at;
  uint64_t bad = 0;
  uint64_t h = 0x9e3779b97f4a7c15u ^ len;
  size_t i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t w;
    memcpy(&w, u + i, 8);
    bad |= w | has_byte(w, '\\') | has_byte(w, '\r');
    h = (h ^ w) * 0xff51afd7ed558ccdu;
  }
  if (i < len) {
    uint64_t w = 0;
    memcpy(&w, u + i, len - i);
    bad |= w | has_byte(w, '\\') | has_byte(w, '\r');
    h = (h ^ w) * 0xff51afd7ed558ccdu;
  }
  h ^= h >> 29;
  h *= 0xc4ceb9fe1a85ec53u;
  *hash = (uint32_t)(h >> 48);
  return (bad & LANES(0x80)) == 0;
}

/* The position record before a value's first piece. */
static void put_pos(sj *s, sgf_pos pos) {
  uint32_t *w = out_room(s, 1);
  if (!w) return;
  w[0] = SJ_POS | ((uint32_t)((pos.column >> 32) & 0xffffu) << 16);
  w[1] = (uint32_t)pos.line;
  w[2] = (uint32_t)pos.column;
  w[3] = (uint32_t)(pos.line >> 32);
}

/* Does a VALUE record need its position (text that may not decode)? */
static int wants_pos(const sgf_batch *b, const sgf_event *ev) {
  return (ev->flags & SGF_VALUE_FIRST) &&
         (!(ev->flags & SGF_VALUE_LAST) ||
          has_high(sgf_event_bytes(b, ev), ev->len));
}

static void put(sj *s, sgf_parser *p, const sgf_batch *b, const sgf_event *ev) {
  uint32_t *w;
  unsigned flags = (ev->flags & 0x0fu) | s->xflags;
  uint32_t at = 0;
  uint32_t off;
  if (ev->kind == SGF_EVENT_VALUE && p && wants_pos(b, ev))
    put_pos(s, sgf_batch_position(p, ev));
  off = event_offset(s, b->offset + ev->offset);
  w = out_room(s, 1);
  if (!w) return;
  if (ev->kind == SGF_EVENT_PROPERTY || ev->kind == SGF_EVENT_VALUE ||
      ev->kind == SGF_EVENT_MOVES)
    at = keep_bytes(s, sgf_event_bytes(b, ev), ev->len, &flags);
  if (ev->kind == SGF_EVENT_VALUE &&
      (ev->flags & (SGF_VALUE_FIRST | SGF_VALUE_LAST)) ==
          (SGF_VALUE_FIRST | SGF_VALUE_LAST) &&
      is_plain(sgf_event_bytes(b, ev), ev->len))
    flags |= SJ_PLAIN;
  w[0] = (uint32_t)ev->kind | (flags << 8) | ((uint32_t)ev->ident << 16);
  w[1] = at;
  w[2] = ev->len;
  w[3] = off;
}

/* The PROPERTY event b->ev[i]: with the VALUE after it as one SJ_PV
 * record when it can be, else as a PROPERTY record. Returns the events
 * written (2 or 1). */
static size_t put_prop(sj *s, sgf_parser *p, const sgf_batch *b, size_t i) {
  const sgf_event *ev = &b->ev[i];
  const sgf_event *v = i + 1 < b->n ? &b->ev[i + 1] : NULL;
  uint32_t hash;
  if (ev->ident != 0 && v && v->kind == SGF_EVENT_VALUE &&
      (v->flags & (SGF_VALUE_FIRST | SGF_VALUE_LAST)) ==
          (SGF_VALUE_FIRST | SGF_VALUE_LAST) &&
      v->len < SJ_PV_MAX && plain_hash(sgf_event_bytes(b, v), v->len, &hash)) {
    unsigned flags = 0;
    uint32_t off = event_offset(s, b->offset + ev->offset);
    uint32_t *w = out_room(s, 1);
    if (!w) return 2;
    w[1] = keep_bytes(s, sgf_event_bytes(b, v), v->len, &flags);
    w[0] = SJ_PV | (flags << 8) | ((uint32_t)ev->ident << 16);
    w[2] = v->len | (hash << 16);
    w[3] = off;
    return 2;
  }
  put(s, p, b, ev);
  return 1;
}

/* The NODE, PROPERTY and VALUE records of the nodes first to end - 1
 * (counted from 0) of a MOVES record, each value with its position when
 * it holds a byte over 0x7F. only_high: only the VALUE records (and
 * positions) of such values, flagged SJ_CHECK (SJ_ROOTS: nodes not
 * written). */
static void put_run_nodes(sj *s, sgf_parser *p, const sgf_batch *b,
                          const sgf_event *ev, size_t first, size_t end,
                          int only_high) {
  sgf_pos start = sgf_batch_position(p, ev);
  sgf_run_iter it;
  sgf_run_node n;
  size_t k = 0;
  sgf_run_iter_init(&it, sgf_event_bytes(b, ev), ev->len, &start);
  while (sgf_run_iter_next(&it, &n)) {
    sgf_event e = *ev;
    int high = has_high(n.value, 2);
    if (k >= end) break;
    if (k++ < first) continue;
    e.offset = (uint32_t)(n.offset - b->offset);
    e.at = (uint32_t)(n.at - b->bytes);
    if (!only_high) {
      e.kind = SGF_EVENT_NODE;
      e.len = 0;
      e.ident = 0;
      e.flags = 0;
      put(s, NULL, b, &e);
      e.kind = SGF_EVENT_PROPERTY;
      e.at += 1;
      e.offset += 1;
      e.len = 1;
      e.ident = (uint16_t)(unsigned char)n.letter;
      put(s, NULL, b, &e);
      e.at -= 1;
      e.offset -= 1;
    } else if (!high) {
      continue;
    }
    if (high) {
      sgf_pos vp;
      vp.line = n.line;
      vp.column = n.column + 2;
      vp.offset = n.offset + 2;
      put_pos(s, vp);
    }
    e.kind = SGF_EVENT_VALUE;
    e.at += 3;
    e.offset += 2;
    e.len = 2;
    e.ident = 0;
    e.flags = SGF_VALUE_FIRST | SGF_VALUE_LAST;
    s->xflags = only_high ? SJ_CHECK : 0;
    put(s, NULL, b, &e);
    s->xflags = 0;
  }
}

static int on_batch(sgf_parser *p, void *user, const sgf_batch *b) {
  sj *s = user;
  size_t i;
  int action = SGF_CONTINUE;
  if (s->mode == SJ_FULL) {
    for (i = 0; i < b->n; i++) {
      const sgf_event *ev = &b->ev[i];
      if (ev->kind == SGF_EVENT_MOVES &&
          has_high(sgf_event_bytes(b, ev), ev->len))
        put_run_nodes(s, p, b, ev, 0, SIZE_MAX, 0);
      else if (ev->kind == SGF_EVENT_PROPERTY)
        i += put_prop(s, p, b, i) - 1;
      else
        put(s, p, b, ev);
    }
  } else {
    for (i = 0; i < b->n; i++) {
      const sgf_event *ev = &b->ev[i];
      switch (ev->kind) {
        case SGF_EVENT_TREE_BEGIN:
          if (++s->depth == 1) {
            s->game_start = b->offset + ev->offset;
            s->game_nodes = 0;
            put(s, p, b, ev);
          }
          break;
        case SGF_EVENT_TREE_END:
          if (s->depth == 1) {
            uint64_t start = s->game_start + s->bias;
            uint64_t end = b->offset + ev->offset + 1 + s->bias;
            uint32_t *w;
            put(s, p, b, ev);
            w = out_room(s, 2);
            if (w) {
              w[0] = SJ_GAME;
              w[1] = (uint32_t)start;
              w[2] = (uint32_t)end;
              w[3] = s->game_nodes;
              w[4] = SJ_EXT;
              w[5] = (uint32_t)(start >> 32);
              w[6] = (uint32_t)(end >> 32);
              w[7] = 0;
            }
          }
          if (s->depth) s->depth--;
          break;
        case SGF_EVENT_NODE:
          if (++s->game_nodes == 1 && s->depth == 1) put(s, p, b, ev);
          break;
        case SGF_EVENT_MOVES: {
          int high = s->mode == SJ_ROOTS && !s->utf8 &&
                     has_high(sgf_event_bytes(b, ev), ev->len);
          if (s->game_nodes == 0 && s->depth == 1) {
            /* The run begins with the root, ";B[qd]": its records. */
            put_run_nodes(s, p, b, ev, 0, 1, 0);
            /* (the others' values that may not decode) */
            if (high) put_run_nodes(s, p, b, ev, 1, SIZE_MAX, 1);
          } else if (high) {
            put_run_nodes(s, p, b, ev, 0, SIZE_MAX, 1);
          }
          s->game_nodes += (uint32_t)sgf_event_count(ev);
          break;
        }
        case SGF_EVENT_PROPERTY:
          if (s->game_nodes == 1 && s->depth == 1)
            i += put_prop(s, p, b, i) - 1;
          break;
        case SGF_EVENT_VALUE:
          if (s->game_nodes == 1 && s->depth == 1)
            put(s, p, b, ev);
          else if (s->mode == SJ_ROOTS && !s->utf8 &&
                   (!(ev->flags & SGF_VALUE_FIRST) ||
                    !(ev->flags & SGF_VALUE_LAST) ||
                    has_high(sgf_event_bytes(b, ev), ev->len))) {
            s->xflags = SJ_CHECK;
            put(s, p, b, ev);
            s->xflags = 0;
          }
          break;
        case SGF_EVENT_NODE_END:
          if (s->mode == SJ_HEADERS && s->depth == 1 && s->game_nodes == 1 &&
              i + 1 == b->n)
            action = SGF_SKIP;
          break;
        default:
          break;
      }
    }
  }
  if (s->failed) return SGF_ABORT;
  if (action == SGF_CONTINUE && s->out_n >= SJ_OUT_PAUSE) action = SGF_PAUSE;
  return action;
}

static int on_diag(sgf_parser *p, void *user, const sgf_diag *d) {
  sj *s = user;
  uint32_t *w = out_room(s, 2);
  uint64_t off = d->pos.offset + s->bias;
  (void)p;
  if (!w) return SGF_ABORT;
  w[0] = SJ_DIAG | ((uint32_t)d->severity << 8) | ((uint32_t)d->code << 16);
  w[1] = (uint32_t)d->pos.line;
  w[2] = (uint32_t)d->pos.column;
  w[3] = (uint32_t)off;
  w[4] = SJ_EXT;
  w[5] = (uint32_t)(d->pos.line >> 32);
  w[6] = (uint32_t)(d->pos.column >> 32);
  w[7] = (uint32_t)(off >> 32);
  return SGF_CONTINUE;
}

/* A parser: flags SGF_OPT_*, max_depth (0: the library's default), mode
 * SJ_*, an input buffer of in_cap bytes. NULL if memory runs out. */
SJ_EXPORT(sj_new)
sj *sj_new(unsigned flags, double max_depth, int mode, size_t in_cap);
sj *sj_new(unsigned flags, double max_depth, int mode, size_t in_cap) {
  sj *s = calloc(1, sizeof *s);
  sgf_options opt;
  sgf_callbacks cb;
  sgf_batch_options bo;
  if (!s) return NULL;
  s->mode = mode & 0xff;
  s->utf8 = (mode & SJ_UTF8) != 0;
  s->in_cap = in_cap;
  s->in = malloc(in_cap ? in_cap : 1);
  sgf_options_init(&opt);
  opt.flags = flags;
  opt.max_depth = max_depth > 0 ? (uint64_t)max_depth : 0;
  sgf_callbacks_init(&cb);
  cb.on_diagnostic = on_diag;
  if (s->in) s->p = sgf_parser_create(&cb, s, &opt);
  if (!s->p) {
    free(s->in);
    free(s);
    return NULL;
  }
  sgf_batch_options_init(&bo);
  bo.on_batch = on_batch;
  bo.events = s->batch;
  bo.capacity = SJ_BATCH;
  bo.kinds = (1u << SGF_EVENT_TREE_BEGIN) | (1u << SGF_EVENT_TREE_END) |
             (1u << SGF_EVENT_NODE) | (1u << SGF_EVENT_PROPERTY) |
             (1u << SGF_EVENT_VALUE);
  if (s->mode == SJ_HEADERS) {
    bo.kinds |= 1u << SGF_EVENT_NODE_END;
    bo.stop_kinds = 1u << SGF_EVENT_NODE_END;
  } else {
    bo.kinds |= 1u << SGF_EVENT_MOVES;
  }
  if (sgf_parser_set_batch(s->p, &bo) != SGF_OK) {
    sgf_parser_destroy(s->p);
    free(s->in);
    free(s);
    return NULL;
  }
  return s;
}

SJ_EXPORT(sj_free) void sj_free(sj *s);
void sj_free(sj *s) {
  if (!s) return;
  sgf_parser_destroy(s->p);
  free(s->in);
  free(s->out);
  free(s->arena);
  free(s->u16);
  free(s->blk);
  free(s);
}

SJ_EXPORT(sj_in) unsigned char *sj_in(sj *s);
unsigned char *sj_in(sj *s) { return s->in; }
SJ_EXPORT(sj_out) uint32_t *sj_out(sj *s);
uint32_t *sj_out(sj *s) { return s->out; }
SJ_EXPORT(sj_out_n) size_t sj_out_n(sj *s);
size_t sj_out_n(sj *s) { return s->out_n; }
SJ_EXPORT(sj_arena) unsigned char *sj_arena(sj *s);
unsigned char *sj_arena(sj *s) { return s->arena; }
SJ_EXPORT(sj_consumed) size_t sj_consumed(sj *s);
size_t sj_consumed(sj *s) { return s->consumed; }

/* Forget the records read (call before each feed). */
static void clear(sj *s) {
  s->out_n = 0;
  s->arena_len = 0;
}

/* Feed the len bytes at in + off. Returns the parser's result (SGF_OK,
 * SGF_PAUSED with sj_consumed(), or a failure); SGF_ENOMEM when the
 * glue ran out of memory. A paused parser is resumed first. */
SJ_EXPORT(sj_feed) int sj_feed(sj *s, size_t off, size_t len);
int sj_feed(sj *s, size_t off, size_t len) {
  int r;
  clear(s);
  sgf_parser_resume(s->p);
  s->consumed = 0;
  r = sgf_parser_feed(s->p, (const char *)s->in + off, len, &s->consumed);
  return s->failed ? SGF_ENOMEM : r;
}

/* Start again on a new input (the records, offsets and game state
 * forgotten; options kept). */
SJ_EXPORT(sj_reset) int sj_reset(sj *s);
int sj_reset(sj *s) {
  clear(s);
  s->failed = 0;
  s->depth = 0;
  s->game_start = 0;
  s->game_nodes = 0;
  s->hi = 0;
  return sgf_parser_reset(s->p);
}

/* Add bias to every offset written (before the first feed): offsets past
 * 4 GiB without 4 GiB of input, for the tests. */
SJ_EXPORT(sj_set_bias) void sj_set_bias(sj *s, double bias);
void sj_set_bias(sj *s, double bias) {
  s->bias = bias > 0 ? (uint64_t)bias : 0;
  s->hi = 0;
}

/* The earliest offset (with the bias) a later game's TREE_BEGIN or
 * TREE_END may name: the bytes to keep from there on (outside a game). */
SJ_EXPORT(sj_held) double sj_held(sj *s);
double sj_held(sj *s) {
  return (double)(sgf_parser_held_offset(s->p) + s->bias);
}

/* TEXT. JavaScript holds a string as UTF-16 code units; Node copies them
 * into memory at once (a Buffer's 'utf16le' write) where encoding them as
 * UTF-8 from JavaScript (TextEncoder.encodeInto) takes five times as long.
 * sj_u16() is where they go: in_cap / 3 units, so that their UTF-8 fits
 * the input buffer (3 bytes a unit at most). NULL if memory runs out. */
#define SJ_BLOCK 4096

SJ_EXPORT(sj_u16) uint16_t *sj_u16(sj *s);
uint16_t *sj_u16(sj *s) {
  size_t n = s->in_cap / 3;
  if (!s->u16) {
    s->u16 = malloc(n * 2 + 2);
    s->blk = malloc((n / SJ_BLOCK + 2) * 8);
    if (!s->u16 || !s->blk) {
      free(s->u16);
      free(s->blk);
      s->u16 = NULL;
      s->blk = NULL;
    }
  }
  return s->u16;
}
SJ_EXPORT(sj_blocks) uint32_t *sj_blocks(sj *s);
uint32_t *sj_blocks(sj *s) { return s->blk; }

/* One code unit (or a surrogate pair) at u[*i] as UTF-8 at o: how many
 * bytes; *i moved past it. A lone surrogate is U+FFFD, as TextEncoder
 * writes it. */
static size_t utf8_of(const uint16_t *u, size_t n, size_t *i,
                      unsigned char *o) {
  uint32_t c = u[*i];
  *i += 1;
  if (c < 0x80) {
    o[0] = (unsigned char)c;
    return 1;
  }
  if (c < 0x800) {
    o[0] = (unsigned char)(0xc0 | (c >> 6));
    o[1] = (unsigned char)(0x80 | (c & 0x3f));
    return 2;
  }
  if ((c & 0xfc00) == 0xd800 && *i < n && (u[*i] & 0xfc00) == 0xdc00) {
    c = 0x10000 + ((c - 0xd800) << 10) + (u[*i] - 0xdc00u);
    *i += 1;
    o[0] = (unsigned char)(0xf0 | (c >> 18));
    o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3f));
    o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
    o[3] = (unsigned char)(0x80 | (c & 0x3f));
    return 4;
  }
  if ((c & 0xf800) == 0xd800) c = 0xfffd;
  o[0] = (unsigned char)(0xe0 | (c >> 12));
  o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
  o[2] = (unsigned char)(0x80 | (c & 0x3f));
  return 3;
}

/* The n units at sj_u16() as UTF-8 at sj_in(): how many bytes. The
 * table at sj_blocks(), two words an entry: for the first unit of each
 * block of SJ_BLOCK units (or the unit after, when a surrogate pair
 * spans the block's start) its index and its byte's offset, then (n,
 * the byte count): where the bytes are not one a unit, JavaScript notes
 * the block (the lazy trees' map of a string's byte offsets to its
 * indices). Eight ASCII units at a time where they come eight at once. */
SJ_EXPORT(sj_from_u16) size_t sj_from_u16(sj *s, size_t n);
size_t sj_from_u16(sj *s, size_t n) {
  const uint16_t *u = s->u16;
  unsigned char *o = s->in;
  uint32_t *t = s->blk;
  size_t i = 0, w = 0;
  if (!u || n > s->in_cap / 3) return 0;
  while (i < n) {
    size_t end = (i / SJ_BLOCK + 1) * SJ_BLOCK;
    if (end > n) end = n;
    *t++ = (uint32_t)i;
    *t++ = (uint32_t)w;
    while (i < end) {
#ifdef __wasm_simd128__
      while (end - i >= 8) {
        v128_t v = wasm_v128_load(u + i);
        if (wasm_v128_any_true(wasm_v128_and(v, wasm_i16x8_splat(-128)))) break;
        wasm_v128_store64_lane(o + w, wasm_u8x16_narrow_i16x8(v, v), 0);
        i += 8;
        w += 8;
      }
      if (i >= end) break;
#endif
      w += utf8_of(u, n, &i, o + w);
    }
  }
  *t++ = (uint32_t)n;
  *t = (uint32_t)w;
  return w;
}

SJ_EXPORT(sj_finish) int sj_finish(sj *s);
int sj_finish(sj *s) {
  int r;
  clear(s);
  sgf_parser_resume(s->p);
  r = sgf_parser_finish(s->p);
  return s->failed ? SGF_ENOMEM : r;
}

/* The catalogue, for messages: static strings, NULL for unknown codes. */
SJ_EXPORT(sj_diag_name) const char *sj_diag_name(int code);
const char *sj_diag_name(int code) {
  return sgf_diag_name((sgf_diag_code)code);
}
SJ_EXPORT(sj_diag_message) const char *sj_diag_message(int code);
const char *sj_diag_message(int code) {
  return sgf_diag_message((sgf_diag_code)code);
}
SJ_EXPORT(sj_strerror) const char *sj_strerror(int code);
const char *sj_strerror(int code) { return sgf_strerror(code); }
SJ_EXPORT(sj_version) const char *sj_version(void);
const char *sj_version(void) { return sgf_version(); }
