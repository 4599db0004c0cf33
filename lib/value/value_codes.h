/* value_codes.h - the result codes the value layer returns, until the
 * library's one error space (sgfstream/error.h, SGF_ERROR_MAP) is on this
 * branch. To move into error.h's table when API 1.0 lands: SGF_ENOMEM and
 * SGF_EINVAL are in its draft already (-1, -2); SGF_ERANGE and SGF_ESYNTAX
 * are to be appended there (the numbers below are proposals), and this
 * file then deleted. The guards let it coexist with error.h meanwhile:
 * error.h's codes are enumerators, so its include guard is what tells. */
#ifndef SGF_VALUE_CODES_H
#define SGF_VALUE_CODES_H

#include "sgfstream.h"

#ifndef SGFSTREAM_ERROR_H
#ifndef SGF_ENOMEM
#define SGF_ENOMEM (-1) /* out of memory */
#endif
#ifndef SGF_EINVAL
#define SGF_EINVAL (-2) /* invalid argument */
#endif
#endif
#ifndef SGF_ERANGE
#define SGF_ERANGE (-10) /* value out of range */
#endif
#ifndef SGF_ESYNTAX
#define SGF_ESYNTAX (-11) /* value syntax */
#endif

#endif /* SGF_VALUE_CODES_H */
