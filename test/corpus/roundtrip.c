/* roundtrip.c - parse -> write -> parse gives the same events.
 *
 *   test/corpus/roundtrip [-v] [FILE]...      (no FILE: names on stdin, one a
 * line)
 *
 * For each file: a lenient parse records the event stream A (tree begin /
 * end, node, property with its normalized identifier, each value's raw
 * bytes merged) while copying the events to two streaming writers, one
 * compact and one readable. Each output is then parsed in STRICT mode,
 * recording stream B, and must give no diagnostic at all and B == A, where
 * A is taken modulo the writer's documented normalization of invalid raw
 * bytes (NUL bytes dropped, a lone backslash ending a value doubled, an
 * unescaped ']' escaped).
 * Also checked:
 *   - the parser connected straight to a writer by sgf_writer_callbacks()
 *     (no value-begin or property-end events) and fed in chunks of 7
 *     bytes (values then arrive in many slices, split between backslash
 *     and escaped byte) writes the same bytes as the recorder's writer;
 *   - writing is idempotent: the strict parse of the compact output,
 *     written compact again, gives the same bytes;
 *   - the tree writer: the input parsed into a collection of trees
 *     (sgf_collection_parse) and written with sgf_writer_write_collection
 *     parses in strict mode with no diagnostic, and gives the same bytes
 *     as the streaming writer's output put through the same tree round
 *     (both layouts). Not the streaming output itself: a tree does not
 *     keep a variation that is its parent's only child apart from the
 *     parent's sequence, so "(;B[aa](;W[bb]))" comes out of a tree as
 *     "(;B[aa];W[bb])", an equivalent game tree.
 * A file whose lenient parse stops on a fatal error (not SGF: UTF-16, a
 * limit) is counted as skipped; `sgf fmt` refuses those too.
 *
 * Exit status 0 if every file passed, 1 if one failed, 2 on usage or I/O
 * errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

#include "testutil.h"

/* ------------------------------------------------------------------ */
/* Writer sink into a byte buffer (tools/common/bytebuf.h)              */

static int buf_sink(void *ctx, const char *d, size_t n) {
  bytebuf_add(ctx, d, n);
  return (int)n;
}

/* ------------------------------------------------------------------ */
/* The recorder: events as bytes.                                      */
/*   'b' tree-begin, 'e' tree-end, 'n' node,                           */
/*   'p' IDENT '\0', 'v' LEN(8 bytes) RAW   (one per value, merged)    */

typedef struct rec {
  bytebuf ev;
  size_t vstart;    /* offset of the open value's length field */
  int normalize;    /* apply the writer's normalization to values */
  long diags;       /* diagnostics seen */
  sgf_diag first;   /* the first one */
  sgf_writer *w[2]; /* writers the events are copied to (or NULL) */
} rec;

static int r_tree_begin(sgf_parser *p, void *u) {
  rec *r = u;
  int i;
  (void)p;
  bytebuf_add(&r->ev, "b", 1);
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_tree_begin(r->w[i])) return SGF_ABORT;
  return SGF_CONTINUE;
}

static int r_tree_end(sgf_parser *p, void *u) {
  rec *r = u;
  int i;
  (void)p;
  bytebuf_add(&r->ev, "e", 1);
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_tree_end(r->w[i])) return SGF_ABORT;
  return SGF_CONTINUE;
}

static int r_node(sgf_parser *p, void *u) {
  rec *r = u;
  int i;
  (void)p;
  bytebuf_add(&r->ev, "n", 1);
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_node(r->w[i])) return SGF_ABORT;
  return SGF_CONTINUE;
}

static int r_property(sgf_parser *p, void *u, const char *id, size_t n) {
  rec *r = u;
  int i;
  (void)p;
  bytebuf_add(&r->ev, "p", 1);
  bytebuf_add(&r->ev, id, n);
  bytebuf_add(&r->ev, "", 1);
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_property(r->w[i], id, n)) return SGF_ABORT;
  return SGF_CONTINUE;
}

static int r_value_begin(sgf_parser *p, void *u) {
  rec *r = u;
  uint64_t zero = 0;
  int i;
  (void)p;
  bytebuf_add(&r->ev, "v", 1);
  r->vstart = r->ev.len;
  bytebuf_add(&r->ev, &zero, sizeof zero);
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_value_begin(r->w[i])) return SGF_ABORT;
  return SGF_CONTINUE;
}

static int r_value_data(sgf_parser *p, void *u, const char *at, size_t n) {
  rec *r = u;
  int i;
  (void)p;
  bytebuf_add(&r->ev, at, n);
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_value_data(r->w[i], at, n)) return SGF_ABORT;
  return SGF_CONTINUE;
}

/* The writer's documented normalization (tu_writer_normalize) of the
 * value recorded from start on. */
static void normalize_value(bytebuf *b, size_t start) {
  size_t n = b->len - start;
  char *v = malloc(n ? n : 1), *o = malloc(2 * n + 1);
  if (v == NULL || o == NULL) abort();
  memcpy(v, b->p + start, n);
  b->len = start;
  bytebuf_add(b, o, tu_writer_normalize(v, n, o));
  free(v);
  free(o);
}

static int r_value_end(sgf_parser *p, void *u) {
  rec *r = u;
  uint64_t n;
  int i;
  (void)p;
  if (r->normalize) normalize_value(&r->ev, r->vstart + 8);
  n = r->ev.len - r->vstart - 8;
  memcpy(r->ev.p + r->vstart, &n, sizeof n);
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_value_end(r->w[i])) return SGF_ABORT;
  return SGF_CONTINUE;
}

static int r_property_end(sgf_parser *p, void *u) {
  rec *r = u;
  int i;
  (void)p;
  for (i = 0; i < 2; i++)
    if (r->w[i] && sgf_writer_property_end(r->w[i])) return SGF_ABORT;
  return SGF_CONTINUE;
}

static int r_diag(sgf_parser *p, void *u, const sgf_diag *d) {
  rec *r = u;
  (void)p;
  if (r->diags++ == 0) r->first = *d;
  return SGF_CONTINUE;
}

static const sgf_callbacks rec_cb = {sizeof(sgf_callbacks),
                                     r_tree_begin,
                                     r_tree_end,
                                     r_node,
                                     r_property,
                                     r_value_begin,
                                     r_value_data,
                                     r_value_end,
                                     r_property_end,
                                     r_diag,
                                     NULL,
                                     NULL,
                                     NULL};

/* Parse data (in chunks of `chunk` bytes, 0: at once) into r. Returns the
 * final status. */
static int parse(rec *r, const char *data, size_t len, unsigned flags,
                 size_t chunk) {
  sgf_options opt;
  sgf_parser *p;
  int st = SGF_OK;
  size_t off = 0;
  sgf_options_init(&opt);
  opt.flags = flags;
  p = sgf_parser_create(&rec_cb, r, &opt);
  if (p == NULL) {
    fprintf(stderr, "roundtrip: out of memory\n");
    exit(2);
  }
  while (st == SGF_OK && off < len) {
    size_t n = (chunk && len - off > chunk) ? chunk : len - off;
    st = sgf_parser_feed(p, data + off, n, NULL);
    off += n;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  sgf_parser_destroy(p);
  return st;
}

/* ------------------------------------------------------------------ */
/* Describing a difference                                             */

/* Print the event at *off of an event buffer and advance. */
static void show_event(const bytebuf *b, size_t *off) {
  char c = b->p[*off];
  (*off)++;
  if (c == 'p') {
    size_t n = strlen(b->p + *off);
    fprintf(stderr, "property %s", b->p + *off);
    *off += n + 1;
  } else if (c == 'v') {
    uint64_t n, i;
    memcpy(&n, b->p + *off, sizeof n);
    *off += 8;
    fprintf(stderr, "value \"");
    for (i = 0; i < n && i < 60; i++) {
      unsigned char ch = (unsigned char)b->p[*off + i];
      if (ch < 0x20 || ch > 0x7e || ch == '"')
        fprintf(stderr, "\\x%02x", ch);
      else
        fputc(ch, stderr);
    }
    fprintf(stderr, "%s\"", n > 60 ? "..." : "");
    *off += n;
  } else {
    fprintf(stderr, "%s",
            c == 'b'   ? "tree-begin"
            : c == 'e' ? "tree-end"
            : c == 'n' ? "node"
                       : "?");
  }
}

static void show_diff(const bytebuf *a, const bytebuf *b) {
  size_t i = 0, j = 0, nev = 0;
  /* walk both until the first event that differs */
  while (i < a->len && j < b->len) {
    size_t i0 = i, j0 = j, ia = i, jb = j;
    char c = a->p[i];
    if (c == 'p')
      ia += 1 + strlen(a->p + i + 1) + 1;
    else if (c == 'v') {
      uint64_t n;
      memcpy(&n, a->p + i + 1, 8);
      ia += 9 + n;
    } else
      ia++;
    c = b->p[j];
    if (c == 'p')
      jb += 1 + strlen(b->p + j + 1) + 1;
    else if (c == 'v') {
      uint64_t n;
      memcpy(&n, b->p + j + 1, 8);
      jb += 9 + n;
    } else
      jb++;
    if (ia - i0 != jb - j0 || memcmp(a->p + i0, b->p + j0, ia - i0) != 0) {
      fprintf(stderr, "    event %zu: expected ", nev);
      show_event(a, &i0);
      fprintf(stderr, "\n    event %zu: got      ", nev);
      show_event(b, &j0);
      fputc('\n', stderr);
      return;
    }
    i = ia;
    j = jb;
    nev++;
  }
  fprintf(stderr, "    after %zu events: %s\n", nev,
          i < a->len ? "the written file has fewer events"
                     : "the written file has more events");
}

/* ------------------------------------------------------------------ */

static int verbose;
static long nfiles, nok, nfail, nskip, nempty;

static sgf_writer *new_writer(bytebuf *out, sgf_layout layout) {
  sgf_writer_options wo;
  sgf_writer *w;
  sgf_writer_options_init(&wo);
  wo.layout = layout;
  w = sgf_writer_create(buf_sink, out, &wo);
  if (w == NULL) {
    fprintf(stderr, "roundtrip: out of memory\n");
    exit(2);
  }
  return w;
}

/* Parse data into a collection and write it with the tree writer. */
static int tree_write(const char *data, size_t len, sgf_layout layout,
                      bytebuf *out) {
  sgf_diag err;
  sgf_collection *col = sgf_collection_parse(data, len, NULL, &err);
  sgf_writer *w;
  int rc;
  if (col == NULL) return -1;
  w = new_writer(out, layout);
  rc = sgf_writer_write_collection(w, col) || sgf_writer_finish(w) ? -1 : 0;
  sgf_writer_destroy(w);
  sgf_collection_free(col);
  return rc;
}

static void fail(const char *path, const char *what) {
  fprintf(stderr, "FAIL %s: %s\n", path, what);
  nfail++;
}

/* Strict parse of a written output: no diagnostic, events == a. */
static int check_output(const char *path, const char *layout,
                        const bytebuf *out, const bytebuf *a) {
  rec r;
  int st;
  char msg[200];
  memset(&r, 0, sizeof r);
  st = parse(&r, out->p, out->len, SGF_OPT_STRICT, 0);
  if (r.diags || st != SGF_OK) {
    snprintf(msg, sizeof msg,
             "%s output: strict parse gives %s (%ld diagnostics) at "
             "%llu:%llu",
             layout, r.diags ? sgf_diag_name(r.first.code) : "an error",
             r.diags, (unsigned long long)r.first.pos.line,
             (unsigned long long)r.first.pos.column);
    fail(path, msg);
    free(r.ev.p);
    return -1;
  }
  if (r.ev.len != a->len || memcmp(r.ev.p, a->p, a->len) != 0) {
    snprintf(msg, sizeof msg, "%s output: events differ", layout);
    fail(path, msg);
    show_diff(a, &r.ev);
    free(r.ev.p);
    return -1;
  }
  free(r.ev.p);
  return 0;
}

static void one_file(const char *path, bytebuf *in) {
  rec a, c;
  bytebuf compact = {0}, readable = {0}, chunked = {0}, again = {0};
  int st;
  nfiles++;
  if (tu_read_file(path, in) != 0) {
    fprintf(stderr, "roundtrip: %s: cannot read\n", path);
    nfail++;
    return;
  }
  memset(&a, 0, sizeof a);
  a.normalize = 1;
  a.w[0] = new_writer(&compact, SGF_LAYOUT_COMPACT);
  a.w[1] = new_writer(&readable, SGF_LAYOUT_READABLE);
  st = parse(&a, in->p, in->len, 0, 0);
  if (st != SGF_OK) {
    if (verbose)
      fprintf(stderr, "skip %s: lenient parse stops (%s)\n", path,
              a.diags ? sgf_diag_name(a.first.code) : "?");
    nskip++;
    goto done;
  }
  if (sgf_writer_finish(a.w[0]) || sgf_writer_finish(a.w[1])) {
    fail(path, sgf_strerror(sgf_writer_status(a.w[0])));
    goto done;
  }
  if (a.ev.len == 0) { /* no game tree: nothing is written */
    if (compact.len || readable.len)
      fail(path, "no game tree, but output written");
    else
      nempty++, nok++;
    goto done;
  }
  if (check_output(path, "compact", &compact, &a.ev) ||
      check_output(path, "readable", &readable, &a.ev))
    goto done;

  /* The parser connected straight to the writer (sgf_writer_callbacks,
   * sgf_writer_value_callbacks, and sgf_writer_copy_callbacks as `sgf
   * fmt` does: move runs too), fed in 7-byte chunks and whole, writes the
   * same bytes, compact and (the copy callbacks) readable. */
  {
    static const char *const names[3] = {"callbacks", "value callbacks",
                                         "copy callbacks"};
    int way;
    for (way = 0; way < 8; way++) {
      const int kind = way % 4 == 3 ? 2 : way % 4; /* 3: copy, readable */
      const int readable_way = way % 4 == 3;
      const bytebuf *want = readable_way ? &readable : &compact;
      sgf_callbacks cb;
      sgf_writer *w;
      sgf_parser *p;
      size_t off, step = way >= 4 ? in->len + 1 : 7;
      chunked.len = 0;
      w = new_writer(&chunked,
                     readable_way ? SGF_LAYOUT_READABLE : SGF_LAYOUT_COMPACT);
      sgf_callbacks_init(&cb);
      if (kind == 2)
        sgf_writer_copy_callbacks(&cb);
      else if (kind == 1)
        sgf_writer_value_callbacks(&cb);
      else
        sgf_writer_callbacks(&cb);
      p = sgf_parser_create(&cb, w, NULL);
      if (p == NULL) exit(2);
      for (off = 0; off < in->len; off += step)
        sgf_parser_feed(p, in->p + off,
                        in->len - off < step ? in->len - off : step, NULL);
      sgf_parser_finish(p);
      sgf_writer_finish(w);
      sgf_parser_destroy(p);
      sgf_writer_destroy(w);
      if (chunked.len != want->len ||
          memcmp(chunked.p, want->p, want->len) != 0) {
        char why[96];
        snprintf(why, sizeof why,
                 "parser -> writer %s (%s) writes different bytes", names[kind],
                 readable_way ? "readable" : "compact");
        fail(path, why);
        goto done;
      }
    }
  }

  /* The tree writer agrees with the streaming writer (modulo the tree). */
  {
    int layout;
    for (layout = 0; layout < 2; layout++) {
      const bytebuf *streamed = layout ? &readable : &compact;
      bytebuf t1 = {0}, t2 = {0};
      const char *why = NULL;
      rec r;
      if (tree_write(in->p, in->len, (sgf_layout)layout, &t1) ||
          tree_write(streamed->p, streamed->len, (sgf_layout)layout, &t2))
        why = "tree writer failed";
      else if (t1.len != t2.len || memcmp(t1.p, t2.p, t1.len) != 0)
        why = "tree writer: the input's trees and the output's differ";
      if (why == NULL) {
        memset(&r, 0, sizeof r);
        if (parse(&r, t1.p, t1.len, SGF_OPT_STRICT, 0) != SGF_OK || r.diags)
          why = "tree writer: output does not parse cleanly in strict mode";
        free(r.ev.p);
      }
      free(t1.p);
      free(t2.p);
      if (why) {
        fail(path, why);
        goto done;
      }
    }
  }

  /* Idempotence. */
  memset(&c, 0, sizeof c);
  c.w[0] = new_writer(&again, SGF_LAYOUT_COMPACT);
  parse(&c, compact.p, compact.len, SGF_OPT_STRICT, 0);
  sgf_writer_finish(c.w[0]);
  sgf_writer_destroy(c.w[0]);
  free(c.ev.p);
  if (again.len != compact.len ||
      memcmp(again.p, compact.p, compact.len) != 0) {
    fail(path, "writing the written file again changes it");
    goto done;
  }
  nok++;
  if (verbose) fprintf(stderr, "ok %s\n", path);
done:
  sgf_writer_destroy(a.w[0]);
  sgf_writer_destroy(a.w[1]);
  free(a.ev.p);
  free(compact.p);
  free(readable.p);
  free(chunked.p);
  free(again.p);
}

int main(int argc, char **argv) {
  bytebuf in = {0};
  int i = 1;
  if (i < argc && strcmp(argv[i], "-v") == 0) {
    verbose = 1;
    i++;
  }
  if (i < argc) {
    for (; i < argc; i++) one_file(argv[i], &in);
  } else {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
      if (line[n - 1] == '\n') line[--n] = '\0';
      if (n > 0) one_file(line, &in);
    }
    free(line);
  }
  free(in.p);
  printf(
      "roundtrip: %ld files: %ld passed (%ld without a game tree), "
      "%ld failed, %ld skipped (fatal parse error)\n",
      nfiles, nok, nempty, nfail, nskip);
  return nfail ? 1 : 0;
}
