/* transcode.c - UTF-16 inputs read as UTF-8 (input.h, UTF-16 INPUT): a
 * sink in front of the caller's. The first four bytes of each input
 * decide (utf16_detect); a UTF-16 input then goes through a converter,
 * chunk by chunk, and the caller's data() sees only UTF-8. */
#define _POSIX_C_SOURCE 200809L

#include "input_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static void reset(input_xcode *x) {
  utf16_destroy(x->u16);
  x->u16 = NULL;
  x->nhead = 0;
  x->decided = 0;
  x->stopped = 0;
  x->skip = 0;
  x->err[0] = '\0';
}

void input__xcode_init(input_xcode *x, const input_sink *sink, void *ctx) {
  memset(x, 0, sizeof *x);
  x->sink = sink;
  x->ctx = ctx;
}

void input__xcode_done(input_xcode *x) { reset(x); }

/* UTF-8 for the caller. */
static int pass(void *ctx, const char *buf, size_t len) {
  input_xcode *x = ctx;
  if (len == 0) return 0;
  if (x->sink->data(x->ctx, buf, len)) x->stopped = 1;
  return x->stopped;
}

/* The code unit at input byte off does not decode. */
static void bad(input_xcode *x, uint64_t off) {
  x->stopped = 1;
  off += x->skip;
  if (x->sink->note != NULL)
    x->sink->note(x->ctx, INPUT_NOTE_BAD_UTF16, off);
  else
    snprintf(x->err, sizeof x->err,
             "not UTF-16 at byte %" PRIu64
             " (a lone surrogate, or a character cut off): the rest is "
             "not read",
             off);
}

static int feed16(input_xcode *x, const char *buf, size_t len) {
  uint64_t off = 0;
  if (utf16_feed(x->u16, buf, len, pass, x, &off) == UTF16_INVALID) bad(x, off);
  return x->stopped;
}

/* The first bytes (up to 4) are in head: UTF-16 or not. */
static int decide(input_xcode *x) {
  int order = utf16_detect(x->head, x->nhead, &x->skip);
  x->decided = 1;
  if (order == UTF16_NONE) return pass(x, x->head, x->nhead);
  x->u16 = utf16_create(order);
  if (x->u16 == NULL) {
    snprintf(x->err, sizeof x->err, "UTF-16: out of memory");
    x->stopped = 1;
    return 1;
  }
  if (x->sink->note != NULL)
    x->sink->note(x->ctx,
                  order == UTF16_LE ? INPUT_NOTE_UTF16LE : INPUT_NOTE_UTF16BE,
                  x->skip);
  return feed16(x, x->head + x->skip, x->nhead - x->skip);
}

static void x_begin(void *ctx, const char *name) {
  input_xcode *x = ctx;
  reset(x);
  x->sink->begin(x->ctx, name);
}

static int x_data(void *ctx, const char *buf, size_t len) {
  input_xcode *x = ctx;
  if (x->stopped) return 1;
  if (!x->decided) {
    size_t n =
        len < sizeof x->head - x->nhead ? len : sizeof x->head - x->nhead;
    memcpy(x->head + x->nhead, buf, n);
    x->nhead += n;
    buf += n;
    len -= n;
    if (x->nhead < sizeof x->head) return 0;
    if (decide(x)) return 1;
  }
  return x->u16 != NULL ? feed16(x, buf, len) : pass(x, buf, len);
}

static void x_end(void *ctx, const char *name, const char *error) {
  input_xcode *x = ctx;
  uint64_t off = 0;
  if (error == NULL && !x->stopped && !x->decided)
    decide(x); /* an input of fewer than 4 bytes */
  if (error == NULL && !x->stopped && x->u16 != NULL &&
      utf16_finish(x->u16, &off) != 0)
    bad(x, off);
  x->sink->end(x->ctx, name, error != NULL ? error : x->err[0] ? x->err : NULL);
  reset(x);
}

static void x_fail(void *ctx, const char *name, const char *error) {
  input_xcode *x = ctx;
  x->sink->fail(x->ctx, name, error);
}

static void x_none(void *ctx, const char *name, const char *why) {
  input_xcode *x = ctx;
  x->sink->none(x->ctx, name, why);
}

const input_sink input__xcode_sink = {x_begin, x_data, x_end,
                                      x_fail,  x_none, NULL};
