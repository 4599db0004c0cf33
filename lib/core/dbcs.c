/* dbcs.c - the double-byte look-ahead: whether a ']' (or the backslash
 * before it) in a value is a trail byte of double-byte text.
 *
 * DOUBLE-BYTE TEXT. In Shift_JIS, GBK, GB18030 and Big5 the second byte of
 * a character may be '\' (0x5C) or ']' (0x5D). Writers disagree: some
 * escape such bytes like any other (SGFC does), others write the
 * characters as they are (Nihon Ki-in's downloads, with no CA at all), so
 * "PB[..\x83\\]" ends the value for one and escapes the ']' for the
 * other. Byte rules alone swallow the next properties of the second kind
 * without a word. So in lenient mode, where a byte that can lead a
 * double-byte character (0x81..0xFE, not the end of a valid UTF-8
 * sequence) stands right before "\]" or "]", what follows the ']'
 * decides: blanks and then ';' '(' ')' '[' or letters and '[' (or the end
 * of input) mean the ']' closes the value; anything else means it does
 * not. When that overrules byte rules, a warning says so (dbcs-backslash,
 * dbcs-bracket). Strict mode reads FF[4] to the letter, byte rules only,
 * as valid FF[4] such as the writer's output needs: text with such a byte
 * before an escaped ']' and SGF-like text after it reads differently in
 * lenient mode, whose reading is the repair real double-byte files need.
 * The decision looks at most
 * SGF__LOOKAHEAD bytes ahead; when a chunk ends before it can be made, the
 * rest of the chunk is held back in the parser (la) and parsed first with
 * the next feed, so decisions, like everything else, do not depend on
 * where chunks end. The bytes before a ']' may be in an earlier chunk:
 * the last few bytes of the open value are kept (vtail). Valid UTF-8 text
 * never meets the rule; skipped game trees and orphan values keep byte
 * rules.
 */
#include <stdint.h>
#include <string.h>

#include "parser.h"

static int is_blank_byte(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

static int is_alpha_byte(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Does the ']' just before s close its value? LA_CLOSE if blanks and then
 * ';' '(' ')' '[', or letters and '[', follow (or the end of input, or
 * SGF__LOOKAHEAD bytes without an answer), LA_GO_ON if something else
 * does, LA_NEED if the bytes up to end do not tell yet. */
int sgf__bracket_closes(const unsigned char *s, const unsigned char *end,
                        int eof) {
  size_t n = (size_t)(end - s), i = 0;
  int letters = 0;
  if (n > SGF__LOOKAHEAD) n = SGF__LOOKAHEAD;
  while (i < n && is_blank_byte(s[i])) i++;
  if (i < n && is_alpha_byte(s[i])) {
    letters = 1;
    while (i < n && is_alpha_byte(s[i])) i++;
    while (i < n && is_blank_byte(s[i])) i++;
  }
  if (i == n) return (n == SGF__LOOKAHEAD || eof) ? LA_CLOSE : LA_NEED;
  if (s[i] == '[') return LA_CLOSE;
  if (!letters && (s[i] == ';' || s[i] == '(' || s[i] == ')')) return LA_CLOSE;
  return LA_GO_ON;
}

/* 1 if the last of the n value bytes b (oldest first) may lead a
 * double-byte character: 0x81..0xFE, and not the end of a valid UTF-8
 * sequence. (A backslash before it proves nothing: it may be the trail
 * byte of the character before.) */
static int dbcs_lead_at_end(const unsigned char *b, size_t n) {
  unsigned char c;
  size_t j;
  if (n == 0) return 0;
  c = b[n - 1];
  if (c < 0x81 || c == 0xFF) return 0;
  if (c >= 0xC0) return 1; /* a UTF-8 lead byte ends no sequence */
  for (j = 1; j <= 3 && j < n; j++) {
    unsigned char x = b[n - 1 - j];
    if (x >= 0x80 && x <= 0xBF) continue;
    if ((j == 1 && x >= 0xC2 && x <= 0xDF) ||
        (j == 2 && x >= 0xE0 && x <= 0xEF) ||
        (j == 3 && x >= 0xF0 && x <= 0xF4))
      return 0;
    break;
  }
  return 1;
}

/* The up to SGF__VTAIL bytes of the open value just before at (in the buffer
 * being parsed, p->buf), oldest first, into out: vtail's, then the
 * buffer's from the value's first byte on. Returns how many. */
static size_t value_before(const sgf_parser *p, const unsigned char *at,
                           unsigned char *out) {
  const unsigned char *buf = p->buf;
  const uint64_t base = p->offset; /* while feeding: where buf starts */
  const uint64_t first = p->value_pos.off + 1;
  const unsigned char *lo = buf;
  size_t nb, nt = 0;
  if (first > base) lo = buf + (size_t)(first - base);
  nb = at > lo ? (size_t)(at - lo) : 0;
  if (nb > SGF__VTAIL) nb = SGF__VTAIL;
  if (nb < SGF__VTAIL && first < base) {
    nt = p->vtail_len < SGF__VTAIL - nb ? p->vtail_len : SGF__VTAIL - nb;
    memcpy(out, p->vtail + p->vtail_len - nt, nt);
  }
  memcpy(out + nt, at - nb, nb);
  return nt + nb;
}

/* May the byte before the backslash just before at lead a double-byte
 * character? (at is the escaped byte.) Never in strict mode. */
int sgf__dbcs_before_escape(const sgf_parser *p, const unsigned char *at) {
  unsigned char b[SGF__VTAIL];
  size_t n;
  if (p->flags & SGF_OPT_STRICT) return 0;
  n = value_before(p, at, b);
  return n >= 2 && dbcs_lead_at_end(b, n - 1);
}

/* May the byte just before at lead a double-byte character? Never in
 * strict mode. */
int sgf__dbcs_before(const sgf_parser *p, const unsigned char *at) {
  unsigned char b[SGF__VTAIL];
  size_t n;
  if (p->flags & SGF_OPT_STRICT) return 0;
  n = value_before(p, at, b);
  return dbcs_lead_at_end(b, n);
}

/* Leaving a buffer at s in state st: keep the open value's last bytes. */
void sgf__keep_vtail(sgf_parser *p, int st, const unsigned char *s) {
  unsigned char b[SGF__VTAIL];
  if (st == ST_VALUE || st == ST_VALUE_ESC || st == ST_VALUE_TRAIL) {
    p->vtail_len = value_before(p, s, b);
    memcpy(p->vtail, b, p->vtail_len);
  } else {
    p->vtail_len = 0;
  }
}
