/* sized.c - reading the versioned structs callers pass in. */
#include <string.h>

#include "sgfstream.h"
#include "sized.h"

int sgf__copy_sized(void *dst, size_t ours, const void *src, size_t min) {
  size_t theirs;
  memset(dst, 0, ours);
  memcpy(&theirs, src, sizeof theirs);
  if (theirs < min) return SGF_EINVAL;
  memcpy(dst, src, theirs < ours ? theirs : ours);
  memcpy(dst, &ours, sizeof ours);
  return SGF_OK;
}
