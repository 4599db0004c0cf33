/* scan.c - bulk scanners: portable, SSE2, AVX2, NEON, WebAssembly SIMD128
 * (see scan.h). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "scan.h"
#include "moves.h"

#if !defined(SGF_DISABLE_SIMD) && (defined(__x86_64__) || defined(_M_X64))
#define SGF_X86 1
#include <immintrin.h>
#elif !defined(SGF_DISABLE_SIMD) && defined(__aarch64__)
#define SGF_NEON 1
#include <arm_neon.h>

#include "lanes.h"
#elif !defined(SGF_DISABLE_SIMD) && defined(__wasm_simd128__)
#define SGF_WASM 1
#include <wasm_simd128.h>
#endif

/* ------------------------------------------------------------ portable */

static const unsigned char value_stop[256] = {
    [']'] = 1, ['\\'] = 1, ['\n'] = 1, ['\r'] = 1, [0] = 1};

static const unsigned char *scan_value_portable(const unsigned char *s,
                                                const unsigned char *end) {
  while (end - s >= 4) {
    if (value_stop[s[0]]) return s;
    if (value_stop[s[1]]) return s + 1;
    if (value_stop[s[2]]) return s + 2;
    if (value_stop[s[3]]) return s + 3;
    s += 4;
  }
  while (s < end && !value_stop[*s]) s++;
  return s;
}

/* Text: 1 stops, 2 CR, 3 LF. */
enum { T_STOP = 1, T_CR = 2, T_LF = 3 };
static const unsigned char text_class[256] = {[']'] = T_STOP,
                                              ['\\'] = T_STOP,
                                              [0] = T_STOP,
                                              ['\r'] = T_CR,
                                              ['\n'] = T_LF};

/* The text scanner's byte loop, adding to *ln (prev_cr: the byte before
 * s is a CR). Also the tail of the SIMD versions. */
static const unsigned char *text_tail(const unsigned char *s,
                                      const unsigned char *end, int prev_cr,
                                      sgf__lines *ln) {
  for (; s < end; s++) {
    unsigned c = text_class[*s];
    if (c == 0) {
      prev_cr = 0;
    } else if (c == T_CR) {
      ln->n++;
      ln->last = ln->last_cr = s;
      prev_cr = 1;
    } else if (c == T_LF) {
      ln->n += !prev_cr;
      ln->last = s;
      prev_cr = 0;
    } else {
      break;
    }
  }
  return s;
}

static const unsigned char *scan_text_portable(const unsigned char *s,
                                               const unsigned char *end,
                                               int cr_before, sgf__lines *ln) {
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  return text_tail(s, end, cr_before, ln);
}

#if defined(SGF_X86) || defined(SGF_NEON) || defined(SGF_WASM)
/* One block of up to 64 bytes at s as bit masks (bit i: byte s[i]) of its
 * stops, CRs and LFs: count the line breaks before the first stop into
 * *ln. Returns the index of the first stop, or -1; *carry says whether the
 * block's last byte is a CR (the next block's prev_cr). width: the
 * block's size in bits. */
static inline int text_block(const unsigned char *s, uint64_t stop, uint64_t cr,
                             uint64_t lf, unsigned width, int *carry,
                             sgf__lines *ln) {
  uint64_t keep = stop ? (stop & (0 - stop)) - 1 : ~(uint64_t)0;
  uint64_t nl;
  cr &= keep;
  lf &= keep;
  ln->n += (uint64_t)__builtin_popcountll(cr) +
           (uint64_t)__builtin_popcountll(lf & ~((cr << 1) | (uint64_t)*carry));
  nl = cr | lf;
  if (nl) ln->last = s + (63 - __builtin_clzll(nl));
  if (cr) ln->last_cr = s + (63 - __builtin_clzll(cr));
  if (stop) return __builtin_ctzll(stop);
  *carry = (int)((cr >> (width - 1)) & 1);
  return -1;
}
#endif

/* ------------------------------------------------- SKIPPING A TREE
 *
 * A skipped game tree needs only its brackets, backslashes and
 * parentheses (and its line breaks, for the positions after it). The
 * byte loop below (tree_bytes) is the rule; the SIMD versions find the
 * same answer 64 bytes at a time from bit masks (bit i: byte i) of
 * '[' ']' '\\' '(' ')' CR LF, so that the cost of a block does not
 * depend on how many short values it holds (tree_block):
 *   1. escaped bytes, as simdjson finds them in JSON strings: a byte is
 *      escaped when an odd run of backslashes ends just before it (a run
 *      may come from the block before);
 *   2. the unescaped brackets toggle "inside a value": a prefix XOR of
 *      their mask gives the state before every byte;
 *   3. that reading is the rule's if the block holds no unescaped '['
 *      inside a value and no ']' or '\\' outside one: then a bracket
 *      toggles exactly where the rule says it does. Otherwise the block
 *      goes through the byte loop (a comment with a bare '[', junk
 *      between nodes: rare);
 *   4. parentheses outside values count levels; only a block with a ')'
 *      outside values walks its parentheses one by one.
 * The last bytes of a buffer are copied into a 64-byte block padded with
 * spaces, so the end of a chunk costs one block like any other. */

/* The bytes the rule stops at, outside a value and inside one. */
static const unsigned char out_stop[256] = {
    ['['] = 1, ['('] = 1, [')'] = 1, ['\r'] = 1, ['\n'] = 1};
static const unsigned char in_stop[256] = {
    [']'] = 1, ['\\'] = 1, ['\r'] = 1, ['\n'] = 1};

/* The rule, from s, adding to *ln (prev_cr: the byte before s is a CR).
 * Returns the closing ')' or end. The state is kept in locals; the runs
 * between stops are passed by a table loop. */
static const unsigned char *tree_bytes(const unsigned char *s,
                                       const unsigned char *end, int prev_cr,
                                       sgf__skip *sk, sgf__lines *ln) {
  const unsigned char *cr_after = prev_cr ? s : NULL; /* just after a CR */
  uint64_t levels = sk->levels, n = ln->n;
  int in = sk->in_value;
  if (s < end && sk->escaped) { /* the escaped byte: only a line break */
    sk->escaped = 0;
    goto escaped;
  }
  while (s < end) {
    unsigned c;
    if (!in) {
      while (s < end && !out_stop[*s]) s++;
      if (s == end) break;
      c = *s;
      if (c == '[') {
        in = 1;
      } else if (c == '(') {
        if (levels == sk->max_levels) break; /* the depth limit */
        levels++;
      } else if (c == ')') {
        if (levels == 0) break;
        levels--;
      } else {
        goto line_break;
      }
      s++;
      continue;
    }
    while (s < end && !in_stop[*s]) s++;
    if (s == end) break;
    c = *s;
    if (c == ']') {
      in = 0;
      s++;
      continue;
    }
    if (c == '\\') {
      if (++s == end) {
        sk->escaped = 1;
        break;
      }
    escaped:
      c = *s;
      if (c != '\r' && c != '\n') {
        s++;
        continue;
      }
    }
  line_break: /* c is the CR or LF at s */
    if (c == '\r') {
      n++;
      ln->last_cr = s;
      cr_after = s + 1;
    } else if (cr_after != s) {
      n++;
    }
    ln->last = s++;
  }
  sk->levels = levels;
  sk->in_value = in;
  ln->n = n;
  return s;
}

static const unsigned char *scan_tree_portable(const unsigned char *s,
                                               const unsigned char *end,
                                               int cr_before, sgf__skip *sk,
                                               sgf__lines *ln) {
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  return tree_bytes(s, end, cr_before != 0, sk, ln);
}

#if defined(SGF_X86) || defined(SGF_NEON) || defined(SGF_WASM)
/* Inlined into each SIMD function, so that its target's instructions
 * (popcnt) serve the bit arithmetic too. */
#define TREE_INLINE static inline __attribute__((always_inline))

/* A block's masks (bit i: byte i). */
typedef struct tree_masks {
  uint64_t lb, rb, bs, lp, rp, cr, lf;
} tree_masks;

/* Bit i set when an odd number of bits at or below i are set. */
TREE_INLINE uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/* Bytes escaped by a backslash run (simdjson's odd-run trick), bit 64
 * included: *next says whether the byte after the block is escaped. esc:
 * the block's first byte is. */
TREE_INLINE uint64_t escaped_bits(uint64_t bs, uint64_t esc, uint64_t *next) {
  const uint64_t odd = 0xAAAAAAAAAAAAAAAAull;
  uint64_t pot, code;
  if (bs == 0) {
    *next = 0;
    return esc;
  }
  pot = bs & ~esc;
  code = (((pot << 1) | odd) - pot) ^ odd;
  *next = (code & bs) >> 63;
  return code ^ (bs | esc);
}

/* The line breaks among the bytes of keep, into *ln; *carry: the byte
 * before the block is a CR. */
TREE_INLINE void tree_lines(const unsigned char *s, uint64_t cr, uint64_t lf,
                            uint64_t keep, int carry, sgf__lines *ln) {
  uint64_t nl;
  cr &= keep;
  lf &= keep;
  nl = cr | lf;
  if (!nl) return;
  ln->n += (uint64_t)__builtin_popcountll(cr) +
           (uint64_t)__builtin_popcountll(lf & ~((cr << 1) | (uint64_t)carry));
  ln->last = s + (63 - __builtin_clzll(nl));
  if (cr) ln->last_cr = s + (63 - __builtin_clzll(cr));
}

/* One block of n (1..64) bytes at s, its masks m (no bit at n or above):
 * returns the index of the closing ')', 64 if there is none (*sk, *ln and
 * *carry then describe the end of the block), or -1 if the block must go
 * through the byte loop (nothing changed): one it cannot read, or one
 * that would pass sk->max_levels. */
TREE_INLINE int tree_block(const unsigned char *s, const tree_masks *m,
                           unsigned n, int *carry, sgf__skip *sk,
                           sgf__lines *ln) {
  uint64_t next, esc, lb, rb, x, before, out, op, cp, levels = sk->levels;
  esc = escaped_bits(m->bs, (uint64_t)sk->escaped, &next);
  lb = m->lb & ~esc;
  rb = m->rb & ~esc;
  x = prefix_xor(lb | rb); /* the state after each byte */
  if (sk->in_value) x = ~x;
  before = (x << 1) | (uint64_t)sk->in_value;
  if ((lb & before) | ((rb | m->bs) & ~before)) return -1;
  out = ~before;
  op = m->lp & out;
  cp = m->rp & out;
  if (cp) { /* a ')' may close the tree: the parentheses in order */
    uint64_t b = op | cp;
    while (b) {
      uint64_t low = b & (0 - b);
      if (low & op) {
        if (sk->levels == sk->max_levels) { /* the depth limit */
          sk->levels = levels;
          return -1; /* the byte loop stops at that '(' */
        }
        sk->levels++;
      } else if (sk->levels == 0) {
        int at = __builtin_ctzll(low);
        tree_lines(s, m->cr, m->lf, low - 1, *carry, ln);
        sk->in_value = 0;
        sk->escaped = 0;
        return at;
      } else {
        sk->levels--;
      }
      b ^= low;
    }
  } else if (op) {
    uint64_t k = (uint64_t)__builtin_popcountll(op);
    if (k > sk->max_levels - levels) return -1; /* the depth limit */
    sk->levels += k;
  }
  tree_lines(s, m->cr, m->lf, ~(uint64_t)0, *carry, ln);
  if (n == 64) {
    sk->in_value = (int)(x >> 63);
    sk->escaped = (int)next;
    *carry = (int)(m->cr >> 63);
  } else { /* the padding is spaces: the state after byte n - 1 */
    sk->in_value = (int)((x >> (n - 1)) & 1);
    sk->escaped = (int)((esc >> n) & 1);
    *carry = (int)((m->cr >> (n - 1)) & 1);
  }
  return 64;
}

/* A block with no backslash and no parenthesis, its first byte not
 * escaped (QUICK below found it so, and filled m's lb, rb, cr and lf):
 * nothing in it is escaped, so the state after it is that after its last
 * bracket, whatever came before: a '[' opens a value or stands inside
 * one, a ']' closes the value or stands outside one. No prefix XOR, and
 * no fallback for a bare '[' in a comment or a stray ']'. */
TREE_INLINE void tree_quick(const unsigned char *s, const tree_masks *m,
                            unsigned n, int *carry, sgf__skip *sk,
                            sgf__lines *ln) {
  uint64_t b = m->lb | m->rb;
  if (b) sk->in_value = (int)((m->lb >> (63 - __builtin_clzll(b))) & 1);
  if (m->cr == 0) { /* LF only (or nothing): the common case */
    if (m->lf) {
      ln->n += (uint64_t)__builtin_popcountll(m->lf & ~(uint64_t)*carry);
      ln->last = s + (63 - __builtin_clzll(m->lf));
    }
    *carry = 0;
    return;
  }
  tree_lines(s, m->cr, m->lf, ~(uint64_t)0, *carry, ln);
  *carry = (int)((m->cr >> (n - 1)) & 1);
}

/* The loop around tree_block, for a function MASKS(p, &m) that fills the
 * masks of the 64 bytes at p, and QUICK(p, &m) that fills lb, rb, cr
 * and lf only, and returns 0 (the block then goes to MASKS and
 * tree_block) if the block holds a backslash or a parenthesis: most
 * blocks of a game's moves and comments hold neither. The line count is
 * kept in locals (lc), which stay in registers, and stored once. */
#define TREE_LOOP(MASKS, QUICK)                                        \
  do {                                                                 \
    int carry = cr_before != 0;                                        \
    sgf__lines lc = {0, NULL, NULL, 0};                                \
    while (s < end) {                                                  \
      unsigned char pad[64];                                           \
      const unsigned char *p = s;                                      \
      unsigned n = 64;                                                 \
      tree_masks m;                                                    \
      int at;                                                          \
      if (end - s < 64) {                                              \
        n = (unsigned)(end - s);                                       \
        memset(pad, ' ', sizeof pad);                                  \
        memcpy(pad, s, n);                                             \
        p = pad;                                                       \
      }                                                                \
      if (!sk->escaped && QUICK(p, &m)) {                              \
        tree_quick(s, &m, n, &carry, sk, &lc);                         \
        s += n;                                                        \
        continue;                                                      \
      }                                                                \
      MASKS(p, &m);                                                    \
      if ((m.lb | m.rb | m.bs | m.lp | m.rp | m.cr | m.lf) == 0) {     \
        sk->escaped = 0;                                               \
        carry = 0;                                                     \
        s += n;                                                        \
        continue;                                                      \
      }                                                                \
      at = tree_block(s, &m, n, &carry, sk, &lc);                      \
      if (at < 0) {                                                    \
        const unsigned char *r = tree_bytes(s, s + n, carry, sk, &lc); \
        if (r < s + n) {                                               \
          s = r;                                                       \
          break;                                                       \
        }                                                              \
        carry = s[n - 1] == '\r';                                      \
      } else if (at < 64) {                                            \
        s += at;                                                       \
        break;                                                         \
      }                                                                \
      s += n;                                                          \
    }                                                                  \
    *ln = lc;                                                          \
    return s;                                                          \
  } while (0)
#endif

/* ---------------------------------------------------------------- x86 */
#ifdef SGF_X86
static inline unsigned ctz32(unsigned x) { return (unsigned)__builtin_ctz(x); }

static const unsigned char *scan_value_sse2(const unsigned char *s,
                                            const unsigned char *end) {
  const __m128i rb = _mm_set1_epi8(']'), bs = _mm_set1_epi8('\\'),
                lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                nul = _mm_setzero_si128();
  while (end - s >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i m = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, rb), _mm_cmpeq_epi8(v, bs)),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)),
                     _mm_cmpeq_epi8(v, nul)));
    unsigned bits = (unsigned)_mm_movemask_epi8(m);
    if (bits) return s + ctz32(bits);
    s += 16;
  }
  return scan_value_portable(s, end);
}

static const unsigned char *scan_text_sse2(const unsigned char *s,
                                           const unsigned char *end,
                                           int cr_before, sgf__lines *ln) {
  const __m128i rb = _mm_set1_epi8(']'), bs = _mm_set1_epi8('\\'),
                lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'),
                nul = _mm_setzero_si128();
  int carry = cr_before != 0;
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  while (end - s >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    uint64_t stop = (unsigned)_mm_movemask_epi8(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, rb), _mm_cmpeq_epi8(v, bs)),
                     _mm_cmpeq_epi8(v, nul)));
    uint64_t c = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, cr));
    uint64_t l = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));
    int at;
    if ((stop | c | l) == 0) {
      carry = 0;
      s += 16;
      continue;
    }
    at = text_block(s, stop, c, l, 16, &carry, ln);
    if (at >= 0) return s + at;
    s += 16;
  }
  return text_tail(s, end, carry, ln);
}

__attribute__((target("avx2"))) static const unsigned char *scan_value_avx2(
    const unsigned char *s, const unsigned char *end) {
  const __m256i rb = _mm256_set1_epi8(']'), bs = _mm256_set1_epi8('\\'),
                lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r'),
                nul = _mm256_setzero_si256();
  while (end - s >= 32) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
    __m256i m = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, rb), _mm256_cmpeq_epi8(v, bs)),
        _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, lf), _mm256_cmpeq_epi8(v, cr)),
            _mm256_cmpeq_epi8(v, nul)));
    unsigned bits = (unsigned)_mm256_movemask_epi8(m);
    if (bits) return s + ctz32(bits);
    s += 32;
  }
  return scan_value_sse2(s, end);
}

__attribute__((target("avx2,popcnt"))) static const unsigned char *
scan_text_avx2(const unsigned char *s, const unsigned char *end, int cr_before,
               sgf__lines *ln) {
  const __m256i rb = _mm256_set1_epi8(']'), bs = _mm256_set1_epi8('\\'),
                lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r'),
                nul = _mm256_setzero_si256();
  int carry = cr_before != 0;
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  while (end - s >= 32) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
    uint64_t stop = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, rb), _mm256_cmpeq_epi8(v, bs)),
        _mm256_cmpeq_epi8(v, nul)));
    uint64_t c = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, cr));
    uint64_t l = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, lf));
    int at;
    if ((stop | c | l) == 0) {
      carry = 0;
      s += 32;
      continue;
    }
    at = text_block(s, stop, c, l, 32, &carry, ln);
    if (at >= 0) return s + at;
    s += 32;
  }
  return text_tail(s, end, carry, ln);
}

/* The tree masks of 64 bytes, 16 at a time. quick: only lb, rb, cr and
 * lf, and 0 returned if the bytes hold a '\\', '(' or ')' (QUICK of
 * TREE_LOOP). */
static inline int tree_bits_sse2(const unsigned char *p, tree_masks *m,
                                 int quick) {
  const __m128i lb = _mm_set1_epi8('['), rb = _mm_set1_epi8(']'),
                bs = _mm_set1_epi8('\\'), lp = _mm_set1_epi8('('),
                rp = _mm_set1_epi8(')'), cr = _mm_set1_epi8('\r'),
                lf = _mm_set1_epi8('\n');
  __m128i v[4], rare = _mm_setzero_si128();
  for (int i = 0; i < 4; i++)
    v[i] = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i));
  if (quick) {
    for (int i = 0; i < 4; i++)
      rare = _mm_or_si128(rare,
                          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v[i], bs),
                                                    _mm_cmpeq_epi8(v[i], lp)),
                                       _mm_cmpeq_epi8(v[i], rp)));
    if (_mm_movemask_epi8(rare)) return 0;
  }
  memset(m, 0, sizeof *m);
  for (int i = 0; i < 4; i++) {
    unsigned sh = 16 * (unsigned)i;
#define M_(f, c) \
  m->f |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v[i], c)) << sh
    if (!quick) {
      M_(bs, bs);
      M_(lp, lp);
      M_(rp, rp);
    }
    M_(lb, lb);
    M_(rb, rb);
    M_(cr, cr);
    M_(lf, lf);
#undef M_
  }
  return 1;
}
static inline void tree_masks_sse2(const unsigned char *p, tree_masks *m) {
  tree_bits_sse2(p, m, 0);
}
static inline int tree_quick_sse2(const unsigned char *p, tree_masks *m) {
  return tree_bits_sse2(p, m, 1);
}

static const unsigned char *scan_tree_sse2(const unsigned char *s,
                                           const unsigned char *end,
                                           int cr_before, sgf__skip *sk,
                                           sgf__lines *ln) {
  TREE_LOOP(tree_masks_sse2, tree_quick_sse2);
}

/* The tree masks of 64 bytes. quick: only lb, rb, cr and lf, and 0
 * returned if the bytes hold a '\\', '(' or ')' (QUICK of TREE_LOOP). */
__attribute__((target("avx2"))) static inline int tree_bits_avx2(
    const unsigned char *p, tree_masks *m, int quick) {
  const __m256i lb = _mm256_set1_epi8('['), rb = _mm256_set1_epi8(']'),
                bs = _mm256_set1_epi8('\\'), lp = _mm256_set1_epi8('('),
                rp = _mm256_set1_epi8(')'), cr = _mm256_set1_epi8('\r'),
                lf = _mm256_set1_epi8('\n');
  __m256i v0 = _mm256_loadu_si256((const __m256i *)(const void *)p);
  __m256i v1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
#define R_(v)                                                              \
  _mm256_or_si256(                                                         \
      _mm256_or_si256(_mm256_cmpeq_epi8(v, bs), _mm256_cmpeq_epi8(v, lp)), \
      _mm256_cmpeq_epi8(v, rp))
#define M_(c)                                                           \
  ((uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v0, c)) | \
   (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v1, c)) << 32)
  if (quick) {
    __m256i r = _mm256_or_si256(R_(v0), R_(v1));
    if (!_mm256_testz_si256(r, r)) return 0;
  } else {
    m->bs = M_(bs);
    m->lp = M_(lp);
    m->rp = M_(rp);
  }
  m->lb = M_(lb);
  m->rb = M_(rb);
  m->cr = M_(cr);
  m->lf = M_(lf);
#undef M_
#undef R_
  return 1;
}
__attribute__((target("avx2"))) static inline void tree_masks_avx2(
    const unsigned char *p, tree_masks *m) {
  tree_bits_avx2(p, m, 0);
}
__attribute__((target("avx2"))) static inline int tree_quick_avx2(
    const unsigned char *p, tree_masks *m) {
  return tree_bits_avx2(p, m, 1);
}

__attribute__((target("avx2,popcnt"))) static const unsigned char *
scan_tree_avx2(const unsigned char *s, const unsigned char *end, int cr_before,
               sgf__skip *sk, sgf__lines *ln) {
  TREE_LOOP(tree_masks_avx2, tree_quick_avx2);
}
#endif /* SGF_X86 */

/* --------------------------------------------------------------- NEON */
#ifdef SGF_NEON
/* Index of the first set byte lane of a 0x00/0xFF mask, or 16. */
static inline unsigned first_lane(uint8x16_t m) {
  uint64_t lo = vgetq_lane_u64(vreinterpretq_u64_u8(m), 0);
  uint64_t hi = vgetq_lane_u64(vreinterpretq_u64_u8(m), 1);
  if (lo) return (unsigned)__builtin_ctzll(lo) / 8;
  if (hi) return 8 + (unsigned)__builtin_ctzll(hi) / 8;
  return 16;
}

static const unsigned char *scan_value_neon(const unsigned char *s,
                                            const unsigned char *end) {
  while (end - s >= 16) {
    uint8x16_t v = vld1q_u8(s);
    uint8x16_t m = vorrq_u8(
        vorrq_u8(vceqq_u8(v, vdupq_n_u8(']')), vceqq_u8(v, vdupq_n_u8('\\'))),
        vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('\n')),
                          vceqq_u8(v, vdupq_n_u8('\r'))),
                 vceqq_u8(v, vdupq_n_u8(0))));
    unsigned i = first_lane(m);
    if (i < 16) return s + i;
    s += 16;
  }
  return scan_value_portable(s, end);
}

static const unsigned char *scan_text_neon(const unsigned char *s,
                                           const unsigned char *end,
                                           int cr_before, sgf__lines *ln) {
  int carry = cr_before != 0;
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  while (end - s >= 16) {
    uint8x16_t v = vld1q_u8(s);
    uint8x16_t ms = vorrq_u8(
        vorrq_u8(vceqq_u8(v, vdupq_n_u8(']')), vceqq_u8(v, vdupq_n_u8('\\'))),
        vceqq_u8(v, vdupq_n_u8(0)));
    uint8x16_t mc = vceqq_u8(v, vdupq_n_u8('\r'));
    uint8x16_t ml = vceqq_u8(v, vdupq_n_u8('\n'));
    int at;
    if (vmaxvq_u8(vorrq_u8(ms, vorrq_u8(mc, ml))) == 0) {
      carry = 0;
      s += 16;
      continue;
    }
    at = text_block(s, lane_bits(ms), lane_bits(mc), lane_bits(ml), 16, &carry,
                    ln);
    if (at >= 0) return s + at;
    s += 16;
  }
  return text_tail(s, end, carry, ln);
}

/* The tree masks of 64 bytes, 16 at a time. */
static inline void tree_masks_neon(const unsigned char *p, tree_masks *m) {
  memset(m, 0, sizeof *m);
  for (int i = 0; i < 4; i++) {
    uint8x16_t v = vld1q_u8(p + 16 * i);
    unsigned sh = 16 * (unsigned)i;
#define M_(f, c) m->f |= lane_bits(vceqq_u8(v, vdupq_n_u8(c))) << sh
    M_(lb, '[');
    M_(rb, ']');
    M_(bs, '\\');
    M_(lp, '(');
    M_(rp, ')');
    M_(cr, '\r');
    M_(lf, '\n');
#undef M_
  }
}

/* QUICK for NEON: the full masks, 0 if they hold a '\\', '(' or ')'. */
static inline int tree_quick_neon(const unsigned char *p, tree_masks *m) {
  tree_masks_neon(p, m);
  return (m->bs | m->lp | m->rp) == 0;
}

static const unsigned char *scan_tree_neon(const unsigned char *s,
                                           const unsigned char *end,
                                           int cr_before, sgf__skip *sk,
                                           sgf__lines *ln) {
  TREE_LOOP(tree_masks_neon, tree_quick_neon);
}
#endif /* SGF_NEON */

/* ------------------------------------------------------- WebAssembly */
#ifdef SGF_WASM
/* (clang -msimd128: the js/ module; i8x16.bitmask is SSE2's movemask) */
#define WEQ(v, c) wasm_i8x16_eq(v, wasm_i8x16_splat(c))

static const unsigned char *scan_value_wasm(const unsigned char *s,
                                            const unsigned char *end) {
  while (end - s >= 16) {
    v128_t v = wasm_v128_load(s);
    v128_t m = wasm_v128_or(
        wasm_v128_or(WEQ(v, ']'), WEQ(v, '\\')),
        wasm_v128_or(wasm_v128_or(WEQ(v, '\n'), WEQ(v, '\r')), WEQ(v, 0)));
    unsigned bits = (unsigned)wasm_i8x16_bitmask(m);
    if (bits) return s + __builtin_ctz(bits);
    s += 16;
  }
  return scan_value_portable(s, end);
}

static const unsigned char *scan_text_wasm(const unsigned char *s,
                                           const unsigned char *end,
                                           int cr_before, sgf__lines *ln) {
  int carry = cr_before != 0;
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  while (end - s >= 16) {
    v128_t v = wasm_v128_load(s);
    v128_t ms =
        wasm_v128_or(wasm_v128_or(WEQ(v, ']'), WEQ(v, '\\')), WEQ(v, 0));
    v128_t mc = WEQ(v, '\r'), ml = WEQ(v, '\n');
    int at;
    if (!wasm_v128_any_true(wasm_v128_or(ms, wasm_v128_or(mc, ml)))) {
      carry = 0;
      s += 16;
      continue;
    }
    at = text_block(s, (uint64_t)wasm_i8x16_bitmask(ms),
                    (uint64_t)wasm_i8x16_bitmask(mc),
                    (uint64_t)wasm_i8x16_bitmask(ml), 16, &carry, ln);
    if (at >= 0) return s + at;
    s += 16;
  }
  return text_tail(s, end, carry, ln);
}

/* The tree masks of 64 bytes, 16 at a time. quick: only lb, rb, cr and
 * lf, and 0 returned if the bytes hold a '\\', '(' or ')' (QUICK of
 * TREE_LOOP). */
static inline int tree_bits_wasm(const unsigned char *p, tree_masks *m,
                                 int quick) {
  v128_t v[4];
  for (int i = 0; i < 4; i++) v[i] = wasm_v128_load(p + 16 * i);
  if (quick) {
    v128_t rare = wasm_i8x16_splat(0);
    for (int i = 0; i < 4; i++)
      rare = wasm_v128_or(
          rare, wasm_v128_or(wasm_v128_or(WEQ(v[i], '\\'), WEQ(v[i], '(')),
                             WEQ(v[i], ')')));
    if (wasm_v128_any_true(rare)) return 0;
  }
  memset(m, 0, sizeof *m);
  for (int i = 0; i < 4; i++) {
    unsigned sh = 16 * (unsigned)i;
#define M_(f, c) m->f |= (uint64_t)wasm_i8x16_bitmask(WEQ(v[i], c)) << sh
    if (!quick) {
      M_(bs, '\\');
      M_(lp, '(');
      M_(rp, ')');
    }
    M_(lb, '[');
    M_(rb, ']');
    M_(cr, '\r');
    M_(lf, '\n');
#undef M_
  }
  return 1;
}
static inline void tree_masks_wasm(const unsigned char *p, tree_masks *m) {
  tree_bits_wasm(p, m, 0);
}
static inline int tree_quick_wasm(const unsigned char *p, tree_masks *m) {
  return tree_bits_wasm(p, m, 1);
}

static const unsigned char *scan_tree_wasm(const unsigned char *s,
                                           const unsigned char *end,
                                           int cr_before, sgf__skip *sk,
                                           sgf__lines *ln) {
  TREE_LOOP(tree_masks_wasm, tree_quick_wasm);
}
#undef WEQ
#endif /* SGF_WASM */

/* ----------------------------------------------------------- selection */

static const sgf__scanners portable = {scan_value_portable, scan_tree_portable,
                                       scan_text_portable, sgf__moves_portable,
                                       "portable"};
#ifdef SGF_X86
static const sgf__scanners sse2 = {scan_value_sse2, scan_tree_sse2,
                                   scan_text_sse2, sgf__moves_sse2, "sse2"};
static const sgf__scanners avx2 = {scan_value_avx2, scan_tree_avx2,
                                   scan_text_avx2, sgf__moves_avx2, "avx2"};
#endif
#ifdef SGF_WASM
static const sgf__scanners wasm = {scan_value_wasm, scan_tree_wasm,
                                   scan_text_wasm, sgf__moves_wasm, "wasm"};
#endif
#ifdef SGF_NEON
static const sgf__scanners neon = {scan_value_neon, scan_tree_neon,
                                   scan_text_neon, sgf__moves_neon, "neon"};
#endif

/* The choice, made once; racing first calls make the same choice and
 * publish the same pointer to constant data. */
static _Atomic(const sgf__scanners *) chosen;

static const sgf__scanners *choose(void) {
  const char *force = getenv("SGF_SIMD");
  int want = 0; /* 0 automatic, 1 portable, 2 sse2, 3 avx2, 4 neon */
  if (force) {
    if (!strcmp(force, "none") || !strcmp(force, "portable"))
      want = 1;
    else if (!strcmp(force, "sse2"))
      want = 2;
    else if (!strcmp(force, "avx2"))
      want = 3;
    else if (!strcmp(force, "neon"))
      want = 4;
  }
  if (want == 1) return &portable;
#ifdef SGF_X86
  if (want == 2) return &sse2;
  if (want == 0 || want == 3) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return &avx2;
  }
  return &sse2;
#elif defined(SGF_NEON)
  return &neon;
#elif defined(SGF_WASM)
  return &wasm;
#else
  return &portable;
#endif
}

const sgf__scanners *sgf__scanners_get(void) {
  const sgf__scanners *c = atomic_load_explicit(&chosen, memory_order_acquire);
  if (!c) {
    c = choose();
    atomic_store_explicit(&chosen, c, memory_order_release);
  }
  return c;
}
