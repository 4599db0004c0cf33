/* sgfstream/value.h - property values.
 *
 * This header stands alone (it needs only sgfstream/common.h) and is
 * included by <sgfstream.h>, sgfstream/reader.h and sgfstream/tree.h.
 */
#ifndef SGFSTREAM_VALUE_H
#define SGFSTREAM_VALUE_H

#include "sgfstream/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------- */
/* Raw values: a property and its values as written, escapes intact, as
 * the reader (sgfstream/reader.h) and the tree (sgfstream/tree.h) give
 * them. The typed values decode these bytes.                             */

typedef struct sgf_value {
  const char *raw; /* bytes between '[' and ']', escapes intact */
  size_t len;
  sgf_pos pos; /* of the '[' */
} sgf_value;

typedef struct sgf_property {
  const char *ident;     /* normalized (FF[4]), NUL-terminated */
  size_t ident_len;
  const char *raw_ident; /* as written, NUL-terminated */
  size_t raw_ident_len;
  sgf_pos pos;           /* of the identifier's first byte */
  size_t nvalues;        /* at least 1 */
  const sgf_value *values;
} sgf_property;

/* end of raw values */

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_VALUE_H */
