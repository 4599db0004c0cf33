/* moves.h - the move-run scanners of moves.c, one per instruction set,
 * for scan.c's table (sgf__scanners.moves in scan.h). Private to
 * lib/simd. */
#ifndef SGF_MOVES_H
#define SGF_MOVES_H

#include "scan.h"

const unsigned char *sgf__moves_portable(const unsigned char *s,
                                         const unsigned char *end,
                                         sgf__lines *ln);
const unsigned char *sgf__moves_sse2(const unsigned char *s,
                                     const unsigned char *end, sgf__lines *ln);
const unsigned char *sgf__moves_avx2(const unsigned char *s,
                                     const unsigned char *end, sgf__lines *ln);
const unsigned char *sgf__moves_neon(const unsigned char *s,
                                     const unsigned char *end, sgf__lines *ln);
const unsigned char *sgf__moves_wasm(const unsigned char *s,
                                     const unsigned char *end, sgf__lines *ln);

#endif
