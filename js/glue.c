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
 *   w3  the event's input offset (the low 32 bits)
 * kinds: the sgf_event_kind values (TREE_BEGIN, TREE_END, NODE, PROPERTY,
 * VALUE, MOVES; extra is the 1- or 2-letter identifier's code for
 * PROPERTY, the node count for MOVES), and
 *   SJ_DIAG  a diagnostic: flags its severity, extra its code; w1 its
 *            line, w2 its column, w3 its offset.
 *   SJ_GAME  (modes SJ_ROOTS and SJ_HEADERS) right after a game's last
 *            TREE_END: w1 the offset of its first byte, w2 the offset
 *            after its last, w3 its node count (SJ_ROOTS only: a game
 *            skipped after its root counts 1).
 * Bytes an event names outside the input buffer (the parser's held-back
 * look-ahead, an identifier it assembled) are copied into the arena, so
 * that every record stays readable until the next feed.
 *
 * MODES. SJ_FULL: every event. SJ_ROOTS: the whole input is parsed (every
 * diagnostic reported, nodes counted) but only the records of each
 * game's root node and the game's TREE_BEGIN, TREE_END and SJ_GAME are
 * written. SJ_HEADERS: as SJ_ROOTS, but the parser skips each game after
 * its root node (SGF_SKIP): the rest is passed over, with no diagnostics.
 *
 * No recursion; memory: the parser's (fixed), the input buffer, and the
 * output and arena, bounded by pausing the feed when 32,768 records wait.
 */
#include <stdlib.h>
#include <string.h>

#include "sgfstream.h"

#define SJ_EXPORT(name) __attribute__((export_name(#name)))

#define SJ_DIAG 16
#define SJ_GAME 17
#define SJ_ARENA 0x20u

#define SJ_FULL 0
#define SJ_ROOTS 1
#define SJ_HEADERS 2

#define SJ_BATCH 256
#define SJ_OUT_PAUSE 32768

typedef struct sj {
  sgf_parser *p;
  int mode;
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

static void put(sj *s, const sgf_batch *b, const sgf_event *ev) {
  uint32_t *w = out_room(s, 1);
  unsigned flags = ev->flags & 0x0fu;
  uint32_t at = 0;
  if (!w) return;
  if (ev->kind == SGF_EVENT_PROPERTY || ev->kind == SGF_EVENT_VALUE ||
      ev->kind == SGF_EVENT_MOVES)
    at = keep_bytes(s, sgf_event_bytes(b, ev), ev->len, &flags);
  w[0] = (uint32_t)ev->kind | (flags << 8) | ((uint32_t)ev->ident << 16);
  w[1] = at;
  w[2] = ev->len;
  w[3] = (uint32_t)(b->offset + ev->offset);
}

static int on_batch(sgf_parser *p, void *user, const sgf_batch *b) {
  sj *s = user;
  size_t i;
  int action = SGF_CONTINUE;
  (void)p;
  if (s->mode == SJ_FULL) {
    for (i = 0; i < b->n; i++) put(s, b, &b->ev[i]);
  } else {
    for (i = 0; i < b->n; i++) {
      const sgf_event *ev = &b->ev[i];
      switch (ev->kind) {
        case SGF_EVENT_TREE_BEGIN:
          if (++s->depth == 1) {
            s->game_start = b->offset + ev->offset;
            s->game_nodes = 0;
            put(s, b, ev);
          }
          break;
        case SGF_EVENT_TREE_END:
          if (s->depth == 1) {
            uint32_t *w;
            put(s, b, ev);
            w = out_room(s, 1);
            if (w) {
              w[0] = SJ_GAME;
              w[1] = (uint32_t)s->game_start;
              w[2] = (uint32_t)(b->offset + ev->offset + 1);
              w[3] = s->game_nodes;
            }
          }
          if (s->depth) s->depth--;
          break;
        case SGF_EVENT_NODE:
          if (++s->game_nodes == 1 && s->depth == 1) put(s, b, ev);
          break;
        case SGF_EVENT_MOVES:
          if (s->game_nodes == 0 && s->depth == 1) {
            /* The run begins with the root, ";B[qd]": its records. */
            sgf_event e = *ev;
            e.ident = 0;
            e.len = 0;
            e.kind = SGF_EVENT_NODE;
            put(s, b, &e);
            e.kind = SGF_EVENT_PROPERTY;
            e.at = ev->at + 1;
            e.len = 1;
            e.ident = (uint16_t)(unsigned char)sgf_event_bytes(b, ev)[1];
            put(s, b, &e);
            e.kind = SGF_EVENT_VALUE;
            e.at = ev->at + 3;
            e.offset = ev->offset + 2;
            e.len = 2;
            e.ident = 0;
            e.flags = SGF_VALUE_FIRST | SGF_VALUE_LAST;
            put(s, b, &e);
          }
          s->game_nodes += (uint32_t)sgf_event_count(ev);
          break;
        case SGF_EVENT_PROPERTY:
        case SGF_EVENT_VALUE:
          if (s->game_nodes == 1 && s->depth == 1) put(s, b, ev);
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
  uint32_t *w = out_room(s, 1);
  (void)p;
  if (!w) return SGF_ABORT;
  w[0] = SJ_DIAG | ((uint32_t)d->severity << 8) | ((uint32_t)d->code << 16);
  w[1] = (uint32_t)d->pos.line;
  w[2] = (uint32_t)d->pos.column;
  w[3] = (uint32_t)d->pos.offset;
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
  s->mode = mode;
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
  if (mode == SJ_HEADERS) {
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
