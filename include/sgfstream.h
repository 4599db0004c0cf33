/* sgfstream.h - an incremental (push) parser for SGF game records, and
 * the layers built on it: the whole public API in one include.
 *
 * HOW THE HEADERS FIT. This header declares nothing of its own: it
 * includes the headers of sgfstream/, each of which stands alone (test/
 * headers.sh compiles each one alone as C11 and as C++11) and none of
 * which includes this one, so that they form a tree, not a cycle:
 *   common.h   the export macro, input positions, the allocator hooks
 *   error.h    the result codes (SGF_OK, SGF_PAUSED, SGF_E*)
 *   diag.h     the diagnostic codes
 *   version.h  the version macros (written by configure)
 *   parser.h   the push parser: options, callbacks and their actions,
 *              feed / finish / pause / reset, positions, diagnostics
 *   batch.h    batched events and move runs as records
 *   value.h    raw values, the property table, typed values: the one
 *              home of points, moves and text decoding and encoding
 *   reader.h   whole properties instead of slices
 *   tree.h     game trees: build, navigate, record through a cursor
 *   writer.h   writing SGF: the streaming writer
 *   charset.h  text to UTF-8, per game
 *   check.h    FF[4]'s semantic checks, chained into a parser's callbacks
 *   utf16.h    UTF-16 input: how it is detected and converted
 *   utf16.h    UTF-16 input: detection and conversion
 * Opt-in, not included here: typed.h (typed access to tree nodes) and
 * event_state.h (positions without a call; not part of the stable API).
 * A program may include any of them alone instead of this header.
 */
#ifndef SGFSTREAM_H
#define SGFSTREAM_H

#include "sgfstream/common.h"
#include "sgfstream/error.h"
#include "sgfstream/diag.h"
#include "sgfstream/version.h"
#include "sgfstream/parser.h"
#include "sgfstream/batch.h"
#include "sgfstream/run.h"
#include "sgfstream/value.h"
#include "sgfstream/reader.h"
#include "sgfstream/tree.h"
#include "sgfstream/writer.h"
#include "sgfstream/charset.h"
#include "sgfstream/check.h"
#include "sgfstream/utf16.h"

#endif /* SGFSTREAM_H */
