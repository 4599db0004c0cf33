/* recompress.c - a compressed stream into an output (recompress.h). */
#define _POSIX_C_SOURCE 200809L

#include "recompress.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static void keep_error(recompress *z, const char *what) {
  const char *e = z->a ? archive_error_string(z->a) : NULL;
  snprintf(z->err, sizeof z->err, "%s%s%s", what, e ? ": " : "", e ? e : "");
}

/* libarchive's write callback: the compressed bytes, to the output. */
static la_ssize_t to_output(struct archive *a, void *ud, const void *buf,
                            size_t len) {
  recompress *z = ud;
  if (output_write(z->out, buf, len) < 0) {
    const char *e = output_error(z->out);
    archive_set_error(a, EIO, "%s", e ? e : "write failed");
    return -1;
  }
  return (la_ssize_t)len;
}

/* The filters libarchive can write, each called by its own function:
 * archive_write_add_filter(a, code) is not used because libarchive 3.6
 * maps ARCHIVE_FILTER_LZOP to the lzip compressor there, which would
 * write lzip data under an .lzo name. The names are for messages. */
static const struct {
  int code;
  const char *name;
  int (*add)(struct archive *);
} filters[] = {
    {ARCHIVE_FILTER_GZIP, "gzip", archive_write_add_filter_gzip},
    {ARCHIVE_FILTER_BZIP2, "bzip2", archive_write_add_filter_bzip2},
    {ARCHIVE_FILTER_COMPRESS, "compress", archive_write_add_filter_compress},
    {ARCHIVE_FILTER_LZMA, "lzma", archive_write_add_filter_lzma},
    {ARCHIVE_FILTER_XZ, "xz", archive_write_add_filter_xz},
    {ARCHIVE_FILTER_LZIP, "lzip", archive_write_add_filter_lzip},
    {ARCHIVE_FILTER_LZOP, "lzop", archive_write_add_filter_lzop},
    {ARCHIVE_FILTER_LZ4, "lz4", archive_write_add_filter_lz4},
    {ARCHIVE_FILTER_ZSTD, "zstd", archive_write_add_filter_zstd},
    {ARCHIVE_FILTER_UU, "uuencode", archive_write_add_filter_uuencode},
    {ARCHIVE_FILTER_LRZIP, "lrzip", archive_write_add_filter_lrzip},
    {ARCHIVE_FILTER_GRZIP, "grzip", archive_write_add_filter_grzip},
};

/* Add the filter code, or say why not. */
static int add_filter(recompress *z, int code) {
  size_t i;
  int rc;
  for (i = 0; i < sizeof filters / sizeof filters[0]; i++)
    if (filters[i].code == code) break;
  if (i == sizeof filters / sizeof filters[0]) {
    snprintf(z->err, sizeof z->err,
             "its compression (libarchive filter %d) cannot be written "
             "back",
             code);
    return -1;
  }
  /* ARCHIVE_WARN: done by running an external program, which is still
   * libarchive's business (it fails at open if the program is missing). */
  rc = filters[i].add(z->a);
  if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
    const char *e = archive_error_string(z->a);
    snprintf(z->err, sizeof z->err,
             "its %s compression cannot be written back%s%s", filters[i].name,
             e ? ": " : "", e ? e : "");
    return -1;
  }
  return 0;
}

void recompress_abort(recompress *z) {
  if (z->a == NULL) return;
  /* Closed, not failed: libarchive frees a filter's compressor (zlib's
   * deflate state...) only when the archive is closed, so a failed one
   * leaked it. Its lz4 filter, closed before any data, reads a NULL
   * pointer: one byte of data first. What the close writes goes to the
   * temporary file, which the caller discards. */
  if (!z->wrote) (void)archive_write_data(z->a, " ", 1);
  (void)archive_write_close(z->a);
  archive_write_free(z->a);
  z->a = NULL;
}

int recompress_open(recompress *z, output *out, const int *codes, int n) {
  struct archive_entry *e;
  int i, rc;
  memset(z, 0, sizeof z[0]);
  z->out = out;
  z->a = archive_write_new();
  if (z->a == NULL) {
    snprintf(z->err, sizeof z->err, "%s", strerror(ENOMEM));
    return -1;
  }
  for (i = 0; i < n; i++)
    if (add_filter(z, codes[i]) != 0) {
      recompress_abort(z);
      return -1;
    }
  /* One stream, no archive format around it; no padding after the last
   * block (that would be junk after the compressed data). */
  if (archive_write_set_format_raw(z->a) != ARCHIVE_OK ||
      archive_write_set_bytes_in_last_block(z->a, 1) != ARCHIVE_OK ||
      archive_write_open(z->a, z, NULL, to_output, NULL) != ARCHIVE_OK) {
    keep_error(z, "cannot compress it the same way again (libarchive)");
    recompress_abort(z);
    return -1;
  }
  e = archive_entry_new();
  if (e == NULL) {
    snprintf(z->err, sizeof z->err, "%s", strerror(ENOMEM));
    recompress_abort(z);
    return -1;
  }
  archive_entry_set_pathname(e, "data");
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0644);
  rc = archive_write_header(z->a, e);
  archive_entry_free(e);
  if (rc != ARCHIVE_OK) {
    keep_error(z, "compress");
    recompress_abort(z);
    return -1;
  }
  return 0;
}

int recompress_write(void *ctx, const char *buf, size_t len) {
  recompress *z = ctx;
  la_ssize_t n;
  if (z->a == NULL) return -1;
  n = archive_write_data(z->a, buf, len);
  if (len > 0) z->wrote = 1;
  if (n < 0 || (size_t)n != len) {
    keep_error(z, "compress");
    return -1;
  }
  return (int)len;
}

int recompress_close(recompress *z) {
  int rc;
  if (z->a == NULL) return -1;
  rc = archive_write_close(z->a);
  if (rc != ARCHIVE_OK) keep_error(z, "compress");
  archive_write_free(z->a);
  z->a = NULL;
  return rc == ARCHIVE_OK ? 0 : -1;
}
