/* lanes.h - NEON: a 0x00/0xFF byte mask of 16 lanes as 16 bits, for the
 * scanners of scan.c and moves.c. Included on AArch64 only. Private to
 * lib/simd. */
#ifndef SGF_LANES_H
#define SGF_LANES_H

#include <arm_neon.h>
#include <stdint.h>

/* A 64-bit mask, bit i set when lane i of a 0x00/0xFF mask is set. */
static inline uint64_t lane_bits(uint8x16_t m) {
  static const uint8_t weight[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                     1, 2, 4, 8, 16, 32, 64, 128};
  uint8x16_t w = vandq_u8(m, vld1q_u8(weight));
  uint64_t lo = vaddv_u8(vget_low_u8(w)), hi = vaddv_u8(vget_high_u8(w));
  return lo | (hi << 8);
}

#endif
