/* sgfstream/event_state.h - OPT-IN: the parser's event state, read inline.
 *
 * NOT PART OF THE STABLE API. sgfstream.h does not include this header.
 * Everything it gives is also given by sgf_parser_position() and
 * sgf_parser_raw_ident(), which are stable; this is only a faster way to
 * the same answers, for handlers that want the position of nearly every
 * event (a tree builder, a property reader, an index of games).
 *
 * Why it exists. sgf_parser_position() is a function call. In a handler
 * that otherwise calls nothing, the call (and the registers it makes the
 * handler save) costs more than the handler's own work: inline
 * positions cost nearly nothing, positions by call about a third of a
 * no-op handler's time (measured in bench/README.md, "Positions inline or
 * by call").
 *
 * Why it is versioned. The readers below are compiled into your program,
 * so they fix how the parser counts positions (the members and their
 * meaning). That would tie every change of the parser's counting to a
 * soname bump; instead the layout has a version of its own.
 * sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION) returns the state
 * only when the library's layout is the one your program was compiled
 * with, and NULL otherwise (a newer library that counts differently):
 * then call sgf_parser_position() and sgf_parser_raw_ident(), as every
 * program must be ready to. The library's own layers (the tree builder,
 * the property reader) do just that.
 *
 *   const sgf_event_state *es =
 *       sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION); once
 *   pos = es ? sgf_event_position(p, es) : sgf_parser_position(p);
 *
 * sgf_event_position() returns exactly what sgf_parser_position()
 * returns, at any time: it reads the counters where they tell the
 * position by themselves (inside feed and finish, an event on the
 * current line) and calls sgf_parser_position() where they do not (a
 * value that began before a line break, or outside feed and finish).
 * sgf_event_raw_ident() is sgf_parser_raw_ident() the same way.
 *
 * The struct lives inside the parser: the pointer is valid until the
 * parser is destroyed (reset keeps it), and the members change as the
 * parser goes. Read them only through the two functions below.
 */
#ifndef SGFSTREAM_EVENT_STATE_H
#define SGFSTREAM_EVENT_STATE_H

#include "sgfstream/parser.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout below. Raised whenever a member or its meaning changes. */
#define SGF_EVENT_STATE_VERSION 1

typedef struct sgf_event_state {
  uint64_t offset;       /* offset of the current event */
  uint64_t line;         /* the current line */
  uint64_t line_start;   /* offset of the current line's start */
  const char *raw_ident; /* what sgf_parser_raw_ident() returns */
  size_t raw_ident_len;
  int live; /* inside feed or finish */
} sgf_event_state;

/* The parser's event state if version is the library's
 * SGF_EVENT_STATE_VERSION, else NULL. p must not be NULL. */
SGF_EXTERN const sgf_event_state *sgf_parser_event_state(const sgf_parser *p,
                                                         int version);

static inline sgf_pos sgf_event_position(const sgf_parser *p,
                                         const sgf_event_state *es) {
  if (es->live && es->offset >= es->line_start) {
    sgf_pos r;
    r.offset = es->offset;
    r.line = es->line;
    r.column = es->offset - es->line_start + 1;
    return r;
  }
  return sgf_parser_position(p);
}

static inline const char *sgf_event_raw_ident(const sgf_event_state *es,
                                              size_t *len) {
  if (len) *len = es->raw_ident_len;
  return es->raw_ident;
}

#ifdef __cplusplus
}
#endif

#endif /* SGFSTREAM_EVENT_STATE_H */
