/* module.c - the module sgfstream._core: what every part shares (SGFError,
 * Diagnostic, the handler actions, the library's version), then each
 * part's names (sgfpy.h). */
#include <string.h>

#include "sgfpy.h"

PyObject *sgfpy_SGFError;
static PyTypeObject *diagnostic_type;

static PyStructSequence_Field diagnostic_fields[] = {
    {"file",
     "the file (or archive member, 'archive.zip:member.sgf') the "
     "diagnostic is in; None for bytes and file objects without a "
     "name"},
    {"line", "the line, 1-based"},
    {"column", "the column, 1-based, counting bytes"},
    {"code", "the diagnostic's number (stable across releases)"},
    {"name", "its name, e.g. 'extra-paren'"},
    {"severity",
     "'warning', 'error' or 'fatal' (as reported: in strict "
     "mode warnings are errors)"},
    {"message", "what is wrong, in English"},
    {"offset", "the byte offset in the input, 0-based"},
    {NULL, NULL}};

static PyStructSequence_Desc diagnostic_desc = {
    "sgfstream.Diagnostic",
    "A problem found in the input, with its place: a named tuple\n"
    "(file, line, column, code, name, severity, message, offset).\n"
    "str() gives 'FILE:LINE:COL: severity: message [name]'.",
    diagnostic_fields, 8};

/* Sets the n items of o from v (new references, taken; a NULL one, from a
 * failed call, becomes None); returns o, or NULL (o released) when one
 * was NULL, with that call's exception set. */
PyObject *sgfpy_structseq_fill(PyObject *o, PyObject **v, int n) {
  int ok = 1;
  for (int i = 0; i < n; i++) {
    if (!v[i]) ok = 0;
    PyStructSequence_SET_ITEM(o, i,
                              v[i] ? v[i] : (Py_INCREF(Py_None), Py_None));
  }
  if (!ok) {
    Py_DECREF(o);
    return NULL;
  }
  return o;
}

PyObject *sgfpy_diagnostic_new(const sgf_diag *d, PyObject *file) {
  PyObject *o = PyStructSequence_New(diagnostic_type);
  if (!o) return NULL;
  const char *name = sgf_diag_name(d->code);
  const char *msg = sgf_diag_message(d->code);
  PyObject *v[8];
  if (!file) file = Py_None;
  Py_INCREF(file);
  v[0] = file;
  v[1] = PyLong_FromUnsignedLongLong(d->pos.line);
  v[2] = PyLong_FromUnsignedLongLong(d->pos.column);
  v[3] = PyLong_FromLong((long)d->code);
  v[4] = PyUnicode_FromString(name ? name : "unknown");
  v[5] = PyUnicode_FromString(sgf_severity_name(d->severity));
  v[6] = PyUnicode_FromString(msg ? msg : "unknown diagnostic");
  v[7] = PyLong_FromUnsignedLongLong(d->pos.offset);
  return sgfpy_structseq_fill(o, v, 8);
}

PyObject *sgfpy_diagnostic_make(PyObject *file, sgf_pos pos, int code,
                                const char *name, const char *severity,
                                const char *message) {
  PyObject *o = PyStructSequence_New(diagnostic_type);
  if (!o) return NULL;
  PyObject *v[8];
  if (!file) file = Py_None;
  Py_INCREF(file);
  v[0] = file;
  v[1] = PyLong_FromUnsignedLongLong(pos.line);
  v[2] = PyLong_FromUnsignedLongLong(pos.column);
  v[3] = PyLong_FromLong((long)code);
  v[4] = PyUnicode_FromString(name);
  v[5] = PyUnicode_FromString(severity);
  v[6] = PyUnicode_DecodeUTF8(message, (Py_ssize_t)strlen(message),
                              "backslashreplace");
  v[7] = PyLong_FromUnsignedLongLong(pos.offset);
  return sgfpy_structseq_fill(o, v, 8);
}

static PyObject *diagnostic_str(PyObject *o) {
  PyObject *file = PyStructSequence_GET_ITEM(o, 0);
  if (file == Py_None)
    return PyUnicode_FromFormat(
        "%S:%S: %S: %S [%S]", PyStructSequence_GET_ITEM(o, 1),
        PyStructSequence_GET_ITEM(o, 2), PyStructSequence_GET_ITEM(o, 5),
        PyStructSequence_GET_ITEM(o, 6), PyStructSequence_GET_ITEM(o, 4));
  return PyUnicode_FromFormat(
      "%S:%S:%S: %S: %S [%S]", file, PyStructSequence_GET_ITEM(o, 1),
      PyStructSequence_GET_ITEM(o, 2), PyStructSequence_GET_ITEM(o, 5),
      PyStructSequence_GET_ITEM(o, 6), PyStructSequence_GET_ITEM(o, 4));
}

PyObject *sgfpy_raise_sgf_error(PyObject *diags, const char *fallback) {
  PyObject *msg = NULL;
  if (diags && PyList_Check(diags) && PyList_GET_SIZE(diags) > 0) {
    PyObject *first = PyList_GET_ITEM(diags, 0);
    msg = PyObject_Str(first);
  } else {
    msg = PyUnicode_FromString(fallback ? fallback : "SGF error");
  }
  if (!msg) return NULL;
  PyObject *exc = PyObject_CallOneArg(sgfpy_SGFError, msg);
  Py_DECREF(msg);
  if (!exc) return NULL;
  PyObject *list = diags ? diags : PyList_New(0);
  if (!list) {
    Py_DECREF(exc);
    return NULL;
  }
  if (diags) Py_INCREF(list);
  if (PyObject_SetAttrString(exc, "diagnostics", list) < 0) {
    Py_DECREF(list);
    Py_DECREF(exc);
    return NULL;
  }
  Py_DECREF(list);
  PyErr_SetObject(sgfpy_SGFError, exc);
  Py_DECREF(exc);
  return NULL;
}

PyObject *sgfpy_raise_code(int code) {
  if (code == SGF_ENOMEM) return PyErr_NoMemory();
  char buf[200];
  PyOS_snprintf(buf, sizeof buf, "%s (%s)", sgf_strerror(code),
                sgf_err_name(code));
  return sgfpy_raise_sgf_error(NULL, buf);
}

static PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "sgfstream._core",
    "The C part of sgfstream (import sgfstream instead).",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__core(void);
PyMODINIT_FUNC PyInit__core(void) {
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  diagnostic_type = PyStructSequence_NewType(&diagnostic_desc);
  if (!diagnostic_type) goto fail;
  diagnostic_type->tp_str = diagnostic_str;
  if (PyModule_AddObject(m, "Diagnostic", (PyObject *)diagnostic_type) < 0)
    goto fail;
  Py_INCREF(diagnostic_type); /* kept in diagnostic_type as well */
  sgfpy_SGFError = PyErr_NewExceptionWithDoc(
      "sgfstream.SGFError",
      "The input is not SGF sgfstream can read as asked: raised in strict\n"
      "mode at the first deviation from FF[4], and in any mode when a parse\n"
      "stops on a fatal diagnostic. .diagnostics lists the Diagnostic\n"
      "objects (the one that stopped the parse last).",
      PyExc_ValueError, NULL);
  if (!sgfpy_SGFError) goto fail;
  Py_INCREF(sgfpy_SGFError);
  if (PyModule_AddObject(m, "SGFError", sgfpy_SGFError) < 0) goto fail;
  if (PyModule_AddIntConstant(m, "CONTINUE", SGF_CONTINUE) < 0 ||
      PyModule_AddIntConstant(m, "SKIP", SGF_SKIP) < 0 ||
      PyModule_AddIntConstant(m, "PAUSE", SGF_PAUSE) < 0 ||
      PyModule_AddIntConstant(m, "STOP", SGF_ABORT) < 0 ||
      PyModule_AddStringConstant(m, "LIBRARY_VERSION", sgf_version()) < 0)
    goto fail;
  if (sgfpy_init_stream(m) < 0 || sgfpy_init_tree(m) < 0 ||
      sgfpy_init_forward(m) < 0)
    goto fail;
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
