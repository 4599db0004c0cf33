/* stream.c - the pause path of the tool's input loop (tools/io/
 * stream.h): when the consumer pauses, reading stops; after resume every
 * byte arrives exactly once, in order; and a parser that pauses at every
 * event logs what one that never pauses logs. For a pipe (uv_pipe), a
 * socketpair, and a file read with callbacks, in place, and ahead.
 *
 * A paused source is left paused for several turns of the loop (an idle
 * handle counts them) while the other end is readable (the whole input is
 * written before the loop runs, the writing end closed), so a source that
 * went on reading would be seen reading: its read count would move, or
 * more than one buffer would be read past what the consumer took.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <uv.h>

#include <sgfstream.h>

#include "eventlog.h"
#include "stream.h"

#define CAP 97  /* an odd, small buffer: many reads, events cut across them */
#define TURNS 3 /* loop turns a pause lasts */

/* ------------------------------------------------------------ input */

static char *input;
static size_t input_len;

static void make_input(void) {
  size_t cap = 16384, n = 0;
  int g, m;
  input = malloc(cap);
  assert_non_null(input);
  for (g = 0; g < 12; g++) {
    n += (size_t)snprintf(input + n, cap - n,
                          "(;FF[4]GM[1]SZ[19]PB[Black %d]C[game %d\\]\n"
                          "second line]",
                          g, g);
    for (m = 0; m < 30; m++)
      n += (size_t)snprintf(input + n, cap - n, ";%c[%c%c]", m % 2 ? 'W' : 'B',
                            'a' + (g + m) % 19, 'a' + (3 * m) % 19);
    n += (size_t)snprintf(input + n, cap - n,
                          "(;B[aa]C[a];W[bb])(;B[cc])"
                          ")\n");
  }
  input_len = n;
  assert_true(input_len < 16384 && input_len > 8 * CAP);
}

/* ------------------------------------------------------------ consumers */

typedef struct consumer {
  io_source *src;
  uv_idle_t idle;
  int pausing; /* pause: 0 never, 1 after every byte, 2 at every event */
  int paused, ended, status;
  int turns;
  long reads_at_pause, issued_at_pause;
  int64_t consumed; /* bytes taken by the consumer */
  long pauses;
  /* what arrived (mode 0, 1) */
  char *got;
  size_t got_len;
  /* the parser and its log (mode 2, and 0 with a parser) */
  sgf_parser *p;
  evlog log;
  char *out;
  size_t out_len, out_cap;
} consumer;

static void log_write(void *ctx, const char *line, size_t len) {
  consumer *c = ctx;
  if (c->out_len + len > c->out_cap) {
    c->out_cap = 2 * (c->out_len + len);
    c->out = realloc(c->out, c->out_cap);
    assert_non_null(c->out);
  }
  memcpy(c->out + c->out_len, line, len);
  c->out_len += len;
}

static void on_idle(uv_idle_t *h) {
  consumer *c = h->data;
  if (++c->turns < TURNS) return; /* stay paused while the loop polls */
  /* Nothing was read (or, reading ahead, asked for) while paused, and no
   * more than one buffer was read past what the consumer took (two when
   * reading ahead: the read in flight when it paused is held). */
  assert_int_equal(c->src->reads, c->reads_at_pause);
  assert_int_equal(c->src->issued, c->issued_at_pause);
  assert_true(c->src->bytes - c->consumed <= CAP);
  if (c->src->held)
    assert_true(c->src->bytes + c->src->held_n - c->consumed <= 2 * CAP);
  uv_idle_stop(h);
  c->paused = 0;
  if (c->p != NULL) {
    c->log.action_at = c->log.count; /* pause at the next event too */
    sgf_parser_resume(c->p);
  }
  io_source_resume(c->src);
}

static int pause_now(consumer *c) {
  c->paused = 1;
  c->pauses++;
  c->turns = 0;
  c->reads_at_pause = c->src->reads;
  c->issued_at_pause = c->src->issued;
  uv_idle_start(&c->idle, on_idle);
  return IO_PAUSE;
}

static int c_data(void *ctx, const char *buf, size_t len, size_t *used) {
  consumer *c = ctx;
  assert_false(c->paused); /* nothing arrives while paused */
  assert_false(c->ended);
  if (c->p != NULL) {
    size_t n = 0;
    int st = sgf_parser_feed(c->p, buf, len, &n);
    c->consumed += (int64_t)n;
    if (st == SGF_PAUSED) {
      *used = n;
      return pause_now(c);
    }
    assert_int_equal(st, SGF_OK);
    assert_int_equal(n, len);
    return IO_GO;
  }
  if (c->pausing == 1) {
    len = 1;
    *used = 1;
  }
  memcpy(c->got + c->got_len, buf, len);
  c->got_len += len;
  c->consumed += (int64_t)len;
  return c->pausing == 1 ? pause_now(c) : IO_GO;
}

static void c_end(void *ctx, int status) {
  consumer *c = ctx;
  assert_false(c->ended);
  c->ended = 1;
  c->status = status;
  if (c->p != NULL) {
    int st;
    while ((st = sgf_parser_finish(c->p)) == SGF_PAUSED) {
      c->log.action_at = c->log.count;
      sgf_parser_resume(c->p);
    }
    evlog_flush(&c->log);
  }
}

static const io_source_ops c_ops = {c_data, c_end};

static void consumer_init(consumer *c, uv_loop_t *loop, io_source *src,
                          int pausing, int parse) {
  memset(c, 0, sizeof *c);
  c->src = src;
  c->pausing = pausing;
  assert_int_equal(uv_idle_init(loop, &c->idle), 0);
  c->idle.data = c;
  c->got = malloc(input_len + 1);
  assert_non_null(c->got);
  if (parse) {
    sgf_callbacks cb;
    sgf_callbacks_init(&cb);
    evlog_init(&c->log, log_write, c);
    evlog_callbacks(&cb);
    c->p = sgf_parser_create(&cb, &c->log, NULL);
    assert_non_null(c->p);
    if (pausing) {
      c->log.action = SGF_PAUSE;
      c->log.action_at = 0;
    }
  }
}

/* (the idle handle is closed by run()) */
static void consumer_free(consumer *c) {
  if (c->p != NULL) {
    sgf_parser_destroy(c->p);
    evlog_free(&c->log);
  }
  free(c->got);
  free(c->out);
}

/* ------------------------------------------------------------ sources */

enum { K_PIPE, K_SOCKETPAIR, K_FILE, K_FILE_INLINE, K_FILE_AHEAD };

static void write_all(int fd, const char *b, size_t n) {
  while (n > 0) {
    ssize_t k = write(fd, b, n);
    assert_true(k > 0);
    b += k;
    n -= (size_t)k;
  }
}

/* Run one consumer over the input through a source of the given kind. */
static void run(int kind, consumer *c, int pausing, int parse) {
  uv_loop_t loop;
  io_source src;
  uv_pipe_t pipe;
  char buf[CAP], buf2[CAP];
  uv_file fds[2] = {-1, -1};
  char path[] = "/tmp/test_stream.XXXXXX";
  assert_int_equal(uv_loop_init(&loop), 0);
  consumer_init(c, &loop, &src, pausing, parse);
  switch (kind) {
    case K_PIPE:
    case K_SOCKETPAIR:
      if (kind == K_PIPE)
        assert_int_equal(uv_pipe(fds, 0, 0), 0);
      else
        assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
      /* the whole input waits in the pipe: always readable */
      write_all(fds[1], input, input_len);
      close(fds[1]);
      assert_int_equal(uv_pipe_init(&loop, &pipe, 0), 0);
      assert_int_equal(uv_pipe_open(&pipe, fds[0]), 0);
      io_source_stream(&src, &loop, (uv_stream_t *)&pipe, buf, CAP, &c_ops, c);
      break;
    default:
      fds[0] = mkstemp(path);
      assert_true(fds[0] >= 0);
      unlink(path);
      write_all(fds[0], input, input_len);
      io_source_file(&src, &loop, fds[0], 0,
                     kind == K_FILE_INLINE ? IO_SOURCE_INLINE : 0, buf, CAP,
                     &c_ops, c);
      if (kind == K_FILE_AHEAD) io_source_readahead(&src, buf2);
      break;
  }
  assert_int_equal(io_source_start(&src), 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  assert_true(c->ended);
  assert_int_equal(c->status, 0);
  assert_true(io_source_ended(&src));
  assert_int_equal(src.bytes, (int64_t)input_len);
  if (kind == K_PIPE || kind == K_SOCKETPAIR)
    uv_close((uv_handle_t *)&pipe, NULL);
  else
    close(fds[0]);
  uv_close((uv_handle_t *)&c->idle, NULL);
  uv_run(&loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(&loop), 0);
}

/* ------------------------------------------------------------ tests */

static const char *kind_name[] = {"pipe", "socketpair", "file",
                                  "file read in place", "file read ahead"};

/* Pausing after every byte: every byte exactly once, in order, and the
 * source paused once a byte. */
static void test_bytes(void **state) {
  int kind;
  (void)state;
  for (kind = K_PIPE; kind <= K_FILE_AHEAD; kind++) {
    consumer c;
    print_message("%s\n", kind_name[kind]);
    run(kind, &c, 1, 0);
    assert_int_equal(c.got_len, input_len);
    assert_memory_equal(c.got, input, input_len);
    assert_int_equal(c.pauses, (long)input_len);
    consumer_free(&c);
  }
}

/* A parser pausing at every event logs what one that never pauses logs;
 * both log what the parser logs given the whole input at once. */
static void test_events(void **state) {
  consumer whole;
  sgf_callbacks cb;
  size_t n = 0;
  int kind;
  (void)state;
  memset(&whole, 0, sizeof whole);
  sgf_callbacks_init(&cb);
  evlog_init(&whole.log, log_write, &whole);
  evlog_callbacks(&cb);
  whole.p = sgf_parser_create(&cb, &whole.log, NULL);
  assert_non_null(whole.p);
  assert_int_equal(sgf_parser_feed(whole.p, input, input_len, &n), SGF_OK);
  assert_int_equal(sgf_parser_finish(whole.p), SGF_OK);
  evlog_flush(&whole.log);
  assert_true(whole.out_len > 0);
  for (kind = K_PIPE; kind <= K_FILE_AHEAD; kind++) {
    consumer never, every;
    print_message("%s\n", kind_name[kind]);
    run(kind, &never, 0, 1);
    run(kind, &every, 2, 1);
    assert_int_equal(never.pauses, 0);
    /* one pause an event, diagnostics aside (they cannot pause) */
    assert_true(every.pauses > 1000);
    assert_int_equal(never.out_len, whole.out_len);
    assert_memory_equal(never.out, whole.out, whole.out_len);
    assert_int_equal(every.out_len, whole.out_len);
    assert_memory_equal(every.out, whole.out, whole.out_len);
    consumer_free(&never);
    consumer_free(&every);
  }
  consumer_free(&whole);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bytes),
      cmocka_unit_test(test_events),
  };
  make_input();
  return cmocka_run_group_tests(tests, NULL, NULL);
}
