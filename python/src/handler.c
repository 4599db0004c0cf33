/* handler.c - sgfstream.Handler and the push parser sgfstream.Parser
 * (issue 29, item 3).
 *
 * The parser runs in batch mode (sgfstream/batch.h). The kinds recorded
 * are those the handler's methods need, and every kind whose method is
 * called from Python is a stop kind, so that a batch ends at each Python
 * call: the method's answer is the batch handler's answer, acting on
 * exactly that event (THE RETURN CONTRACT). Values are gathered in C and
 * handed over whole, with their property: Python is called per property
 * at most, never per byte or per value piece.
 */
#include <string.h>

#include "sgfpy.h"

#define EVCAP 1024

enum {
  M_GAME,
  M_GAME_END,
  M_TREE_BEGIN,
  M_TREE_END,
  M_NODE,
  M_NODE_END,
  M_PROPERTY,
  M_DIAGNOSTIC,
  M_COUNT
};
static const char *method_names[M_COUNT] = {
    "on_game", "on_game_end", "on_tree_begin", "on_tree_end",
    "on_node", "on_node_end", "on_property",   "on_diagnostic"};

/* ---------------------------------------------------------------------- */
/* Handler: the base class; each method answers CONTINUE.                  */

static PyObject *handler_continue(PyObject *self, PyObject *args) {
  return PyLong_FromLong(SGF_CONTINUE);
}

static PyMethodDef handler_methods[] = {
    {"on_game", handler_continue, METH_VARARGS,
     "on_game() -> action\n\nA game begins: its '(' at depth 1. "
     "SKIP passes over the whole game\n(its on_game_end still comes)."},
    {"on_game_end", handler_continue, METH_VARARGS,
     "on_game_end() -> action\n\nThe game's ')' (or the end of input). "
     "PAUSE here stops feed() right\nafter the game."},
    {"on_tree_begin", handler_continue, METH_VARARGS,
     "on_tree_begin(depth) -> action\n\nA variation's '(' (depth 2 and "
     "more). SKIP passes over the variation."},
    {"on_tree_end", handler_continue, METH_VARARGS,
     "on_tree_end(depth) -> action\n\nA variation's ')'. SKIP passes over "
     "the rest of the enclosing tree."},
    {"on_node", handler_continue, METH_VARARGS,
     "on_node() -> action\n\nA node's ';'. SKIP passes over the rest of the "
     "innermost open tree."},
    {"on_node_end", handler_continue, METH_VARARGS,
     "on_node_end() -> action\n\nThe node is complete. SKIP at a game's "
     "root node skips the rest of\nthe game: read the root, decide, move "
     "on."},
    {"on_property", handler_continue, METH_VARARGS,
     "on_property(ident, values) -> action\n\nA whole property: ident the "
     "identifier normalized (str, 'B', 'AB',\n'CoPyright' read as 'CP'), "
     "values a list of bytes, each value raw as\nwritten between '[' and "
     "']' (escapes kept: sgfstream.tree decodes)."},
    {"on_diagnostic", handler_continue, METH_VARARGS,
     "on_diagnostic(diag) -> action\n\nA Diagnostic, at once (it may come "
     "before the events of the bytes\nbefore it). STOP stops the parser."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject Handler_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream.Handler",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
        "Handler: subclass it and override the events you want.\n\n"
        "Each method returns an action: CONTINUE (or None), SKIP (pass over "
        "the\nrest of the innermost open game tree, as the C parser does), "
        "PAUSE\n(feed() returns at once with the bytes used so far; resume() "
        "then feed\nthe rest) or STOP (the parser stops; reset() to use it "
        "again). Only\nthe methods a subclass overrides are called, so the "
        "parser records\nonly the events they need: a handler with on_game "
        "alone costs one\nPython call a game. An exception raised by a "
        "method stops the parser\nand comes out of feed() or finish().",
    .tp_methods = handler_methods,
    .tp_new = PyType_GenericNew,
};

/* ---------------------------------------------------------------------- */
/* Parser                                                                  */

typedef struct {
  PyObject_HEAD sgf_parser *p;
  sgf_event ev[EVCAP];
  PyObject *handler;
  PyObject *m[M_COUNT]; /* bound methods, NULL when not overridden */
  PyObject *file;
  uint64_t depth;
  /* the property being gathered */
  PyObject *ident;  /* str */
  PyObject *values; /* list of bytes */
  char *vbuf;
  size_t vlen, vcap;
  sgf_pos prop_pos;
  /* during a Python call: the event, for .position */
  const sgf_event *cur_ev;
  int cur_has, in_feed;
  sgf_pos cur_pos;
  int paused, stopped;
  PyObject *exc_type, *exc_value, *exc_tb; /* a method's exception */
} Parser;

static int action_of(Parser *s, PyObject *r) {
  if (!r) return -1;
  if (r == Py_None) {
    Py_DECREF(r);
    return SGF_CONTINUE;
  }
  long a = PyLong_Check(r) ? PyLong_AsLong(r) : -1;
  Py_DECREF(r);
  if (a == SGF_CONTINUE || a == SGF_SKIP || a == SGF_PAUSE || a == SGF_ABORT)
    return (int)a;
  if (!PyErr_Occurred())
    PyErr_SetString(PyExc_ValueError,
                    "a handler method returned something other than "
                    "CONTINUE, SKIP, PAUSE, STOP or None");
  return -1;
}

/* The method's answer as an sgf_action; an exception is kept for feed(). */
static int call(Parser *s, int which, PyObject *args) {
  PyObject *r;
  if (!args) {
    r = NULL;
  } else {
    r = PyObject_Call(s->m[which], args, NULL);
    Py_DECREF(args);
  }
  int a = action_of(s, r);
  if (a < 0) {
    if (!s->exc_type)
      PyErr_Fetch(&s->exc_type, &s->exc_value, &s->exc_tb);
    else
      PyErr_Clear();
    return SGF_ABORT;
  }
  if (a == SGF_ABORT) s->stopped = 1;
  return a;
}

static int on_diag(sgf_parser *p, void *user, const sgf_diag *d) {
  Parser *s = user;
  if (s->exc_type) return SGF_ABORT;
  if (!s->m[M_DIAGNOSTIC]) return SGF_CONTINUE;
  PyObject *o = sgfpy_diagnostic_new(d, s->file);
  PyObject *args = o ? PyTuple_Pack(1, o) : NULL;
  Py_XDECREF(o);
  int a = call(s, M_DIAGNOSTIC, args);
  return a == SGF_ABORT ? SGF_ABORT : SGF_CONTINUE;
}

static int on_batch(sgf_parser *p, void *user, const sgf_batch *b) {
  Parser *s = user;
  int action = SGF_CONTINUE;
  if (s->exc_type) return SGF_ABORT;
  for (size_t i = 0; i < b->n; i++) {
    const sgf_event *e = &b->ev[i];
    int which = -1;
    PyObject *args = NULL;
    switch (e->kind) {
      case SGF_EVENT_TREE_BEGIN:
        s->depth++;
        if (s->depth == 1 && s->m[M_GAME]) {
          which = M_GAME;
          args = PyTuple_New(0);
        } else if (s->depth > 1 && s->m[M_TREE_BEGIN]) {
          which = M_TREE_BEGIN;
          args = Py_BuildValue("(K)", (unsigned long long)s->depth);
        }
        break;
      case SGF_EVENT_TREE_END:
        if (s->depth == 1 && s->m[M_GAME_END]) {
          which = M_GAME_END;
          args = PyTuple_New(0);
        } else if (s->depth > 1 && s->m[M_TREE_END]) {
          which = M_TREE_END;
          args = Py_BuildValue("(K)", (unsigned long long)s->depth);
        }
        if (s->depth) s->depth--;
        break;
      case SGF_EVENT_NODE:
        if (s->m[M_NODE]) {
          which = M_NODE;
          args = PyTuple_New(0);
        }
        break;
      case SGF_EVENT_NODE_END:
        if (s->m[M_NODE_END]) {
          which = M_NODE_END;
          args = PyTuple_New(0);
        }
        break;
      case SGF_EVENT_PROPERTY:
        Py_CLEAR(s->ident);
        Py_CLEAR(s->values);
        s->ident = PyUnicode_DecodeLatin1(sgf_event_bytes(b, e), e->len, NULL);
        s->values = PyList_New(0);
        s->prop_pos = sgf_batch_position(p, e);
        if (!s->ident || !s->values) return call(s, 0, NULL);
        break;
      case SGF_EVENT_VALUE:
        if (e->flags & SGF_VALUE_FIRST) s->vlen = 0;
        if (s->vlen + e->len > s->vcap) {
          size_t n = s->vcap ? s->vcap : 64;
          while (n < s->vlen + e->len) n *= 2;
          char *v = PyMem_Realloc(s->vbuf, n);
          if (!v) {
            PyErr_NoMemory();
            return call(s, 0, NULL);
          }
          s->vbuf = v;
          s->vcap = n;
        }
        memcpy(s->vbuf + s->vlen, sgf_event_bytes(b, e), e->len);
        s->vlen += e->len;
        if (e->flags & SGF_VALUE_LAST) {
          PyObject *v = PyBytes_FromStringAndSize(s->vbuf, (Py_ssize_t)s->vlen);
          if (!v || !s->values || PyList_Append(s->values, v) < 0) {
            Py_XDECREF(v);
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return call(s, 0, NULL);
          }
          Py_DECREF(v);
          s->vlen = 0;
        }
        break;
      case SGF_EVENT_PROPERTY_END:
        if (s->ident && s->values) {
          which = M_PROPERTY;
          args = PyTuple_Pack(2, s->ident, s->values);
          Py_CLEAR(s->ident);
          Py_CLEAR(s->values);
        }
        break;
      default:
        break;
    }
    if (which >= 0) {
      s->cur_ev = e;
      s->cur_has = 0;
      if (which == M_PROPERTY) {
        s->cur_pos = s->prop_pos;
        s->cur_has = 1;
      }
      int a = call(s, which, args);
      s->cur_ev = NULL;
      s->cur_has = 0;
      if (a != SGF_CONTINUE) action = a;
      if (a == SGF_ABORT) return a;
      /* a Python-visible event is a stop kind: the last of its batch */
    }
  }
  return action;
}

static int parser_traverse(Parser *s, visitproc visit, void *arg) {
  Py_VISIT(s->handler);
  for (int i = 0; i < M_COUNT; i++) Py_VISIT(s->m[i]);
  Py_VISIT(s->file);
  Py_VISIT(s->values);
  return 0;
}

static int parser_clear(Parser *s) {
  Py_CLEAR(s->handler);
  for (int i = 0; i < M_COUNT; i++) Py_CLEAR(s->m[i]);
  Py_CLEAR(s->file);
  Py_CLEAR(s->ident);
  Py_CLEAR(s->values);
  Py_CLEAR(s->exc_type);
  Py_CLEAR(s->exc_value);
  Py_CLEAR(s->exc_tb);
  return 0;
}

static void parser_dealloc(Parser *s) {
  PyObject_GC_UnTrack(s);
  if (s->p && !s->in_feed) sgf_parser_destroy(s->p);
  parser_clear(s);
  PyMem_Free(s->vbuf);
  Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *parser_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"handler", "strict",    "mainline",
                           "file",    "max_depth", NULL};
  PyObject *handler, *file = Py_None;
  int strict = 0, mainline = 0;
  unsigned long long max_depth = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$ppOK", kwlist, &handler,
                                   &strict, &mainline, &file, &max_depth))
    return NULL;
  Parser *s = (Parser *)type->tp_alloc(type, 0);
  if (!s) return NULL;
  Py_INCREF(handler);
  s->handler = handler;
  Py_INCREF(file);
  s->file = file;
  unsigned kinds = 1u << SGF_EVENT_TREE_BEGIN | 1u << SGF_EVENT_TREE_END;
  unsigned stop = 0;
  PyObject *htype = (PyObject *)Py_TYPE(handler);
  for (int i = 0; i < M_COUNT; i++) {
    PyObject *mine = PyObject_GetAttrString(htype, method_names[i]);
    if (!mine) {
      PyErr_Clear();
      continue; /* not a Handler: the methods it has are called */
    }
    PyObject *base =
        PyDict_GetItemString(Handler_Type.tp_dict, method_names[i]);
    int overridden = mine != base;
    Py_DECREF(mine);
    if (!overridden) continue;
    s->m[i] = PyObject_GetAttrString(handler, method_names[i]);
    if (!s->m[i]) goto fail;
    if (!PyCallable_Check(s->m[i])) {
      PyErr_Format(PyExc_TypeError, "handler.%s is not callable",
                   method_names[i]);
      goto fail;
    }
    switch (i) {
      case M_GAME:
      case M_GAME_END:
      case M_TREE_BEGIN:
      case M_TREE_END:
        stop |= 1u << (i == M_GAME || i == M_TREE_BEGIN ? SGF_EVENT_TREE_BEGIN
                                                        : SGF_EVENT_TREE_END);
        break;
      case M_NODE:
        kinds |= 1u << SGF_EVENT_NODE;
        stop |= 1u << SGF_EVENT_NODE;
        break;
      case M_NODE_END:
        kinds |= 1u << SGF_EVENT_NODE_END;
        stop |= 1u << SGF_EVENT_NODE_END;
        break;
      case M_PROPERTY:
        kinds |= 1u << SGF_EVENT_PROPERTY | 1u << SGF_EVENT_VALUE |
                 1u << SGF_EVENT_PROPERTY_END;
        stop |= 1u << SGF_EVENT_PROPERTY_END;
        break;
      default:
        break;
    }
  }
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_diagnostic = on_diag;
  sgf_options opt;
  sgf_options_init(&opt);
  if (strict) opt.flags |= SGF_OPT_STRICT;
  if (mainline) opt.flags |= SGF_OPT_MAINLINE;
  opt.max_depth = max_depth;
  s->p = sgf_parser_create(&cb, s, &opt);
  if (!s->p) {
    PyErr_NoMemory();
    goto fail;
  }
  sgf_batch_options bo;
  sgf_batch_options_init(&bo);
  bo.on_batch = on_batch;
  bo.events = s->ev;
  bo.capacity = EVCAP;
  bo.kinds = kinds;
  bo.stop_kinds = stop;
  if (sgf_parser_set_batch(s->p, &bo) != SGF_OK) {
    PyErr_SetString(PyExc_RuntimeError, "sgf_parser_set_batch failed");
    goto fail;
  }
  return (PyObject *)s;
fail:
  Py_DECREF(s);
  return NULL;
}

/* After feed or finish: the result as Python. */
static int settle(Parser *s, int rc) {
  s->paused = rc == SGF_PAUSED;
  if (s->exc_type) {
    PyErr_Restore(s->exc_type, s->exc_value, s->exc_tb);
    s->exc_type = s->exc_value = s->exc_tb = NULL;
    return -1;
  }
  if (rc == SGF_OK || rc == SGF_PAUSED) return 0;
  if (rc == SGF_EABORTED && s->stopped) return 0;
  if (rc == SGF_EPARSE) {
    const sgf_diag *d = sgf_parser_error(s->p);
    PyObject *list = PyList_New(0);
    if (!list) return -1;
    if (d) {
      PyObject *o = sgfpy_diagnostic_new(d, s->file);
      if (!o || PyList_Append(list, o) < 0) {
        Py_XDECREF(o);
        Py_DECREF(list);
        return -1;
      }
      Py_DECREF(o);
    }
    sgfpy_raise_sgf_error(list, "parse stopped");
    Py_DECREF(list);
    return -1;
  }
  sgfpy_raise_code(rc);
  return -1;
}

static PyObject *parser_feed(Parser *s, PyObject *arg) {
  Py_buffer view;
  if (s->in_feed) {
    PyErr_SetString(PyExc_RuntimeError, "feed() from inside a handler method");
    return NULL;
  }
  if (s->stopped) {
    PyErr_SetString(sgfpy_SGFError,
                    "the parser was stopped (STOP): reset() to parse again");
    return NULL;
  }
  if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
  size_t consumed = 0;
  s->in_feed = 1;
  int rc = sgf_parser_feed(s->p, view.buf, (size_t)view.len, &consumed);
  s->in_feed = 0;
  PyBuffer_Release(&view);
  if (settle(s, rc) < 0) return NULL;
  return PyLong_FromSize_t(consumed);
}

static PyObject *parser_finish(Parser *s, PyObject *noargs) {
  if (s->in_feed) {
    PyErr_SetString(PyExc_RuntimeError,
                    "finish() from inside a handler method");
    return NULL;
  }
  if (s->stopped) Py_RETURN_TRUE;
  s->in_feed = 1;
  int rc = sgf_parser_finish(s->p);
  s->in_feed = 0;
  if (settle(s, rc) < 0) return NULL;
  return PyBool_FromLong(rc != SGF_PAUSED);
}

static PyObject *parser_resume(Parser *s, PyObject *noargs) {
  sgf_parser_resume(s->p);
  s->paused = 0;
  Py_RETURN_NONE;
}

static PyObject *parser_reset(Parser *s, PyObject *noargs) {
  if (s->in_feed) {
    PyErr_SetString(PyExc_RuntimeError, "reset() from inside a handler method");
    return NULL;
  }
  int rc = sgf_parser_reset(s->p);
  if (rc != SGF_OK) return sgfpy_raise_code(rc);
  s->depth = 0;
  s->paused = s->stopped = 0;
  s->vlen = 0;
  Py_CLEAR(s->ident);
  Py_CLEAR(s->values);
  Py_RETURN_NONE;
}

static PyObject *parser_position(Parser *s, void *closure) {
  sgf_pos pos;
  if (s->cur_has)
    pos = s->cur_pos;
  else if (s->cur_ev)
    pos = sgf_batch_position(s->p, s->cur_ev);
  else
    pos = sgf_parser_position(s->p);
  return Py_BuildValue("(KKK)", (unsigned long long)pos.offset,
                       (unsigned long long)pos.line,
                       (unsigned long long)pos.column);
}

static PyObject *parser_get_depth(Parser *s, void *closure) {
  return PyLong_FromUnsignedLongLong(s->depth);
}

static PyObject *parser_get_paused(Parser *s, void *closure) {
  return PyBool_FromLong(s->paused);
}

static PyObject *parser_get_stopped(Parser *s, void *closure) {
  return PyBool_FromLong(s->stopped);
}

static PyObject *parser_diag_count(Parser *s, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name) return NULL;
  sgf_severity sev = strcmp(name, "warning") == 0 ? SGF_SEV_WARNING
                     : strcmp(name, "error") == 0 ? SGF_SEV_ERROR
                     : strcmp(name, "fatal") == 0 ? SGF_SEV_FATAL
                                                  : (sgf_severity)0;
  if (!sev) {
    PyErr_SetString(PyExc_ValueError,
                    "severity is 'warning', 'error' or 'fatal'");
    return NULL;
  }
  return PyLong_FromUnsignedLongLong(sgf_parser_diag_count(s->p, sev));
}

static PyMethodDef parser_methods[] = {
    {"feed", (PyCFunction)parser_feed, METH_O,
     "feed(data) -> int\n\nParse the bytes (any bytes-like object, split "
     "anywhere: the events are\nthe same for any split). Returns how many "
     "were used: all of them,\nunless a handler method answered PAUSE "
     "(then .paused is True: call\nresume() and feed data[used:] again) or "
     "STOP (.stopped). Raises\nSGFError when the parse stops on a fatal "
     "diagnostic (any error in\nstrict mode), and what a handler method "
     "raised."},
    {"finish", (PyCFunction)parser_finish, METH_NOARGS,
     "finish() -> bool\n\nEnd of input: closes what is still open (with "
     "diagnostics) and\ndelivers the last events. False when a method "
     "answered PAUSE: resume()\nand call finish() again. After it, feed() "
     "raises until reset()."},
    {"resume", (PyCFunction)parser_resume, METH_NOARGS,
     "resume()\n\nLeave the paused state (feeds nothing by itself)."},
    {"reset", (PyCFunction)parser_reset, METH_NOARGS,
     "reset()\n\nForget the input so far (also a stop or an error) and "
     "start again,\nwith the same handler and options."},
    {"diag_count", (PyCFunction)parser_diag_count, METH_O,
     "diag_count(severity) -> int\n\nHow many diagnostics of severity "
     "('warning', 'error', 'fatal') the\nparser reported since it was "
     "created or reset."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef parser_getset[] = {
    {"position", (getter)parser_position, NULL,
     "(offset, line, column): inside a handler method the current event's "
     "place\n(its '(' ';' ')' or, for on_property, its identifier); "
     "outside, the next\nbyte to be fed. Offsets are 0-based, lines and "
     "columns 1-based (bytes).",
     NULL},
    {"depth", (getter)parser_get_depth, NULL,
     "The game trees open (1 inside a game's own tree).", NULL},
    {"paused", (getter)parser_get_paused, NULL,
     "True after a method answered PAUSE, until resume().", NULL},
    {"stopped", (getter)parser_get_stopped, NULL,
     "True after a method answered STOP, until reset().", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Parser_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream.Parser",
    .tp_basicsize = sizeof(Parser),
    .tp_dealloc = (destructor)parser_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc =
        "Parser(handler, *, strict=False, mainline=False, file=None, "
        "max_depth=0)\n\nThe push parser: feed() it bytes as they come "
        "(a socket, an asyncio\nprotocol's data_received), finish() at the "
        "end; it calls the handler's\nmethods (see Handler) as it "
        "recognises the events. The C parser's\ncontract: any split of "
        "the input gives the same events, PAUSE and\nresume() lose and "
        "repeat nothing, memory does not grow with the input.\nstrict: stop "
        "at the first deviation from FF[4] (SGFError). mainline:\npass over "
        "every secondary variation unparsed. file: the name diagnostics\n"
        "carry. max_depth: nested game trees allowed (0: 10000).",
    .tp_traverse = (traverseproc)parser_traverse,
    .tp_clear = (inquiry)parser_clear,
    .tp_methods = parser_methods,
    .tp_getset = parser_getset,
    .tp_new = parser_new,
};

int sgfpy_init_handler(PyObject *m) {
  if (PyType_Ready(&Handler_Type) < 0 || PyType_Ready(&Parser_Type) < 0)
    return -1;
  Py_INCREF(&Handler_Type);
  if (PyModule_AddObject(m, "Handler", (PyObject *)&Handler_Type) < 0)
    return -1;
  Py_INCREF(&Parser_Type);
  if (PyModule_AddObject(m, "Parser", (PyObject *)&Parser_Type) < 0) return -1;
  return 0;
}
