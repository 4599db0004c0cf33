/* summary.c - the counts of `sgf stats --summary` (summary.h).
 *
 * Per game: the root node's values of the properties we want are kept
 * raw (cut to SUMMARY_MAX_VALUE bytes, a cut noted) until the root node ends,
 * then decoded through the game's CA into keys; the moves of the main line are
 * counted until the game's first on_tree_end (in file order the main line
 * is the first path down, so it ends where the first game tree closes);
 * at the game's end the keys and the length are counted.
 */
#define _POSIX_C_SOURCE 200809L

#include "summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* In the order of SUM_RESULT... SUM_PLAYER (twice), then CA. */
static const char prop_names[SUM_PROPS][3] = {"RE", "SZ", "DT", "RU",
                                              "PB", "PW", "CA"};
enum { P_RE, P_SZ, P_DT, P_RU, P_PB, P_PW, P_CA };
static const char *const table_names[SUM_TABLES] = {"results", "sizes", "years",
                                                    "rules", "players"};

/* ------------------------------------------------------------ tables */

static uint64_t hash(const char *k) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211ull;
  return h;
}

static int table_grow(sum_table *t) {
  size_t cap = t->cap ? t->cap * 2 : 64, i;
  char **keys = calloc(cap, sizeof *keys);
  uint64_t *counts = calloc(cap, sizeof *counts);
  if (keys == NULL || counts == NULL) {
    free(keys);
    free(counts);
    return -1;
  }
  for (i = 0; i < t->cap; i++) {
    size_t j;
    if (t->keys[i] == NULL) continue;
    for (j = hash(t->keys[i]) & (cap - 1); keys[j]; j = (j + 1) & (cap - 1))
      ;
    keys[j] = t->keys[i];
    counts[j] = t->counts[i];
  }
  free(t->keys);
  free(t->counts);
  t->keys = keys;
  t->counts = counts;
  t->cap = cap;
  return 0;
}

/* Count n games for key. 0, or -1 if memory fails. */
static int table_add(sum_table *t, const char *key, uint64_t n) {
  size_t j;
  if (t->n * 2 >= t->cap && t->n < SUMMARY_MAX_KEYS && table_grow(t) != 0)
    return -1;
  for (j = hash(key) & (t->cap - 1); t->keys[j]; j = (j + 1) & (t->cap - 1))
    if (strcmp(t->keys[j], key) == 0) {
      t->counts[j] += n;
      return 0;
    }
  size_t len = strlen(key) + 1;
  if (t->n >= SUMMARY_MAX_KEYS || t->bytes + len > SUMMARY_MAX_KEY_BYTES) {
    t->overflow += n;
    return 0;
  }
  t->keys[j] = malloc(len);
  if (t->keys[j] == NULL) return -1;
  memcpy(t->keys[j], key, len);
  t->counts[j] = n;
  t->n++;
  t->bytes += len;
  return 0;
}

static void table_free(sum_table *t) {
  size_t i;
  for (i = 0; i < t->cap; i++) free(t->keys[i]);
  free(t->keys);
  free(t->counts);
  memset(t, 0, sizeof *t);
}

/* ------------------------------------------------------------ a game */

/* Is the converter's charset UTF-8 for sure, or by default (no CA)? */
static int utf8_or_default(const sgf_charset *cs) {
  const char *d = sgf_charset_declared(cs);
  return d == NULL || strcasecmp(d, "UTF-8") == 0 || strcasecmp(d, "UTF8") == 0;
}

/* text[0..n) was cut from a longer value: the length without the
 * incomplete UTF-8 sequence at its end (a valid start of one, only its
 * first 1 to 3 bytes). */
static size_t utf8_whole(const char *text, size_t n) {
  size_t v = sgf_utf8_valid(text, n), need, k;
  unsigned char c;
  if (v == n || n - v > 3) return n;
  c = (unsigned char)text[v];
  need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (c >= 0xf5 || need <= n - v) return n; /* not a cut: left as is */
  for (k = v + 1; k < n; k++)
    if (((unsigned char)text[k] & 0xc0) != 0x80) return n;
  return v;
}

/* key = the decoded, trimmed value of property i, or "(none)"; a value
 * cut to SUMMARY_MAX_VALUE bytes (s->cut[i]) is cut on a character
 * boundary and ends in SUMMARY_CUT_MARK, never read in another charset
 * because of the cut. */
static void decode(summary *s, int i) {
  char text[SUMMARY_MAX_VALUE];
  char *k = s->key[i];
  sgf_charset_info info;
  size_t n, b = 0, off = 0;
  int c, cut = s->cut[i];
  if (!s->got[i]) {
    strcpy(k, "(none)");
    return;
  }
  n = sgf_text_decode_dbcs(s->raw[i], s->len[i], text, SGF_TEXT_SIMPLE,
                           sgf_charset_declared(s->cs));
  /* With no CA, text that is not valid UTF-8 is read as ISO-8859-1: a
   * UTF-8 character the cut split would turn the whole value into that. */
  if (cut && utf8_or_default(s->cs)) n = utf8_whole(text, n);
  c = sgf_charset_convert(s->cs, text, n, &s->conv, &s->conv_cap, &info, &off);
  /* cut inside a multibyte character of the CA: convert up to it */
  if (c == SGF_ESYNTAX && cut && off < n && n - off <= 3)
    c = sgf_charset_convert(s->cs, text, off, &s->conv, &s->conv_cap, &info,
                            &off);
  if (c == SGF_ESYNTAX) /* read as ISO-8859-1: see charset.h */
    c = (int)info.len;
  if (c < 0) {
    s->failed = 1;
    c = 0;
  }
  n = (size_t)c;
  while (n > 0 && (unsigned char)s->conv[n - 1] <= ' ') n--;
  while (b < n && (unsigned char)s->conv[b] <= ' ') b++;
  if (n - b > SUMMARY_MAX_VALUE * 4) { /* cut before a character's start */
    n = b + SUMMARY_MAX_VALUE * 4;
    while (n > b && ((unsigned char)s->conv[n] & 0xc0) == 0x80) n--;
    while (n > b && (unsigned char)s->conv[n - 1] <= ' ') n--;
    cut = 1;
  }
  memcpy(k, s->conv + b, n - b);
  k[n - b] = '\0';
  if (cut) strcat(k, SUMMARY_CUT_MARK);
  if (k[0] == '\0') strcpy(k, "(empty)");
}

/* The root node is complete: its values become keys. */
static void root_done(summary *s) {
  int i;
  sgf_charset_reset(s->cs);
  if (s->got[P_CA]) {
    char ca[SUMMARY_MAX_VALUE];
    size_t n = sgf_text_decode(s->raw[P_CA], s->len[P_CA], ca, SGF_TEXT_SIMPLE);
    sgf_charset_set_ca(s->cs, ca, n); /* unknown: the default applies */
  }
  for (i = 0; i < P_CA; i++) decode(s, i);
  /* DT: the year is the first run of exactly four digits */
  if (s->got[P_DT]) {
    const char *d = s->key[P_DT];
    char year[5] = "";
    for (; *d; d++) {
      size_t k = 0;
      while (d[k] >= '0' && d[k] <= '9') k++;
      if (k == 4) {
        memcpy(year, d, 4);
        year[4] = '\0';
        break;
      }
      if (k > 0) d += k - 1;
    }
    strcpy(s->key[P_DT], year[0] ? year : "(unknown)");
  }
  s->in_root = 0;
}

static void game_done(summary *s) {
  static const int table_of[P_CA] = {SUM_RESULT, SUM_SIZE,   SUM_YEAR,
                                     SUM_RULES,  SUM_PLAYER, SUM_PLAYER};
  int i;
  if (s->in_root) root_done(s);
  for (i = 0; i < P_CA; i++)
    if (table_add(&s->t[table_of[i]], s->key[i], 1) != 0) s->failed = 1;
  s->lengths[s->main_moves < SUMMARY_MAX_MOVES ? s->main_moves
                                               : SUMMARY_MAX_MOVES]++;
  s->length_sum += s->main_moves;
  s->games++;
}

/* ------------------------------------------------------------ callbacks */

static int on_tree_begin(sgf_parser *p, void *u) {
  summary *s = u;
  if (s->depth++ == 0) {
    memset(s->got, 0, sizeof s->got);
    s->main_moves = 0;
    s->in_root = 1;
    s->on_main = 1;
    s->prop = -1;
  }
  return s->scb.on_tree_begin(p, s->st);
}

static int on_tree_end(sgf_parser *p, void *u) {
  summary *s = u;
  s->on_main = 0;
  if (s->depth > 0 && --s->depth == 0) game_done(s);
  return s->scb.on_tree_end(p, s->st);
}

static int on_node_end(sgf_parser *p, void *u) {
  summary *s = u;
  (void)p;
  s->node_open = 0;
  if (s->in_root && s->depth == 1) root_done(s);
  return SGF_CONTINUE;
}

static int on_property(sgf_parser *p, void *u, const char *name, size_t len) {
  summary *s = u;
  int i;
  s->prop = -1;
  if (len == 1 && (name[0] == 'B' || name[0] == 'W') && s->on_main)
    s->main_moves++;
  if (s->in_root && len == 2)
    for (i = 0; i < SUM_PROPS; i++)
      if (name[0] == prop_names[i][0] && name[1] == prop_names[i][1] &&
          !s->got[i]) {
        s->prop = i;
        s->got[i] = 1;
        s->cut[i] = 0;
        s->len[i] = 0;
      }
  return s->scb.on_property(p, s->st, name, len);
}

static int on_value_data(sgf_parser *p, void *u, const char *buf, size_t n) {
  summary *s = u;
  (void)p;
  if (s->prop >= 0) {
    size_t room = SUMMARY_MAX_VALUE - s->len[s->prop];
    if (n > room) {
      n = room;
      s->cut[s->prop] = 1;
    }
    memcpy(s->raw[s->prop] + s->len[s->prop], buf, n);
    s->len[s->prop] += n;
  }
  return SGF_CONTINUE;
}

static int on_value_end(sgf_parser *p, void *u) {
  summary *s = u;
  s->prop = -1; /* the first value only */
  return s->scb.on_value_end(p, s->st);
}

static int on_node(sgf_parser *p, void *u) {
  ((summary *)u)->node_open = 1;
  return ((summary *)u)->scb.on_node(p, ((summary *)u)->st);
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  return ((summary *)u)->scb.on_diagnostic(p, ((summary *)u)->st, d);
}

/* A run of plain move nodes (MOVE RUNS in sgfstream/parser.h): counted
 * from its bytes, the main line's moves and the stats, in one pass and
 * no call a node. It stands for the node end of the node open before it
 * (the root's, in a game's first run); a run that holds the root node
 * itself (a game with no root properties) is replayed as its events. */
static int on_moves(sgf_parser *p, void *u, const char *at, size_t len,
                    size_t count) {
  summary *s = u;
  uint64_t moves;
  if (s->in_root && !(s->node_open && s->depth == 1)) {
    sgf_callbacks cb; /* the run holds the root node: rare */
    summary_callbacks(&cb);
    cb.on_moves = NULL;
    return sgf_run_replay(p, at, len, &cb, s);
  }
  if (s->node_open && s->in_root) root_done(s); /* the node end before */
  s->node_open = 1;                             /* the run's last node */
  moves = stats_run(s->st, at, len, count);
  if (s->on_main) s->main_moves += moves;
  return SGF_CONTINUE;
}

void summary_callbacks(sgf_callbacks *cb) {
  sgf_callbacks_init(cb);
  cb->on_tree_begin = on_tree_begin;
  cb->on_tree_end = on_tree_end;
  cb->on_node = on_node;
  cb->on_node_end = on_node_end;
  cb->on_property = on_property;
  cb->on_value_data = on_value_data;
  cb->on_value_end = on_value_end;
  cb->on_diagnostic = on_diagnostic;
  cb->on_moves = on_moves;
}

int summary_init(summary *s, stats *st) {
  sgf_charset_options o;
  memset(s, 0, sizeof *s);
  s->st = st;
  stats_callbacks(&s->scb);
  sgf_charset_options_init(&o);
  s->cs = sgf_charset_create(&o);
  return s->cs != NULL ? 0 : -1;
}

void summary_free(summary *s) {
  int i;
  for (i = 0; i < SUM_TABLES; i++) table_free(&s->t[i]);
  if (s->cs != NULL) {
    sgf_charset_free(s->cs, s->conv, s->conv_cap);
    sgf_charset_destroy(s->cs);
  }
  s->cs = NULL;
}

void summary_begin(summary *s) {
  s->depth = 0;
  s->node_open = 0;
  s->in_root = s->on_main = 0;
  s->prop = -1;
}

void summary_end(summary *s) {
  if (s->depth > 0) game_done(s);
  s->depth = 0;
}

int summary_merge(summary *into, const summary *from) {
  int i;
  size_t j;
  for (i = 0; i < SUM_TABLES; i++) {
    const sum_table *t = &from->t[i];
    for (j = 0; j < t->cap; j++)
      if (t->keys[j] && table_add(&into->t[i], t->keys[j], t->counts[j]) != 0)
        return -1;
    into->t[i].overflow += t->overflow;
  }
  for (j = 0; j <= SUMMARY_MAX_MOVES; j++) into->lengths[j] += from->lengths[j];
  into->length_sum += from->length_sum;
  into->games += from->games;
  into->failed |= from->failed;
  return 0;
}

/* ------------------------------------------------------------ output */

/* Keys in decreasing count, then byte order: an array of slot indexes. */
static const sum_table *sorting;
static int by_count(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  uint64_t ci = sorting->counts[i], cj = sorting->counts[j];
  if (ci != cj) return ci > cj ? -1 : 1;
  return strcmp(sorting->keys[i], sorting->keys[j]);
}

static size_t *sorted(const sum_table *t) {
  size_t *idx = malloc((t->n ? t->n : 1) * sizeof *idx), i, k = 0;
  if (idx == NULL) return NULL;
  for (i = 0; i < t->cap; i++)
    if (t->keys[i]) idx[k++] = i;
  sorting = t;
  qsort(idx, k, sizeof *idx, by_count);
  return idx;
}

/* A JSON string of valid UTF-8 (keys are converted text). */
static void json_key(FILE *f, const char *k) {
  fputc('"', f);
  for (; *k; k++) {
    unsigned char c = (unsigned char)*k;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

/* The length (main-line moves) below which a share q of the games lie. */
static unsigned quantile(const summary *s, double q) {
  uint64_t want = (uint64_t)((double)s->games * q), seen = 0;
  unsigned i;
  for (i = 0; i <= SUMMARY_MAX_MOVES; i++) {
    seen += s->lengths[i];
    if (seen > want) return i;
  }
  return SUMMARY_MAX_MOVES;
}

void summary_print(const summary *s, FILE *f, unsigned top) {
  int i;
  fprintf(f,
          "\n%" PRIu64
          " games; main-line moves: mean %.1f, quartiles %u %u "
          "%u, 90%% below %u%s\n",
          s->games, s->games ? (double)s->length_sum / (double)s->games : 0.0,
          quantile(s, 0.25), quantile(s, 0.5), quantile(s, 0.75),
          quantile(s, 0.9), s->failed ? " (incomplete: out of memory)" : "");
  for (i = 0; i < SUM_TABLES; i++) {
    const sum_table *t = &s->t[i];
    size_t *idx = sorted(t), k, show = t->n;
    if (idx == NULL) continue;
    if (show > top) show = top;
    fprintf(f, "\n%s (%zu distinct%s):\n", table_names[i], t->n,
            i == SUM_PLAYER ? ", a game counts for both players" : "");
    for (k = 0; k < show; k++)
      fprintf(f, "%10" PRIu64 "  %s\n", t->counts[idx[k]], t->keys[idx[k]]);
    if (show < t->n) fprintf(f, "%10s  (%zu more)\n", "...", t->n - show);
    if (t->overflow)
      fprintf(f, "%10" PRIu64 "  (other: past %u distinct values or %u MiB)\n",
              t->overflow, SUMMARY_MAX_KEYS, SUMMARY_MAX_KEY_BYTES >> 20);
    free(idx);
  }
}

void summary_json(const summary *s, FILE *f) {
  int i;
  unsigned m;
  const char *sep = "";
  fprintf(f, "\"games\":%" PRIu64 ",\"length_sum\":%" PRIu64 ",\"lengths\":{",
          s->games, s->length_sum);
  for (m = 0; m <= SUMMARY_MAX_MOVES; m++)
    if (s->lengths[m]) {
      fprintf(f, "%s\"%u%s\":%" PRIu64, sep, m,
              m == SUMMARY_MAX_MOVES ? "+" : "", s->lengths[m]);
      sep = ",";
    }
  fputc('}', f);
  for (i = 0; i < SUM_TABLES; i++) {
    const sum_table *t = &s->t[i];
    size_t *idx = sorted(t), k;
    fprintf(f, ",\"%s\":{", table_names[i]);
    for (k = 0; idx != NULL && k < t->n; k++) {
      if (k) fputc(',', f);
      json_key(f, t->keys[idx[k]]);
      fprintf(f, ":%" PRIu64, t->counts[idx[k]]);
    }
    fputc('}', f);
    if (t->overflow)
      fprintf(f, ",\"%s_overflow\":%" PRIu64, table_names[i], t->overflow);
    free(idx);
  }
  if (s->failed) fputs(",\"incomplete\":true", f);
}
