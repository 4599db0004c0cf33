/* log.h - `sgf serve`'s log: one line per event worth knowing (connect,
 * game stored, game quarantined, limit hit...), with a UTC time stamp,
 * to stderr or a file that SIGHUP reopens (log rotation). */
#ifndef SGF_SERVE_LOG_H
#define SGF_SERVE_LOG_H

#include <stdint.h>

/* path NULL: stderr. Returns 0 or -1 (errno). */
int slog_open(const char *path);
/* Reopen the file (after a rotation). Returns 0 or -1. */
int slog_reopen(void);
void slog_close(void);
void slog(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The same, left in stdio's buffer (for the frequent events: a game
 * stored); slog_flush(), called by a timer, writes it. */
void slogq(const char *fmt, ...)
#ifdef __GNUC__
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void slog_flush(void);

/* The most frequent line, a game stored, formatted by hand (vsnprintf
 * cost as much as a small game's conversion): as slogq("stored %s #%"
 * PRIu64 " game %" PRIu64 ": %" PRIu64 " bytes from %s %" PRIu64
 * "%s%s", peer, id, index, len, from, offset, name ? " as " : "",
 * name ? name : ""), from being "byte" or "body byte". */
void slogq_stored(const char *peer, uint64_t id, uint64_t index, uint64_t len,
                  const char *from, uint64_t offset, const char *name);

#endif /* SGF_SERVE_LOG_H */
