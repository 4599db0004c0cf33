/* input.h - the sgf tool's input: files, stdin and archives, in chunks,
 * all I/O through libuv, on an event loop.
 *
 * One input_reader serves a whole run: it owns a libuv loop and one read
 * buffer, so opening the next file allocates nothing (an archive, while
 * it is read, has libarchive's own buffers for decompressed data; a plain
 * file larger than the buffer is read ahead into a second one, made once).
 * No input is ever held in memory whole.
 *
 * Every FILE is read by one io_source (stream.h) on the reader's loop:
 * its read callbacks feed the consumer, which may pause it (then reading
 * stops until it resumes: backpressure). input_read() runs the loop until
 * the input is over, so for the commands it is still one call per FILE.
 * A FILE argument is one of
 *   "-"           standard input: a pipe or terminal (uv_guess_handle) is
 *                 a stream, read with uv_read_start; a regular file is
 *                 read with uv_fs_read;
 *   a file        read with uv_fs_read, a callback per chunk (the read
 *                 runs in libuv's thread pool, the next one issued while
 *                 the sink works on a chunk); in place when it fits in the
 *                 buffer (one read: a trip through the pool would cost
 *                 more) or for a reader on a pool thread
 *                 (input_reader_inline());
 *   an archive    (tar, zip, 7z, cpio, ar, ..., possibly compressed, or a
 *                 single compressed file such as game.sgf.gz), recognised
 *                 by its first chunk, which the source is paused on; then
 *                 libarchive pulls, each pull resuming the same source
 *                 until it has paused on the next chunk. Each regular
 *                 entry whose name ends in ".sgf" (any case) is one input
 *                 named "ARCHIVE:ENTRY"; a single compressed file is one
 *                 input named like the file. gzip, xz and bzip2 are
 *                 decoded here (decode.h), pulled the same way, and what
 *                 they hold is recognised again: plain, or an archive for
 *                 libarchive.
 * A file named "*.sgf" (any case), given or found in a directory, is
 * never looked at for an archive or compression: it is one plain input.
 * Standard input and other names are.
 * The sink below cannot pause (the commands' parsers never do); a
 * consumer that pauses uses stream.h directly.
 */
#ifndef SGF_TOOLS_INPUT_H
#define SGF_TOOLS_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

/* What to do with the inputs found in one FILE argument. begin() and end()
 * bracket each input; data() receives its bytes in order. */
typedef struct input_sink {
  /* An input starts. name stays valid until end(). */
  void (*begin)(void *ctx, const char *name);
  /* Some bytes of it; valid during the call only. Return nonzero to skip
   * the rest of this input (end() is still called). */
  int (*data)(void *ctx, const char *buf, size_t len);
  /* The input is over: error is NULL if it was read to its end or data()
   * asked to stop, else why reading failed part way. */
  void (*end)(void *ctx, const char *name, const char *error);
  /* A FILE (or archive) could not be read at all, or an archive broke
   * between entries: name and reason. No begin()/end() for this. */
  void (*fail)(void *ctx, const char *name, const char *error);
  /* name was read, and held no SGF input at all (not a failure): a
   * directory without .sgf files, an archive without .sgf members, an
   * empty archive, a compressed file with nothing inside. why says so. */
  void (*none)(void *ctx, const char *name, const char *why);
  /* Optional (NULL: not told). How the input is being read, between
   * begin() and end(): INPUT_NOTE_UTF16LE / _UTF16BE before data() gets
   * its first bytes (off: bytes of the byte-order mark, not given to
   * data()); INPUT_NOTE_BAD_UTF16 after data() got the text before the
   * code unit at byte off of the input that does not decode (a lone
   * surrogate, or a character cut off at the end): data() gets nothing
   * more of this input, and end() says no error. Without note() the bad
   * UTF-16 is end()'s error instead. */
  void (*note)(void *ctx, int what, uint64_t off);
} input_sink;

/* UTF-16 INPUT. SGF is a byte format and the parser refuses UTF-16 (a
 * fatal error), but some programs save records as UTF-16. Each input
 * whose first bytes are a UTF-16 byte-order mark (FF FE, not FF FE 00 00;
 * FE FF), or a '(' as UTF-16 (two NUL bytes: never a single NUL), is
 * converted to UTF-8 on the way to data(), chunk by chunk in constant
 * memory, by the library (sgfstream/utf16.h, transcode.c): the sink
 * sees UTF-8, as if the file had been converted first, so positions
 * count in the converted text (lines as in the file, columns and offsets
 * in bytes of UTF-8). */
enum { INPUT_NOTE_UTF16LE = 1, INPUT_NOTE_UTF16BE, INPUT_NOTE_BAD_UTF16 };

typedef struct input_reader input_reader;

/* bufsize: bytes per read (0 for the default, 256 KiB). NULL if memory or
 * libuv fails. */
input_reader *input_reader_create(size_t bufsize);
void input_reader_destroy(input_reader *r);

/* Have r read files in place, on its loop's own thread (stream.h,
 * IO_SOURCE_INLINE): for a reader used in a task of libuv's thread pool
 * (jobs.c, ranges.c), which must not wait for the pool itself. */
void input_reader_inline(input_reader *r);

/* Read every input in path ("-" for standard input) into sink. Returns 0,
 * or -1 if fail() or end() with an error was called. (none() is not a
 * failure.) */
int input_read(input_reader *r, const char *path, const input_sink *sink,
               void *ctx);

/* Between begin() and end(): the compression the input was read through
 * (game.sgf.gz, or the archive an entry is in), as libarchive's filter
 * codes (ARCHIVE_FILTER_GZIP...), the one nearest the uncompressed data
 * first, which is the order archive_write_add_filter() takes them in to
 * compress the same way. Stores up to max codes; returns how many there
 * are, 0 for an input read as it is. */
#define INPUT_MAX_FILTERS 8
int input_filters(const input_reader *r, int *codes, int max);

/* For callers that read inputs in several threads (jobs.h). A reader and
 * what it hands out belong to one thread at a time; different readers may
 * be used in different threads at once. */

/* input_read(), except that a directory is not walked: it returns
 * INPUT_IS_DIR and calls nothing of sink. */
#define INPUT_IS_DIR 1
int input_read_file(input_reader *r, const char *path, const input_sink *sink,
                    void *ctx);

/* Is path a directory, following symbolic links? */
int input_is_dir(input_reader *r, const char *path);

/* For reading one large plain file in byte ranges, one thread each
 * (ranges.h); input_range.c. */

/* If path is a regular file of at least min_size bytes whose first bytes
 * are not those of an archive or compressed file, its size; else -1 (the
 * caller reads it the ordinary way, which also reports what is wrong). */
int64_t input_plain_size(input_reader *r, const char *path, int64_t min_size);

/* Read bytes [off, off + len) of path into data() in chunks of the
 * reader's buffer (data() returning nonzero stops): the first chunk of
 * first bytes (0: the buffer's size), each next one twice as large, up to
 * the buffer's size (a search that likely ends soon reads little). Returns
 * 0, or a negative libuv error (also when the file is shorter than off +
 * len). */
int input_read_range(input_reader *r, const char *path, int64_t off,
                     int64_t len, size_t first,
                     int (*data)(void *ctx, const char *buf, size_t n),
                     void *ctx);

/* What none() says of a directory without .sgf files. */
#define INPUT_NO_SGF_FILE "no .sgf file found"

/* The files of a directory one at a time, in input_read()'s order. */
typedef struct input_walk input_walk;
/* NULL if memory fails. r is used for listing directories. */
input_walk *input_walk_open(input_reader *r, const char *root);
/* INPUT_WALK_FILE: *path is the next file (read it with input_read());
 * INPUT_WALK_FAIL: the directory *path could not be listed, *error says
 * why; INPUT_WALK_LINK (only after input_walk_no_links()): *path is a
 * symbolic link that would have been read or walked; INPUT_WALK_END.
 * Both strings stay valid until the next call. A link to a directory is
 * never walked, a link to anything else named like an SGF file is read
 * (INPUT_WALK_FILE), unless input_walk_no_links(). */
enum { INPUT_WALK_END = 0, INPUT_WALK_FILE, INPUT_WALK_FAIL, INPUT_WALK_LINK };
/* Follow no symbolic link: return them (to a directory, or named like an
 * SGF file) as INPUT_WALK_LINK, before the files of their directory. */
void input_walk_no_links(input_walk *w);
int input_walk_next(input_walk *w, const char **path, const char **error);
void input_walk_close(input_walk *w);

#endif /* SGF_TOOLS_INPUT_H */
