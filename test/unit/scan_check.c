/* scan_check.c - the bulk scanners of lib/simd/scan.c checked directly and
 * through the parser: every SIMD table the build has (NEON on AArch64;
 * SSE2 and AVX2 on x86-64) against the portable loop and a plain
 * reference loop written here.
 *
 * lib/simd/scan.c is #included, not linked: that reaches its static tables and
 * the cached choice. The parser (lib/core/parser.c, linked) asks this file's
 * copy of sgf__scanners_get(), so the driver decides which table the next
 * parser gets. test/unit/neon.sh cross-compiles this for AArch64 and runs it
 * under qemu-aarch64; it also builds natively (on x86-64 it then checks
 * SSE2 and AVX2).
 *
 * Sections:
 *   select  SGF_SIMD handling in choose()
 *   single  one stop byte at every position of every length 0..300, at
 *           16 alignments and with the buffer ending at a guard page
 *   bytes   every byte value at every position (lengths 1..48, 63..65, 300)
 *   lanes   every 16-bit pattern of stop lanes in one block
 *   pairs   two stops at every pair of positions
 *   random  random buffers of random stop density, scanned stop by stop
 *   moves   the move-run scanner (scan.h, lib/simd/moves.c): runs of
 *           moves with line breaks and damage, from every node to every
 *           end, against a reference loop
 *   cases   test/cases: whole, every chunk size, every 2-way split; the
 *           golden log for every table. Skip at every callback and
 *           mainline mode: the same outcome as portable
 *   synth   random SGF (long values, escapes, CR/LF, NUL, high bytes,
 *           damage) with random chunking, skips, strict and mainline: the
 *           same outcome as portable
 *   files   every file under the -f directories: same as portable
 * The scanner sections run each of the three scanners of scan.h: value,
 * tree, and text. Text is called with cr_before 0 and 1 and must agree
 * with a byte-by-byte reference of the parser's line rule on where it
 * stops, how many line breaks it counts, and the last LF/CR and last CR;
 * the tree skipper likewise, from every start state (outside a value,
 * inside one, after a backslash; 0 or 2 levels open; no depth limit, or
 * a limit of a few levels, where it must stop at the '(' past it), and
 * on the state where it stops.
 * An outcome is the event log (with positions), the final status, the
 * final position and the sticky error.
 *
 * Usage: scan_check [-r NAME] [-c CASEDIR] [-f DIR]... [-n ITER] [-d DOCS]
 *                   [-s SEED] [-q]
 *        scan_check -p    print the name of the table chosen at startup
 *   -r NAME  fail unless the build has the SIMD table NAME (e.g. neon)
 *   -q       quick: fewer lengths, chunkings, skips and random inputs
 * Exit status 0 when everything agrees, 1 otherwise.
 */
#define _DEFAULT_SOURCE 1
#define _POSIX_C_SOURCE 200809L

#include "scan.c" /* -I lib/simd: the scanner tables and choose() */

#include <dirent.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sgfstream.h>

#include "eventlog.h"
#include "testutil.h"

/* ------------------------------------------------------------ basics */

static long failures;
static int shown;
enum { MAX_SHOWN = 25 };

static int show_failure(void) {
  failures++;
  if (shown < MAX_SHOWN) {
    shown++;
    return 1;
  }
  if (shown == MAX_SHOWN) {
    shown++;
    fprintf(stderr, "scan_check: further failures are counted, not shown\n");
  }
  return 0;
}

static void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void fail(const char *fmt, ...) {
  va_list ap;
  if (!show_failure()) return;
  fputs("FAIL: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static uint64_t rng_state = 0x5eed5eed12345ULL;
static uint64_t rnd(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}
static unsigned rndn(unsigned n) { return (unsigned)(rnd() % n); }

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int quick;

/* ------------------------------------------------------------ tables */

static const sgf__scanners *simd[4]; /* the SIMD tables of this build */
static int nsimd;

static void find_tables(void) {
#ifdef SGF_NEON
  simd[nsimd++] = &neon;
#endif
#ifdef SGF_X86
  simd[nsimd++] = &sse2;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) simd[nsimd++] = &avx2;
#endif
}

/* kind 0: the value scanner, 1: the tree skipper, 2: the text scanner
 * (scan.h), called with cr_before 0 and 1 and its line count checked. */
enum { NKINDS = 3 };
static const char *const kind_name[NKINDS] = {"value", "tree", "text"};

/* The bytes a kind looks at: its stops (text: and the line breaks it
 * counts). */
static int is_stop(int kind, unsigned c) {
  if (kind != 1)
    return c == ']' || c == '\\' || c == '\n' || c == '\r' || c == 0;
  return c == '(' || c == ')' || c == '[' || c == ']' || c == '\\' ||
         c == '\n' || c == '\r';
}

/* The text scanner's reference: the parser's newline() rule byte by
 * byte (CR ends a line; LF ends one unless a CR is just before it). */
static const unsigned char *ref_text(const unsigned char *s,
                                     const unsigned char *end, int prev_cr,
                                     sgf__lines *ln) {
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  for (; s < end; s++) {
    unsigned c = *s;
    if (c == ']' || c == '\\' || c == 0) break;
    if (c == '\r') {
      ln->n++;
      ln->last = ln->last_cr = s;
      prev_cr = 1;
    } else if (c == '\n') {
      if (!prev_cr) ln->n++;
      ln->last = s;
      prev_cr = 0;
    } else {
      prev_cr = 0;
    }
  }
  return s;
}

/* The tree skipper's reference: the rule of scan.h, byte by byte. */
static const unsigned char *ref_tree(const unsigned char *s,
                                     const unsigned char *end, int prev_cr,
                                     sgf__skip *sk, sgf__lines *ln) {
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  for (; s < end; s++) {
    unsigned c = *s;
    if (c == '\r') {
      ln->n++;
      ln->last = ln->last_cr = s;
    } else if (c == '\n') {
      if (!prev_cr) ln->n++;
      ln->last = s;
    }
    prev_cr = c == '\r';
    if (sk->in_value) {
      if (sk->escaped)
        sk->escaped = 0;
      else if (c == ']')
        sk->in_value = 0;
      else if (c == '\\')
        sk->escaped = 1;
    } else if (c == '[') {
      sk->in_value = 1;
    } else if (c == '(') {
      if (sk->levels == sk->max_levels) return s; /* the depth limit */
      sk->levels++;
    } else if (c == ')') {
      if (sk->levels == 0) return s;
      sk->levels--;
    }
  }
  return s;
}

static const unsigned char *ref_scan(int kind, const unsigned char *s,
                                     const unsigned char *end) {
  sgf__lines ln;
  sgf__skip sk = {0, 0, 0, UINT64_MAX};
  if (kind == 2) return ref_text(s, end, 0, &ln);
  if (kind == 1) return ref_tree(s, end, 0, &sk, &ln);
  for (; s < end; s++)
    if (is_stop(kind, *s)) return s;
  return end;
}

static const unsigned char stops[NKINDS][7] = {
    {']', '\\', '\n', '\r', 0},
    {'(', ')', '[', ']', '\\', '\n', '\r'},
    {']', '\\', '\n', '\r', 0}};
/* How many of stops[kind] there are. */
#define NSTOP(kind) ((kind) == 1 ? 7u : 5u)

static unsigned char nonstop(int kind) {
  unsigned c;
  do c = rndn(256);
  while (is_stop(kind, c));
  return (unsigned char)c;
}

/* ------------------------------------------------------------ buffers */

/* [guard page][data][guard page]: a buffer placed at lo + a (a < 16) or
 * ending at hi; a read outside [s, end) next to a guard faults. */
static unsigned char *lo, *hi;
static int guarded;

static void arena_init(void) {
  static unsigned char fallback[8192 + 64];
  long pg = sysconf(_SC_PAGESIZE);
  size_t page = pg > 0 ? (size_t)pg : 4096, data = 2 * page;
  while (data < 4096) data += page;
  unsigned char *m = mmap(NULL, data + 2 * page, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m != MAP_FAILED && mprotect(m, page, PROT_NONE) == 0 &&
      mprotect(m + page + data, page, PROT_NONE) == 0) {
    lo = m + page;
    hi = lo + data;
    guarded = 1;
    return;
  }
  fprintf(stderr, "scan_check: no guard pages (mmap/mprotect failed)\n");
  lo = fallback + 16;
  hi = fallback + sizeof fallback - 16;
}

static void hexdump(const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, "%s%02x", (i % 32) ? " " : (i ? "\n    " : "    "), p[i]);
  fputc('\n', stderr);
}

static long nchecks;

/* Compare every table with the reference on [s, end). The buffer of the
 * test is [base, base + n), for the failure message. */
static int check_text(const unsigned char *s, const unsigned char *end,
                      const unsigned char *base, size_t n, const char *what) {
  int ok = 1;
  for (int crb = 0; crb < 2; crb++) {
    sgf__lines want, got;
    const unsigned char *wr = ref_text(s, end, crb, &want);
    nchecks++;
    for (int i = -1; i < nsimd; i++) {
      const sgf__scanners *t = i < 0 ? &portable : simd[i];
      memset(&got, 0xA5, sizeof got);
      const unsigned char *gr = t->text(s, end, crb, &got);
      if (gr == wr && got.n == want.n && got.last == want.last &&
          got.last_cr == want.last_cr)
        continue;
      ok = 0;
      if (show_failure()) {
        fprintf(stderr,
                "FAIL: %s: %s text scanner on [%td, %td) of a %zu-byte "
                "buffer (address %% 16 = %u, cr_before %d): returned %td "
                "n %llu last %td last_cr %td, expected %td n %llu last %td "
                "last_cr %td\n",
                what, t->name, s - base, end - base, n,
                (unsigned)((uintptr_t)base % 16), crb, gr - base,
                (unsigned long long)got.n, got.last ? got.last - base : -1,
                got.last_cr ? got.last_cr - base : -1, wr - base,
                (unsigned long long)want.n, want.last ? want.last - base : -1,
                want.last_cr ? want.last_cr - base : -1);
        hexdump(base, n);
      }
    }
  }
  return ok;
}

/* The tree skipper from each start state against its reference. */
static int check_tree(const unsigned char *s, const unsigned char *end,
                      const unsigned char *base, size_t n, const char *what) {
  static const sgf__skip starts[] = {
      {0, 0, 0, UINT64_MAX}, {2, 0, 0, UINT64_MAX}, {0, 1, 0, UINT64_MAX},
      {0, 1, 1, UINT64_MAX}, {2, 1, 1, UINT64_MAX}, /* depth limits: */
      {0, 0, 0, 0},          {2, 0, 0, 2},          {2, 0, 0, 3},
      {0, 1, 1, 1},          {1, 0, 0, 5}};
  int ok = 1;
  for (int crb = 0; crb < 2; crb++)
    for (size_t st = 0; st < sizeof starts / sizeof starts[0]; st++) {
      sgf__lines want, got;
      sgf__skip wsk = starts[st], gsk;
      const unsigned char *wr = ref_tree(s, end, crb, &wsk, &want);
      nchecks++;
      for (int i = -1; i < nsimd; i++) {
        const sgf__scanners *t = i < 0 ? &portable : simd[i];
        memset(&got, 0xA5, sizeof got);
        gsk = starts[st];
        const unsigned char *gr = t->tree(s, end, crb, &gsk, &got);
        if (gr == wr && got.n == want.n && got.last == want.last &&
            got.last_cr == want.last_cr && gsk.levels == wsk.levels &&
            gsk.in_value == wsk.in_value && gsk.escaped == wsk.escaped)
          continue;
        ok = 0;
        if (show_failure()) {
          fprintf(stderr,
                  "FAIL: %s: %s tree skipper on [%td, %td) of a %zu-byte "
                  "buffer (address %% 16 = %u, cr_before %d, start levels "
                  "%llu in_value %d escaped %d): returned %td n %llu last "
                  "%td last_cr %td, state %llu/%d/%d; expected %td n %llu "
                  "last %td last_cr %td, state %llu/%d/%d\n",
                  what, t->name, s - base, end - base, n,
                  (unsigned)((uintptr_t)base % 16), crb,
                  (unsigned long long)starts[st].levels, starts[st].in_value,
                  starts[st].escaped, gr - base, (unsigned long long)got.n,
                  got.last ? got.last - base : -1,
                  got.last_cr ? got.last_cr - base : -1,
                  (unsigned long long)gsk.levels, gsk.in_value, gsk.escaped,
                  wr - base, (unsigned long long)want.n,
                  want.last ? want.last - base : -1,
                  want.last_cr ? want.last_cr - base : -1,
                  (unsigned long long)wsk.levels, wsk.in_value, wsk.escaped);
          hexdump(base, n);
        }
      }
    }
  return ok;
}

static int check(int kind, const unsigned char *s, const unsigned char *end,
                 const unsigned char *base, size_t n, const char *what) {
  if (kind == 2) return check_text(s, end, base, n, what);
  if (kind == 1) return check_tree(s, end, base, n, what);
  const unsigned char *want = ref_scan(kind, s, end);
  int ok = 1;
  nchecks++;
  for (int i = -1; i < nsimd; i++) {
    const sgf__scanners *t = i < 0 ? &portable : simd[i];
    const unsigned char *got = t->value(s, end);
    if (got == want) continue;
    ok = 0;
    if (show_failure()) {
      fprintf(stderr,
              "FAIL: %s: %s %s scanner on [%td, %td) of a %zu-byte buffer "
              "(address %% 16 = %u): returned %td, expected %td%s\n",
              what, t->name, kind_name[kind], s - base, end - base, n,
              (unsigned)((uintptr_t)base % 16), got - base, want - base,
              want == end ? " (end: no stop byte)" : "");
      hexdump(base, n);
    }
  }
  return ok;
}

static int check_all(int kind, const unsigned char *s, size_t n,
                     const char *what) {
  return check(kind, s, s + n, s, n, what);
}

/* Fill [s, s + n) with random bytes the kind does not stop at. */
static void fill_clean(int kind, unsigned char *s, size_t n) {
  for (size_t i = 0; i < n; i++) s[i] = nonstop(kind);
}

/* -------------------------------------------------- scanner sections */

enum { MAXLEN = 300 };

static void sec_single(void) {
  for (int kind = 0; kind < NKINDS; kind++)
    for (unsigned pl = 0; pl <= 16; pl++) /* alignments 0..15, then hi */
      for (size_t n = 0; n <= MAXLEN; n++) {
        if (quick && n > 100 && n % 9) continue;
        unsigned char *s = pl == 16 ? hi - n : lo + pl;
        fill_clean(kind, s, n);
        check_all(kind, s, n, "single (none)");
        for (size_t p = 0; p < n; p++) {
          unsigned char keep = s[p];
          for (unsigned b = 0; b < NSTOP(kind); b++) {
            s[p] = stops[kind][b];
            check_all(kind, s, n, "single");
          }
          s[p] = keep;
        }
      }
}

static void sec_bytes(void) {
  size_t lens[64];
  int nl = 0;
  for (size_t n = 1; n <= 48; n++) lens[nl++] = n;
  lens[nl++] = 63;
  lens[nl++] = 64;
  lens[nl++] = 65;
  lens[nl++] = MAXLEN;
  for (int kind = 0; kind < NKINDS; kind++)
    for (unsigned b = 0; b < 256; b++)
      for (int li = 0; li < nl; li++) {
        size_t n = lens[li];
        for (size_t p = 0; p < n; p++) {
          unsigned a = (unsigned)((b + p + n) % 16);
          unsigned char *s = (p % 7 == 3) ? hi - n : lo + a;
          fill_clean(kind, s, n);
          s[p] = (unsigned char)b;
          check_all(kind, s, n, "bytes");
        }
      }
}

static void sec_lanes(void) {
  for (int kind = 0; kind < NKINDS; kind++)
    for (unsigned mask = 0; mask < 65536; mask += quick ? 7 : 1) {
      size_t pre = 16 * (mask % 3), tail = (mask >> 3) % 21;
      size_t n = pre + 16 + tail;
      unsigned char *s = (mask % 5 == 0) ? hi - n : lo + (mask >> 7) % 16;
      fill_clean(kind, s, n);
      for (int l = 0; l < 16; l++)
        if (mask & (1u << l))
          s[pre + (size_t)l] = stops[kind][rndn(NSTOP(kind))];
      for (size_t i = pre + 16; i < n; i++)
        if (rndn(4) == 0) s[i] = stops[kind][rndn(NSTOP(kind))];
      check_all(kind, s, n, "lanes");
      /* and from inside the block */
      check(kind, s + pre + mask % 16, s + n, s, n, "lanes (inside)");
    }
}

static void sec_pairs(void) {
  const size_t n = 70;
  for (int kind = 0; kind < NKINDS; kind++)
    for (unsigned a = 0; a <= 16; a += quick ? 5 : 1) {
      unsigned char *s = a == 16 ? hi - n : lo + a;
      for (size_t p1 = 0; p1 < n; p1++)
        for (size_t p2 = p1 + 1; p2 < n; p2++) {
          fill_clean(kind, s, n);
          s[p1] = stops[kind][rndn(NSTOP(kind))];
          s[p2] = stops[kind][rndn(NSTOP(kind))];
          check_all(kind, s, n, "pairs");
        }
    }
}

static void sec_random(long iter) {
  static const unsigned density[] = {0, 1, 4, 16, 64, 128, 256}; /* /256 */
  for (long it = 0; it < iter; it++) {
    int kind = (int)(it % NKINDS);
    size_t n = rndn(MAXLEN + 1);
    unsigned char *s = rndn(4) == 0 ? hi - n : lo + rndn(16);
    unsigned d = density[rndn(sizeof density / sizeof density[0])];
    for (size_t i = 0; i < n; i++) {
      if (d == 1)
        s[i] = (unsigned char)rndn(256); /* plain random bytes */
      else if (rndn(256) < d)
        s[i] = stops[kind][rndn(NSTOP(kind))];
      else
        s[i] = nonstop(kind);
    }
    /* scan stop by stop, as the parser does, from a random start */
    const unsigned char *p = s + (n ? rndn((unsigned)n) / 4 : 0);
    for (;;) {
      if (!check(kind, p, s + n, s, n, "random")) break;
      const unsigned char *r = ref_scan(kind, p, s + n);
      if (r == s + n) break;
      p = r + 1;
    }
  }
}

/* ------------------------------------------------------------- moves */

/* The move-run scanner's rule (lib/simd/moves.c) written again: plain
 * moves ";X[ab]" each followed by ';', LF ';' or CR LF ';'. */
static const unsigned char *ref_moves(const unsigned char *s,
                                      const unsigned char *end,
                                      sgf__lines *ln) {
  ln->n = 0;
  ln->last = ln->last_cr = NULL;
  while (end - s >= 7 && s[0] == ';' && s[1] >= 'A' && s[1] <= 'Z' &&
         s[2] == '[' && s[5] == ']' && !strchr("]\\\n\r;", s[3]) &&
         !strchr("]\\\n\r;", s[4]) && s[3] && s[4]) {
    if (s[6] == ';') {
      s += 6;
    } else if (end - s >= 8 && s[6] == '\n' && s[7] == ';') {
      ln->n++;
      ln->last = s + 6;
      s += 7;
    } else if (end - s >= 9 && s[6] == '\r' && s[7] == '\n' && s[8] == ';') {
      ln->n++;
      ln->last = s + 7;
      ln->last_cr = s + 6;
      s += 8;
    } else {
      break;
    }
  }
  return s;
}

/* Runs of moves with line breaks and damage, scanned by every table
 * from each node start to every end (so that the end of a block and of
 * the buffer fall everywhere): the same stop and line count as the
 * reference. */
static void sec_moves(long iter) {
  static const unsigned char damage[] = {']',  ';',  '\\', '\n', '\r', 0,
                                         0x81, 0xff, 'a',  '[',  '(',  ' '};
  for (long it = 0; it < iter; it++) {
    size_t n = 0, want_n = 20 + rndn(200);
    unsigned char *s = lo + rndn(16);
    while (n < want_n) {
      s[n++] = ';';
      s[n++] = (unsigned char)('A' + rndn(26));
      s[n++] = '[';
      s[n++] = (unsigned char)('a' + rndn(26));
      s[n++] = (unsigned char)('a' + rndn(26));
      s[n++] = ']';
      if (rndn(8) == 0) s[n++] = '\n';
      if (rndn(32) == 0) s[n++] = '\r', s[n++] = '\n';
    }
    for (unsigned k = rndn(3); k > 0; k--)
      s[rndn((unsigned)n)] = damage[rndn(sizeof damage)];
    for (size_t from = 0; from < n; from++) {
      if (s[from] != ';') continue;
      for (size_t to = from; to <= n; to += 1 + (quick ? rndn(8) : 0)) {
        sgf__lines want, got;
        const unsigned char *wr = ref_moves(s + from, s + to, &want);
        nchecks++;
        for (int i = -1; i < nsimd; i++) {
          const sgf__scanners *t = i < 0 ? &portable : simd[i];
          memset(&got, 0xA5, sizeof got);
          const unsigned char *gr = t->moves(s + from, s + to, &got);
          if (gr == wr && got.n == want.n && got.last == want.last &&
              got.last_cr == want.last_cr)
            continue;
          if (show_failure()) {
            fprintf(stderr,
                    "FAIL: moves: %s on [%zu, %zu): returned %td n %llu, "
                    "expected %td n %llu\n",
                    t->name, from, to, gr - s, (unsigned long long)got.n,
                    wr - s, (unsigned long long)want.n);
            hexdump(s, n);
          }
        }
      }
    }
  }
}

/* ------------------------------------------------------------ select */

static void sec_select(void) {
  struct {
    const char *env, *want;
  } want[8];
  int nw = 0;
  const char *old = getenv("SGF_SIMD");
  char *saved = old ? strdup(old) : NULL;
#if defined(SGF_NEON)
  const char *def = "neon";
#elif defined(SGF_X86)
  __builtin_cpu_init();
  const char *def = __builtin_cpu_supports("avx2") ? "avx2" : "sse2";
#else
  const char *def = "portable";
#endif
  want[nw].env = NULL, want[nw++].want = def;
  want[nw].env = "none", want[nw++].want = "portable";
  want[nw].env = "portable", want[nw++].want = "portable";
  want[nw].env = "bogus", want[nw++].want = def;
#if defined(SGF_NEON)
  want[nw].env = "neon", want[nw++].want = "neon";
  want[nw].env = "sse2", want[nw++].want = "neon";
#elif defined(SGF_X86)
  want[nw].env = "sse2", want[nw++].want = "sse2";
  want[nw].env = "avx2", want[nw++].want = def;
#endif
  for (int i = 0; i < nw; i++) {
    if (want[i].env)
      setenv("SGF_SIMD", want[i].env, 1);
    else
      unsetenv("SGF_SIMD");
    const char *got = choose()->name;
    if (strcmp(got, want[i].want) != 0)
      fail("select: SGF_SIMD=%s chose %s, expected %s",
           want[i].env ? want[i].env : "(unset)", got, want[i].want);
  }
  if (saved)
    setenv("SGF_SIMD", saved, 1);
  else
    unsetenv("SGF_SIMD");
  free(saved);
}

/* ------------------------------------------------- parsing, counted */

/* Parsers get a counting table that forwards to `cur`: the counts show
 * how much input the table under test really scanned. */
typedef struct usage {
  long calls[NKINDS], long_calls[NKINDS]; /* long: over 16 bytes or more */
  uint64_t bytes[NKINDS];
} usage;

static const sgf__scanners *cur;
static usage use[5]; /* [0] portable, [1 + i] simd[i] */
static usage *cur_use;

static const unsigned char *count_value(const unsigned char *s,
                                        const unsigned char *end) {
  const unsigned char *r = cur->value(s, end);
  cur_use->calls[0]++;
  cur_use->long_calls[0] += r - s >= 16;
  cur_use->bytes[0] += (uint64_t)(r - s);
  return r;
}
static const unsigned char *count_tree(const unsigned char *s,
                                       const unsigned char *end, int cr_before,
                                       sgf__skip *sk, sgf__lines *ln) {
  const unsigned char *r = cur->tree(s, end, cr_before, sk, ln);
  cur_use->calls[1]++;
  cur_use->long_calls[1] += r - s >= 16;
  cur_use->bytes[1] += (uint64_t)(r - s);
  return r;
}
static const unsigned char *count_text(const unsigned char *s,
                                       const unsigned char *end, int cr_before,
                                       sgf__lines *ln) {
  const unsigned char *r = cur->text(s, end, cr_before, ln);
  cur_use->calls[2]++;
  cur_use->long_calls[2] += r - s >= 16;
  cur_use->bytes[2] += (uint64_t)(r - s);
  return r;
}
static const unsigned char *count_moves(const unsigned char *s,
                                        const unsigned char *end,
                                        sgf__lines *ln) {
  return cur->moves(s, end, ln);
}
static const sgf__scanners counting = {count_value, count_tree, count_text,
                                       count_moves, "counting"};

/* Table i: -1 portable, else simd[i]. */
static const sgf__scanners *table(int i) { return i < 0 ? &portable : simd[i]; }

static void use_table(int i) {
  cur = table(i);
  cur_use = &use[i + 1];
  atomic_store_explicit(&chosen, &counting, memory_order_release);
}

typedef struct outcome {
  bytebuf log;
  int status;
  sgf_pos end;
  int has_error;
  sgf_diag err;
  long callbacks;
} outcome;

/* How to cut the input: whole (CHUNK with k = 0), chunks of k bytes,
 * one split at k, or random chunk sizes from the seed k. */
enum { CHUNK, SPLIT, RANDOM };
typedef struct plan {
  int how;
  size_t k;
} plan;

static void describe(const plan *pl, char *out, size_t size) {
  if (pl->how == CHUNK && pl->k == 0)
    snprintf(out, size, "whole");
  else if (pl->how == CHUNK)
    snprintf(out, size, "chunks of %zu", pl->k);
  else if (pl->how == SPLIT)
    snprintf(out, size, "split at %zu", pl->k);
  else
    snprintf(out, size, "random chunks (seed %zu)", pl->k);
}

static void parse(int ti, const unsigned char *buf, size_t n,
                  const sgf_options *opt, const plan *pl, long skip_at,
                  outcome *o) {
  evlog log;
  sgf_callbacks cb;
  uint64_t seed = pl->k * 0x9E3779B97F4A7C15ULL + 1;
  bytebuf_clear(&o->log);
  evlog_init(&log, bytebuf_sink, &o->log);
  if (skip_at >= 0) {
    log.action_at = skip_at;
    log.action = SGF_SKIP;
  }
  evlog_callbacks(&cb);
  use_table(ti);
  sgf_parser *p = sgf_parser_create(&cb, &log, opt);
  if (!p) {
    fprintf(stderr, "scan_check: sgf_parser_create failed\n");
    exit(1);
  }
  size_t off = 0;
  int st = SGF_OK;
  while (off < n && st == SGF_OK) {
    size_t len = n - off;
    if (pl->how == CHUNK && pl->k)
      len = pl->k;
    else if (pl->how == SPLIT && off < pl->k)
      len = pl->k - off;
    else if (pl->how == RANDOM) {
      seed ^= seed >> 12, seed ^= seed << 25, seed ^= seed >> 27;
      uint64_t r = seed * 0x2545F4914F6CDD1DULL;
      len = (r & 3) ? 1 + (size_t)(r >> 8) % 40 : 1 + (size_t)(r >> 8) % 700;
    }
    if (len > n - off) len = n - off;
    st = sgf_parser_feed(p, (const char *)buf + off, len, NULL);
    off += len;
  }
  if (st == SGF_OK) st = sgf_parser_finish(p);
  evlog_flush(&log);
  o->status = st;
  o->end = sgf_parser_position(p);
  const sgf_diag *e = sgf_parser_error(p);
  o->has_error = e != NULL;
  if (e) o->err = *e;
  o->callbacks = log.count;
  evlog_free(&log);
  sgf_parser_destroy(p);
}

static int same_pos(sgf_pos a, sgf_pos b) {
  return a.offset == b.offset && a.line == b.line && a.column == b.column;
}

/* 1 if b is the same outcome as a; else says how they differ. */
static int same(const outcome *a, const outcome *b, const char *what) {
  if (a->log.len != b->log.len ||
      (a->log.len && memcmp(a->log.p, b->log.p, a->log.len) != 0)) {
    if (show_failure()) {
      fprintf(stderr, "FAIL: %s: event logs differ\n", what);
      tu_print_diff(what, a->log.p ? a->log.p : "", a->log.len,
                    b->log.p ? b->log.p : "", b->log.len);
    }
    return 0;
  }
  if (a->status != b->status || !same_pos(a->end, b->end) ||
      a->has_error != b->has_error ||
      (a->has_error &&
       (a->err.code != b->err.code || !same_pos(a->err.pos, b->err.pos)))) {
    fail("%s: final state differs: status %d/%d, end offset %" PRIu64
         "/%" PRIu64 ", error %d/%d",
         what, a->status, b->status, a->end.offset, b->end.offset,
         a->has_error ? (int)a->err.code : -1,
         b->has_error ? (int)b->err.code : -1);
    return 0;
  }
  return 1;
}

static void outcome_init(outcome *o) {
  memset(o, 0, sizeof *o);
  bytebuf_init(&o->log);
}

/* Each SIMD table against portable for one input, options and plan. */
static void differential(const unsigned char *buf, size_t n,
                         const sgf_options *opt, const plan *pl, long skip_at,
                         const char *name) {
  outcome ref, got;
  outcome_init(&ref);
  outcome_init(&got);
  parse(-1, buf, n, opt, pl, skip_at, &ref);
  for (int i = 0; i < nsimd; i++) {
    char what[512], how[64];
    parse(i, buf, n, opt, pl, skip_at, &got);
    describe(pl, how, sizeof how);
    snprintf(what, sizeof what, "%.300s: %s vs portable, %s%s%s, skip at %ld",
             name, simd[i]->name, how,
             opt && (opt->flags & SGF_OPT_STRICT) ? ", strict" : "",
             opt && (opt->flags & SGF_OPT_MAINLINE) ? ", mainline" : "",
             skip_at);
    same(&ref, &got, what);
  }
  bytebuf_free(&ref.log);
  bytebuf_free(&got.log);
}

/* ------------------------------------------------------------ cases */

static char *join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *p = malloc(la + lb + 2);
  if (!p) abort();
  memcpy(p, a, la);
  p[la] = '/';
  memcpy(p + la + 1, b, lb + 1);
  return p;
}

static int read_in(const char *dir, const char *name, bytebuf *out) {
  char *p = join(dir, name);
  int rc = tu_read_file(p, out);
  free(p);
  return rc;
}

static int exists_in(const char *dir, const char *name) {
  char *p = join(dir, name);
  int rc = tu_exists(p);
  free(p);
  return rc;
}

static int set_options(sgf_options *opt, const bytebuf *t) {
  const char *s = t->p ? t->p : "", *end = s + t->len;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
    char line[128], *eq;
    if (len >= sizeof line) return -1;
    memcpy(line, s, len);
    line[len] = '\0';
    s += len + 1;
    if (!len || line[0] == '#') continue;
    if (!(eq = strchr(line, '='))) return -1;
    *eq++ = '\0';
    unsigned long long v = strtoull(eq, NULL, 10);
    if (!strcmp(line, "max_depth"))
      opt->max_depth = v;
    else if (!strcmp(line, "max_ident_len"))
      opt->max_ident_len = (size_t)v;
    else if (!strcmp(line, "utf16"))
      opt->flags |= v ? SGF_OPT_UTF16 : 0u;
    else
      return -1;
  }
  return 0;
}

/* The final status the golden log implies (test/README.md). */
static int expected_status(const bytebuf *golden, int strict) {
  const char *s = golden->p ? golden->p : "", *end = s + golden->len;
  int err = 0;
  while (s < end) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
    /* "OFF L:C SEVERITY NAME (CODE): ..." */
    const char *sp = memchr(s, ' ', len);
    if (sp) sp = memchr(sp + 1, ' ', len - (size_t)(sp + 1 - s));
    if (sp && memchr(sp, ':', len - (size_t)(sp - s))) {
      if (!strncmp(sp + 1, "fatal ", 6)) err = 1;
      if (strict && !strncmp(sp + 1, "error ", 6)) err = 1;
    }
    s += len + 1;
  }
  return err ? SGF_EPARSE : SGF_OK;
}

static int not_dot(const struct dirent *d) { return d->d_name[0] != '.'; }

static long ncases, nparses;

static void one_case(const char *root, const char *name) {
  char *dir = join(root, name);
  bytebuf in, golden, o;
  sgf_options opt;
  bytebuf_init(&in);
  bytebuf_init(&golden);
  bytebuf_init(&o);
  sgf_options_init(&opt);
  if (read_in(dir, "input.sgf", &in) || read_in(dir, "events", &golden)) {
    free(dir);
    bytebuf_free(&in);
    bytebuf_free(&golden);
    return; /* not a case directory */
  }
  int strict = exists_in(dir, "strict");
  if (strict) opt.flags |= SGF_OPT_STRICT;
  if (exists_in(dir, "options") &&
      (read_in(dir, "options", &o) || set_options(&opt, &o)))
    fail("case %s: bad options file", name);
  if (opt.flags & SGF_OPT_UTF16) {
    /* the golden log is of the converted text, whose positions the
     * checks here take from the input: test/unit/cases (under each scanner in
     * cases-scanners.sh) parses these cases */
    free(dir);
    bytebuf_free(&in);
    bytebuf_free(&golden);
    bytebuf_free(&o);
    return;
  }
  int want_status = expected_status(&golden, strict);
  sgf_pos end = tu_end_pos(in.p ? in.p : "", in.len);
  const unsigned char *buf = (const unsigned char *)(in.p ? in.p : "");
  size_t n = in.len;
  ncases++;

  /* the plans: whole, chunk sizes, split points */
  size_t maxk = quick ? 40 : 1500, np = 0;
  plan *plans = malloc(sizeof *plans * (2 * (n + 2) + 200));
  if (!plans) abort();
  plans[np++] = (plan){CHUNK, 0};
  for (size_t k = 1; k <= n; k++)
    if (n <= maxk || k <= 64 || k % (n / 100 + 1) == 0)
      plans[np++] = (plan){CHUNK, k};
  for (size_t k = 1; k < n; k++)
    if (n <= maxk || k % (n / 200 + 1) == 0) plans[np++] = (plan){SPLIT, k};

  outcome whole_ref, r;
  outcome_init(&whole_ref);
  outcome_init(&r);
  for (int ti = -1; ti < nsimd; ti++) {
    int shown_golden = 0;
    for (size_t i = 0; i < np; i++) {
      char how[64];
      parse(ti, buf, n, &opt, &plans[i], -1, &r);
      nparses++;
      describe(&plans[i], how, sizeof how);
      if (r.log.len != golden.len ||
          (golden.len && memcmp(r.log.p, golden.p, golden.len) != 0)) {
        /* one diff per case and table; every plan counts */
        if (shown_golden++) {
          failures++;
        } else if (show_failure()) {
          fprintf(stderr, "FAIL: case %s: %s, %s: log differs from golden\n",
                  name, table(ti)->name, how);
          tu_print_diff(name, golden.p ? golden.p : "", golden.len,
                        r.log.p ? r.log.p : "", r.log.len);
        }
        continue;
      }
      if (r.status != want_status)
        fail("case %s: %s, %s: status %d, expected %d", name, table(ti)->name,
             how, r.status, want_status);
      else if (r.status == SGF_OK && !same_pos(r.end, end))
        fail("case %s: %s, %s: ends at %" PRIu64 " %" PRIu64 ":%" PRIu64
             ", expected %" PRIu64 " %" PRIu64 ":%" PRIu64,
             name, table(ti)->name, how, r.end.offset, r.end.line, r.end.column,
             end.offset, end.line, end.column);
      if (i == 0 && ti < 0) {
        bytebuf_clear(&whole_ref.log);
        bytebuf_add(&whole_ref.log, r.log.p, r.log.len);
        whole_ref.status = r.status;
        whole_ref.end = r.end;
        whole_ref.has_error = r.has_error;
        whole_ref.err = r.err;
        whole_ref.callbacks = r.callbacks;
      } else if (i == 0) {
        char what[256];
        snprintf(what, sizeof what, "case %.200s: %s vs portable, whole", name,
                 table(ti)->name);
        same(&whole_ref, &r, what);
      }
    }
  }
  free(plans);

  /* skip at every callback; mainline mode */
  char what[256];
  snprintf(what, sizeof what, "case %.200s", name);
  long step = quick ? whole_ref.callbacks / 25 + 1
                    : (n <= 1500 ? 1 : whole_ref.callbacks / 300 + 1);
  for (long k = 0; k <= whole_ref.callbacks; k += step) {
    differential(buf, n, &opt, &(plan){CHUNK, 0}, k, what);
    differential(buf, n, &opt, &(plan){RANDOM, (size_t)k}, k, what);
  }
  sgf_options ml = opt;
  ml.flags |= SGF_OPT_MAINLINE;
  differential(buf, n, &ml, &(plan){CHUNK, 0}, -1, what);
  differential(buf, n, &ml, &(plan){CHUNK, 3}, -1, what);
  differential(buf, n, &ml, &(plan){RANDOM, 7}, -1, what);

  bytebuf_free(&whole_ref.log);
  bytebuf_free(&r.log);
  bytebuf_free(&in);
  bytebuf_free(&golden);
  bytebuf_free(&o);
  free(dir);
}

static void sec_cases(const char *root) {
  struct dirent **list;
  int n = scandir(root, &list, not_dot, alphasort);
  if (n < 0) {
    fail("cases: cannot read %s", root);
    return;
  }
  for (int i = 0; i < n; i++) {
    one_case(root, list[i]->d_name);
    free(list[i]);
  }
  free(list);
  if (ncases == 0) fail("cases: no case found in %s", root);
}

/* ------------------------------------------------------------ synth */

static void put_byte(bytebuf *b, unsigned c) {
  unsigned char ch = (unsigned char)c;
  bytebuf_add(b, &ch, 1);
}

static void gen_ws(bytebuf *b) {
  static const char *const ws[] = {"",     "",   "",   " ",      "\n",
                                   "\r\n", "\r", "\t", "  \n  ", "\n\n"};
  if (rndn(8) == 0) { /* a long run: the skip scanner's work when skipped */
    unsigned n = 10 + rndn(120);
    for (unsigned i = 0; i < n; i++) put_byte(b, " \t  ;"[rndn(5)]);
    return;
  }
  bytebuf_adds(b, ws[rndn(10)]);
}

static void gen_value(bytebuf *b) {
  unsigned r = rndn(10), len;
  if (r < 4)
    len = rndn(4);
  else if (r < 8)
    len = 10 + rndn(60);
  else
    len = 60 + rndn(400);
  for (unsigned i = 0; i < len; i++) {
    unsigned c = rndn(100);
    if (c < 70)
      put_byte(b, "abcdefghijklmnopqrs tuvwxyzABC:0123456789.,"[rndn(43)]);
    else if (c < 74) {
      put_byte(b, '\\');
      put_byte(b, "]\\\n\r[()a:\0"[rndn(10)]);
    } else if (c < 78)
      put_byte(b, '\n');
    else if (c < 81)
      put_byte(b, '\r');
    else if (c < 83)
      bytebuf_adds(b, "\r\n");
    else if (c < 85)
      put_byte(b, 0);
    else if (c < 90)
      put_byte(b, 0x80 + rndn(128));
    else if (c < 95)
      put_byte(b, "()[;"[rndn(4)]);
    else {
      unsigned x;
      do x = rndn(256);
      while (x == ']');
      put_byte(b, x);
    }
  }
}

static void gen_tree(bytebuf *b, int depth) {
  put_byte(b, '(');
  unsigned nodes = 1 + rndn(4);
  for (unsigned i = 0; i < nodes; i++) {
    gen_ws(b);
    put_byte(b, ';');
    unsigned props = rndn(5);
    for (unsigned j = 0; j < props; j++) {
      gen_ws(b);
      if (rndn(8) == 0) bytebuf_adds(b, "Co");
      put_byte(b, 'A' + rndn(26));
      if (rndn(2)) put_byte(b, 'A' + rndn(26));
      unsigned vals = 1 + rndn(3);
      for (unsigned v = 0; v < vals; v++) {
        if (rndn(4) == 0) gen_ws(b);
        put_byte(b, '[');
        gen_value(b);
        put_byte(b, ']');
      }
    }
  }
  unsigned kids = depth < 4 ? rndn(4) : 0;
  for (unsigned i = 0; i < kids; i++) {
    gen_ws(b);
    gen_tree(b, depth + 1);
  }
  gen_ws(b);
  put_byte(b, ')');
}

static void gen_doc(bytebuf *b) {
  bytebuf_clear(b);
  if (rndn(4) == 0) { /* preamble junk */
    unsigned n = rndn(80);
    for (unsigned i = 0; i < n; i++)
      put_byte(b, "hello (x) [y] ;\n\r"[rndn(17)]);
  }
  unsigned trees = 1 + rndn(3);
  for (unsigned i = 0; i < trees; i++) {
    gen_tree(b, 0);
    gen_ws(b);
  }
  if (rndn(3) == 0 && b->len) { /* damage */
    unsigned m = 1 + rndn(3);
    for (unsigned i = 0; i < m && b->len; i++) {
      size_t at = rndn((unsigned)b->len);
      unsigned what = rndn(3);
      if (what == 0) { /* delete a byte */
        memmove(b->p + at, b->p + at + 1, b->len - at - 1);
        b->len--;
      } else if (what == 1) { /* overwrite with a structural byte */
        b->p[at] = "[]()\\;\n\r"[rndn(9)];
        if (rndn(4) == 0) b->p[at] = 0;
      } else { /* truncate */
        b->len = at;
      }
    }
  }
}

static void sec_synth(long docs) {
  bytebuf doc;
  bytebuf_init(&doc);
  int kept = 0;
  for (long d = 0; d < docs; d++) {
    long before = failures;
    gen_doc(&doc);
    sgf_options opt;
    sgf_options_init(&opt);
    unsigned f = rndn(8);
    if (f == 0) opt.flags |= SGF_OPT_STRICT;
    if (f == 1 || f == 2) opt.flags |= SGF_OPT_MAINLINE;
    const unsigned char *buf = (const unsigned char *)(doc.p ? doc.p : "");
    long skip_at = -1;
    if (rndn(2)) { /* skip at some callback of the plain parse */
      outcome o;
      outcome_init(&o);
      parse(-1, buf, doc.len, &opt, &(plan){CHUNK, 0}, -1, &o);
      skip_at = (long)rndn((unsigned)o.callbacks + 1);
      bytebuf_free(&o.log);
    }
    char name[64];
    snprintf(name, sizeof name, "synth doc %ld (%zu bytes)", d, doc.len);
    differential(buf, doc.len, &opt, &(plan){CHUNK, 0}, skip_at, name);
    differential(buf, doc.len, &opt, &(plan){RANDOM, (size_t)d}, skip_at, name);
    if (failures > before && !kept) { /* keep the first failing one */
      FILE *out = fopen("scan_check-failed.sgf", "wb");
      if (out) {
        fwrite(buf, 1, doc.len, out);
        fclose(out);
        kept = 1;
        fprintf(stderr, "scan_check: %s written to scan_check-failed.sgf\n",
                name);
      }
    }
  }
  bytebuf_free(&doc);
}

/* ------------------------------------------------------------ files */

static long nfiles;
static uint64_t file_bytes;

static int skip_name(const char *n) {
  static const char *const ext[] = {".xz",  ".gz",  ".bz2", ".zip",
                                    ".tar", ".tgz", ".7z",  ".md"};
  size_t ln = strlen(n);
  for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
    size_t le = strlen(ext[i]);
    if (ln >= le && !strcmp(n + ln - le, ext[i])) return 1;
  }
  return 0;
}

static void walk(const char *path, int depth) {
  struct stat st;
  if (stat(path, &st) != 0) return;
  if (S_ISDIR(st.st_mode)) {
    struct dirent **list;
    int n = depth > 20 ? -1 : scandir(path, &list, not_dot, alphasort);
    for (int i = 0; i < n; i++) {
      char *p = join(path, list[i]->d_name);
      walk(p, depth + 1);
      free(p);
      free(list[i]);
    }
    if (n >= 0) free(list);
    return;
  }
  if (!S_ISREG(st.st_mode) || skip_name(path) || st.st_size > (16 << 20))
    return;
  bytebuf in;
  bytebuf_init(&in);
  if (tu_read_file(path, &in) == 0) {
    const unsigned char *buf = (const unsigned char *)(in.p ? in.p : "");
    sgf_options opt, ml;
    sgf_options_init(&opt);
    ml = opt;
    ml.flags |= SGF_OPT_MAINLINE;
    nfiles++;
    file_bytes += in.len;
    differential(buf, in.len, &opt, &(plan){CHUNK, 0}, -1, path);
    differential(buf, in.len, &opt, &(plan){CHUNK, 4093}, -1, path);
    differential(buf, in.len, &opt, &(plan){RANDOM, (size_t)nfiles}, -1, path);
    differential(buf, in.len, &ml, &(plan){CHUNK, 0}, -1, path);
    differential(buf, in.len, &opt, &(plan){CHUNK, 0}, 3, path);
  }
  bytebuf_free(&in);
}

/* ------------------------------------------------------------ main */

static void usage_exit(void) {
  fprintf(stderr,
          "usage: scan_check [-p] [-r NAME] [-c CASEDIR] [-f DIR]... "
          "[-n ITER] [-d DOCS] [-s SEED] [-q]\n");
  exit(2);
}

static void section(const char *name, double t0, long before_fail) {
  printf("scan_check: %-7s %s (%.1f s)\n", name,
         failures == before_fail ? "ok" : "FAILED", now() - t0);
  fflush(stdout);
}

int main(int argc, char **argv) {
  const char *require = NULL, *cases = NULL;
  const char *files[16];
  int nf = 0;
  long iter = -1, docs = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-p")) { /* the choice, before anything sets it */
      printf("%s\n", sgf__scanners_get()->name);
      return 0;
    }
    if (!strcmp(a, "-q")) {
      quick = 1;
      continue;
    }
    if (i + 1 >= argc) usage_exit();
    const char *v = argv[++i];
    if (!strcmp(a, "-r"))
      require = v;
    else if (!strcmp(a, "-c"))
      cases = v;
    else if (!strcmp(a, "-f") && nf < 16)
      files[nf++] = v;
    else if (!strcmp(a, "-n"))
      iter = atol(v);
    else if (!strcmp(a, "-d"))
      docs = atol(v);
    else if (!strcmp(a, "-s"))
      rng_state = strtoull(v, NULL, 0) | 1;
    else
      usage_exit();
  }
  if (iter < 0) iter = quick ? 20000 : 200000;
  if (docs < 0) docs = quick ? 300 : 2000;
  uint64_t seed0 = rng_state;

  find_tables();
  arena_init();
  printf("scan_check: SIMD tables:");
  for (int i = 0; i < nsimd; i++) printf(" %s", simd[i]->name);
  printf("%s; guard pages %s; seed %#" PRIx64 "\n", nsimd ? "" : " none",
         guarded ? "on" : "off", seed0);
  if (require) {
    int found = 0;
    for (int i = 0; i < nsimd; i++) found |= !strcmp(simd[i]->name, require);
    if (!found) {
      printf(
          "FAIL: this build has no %s table (SIMD disabled or not "
          "detected at compile time)\n",
          require);
      return 1;
    }
  }

  double t;
  long f;
  t = now(), f = failures, sec_select(), section("select", t, f);
  t = now(), f = failures, sec_single(), section("single", t, f);
  t = now(), f = failures, sec_bytes(), section("bytes", t, f);
  t = now(), f = failures, sec_lanes(), section("lanes", t, f);
  t = now(), f = failures, sec_pairs(), section("pairs", t, f);
  t = now(), f = failures, sec_random(iter), section("random", t, f);
  t = now(), f = failures, sec_moves(quick ? 40 : 400), section("moves", t, f);
  printf("scan_check: %ld scanner checks, each of portable", nchecks);
  for (int i = 0; i < nsimd; i++) printf(" and %s", simd[i]->name);
  printf(" against the reference\n");
  if (cases) {
    t = now(), f = failures, sec_cases(cases), section("cases", t, f);
    printf("scan_check: %ld golden cases, %ld parses against the goldens\n",
           ncases, nparses);
  }
  t = now(), f = failures, sec_synth(docs), section("synth", t, f);
  if (nf) {
    t = now(), f = failures;
    for (int i = 0; i < nf; i++) walk(files[i], 0);
    section("files", t, f);
    printf("scan_check: %ld files, %" PRIu64 " bytes\n", nfiles, file_bytes);
  }
  for (int i = -1; i < nsimd; i++) {
    const usage *u = &use[i + 1];
    printf(
        "scan_check: parses through %-8s value scanner %ld calls (%ld "
        "passed 16+ bytes), %" PRIu64
        " bytes; tree skipper %ld calls (%ld "
        "passed 16+ bytes), %" PRIu64
        " bytes; text scanner %ld calls "
        "(%ld passed 16+ bytes), %" PRIu64 " bytes\n",
        table(i)->name, u->calls[0], u->long_calls[0], u->bytes[0], u->calls[1],
        u->long_calls[1], u->bytes[1], u->calls[2], u->long_calls[2],
        u->bytes[2]);
    for (int k = 0; k < NKINDS; k++)
      if (i >= 0 && u->long_calls[k] == 0)
        fail("the parse tests never had the %s %s scanner pass 16 bytes",
             simd[i]->name, kind_name[k]);
  }
  printf("scan_check: %s\n", failures ? "FAILED" : "all agree");
  if (failures) printf("scan_check: %ld failures\n", failures);
  return failures ? 1 : 0;
}
