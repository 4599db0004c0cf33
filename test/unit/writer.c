/* writer.c - unit tests of the writer (sgfstream/writer.h): escaping
 * of text / SimpleText / compose values, the two layouts, round trips of
 * tricky inputs (lenient repairs included; every output must parse in
 * strict mode with no diagnostic and give the same events), the event
 * order rules, sinks that take a few bytes at a time or fail, and
 * allocation failure. The golden cases' inputs (test/cases/x/input.sgf)
 * are round-tripped too. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "countalloc.h"
#include "testutil.h"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* A sink into a bytebuf that takes at most `max` bytes a call (0: all). */
typedef struct sink {
  bytebuf out;
  size_t max;
  long calls;
  size_t fail_after; /* fail once this many bytes were taken (0: never) */
  int ret_zero;      /* fail by returning 0 instead of -1 */
} sink;

static int sink_write(void *ctx, const char *d, size_t n) {
  sink *s = ctx;
  s->calls++;
  if (s->fail_after && s->out.len >= s->fail_after) return s->ret_zero ? 0 : -1;
  if (s->max && n > s->max) n = s->max;
  bytebuf_add(&s->out, d, n);
  return (int)n;
}

/* Event recorder: a compact text form, one event a line, values raw and
 * merged: "(" ")" ";" "P ID" "V raw". */
typedef struct rec {
  bytebuf ev;
  int in_value;
  long diags;
  sgf_diag first;
  sgf_writer *w; /* events copied here too, when set */
} rec;

static int rw(rec *r, int rc) {
  (void)r; /* the writer's result as an action */
  return rc ? SGF_ABORT : SGF_CONTINUE;
}

static int r_tb(sgf_parser *p, void *u) {
  rec *r = u;
  (void)p;
  bytebuf_add(&r->ev, "(\n", 2);
  return r->w ? rw(r, sgf_writer_tree_begin(r->w)) : 0;
}
static int r_te(sgf_parser *p, void *u) {
  rec *r = u;
  (void)p;
  bytebuf_add(&r->ev, ")\n", 2);
  return r->w ? rw(r, sgf_writer_tree_end(r->w)) : 0;
}
static int r_n(sgf_parser *p, void *u) {
  rec *r = u;
  (void)p;
  bytebuf_add(&r->ev, ";\n", 2);
  return r->w ? rw(r, sgf_writer_node(r->w)) : 0;
}
static int r_p(sgf_parser *p, void *u, const char *id, size_t n) {
  rec *r = u;
  (void)p;
  bytebuf_add(&r->ev, "P ", 2);
  bytebuf_add(&r->ev, id, n);
  bytebuf_add(&r->ev, "\n", 1);
  return r->w ? rw(r, sgf_writer_property(r->w, id, n)) : 0;
}
static int r_vb(sgf_parser *p, void *u) {
  rec *r = u;
  (void)p;
  bytebuf_add(&r->ev, "V ", 2);
  return r->w ? rw(r, sgf_writer_value_begin(r->w)) : 0;
}
static int r_vd(sgf_parser *p, void *u, const char *at, size_t n) {
  rec *r = u;
  (void)p;
  bytebuf_add(&r->ev, at, n);
  return r->w ? rw(r, sgf_writer_value_data(r->w, at, n)) : 0;
}
static int r_ve(sgf_parser *p, void *u) {
  rec *r = u;
  (void)p;
  bytebuf_add(&r->ev, "\n", 1);
  return r->w ? rw(r, sgf_writer_value_end(r->w)) : 0;
}
static int r_pe(sgf_parser *p, void *u) {
  rec *r = u;
  (void)p;
  return r->w ? rw(r, sgf_writer_property_end(r->w)) : 0;
}
static int r_d(sgf_parser *p, void *u, const sgf_diag *d) {
  rec *r = u;
  (void)p;
  if (r->diags++ == 0) r->first = *d;
  return SGF_CONTINUE;
}
static const sgf_callbacks rec_cb = {sizeof(sgf_callbacks),
                                     r_tb,
                                     r_te,
                                     r_n,
                                     r_p,
                                     r_vb,
                                     r_vd,
                                     r_ve,
                                     r_pe,
                                     r_d,
                                     NULL,
                                     NULL,
                                     NULL};

/* Parse (in chunks of `chunk` bytes; 0 whole) recording events. */
static int parse_rec(rec *r, const char *in, size_t len, unsigned flags,
                     size_t chunk) {
  sgf_options opt;
  sgf_parser *p;
  int st = SGF_OK;
  size_t off = 0;
  sgf_options_init(&opt);
  opt.flags = flags;
  p = sgf_parser_create(&rec_cb, r, &opt);
  assert_non_null(p);
  while (st == SGF_OK && off < len) {
    size_t n = chunk && len - off > chunk ? chunk : len - off;
    st = sgf_parser_feed(p, in + off, n, NULL);
    off += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  sgf_parser_destroy(p);
  return st;
}

/* Write `in` (lenient parse) with the given layout; returns the output
 * (caller frees). */
static char *write_sgf(const char *in, size_t len, sgf_layout layout,
                       size_t width, size_t chunk, size_t *outlen) {
  sgf_writer_options wo;
  sink s;
  sgf_callbacks cb;
  sgf_parser *p;
  sgf_writer *w;
  size_t off = 0;
  memset(&s, 0, sizeof s);
  sgf_writer_options_init(&wo);
  wo.layout = layout;
  wo.width = width;
  w = sgf_writer_create(sink_write, &s, &wo);
  assert_non_null(w);
  sgf_callbacks_init(&cb);
  sgf_writer_callbacks(&cb);
  p = sgf_parser_create(&cb, w, NULL);
  assert_non_null(p);
  while (off < len) {
    size_t n = chunk && len - off > chunk ? chunk : len - off;
    size_t used = 0;
    assert_int_equal(sgf_parser_feed(p, in + off, n, &used), SGF_OK);
    off += n;
  }
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(sgf_writer_finish(w), 0);
  assert_int_equal(sgf_writer_bytes(w), s.out.len);
  sgf_parser_destroy(p);
  sgf_writer_destroy(w);
  if (s.out.p == NULL) bytebuf_add(&s.out, "", 0);
  *outlen = s.out.len;
  return s.out.p;
}

/* The writer's documented normalization of the recorded events
 * (tu_writer_normalize), applied at each value's end. */
typedef struct nrec {
  rec r;
  size_t vstart;
} nrec;

static int n_vb(sgf_parser *p, void *u) {
  nrec *n = u;
  r_vb(p, &n->r);
  n->vstart = n->r.ev.len;
  return SGF_CONTINUE;
}
static int n_ve(sgf_parser *p, void *u) {
  nrec *n = u;
  bytebuf *b = &n->r.ev;
  size_t k = b->len - n->vstart;
  char *v = malloc(k ? k : 1), *o = malloc(2 * k + 1);
  (void)p;
  assert_non_null(v);
  assert_non_null(o);
  memcpy(v, b->p + n->vstart, k);
  b->len = n->vstart;
  bytebuf_add(b, o, tu_writer_normalize(v, k, o));
  bytebuf_add(b, "\n", 1);
  free(v);
  free(o);
  return SGF_CONTINUE;
}
static int n_tb(sgf_parser *p, void *u) { return r_tb(p, &((nrec *)u)->r); }
static int n_te(sgf_parser *p, void *u) { return r_te(p, &((nrec *)u)->r); }
static int n_n(sgf_parser *p, void *u) { return r_n(p, &((nrec *)u)->r); }
static int n_p(sgf_parser *p, void *u, const char *id, size_t k) {
  return r_p(p, &((nrec *)u)->r, id, k);
}
static int n_vd(sgf_parser *p, void *u, const char *at, size_t k) {
  return r_vd(p, &((nrec *)u)->r, at, k);
}
static int n_d(sgf_parser *p, void *u, const sgf_diag *d) {
  return r_d(p, &((nrec *)u)->r, d);
}

/* Expected events of a lenient parse of in, normalized. Returns the
 * status of that parse. */
static int expected_events(const char *in, size_t len, bytebuf *out) {
  static const sgf_callbacks cb = {sizeof(sgf_callbacks),
                                   n_tb,
                                   n_te,
                                   n_n,
                                   n_p,
                                   n_vb,
                                   n_vd,
                                   n_ve,
                                   NULL,
                                   n_d,
                                   NULL,
                                   NULL,
                                   NULL};
  nrec n;
  sgf_parser *p;
  int st;
  memset(&n, 0, sizeof n);
  p = sgf_parser_create(&cb, &n, NULL);
  assert_non_null(p);
  st = sgf_parser_feed(p, in, len, NULL);
  if (st == SGF_OK) st = sgf_parser_finish(p);
  sgf_parser_destroy(p);
  bytebuf_add(out, n.r.ev.p ? n.r.ev.p : "", n.r.ev.len);
  bytebuf_free(&n.r.ev);
  return st;
}

/* The round trip of one input, both layouts, whole and in 3-byte chunks:
 * strict parse without diagnostic, same (normalized) events. */
static void roundtrip(const char *name, const char *in, size_t len) {
  bytebuf want;
  int layout;
  memset(&want, 0, sizeof want);
  if (expected_events(in, len, &want) != SGF_OK) { /* fatal: not written */
    bytebuf_free(&want);
    return;
  }
  for (layout = 0; layout < 2; layout++) {
    size_t olen, olen3;
    char *out =
        write_sgf(in, len, (sgf_layout)layout, layout ? 20 : 0, 0, &olen);
    char *out3 =
        write_sgf(in, len, (sgf_layout)layout, layout ? 20 : 0, 3, &olen3);
    rec r;
    int st;
    if (olen3 != olen || memcmp(out, out3, olen) != 0) {
      fprintf(stderr, "%s: chunked input writes different bytes\n", name);
      fail();
    }
    if (want.len == 0) { /* no game tree: nothing written */
      assert_int_equal(olen, 0);
      free(out);
      free(out3);
      continue;
    }
    memset(&r, 0, sizeof r);
    st = parse_rec(&r, out, olen, SGF_OPT_STRICT, 0);
    if (st != SGF_OK || r.diags != 0) {
      fprintf(stderr,
              "%s (%s): output does not parse cleanly in strict mode: %s "
              "at %llu:%llu\n--- output:\n%.*s\n",
              name, layout ? "readable" : "compact",
              r.diags ? sgf_diag_name(r.first.code) : "?",
              (unsigned long long)r.first.pos.line,
              (unsigned long long)r.first.pos.column, (int)olen, out);
      fail();
    }
    if (r.ev.len != want.len || memcmp(r.ev.p, want.p, want.len) != 0) {
      fprintf(stderr,
              "%s (%s): events differ\n--- expected:\n%.*s--- got:\n%.*s"
              "--- output:\n%.*s\n",
              name, layout ? "readable" : "compact", (int)want.len, want.p,
              (int)r.ev.len, r.ev.p, (int)olen, out);
      fail();
    }
    bytebuf_free(&r.ev);
    free(out);
    free(out3);
  }
  bytebuf_free(&want);
}

static void roundtrip_s(const char *in) { roundtrip(in, in, strlen(in)); }

/* Compact output of a lenient parse of in. */
static void expect_compact(const char *in, const char *want) {
  size_t n;
  char *out = write_sgf(in, strlen(in), SGF_LAYOUT_COMPACT, 0, 0, &n);
  if (n != strlen(want) || memcmp(out, want, n) != 0) {
    fprintf(stderr, "input:    %s\nexpected: %s\ngot:      %.*s\n", in, want,
            (int)n, out);
    fail();
  }
  free(out);
}

static void expect_readable(const char *in, size_t width, const char *want) {
  size_t n;
  char *out = write_sgf(in, strlen(in), SGF_LAYOUT_READABLE, width, 0, &n);
  if (n != strlen(want) || memcmp(out, want, n) != 0) {
    fprintf(stderr, "input:\n%s\nexpected:\n%s\ngot:\n%.*s\n", in, want, (int)n,
            out);
    fail();
  }
  free(out);
}

/* ------------------------------------------------------------------ */
/* Escaping                                                            */

static size_t esc_text(const char *t, size_t n, char *out, unsigned flags,
                       int simple) {
  sgf_escaper e;
  sgf_escaper_init(&e, flags);
  return simple ? sgf_escape_simple(&e, t, n, out)
                : sgf_escape_text(&e, t, n, out);
}

static void test_escape_text_every_byte(void **state) {
  char text[256], out[512], back[512];
  size_t n, i, m;
  unsigned flags;
  (void)state;
  for (i = 0; i < 256; i++) text[i] = (char)i;
  for (flags = 0; flags <= SGF_ESCAPE_COMPOSE; flags += SGF_ESCAPE_COMPOSE) {
    n = esc_text(text, 256, out, flags, 0);
    /* exactly ']' '\\' (and ':' in compose) get a backslash; the NUL byte
     * is dropped (never valid in SGF) */
    assert_int_equal(n, 255 + 2 + (flags ? 1 : 0));
    for (i = 1, m = 0; i < 256; i++) {
      char c = (char)i;
      if (c == ']' || c == '\\' || (c == ':' && flags)) {
        assert_int_equal(out[m], '\\');
        m++;
      }
      assert_int_equal(out[m], c);
      m++;
    }
    /* unescaping gives the text back, less the NUL */
    m = sgf_unescape(out, n, back);
    assert_int_equal(m, 255);
    assert_memory_equal(back, text + 1, 255);
  }
}

static void test_escape_text_examples(void **state) {
  char out[64];
  size_t n;
  (void)state;
  n = esc_text("a]b\\c:d", 7, out, 0, 0);
  assert_int_equal(n, 9);
  assert_memory_equal(out, "a\\]b\\\\c:d", 9);
  n = esc_text("a]b\\c:d", 7, out, SGF_ESCAPE_COMPOSE, 0);
  assert_int_equal(n, 10);
  assert_memory_equal(out, "a\\]b\\\\c\\:d", 10);
  /* line breaks stay in text */
  n = esc_text("a\r\nb\n", 5, out, 0, 0);
  assert_int_equal(n, 5);
  assert_memory_equal(out, "a\r\nb\n", 5);
}

static void test_escape_simple(void **state) {
  char out[64];
  size_t n;
  (void)state;
  n = esc_text("a\nb\r\nc\n\rd\re\r\rf", 14, out, 0, 1);
  assert_int_equal(n, 12);
  assert_memory_equal(out, "a b c d e  f", 12);
  n = esc_text("x]y\\z:w", 7, out, SGF_ESCAPE_COMPOSE, 1);
  assert_int_equal(n, 10);
  assert_memory_equal(out, "x\\]y\\\\z\\:w", 10);
}

static void test_escape_simple_line_breaks(void **state) {
  /* Each line break (LF, CR, CR LF, LF CR) is one space; CR CR two. */
  static const struct {
    const char *in, *out;
  } t[] = {{"a\nb", "a b"},        {"a\rb", "a b"},    {"a\r\nb", "a b"},
           {"a\n\rb", "a b"},      {"a\r\rb", "a  b"}, {"a\n\nb", "a  b"},
           {"a\r\n\r\nb", "a  b"}, {"\n", " "},        {"]\n]", "\\] \\]"}};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof t / sizeof t[0]; i++) {
    char out[64];
    size_t n = esc_text(t[i].in, strlen(t[i].in), out, 0, 1);
    assert_int_equal(n, strlen(t[i].out));
    assert_memory_equal(out, t[i].out, n);
  }
}

/* Splitting the text anywhere gives the same bytes (both kinds). */
static void test_escape_streaming(void **state) {
  static const char text[] = "a]b\\c:d\r\ne\n\rf\rg]]\\\\::\r\n";
  size_t len = sizeof text - 1, split, split2;
  int simple;
  unsigned flags;
  (void)state;
  for (simple = 0; simple < 2; simple++)
    for (flags = 0; flags <= 1; flags++) {
      char whole[128], parts[128];
      size_t n = esc_text(text, len, whole, flags, simple);
      for (split = 0; split <= len; split++)
        for (split2 = split; split2 <= len; split2++) {
          sgf_escaper e;
          size_t m = 0;
          sgf_escaper_init(&e, flags);
          if (simple) {
            m += sgf_escape_simple(&e, text, split, parts + m);
            m += sgf_escape_simple(&e, text + split, split2 - split, parts + m);
            m += sgf_escape_simple(&e, text + split2, len - split2, parts + m);
          } else {
            m += sgf_escape_text(&e, text, split, parts + m);
            m += sgf_escape_text(&e, text + split, split2 - split, parts + m);
            m += sgf_escape_text(&e, text + split2, len - split2, parts + m);
          }
          assert_int_equal(m, n);
          assert_memory_equal(parts, whole, n);
        }
    }
}

/* sgf_writer_value_text: text escaped into a value, in pieces; the
 * written value unescapes to the text. */
static void test_writer_value_text(void **state) {
  static const char text[] = "he said: \"]\\\" and left\nnext line";
  sink s;
  sgf_writer *w;
  rec r;
  size_t i;
  (void)state;
  memset(&s, 0, sizeof s);
  w = sgf_writer_create(sink_write, &s, NULL);
  assert_non_null(w);
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_property(w, "C", 1), 0);
  assert_int_equal(sgf_writer_value_begin(w), 0);
  for (i = 0; i < sizeof text - 1; i += 5) {
    size_t k = sizeof text - 1 - i < 5 ? sizeof text - 1 - i : 5;
    assert_int_equal(sgf_writer_value_text(w, text + i, k, 0), 0);
  }
  assert_int_equal(sgf_writer_value_end(w), 0);
  /* a compose value: two escaped halves joined by a bare ':' */
  assert_int_equal(sgf_writer_property(w, "LB", 2), 0);
  assert_int_equal(sgf_writer_value_begin(w), 0);
  assert_int_equal(sgf_writer_value_data(w, "aa", 2), 0);
  assert_int_equal(sgf_writer_value_data(w, ":", 1), 0);
  assert_int_equal(sgf_writer_value_text(w, "1:2]", 4, SGF_ESCAPE_COMPOSE), 0);
  assert_int_equal(sgf_writer_value_end(w), 0);
  /* SimpleText */
  assert_int_equal(sgf_writer_property(w, "GN", 2), 0);
  assert_int_equal(sgf_writer_value_begin(w), 0);
  assert_int_equal(sgf_writer_value_text(w, "a\r", 2, SGF_ESCAPE_SIMPLE), 0);
  assert_int_equal(sgf_writer_value_text(w, "\nb", 2, SGF_ESCAPE_SIMPLE), 0);
  assert_int_equal(sgf_writer_value_end(w), 0);
  assert_int_equal(sgf_writer_finish(w), 0);
  sgf_writer_destroy(w);
  assert_string_equal(s.out.p,
                      "(;C[he said: \"\\]\\\\\" and left\nnext line]"
                      "LB[aa:1\\:2\\]]GN[a b])\n");
  memset(&r, 0, sizeof r);
  assert_int_equal(parse_rec(&r, s.out.p, s.out.len, SGF_OPT_STRICT, 0),
                   SGF_OK);
  assert_int_equal(r.diags, 0);
  bytebuf_free(&r.ev);
  bytebuf_free(&s.out);
}

/* ------------------------------------------------------------------ */
/* Layouts                                                             */

static const char tree_in[] =
    "(;FF[4]GM[1]SZ[19]\n;B[pd]\n;W[dd] (;B[pq];W[dp]) (;B[dp]\n(;W[pp])"
    "(;W[pq]))(;B[qq]))";

static void test_layout_compact(void **state) {
  (void)state;
  expect_compact(tree_in,
                 "(;FF[4]GM[1]SZ[19];B[pd];W[dd](;B[pq];W[dp])(;B[dp](;W[pp])"
                 "(;W[pq]))(;B[qq]))\n");
  expect_compact("(;C[a\nb] )\n\n( ;C[x] )", "(;C[a\nb])\n(;C[x])\n");
}

static void test_layout_readable(void **state) {
  (void)state;
  expect_readable(tree_in, 0,
                  "(;FF[4]GM[1]SZ[19]\n"
                  " ;B[pd]\n"
                  " ;W[dd]\n"
                  " (;B[pq]\n"
                  "  ;W[dp])\n"
                  " (;B[dp]\n"
                  "  (;W[pp])\n"
                  "  (;W[pq]))\n"
                  " (;B[qq]))\n");
}

/* Lines are broken between properties and values once they reach the
 * width, never inside a value, however long. */
static void test_layout_readable_wrap(void **state) {
  (void)state;
  expect_readable(
      "(;GN[a long game name]PB[black]PW[white]AB[aa][bb][cc]"
      "[dd][ee]C[a comment longer than the line width])",
      16,
      "(;GN[a long game name]\n"
      "  PB[black]PW[white]\n"
      "  AB[aa][bb][cc]\n"
      "  [dd][ee]C[a comment longer than the line width])\n");
  /* a value's own line breaks count: the column restarts after them */
  expect_readable("(;C[first line\nsecond]PB[x]PW[y])", 12,
                  "(;C[first line\nsecond]PB[x]\n  PW[y])\n");
  /* SIZE_MAX: never */
  expect_readable("(;GN[a long game name]PB[black]PW[white])", SIZE_MAX,
                  "(;GN[a long game name]PB[black]PW[white])\n");
}

/* Indentation is a counter: 2,000 nested variations. */
static void test_layout_deep(void **state) {
  enum { DEPTH = 2000 };
  bytebuf in, want;
  size_t n, i;
  char *out;
  (void)state;
  memset(&in, 0, sizeof in);
  memset(&want, 0, sizeof want);
  for (i = 0; i < DEPTH; i++) bytebuf_add(&in, "(;B[aa]", 7);
  for (i = 0; i < DEPTH; i++) bytebuf_add(&in, ")", 1);
  out = write_sgf(in.p, in.len, SGF_LAYOUT_READABLE, 0, 0, &n);
  for (i = 0; i < DEPTH; i++) {
    size_t k;
    if (i > 0) bytebuf_add(&want, "\n", 1);
    /* one column per level, up to 32: the output stays linear */
    for (k = 0; k < i && k < 32; k++) bytebuf_add(&want, " ", 1);
    bytebuf_add(&want, "(;B[aa]", 7);
  }
  for (i = 0; i < DEPTH; i++) bytebuf_add(&want, ")", 1);
  bytebuf_add(&want, "\n", 1);
  assert_int_equal(n, want.len);
  assert_memory_equal(out, want.p, n);
  free(out);
  roundtrip("deep", in.p, in.len);
  bytebuf_free(&in);
  bytebuf_free(&want);
}

/* A line of 5,000 nodes. */
static void test_layout_long_line(void **state) {
  bytebuf in;
  size_t i;
  (void)state;
  memset(&in, 0, sizeof in);
  bytebuf_add(&in, "(;FF[4]", 7);
  for (i = 0; i < 5000; i++) bytebuf_add(&in, i % 2 ? ";W[ab]" : ";B[cd]", 6);
  bytebuf_add(&in, ")", 1);
  roundtrip("long line", in.p, in.len);
  bytebuf_free(&in);
}

/* ------------------------------------------------------------------ */
/* Round trips                                                         */

static void test_repairs_exact(void **state) {
  (void)state;
  expect_compact("(;B[aa]", "(;B[aa])\n");            /* unclosed */
  expect_compact("(;CoPyright[x])", "(;CP[x])\n");    /* identifier */
  expect_compact("(;b[aa]w[bb])", "(;B[aa]W[bb])\n"); /* lowercase */
  expect_compact("((;B[aa]))", "(;(;B[aa]))\n");      /* no node */
  expect_compact("(;C[ab\\", "(;C[ab\\\\])\n");       /* lone '\' */
  expect_compact("(;C[ab\\]", "(;C[ab\\]])\n");       /* "\]" kept */
  expect_compact("(;B[aa](;W[bb])(;W[cc]);B[dd])",
                 "(;B[aa](;W[bb])(;W[cc])(;B[dd]))\n");
  expect_compact("(;B[aa]())", "(;B[aa])\n"); /* empty tree */
  expect_compact("(;B [aa])", "(;B[aa])\n");  /* space */
  expect_compact("junk(;B[aa])junk", "(;B[aa])\n");
  expect_compact("(;B[aa]))", "(;B[aa])\n");            /* extra ')' */
  expect_compact("(;XX)", "(;)\n");                     /* no value */
  expect_compact("(;[aa]B[bb])", "(;B[bb])\n");         /* orphan */
  expect_compact("(B[aa])", "(;B[aa])\n");              /* no ';' */
  expect_compact(";B[aa]", "(;B[aa])\n");               /* no '(' */
  expect_compact("\xef\xbb\xbf(;B[aa])", "(;B[aa])\n"); /* BOM */
  expect_compact("", "");                               /* nothing */
  {
    static const char nul[] = "(;C[a\0b\\\0c]B[a\0a])";
    size_t n;
    char *out = write_sgf(nul, sizeof nul - 1, SGF_LAYOUT_COMPACT, 0, 0, &n);
    assert_int_equal(n, strlen("(;C[abc]B[aa])\n"));
    assert_memory_equal(out, "(;C[abc]B[aa])\n", n);
    free(out);
    roundtrip("nul", nul, sizeof nul - 1);
  }
}

static void test_roundtrip_tricky(void **state) {
  static const char *const in[] = {
      "(;FF[4]C[escapes: \\] \\\\ \\: \\a]GN[x\\]])",
      "(;C[soft\\\nbreak]C[soft\\\r\nbreak]C[soft\\\rbreak]C[soft\\\n\rb])",
      "(;C[line\nbreaks\r\nof\rall\n\rkinds])",
      "(;C[]B[]W[][])",
      "(;B[aa]",
      "(;CoPyright[x])",
      "((;B[aa]))",
      "(;C[abc\\",
      "(;C[abc",
      "(;C[abc\\]",
      "(;B[aa](;W[bb])(;W[cc]);B[dd];W[ee](;B[ff]))",
      "(;AB[aa][bb]  [cc]\n[dd]XY[1]ZZ[2][3]AB[ee])",
      "(;B[aa]() (;W[bb]))",
      "(;B[aa]\n)\n)\n(;W[bb])",
      "(;a[1]bB[2]Cc[3]dD[4])",
      "(;B[aa];;;W[bb])",
      "(;LB[aa:label\\:x]AP[app:1.0])",
      "(;C[\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e]GN[\xff\xfe])",
      "(;B[aa]C[x\\",
      "(;B [aa] W\n[bb])",
      "((;B[aa])(;W[bb]))",
      "(;B[aa])(;W[bb])(;B[cc])",
      "(;B[aa]\\)",
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof in / sizeof in[0]; i++) roundtrip_s(in[i]);
}

/* Every golden case's input (when the cases are there). */
static void test_roundtrip_cases(void **state) {
  const char *src = getenv("srcdir");
  char dir[4096];
  DIR *d;
  struct dirent *e;
  int n = 0;
  (void)state;
  snprintf(dir, sizeof dir, "%s/test/cases", src ? src : ".");
  d = opendir(dir);
  if (d == NULL) {
    skip();
    return;
  }
  while ((e = readdir(d)) != NULL) {
    char path[8192];
    FILE *f;
    bytebuf in;
    char tmp[4096];
    size_t k;
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof path, "%s/%s/input.sgf", dir, e->d_name);
    f = fopen(path, "rb");
    if (f == NULL) continue;
    memset(&in, 0, sizeof in);
    while ((k = fread(tmp, 1, sizeof tmp, f)) > 0) bytebuf_add(&in, tmp, k);
    fclose(f);
    roundtrip(e->d_name, in.p ? in.p : "", in.len);
    bytebuf_free(&in);
    n++;
  }
  closedir(d);
  assert_true(n > 0);
}

/* ------------------------------------------------------------------ */
/* The tree writer                                                     */

/* Compact output of the tree writer for the trees of in. */
static void expect_tree(const char *in, const char *want) {
  sgf_diag err;
  sgf_collection *c = sgf_collection_parse(in, strlen(in), NULL, &err);
  sgf_writer *w;
  sink s;
  memset(&s, 0, sizeof s);
  assert_non_null(c);
  w = sgf_writer_create(sink_write, &s, NULL);
  assert_int_equal(sgf_writer_write_collection(w, c), 0);
  assert_int_equal(sgf_writer_finish(w), 0);
  bytebuf_add(&s.out, "", 0);
  if (strcmp(s.out.p, want) != 0) {
    fprintf(stderr, "input:    %s\nexpected: %s\ngot:      %s\n", in, want,
            s.out.p);
    fail();
  }
  sgf_writer_destroy(w);
  sgf_collection_free(c);
  bytebuf_free(&s.out);
}

static void test_tree_writer(void **state) {
  (void)state;
  expect_tree(
      "(;FF[4]C[a\\]b];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))"
      "(;GN[second]XX[unknown][raw\\\\])",
      "(;FF[4]C[a\\]b];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))\n"
      "(;GN[second]XX[unknown][raw\\\\])\n");
  /* a variation that is its parent's only child continues the sequence */
  expect_tree("(;B[aa](;W[bb](;B[cc])))", "(;B[aa];W[bb];B[cc])\n");
  /* lenient input: what the tree holds */
  expect_tree("(;B[aa](;W[bb])(;W[cc]);B[dd])",
              "(;B[aa](;W[bb])(;W[cc])(;B[dd]))\n");
  expect_tree("(;CoPyright[x]C[open\\", "(;CP[x]C[open\\\\])\n");
}

/* Subtrees, and a subtree written as a variation of an open node. */
static void test_tree_writer_subtree(void **state) {
  static const char in[] = "(;B[aa];W[bb](;B[cc];W[dd])(;B[ee]))";
  sgf_diag err;
  sgf_collection *c = sgf_collection_parse(in, sizeof in - 1, NULL, &err);
  const sgf_node *root, *wbb;
  sgf_writer *w;
  sink s;
  (void)state;
  memset(&s, 0, sizeof s);
  assert_non_null(c);
  root = sgf_tree_root(sgf_collection_tree(c, 0));
  wbb = sgf_node_first_child(root);
  w = sgf_writer_create(sink_write, &s, NULL);
  assert_int_equal(sgf_writer_write_subtree(w, wbb), 0);
  assert_int_equal(sgf_writer_write_subtree(w, sgf_node_child(wbb, 1)), 0);
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_property(w, "GN", 2), 0);
  assert_int_equal(sgf_writer_value(w, "v", 1), 0);
  assert_int_equal(sgf_writer_write_subtree(w, sgf_node_child(wbb, 0)), 0);
  assert_int_equal(sgf_writer_write_subtree(w, sgf_node_child(wbb, 1)), 0);
  assert_int_equal(sgf_writer_tree_end(w), 0);
  assert_int_equal(sgf_writer_finish(w), 0);
  bytebuf_add(&s.out, "", 0);
  assert_string_equal(s.out.p,
                      "(;W[bb](;B[cc];W[dd])(;B[ee]))\n"
                      "(;B[ee])\n"
                      "(;GN[v](;B[cc];W[dd])(;B[ee]))\n");
  sgf_writer_destroy(w);
  sgf_collection_free(c);
  bytebuf_free(&s.out);
}

/* Deep and bushy: 3,000 levels, two variations at each. The walk is a
 * loop; the output must equal the streaming writer's. */
static void test_tree_writer_deep(void **state) {
  enum { DEPTH = 3000 };
  bytebuf in;
  size_t i, n;
  char *want;
  sgf_diag err;
  sgf_collection *c;
  sgf_writer *w;
  sink s;
  sgf_tree_builder_options bo;
  (void)state;
  memset(&in, 0, sizeof in);
  memset(&s, 0, sizeof s);
  for (i = 0; i < DEPTH; i++) bytebuf_add(&in, "(;B[aa];W[bb]", 13);
  bytebuf_add(&in, "(;C[x])", 7); /* so that every W[bb] has two children */
  for (i = 0; i < DEPTH; i++) bytebuf_add(&in, "(;C[leaf]))", 11);
  want = write_sgf(in.p, in.len, SGF_LAYOUT_READABLE, 0, 0, &n);
  sgf_tree_builder_options_init(&bo);
  c = sgf_collection_parse(in.p, in.len, &bo, &err);
  assert_non_null(c);
  {
    sgf_writer_options wo;
    sgf_writer_options_init(&wo);
    wo.layout = SGF_LAYOUT_READABLE;
    w = sgf_writer_create(sink_write, &s, &wo);
  }
  assert_int_equal(sgf_writer_write_collection(w, c), 0);
  assert_int_equal(sgf_writer_finish(w), 0);
  assert_int_equal(s.out.len, n);
  assert_memory_equal(s.out.p, want, n);
  sgf_writer_destroy(w);
  sgf_collection_free(c);
  bytebuf_free(&s.out);
  bytebuf_free(&in);
  free(want);
}

/* A tree recorded through a cursor writes valid FF[4]. */
static void test_tree_writer_cursor(void **state) {
  sgf_tree *t = sgf_tree_create(NULL);
  sgf_cursor *cur;
  sgf_writer *w;
  sink s;
  rec r;
  (void)state;
  memset(&s, 0, sizeof s);
  assert_non_null(t);
  cur = sgf_cursor_create(t);
  assert_non_null(cur);
  assert_int_equal(sgf_cursor_set_text(cur, "GN", "a ] b \\ c"), 0);
  assert_int_equal(sgf_cursor_add_move(cur, SGF_COLOR_BLACK, 3, 3, 0), 0);
  assert_int_equal(sgf_cursor_add_comment(cur, "good]"), 0);
  assert_int_equal(sgf_cursor_add_move(cur, SGF_COLOR_WHITE, 15, 15, 0), 0);
  assert_int_equal(sgf_cursor_back(cur), 0);
  assert_int_equal(
      sgf_cursor_add_move(cur, SGF_COLOR_WHITE, 2, 2, SGF_CURSOR_VARIATION), 0);
  w = sgf_writer_create(sink_write, &s, NULL);
  assert_int_equal(sgf_writer_write_tree(w, t), 0);
  assert_int_equal(sgf_writer_finish(w), 0);
  memset(&r, 0, sizeof r);
  assert_int_equal(parse_rec(&r, s.out.p, s.out.len, SGF_OPT_STRICT, 0),
                   SGF_OK);
  assert_int_equal(r.diags, 0);
  bytebuf_add(&s.out, "", 0);
  assert_non_null(strstr(s.out.p, "(;W[pp])(;W[cc])"));
  bytebuf_free(&r.ev);
  sgf_writer_destroy(w);
  sgf_cursor_destroy(cur);
  sgf_tree_free(t);
  bytebuf_free(&s.out);
}

/* ------------------------------------------------------------------ */
/* The event API                                                       */

static void test_order_rules(void **state) {
  sink s;
  sgf_writer *w;
  (void)state;
  memset(&s, 0, sizeof s);
  w = sgf_writer_create(sink_write, &s, NULL);
  assert_non_null(w);
  /* a node outside a tree */
  assert_int_equal(sgf_writer_node(w), SGF_EORDER);
  assert_int_equal(sgf_writer_status(w), SGF_EORDER);
  assert_int_equal(sgf_writer_tree_begin(w), SGF_EORDER); /* sticky */
  assert_int_equal(sgf_writer_finish(w), SGF_EORDER);
  assert_non_null(sgf_strerror(SGF_EORDER));
  sgf_writer_reset(w, NULL, NULL);
  assert_int_equal(sgf_writer_status(w), SGF_OK);

  /* value data outside a value */
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_value_data(w, "x", 1), SGF_EORDER);
  sgf_writer_reset(w, NULL, NULL);

  /* a node after a variation */
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_tree_end(w), 0);
  assert_int_equal(sgf_writer_node(w), SGF_EORDER);
  assert_int_equal(sgf_writer_status(w), SGF_EORDER);
  sgf_writer_reset(w, NULL, NULL);

  /* bad identifiers */
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_property(w, "B1", 2), SGF_EIDENT);
  assert_int_equal(sgf_writer_status(w), SGF_EIDENT);
  sgf_writer_reset(w, NULL, NULL);
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_property(w, "", 0), SGF_EIDENT);
  sgf_writer_reset(w, NULL, NULL);
  bytebuf_free(&s.out);

  /* value_begin may be left out */
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_property(w, "AB", 2), 0);
  assert_int_equal(sgf_writer_value_data(w, "", 0), 0); /* begins nothing */
  assert_int_equal(sgf_writer_value_data(w, "aa", 2), 0);
  assert_int_equal(sgf_writer_value_end(w), 0);
  assert_int_equal(sgf_writer_value_data(w, "b", 1), 0);
  assert_int_equal(sgf_writer_value_data(w, "b", 1), 0);
  assert_int_equal(sgf_writer_value_end(w), 0);
  assert_int_equal(sgf_writer_value_end(w), 0); /* an empty value */
  assert_int_equal(sgf_writer_property(w, "B", 1), 0);
  assert_int_equal(sgf_writer_value_end(w), 0);
  assert_int_equal(sgf_writer_property(w, "C", 1), 0);
  assert_int_equal(sgf_writer_value_text(w, "x]", 2, 0), 0);
  assert_int_equal(sgf_writer_value_end(w), 0);
  assert_int_equal(sgf_writer_finish(w), 0);
  assert_string_equal(s.out.p, "(;AB[aa][bb][]B[]C[x\\]])\n");
  sgf_writer_reset(w, NULL, NULL);
  bytebuf_free(&s.out);

  /* repairs: a property without value is dropped (also across a flush),
   * a tree without node gets one, finish closes everything */
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_tree_begin(w), 0);
  assert_int_equal(sgf_writer_node(w), 0);
  assert_int_equal(sgf_writer_property(w, "XX", 2), 0);
  assert_int_equal(sgf_writer_flush(w), 0);
  assert_int_equal(sgf_writer_property(w, "CoPyright", 9), 0);
  assert_int_equal(sgf_writer_value(w, "a]b", 3), 0);
  assert_int_equal(sgf_writer_property(w, "YY", 2), 0);
  assert_int_equal(sgf_writer_property_end(w), 0);
  assert_int_equal(sgf_writer_property(w, "C", 1), 0);
  assert_int_equal(sgf_writer_value_begin(w), 0);
  assert_int_equal(sgf_writer_value_data(w, "x\\", 2), 0);
  assert_int_equal(sgf_writer_depth(w), 2);
  assert_int_equal(sgf_writer_finish(w), 0);
  assert_int_equal(sgf_writer_depth(w), 0);
  assert_string_equal(s.out.p, "(;(;CP[a\\]b]C[x\\\\]))\n");
  assert_int_equal(sgf_writer_bytes(w), s.out.len);
  sgf_writer_destroy(w);
  bytebuf_free(&s.out);
}

static void test_user_pointer(void **state) {
  sink s;
  int x;
  sgf_writer *w;
  (void)state;
  memset(&s, 0, sizeof s);
  w = sgf_writer_create(sink_write, &s, NULL);
  assert_null(sgf_writer_user(w));
  sgf_writer_set_user(w, &x);
  assert_ptr_equal(sgf_writer_user(w), &x);
  sgf_writer_destroy(w);
  assert_null(sgf_writer_create(NULL, NULL, NULL));
}

/* A filter: handlers around the writer's that drop every C property. */
typedef struct filter {
  sgf_callbacks inner;
  int dropping;
} filter;

static int f_prop(sgf_parser *p, void *u, const char *id, size_t n) {
  filter *f = sgf_writer_user(u);
  f->dropping = n == 1 && id[0] == 'C';
  if (f->dropping) return sgf_writer_property_end(u) ? SGF_ABORT : 0;
  return f->inner.on_property(p, u, id, n);
}
static int f_vd(sgf_parser *p, void *u, const char *at, size_t n) {
  filter *f = sgf_writer_user(u);
  return f->dropping ? SGF_CONTINUE : f->inner.on_value_data(p, u, at, n);
}
static int f_ve(sgf_parser *p, void *u) {
  filter *f = sgf_writer_user(u);
  return f->dropping ? SGF_CONTINUE : f->inner.on_value_end(p, u);
}

static void test_filter(void **state) {
  static const char in[] = "(;GN[g]C[drop me]B[aa]C[and me][too];W[bb])";
  sink s;
  filter f;
  sgf_callbacks cb;
  sgf_writer *w;
  sgf_parser *p;
  (void)state;
  memset(&s, 0, sizeof s);
  memset(&f, 0, sizeof f);
  w = sgf_writer_create(sink_write, &s, NULL);
  sgf_writer_set_user(w, &f);
  sgf_callbacks_init(&f.inner);
  sgf_writer_callbacks(&f.inner);
  cb = f.inner;
  cb.on_property = f_prop;
  cb.on_value_data = f_vd;
  cb.on_value_end = f_ve;
  p = sgf_parser_create(&cb, w, NULL);
  assert_int_equal(sgf_parser_feed(p, in, sizeof in - 1, NULL), SGF_OK);
  assert_int_equal(sgf_parser_finish(p), SGF_OK);
  assert_int_equal(sgf_writer_finish(w), 0);
  assert_string_equal(s.out.p, "(;GN[g]B[aa];W[bb])\n");
  sgf_parser_destroy(p);
  sgf_writer_destroy(w);
  bytebuf_free(&s.out);
}

/* ------------------------------------------------------------------ */
/* Sinks                                                               */

static char *big_input(size_t *len) {
  bytebuf in;
  size_t i;
  memset(&in, 0, sizeof in);
  bytebuf_add(&in, "(;FF[4]C[", 9);
  for (i = 0; i < 3000; i++)
    bytebuf_add(&in, "long \\] comment \\\\ text ", 25);
  bytebuf_add(&in, "]", 1);
  for (i = 0; i < 2000; i++) bytebuf_add(&in, "(;B[aa];W[bb]C[x])", 18);
  bytebuf_add(&in, ")", 1);
  *len = in.len;
  return in.p;
}

/* A sink taking at most N bytes a call, and a buffer of the minimum
 * size: the same output as an unlimited sink. */
static void test_sink_chunks(void **state) {
  size_t len, wantlen, max;
  char *in = big_input(&len);
  char *want = write_sgf(in, len, SGF_LAYOUT_COMPACT, 0, 0, &wantlen);
  (void)state;
  for (max = 1; max <= 4099; max = max * 3 + 1) {
    size_t bufsize;
    for (bufsize = 1; bufsize <= 65536; bufsize *= 256) {
      sgf_writer_options wo;
      sgf_callbacks cb;
      sgf_parser *p;
      sgf_writer *w;
      sink s;
      memset(&s, 0, sizeof s);
      s.max = max;
      sgf_writer_options_init(&wo);
      wo.buffer_size = bufsize; /* 1 is raised to the minimum */
      w = sgf_writer_create(sink_write, &s, &wo);
      sgf_callbacks_init(&cb);
      sgf_writer_callbacks(&cb);
      p = sgf_parser_create(&cb, w, NULL);
      assert_int_equal(sgf_parser_feed(p, in, len, NULL), SGF_OK);
      assert_int_equal(sgf_parser_finish(p), SGF_OK);
      assert_int_equal(sgf_writer_finish(w), 0);
      assert_int_equal(s.out.len, wantlen);
      assert_memory_equal(s.out.p, want, wantlen);
      /* never more than the buffer a call */
      assert_true(s.calls >= (long)(wantlen / (bufsize < 256 ? 256 : bufsize)));
      sgf_parser_destroy(p);
      sgf_writer_destroy(w);
      bytebuf_free(&s.out);
    }
  }
  free(want);
  free(in);
}

static void test_sink_failure(void **state) {
  size_t len;
  char *in = big_input(&len);
  int zero;
  (void)state;
  for (zero = 0; zero < 2; zero++) {
    sgf_writer_options wo;
    sgf_callbacks cb;
    sgf_parser *p;
    sgf_writer *w;
    sink s;
    memset(&s, 0, sizeof s);
    s.fail_after = 1000;
    s.ret_zero = zero;
    sgf_writer_options_init(&wo);
    wo.buffer_size = 256;
    w = sgf_writer_create(sink_write, &s, &wo);
    sgf_callbacks_init(&cb);
    sgf_writer_callbacks(&cb);
    p = sgf_parser_create(&cb, w, NULL);
    assert_int_equal(sgf_parser_feed(p, in, len, NULL), SGF_EABORTED);
    assert_int_equal(sgf_writer_status(w), SGF_ESINK);
    assert_int_equal(sgf_writer_finish(w), SGF_ESINK);
    assert_int_equal(sgf_writer_node(w), SGF_ESINK);
    assert_int_equal(sgf_writer_flush(w), SGF_ESINK);
    assert_true(s.out.len <= 1000 + 256);
    sgf_parser_destroy(p);
    sgf_writer_destroy(w);
    bytebuf_free(&s.out);
  }
  free(in);
}

/* ------------------------------------------------------------------ */
/* Allocation                                                          */

static void test_alloc_failure(void **state) {
  long i;
  (void)state;
  for (i = 0;; i++) {
    countalloc c;
    sgf_allocator a;
    sgf_writer_options wo;
    sgf_writer *w;
    sink s;
    countalloc_init(&c, &a, 0);
    countalloc_schedule(&c, (size_t)i, 1);
    memset(&s, 0, sizeof s);
    sgf_writer_options_init(&wo);
    wo.allocator = &a;
    w = sgf_writer_create(sink_write, &s, &wo);
    if (w == NULL) {
      assert_int_equal(c.live, 0);
      assert_int_equal(c.bad, 0);
      continue;
    }
    /* created: writing allocates nothing more */
    {
      size_t before = c.calls;
      assert_int_equal(sgf_writer_tree_begin(w), 0);
      assert_int_equal(sgf_writer_node(w), 0);
      assert_int_equal(sgf_writer_property(w, "B", 1), 0);
      assert_int_equal(sgf_writer_value(w, "aa", 2), 0);
      assert_int_equal(sgf_writer_finish(w), 0);
      assert_int_equal(c.calls, before);
    }
    sgf_writer_destroy(w);
    assert_int_equal(c.live, 0);
    assert_int_equal(c.bad, 0);
    bytebuf_free(&s.out);
    assert_true(i >= 2); /* the writer and its buffer */
    break;
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_escape_text_every_byte),
      cmocka_unit_test(test_escape_text_examples),
      cmocka_unit_test(test_escape_simple),
      cmocka_unit_test(test_escape_simple_line_breaks),
      cmocka_unit_test(test_escape_streaming),
      cmocka_unit_test(test_writer_value_text),
      cmocka_unit_test(test_layout_compact),
      cmocka_unit_test(test_layout_readable),
      cmocka_unit_test(test_layout_readable_wrap),
      cmocka_unit_test(test_layout_deep),
      cmocka_unit_test(test_layout_long_line),
      cmocka_unit_test(test_repairs_exact),
      cmocka_unit_test(test_roundtrip_tricky),
      cmocka_unit_test(test_roundtrip_cases),
      cmocka_unit_test(test_tree_writer),
      cmocka_unit_test(test_tree_writer_subtree),
      cmocka_unit_test(test_tree_writer_deep),
      cmocka_unit_test(test_tree_writer_cursor),
      cmocka_unit_test(test_order_rules),
      cmocka_unit_test(test_user_pointer),
      cmocka_unit_test(test_filter),
      cmocka_unit_test(test_sink_chunks),
      cmocka_unit_test(test_sink_failure),
      cmocka_unit_test(test_alloc_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
