/* value.c - unit tests of the property table and the typed values
 * (sgfstream/value.h): every value type decoded and encoded, with the
 * offsets of bad bytes; board sizes up to 52 and rectangular; the pass
 * as [] and as [tt]; compressed point lists read and written; text per
 * FF[4]; the coordinate conversions; the fixed buffer for on_value's
 * pieces; tables and registration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sgfstream.h>

static const sgf_board B19 = {19, 19};
static const sgf_board B20 = {20, 20};
static const sgf_board B52 = {52, 52};

/* Decoding s with f fails with code at offset off. */
#define EXPECT_ERR(call, code, off)   \
  do {                                \
    size_t eo_ = 12345;               \
    size_t *err_off = &eo_;           \
    assert_int_equal((call), (code)); \
    assert_int_equal(eo_, (off));     \
  } while (0)

#define S(lit) lit, sizeof(lit) - 1

/* ------------------------------------------------------------------ */
/* The table                                                           */

static void test_table_builtins(void **st) {
  static const struct {
    const char *id;
    int prop, type, type2, shape, cat;
    unsigned flags;
  } want[] = {
      {"B", SGF_PROP_B, SGF_VT_MOVE, 0, SGF_VS_SINGLE, SGF_PC_MOVE, 0},
      {"AB", SGF_PROP_AB, SGF_VT_STONE, 0, SGF_VS_LIST, SGF_PC_SETUP, 0},
      {"DD", SGF_PROP_DD, SGF_VT_POINT, 0, SGF_VS_ELIST, SGF_PC_MARKUP,
       SGF_PF_INHERIT},
      {"PM", SGF_PROP_PM, SGF_VT_NUMBER, 0, SGF_VS_SINGLE, SGF_PC_MISC,
       SGF_PF_INHERIT},
      {"VW", SGF_PROP_VW, SGF_VT_POINT, 0, SGF_VS_ELIST, SGF_PC_MISC,
       SGF_PF_INHERIT},
      {"SZ", SGF_PROP_SZ, SGF_VT_NUMBER, SGF_VT_NUMBER, SGF_VS_SINGLE,
       SGF_PC_ROOT, SGF_PF_COMPOSE_OPT},
      {"LB", SGF_PROP_LB, SGF_VT_POINT, SGF_VT_SIMPLETEXT, SGF_VS_LIST,
       SGF_PC_MARKUP, 0},
      {"FG", SGF_PROP_FG, SGF_VT_NUMBER, SGF_VT_SIMPLETEXT, SGF_VS_SINGLE,
       SGF_PC_MISC, SGF_PF_EMPTY_OK},
      {"KM", SGF_PROP_KM, SGF_VT_REAL, 0, SGF_VS_SINGLE, SGF_PC_GAME_INFO,
       SGF_PF_GO},
      {"GC", SGF_PROP_GC, SGF_VT_TEXT, 0, SGF_VS_SINGLE, SGF_PC_GAME_INFO, 0},
      {"BL", SGF_PROP_BL, SGF_VT_REAL, 0, SGF_VS_SINGLE, SGF_PC_TIMING, 0},
      {"L", SGF_PROP_L, SGF_VT_POINT, 0, SGF_VS_LIST, SGF_PC_MARKUP,
       SGF_PF_OLD},
      {"OM", SGF_PROP_OM, SGF_VT_NUMBER, 0, SGF_VS_SINGLE, SGF_PC_TIMING,
       SGF_PF_OLD},
      {"EX", SGF_PROP_EX, SGF_VT_MOVE, 0, SGF_VS_SINGLE, SGF_PC_ANNOTATION,
       SGF_PF_OLD},
  };
  size_t i;
  int id;
  (void)st;
  for (i = 0; i < sizeof want / sizeof want[0]; i++) {
    const sgf_propdef *d =
        sgf_prop_lookup(NULL, want[i].id, strlen(want[i].id));
    assert_non_null(d);
    assert_string_equal(d->ident, want[i].id);
    assert_int_equal(d->id, want[i].prop);
    assert_int_equal(d->type, want[i].type);
    assert_int_equal(d->type2, want[i].type2);
    assert_int_equal(d->shape, want[i].shape);
    assert_int_equal(d->category, want[i].cat);
    assert_int_equal(d->flags, want[i].flags);
    assert_non_null(d->description);
  }
  /* Every built-in is found by its own identifier, with its own id, and
   * through a table as without one. */
  {
    sgf_prop_table *t = sgf_prop_table_create(NULL);
    assert_non_null(t);
    for (id = 1; id < SGF_PROP_BUILTIN_MAX_; id++) {
      char ident[3] = {0};
      int n = 0;
      const sgf_propdef *d = NULL;
      /* Find the definition with this id by trying all identifiers. */
      for (n = 0; n < 26 * 27 && !d; n++) {
        ident[0] = (char)('A' + n / 27);
        ident[1] = (char)(n % 27 ? 'A' + n % 27 - 1 : 0);
        d = sgf_prop_lookup(NULL, ident, strlen(ident));
        if (d && d->id != id) d = NULL;
      }
      assert_non_null(d);
      assert_string_equal(d->ident, ident);
      assert_non_null(sgf_vtype_name(NULL, d->type));
      assert_non_null(sgf_pcat_name(d->category));
      assert_ptr_not_equal(sgf_prop_lookup(t, ident, strlen(ident)), NULL);
      assert_int_equal(sgf_prop_lookup(t, ident, strlen(ident))->id, id);
    }
    sgf_prop_table_destroy(t);
  }
  /* Unknown stays unknown. */
  assert_null(sgf_prop_lookup(NULL, S("XY")));
  assert_null(sgf_prop_lookup(NULL, S("ZZZ")));
  assert_null(sgf_prop_lookup(NULL, S("b")));
  assert_null(sgf_prop_lookup(NULL, S("")));
  assert_null(sgf_prop_lookup(NULL, S("B1")));
  assert_null(sgf_prop_lookup(NULL, S("[")));
  assert_string_equal(sgf_vtype_name(NULL, SGF_VT_SIMPLETEXT), "simpletext");
  assert_string_equal(sgf_pcat_name(SGF_PC_GAME_INFO), "game-info");
  assert_null(sgf_vtype_name(NULL, 99));
}

/* Every identifier of 1 and 2 bytes (all 256 and 65536 byte values) and
 * some of 3: found exactly when it is uppercase letters naming a
 * definition, the definition then bearing that identifier; the
 * built-ins found this way are all of them, once each; through a table
 * with registered one-, two- and three-letter identifiers the same, plus
 * those; the inline sgf_prop_builtin_id the same ids. Guards the one-
 * and two-letter path of sgf_prop_lookup. */
static void test_lookup_all_short(void **st) {
  sgf_prop_table *t = sgf_prop_table_create(NULL);
  sgf_propdef d;
  static unsigned char seen[SGF_PROP_BUILTIN_MAX_];
  int nfound = 0, user[3], k;
  unsigned v;
  size_t len;
  (void)st;
  assert_non_null(t);
  sgf_propdef_init(&d);
  d.type = SGF_VT_NUMBER;
  d.category = SGF_PC_MISC;
  strcpy(d.ident, "J");
  user[0] = sgf_prop_table_add(t, &d);
  strcpy(d.ident, "ZZ");
  user[1] = sgf_prop_table_add(t, &d);
  strcpy(d.ident, "ABC");
  user[2] = sgf_prop_table_add(t, &d);
  for (k = 0; k < 3; k++) assert_true(user[k] >= SGF_PROP_USER);
  memset(seen, 0, sizeof seen);
  for (len = 0; len <= 3; len++)
    for (v = 0; v < (len == 0 ? 1u : len == 1 ? 256u : 65536u); v++) {
      char id[3];
      const sgf_propdef *b, *u;
      int upper = 1;
      size_t i;
      id[0] = (char)(len == 1 ? v : v >> 8);
      id[1] = (char)(v & 255);
      id[2] = 'C';
      for (i = 0; i < len; i++) upper = upper && id[i] >= 'A' && id[i] <= 'Z';
      b = sgf_prop_lookup(NULL, id, len);
      u = sgf_prop_lookup(t, id, len);
      assert_int_equal(sgf_prop_builtin_id(id, len), b ? b->id : 0);
      assert_int_equal(sgf_prop_slot(id, len) >= 0, upper && len && len <= 2);
      if (b) {
        assert_true(upper && len <= 2);
        assert_int_equal(strlen(b->ident), len);
        assert_memory_equal(b->ident, id, len);
        assert_true(b->id > 0 && b->id < SGF_PROP_BUILTIN_MAX_);
        if (len) seen[b->id]++;
        nfound += len > 0 && len < 3;
        assert_non_null(u);
        assert_int_equal(u->id, b->id);
      } else if (u) {
        assert_true(upper);
        assert_int_equal(strlen(u->ident), len);
        assert_memory_equal(u->ident, id, len);
        assert_true(u->id == user[0] || u->id == user[1] || u->id == user[2]);
      }
    }
  assert_int_equal(nfound, SGF_PROP_BUILTIN_MAX_ - 1);
  for (k = 1; k < SGF_PROP_BUILTIN_MAX_; k++) assert_int_equal(seen[k], 1);
  assert_int_equal(sgf_prop_lookup(t, S("J"))->id, user[0]);
  assert_int_equal(sgf_prop_lookup(t, S("ZZ"))->id, user[1]);
  assert_int_equal(sgf_prop_lookup(t, S("ABC"))->id, user[2]);
  assert_null(sgf_prop_lookup(NULL, S("J")));
  assert_null(sgf_prop_lookup(NULL, S("ABC")));
  assert_null(sgf_prop_lookup(t, NULL, 1));
  assert_int_equal(sgf_prop_builtin_id(NULL, 1), 0);
  sgf_prop_table_destroy(t);
}

/* A registered type: a digit string of even length. */
static int check_even(void *ctx, const char *raw, size_t len, size_t *off) {
  size_t i;
  (*(int *)ctx)++;
  for (i = 0; i < len; i++)
    if (raw[i] < '0' || raw[i] > '9') {
      if (off) *off = i;
      return SGF_ESYNTAX;
    }
  if (len % 2) {
    if (off) *off = 0;
    return SGF_ERANGE;
  }
  return 0;
}

static void test_table_register(void **st) {
  sgf_prop_table *t1 = sgf_prop_table_create(NULL);
  sgf_prop_table *t2 = sgf_prop_table_create(NULL);
  sgf_propdef d;
  sgf_typed_value v;
  const sgf_propdef *got;
  int calls = 0, even, id1, id2;
  char out[64];
  size_t off = 0;
  (void)st;
  assert_non_null(t1);
  assert_non_null(t2);
  even = sgf_prop_table_add_type(t1, "even", check_even, &calls);
  assert_int_equal(even, SGF_VT_USER);
  assert_string_equal(sgf_vtype_name(t1, even), "even");
  assert_null(sgf_vtype_name(t2, even));

  sgf_propdef_init(&d);
  strcpy(d.ident, "XY");
  d.type = even;
  d.category = SGF_PC_MISC;
  id1 = sgf_prop_table_add(t1, &d);
  assert_int_equal(id1, SGF_PROP_USER);
  strcpy(d.ident, "MULTIGOGM");
  d.type = SGF_VT_NUMBER;
  id2 = sgf_prop_table_add(t1, &d);
  assert_int_equal(id2, SGF_PROP_USER + 1);
  /* Redefining a built-in keeps its id. */
  strcpy(d.ident, "KM");
  d.type = SGF_VT_SIMPLETEXT;
  assert_int_equal(sgf_prop_table_add(t1, &d), SGF_PROP_KM);
  /* Invalid definitions. */
  strcpy(d.ident, "Xy");
  assert_int_equal(sgf_prop_table_add(t1, &d), SGF_EINVAL);
  strcpy(d.ident, "Q");
  d.type = 77;
  assert_int_equal(sgf_prop_table_add(t1, &d), SGF_EINVAL);
  d.size = 0;
  d.type = SGF_VT_NUMBER;
  assert_int_equal(sgf_prop_table_add(t1, &d), SGF_EINVAL);

  got = sgf_prop_lookup(t1, S("XY"));
  assert_non_null(got);
  assert_int_equal(got->id, id1);
  got = sgf_prop_lookup(t1, S("MULTIGOGM"));
  assert_non_null(got);
  assert_int_equal(got->id, id2);
  assert_null(sgf_prop_lookup(t1, S("MULTIGOG")));
  assert_int_equal(sgf_prop_lookup(t1, S("KM"))->type, SGF_VT_SIMPLETEXT);
  /* The other table and the built-ins are untouched. */
  assert_null(sgf_prop_lookup(t2, S("XY")));
  assert_null(sgf_prop_lookup(t2, S("MULTIGOGM")));
  assert_int_equal(sgf_prop_lookup(t2, S("KM"))->type, SGF_VT_REAL);
  assert_int_equal(sgf_prop_lookup(NULL, S("KM"))->type, SGF_VT_REAL);

  /* Values of the registered type go through its check. */
  got = sgf_prop_lookup(t1, S("XY"));
  assert_int_equal(sgf_value_decode(t1, got, &B19, S("1234"), &v, NULL), 0);
  assert_int_equal(v.part[0].type, even);
  assert_int_equal(v.part[0].u.text.len, 4);
  assert_int_equal(sgf_value_decode(t1, got, &B19, S("12a4"), &v, &off),
                   SGF_ESYNTAX);
  assert_int_equal(off, 2);
  assert_int_equal(sgf_value_decode(t1, got, &B19, S("123"), &v, &off),
                   SGF_ERANGE);
  assert_int_equal(sgf_value_decode(t1, got, &B19, S("1234"), &v, NULL), 0);
  assert_int_equal(
      sgf_value_encode(t1, got, &B19, &v, 0, out, sizeof out, NULL), 4);
  assert_memory_equal(out, "1234", 4);
  assert_true(calls >= 5);
  /* Without the table the type is unknown. */
  assert_int_equal(sgf_value_decode(NULL, got, &B19, S("12"), &v, NULL),
                   SGF_EINVAL);
  sgf_prop_table_destroy(t1);
  sgf_prop_table_destroy(t2);
}

/* ------------------------------------------------------------------ */
/* Scalars                                                             */

static void test_number(void **st) {
  int64_t n = 0;
  char out[24];
  static const int64_t samples[] = {0,       1,         -1,       19,
                                    1000000, INT64_MAX, INT64_MIN};
  size_t i;
  (void)st;
  assert_int_equal(sgf_number_decode(S("0"), &n, NULL), 0);
  assert_int_equal(n, 0);
  assert_int_equal(sgf_number_decode(S("+5"), &n, NULL), 0);
  assert_int_equal(n, 5);
  assert_int_equal(sgf_number_decode(S("-12"), &n, NULL), 0);
  assert_int_equal(n, -12);
  assert_int_equal(sgf_number_decode(S("9223372036854775807"), &n, NULL), 0);
  assert_true(n == INT64_MAX);
  assert_int_equal(sgf_number_decode(S("-9223372036854775808"), &n, NULL), 0);
  assert_true(n == INT64_MIN);
  EXPECT_ERR(sgf_number_decode(S(""), &n, err_off), SGF_ESYNTAX, 0);
  EXPECT_ERR(sgf_number_decode(S("-"), &n, err_off), SGF_ESYNTAX, 1);
  EXPECT_ERR(sgf_number_decode(S("12a"), &n, err_off), SGF_ESYNTAX, 2);
  EXPECT_ERR(sgf_number_decode(S(" 19"), &n, err_off), SGF_ESYNTAX, 0);
  EXPECT_ERR(sgf_number_decode(S("1 9"), &n, err_off), SGF_ESYNTAX, 1);
  EXPECT_ERR(sgf_number_decode(S("9223372036854775808"), &n, err_off),
             SGF_ERANGE, 18);
  EXPECT_ERR(sgf_number_decode(S("99999999999999999999x"), &n, err_off),
             SGF_ESYNTAX, 20);
  for (i = 0; i < sizeof samples / sizeof samples[0]; i++) {
    int k = sgf_number_encode(samples[i], out);
    assert_true(k > 0 && k <= 20);
    assert_int_equal(sgf_number_decode(out, (size_t)k, &n, NULL), 0);
    assert_true(n == samples[i]);
  }
  assert_int_equal(sgf_number_encode(-305, out), 4);
  assert_memory_equal(out, "-305", 4);
}

static void test_real(void **st) {
  double r = 0;
  char out[SGF_REAL_MAX];
  static const double samples[] = {6.5,   -0.5,    0.1,   7,
                                   1e-15, 123.456, -2.75, 999999999999999.9,
                                   0.3,   1.0 / 3};
  size_t i;
  int k;
  (void)st;
  assert_int_equal(sgf_real_decode(S("6.5"), &r, NULL), 0);
  assert_true(r == 6.5);
  assert_int_equal(sgf_real_decode(S("-0.5"), &r, NULL), 0);
  assert_true(r == -0.5);
  assert_int_equal(sgf_real_decode(S("+3"), &r, NULL), 0);
  assert_true(r == 3);
  assert_int_equal(sgf_real_decode(S("0.1"), &r, NULL), 0);
  assert_true(r == 0.1);
  EXPECT_ERR(sgf_real_decode(S("6."), &r, err_off), SGF_ESYNTAX, 2);
  EXPECT_ERR(sgf_real_decode(S(".5"), &r, err_off), SGF_ESYNTAX, 0);
  EXPECT_ERR(sgf_real_decode(S("1e3"), &r, err_off), SGF_ESYNTAX, 1);
  EXPECT_ERR(sgf_real_decode(S("6,5"), &r, err_off), SGF_ESYNTAX, 1);
  EXPECT_ERR(sgf_real_decode(S("6.5.1"), &r, err_off), SGF_ESYNTAX, 3);
  EXPECT_ERR(sgf_real_decode(S(""), &r, err_off), SGF_ESYNTAX, 0);
  k = sgf_real_encode(6.5, out);
  assert_int_equal(k, 3);
  assert_memory_equal(out, "6.5", 3);
  k = sgf_real_encode(0.1, out);
  assert_int_equal(k, 3);
  assert_memory_equal(out, "0.1", 3);
  k = sgf_real_encode(7, out);
  assert_int_equal(k, 1);
  assert_memory_equal(out, "7", 1);
  k = sgf_real_encode(1e-15, out);
  assert_int_equal(k, 17);
  assert_memory_equal(out, "0.000000000000001", 17);
  for (i = 0; i < sizeof samples / sizeof samples[0]; i++) {
    k = sgf_real_encode(samples[i], out);
    assert_true(k > 0 && k <= SGF_REAL_MAX);
    assert_null(memchr(out, 'e', (size_t)k));
    assert_int_equal(sgf_real_decode(out, (size_t)k, &r, NULL), 0);
    assert_true(r == samples[i]);
  }
  assert_int_equal(sgf_real_encode(1e15, out), SGF_ERANGE);
  assert_int_equal(sgf_real_encode(1e-16, out), SGF_ERANGE);
  assert_int_equal(sgf_real_encode(NAN, out), SGF_ERANGE);
  assert_int_equal(sgf_real_encode(INFINITY, out), SGF_ERANGE);
}

/* The shortest decimal (no exponent) that strtod reads back as a: the
 * definition sgf_real_encode meets, computed the slow way. */
static int shortest_decimal(double a, char *out) {
  int prec;
  for (prec = 0; prec <= 17; prec++) {
    int w = snprintf(out, 64, "%.*f", prec, a);
    if (strtod(out, NULL) == a) return w;
  }
  return -1;
}

/* Reals: the fast paths (at most 15 digits; at most 6 fraction digits)
 * against strtod and against the shortest decimal, over the values real
 * files hold and around the limits of the fast paths. */
static void test_real_fast_paths(void **st) {
  static const int64_t bases[] = {0,
                                  1,
                                  5,
                                  9,
                                  65,
                                  75,
                                  1795,
                                  123456,
                                  999999999999999LL,
                                  100000000000000LL,
                                  1125899906842623LL,
                                  1125899906842624LL,
                                  4503599627370495LL};
  char in[64], out[SGF_REAL_MAX + 1], want[64];
  uint64_t x = 88172645463325252ULL;
  size_t i;
  int f, n;
  (void)st;
  for (n = 0; n < 200000; n++) {
    int64_t m;
    int w, k;
    double r, s;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift */
    if (n < (int)(sizeof bases / sizeof bases[0]) * 8) {
      m = bases[n / 8];
      f = n % 8;
    } else {
      m = (int64_t)(x % (n % 3 ? 100000000ULL : 10000000000000000ULL));
      f = (int)((x >> 56) % 12);
    }
    /* decode: m / 10^f written out, against strtod */
    w = snprintf(in, sizeof in, "%s%lld", n & 1 ? "-" : "", (long long)m);
    if (f > 0 && f < w - (n & 1)) {
      memmove(in + w - f + 1, in + w - f, (size_t)f + 1);
      in[w - f] = '.';
      w++;
    }
    assert_int_equal(sgf_real_decode(in, (size_t)w, &r, NULL), 0);
    s = strtod(in, NULL);
    if (memcmp(&r, &s, sizeof r) != 0)
      fail_msg("decode %s: %.17g, strtod %.17g", in, r, s);
    /* encode: the shortest decimal, checked against the slow search */
    if (s == 0 || fabs(s) >= 1e15 || fabs(s) < 1e-15) continue;
    k = sgf_real_encode(s, out);
    assert_true(k > 0 && k <= SGF_REAL_MAX);
    out[k] = '\0';
    w = shortest_decimal(fabs(s), want);
    if (strcmp(out + (s < 0), want) != 0 || (s < 0) != (out[0] == '-'))
      fail_msg("encode %.17g: %s, shortest %s (%d)", s, out, want, w);
  }
  for (i = 0; i < 8; i++) { /* fractions no short decimal is */
    double v = (double)(i + 1) / 7;
    n = sgf_real_encode(v, out);
    assert_true(n > 0);
    assert_int_equal(sgf_real_decode(out, (size_t)n, &v, NULL), 0);
    assert_true(v == (double)(i + 1) / 7);
  }
}

static void test_double_color(void **st) {
  int d = 0;
  char c = 0;
  (void)st;
  assert_int_equal(sgf_double_decode(S("1"), &d, NULL), 0);
  assert_int_equal(d, 1);
  assert_int_equal(sgf_double_decode(S("2"), &d, NULL), 0);
  assert_int_equal(d, 2);
  EXPECT_ERR(sgf_double_decode(S("3"), &d, err_off), SGF_ERANGE, 0);
  EXPECT_ERR(sgf_double_decode(S("x"), &d, err_off), SGF_ESYNTAX, 0);
  EXPECT_ERR(sgf_double_decode(S(""), &d, err_off), SGF_ESYNTAX, 0);
  assert_int_equal(sgf_color_decode(S("B"), &c, NULL), 0);
  assert_int_equal(c, 'B');
  assert_int_equal(sgf_color_decode(S("W"), &c, NULL), 0);
  assert_int_equal(c, 'W');
  EXPECT_ERR(sgf_color_decode(S("b"), &c, err_off), SGF_ESYNTAX, 0);
  EXPECT_ERR(sgf_color_decode(S("BW"), &c, err_off), SGF_ESYNTAX, 1);
  EXPECT_ERR(sgf_color_decode(S(""), &c, err_off), SGF_ESYNTAX, 0);
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

/* Decode whole and in pieces split at every byte; both must equal want. */
static void check_text(const char *raw, unsigned flags, const char *want) {
  char out[256];
  size_t n = sgf_text_decode(raw, strlen(raw), out, flags), i;
  assert_int_equal(n, strlen(want));
  assert_memory_equal(out, want, n);
  for (i = 0; i <= strlen(raw); i++) {
    sgf_text_decoder d;
    size_t m;
    sgf_text_decoder_init(&d, flags);
    m = sgf_text_decoder_feed(&d, raw, i, out);
    m += sgf_text_decoder_feed(&d, raw + i, strlen(raw) - i, out + m);
    assert_int_equal(m, strlen(want));
    assert_memory_equal(out, want, m);
  }
}

static void test_text(void **st) {
  char out[256];
  size_t off = 0;
  int k;
  (void)st;
  /* FF[4]'s examples: soft line breaks go, escapes resolve, whitespace
   * other than line breaks becomes a space. */
  check_text("Hello \\\nworld", 0, "Hello world");
  check_text("soft\\\r\nbreak", 0, "softbreak");
  check_text("soft\\\n\rbreak", 0, "softbreak");
  check_text("soft\\\rbreak", 0, "softbreak");
  check_text("a\\]b\\\\c\\:d\\e", 0, "a]b\\c:de");
  check_text("tab\there\vand\fthere", 0, "tab here and there");
  check_text("esc\\\ttab", 0, "esc tab");
  check_text("line1\nline2\r\nline3\rline4", 0, "line1\nline2\r\nline3\rline4");
  /* SimpleText: line breaks (one for CR LF / LF CR) become spaces. */
  check_text("line1\nline2\r\nline3\n\rline4\rx", SGF_TEXT_SIMPLE,
             "line1 line2 line3 line4 x");
  check_text("two\n\nbreaks", SGF_TEXT_SIMPLE, "two  breaks");
  check_text("soft\\\r\nbreak", SGF_TEXT_SIMPLE, "softbreak");
  check_text("", 0, "");
  /* In place. */
  {
    char buf[] = "a\\]\\\nb";
    size_t n = sgf_text_decode(buf, strlen(buf), buf, 0);
    assert_int_equal(n, 3);
    assert_memory_equal(buf, "a]b", 3);
  }
  /* Encoding. */
  k = sgf_text_encode(S("a]b\\c:d"), out, 0, NULL);
  assert_int_equal(k, 9);
  assert_memory_equal(out, "a\\]b\\\\c:d", 9);
  k = sgf_text_encode(S("a:b"), out, SGF_TEXT_COMPOSE, NULL);
  assert_int_equal(k, 4);
  assert_memory_equal(out, "a\\:b", 4);
  k = sgf_text_encode(S("l1\r\nl2"), out, 0, NULL);
  assert_int_equal(k, 6);
  assert_int_equal(sgf_text_encode(S("ab\tc"), out, 0, &off), SGF_ERANGE);
  assert_int_equal(off, 2);
  assert_int_equal(sgf_text_encode(S("abc\n"), out, SGF_TEXT_SIMPLE, &off),
                   SGF_ERANGE);
  assert_int_equal(off, 3);
  /* A NUL byte cannot be written (the escaper drops it): refused, not
   * lost. */
  assert_int_equal(sgf_text_encode("ab\0c", 4, out, 0, &off), SGF_ERANGE);
  assert_int_equal(off, 2);
  /* ONE HOME: what sgf_text_encode writes is the escaper's bytes. */
  {
    static const char text[] = "a]b\\c:d\r\ne f";
    char esc[64];
    sgf_escaper e;
    size_t n;
    for (unsigned f = 0; f < 2; f++) {
      sgf_escaper_init(&e, f ? SGF_ESCAPE_COMPOSE : 0u);
      n = sgf_escape_text(&e, text, sizeof text - 1, esc);
      k = sgf_text_encode(text, sizeof text - 1, out, f ? SGF_TEXT_COMPOSE : 0u,
                          NULL);
      assert_int_equal(k, (int)n);
      assert_memory_equal(out, esc, n);
    }
  }
  /* Encode then decode gives the text back. */
  {
    static const char *const texts[] = {"x]y\\z", "a:b:c", "multi\nline",
                                        "\\",     "]]",    ""};
    size_t i;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
      char back[64];
      size_t n;
      k = sgf_text_encode(texts[i], strlen(texts[i]), out, SGF_TEXT_COMPOSE,
                          NULL);
      assert_true(k >= 0);
      n = sgf_text_decode(out, (size_t)k, back, 0);
      assert_int_equal(n, strlen(texts[i]));
      assert_memory_equal(back, texts[i], n);
    }
  }
}

static void test_compose_split(void **st) {
  size_t c = 0;
  (void)st;
  assert_int_equal(sgf_compose_split(S("aa:bb"), &c, NULL), 0);
  assert_int_equal(c, 2);
  assert_int_equal(sgf_compose_split(S("a\\:b:c"), &c, NULL), 0);
  assert_int_equal(c, 4);
  assert_int_equal(sgf_compose_split(S("a\\\\:c"), &c, NULL), 0);
  assert_int_equal(c, 3);
  EXPECT_ERR(sgf_compose_split(S("a\\:b"), &c, err_off), SGF_ESYNTAX, 4);
}

/* ------------------------------------------------------------------ */
/* Boards, points, moves                                               */

static void test_board(void **st) {
  sgf_board b = {0, 0};
  char out[8];
  (void)st;
  sgf_board_init(&b);
  assert_int_equal(b.width, 19);
  assert_int_equal(b.height, 19);
  assert_int_equal(sgf_board_decode(S("9"), &b, NULL), 0);
  assert_int_equal(b.width, 9);
  assert_int_equal(b.height, 9);
  assert_int_equal(sgf_board_decode(S("19:13"), &b, NULL), 0);
  assert_int_equal(b.width, 19);
  assert_int_equal(b.height, 13);
  assert_int_equal(sgf_board_encode(&b, out), 5);
  assert_memory_equal(out, "19:13", 5);
  assert_int_equal(sgf_board_decode(S("52"), &b, NULL), 0);
  assert_int_equal(b.width, 52);
  assert_int_equal(sgf_board_encode(&b, out), 2);
  assert_memory_equal(out, "52", 2);
  EXPECT_ERR(sgf_board_decode(S("0"), &b, err_off), SGF_ERANGE, 0);
  EXPECT_ERR(sgf_board_decode(S("53"), &b, err_off), SGF_ERANGE, 0);
  EXPECT_ERR(sgf_board_decode(S("19:53"), &b, err_off), SGF_ERANGE, 3);
  EXPECT_ERR(sgf_board_decode(S("19:"), &b, err_off), SGF_ESYNTAX, 3);
  EXPECT_ERR(sgf_board_decode(S("x"), &b, err_off), SGF_ESYNTAX, 0);
  EXPECT_ERR(sgf_board_decode(S("19:1x"), &b, err_off), SGF_ESYNTAX, 4);
  /* On failure the board is unchanged. */
  assert_int_equal(b.width, 52);
}

static void test_points(void **st) {
  sgf_point pt = {0, 0};
  sgf_board rect = {19, 13};
  char out[4];
  (void)st;
  assert_int_equal(sgf_board_point_decode(&B19, S("pd"), &pt, NULL), 0);
  assert_int_equal(pt.x, 15);
  assert_int_equal(pt.y, 3);
  /* 52 x 52: a-z then A-Z. */
  assert_int_equal(sgf_board_point_decode(&B52, S("ZZ"), &pt, NULL), 0);
  assert_int_equal(pt.x, 51);
  assert_int_equal(pt.y, 51);
  assert_int_equal(sgf_board_point_decode(&B52, S("Az"), &pt, NULL), 0);
  assert_int_equal(pt.x, 26);
  assert_int_equal(pt.y, 25);
  assert_int_equal(sgf_board_point_encode(&B52, pt, out), 2);
  assert_memory_equal(out, "Az", 2);
  EXPECT_ERR(sgf_board_point_decode(&B19, S("ZZ"), &pt, err_off), SGF_ERANGE,
             0);
  EXPECT_ERR(sgf_board_point_decode(&B19, S("aZ"), &pt, err_off), SGF_ERANGE,
             1);
  EXPECT_ERR(sgf_board_point_decode(&B19, S("a1"), &pt, err_off), SGF_ESYNTAX,
             1);
  EXPECT_ERR(sgf_board_point_decode(&B19, S("a"), &pt, err_off), SGF_ESYNTAX,
             1);
  EXPECT_ERR(sgf_board_point_decode(&B19, S("abc"), &pt, err_off), SGF_ESYNTAX,
             2);
  /* Rectangular: 19 columns, 13 rows. */
  assert_int_equal(sgf_board_point_decode(&rect, S("sm"), &pt, NULL), 0);
  EXPECT_ERR(sgf_board_point_decode(&rect, S("sn"), &pt, err_off), SGF_ERANGE,
             1);
  EXPECT_ERR(sgf_board_point_decode(&rect, S("ta"), &pt, err_off), SGF_ERANGE,
             0);
  pt.x = 19;
  pt.y = 0;
  assert_int_equal(sgf_board_point_encode(&B19, pt, out), SGF_ERANGE);
  /* tt is a point on 20 x 20 and off a 19 x 19 board. */
  EXPECT_ERR(sgf_board_point_decode(&B19, S("tt"), &pt, err_off), SGF_ERANGE,
             0);
  assert_int_equal(sgf_board_point_decode(&B20, S("tt"), &pt, NULL), 0);
  assert_int_equal(pt.x, 19);
}

static void test_moves(void **st) {
  sgf_move m;
  sgf_board b1913 = {19, 13}, b2019 = {20, 19};
  char out[4];
  (void)st;
  assert_int_equal(sgf_move_decode(&B19, S(""), &m, NULL), 0);
  assert_true(m.pass);
  assert_int_equal(sgf_move_decode(&B19, S("tt"), &m, NULL), 0);
  assert_true(m.pass);
  assert_int_equal(sgf_move_decode(&b1913, S("tt"), &m, NULL), 0);
  assert_true(m.pass);
  /* tt on boards larger than 19 is the point (19, 19). */
  assert_int_equal(sgf_move_decode(&B20, S("tt"), &m, NULL), 0);
  assert_false(m.pass);
  assert_int_equal(m.pt.x, 19);
  assert_int_equal(m.pt.y, 19);
  EXPECT_ERR(sgf_move_decode(&b2019, S("tt"), &m, err_off), SGF_ERANGE, 1);
  assert_int_equal(sgf_move_decode(&B19, S("pd"), &m, NULL), 0);
  assert_false(m.pass);
  assert_int_equal(sgf_move_encode(&B19, &m, 0, out), 2);
  assert_memory_equal(out, "pd", 2);
  EXPECT_ERR(sgf_move_decode(&B19, S("p"), &m, err_off), SGF_ESYNTAX, 1);
  m.pass = 1;
  assert_int_equal(sgf_move_encode(&B19, &m, 0, out), 0);
  assert_int_equal(sgf_move_encode(&B19, &m, SGF_MOVE_PASS_TT, out), 2);
  assert_memory_equal(out, "tt", 2);
  /* On 20 x 20 "tt" is a point, so a pass is [] even when tt is asked. */
  assert_int_equal(sgf_move_encode(&B20, &m, SGF_MOVE_PASS_TT, out), 0);
}

/* The specification of a move (FF[4]), written out here as the oracle
 * for the fast paths: letters a-z 0-25, A-Z 26-51; [] a pass, and [tt]
 * on boards up to 19 x 19; the error offsets of sgf_board_point_decode. */
static int letter_ref(unsigned char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return c - 'A' + 26;
  return -1;
}
static int move_ref(const sgf_board *b, const char *raw, size_t len,
                    sgf_move *m, size_t *off) {
  int x, y;
  if (b->width < 1 || b->width > 52 || b->height < 1 || b->height > 52)
    return SGF_EINVAL;
  if (len == 0 || (len == 2 && raw[0] == 't' && raw[1] == 't' &&
                   b->width <= 19 && b->height <= 19)) {
    m->pass = 1;
    m->pt.x = m->pt.y = -1;
    return 0;
  }
  *off = len < 2 ? len : 0;
  if (len < 2) return SGF_ESYNTAX;
  x = letter_ref((unsigned char)raw[0]);
  y = letter_ref((unsigned char)raw[1]);
  *off = x < 0 ? 0 : y < 0 ? 1 : 2;
  if (x < 0 || y < 0 || len > 2) return SGF_ESYNTAX;
  *off = x >= b->width ? 0 : 1;
  if (x >= b->width || y >= b->height) return SGF_ERANGE;
  m->pass = 0;
  m->pt.x = x;
  m->pt.y = y;
  return 0;
}

/* One input through sgf_move_decode, the inline sgf_move_decode_fast and
 * sgf_move_decode_letters, against the oracle: the same code, move and
 * error offset; the letters-only test claims exactly the 'a'..'z' points
 * and leaves *m alone otherwise. */
static void move_same(const sgf_board *b, const char *raw, size_t len) {
  sgf_move want = {7, {7, 7}}, got = want, fast = want, lt = want;
  size_t wo = 99, go = 99, fo = 99;
  int rc = move_ref(b, raw, len, &want, &wo);
  int claimed;
  assert_int_equal(sgf_move_decode(b, raw, len, &got, &go), rc);
  assert_int_equal(sgf_move_decode_fast(b, raw, len, &fast, &fo), rc);
  claimed = sgf_move_decode_letters(b, raw, len, &lt);
  if (rc < 0) {
    if (rc != SGF_EINVAL) {
      assert_int_equal(go, wo);
      assert_int_equal(fo, wo);
    }
    assert_false(claimed);
    return;
  }
  assert_memory_equal(&got, &want, sizeof want);
  assert_memory_equal(&fast, &want, sizeof want);
  assert_int_equal(claimed, !want.pass && raw[0] >= 'a' && raw[0] <= 'z' &&
                                raw[1] >= 'a' && raw[1] <= 'z');
  if (claimed)
    assert_memory_equal(&lt, &want, sizeof want);
  else
    assert_int_equal(lt.pass, 7);
}

/* Every 2-byte value (and those of 0, 1 and 3 bytes) on every square
 * board 1..52, on rectangles and on invalid boards: the fast paths of
 * sgf_move_decode agree with the specification everywhere, "tt" on
 * 19 x 19 (a pass) and on 20 x 20 (a point) included. */
static void test_move_fast_paths(void **st) {
  static const int sides[] = {1, 2, 19, 20, 25, 26, 27, 51, 52};
  static const int bad[] = {0, -1, 53, 1000, -2147483647 - 1};
  sgf_board boards[52 + 81 + 10];
  size_t nb = 0, i, j;
  sgf_move m;
  (void)st;
  for (i = 1; i <= 52; i++) boards[nb++] = (sgf_board){(int)i, (int)i};
  for (i = 0; i < 9; i++)
    for (j = 0; j < 9; j++)
      if (i != j) boards[nb++] = (sgf_board){sides[i], sides[j]};
  for (i = 0; i < 5; i++) {
    boards[nb++] = (sgf_board){bad[i], 19};
    boards[nb++] = (sgf_board){19, bad[i]};
  }
  assert_true(nb <= sizeof boards / sizeof *boards);
  for (i = 0; i < nb; i++) {
    unsigned v;
    char raw[3];
    move_same(&boards[i], raw, 0);
    for (v = 0; v < 256; v++) {
      raw[0] = (char)v;
      move_same(&boards[i], raw, 1);
    }
    for (v = 0; v < 65536; v++) {
      raw[0] = (char)(v >> 8);
      raw[1] = (char)(v & 255);
      move_same(&boards[i], raw, 2);
      raw[2] = 'a';
      if ((v & 255) == 'd') move_same(&boards[i], raw, 3);
    }
  }
  /* No board, or no bytes: the fast forms hand over to the library. */
  assert_int_equal(sgf_move_decode_fast(NULL, S("pd"), &m, NULL), SGF_EINVAL);
  assert_int_equal(sgf_move_decode_fast(&B19, NULL, 2, &m, NULL), SGF_EINVAL);
  assert_int_equal(sgf_move_decode_fast(&B19, S("pd"), NULL, NULL), 0);
}

static void test_coordinates(void **st) {
  sgf_point pt = {15, 3};
  sgf_board b25 = {25, 25}, b26 = {26, 26};
  char out[4];
  int row = -1, col = -1;
  (void)st;
  assert_int_equal(sgf_point_to_gtp(&B19, pt, out), 3);
  assert_memory_equal(out, "Q16", 3);
  assert_int_equal(sgf_point_to_rowcol(&B19, pt, &row, &col), 0);
  assert_int_equal(row, 15);
  assert_int_equal(col, 15);
  pt.x = 0;
  pt.y = 18;
  assert_int_equal(sgf_point_to_gtp(&B19, pt, out), 2);
  assert_memory_equal(out, "A1", 2);
  assert_int_equal(sgf_point_to_rowcol(&B19, pt, &row, &col), 0);
  assert_int_equal(row, 0);
  assert_int_equal(col, 0);
  pt.x = 8; /* the ninth column is J: GTP skips I */
  pt.y = 0;
  assert_int_equal(sgf_point_to_gtp(&B19, pt, out), 3);
  assert_memory_equal(out, "J19", 3);
  pt.x = 24;
  assert_int_equal(sgf_point_to_gtp(&b25, pt, out), 3);
  assert_memory_equal(out, "Z25", 3);
  assert_int_equal(sgf_point_to_gtp(&b26, pt, out), SGF_ERANGE);
  assert_int_equal(sgf_point_from_gtp(&B19, S("q16"), &pt, NULL), 0);
  assert_int_equal(pt.x, 15);
  assert_int_equal(pt.y, 3);
  assert_int_equal(sgf_point_from_gtp(&B19, S("J19"), &pt, NULL), 0);
  assert_int_equal(pt.x, 8);
  assert_int_equal(pt.y, 0);
  EXPECT_ERR(sgf_point_from_gtp(&B19, S("I5"), &pt, err_off), SGF_ESYNTAX, 0);
  EXPECT_ERR(sgf_point_from_gtp(&B19, S("T20"), &pt, err_off), SGF_ERANGE, 1);
  EXPECT_ERR(sgf_point_from_gtp(&B19, S("A0"), &pt, err_off), SGF_ESYNTAX, 1);
  EXPECT_ERR(sgf_point_from_gtp(&B19, S("A05"), &pt, err_off), SGF_ESYNTAX, 1);
}

/* ------------------------------------------------------------------ */
/* Compressed point lists                                              */

/* The points of one list value as "xy xy ..." (letters), or the error. */
static void expand(const sgf_board *b, const char *raw, unsigned flags,
                   char *out) {
  sgf_point_iter it;
  sgf_point pt;
  size_t off = 0;
  int r;
  *out = '\0';
  sgf_point_iter_init(&it, b, raw, strlen(raw), flags);
  while ((r = sgf_point_iter_next(&it, &pt, &off)) == 1) {
    char two[3] = {0};
    assert_int_equal(sgf_board_point_encode(b, pt, two), 2);
    if (*out) strcat(out, " ");
    strcat(out, two);
  }
  if (r < 0)
    sprintf(out, "error %s at %zu", r == SGF_ERANGE ? "range" : "syntax", off);
}

static void test_point_lists(void **st) {
  char got[256];
  (void)st;
  expand(&B19, "bb", 0, got);
  assert_string_equal(got, "bb");
  expand(&B19, "aa:cc", 0, got);
  assert_string_equal(got, "aa ba ca ab bb cb ac bc cc");
  expand(&B19, "cc:aa", 0, got); /* corners reversed: the same rectangle */
  assert_string_equal(got, "aa ba ca ab bb cb ac bc cc");
  expand(&B19, "ca:ab", 0, got); /* the other two corners */
  assert_string_equal(got, "aa ba ca ab bb cb");
  expand(&B19, "dd:dd", 0, got); /* a 1x1 rectangle: one point */
  assert_string_equal(got, "dd");
  expand(&B52, "Yz:ZA", 0, got);
  assert_string_equal(got, "Yz Zz YA ZA");
  expand(&B19, "cc:aa", SGF_PTS_STRICT, got);
  assert_string_equal(got, "error syntax at 3");
  expand(&B19, "dd:dd", SGF_PTS_STRICT, got);
  assert_string_equal(got, "error syntax at 3");
  expand(&B19, "aa:", 0, got);
  assert_string_equal(got, "error syntax at 3");
  expand(&B19, "aa-cc", 0, got);
  assert_string_equal(got, "error syntax at 2");
  expand(&B19, "aa:zz", 0, got);
  assert_string_equal(got, "error range at 3");
  expand(&B19, "aa:c1", 0, got);
  assert_string_equal(got, "error syntax at 4");
  expand(&B19, "tt", 0, got); /* not a pass in a point list */
  assert_string_equal(got, "error range at 0");
  expand(&B19, "", 0, got);
  assert_string_equal(got, "error syntax at 0");
  expand(&B19, "", SGF_PTS_EMPTY_OK, got);
  assert_string_equal(got, "");
}

/* Compress a set, check the rectangles are disjoint and cover exactly
 * the set; return how many. */
static int compress_check(const sgf_board *b, const unsigned char *set) {
  static unsigned char work[52 * 52], seen[52 * 52];
  static sgf_rect rects[52 * 52];
  int n, i, x, y;
  size_t cells = (size_t)(b->width * b->height);
  memcpy(work, set, cells);
  memset(seen, 0, cells);
  n = sgf_points_compress(b, work, rects, 52 * 52);
  assert_true(n >= 0);
  for (i = 0; i < (int)cells; i++) assert_int_equal(work[i], 0);
  for (i = 0; i < n; i++) {
    char v[5];
    int k = sgf_rect_encode(b, &rects[i], v);
    static char got[52 * 52 * 3 + 32];
    char raw[6];
    assert_true(k == 2 || k == 5);
    memcpy(raw, v, (size_t)k);
    raw[k] = '\0';
    expand(b, raw, SGF_PTS_STRICT, got); /* what we write is strict FF[4] */
    assert_null(strstr(got, "error"));
    for (y = rects[i].a.y; y <= rects[i].b.y; y++)
      for (x = rects[i].a.x; x <= rects[i].b.x; x++) {
        assert_int_equal(seen[y * b->width + x], 0);
        seen[y * b->width + x] = 1;
      }
  }
  for (i = 0; i < (int)cells; i++) assert_int_equal(seen[i], set[i] != 0);
  return n;
}

static void test_compress(void **st) {
  static unsigned char set[52 * 52];
  sgf_rect r[4];
  unsigned seed = 12345;
  int i, round;
  char v[5];
  (void)st;
  /* A 3x3 block: one rectangle, "aa:cc". */
  memset(set, 0, sizeof set);
  set[0] = set[1] = set[2] = set[19] = set[20] = set[21] = set[38] = set[39] =
      set[40] = 1;
  assert_int_equal(compress_check(&B19, set), 1);
  assert_int_equal(sgf_points_compress(&B19, set, r, 4), 1);
  assert_int_equal(sgf_rect_encode(&B19, &r[0], v), 5);
  assert_memory_equal(v, "aa:cc", 5);
  /* The whole 52 x 52 board. */
  memset(set, 1, 52 * 52);
  assert_int_equal(compress_check(&B52, set), 1);
  assert_int_equal(sgf_points_compress(&B52, set, r, 4), 1);
  assert_int_equal(sgf_rect_encode(&B52, &r[0], v), 5);
  assert_memory_equal(v, "aa:ZZ", 5);
  /* An L: two rectangles; a single point: "dd". */
  memset(set, 0, sizeof set);
  set[0] = set[19] = set[20] = 1;
  assert_int_equal(compress_check(&B19, set), 2);
  memset(set, 0, sizeof set);
  set[3 * 19 + 3] = 1;
  assert_int_equal(sgf_points_compress(&B19, set, r, 4), 1);
  assert_int_equal(sgf_rect_encode(&B19, &r[0], v), 2);
  assert_memory_equal(v, "dd", 2);
  /* Too little room. */
  memset(set, 0, sizeof set);
  set[0] = set[2] = set[4] = 1;
  assert_int_equal(sgf_points_compress(&B19, set, r, 2), SGF_ERANGE);
  /* Random sets on a rectangular board. */
  for (round = 0; round < 200; round++) {
    sgf_board b = {7 + round % 13, 5 + round % 17};
    for (i = 0; i < b.width * b.height; i++) {
      seed = seed * 1103515245u + 12345u;
      set[i] = (seed >> 16) % 3 != 0;
    }
    compress_check(&b, set);
  }
}

/* ------------------------------------------------------------------ */
/* Any value by its property                                           */

static const sgf_propdef *def(const char *id) {
  const sgf_propdef *d = sgf_prop_lookup(NULL, id, strlen(id));
  assert_non_null(d);
  return d;
}

/* Decode raw for property id, encode it again: the same bytes. */
static void roundtrip(const char *id, const sgf_board *b, const char *raw) {
  sgf_typed_value v;
  char out[128], txt[2][64];
  int k, i;
  assert_int_equal(
      sgf_value_decode(NULL, def(id), b, raw, strlen(raw), &v, NULL), 0);
  for (i = 0; i <= v.composed; i++) {
    int t = v.part[i].type;
    if (t == SGF_VT_TEXT || t == SGF_VT_SIMPLETEXT) {
      size_t n =
          sgf_text_decode(v.part[i].u.text.at, v.part[i].u.text.len, txt[i],
                          t == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE : 0);
      v.part[i].u.text.at = txt[i];
      v.part[i].u.text.len = n;
    }
  }
  k = sgf_value_encode(NULL, def(id), b, &v, 0, out, sizeof out, NULL);
  assert_int_equal(k, strlen(raw));
  assert_memory_equal(out, raw, (size_t)k);
}

static void test_typed(void **st) {
  sgf_typed_value v;
  size_t off = 0;
  sgf_board b1913 = {19, 13};
  char out[64];
  (void)st;
  assert_int_equal(sgf_value_decode(NULL, def("B"), &B19, S("pd"), &v, NULL),
                   0);
  assert_int_equal(v.part[0].type, SGF_VT_MOVE);
  assert_int_equal(v.part[0].u.move.pt.x, 15);
  assert_int_equal(
      sgf_value_decode(NULL, def("AB"), &B19, S("cc:aa"), &v, NULL), 0);
  assert_int_equal(v.part[0].u.rect.a.x, 0);
  assert_int_equal(v.part[0].u.rect.b.y, 2);
  assert_int_equal(
      sgf_value_decode(NULL, def("SZ"), &B19, S("19:13"), &v, NULL), 0);
  assert_true(v.composed);
  assert_true(v.part[1].u.number == 13);
  assert_int_equal(sgf_value_decode(NULL, def("SZ"), &B19, S("19"), &v, NULL),
                   0);
  assert_false(v.composed);
  assert_int_equal(
      sgf_value_decode(NULL, def("LB"), &B19, S("pd:A\\:b"), &v, NULL), 0);
  assert_int_equal(v.part[1].type, SGF_VT_SIMPLETEXT);
  assert_int_equal(v.part[1].u.text.len, 4);
  assert_int_equal(sgf_value_decode(NULL, def("FG"), &B19, S(""), &v, NULL), 0);
  assert_int_equal(v.part[0].type, SGF_VT_NONE);
  assert_int_equal(sgf_value_decode(NULL, def("DD"), &B19, S(""), &v, NULL), 0);
  assert_int_equal(v.part[0].type, SGF_VT_NONE);
  /* Errors, with the offset within the whole value. */
  assert_int_equal(
      sgf_value_decode(NULL, def("AR"), &B19, S("aa:zz"), &v, &off),
      SGF_ERANGE);
  assert_int_equal(off, 3);
  assert_int_equal(sgf_value_decode(NULL, def("LB"), &B19, S("zz:x"), &v, &off),
                   SGF_ERANGE);
  assert_int_equal(off, 0);
  assert_int_equal(sgf_value_decode(NULL, def("AR"), &B19, S("aabb"), &v, &off),
                   SGF_ESYNTAX);
  assert_int_equal(off, 4);
  assert_int_equal(sgf_value_decode(NULL, def("SZ"), &B19, S("19:x"), &v, &off),
                   SGF_ESYNTAX);
  assert_int_equal(off, 3);
  assert_int_equal(sgf_value_decode(NULL, def("KO"), &B19, S("x"), &v, &off),
                   SGF_ESYNTAX);
  assert_int_equal(sgf_value_decode(NULL, def("AB"), &B19, S(""), &v, &off),
                   SGF_ESYNTAX);
  assert_int_equal(sgf_value_decode(NULL, def("GB"), &B19, S("3"), &v, &off),
                   SGF_ERANGE);
  assert_int_equal(sgf_value_decode(NULL, def("AB"), &b1913, S("an"), &v, &off),
                   SGF_ERANGE);
  assert_int_equal(off, 1);
  /* Both ways, the same bytes. */
  roundtrip("B", &B19, "pd");
  roundtrip("W", &B19, "");
  roundtrip("AB", &B19, "aa:cc");
  roundtrip("AW", &B52, "ZZ");
  roundtrip("AR", &B19, "aa:bb");
  roundtrip("LB", &B19, "pd:A:b"); /* ":" needs no escape in a second part */
  roundtrip("AP", &B19, "CGo\\:ban:1.2:3");
  roundtrip("SZ", &B19, "19:13");
  roundtrip("SZ", &B19, "19");
  roundtrip("FG", &B19, "");
  roundtrip("FG", &B19, "259:Figure 1");
  roundtrip("KM", &B19, "6.5");
  roundtrip("HA", &B19, "-2");
  roundtrip("GB", &B19, "2");
  roundtrip("PL", &B19, "W");
  roundtrip("C", &B19, "a\\]b\nc");
  roundtrip("N", &B19, "name");
  roundtrip("KO", &B19, "");
  roundtrip("DD", &B19, "");
  roundtrip("VW", &B19, "aa:ss");
  /* Encoding checks too. */
  sgf_typed_value_init(&v);
  v.part[0].type = SGF_VT_DOUBLE;
  v.part[0].u.dbl = 3;
  assert_int_equal(
      sgf_value_encode(NULL, def("GB"), &B19, &v, 0, out, sizeof out, NULL),
      SGF_ERANGE);
  v.part[0].type = SGF_VT_NONE;
  assert_int_equal(
      sgf_value_encode(NULL, def("AB"), &B19, &v, 0, out, sizeof out, NULL),
      SGF_EINVAL);
  v.part[0].type = SGF_VT_SIMPLETEXT;
  v.part[0].u.text.at = "x\ny";
  v.part[0].u.text.len = 3;
  assert_int_equal(
      sgf_value_encode(NULL, def("N"), &B19, &v, 0, out, sizeof out, &off),
      SGF_ERANGE);
  assert_int_equal(off, 1);
  assert_int_equal(sgf_value_encode(NULL, def("N"), &B19, &v, 0, out, 2, &off),
                   SGF_ERANGE);
}

/* ------------------------------------------------------------------ */
/* on_value's pieces                                                   */

static void test_acc(void **st) {
  sgf_value_acc a;
  const char *raw = NULL;
  size_t len = 0;
  char big[100];
  (void)st;
  memset(&a, 0, sizeof a);
  memset(big, 'a', sizeof big);
  /* Whole: the piece itself. */
  assert_int_equal(
      sgf_value_acc_piece(&a, big, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST, &raw,
                          &len),
      1);
  assert_ptr_equal(raw, big);
  assert_int_equal(len, 2);
  /* In pieces, the last one empty. */
  assert_int_equal(sgf_value_acc_piece(&a, "p", 1, SGF_VALUE_FIRST, &raw, &len),
                   0);
  assert_int_equal(sgf_value_acc_piece(&a, "d", 1, 0, &raw, &len), 0);
  assert_int_equal(sgf_value_acc_piece(&a, "", 0, SGF_VALUE_LAST, &raw, &len),
                   1);
  assert_int_equal(len, 2);
  assert_memory_equal(raw, "pd", 2);
  /* A FIRST piece starts over. */
  assert_int_equal(sgf_value_acc_piece(&a, "x", 1, SGF_VALUE_FIRST, &raw, &len),
                   0);
  assert_int_equal(sgf_value_acc_piece(&a, "y", 1, SGF_VALUE_FIRST, &raw, &len),
                   0);
  assert_int_equal(sgf_value_acc_piece(&a, "z", 1, SGF_VALUE_LAST, &raw, &len),
                   1);
  assert_int_equal(len, 2);
  assert_memory_equal(raw, "yz", 2);
  /* Too long: its length, no bytes. */
  memset(big, 'a', sizeof big);
  assert_int_equal(
      sgf_value_acc_piece(&a, big, 60, SGF_VALUE_FIRST, &raw, &len), 0);
  assert_int_equal(sgf_value_acc_piece(&a, big, 40, SGF_VALUE_LAST, &raw, &len),
                   SGF_ERANGE);
  assert_int_equal(len, 100);
  /* The inline sgf_value_acc_piece_fast: the same answers as the
   * function for every flag combination, whole values without a copy. */
  {
    sgf_value_acc a2;
    const char *raw2 = NULL;
    size_t len2 = 0;
    unsigned f;
    static const unsigned seq[] = {SGF_VALUE_FIRST | SGF_VALUE_LAST,
                                   SGF_VALUE_FIRST,
                                   0,
                                   SGF_VALUE_LAST,
                                   SGF_VALUE_FIRST | SGF_VALUE_LAST,
                                   0,
                                   SGF_VALUE_LAST};
    memset(&a, 0, sizeof a);
    memset(&a2, 0, sizeof a2);
    for (f = 0; f < sizeof seq / sizeof *seq; f++) {
      int r1 = sgf_value_acc_piece(&a, big + f, f, seq[f], &raw, &len);
      int r2 = sgf_value_acc_piece_fast(&a2, big + f, f, seq[f], &raw2, &len2);
      assert_int_equal(r2, r1);
      if (r1 == 1) {
        assert_int_equal(len2, len);
        assert_memory_equal(raw2, raw, len);
        if (seq[f] == (SGF_VALUE_FIRST | SGF_VALUE_LAST))
          assert_ptr_equal(raw2, big + f);
      }
    }
    assert_int_equal(
        sgf_value_acc_piece_fast(NULL, big, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST,
                                 &raw2, &len2),
        SGF_EINVAL);
    assert_int_equal(
        sgf_value_acc_piece_fast(&a2, NULL, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST,
                                 &raw2, &len2),
        SGF_EINVAL);
  }
}

/* A move handler straight on the parser's on_value: no tree, values
 * split by the chunking gathered in the accumulator. */
typedef struct moves {
  sgf_value_acc acc;
  int is_move;
  char got[256];
} moves;

static int mv_prop(sgf_parser *p, void *u, const char *id, size_t len) {
  moves *m = u;
  (void)p;
  m->is_move = len == 1 && (id[0] == 'B' || id[0] == 'W');
  return SGF_CONTINUE;
}

static int mv_value(sgf_parser *p, void *u, const char *at, size_t len,
                    unsigned flags) {
  moves *m = u;
  const char *raw;
  size_t n;
  sgf_move mv;
  char g[4];
  (void)p;
  if (!m->is_move ||
      sgf_value_acc_piece(&m->acc, at, len, flags, &raw, &n) != 1)
    return SGF_CONTINUE;
  assert_int_equal(sgf_move_decode(&B19, raw, n, &mv, NULL), 0);
  if (mv.pass) {
    strcat(m->got, "pass ");
  } else {
    int k = sgf_point_to_gtp(&B19, mv.pt, g);
    strncat(m->got, g, (size_t)k);
    strcat(m->got, " ");
  }
  return SGF_CONTINUE;
}

static void test_streaming_moves(void **st) {
  static const char sgf[] = "(;SZ[19];B[pd];W[dp];B[];W[tt];B[aa])";
  size_t chunk;
  (void)st;
  for (chunk = 1; chunk <= sizeof sgf; chunk++) {
    moves m;
    sgf_callbacks cb;
    sgf_parser *p;
    size_t off;
    memset(&m, 0, sizeof m);
    sgf_callbacks_init(&cb);
    cb.on_property = mv_prop;
    cb.on_value = mv_value;
    p = sgf_parser_create(&cb, &m, NULL);
    assert_non_null(p);
    for (off = 0; off < sizeof sgf - 1; off += chunk) {
      size_t k = sizeof sgf - 1 - off < chunk ? sizeof sgf - 1 - off : chunk;
      assert_int_equal(sgf_parser_feed(p, sgf + off, k, NULL), SGF_OK);
    }
    assert_int_equal(sgf_parser_finish(p), SGF_OK);
    assert_string_equal(m.got, "Q16 D4 pass pass A19 ");
    sgf_parser_destroy(p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_table_builtins),
      cmocka_unit_test(test_table_register),
      cmocka_unit_test(test_lookup_all_short),
      cmocka_unit_test(test_number),
      cmocka_unit_test(test_real),
      cmocka_unit_test(test_real_fast_paths),
      cmocka_unit_test(test_double_color),
      cmocka_unit_test(test_text),
      cmocka_unit_test(test_compose_split),
      cmocka_unit_test(test_board),
      cmocka_unit_test(test_points),
      cmocka_unit_test(test_moves),
      cmocka_unit_test(test_move_fast_paths),
      cmocka_unit_test(test_coordinates),
      cmocka_unit_test(test_point_lists),
      cmocka_unit_test(test_compress),
      cmocka_unit_test(test_typed),
      cmocka_unit_test(test_acc),
      cmocka_unit_test(test_streaming_moves),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
