/* stream.c - streaming: games(), headers(), Handler and the push Parser
 * (issue 29, items 2 and 3). */
#include "sgfpy.h"

int sgfpy_init_stream(PyObject *m) { return 0; }
