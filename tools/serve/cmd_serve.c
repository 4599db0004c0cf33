/* cmd_serve.c - `sgf serve`: options (the server is server.c). */
#define _POSIX_C_SOURCE 200809L

#include "server.h"
#include "sgf.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define DEFAULT_LISTEN "127.0.0.1:7017"

void help_serve(FILE *f) {
  fprintf(f,
          "usage: sgf serve [--listen=ADDR:PORT] [--http=ADDR:PORT]\n"
          "                 [--dir=DIR | --jsonl=FILE | --out=FILE] [--fmt] "
          "[--strict]\n"
          "                 [--quarantine=DIR] [--log=FILE] [--threads=N] "
          "[LIMITS]\n"
          "\n"
          "Receive SGF games over the network and store every complete "
          "game.\n"
          "Raw TCP: each connection is a stream of games; the server "
          "answers a\n"
          "line per game (stored INDEX OFFSET LENGTH, quarantined OFFSET "
          "LENGTH\n"
          "REASON) and 'done STORED QUARANTINED' before it closes. HTTP/1.1: "
          "POST\n"
          "/games (a body of games) answers a JSON summary; GET /health, "
          "GET /stats.\n"
          "An HTTP request on the raw port is served as HTTP.\n"
          "\n"
          "      --listen=ADDR:PORT  raw TCP (default " DEFAULT_LISTEN
          ", unless only\n"
          "                          --http is given); [::1]:PORT for IPv6\n"
          "      --http=ADDR:PORT    HTTP/1.1 on another port\n"
          "      --dir=DIR           one file per game in DIR (written, "
          "fsync'd,\n"
          "                          renamed)\n"
          "      --jsonl=FILE        one line of `sgf json` per game "
          "(- : stdout)\n"
          "      --out=FILE          the games as SGF, one after another "
          "(default:\n"
          "                          stdout)\n"
          "      --fmt               store games normalized (as sgf fmt) "
          "instead of\n"
          "                          byte-exact\n"
          "  -s, --strict            refuse damaged games (quarantined)\n"
          "      --quarantine=DIR    incomplete and refused games (default "
          "'quarantine')\n"
          "      --max-quarantine=N  bytes the quarantine may hold; past "
          "them a game\n"
          "                          is dropped (said, logged; default 64M)\n"
          "      --log=FILE          the log (default stderr); SIGHUP "
          "reopens it\n"
          "      --no-fsync          --out/--jsonl: acknowledge a batch once "
          "written,\n"
          "                          not fdatasync'd (survives the "
          "server's crash,\n"
          "                          not the machine's)\n"
          "      --log-games         a log line per game stored (default: "
          "a summary\n"
          "                          line every 10 s while games come)\n"
          "      --threads=N         threads parsing raw connections "
          "(default: the\n"
          "                          number of CPUs; 1: one loop does "
          "everything)\n"
          "Limits (K, M, G suffixes; 0: none):\n"
          "      --max-connections=N  (default 1024)\n"
          "      --max-game-bytes=N   (default 16M)\n"
          "      --max-games=N        games per connection or POST (default "
          "0)\n"
          "      --idle-timeout=SECS  (default 60; also how long a client "
          "that does\n"
          "                           not read its answers is kept)\n"
          "      --header-timeout=SECS  an HTTP request's headers, whole "
          "(default 10)\n"
          "      --min-body-rate=N    an HTTP body's bytes a second, after "
          "5 s\n"
          "                           (default 1K)\n"
          "      --drain-timeout=SECS  SIGTERM: what has not drained then is "
          "closed\n"
          "                           (default 10)\n"
          "      --max-memory=N       bytes held by connections and the "
          "sink\n"
          "                           (default 256M)\n"
          "      --sink-buffer=N      sink backlog before readers pause "
          "(default 4M;\n"
          "                           0: the default)\n"
          "  -h, --help              show this help\n"
          "\n"
          "A game is acknowledged exactly when it is durably in the sink "
          "(written\nand fsync'd); a POST's games are stored only once its "
          "body is whole.\n"
          "SIGINT, SIGTERM: stop accepting, finish or quarantine what is in "
          "flight\n(what has not drained by --drain-timeout is closed). "
          "SIGHUP: reopen the log\nand the sink's file.\n"
          "\n"
          "Exit status: 0 stopped by a signal, every game stored; 2 a usage "
          "error, a\nsink or port that could not be opened, a game the "
          "sink failed to store, or\na sink that still could not write a "
          "second after --drain-timeout.\nSee sgf(1).\n");
}

/* Seconds into milliseconds. 0 or -1. */
static int parse_secs(const char *opt, const char *arg, uint64_t *ms) {
  uint64_t v;
  if (parse_size("serve", opt, arg, &v) != 0) return -1;
  if (v > UINT64_MAX / 1000) v = UINT64_MAX / 1000;
  *ms = v * 1000;
  return 0;
}

/* As many descriptors as the hard limit allows (10,000 connections). */
static void raise_nofile(void) {
  struct rlimit r;
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

int cmd_serve(int argc, char **argv) {
  enum {
    OPT_LISTEN = OPT_LONG_BASE,
    OPT_HTTP,
    OPT_DIR,
    OPT_JSONL,
    OPT_OUT,
    OPT_FMT,
    OPT_QUAR,
    OPT_MAXQUAR,
    OPT_LOG,
    OPT_MAXCONN,
    OPT_MAXGAME,
    OPT_MAXGAMES,
    OPT_IDLE,
    OPT_MAXMEM,
    OPT_SINKBUF,
    OPT_THREADS,
    OPT_LOGGAMES,
    OPT_NOFSYNC,
    OPT_HEADER,
    OPT_MINRATE,
    OPT_DRAIN
  };
  static const struct option longopts[] = {
      {"listen", required_argument, NULL, OPT_LISTEN},
      {"http", required_argument, NULL, OPT_HTTP},
      {"dir", required_argument, NULL, OPT_DIR},
      {"jsonl", required_argument, NULL, OPT_JSONL},
      {"out", required_argument, NULL, OPT_OUT},
      {"fmt", no_argument, NULL, OPT_FMT},
      {"strict", no_argument, NULL, 's'},
      {"quarantine", required_argument, NULL, OPT_QUAR},
      {"max-quarantine", required_argument, NULL, OPT_MAXQUAR},
      {"log", required_argument, NULL, OPT_LOG},
      {"max-connections", required_argument, NULL, OPT_MAXCONN},
      {"max-game-bytes", required_argument, NULL, OPT_MAXGAME},
      {"max-games", required_argument, NULL, OPT_MAXGAMES},
      {"idle-timeout", required_argument, NULL, OPT_IDLE},
      {"max-memory", required_argument, NULL, OPT_MAXMEM},
      {"sink-buffer", required_argument, NULL, OPT_SINKBUF},
      {"threads", required_argument, NULL, OPT_THREADS},
      {"log-games", no_argument, NULL, OPT_LOGGAMES},
      {"no-fsync", no_argument, NULL, OPT_NOFSYNC},
      {"header-timeout", required_argument, NULL, OPT_HEADER},
      {"min-body-rate", required_argument, NULL, OPT_MINRATE},
      {"drain-timeout", required_argument, NULL, OPT_DRAIN},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  server_opts o;
  uint64_t v;
  int ch, bad = 0;
  memset(&o, 0, sizeof o);
  o.sink_kind = SINK_STREAM;
  o.quarantine = "quarantine";
  o.max_conn = 1024;
  o.max_game_bytes = 16u << 20;
  o.idle_ms = 60000;
  o.header_ms = 10000;
  o.min_rate = 1024;
  o.drain_ms = 10000;
  o.max_memory = 256u << 20;
  o.max_quarantine = 64u << 20;
  o.threads = uv_available_parallelism();
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":sh", longopts, NULL)) != -1) {
    switch (ch) {
      case OPT_LISTEN:
        o.listen = optarg;
        break;
      case OPT_HTTP:
        o.http = optarg;
        break;
      case OPT_DIR:
        o.sink_kind = SINK_DIR;
        o.sink_path = optarg;
        break;
      case OPT_JSONL:
        o.sink_kind = SINK_JSONL;
        o.sink_path = strcmp(optarg, "-") == 0 ? NULL : optarg;
        break;
      case OPT_OUT:
        o.sink_kind = SINK_STREAM;
        o.sink_path = strcmp(optarg, "-") == 0 ? NULL : optarg;
        break;
      case OPT_FMT:
        o.fmt = 1;
        break;
      case 's':
        o.strict = 1;
        break;
      case OPT_QUAR:
        o.quarantine = optarg;
        break;
      case OPT_MAXQUAR:
        bad |=
            parse_size("serve", "--max-quarantine", optarg, &o.max_quarantine);
        break;
      case OPT_LOG:
        o.log = optarg;
        break;
      case OPT_MAXCONN:
        bad |= parse_size("serve", "--max-connections", optarg, &v);
        o.max_conn = (unsigned)v;
        break;
      case OPT_MAXGAME:
        bad |=
            parse_size("serve", "--max-game-bytes", optarg, &o.max_game_bytes);
        break;
      case OPT_MAXGAMES:
        bad |= parse_size("serve", "--max-games", optarg, &o.max_games);
        break;
      case OPT_IDLE:
        bad |= parse_secs("--idle-timeout", optarg, &o.idle_ms);
        break;
      case OPT_LOGGAMES:
        o.log_games = 1;
        break;
      case OPT_NOFSYNC:
        o.no_fsync = 1;
        break;
      case OPT_HEADER:
        bad |= parse_secs("--header-timeout", optarg, &o.header_ms);
        break;
      case OPT_MINRATE:
        bad |= parse_size("serve", "--min-body-rate", optarg, &o.min_rate);
        break;
      case OPT_DRAIN:
        bad |= parse_secs("--drain-timeout", optarg, &o.drain_ms);
        break;
      case OPT_MAXMEM:
        bad |= parse_size("serve", "--max-memory", optarg, &o.max_memory);
        break;
      case OPT_SINKBUF:
        bad |= parse_size("serve", "--sink-buffer", optarg, &v);
        o.sink_high = (size_t)v;
        break;
      case OPT_THREADS:
        bad |= parse_size("serve", "--threads", optarg, &v);
        if (!bad && (v < 1 || v > 256)) {
          fprintf(stderr,
                  "sgf: serve: --threads: '%s' is not from 1 to 256\n"
                  "Try 'sgf serve --help'.\n",
                  optarg);
          return EXIT_TROUBLE;
        }
        o.threads = (unsigned)v;
        break;
      case 'h':
        help_serve(stdout);
        return finish_output(EXIT_CLEAN);
      default:
        return option_error("serve", ch, argv);
    }
    if (bad) return EXIT_TROUBLE;
  }
  if (optind < argc) {
    fprintf(stderr,
            "sgf: serve: unexpected argument '%s'\n"
            "Try 'sgf serve --help'.\n",
            argv[optind]);
    return EXIT_TROUBLE;
  }
  if (o.listen == NULL && o.http == NULL) o.listen = DEFAULT_LISTEN;
  raise_nofile();
  signal(SIGPIPE, SIG_IGN);
  return server_run(&o) == 0 ? EXIT_CLEAN : EXIT_TROUBLE;
}
