/* archive.c - SGF files inside archives, read with libarchive.
 *
 * libarchive never touches a file itself: its read callback hands it the
 * reader's buffer, filled by the same uv_fs_read (or stream) reads as any
 * other input, beginning with the bytes already read to recognise the
 * archive. For a named regular file a seek callback (positional reads)
 * lets libarchive read formats that need to jump around, such as 7z.
 *
 * Recognition is by magic bytes first, so that the many small plain SGF
 * files of a large run never pay for setting up libarchive; an input that
 * has the magic but whose first header cannot be read is a plain file
 * after all.
 *
 * Formats are named one by one, not with archive_read_support_format_all():
 * that includes mtree, a text format whose bidder takes a decompressed
 * SGF file (game.sgf.gz) for an mtree listing with an "entry" per line,
 * and every game of it was lost without a word. A compressed single file
 * must be read by the raw format. An archive with no .sgf member (an
 * empty one too) is reported to the sink's none(), never an empty
 * success; a compressed file of nothing is an empty input (as an empty
 * .sgf file is), not libarchive's "Unrecognized archive format".
 *
 * Entries are read block by block (archive_read_data_block), as
 * libarchive decompresses them: archive_read_data() fills the caller's
 * buffer first and, when the input breaks off (a truncated game.sgf.gz),
 * returns the error and drops what it had copied, so up to a buffer of
 * games read before the cut would never reach the sink. libarchive's own
 * decompressors still drop the block they were filling at a break, so
 * gzip, xz and bzip2 are decoded before libarchive sees the data
 * (decode.h, input.c): then it reads only the archive inside, if any.
 */
#define _POSIX_C_SOURCE 200809L

#include "input_priv.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int has(const unsigned char *b, size_t n, size_t at, const char *magic,
               size_t len) {
  return n >= at + len && memcmp(b + at, magic, len) == 0;
}

int input__archive_magic(const unsigned char *b, size_t n) {
  /* Binary signatures are certain; the all-text ones could begin a plain
   * SGF file by chance, and then a failure to read the archive is taken
   * to mean that it is one. */
  static const struct {
    const char *magic;
    size_t len;
    int kind;
  } m[] = {
      {"\x1f\x8b", 2, INPUT__MAGIC_SURE}, /* gzip */
      {"\x1f\x9d", 2, INPUT__MAGIC_SURE}, /* compress */
      {"\xfd"
       "7zXZ\0",
       6, INPUT__MAGIC_SURE},                       /* xz */
      {"\x5d\0\0", 3, INPUT__MAGIC_SURE},           /* lzma */
      {"\x28\xb5\x2f\xfd", 4, INPUT__MAGIC_SURE},   /* zstd */
      {"\x04\x22\x4d\x18", 4, INPUT__MAGIC_SURE},   /* lz4 */
      {"\x02\x21\x4c\x18", 4, INPUT__MAGIC_SURE},   /* lz4 legacy */
      {"\x89LZO", 4, INPUT__MAGIC_SURE},            /* lzop */
      {"PK\3\4", 4, INPUT__MAGIC_SURE},             /* zip */
      {"PK\5\6", 4, INPUT__MAGIC_SURE},             /* empty zip */
      {"PK\7\x08", 4, INPUT__MAGIC_SURE},           /* spanned zip */
      {"7z\xbc\xaf\x27\x1c", 6, INPUT__MAGIC_SURE}, /* 7z */
      {"Rar!\x1a\x07", 6, INPUT__MAGIC_SURE},       /* rar */
      {"\x71\xc7", 2, INPUT__MAGIC_SURE},           /* cpio binary */
      {"\xc7\x71", 2, INPUT__MAGIC_SURE},           /* cpio, swapped */
      {"BZh", 3, INPUT__MAGIC_MAYBE},               /* bzip2 */
      {"LZIP", 4, INPUT__MAGIC_MAYBE},              /* lzip */
      {"MSCF", 4, INPUT__MAGIC_MAYBE},              /* cab */
      {"xar!", 4, INPUT__MAGIC_MAYBE},              /* xar */
      {"!<arch>\n", 8, INPUT__MAGIC_MAYBE},         /* ar */
      {"070707", 6, INPUT__MAGIC_MAYBE},            /* cpio odc */
      {"070701", 6, INPUT__MAGIC_MAYBE},            /* cpio newc */
      {"070702", 6, INPUT__MAGIC_MAYBE},            /* cpio crc */
  };
  size_t i;
  for (i = 0; i < sizeof m / sizeof m[0]; i++)
    if (has(b, n, 0, m[i].magic, m[i].len)) return m[i].kind;
  if (has(b, n, 257, "ustar", 5) || has(b, n, 32769, "CD001", 5))
    return INPUT__MAGIC_MAYBE; /* tar, ISO 9660 */
  for (i = 0; i < 1024 && i < n && b[i] == 0; i++)
    ;
  if (i == 1024)
    return INPUT__MAGIC_MAYBE; /* two zero blocks: an empty tar archive */
  return INPUT__MAGIC_NONE;
}

/* ---------------------------------------------------------- callbacks */

static la_ssize_t ar_read(struct archive *a, void *ud, const void **out) {
  source *s = ud;
  const char *p = NULL;
  ssize_t n = input__pull(s, &p);
  if (n < 0 && s->dec != NULL) {
    /* The decoded data broke off: libarchive reads what came before as
     * an archive that ends there (every entry before the break is read),
     * and the error is told after it (input__read_archive()). */
    *out = NULL;
    return 0;
  }
  if (n < 0) {
    archive_set_error(a, EIO, "%s", s->perr);
    return ARCHIVE_FATAL;
  }
  *out = p;
  return n;
}

static la_int64_t ar_seek(struct archive *a, void *ud, la_int64_t off,
                          int whence) {
  source *s = ud;
  int64_t to;
  (void)a;
  switch (whence) {
    case SEEK_SET:
      to = off;
      break;
    case SEEK_CUR:
      to = s->io.pos - (int64_t)s->io.kept + off;
      break;
    case SEEK_END:
      to = s->size + off;
      break;
    default:
      return ARCHIVE_FATAL;
  }
  if (to < 0) return ARCHIVE_FATAL;
  /* (the source is paused or ended between pulls: no read in flight) */
  io_source_rewind(&s->io, to, 0);
  return to;
}

/* ---------------------------------------------------------- entries */

/* Is this entry an SGF file: "*.sgf" in any case, but not an AppleDouble
 * "._*" companion file? */
static int is_sgf_name(const char *name) {
  const char *base = strrchr(name, '/');
  size_t n = strlen(name);
  base = base ? base + 1 : name;
  if (base[0] == '.' && base[1] == '_') return 0;
  return n >= 4 && name[n - 4] == '.' && (name[n - 3] | 0x20) == 's' &&
         (name[n - 2] | 0x20) == 'g' && (name[n - 1] | 0x20) == 'f';
}

/* r->name = "path:entry" */
static int set_name(input_reader *r, const char *path, const char *entry) {
  size_t pl = strlen(path), el = strlen(entry);
  if (pl + el + 2 > r->name_cap) {
    size_t cap = (pl + el + 2) * 2;
    char *nb = realloc(r->name, cap);
    if (nb == NULL) return -1;
    r->name = nb;
    r->name_cap = cap;
  }
  memcpy(r->name, path, pl);
  r->name[pl] = ':';
  memcpy(r->name + pl + 1, entry, el + 1);
  return 0;
}

/* Why libarchive failed, or why the data decoded for it broke off, which
 * libarchive took for the end of its input (ar_read). */
static void keep_error(source *s, struct archive *a) {
  const char *e = archive_error_string(a);
  if (s->dec != NULL && s->dstate == DECODE_ERROR) e = s->perr_buf;
  snprintf(s->r->err, sizeof s->r->err, "%s", e ? e : "archive read error");
}

/* Note the filters the data came through, for input_filters(): those of
 * libarchive, then the one decoded before it (s->dec), the outermost. */
static void keep_filters(source *s, struct archive *a) {
  input_reader *r = s->r;
  int i, n = archive_filter_count(a);
  r->nfilters = 0;
  for (i = 0; i < n && r->nfilters < INPUT_MAX_FILTERS; i++) {
    int code = archive_filter_code(a, i);
    if (code != ARCHIVE_FILTER_NONE) r->filters[r->nfilters++] = code;
  }
  if (s->dec != NULL && r->nfilters < INPUT_MAX_FILTERS)
    r->filters[r->nfilters++] = decode_filter_code(s->dkind);
}

/* Give the sink len zero bytes (a hole in a sparse entry). Nonzero if
 * it asked to stop. */
static int zeros(const input_sink *sink, void *ctx, int64_t len) {
  static const char zero[4096];
  while (len > 0) {
    size_t k = len < (int64_t)sizeof zero ? (size_t)len : sizeof zero;
    if (sink->data(ctx, zero, k)) return 1;
    len -= (int64_t)k;
  }
  return 0;
}

/* Feed one entry, each block as it is decompressed. Returns ARCHIVE_OK,
 * or the failing archive_read_data_block result (r->err then says why). */
static int read_entry(source *s, struct archive *a, const char *name,
                      const input_sink *sink, void *ctx) {
  input_reader *r = s->r;
  const void *buf;
  size_t len;
  la_int64_t off, at = 0;
  int rc;
  keep_filters(s, a);
  sink->begin(ctx, name);
  for (;;) {
    rc = archive_read_data_block(a, &buf, &len, &off);
    if (rc == ARCHIVE_EOF) {
      rc = ARCHIVE_OK;
      break;
    }
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
      keep_error(s, a);
      break;
    }
    rc = ARCHIVE_OK;
    if (off > at) {
      if (zeros(sink, ctx, off - at)) break;
      at = off;
    }
    at += (la_int64_t)len;
    if (len > 0 && sink->data(ctx, buf, len)) break;
  }
  sink->end(ctx, name, rc == ARCHIVE_OK ? NULL : r->err);
  return rc;
}

/* After the first header failed: was a compression filter found, and
 * then no format, not even raw? raw takes any byte, and a decompressor's
 * own failure (damaged, cut off) has its own message: so the
 * decompressed data was empty. */
static int empty_stream(struct archive *a) {
  /* libarchive's errno for "Unrecognized archive format" */
#ifdef EFTYPE
  const int format_errno = EFTYPE;
#else
  const int format_errno = EILSEQ;
#endif
  return archive_errno(a) == format_errno && archive_format(a) == 0 &&
         archive_filter_count(a) > 1 &&
         archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE;
}

static struct archive *open_archive(source *s) {
  struct archive *a = archive_read_new();
  if (a == NULL) return NULL;
  /* Compression filters: all but uu. Its bidder reads up to 128 KiB of
   * decompressed data ahead, looking for a "begin" line, and when a
   * truncated game.sgf.gz broke off within that, the decompressor's error
   * made every byte before the break unreadable. */
  archive_read_support_filter_bzip2(a);
  archive_read_support_filter_compress(a);
  archive_read_support_filter_grzip(a);
  archive_read_support_filter_gzip(a);
  archive_read_support_filter_lrzip(a);
  archive_read_support_filter_lz4(a);
  archive_read_support_filter_lzip(a);
  archive_read_support_filter_lzma(a);
  archive_read_support_filter_lzop(a);
  archive_read_support_filter_rpm(a);
  archive_read_support_filter_xz(a);
  archive_read_support_filter_zstd(a);
  /* archives (no mtree: see the top of this file), unless the name says
   * the file is one compressed SGF file */
  if (s->one_sgf) {
    archive_read_support_format_raw(a);
    archive_read_set_read_callback(a, ar_read);
    archive_read_set_callback_data(a, s);
    return a;
  }
  archive_read_support_format_7zip(a);
  archive_read_support_format_ar(a);
  archive_read_support_format_cab(a);
  archive_read_support_format_cpio(a);
  archive_read_support_format_iso9660(a);
  archive_read_support_format_lha(a);
  archive_read_support_format_rar(a);
  archive_read_support_format_rar5(a);
  archive_read_support_format_tar(a);
  archive_read_support_format_xar(a);
  archive_read_support_format_zip(a);
  archive_read_support_format_raw(a); /* game.sgf.gz: one plain stream */
  archive_read_set_read_callback(a, ar_read);
  if (s->seekable && s->dec == NULL) archive_read_set_seek_callback(a, ar_seek);
  archive_read_set_callback_data(a, s);
  return a;
}

int input__read_archive(source *s, const char *path, size_t n, int magic,
                        const input_sink *sink, void *ctx) {
  input_reader *r = s->r;
  struct archive *a;
  struct archive_entry *e;
  int rc, entries = 0, sgf_entries = 0, retries = 0, result = 0;

  (void)n; /* kept in s->io, pulled first */
  a = open_archive(s);
  if (a == NULL) {
    sink->fail(ctx, path, strerror(ENOMEM));
    return -1;
  }
  rc = archive_read_open1(a);
  for (;;) {
    if (rc == ARCHIVE_OK || rc == ARCHIVE_WARN)
      rc = archive_read_next_header(a, &e);
    if (rc == ARCHIVE_EOF) break;
    if (rc == ARCHIVE_RETRY && ++retries < 100) {
      rc = ARCHIVE_OK;
      continue;
    }
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
      if (entries == 0 && empty_stream(a)) {
        /* a compressed file of nothing: an empty input, like an empty
         * .sgf file */
        keep_filters(s, a);
        sink->begin(ctx, path);
        sink->end(ctx, path, NULL);
        sgf_entries++;
      } else if (entries == 0 && magic == INPUT__MAGIC_MAYBE &&
                 (s->dec != NULL ? s->dpulls <= 1
                                 : s->seekable || s->io.reads <= 1)) {
        result = INPUT__NOT_ARCHIVE; /* not an archive after all */
      } else {
        keep_error(s, a);
        sink->fail(ctx, path, r->err);
        result = -1;
      }
      break;
    }
    retries = 0;
    entries++;
    if (archive_format(a) == ARCHIVE_FORMAT_RAW) {
      sgf_entries++;
      rc = read_entry(s, a, path, sink, ctx);
    } else {
      const char *en = archive_entry_pathname(e);
      if (en == NULL) en = archive_entry_pathname_utf8(e);
      if (en == NULL || archive_entry_filetype(e) != AE_IFREG ||
          !is_sgf_name(en))
        continue;
      if (set_name(r, path, en) != 0) {
        sink->fail(ctx, path, strerror(ENOMEM));
        result = -1;
        break;
      }
      sgf_entries++;
      rc = read_entry(s, a, r->name, sink, ctx);
    }
    if (rc != ARCHIVE_OK) {
      result = -1;
      if (rc == ARCHIVE_FATAL) break;
      rc = ARCHIVE_OK;
    }
  }
  if (result == 0 && s->dec != NULL && s->dstate == DECODE_ERROR) {
    /* libarchive read to the break as if to an end */
    sink->fail(ctx, path, s->perr_buf);
    result = -1;
  }
  if (result == 0 && sgf_entries == 0) {
    snprintf(r->err, sizeof r->err,
             "no .sgf file in this %s archive (%d member%s)",
             archive_format_name(a) ? archive_format_name(a) : "", entries,
             entries == 1 ? "" : "s");
    sink->none(ctx, path, r->err);
  }
  archive_read_free(a);
  return result;
}
