/* tree.c - Game / Node trees (issue 29, item 4): a stub until the tree
 * part replaces this file. */
#include "sgfpy.h"

int sgfpy_init_tree(PyObject *m) { return 0; }
