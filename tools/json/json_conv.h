/* json_conv.h - the JSON converter: SGF games as JSON Lines, one game a
 * line (the schema: sgf(1), JSON SCHEMA), written as the parser's events
 * arrive. Behind `sgf json` (input from files, lines on stdout), `sgf
 * filter --json` (games cut from an input) and `sgf serve --jsonl` (lines
 * made in memory). One constructor; the options choose what a line holds
 * and where it goes. Knows nothing of files, options or exit codes beyond
 * its status (json_conv_status).
 */
#ifndef SGF_TOOLS_JSON_CONV_H
#define SGF_TOOLS_JSON_CONV_H

#include <stddef.h>
#include <stdint.h>

#include <sgfstream.h>
#include <sgfstream/charset.h>

#include "bytebuf.h"

typedef struct json_conv json_conv;

/* What a line holds. */
enum json_mode {
  JSON_FULL = 0, /* source, header fields, the tree, the main line */
  JSON_MAINLINE, /* no tree (the parser's SGF_OPT_MAINLINE) */
  JSON_HEADERS   /* source and header fields: the rest is skipped */
};

typedef struct json_options {
  int mode;  /* enum json_mode */
  int raw;   /* every value as written (escapes kept), a string */
  int quiet; /* no diagnostics on stderr (they still count in the status) */
  /* Where lines go: NULL, stdout (buffered: json_conv_flush()); else
   * appended to this buffer by json_conv_game() and json_conv_take(). */
  bytebuf *to;
  /* The parser's options (strict, max depth); NULL: the defaults.
   * JSON_MAINLINE adds SGF_OPT_MAINLINE. */
  const sgf_options *parse;
  /* The charset converter's (--charset, --guess); NULL: the defaults. */
  const sgf_charset_options *charset;
  /* Called before a diagnostic is written on stderr (a progress line to
   * erase), and after each game; NULL: none. */
  void (*before_message)(void);
  void (*game_done)(void);
} json_options;

void json_options_init(json_options *o);
/* NULL on failure, *error saying why: "out of memory", or "unknown
 * charset" (opt->charset names one iconv does not know). */
json_conv *json_conv_create(const json_options *opt, const char **error);
void json_conv_destroy(json_conv *c);

/* The worst of what the games converted so far reported: 0 clean, 1
 * warnings only, 2 errors (sgf(1)'s exit status values). */
int json_conv_status(const json_conv *c);

/* INPUTS, fed by the caller. json_conv_begin() for each: name is the
 * input's (a diagnostic's prefix), arg the FILE argument it came from:
 * "source" is file arg, member the rest of name after "arg:" (an archive
 * member), else file name. The caller feeds json_conv_parser() the
 * input's bytes (sgf_parser_feed, sgf_parser_finish); when the parser
 * stops on an error, json_conv_stop() reports it, and nothing more is fed
 * (json_conv_stopped()). json_conv_end() closes a game the parser stopped
 * inside (marked "incomplete": every line is valid JSON), and
 * json_conv_flush() hands the lines to stdout. */
void json_conv_begin(json_conv *c, const char *name, const char *arg);
sgf_parser *json_conv_parser(json_conv *c);
void json_conv_stop(json_conv *c);
int json_conv_stopped(const json_conv *c);
/* The input's text is UTF-8 already (converted from UTF-16): CA is not
 * used. Until the next json_conv_begin(). */
void json_conv_input_utf8(json_conv *c);
void json_conv_end(json_conv *c);
void json_conv_flush(json_conv *c);

/* A GAME CUT from an input (sgf filter --json): its bytes as a line, its
 * source and its diagnostics positioned in that input. name and arg as
 * for json_conv_begin(); index: the game's number in the input from 0;
 * origin: its '('; the parser's diagnostics before offset quiet_before of
 * the input are not repeated (the caller reported them). Returns the
 * status of what this game reported (json_conv_status). */
int json_conv_cut(json_conv *c, const char *name, const char *arg,
                  uint64_t index, sgf_pos origin, uint64_t quiet_before,
                  const char *bytes, size_t len);

/* LINES IN MEMORY (sgf serve; options.to set). Append the line(s) of the
 * game in buf to options.to; name is the source's "file". Returns 0, or
 * -1 when nothing was written (or options.to is NULL). */
int json_conv_game(json_conv *c, const char *name, const char *buf, size_t len);

/* The same lines from another parser's events, so that a game is parsed
 * once (sgf serve's connection parser splits the stream and feeds the
 * converter): the handlers of the tree, node, property and value events,
 * whose user pointer is the json_conv (one made with the same options: c
 * chooses them). json_conv_start() before the game's '(' event; after its
 * ')' event json_conv_take() appends the line to options.to (0, or -1
 * when there is none). The line is the one json_conv_game() writes for the
 * game's bytes alone: its source is game 0 at offset 0, line 1, column 1. */
void json_conv_callbacks(const json_conv *c, sgf_callbacks *cb);
void json_conv_start(json_conv *c, const char *name);
int json_conv_take(json_conv *c);
/* The bytes a converter holds (for a memory limit). */
size_t json_conv_size(void);
/* What this one holds now, its buffers grown by the games it converted
 * included. */
size_t json_conv_held(const json_conv *c);

#endif /* SGF_TOOLS_JSON_CONV_H */
