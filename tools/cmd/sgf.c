/* sgf.c - the sgf command: global options and dispatch to subcommands. */
#define _POSIX_C_SOURCE 200809L

#include "progress.h"
#include "sgf.h"
#include "rewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct command {
  const char *name;
  const char *summary;
  int (*run)(int argc, char **argv);
  void (*help)(FILE *f);
} command;

static int cmd_help(int argc, char **argv);
static void help_help(FILE *f);

static const command commands[] = {
    {"check", "report problems in SGF files", cmd_check, help_check},
    {"stats", "count games, nodes, moves... and measure speed", cmd_stats,
     help_stats},
    {"events", "print the parser's event log", cmd_events, help_events},
    {"json", "write each game as a line of JSON", cmd_json, help_json},
    {"fmt", "rewrite SGF files normalized (valid FF[4])", cmd_fmt, help_fmt},
    {"mainline", "keep only the main line of each game", cmd_mainline,
     help_mainline},
    {"split", "write each game of a collection to its own file", cmd_split,
     help_split},
    {"filter", "select games by game information and moves", cmd_filter,
     help_filter},
#ifdef SGF_WITH_SERVE
    {"serve", "receive games over TCP and HTTP and store them", cmd_serve,
     help_serve},
    {"send", "send SGF files to sgf serve", cmd_send, help_send},
#endif
    {"help", "show the help of a command", cmd_help, help_help},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const command *find_command(const char *name) {
  size_t i;
  for (i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

static void usage(FILE *f) {
  size_t i;
  fprintf(f,
          "usage: sgf COMMAND [OPTION]... [FILE]...\n"
          "       sgf help [COMMAND]\n"
          "       sgf --help | --version\n"
          "\n"
          "Streaming tools for SGF game records.\n"
          "\n"
          "Commands:\n");
  for (i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf(f,
          "\n"
          "FILE is an SGF file, an archive of SGF files (tar, zip, 7z, "
          "...,\n"
          "compressed or not) or '-' for standard input (the default);\n"
          "a file named *.sgf is always read as one SGF file.\n"
          "Run 'sgf help COMMAND' for a command's options; see also "
          "sgf(1).\n");
}

int option_error(const char *cmd, int c, char **argv) {
  const char *arg = optind > 0 ? argv[optind - 1] : NULL;
  int is_long =
      arg != NULL && strncmp(arg, "--", 2) == 0 &&
      (optopt == 0 || optopt >= OPT_LONG_BASE || strchr(arg, '=') != NULL);
  if (c == ':') {
    if (is_long)
      fprintf(stderr, "sgf: option '%s' needs a value\n", arg);
    else
      fprintf(stderr, "sgf: option '-%c' needs a value\n", optopt);
  } else if (is_long || optopt == 0) {
    fprintf(stderr, "sgf: unknown option '%s'\n", arg ? arg : "?");
  } else {
    fprintf(stderr, "sgf: unknown option '-%c'\n", optopt);
  }
  fprintf(stderr, "Try 'sgf %s --help'.\n", cmd);
  return EXIT_TROUBLE;
}

int runs_wanted(void) { return getenv("SGF_NO_RUNS") == NULL; }

int parse_chunk(const char *cmd, const char *arg, size_t *out) {
  char *end;
  unsigned long long v;
  errno = 0;
  v = strtoull(arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno != 0 || v == 0 ||
      v > (size_t)-1) {
    fprintf(stderr,
            "sgf: invalid chunk size '%s' (a positive number of bytes)\n"
            "Try 'sgf %s --help'.\n",
            arg, cmd);
    return -1;
  }
  *out = (size_t)v;
  return 0;
}

int parse_size(const char *cmd, const char *option, const char *arg,
               uint64_t *out) {
  char *end;
  unsigned long long v;
  unsigned shift = 0;
  errno = 0;
  v = strtoull(arg, &end, 10);
  if (arg[0] < '0' || arg[0] > '9' || errno != 0) goto bad;
  if (*end == 'K' || *end == 'k')
    shift = 10;
  else if (*end == 'M' || *end == 'm')
    shift = 20;
  else if (*end == 'G' || *end == 'g')
    shift = 30;
  if (shift) end++;
  if (*end != '\0' || v > (UINT64_MAX >> shift)) goto bad;
  *out = (uint64_t)v << shift;
  return 0;
bad:
  fprintf(stderr,
          "sgf: %s: invalid %s '%s' (a number, K M G allowed)\n"
          "Try 'sgf %s --help'.\n",
          cmd, option, arg, cmd);
  return -1;
}

void report_failure(const char *name, const char *message) {
  fflush(stdout); /* keep the order when both go to one terminal */
  progress_clear();
  fprintf(stderr, "sgf: %s: %s\n", name, message);
}

int report_no_input(const char *name, const char *why) {
  report_failure(name, why);
  return EXIT_NO_INPUT;
}

int finish_output(int status) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "sgf: write error: %s\n", strerror(errno));
    return EXIT_TROUBLE;
  }
  return status;
}

static int version(void) {
  printf("sgf (sgfstream) %s, library %s\n", SGF_VERSION_STRING, sgf_version());
  return finish_output(EXIT_CLEAN);
}

static void help_help(FILE *f) {
  fprintf(f,
          "usage: sgf help [COMMAND]\n"
          "\n"
          "Show the help of COMMAND (the same as 'sgf COMMAND --help'), "
          "or with\n"
          "no COMMAND the list of commands (the same as 'sgf --help').\n"
          "\n"
          "  -h, --help  show this help\n");
}

/* sgf help [COMMAND]: argv[0] is "help". */
static int cmd_help(int argc, char **argv) {
  const command *c;
  const char *a = argc > 1 ? argv[1] : NULL;
  int i;
  if (a == NULL) {
    usage(stdout);
    return finish_output(EXIT_CLEAN);
  }
  for (i = 1; i < argc; i++) /* anywhere, as the commands' --help */
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      help_help(stdout);
      return finish_output(EXIT_CLEAN);
    }
  if (a[0] == '-' && a[1] != '\0') {
    fprintf(stderr, "sgf: unknown option '%s'\nTry 'sgf help --help'.\n", a);
    return EXIT_TROUBLE;
  }
  if (argc > 2) {
    fprintf(stderr,
            "sgf: help: one COMMAND at most\n"
            "Try 'sgf help --help'.\n");
    return EXIT_TROUBLE;
  }
  c = find_command(a);
  if (c == NULL) {
    fprintf(stderr, "sgf: unknown command '%s'\nTry 'sgf --help'.\n", a);
    return EXIT_TROUBLE;
  }
  c->help(stdout);
  return finish_output(EXIT_CLEAN);
}

/* Occupy each of descriptors 0, 1 and 2 the caller left closed.
 *
 * Otherwise the first descriptors libuv opens for itself (its epoll and
 * wakeup descriptors, an input file) take those numbers: our writes to
 * "standard output" would land in them, and libuv aborts when it closes
 * a descriptor <= 2 it believes its own. A closed descriptor is reopened
 * on /dev/null in the direction that makes its use fail: standard input
 * write-only and standard output read-only, so that reading or writing
 * them fails with EBADF and is reported as it would be on the closed
 * descriptor; a command that does not need them runs as usual. Standard
 * error is reopened writable: messages are lost, the exit status tells.
 * Plain open(2) rather than uv_fs_open(): no libuv loop may exist yet,
 * since creating one is what takes the low numbers. */
static int occupy_standard_fds(void) {
  static const int flags[3] = {O_WRONLY, O_RDONLY, O_WRONLY};
  int fd;
  for (fd = 0; fd <= 2; fd++) {
    int got;
    if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    /* The lowest free number: fd itself, as those below are open. */
    got = open("/dev/null", flags[fd] | O_NOCTTY);
    if (got < 0) return -1;
    if (got != fd) { /* cannot happen */
      close(got);
      errno = EBADF;
      return -1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  const command *c;
  const char *a = argc > 1 ? argv[1] : NULL;
  if (occupy_standard_fds() != 0) {
    fprintf(stderr,
            "sgf: cannot open /dev/null for a closed standard "
            "descriptor: %s\n",
            strerror(errno));
    return EXIT_TROUBLE;
  }
  if (a == NULL) {
    usage(stderr);
    return EXIT_TROUBLE;
  }
  if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
    return cmd_help(1, argv);
  if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) return version();
  if (a[0] == '-') {
    fprintf(stderr, "sgf: unknown option '%s'\nTry 'sgf --help'.\n", a);
    return EXIT_TROUBLE;
  }
  c = find_command(a);
  if (c == NULL) {
    fprintf(stderr, "sgf: unknown command '%s'\nTry 'sgf --help'.\n", a);
    return EXIT_TROUBLE;
  }
  return c->run(argc - 1, argv + 1);
}
