/* sgfstream/error.h - the one space of result codes.
 *
 * Every layer (parser, reader, tree builder, cursor, writer, point codec)
 * reports through these codes, generated from one X-macro table (as
 * libuv's UV_ERRNO_MAP):
 *   0                SGF_OK: done.
 *   positive         a status that is not a failure; there is one,
 *                    SGF_PAUSED (a callback paused the parser).
 *   negative         SGF_E*: a failure; sgf_strerror() says what it means,
 *                    sgf_err_name() gives its name ("EBUSY").
 * Functions that return a count (sgf_point_encode) return it (>= 0) or a
 * negative code. Functions that create an object return it, or NULL when
 * memory ran out or an argument (option, struct size) was invalid.
 *
 * Numbers are never reused or renumbered; new codes are appended, and
 * are negative, or positive below 0x100: the callbacks' actions
 * (sgf_action in sgfstream/parser.h) are 0x101 to 0x103, so that a
 * result is never taken for an action (SGF_OK is SGF_CONTINUE, 0).
 *
 * This header is included by <sgfstream.h>; it stands alone too (it
 * declares nothing but constants).
 */
#ifndef SGFSTREAM_ERROR_H
#define SGFSTREAM_ERROR_H

/* XX(NAME, number, message) */
#define SGF_ERROR_MAP(XX)                                              \
  XX(OK, 0, "success")                                                 \
  XX(PAUSED, 1, "paused by a callback; resume, then feed the rest")    \
  XX(ENOMEM, -1, "out of memory")                                      \
  XX(EINVAL, -2, "invalid argument")                                   \
  XX(EBUSY, -3, "called from inside a callback; nothing was done")     \
  XX(EABORTED, -4, "a callback aborted; sticky until reset")           \
  XX(EPARSE, -5,                                                       \
     "parsing stopped at a fatal error (or an error in strict "        \
     "mode); sticky until reset")                                      \
  XX(EORDER, -6,                                                       \
     "call out of order (an event FF[4] allows nowhere here, "         \
     "or input fed after finish)")                                     \
  XX(EIDENT, -7, "invalid property identifier")                        \
  XX(ESINK, -8, "the output sink failed")                              \
  XX(ELIMIT, -9, "a configured limit was reached")                     \
  XX(ERANGE, -10,                                                      \
     "value out of range (a point off the board, a number "            \
     "too large...)")                                                  \
  XX(ESYNTAX, -11, "value syntax: not a value of the property's type") \
  XX(EACTION, -12,                                                     \
     "a callback returned a value that is not an action "              \
     "(SGF_CONTINUE, SGF_SKIP, SGF_PAUSE, SGF_ABORT), such as a "      \
     "result code; sticky until reset")

typedef enum sgf_error {
#define SGF__ERROR_ENUM(NAME, num, msg) SGF_##NAME = num,
  SGF_ERROR_MAP(SGF__ERROR_ENUM)
#undef SGF__ERROR_ENUM
      SGF_ERROR_LAST_ = -13 /* one past the most negative code */
} sgf_error;

#endif /* SGFSTREAM_ERROR_H */
