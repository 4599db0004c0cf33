/* filter_moves.c - `sgf filter`: the main line's predicates (--starts-with
 * in the board's symmetries) and the game digests of --unique.
 *
 * SYMMETRIES. A square board has 8 (the identity, 3 rotations, 4
 * reflections); a board that is not square keeps its shape under 4 of
 * them only (the identity, the two mirrors and the half turn), and only
 * those are tried. The query is transformed, not the game.
 *
 * THE DIGEST SET. --unique keeps 8 bytes per selected game: a 64-bit
 * digest in an open-addressing table (linear probing, at most 85% full,
 * a slot's home by multiply-shift so any capacity works). It grows by
 * half, not double, and in place: realloc (for a large table glibc moves
 * the pages with mremap, no copy) and a rehash in the same memory that
 * follows chains of displaced digests, marking the ones still to move in
 * a bitmap of one bit per old slot. So the table is at most 8 / 0.85 *
 * 1.5 = 14.1 bytes per game just after growing, and less as it fills.
 * Two different games share a digest with probability about n^2 / 2^65
 * for n games (1 in 3.7e7 for a million games): such a game would be
 * taken for a duplicate.
 */
#define _POSIX_C_SOURCE 200809L

#include "filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ --starts-with */

int fstart_parse(fstart *q, const char *arg) {
  size_t cap = 0, i = 0, len = strlen(arg);
  q->n = 0;
  while (i < len) {
    signed char x, y;
    while (i < len && (arg[i] == ' ' || arg[i] == ',' || arg[i] == ';')) i++;
    if (i == len) break;
    if (strncmp(arg + i, "pass", 4) == 0 &&
        (i + 4 == len || arg[i + 4] == ' ' || arg[i + 4] == ',' ||
         arg[i + 4] == ';')) {
      x = y = FMOVE_PASS;
      i += 4;
    } else {
      int a = i < len ? (unsigned char)arg[i] : 0;
      int b = i + 1 < len ? (unsigned char)arg[i + 1] : 0;
      int c = i + 2 < len ? arg[i + 2] : ' ';
      if (!((a >= 'a' && a <= 'z') || (a >= 'A' && a <= 'Z')) ||
          !((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z')) ||
          (c != ' ' && c != ',' && c != ';')) {
        fprintf(stderr,
                "sgf: filter: --starts-with '%s': not a list of points "
                "such as 'pd dp pp' (two letters each, or pass)\n"
                "Try 'sgf filter --help'.\n",
                arg);
        return -1;
      }
      x = (signed char)(a >= 'a' ? a - 'a' : a - 'A' + 26);
      y = (signed char)(b >= 'a' ? b - 'a' : b - 'A' + 26);
      i += 2;
    }
    if (q->n == cap) {
      size_t ncap = cap ? 2 * cap : 16;
      signed char(*np)[2] = realloc(q->pt, ncap * sizeof *np);
      if (np == NULL) {
        fprintf(stderr, "sgf: filter: out of memory\n");
        return -1;
      }
      q->pt = np;
      cap = ncap;
    }
    q->pt[q->n][0] = x;
    q->pt[q->n][1] = y;
    q->n++;
  }
  if (q->n == 0) {
    fprintf(stderr,
            "sgf: filter: --starts-with: no point given\n"
            "Try 'sgf filter --help'.\n");
    return -1;
  }
  return 0;
}

/* Point (x, y) under symmetry t on a board of w x h. */
static void transform(int t, int x, int y, int w, int h, int *ox, int *oy) {
  int W = w - 1, H = h - 1;
  switch (t) {
    case 0:
      *ox = x, *oy = y;
      break;
    case 1:
      *ox = W - x, *oy = y;
      break;
    case 2:
      *ox = x, *oy = H - y;
      break;
    case 3:
      *ox = W - x, *oy = H - y;
      break;
    case 4:
      *ox = y, *oy = x;
      break;
    case 5:
      *ox = W - y, *oy = x;
      break;
    case 6:
      *ox = y, *oy = H - x;
      break;
    default:
      *ox = W - y, *oy = H - x;
      break;
  }
}

int fstart_match(const fstart *q, const signed char (*moves)[2],
                 const sgf_board *b) {
  int t, nt = !q->symmetric ? 1 : b->width == b->height ? 8 : 4;
  for (t = 0; t < nt; t++) {
    size_t i;
    for (i = 0; i < q->n; i++) {
      int x = q->pt[i][0], y = q->pt[i][1], tx, ty;
      if (x == FMOVE_PASS) {
        if (moves[i][0] != FMOVE_PASS) break;
        continue;
      }
      if (x >= b->width || y >= b->height) break;
      transform(t, x, y, b->width, b->height, &tx, &ty);
      if (moves[i][0] != tx || moves[i][1] != ty) break;
    }
    if (i == q->n) return 1;
  }
  return 0;
}

/* ------------------------------------------------------------ digests */

void fdigest_init(fdigest *d) { d->h = 0xcbf29ce484222325u; /* FNV-1a */ }

void fdigest_add(fdigest *d, const void *p, size_t n) {
  const unsigned char *s = p;
  uint64_t h = d->h;
  size_t i;
  for (i = 0; i < n; i++) {
    h ^= s[i];
    h *= 0x100000001b3u;
  }
  d->h = h;
}

/* FNV-1a's last bytes reach only some bits: MurmurHash3's finalizer
 * spreads them over all 64 before the table takes its top bits. */
uint64_t fdigest_final(const fdigest *d) {
  uint64_t h = d->h;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdu;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53u;
  h ^= h >> 33;
  return h;
}

/* A digest's home slot: its top 32 bits scaled to the capacity. */
static size_t home(uint64_t d, size_t cap) {
  return (size_t)(((d >> 32) * (uint64_t)cap) >> 32);
}

/* Grow from s->cap to ncap slots in place (see the top of the file). */
static int grow(fset *s, size_t ncap) {
  size_t old = s->cap, i;
  unsigned char *pending = calloc(old / 8 + 1, 1);
  uint64_t *slot;
  if (pending == NULL) return -1;
  slot = realloc(s->slot, ncap * sizeof *slot);
  if (slot == NULL) {
    free(pending);
    return -1;
  }
  memset(slot + old, 0, (ncap - old) * sizeof *slot);
  for (i = 0; i < old; i++)
    if (slot[i]) pending[i / 8] |= (unsigned char)(1u << (i % 8));
  for (i = 0; i < old; i++) {
    uint64_t k;
    size_t j;
    if (!(pending[i / 8] & (1u << (i % 8)))) continue;
    k = slot[i];
    slot[i] = 0;
    pending[i / 8] &= (unsigned char)~(1u << (i % 8));
    j = home(k, ncap);
    for (;;) {
      if (slot[j] == 0) {
        slot[j] = k;
        break;
      }
      if (j < old && (pending[j / 8] & (1u << (j % 8)))) {
        /* take its place; carry the displaced digest on from its home */
        uint64_t t = slot[j];
        slot[j] = k;
        pending[j / 8] &= (unsigned char)~(1u << (j % 8));
        k = t;
        j = home(k, ncap);
        continue;
      }
      j = j + 1 == ncap ? 0 : j + 1;
    }
  }
  free(pending);
  s->slot = slot;
  s->cap = ncap;
  return 0;
}

int fset_add(fset *s, uint64_t d) {
  size_t j;
  if (d == 0) d = 1; /* 0 marks an empty slot */
  if (s->n + 1 > s->cap - s->cap / 8 - s->cap / 40) { /* 85% */
    size_t ncap = s->cap ? s->cap + s->cap / 2 : 1024;
    if (grow(s, ncap) != 0) return -1;
  }
  j = home(d, s->cap);
  while (s->slot[j] != 0) {
    if (s->slot[j] == d) return 0;
    j = j + 1 == s->cap ? 0 : j + 1;
  }
  s->slot[j] = d;
  s->n++;
  return 1;
}

void fset_free(fset *s) {
  free(s->slot);
  s->slot = NULL;
  s->cap = s->n = 0;
}
