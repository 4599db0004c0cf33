/* json_game.h - what the parts of the JSON converter share: the state of
 * the game being written, and the writing of values (json_value.c) for
 * the event handlers (json_conv.c). Private to tools/json. */
#ifndef SGF_TOOLS_JSON_GAME_H
#define SGF_TOOLS_JSON_GAME_H

#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>
#include <sgfstream/charset.h>
#include <sgfstream/value.h>

#include "bytebuf.h"
#include "json_conv.h"
#include "json_out.h"

/* The status (json_conv_status): the worse of two is the larger. */
enum { JST_CLEAN = 0, JST_WARNINGS = 1, JST_ERRORS = 2 };
static inline int jst_worse(int a, int b) { return a > b ? a : b; }

/* The main line ("moves") is kept as the JSON it is written as: an entry
 * ,["B","pd"] a move (MOVE_BYTES for a point), the first comma left out
 * when written. A value that did not decode is written at the end as its
 * raw text (jwrite_raw, whose diagnostics come then): its entry holds a
 * NUL byte in its place (JSON text holds none), the value kept in
 * jgame.move_raw (its length, a size_t, then its bytes). */
#define MOVE_BYTES 11
/* Each open game tree: its entry in "tree" and flags. */
#define JL_MAIN 0x1u  /* on the main line */
#define JL_CHILD 0x2u /* a child tree began: later ones are not main */
typedef struct jlevel {
  uint64_t entry;
  unsigned flags;
} jlevel;

/* The header fields (json_value.c: "black" PB... "game_name" GN), and
 * CA after them: the root properties --headers and --mainline keep, the
 * first value of each, up to JHEAD_VALUE_MAX bytes (a longer one is
 * dropped with a warning: the field is null). */
#define JHEAD_FIELDS 14
#define JHEAD_SLOTS (JHEAD_FIELDS + 1)
#define JHEAD_VALUE_MAX ((size_t)65536)
enum { JRV_SKIP = 0, JRV_KEEP, JRV_DROPPED };
/* A buffer grown past this for a game is freed at the next game. */
#define JKEEP_CAP ((size_t)1 << 20)

/* A property definition looked up, by its sgf_prop_slot() + 1 (0:
 * none). */
#define JDEF_CACHE 32
typedef struct jdefslot {
  int slot;
  const sgf_propdef *def;
} jdefslot;

typedef struct jgame {
  jout *out;
  sgf_parser *p;
  sgf_charset *cs;
  int mode, raw;                /* json_options */
  void (*before_message)(void); /* json_options; NULL: none */
  const char *name;             /* the input's name, for diagnostics */
  const char *file, *member;    /* source */
  int status;                   /* JST_* so far */
  int input_utf8;               /* the input was converted: CA is moot */
  int text_utf8;                /* the game's charset: jroot_settings */
  int quiet;                    /* no diagnostics on stderr (sgf serve) */
  int slow;                     /* no fast paths (jslow_wanted) */
  int have_origin;              /* the bytes are cut from a larger input */
  sgf_pos origin;               /* ... where they begin in it */
  uint64_t quiet_before;        /* the parser's diagnostics before this
                                   offset (in that input) were reported */
  uint64_t errors_in_input;

  /* the game */
  uint64_t index; /* games of this input so far */
  sgf_pos pos;    /* its '(' */
  sgf_board board;
  int root_phase;        /* 0 no node yet, 1 root node open
                            (buffered), 2 root written */
  int node_open, nprops; /* tree: a node's array is open */
  int guess_warned;
  jlevel *stack; /* per open game tree */
  size_t depth, stack_cap;
  uint64_t entries;         /* "tree" entries written */
  int entry_open, any_node; /* an entry's "nodes" is open; it has one */

  /* the property being read */
  const sgf_propdef *def;
  const sgf_propdef *def_b, *def_w; /* B and W, looked up once */
  jdefslot defs[JDEF_CACHE];        /* the others, cached */
  char ident[SGF_PROP_IDENT_MAX + 1];
  size_t ident_len;
  char move_color; /* 'B' / 'W' for B and W, else 0 */
  sgf_pos vpos;    /* the value's '[' */
  bytebuf val;     /* a value that came in pieces */

  bytebuf root; /* the root node's records */
  /* the root property being read (jroot_property): whether its values
   * are kept, its header slot (jheader_slot, -1: none), the slots whose
   * first value is kept or dropped, the state of the value being read
   * (JRV_*) and where its record begins */
  int root_keep, root_slot, rv;
  unsigned root_have;
  size_t vrec;
  /* in every mode: the header slot of the root property being read
   * (-1: none), and of each slot (bit in root_seen) where its first
   * value's record begins in g->root */
  int head_slot;
  unsigned root_seen;
  int root_moves;  /* --mainline: the root has a B or W record */
  int root_padded; /* JROOT_PAD zero bytes follow the records */
  size_t first_at[JHEAD_SLOTS];
  /* "source" up to the game's number, made once for a file and member
   * (src_key: file NUL member NUL, or file NUL with none) */
  bytebuf src, src_key;
  int src_member;
  /* a header field's value (first_at) being written again by the tree:
   * its decoding errors were reported (jwrite_header) */
  int mute_decode;
  bytebuf moves;    /* the main line's entries, as JSON (MOVE_BYTES) */
  bytebuf move_raw; /* the values of its NUL entries */
  size_t nraw;      /* how many */
  /* jplain_move()'s test, a lookup a byte: plain[0][c] 1 when c is a
   * column letter on the board, plain[1][c] a row letter, for the board
   * of plain_w x plain_h (jplain_set) */
  unsigned char plain[2][256];
  int plain_w, plain_h;
  /* 1 for a move's letter, B or W: the move runs' test of a node's
   * letter beside plain's of its value (json_conv.c) */
  unsigned char move_letter[256];
  bytebuf text; /* FF[4]-decoded text */
  char *conv;   /* UTF-8 from sgf_charset */
  size_t conv_cap;
} jgame;

/* json_value.c */

/* The environment asks for the general path only (SGF_JSON_SLOW set):
 * the fast paths of common values are left out, for the tests that
 * compare their output with the general path's. */
int jslow_wanted(void);

/* Whether stdout and stderr are one file (then the JSON so far is flushed
 * before a diagnostic, to keep the order). */
int jdiag_shared(void);
/* "NAME:LINE:COL: warning: ..." on stderr, one write; the exit status
 * follows. */
void jdiag(jgame *g, sgf_pos pos, int error, const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A position in the bytes parsed as a position in the input they were
 * cut from (g->origin; unchanged without one). */
sgf_pos jpos_abs(const jgame *g, sgf_pos pos);
/* Where byte k of a value lies whose '[' is at pos. */
sgf_pos jpos_in_value(sgf_pos pos, const char *raw, size_t k);
/* A file or member name: as it is when UTF-8, else read as ISO-8859-1. */
void jwrite_name(jgame *g, const char *name);
/* The value as written (escapes kept), in UTF-8, as a JSON string. */
void jwrite_raw(jgame *g, const char *raw, size_t len, sgf_pos pos);
/* One value of the property g->def as the table types it: one JSON value,
 * or several separated by commas (a rectangle of a point list). */
void jwrite_value(jgame *g, const char *raw, size_t len, const sgf_pos *pos);
/* Keep a main-line move (g->move_color) for "moves". */
void jkeep_move(jgame *g, const char *raw, size_t len, sgf_pos pos);
/* The same for a move jplain_move() accepts: 0, or -1 (out of memory,
 * for the caller to report where it is). */
int jkeep_plain(jgame *g, const char *raw);

/* The common move: two lowercase letters on the board, not the pass
 * "tt" of a board up to 19 x 19. sgf_move_decode reads it as the point
 * the letters name, so it can be kept and written without decoding.
 * (The pass needs no test of its own: "tt" is on the board only when
 * the board is over 19 x 19, where it is a point.) g->plain must be set
 * for g->board (jplain_set). */
static inline int jplain_move(const jgame *g, const char *raw, size_t len) {
  return len == 2 && (g->plain[0][(unsigned char)raw[0]] &
                      g->plain[1][(unsigned char)raw[1]]);
}
/* Set g->plain for g->board (when its size changed). */
void jplain_set(jgame *g);
/* ,"moves":[...] */
void jwrite_moves(jgame *g);
/* The header fields of the root node's records: ,"black":... */
void jwrite_header(jgame *g);
/* Set the converter's CA and the board from the root node's records. */
void jroot_settings(jgame *g);

/* The root node's records in g->root: 'P' len ident, 'V' pos len bytes,
 * or 'D' pos (a value dropped: over JHEAD_VALUE_MAX bytes). jroot_next()
 * steps through them (*at 0 to start): 1 and the record, 0 at the end. */
typedef struct jrec {
  int is_value, dropped;
  const char *s;
  size_t len;
  sgf_pos pos;
  size_t at; /* where the record begins in g->root */
} jrec;
static inline int jroot_next(const jgame *g, size_t *at, jrec *r) {
  const char *p;
  if (*at >= g->root.len) return 0;
  p = g->root.p + *at;
  r->at = *at;
  r->dropped = 0;
  if (*p == 'P') {
    r->is_value = 0;
    r->len = (unsigned char)p[1];
    r->s = p + 2;
    *at += 2 + r->len;
    return 1;
  }
  r->is_value = 1;
  if (*p == 'D') {
    r->dropped = 1;
    memcpy(&r->pos, p + 1, sizeof r->pos);
    r->s = "";
    r->len = 0;
    *at += 1 + sizeof r->pos;
    return 1;
  }
  memcpy(&r->pos, p + 1, sizeof r->pos);
  memcpy(&r->len, p + 1 + sizeof r->pos, sizeof r->len);
  r->s = p + 1 + sizeof r->pos + sizeof r->len;
  *at += 1 + sizeof r->pos + sizeof r->len + r->len;
  return 1;
}
#define JREC_HEAD (1 + sizeof(sgf_pos) + sizeof(size_t)) /* 'V' pos len */
/* The first value of header slot (jheader_slot) in the root node: 1 and
 * its record, or 0 (none, or dropped: then *r is the 'D' record). */
static inline int jroot_first(const jgame *g, int slot, jrec *r) {
  const char *q;
  if (!(g->root_seen & 1u << slot)) return 0;
  q = g->root.p + g->first_at[slot];
  r->at = g->first_at[slot];
  r->is_value = 1;
  r->dropped = *q == 'D';
  memcpy(&r->pos, q + 1, sizeof r->pos);
  if (r->dropped) {
    r->s = "";
    r->len = 0;
    return 0;
  }
  memcpy(&r->len, q + 1 + sizeof r->pos, sizeof r->len);
  r->s = q + JREC_HEAD;
  return 1;
}
#define JROOT_PAD 16

/* The header slot of a property: 0 to JHEAD_FIELDS - 1 a header field's,
 * JHEAD_FIELDS for CA, -1 none. */
extern const signed char jheader_slots[26 * 26]; /* slot + 1, 0 none */
#define JSLOT_SZ 8                               /* the slot of SZ */
static inline int jheader_slot(const char *ident, size_t len) {
  unsigned a, b;
  if (len != 2) return -1;
  a = (unsigned)((unsigned char)ident[0] - 'A');
  b = (unsigned)((unsigned char)ident[1] - 'A');
  return a < 26 && b < 26 ? jheader_slots[a * 26 + b] - 1 : -1;
}
/* The header field's key ("black") and property ("PB"); for CA "CA". */
const char *jheader_key(int slot);
const char *jheader_id(int slot);

#endif /* SGF_TOOLS_JSON_GAME_H */
