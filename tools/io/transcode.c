/* transcode.c - UTF-16 inputs read as UTF-8 (input.h, UTF-16 INPUT): a
 * sink in front of the caller's. The glue only: the library decides from
 * the first four bytes of each input (sgf_utf16_detect) and converts a
 * UTF-16 one chunk by chunk (sgf_utf16_decode); the caller's data() sees
 * only UTF-8. */
#define _POSIX_C_SOURCE 200809L

#include "input_priv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XCODE_OUT 16384

static void reset(input_xcode *x) {
  free(x->out);
  x->out = NULL;
  x->order = 0;
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
static int pass(input_xcode *x, const char *buf, size_t len) {
  if (len == 0) return 0;
  if (x->sink->data(x->ctx, buf, len)) x->stopped = 1;
  return x->stopped;
}

/* The code unit at byte off of the text after the mark does not decode. */
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
  while (len > 0 && !x->stopped) {
    size_t used, n;
    int rc = sgf_utf16_decode(&x->u16, buf, len, &used, x->out, XCODE_OUT, &n);
    if (pass(x, x->out, n)) break;
    if (rc != SGF_OK) {
      bad(x, x->u16.error_offset);
      break;
    }
    buf += used;
    len -= used;
  }
  return x->stopped;
}

/* The first bytes (up to 4) are in head: UTF-16 or not. */
static int decide(input_xcode *x, int at_end) {
  int order = sgf_utf16_detect(x->head, x->nhead, at_end, &x->skip);
  if (order == SGF_UTF16_UNDECIDED) return 0;
  x->decided = 1;
  if (order == SGF_UTF16_NONE) return pass(x, x->head, x->nhead);
  x->out = malloc(XCODE_OUT);
  if (x->out == NULL) {
    snprintf(x->err, sizeof x->err, "UTF-16: out of memory");
    x->stopped = 1;
    return 1;
  }
  x->order = order;
  sgf_utf16_decoder_init(&x->u16, order);
  if (x->sink->note != NULL)
    x->sink->note(
        x->ctx, order == SGF_UTF16_LE ? INPUT_NOTE_UTF16LE : INPUT_NOTE_UTF16BE,
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
  while (!x->decided && len > 0) {
    x->head[x->nhead++] = *buf++;
    len--;
    if (decide(x, 0)) return 1;
  }
  return x->order != 0 ? feed16(x, buf, len) : pass(x, buf, len);
}

static void x_end(void *ctx, const char *name, const char *error) {
  input_xcode *x = ctx;
  if (error == NULL && !x->stopped && !x->decided)
    decide(x, 1); /* an input of fewer than 4 bytes */
  if (error == NULL && !x->stopped && x->order != 0 &&
      sgf_utf16_decode_end(&x->u16) != SGF_OK)
    bad(x, x->u16.error_offset);
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
