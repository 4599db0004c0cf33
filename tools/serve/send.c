/* send.c - `sgf send HOST:PORT FILE...`: stream files (or standard input)
 * to `sgf serve`, raw or as HTTP POSTs, at a chosen rate and write size
 * (for testing), and report what the server acknowledged.
 *
 * Raw: all FILEs go, one after another, down one connection, then the
 * write side is shut down and the server's answer lines are read to the
 * end (raw.c lists them). HTTP: one connection and one POST /games per
 * FILE (Connection: close); the JSON summary is printed as it came.
 * What goes is read whole first (a tool for tests and benchmarks: the
 * files are small next to memory), then written chunk by chunk.
 */
#define _GNU_SOURCE /* memmem */

#include "bytebuf.h"
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
  int failed;
} sender;

void help_send(FILE *f) {
  fprintf(f,
          "usage: sgf send [--http] [--rate=BYTES] [--chunk=N] [-v] "
          "HOST:PORT [FILE]...\n"
          "\n"
          "Send the FILEs (or standard input: -, the default) to 'sgf "
          "serve'.\n"
          "Raw: all down one connection; --http: one POST /games per FILE. "
          "The\n"
          "server's answers (raw: its lines; HTTP: each JSON summary) are "
          "printed\n"
          "with -v; the last line says what the server acknowledged:\n"
          "'sent BYTES bytes: STORED stored, QUARANTINED quarantined'.\n"
          "\n"
          "      --http        POST /games instead of the raw protocol\n"
          "      --rate=BYTES  send at most BYTES a second\n"
          "      --chunk=N     bytes per write (default 65536)\n"
          "  -v, --verbose     print the server's answers\n"
          "  -h, --help        show this help\n"
          "\n"
          "Exit status: 0 every game stored, 1 some quarantined or none "
          "sent, 2\nerrors.\n");
}

/* The whole of a file (or - : standard input), appended to b. */
static int slurp(const char *name, bytebuf *b) {
  int fd = strcmp(name, "-") == 0 ? 0 : open(name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    fprintf(stderr, "sgf: send: %s: %s\n", name, strerror(errno));
    return -1;
  }
  for (;;) {
    uv_fs_t r;
    uv_buf_t u;
    ssize_t n;
    bytebuf_reserve(b, 65536);
    u = uv_buf_init(b->p + b->len, (unsigned)(b->cap - b->len));
    n = uv_fs_read(NULL, &r, fd, &u, 1, -1, NULL);
    uv_fs_req_cleanup(&r);
    if (n == 0) break;
    if (n < 0) {
      fprintf(stderr, "sgf: send: %s: %s\n", name, uv_strerror((int)n));
      if (fd > 0) close(fd);
      return -1;
    }
    b->len += (size_t)n;
  }
  if (fd > 0) close(fd);
  return 0;
}

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
  b = uv_buf_init(s->out.p + s->at, (unsigned)n);
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

/* Count "stored" and "quarantined" in the answer: raw lines, or the
 * summary's "stored":N and "quarantined":N. */
static void tally(const bytebuf *r, int http, uint64_t *st, uint64_t *q) {
  const char *p = r->p, *end = r->p + r->len;
  if (r->len == 0) return;
  if (http) {
    const char *a = strstr(p, "\"stored\":"),
               *b = strstr(p, "\"quarantined\":");
    if (a) *st += strtoull(a + 9, NULL, 10);
    if (b) *q += strtoull(b + 14, NULL, 10);
    return;
  }
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (nl == NULL) nl = end;
    if (nl - p > 7 && memcmp(p, "stored ", 7) == 0) (*st)++;
    if (nl - p > 12 && memcmp(p, "quarantined ", 12) == 0) (*q)++;
    p = nl + 1;
  }
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
  struct sockaddr_storage ss;
  char **files;
  int nfiles, ch, i, http = 0, verbose = 0, status = EXIT_CLEAN;
  uint64_t stored = 0, quar = 0, sent = 0;
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
        s.rate = strtoull(optarg, NULL, 10);
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
  s.loop = uv_default_loop();
  bytebuf_init(&s.out);
  bytebuf_init(&s.reply);
  for (i = 0; i < nfiles; i++) {
    if (http) {
      bytebuf body;
      bytebuf_init(&body);
      if (slurp(files[i], &body) != 0) {
        status = EXIT_TROUBLE;
        bytebuf_free(&body);
        continue;
      }
      s.out.len = 0;
      bytebuf_addf(&s.out,
                   "POST /games HTTP/1.1\r\nHost: %s\r\n"
                   "Content-Type: application/x-go-sgf\r\n"
                   "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                   argv[optind], body.len);
      bytebuf_add(&s.out, body.p, body.len);
      sent += body.len;
      bytebuf_free(&body);
      if (exchange(&s, (const struct sockaddr *)&ss) != 0)
        status = EXIT_TROUBLE;
      if (verbose) fwrite(s.reply.p, 1, s.reply.len, stdout);
      {
        char *b =
            s.reply.len ? memmem(s.reply.p, s.reply.len, "\r\n\r\n", 4) : NULL;
        bytebuf tail;
        tail.p = b ? b + 4 : s.reply.p;
        tail.len = b ? s.reply.len - (size_t)(b + 4 - s.reply.p) : 0;
        bytebuf_add(&s.reply, "", 1); /* NUL for strstr */
        tally(&tail, 1, &stored, &quar);
      }
    } else if (slurp(files[i], &s.out) != 0) {
      status = EXIT_TROUBLE;
    }
  }
  if (!http) {
    sent = s.out.len;
    if (exchange(&s, (const struct sockaddr *)&ss) != 0) status = EXIT_TROUBLE;
    if (verbose) fwrite(s.reply.p, 1, s.reply.len, stdout);
    tally(&s.reply, 0, &stored, &quar);
    if (s.reply.len < 5 || memcmp(s.reply.p + s.reply.len - 5, "done", 4) != 0)
      if (!(s.reply.len >= 1 && memmem(s.reply.p, s.reply.len, "done ", 5)))
        status = EXIT_TROUBLE; /* the server did not finish the stream */
  }
  printf("sent %" PRIu64 " bytes: %" PRIu64 " stored, %" PRIu64
         " quarantined\n",
         sent, stored, quar);
  bytebuf_free(&s.out);
  bytebuf_free(&s.reply);
  if (status == EXIT_CLEAN && (quar > 0 || stored == 0)) status = EXIT_WARNINGS;
  return finish_output(status);
}
