/* value_scalar.c - Number, Real, Double, Color and the compose separator.
 *
 * Syntax per FF[4], nothing more lenient: Number is [+-]digits, Real is
 * Number ["." digits], Double is 1 or 2, Color is B or W. No blanks are
 * skipped: a value is the bytes between its brackets, and a blank in a
 * number is reported (at its offset) rather than guessed about.
 *
 * Reals go through strtod / snprintf for correct rounding, with the
 * locale's decimal point put in and taken out, so the SGF form is always
 * "." whatever setlocale() the application made. The Reals real files
 * hold (KM[6.5], BL[1795.3], V[-12.75]) take a fast path first, exact by
 * construction: at most 15 digits make an integer m below 2^53, and
 * m / 10^f with both exact is correctly rounded by IEEE division, which is
 * what strtod gives. Encoding tries m / 10^f == r for f = 0, 1, ... 6
 * with m below 2^50, where one f-digit decimal at most maps to r (they
 * are more than 4 ulps apart), so the first f found is the shortest
 * form, the one the general loop finds. Without them `sgf json` spent
 * 40% of its time in snprintf and strtod.
 */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "value_priv.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

int sgf_number_decode(const char *raw, size_t len, int64_t *n,
                      size_t *err_off) {
  size_t i = 0;
  int neg = 0;
  uint64_t v = 0, lim;
  if (!raw && len) return SGF_EINVAL;
  if (i < len && (raw[i] == '+' || raw[i] == '-')) neg = raw[i++] == '-';
  if (i == len) return sgf__verr(err_off, i, SGF_ESYNTAX);
  lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < len; i++) {
    unsigned d;
    if (!is_digit(raw[i])) return sgf__verr(err_off, i, SGF_ESYNTAX);
    d = (unsigned)(raw[i] - '0');
    if (v > (lim - d) / 10) {
      /* Out of range; but a later non-digit is a syntax error first. */
      size_t j;
      for (j = i + 1; j < len; j++)
        if (!is_digit(raw[j])) return sgf__verr(err_off, j, SGF_ESYNTAX);
      return sgf__verr(err_off, i, SGF_ERANGE);
    }
    v = v * 10 + d;
  }
  if (n) *n = neg ? (int64_t)(0 - v) : (int64_t)v;
  return 0;
}

int sgf_number_encode(int64_t n, char *out) {
  char tmp[20];
  int k = 0, w = 0;
  uint64_t v = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
  do {
    tmp[k++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  if (n < 0) out[w++] = '-';
  while (k) out[w++] = tmp[--k];
  return w;
}

/* The locale's decimal point (one byte in every locale we know of). */
static char decimal_point(void) {
  const struct lconv *lc = localeconv();
  return lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0]
                                                         : '.';
}

#define REAL_SCAN_MAX 512 /* longer Reals are refused (SGF_ERANGE) */

/* 10^0 .. 10^22: every one exact in a double. */
static const double pow10_exact[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The fast path of sgf_real_decode for a valid Real: 1 if it had at most
 * 15 digits (*r set), else 0. */
static int real_decode_fast(const char *raw, size_t len, double *r) {
  uint64_t m = 0;
  int nd = 0, frac = 0, dot = 0, neg = 0;
  size_t i = 0;
  double v;
  if (raw[0] == '+' || raw[0] == '-') neg = raw[i++] == '-';
  for (; i < len; i++) {
    if (raw[i] == '.') {
      dot = 1;
      continue;
    }
    if (++nd > 15) return 0;
    m = m * 10 + (uint64_t)(raw[i] - '0');
    frac += dot;
  }
  v = (double)m / pow10_exact[frac];
  *r = neg ? -v : v;
  return 1;
}

int sgf_real_decode(const char *raw, size_t len, double *r, size_t *err_off) {
  char buf[REAL_SCAN_MAX + 1];
  size_t i = 0, dot = 0, ndig = 0;
  double v;
  if (!raw && len) return SGF_EINVAL;
  if (i < len && (raw[i] == '+' || raw[i] == '-')) i++;
  for (; i < len; i++) {
    if (is_digit(raw[i])) {
      ndig++;
    } else if (raw[i] == '.' && !dot && ndig) {
      dot = i;
      ndig = 0; /* digits after the dot are required too */
    } else {
      return sgf__verr(err_off, i, SGF_ESYNTAX);
    }
  }
  if (ndig == 0) return sgf__verr(err_off, len, SGF_ESYNTAX);
  if (len <= 17 && real_decode_fast(raw, len, &v)) {
    if (r) *r = v;
    return 0;
  }
  if (len > REAL_SCAN_MAX) return sgf__verr(err_off, 0, SGF_ERANGE);
  memcpy(buf, raw, len);
  buf[len] = '\0';
  if (dot) buf[dot] = decimal_point();
  v = strtod(buf, NULL);
  if (isinf(v)) return sgf__verr(err_off, 0, SGF_ERANGE);
  if (r) *r = v;
  return 0;
}

/* d1 d2 ... dp times 10^e, written without an exponent. */
static int plain_decimal(int neg, const char *dig, int p, int e, char *out) {
  int w = 0, i;
  while (p > 1 && dig[p - 1] == '0') p--; /* trailing zeros say nothing */
  if (neg) out[w++] = '-';
  if (e < 0) {
    out[w++] = '0';
    out[w++] = '.';
    for (i = -1; i > e; i--) out[w++] = '0';
    for (i = 0; i < p; i++) out[w++] = dig[i];
    return w;
  }
  for (i = 0; i <= e; i++) out[w++] = i < p ? dig[i] : '0';
  if (p > e + 1) {
    out[w++] = '.';
    for (i = e + 1; i < p; i++) out[w++] = dig[i];
  }
  return w;
}

/* The fast path of sgf_real_encode for finite a > 0: the length written,
 * or 0 if no decimal of at most 6 fraction digits below 2^50 is a. */
static int real_encode_fast(int neg, double a, char *out) {
  int f, k, w = 0;
  for (f = 0; f <= 6; f++) {
    double s = a * pow10_exact[f];
    uint64_t m;
    char tmp[24];
    if (s >= 1125899906842624.0) return 0; /* 2^50 */
    m = (uint64_t)floor(s + 0.5);
    if ((double)m / pow10_exact[f] != a) continue;
    k = 0;
    do { /* digits, last first; f + 1 at least: 0.05 */
      tmp[k++] = (char)('0' + m % 10);
      m /= 10;
    } while (m || k <= f);
    if (neg) out[w++] = '-';
    while (k > 0) {
      if (k == f) out[w++] = '.';
      out[w++] = tmp[--k];
    }
    return w;
  }
  return 0;
}

int sgf_real_encode(double r, char *out) {
  int prec;
  double a = fabs(r);
  if (!isfinite(r) || a >= 1e15 || (a != 0 && a < 1e-15)) return SGF_ERANGE;
  if (a == 0) {
    int w = 0;
    if (signbit(r)) out[w++] = '-';
    out[w++] = '0';
    return w;
  }
  if ((prec = real_encode_fast(signbit(r) != 0, a, out)) > 0) return prec;
  for (prec = 1; prec <= 17; prec++) {
    char e[40], dig[20];
    const char *x;
    int nd = 0, exp10, w;
    double back;
    snprintf(e, sizeof e, "%.*e", prec - 1, a);
    for (x = e; *x && *x != 'e'; x++)
      if (is_digit(*x)) dig[nd++] = *x;
    exp10 = atoi(x + 1);
    if (exp10 < -15 || exp10 > 14) continue; /* rounded past the range */
    w = plain_decimal(signbit(r) != 0, dig, nd, exp10, out);
    if (sgf_real_decode(out, (size_t)w, &back, NULL) == 0 && back == r)
      return w;
  }
  return SGF_ERANGE; /* not reached for finite r in range */
}

int sgf_double_decode(const char *raw, size_t len, int *d, size_t *err_off) {
  if (!raw && len) return SGF_EINVAL;
  if (len == 1 && (raw[0] == '1' || raw[0] == '2')) {
    if (d) *d = raw[0] - '0';
    return 0;
  }
  if (len == 0) return sgf__verr(err_off, 0, SGF_ESYNTAX);
  if (sgf_number_decode(raw, len, NULL, err_off) == SGF_ESYNTAX)
    return SGF_ESYNTAX;
  return sgf__verr(err_off, 0, SGF_ERANGE); /* a number, not 1 or 2 */
}

int sgf_color_decode(const char *raw, size_t len, char *c, size_t *err_off) {
  if (!raw && len) return SGF_EINVAL;
  if (len == 0) return sgf__verr(err_off, 0, SGF_ESYNTAX);
  if (raw[0] != 'B' && raw[0] != 'W') return sgf__verr(err_off, 0, SGF_ESYNTAX);
  if (len > 1) return sgf__verr(err_off, 1, SGF_ESYNTAX);
  if (c) *c = raw[0];
  return 0;
}

int sgf_compose_split(const char *raw, size_t len, size_t *colon,
                      size_t *err_off) {
  size_t i;
  if (!raw && len) return SGF_EINVAL;
  for (i = 0; i < len; i++) {
    if (raw[i] == '\\')
      i++;
    else if (raw[i] == ':') {
      if (colon) *colon = i;
      return 0;
    }
  }
  return sgf__verr(err_off, len, SGF_ESYNTAX);
}
