/* scan.c - bulk scanners: portable, SSE2, AVX2, NEON (see scan.h). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "scan.h"

#if !defined(SGF_DISABLE_SIMD) && (defined(__x86_64__) || defined(_M_X64))
#define SGF_X86 1
#include <immintrin.h>
#elif !defined(SGF_DISABLE_SIMD) && defined(__aarch64__)
#define SGF_NEON 1
#include <arm_neon.h>
#endif

/* ------------------------------------------------------------ portable */

static const unsigned char value_stop[256] = {
    [']'] = 1, ['\\'] = 1, ['\n'] = 1, ['\r'] = 1, [0] = 1};
static const unsigned char skip_stop[256] = {
    ['('] = 1, [')'] = 1, ['['] = 1, ['\n'] = 1, ['\r'] = 1};

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

static const unsigned char *scan_skip_portable(const unsigned char *s,
                                               const unsigned char *end) {
  while (s < end && !skip_stop[*s]) s++;
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

#if defined(SGF_X86) || defined(SGF_NEON)
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

static const unsigned char *scan_skip_sse2(const unsigned char *s,
                                           const unsigned char *end) {
  const __m128i lp = _mm_set1_epi8('('), rp = _mm_set1_epi8(')'),
                lb = _mm_set1_epi8('['), lf = _mm_set1_epi8('\n'),
                cr = _mm_set1_epi8('\r');
  while (end - s >= 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i m = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, lp), _mm_cmpeq_epi8(v, rp)),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lb), _mm_cmpeq_epi8(v, lf)),
                     _mm_cmpeq_epi8(v, cr)));
    unsigned bits = (unsigned)_mm_movemask_epi8(m);
    if (bits) return s + ctz32(bits);
    s += 16;
  }
  return scan_skip_portable(s, end);
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

__attribute__((target("avx2"))) static const unsigned char *scan_skip_avx2(
    const unsigned char *s, const unsigned char *end) {
  const __m256i lp = _mm256_set1_epi8('('), rp = _mm256_set1_epi8(')'),
                lb = _mm256_set1_epi8('['), lf = _mm256_set1_epi8('\n'),
                cr = _mm256_set1_epi8('\r');
  while (end - s >= 32) {
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)s);
    __m256i m = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(v, lp), _mm256_cmpeq_epi8(v, rp)),
        _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, lb), _mm256_cmpeq_epi8(v, lf)),
            _mm256_cmpeq_epi8(v, cr)));
    unsigned bits = (unsigned)_mm256_movemask_epi8(m);
    if (bits) return s + ctz32(bits);
    s += 32;
  }
  return scan_skip_sse2(s, end);
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

/* A 64-bit mask, bit i set when lane i of a 0x00/0xFF mask is set. */
static inline uint64_t lane_bits(uint8x16_t m) {
  static const uint8_t weight[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                     1, 2, 4, 8, 16, 32, 64, 128};
  uint8x16_t w = vandq_u8(m, vld1q_u8(weight));
  uint64_t lo = vaddv_u8(vget_low_u8(w)), hi = vaddv_u8(vget_high_u8(w));
  return lo | (hi << 8);
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

static const unsigned char *scan_skip_neon(const unsigned char *s,
                                           const unsigned char *end) {
  while (end - s >= 16) {
    uint8x16_t v = vld1q_u8(s);
    uint8x16_t m = vorrq_u8(
        vorrq_u8(vceqq_u8(v, vdupq_n_u8('(')), vceqq_u8(v, vdupq_n_u8(')'))),
        vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('[')),
                          vceqq_u8(v, vdupq_n_u8('\n'))),
                 vceqq_u8(v, vdupq_n_u8('\r'))));
    unsigned i = first_lane(m);
    if (i < 16) return s + i;
    s += 16;
  }
  return scan_skip_portable(s, end);
}
#endif /* SGF_NEON */

/* ----------------------------------------------------------- selection */

static const sgf__scanners portable = {scan_value_portable, scan_skip_portable,
                                       scan_text_portable, "portable"};
#ifdef SGF_X86
static const sgf__scanners sse2 = {scan_value_sse2, scan_skip_sse2,
                                   scan_text_sse2, "sse2"};
static const sgf__scanners avx2 = {scan_value_avx2, scan_skip_avx2,
                                   scan_text_avx2, "avx2"};
#endif
#ifdef SGF_NEON
static const sgf__scanners neon = {scan_value_neon, scan_skip_neon,
                                   scan_text_neon, "neon"};
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
