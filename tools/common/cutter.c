/* cutter.c - whole games cut out of a stream of SGF (cutter.h). */
#include "cutter.h"

#include <string.h>

void cutter_init(cutter *c) {
  memset(c, 0, sizeof *c);
  bytebuf_init(&c->held);
}

void cutter_free(cutter *c) {
  bytebuf_free(&c->held);
  c->piece = NULL;
  c->piece_len = 0;
}

void cutter_restart(cutter *c, uint64_t origin) {
  c->held.len = 0;
  c->base = origin;
  c->origin = origin;
  c->piece = NULL;
  c->piece_len = 0;
  c->in_game = 0;
  c->game = origin;
}

/* Forget the held bytes before stream offset off (all of them, when it
 * lies further: a piece borrowed still begins where they end). */
static void drop_before(cutter *c, uint64_t off) {
  uint64_t end = c->base + c->held.len;
  size_t k;
  if (off <= c->base) return;
  if (off >= end) {
    c->held.len = 0;
    c->base = end;
    return;
  }
  k = (size_t)(off - c->base);
  memmove(c->held.p, c->held.p + k, c->held.len - k);
  c->held.len -= k;
  c->base = off;
}

int cutter_add(cutter *c, const char *buf, size_t n) {
  return bytebuf_try_add(&c->held, buf, n);
}

void cutter_piece(cutter *c, const char *buf, size_t n) {
  c->piece = buf;
  c->piece_len = n;
}

int cutter_keep(cutter *c, const sgf_parser *p, uint64_t upto) {
  uint64_t pbase = c->base + c->held.len; /* the piece's first byte */
  uint64_t end = pbase + c->piece_len, keep = end, from;
  const char *piece = c->piece;
  if (upto < end) end = upto < pbase ? pbase : upto;
  if (p != NULL) keep = c->origin + sgf_parser_held_offset(p);
  if (c->in_game && c->game < keep) keep = c->game;
  c->piece = NULL;
  c->piece_len = 0;
  drop_before(c, keep);
  /* the held bytes now begin at keep, or are empty (base is keep) */
  from = keep > pbase ? keep : pbase;
  if (from >= end) {
    if (c->held.len == 0 && c->base < end) c->base = end;
    return 0;
  }
  if (c->held.len == 0) c->base = from;
  if (bytebuf_try_add(&c->held, piece + (from - pbase), (size_t)(end - from)) !=
      0) {
    c->in_game = 0;
    c->held.len = 0;
    c->base = end;
    return -1;
  }
  return 0;
}

int cutter_begin(cutter *c, uint64_t off) {
  uint64_t at = c->origin + off;
  c->in_game = 1;
  c->game = at;
  /* nothing is dropped here: the parser may be reading the held bytes */
  return at < c->base ? -1 : 0;
}

void cutter_took(cutter *c, uint64_t at) {
  if (c->in_game && at > c->game) c->game = at;
}

void cutter_end(cutter *c) { c->in_game = 0; }

int cutter_span(const cutter *c, uint64_t from, uint64_t to,
                int (*fn)(void *ctx, const char *buf, size_t n), void *ctx) {
  uint64_t he = c->base + c->held.len, end = he + c->piece_len;
  int rc;
  if (from < c->base) from = c->base;
  if (to > end) to = end;
  if (from >= to) return 0;
  if (from < he) {
    uint64_t stop = to < he ? to : he;
    rc = fn(ctx, c->held.p + (from - c->base), (size_t)(stop - from));
    if (rc != 0 || to <= he) return rc;
    from = he;
  }
  return fn(ctx, c->piece + (from - he), (size_t)(to - from));
}

const char *cutter_gather(cutter *c, uint64_t from, uint64_t to, size_t *len) {
  uint64_t he = c->base + c->held.len, end = he + c->piece_len;
  *len = 0;
  if (from < c->base) return NULL;
  if (to > end) to = end;
  if (to <= from) return "";
  if (from >= he) /* all of it in the piece */
    return *len = (size_t)(to - from), c->piece + (from - he);
  if (to > he) {
    size_t n = (size_t)(to - he);
    if (bytebuf_try_add(&c->held, c->piece, n) != 0) return NULL;
    c->piece += n; /* held now holds them: the piece goes on after */
    c->piece_len -= n;
  }
  *len = (size_t)(to - from);
  return c->held.p + (from - c->base);
}

int cutter_byte(const cutter *c, uint64_t at) {
  uint64_t he = c->base + c->held.len;
  if (at < c->base || at >= he + c->piece_len) return -1;
  return (unsigned char)(at < he ? c->held.p[at - c->base] : c->piece[at - he]);
}
