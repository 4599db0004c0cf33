/* eventlog.h - a line-per-event text log of a parse, for `sgf events` and
 * for the golden tests.
 *
 * THE FORMAT. One line per event, ending in '\n':
 *
 *   OFFSET LINE:COL EVENT[ ARGS]
 *
 * OFFSET (0-based bytes), LINE and COL (1-based, COL in bytes) are
 * sgf_parser_position() inside the callback. EVENT is one of
 *
 *   tree-begin | tree-end | node | value-begin | value-end | property-end
 *   node-end (only with evlog_node_end(): the golden logs and `sgf
 *   events` leave it out, so that they read as before it existed)
 *   property NAME[ raw=RAW]
 *   value-data "BYTES"
 *
 * and a diagnostic is logged as
 *
 *   OFFSET LINE:COL SEVERITY NAME (CODE): MESSAGE[ [opened at LINE:COL]]
 *
 * with the diagnostic's own position (sgf_diag.pos) and mark.
 *
 * property: NAME is the identifier normalized to FF[4]; " raw=RAW" follows
 * when the identifier as written differs. RAW is printed bare if it holds
 * only ASCII letters and digits, else quoted like value data.
 *
 * value-data: all slices of one value that arrive one after another are
 * merged into a single line, at the position of the first slice, so the
 * log does not depend on how the input was chunked. BYTES is the raw value
 * (escapes intact) in double quotes, with \\ \" \n \r \t for those bytes
 * and \xHH (lowercase hex) for every other byte below 0x20 or above 0x7e.
 * A merged line is written when the next event arrives, or by
 * evlog_flush() after the last one.
 *
 * Example: "(;FF[4])" logs
 *   0 1:1 tree-begin
 *   1 1:2 node
 *   2 1:3 property FF
 *   4 1:5 value-begin
 *   5 1:6 value-data "4"
 *   6 1:7 value-end
 *   7 1:8 property-end
 *   7 1:8 tree-end
 */
#ifndef SGF_TOOLS_EVENTLOG_H
#define SGF_TOOLS_EVENTLOG_H

#include <stddef.h>

#include <sgfstream.h>

/* Receives one whole line, '\n' included; line is not NUL-terminated. */
typedef void (*evlog_write_fn)(void *ctx, const char *line, size_t len);

typedef struct evlog {
  /* Public. */
  long count;     /* callbacks received so far, diagnostics included */
  long action_at; /* the callback (0-based count) that returns `action`;
                     -1 (the default) for none */
  int action;     /* an sgf_action; diagnostics only pass on SGF_ABORT */
  /* Private. */
  evlog_write_fn write;
  void *ctx;
  char *buf; /* the line being built; holds a pending value-data line
                between slices */
  size_t len, cap;
  int pending; /* 1 while buf holds an unfinished value-data line */
  int nomem;   /* set when the buffer could not grow */
} evlog;

/* Start a log that writes through write(ctx, ...). */
void evlog_init(evlog *l, evlog_write_fn write, void *ctx);

/* Free the line buffer. The log may be initialized again afterwards. */
void evlog_free(evlog *l);

/* Fill all nine callbacks (all but on_node_end). The parser's user
 * pointer must be the evlog*. */
void evlog_callbacks(sgf_callbacks *cb);

/* Set on_node_end too: a "node-end" line for it. */
void evlog_node_end(sgf_callbacks *cb);

/* After sgf_parser_finish(): write the value-data line still pending, if
 * any. Returns 0 (-1 if a line was lost because memory ran out). */
int evlog_flush(evlog *l);

#endif /* SGF_TOOLS_EVENTLOG_H */
