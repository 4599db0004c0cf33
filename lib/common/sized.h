/* sized.h - reading the versioned structs callers pass in (VERSIONED
 * STRUCTS in sgfstream.h). */
#ifndef SGF_SIZED_H
#define SGF_SIZED_H

#include <stddef.h>

/* src begins with `size_t size`, the size of the struct as the caller's
 * header declared it. Copy the part both sides know into dst (ours bytes)
 * and zero the rest, so members the caller's header did not have read as
 * 0 / NULL; dst's size member is set to ours. Returns 0, or SGF_EINVAL
 * (dst zeroed) if src's size is below min, the size of the first
 * published version. Reads no byte of src past its size. */
int sgf__copy_sized(void *dst, size_t ours, const void *src, size_t min);

/* Is r one of the callbacks' actions (sgf_action)? Anything else, a
 * result code say, is refused (ACTIONS ARE NOT RESULTS in
 * sgfstream/parser.h). */
#define SGF__IS_ACTION(r) \
  ((r) == SGF_CONTINUE || ((r) >= SGF_SKIP && (r) <= SGF_ABORT))

/* The first published size of a struct: up to and including member m. */
#define SGF__SIZE_UPTO(type, m) (offsetof(type, m) + sizeof(((type *)0)->m))

#endif
