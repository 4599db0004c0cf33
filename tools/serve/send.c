/* send.c - `sgf send HOST:PORT FILE...`: stream files (or standard input)
 * to `sgf serve`, raw or as HTTP POSTs, at a chosen rate and write size
 * (for testing), and report what the server acknowledged.
 *
 * Raw: all FILEs go, one after another, down one connection, then the
 * write side is shut down and the server's answer lines are read to the
 * end (raw.c lists them). HTTP: one connection and one POST /games per
 * input (Connection: close); the JSON summary is printed as it came.
 * FILEs are read as every command reads them (tools/io: compressed
 * files, archives' .sgf entries, directories), each input whole first
 * (a tool for tests and benchmarks: the files are small next to
 * memory), then written chunk by chunk; with --rate, in writes of a
 * tenth of the rate at most.
 */
#define _GNU_SOURCE /* memmem */

#include "bytebuf.h"
#include "input.h"
#include "sgf.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <uv.h>

typedef struct sender {
  uv_loop_t *loop;
  uv_tcp_t tcp;
  uv_connect_t creq;
  uv_write_t wreq;
  uv_shutdown_t sreq;
  uv_timer_t timer;
  bytebuf out, reply;
  size_t at, chunk;
  uint64_t rate, t0;
  uint64_t written; /* bytes the server took */
  size_t wlen;      /* the write's */
  int failed;
} sender;

void help_send(FILE *f) {
  fprintf(f,
          "usage: sgf send [--http] [--rate=BYTES] [--chunk=N] [-v] "
          "HOST:PORT [FILE]...\n"
          "\n"
          "Send the FILEs (or standard input: -, the default) to 'sgf "
          "serve'; a FILE\n"
          "is read as every command reads it (compressed files, archives' "
          ".sgf\n"
          "entries, directories). Raw: all down one connection; --http: one "
          "POST\n"
          "/games per input. The server's answers (raw: its lines; HTTP: "
          "each JSON\n"
          "summary) are printed with -v; the last line says what the server "
          "did:\n"
          "'sent BYTES bytes: STORED stored, QUARANTINED quarantined, FAILED "
          "failed'\n"
          "(failed: games the server could not store, or not keep in its "
          "full\nquarantine).\n"
          "\n"
          "      --http        POST /games instead of the raw protocol\n"
          "      --rate=BYTES  send at most BYTES a second\n"
          "      --chunk=N     bytes per write (default 65536)\n"
          "  -v, --verbose     print the server's answers\n"
          "  -h, --help        show this help\n"
          "\n"
          "Exit status: 0 every game stored; 1 some quarantined, or none "
          "stored; 2 a\ngame failed, the server unreachable or not "
          "answering to the end, an\nunreadable FILE, a usage error; 3 a "
          "FILE that held no SGF input.\n");
}

/* The inputs of the FILEs, read by tools/io: each input's bytes, and
 * where each one begins in them. */
typedef struct inputs {
  bytebuf data;
  bytebuf starts; /* size_t[]: each input's first byte in data */
  int failed;     /* a FILE, or part of one, could not be read */
  int none;       /* a FILE held no SGF input */
} inputs;

static void in_begin(void *ctx, const char *name) {
  inputs *in = ctx;
  size_t at = in->data.len;
  (void)name;
  bytebuf_add(&in->starts, &at, sizeof at);
}

static int in_data(void *ctx, const char *buf, size_t len) {
  inputs *in = ctx;
  bytebuf_add(&in->data, buf, len);
  return 0;
}

static void in_end(void *ctx, const char *name, const char *error) {
  inputs *in = ctx;
  if (error == NULL) return;
  report_failure(name, error);
  in->failed = 1;
}

static void in_fail(void *ctx, const char *name, const char *error) {
  inputs *in = ctx;
  report_failure(name, error);
  in->failed = 1;
}

static void in_none(void *ctx, const char *name, const char *why) {
  inputs *in = ctx;
  report_no_input(name, why);
  in->none = 1;
}

static const input_sink in_sink = {in_begin, in_data, in_end,
                                   in_fail,  in_none, NULL};

static void closed(uv_handle_t *h) { (void)h; }

static void stop(sender *s) {
  if (!uv_is_closing((uv_handle_t *)&s->tcp))
    uv_close((uv_handle_t *)&s->tcp, closed);
  if (!uv_is_closing((uv_handle_t *)&s->timer))
    uv_close((uv_handle_t *)&s->timer, closed);
}

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b) {
  sender *s = h->data;
  (void)hint;
  bytebuf_reserve(&s->reply, 65536);
  *b = uv_buf_init(s->reply.p + s->reply.len,
                   (unsigned)(s->reply.cap - s->reply.len));
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b) {
  sender *s = st->data;
  (void)b;
  if (n > 0) s->reply.len += (size_t)n;
  if (n < 0) {
    if (n != UV_EOF) {
      fprintf(stderr, "sgf: send: read: %s\n", uv_strerror((int)n));
      s->failed = 1;
    }
    stop(s);
  }
}

static void on_shutdown(uv_shutdown_t *req, int status) {
  (void)req;
  (void)status;
}

static void send_more(sender *s);

static void on_timer(uv_timer_t *t) { send_more(t->data); }

static void on_write(uv_write_t *req, int status) {
  sender *s = req->data;
  if (status >= 0) s->written += s->wlen;
  if (status < 0) {
    /* the server stopped reading: what it answers is still read, to
     * its end */
    fprintf(stderr, "sgf: send: write: %s\n", uv_strerror(status));
    s->failed = 1;
    return;
  }
  if (s->rate) {
    uint64_t now = uv_now(s->loop), due = s->t0 + s->at * 1000 / s->rate;
    if (due > now) {
      uv_timer_start(&s->timer, on_timer, due - now, 0);
      return;
    }
  }
  send_more(s);
}

static void send_more(sender *s) {
  size_t n = s->out.len - s->at;
  uv_buf_t b;
  if (n == 0) {
    s->sreq.data = s;
    if (uv_shutdown(&s->sreq, (uv_stream_t *)&s->tcp, on_shutdown) != 0)
      stop(s);
    return;
  }
  if (n > s->chunk) n = s->chunk;
  /* --rate: a tenth of a second's bytes a write, the next one when due */
  if (s->rate && n > s->rate / 10) n = s->rate / 10 ? s->rate / 10 : 1;
  b = uv_buf_init(s->out.p + s->at, (unsigned)n);
  s->wlen = n;
  s->at += n;
  s->wreq.data = s;
  if (uv_write(&s->wreq, (uv_stream_t *)&s->tcp, &b, 1, on_write) != 0) {
    s->failed = 1;
    stop(s);
  }
}

static void on_connect(uv_connect_t *req, int status) {
  sender *s = req->data;
  if (status < 0) {
    fprintf(stderr, "sgf: send: connect: %s\n", uv_strerror(status));
    s->failed = 1;
    stop(s);
    return;
  }
  uv_read_start((uv_stream_t *)&s->tcp, on_alloc, on_read);
  s->t0 = uv_now(s->loop);
  send_more(s);
}

/* One connection: send s->out, read the answer into s->reply. */
static int exchange(sender *s, const struct sockaddr *addr) {
  s->at = 0;
  s->written = 0;
  s->reply.len = 0;
  uv_tcp_init(s->loop, &s->tcp);
  uv_timer_init(s->loop, &s->timer);
  s->tcp.data = s->timer.data = s->creq.data = s;
  if (uv_tcp_connect(&s->creq, &s->tcp, addr, on_connect) != 0) {
    fprintf(stderr, "sgf: send: cannot connect\n");
    stop(s);
    s->failed = 1;
  }
  uv_run(s->loop, UV_RUN_DEFAULT);
  return s->failed ? -1 : 0;
}

static int resolve(const char *hostport, struct sockaddr_storage *ss) {
  char host[256];
  const char *colon = strrchr(hostport, ':');
  size_t n;
  uv_getaddrinfo_t req;
  struct addrinfo hints;
  if (colon == NULL || colon[1] == '\0') return -1;
  n = (size_t)(colon - hostport);
  if (n >= 2 && hostport[0] == '[' && hostport[n - 1] == ']') {
    hostport++;
    n -= 2;
  }
  if (n == 0 || n >= sizeof host) return -1;
  memcpy(host, hostport, n);
  host[n] = '\0';
  memset(&hints, 0, sizeof hints);
  hints.ai_socktype = SOCK_STREAM;
  if (uv_getaddrinfo(uv_default_loop(), &req, NULL, host, colon + 1, &hints))
    return -1;
  memcpy(ss, req.addrinfo->ai_addr, req.addrinfo->ai_addrlen);
  uv_freeaddrinfo(req.addrinfo);
  return 0;
}

/* What the server said it did: counts of games. */
typedef struct tally_t {
  uint64_t stored, quar, failed;
} tally_t;

/* A number after key in the summary, or 0. */
static uint64_t json_count(const char *p, const char *key) {
  const char *a = strstr(p, key);
  return a ? strtoull(a + strlen(key), NULL, 10) : 0;
}

/* Count the answer: raw lines (stored, quarantined, failed, dropped), or
 * the summary's counts. Returns -1 when the answer is not a summary
 * (HTTP) or has no "done" line (raw): the server did not finish. */
static int tally(const bytebuf *r, int http, tally_t *t) {
  const char *p = r->p, *end = r->p + r->len;
  int done = 0;
  if (r->len == 0) return -1;
  if (http) {
    if (strstr(p, "\"stored\":") == NULL) return -1;
    t->stored += json_count(p, "\"stored\":");
    t->quar += json_count(p, "\"quarantined\":");
    t->failed += json_count(p, "\"failed\":") + json_count(p, "\"dropped\":");
    return 0;
  }
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n;
    if (nl == NULL) nl = end;
    n = (size_t)(nl - p);
    if (n > 7 && memcmp(p, "stored ", 7) == 0) t->stored++;
    if (n > 12 && memcmp(p, "quarantined ", 12) == 0) t->quar++;
    if (n > 7 && memcmp(p, "failed ", 7) == 0) t->failed++;
    if (n > 8 && memcmp(p, "dropped ", 8) == 0) t->failed++;
    if (n > 5 && memcmp(p, "done ", 5) == 0) done = 1;
    p = nl + 1;
  }
  return done ? 0 : -1;
}

int cmd_send(int argc, char **argv) {
  static const struct option longopts[] = {
      {"http", no_argument, NULL, 'H'},
      {"rate", required_argument, NULL, 'r'},
      {"chunk", required_argument, NULL, 'c'},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  static char *stdin_only[] = {"-", NULL};
  sender s;
  inputs in;
  input_reader *rd;
  tally_t t = {0, 0, 0};
  struct sockaddr_storage ss;
  char **files;
  char *end;
  size_t k, ninputs, hdr;
  uint64_t sent = 0;
  int nfiles, ch, i, http = 0, verbose = 0, status = EXIT_CLEAN;
  memset(&s, 0, sizeof s);
  s.chunk = 65536;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":vh", longopts, NULL)) != -1) {
    switch (ch) {
      case 'H':
        http = 1;
        break;
      case 'v':
        verbose = 1;
        break;
      case 'r':
        s.rate = strtoull(optarg, &end, 10);
        if (optarg[0] < '0' || optarg[0] > '9' || *end != '\0') {
          fprintf(stderr,
                  "sgf: send: invalid --rate '%s' (bytes a second)\n"
                  "Try 'sgf send --help'.\n",
                  optarg);
          return EXIT_TROUBLE;
        }
        break;
      case 'c':
        if (parse_chunk("send", optarg, &s.chunk) != 0) return EXIT_TROUBLE;
        break;
      case 'h':
        help_send(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("send", ch, argv);
    }
  }
  if (optind >= argc) {
    fprintf(stderr, "sgf: send: HOST:PORT missing\nTry 'sgf send --help'.\n");
    return EXIT_TROUBLE;
  }
  memset(&ss, 0, sizeof ss);
  if (resolve(argv[optind], &ss) != 0) {
    fprintf(stderr, "sgf: send: cannot resolve '%s' (HOST:PORT)\n",
            argv[optind]);
    return EXIT_TROUBLE;
  }
  files = optind + 1 < argc ? argv + optind + 1 : stdin_only;
  nfiles = optind + 1 < argc ? argc - optind - 1 : 1;
  signal(SIGPIPE, SIG_IGN);
  memset(&in, 0, sizeof in);
  bytebuf_init(&in.data);
  bytebuf_init(&in.starts);
  if ((rd = input_reader_create(0)) == NULL) {
    fprintf(stderr, "sgf: send: out of memory\n");
    return EXIT_TROUBLE;
  }
  for (i = 0; i < nfiles; i++) input_read(rd, files[i], &in_sink, &in);
  input_reader_destroy(rd);
  if (in.failed) status = EXIT_TROUBLE;
  ninputs = in.starts.len / sizeof(size_t);
  s.loop = uv_default_loop();
  bytebuf_init(&s.out);
  bytebuf_init(&s.reply);
  if (http) {
    for (k = 0; k < ninputs; k++) {
      size_t from = ((size_t *)in.starts.p)[k];
      size_t to =
          k + 1 < ninputs ? ((size_t *)in.starts.p)[k + 1] : in.data.len;
      s.out.len = 0;
      bytebuf_addf(&s.out,
                   "POST /games HTTP/1.1\r\nHost: %s\r\n"
                   "Content-Type: application/x-go-sgf\r\n"
                   "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                   argv[optind], to - from);
      bytebuf_add(&s.out, in.data.p + from, to - from);
      if (exchange(&s, (const struct sockaddr *)&ss) != 0)
        status = EXIT_TROUBLE;
      if (verbose) fwrite(s.reply.p, 1, s.reply.len, stdout);
      {
        char *b =
            s.reply.len ? memmem(s.reply.p, s.reply.len, "\r\n\r\n", 4) : NULL;
        bytebuf tail;
        bytebuf_add(&s.reply, "", 1); /* NUL for strstr */
        tail.p = b ? b + 4 : s.reply.p;
        tail.len = b ? s.reply.len - 1 - (size_t)(b + 4 - s.reply.p) : 0;
        if (s.reply.len < 13 || memcmp(s.reply.p + 8, " 200 ", 5) != 0 ||
            tally(&tail, 1, &t) != 0) {
          if (!s.failed)
            fprintf(stderr,
                    "sgf: send: POST %zu: no summary from the server%s\n",
                    k + 1, b ? ": it answered" : "");
          if (b && !verbose) fwrite(tail.p, 1, tail.len, stderr);
          status = EXIT_TROUBLE;
        }
      }
      /* the bytes of games that went, not the headers */
      hdr = s.out.len - (to - from);
      sent += s.written > hdr ? s.written - hdr : 0;
    }
  } else if (ninputs > 0) {
    bytebuf_add(&s.out, in.data.p, in.data.len);
    if (exchange(&s, (const struct sockaddr *)&ss) != 0) status = EXIT_TROUBLE;
    if (verbose) fwrite(s.reply.p, 1, s.reply.len, stdout);
    if (tally(&s.reply, 0, &t) != 0) {
      if (!s.failed)
        fprintf(stderr, "sgf: send: the server did not finish the stream\n");
      status = EXIT_TROUBLE; /* no "done": not all was answered */
    }
    sent = s.written;
  }
  printf("sent %" PRIu64 " bytes: %" PRIu64 " stored, %" PRIu64
         " quarantined, %" PRIu64 " failed\n",
         sent, t.stored, t.quar, t.failed);
  bytebuf_free(&s.out);
  bytebuf_free(&s.reply);
  bytebuf_free(&in.data);
  bytebuf_free(&in.starts);
  if (t.failed > 0) status = EXIT_TROUBLE;
  if (in.none) status = exit_worse(status, EXIT_NO_INPUT);
  if (t.quar > 0 || t.stored == 0) status = exit_worse(status, EXIT_WARNINGS);
  return finish_output(status);
}
