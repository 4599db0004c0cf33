/* hostile.c - hostile inputs: each must end in a clean, positioned
 * result with bounded memory (a counting allocator measures the peak of
 * bytes outstanding) and work linear in the input (event counts at size N
 * and 2N are compared, never the clock).
 *
 * Big inputs are generated chunk by chunk, never held whole. Their sizes
 * (the full test by default: about 3 s, 10 s under ASan) can be lowered
 * for slow runs, under Valgrind say:
 *   SGF_HOSTILE_BIG    bytes in the huge comment value (default 1 GiB)
 *   SGF_HOSTILE_NODES  empty nodes in (;;;...) (default 100,000,000)
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "harness.h"

#define CHUNK ((size_t)64 * 1024)

static uint64_t env_u64(const char *name, uint64_t dflt) {
  const char *s = getenv(name);
  char *end;
  unsigned long long v;
  if (s == NULL || *s == '\0') return dflt;
  v = strtoull(s, &end, 10);
  return (*end == '\0' && v > 0) ? (uint64_t)v : dflt;
}

/* ------------------------------------------------------------------ */
/* Inputs made on the fly: prefix, a byte repeated n times, suffix.     */

typedef struct gen {
  const char *prefix;
  size_t plen;
  int fill;
  uint64_t nfill;
  const char *suffix;
  size_t slen;
} gen;

static gen gen_make(const char *prefix, int fill, uint64_t nfill,
                    const char *suffix) {
  gen g;
  g.prefix = prefix;
  g.plen = strlen(prefix);
  g.fill = fill;
  g.nfill = nfill;
  g.suffix = suffix;
  g.slen = strlen(suffix);
  return g;
}

static uint64_t gen_len(const gen *g) { return g->plen + g->nfill + g->slen; }

/* Bytes [off, off + n) of the input into buf. */
static void gen_fill(const gen *g, uint64_t off, unsigned char *buf, size_t n) {
  size_t i = 0;
  while (i < n) {
    uint64_t o = off + i;
    if (o < g->plen) {
      size_t k = g->plen - (size_t)o;
      if (k > n - i) k = n - i;
      memcpy(buf + i, g->prefix + o, k);
      i += k;
    } else if (o < g->plen + g->nfill) {
      uint64_t k = g->plen + g->nfill - o;
      if (k > n - i) k = n - i;
      memset(buf + i, g->fill, (size_t)k);
      i += (size_t)k;
    } else {
      size_t k = (size_t)(o - g->plen - g->nfill);
      memcpy(buf + i, g->suffix + k, n - i);
      i = n;
    }
  }
}

/* Feed the generated input in chunks, then finish (unless stopped).
 * *fed receives the bytes consumed. */
static int feed_gen(sgf_parser *p, const gen *g, size_t chunk, uint64_t *fed) {
  unsigned char *buf = malloc(chunk);
  uint64_t off = 0, total = gen_len(g);
  int st = SGF_OK;
  assert_non_null(buf);
  while (off < total) {
    size_t n = total - off < chunk ? (size_t)(total - off) : chunk;
    size_t used = 0;
    gen_fill(g, off, buf, n);
    st = sgf_parser_feed(p, (const char *)buf, n, &used);
    off += used;
    if (st != SGF_OK) break;
  }
  free(buf);
  if (fed) *fed = off;
  if (st == SGF_OK) st = sgf_parser_finish(p);
  return st;
}

/* ------------------------------------------------------------------ */
/* Counting callbacks                                                  */

typedef struct cnt {
  uint64_t tree_begin, tree_end, node, prop, value_begin, value_data, value_end,
      prop_end, diags, value_bytes;
  uint64_t by_code[SGF_DIAG_MAX_];
  sgf_diag first[SGF_DIAG_MAX_]; /* first diagnostic of each code */
  sgf_diag last;
  uint64_t max_depth_seen;
  /* value bytes collected when keep is set */
  int keep;
  unsigned char *vbuf;
  size_t vlen, vcap;
} cnt;

static cnt *C(void *u) { return u; }

static void seen_depth(sgf_parser *p, cnt *c) {
  uint64_t d = sgf_parser_depth(p);
  if (d > c->max_depth_seen) c->max_depth_seen = d;
}

static int c_tb(sgf_parser *p, void *u) {
  C(u)->tree_begin++;
  seen_depth(p, u);
  return SGF_CONTINUE;
}
static int c_te(sgf_parser *p, void *u) {
  (void)p;
  C(u)->tree_end++;
  return SGF_CONTINUE;
}
static int c_node(sgf_parser *p, void *u) {
  (void)p;
  C(u)->node++;
  return SGF_CONTINUE;
}
static int c_prop(sgf_parser *p, void *u, const char *id, size_t n) {
  (void)p;
  (void)id;
  (void)n;
  C(u)->prop++;
  return SGF_CONTINUE;
}
static int c_vb(sgf_parser *p, void *u) {
  (void)p;
  C(u)->value_begin++;
  return SGF_CONTINUE;
}
static int c_vd(sgf_parser *p, void *u, const char *at, size_t n) {
  cnt *c = u;
  (void)p;
  c->value_data++;
  c->value_bytes += n;
  if (c->keep) {
    if (c->vcap - c->vlen < n) {
      size_t cap = c->vcap ? c->vcap : 256;
      while (cap - c->vlen < n) cap *= 2;
      c->vbuf = realloc(c->vbuf, cap);
      assert_non_null(c->vbuf);
      c->vcap = cap;
    }
    memcpy(c->vbuf + c->vlen, at, n);
    c->vlen += n;
  }
  return SGF_CONTINUE;
}
static int c_ve(sgf_parser *p, void *u) {
  (void)p;
  C(u)->value_end++;
  return SGF_CONTINUE;
}
static int c_pe(sgf_parser *p, void *u) {
  (void)p;
  C(u)->prop_end++;
  return SGF_CONTINUE;
}
static int c_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  cnt *c = u;
  (void)p;
  c->diags++;
  if (d->code > 0 && d->code < SGF_DIAG_MAX_) {
    if (c->by_code[d->code]++ == 0) c->first[d->code] = *d;
  }
  c->last = *d;
  return SGF_CONTINUE;
}

static sgf_callbacks count_callbacks(void) {
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_tree_begin = c_tb;
  cb.on_tree_end = c_te;
  cb.on_node = c_node;
  cb.on_property = c_prop;
  cb.on_value_begin = c_vb;
  cb.on_value_data = c_vd;
  cb.on_value_end = c_ve;
  cb.on_property_end = c_pe;
  cb.on_diagnostic = c_diag;
  return cb;
}

static uint64_t events(const cnt *c) {
  return c->tree_begin + c->tree_end + c->node + c->prop + c->value_begin +
         c->value_data + c->value_end + c->prop_end + c->diags;
}

/* A counting parser over a generated input. */
typedef struct hrun {
  countalloc a;
  sgf_allocator hooks;
  cnt c;
  sgf_parser *p;
  size_t base; /* bytes outstanding after creation */
  uint64_t fed;
  int st;
} hrun;

static void hrun_go(hrun *h, const gen *g, size_t chunk, unsigned flags,
                    uint64_t max_depth) {
  sgf_options o;
  sgf_callbacks cb = count_callbacks();
  memset(h, 0, sizeof *h);
  countalloc_init(&h->a, &h->hooks, 1);
  sgf_options_init(&o);
  o.flags = flags;
  o.max_depth = max_depth;
  o.allocator = &h->hooks;
  h->p = sgf_parser_create(&cb, &h->c, &o);
  assert_non_null(h->p);
  h->base = h->a.live;
  countalloc_reset_peak(&h->a);
  countalloc_schedule(&h->a, SIZE_MAX, 0); /* counts calls from here */
  h->st = feed_gen(h->p, g, chunk, &h->fed);
  /* the parser never allocates after creation */
  assert_int_equal(h->a.peak, h->base);
  assert_int_equal(h->a.calls, 0);
}

static void hrun_end(hrun *h) {
  sgf_parser_destroy(h->p);
  assert_int_equal(h->a.live, 0);
  assert_int_equal(h->a.blocks, 0);
  assert_int_equal(h->a.bad, 0);
  free(h->c.vbuf);
}

/* ------------------------------------------------------------------ */
/* A huge comment value                                                */

static void test_huge_value_core(void **state) {
  uint64_t n = env_u64("SGF_HOSTILE_BIG", (uint64_t)1 << 30);
  gen g = gen_make("(;C[", 'x', n, "])");
  hrun h;
  uint64_t small[2];
  int i;
  (void)state;
  hrun_go(&h, &g, CHUNK, 0, 0);
  assert_int_equal(h.st, SGF_OK);
  assert_int_equal(h.fed, gen_len(&g));
  assert_int_equal(h.c.diags, 0);
  assert_int_equal(h.c.tree_begin, 1);
  assert_int_equal(h.c.tree_end, 1);
  assert_int_equal(h.c.node, 1);
  assert_int_equal(h.c.prop, 1);
  assert_int_equal(h.c.value_begin, 1);
  assert_int_equal(h.c.value_end, 1);
  assert_int_equal(h.c.prop_end, 1);
  assert_true(h.c.value_bytes == n);
  /* one slice per chunk the value touches */
  assert_true(h.c.value_data <= gen_len(&g) / CHUNK + 1);
  print_message("huge value: %" PRIu64 " bytes in %" PRIu64
                " slices, parser memory %zu bytes, no growth\n",
                n, h.c.value_data, h.base);
  hrun_end(&h);

  /* Linear: twice the value, at most twice the events. */
  for (i = 0; i < 2; i++) {
    gen gi = gen_make("(;C[", 'x', (uint64_t)(i + 1) << 20, "])");
    hrun_go(&h, &gi, 4096, 0, 0);
    assert_int_equal(h.st, SGF_OK);
    small[i] = events(&h.c);
    hrun_end(&h);
  }
  assert_true(small[1] <= 2 * small[0] + 2);
}

/* The reader buffers a property's values: it must stop at the limit, at
 * the value, with memory bounded by the limit, and not read on. */
static int rd_count_prop(sgf_parser *p, void *u, const sgf_prop_view *pr) {
  (void)p;
  (void)pr;
  (*(int *)u)++;
  return SGF_CONTINUE;
}

static void reader_limit(uint64_t n, size_t limit, size_t *peak_over) {
  gen g = gen_make("(;C[", 'x', n, "])");
  countalloc a;
  sgf_allocator hooks;
  sgf_options o;
  sgf_reader_options ro;
  sgf_reader_callbacks cb;
  sgf_reader *r;
  const sgf_diag *e;
  uint64_t fed = 0;
  int st;
  size_t base;
  int props = 0;
  countalloc_init(&a, &hooks, 1);
  sgf_options_init(&o);
  o.allocator = &hooks;
  sgf_reader_options_init(&ro);
  ro.parser = &o;
  ro.max_value_bytes = limit;
  sgf_reader_callbacks_init(&cb);
  cb.on_property = rd_count_prop;
  r = sgf_reader_create(&cb, &props, &ro);
  assert_non_null(r);
  base = a.live;
  countalloc_reset_peak(&a);
  st = feed_gen(sgf_reader_parser(r), &g, CHUNK, &fed);
  assert_int_equal(st, SGF_EPARSE);
  assert_int_equal(props, 0);
  e = sgf_parser_error(sgf_reader_parser(r));
  assert_non_null(e);
  assert_int_equal(e->code, SGF_DIAG_VALUE_LIMIT);
  assert_int_equal(e->severity, SGF_SEV_FATAL);
  assert_int_equal(e->pos.offset, 3); /* the '[' */
  assert_int_equal(e->pos.line, 1);
  assert_int_equal(e->pos.column, 4);
  assert_true(e->has_mark);
  assert_int_equal(e->mark.offset, 2); /* the property */
  /* stopped within the chunk that crossed the limit */
  assert_true(fed <= 4 + (uint64_t)limit + CHUNK);
  *peak_over = a.peak - base;
  sgf_reader_destroy(r);
  assert_int_equal(a.live, 0);
  assert_int_equal(a.bad, 0);
}

static void test_huge_value_reader(void **state) {
  uint64_t n = env_u64("SGF_HOSTILE_BIG", (uint64_t)1 << 30);
  const size_t small_const = 4096 + 16 * sizeof(sgf_value_view);
  size_t over = 0;
  (void)state;
  /* The default limit, 1 MiB. */
  reader_limit(n, SGF_DEFAULT_MAX_VALUE_BYTES, &over);
  print_message(
      "reader: value-limit after %u bytes, peak %zu bytes over "
      "creation\n",
      SGF_DEFAULT_MAX_VALUE_BYTES, over);
  assert_true(over <= SGF_DEFAULT_MAX_VALUE_BYTES + small_const);
  /* A limit that is not a power of two. reader.h: "assembled in one
   * buffer bounded by max_value_bytes". The buffer grows by doubling, so
   * today it may reach (almost) twice the limit: reported; tighten to
   * limit + small_const when the growth is clamped. */
  reader_limit(n, 1000000, &over);
  print_message("reader: limit 1000000, peak %zu bytes over creation\n", over);
  assert_true(over <= 2 * (size_t)1000000 + small_const);
}

/* ------------------------------------------------------------------ */
/* Deep nesting                                                        */

static void test_million_parens(void **state) {
  gen g = gen_make("", '(', 1000000, "");
  hrun h;
  size_t chunk[2] = {CHUNK, 1000000};
  int i;
  (void)state;
  for (i = 0; i < 2; i++) {
    hrun_go(&h, &g, chunk[i], 0, 0);
    assert_int_equal(h.st, SGF_EPARSE);
    assert_int_equal(h.c.tree_begin, SGF_DEFAULT_MAX_DEPTH);
    assert_int_equal(h.c.max_depth_seen, SGF_DEFAULT_MAX_DEPTH);
    assert_int_equal(h.c.tree_end, 0);
    assert_int_equal(h.c.by_code[SGF_DIAG_DEPTH_LIMIT], 1);
    assert_int_equal(h.c.last.code, SGF_DIAG_DEPTH_LIMIT);
    assert_int_equal(h.c.last.severity, SGF_SEV_FATAL);
    /* tree k >= 2 opens at the '(' at offset k - 1: the one that would
     * open tree 10001 is at offset 10000 */
    assert_int_equal(h.c.last.pos.offset, SGF_DEFAULT_MAX_DEPTH);
    assert_int_equal(h.c.last.pos.line, 1);
    assert_int_equal(h.c.last.pos.column, SGF_DEFAULT_MAX_DEPTH + 1);
    assert_true(h.fed < 2 * SGF_DEFAULT_MAX_DEPTH + chunk[i]);
    hrun_end(&h);
  }
  /* A smaller limit, the same shape. */
  hrun_go(&h, &g, CHUNK, 0, 100);
  assert_int_equal(h.st, SGF_EPARSE);
  assert_int_equal(h.c.tree_begin, 100);
  assert_int_equal(h.c.last.code, SGF_DIAG_DEPTH_LIMIT);
  assert_int_equal(h.c.last.pos.offset, 100);
  hrun_end(&h);
}

/* Nodes after variations: "(;" then (;); repeated, each ';' after a ')'
 * opening an implicit variation one level deeper. The depth limit holds,
 * positioned at the ';' that would open the level past it; the parser's
 * memory for them (a stack of depths) is bounded by max_depth. */
static void test_million_implicit(void **state) {
  const uint64_t reps = 1000000;
  countalloc a;
  sgf_allocator hooks;
  sgf_callbacks cb = count_callbacks();
  sgf_options o;
  cnt c;
  sgf_parser *p;
  unsigned char *pat;
  uint64_t done = 0;
  size_t base, i;
  int st;
  (void)state;
  memset(&c, 0, sizeof c);
  countalloc_init(&a, &hooks, 1);
  sgf_options_init(&o);
  o.allocator = &hooks;
  p = sgf_parser_create(&cb, &c, &o);
  assert_non_null(p);
  base = a.live;
  countalloc_reset_peak(&a);
  pat = malloc(CHUNK);
  assert_non_null(pat);
  for (i = 0; i < CHUNK; i++) pat[i] = (unsigned char)"(;);"[i % 4];
  st = sgf_parser_feed(p, "(;", 2, NULL);
  while (done < 4 * reps && st == SGF_OK) {
    st = sgf_parser_feed(p, (const char *)pat, CHUNK, NULL);
    done += CHUNK;
  }
  assert_int_equal(st, SGF_EPARSE);
  assert_int_equal(c.last.code, SGF_DIAG_DEPTH_LIMIT);
  assert_int_equal(c.max_depth_seen, SGF_DEFAULT_MAX_DEPTH);
  assert_true(c.by_code[SGF_DIAG_NODE_AFTER_VARIATION] >=
              SGF_DEFAULT_MAX_DEPTH - 2);
  /* before the k-th (;); (0-based, at 2 + 4k) the depth is k + 1; its
   * variation opens level k + 2, so the one past the limit is k = 9999 */
  assert_int_equal(c.last.pos.offset, 2 + 4 * (SGF_DEFAULT_MAX_DEPTH - 1));
  print_message("implicit variations: depth-limit at offset %" PRIu64
                ", %zu bytes allocated while parsing\n",
                c.last.pos.offset, a.peak - base);
  assert_true(a.peak - base <= 8 * (size_t)SGF_DEFAULT_MAX_DEPTH + 1024);
  free(pat);
  sgf_parser_destroy(p);
  assert_int_equal(a.live, 0);
  assert_int_equal(a.bad, 0);
}

/* Nesting inside a tree that is skipped is counted and limited as
 * anywhere else: the fatal depth-limit at the '(' past max_depth, the
 * parser's memory fixed. */
static int skip_root(sgf_parser *p, void *u) {
  (void)p;
  C(u)->node++;
  return C(u)->node == 1 ? SGF_SKIP : SGF_CONTINUE;
}

static void test_million_parens_skipped(void **state) {
  gen g = gen_make("(;C[x]", '(', 1000000, "");
  sgf_callbacks cb = count_callbacks();
  cnt c;
  sgf_parser *p;
  uint64_t fed;
  int st;
  (void)state;
  memset(&c, 0, sizeof c);
  cb.on_node = skip_root;
  p = sgf_parser_create(&cb, &c, NULL);
  assert_non_null(p);
  st = feed_gen(p, &g, CHUNK, &fed);
  /* the 10,000th '(' after "(;C[x]" would open depth 10,001: fatal
   * there, and no event for the skipped tree but its depth-limit */
  assert_int_equal(st, SGF_EPARSE);
  assert_int_equal(c.tree_begin, 1);
  assert_int_equal(c.tree_end, 0);
  assert_int_equal(c.node, 1);
  assert_int_equal(c.prop, 0);
  assert_int_equal(c.by_code[SGF_DIAG_DEPTH_LIMIT], 1);
  assert_int_equal(c.first[SGF_DIAG_DEPTH_LIMIT].pos.offset,
                   6 + SGF_DEFAULT_MAX_DEPTH - 1);
  assert_int_equal(c.by_code[SGF_DIAG_UNCLOSED_TREE], 0);
  sgf_parser_destroy(p);
}

/* ------------------------------------------------------------------ */
/* Many empty nodes                                                    */

static void test_many_nodes(void **state) {
  uint64_t n = env_u64("SGF_HOSTILE_NODES", 100000000);
  gen g = gen_make("(", ';', n, ")");
  hrun h;
  uint64_t ev[2];
  int i;
  (void)state;
  hrun_go(&h, &g, CHUNK, 0, 0);
  assert_int_equal(h.st, SGF_OK);
  assert_true(h.c.node == n);
  assert_int_equal(h.c.tree_begin, 1);
  assert_int_equal(h.c.tree_end, 1);
  assert_int_equal(h.c.diags, 0);
  assert_true(events(&h.c) == n + 2);
  print_message("%" PRIu64 " empty nodes: %" PRIu64 " node events\n", n,
                h.c.node);
  hrun_end(&h);
  for (i = 0; i < 2; i++) {
    gen gi = gen_make("(", ';', (uint64_t)100000 << i, ")");
    hrun_go(&h, &gi, 1000, 0, 0);
    ev[i] = events(&h.c);
    hrun_end(&h);
  }
  assert_true(ev[1] == 2 * ev[0] - 2);
}

/* ------------------------------------------------------------------ */
/* A huge identifier                                                   */

static void test_huge_ident(void **state) {
  const uint64_t n = 10u * 1000 * 1000;
  gen upper = gen_make("(;", 'A', n, "[x]B[y])");
  gen lower = gen_make("(;", 'a', n, "[x]B[y])");
  gen *gs[2] = {&upper, &lower};
  hrun h;
  int i;
  (void)state;
  for (i = 0; i < 2; i++) {
    hrun_go(&h, gs[i], CHUNK, 0, 0);
    assert_int_equal(h.st, SGF_OK);
    assert_int_equal(h.c.by_code[SGF_DIAG_IDENT_LIMIT], 1);
    assert_int_equal(h.c.first[SGF_DIAG_IDENT_LIMIT].pos.offset, 2);
    assert_int_equal(h.c.first[SGF_DIAG_IDENT_LIMIT].severity, SGF_SEV_ERROR);
    /* the long property is dropped with its value; B[y] goes on */
    assert_int_equal(h.c.prop, 1);
    assert_int_equal(h.c.value_bytes, 1);
    assert_int_equal(h.c.tree_end, 1);
    hrun_end(&h);
    /* strict: the error stops the parse there */
    hrun_go(&h, gs[i], CHUNK, SGF_OPT_STRICT, 0);
    assert_int_equal(h.st, SGF_EPARSE);
    assert_int_equal(h.c.last.code, SGF_DIAG_IDENT_LIMIT);
    assert_int_equal(h.c.last.pos.offset, 2);
    assert_int_equal(h.c.prop, 0);
    hrun_end(&h);
  }
  /* Before the first tree, where '(' is still only a candidate. */
  {
    gen top = gen_make("(", 'A', n, "[x])(;B[y])");
    hrun_go(&h, &top, CHUNK, 0, 0);
    assert_int_equal(h.st, SGF_OK);
    assert_int_equal(h.c.prop, 1); /* B[y] */
    assert_int_equal(h.c.tree_begin, 1);
    assert_int_equal(h.c.tree_end, 1);
    hrun_end(&h);
  }
}

/* ------------------------------------------------------------------ */
/* Every byte value, NUL bytes, invalid UTF-8                          */

static void check_plain(const void *in, size_t n, const char *what) {
  const char *msg = fz_check_plain(in, n);
  if (msg != NULL) {
    print_error("%s: %s\n", what, msg);
    fail();
  }
}

static void test_every_byte(void **state) {
  static const char *const ctx[] = {
      "(;C[a%b])", "(;C%[x])", "(;%C[x])",   "(;C[x]%)",    "(%;C[x])",
      "%(;C[x])",  "(;C[x])%", "(;C[x\\%])", "(;C[x](%;))", "%",
      "(;C[x]%",   "(;C[%",    "(;%",        "(%"};
  unsigned char all[256 * 2 + 16];
  size_t i, k, n;
  (void)state;
  for (i = 0; i < sizeof ctx / sizeof ctx[0]; i++) {
    for (k = 0; k < 256; k++) {
      unsigned char buf[32];
      const char *t;
      char what[64];
      n = 0;
      for (t = ctx[i]; *t; t++)
        buf[n++] = *t == '%' ? (unsigned char)k : (unsigned char)*t;
      snprintf(what, sizeof what, "context %s, byte %zu", ctx[i], k);
      check_plain(buf, n, what);
    }
  }
  /* All 256 values in one value and outside, whole vs byte by byte. */
  n = 0;
  memcpy(all, "(;C[", 4);
  n = 4;
  for (k = 0; k < 256; k++)
    if (k != ']' && k != '\\') all[n++] = (unsigned char)k;
  all[n++] = ']';
  for (k = 0; k < 256; k++) all[n++] = (unsigned char)k;
  all[n++] = ')';
  check_plain(all, n, "all bytes");
}

/* Value bytes pass through unchanged: the core is byte-oriented. */
static void expect_raw(const char *in, size_t n, const char *raw, size_t rn,
                       unsigned flags) {
  size_t chunks[3] = {n, 1, 3};
  int i;
  for (i = 0; i < 3; i++) {
    sgf_callbacks cb = count_callbacks();
    sgf_options o;
    cnt c;
    sgf_parser *p;
    size_t off = 0;
    memset(&c, 0, sizeof c);
    c.keep = 1;
    sgf_options_init(&o);
    o.flags = flags;
    p = sgf_parser_create(&cb, &c, &o);
    assert_non_null(p);
    while (off < n) {
      size_t k = n - off < chunks[i] ? n - off : chunks[i];
      assert_int_equal(sgf_parser_feed(p, in + off, k, NULL), SGF_OK);
      off += k;
    }
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    assert_int_equal(c.vlen, rn);
    assert_memory_equal(c.vbuf, raw, rn);
    free(c.vbuf);
    sgf_parser_destroy(p);
  }
}

static void test_invalid_utf8(void **state) {
  static const char *const seqs[] = {
      "\xc3",             /* lead byte, no continuation */
      "\xe2\x82",         /* truncated 3-byte */
      "\xf0\x9f\x98",     /* truncated 4-byte */
      "\xc0\xaf",         /* overlong '/' */
      "\xe0\x80\xaf",     /* overlong, 3 bytes */
      "\xed\xa0\x80",     /* UTF-16 surrogate */
      "\xf4\x90\x80\x80", /* above U+10FFFF */
      "\xff\xfe\xfd",     /* never valid */
      "\x80\x80\x80",     /* lone continuations */
      "\xe6\x97\xa5\xe6", /* valid then truncated */
      "\xef\xbb\xbf",     /* a BOM inside a value */
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
    char in[64], what[32];
    size_t sl = strlen(seqs[i]), n;
    n = (size_t)snprintf(in, sizeof in, "(;C[a%sb]GN[%s])", seqs[i], seqs[i]);
    {
      char raw[64];
      size_t rn = 0;
      raw[rn++] = 'a';
      memcpy(raw + rn, seqs[i], sl);
      rn += sl;
      raw[rn++] = 'b';
      memcpy(raw + rn, seqs[i], sl);
      rn += sl;
      expect_raw(in, n, raw, rn, 0);
      expect_raw(in, n, raw, rn, SGF_OPT_STRICT);
    }
    snprintf(what, sizeof what, "utf-8 sequence %zu", i);
    check_plain(in, n, what);
    /* the same bytes outside values: junk, no crash */
    n = (size_t)snprintf(in, sizeof in, "%s(;C[x]%s)%s", seqs[i], seqs[i],
                         seqs[i]);
    check_plain(in, n, what);
  }
}

/* Broken double-byte text (Shift_JIS, GBK, Big5 and friends): lead bytes
 * alone, before '\\' and ']', at the end of input, before line breaks,
 * followed by text, by SGF, by nothing, by long blank runs (the look-ahead
 * limit), in every combination: the invariants of fuzz_parse in every mode,
 * whole versus byte by byte with pauses versus 7-byte chunks. Then two
 * readings checked exactly: in lenient mode, Nihon Ki-in's unescaped trail
 * backslash before ']' closes the value when a property follows; in strict
 * mode FF[4]'s byte rules hold. */
static void test_broken_dbcs(void **state) {
  static const char *const heads[] = {
      "\x83",         "\x83\\",   "\x83\\\\",     "\\\x83",
      "\x81\x40\x83", "\xe3\x82", "\xe3\x82\xbd", "\xff",
      "\x80",         "\x83\r\n", "a\x9f",        "\x83\\\x83\\"};
  static const char *const tails[] = {
      "",
      ")",
      ";B[aa])",
      "\r\nBR[x])",
      "abc])",
      "\xe0])",
      " x[y])",
      "]",
      "\\",
      "(;W[bb]))",
      "[cc])",
      "                                   "
      "                                          ;B[aa])"};
  size_t h, t;
  (void)state;
  for (h = 0; h < sizeof heads / sizeof heads[0]; h++) {
    for (t = 0; t < sizeof tails / sizeof tails[0]; t++) {
      char in[256], what[64];
      int n = snprintf(in, sizeof in, "(;C[%s]%s", heads[h], tails[t]);
      assert_true(n > 0 && (size_t)n < sizeof in);
      snprintf(what, sizeof what, "dbcs head %zu tail %zu", h, t);
      check_plain(in, (size_t)n, what);
    }
  }
  {
    static const char in[] = "(;PB[\x90\\\x83\\]\r\nBR[x])";
    /* the raw bytes of every value, one after the other */
    expect_raw(in, sizeof in - 1, "\x90\\\x83\\x", 5, 0);
    expect_raw(in, sizeof in - 1, "\x90\\\x83\\]\r\nBR[x", 11, SGF_OPT_STRICT);
  }
}

static void test_nul_bytes(void **state) {
  static const char in[] = "\0(;\0C[a\0b]\0\0[c]\0)\0";
  static const char val[] = "a\0b";
  unsigned char big[4096];
  size_t i;
  (void)state;
  check_plain(in, sizeof in - 1, "NULs");
  expect_raw("(;C[a\0b])", 9, val, 3, 0);
  /* a long run of NULs inside and outside values */
  memset(big, 0, sizeof big);
  memcpy(big + 100, "(;C[", 4);
  memcpy(big + 2000, "])", 2);
  check_plain(big, sizeof big, "NUL runs");
  for (i = 0; i < 64; i++) big[i] = (unsigned char)(i & 1 ? ']' : 0);
  check_plain(big, sizeof big, "NUL runs with brackets");
}

/* ------------------------------------------------------------------ */
/* Truncation at every byte of a real file                             */

static char *read_file(const char *name, size_t *len) {
  const char *top = getenv("top_srcdir");
  char path[4096];
  FILE *f;
  char *buf;
  long n;
  if (top == NULL || *top == '\0') top = getenv("srcdir");
  if (top == NULL || *top == '\0') top = ".";
  snprintf(path, sizeof path, "%s/%s", top, name);
  f = fopen(path, "rb");
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = malloc((size_t)n + 1);
  if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return buf;
}

static void test_truncation(void **state) {
  size_t len = 0, cut;
  char *sgf = read_file("test/data/sample/sgf-parse-rs/ff4_ex.sgf", &len);
  unsigned char *hdr;
  (void)state;
  if (sgf == NULL) {
    skip();
    return;
  }
  hdr = malloc(len + 1);
  assert_non_null(hdr);
  for (cut = 0; cut <= len; cut++) {
    sgf_callbacks cb = count_callbacks();
    cnt c;
    sgf_parser *p;
    int st;
    const char *msg;
    uint64_t open;
    unsigned f;
    memset(&c, 0, sizeof c);
    p = sgf_parser_create(&cb, &c, NULL);
    assert_non_null(p);
    st = sgf_parser_feed(p, sgf, cut, NULL);
    assert_int_equal(st, SGF_OK);
    open = sgf_parser_depth(p);
    st = sgf_parser_finish(p);
    /* lenient: always a clean end, every tree closed */
    assert_int_equal(st, SGF_OK);
    assert_true(c.tree_begin == c.tree_end);
    assert_true(c.value_begin == c.value_end);
    assert_int_equal(sgf_parser_depth(p), 0);
    if (cut == 0) assert_int_equal(c.by_code[SGF_DIAG_NO_GAME_TREE], 1);
    /* trees open at the cut: one unclosed-tree, then their tree-ends */
    assert_true(c.by_code[SGF_DIAG_UNCLOSED_TREE] == (open > 0 ? 1u : 0u));
    sgf_parser_destroy(p);
    /* every invariant of fuzz_parse, lenient/strict/mainline */
    for (f = 0; f < 3; f++) {
      hdr[0] = (unsigned char)f;
      memcpy(hdr + 1, sgf, cut);
      msg = fz_check_parse(hdr, cut + 1);
      if (msg != NULL) {
        print_error("prefix of %zu bytes, flags %u: %s\n", cut, f, msg);
        fail();
      }
    }
    /* whole vs byte by byte, on a sample of the cuts */
    if (cut % 97 == 0 || cut + 3 > len) {
      char what[48];
      snprintf(what, sizeof what, "prefix of %zu bytes", cut);
      check_plain(sgf, cut, what);
    }
  }
  free(hdr);
  free(sgf);
}

/* ------------------------------------------------------------------ */
/* A backslash at the very end                                         */

static void test_trailing_backslash(void **state) {
  static const char *const ins[] = {"(;C[abc\\", "(;C[\\",     "(;C[abc]\\",
                                    "(;C\\",     "\\",         "(;C[a\\\\",
                                    "(;C[a\\\r", "(;C[a\\\r\n"};
  size_t i;
  (void)state;
  for (i = 0; i < sizeof ins / sizeof ins[0]; i++)
    check_plain(ins[i], strlen(ins[i]), ins[i]);
  /* the raw value keeps the backslash; the value is closed at the end */
  expect_raw("(;C[abc\\", 8, "abc\\", 4, 0);
  {
    sgf_callbacks cb = count_callbacks();
    cnt c;
    sgf_parser *p;
    memset(&c, 0, sizeof c);
    p = sgf_parser_create(&cb, &c, NULL);
    assert_non_null(p);
    assert_int_equal(sgf_parser_feed(p, "(;C[abc\\", 8, NULL), SGF_OK);
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    assert_int_equal(c.by_code[SGF_DIAG_UNCLOSED_VALUE], 1);
    assert_int_equal(c.first[SGF_DIAG_UNCLOSED_VALUE].pos.offset, 8);
    assert_int_equal(c.first[SGF_DIAG_UNCLOSED_VALUE].mark.offset, 3);
    assert_int_equal(c.value_end, 1);
    assert_int_equal(c.tree_end, 1);
    sgf_parser_destroy(p);
  }
}

/* ------------------------------------------------------------------ */
/* Linear work on repetitive damage                                    */

static void test_linear_damage(void **state) {
  /* Patterns that each cost a diagnostic or a repair; doubling the input
   * must not more than double the events. */
  static const struct {
    const char *prefix;
    int fill;
    const char *suffix;
  } pats[] = {
      {"(;", ')', ""},      /* extra parens */
      {"(;", '[', ""},      /* an orphan value opened, never closed */
      {"(;C[x]", '(', ""},  /* nested until the limit */
      {"", '#', "(;)"},     /* junk before */
      {"(;)", 'z', ""},     /* junk after */
      {"(;", 'a', ""},      /* lowercase identifier, over the limit */
      {"(;C", ' ', "[x])"}, /* whitespace before the value */
      {"(;", '\0', ")"},    /* NULs */
      {"(;C[", '\\', "])"}, /* escapes */
      {"(", '\r', ";)"},    /* line breaks */
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof pats / sizeof pats[0]; i++) {
    uint64_t ev[2];
    int k;
    for (k = 0; k < 2; k++) {
      gen g = gen_make(pats[i].prefix, pats[i].fill, (uint64_t)50000 << k,
                       pats[i].suffix);
      hrun h;
      hrun_go(&h, &g, 4096, 0, 0);
      ev[k] = events(&h.c);
      hrun_end(&h);
    }
    if (ev[1] > 2 * ev[0] + 16) {
      print_error("pattern %zu: %" PRIu64 " events, %" PRIu64
                  " at twice the size\n",
                  i, ev[0], ev[1]);
      fail();
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_huge_value_core),
      cmocka_unit_test(test_huge_value_reader),
      cmocka_unit_test(test_million_parens),
      cmocka_unit_test(test_million_parens_skipped),
      cmocka_unit_test(test_million_implicit),
      cmocka_unit_test(test_many_nodes),
      cmocka_unit_test(test_huge_ident),
      cmocka_unit_test(test_every_byte),
      cmocka_unit_test(test_invalid_utf8),
      cmocka_unit_test(test_broken_dbcs),
      cmocka_unit_test(test_nul_bytes),
      cmocka_unit_test(test_truncation),
      cmocka_unit_test(test_trailing_backslash),
      cmocka_unit_test(test_linear_damage),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
