/* decode.h - gzip, xz and bzip2 decompressed by the tool itself, with
 * zlib, liblzma and libbz2, in constant memory.
 *
 * libarchive decompresses these too, but hands its output over in blocks
 * (64 KiB) and, when the compressed data breaks off (a truncated
 * game.sgf.gz), returns the error and drops the block it was filling:
 * the games just before the cut, or a whole small file, were lost. A
 * decoder here hands over every byte decoded before the break, then the
 * error (input.c reads the decoded bytes like any other input, and hands
 * them to libarchive when they hold an archive, e.g. a .tar.gz).
 */
#ifndef SGF_TOOLS_DECODE_H
#define SGF_TOOLS_DECODE_H

#include <stddef.h>

enum { DECODE_NONE = 0, DECODE_GZIP, DECODE_XZ, DECODE_BZIP2 };

/* The compression the first n bytes of an input begin with, or
 * DECODE_NONE (also when n is too short to tell). bzip2 is taken only
 * with the magic of its first block or of its end ("BZh", a level digit
 * and six bytes no text has), so a text that begins with "BZh" is not. */
int decode_kind(const unsigned char *b, size_t n);

/* libarchive's filter code for kind (ARCHIVE_FILTER_GZIP...). */
int decode_filter_code(int kind);

typedef struct decoder decoder;

/* NULL when memory fails. */
decoder *decoder_new(int kind);
void decoder_free(decoder *d);

/* Decode from *in (*in_len bytes; both advance past what was used) into
 * out (cap bytes); *made: bytes written. last: no input follows *in.
 * Returns DECODE_MORE (all the input used, more is wanted: call again
 * with the next input), DECODE_FULL (out is full: call again with the
 * rest of the input), DECODE_END (the compressed data is over, and
 * complete), or DECODE_ERROR (broken or cut off data: decoder_error()
 * says why; what is in out before *made is still good). */
enum { DECODE_MORE = 0, DECODE_FULL, DECODE_END, DECODE_ERROR };
int decoder_run(decoder *d, const char **in, size_t *in_len, int last,
                char *out, size_t cap, size_t *made);
const char *decoder_error(const decoder *d);

#endif /* SGF_TOOLS_DECODE_H */
