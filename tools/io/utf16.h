/* utf16.h - UTF-16 input to UTF-8, chunk by chunk, for the tools' input
 * layer: SGF is a byte format and the parser refuses UTF-16 (a fatal
 * error), but some programs save records as UTF-16 with a byte-order
 * mark. The input layer looks at the first bytes of each input
 * (utf16_detect) and, for UTF-16, passes every chunk through a
 * converter before the parser sees it. Positions in diagnostics then
 * count in the UTF-8 text.
 *
 * A chunk may end anywhere, also inside a code unit or between the two
 * halves of a surrogate pair: the converter keeps those bytes (at most
 * three) for the next chunk. iconv (glibc) does the decoding.
 */
#ifndef SGF_TOOLS_UTF16_H
#define SGF_TOOLS_UTF16_H

#include <stddef.h>
#include <stdint.h>

enum { UTF16_NONE = 0, UTF16_LE, UTF16_BE };

/* From the first len bytes of an input (2 are enough): UTF16_LE after the
 * mark FF FE (not FF FE 00 00, UTF-32), UTF16_BE after FE FF, and also
 * without a mark when the input begins with '(' as a UTF-16 code unit
 * ("(\0" little-endian, "\0(" big-endian); else UTF16_NONE. *skip is set
 * to the bytes of the mark (2 or 0), which the caller does not feed. */
int utf16_detect(const char *buf, size_t len, size_t *skip);

typedef struct utf16_conv utf16_conv;
/* Receives the UTF-8 produced, in pieces; valid during the call. Return
 * nonzero to stop (utf16_feed returns UTF16_STOPPED). */
typedef int (*utf16_out_fn)(void *ctx, const char *utf8, size_t len);

#define UTF16_STOPPED 1
#define UTF16_INVALID (-1) /* a lone surrogate, or a code unit cut off */
#define UTF16_NOMEM (-2)

/* order: UTF16_LE or UTF16_BE. NULL if memory or iconv fails. */
utf16_conv *utf16_create(int order);
void utf16_destroy(utf16_conv *c);
/* Convert a chunk; 0, UTF16_STOPPED, or UTF16_INVALID with *err_off
 * the offset (counted in the UTF-16 input fed so far, mark excluded) of
 * the code unit that does not decode. After an error the converter
 * refuses further input. */
int utf16_feed(utf16_conv *c, const char *buf, size_t len, utf16_out_fn out,
               void *ctx, uint64_t *err_off);
/* End of input: UTF16_INVALID if bytes of an unfinished character are
 * left (*err_off where it began), else 0. */
int utf16_finish(utf16_conv *c, uint64_t *err_off);

#endif /* SGF_TOOLS_UTF16_H */
