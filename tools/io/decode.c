/* decode.c - gzip (zlib), xz (liblzma) and bzip2 (libbz2) decoders that
 * hand over every byte decoded before a break (decode.h).
 *
 * Each format's concatenated streams are read as one (gzip members,
 * multi-stream xz, pbzip2's bzip2 streams); zero bytes after the last
 * stream (padding to a block size) are ignored; any other bytes after it
 * are an error, not dropped without a word.
 */
#include "decode.h"

#include <archive.h>
#include <bzlib.h>
#include <lzma.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* An xz stream that needs more memory than this to decode is refused
 * (xz -9 needs 65 MiB). */
#define XZ_MEMLIMIT ((uint64_t)1 << 30)

struct decoder {
  int kind;
  int done;   /* a stream ended: what follows is another one, or padding */
  int inited; /* the gzip or bzip2 stream is initialised */
  z_stream z;
  lzma_stream x;
  bz_stream b;
  char err[128];
};

int decode_kind(const unsigned char *b, size_t n) {
  if (n >= 3 && b[0] == 0x1f && b[1] == 0x8b && b[2] == 8) return DECODE_GZIP;
  if (n >= 6 && memcmp(b,
                       "\xfd"
                       "7zXZ\0",
                       6) == 0)
    return DECODE_XZ;
  if (n >= 10 && memcmp(b, "BZh", 3) == 0 && b[3] >= '1' && b[3] <= '9' &&
      (memcmp(b + 4, "\x31\x41\x59\x26\x53\x59", 6) == 0 ||
       memcmp(b + 4, "\x17\x72\x45\x38\x50\x90", 6) == 0))
    return DECODE_BZIP2;
  return DECODE_NONE;
}

int decode_filter_code(int kind) {
  switch (kind) {
    case DECODE_GZIP:
      return ARCHIVE_FILTER_GZIP;
    case DECODE_XZ:
      return ARCHIVE_FILTER_XZ;
    case DECODE_BZIP2:
      return ARCHIVE_FILTER_BZIP2;
    default:
      return ARCHIVE_FILTER_NONE;
  }
}

static const char *kind_name(int kind) {
  return kind == DECODE_GZIP ? "gzip" : kind == DECODE_XZ ? "xz" : "bzip2";
}

decoder *decoder_new(int kind) {
  decoder *d = calloc(1, sizeof *d);
  lzma_stream x = LZMA_STREAM_INIT;
  if (d == NULL) return NULL;
  d->kind = kind;
  d->x = x;
  switch (kind) {
    case DECODE_GZIP:
      if (inflateInit2(&d->z, 15 + 16) != Z_OK) break; /* gzip wrapper */
      d->inited = 1;
      return d;
    case DECODE_XZ:
      if (lzma_stream_decoder(&d->x, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK)
        break;
      return d;
    case DECODE_BZIP2:
      if (BZ2_bzDecompressInit(&d->b, 0, 0) != BZ_OK) break;
      d->inited = 1;
      return d;
    default:
      break;
  }
  free(d);
  return NULL;
}

void decoder_free(decoder *d) {
  if (d == NULL) return;
  if (d->kind == DECODE_GZIP && d->inited) inflateEnd(&d->z);
  if (d->kind == DECODE_XZ) lzma_end(&d->x);
  if (d->kind == DECODE_BZIP2 && d->inited) BZ2_bzDecompressEnd(&d->b);
  free(d);
}

const char *decoder_error(const decoder *d) { return d->err; }

static int fail(decoder *d, const char *why) {
  snprintf(d->err, sizeof d->err, "%s data %s", kind_name(d->kind), why);
  return DECODE_ERROR;
}

#define CUT_OFF "cut off: the file ends inside the compressed stream"

/* After a stream's end: skip zero padding; is another stream next? Returns
 * 1 (start it), 0 (no more input for now), or DECODE_ERROR. */
static int after_stream(decoder *d, const unsigned char **in, size_t *len) {
  unsigned char first = d->kind == DECODE_GZIP ? 0x1f : 'B';
  while (*len > 0 && **in == 0) {
    (*in)++;
    (*len)--;
  }
  if (*len == 0) return 0;
  if (**in != first) {
    snprintf(d->err, sizeof d->err,
             "%s data is followed by bytes that are not %s data",
             kind_name(d->kind), kind_name(d->kind));
    return DECODE_ERROR;
  }
  return 1;
}

/* Start the next gzip member or bzip2 stream. 0 or DECODE_ERROR. */
static int restart(decoder *d) {
  if (d->kind == DECODE_GZIP)
    return inflateReset(&d->z) == Z_OK ? 0
                                       : fail(d, "could not be decoded (zlib)");
  BZ2_bzDecompressEnd(&d->b);
  d->inited = BZ2_bzDecompressInit(&d->b, 0, 0) == BZ_OK;
  return d->inited ? 0 : fail(d, "could not be decoded (libbz2)");
}

/* What one call of the format's decoder did. */
enum { STEP_OK, STEP_AGAIN, STEP_END, STEP_ERROR };

/* One call of the format's decoder from *in (*len bytes, at most 1 GiB
 * taken at once) into out (cap bytes, at most 1 GiB); *made: bytes
 * written. STEP_AGAIN: progress that may go on with no more input (xz,
 * finishing). */
static int step(decoder *d, const unsigned char **in, size_t *len, int last,
                char *out, size_t cap, size_t *made) {
  size_t in_max = *len > (1u << 30) ? (1u << 30) : *len;
  size_t out_max = cap > (1u << 30) ? (1u << 30) : cap;
  size_t used;
  int e;
  switch (d->kind) {
    case DECODE_GZIP:
      d->z.next_in = (Bytef *)(uintptr_t)*in;
      d->z.avail_in = (uInt)in_max;
      d->z.next_out = (Bytef *)out;
      d->z.avail_out = (uInt)out_max;
      e = inflate(&d->z, Z_NO_FLUSH);
      used = in_max - d->z.avail_in;
      *made = out_max - d->z.avail_out;
      if (e == Z_STREAM_END)
        e = STEP_END;
      else if (e == Z_OK || e == Z_BUF_ERROR)
        e = STEP_OK;
      else if (e == Z_MEM_ERROR)
        e = fail(d, "needs more memory than there is");
      else {
        snprintf(d->err, sizeof d->err, "gzip data is damaged%s%s",
                 d->z.msg != NULL ? ": " : "", d->z.msg ? d->z.msg : "");
        e = STEP_ERROR;
      }
      break;
    case DECODE_XZ:
      d->x.next_in = *in;
      d->x.avail_in = in_max;
      d->x.next_out = (uint8_t *)out;
      d->x.avail_out = out_max;
      e = lzma_code(&d->x, last ? LZMA_FINISH : LZMA_RUN);
      used = in_max - d->x.avail_in;
      *made = out_max - d->x.avail_out;
      if (e == LZMA_STREAM_END)
        e = STEP_END;
      else if (e == LZMA_OK)
        e = last ? STEP_AGAIN : STEP_OK;
      else if (e == LZMA_BUF_ERROR)
        e = STEP_OK;
      else
        e = fail(d, e == LZMA_MEM_ERROR ? "needs more memory than there is"
                    : e == LZMA_MEMLIMIT_ERROR
                        ? "needs more than 1 GiB of memory to decode"
                        : "is damaged");
      break;
    default:
      d->b.next_in = (char *)(uintptr_t)*in;
      d->b.avail_in = (unsigned)in_max;
      d->b.next_out = out;
      d->b.avail_out = (unsigned)out_max;
      e = BZ2_bzDecompress(&d->b);
      used = in_max - d->b.avail_in;
      *made = out_max - d->b.avail_out;
      if (e == BZ_STREAM_END)
        e = STEP_END;
      else if (e == BZ_OK)
        e = STEP_OK;
      else
        e = fail(d, e == BZ_MEM_ERROR ? "needs more memory than there is"
                                      : "is damaged");
      break;
  }
  *in += used;
  *len -= used;
  return e == DECODE_ERROR ? STEP_ERROR : e;
}

int decoder_run(decoder *d, const char **in, size_t *in_len, int last,
                char *out, size_t cap, size_t *made) {
  const unsigned char *p = (const unsigned char *)*in;
  int rc;
  *made = 0;
  if (d->err[0] != '\0') return DECODE_ERROR;
  for (;;) {
    size_t k;
    if (d->done) {
      /* xz: liblzma reads concatenated streams and padding itself */
      rc = d->kind == DECODE_XZ ? 0 : after_stream(d, &p, in_len);
      if (rc == 0) rc = last ? DECODE_END : DECODE_MORE;
      if (rc != 1) break;
      if ((rc = restart(d)) != 0) break;
      d->done = 0;
    }
    if (*made == cap) {
      rc = DECODE_FULL;
      break;
    }
    rc = step(d, &p, in_len, last, out + *made, cap - *made, &k);
    *made += k;
    if (rc == STEP_END) d->done = 1;
    if (rc == STEP_ERROR) {
      rc = DECODE_ERROR;
      break;
    }
    if (rc == STEP_END || rc == STEP_AGAIN || *made == cap || *in_len > 0)
      continue;
    rc = last ? fail(d, CUT_OFF) : DECODE_MORE;
    break;
  }
  *in = (const char *)p;
  return rc;
}
