/* utf16.c - UTF-16 to UTF-8 in chunks (utf16.h). */
#define _POSIX_C_SOURCE 200809L

#include "utf16.h"

#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

#define OUT_CAP 16384

struct utf16_conv {
  iconv_t cd;
  unsigned char carry[4]; /* an unfinished character from the last chunk */
  size_t ncarry;
  uint64_t fed; /* bytes fed before this chunk */
  int failed;
  char out[OUT_CAP];
};

int utf16_detect(const char *buf, size_t len, size_t *skip) {
  const unsigned char *u = (const unsigned char *)buf;
  *skip = 0;
  if (len < 2) return UTF16_NONE;
  if (u[0] == 0xFF && u[1] == 0xFE) {
    if (len >= 4 && u[2] == 0 && u[3] == 0) return UTF16_NONE; /* UTF-32LE */
    *skip = 2;
    return UTF16_LE;
  }
  if (u[0] == 0xFE && u[1] == 0xFF) {
    *skip = 2;
    return UTF16_BE;
  }
  if (u[0] == '(' && u[1] == 0) return UTF16_LE;
  if (u[0] == 0 && u[1] == '(') return UTF16_BE;
  return UTF16_NONE;
}

utf16_conv *utf16_create(int order) {
  utf16_conv *c;
  if (order != UTF16_LE && order != UTF16_BE) return NULL;
  c = calloc(1, sizeof *c);
  if (c == NULL) return NULL;
  c->cd = iconv_open("UTF-8", order == UTF16_LE ? "UTF-16LE" : "UTF-16BE");
  if (c->cd == (iconv_t)-1) {
    free(c);
    return NULL;
  }
  return c;
}

void utf16_destroy(utf16_conv *c) {
  if (c == NULL) return;
  iconv_close(c->cd);
  free(c);
}

/* Convert as much of *in as decodes, handing the output on. Returns 0
 * with *in / *len past what was used (what is left: an unfinished
 * character at the end), UTF16_STOPPED, or UTF16_INVALID with *in at
 * the bad code unit. */
static int run(utf16_conv *c, char **in, size_t *len, utf16_out_fn out,
               void *ctx) {
  while (*len > 0) {
    char *op = c->out;
    size_t ol = OUT_CAP;
    size_t r = iconv(c->cd, in, len, &op, &ol);
    int e = errno;
    if (op > c->out && out(ctx, c->out, (size_t)(op - c->out)) != 0)
      return UTF16_STOPPED;
    if (r != (size_t)-1 || e == E2BIG) continue;
    if (e == EINVAL)
      return 0; /* unfinished at the end: kept for the next chunk */
    return UTF16_INVALID;
  }
  return 0;
}

int utf16_feed(utf16_conv *c, const char *buf, size_t len, utf16_out_fn out,
               void *ctx, uint64_t *err_off) {
  char *ip;
  size_t il;
  int rc;
  if (c->failed) return UTF16_INVALID;
  /* First finish the character the last chunk left unfinished, taking
   * bytes from this one a byte at a time (at most three). */
  while (c->ncarry > 0 && len > 0) {
    c->carry[c->ncarry++] = (unsigned char)*buf++;
    len--;
    c->fed++;
    ip = (char *)c->carry;
    il = c->ncarry;
    rc = run(c, &ip, &il, out, ctx);
    if (rc == UTF16_INVALID) {
      c->failed = 1;
      if (err_off) *err_off = c->fed - c->ncarry;
      return rc;
    }
    if (rc != 0) return rc;
    if (il == 0) {
      c->ncarry = 0;
    } else if (il < c->ncarry) {
      memmove(c->carry, ip, il);
      c->ncarry = il;
    } else if (c->ncarry == sizeof c->carry) {
      c->failed = 1; /* cannot happen: 4 bytes are always decidable */
      if (err_off) *err_off = c->fed - c->ncarry;
      return UTF16_INVALID;
    }
  }
  ip = (char *)buf;
  il = len;
  rc = run(c, &ip, &il, out, ctx);
  if (rc == UTF16_INVALID) {
    c->failed = 1;
    if (err_off) *err_off = c->fed + (uint64_t)(ip - buf);
    return rc;
  }
  c->fed += len;
  if (rc == 0 && il > 0) { /* at most 3 bytes */
    memcpy(c->carry, ip, il);
    c->ncarry = il;
  }
  return rc;
}

int utf16_finish(utf16_conv *c, uint64_t *err_off) {
  if (c->failed) return UTF16_INVALID;
  if (c->ncarry > 0) {
    if (err_off) *err_off = c->fed - c->ncarry;
    c->failed = 1;
    return UTF16_INVALID;
  }
  return 0;
}
