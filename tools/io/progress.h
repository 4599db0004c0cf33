/* progress.h - one progress line on standard error for long jobs.
 *
 *   sgf stats: 45.2 MB of 100.2 MB (45%), 12345 games, 310.5 MB/s, 0:02 left
 *
 * Bytes are counted where they are read (stream.c, input_range.c): the
 * bytes of the files themselves, compressed or not, so that they compare
 * with the total, the sum of the sizes of the FILE arguments (a plain
 * file, an archive, a compressed file, standard input when it is a
 * regular file). A directory or a pipe among them leaves the total
 * unknown: then there is no percentage and no time left. Games are what
 * the command says it has done (progress_games()).
 *
 * When: with --progress always; with --quiet never; otherwise only when
 * standard error is a terminal (isatty(2)), and never in the first half
 * second, so that short jobs print nothing. The line is redrawn at most
 * four times a second, with '\r', and erased at the end.
 *
 * Cost: progress_bytes() is called once per read (256 KiB by default);
 * when the meter is off it is one load and a branch; when it is on, an
 * atomic add and a clock read (uv_hrtime()). Any thread may call it: the
 * counters are atomic and one thread at a time wins the right to draw.
 */
#ifndef SGF_TOOLS_PROGRESS_H
#define SGF_TOOLS_PROGRESS_H

#include <stdint.h>

enum { PROGRESS_AUTO = 0, PROGRESS_ON, PROGRESS_OFF };

/* For the commands' option tables: --progress and --quiet. */
#define PROGRESS_OPT_ON 0x7100
#define PROGRESS_OPT_OFF 0x7101
#define PROGRESS_LONGOPTS                             \
  {"progress", no_argument, NULL, PROGRESS_OPT_ON}, { \
    "quiet", no_argument, NULL, PROGRESS_OPT_OFF      \
  }
/* Set by the options (PROGRESS_ON / PROGRESS_OFF) before progress_start(). */
void progress_mode(int mode);
/* The same from the getopt code PROGRESS_OPT_ON or PROGRESS_OPT_OFF. */
void progress_option(int opt);

/* A job over files[0..nfiles) of command cmd begins: decides whether the
 * meter is on and finds the total. */
void progress_start(const char *cmd, char **files, int nfiles);

/* Bytes were read; games were done. Cheap, any thread. */
extern int progress_on_;
void progress_add_(uint64_t bytes, uint64_t games);
static inline void progress_bytes(uint64_t n) {
  if (progress_on_) progress_add_(n, 0);
}
static inline void progress_games(uint64_t n) {
  if (progress_on_) progress_add_(0, n);
}

/* Erase the line before printing something else on stderr (the next
 * update draws it again). Main thread. */
void progress_clear(void);

/* The job is over: erase the line and turn the meter off. */
void progress_end(void);

#endif /* SGF_TOOLS_PROGRESS_H */
