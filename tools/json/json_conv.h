/* json_conv.h - `sgf json`'s lines made in memory, one game at a time,
 * for `sgf serve`'s JSON Lines sink (the same schema: sgf(1), JSON
 * SCHEMA). Diagnostics are not printed. Implemented in cmd_json.c. */
#ifndef SGF_TOOLS_JSON_CONV_H
#define SGF_TOOLS_JSON_CONV_H

#include <stddef.h>

#include <sgfstream.h>

#include "bytebuf.h"

typedef struct json_conv json_conv;

json_conv *json_conv_create(void);
/* Append the JSON line(s) of the game in buf to out; name is the
 * source's "file". Returns 0, or -1 when nothing was written. */
int json_conv_game(json_conv *c, const char *name, const char *buf, size_t len,
                   bytebuf *out);
void json_conv_destroy(json_conv *c);

/* The same lines from another parser's events, so that a game is parsed
 * once (sgf serve's connection parser splits the stream and feeds the
 * converter): the handlers of the tree, node, property and value events,
 * whose user pointer is the json_conv. json_conv_start() before the
 * game's '(' event; after its ')' event json_conv_take() appends the line
 * to out (0, or -1 when there is none). The line is the one
 * json_conv_game() writes for the game's bytes alone: its source is game
 * 0 at offset 0, line 1, column 1. */
void json_conv_callbacks(sgf_callbacks *cb);
void json_conv_start(json_conv *c, const char *name);
int json_conv_take(json_conv *c, bytebuf *out);
/* The bytes a converter holds (for a memory limit). */
size_t json_conv_size(void);
/* What this one holds now, its buffers grown by the games it converted
 * included. */
size_t json_conv_held(const json_conv *c);

#endif /* SGF_TOOLS_JSON_CONV_H */
