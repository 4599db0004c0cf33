/* cutter.h - whole games cut out of a stream of SGF, byte for byte, by
 * the parser's positions: a game is the bytes from the '(' of its
 * on_tree_begin at depth 1 to the ')' of its on_tree_end. Used by `sgf
 * filter`, `sgf serve` and `sgf split --shards`.
 *
 * The cutter keeps the stream's bytes from offset base on, in two parts:
 * those it copied (held: [base, base + held.len)) and the piece being fed
 * to the parser, borrowed from the caller (from held's end on, until
 * cutter_keep()). What it must keep is what an event still to come may
 * name: the bytes from sgf_parser_held_offset() on (CUTTING BY POSITIONS
 * in sgfstream.h: at most SGF_MAX_HELD_BYTES, unless a '(' waits for
 * what follows it), and the bytes of the game being cut from its '(' on,
 * or from where the caller took them (cutter_took).
 *
 * Offsets are the stream's: the parser's offsets plus c->origin (set by
 * cutter_restart(), for a stream made of several inputs, each parsed
 * from offset 0).
 *
 *   cutter_piece(c, buf, n)   before each feed of buf (borrowed)
 *   sgf_parser_feed(p, buf, n, ...)
 *     on_tree_begin (depth 1):  cutter_begin(c, offset of its '(')
 *     on_tree_end (depth 1):    the game's bytes: cutter_span / _gather
 *                               then cutter_end(c)
 *   cutter_keep(c, p, UINT64_MAX)  after the feed: copies what is to
 *                              be kept, drops the rest
 *
 * A caller that keeps the whole stream until parsed (the server, which
 * pauses the parser) copies bytes in with cutter_add() instead and feeds
 * the parser from c->held: only cutter_keep() and cutter_gather() (when
 * it needs borrowed bytes) move or grow the held bytes. */
#ifndef SGF_TOOLS_COMMON_CUTTER_H
#define SGF_TOOLS_COMMON_CUTTER_H

#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>

#include "bytebuf.h"

typedef struct cutter {
  bytebuf held;      /* the stream's bytes [base, base + held.len) */
  uint64_t base;     /* stream offset of held.p[0] */
  const char *piece; /* borrowed: the bytes from base + held.len on */
  size_t piece_len;  /* (0: none) */
  uint64_t origin;   /* stream offset of the parser's offset 0 */
  uint64_t game;     /* in_game: the game's first byte still kept */
  int in_game;
} cutter;

void cutter_init(cutter *c);
void cutter_free(cutter *c);
/* A new input from stream offset origin on (the parser was reset): no
 * game, nothing kept. */
void cutter_restart(cutter *c, uint64_t origin);

/* Where the bytes known end: the stream offset after the piece. */
static inline uint64_t cutter_end_offset(const cutter *c) {
  return c->base + c->held.len + c->piece_len;
}
/* Bytes copied and kept (for memory limits). */
static inline size_t cutter_held(const cutter *c) { return c->held.len; }

/* Copy n more bytes of the stream in: 0, or -1 out of memory (nothing
 * added). Only with no piece borrowed. */
int cutter_add(cutter *c, const char *buf, size_t n);
/* Borrow the next n bytes of the stream until cutter_keep(). */
void cutter_piece(cutter *c, const char *buf, size_t n);
/* After the feed: copy of the piece what the game being cut and the
 * parser (p; NULL: nothing) may still need, and drop what neither does;
 * the piece is given back. Stops at the stream offset upto (the end of
 * what the parser read; UINT64_MAX: all). 0, or -1 out of memory: the
 * piece is given back and the game's bytes are dropped (in_game is 0). */
int cutter_keep(cutter *c, const sgf_parser *p, uint64_t upto);

/* A game begins at the parser offset off (its '('): its bytes are kept
 * from there on. 0, or -1 when they were dropped already (never, when
 * cutter_keep was given the parser after each feed). */
int cutter_begin(cutter *c, uint64_t off);
/* The caller took the game's bytes before stream offset at (written
 * them out): they need not be kept. */
void cutter_took(cutter *c, uint64_t at);
/* The game is over (or given up): its bytes need not be kept. */
void cutter_end(cutter *c);

/* The bytes of the stream [from, to), clamped to those known (held and
 * piece), in at most two parts, each given to fn (ctx, bytes, n) in
 * order when not empty. The first nonzero result of fn is returned. */
int cutter_span(const cutter *c, uint64_t from, uint64_t to,
                int (*fn)(void *ctx, const char *buf, size_t n), void *ctx);
/* The bytes [from, to) in one piece (copying the borrowed ones it needs
 * into held): NULL when out of memory or from is not kept; *len their
 * number, clamped to those known. */
const char *cutter_gather(cutter *c, uint64_t from, uint64_t to, size_t *len);
/* The byte at stream offset at, or -1 when it is not known. */
int cutter_byte(const cutter *c, uint64_t at);

#endif
