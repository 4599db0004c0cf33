/* sgfstream/value.h - property values: raw (as the reader and the tree
 * give them), the property table, and typed values.
 *
 * THE PROPERTY TABLE. SGF_PROP_MAP below lists every FF[4] property and
 * the FF[1]-FF[3] ones still found in files, each with its value type
 * (a second type for composed values), its shape (one value, a list, or
 * a list that may be empty), its category and its flags (inheritance,
 * old format, Go only). An sgf_prop_table holds those defaults plus what
 * an application registers (its own properties, and its own value types
 * checked by a function it gives): one table per application or thread,
 * no global mutable state. Lookup of a normalized identifier (uppercase
 * letters, as on_property gives it) is O(1) for one and two letters (a
 * 26 x 27 direct index); longer identifiers, which only an application
 * registers, are searched in its short list. An identifier the table does
 * not know gives NULL: unknown properties stay unknown, and the parser,
 * the reader, the tree and the writer keep them intact.
 *
 * TYPED VALUES. Every function here decodes or encodes ONE raw value (the
 * bytes between '[' and ']', escapes intact, as the parser, the reader and
 * the tree give them) and needs no tree, no parser and no allocation:
 * call them straight from on_value or from a property callback. Decoders
 * check syntax and range and, on failure, store in *err_off (which may be
 * NULL) the byte offset WITHIN THE VALUE of the offending byte (len for
 * "ended too early"); add it to the value's position (the byte after its
 * '[') to report FILE:LINE:COL. Encoders check range the same way, the
 * offset then counting in the input they were given.
 *
 * RETURN CONVENTION. 0 for success, or a negative SGF_E* code of the
 * library's error space (sgfstream/error.h): SGF_EINVAL (a NULL or
 * invalid argument), SGF_ESYNTAX (the value is not of its type's syntax),
 * SGF_ERANGE (well formed but out of range: a point off the board, a
 * number beyond 64 bits, a Double other than 1 and 2). Functions that
 * produce a count (bytes written, points produced) return it, >= 0.
 *
 * VALUES IN PIECES. on_value delivers a value whole in one call when it
 * lies whole in the chunk being fed (flags == SGF_VALUE_FIRST |
 * SGF_VALUE_LAST): decode (at, len) directly. Otherwise it comes in
 * pieces; points, moves, numbers and colours are a few bytes, so gather
 * them in an sgf_value_acc (a fixed buffer of SGF_VALUE_ACC_CAP bytes,
 * no allocation) and decode when the last piece arrives. Text of any
 * length can be decoded piece by piece with sgf_text_decoder.
 *
 * INLINE FORMS. For a handler that sees every move of many games, the
 * calls cost more than the work: sgf_prop_builtin_id,
 * sgf_value_acc_piece_fast and sgf_move_decode_fast are static inline
 * forms of sgf_prop_lookup(NULL, ...)->id (0 where unknown),
 * sgf_value_acc_piece and sgf_move_decode doing their common case (one or
 * two letters; a value whole; two letters a-z on the board) with no call,
 * the rest through the library, with the same results for every input
 * (bench/bench_values.c's moves/decoded uses them; bench/README.md
 * gives what they save).
 *
 * COORDINATES. A point is (x, y), 0-based, x the column from the left and
 * y the row from the top: SGF's own order ("ab" is x 0, y 1). Letters
 * 'a'-'z' are 0-25 and 'A'-'Z' 26-51, so boards go up to 52 x 52. Board
 * size comes from SZ, square (SZ[19]) or rectangular (SZ[19:13], columns
 * then rows); the default is 19 x 19. A pass is "" always, and also "tt"
 * on boards of at most 19 x 19 (FF[3]); on larger boards "tt" is a point.
 * The display form is GTP's (columns A-T skipping I, rows counted from the
 * bottom: "Q16"); sgfmill's is (row, col) with (0, 0) at the bottom left.
 */
#ifndef SGFSTREAM_VALUE_H
#define SGFSTREAM_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "sgfstream/common.h"
#include "sgfstream/error.h"
#include "sgfstream/parser.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* Raw values: a property and its values as written, escapes intact, as
 * the reader (sgfstream/reader.h) and the tree (sgfstream/tree.h) give
 * them. The typed values below decode these bytes.
 *
 * VIEWS, NOT STORAGE. The reader and the tree hand out small views,
 * returned by value: copies that describe a property or a value and
 * point at bytes the reader or the tree owns. How those keep properties
 * is theirs to change (a tree may pack them into flat arrays) without
 * changing this API. A view is valid as long as what it points into:
 * during the on_property callback for the reader's; for the tree's, until
 * the tree is freed or a cursor changes that node. Keep the bytes you
 * need beyond that. A view that stands for nothing (no such property,
 * value or move) has nvalues 0, lengths 0 and NULL pointers.            */

typedef struct sgf_value_view {
  const char *raw; /* bytes between '[' and ']', escapes intact; followed
                      by a NUL byte (the value may hold NUL bytes: use
                      len) */
  size_t len;
  sgf_pos pos; /* of the '[' */
} sgf_value_view;

typedef struct sgf_prop_view {
  const char *ident; /* normalized (FF[4]), NUL-terminated */
  size_t ident_len;
  const char *raw_ident; /* as written, NUL-terminated */
  size_t raw_ident_len;
  sgf_pos pos;         /* of the identifier's first byte */
  size_t nvalues;      /* at least 1 for a property that is there */
  const void *priv[2]; /* private: where the values are */
} sgf_prop_view;

/* The i-th value (0-based) of the property p describes; a view of
 * nothing (raw NULL) if i >= p->nvalues. O(1), no allocation. */
SGF_EXTERN sgf_value_view sgf_prop_value(const sgf_prop_view *p, size_t i);

/* ---------------------------------------------------------------------- */
/* Value types, shapes, categories                                         */

/* XX(NAME, name) -- the FF[4] value types (Go's point, stone and move) */
#define SGF_VTYPE_MAP(XX)                                                \
  XX(NONE, "none")             /* the empty value [] */                  \
  XX(NUMBER, "number")         /* [+-]digits, 64 bits */                 \
  XX(REAL, "real")             /* Number ["." digits] */                 \
  XX(DOUBLE, "double")         /* 1 normal, 2 emphasized */              \
  XX(COLOR, "color")           /* B or W */                              \
  XX(SIMPLETEXT, "simpletext") /* one line: line breaks become spaces */ \
  XX(TEXT, "text")             /* line breaks kept */                    \
  XX(POINT, "point")                                                     \
  XX(STONE, "stone") /* a point (Go) */                                  \
  XX(MOVE, "move")   /* a point or a pass */

typedef enum sgf_vtype {
  SGF_VT_UNKNOWN = 0, /* not a type: no second part, unknown property */
#define SGF__VT_ENUM(NAME, name) SGF_VT_##NAME,
  SGF_VTYPE_MAP(SGF__VT_ENUM)
#undef SGF__VT_ENUM
      SGF_VT_BUILTIN_MAX_,
  SGF_VT_USER = 64 /* types an application registers: 64, 65, ... */
} sgf_vtype;

typedef enum sgf_vshape {
  SGF_VS_SINGLE = 0, /* exactly one value */
  SGF_VS_LIST = 1,   /* one or more values */
  SGF_VS_ELIST = 2   /* a list, or one empty value [] for "no points" */
} sgf_vshape;

typedef enum sgf_pcat {
  SGF_PC_NONE = 0, /* FF[4]'s "-": no property type */
  SGF_PC_ROOT,
  SGF_PC_GAME_INFO,
  SGF_PC_SETUP,
  SGF_PC_MOVE,
  SGF_PC_MARKUP,     /* FF[4] types these "-"; grouped as the spec does */
  SGF_PC_ANNOTATION, /* node and move annotation */
  SGF_PC_TIMING,
  SGF_PC_MISC
} sgf_pcat;

/* sgf_propdef.flags */
#define SGF_PF_INHERIT 0x1u     /* applies to the subtree until reset (DD...) */
#define SGF_PF_EMPTY_OK 0x2u    /* [] is also allowed (FG: none | compose) */
#define SGF_PF_COMPOSE_OPT 0x4u /* the second part may be left out (SZ) */
#define SGF_PF_OLD 0x8u         /* FF[1]-FF[3] only, not in FF[4] */
#define SGF_PF_GO 0x10u         /* Go-specific (GM[1]) */

/* XX(c1, c2, type, type2, shape, category, flags, description)
 * The identifier is c1 c2 (c2 empty for one letter): the enumerator is
 * SGF_PROP_<c1c2>, the string #c1 #c2. type2 is the type of a composed
 * value's second part (UNKNOWN: not composed). FF[1]-FF[3] entries follow
 * the FF[1]-FF[4] property index of the SGF pages (KI: a number komi
 * some servers wrote). */
#define SGF_PROP_MAP(XX)                                                     \
  /* move */                                                                 \
  XX(B, , MOVE, UNKNOWN, SINGLE, MOVE, 0, "black move")                      \
  XX(K, O, NONE, UNKNOWN, SINGLE, MOVE, 0, "ko: execute even if illegal")    \
  XX(M, N, NUMBER, UNKNOWN, SINGLE, MOVE, 0, "set move number")              \
  XX(W, , MOVE, UNKNOWN, SINGLE, MOVE, 0, "white move")                      \
  /* setup */                                                                \
  XX(A, B, STONE, UNKNOWN, LIST, SETUP, 0, "add black")                      \
  XX(A, E, POINT, UNKNOWN, LIST, SETUP, 0, "add empty")                      \
  XX(A, W, STONE, UNKNOWN, LIST, SETUP, 0, "add white")                      \
  XX(P, L, COLOR, UNKNOWN, SINGLE, SETUP, 0, "player to play")               \
  /* node annotation */                                                      \
  XX(C, , TEXT, UNKNOWN, SINGLE, ANNOTATION, 0, "comment")                   \
  XX(D, M, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, 0, "even position")          \
  XX(G, B, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, 0, "good for black")         \
  XX(G, W, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, 0, "good for white")         \
  XX(H, O, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, 0, "hotspot")                \
  XX(N, , SIMPLETEXT, UNKNOWN, SINGLE, ANNOTATION, 0, "node name")           \
  XX(U, C, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, 0, "unclear position")       \
  XX(V, , REAL, UNKNOWN, SINGLE, ANNOTATION, 0, "value")                     \
  /* move annotation */                                                      \
  XX(B, M, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, 0, "bad move")               \
  XX(D, O, NONE, UNKNOWN, SINGLE, ANNOTATION, 0, "doubtful move")            \
  XX(I, T, NONE, UNKNOWN, SINGLE, ANNOTATION, 0, "interesting move")         \
  XX(T, E, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, 0, "tesuji")                 \
  /* markup */                                                               \
  XX(A, R, POINT, POINT, LIST, MARKUP, 0, "arrow")                           \
  XX(C, R, POINT, UNKNOWN, LIST, MARKUP, 0, "circle")                        \
  XX(D, D, POINT, UNKNOWN, ELIST, MARKUP, SGF_PF_INHERIT, "dim points")      \
  XX(L, B, POINT, SIMPLETEXT, LIST, MARKUP, 0, "label")                      \
  XX(L, N, POINT, POINT, LIST, MARKUP, 0, "line")                            \
  XX(M, A, POINT, UNKNOWN, LIST, MARKUP, 0, "mark (X)")                      \
  XX(S, L, POINT, UNKNOWN, LIST, MARKUP, 0, "selected points")               \
  XX(S, Q, POINT, UNKNOWN, LIST, MARKUP, 0, "square")                        \
  XX(T, R, POINT, UNKNOWN, LIST, MARKUP, 0, "triangle")                      \
  /* root */                                                                 \
  XX(A, P, SIMPLETEXT, SIMPLETEXT, SINGLE, ROOT, 0, "application:version")   \
  XX(C, A, SIMPLETEXT, UNKNOWN, SINGLE, ROOT, 0, "charset")                  \
  XX(F, F, NUMBER, UNKNOWN, SINGLE, ROOT, 0, "file format (1-4)")            \
  XX(G, M, NUMBER, UNKNOWN, SINGLE, ROOT, 0, "game (1 Go)")                  \
  XX(S, T, NUMBER, UNKNOWN, SINGLE, ROOT, 0, "variation style (0-3)")        \
  XX(S, Z, NUMBER, NUMBER, SINGLE, ROOT, SGF_PF_COMPOSE_OPT,                 \
     "board size (columns[:rows])")                                          \
  /* game info */                                                            \
  XX(A, N, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "annotator")           \
  XX(B, R, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "black rank")          \
  XX(B, T, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "black team")          \
  XX(C, P, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "copyright")           \
  XX(D, T, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "date")                \
  XX(E, V, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "event")               \
  XX(G, C, TEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "game comment")              \
  XX(G, N, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "game name")           \
  XX(O, N, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "opening")             \
  XX(O, T, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "overtime")            \
  XX(P, B, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "black player")        \
  XX(P, C, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "place")               \
  XX(P, W, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "white player")        \
  XX(R, E, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "result")              \
  XX(R, O, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "round")               \
  XX(R, U, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "rules")               \
  XX(S, O, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "source")              \
  XX(T, M, REAL, UNKNOWN, SINGLE, GAME_INFO, 0, "time limit (seconds)")      \
  XX(U, S, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "user (entered by)")   \
  XX(W, R, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "white rank")          \
  XX(W, T, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, 0, "white team")          \
  XX(H, A, NUMBER, UNKNOWN, SINGLE, GAME_INFO, SGF_PF_GO, "handicap")        \
  XX(K, M, REAL, UNKNOWN, SINGLE, GAME_INFO, SGF_PF_GO, "komi")              \
  /* timing */                                                               \
  XX(B, L, REAL, UNKNOWN, SINGLE, TIMING, 0, "black time left")              \
  XX(O, B, NUMBER, UNKNOWN, SINGLE, TIMING, 0, "black overtime stones left") \
  XX(O, W, NUMBER, UNKNOWN, SINGLE, TIMING, 0, "white overtime stones left") \
  XX(W, L, REAL, UNKNOWN, SINGLE, TIMING, 0, "white time left")              \
  /* miscellaneous */                                                        \
  XX(F, G, NUMBER, SIMPLETEXT, SINGLE, MISC, SGF_PF_EMPTY_OK, "figure")      \
  XX(P, M, NUMBER, UNKNOWN, SINGLE, MISC, SGF_PF_INHERIT, "print move mode") \
  XX(V, W, POINT, UNKNOWN, ELIST, MISC, SGF_PF_INHERIT, "view (part shown)") \
  /* Go: territory */                                                        \
  XX(T, B, POINT, UNKNOWN, ELIST, MISC, SGF_PF_GO, "black territory")        \
  XX(T, W, POINT, UNKNOWN, ELIST, MISC, SGF_PF_GO, "white territory")        \
  /* FF[1]-FF[3] only */                                                     \
  XX(B, S, NUMBER, UNKNOWN, SINGLE, GAME_INFO, SGF_PF_OLD, "black species")  \
  XX(C, H, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, SGF_PF_OLD, "check mark")    \
  XX(E, L, NUMBER, UNKNOWN, SINGLE, ANNOTATION, SGF_PF_OLD,                  \
     "evaluation of a computer move")                                        \
  XX(E, X, MOVE, UNKNOWN, SINGLE, ANNOTATION, SGF_PF_OLD, "expected move")   \
  XX(I, D, SIMPLETEXT, UNKNOWN, SINGLE, GAME_INFO, SGF_PF_OLD,               \
     "game identifier")                                                      \
  XX(K, I, NUMBER, UNKNOWN, SINGLE, GAME_INFO, SGF_PF_OLD | SGF_PF_GO,       \
     "komi as a whole number (old servers)")                                 \
  XX(L, , POINT, UNKNOWN, LIST, MARKUP, SGF_PF_OLD, "letters (a, b, ...)")   \
  XX(L, T, NONE, UNKNOWN, SINGLE, GAME_INFO, SGF_PF_OLD, "lose on time")     \
  XX(M, , POINT, UNKNOWN, LIST, MARKUP, SGF_PF_OLD, "mark")                  \
  XX(O, M, NUMBER, UNKNOWN, SINGLE, TIMING, SGF_PF_OLD,                      \
     "moves per overtime period")                                            \
  XX(O, P, REAL, UNKNOWN, SINGLE, TIMING, SGF_PF_OLD, "overtime period")     \
  XX(O, V, REAL, UNKNOWN, SINGLE, TIMING, SGF_PF_OLD, "operator overhead")   \
  XX(R, G, POINT, UNKNOWN, LIST, MARKUP, SGF_PF_OLD, "region")               \
  XX(S, C, POINT, UNKNOWN, LIST, MARKUP, SGF_PF_OLD, "secure stones")        \
  XX(S, E, POINT, UNKNOWN, LIST, MARKUP, SGF_PF_OLD, "self-test moves")      \
  XX(S, I, DOUBLE, UNKNOWN, SINGLE, ANNOTATION, SGF_PF_OLD, "sigma")         \
  XX(T, C, NUMBER, UNKNOWN, SINGLE, MISC, SGF_PF_OLD, "territory count")     \
  XX(W, S, NUMBER, UNKNOWN, SINGLE, GAME_INFO, SGF_PF_OLD, "white species")

typedef enum sgf_prop_id {
  SGF_PROP_UNKNOWN = 0,
#define SGF__PROP_ENUM(c1, c2, t, t2, sh, cat, fl, d) SGF_PROP_##c1##c2,
  SGF_PROP_MAP(SGF__PROP_ENUM)
#undef SGF__PROP_ENUM
      SGF_PROP_BUILTIN_MAX_,
  SGF_PROP_USER = 1024 /* registered properties: 1024, 1025, ... */
} sgf_prop_id;

/* The longest identifier a table holds (registered ones included). */
#define SGF_PROP_IDENT_MAX 15

typedef struct sgf_propdef {
  size_t size; /* sizeof (sgf_propdef); set by sgf_propdef_init */
  int id;      /* sgf_prop_id; set by the table */
  char ident[SGF_PROP_IDENT_MAX + 1]; /* uppercase letters, NUL-ended */
  int type;                           /* sgf_vtype, or a registered type */
  int type2; /* second part of a composed value, or UNKNOWN */
  sgf_vshape shape;
  sgf_pcat category;
  unsigned flags;          /* SGF_PF_* */
  const char *description; /* static, or the application's (not copied) */
} sgf_propdef;

/* Zero *d and set d->size; then fill ident, type... for registering. */
SGF_EXTERN void sgf_propdef_init(sgf_propdef *d);

typedef struct sgf_prop_table sgf_prop_table;

/* A new table holding the defaults (SGF_PROP_MAP). alloc may be NULL
 * (libc); it is copied. NULL if memory runs out. */
SGF_EXTERN sgf_prop_table *sgf_prop_table_create(const sgf_allocator *alloc);
SGF_EXTERN void sgf_prop_table_destroy(sgf_prop_table *t);

/* The definition of a normalized identifier (uppercase letters, not
 * NUL-terminated; on_property's), or NULL if the table does not know it.
 * t NULL means the built-in defaults. The pointer is valid until the
 * table changes or is destroyed (built-ins: forever). O(1) for one- and
 * two-letter identifiers. */
SGF_EXTERN const sgf_propdef *sgf_prop_lookup(const sgf_prop_table *t,
                                              const char *ident, size_t len);

/* The direct index behind the O(1) lookups: slot (c1 - 'A') * 27 +
 * (c2 ? c2 - 'A' + 1 : 0) of a one- or two-letter identifier, -1 for any
 * other. */
#define SGF_PROP_SLOTS (26 * 27)
static inline int sgf_prop_slot(const char *ident, size_t len) {
  unsigned c1, c2 = 0;
  if (!ident || len == 0 || len > 2) return -1;
  c1 = (unsigned)(unsigned char)ident[0] - 'A';
  if (c1 >= 26) return -1;
  if (len == 2) {
    c2 = (unsigned)(unsigned char)ident[1] - 'A';
    if (c2 >= 26) return -1;
    c2++;
  }
  return (int)(c1 * 27 + c2);
}
/* The built-ins' index: slot -> built-in id (SGF_PROP_..., all below
 * 256), 0 where no built-in has that identifier. Constant. */
extern SGF_EXTERN const unsigned char sgf_prop_builtin_slots[SGF_PROP_SLOTS];
/* The built-in id of an identifier without a call, for handlers that
 * look up every property of many games: sgf_prop_lookup(NULL, ident,
 * len)->id, or 0 where that is NULL (an application's registrations in
 * a table are not seen: ask sgf_prop_lookup(t, ...) for those). */
static inline int sgf_prop_builtin_id(const char *ident, size_t len) {
  int slot = sgf_prop_slot(ident, len);
  return slot < 0 ? 0 : sgf_prop_builtin_slots[slot];
}

/* Register (or redefine: a built-in or an earlier registration with the
 * same identifier is replaced) a property. def->size must be set
 * (sgf_propdef_init); def->id is ignored. Returns the id it got
 * (the built-in's for a built-in identifier, else SGF_PROP_USER + n) or
 * SGF_EINVAL (bad identifier, unknown type or shape), SGF_ENOMEM. */
SGF_EXTERN int sgf_prop_table_add(sgf_prop_table *t, const sgf_propdef *def);

/* A value type of the application's: check(ctx, raw, len, &err_off) says
 * whether one raw value is valid (0 or a negative code with the offset).
 * Returns the new type's number (SGF_VT_USER + n) or a negative code. */
typedef int (*sgf_vtype_check_fn)(void *ctx, const char *raw, size_t len,
                                  size_t *err_off);
SGF_EXTERN int sgf_prop_table_add_type(sgf_prop_table *t, const char *name,
                                       sgf_vtype_check_fn check, void *ctx);

/* "number", "point"...; a registered type's name; NULL if unknown. */
SGF_EXTERN const char *sgf_vtype_name(const sgf_prop_table *t, int type);
/* "root", "game-info", "setup", "move", "markup", "annotation", "timing",
 * "misc", "-" (SGF_PC_NONE); NULL if out of range. */
SGF_EXTERN const char *sgf_pcat_name(sgf_pcat c);

/* ---------------------------------------------------------------------- */
/* Board geometry, points, moves                                           */

#define SGF_BOARD_MAX 52

typedef struct sgf_board {
  int width;  /* columns, 1..52 */
  int height; /* rows, 1..52 */
} sgf_board;

typedef struct sgf_point {
  int x; /* column from the left, 0-based */
  int y; /* row from the top, 0-based (SGF's order) */
} sgf_point;

typedef struct sgf_move {
  int pass; /* 1: a pass ("" or "tt"); pt is then (-1, -1) */
  sgf_point pt;
} sgf_move;

/* The default board for Go: 19 x 19. */
SGF_EXTERN void sgf_board_init(sgf_board *b);

/* Board size from an SZ value: "19" or "19:13" (columns, rows), each
 * 1..52. On failure *b is unchanged. */
SGF_EXTERN int sgf_board_decode(const char *raw, size_t len, sgf_board *b,
                                size_t *err_off);
/* SZ's value: "19", or "19:13" when not square; out needs room for 5
 * bytes. Returns the bytes written or a negative code. */
SGF_EXTERN int sgf_board_encode(const sgf_board *b, char *out);

/* Point and Stone: two letters within the board. */
SGF_EXTERN int sgf_board_point_decode(const sgf_board *b, const char *raw,
                                      size_t len, sgf_point *pt,
                                      size_t *err_off);
/* Writes 2 bytes (no NUL); returns 2 or SGF_ERANGE (off the board). */
SGF_EXTERN int sgf_board_point_encode(const sgf_board *b, sgf_point pt,
                                      char *out);

/* Move: a point, or a pass ("", or "tt" on boards up to 19 x 19). */
SGF_EXTERN int sgf_move_decode(const sgf_board *b, const char *raw, size_t len,
                               sgf_move *m, size_t *err_off);
/* Its common case, for callers that decode every move of many games
 * (each call saved is about a fifth of the cost of a move on top of the
 * parser's): two letters 'a'..'z' within a valid board b. Returns 1 with
 * *m set (m may be NULL) when raw is such a move, else 0 and nothing
 * touched; sgf_move_decode then gives the answer (it starts with this same
 * test, so the two never disagree). "tt" needs no case of its own: it is
 * a point only where t (19) < width and height, i.e. on boards of 20 and
 * more, where it is not a pass. Static inline: nothing in the ABI. */
static inline int sgf_move_decode_letters(const sgf_board *b, const char *raw,
                                          size_t len, sgf_move *m) {
  unsigned x, y;
  if (len != 2 || !raw || !b) return 0;
  x = (unsigned)(unsigned char)raw[0] - 'a';
  y = (unsigned)(unsigned char)raw[1] - 'a';
  if (x >= 26 || y >= 26 || x >= (unsigned)b->width ||
      y >= (unsigned)b->height || (unsigned)b->width > SGF_BOARD_MAX ||
      (unsigned)b->height > SGF_BOARD_MAX)
    return 0;
  if (m) {
    m->pass = 0;
    m->pt.x = (int)x;
    m->pt.y = (int)y;
  }
  return 1;
}
/* sgf_move_decode with its common case inline: the same results for
 * every input. */
static inline int sgf_move_decode_fast(const sgf_board *b, const char *raw,
                                       size_t len, sgf_move *m,
                                       size_t *err_off) {
  if (sgf_move_decode_letters(b, raw, len, m)) return 0;
  return sgf_move_decode(b, raw, len, m, err_off);
}
/* Writes 0 bytes for a pass ([], FF[4]), or "tt" with flags
 * SGF_MOVE_PASS_TT on boards up to 19 x 19 (older readers), or 2 bytes
 * for a point. Returns the bytes written or a negative code. */
#define SGF_MOVE_PASS_TT 0x1u
SGF_EXTERN int sgf_move_encode(const sgf_board *b, const sgf_move *m,
                               unsigned flags, char *out);

/* ONE CODEC. Points and moves have one codec, the one above, and one set
 * of results: SGF_ESYNTAX for what is not two letters (with the offset),
 * SGF_ERANGE for a point off the board, SGF_EINVAL for a NULL or invalid
 * argument. The board-less forms below, for the cursor's (x, y) ints
 * (sgfstream/tree.h), are that codec on the largest board (52 x 52),
 * where any two letters are a point ("tt" included: on boards up to
 * 19 x 19 it is the FF[3] pass, which sgf_move_decode with the board
 * knows) and only the empty value is a pass. */
#define SGF_PASS (-1)
/* The two letters of (x, y) into out: returns 2; 0 (nothing written) for
 * a pass (x or y SGF_PASS); SGF_ERANGE outside 0..51. */
SGF_EXTERN int sgf_point_encode(int x, int y, char out[2]);
/* SGF_OK and (x, y) for two letters, (SGF_PASS, SGF_PASS) for the empty
 * value; SGF_ESYNTAX for anything else (x and y then unchanged). */
SGF_EXTERN int sgf_point_decode(const char *raw, size_t len, int *x, int *y);

/* Display form as GTP writes it: "Q16" (columns A-T skipping I, row 1 at
 * the bottom); boards up to 25 wide. out needs 4 bytes (no NUL written);
 * returns the bytes written, or SGF_ERANGE. */
SGF_EXTERN int sgf_point_to_gtp(const sgf_board *b, sgf_point pt, char *out);
/* The reverse ("q16" too); SGF_ESYNTAX / SGF_ERANGE with the offset. */
SGF_EXTERN int sgf_point_from_gtp(const sgf_board *b, const char *s, size_t len,
                                  sgf_point *pt, size_t *err_off);
/* sgfmill's (row, col): row from the bottom, col from the left. */
SGF_EXTERN int sgf_point_to_rowcol(const sgf_board *b, sgf_point pt, int *row,
                                   int *col);

/* ---------------------------------------------------------------------- */
/* Point lists: one value is a point "aa" or a rectangle "aa:cc"          */

/* Reading a list value without allocating: the iterator yields the points
 * of one value (all of a rectangle's, row by row). A rectangle given by
 * any two opposite corners is accepted ("cc:aa" as "aa:cc"); with
 * SGF_PTS_STRICT only FF[4]'s upper-left:lower-right form is, and a 1x1
 * rectangle ("aa:aa") is refused. With SGF_PTS_EMPTY_OK the value may be
 * empty (an elist's [], which yields no point). The iterator keeps no
 * pointer to raw after init. */
#define SGF_PTS_STRICT 0x1u
#define SGF_PTS_EMPTY_OK 0x2u
typedef struct sgf_point_iter {
  size_t size;            /* set by init */
  sgf_point lo, hi, next; /* private */
  int state;              /* private: < 0 the error to return */
  size_t err_off;         /* private */
} sgf_point_iter;

/* Decodes and checks the value at once; errors come from the first
 * call to next. */
SGF_EXTERN void sgf_point_iter_init(sgf_point_iter *it, const sgf_board *b,
                                    const char *raw, size_t len,
                                    unsigned flags);
/* 1 and *pt set, 0 at the end, or a negative code (offset in *err_off). */
SGF_EXTERN int sgf_point_iter_next(sgf_point_iter *it, sgf_point *pt,
                                   size_t *err_off);

/* A rectangle of points, corners included; a single point has a == b. */
typedef struct sgf_rect {
  sgf_point a; /* upper left */
  sgf_point b; /* lower right */
} sgf_rect;

/* Writing a point set compressed: set holds width * height bytes, row by
 * row from the top (set[y * width + x] nonzero: the point is in the set).
 * Covers the set with disjoint rectangles (greedy: widest run, then as
 * many rows down as it fits) into out (room for cap), in row order. The
 * set is CLEARED as it is covered. Returns the number of rectangles, or
 * SGF_ERANGE if cap is too small (cap = width * height always fits). */
SGF_EXTERN int sgf_points_compress(const sgf_board *b, unsigned char *set,
                                   sgf_rect *out, size_t cap);
/* One list value: "aa" for a single point, "aa:cc" for a rectangle. out
 * needs 5 bytes; returns the bytes written or SGF_ERANGE. */
SGF_EXTERN int sgf_rect_encode(const sgf_board *b, const sgf_rect *r,
                               char *out);

/* ---------------------------------------------------------------------- */
/* Scalars                                                                 */

SGF_EXTERN int sgf_number_decode(const char *raw, size_t len, int64_t *n,
                                 size_t *err_off);
/* out needs 20 bytes; returns the bytes written. */
SGF_EXTERN int sgf_number_encode(int64_t n, char *out);

/* Real: Number ["." digits]. Exact for up to 15 significant digits. */
SGF_EXTERN int sgf_real_decode(const char *raw, size_t len, double *r,
                               size_t *err_off);
/* The shortest form that decodes back to r (no exponent; locale-free);
 * out needs SGF_REAL_MAX bytes. SGF_ERANGE for NaN, infinities and
 * magnitudes of 1e15 and more. */
#define SGF_REAL_MAX 40
SGF_EXTERN int sgf_real_encode(double r, char *out);

/* Double: 1 (normal) or 2 (emphasized). */
SGF_EXTERN int sgf_double_decode(const char *raw, size_t len, int *d,
                                 size_t *err_off);
/* Color: 'B' or 'W' (returned as that byte). */
SGF_EXTERN int sgf_color_decode(const char *raw, size_t len, char *c,
                                size_t *err_off);

/* The first ':' not escaped by a backslash: a composed value's separator.
 * Returns 0 and *colon, or SGF_ESYNTAX (no separator; offset len). */
SGF_EXTERN int sgf_compose_split(const char *raw, size_t len, size_t *colon,
                                 size_t *err_off);

/* ---------------------------------------------------------------------- */
/* Text and SimpleText (FF[4])                                             */

/* ONE HOME. Text is decoded by one decoder, sgf_text_decoder (whole
 * values: sgf_text_decode), whose flags choose what it does; the other
 * names are that decoder with flags set, kept for the callers they name:
 *   sgf_unescape(), sgf_unescaper   the decoder with SGF_TEXT_RAW
 *   sgf_text_decode_dbcs()          the decoder for a double-byte
 *                                   charset (below)
 * Text is encoded by one escaper, sgf_escaper (sgf_escape_text,
 * sgf_escape_simple): streaming, for the writer's sink, it never fails
 * (it drops NUL bytes, keeps tab, vertical tab and form feed, which read
 * back as spaces, and for SimpleText writes a line break as a space).
 * sgf_text_encode() is that escaper after a check that refuses
 * (SGF_ERANGE) every byte that would not read back as itself. */

/* Decoding: escapes resolved ("\x" is x); a soft line break (backslash
 * then LF, CR, CR LF or LF CR) removed; other whitespace (tab, vertical
 * tab, form feed, escaped or not) becomes a space. Text keeps other line
 * breaks as written; SimpleText (SGF_TEXT_SIMPLE) turns each into one
 * space. Streaming: zero (or init) a decoder per value, feed the pieces;
 * out needs room for len bytes of each piece; returns the bytes written.
 * The whole-value form may work in place (out == raw). */
#define SGF_TEXT_SIMPLE 0x1u
/* Escapes and soft line breaks only: every other byte, whitespace
 * included, is kept as written (the raw text a value stands for, as
 * sgf_unescape gives it). */
#define SGF_TEXT_RAW 0x4u
typedef struct sgf_text_decoder {
  unsigned flags; /* SGF_TEXT_* */
  int state;      /* private */
} sgf_text_decoder;
SGF_EXTERN void sgf_text_decoder_init(sgf_text_decoder *d, unsigned flags);
SGF_EXTERN size_t sgf_text_decoder_feed(sgf_text_decoder *d, const char *raw,
                                        size_t len, char *out);
SGF_EXTERN size_t sgf_text_decode(const char *raw, size_t len, char *out,
                                  unsigned flags);

/* The decoder with SGF_TEXT_RAW: "\x" gives "x", and a backslash
 * followed by a line break removes both; nothing else changes. Whole
 * value: writes at most len bytes to out (out may equal raw) and returns
 * the number written. */
SGF_EXTERN size_t sgf_unescape(const char *raw, size_t len, char *out);
/* Its streaming form, for values that arrive in slices: zero (or
 * sgf_unescaper_init) before each value, then feed each slice (out: room
 * for len bytes); returns the bytes written. */
typedef struct sgf_unescaper {
  int state; /* private */
} sgf_unescaper;
SGF_EXTERN void sgf_unescaper_init(sgf_unescaper *u);
SGF_EXTERN size_t sgf_unescaper_feed(sgf_unescaper *u, const char *raw,
                                     size_t len, char *out);

/* The decoder for text in a double-byte charset: with charset Shift_JIS,
 * GB18030, GBK, GB2312 or Big5 (any of the names sgf_charset of
 * sgfstream/charset.h knows for them), a byte after a lead byte is the
 * character's second byte, never an escape, since writers such as the
 * Nihon Ki-in leave a second byte '\' unescaped; one that was escaped
 * (lead, '\', '\') is read as the same character, and so is an escaped
 * second byte ']' (lead, '\', ']', as FF[4] writers such as SGFC escape
 * it: GB18030 0x93 0x5D). Any other charset, or NULL: sgf_text_decode.
 * out needs room for len bytes; returns the bytes written. */
SGF_EXTERN size_t sgf_text_decode_dbcs(const char *raw, size_t len, char *out,
                                       unsigned flags, const char *charset);

/* Encoding: '\\' and ']' escaped, and ':' with SGF_TEXT_COMPOSE (the first
 * part of a composed value): the escaper below, sgf_escape_text(), after
 * a check. A byte that would not decode back to itself is refused with
 * SGF_ERANGE at its offset: NUL (never valid in SGF), tab, vertical tab,
 * form feed (they read as spaces), and with SGF_TEXT_SIMPLE a CR or LF. out
 * needs room for 2 * len bytes; returns the bytes written. */
#define SGF_TEXT_COMPOSE 0x2u
SGF_EXTERN int sgf_text_encode(const char *text, size_t len, char *out,
                               unsigned flags, size_t *err_off);

/* ---------------------------------------------------------------------- */
/* Escaping text in pieces: the streaming form of sgf_text_encode()      */

/* Flags for the escaper and sgf_writer_value_text(). */
#define SGF_ESCAPE_COMPOSE                                               \
  0x1u                         /* also escape ':' (one half of a compose \
                                  value; join the halves with a bare ':') */
#define SGF_ESCAPE_SIMPLE 0x2u /* SimpleText: see sgf_escape_simple() */

/* Escaping state for text that arrives in pieces. Initialize with
 * sgf_escaper_init() before each value; no allocation, nothing to free. */
typedef struct sgf_escaper {
  unsigned flags; /* SGF_ESCAPE_COMPOSE (SGF_ESCAPE_SIMPLE is ignored) */
  int state;      /* private */
} sgf_escaper;

SGF_EXTERN void sgf_escaper_init(sgf_escaper *e, unsigned flags);

/* Text: writes to out (room for 2 * len bytes; must not overlap text) the
 * raw SGF for len bytes of plain text: '\' and ']' (and ':' with
 * SGF_ESCAPE_COMPOSE) get a backslash; NUL bytes (never valid in SGF)
 * are dropped; every other byte, line breaks included, is kept (where
 * sgf_text_encode refuses a NUL, tab, vertical tab or form feed, this
 * form, for a sink that cannot fail, drops or keeps them). Returns
 * the number of bytes written. Splitting the
 * text anywhere gives the same bytes in total. sgf_unescape() gives the
 * text back. */
SGF_EXTERN size_t sgf_escape_text(sgf_escaper *e, const char *text, size_t len,
                                  char *out);

/* SimpleText: as sgf_escape_text(), but each line break (LF, CR, CR LF or
 * LF CR) becomes one space: SimpleText cannot hold a line break (FF[4]
 * shows it as a space), and this way what is written reads back as
 * displayed. A CR LF split between two calls still gives one space. Room
 * for 2 * len bytes in out. Returns the number of bytes written. */
SGF_EXTERN size_t sgf_escape_simple(sgf_escaper *e, const char *text,
                                    size_t len, char *out);

/* ---------------------------------------------------------------------- */
/* Any value by its property's definition                                  */

/* One part of a typed value. Text parts are slices of the raw value
 * (escapes intact: decode with sgf_text_decode) after sgf_value_decode,
 * and plain text (to be escaped) for sgf_value_encode. A list value of
 * points holds its rectangle (a == b for one point). */
typedef struct sgf_vpart {
  int type; /* sgf_vtype (NONE for an empty value) */
  union {
    int64_t number;
    double real;
    int dbl;    /* 1 or 2 */
    char color; /* 'B' or 'W' */
    sgf_move move;
    sgf_point point;
    sgf_rect rect;
    struct {
      const char *at;
      size_t len;
    } text;
  } u;
} sgf_vpart;

typedef struct sgf_typed_value {
  size_t size;  /* sizeof; set by sgf_typed_value_init */
  int composed; /* 1: part[1] holds the second part */
  sgf_vpart part[2];
} sgf_typed_value;

SGF_EXTERN void sgf_typed_value_init(sgf_typed_value *v);

/* Decode and check one raw value of the property def describes (t: the
 * table it came from, for registered types; NULL for built-ins). A list
 * value of points may be a rectangle; a value [] is NONE where the shape
 * (ELIST), the flags (EMPTY_OK) or the type (NONE, MOVE as a pass) allow
 * it. A registered type gives part[0].type with its raw slice as text. */
SGF_EXTERN int sgf_value_decode(const sgf_prop_table *t, const sgf_propdef *def,
                                const sgf_board *b, const char *raw, size_t len,
                                sgf_typed_value *v, size_t *err_off);
/* The reverse: writes the raw value (without brackets) to out, room for
 * cap bytes. Returns the bytes written, SGF_ERANGE (a part out of range,
 * or cap too small: 2 * text length + 48 always fits), SGF_EINVAL. */
SGF_EXTERN int sgf_value_encode(const sgf_prop_table *t, const sgf_propdef *def,
                                const sgf_board *b, const sgf_typed_value *v,
                                unsigned flags, char *out, size_t cap,
                                size_t *err_off);

/* ---------------------------------------------------------------------- */
/* Gathering a value's pieces (on_value) in a fixed buffer                 */

#define SGF_VALUE_ACC_CAP 64
typedef struct sgf_value_acc {
  size_t len; /* bytes of the value so far (also those not kept) */
  char buf[SGF_VALUE_ACC_CAP];
} sgf_value_acc;

/* Give each piece of on_value (at, len, flags) in turn. Returns 1 when
 * the value is complete, with *raw / *rawlen the whole value (the piece
 * itself when it came whole, else the buffer): valid until the next call.
 * Returns 0 while more pieces are to come, and SGF_ERANGE when the
 * completed value was longer than SGF_VALUE_ACC_CAP (*rawlen then tells
 * its length; nothing else is given). No initialization needed beyond
 * zeroing once: a FIRST piece starts over. */
SGF_EXTERN int sgf_value_acc_piece(sgf_value_acc *a, const char *at, size_t len,
                                   unsigned flags, const char **raw,
                                   size_t *rawlen);
/* sgf_value_acc_piece with its common case inline (a value that came
 * whole: itself, no copy): the same results for every input. */
static inline int sgf_value_acc_piece_fast(sgf_value_acc *a, const char *at,
                                           size_t len, unsigned flags,
                                           const char **raw, size_t *rawlen) {
  if ((flags & (SGF_VALUE_FIRST | SGF_VALUE_LAST)) ==
          (SGF_VALUE_FIRST | SGF_VALUE_LAST) &&
      a && raw && rawlen && (at || !len)) {
    *raw = at;
    *rawlen = len;
    return 1;
  }
  return sgf_value_acc_piece(a, at, len, flags, raw, rawlen);
}

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_VALUE_H */
