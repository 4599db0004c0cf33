/* json_conv.h - `sgf json`'s lines made in memory, one game at a time,
 * for `sgf serve`'s JSON Lines sink (the same schema: sgf(1), JSON
 * SCHEMA). Diagnostics are not printed. Implemented in cmd_json.c. */
#ifndef SGF_TOOLS_JSON_CONV_H
#define SGF_TOOLS_JSON_CONV_H

#include <stddef.h>

#include "bytebuf.h"

typedef struct json_conv json_conv;

json_conv *json_conv_create(void);
/* Append the JSON line(s) of the game in buf to out; name is the
 * source's "file". Returns 0, or -1 when nothing was written. */
int json_conv_game(json_conv *c, const char *name, const char *buf, size_t len,
                   bytebuf *out);
void json_conv_destroy(json_conv *c);

#endif /* SGF_TOOLS_JSON_CONV_H */
