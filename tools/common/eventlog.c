/* eventlog.c - the event log of eventlog.h.
 *
 * Every line is built in one growing buffer and handed to the writer whole.
 * A value-data line stays in the buffer, open, while slices of the same
 * value keep arriving; any other event (or evlog_flush) closes and writes
 * it before logging itself. Escaping works byte by byte, so a slice
 * boundary never changes the output.
 */
#include "eventlog.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void evlog_init(evlog *l, evlog_write_fn write, void *ctx) {
  memset(l, 0, sizeof *l);
  l->action_at = -1;
  l->action = SGF_CONTINUE;
  l->write = write;
  l->ctx = ctx;
}

void evlog_free(evlog *l) {
  free(l->buf);
  l->buf = NULL;
  l->len = l->cap = 0;
  l->pending = 0;
}

/* Make room for n more bytes. */
static int reserve(evlog *l, size_t n) {
  size_t cap;
  char *nb;
  if (l->nomem) return -1;
  if (l->cap - l->len >= n) return 0;
  cap = l->cap ? l->cap : 256;
  while (cap - l->len < n) {
    if (cap > (size_t)-1 / 2) goto fail;
    cap *= 2;
  }
  nb = realloc(l->buf, cap);
  if (nb == NULL) goto fail;
  l->buf = nb;
  l->cap = cap;
  return 0;
fail:
  l->nomem = 1;
  return -1;
}

static void put(evlog *l, const char *s, size_t n) {
  if (reserve(l, n) == 0) {
    memcpy(l->buf + l->len, s, n);
    l->len += n;
  }
}

static void putf(evlog *l, const char *fmt, ...) {
  char tmp[128];
  int n;
  va_list ap;
  va_start(ap, fmt);
  n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof tmp) {
    if (reserve(l, (size_t)n + 1) != 0) return;
    va_start(ap, fmt);
    vsnprintf(l->buf + l->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    l->len += (size_t)n;
    return;
  }
  put(l, tmp, (size_t)n);
}

static void put_pos(evlog *l, sgf_pos pos) {
  putf(l, "%" PRIu64 " %" PRIu64 ":%" PRIu64 " ", pos.offset, pos.line,
       pos.column);
}

/* Bytes as they go between the quotes of a value-data line. */
static void put_escaped(evlog *l, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t i;
  char *o;
  if (n > ((size_t)-1) / 4 || reserve(l, 4 * n) != 0) return;
  o = l->buf + l->len;
  for (i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
      *o++ = (char)c;
      continue;
    }
    *o++ = '\\';
    switch (c) {
      case '\\':
        *o++ = '\\';
        break;
      case '"':
        *o++ = '"';
        break;
      case '\n':
        *o++ = 'n';
        break;
      case '\r':
        *o++ = 'r';
        break;
      case '\t':
        *o++ = 't';
        break;
      default:
        *o++ = 'x';
        *o++ = hex[c >> 4];
        *o++ = hex[c & 15];
    }
  }
  l->len = (size_t)(o - l->buf);
}

/* Write the line in the buffer (adding its '\n') and empty the buffer. */
static void end_line(evlog *l) {
  put(l, "\n", 1);
  if (!l->nomem) l->write(l->ctx, l->buf, l->len);
  l->len = 0;
}

static void flush_pending(evlog *l) {
  if (!l->pending) return;
  l->pending = 0;
  put(l, "\"", 1);
  end_line(l);
}

int evlog_flush(evlog *l) {
  flush_pending(l);
  return l->nomem ? -1 : 0;
}

/* Count the callback and choose what it returns. */
static int next_action(evlog *l) {
  long n = l->count++;
  if (l->nomem) return SGF_ABORT;
  return n == l->action_at ? l->action : SGF_CONTINUE;
}

/* A line with no arguments. */
static int simple(sgf_parser *p, evlog *l, const char *event) {
  flush_pending(l);
  put_pos(l, sgf_parser_position(p));
  put(l, event, strlen(event));
  end_line(l);
  return next_action(l);
}

static int on_tree_begin(sgf_parser *p, void *u) {
  return simple(p, u, "tree-begin");
}

static int on_tree_end(sgf_parser *p, void *u) {
  return simple(p, u, "tree-end");
}

static int on_node(sgf_parser *p, void *u) { return simple(p, u, "node"); }

static int on_value_begin(sgf_parser *p, void *u) {
  return simple(p, u, "value-begin");
}

static int on_value_end(sgf_parser *p, void *u) {
  return simple(p, u, "value-end");
}

static int on_property_end(sgf_parser *p, void *u) {
  return simple(p, u, "property-end");
}

static int on_node_end(sgf_parser *p, void *u) {
  return simple(p, u, "node-end");
}

static int is_alnum_only(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    char c = s[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
          (c >= '0' && c <= '9')))
      return 0;
  }
  return 1;
}

static int on_property(sgf_parser *p, void *u, const char *name, size_t len) {
  evlog *l = u;
  size_t rlen = 0;
  const char *raw;
  flush_pending(l);
  put_pos(l, sgf_parser_position(p));
  put(l, "property ", 9);
  put(l, name, len);
  raw = sgf_parser_raw_ident(p, &rlen);
  if (raw != NULL && (rlen != len || memcmp(raw, name, len) != 0)) {
    put(l, " raw=", 5);
    if (rlen > 0 && is_alnum_only(raw, rlen)) {
      put(l, raw, rlen);
    } else {
      put(l, "\"", 1);
      put_escaped(l, raw, rlen);
      put(l, "\"", 1);
    }
  }
  end_line(l);
  return next_action(l);
}

static int on_value_data(sgf_parser *p, void *u, const char *at, size_t len) {
  evlog *l = u;
  if (!l->pending) {
    put_pos(l, sgf_parser_position(p));
    put(l, "value-data \"", 12);
    l->pending = 1;
  }
  put_escaped(l, at, len);
  return next_action(l);
}

static int on_diagnostic(sgf_parser *p, void *u, const sgf_diag *d) {
  evlog *l = u;
  const char *sev = sgf_severity_name(d->severity);
  const char *name = sgf_diag_name(d->code);
  const char *msg = sgf_diag_message(d->code);
  int act;
  flush_pending(l);
  put_pos(l, d->pos);
  putf(l, "%s %s (%d): %s", sev ? sev : "?", name ? name : "unknown",
       (int)d->code, msg ? msg : "unknown diagnostic");
  if (d->has_mark)
    putf(l, " [opened at %" PRIu64 ":%" PRIu64 "]", d->mark.line,
         d->mark.column);
  end_line(l);
  act = next_action(l);
  return act == SGF_ABORT ? SGF_ABORT : SGF_CONTINUE;
}

void evlog_callbacks(sgf_callbacks *cb) {
  sgf_callbacks_init(cb);
  cb->on_tree_begin = on_tree_begin;
  cb->on_tree_end = on_tree_end;
  cb->on_node = on_node;
  cb->on_property = on_property;
  cb->on_value_begin = on_value_begin;
  cb->on_value_data = on_value_data;
  cb->on_value_end = on_value_end;
  cb->on_property_end = on_property_end;
  cb->on_diagnostic = on_diagnostic;
}

void evlog_node_end(sgf_callbacks *cb) { cb->on_node_end = on_node_end; }
