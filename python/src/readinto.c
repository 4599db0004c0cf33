/* readinto.c - a reader's readinto() into memory of ours: what the
 * stream (stream.c, in _core) and libarchive's read callback (archive.c,
 * in _archive) share; compiled into each module. */
#include "sgfpy.h"

Py_ssize_t sgfpy_readinto(PyObject *readinto, char *buf, Py_ssize_t cap) {
  PyObject *mv = PyMemoryView_FromMemory(buf, cap, PyBUF_WRITE);
  if (!mv) return -1;
  PyObject *r = PyObject_CallOneArg(readinto, mv);
  PyObject *et, *ev, *etb;
  PyErr_Fetch(&et, &ev, &etb); /* release() runs with no error set */
  PyObject *rel = PyObject_CallMethod(mv, "release", NULL);
  Py_DECREF(mv);
  if (!rel) { /* the reader kept a view of our buffer: refused */
    Py_XDECREF(et);
    Py_XDECREF(ev);
    Py_XDECREF(etb);
    Py_XDECREF(r);
    return -1;
  }
  Py_DECREF(rel);
  PyErr_Restore(et, ev, etb);
  if (!r) return -1;
  if (r == Py_None) { /* a non-blocking reader with nothing: end */
    Py_DECREF(r);
    return 0;
  }
  Py_ssize_t got = PyLong_AsSsize_t(r);
  Py_DECREF(r);
  if (got < 0 && PyErr_Occurred()) return -1;
  if (got < 0 || got > cap) {
    PyErr_SetString(PyExc_ValueError, "readinto() returned a bad count");
    return -1;
  }
  return got;
}
