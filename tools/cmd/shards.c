/* shards.c - `sgf split --shards N` (shards.h).
 *
 * The parser only finds where games begin and end: no value is looked at.
 * A cut is decided when a game ends past the current shard's share, and
 * made where the next game begins (its '(') or where the input ends, so
 * that the bytes after a game stay with it. Positions are the parser's
 * byte offsets in the current input plus where that input began in the
 * whole stream. Bytes are written once fed, but for those the parser may
 * still name (a '(' whose game is not proved yet, the bytes it holds back
 * to look ahead), which the game cutter (cutter.h) keeps until it no
 * longer may: a cut never falls into bytes already written.
 */
#define _POSIX_C_SOURCE 200809L

#include "shards.h"

#include "cutter.h"
#include "output.h"
#include "progress.h"
#include "sgf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef struct shards {
  uv_loop_t *loop;
  sgf_parser *p;
  unsigned long n, k;   /* shards, and the one being written (0-based) */
  uint64_t total;       /* bytes in all inputs (first pass) */
  uint64_t written;     /* bytes written, in all shards */
  uint64_t base;        /* where the current input begins */
  uint64_t depth;       /* game trees open */
  int want_cut;         /* a game ended past the share: cut before the next */
  int finishing;        /* in sgf_parser_finish() */
  int open_value;       /* it closed a value left open */
  uint64_t backslashes; /* at the end of the bytes fed so far */
  int last;             /* the last byte fed that is not blank, or -1 */
  uint64_t *cuts;       /* cuts found in the bytes not written yet */
  uint64_t *cut_games;  /* games begun before each */
  size_t ncuts;
  cutter cut; /* the bytes not written yet */
  output out;
  uint64_t games;       /* games begun */
  uint64_t shard_bytes; /* in the shard being written */
  uint64_t first_game;  /* games begun before it */
  shard_name_fn name;
  void *name_ctx;
  const char *path; /* the shard being written */
  int verbose, failed, status;
  const char *input; /* the input being read */
} shards;

/* ------------------------------------------------------------ pass 1 */

static void count_begin(void *ctx, const char *name) {
  (void)ctx;
  (void)name;
}

static int count_data(void *ctx, const char *buf, size_t len) {
  (void)buf;
  *(uint64_t *)ctx += len;
  return 0;
}

static void count_end(void *ctx, const char *name, const char *error) {
  (void)ctx;
  (void)name;
  (void)error;
}

/* Failures and empty FILEs are reported by the second pass. */
static void count_quiet(void *ctx, const char *name, const char *error) {
  (void)ctx;
  (void)name;
  (void)error;
}

static uint64_t total_bytes(input_reader *in, char **files, int nfiles) {
  static const input_sink count = {count_begin, count_data,  count_end,
                                   count_quiet, count_quiet, NULL};
  uint64_t total = 0;
  int i;
  for (i = 0; i < nfiles; i++) {
    int64_t size = input_plain_size(in, files[i], 0);
    if (size >= 0)
      total += (uint64_t)size;
    else
      input_read(in, files[i], &count, &total);
  }
  return total;
}

/* ------------------------------------------------------------ shards */

static int open_shard(shards *s) {
  s->path = s->name(s->name_ctx, s->k + 1);
  if (s->path == NULL) return -1;
  if (output_open(&s->out, s->loop, s->path, 1, NULL) != 0) {
    report_failure(s->path, output_error(&s->out));
    output_discard(&s->out);
    return -1;
  }
  s->shard_bytes = 0;
  return 0;
}

/* games_before: the games begun before the shard's end. */
static int close_shard(shards *s, uint64_t games_before) {
  if (output_commit(&s->out) != 0) {
    report_failure(s->path, output_error(&s->out));
    return -1;
  }
  if (s->verbose)
    fprintf(stderr, "%s: %" PRIu64 " bytes, %" PRIu64 " games\n", s->path,
            s->shard_bytes, games_before - s->first_game);
  s->first_game = games_before;
  return 0;
}

static int write_bytes(shards *s, const char *buf, size_t len) {
  if (len > 0 && output_write(&s->out, buf, len) < 0) {
    report_failure(s->path, output_error(&s->out));
    return -1;
  }
  s->written += len;
  s->shard_bytes += len;
  return 0;
}

/* The next shard, from here on. */
static int next_shard(shards *s, uint64_t games_before) {
  if (close_shard(s, games_before) != 0) return -1;
  s->k++;
  return open_shard(s);
}

/* Where shard k's share ends. */
static uint64_t share_end(const shards *s, unsigned long k) {
  return (uint64_t)((double)s->total * (double)(k + 1) / (double)s->n);
}

/* A cut at absolute position at, if a game ended past the share and the
 * bytes before at are not all written yet. */
static void maybe_cut(shards *s, uint64_t at) {
  if (!s->want_cut || at < s->written || s->k + s->ncuts + 1 >= s->n) return;
  if (s->ncuts > 0 && at <= s->cuts[s->ncuts - 1]) return;
  s->cut_games[s->ncuts] = s->games;
  s->cuts[s->ncuts++] = at;
  s->want_cut = 0;
}

static int on_tree_begin(sgf_parser *p, void *u) {
  shards *s = u;
  if (s->depth++ == 0) {
    maybe_cut(s, s->base + sgf_parser_position(p).offset);
    s->games++;
    progress_games(1);
  }
  return SGF_CONTINUE;
}

static int on_tree_end(sgf_parser *p, void *u) {
  shards *s = u;
  uint64_t end = s->base + sgf_parser_position(p).offset + 1;
  if (s->depth > 0 && --s->depth == 0) {
    /* Past the share of the shard the cuts so far lead to. */
    if (end >= share_end(s, s->k + s->ncuts)) s->want_cut = 1;
  }
  return SGF_CONTINUE;
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  shards *s = u;
  (void)p;
  if (s->finishing && d->code == SGF_DIAG_UNCLOSED_VALUE) s->open_value = 1;
  return SGF_CONTINUE;
}

/* Write buf (the bytes from s->written on), switching shards at the
 * cuts found in them. */
static int write_cut(void *ctx, const char *buf, size_t len) {
  shards *s = ctx;
  uint64_t from = s->written;
  size_t i = 0, done = 0;
  for (; i < s->ncuts && s->cuts[i] <= from + len; i++) {
    size_t upto = (size_t)(s->cuts[i] - from);
    if (write_bytes(s, buf + done, upto - done) != 0 ||
        next_shard(s, s->cut_games[i]) != 0)
      return -1;
    done = upto;
  }
  if (i > 0) {
    s->ncuts -= i;
    memmove(s->cuts, s->cuts + i, s->ncuts * sizeof *s->cuts);
    memmove(s->cut_games, s->cut_games + i, s->ncuts * sizeof *s->cut_games);
  }
  return write_bytes(s, buf + done, len - done);
}

/* Write the bytes before stream offset upto that the cutter holds or
 * borrows; keep (borrowed ones copied) what the parser p may still name
 * (p NULL: nothing). */
static int write_upto(shards *s, uint64_t upto, const sgf_parser *p) {
  if (cutter_span(&s->cut, s->written, upto, write_cut, s) != 0) return -1;
  return cutter_keep(&s->cut, p, UINT64_MAX);
}

static void begin(void *ctx, const char *name) {
  shards *s = ctx;
  sgf_parser_reset(s->p);
  s->base = s->written;
  cutter_restart(&s->cut, s->base);
  s->depth = 0;
  s->backslashes = 0;
  s->last = -1;
  s->input = name;
}

/* What end() needs to know of the input's last bytes. */
static void note_tail(shards *s, const char *buf, size_t len) {
  size_t k = len;
  while (k > 0 && buf[k - 1] == '\\') k--;
  s->backslashes = k > 0 ? len - k : s->backslashes + len;
  /* blank as the parser has it: space, tab, VT, FF, CR, LF and NUL
   * (which strchr finds too) */
  for (k = len; k > 0; k--)
    if (strchr(" \t\v\f\r\n", buf[k - 1]) == NULL) {
      s->last = (unsigned char)buf[k - 1];
      break;
    }
}

static int data(void *ctx, const char *buf, size_t len) {
  shards *s = ctx;
  int ok;
  if (s->failed) return 1;
  /* A parse stopped by a fatal error finds no more games: the rest of
   * the input goes with the shard it is in (reported at the end). */
  cutter_piece(&s->cut, buf, len);
  ok = sgf_parser_feed(s->p, buf, len, NULL) == SGF_OK;
  note_tail(s, buf, len);
  if (write_upto(s,
                 ok ? s->base + sgf_parser_held_offset(s->p)
                    : cutter_end_offset(&s->cut),
                 ok ? s->p : NULL) != 0) {
    s->failed = 1;
    return 1;
  }
  return 0;
}

/* input_sink.note: UTF-16 input goes into the shards converted to UTF-8
 * (as every command reads it); UTF-16 that does not decode ends it. */
static void note(void *ctx, int what, uint64_t off) {
  shards *s = ctx;
  (void)off;
  if (what == INPUT_NOTE_BAD_UTF16) {
    report_failure(s->input,
                   "UTF-16 with a lone surrogate or a character cut off: "
                   "the rest of it is not in the shards");
    s->status = exit_worse(s->status, EXIT_TROUBLE);
  } else {
    report_failure(s->input,
                   "input is UTF-16: its shard holds it converted to UTF-8");
    s->status = exit_worse(s->status, EXIT_WARNINGS);
  }
}

/* The input ended inside open game trees (and maybe a value): close them
 * in the shard, as the parser's repair does, so that they do not take in
 * the games of the next input. */
static void close_open(shards *s, const char *name, uint64_t trees) {
  char msg[160], parens[64], closing[2];
  size_t n = 0;
  if (s->open_value) {
    /* a backslash ending the value escapes no ']': the parser keeps it */
    if (s->backslashes % 2) closing[n++] = '\\';
    closing[n++] = ']';
  }
  snprintf(msg, sizeof msg,
           "ends inside a %sgame tree: closed in its shard "
           "(%s%" PRIu64 " ')' added)",
           s->open_value ? "value of a " : "",
           s->open_value ? (n == 2 ? "'\\]' and " : "']' and ") : "", trees);
  report_failure(name, msg);
  s->status = exit_worse(s->status, EXIT_WARNINGS);
  if (write_bytes(s, closing, n) != 0) {
    s->failed = 1;
    return;
  }
  memset(parens, ')', sizeof parens);
  while (trees > 0 && !s->failed) {
    n = trees < sizeof parens ? (size_t)trees : sizeof parens;
    if (write_bytes(s, parens, n) != 0) s->failed = 1;
    trees -= n;
  }
}

static void end(void *ctx, const char *name, const char *error) {
  shards *s = ctx;
  uint64_t open;
  int r;
  if (error != NULL) {
    report_failure(name, error);
    s->status = exit_worse(s->status, EXIT_TROUBLE);
  }
  if (s->failed) return;
  open = sgf_parser_depth(s->p);
  s->finishing = 1;
  s->open_value = 0;
  r = sgf_parser_finish(s->p);
  s->finishing = 0;
  /* the bytes held back, with the cuts finish found in them */
  if (write_upto(s, cutter_end_offset(&s->cut), NULL) != 0) {
    s->failed = 1;
    return;
  }
  if (r == SGF_EPARSE) {
    report_failure(name,
                   "parse stopped by a fatal error (see 'sgf check'): the "
                   "rest of it went into one shard");
    s->status = exit_worse(s->status, EXIT_WARNINGS);
  } else if (open > 0 || (s->last == '(' && !s->open_value)) {
    /* a '(' with nothing after it was not counted in the depth: the
     * parser drops it, "()" is dropped too */
    close_open(s, name, open + (s->last == '(' && !s->open_value));
    if (s->failed) return;
  }
  s->depth = 0;
  maybe_cut(s, s->written); /* between inputs */
  if (s->ncuts > 0 && write_cut(s, NULL, 0) != 0) s->failed = 1;
}

static void fail(void *ctx, const char *name, const char *error) {
  shards *s = ctx;
  report_failure(name, error);
  s->status = exit_worse(s->status, EXIT_TROUBLE);
}

static void none(void *ctx, const char *name, const char *why) {
  shards *s = ctx;
  s->status = exit_worse(s->status, report_no_input(name, why));
}

int shards_run(uv_loop_t *loop, input_reader *in, char **files, int nfiles,
               unsigned long n, shard_name_fn name, void *ctx, int verbose) {
  static const input_sink sink = {begin, data, end, fail, none, note};
  sgf_callbacks cb;
  shards s;
  int i;

  for (i = 0; i < nfiles; i++)
    if (strcmp(files[i], "-") == 0) {
      fprintf(stderr,
              "sgf: split: --shards reads its input twice: give FILE "
              "names, not standard input\nTry 'sgf split --help'.\n");
      return EXIT_TROUBLE;
    }
  memset(&s, 0, sizeof s);
  s.loop = loop;
  s.n = n;
  s.name = name;
  s.name_ctx = ctx;
  s.verbose = verbose;
  s.out.fd = -1;
  cutter_init(&s.cut);
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = on_tree_begin;
  cb.on_tree_end = on_tree_end;
  cb.on_diagnostic = on_diagnostic;
  s.p = sgf_parser_create(&cb, &s, NULL);
  s.cuts = malloc(n * sizeof *s.cuts);
  s.cut_games = malloc(n * sizeof *s.cut_games);
  if (s.p == NULL || s.cuts == NULL || s.cut_games == NULL) {
    report_failure("split", "out of memory");
    sgf_parser_destroy(s.p);
    free(s.cuts);
    free(s.cut_games);
    return EXIT_TROUBLE;
  }
  s.total = total_bytes(in, files, nfiles);
  if (open_shard(&s) != 0) {
    s.failed = 1;
  } else {
    progress_start("split", files, nfiles);
    for (i = 0; i < nfiles && !s.failed; i++)
      input_read(in, files[i], &sink, &s);
    progress_end();
    /* The rest, empty when there were fewer games than shards. */
    while (!s.failed && s.k + 1 < s.n)
      if (next_shard(&s, s.games) != 0) s.failed = 1;
    if (!s.failed && close_shard(&s, s.games) != 0) s.failed = 1;
  }
  if (s.failed) output_discard(&s.out);
  sgf_parser_destroy(s.p);
  cutter_free(&s.cut);
  free(s.cuts);
  free(s.cut_games);
  return s.failed ? EXIT_TROUBLE : s.status;
}
