/* cmd_filter.c - `sgf filter`: the games of a collection that match, byte
 * for byte as they were in the input (or only their count).
 *
 * DECIDING EARLY. The game-info predicates (filter_pred.c) are decided
 * when the root node is complete (the core's on_node_end). Without
 * predicates on the moves, the game's fate is then known, and the handler
 * returns SGF_SKIP: the tokenizer passes over the rest of the game (to its
 * ')', whose on_tree_end still comes), whether it is selected or not. Only
 * the moves predicates (--moves-min, --moves-max, --starts-with) and
 * --unique read the main line, in the parser's mainline mode; a game that
 * fails them early (more moves than --moves-max, a different opening) is
 * skipped from there.
 *
 * BYTE-EXACT OUTPUT. A game is cut from the input between its '(' and
 * its ')', by the positions of on_tree_begin and on_tree_end, not
 * rewritten, by the game cutter (cutter.h), which keeps what the parser
 * may still name of earlier feeds. Its bytes are held from its '(' while
 * its fate is open: a game selected at its root streams out as its bytes
 * arrive, so only a game waiting on its moves (or --unique) is held
 * whole, up to --max-game-bytes; a larger one is reported and not
 * written. Each game written is
 * followed by a newline. A game the input ends inside (the parser warns)
 * is written with the ')' it lacks (and the ']' if it ended inside a
 * value), so that the output stays a collection: the one change ever made
 * to a game's bytes. A game cut short by a fatal error or a read error is
 * an error: written only if it was streaming out already, as far as it
 * was read and left unclosed, so that it is not taken for whole.
 *
 * BOUNDED MEMORY. Of the root node only the values that the conditions
 * read are recorded (root_wants), up to --max-game-bytes with a value
 * being read in pieces; a game's bytes are held only while its fate is
 * open and they are to be written (never with --count).
 */
#define _POSIX_C_SOURCE 200809L

#include "cutter.h"
#include "filter.h"
#include "input.h"
#include "json_conv.h"
#include "progress.h"
#include "sgf.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define LEX_VALUE 1
#define LEX_ESCAPE 2
#define DEFAULT_MAX_GAME ((size_t)64 << 20)

enum { HOLD_IDLE, HOLD_CAPTURE, HOLD_DROP };
enum { D_PENDING, D_ACCEPT, D_REJECT };

typedef struct frun {
  sgf_parser *p;
  sgf_callbacks cb;
  /* what to select */
  fpreds preds;
  fstart start;
  int have_start, need_moves, invert, unique, count;
  json_conv *json;              /* --json: the games as sgf json writes them */
  int64_t moves_min, moves_max; /* -1: none */
  size_t max_game, chunk;
  /* the input */
  const char *arg; /* the FILE argument it came from */
  const char *name;
  uint64_t games; /* games begun in it */
  int stopped, have_error, status;
  int input_utf8; /* the input was UTF-16, read converted: CA is moot */
  sgf_diag last_error;
  uint64_t fed;  /* bytes of the input fed so far */
  uint64_t base; /* the bytes being fed: from offset base, plen of them */
  size_t plen;
  cutter cut; /* the game's bytes (and what the parser may still name) */
  int mode;
  /* the game */
  uint64_t depth;
  int lex;            /* of the bytes written: LEX_VALUE, LEX_ESCAPE */
  uint64_t lex_depth; /* the game trees they leave open */
  int root_state;     /* 0 no node yet, 1 root node open, 2 decided */
  int root_keep;      /* the root property being read is recorded */
  int decision, info_ok;
  sgf_pos gpos;      /* its '(' */
  uint64_t root_end; /* where its root node ended (or began) */
  froot root;
  ftext text;
  char move_color;
  bytebuf val;   /* a value in pieces */
  bytebuf first; /* the first moves, (x, y) pairs, for --starts-with */
  uint64_t nmoves;
  fdigest dig;
  fset seen;
  uint64_t selected;
} frun;

void help_filter(FILE *f) {
  fprintf(f,
          "usage: sgf filter [CONDITION]... [--unique] [--count | --json] "
          "[-v] [FILE]...\n"
          "\n"
          "Write the games of FILE that meet every CONDITION, each byte for "
          "byte as\n"
          "it is in the input and followed by a newline, or as JSON Lines, or "
          "only\n"
          "how many there are. Text is compared as UTF-8 (by the game's CA), "
          "names with\n"
          "ASCII case ignored. With no FILE, or when FILE is -, read standard "
          "input.\n"
          "\n"
          "Game information (the root node):\n"
          "      --black=NAME        PB contains NAME\n"
          "      --white=NAME        PW contains NAME\n"
          "      --player=NAME       PB or PW contains NAME\n"
          "      --rank=TEXT         BR or WR contains TEXT\n"
          "      --event=TEXT        EV contains TEXT\n"
          "      --rules=TEXT        RU contains TEXT\n"
          "      --result=TEXT       RE begins with TEXT (B+, W+R, 0 for a "
          "draw)\n"
          "      --date=DATE         DT names a day within DATE\n"
          "      --date-from=DATE    DT names a day on or after DATE\n"
          "      --date-to=DATE      DT names a day on or before DATE's "
          "last\n"
          "                          (DATE is YYYY, YYYY-MM or YYYY-MM-DD; DT "
          "is\n"
          "                          read as FF[4] says: 2020-01-05,06 is two "
          "days)\n"
          "      --komi=K            KM is K (6.5)\n"
          "      --handicap=N        HA is N (no HA is 0)\n"
          "      --size=N            SZ is N, or WxH (no SZ is 19)\n"
          "      --prop=ID           the root has property ID\n"
          "      --prop=ID=TEXT      a value of ID is TEXT exactly\n"
          "      --prop=ID:TEXT      a value of ID contains TEXT (case kept)\n"
          "      --prop=ID~REGEX     a value of ID matches REGEX (POSIX "
          "extended)\n"
          "Moves (the main line):\n"
          "      --moves-min=N       at least N moves\n"
          "      --moves-max=N       at most N moves\n"
          "      --starts-with=PTS   the first moves are at PTS, in order "
          "('pd dp')\n"
          "      --symmetric         ... or at PTS turned or mirrored (8 "
          "ways; 4 on\n"
          "                          a board that is not square)\n"
          "Output:\n"
          "  -v, --invert            select the games that do not meet the "
          "conditions\n"
          "      --unique            leave out a game whose players and main "
          "line\n"
          "                          equal those of a game already selected\n"
          "      --count             print only the number of games selected\n"
          "                          (not with --json)\n"
          "      --json              write the games as 'sgf json' does "
          "(JSON Lines)\n"
          "      --max-game-bytes=N  hold at most N bytes (K, M, G allowed) "
          "of a game\n"
          "                          waiting on its root node or moves, "
          "or of any\n"
          "                          game with --json, and of the root "
          "values the\n"
          "                          conditions read (default %zu MiB); "
          "a larger\n"
          "                          game is an error, not written\n"
          "      --chunk=N           feed the parser N bytes at a time\n"
          "      --progress          show a progress line on stderr "
          "(default: on a\n"
          "                          terminal, for jobs over half a "
          "second)\n"
          "      --quiet             no progress line\n"
          "  -h, --help              show this help\n"
          "\n"
          "Every condition must hold; an option given twice is two "
          "conditions\n"
          "(--player A --player B: games between A and B). Examples:\n"
          "  sgf filter --black 'Lee Sedol' --result W+ games.sgf\n"
          "  sgf filter --date-from 2020 --date-to 2021-06 --size 19 *.sgf\n"
          "  sgf filter --prop 'EV~^(Kisei|Meijin)' --count games.sgf\n"
          "  sgf filter --starts-with 'pd dd pp' --symmetric --unique "
          "games.sgf\n"
          "\n" EXIT_STATUS_HELP,
          DEFAULT_MAX_GAME >> 20);
}

/* ------------------------------------------------------------ diagnostics */

static void report(frun *r, sgf_pos pos, int error, const char *msg) {
  progress_clear();
  fflush(stdout);
  fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s: %s\n", r->name, pos.line,
          pos.column, error ? "error" : "warning", msg);
  r->status = exit_worse(r->status, error ? EXIT_TROUBLE : EXIT_WARNINGS);
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  frun *r = u;
  const char *msg = sgf_diag_message(d->code);
  const char *name = sgf_diag_name(d->code);
  (void)p;
  /* --json: the JSON writer reports what follows a game's root node */
  if (r->json && r->depth > 0 && r->root_state == 2 &&
      d->severity != SGF_SEV_FATAL)
    return SGF_CONTINUE;
  progress_clear();
  fflush(stdout);
  fprintf(stderr, "%s:%" PRIu64 ":%" PRIu64 ": %s: %s [%s]\n", r->name,
          d->pos.line, d->pos.column, sgf_severity_name(d->severity),
          msg ? msg : "unknown diagnostic", name ? name : "unknown");
  if (d->severity == SGF_SEV_WARNING) {
    r->status = exit_worse(r->status, EXIT_WARNINGS);
  } else {
    r->status = exit_worse(r->status, EXIT_TROUBLE);
    r->last_error = *d;
    r->have_error = 1;
  }
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------ the bytes */

static void out_bytes(frun *r, const char *s, size_t n) {
  if (n > 0 && fwrite(s, 1, n, stdout) != n) r->status = EXIT_TROUBLE;
}

/* A game's bytes: written, and followed through values (FF[4]'s byte
 * rules) to know whether the input ended inside one. Bytes that change
 * nothing are passed over in a tight loop: outside a value all but '['
 * '(' ')', inside one all but '\\' and ']'. */
static const unsigned char lex_out[256] = {['['] = 1, ['('] = 1, [')'] = 1};
static const unsigned char lex_in[256] = {['\\'] = 1, [']'] = 1};
static void out_game(frun *r, const char *s, size_t n) {
  const unsigned char *q = (const unsigned char *)s, *end = q + n;
  int lex = r->lex;
  uint64_t depth = r->lex_depth;
  out_bytes(r, s, n);
  if ((lex & LEX_ESCAPE) && q < end) { /* the byte a backslash escapes */
    lex = LEX_VALUE;
    q++;
  }
  while (q < end) {
    if (lex) {
      while (q < end && !lex_in[*q]) q++;
      if (q == end) break;
      if (*q++ == ']') {
        lex = 0;
      } else if (q == end) { /* a backslash: the byte it escapes */
        lex = LEX_VALUE | LEX_ESCAPE;
      } else {
        q++;
      }
    } else {
      while (q < end && !lex_out[*q]) q++;
      if (q == end) break;
      if (*q == '[')
        lex = LEX_VALUE;
      else if (*q == '(')
        depth++;
      else if (depth > 0)
        depth--;
      q++;
    }
  }
  r->lex = lex;
  r->lex_depth = depth;
}

/* The end of a game written: what closes a game cut short (the ']' of a
 * value, the ')' of each open tree), then a newline. */
static void out_close(frun *r, int cut_short) {
  if (cut_short && r->lex) out_bytes(r, "]", 1);
  for (; cut_short && r->lex_depth > 0; r->lex_depth--) out_bytes(r, ")", 1);
  out_bytes(r, "\n", 1);
  r->lex = 0;
}

static int out_span(void *ctx, const char *s, size_t n) {
  out_game(ctx, s, n);
  return 0;
}

/* The game's bytes (from the cutter's r->cut.game) up to offset end. */
static void write_game(frun *r, uint64_t end, int cut_short) {
  if (r->json) { /* the game whole, to the JSON writer */
    size_t len;
    const char *g = cutter_gather(&r->cut, r->cut.game, end, &len);
    if (g == NULL) {
      report(r, r->gpos, 1, "out of memory holding a game; not written");
      return;
    }
    r->status = exit_worse(r->status,
                           json_conv_cut(r->json, r->name, r->arg, r->games - 1,
                                         r->gpos, r->root_end, g, len));
    return;
  }
  cutter_span(&r->cut, r->cut.game, end, out_span, r);
  out_close(r, cut_short);
}

/* Its bytes are not written: the cutter lets them go. */
static void drop_game(frun *r) {
  r->mode = HOLD_DROP;
  cutter_end(&r->cut);
}

/* After a feed: keep what the game (or the parser) needs of the piece. */
static void after_piece(frun *r) {
  uint64_t end = r->base + r->plen;
  if (r->mode == HOLD_CAPTURE && r->decision == D_ACCEPT && !r->json) {
    /* stream it */
    cutter_span(&r->cut, r->cut.game, end, out_span, r);
    cutter_took(&r->cut, end);
  }
  if (cutter_keep(&r->cut, r->p, end) != 0) {
    report(r, r->gpos, 1, "out of memory holding a game; it is not written");
    drop_game(r);
    r->decision = D_REJECT;
    return;
  }
  if (r->mode == HOLD_CAPTURE &&
      cutter_end_offset(&r->cut) - r->cut.game > r->max_game) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "this game is over %zu bytes (--max-game-bytes) and must be "
             "held whole: not written",
             r->max_game);
    report(r, r->gpos, 1, msg);
    drop_game(r);
    r->decision = D_REJECT;          /* skipped from the next event */
    cutter_keep(&r->cut, r->p, end); /* its bytes go now */
  }
}

/* ------------------------------------------------------------ deciding */

static int content_ok(frun *r) {
  if (r->moves_min >= 0 && r->nmoves < (uint64_t)r->moves_min) return 0;
  if (r->moves_max >= 0 && r->nmoves > (uint64_t)r->moves_max) return 0;
  if (r->have_start &&
      (r->nmoves < r->start.n ||
       !fstart_match(&r->start, (const signed char(*)[2])r->first.p,
                     &r->root.board)))
    return 0;
  return 1;
}

/* Keep a move of the main line (colour r->move_color) for the moves
 * predicates and the digest. */
static int keep_move(frun *r, const char *raw, size_t len) {
  signed char xy[2];
  sgf_move m;
  if (sgf_move_decode(&r->root.board, raw, len, &m, NULL) == 0) {
    xy[0] = (signed char)(m.pass ? FMOVE_PASS : m.pt.x);
    xy[1] = (signed char)(m.pass ? FMOVE_PASS : m.pt.y);
  } else {
    xy[0] = xy[1] = FMOVE_BAD;
  }
  r->nmoves++;
  if (r->have_start && r->nmoves <= r->start.n &&
      bytebuf_try_add(&r->first, xy, 2) != 0)
    return -1;
  if (r->unique) {
    fdigest_add(&r->dig, &r->move_color, 1);
    if (xy[0] == FMOVE_BAD)
      fdigest_add(&r->dig, raw, len);
    else
      fdigest_add(&r->dig, xy, 2);
  }
  return 0;
}

/* Has the game failed its moves predicates already? */
static int failed_early(frun *r) {
  if (r->invert) return 0; /* decided at the end */
  return (r->moves_max >= 0 && r->nmoves > (uint64_t)r->moves_max) ||
         (r->have_start && r->nmoves >= r->start.n &&
          !fstart_match(&r->start, (const signed char(*)[2])r->first.p,
                        &r->root.board));
}

static int add_text(void *ctx, const char *s, size_t len) {
  fdigest_add(ctx, s, len);
  fdigest_add(ctx, "", 1); /* each value ended by a NUL */
  return 0;
}

/* The moves in the root node, in the order written. */
static int root_moves(frun *r) {
  const froot *t = &r->root;
  size_t at = 0;
  r->move_color = 0;
  while (at < t->rec.len) {
    const char *p = t->rec.p + at;
    size_t len;
    if (*p == 'P') {
      len = (unsigned char)p[1];
      r->move_color = len == 1 && (p[2] == 'B' || p[2] == 'W') ? p[2] : 0;
      at += 2 + len;
      continue;
    }
    memcpy(&len, p + 1, sizeof len);
    if (r->move_color && keep_move(r, p + 1 + sizeof len, len) != 0) return -1;
    at += 1 + sizeof len + len;
  }
  r->move_color = 0;
  return 0;
}

static void reject(frun *r) {
  r->decision = D_REJECT;
  drop_game(r);
}

/* Is a root property recorded (froot): one the conditions read, a move
 * when the main line counts, a player for --unique? */
static int root_wants(const frun *r, const char *id, size_t len) {
  if (r->need_moves && len == 1 && (id[0] == 'B' || id[0] == 'W')) return 1;
  if (r->unique && len == 2 && id[0] == 'P' && (id[1] == 'B' || id[1] == 'W'))
    return 1;
  return fpreds_wants(&r->preds, id, len);
}

/* The values read (the root's recorded ones, the value in pieces, and
 * len more bytes) would pass --max-game-bytes: the game is an error. */
static int over_budget(frun *r, size_t held, size_t len) {
  char msg[200];
  if (held <= r->max_game && len <= r->max_game - held) return 0;
  snprintf(msg, sizeof msg,
           "this game's values that the conditions read are over %zu bytes "
           "(--max-game-bytes): not %s",
           r->max_game, r->count ? "counted" : "written");
  report(r, r->gpos, 1, msg);
  reject(r);
  return 1;
}

/* The root node is complete. */
static int root_done(frun *r) {
  r->root_state = 2;
  if (r->decision == D_REJECT) return SGF_SKIP; /* held too long */
  froot_done(&r->root, &r->text, r->input_utf8);
  r->info_ok = fpreds_match(&r->preds, &r->root, &r->text);
  if (!r->need_moves) {
    r->decision = r->info_ok != r->invert ? D_ACCEPT : D_REJECT;
    if (r->decision == D_REJECT || r->count) drop_game(r);
    return SGF_SKIP;
  }
  if (!r->info_ok && !r->invert) {
    reject(r);
    return SGF_SKIP;
  }
  if (r->unique) {
    fdigest_init(&r->dig);
    fdigest_add(&r->dig, &r->root.board, sizeof r->root.board);
    froot_each_text(&r->root, &r->text, "PB", 1, add_text, &r->dig);
    fdigest_add(&r->dig, "B", 1);
    froot_each_text(&r->root, &r->text, "PW", 1, add_text, &r->dig);
    fdigest_add(&r->dig, "W", 1);
  }
  if (root_moves(r) != 0) return SGF_ABORT;
  if (failed_early(r)) {
    reject(r);
    return SGF_SKIP;
  }
  return SGF_CONTINUE;
}

/* A move of the main line. */
static int move(frun *r, const char *raw, size_t len) {
  if (keep_move(r, raw, len) != 0) return SGF_ABORT;
  if (failed_early(r)) {
    reject(r);
    return SGF_SKIP;
  }
  return SGF_CONTINUE;
}

/* The game's ')' is at offset at (or the input ended). */
static void game_end(frun *r, uint64_t at) {
  uint64_t end = at + 1 > r->base + r->plen ? r->base + r->plen : at + 1;
  if (r->decision == D_PENDING) {
    int ok;
    if (r->root_state != 2) { /* no node: an empty game */
      froot_done(&r->root, &r->text, r->input_utf8);
      r->info_ok = fpreds_match(&r->preds, &r->root, &r->text);
      fdigest_init(&r->dig);
    }
    ok = (r->info_ok && content_ok(r)) != r->invert;
    if (ok && r->unique) {
      int added = fset_add(&r->seen, fdigest_final(&r->dig));
      if (added < 0) {
        report(r, r->gpos, 1,
               "out of memory for --unique: the game is not written");
        added = 0;
      }
      ok = added;
    }
    r->decision = ok ? D_ACCEPT : D_REJECT;
  }
  if (r->decision == D_ACCEPT) {
    r->selected++;
    if (!r->count && r->mode == HOLD_CAPTURE)
      write_game(r, end, at + 1 > end); /* no ')' at at: the input ended */
  }
  r->mode = HOLD_IDLE;
  cutter_end(&r->cut);
}

/* ------------------------------------------------------------ events */

/* A game decided against: pass over the rest of it. */
#define SKIPPING(r) ((r)->decision != D_PENDING)

static int on_tree_begin(sgf_parser *p, void *u) {
  frun *r = u;
  if (r->depth++ > 0) return SKIPPING(r) ? SGF_SKIP : SGF_CONTINUE;
  r->gpos = sgf_parser_position(p);
  r->root_end = r->gpos.offset;
  r->games++;
  r->mode = r->count ? HOLD_DROP : HOLD_CAPTURE; /* --count: no bytes */
  /* cannot fail: the cutter keeps what the parser may name */
  if (r->mode == HOLD_CAPTURE && cutter_begin(&r->cut, r->gpos.offset) != 0)
    report(r, r->gpos, 1, "the game's first bytes are lost");
  r->root_state = 0;
  r->root_keep = 0;
  r->decision = D_PENDING;
  r->info_ok = 0;
  r->nmoves = 0;
  r->move_color = 0;
  r->first.len = 0;
  r->lex = 0;
  r->lex_depth = 0;
  froot_clear(&r->root);
  return SGF_CONTINUE;
}

static int on_tree_end(sgf_parser *p, void *u) {
  frun *r = u;
  if (r->depth == 0) return SGF_CONTINUE;
  if (--r->depth > 0) return SKIPPING(r) ? SGF_SKIP : SGF_CONTINUE;
  game_end(r, sgf_parser_position(p).offset);
  progress_games(1);
  return SGF_CONTINUE;
}

static int on_node(sgf_parser *p, void *u) {
  frun *r = u;
  if (r->depth == 0) return SGF_CONTINUE;
  if (r->root_state == 0) {
    r->root_state = 1;
    return SGF_CONTINUE;
  }
  if (r->root_state == 1) { /* no on_node_end came: decide here */
    int rc;
    r->root_end = sgf_parser_position(p).offset;
    rc = root_done(r);
    if (rc != SGF_CONTINUE) return rc;
  }
  return SKIPPING(r) ? SGF_SKIP : SGF_CONTINUE;
}

static int on_node_end(sgf_parser *p, void *u) {
  frun *r = u;
  (void)p;
  if (r->depth == 1 && r->root_state == 1) {
    r->root_end = sgf_parser_position(p).offset;
    return root_done(r);
  }
  return SKIPPING(r) ? SGF_SKIP : SGF_CONTINUE;
}

static int on_property(sgf_parser *p, void *u, const char *at, size_t len) {
  frun *r = u;
  (void)p;
  r->move_color = 0;
  if (r->depth == 0) return SGF_CONTINUE;
  if (SKIPPING(r)) return SGF_SKIP;
  if (r->root_state == 1) {
    r->root_keep = root_wants(r, at, len);
    if (!r->root_keep) return SGF_CONTINUE; /* its values are not held */
    return froot_prop(&r->root, at, len) == 0 ? SGF_CONTINUE : SGF_ABORT;
  }
  if (len == 1 && (at[0] == 'B' || at[0] == 'W')) r->move_color = at[0];
  return SGF_CONTINUE;
}

static int value_done(frun *r, const char *at, size_t len) {
  if (r->root_state == 1)
    return froot_value(&r->root, at, len) == 0 ? SGF_CONTINUE : SGF_ABORT;
  if (r->move_color) return move(r, at, len);
  return SGF_CONTINUE;
}

static int on_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  frun *r = u;
  size_t held;
  (void)p;
  if (r->depth == 0 || (r->root_state == 1 ? !r->root_keep : !r->move_color))
    return SGF_CONTINUE;
  if (SKIPPING(r)) return SGF_SKIP;
  held = (r->root_state == 1 ? r->root.rec.len : 0) +
         (flags & SGF_VALUE_FIRST ? 0 : r->val.len);
  if (over_budget(r, held, len)) return SGF_SKIP;
  if ((flags & (SGF_VALUE_FIRST | SGF_VALUE_LAST)) ==
      (SGF_VALUE_FIRST | SGF_VALUE_LAST))
    return value_done(r, at, len);
  if (flags & SGF_VALUE_FIRST) r->val.len = 0;
  if (bytebuf_try_add(&r->val, at, len) != 0) return SGF_ABORT;
  if (flags & SGF_VALUE_LAST) return value_done(r, r->val.p, r->val.len);
  return SGF_CONTINUE;
}

/* A run of plain move nodes (MOVE RUNS in sgfstream/parser.h), in place
 * of its nodes' events: it stands for the node end of the node open
 * before it (a game's root, in its first run: decided there, as
 * on_node_end decides), then per node a move of the main line when its
 * letter is B or W. The moves are counted from the run's bytes; only
 * those the conditions look at (the first ones for --starts-with, all
 * of them for --unique) are decoded, one by one as move() does. A game
 * that fails --moves-max fails it at the run's end as well as at its
 * move: the rest of the run is the rest of the tree a skip passes over,
 * and no event of it is seen either way. In any other state (the run
 * holds the root node, a game decided, --max-game-bytes below a move's
 * two bytes) the run goes through the events (sgf_run_replay()). */
static int on_moves(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  frun *r = u;
  sgf_run_iter it;
  sgf_run_node n;
  char color = 0;
  (void)count;
  if (r->depth == 1 && r->root_state == 1) { /* the root's node end */
    int rc;
    r->root_end = sgf_parser_position(p).offset;
    rc = root_done(r);
    if (rc != SGF_CONTINUE) return rc;
  }
  if (r->depth == 0 || r->root_state != 2 || SKIPPING(r) || r->max_game < 2)
    return sgf_run_replay(p, at, len, &r->cb, r);
  sgf_run_iter_init(&it, at, len, NULL);
  while (sgf_run_iter_next(&it, &n)) {
    color = n.letter == 'B' || n.letter == 'W' ? n.letter : 0;
    if (!color) continue;
    if (r->unique || (r->have_start && r->nmoves < r->start.n)) {
      int rc;
      r->move_color = color;
      rc = move(r, n.value, 2);
      if (rc != SGF_CONTINUE) return rc;
    } else {
      r->nmoves++;
    }
  }
  r->move_color = color;
  if (failed_early(r)) {
    reject(r);
    return SGF_SKIP;
  }
  return SGF_CONTINUE;
}

/* ------------------------------------------------------------ inputs */

static void stopped(frun *r) {
  const sgf_diag *d = sgf_parser_error(r->p);
  r->stopped = 1;
  r->status = exit_worse(r->status, EXIT_TROUBLE);
  if (d != NULL && !(r->have_error && d->code == r->last_error.code &&
                     d->pos.offset == r->last_error.pos.offset))
    on_diagnostic(r->p, r, d);
  else if (d == NULL)
    report(r, sgf_parser_position(r->p), 1, "out of memory");
}

static void begin(void *ctx, const char *name) {
  frun *r = ctx;
  sgf_parser_reset(r->p);
  r->name = name;
  r->games = 0;
  r->stopped = 0;
  r->have_error = 0;
  r->input_utf8 = 0;
  r->fed = 0;
  r->depth = 0;
  cutter_restart(&r->cut, 0);
  r->mode = HOLD_IDLE;
}

static int data(void *ctx, const char *buf, size_t len) {
  frun *r = ctx;
  if (r->stopped) return 1;
  while (len > 0) {
    size_t n = r->chunk && r->chunk < len ? r->chunk : len;
    int rc;
    cutter_piece(&r->cut, buf, n);
    r->base = r->fed;
    r->plen = n;
    rc = sgf_parser_feed(r->p, buf, n, NULL);
    r->fed += n;
    if (rc != SGF_OK) { /* nothing of the piece after the error is read */
      const sgf_diag *d = sgf_parser_error(r->p);
      if (d != NULL && d->pos.offset >= r->base &&
          d->pos.offset < r->base + r->plen)
        r->plen = (size_t)(d->pos.offset - r->base);
    }
    after_piece(r);
    if (rc != SGF_OK) {
      stopped(r);
      return 1;
    }
    buf += n;
    len -= n;
  }
  return 0;
}

/* input_sink.note: UTF-16 input (converted: the games are written in
 * UTF-8), reported through the parser. */
static void note(void *ctx, int what, uint64_t off) {
  frun *r = ctx;
  if (what != INPUT_NOTE_BAD_UTF16) r->input_utf8 = 1;
  if (!r->stopped) report_input_note(r->p, what, off);
}

static void end(void *ctx, const char *name, const char *error) {
  frun *r = ctx;
  cutter_piece(&r->cut, NULL, 0);
  r->base = r->fed;
  r->plen = 0;
  if (!r->stopped && error == NULL && sgf_parser_finish(r->p) != SGF_OK)
    stopped(r);
  if (r->depth > 0) { /* the parser stopped inside a game */
    if (r->decision == D_ACCEPT && r->mode == HOLD_CAPTURE && !r->count &&
        !r->json) {
      /* part of it went out already: the rest that was read too, left
       * open (no ']' or ')' added) so that it is not taken for whole */
      cutter_span(&r->cut, r->cut.game, cutter_end_offset(&r->cut), out_span,
                  r);
      out_close(r, 0);
      report(r, r->gpos, 1,
             "this game was cut short by the error: written as far as it "
             "was read, left unclosed");
    } else {
      report(r, r->gpos, 1,
             r->count ? "this game was cut short by the error: it is not "
                        "counted"
                      : "this game was cut short by the error: it is not "
                        "written");
    }
    r->depth = 0;
  }
  if (error != NULL) {
    report_failure(name, error);
    r->status = exit_worse(r->status, EXIT_TROUBLE);
  }
  r->mode = HOLD_IDLE;
  cutter_end(&r->cut);
}

static void fail(void *ctx, const char *name, const char *error) {
  frun *r = ctx;
  report_failure(name, error);
  r->status = exit_worse(r->status, EXIT_TROUBLE);
}

static void none(void *ctx, const char *name, const char *why) {
  frun *r = ctx;
  r->status = exit_worse(r->status, report_no_input(name, why));
}

/* ------------------------------------------------------------ options */

static int parse_count(const char *option, const char *arg, int64_t *out) {
  char *end;
  long long v;
  errno = 0;
  v = strtoll(arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0) {
    fprintf(stderr,
            "sgf: filter: %s '%s': not a number\n"
            "Try 'sgf filter --help'.\n",
            option, arg);
    return -1;
  }
  *out = v;
  return 0;
}

enum {
  OPT_BLACK = OPT_LONG_BASE,
  OPT_WHITE,
  OPT_PLAYER,
  OPT_RANK,
  OPT_EVENT,
  OPT_RULES,
  OPT_RESULT,
  OPT_DATE,
  OPT_DATE_FROM,
  OPT_DATE_TO,
  OPT_KOMI,
  OPT_HANDICAP,
  OPT_SIZE,
  OPT_PROP,
  OPT_MOVES_MIN,
  OPT_MOVES_MAX,
  OPT_STARTS,
  OPT_SYMMETRIC,
  OPT_UNIQUE,
  OPT_COUNT,
  OPT_JSON,
  OPT_MAX_GAME,
  OPT_CHUNK
};

static const struct option longopts[] = {
    {"black", required_argument, NULL, OPT_BLACK},
    {"white", required_argument, NULL, OPT_WHITE},
    {"player", required_argument, NULL, OPT_PLAYER},
    {"rank", required_argument, NULL, OPT_RANK},
    {"event", required_argument, NULL, OPT_EVENT},
    {"rules", required_argument, NULL, OPT_RULES},
    {"result", required_argument, NULL, OPT_RESULT},
    {"date", required_argument, NULL, OPT_DATE},
    {"date-from", required_argument, NULL, OPT_DATE_FROM},
    {"date-to", required_argument, NULL, OPT_DATE_TO},
    {"komi", required_argument, NULL, OPT_KOMI},
    {"handicap", required_argument, NULL, OPT_HANDICAP},
    {"size", required_argument, NULL, OPT_SIZE},
    {"prop", required_argument, NULL, OPT_PROP},
    {"moves-min", required_argument, NULL, OPT_MOVES_MIN},
    {"moves-max", required_argument, NULL, OPT_MOVES_MAX},
    {"starts-with", required_argument, NULL, OPT_STARTS},
    {"symmetric", no_argument, NULL, OPT_SYMMETRIC},
    {"invert", no_argument, NULL, 'v'},
    {"unique", no_argument, NULL, OPT_UNIQUE},
    {"count", no_argument, NULL, OPT_COUNT},
    {"json", no_argument, NULL, OPT_JSON},
    {"max-game-bytes", required_argument, NULL, OPT_MAX_GAME},
    {"chunk", required_argument, NULL, OPT_CHUNK},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

/* One option into r; 0, 1 (--help done), or -1 (reported). */
static int option(frun *r, int ch, char **argv) {
  switch (ch) {
    case OPT_BLACK:
      return fpred_add_text(&r->preds, "--black", "PB", FM_SUBSTR_CI, optarg);
    case OPT_WHITE:
      return fpred_add_text(&r->preds, "--white", "PW", FM_SUBSTR_CI, optarg);
    case OPT_PLAYER:
      return fpred_add_text(&r->preds, "--player", "PB PW", FM_SUBSTR_CI,
                            optarg);
    case OPT_RANK:
      return fpred_add_text(&r->preds, "--rank", "BR WR", FM_SUBSTR_CI, optarg);
    case OPT_EVENT:
      return fpred_add_text(&r->preds, "--event", "EV", FM_SUBSTR_CI, optarg);
    case OPT_RULES:
      return fpred_add_text(&r->preds, "--rules", "RU", FM_SUBSTR_CI, optarg);
    case OPT_RESULT:
      return fpred_add_text(&r->preds, "--result", "RE", FM_PREFIX_CI, optarg);
    case OPT_DATE:
      return fpred_add_date(&r->preds, "--date", optarg);
    case OPT_DATE_FROM:
      return fpred_add_date(&r->preds, "--date-from", optarg);
    case OPT_DATE_TO:
      return fpred_add_date(&r->preds, "--date-to", optarg);
    case OPT_KOMI:
      return fpred_add_number(&r->preds, "--komi", FK_KOMI, optarg);
    case OPT_HANDICAP:
      return fpred_add_number(&r->preds, "--handicap", FK_HANDICAP, optarg);
    case OPT_SIZE:
      return fpred_add_number(&r->preds, "--size", FK_SIZE, optarg);
    case OPT_PROP:
      return fpred_add_prop(&r->preds, optarg);
    case OPT_MOVES_MIN:
      return parse_count("--moves-min", optarg, &r->moves_min);
    case OPT_MOVES_MAX:
      return parse_count("--moves-max", optarg, &r->moves_max);
    case OPT_STARTS:
      r->have_start = 1;
      return fstart_parse(&r->start, optarg);
    case OPT_SYMMETRIC:
      r->start.symmetric = 1;
      return 0;
    case 'v':
      r->invert = 1;
      return 0;
    case OPT_UNIQUE:
      r->unique = 1;
      return 0;
    case OPT_COUNT:
      r->count = 1;
      return 0;
    case OPT_JSON:
      if (r->json == NULL) {
        json_options jo; /* full lines on stdout; games counted here */
        const char *error;
        json_options_init(&jo);
        jo.before_message = progress_clear;
        if ((r->json = json_conv_create(&jo, &error)) == NULL) {
          report_failure("filter", error);
          return -1;
        }
      }
      return 0;
    case OPT_MAX_GAME: {
      uint64_t v;
      if (parse_size("filter", "--max-game-bytes", optarg, &v) != 0) return -1;
      if (v == 0 || v > SIZE_MAX) {
        fprintf(stderr,
                "sgf: filter: invalid --max-game-bytes '%s' (a positive size, "
                "K M G "
                "allowed)\n"
                "Try 'sgf filter --help'.\n",
                optarg);
        return -1;
      }
      r->max_game = (size_t)v;
      return 0;
    }
    case OPT_CHUNK:
      return parse_chunk("filter", optarg, &r->chunk);
    case PROGRESS_OPT_ON:
    case PROGRESS_OPT_OFF:
      progress_option(ch);
      return 0;
    case 'h':
      help_filter(stdout);
      return 1;
    default:
      option_error("filter", ch, argv);
      return -1;
  }
}

int cmd_filter(int argc, char **argv) {
  static const input_sink sink = {begin, data, end, fail, none, note};
  static char *stdin_only[] = {"-", NULL};
  sgf_options opt;
  sgf_charset_options copt;
  input_reader *in = NULL;
  char **files;
  int nfiles, ch, i, status = EXIT_CLEAN;
  frun *r = calloc(1, sizeof *r);

  if (r == NULL) {
    report_failure("filter", "out of memory");
    return EXIT_TROUBLE;
  }
  r->moves_min = r->moves_max = -1;
  cutter_init(&r->cut);
  r->max_game = DEFAULT_MAX_GAME;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
    int rc = option(r, ch, argv);
    if (rc != 0) {
      status = rc > 0 ? finish_output(EXIT_CLEAN) : EXIT_TROUBLE;
      goto out;
    }
  }
  if (r->count && r->json) {
    fprintf(stderr,
            "sgf: filter: --count and --json exclude each other\n"
            "Try 'sgf filter --help'.\n");
    status = EXIT_TROUBLE;
    goto out;
  }
  if (r->start.symmetric && !r->have_start) {
    fprintf(stderr,
            "sgf: filter: --symmetric needs --starts-with\n"
            "Try 'sgf filter --help'.\n");
    status = EXIT_TROUBLE;
    goto out;
  }
  r->need_moves =
      r->have_start || r->moves_min >= 0 || r->moves_max >= 0 || r->unique;
  files = optind < argc ? argv + optind : stdin_only;
  nfiles = optind < argc ? argc - optind : 1;

  sgf_charset_options_init(&copt);
  r->text.cs = sgf_charset_create(&copt);
  sgf_options_init(&opt);
  if (r->need_moves) /* only the main line's moves count */
    opt.flags |= SGF_OPT_MAINLINE;
  sgf_callbacks_init(&r->cb);
  r->cb.on_tree_begin = on_tree_begin;
  r->cb.on_tree_end = on_tree_end;
  r->cb.on_node = on_node;
  r->cb.on_node_end = on_node_end;
  r->cb.on_property = on_property;
  r->cb.on_value = on_value;
  r->cb.on_diagnostic = on_diagnostic;
  {
    /* r->cb: the events, for sgf_run_replay(). Runs only when the main
     * line is read: a game decided at its root is skipped from there,
     * which costs less than finding the run that follows the root. */
    sgf_callbacks cb = r->cb;
    if (r->need_moves && runs_wanted()) cb.on_moves = on_moves;
    r->p = sgf_parser_create(&cb, r, &opt);
  }
  in = input_reader_create(0);
  if (r->p == NULL || in == NULL || r->text.cs == NULL) {
    report_failure("filter", "out of memory");
    status = EXIT_TROUBLE;
    goto out;
  }
  progress_start("filter", files, nfiles);
  for (i = 0; i < nfiles; i++) {
    r->arg = strcmp(files[i], "-") == 0 ? "<stdin>" : files[i];
    input_read(in, files[i], &sink, r);
  }
  progress_end();
  if (r->count) printf("%" PRIu64 "\n", r->selected);
  status = finish_output(r->status);
out:
  input_reader_destroy(in);
  sgf_parser_destroy(r->p);
  if (r->text.cs) {
    sgf_charset_free(r->text.cs, r->text.conv, r->text.conv_cap);
    sgf_charset_destroy(r->text.cs);
  }
  json_conv_destroy(r->json);
  fpreds_free(&r->preds);
  free(r->start.pt);
  fset_free(&r->seen);
  cutter_free(&r->cut);
  bytebuf_free(&r->val);
  bytebuf_free(&r->first);
  bytebuf_free(&r->root.rec);
  bytebuf_free(&r->text.dec);
  bytebuf_free(&r->text.utf);
  free(r);
  return status;
}
