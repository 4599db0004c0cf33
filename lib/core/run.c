/* run.c - sgf_run_replay() (sgfstream/run.h): the events a move run
 * stands for, made from on_moves into another set of callbacks.
 *
 * Each event is positioned by setting the parser's event state (the
 * offset, line and line start sgf_parser_position() and
 * sgf_event_position() read, and the identifier as written) to the
 * node's, as the general path would have it during that event; the
 * state on_moves was called in is put back after. The node walk is
 * sgf_run_iter_next(), the one every consumer of runs uses. */
#include "parser.h"
#include "sized.h"

/* cb's member m, or NULL when cb (of an older header) ends before it */
#define MEMBER(cb, m) \
  ((cb)->size >= SGF__SIZE_UPTO(sgf_callbacks, m) ? (cb)->m : NULL)

/* The event at offset o of the current node (line and line start set) */
#define AT(o) (p->ev.offset = (o))

/* One event; SGF_PAUSE is remembered (the run is delivered whole),
 * anything else but SGF_CONTINUE ends the replay with it. */
#define CALL(call)                   \
  do {                               \
    const int r_ = (call);           \
    if (r_ == SGF_PAUSE) {           \
      paused = 1;                    \
    } else if (r_ != SGF_CONTINUE) { \
      act = r_;                      \
      goto done;                     \
    }                                \
  } while (0)

int sgf_run_replay(sgf_parser *p, const char *at, size_t len,
                   const sgf_callbacks *cb, void *user) {
  sgf_event_state saved;
  sgf__mark saved_mark;
  sgf_cb on_node, on_value_begin, on_value_end, on_property_end, on_node_end;
  sgf_data_cb on_property, on_value_data;
  sgf_value_cb on_value;
  sgf_run_iter it;
  sgf_run_node n;
  sgf_pos first;
  int act = SGF_CONTINUE, paused = 0, more;
  if (!p || !cb || (!at && len)) return SGF_CONTINUE;
  on_node = MEMBER(cb, on_node);
  on_property = MEMBER(cb, on_property);
  on_value_begin = MEMBER(cb, on_value_begin);
  on_value_data = MEMBER(cb, on_value_data);
  on_value_end = MEMBER(cb, on_value_end);
  on_property_end = MEMBER(cb, on_property_end);
  on_value = MEMBER(cb, on_value);
  on_node_end = MEMBER(cb, on_node_end);
  saved = p->ev;
  saved_mark = p->ev_saved;
  first = sgf_parser_position(p);
  sgf_run_iter_init(&it, at, len, &first);
  p->ev.live = 1;
  p->ev.line = first.line;
  p->ev.line_start = first.offset - (first.column - 1);
  if (saved.live) { /* in on_moves: what the parser kept for us */
    p->ev.raw_ident = p->run_raw;
    p->ev.raw_ident_len = p->run_raw_len;
  }
  if (saved.live && p->run_open && on_node_end)
    CALL((AT(first.offset), on_node_end(p, user)));
  more = sgf_run_iter_next(&it, &n);
  while (more) {
    const uint64_t o = n.offset;
    p->ev.line = n.line;
    p->ev.line_start = o - (n.column - 1);
    if (on_node) CALL((AT(o), on_node(p, user)));
    p->ev.raw_ident = n.at + 1;
    p->ev.raw_ident_len = 1;
    if (on_property) CALL((AT(o + 1), on_property(p, user, n.at + 1, 1)));
    if (on_value) {
      CALL((AT(o + 2),
            on_value(p, user, n.value, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST)));
    } else {
      if (on_value_begin) CALL((AT(o + 2), on_value_begin(p, user)));
      if (on_value_data) CALL((AT(o + 3), on_value_data(p, user, n.value, 2)));
      if (on_value_end) CALL((AT(o + 5), on_value_end(p, user)));
    }
    /* the property (and but for the last, the node) end at the next ';',
     * past the line break, if any */
    {
      const sgf_pos e = sgf_run_iter_pos(&it);
      p->ev.line = e.line;
      p->ev.line_start = e.offset - (e.column - 1);
      more = sgf_run_iter_next(&it, &n);
      if (on_property_end) CALL((AT(e.offset), on_property_end(p, user)));
      if (more && on_node_end) CALL((AT(e.offset), on_node_end(p, user)));
    }
  }
done:
  p->ev = saved;
  p->ev_saved = saved_mark;
  if (act == SGF_CONTINUE && paused) act = SGF_PAUSE;
  return act;
}
