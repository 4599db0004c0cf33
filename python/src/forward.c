/* forward.c - _core.Forward: an iterator that hands out what another
 * iterator gives, from C. GameStream (sgfstream/__init__.py) is a Python
 * subclass of it: a for loop over a GameStream then calls no Python code
 * between games (a Python __next__ was 5% of headers()), while
 * iter(stream) is stream, as for any iterator. */
#include "sgfpy.h"

#include <structmember.h>

typedef struct {
  PyObject_HEAD PyObject *it; /* the iterator forwarded, or NULL */
} Forward;

static int forward_traverse(Forward *self, visitproc visit, void *arg) {
  Py_VISIT(self->it);
  return 0;
}

static int forward_clear(Forward *self) {
  Py_CLEAR(self->it);
  return 0;
}

/* (A subclass's instance holds a reference to its class: subtype_dealloc,
 * which calls this, drops it, Forward being static.) */
static void forward_dealloc(Forward *self) {
  PyObject_GC_UnTrack(self);
  forward_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *forward_next(Forward *self) {
  PyObject *it = self->it;
  if (!it) return NULL; /* StopIteration */
  iternextfunc next = Py_TYPE(it)->tp_iternext;
  if (!next) {
    PyErr_Format(PyExc_TypeError, "'%.100s' object is not an iterator",
                 Py_TYPE(it)->tp_name);
    return NULL;
  }
  return next(it);
}

static PyMemberDef forward_members[] = {
    {"_it", T_OBJECT, offsetof(Forward, it), 0,
     "the iterator whose items this one gives"},
    {NULL, 0, 0, 0, NULL}};

static PyTypeObject Forward_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream._core.Forward",
    .tp_basicsize = sizeof(Forward),
    .tp_dealloc = (destructor)forward_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc =
        "An iterator giving the items of its _it, called from C. "
        "Internal: the base of sgfstream.GameStream.",
    .tp_traverse = (traverseproc)forward_traverse,
    .tp_clear = (inquiry)forward_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)forward_next,
    .tp_members = forward_members,
    .tp_new = PyType_GenericNew,
};

int sgfpy_init_forward(PyObject *m) {
  if (PyType_Ready(&Forward_Type) < 0) return -1;
  Py_INCREF(&Forward_Type);
  if (PyModule_AddObject(m, "Forward", (PyObject *)&Forward_Type) < 0) {
    Py_DECREF(&Forward_Type);
    return -1;
  }
  return 0;
}
