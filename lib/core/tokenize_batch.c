/* tokenize_batch.c - the tokenizer for batched events: tokenize.c
 * compiled a second time with SGF__BATCH 1, so that the callback copy
 * pays no test of the mode per event (emit.h). */
#define SGF__BATCH 1
#define SGF__FEED_CORE sgf__feed_core_batch
#include "tokenize.c"
