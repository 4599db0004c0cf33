/* bench_events.c - throughput of the push parser on an in-memory input.
 *
 *   bench/bench_events [-n REPS] [-m MAXBYTES] [-o WHAT] [--results FILE]
 *                      FILE | DIR | --list LISTFILE
 *
 * The input is read into memory once (bench/load.c): a FILE is one input
 * (a collection); a DIR (every .sgf file below it, sorted) or the files
 * named in LISTFILE are one input each, and every measurement then parses
 * each file as a separate input, one parser reset between files (as a
 * program handling many files would; events/no-op/new creates a new
 * parser per file instead). So the numbers are the parser's, not the
 * disk's. Each measurement is the best (shortest) of REPS runs (default
 * 5), timed with CLOCK_MONOTONIC around parser creation, the feed loop,
 * finish (and reset) for every input, and destruction.
 *
 *   memchr '\n'       counting newlines with memchr() over the same
 *                     buffers: the ceiling, a loop that touches every byte
 *                     and does almost nothing (best of at least 5 runs).
 *   events/no-op      the event parser with every callback set to a
 *                     function that only returns SGF_CONTINUE, so each event
 *                     pays a real indirect call; at 64 KiB, 4 KiB and
 *                     64-byte chunks.
 *   events/no-op/new  (a directory or list only) the same at 64 KiB, with a
 *                     new parser for each file (create, feed, finish,
 *                     destroy) instead of one parser reset between files.
 *   events/null       the event parser with no callbacks at all.
 *   values/no-op      as events/no-op, with values whole: on_value in
 *                     place of the three value callbacks (one call a
 *                     value when it lies whole in the chunk).
 *   values/pos-inl    as values/no-op, the node, property and value
 *                     handlers reading their position inline (opt-in
 *                     sgfstream/event_state.h)
 *   values/pos-call   the same through sgf_parser_position() calls
 *   reader/no-op      the property reader (reader.h) with a no-op
 *                     on_property.
 *   batch/sum         batched events (sgf_parser_set_batch, 256 records
 *                     a batch): one handler call per batch, looping over
 *                     the records (it adds up their kinds and lengths, so
 *                     that the loop is not optimized away). The kinds
 *                     recorded are the events values/no-op gets (no node
 *                     ends), so that the two compare like for like.
 *   batch/moves       as batch/sum with MOVES records opted into (a run
 *                     of plain move nodes in one record, kinds naming
 *                     SGF_EVENT_MOVES): the handler adds what the records
 *                     a MOVES record stands for would have added (per
 *                     node a node, a property of 1 byte, a value of 2
 *                     and a property end), so that its sum is batch/sum's
 *                     (checked after each timed run).
 *   batch/pos         as batch/sum, the handler also taking the position
 *                     of each node, property and value (first piece)
 *                     with sgf_batch_position(): next to values/pos-inl,
 *                     what a consumer that needs positions (a tree
 *                     builder, sgf json) would get from batches.
 *   skip/root         as events/no-op, with an on_node_end that returns
 *                     SGF_SKIP at the end of each game's root node: read
 *                     the root, pass over the rest of the game (what a
 *                     headers scan does).
 *   batch/skip-root   skip/root through batches: every kind recorded
 *                     but MOVES, a batch delivered at each node end
 *                     (stop_kinds), the handler summing its records as
 *                     batch/sum does and returning SGF_SKIP when the
 *                     batch ends with a game's root node end: a headers
 *                     scan that takes its events as records.
 *   calls only        as many indirect calls to the no-op handlers as
 *                     events/no-op 64KiB makes, and nothing else.
 *
 * Event counts come from one extra, untimed run per configuration with
 * counting callbacks (the timed runs keep the pure no-op ones and the libc
 * allocator). The counts that do not depend on chunking are cross-checked
 * between configurations. The parser's own memory is counted in that run
 * through sgf_allocator hooks, which also check that every free gives back
 * the size that was allocated.
 *
 * --results FILE appends one line per measurement for bench/run's summary
 * (see util.h).
 *
 * MB means 10^6 bytes. Exit status: 0, or 1 if a run did not parse
 * (status other than SGF_OK) or a cross-check failed, 2 on usage or I/O
 * errors.
 */
#define _POSIX_C_SOURCE 200809L

#include <sgfstream.h>
#include <sgfstream/event_state.h>

#include "load.h"
#include "util.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char prog[] = "bench_events";

/* ---------------------------------------------------------------------- */
/* Callbacks                                                               */

/* The no-op handlers: distinct functions, one per callback, each doing
 * nothing but returning SGF_CONTINUE. */
static int nop_tree_begin(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}
static int nop_tree_end(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}
static int nop_node(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}
static int nop_property(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p;
  (void)u;
  (void)at;
  (void)len;
  return SGF_CONTINUE;
}
static int nop_value_begin(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}
static int nop_value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p;
  (void)u;
  (void)at;
  (void)len;
  return SGF_CONTINUE;
}
static int nop_value_end(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}
static int nop_property_end(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  return SGF_CONTINUE;
}
static int nop_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  (void)p;
  (void)u;
  (void)d;
  return SGF_CONTINUE;
}
static int nop_reader_property(sgf_parser *p, void *u,
                               const sgf_prop_view *prop) {
  (void)p;
  (void)u;
  (void)prop;
  return SGF_CONTINUE;
}

/* The name of the input being parsed, for the first diagnostic. */
static const char *current_input;

/* The counting handlers, for the untimed runs. */
typedef struct counts {
  uint64_t tree_begin, tree_end, node, property, value_begin, value_data,
      value_bytes, value_end, property_end, diagnostic;
  uint64_t games; /* top-level game trees */
  uint64_t depth; /* our own count of open trees */
  uint64_t diag_by_severity[4];
  uint64_t first_diag_code, first_diag_offset;
  const char *first_diag_input; /* the file it is in */
  uint64_t reader_values;       /* reader: values over all properties */
  uint64_t pieces;              /* on_value calls */
} counts;

static uint64_t events_of(const counts *c) {
  return c->tree_begin + c->tree_end + c->node + c->property + c->value_begin +
         c->value_data + c->value_end + c->property_end + c->diagnostic;
}

static int cnt_tree_begin(sgf_parser *p, void *u) {
  counts *c = u;
  (void)p;
  c->tree_begin++;
  if (c->depth++ == 0) c->games++;
  return SGF_CONTINUE;
}
static int cnt_tree_end(sgf_parser *p, void *u) {
  counts *c = u;
  (void)p;
  c->tree_end++;
  if (c->depth > 0) c->depth--;
  return SGF_CONTINUE;
}
static int cnt_node(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->node++;
  return SGF_CONTINUE;
}
static int cnt_property(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)p;
  (void)at;
  (void)len;
  ((counts *)u)->property++;
  return SGF_CONTINUE;
}
static int cnt_value_begin(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->value_begin++;
  return SGF_CONTINUE;
}
static int cnt_value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  counts *c = u;
  (void)p;
  (void)at;
  c->value_data++;
  c->value_bytes += len;
  return SGF_CONTINUE;
}
static int cnt_value_end(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->value_end++;
  return SGF_CONTINUE;
}
static int cnt_property_end(sgf_parser *p, void *u) {
  (void)p;
  ((counts *)u)->property_end++;
  return SGF_CONTINUE;
}
static int cnt_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  counts *c = u;
  (void)p;
  if (c->diagnostic == 0) {
    c->first_diag_code = (uint64_t)d->code;
    c->first_diag_offset = d->pos.offset;
    c->first_diag_input = current_input;
  }
  c->diagnostic++;
  if (d->severity >= SGF_SEV_WARNING && d->severity <= SGF_SEV_FATAL)
    c->diag_by_severity[d->severity]++;
  return SGF_CONTINUE;
}
static int cnt_reader_property(sgf_parser *p, void *u,
                               const sgf_prop_view *prop) {
  counts *c = u;
  (void)p;
  c->property++;
  c->reader_values += prop->nvalues;
  return SGF_CONTINUE;
}

static int nop_value(sgf_parser *p, void *u, const char *at, size_t len,
                     unsigned flags) {
  (void)p;
  (void)u;
  (void)at;
  (void)len;
  (void)flags;
  return SGF_CONTINUE;
}
static int cnt_value(sgf_parser *p, void *u, const char *at, size_t len,
                     unsigned flags) {
  counts *c = u;
  (void)p;
  (void)at;
  c->pieces++;
  if (flags & SGF_VALUE_FIRST) c->value_begin++;
  if (len) {
    c->value_data++;
    c->value_bytes += len;
  }
  if (flags & SGF_VALUE_LAST) c->value_end++;
  return SGF_CONTINUE;
}

/* batch/sum: the batch handlers. The timed one touches every record. */
enum { BATCH_CAP = 256 };
static sgf_event batch_array[BATCH_CAP];
static uint64_t batch_sink, sum_ref;
static int sum_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  const sgf_event *ev = b->ev;
  uint64_t acc = 0;
  (void)p;
  (void)u;
  for (size_t i = 0; i < b->n; i++) acc += ev[i].kind + ev[i].len;
  batch_sink += acc;
  return SGF_CONTINUE;
}
/* batch/moves: a MOVES record adds the kinds and lengths of the NODE,
 * PROPERTY (1 byte), VALUE (2 bytes) and PROPERTY_END records of each of
 * its nodes (node ends are not recorded here, as in batch/sum). */
#define MOVE_SUM                                                             \
  ((uint64_t)SGF_EVENT_NODE + SGF_EVENT_PROPERTY + 1 + SGF_EVENT_VALUE + 2 + \
   SGF_EVENT_PROPERTY_END)
static int moves_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  const sgf_event *ev = b->ev;
  uint64_t acc = 0;
  (void)p;
  (void)u;
  for (size_t i = 0; i < b->n; i++)
    acc += ev[i].kind == SGF_EVENT_MOVES ? MOVE_SUM * sgf_event_count(&ev[i])
                                         : (uint64_t)ev[i].kind + ev[i].len;
  batch_sink += acc;
  return SGF_CONTINUE;
}
static sgf_pos batch_pos_sink;
static int pos_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  const sgf_event *ev = b->ev;
  uint64_t acc = 0;
  (void)u;
  for (size_t i = 0; i < b->n; i++) {
    acc += ev[i].kind + ev[i].len;
    if (ev[i].kind == SGF_EVENT_NODE || ev[i].kind == SGF_EVENT_PROPERTY ||
        (ev[i].flags & SGF_VALUE_FIRST))
      batch_pos_sink = sgf_batch_position(p, &ev[i]);
  }
  batch_sink += acc;
  return SGF_CONTINUE;
}
/* batch/skip-root: a batch ends at each node end (stop_kinds), and
 * every game is skipped after its first node: so each node end it sees
 * is a root's, and ends its game's records. */
static int skip_root_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  sum_batch(p, u, b);
  return b->ev[b->n - 1].kind == SGF_EVENT_NODE_END ? SGF_SKIP : SGF_CONTINUE;
}
static int cnt_batch(sgf_parser *p, void *u, const sgf_batch *b);
static int cnt_skip_root_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  int r = skip_root_batch(p, NULL, b);
  cnt_batch(p, u, b);
  return r;
}
static int cnt_batch(sgf_parser *p, void *u, const sgf_batch *b) {
  const sgf_event *ev = b->ev;
  counts *c = u;
  for (size_t i = 0; i < b->n; i++) switch (ev[i].kind) {
      case SGF_EVENT_TREE_BEGIN:
        cnt_tree_begin(p, u);
        break;
      case SGF_EVENT_TREE_END:
        cnt_tree_end(p, u);
        break;
      case SGF_EVENT_NODE:
        c->node++;
        break;
      case SGF_EVENT_PROPERTY:
        c->property++;
        break;
      case SGF_EVENT_PROPERTY_END:
        c->property_end++;
        break;
      case SGF_EVENT_VALUE:
        cnt_value(p, u, sgf_event_bytes(b, &ev[i]), ev[i].len, ev[i].flags);
        break;
      case SGF_EVENT_MOVES: { /* each node's records, as they would be */
        sgf_run_iter it;
        sgf_run_node nd;
        sgf_run_iter_init(&it, sgf_event_bytes(b, &ev[i]), ev[i].len, NULL);
        while (sgf_run_iter_next(&it, &nd)) {
          c->node++;
          c->property++;
          cnt_value(p, u, nd.value, 2, SGF_VALUE_FIRST | SGF_VALUE_LAST);
          c->property_end++;
        }
        break;
      }
      default:
        break;
    }
  return SGF_CONTINUE;
}

/* skip/root: on_node_end skips the rest of the game after its root node
 * (armed by the game's top-level on_tree_begin). */
static int root_armed;
static int skr_tree_begin(sgf_parser *p, void *u) {
  (void)u;
  if (sgf_parser_depth(p) == 1) root_armed = 1;
  return SGF_CONTINUE;
}
static int skr_node_end(sgf_parser *p, void *u) {
  (void)p;
  (void)u;
  if (!root_armed) return SGF_CONTINUE;
  root_armed = 0;
  return SGF_SKIP;
}
static int cnt_skr_tree_begin(sgf_parser *p, void *u) {
  skr_tree_begin(p, u);
  return cnt_tree_begin(p, u);
}

/* values/pos-inl and values/pos-call: the handlers of values/no-op
 * that also take the position of each node, property and value, read
 * inline from the opt-in event state (sgfstream/event_state.h) or by
 * calling sgf_parser_position(): what the opt-in buys a handler that
 * does little else. The state is looked up again when the parser changes
 * (a new parser per run). */
static sgf_pos pos_sink;
static const sgf_parser *pos_parser;
static const sgf_event_state *pos_es;

static const sgf_event_state *pos_state(const sgf_parser *p) {
  if (pos_parser != p) {
    pos_parser = p;
    pos_es = sgf_parser_event_state(p, SGF_EVENT_STATE_VERSION);
  }
  return pos_es;
}
static int inl_node(sgf_parser *p, void *u) {
  (void)u;
  pos_sink = sgf_event_position(p, pos_state(p));
  return SGF_CONTINUE;
}
static int inl_property(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)u;
  (void)at;
  (void)len;
  pos_sink = sgf_event_position(p, pos_state(p));
  return SGF_CONTINUE;
}
static int inl_value(sgf_parser *p, void *u, const char *at, size_t len,
                     unsigned flags) {
  (void)u;
  (void)at;
  (void)len;
  if (flags & SGF_VALUE_FIRST) pos_sink = sgf_event_position(p, pos_state(p));
  return SGF_CONTINUE;
}
static int call_node(sgf_parser *p, void *u) {
  (void)u;
  pos_sink = sgf_parser_position(p);
  return SGF_CONTINUE;
}
static int call_property(sgf_parser *p, void *u, const char *at, size_t len) {
  (void)u;
  (void)at;
  (void)len;
  pos_sink = sgf_parser_position(p);
  return SGF_CONTINUE;
}
static int call_value(sgf_parser *p, void *u, const char *at, size_t len,
                      unsigned flags) {
  (void)u;
  (void)at;
  (void)len;
  if (flags & SGF_VALUE_FIRST) pos_sink = sgf_parser_position(p);
  return SGF_CONTINUE;
}

static const sgf_callbacks nop_callbacks = {.size = sizeof(sgf_callbacks),
                                            .on_tree_begin = nop_tree_begin,
                                            .on_tree_end = nop_tree_end,
                                            .on_node = nop_node,
                                            .on_property = nop_property,
                                            .on_value_begin = nop_value_begin,
                                            .on_value_data = nop_value_data,
                                            .on_value_end = nop_value_end,
                                            .on_property_end = nop_property_end,
                                            .on_diagnostic = nop_diagnostic};

static const sgf_callbacks nop_value_callbacks = {
    .size = sizeof(sgf_callbacks),
    .on_tree_begin = nop_tree_begin,
    .on_tree_end = nop_tree_end,
    .on_node = nop_node,
    .on_property = nop_property,
    .on_property_end = nop_property_end,
    .on_diagnostic = nop_diagnostic,
    .on_value = nop_value};

static const sgf_callbacks pos_inline_callbacks = {
    .size = sizeof(sgf_callbacks),
    .on_tree_begin = nop_tree_begin,
    .on_tree_end = nop_tree_end,
    .on_node = inl_node,
    .on_property = inl_property,
    .on_property_end = nop_property_end,
    .on_diagnostic = nop_diagnostic,
    .on_value = inl_value};

static const sgf_callbacks pos_call_callbacks = {
    .size = sizeof(sgf_callbacks),
    .on_tree_begin = nop_tree_begin,
    .on_tree_end = nop_tree_end,
    .on_node = call_node,
    .on_property = call_property,
    .on_property_end = nop_property_end,
    .on_diagnostic = nop_diagnostic,
    .on_value = call_value};

static const sgf_callbacks cnt_value_callbacks = {
    .size = sizeof(sgf_callbacks),
    .on_tree_begin = cnt_tree_begin,
    .on_tree_end = cnt_tree_end,
    .on_node = cnt_node,
    .on_property = cnt_property,
    .on_property_end = cnt_property_end,
    .on_diagnostic = cnt_diagnostic,
    .on_value = cnt_value};

static const sgf_callbacks cnt_callbacks = {.size = sizeof(sgf_callbacks),
                                            .on_tree_begin = cnt_tree_begin,
                                            .on_tree_end = cnt_tree_end,
                                            .on_node = cnt_node,
                                            .on_property = cnt_property,
                                            .on_value_begin = cnt_value_begin,
                                            .on_value_data = cnt_value_data,
                                            .on_value_end = cnt_value_end,
                                            .on_property_end = cnt_property_end,
                                            .on_diagnostic = cnt_diagnostic};

static const sgf_callbacks skip_root_callbacks = {
    .size = sizeof(sgf_callbacks),
    .on_tree_begin = skr_tree_begin,
    .on_tree_end = nop_tree_end,
    .on_node = nop_node,
    .on_property = nop_property,
    .on_value_begin = nop_value_begin,
    .on_value_data = nop_value_data,
    .on_value_end = nop_value_end,
    .on_property_end = nop_property_end,
    .on_diagnostic = nop_diagnostic,
    .on_node_end = skr_node_end};

static const sgf_callbacks cnt_skip_root_callbacks = {
    .size = sizeof(sgf_callbacks),
    .on_tree_begin = cnt_skr_tree_begin,
    .on_tree_end = cnt_tree_end,
    .on_node = cnt_node,
    .on_property = cnt_property,
    .on_value_begin = cnt_value_begin,
    .on_value_data = cnt_value_data,
    .on_value_end = cnt_value_end,
    .on_property_end = cnt_property_end,
    .on_diagnostic = cnt_diagnostic,
    .on_node_end = skr_node_end};

static const sgf_reader_callbacks nop_reader_callbacks = {
    sizeof(sgf_reader_callbacks), NULL, NULL, NULL, nop_reader_property, NULL};

/* Counting reader: tree/node/diagnostic go through the core counters. */
static const sgf_reader_callbacks cnt_reader_callbacks = {
    sizeof(sgf_reader_callbacks), cnt_tree_begin, cnt_tree_end, cnt_node,
    cnt_reader_property,          cnt_diagnostic};

/* ---------------------------------------------------------------------- */
/* One run                                                                 */

typedef enum run_kind { RUN_EVENTS, RUN_READER } run_kind;

typedef struct run_spec {
  const char *name;
  run_kind kind;
  size_t chunk;
  const sgf_callbacks *cb;         /* RUN_EVENTS, timed */
  const sgf_reader_callbacks *rcb; /* RUN_READER, timed */
  int null_callbacks;              /* events/null: cb is NULL */
  int fresh;                       /* a new parser for every input */
  int whole;                       /* values whole (on_value) */
  int skip_root;                   /* skip/root: games skipped after the
                                      root (not cross-checked) */
  int batch; /* batched events: 1 batch/sum, 2 batch/pos, 3 batch/moves,
                4 batch/skip-root */
} run_spec;

static void report_failure(const char *what, const char *input, sgf_parser *p,
                           int st, uint64_t at) {
  fprintf(stderr, "%s: %s: %s: %s at input offset %" PRIu64, prog, what, input,
          bench_status_name(st), at);
  const sgf_diag *d = p ? sgf_parser_error(p) : NULL;
  if (d != NULL)
    fprintf(stderr, ": %s (%s) at %" PRIu64 ":%" PRIu64 " offset %" PRIu64,
            sgf_diag_message(d->code), sgf_diag_name(d->code), d->pos.line,
            d->pos.column, d->pos.offset);
  fputc('\n', stderr);
}

/* A parser (or a reader and its parser) as the spec wants it. */
typedef struct handle {
  sgf_reader *r;
  sgf_parser *p;
} handle;

static int open_handle(const run_spec *rs, const sgf_callbacks *cb,
                       const sgf_reader_callbacks *rcb, void *user,
                       const sgf_options *opt, handle *h) {
  h->r = NULL;
  if (rs->kind == RUN_READER) {
    sgf_reader_options ro;
    sgf_reader_options_init(&ro);
    ro.parser = opt;
    h->r = sgf_reader_create(rcb, user, &ro);
    h->p = h->r ? sgf_reader_parser(h->r) : NULL;
  } else {
    h->p = sgf_parser_create(cb, user, opt);
  }
  if (h->p == NULL) {
    fprintf(stderr, "%s: %s: could not create the parser\n", prog, rs->name);
    sgf_reader_destroy(h->r);
    return -1;
  }
  return 0;
}

static void close_handle(handle *h) {
  if (h->r != NULL)
    sgf_reader_destroy(h->r);
  else
    sgf_parser_destroy(h->p);
  h->r = NULL;
  h->p = NULL;
}

/* Feed one buffer in chunks and finish. */
static int parse_one(const run_spec *rs, sgf_parser *p, const bench_buf *b) {
  size_t off = 0, len = b->len;
  int st;
  while (off < len) {
    size_t n = len - off < rs->chunk ? len - off : rs->chunk;
    size_t used = 0;
    st = sgf_parser_feed(p, b->data + off, n, &used);
    if (st != SGF_OK || used != n) {
      report_failure(rs->name, b->name, p, st, (uint64_t)(off + used));
      return -1;
    }
    off += n;
  }
  st = sgf_parser_finish(p);
  if (st != SGF_OK) {
    report_failure(rs->name, b->name, p, st, (uint64_t)off);
    return -1;
  }
  return 0;
}

/* Parse every input once. counting != 0 uses the counting callbacks with
 * *c as user data and the counting allocator *as; otherwise the timed
 * no-op callbacks and libc. Returns 0 on success, -1 on failure (already
 * reported). */
static int run_once(const run_spec *rs, const bench_inputs *in, int counting,
                    counts *c, countalloc *as, double *seconds) {
  sgf_options opt;
  sgf_allocator al;
  sgf_options_init(&opt);
  if (counting) {
    countalloc_init(as, &al, 1);
    opt.allocator = &al;
  }

  const sgf_callbacks *cb = NULL;
  const sgf_reader_callbacks *rcb = NULL;
  void *user = counting ? (void *)c : NULL;
  if (rs->kind == RUN_EVENTS) {
    if (counting)
      cb = rs->null_callbacks ? NULL
           : rs->skip_root    ? &cnt_skip_root_callbacks
           : rs->whole        ? &cnt_value_callbacks
                              : &cnt_callbacks;
    else
      cb = rs->null_callbacks ? NULL : rs->cb;
  } else {
    rcb = counting ? &cnt_reader_callbacks : rs->rcb;
  }

  handle h = {NULL, NULL};
  int rc = 0;
  double t0 = bench_now();
  for (size_t i = 0; i < in->count && rc == 0; i++) {
    if (h.p == NULL) {
      if (open_handle(rs, cb, rcb, user, &opt, &h) != 0) return -1;
      if (rs->batch) {
        sgf_batch_options bo;
        sgf_batch_options_init(&bo);
        bo.on_batch = rs->batch == 4
                          ? (counting ? cnt_skip_root_batch : skip_root_batch)
                      : counting       ? cnt_batch
                      : rs->batch == 2 ? pos_batch
                      : rs->batch == 3 ? moves_batch
                                       : sum_batch;
        bo.events = batch_array;
        bo.capacity = BATCH_CAP;
        bo.kinds = ~(1u << SGF_EVENT_NODE_END) & ~(1u << SGF_EVENT_MOVES);
        if (rs->batch == 3) bo.kinds |= 1u << SGF_EVENT_MOVES;
        if (rs->batch == 4) {
          bo.kinds = ~(1u << SGF_EVENT_MOVES);
          bo.stop_kinds = 1u << SGF_EVENT_NODE_END;
        }
        if (sgf_parser_set_batch(h.p, &bo) != SGF_OK) return -1;
      }
    } else {
      sgf_parser_reset(h.p);
    }
    current_input = in->bufs[i].name;
    rc = parse_one(rs, h.p, &in->bufs[i]);
    if (rs->fresh) close_handle(&h);
  }
  if (h.p != NULL) close_handle(&h);
  *seconds = bench_now() - t0;
  return rc;
}

/* The dispatch floor: the time the indirect calls alone take, nevents of
 * them to the no-op handlers, in the order of a move node (node, property,
 * value-begin, value-data, value-end, property-end). The table is read
 * through a volatile pointer so the compiler cannot resolve the calls. */
static double dispatch_floor(uint64_t nevents) {
  static const sgf_callbacks *volatile table = &nop_callbacks;
  static const char id[] = "B";
  uint64_t rounds = nevents / 6;
  int acc = 0;
  double t0 = bench_now();
  for (uint64_t i = 0; i < rounds; i++) {
    const sgf_callbacks *cb = table;
    acc |= cb->on_node(NULL, NULL);
    acc |= cb->on_property(NULL, NULL, id, 1);
    acc |= cb->on_value_begin(NULL, NULL);
    acc |= cb->on_value_data(NULL, NULL, id, 1);
    acc |= cb->on_value_end(NULL, NULL);
    acc |= cb->on_property_end(NULL, NULL);
  }
  double dt = bench_now() - t0;
  return acc ? -1.0 : dt;
}

/* The timed runs go through here, never inlined, so that a profiler can
 * look at them alone: valgrind --tool=callgrind --toggle-collect=timed_run */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int
timed_run(const run_spec *rs, const bench_inputs *in, double *seconds) {
  return run_once(rs, in, 0, NULL, NULL, seconds);
}

/* ---------------------------------------------------------------------- */
/* Table                                                                   */

static int show_files; /* a set of files: a files/s column */
static double memchr_mbps;
static FILE *results;

static void print_header(void) {
  printf("%-16s %7s %10s %12s", "measurement", "chunk", "MB/s", "games/s");
  if (show_files) printf(" %10s", "files/s");
  printf(" %9s %8s %12s %10s\n", "ns/event", "%memchr", "events", "memory");
  printf("%-16s %7s %10s %12s", "----------------", "-------", "----------",
         "------------");
  if (show_files) printf(" %10s", "----------");
  printf(" %9s %8s %12s %10s\n", "---------", "--------", "------------",
         "----------");
}

static void chunk_label(size_t chunk, char *out, size_t outlen) {
  if (chunk == 0)
    snprintf(out, outlen, "-");
  else if (chunk % 1024 == 0)
    snprintf(out, outlen, "%zuKiB", chunk / 1024);
  else
    snprintf(out, outlen, "%zuB", chunk);
}

/* One line of the table, and one record of the results file. heap is the
 * library's peak memory (0: none, shown as "-"). */
static void print_row(const char *name, size_t chunk, const bench_inputs *in,
                      double secs, uint64_t games, uint64_t events,
                      uint64_t heap) {
  char cl[32], gs[32], ns[32], pct[32], ev[32], mem[32], label[64];
  double mbps = (double)in->bytes / 1e6 / secs;
  chunk_label(chunk, cl, sizeof cl);
  if (games > 0)
    snprintf(gs, sizeof gs, "%.0f", (double)games / secs);
  else
    snprintf(gs, sizeof gs, "-");
  if (events > 0) {
    snprintf(ns, sizeof ns, "%.2f", secs * 1e9 / (double)events);
    snprintf(ev, sizeof ev, "%" PRIu64, events);
  } else {
    snprintf(ns, sizeof ns, "-");
    snprintf(ev, sizeof ev, "-");
  }
  if (memchr_mbps > 0 && strncmp(name, "memchr", 6) != 0)
    snprintf(pct, sizeof pct, "%.1f%%", 100.0 * mbps / memchr_mbps);
  else
    snprintf(pct, sizeof pct, "-");
  if (heap > 0)
    bench_format_bytes(heap, mem, sizeof mem);
  else
    snprintf(mem, sizeof mem, "-");
  printf("%-16s %7s %10.1f %12s", name, cl, mbps, gs);
  if (show_files) printf(" %10.0f", (double)in->count / secs);
  printf(" %9s %8s %12s %10s\n", ns, pct, ev, mem);
  fflush(stdout);

  if (strncmp(name, "memchr", 6) == 0)
    snprintf(label, sizeof label, "memchr");
  else if (chunk == 0)
    snprintf(label, sizeof label, "%s", name);
  else
    snprintf(label, sizeof label, "%s %s", name, cl);
  bench_result(results, label, in->bytes, secs, games, in->count, heap,
               heap > 0 ? "heap" : "-");
}

/* ---------------------------------------------------------------------- */

static void usage(FILE *f) {
  fprintf(f,
          "usage: bench_events [-n REPS] [-m MAXBYTES] [-o WHAT] "
          "[--results FILE]\n"
          "                    FILE | DIR | --list LISTFILE\n"
          "  FILE         one input (a collection)\n"
          "  DIR          every .sgf file below DIR, each a separate input\n"
          "  --list LISTFILE  the files named in LISTFILE (one a line), "
          "each a separate input\n"
          "  -n REPS      repetitions per measurement, best is kept "
          "(default 5)\n"
          "  -m MAXBYTES  use only the first MAXBYTES bytes of FILE, or the "
          "first whole files\n"
          "               of DIR up to MAXBYTES in total (suffix k, M, G)\n"
          "  -o WHAT      run only the parser measurements whose label "
          "contains WHAT,\n"
          "               e.g. -o 'no-op 64KiB' (the label is the name, a "
          "space, the chunk)\n"
          "  --results FILE  append one tab-separated line per measurement "
          "(for bench/run)\n");
}

int main(int argc, char **argv) {
  int reps = 5;
  size_t max_bytes = 0;
  const char *path = NULL;
  const char *only = NULL;
  const char *results_path = NULL;
  bench_load_mode mode = BENCH_LOAD_PATH;

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "-n") == 0 && i + 1 < argc) {
      reps = atoi(argv[++i]);
      if (reps < 1) {
        fprintf(stderr, "%s: -n wants a positive number\n", prog);
        return 2;
      }
    } else if (strcmp(a, "-m") == 0 && i + 1 < argc) {
      if (bench_parse_size(argv[++i], &max_bytes) != 0) {
        fprintf(stderr, "%s: bad size for -m: %s\n", prog, argv[i]);
        return 2;
      }
    } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (strcmp(a, "--results") == 0 && i + 1 < argc) {
      results_path = argv[++i];
    } else if (strcmp(a, "--list") == 0 && i + 1 < argc && path == NULL) {
      path = argv[++i];
      mode = BENCH_LOAD_LIST;
    } else if (a[0] == '-' && a[1] != '\0') {
      usage(stderr);
      return 2;
    } else if (path == NULL) {
      path = a;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (path == NULL) {
    usage(stderr);
    return 2;
  }

  bench_inputs in;
  if (bench_load(prog, path, mode, max_bytes, &in) != 0) return 2;
  results = bench_results_open(prog, results_path);
  show_files = in.is_set;

  char desc[512];
  bench_describe(&in, desc, sizeof desc);
  printf("sgfstream %s (header %s): %s, best of %d%s\n", sgf_version(),
         SGF_VERSION_STRING, desc, reps,
         in.is_set ? ", each file a separate input" : "");

  /* Warm the buffers (page faults, caches) before any timing. */
  bench_warm(&in);

  int failed = 0;
  print_header();

  /* The ceiling: memchr over every byte, counting newlines. It is cheap,
   * so it runs at least 5 times whatever REPS: with -n 1 a single run
   * disturbed by other work would make every %memchr look too good. */
  uint64_t newlines = 0;
  {
    double best = 0;
    int mreps = reps < 5 ? 5 : reps;
    for (int r = 0; r < mreps; r++) {
      double t0 = bench_now();
      newlines = bench_count_newlines(&in);
      double dt = bench_now() - t0;
      if (r == 0 || dt < best) best = dt;
    }
    memchr_mbps = (double)in.bytes / 1e6 / best;
    print_row("memchr '\\n'", 0, &in, best, 0, 0, 0);
  }

  const run_spec specs[] = {
      {"events/no-op", RUN_EVENTS, 64 * 1024, &nop_callbacks, NULL, 0, 0, 0, 0,
       0},
      {"events/no-op", RUN_EVENTS, 4 * 1024, &nop_callbacks, NULL, 0, 0, 0, 0,
       0},
      {"events/no-op", RUN_EVENTS, 64, &nop_callbacks, NULL, 0, 0, 0, 0, 0},
      {"events/no-op/new", RUN_EVENTS, 64 * 1024, &nop_callbacks, NULL, 0, 1, 0,
       0, 0},
      {"events/null", RUN_EVENTS, 64 * 1024, NULL, NULL, 1, 0, 0, 0, 0},
      {"batch/sum", RUN_EVENTS, 64 * 1024, &nop_value_callbacks, NULL, 0, 0, 1,
       0, 1},
      {"batch/moves", RUN_EVENTS, 64 * 1024, &nop_value_callbacks, NULL, 0, 0,
       1, 0, 3},
      {"batch/pos", RUN_EVENTS, 64 * 1024, &nop_value_callbacks, NULL, 0, 0, 1,
       0, 2},
      {"values/no-op", RUN_EVENTS, 64 * 1024, &nop_value_callbacks, NULL, 0, 0,
       1, 0, 0},
      {"values/pos-inl", RUN_EVENTS, 64 * 1024, &pos_inline_callbacks, NULL, 0,
       0, 1, 0, 0},
      {"values/pos-call", RUN_EVENTS, 64 * 1024, &pos_call_callbacks, NULL, 0,
       0, 1, 0, 0},
      {"reader/no-op", RUN_READER, 64 * 1024, NULL, &nop_reader_callbacks, 0, 0,
       0, 0, 0},
      {"skip/root", RUN_EVENTS, 64 * 1024, &skip_root_callbacks, NULL, 0, 0, 0,
       1, 0},
      {"batch/skip-root", RUN_EVENTS, 64 * 1024, &nop_value_callbacks, NULL, 0,
       0, 1, 1, 4},
  };
  enum { NSPECS = sizeof specs / sizeof specs[0] };
  counts ref;
  memset(&ref, 0, sizeof ref);
  int have_ref = 0;
  size_t events_peak = 0, reader_peak = 0;
  uint64_t events_allocs = 0, reader_allocs = 0;

  for (int s = 0; s < NSPECS; s++) {
    const run_spec *rs = &specs[s];
    counts c;
    countalloc as;
    double dt;

    if (rs->fresh && !in.is_set)
      continue; /* one input: the same as events/no-op 64KiB */
    if (only != NULL) {
      char label[64], cl[32];
      chunk_label(rs->chunk, cl, sizeof cl);
      snprintf(label, sizeof label, "%s %s", rs->name, cl);
      if (strstr(label, only) == NULL) continue;
    }

    /* Untimed counting run (also gives the parser's memory). */
    memset(&c, 0, sizeof c);
    if (run_once(rs, &in, 1, &c, &as, &dt) != 0) {
      failed = 1;
      continue;
    }
    if (bench_alloc_check(&as, prog, rs->name) != 0) failed = 1;
    if (rs->kind == RUN_EVENTS) {
      if (as.peak > events_peak) events_peak = as.peak;
      if (!rs->fresh) events_allocs = as.calls;
    } else {
      reader_peak = as.peak;
      reader_allocs = as.calls;
    }

    /* Cross-checks: chunking must not change the structure. */
    if (rs->skip_root) {
      if (have_ref && c.games != ref.games) {
        fprintf(stderr,
                "%s: skip/root: %" PRIu64 " games, expected %" PRIu64 "\n",
                prog, c.games, ref.games);
        failed = 1;
      }
    } else if (rs->kind == RUN_EVENTS && !rs->null_callbacks) {
      if (!have_ref) {
        ref = c;
        have_ref = 1;
        if (c.value_begin != c.value_end || c.tree_begin != c.tree_end ||
            c.property != c.property_end) {
          fprintf(stderr,
                  "%s: unbalanced events: trees %" PRIu64 "/%" PRIu64
                  ", values %" PRIu64 "/%" PRIu64 ", properties %" PRIu64
                  "/%" PRIu64 "\n",
                  prog, c.tree_begin, c.tree_end, c.value_begin, c.value_end,
                  c.property, c.property_end);
          failed = 1;
        }
      } else if (c.tree_begin != ref.tree_begin || c.node != ref.node ||
                 c.property != ref.property ||
                 c.value_begin != ref.value_begin ||
                 c.value_bytes != ref.value_bytes ||
                 c.diagnostic != ref.diagnostic) {
        fprintf(stderr,
                "%s: %s at %zu-byte chunks: event counts differ "
                "from the first run (trees %" PRIu64 " vs %" PRIu64
                ", nodes %" PRIu64 " vs %" PRIu64 ", properties %" PRIu64
                " vs %" PRIu64 ", values %" PRIu64 " vs %" PRIu64
                ", value bytes %" PRIu64 " vs %" PRIu64 ", diagnostics %" PRIu64
                " vs %" PRIu64 ")\n",
                prog, rs->name, rs->chunk, c.tree_begin, ref.tree_begin, c.node,
                ref.node, c.property, ref.property, c.value_begin,
                ref.value_begin, c.value_bytes, ref.value_bytes, c.diagnostic,
                ref.diagnostic);
        failed = 1;
      }
    } else if (rs->kind == RUN_READER && have_ref) {
      if (c.property != ref.property || c.reader_values != ref.value_begin ||
          c.games != ref.games) {
        fprintf(stderr,
                "%s: reader: %" PRIu64 " properties / %" PRIu64
                " values / %" PRIu64 " games, events parser: %" PRIu64
                " / %" PRIu64 " / %" PRIu64 "\n",
                prog, c.property, c.reader_values, c.games, ref.property,
                ref.value_begin, ref.games);
        failed = 1;
      }
    }

    /* Timed runs. */
    double best = 0;
    int ok = 1;
    for (int r = 0; r < reps; r++) {
      batch_sink = 0;
      if (timed_run(rs, &in, &dt) != 0) {
        ok = 0;
        failed = 1;
        break;
      }
      if (r == 0 || dt < best) best = dt;
      /* batch/moves sums what batch/sum sums (same chunks) */
      if (rs->batch == 1 && rs->chunk == 64 * 1024) sum_ref = batch_sink;
      if (rs->batch == 3 && sum_ref && batch_sink != sum_ref) {
        fprintf(stderr,
                "%s: batch/moves: sum %" PRIu64 ", batch/sum %" PRIu64 "\n",
                prog, batch_sink, sum_ref);
        failed = 1;
      }
    }
    if (!ok) continue;

    uint64_t games = have_ref ? ref.games : c.games;
    uint64_t events = 0;
    if (rs->kind == RUN_EVENTS && rs->whole)
      events = c.tree_begin + c.tree_end + c.node + c.property +
               c.property_end + c.pieces + c.diagnostic;
    else if (rs->kind == RUN_EVENTS && !rs->null_callbacks)
      events = events_of(&c);
    else if (rs->kind == RUN_READER)
      events = c.tree_begin + c.tree_end + c.node + c.property;
    print_row(rs->name, rs->chunk, &in, best, games, events, as.peak);
  }

  /* What the no-op dispatch alone costs for the 64 KiB event count. */
  if (have_ref && events_of(&ref) >= 6) {
    double best = 0;
    for (int r = 0; r < reps; r++) {
      double dt = dispatch_floor(events_of(&ref));
      if (r == 0 || dt < best) best = dt;
    }
    print_row("calls only", 0, &in, best, ref.games, events_of(&ref), 0);
  }

  printf("\n");
  if (have_ref) {
    printf("input: %" PRIu64 " games, %" PRIu64 " game trees, %" PRIu64
           " nodes, %" PRIu64 " properties, %" PRIu64 " values (%" PRIu64
           " value bytes), %" PRIu64 " newlines",
           ref.games, ref.tree_begin, ref.node, ref.property, ref.value_begin,
           ref.value_bytes, newlines);
    if (in.is_set) printf(", %zu files", in.count);
    printf("\n");
    printf("diagnostics: %" PRIu64 " (%" PRIu64 " warnings, %" PRIu64
           " errors, %" PRIu64 " fatal)",
           ref.diagnostic, ref.diag_by_severity[SGF_SEV_WARNING],
           ref.diag_by_severity[SGF_SEV_ERROR],
           ref.diag_by_severity[SGF_SEV_FATAL]);
    if (ref.diagnostic > 0) {
      printf("; first: %s at offset %" PRIu64,
             sgf_diag_name((sgf_diag_code)ref.first_diag_code)
                 ? sgf_diag_name((sgf_diag_code)ref.first_diag_code)
                 : "?",
             ref.first_diag_offset);
      if (in.is_set && ref.first_diag_input != NULL)
        printf(" of %s", ref.first_diag_input);
    }
    printf("\n");
  }
  printf(
      "ns/event: events/no-op counts every callback invocation "
      "(value slices included); reader/no-op counts trees, nodes and "
      "properties\n");
  printf(
      "calls only: the events/no-op 64KiB number of indirect calls to "
      "the no-op handlers and nothing else, the floor for events/no-op "
      "on this input\n");
  if (in.is_set)
    printf(
        "files: one parser reset between files; events/no-op/new "
        "creates and destroys a parser per file\n");
  printf(
      "memory: the peak of the bytes the parser (or the reader with its "
      "parser) holds, through the allocator hooks: events parser %zu "
      "bytes (%" PRIu64
      " allocation calls per run), reader %zu bytes "
      "(%" PRIu64 " calls per run)\n",
      events_peak, events_allocs, reader_peak, reader_allocs);
  printf(
      "process peak RSS (ru_maxrss): %.1f MiB, of which the input "
      "buffers are %.1f MiB\n",
      (double)bench_maxrss() / (1024.0 * 1024.0),
      (double)in.bytes / (1024.0 * 1024.0));

  if (results != NULL) fclose(results);
  bench_inputs_free(&in);
  return failed ? 1 : 0;
}
