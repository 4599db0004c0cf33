/* filter.h - what the parts of `sgf filter` share: the predicates on a
 * game's root node (filter_pred.c), on its main line (filter_moves.c),
 * the set of game digests for --unique (filter_moves.c), and the event
 * handlers and output (cmd_filter.c). */
#ifndef SGF_TOOLS_FILTER_H
#define SGF_TOOLS_FILTER_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>
#include <sgfstream/charset.h>
#include <sgfstream/value.h>

#include "bytebuf.h"

/* ------------------------------------------------------------ the root */

/* The root node's properties as read, in one buffer of records: 'P' len
 * ident, or 'V' len(size_t) raw bytes; only those the filter reads
 * (fpreds_wants, and the moves and players when they count). */
typedef struct froot {
  bytebuf rec;
  sgf_board board; /* from SZ (19 x 19 when absent or bad) */
} froot;

/* Text of the root as UTF-8: the game's charset converter and scratch. */
typedef struct ftext {
  sgf_charset *cs;
  bytebuf dec; /* FF[4]-decoded */
  bytebuf utf; /* the UTF-8, NUL-terminated (for regexec) */
  char *conv;  /* UTF-8 from the converter */
  size_t conv_cap;
} ftext;

/* How a text predicate compares. */
enum {
  FM_SUBSTR_CI, /* contains, ASCII case ignored (--black ...) */
  FM_PREFIX_CI, /* begins with, case ignored (--result) */
  FM_EXACT,     /* ID=TEXT */
  FM_SUBSTR,    /* ID:TEXT */
  FM_REGEX,     /* ID~REGEX */
  FM_PRESENT    /* ID alone */
};

/* What a predicate looks at. */
enum { FK_TEXT, FK_DATE, FK_KOMI, FK_HANDICAP, FK_SIZE };

typedef struct fpred {
  int kind, how;
  char ids[2][SGF_PROP_IDENT_MAX + 1]; /* one of them must match */
  int nids;
  const char *text; /* as given */
  size_t len;
  regex_t re;
  int have_re;
  double num;         /* komi */
  int64_t n;          /* handicap */
  int w, h;           /* size */
  int32_t from, to;   /* dates, YYYYMMDD */
  const char *option; /* for messages */
} fpred;

typedef struct fpreds {
  fpred *p;
  size_t n, cap;
} fpreds;

/* filter_pred.c */

/* Parse an option's argument into a new predicate. kind and ids come
 * from the option; for --prop, ids/how come from arg. 0, or -1
 * (reported on stderr). */
int fpred_add_text(fpreds *ps, const char *option, const char *ids, int how,
                   const char *arg);
int fpred_add_prop(fpreds *ps, const char *arg);
int fpred_add_date(fpreds *ps, const char *option, const char *arg);
int fpred_add_number(fpreds *ps, const char *option, int kind, const char *arg);
void fpreds_free(fpreds *ps);

/* Records of the root node. */
void froot_clear(froot *r);
int froot_prop(froot *r, const char *ident, size_t len);
int froot_value(froot *r, const char *raw, size_t len);
/* After the root node: SZ into r->board, CA into the converter. */
void froot_done(froot *r, ftext *t, int input_utf8);
/* Is a root property's value read by froot_done or the predicates (SZ,
 * CA, the identifiers the predicates name)? Only those are recorded, so
 * that a root node's other values (a long comment) are never held. */
int fpreds_wants(const fpreds *ps, const char *ident, size_t len);
/* Do all the predicates hold for this root? */
int fpreds_match(const fpreds *ps, const froot *r, ftext *t);
/* The UTF-8 text of each value of ident (simple: SimpleText decoding),
 * passed to fn in turn until it returns nonzero; returns that, or 0. */
int froot_each_text(const froot *r, ftext *t, const char *ident, int simple,
                    int (*fn)(void *ctx, const char *s, size_t len), void *ctx);

/* The dates an FF[4] DT value names (partial dates, lists): each as an
 * interval [from, to] of YYYYMMDD, to fn. Returns the intervals found. */
int fdate_each(const char *s, size_t len,
               void (*fn)(void *ctx, int32_t from, int32_t to), void *ctx);

/* ------------------------------------------------------------ the moves */

#define FMOVE_PASS (-1)
#define FMOVE_BAD (-2) /* not a move on this board */

/* A query --starts-with, as points (x, y); a pass as FMOVE_PASS. */
typedef struct fstart {
  signed char (*pt)[2];
  size_t n;
  int symmetric;
} fstart;

/* 0, or -1 (reported). */
int fstart_parse(fstart *q, const char *arg);
/* Do the first q->n moves of the main line, (x, y) pairs in moves, match
 * the query on a board b (in one of the symmetries that keep the board's
 * shape, with q->symmetric)? */
int fstart_match(const fstart *q, const signed char (*moves)[2],
                 const sgf_board *b);

/* The digest of a game for --unique: 64 bits of FNV-1a over what is fed,
 * then mixed. */
typedef struct fdigest {
  uint64_t h;
} fdigest;
void fdigest_init(fdigest *d);
void fdigest_add(fdigest *d, const void *p, size_t n);
uint64_t fdigest_final(const fdigest *d);

/* An open-addressing set of 64-bit digests, linear probing, grown by
 * half in place (realloc and a rehash in the same memory). */
typedef struct fset {
  uint64_t *slot; /* 0: empty */
  size_t cap, n;
} fset;
/* 1 if d was new (now added), 0 if it was there, -1 out of memory. */
int fset_add(fset *s, uint64_t d);
void fset_free(fset *s);

#endif /* SGF_TOOLS_FILTER_H */
