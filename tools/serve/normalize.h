/* normalize.h - `sgf serve --fmt`: a game rewritten as `sgf fmt` writes
 * it (the parser's events straight into the writer). */
#ifndef SGF_SERVE_NORMALIZE_H
#define SGF_SERVE_NORMALIZE_H

#include <stddef.h>

#include "bytebuf.h"

typedef struct normalizer normalizer;

normalizer *normalizer_create(void);
/* Append the game normalized to out. Returns 0, or -1 when it could not
 * be rewritten (then out holds nothing new and the game is stored as
 * received). */
int normalize_game(normalizer *n, const char *buf, size_t len, bytebuf *out);
void normalizer_destroy(normalizer *n);

#endif /* SGF_SERVE_NORMALIZE_H */
