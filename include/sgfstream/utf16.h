/* sgfstream/utf16.h - UTF-16 input read as UTF-8.
 *
 * SGF is a byte format, and the parser reads UTF-8 (or any byte charset
 * the CA property names). Some programs save records as UTF-16 with a
 * byte-order mark. Two ways to read them:
 *
 *   - the parser option SGF_OPT_UTF16 (sgfstream.h): the parser looks at
 *     the first bytes of the input and, for UTF-16, converts every chunk
 *     fed before parsing it, with the diagnostics below. Nothing else
 *     changes for the caller: feed the file's bytes as they are, in any
 *     chunks, split anywhere (also inside a code unit or between the two
 *     halves of a surrogate pair): every split gives the same events.
 *   - the functions here, for a program that moves the bytes on itself
 *     (to write them, to feed several parsers): sgf_utf16_detect() on the
 *     first bytes, then a decoder, chunk by chunk, in constant memory.
 *
 * DETECTION. By byte-order mark: FF FE is UTF-16LE (but FF FE 00 00 is
 * UTF-32LE, which is not read), FE FF UTF-16BE; the mark is not part of
 * the text. Without a mark only a record that begins with '(' written as
 * UTF-16 is taken for UTF-16: "(" 00 X 00 (little-endian) or 00 "(" 00 X
 * (big-endian), X not 00: two NUL bytes where UTF-16 puts them. A single
 * NUL byte never makes an input UTF-16 (a stray NUL before "(;" is read
 * as the NUL it is, with a warning).
 *
 * WITH SGF_OPT_UTF16 (diagnostics from sgfstream/diag.h):
 *   utf16-input (41)    a warning at 1:1 before the first event: the input
 *                       is UTF-16, and every position (offsets, lines,
 *                       columns) counts in the converted UTF-8 text.
 *   utf16-invalid (42)  fatal: a lone surrogate, or a code unit or a
 *                       surrogate pair cut off by the end of input, at
 *                       the place the character would have had in the
 *                       converted text, after the events of the text
 *                       before it; nothing after it is read. Never
 *                       replaced by U+FFFD: nothing is lost silently.
 * The parser allocates 4 KiB more at creation for the converted text
 * (memory stays fixed); slices and identifiers of a converted input
 * point into it (valid during the callback, as ever). Bytes converted but
 * not yet parsed when a callback pauses count as consumed: feed from
 * buf + consumed after resuming, as always. Without the option the
 * parser refuses UTF-16 detected as above: the fatal utf16 (22) at 1:1.
 *
 * This header stands alone (it needs sgfstream/common.h and error.h).
 */
#ifndef SGFSTREAM_UTF16_H
#define SGFSTREAM_UTF16_H

#include <stddef.h>
#include <stdint.h>

#include "sgfstream/common.h"
#include "sgfstream/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Results of sgf_utf16_detect, and the byte orders of a decoder. */
#define SGF_UTF16_NONE 0      /* not UTF-16 (read the bytes as they are) */
#define SGF_UTF16_LE 1        /* UTF-16, little-endian */
#define SGF_UTF16_BE 2        /* UTF-16, big-endian */
#define SGF_UTF16_UNDECIDED 3 /* more bytes are needed (at most 4 in all) */

/* Which encoding an input has, from its first len bytes (DETECTION
 * above). at_end nonzero: those are all the bytes there are (an input of
 * fewer than four bytes), and the answer is never SGF_UTF16_UNDECIDED.
 * *mark_len (may be NULL) is set to the bytes of the byte-order mark (2
 * or 0), which are not text. Four bytes always decide. */
SGF_EXTERN int sgf_utf16_detect(const char *buf, size_t len, int at_end,
                                size_t *mark_len);

/* A decoder: UTF-16 to UTF-8, chunk by chunk. Caller-owned; set it with
 * sgf_utf16_decoder_init() before the first chunk. The members are
 * private but for error_offset. */
typedef struct sgf_utf16_decoder {
  int order;             /* private: SGF_UTF16_LE or SGF_UTF16_BE */
  int failed;            /* private */
  unsigned high;         /* private: a high surrogate waiting, or 0 */
  unsigned carry;        /* private: 1 + the first byte of a cut unit, or 0 */
  uint64_t fed;          /* private: bytes taken so far */
  uint64_t error_offset; /* after SGF_ESYNTAX: the offset, in the bytes
                            given to the decoder, of the code unit that
                            does not decode (a lone surrogate), or of the
                            character cut off at the end */
} sgf_utf16_decoder;

/* order: SGF_UTF16_LE or SGF_UTF16_BE (anything else is taken as LE).
 * Feed the bytes after the byte-order mark. */
SGF_EXTERN void sgf_utf16_decoder_init(sgf_utf16_decoder *d, int order);

/* Convert the len bytes at in, the next ones of the input, writing
 * UTF-8 to out (room for cap bytes; give at least 4, or no character
 * fits). Stops when every byte is used or the next character does not
 * fit: *used (bytes of in taken) and *written (bytes of out) say how
 * far; feed in + *used again. Bytes of a character the chunk cuts off
 * are kept (taken, no output) until the next call. Returns SGF_OK, or
 * SGF_ESYNTAX at a lone surrogate: *written then holds the text before
 * it, *used the bytes before it, error_offset its place; the decoder
 * refuses every later call (SGF_ESYNTAX, nothing used). */
SGF_EXTERN int sgf_utf16_decode(sgf_utf16_decoder *d, const char *in,
                                size_t len, size_t *used, char *out, size_t cap,
                                size_t *written);

/* The end of input: SGF_OK, or SGF_ESYNTAX when a code unit or a
 * surrogate pair was cut off (error_offset where it began), or after an
 * earlier error. */
SGF_EXTERN int sgf_utf16_decode_end(sgf_utf16_decoder *d);

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_UTF16_H */
