/* fuzz_value.c - libFuzzer target: the typed values (sgfstream/value.h).
 *
 * Input: byte 0 picks a built-in property (so every value type, compose
 * and shape is reached), bytes 1-2 the board (1..52 each way), the rest
 * is one raw value. Checks: decoding never crashes and reports an offset
 * within the value; what decodes encodes (a Real only within the
 * documented range), the encoding decodes to the same typed value, and
 * encoding that again gives the same bytes (decode -> encode -> decode
 * is stable); the text decoder fed in two pieces equals the whole; a
 * point list value's iterator yields only points on the board, and the
 * points compress to rectangles that cover them exactly.
 * Build: ./configure CC=clang --enable-fuzzers && make fuzz */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sgfstream.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FAIL(msg)                             \
  do {                                        \
    fprintf(stderr, "fuzz_value: %s\n", msg); \
    __builtin_trap();                         \
  } while (0)

static int is_text(int t) { return t == SGF_VT_TEXT || t == SGF_VT_SIMPLETEXT; }

/* Replace raw text slices by their decoded text (in buf, 2 parts). */
static void decode_texts(sgf_typed_value *v, char *buf, size_t half) {
  int i;
  for (i = 0; i <= v->composed; i++) {
    sgf_vpart *p = &v->part[i];
    if (!is_text(p->type)) continue;
    p->u.text.len =
        sgf_text_decode(p->u.text.at, p->u.text.len, buf + i * half,
                        p->type == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE : 0);
    p->u.text.at = buf + i * half;
  }
}

static int same_part(const sgf_vpart *a, const sgf_vpart *b, int rect) {
  if (a->type != b->type) return 0;
  switch (a->type) {
    case SGF_VT_NONE:
      return 1;
    case SGF_VT_NUMBER:
      return a->u.number == b->u.number;
    case SGF_VT_REAL:
      return a->u.real == b->u.real;
    case SGF_VT_DOUBLE:
      return a->u.dbl == b->u.dbl;
    case SGF_VT_COLOR:
      return a->u.color == b->u.color;
    case SGF_VT_MOVE:
      return a->u.move.pass == b->u.move.pass &&
             (a->u.move.pass || (a->u.move.pt.x == b->u.move.pt.x &&
                                 a->u.move.pt.y == b->u.move.pt.y));
    case SGF_VT_POINT:
    case SGF_VT_STONE:
      if (rect) return memcmp(&a->u.rect, &b->u.rect, sizeof a->u.rect) == 0;
      return a->u.point.x == b->u.point.x && a->u.point.y == b->u.point.y;
    default:
      return a->u.text.len == b->u.text.len &&
             memcmp(a->u.text.at, b->u.text.at, a->u.text.len) == 0;
  }
}

/* A Real the encoder may refuse (documented range). */
static int real_out_of_range(const sgf_typed_value *v) {
  int i;
  for (i = 0; i <= v->composed; i++) {
    double r = v->part[i].u.real, a = r < 0 ? -r : r;
    if (v->part[i].type == SGF_VT_REAL && (a >= 1e15 || (a != 0 && a < 1e-15)))
      return 1;
  }
  return 0;
}

static void check_points(const sgf_board *b, const char *raw, size_t len) {
  static unsigned char set[52 * 52];
  static sgf_rect rects[52 * 52];
  sgf_point_iter it;
  sgf_point pt;
  size_t off = 0, n = 0, cells = (size_t)(b->width * b->height), i;
  int r, k;
  memset(set, 0, cells);
  sgf_point_iter_init(&it, b, raw, len, SGF_PTS_EMPTY_OK);
  while ((r = sgf_point_iter_next(&it, &pt, &off)) == 1) {
    if (pt.x < 0 || pt.y < 0 || pt.x >= b->width || pt.y >= b->height)
      FAIL("iterator yielded a point off the board");
    if (++n > cells) FAIL("iterator yielded more points than the board has");
    set[pt.y * b->width + pt.x] = 1;
  }
  if (r < 0 && off > len) FAIL("iterator error offset beyond the value");
  k = sgf_points_compress(b, set, rects, cells);
  if (k < 0) FAIL("compress failed with room for every point");
  for (i = 0; i < (size_t)k; i++) {
    int x, y;
    for (y = rects[i].a.y; y <= rects[i].b.y; y++)
      for (x = rects[i].a.x; x <= rects[i].b.x; x++) n--;
  }
  if (n != 0) FAIL("rectangles do not cover the points exactly");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char t1[2 * 4096], t2[2 * 4096], enc1[8300], enc2[8300];
  const sgf_propdef *def = NULL;
  sgf_typed_value v, w;
  sgf_board b;
  const char *raw;
  size_t len, off = 0;
  int rc, k1, k2, id, i;
  if (size < 3 || size > 3 + 4096) return 0;
  id = 1 + data[0] % (SGF_PROP_BUILTIN_MAX_ - 1);
  /* Find the definition with that id (the table is small). */
  for (i = 0; i < 26 * 27 && !def; i++) {
    char ident[2] = {(char)('A' + i / 27), (char)('A' + i % 27 - 1)};
    def = sgf_prop_lookup(NULL, ident, i % 27 ? 2 : 1);
    if (def && def->id != id) def = NULL;
  }
  if (!def) FAIL("a built-in id has no identifier");
  b.width = 1 + data[1] % 52;
  b.height = data[2] & 0x80 ? b.width : 1 + data[2] % 52;
  raw = (const char *)data + 3;
  len = size - 3;

  /* Text in two pieces equals the whole. */
  {
    sgf_text_decoder d;
    size_t cut = len ? data[2] % (len + 1) : 0, n1, n2;
    n1 = sgf_text_decode(raw, len, t1, SGF_TEXT_SIMPLE);
    sgf_text_decoder_init(&d, SGF_TEXT_SIMPLE);
    n2 = sgf_text_decoder_feed(&d, raw, cut, t2);
    n2 += sgf_text_decoder_feed(&d, raw + cut, len - cut, t2 + n2);
    if (n1 != n2 || memcmp(t1, t2, n1) != 0)
      FAIL("text decoded in pieces differs from the whole");
  }
  if (def->type == SGF_VT_POINT || def->type == SGF_VT_STONE)
    check_points(&b, raw, len);

  rc = sgf_value_decode(NULL, def, &b, raw, len, &v, &off);
  if (rc < 0) {
    if (rc != SGF_ESYNTAX && rc != SGF_ERANGE) FAIL("unexpected code");
    if (off > len) FAIL("error offset beyond the value");
    return 0;
  }
  decode_texts(&v, t1, sizeof t1 / 2);
  k1 = sgf_value_encode(NULL, def, &b, &v, data[1] & 1 ? SGF_MOVE_PASS_TT : 0,
                        enc1, sizeof enc1, &off);
  if (k1 < 0) {
    if (k1 == SGF_ERANGE && real_out_of_range(&v)) return 0;
    /* text with a NUL byte (only a raw NUL decodes to one) is refused by
     * the text encoder (value.h, ONE HOME), nothing written */
    if (k1 == SGF_ERANGE && memchr(raw, '\0', len) != NULL) return 0;
    FAIL("a decoded value does not encode");
  }
  rc = sgf_value_decode(NULL, def, &b, enc1, (size_t)k1, &w, &off);
  if (rc < 0) FAIL("an encoded value does not decode");
  decode_texts(&w, t2, sizeof t2 / 2);
  if (v.composed != w.composed) FAIL("compose changed");
  for (i = 0; i <= v.composed; i++) {
    int rect = !v.composed && def->shape != SGF_VS_SINGLE;
    if (!same_part(&v.part[i], &w.part[i], rect))
      FAIL("decode -> encode -> decode changed the value");
  }
  k2 = sgf_value_encode(NULL, def, &b, &w, data[1] & 1 ? SGF_MOVE_PASS_TT : 0,
                        enc2, sizeof enc2, &off);
  if (k2 != k1 || memcmp(enc1, enc2, (size_t)k1) != 0)
    FAIL("encoding is not stable");
  return 0;
}
