/* moves.c - the move-run scanner (scan.h): passes over a run of move
 * nodes, ";B[qd]", the node that fills most of a game record, when
 * nobody listens to their events (the tokenizer's callback copy with
 * no node, property, value or node-end handler).
 *
 * THE RULE. A node at q is a plain move when q[0] is ';', q[1] an
 * uppercase letter, q[2] '[', q[5] ']', q[3] and q[4] neither a byte
 * the value scanner stops at (']' '\\' LF CR NUL) nor ';', and the node
 * is followed by a ';' at once, after an LF, or after a CR LF (so that
 * the ']' closes the value even after a byte that may lead a
 * double-byte character: dbcs.c). Such a node
 * makes the tokenizer's general path emit nothing but events nobody
 * listens to, and leaves it in the state it was in at q: the run passes
 * over it, counting the line breaks between nodes. The scanner stops at
 * the ';' of the first node that is no plain move, or whose next ';' is
 * not before the end of the buffer: the tokenizer takes that node the
 * general way, so a chunk boundary costs one node on the ordinary path,
 * never a slow mode.
 *
 * THE BLOCKS. The SIMD versions read the rule 64 bytes at a time from
 * bit masks (bit i: byte i) of ';' '[' ']' uppercase letters, the
 * value's forbidden bytes, LF and CR (moves_block): a
 * node at i is good when its letter, brackets and value bytes sit at
 * i+1..i+5 and a ';' follows at i+6, or an LF at i+6 and a ';' at i+7,
 * or CR LF and a ';' at i+8. As a value byte may not be a ';', the ';'
 * bits of a run of good nodes are exactly their starts: the run ends at
 * the lowest ';' bit that is not good. A node whose rule reaches past
 * the block is not good (the bits shifted in are 0): it begins the next
 * block.
 * The line breaks passed are the LFs below that bit (a CR is always
 * followed by its LF). The portable loop reads the same rule byte by
 * byte and finishes every SIMD run (the last bytes of a buffer).
 */
#include <stdint.h>
#include <string.h>

#include "config.h"
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

/* Bytes a move's value may not hold: the value scanner's stops and ';'. */
static const unsigned char not_in_move[256] = {
    [']'] = 1, ['\\'] = 1, ['\n'] = 1, ['\r'] = 1, [0] = 1, [';'] = 1};

/* The rule at q (seven bytes readable): the offset of the next node's
 * ';' (6, 7 or 8), or 0 if q is no plain move followed by a node before
 * end. */
static inline unsigned move_next(const unsigned char *q,
                                 const unsigned char *end) {
  if (q[2] != '[' || q[5] != ']' || (unsigned)(q[1] - 'A') > 25u ||
      not_in_move[q[3]] || not_in_move[q[4]])
    return 0;
  if (q[6] == ';') return 6;
  if (end - q >= 8 && q[6] == '\n' && q[7] == ';') return 7;
  if (end - q >= 9 && q[6] == '\r' && q[7] == '\n' && q[8] == ';') return 8;
  return 0;
}

/* The portable loop, adding to *ln. */
static const unsigned char *moves_bytes(const unsigned char *s,
                                        const unsigned char *end,
                                        sgf__lines *ln) {
  while (end - s >= 7) {
    unsigned n = move_next(s, end);
    if (n == 0) break;
    ln->nodes++;
    if (n > 6) {
      ln->n++;
      ln->last = s + n - 1;
      if (n == 8) ln->last_cr = s + 6;
    }
    s += n;
  }
  return s;
}

const unsigned char *sgf__moves_portable(const unsigned char *s,
                                         const unsigned char *end,
                                         sgf__lines *ln) {
  ln->n = ln->nodes = 0;
  ln->last = ln->last_cr = NULL;
  return moves_bytes(s, end, ln);
}

#if defined(SGF_X86) || defined(SGF_NEON) || defined(SGF_WASM)
/* A block's masks (bit i: byte i): ';' '[' ']' uppercase, the bytes a
 * value may not hold (not_in_move), LF, CR. */
typedef struct move_masks {
  uint64_t semi, lb, rb, up, bad, lf, cr;
} move_masks;

/* How many bytes of the block at s (s[0] a ';') a run of good nodes
 * fills up to the next ';' (0: the node at s is not good), its line
 * breaks added to *ln. */
static inline __attribute__((always_inline)) unsigned moves_block(
    const unsigned char *s, const move_masks *m, sgf__lines *ln) {
  const uint64_t a = m->semi;
  uint64_t good, stop, below, lf, cr;
  unsigned n;
  good = a & (m->up >> 1) & (m->lb >> 2) & (m->rb >> 5) &
         ~((m->bad >> 3) | (m->bad >> 4)) &
         ((a >> 6) | ((m->lf >> 6) & (a >> 7)) |
          ((m->cr >> 6) & (m->lf >> 7) & (a >> 8)));
  if (!(good & 1)) return 0;
  stop = a & ~good; /* not 0: a good node's next ';' is in the block */
  n = (unsigned)__builtin_ctzll(stop);
  below = ((uint64_t)1 << n) - 1;
  ln->nodes += (uint64_t)__builtin_popcountll(a & below);
  lf = m->lf & below;
  if (lf) {
    ln->n += (uint64_t)__builtin_popcountll(lf);
    ln->last = s + (63 - __builtin_clzll(lf));
    cr = m->cr & below;
    if (cr) ln->last_cr = s + (63 - __builtin_clzll(cr));
  }
  return n;
}

/* The loop around moves_block, for a function MASKS(p, &m) that fills
 * the masks of the 64 bytes at p; the portable loop finishes. */
#define MOVES_LOOP(MASKS)           \
  do {                              \
    ln->n = ln->nodes = 0;          \
    ln->last = ln->last_cr = NULL;  \
    while (end - s >= 64) {         \
      move_masks m;                 \
      unsigned n;                   \
      MASKS(s, &m);                 \
      n = moves_block(s, &m, ln);   \
      if (n == 0) return s;         \
      s += n;                       \
    }                               \
    return moves_bytes(s, end, ln); \
  } while (0)
#endif

#ifdef SGF_X86
/* Masks of 16 bytes (SSE2), shifted to their place. */
static inline void masks16(__m128i v, unsigned sh, move_masks *m) {
  const __m128i up = _mm_sub_epi8(v, _mm_set1_epi8('A'));
  const __m128i bad = _mm_or_si128(
      _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(']')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                   _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')))),
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_setzero_si128()),
                   _mm_cmpeq_epi8(v, _mm_set1_epi8(';'))));
#define M_(f, x) m->f |= (uint64_t)(unsigned)_mm_movemask_epi8(x) << sh
  M_(semi, _mm_cmpeq_epi8(v, _mm_set1_epi8(';')));
  M_(lb, _mm_cmpeq_epi8(v, _mm_set1_epi8('[')));
  M_(rb, _mm_cmpeq_epi8(v, _mm_set1_epi8(']')));
  M_(up, _mm_cmpeq_epi8(_mm_min_epu8(up, _mm_set1_epi8(25)), up));
  M_(bad, bad);
  M_(lf, _mm_cmpeq_epi8(v, _mm_set1_epi8('\n')));
  M_(cr, _mm_cmpeq_epi8(v, _mm_set1_epi8('\r')));
#undef M_
}

static inline void masks_sse2(const unsigned char *p, move_masks *m) {
  memset(m, 0, sizeof *m);
  for (unsigned i = 0; i < 4; i++)
    masks16(_mm_loadu_si128((const __m128i *)(const void *)(p + 16 * i)),
            16 * i, m);
}

const unsigned char *sgf__moves_sse2(const unsigned char *s,
                                     const unsigned char *end, sgf__lines *ln) {
  MOVES_LOOP(masks_sse2);
}

/* Masks of 32 bytes (AVX2), shifted to their place. */
__attribute__((target("avx2"))) static inline void masks32(__m256i v,
                                                           unsigned sh,
                                                           move_masks *m) {
  const __m256i up = _mm256_sub_epi8(v, _mm256_set1_epi8('A'));
  const __m256i bad = _mm256_or_si256(
      _mm256_or_si256(
          _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(']')),
                          _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\'))),
          _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')),
                          _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\r')))),
      _mm256_or_si256(_mm256_cmpeq_epi8(v, _mm256_setzero_si256()),
                      _mm256_cmpeq_epi8(v, _mm256_set1_epi8(';'))));
#define M_(f, x) m->f |= (uint64_t)(uint32_t)_mm256_movemask_epi8(x) << sh
  M_(semi, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(';')));
  M_(lb, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('[')));
  M_(rb, _mm256_cmpeq_epi8(v, _mm256_set1_epi8(']')));
  M_(up, _mm256_cmpeq_epi8(_mm256_min_epu8(up, _mm256_set1_epi8(25)), up));
  M_(bad, bad);
  M_(lf, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\n')));
  M_(cr, _mm256_cmpeq_epi8(v, _mm256_set1_epi8('\r')));
#undef M_
}

__attribute__((target("avx2"))) static inline void masks_avx2(
    const unsigned char *p, move_masks *m) {
  memset(m, 0, sizeof *m);
  masks32(_mm256_loadu_si256((const __m256i *)(const void *)p), 0, m);
  masks32(_mm256_loadu_si256((const __m256i *)(const void *)(p + 32)), 32, m);
}

__attribute__((target("avx2,popcnt"))) const unsigned char *sgf__moves_avx2(
    const unsigned char *s, const unsigned char *end, sgf__lines *ln) {
  MOVES_LOOP(masks_avx2);
}
#endif /* SGF_X86 */

#ifdef SGF_NEON
static inline void masks_neon(const unsigned char *p, move_masks *m) {
  memset(m, 0, sizeof *m);
  for (unsigned i = 0; i < 4; i++) {
    uint8x16_t v = vld1q_u8(p + 16 * i);
    unsigned sh = 16 * i;
    uint8x16_t bad = vorrq_u8(
        vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8(']')),
                          vceqq_u8(v, vdupq_n_u8('\\'))),
                 vorrq_u8(vceqq_u8(v, vdupq_n_u8('\n')),
                          vceqq_u8(v, vdupq_n_u8('\r')))),
        vorrq_u8(vceqq_u8(v, vdupq_n_u8(0)), vceqq_u8(v, vdupq_n_u8(';'))));
#define M_(f, x) m->f |= lane_bits(x) << sh
    M_(semi, vceqq_u8(v, vdupq_n_u8(';')));
    M_(lb, vceqq_u8(v, vdupq_n_u8('[')));
    M_(rb, vceqq_u8(v, vdupq_n_u8(']')));
    M_(up, vcleq_u8(vsubq_u8(v, vdupq_n_u8('A')), vdupq_n_u8(25)));
    M_(bad, bad);
    M_(lf, vceqq_u8(v, vdupq_n_u8('\n')));
    M_(cr, vceqq_u8(v, vdupq_n_u8('\r')));
#undef M_
  }
}

const unsigned char *sgf__moves_neon(const unsigned char *s,
                                     const unsigned char *end, sgf__lines *ln) {
  MOVES_LOOP(masks_neon);
}
#endif /* SGF_NEON */

#ifdef SGF_WASM
static inline void masks_wasm(const unsigned char *p, move_masks *m) {
  memset(m, 0, sizeof *m);
  for (unsigned i = 0; i < 4; i++) {
    v128_t v = wasm_v128_load(p + 16 * i);
    unsigned sh = 16 * i;
#define E_(c) wasm_i8x16_eq(v, wasm_i8x16_splat(c))
    v128_t bad = wasm_v128_or(wasm_v128_or(wasm_v128_or(E_(']'), E_('\\')),
                                           wasm_v128_or(E_('\n'), E_('\r'))),
                              wasm_v128_or(E_(0), E_(';')));
#define M_(f, x) m->f |= (uint64_t)wasm_i8x16_bitmask(x) << sh
    M_(semi, E_(';'));
    M_(lb, E_('['));
    M_(rb, E_(']'));
    M_(up, wasm_u8x16_le(wasm_i8x16_sub(v, wasm_i8x16_splat('A')),
                         wasm_i8x16_splat(25)));
    M_(bad, bad);
    M_(lf, E_('\n'));
    M_(cr, E_('\r'));
#undef M_
#undef E_
  }
}

const unsigned char *sgf__moves_wasm(const unsigned char *s,
                                     const unsigned char *end, sgf__lines *ln) {
  MOVES_LOOP(masks_wasm);
}
#endif /* SGF_WASM */
