/* stats.c - the counting callbacks of stats.h: each is a counter bump. */
#include "stats.h"

#include <string.h>

static int on_tree_begin(sgf_parser *p, void *u) {
  stats *s = u;
  (void)p;
  /* A game tree that opens right after a sibling closed is an alternative
   * to the line before it; the first game tree after a node continues
   * that node's line (the main line of the variation). */
  if (++s->depth == 1)
    s->games++;
  else if (s->after_end)
    s->variations++;
  s->after_end = 0;
  if (s->depth > s->max_depth) s->max_depth = s->depth;
  return SGF_CONTINUE;
}

static int on_tree_end(sgf_parser *p, void *u) {
  stats *s = u;
  (void)p;
  if (s->depth > 0) s->depth--;
  s->after_end = 1;
  return SGF_CONTINUE;
}

static int on_node(sgf_parser *p, void *u) {
  stats *s = u;
  (void)p;
  s->nodes++;
  s->after_end = 0;
  return SGF_CONTINUE;
}

static int on_property(sgf_parser *p, void *u, const char *name, size_t len) {
  stats *s = u;
  (void)p;
  s->properties++;
  if (len == 1 && (name[0] == 'B' || name[0] == 'W')) s->moves++;
  return SGF_CONTINUE;
}

static int on_value_end(sgf_parser *p, void *u) {
  (void)p;
  ((stats *)u)->values++;
  return SGF_CONTINUE;
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  stats *s = u;
  (void)p;
  if (d->severity == SGF_SEV_WARNING)
    s->warnings++;
  else
    s->errors++;
  return SGF_CONTINUE;
}

void stats_callbacks(sgf_callbacks *cb) {
  sgf_callbacks_init(cb);
  cb->on_tree_begin = on_tree_begin;
  cb->on_tree_end = on_tree_end;
  cb->on_node = on_node;
  cb->on_property = on_property;
  cb->on_value_end = on_value_end;
  cb->on_diagnostic = on_diagnostic;
}

void stats_reset(stats *s) { memset(s, 0, sizeof *s); }

void stats_add(stats *total, const stats *s) {
  total->games += s->games;
  total->variations += s->variations;
  total->nodes += s->nodes;
  total->properties += s->properties;
  total->values += s->values;
  total->moves += s->moves;
  total->bytes += s->bytes;
  total->warnings += s->warnings;
  total->errors += s->errors;
  if (s->max_depth > total->max_depth) total->max_depth = s->max_depth;
}
