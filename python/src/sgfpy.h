/* sgfpy.h - what the C files of the Python extension sgfstream._core
 * share (archive.c, the module sgfstream._archive, uses sgfpy_readinto
 * only). module.c makes the module and what every part uses (SGFError,
 * Diagnostic, the action constants), then calls each part's init:
 *   sgfpy_init_stream(m)  stream.c: games(), headers(), Handler, Parser
 *   sgfpy_init_tree(m)    tree.c: Game / Node trees (the tree part)
 *   sgfpy_init_forward(m) forward.c: Forward, GameStream's base
 * Each init adds its names to the module m and returns 0, or -1 with a
 * Python exception set.
 */
#ifndef SGFPY_H
#define SGFPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <sgfstream.h>

/* The parts' module init functions. */
int sgfpy_init_stream(PyObject *m);
int sgfpy_init_tree(PyObject *m);
/* forward.c: Forward, GameStream's base. */
int sgfpy_init_forward(PyObject *m);
/* handler.c: Handler and Parser; called by sgfpy_init_stream. */
int sgfpy_init_handler(PyObject *m);
/* readinto.c (compiled into _core and into _archive, archive.c):
 * readinto(memoryview of buf[0, cap)) of a reader: the bytes
 * read (0 at the end, or None: a non-blocking reader without data), or
 * -1 with an exception set (also when the reader keeps a view of buf, or
 * returns a bad count). */
Py_ssize_t sgfpy_readinto(PyObject *readinto, char *buf, Py_ssize_t cap);

/* sgfstream.SGFError (a ValueError): raised in strict mode, and wherever a
 * parse stops on a fatal diagnostic. Its .diagnostics is a list of
 * Diagnostic. Set by module.c before the parts' init. */
extern PyObject *sgfpy_SGFError;

/* sgfstream.Diagnostic: a named tuple (file, line, column, code, name,
 * severity, message, offset). file may be None (bytes input). Returns a
 * new reference, or NULL with an exception set. */
PyObject *sgfpy_diagnostic_new(const sgf_diag *d, PyObject *file);
/* A Diagnostic not in the library's catalogue (the binding's own): code,
 * name, severity and message (UTF-8) as given. */
PyObject *sgfpy_diagnostic_make(PyObject *file, sgf_pos pos, int code,
                                const char *name, const char *severity,
                                const char *message);
/* stream_text.c: the diagnostic of text that does not decode in its
 * charset (read as ISO-8859-1 instead), as `sgf json` reports it: raw,
 * rawlen the value's bytes as in the input, whose '[' is at pos; off the
 * offset of the byte that does not decode (bad) in the text decoded from
 * them (FF[4] decoding with flags); charset the charset tried. */
PyObject *sgfpy_text_diag(PyObject *file, sgf_pos pos, const char *raw,
                          size_t rawlen, unsigned flags, size_t off,
                          const char *charset, unsigned char bad);
/* Its codes: bad-utf8 under UTF-8 (the catalogue's), else bad-text (the
 * binding's, as the JavaScript package's). */
#define SGFPY_DIAG_BAD_TEXT 100
/* headers(): the notes `sgf json --headers` adds on the header itself, as
 * warnings (the value is still given: the text of an SZ that is not a
 * size; text under an unknown CA read as UTF-8, else ISO-8859-1). */
#define SGFPY_DIAG_BAD_SIZE 101
#define SGFPY_DIAG_UNKNOWN_CHARSET 102

/* Fills a struct sequence's n items from v (module.c). */
PyObject *sgfpy_structseq_fill(PyObject *o, PyObject **v, int n);

/* Raise SGFError: message "FILE:LINE:COL: severity: message (name)" of the
 * first diagnostic of diags (a list of Diagnostic, may be empty: then
 * fallback is the message), .diagnostics = diags. Returns NULL. */
PyObject *sgfpy_raise_sgf_error(PyObject *diags, const char *fallback);

/* The library's result code as a Python exception (MemoryError for
 * SGF_ENOMEM, else SGFError with the code's text). Returns NULL. */
PyObject *sgfpy_raise_code(int code);

#endif /* SGFPY_H */
