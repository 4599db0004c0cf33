/* value_diff.c - the facts sgfmill's reference lists (../shared/reference/
 * README.md), from the core parser and the value decoders, for
 * test/corpus/value-sgfmill.sh to compare.
 *
 *   value_diff ROOT < paths     one JSON line per game tree of each file
 *                               ROOT/PATH (PATH as given, one a line)
 *
 * A line: {"path": P, "game": i, "size": N (or [w, h]), "main": [node...]}
 * where each node of the main line (the parser's SGF_OPT_MAINLINE: the
 * first child at every node) lists "move": [colour, [row, col] or null],
 * or "move_error": true where the move does not decode; and "AB", "AW",
 * "AE" as sorted [row, col] lists (compressed lists expanded) or
 * {"error": true}. Rows count from the bottom, as sgfmill's. "size" is
 * {"error": true} when SZ does not decode. A file that cannot be read gives
 * {"path": P, "error": "unreadable"}.
 *
 * Text: "root" holds the root node's Text and SimpleText properties (those
 * the property table types so; C is left to the main line's first node),
 * each its first value, and each main-line node its "C": FF[4] decoded
 * (sgf_text_decode_dbcs, SimpleText's line breaks to spaces) and
 * converted to UTF-8 by sgfstream/charset.h with the game's CA (its
 * defaults: no CA, UTF-8 when valid, else ISO-8859-1). A composed value
 * (AP) is [first, second]; one without its ':' is {"error": true}, as is
 * text that does not decode in the charset ("text": read as ISO-8859-1).
 * The first line, {"text_props": [...]}, lists the identifiers the table
 * types as text, so the comparison knows which of sgfmill's to compare.
 *
 * The values come through on_value, so a value split by a chunk boundary
 * (the file is fed in odd-sized chunks) is gathered in an sgf_value_acc:
 * the streaming path a move handler would use. A node's values are kept
 * until the node ends, because SZ may follow AB in the root node.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>
#include <sgfstream/charset.h>

#include "testutil.h"

#define CHUNK 4093
#define MAXV 4096 /* values of interest in one node */

enum { P_OTHER, P_B, P_W, P_AB, P_AW, P_AE, P_SZ, P_TEXT };

typedef struct val {
  int prop;
  size_t off, len;        /* in the node's byte buffer */
  int too_long;           /* longer than the accumulator: an error */
  const sgf_propdef *def; /* P_TEXT: the property */
} val;

typedef struct state {
  const char *path;
  int game;               /* index of the current game tree, -1 before */
  int in_game;            /* a game's line is open */
  int nodes;              /* nodes of the current game printed */
  int prop;               /* P_* of the current property */
  const sgf_propdef *def; /* its definition, for P_TEXT */
  int text_open;          /* a P_TEXT value's pieces are coming */
  sgf_charset *cs;        /* the current game's charset */
  bytebuf scratch;        /* decoded text before conversion */
  char *utf8;             /* converted text (the charset's buffer) */
  size_t utf8_cap;
  sgf_board board;
  int size_error;
  sgf_value_acc acc;
  bytebuf bytes; /* raw values of the current node */
  val vals[MAXV];
  size_t nvals;
  int node_open;
  bytebuf out;
} state;

static void json_strn(bytebuf *o, const char *s, size_t n) {
  bytebuf_adds(o, "\"");
  for (; n; s++, n--) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      bytebuf_addf(o, "\\%c", c);
    else if (c < 0x20)
      bytebuf_addf(o, "\\u%04x", c);
    else
      bytebuf_add(o, s, 1);
  }
  bytebuf_adds(o, "\"");
}

static void json_str(bytebuf *o, const char *s) { json_strn(o, s, strlen(s)); }

/* Room for n bytes in the scratch buffer, emptied. */
static char *scratch(state *s, size_t n) {
  bytebuf_clear(&s->scratch);
  if (bytebuf_reserve(&s->scratch, n) != 0) {
    fputs("value_diff: out of memory\n", stderr);
    exit(2);
  }
  return s->scratch.p;
}

/* One text (len raw bytes, escapes intact) decoded per FF[4] and converted
 * to UTF-8 in the game's charset, as a JSON string; {"error": true, ...}
 * when its bytes do not decode there. */
static void text_json(state *s, const char *raw, size_t len, unsigned flags) {
  sgf_charset_info info;
  size_t n;
  int r;
  n = sgf_text_decode_dbcs(raw, len, scratch(s, len + 1), flags,
                           sgf_charset_declared(s->cs));
  r = sgf_charset_convert(s->cs, s->scratch.p, n, &s->utf8, &s->utf8_cap, &info,
                          NULL);
  if (r == SGF_ESYNTAX) {
    /* the output holds the text read as ISO-8859-1: shown in a report */
    bytebuf_adds(&s->out, "{\"error\": true, \"text\": ");
    json_strn(&s->out, s->utf8, info.len);
    bytebuf_adds(&s->out, "}");
  } else if (r < 0) {
    fprintf(stderr, "value_diff: %s: charset conversion failed (%d)\n", s->path,
            r);
    exit(2);
  } else {
    json_strn(&s->out, s->utf8, (size_t)r);
  }
}

/* A text property's first value: a string, or [first, second] for a
 * composed one (AP). */
static void text_value_json(state *s, const val *v) {
  const char *raw = s->bytes.p + v->off;
  unsigned flags = v->def->type == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE : 0;
  size_t colon;
  if (v->def->type2 == SGF_VT_UNKNOWN) {
    text_json(s, raw, v->len, flags);
    return;
  }
  if (sgf_compose_split(raw, v->len, &colon, NULL) < 0) {
    bytebuf_adds(&s->out, "{\"error\": true}");
    return;
  }
  bytebuf_adds(&s->out, "[");
  text_json(s, raw, colon, flags);
  bytebuf_adds(&s->out, ", ");
  text_json(s, raw + colon + 1, v->len - colon - 1,
            v->def->type2 == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE : 0);
  bytebuf_adds(&s->out, "]");
}

/* The node's first value of each text property, as JSON members each
 * after a comma: C alone with only_c, the others without it. */
static void text_members(state *s, int only_c) {
  size_t i, j;
  for (i = 0; i < s->nvals; i++) {
    const val *v = &s->vals[i];
    if (v->prop != P_TEXT || (v->def->id == SGF_PROP_C) != only_c) continue;
    for (j = 0; j < i; j++)
      if (s->vals[j].prop == P_TEXT && s->vals[j].def == v->def) break;
    if (j < i) continue; /* a later value or repeat of the property */
    bytebuf_adds(&s->out, ", ");
    json_str(&s->out, v->def->ident);
    bytebuf_adds(&s->out, ": ");
    text_value_json(s, v);
  }
}

static int cmp_rc(const void *a, const void *b) {
  const int *x = a, *y = b;
  return x[0] != y[0] ? x[0] - y[0] : x[1] - y[1];
}

/* AB / AW / AE of the node: every value's points, sorted, duplicates
 * dropped (sgfmill returns a set). */
static void point_list(state *s, int prop, const char *name) {
  static int rc[52 * 52 * 2];
  unsigned char seen[52 * 52];
  size_t i, n = 0, any = 0;
  int err = 0;
  memset(seen, 0, sizeof seen);
  for (i = 0; i < s->nvals; i++) {
    sgf_point_iter it;
    sgf_point pt;
    int r;
    if (s->vals[i].prop != prop) continue;
    any = 1;
    if (s->vals[i].too_long || s->size_error) {
      err = 1;
      continue;
    }
    sgf_point_iter_init(&it, &s->board, s->bytes.p + s->vals[i].off,
                        s->vals[i].len, 0);
    while ((r = sgf_point_iter_next(&it, &pt, NULL)) == 1) {
      int row, col;
      sgf_point_to_rowcol(&s->board, pt, &row, &col);
      if (!seen[row * 52 + col]) {
        seen[row * 52 + col] = 1;
        rc[2 * n] = row;
        rc[2 * n + 1] = col;
        n++;
      }
    }
    if (r < 0) err = 1;
  }
  if (!any) return;
  bytebuf_addf(&s->out, ", \"%s\": ", name);
  if (err) {
    bytebuf_adds(&s->out, "{\"error\": true}");
    return;
  }
  qsort(rc, n, 2 * sizeof rc[0], cmp_rc);
  bytebuf_adds(&s->out, "[");
  for (i = 0; i < n; i++)
    bytebuf_addf(&s->out, "%s[%d, %d]", i ? ", " : "", rc[2 * i],
                 rc[2 * i + 1]);
  bytebuf_adds(&s->out, "]");
}

static void start_game(state *s) {
  size_t i;
  /* The size comes from the root node's SZ (its first value). */
  sgf_board_init(&s->board);
  s->size_error = 0;
  /* The game's CA (SimpleText), wherever it stands in the root node. */
  sgf_charset_reset(s->cs);
  for (i = 0; i < s->nvals; i++) {
    size_t n;
    if (s->vals[i].prop != P_TEXT || s->vals[i].def->id != SGF_PROP_CA)
      continue;
    n = sgf_text_decode(s->bytes.p + s->vals[i].off, s->vals[i].len,
                        scratch(s, s->vals[i].len + 1), SGF_TEXT_SIMPLE);
    sgf_charset_set_ca(s->cs, s->scratch.p, n); /* unknown: the default */
    break;
  }
  for (i = 0; i < s->nvals; i++) {
    if (s->vals[i].prop != P_SZ) continue;
    if (s->vals[i].too_long ||
        sgf_board_decode(s->bytes.p + s->vals[i].off, s->vals[i].len, &s->board,
                         NULL) < 0)
      s->size_error = 1;
    break;
  }
  bytebuf_adds(&s->out, "{\"path\": ");
  json_str(&s->out, s->path);
  bytebuf_addf(&s->out, ", \"game\": %d, \"size\": ", s->game);
  if (s->size_error)
    bytebuf_adds(&s->out, "{\"error\": true}");
  else if (s->board.width == s->board.height)
    bytebuf_addf(&s->out, "%d", s->board.width);
  else
    bytebuf_addf(&s->out, "[%d, %d]", s->board.width, s->board.height);
  bytebuf_adds(&s->out, ", \"root\": {");
  {
    size_t mark = s->out.len;
    text_members(s, 0);
    if (s->out.len > mark) /* drop the first member's ", " */
      memmove(s->out.p + mark, s->out.p + mark + 2, (s->out.len -= 2) - mark);
  }
  bytebuf_adds(&s->out, "}, \"main\": [");
  s->in_game = 1;
  s->nodes = 0;
}

/* The node's facts, at its end. */
static void flush_node(state *s) {
  size_t i;
  if (!s->node_open) return;
  s->node_open = 0;
  if (!s->in_game) start_game(s);
  bytebuf_adds(&s->out, s->nodes++ ? ", {" : "{");
  for (i = 0; i < s->nvals; i++) {
    /* sgfmill's get_move: B if present, else W; the first value. */
    sgf_move m;
    int p = s->vals[i].prop;
    if (p != P_B && p != P_W) continue;
    if (p == P_W) {
      size_t j;
      for (j = 0; j < s->nvals && s->vals[j].prop != P_B; j++) continue;
      if (j < s->nvals) continue;
    }
    if (s->vals[i].too_long || s->size_error ||
        sgf_move_decode(&s->board, s->bytes.p + s->vals[i].off, s->vals[i].len,
                        &m, NULL) < 0) {
      bytebuf_adds(&s->out, "\"move_error\": true");
    } else if (m.pass) {
      bytebuf_addf(&s->out, "\"move\": [\"%c\", null]", p == P_B ? 'b' : 'w');
    } else {
      int row, col;
      sgf_point_to_rowcol(&s->board, m.pt, &row, &col);
      bytebuf_addf(&s->out, "\"move\": [\"%c\", [%d, %d]]",
                   p == P_B ? 'b' : 'w', row, col);
    }
    break;
  }
  {
    /* Drop the leading ", " point_list writes when nothing came before. */
    size_t mark = s->out.len;
    point_list(s, P_AB, "AB");
    point_list(s, P_AW, "AW");
    point_list(s, P_AE, "AE");
    text_members(s, 1);
    if (s->out.len > mark && s->out.p[mark - 1] == '{')
      memmove(s->out.p + mark, s->out.p + mark + 2, (s->out.len -= 2) - mark);
  }
  bytebuf_adds(&s->out, "}");
  s->nvals = 0;
  bytebuf_clear(&s->bytes);
}

static void end_game(state *s) {
  flush_node(s);
  if (!s->in_game) return;
  bytebuf_adds(&s->out, "]}\n");
  fwrite(s->out.p, 1, s->out.len, stdout);
  bytebuf_clear(&s->out);
  s->in_game = 0;
}

static int on_tree_begin(sgf_parser *p, void *u) {
  state *s = u;
  flush_node(s);
  if (sgf_parser_depth(p) == 1) {
    s->game++;
    s->in_game = 0;
  }
  return SGF_CONTINUE;
}

static int on_tree_end(sgf_parser *p, void *u) {
  state *s = u;
  flush_node(s);
  if (sgf_parser_depth(p) == 1) end_game(s); /* the game tree closed */
  return SGF_CONTINUE;
}

static int on_node(sgf_parser *p, void *u) {
  state *s = u;
  (void)p;
  flush_node(s);
  s->node_open = 1;
  return SGF_CONTINUE;
}

static int on_property(sgf_parser *p, void *u, const char *id, size_t len) {
  state *s = u;
  static const char *const names[] = {"", "B", "W", "AB", "AW", "AE", "SZ"};
  int i;
  (void)p;
  s->prop = P_OTHER;
  for (i = 1; i <= P_SZ; i++)
    if (strlen(names[i]) == len && memcmp(names[i], id, len) == 0) s->prop = i;
  if (s->prop == P_OTHER) {
    s->def = sgf_prop_lookup(NULL, id, len);
    if (s->def &&
        (s->def->type == SGF_VT_SIMPLETEXT || s->def->type == SGF_VT_TEXT))
      s->prop = P_TEXT;
  }
  return SGF_CONTINUE;
}

static int on_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  state *s = u;
  const char *raw;
  size_t rawlen;
  int r;
  (void)p;
  if (s->prop == P_OTHER) return SGF_CONTINUE;
  if (s->prop == P_TEXT) {
    /* Text of any length: its raw pieces, gathered in the node's bytes;
     * the value counts once its last piece came. */
    val *v = &s->vals[s->nvals];
    if (flags & SGF_VALUE_FIRST) {
      s->text_open = s->nvals < MAXV;
      if (!s->text_open) return SGF_CONTINUE;
      v->prop = P_TEXT;
      v->def = s->def;
      v->too_long = 0;
      v->off = s->bytes.len;
      v->len = 0;
    }
    if (!s->text_open) return SGF_CONTINUE;
    bytebuf_add(&s->bytes, at, len);
    v->len += len;
    if (flags & SGF_VALUE_LAST) {
      s->text_open = 0;
      s->nvals++;
    }
    return SGF_CONTINUE;
  }
  r = sgf_value_acc_piece(&s->acc, at, len, flags, &raw, &rawlen);
  if (r == 0 || s->nvals == MAXV) return SGF_CONTINUE;
  s->vals[s->nvals].prop = s->prop;
  s->vals[s->nvals].too_long = r < 0;
  s->vals[s->nvals].off = s->bytes.len;
  s->vals[s->nvals].len = r < 0 ? 0 : rawlen;
  if (r > 0) bytebuf_add(&s->bytes, raw, rawlen);
  s->nvals++;
  return SGF_CONTINUE;
}

int main(int argc, char **argv) {
  static state s;
  sgf_callbacks cb;
  sgf_options opt;
  sgf_charset_options copt;
  sgf_parser *p;
  char line[4096];
  bytebuf path, data;
  if (argc != 2) {
    fprintf(stderr, "usage: value_diff ROOT < paths\n");
    return 2;
  }
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = on_tree_begin;
  cb.on_tree_end = on_tree_end;
  cb.on_node = on_node;
  cb.on_property = on_property;
  cb.on_value = on_value;
  sgf_options_init(&opt);
  opt.flags = SGF_OPT_MAINLINE;
  p = sgf_parser_create(&cb, &s, &opt);
  if (!p) return 2;
  sgf_charset_options_init(&copt);
  s.cs = sgf_charset_create(&copt);
  if (!s.cs) return 2;
  /* The identifiers typed as text, from the property table. */
  {
    int first = 1;
    fputs("{\"text_props\": [", stdout);
#define TEXT_PROP(c1, c2, t, t2, sh, cat, fl, d)                      \
  if (SGF_VT_##t == SGF_VT_SIMPLETEXT || SGF_VT_##t == SGF_VT_TEXT) { \
    printf("%s\"%s\"", first ? "" : ", ", #c1 #c2);                   \
    first = 0;                                                        \
  }
    SGF_PROP_MAP(TEXT_PROP)
#undef TEXT_PROP
    fputs("]}\n", stdout);
  }
  bytebuf_init(&path);
  bytebuf_init(&data);
  bytebuf_init(&s.bytes);
  bytebuf_init(&s.out);
  bytebuf_init(&s.scratch);
  while (fgets(line, sizeof line, stdin)) {
    size_t n = strlen(line), off;
    if (n && line[n - 1] == '\n') line[--n] = '\0';
    if (!n) continue;
    bytebuf_clear(&path);
    bytebuf_addf(&path, "%s/%s%c", argv[1], line, '\0');
    s.path = line;
    bytebuf_clear(&data);
    if (tu_read_file(path.p, &data) != 0) {
      fputs("{\"path\": ", stdout);
      bytebuf_clear(&s.out);
      json_str(&s.out, line);
      fwrite(s.out.p, 1, s.out.len, stdout);
      fputs(", \"error\": \"unreadable\"}\n", stdout);
      bytebuf_clear(&s.out);
      continue;
    }
    sgf_parser_reset(p);
    s.game = -1;
    s.in_game = 0;
    s.node_open = 0;
    s.nvals = 0;
    s.text_open = 0;
    bytebuf_clear(&s.bytes);
    for (off = 0; off < data.len; off += CHUNK) {
      size_t k = data.len - off < CHUNK ? data.len - off : CHUNK;
      if (sgf_parser_feed(p, data.p + off, k, NULL) != SGF_OK) break;
    }
    sgf_parser_finish(p);
    end_game(&s);
  }
  sgf_parser_destroy(p);
  sgf_charset_free(s.cs, s.utf8, s.utf8_cap);
  sgf_charset_destroy(s.cs);
  bytebuf_free(&s.scratch);
  bytebuf_free(&path);
  bytebuf_free(&data);
  bytebuf_free(&s.bytes);
  bytebuf_free(&s.out);
  return 0;
}
