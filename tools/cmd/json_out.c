/* json_out.c - buffered JSON output (json_out.h). */
#include "json_out.h"

#include "bytebuf.h"

#include <stdio.h>
#include <string.h>

void jout_flush(jout *o) {
  if (o->len && o->to)
    bytebuf_add(o->to, o->buf, o->len);
  else if (o->len)
    fwrite(o->buf, 1, o->len, stdout);
  o->len = 0;
}

void jout_bytes_slow(jout *o, const char *s, size_t len) {
  while (len > 0) {
    size_t room = JOUT_CAP - o->len, n = len < room ? len : room;
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    s += n;
    len -= n;
    if (o->len == JOUT_CAP) jout_flush(o);
  }
}

/* Whether any of the 8 bytes at s is below 0x20, '"' or '\\' (the
 * word-at-a-time tests of "Bit Twiddling Hacks": a byte of x that is 0,
 * or below n, sets its high bit in the result, barring bytes >= 0x80,
 * which the & ~x takes out). */
static int needs_escape8(const char *s) {
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  uint64_t x, q, b;
  memcpy(&x, s, 8);
  q = x ^ (ones * '"');
  b = x ^ (ones * '\\');
  return (((x - ones * 0x20) | (q - ones) | (b - ones)) & ~x & high) != 0;
}

void jout_string(jout *o, const char *s, size_t len) {
  static const char hex[] = "0123456789abcdef";
  size_t i, run = 0;
  jout_byte(o, '"');
  for (i = 0; i < len; i++) {
    unsigned char c;
    char esc[6];
    size_t n = 2;
    /* eight bytes at a time while none needs escaping */
    while (len - i >= 8 && !needs_escape8(s + i)) i += 8;
    if (i == len) break;
    c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    jout_bytes(o, s + run, i - run); /* the plain run before it */
    run = i + 1;
    esc[0] = '\\';
    switch (c) {
      case '"':
        esc[1] = '"';
        break;
      case '\\':
        esc[1] = '\\';
        break;
      case '\n':
        esc[1] = 'n';
        break;
      case '\r':
        esc[1] = 'r';
        break;
      case '\t':
        esc[1] = 't';
        break;
      case '\b':
        esc[1] = 'b';
        break;
      case '\f':
        esc[1] = 'f';
        break;
      default:
        memcpy(esc + 1, "u00", 3);
        esc[4] = hex[c >> 4];
        esc[5] = hex[c & 15];
        n = 6;
    }
    jout_bytes(o, esc, n);
  }
  jout_bytes(o, s + run, len - run);
  jout_byte(o, '"');
}

/* Digits by hand: snprintf's format parsing cost more than the rest of
 * a small number (the "parent" of each variation, numbers in values). */
void jout_uint(jout *o, uint64_t n) {
  char b[24];
  size_t k = sizeof b;
  do {
    b[--k] = (char)('0' + n % 10);
    n /= 10;
  } while (n);
  jout_bytes(o, b + k, sizeof b - k);
}

void jout_int(jout *o, int64_t n) {
  if (n < 0) {
    jout_byte(o, '-');
    jout_uint(o, 0 - (uint64_t)n); /* INT64_MIN too */
    return;
  }
  jout_uint(o, (uint64_t)n);
}
