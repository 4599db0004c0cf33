/* archive.c - the module sgfstream._archive: compressed files and
 * archives the standard library cannot read (zstd, lz4, 7z, rar, compress,
 * lzma, lzip, lzop, cpio, ar, cab, xar...), through libarchive, as the sgf
 * tool reads them (tools/io/archive.c). sgfstream/__init__.py chooses it
 * by an input's first bytes, and imports it on first use only (libarchive
 * brings libxml2, ICU... into the process: milliseconds that `import
 * sgfstream` does not pay); gzip, bzip2, xz, tar and zip stay with the
 * standard library (which gives every game before a break in a truncated
 * gzip, xz or bzip2 stream: libarchive drops the block it was filling).
 * setup.py builds this module only when pkg-config finds libarchive.
 *
 * Archive(src, head, name, start) reads the binary file object src
 * (readinto() or read()): when start is an int, src is seekable and the
 * input begins at src offset start (libarchive may seek in it: 7z needs
 * to); otherwise head, the bytes already read from src to tell its kind,
 * comes first. open() reads the first header; iterating gives each
 * regular member's name (str), or None for a compressed single file (the
 * raw format), and the Archive is then that member's binary reader
 * (readinto(), read()), block by block as libarchive decompresses it.
 * Formats are named one by one as the tool names them (no mtree: its
 * bidder takes a decompressed SGF file for a listing; no uu filter).
 *
 * A damaged or truncated input raises sgfstream.SGFError naming the file
 * and the member, after the bytes before the break were given; an
 * exception of src itself (OSError...) is raised as it is.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sgfpy.h"

#define AR_CHUNK (64 * 1024)

enum { AR_NONE, AR_ENTRY, AR_ENTRY_END, AR_END };

typedef struct {
  PyObject_HEAD struct archive *a;
  PyObject *src, *readinto, *read, *seek;
  PyObject *head;   /* bytes given first (src cannot seek) */
  PyObject *chunk;  /* the bytes read() gave, lent to libarchive */
  char *buf;        /* readinto()'s buffer, lent to libarchive */
  long long start;  /* the input's first byte in src (seekable) */
  PyObject *name;   /* the path, or None: for messages */
  PyObject *member; /* the entry being read (str), or None */
  const char *blk;  /* what is left of the block being read */
  size_t blklen;
  la_int64_t hole;         /* zero bytes due before it (a sparse entry) */
  la_int64_t at;           /* the entry's bytes given so far */
  int state, first;        /* first: the first header is read, not given */
  int only;                /* no header after the first (an empty stream) */
  long long pulled;        /* bytes read from src beyond the head */
  PyObject *et, *ev, *etb; /* an exception a callback caught */
  int busy; /* in libarchive, without the GIL: no other call meanwhile */
} Archive;

/* libarchive decompresses with the GIL released, so that other threads
 * run meanwhile; its callbacks (ar_read, ar_seek) take it again to call
 * the source's methods. A second thread's call on the same reader then
 * raises RuntimeError instead of entering libarchive twice. */
#define AR_UNLOCKED(s, call) \
  do {                       \
    (s)->busy = 1;           \
    Py_BEGIN_ALLOW_THREADS;  \
    call;                    \
    Py_END_ALLOW_THREADS;    \
    (s)->busy = 0;           \
  } while (0)

/* 0, or -1 with RuntimeError when another thread is in libarchive with
 * this reader. */
static int ar_idle(Archive *s) {
  if (!s->busy) return 0;
  PyErr_SetString(PyExc_RuntimeError,
                  "sgfstream: an archive reader used by two threads at once");
  return -1;
}

static PyTypeObject Archive_Type;
static PyObject *SGFError; /* sgfstream._core.SGFError */

/* Raise SGFError(msg) with .diagnostics [] (as _core's own). NULL. */
static PyObject *raise_sgf_error(PyObject *msg) {
  PyObject *exc = PyObject_CallOneArg(SGFError, msg);
  if (!exc) return NULL;
  PyObject *none = PyList_New(0);
  if (!none || PyObject_SetAttrString(exc, "diagnostics", none) < 0) {
    Py_XDECREF(none);
    Py_DECREF(exc);
    return NULL;
  }
  Py_DECREF(none);
  PyErr_SetObject(SGFError, exc);
  Py_DECREF(exc);
  return NULL;
}

/* Keep the exception set (raised by src in a callback) for later. */
static void keep_exception(Archive *s) {
  PyObject *et, *ev, *etb;
  PyErr_Fetch(&et, &ev, &etb);
  if (s->et) { /* the first one stands */
    Py_XDECREF(et);
    Py_XDECREF(ev);
    Py_XDECREF(etb);
    return;
  }
  s->et = et;
  s->ev = ev;
  s->etb = etb;
}

static la_ssize_t ar_read_locked(struct archive *a, Archive *s,
                                 const void **out);

/* libarchive's read callback: called without the GIL (AR_UNLOCKED). */
static la_ssize_t ar_read(struct archive *a, void *ud, const void **out) {
  PyGILState_STATE g = PyGILState_Ensure();
  la_ssize_t n = ar_read_locked(a, ud, out);
  PyGILState_Release(g);
  return n;
}

static la_ssize_t ar_read_locked(struct archive *a, Archive *s,
                                 const void **out) {
  if (s->et) return ARCHIVE_FATAL;
  if (s->head) {
    /* the head, given whole once; released at the next call, when
     * libarchive is done with it */
    if (PyBytes_GET_SIZE(s->head) > 0) {
      *out = PyBytes_AS_STRING(s->head);
      Py_ssize_t n = PyBytes_GET_SIZE(s->head);
      Py_XSETREF(s->chunk, s->head);
      s->head = NULL;
      return n;
    }
    Py_CLEAR(s->head);
  }
  Py_CLEAR(s->chunk);
  Py_ssize_t got;
  if (s->readinto) {
    if (!s->buf && !(s->buf = PyMem_Malloc(AR_CHUNK))) {
      PyErr_NoMemory();
      goto fail;
    }
    got = sgfpy_readinto(s->readinto, s->buf, AR_CHUNK);
    if (got < 0) goto fail;
    *out = s->buf;
    s->pulled += got;
    return got;
  }
  PyObject *r = PyObject_CallFunction(s->read, "n", (Py_ssize_t)AR_CHUNK);
  if (!r) goto fail;
  if (r == Py_None) {
    Py_DECREF(r);
    return 0;
  }
  if (!PyBytes_Check(r)) {
    PyObject *b = PyBytes_FromObject(r);
    Py_DECREF(r);
    if (!b) goto fail;
    r = b;
  }
  s->chunk = r;
  *out = PyBytes_AS_STRING(r);
  s->pulled += PyBytes_GET_SIZE(r);
  return PyBytes_GET_SIZE(r);
fail:
  keep_exception(s);
  archive_set_error(a, EIO, "the reader failed");
  return ARCHIVE_FATAL;
}

static la_int64_t ar_seek_locked(Archive *s, la_int64_t off, int whence);

/* libarchive's seek callback: called without the GIL (AR_UNLOCKED). */
static la_int64_t ar_seek(struct archive *a, void *ud, la_int64_t off,
                          int whence) {
  (void)a;
  PyGILState_STATE g = PyGILState_Ensure();
  la_int64_t r = ar_seek_locked(ud, off, whence);
  PyGILState_Release(g);
  return r;
}

static la_int64_t ar_seek_locked(Archive *s, la_int64_t off, int whence) {
  if (s->et) return ARCHIVE_FATAL;
  long long to = (long long)off;
  int how = 0;
  switch (whence) {
    case SEEK_SET:
      to += s->start;
      break;
    case SEEK_CUR:
      how = 1;
      break;
    case SEEK_END:
      how = 2;
      break;
    default:
      return ARCHIVE_FATAL;
  }
  PyObject *r = PyObject_CallFunction(s->seek, "Li", to, how);
  if (!r) {
    keep_exception(s);
    return ARCHIVE_FATAL;
  }
  long long pos = PyLong_AsLongLong(r);
  Py_DECREF(r);
  if (pos == -1 && PyErr_Occurred()) {
    keep_exception(s);
    return ARCHIVE_FATAL;
  }
  if (pos < s->start) return ARCHIVE_FATAL;
  return (la_int64_t)(pos - s->start);
}

/* Raise what broke: src's own exception if it raised one, else SGFError
 * "FILE[:MEMBER]: what (libarchive's message)[; tail]". NULL. */
static PyObject *ar_error(Archive *s, const char *what, const char *tail) {
  if (s->et) {
    PyErr_Restore(s->et, s->ev, s->etb);
    s->et = s->ev = s->etb = NULL;
    return NULL;
  }
  if (PyErr_Occurred()) return NULL;
  const char *e = s->a ? archive_error_string(s->a) : NULL;
  PyObject *where = s->name == Py_None ? PyUnicode_FromString("<stream>")
                                       : PyObject_Str(s->name);
  if (!where) return NULL;
  PyObject *msg;
  if (s->member != Py_None && s->state != AR_NONE)
    msg = PyUnicode_FromFormat("%U:%S: %s (%s)%s", where, s->member, what,
                               e ? e : "archive read error", tail);
  else
    msg = PyUnicode_FromFormat("%U: %s (%s)%s", where, what,
                               e ? e : "archive read error", tail);
  Py_DECREF(where);
  if (!msg) return NULL;
  raise_sgf_error(msg);
  Py_DECREF(msg);
  return NULL;
}

static void archive_free_(Archive *s) {
  if (s->a) {
    archive_read_free(s->a);
    s->a = NULL;
  }
  s->state = AR_END;
  s->blklen = 0;
  s->hole = 0;
}

static void ar_dealloc(Archive *s) {
  archive_free_(s);
  PyMem_Free(s->buf);
  Py_XDECREF(s->src);
  Py_XDECREF(s->readinto);
  Py_XDECREF(s->read);
  Py_XDECREF(s->seek);
  Py_XDECREF(s->head);
  Py_XDECREF(s->chunk);
  Py_XDECREF(s->name);
  Py_XDECREF(s->member);
  Py_XDECREF(s->et);
  Py_XDECREF(s->ev);
  Py_XDECREF(s->etb);
  Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *ar_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"src", "head", "name", "start", NULL};
  PyObject *src, *head, *name = Py_None, *start = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OS|OO", kwlist, &src, &head,
                                   &name, &start))
    return NULL;
  Archive *s = (Archive *)type->tp_alloc(type, 0);
  if (!s) return NULL;
  Py_INCREF(src);
  s->src = src;
  Py_INCREF(name);
  s->name = name;
  Py_INCREF(Py_None);
  s->member = Py_None;
  s->state = AR_NONE;
  if (PyObject_HasAttrString(src, "readinto")) {
    if (!(s->readinto = PyObject_GetAttrString(src, "readinto"))) goto fail;
  } else if (!(s->read = PyObject_GetAttrString(src, "read"))) {
    goto fail;
  }
  if (start != Py_None) {
    s->start = PyLong_AsLongLong(start);
    if (s->start == -1 && PyErr_Occurred()) goto fail;
    if (!(s->seek = PyObject_GetAttrString(src, "seek"))) goto fail;
  } else {
    Py_INCREF(head);
    s->head = head;
  }
  return (PyObject *)s;
fail:
  Py_DECREF(s);
  return NULL;
}

/* After the first header failed: was a compression filter found, and
 * then no format, not even raw (which takes any byte)? Then the
 * decompressed data was empty: an empty input, as the tool has it. */
static int empty_stream(struct archive *a) {
#ifdef EFTYPE
  const int format_errno = EFTYPE; /* libarchive's "Unrecognized archive" */
#else
  const int format_errno = EILSEQ;
#endif
  return archive_errno(a) == format_errno && archive_format(a) == 0 &&
         archive_filter_count(a) > 1 &&
         archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE;
}

/* The next regular entry's header (the first: from open()). 1 read, 0
 * end of the archive, -1 failed (libarchive's error kept in a). */
static int next_header(Archive *s) {
  struct archive_entry *e;
  int retries = 0;
  for (;;) {
    int rc;
    AR_UNLOCKED(s, rc = archive_read_next_header(s->a, &e));
    if (rc == ARCHIVE_EOF) return 0;
    if (rc == ARCHIVE_RETRY && ++retries < 100) continue;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) return -1;
    retries = 0;
    PyObject *member;
    if (archive_format(s->a) == ARCHIVE_FORMAT_RAW) {
      member = Py_None; /* one compressed stream */
      Py_INCREF(member);
    } else {
      if (archive_entry_filetype(e) != AE_IFREG) continue;
      const char *en = archive_entry_pathname(e);
      if (en) {
        member = PyUnicode_DecodeFSDefault(en);
      } else if ((en = archive_entry_pathname_utf8(e)) != NULL) {
        member =
            PyUnicode_DecodeUTF8(en, (Py_ssize_t)strlen(en), "surrogateescape");
      } else {
        continue;
      }
      if (!member) return -2;
    }
    Py_SETREF(s->member, member);
    s->state = AR_ENTRY;
    s->blklen = 0;
    s->hole = 0;
    s->at = 0;
    return 1;
  }
}

static PyObject *ar_open(Archive *s, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"maybe", NULL};
  int maybe = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|p", kwlist, &maybe)) return NULL;
  if (ar_idle(s) < 0) return NULL;
  if (s->a || s->state != AR_NONE) {
    PyErr_SetString(PyExc_ValueError, "Archive.open(): opened already");
    return NULL;
  }
  if (s->seek) { /* from the input's first byte, libarchive's offset 0 */
    PyObject *r = PyObject_CallFunction(s->seek, "Li", s->start, 0);
    if (!r) return NULL;
    Py_DECREF(r);
  }
  struct archive *a = s->a = archive_read_new();
  if (!a) return PyErr_NoMemory();
  /* Filters: all but uu (its bidder reads far ahead, and a break
   * within that made every byte before it unreadable). */
  archive_read_support_filter_bzip2(a);
  archive_read_support_filter_compress(a);
  archive_read_support_filter_grzip(a);
  archive_read_support_filter_gzip(a);
  archive_read_support_filter_lrzip(a);
  archive_read_support_filter_lz4(a);
  archive_read_support_filter_lzip(a);
  archive_read_support_filter_lzma(a);
  archive_read_support_filter_lzop(a);
  archive_read_support_filter_rpm(a);
  archive_read_support_filter_xz(a);
  archive_read_support_filter_zstd(a);
  /* Formats: no mtree (above); raw last: one compressed SGF file */
  archive_read_support_format_7zip(a);
  archive_read_support_format_ar(a);
  archive_read_support_format_cab(a);
  archive_read_support_format_cpio(a);
  archive_read_support_format_iso9660(a);
  archive_read_support_format_lha(a);
  archive_read_support_format_rar(a);
  archive_read_support_format_rar5(a);
  archive_read_support_format_tar(a);
  archive_read_support_format_xar(a);
  archive_read_support_format_zip(a);
  archive_read_support_format_raw(a);
  archive_read_set_read_callback(a, ar_read);
  if (s->seek) archive_read_set_seek_callback(a, ar_seek);
  archive_read_set_callback_data(a, s);
  int rc;
  AR_UNLOCKED(s, rc = archive_read_open1(a));
  int got = rc == ARCHIVE_OK || rc == ARCHIVE_WARN ? next_header(s) : -1;
  if (got == -2) return NULL;
  if (got < 0 && !s->et && empty_stream(a)) {
    /* a compressed file of nothing: an empty input */
    Py_INCREF(Py_None);
    Py_SETREF(s->member, Py_None);
    s->state = AR_ENTRY_END;
    s->first = 1;
    s->only = 1;
    Py_RETURN_TRUE;
  }
  if (got < 0 && maybe && !s->et) {
    /* its first bytes looked like an archive's, but libarchive reads
     * none: a plain file after all (the caller reads it again) */
    archive_free_(s);
    Py_RETURN_FALSE;
  }
  if (got < 0) {
    ar_error(s, "cannot be read as a compressed file or archive", "");
    archive_free_(s);
    return NULL;
  }
  s->first = got == 1;
  if (got == 0) s->state = AR_END;
  Py_RETURN_TRUE;
}

static PyObject *ar_iter(PyObject *s) {
  Py_INCREF(s);
  return s;
}

static PyObject *ar_next(Archive *s) {
  if (ar_idle(s) < 0) return NULL;
  if (s->first) {
    s->first = 0;
    Py_INCREF(s->member);
    return s->member;
  }
  if (!s->a || s->state == AR_END || s->only) return NULL;
  int got = next_header(s);
  if (got == 1) {
    Py_INCREF(s->member);
    return s->member;
  }
  if (got == -2) return NULL;
  if (got == 0) {
    s->state = AR_END;
    return NULL;
  }
  s->state = AR_END;
  return ar_error(s, "the archive breaks off or is damaged after this member",
                  "; the members before the break were read");
}

/* Up to n bytes of the entry into out: the bytes given (0 at its end),
 * or -1 with an exception set. */
static Py_ssize_t ar_fill(Archive *s, char *out, Py_ssize_t n) {
  if (ar_idle(s) < 0) return -1;
  while (s->state == AR_ENTRY && s->hole == 0 && s->blklen == 0) {
    const void *buf;
    size_t len;
    la_int64_t off;
    int rc;
    AR_UNLOCKED(s, rc = archive_read_data_block(s->a, &buf, &len, &off));
    if (rc == ARCHIVE_EOF) {
      s->state = AR_ENTRY_END;
      break;
    }
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
      s->state = AR_END;
      ar_error(s, "the input breaks off or is damaged",
               "; the games before the break were read");
      return -1;
    }
    if (off > s->at) s->hole = off - s->at;
    s->blk = buf;
    s->blklen = len;
  }
  Py_ssize_t k = 0;
  if (s->hole > 0) {
    k = s->hole < (la_int64_t)n ? (Py_ssize_t)s->hole : n;
    memset(out, 0, (size_t)k);
    s->hole -= k;
  } else if (s->blklen > 0) {
    k = (Py_ssize_t)s->blklen < n ? (Py_ssize_t)s->blklen : n;
    memcpy(out, s->blk, (size_t)k);
    s->blk += k;
    s->blklen -= (size_t)k;
  }
  s->at += k;
  return k;
}

static PyObject *ar_readinto(Archive *s, PyObject *arg) {
  Py_buffer view;
  if (PyObject_GetBuffer(arg, &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
    return NULL;
  Py_ssize_t k = ar_fill(s, view.buf, view.len);
  PyBuffer_Release(&view);
  return k < 0 ? NULL : PyLong_FromSsize_t(k);
}

static PyObject *ar_read_(Archive *s, PyObject *args) {
  Py_ssize_t n = -1;
  if (!PyArg_ParseTuple(args, "|n", &n)) return NULL;
  Py_ssize_t cap = n >= 0 ? n : AR_CHUNK, len = 0;
  PyObject *b = PyBytes_FromStringAndSize(NULL, cap);
  if (!b) return NULL;
  for (;;) {
    if (len == cap) {
      if (n >= 0) break;
      cap *= 2;
      if (_PyBytes_Resize(&b, cap) < 0) return NULL;
    }
    Py_ssize_t k = ar_fill(s, PyBytes_AS_STRING(b) + len, cap - len);
    if (k < 0) {
      Py_DECREF(b);
      return NULL;
    }
    if (k == 0) break;
    len += k;
  }
  if (len != cap && _PyBytes_Resize(&b, len) < 0) return NULL;
  return b;
}

static PyObject *ar_close(Archive *s, PyObject *noargs) {
  if (ar_idle(s) < 0) return NULL;
  archive_free_(s);
  Py_RETURN_NONE;
}

static PyObject *ar_true(PyObject *s, PyObject *noargs) { Py_RETURN_TRUE; }
static PyObject *ar_false(PyObject *s, PyObject *noargs) { Py_RETURN_FALSE; }

static PyObject *ar_get_format(Archive *s, void *closure) {
  const char *f = s->a ? archive_format_name(s->a) : NULL;
  if (!f) Py_RETURN_NONE;
  return PyUnicode_FromString(f);
}

static PyObject *ar_get_member(Archive *s, void *closure) {
  Py_INCREF(s->member);
  return s->member;
}

static PyObject *ar_get_pulled(Archive *s, void *closure) {
  return PyLong_FromLongLong(s->pulled);
}

static PyMethodDef ar_methods[] = {
    {"open", (PyCFunction)(void (*)(void))ar_open, METH_VARARGS | METH_KEYWORDS,
     "open(maybe=False) -> bool\n\nRead the first header. False (maybe "
     "only): libarchive reads no archive\nthere, a plain file after all; "
     "SGFError when it cannot read it."},
    {"readinto", (PyCFunction)ar_readinto, METH_O,
     "readinto(b) -> int: the member's next bytes into b (0 at its end)."},
    {"read", (PyCFunction)ar_read_, METH_VARARGS,
     "read(n=-1) -> bytes: up to n bytes of the member (all: n < 0)."},
    {"readable", ar_true, METH_NOARGS, "True."},
    {"seekable", ar_false, METH_NOARGS, "False."},
    {"close", (PyCFunction)ar_close, METH_NOARGS,
     "Free libarchive's reader (src stays open)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef ar_getset[] = {
    {"member", (getter)ar_get_member, NULL,
     "The member being read (str), None for a compressed single file.", NULL},
    {"format", (getter)ar_get_format, NULL,
     "libarchive's name of the format, or None.", NULL},
    {"pulled", (getter)ar_get_pulled, NULL,
     "The bytes read from src beyond the head so far.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Archive_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream._archive.Archive",
    .tp_basicsize = sizeof(Archive),
    .tp_dealloc = (destructor)ar_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "Archive(src, head, name=None, start=None)\n\nA compressed "
        "file or archive read through libarchive: open(), then\n"
        "iterate for each regular member's name (None: one "
        "compressed stream),\nreading each with readinto() / read(). "
        "Internal: sgfstream.games() and\nheaders() use it for what "
        "the standard library cannot read.",
    .tp_iter = ar_iter,
    .tp_iternext = (iternextfunc)ar_next,
    .tp_methods = ar_methods,
    .tp_getset = ar_getset,
    .tp_new = ar_new,
};

static PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "sgfstream._archive",
    "libarchive's formats for sgfstream (internal: sgfstream.games() and\n"
    "headers() import it when an input needs it).",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__archive(void);
PyMODINIT_FUNC PyInit__archive(void) {
  PyObject *core = PyImport_ImportModule("sgfstream._core");
  if (!core) return NULL;
  SGFError = PyObject_GetAttrString(core, "SGFError");
  Py_DECREF(core);
  if (!SGFError) return NULL;
  if (PyType_Ready(&Archive_Type) < 0) return NULL;
  PyObject *m = PyModule_Create(&module_def);
  if (!m) return NULL;
  Py_INCREF(&Archive_Type);
  if (PyModule_AddObject(m, "Archive", (PyObject *)&Archive_Type) < 0 ||
      PyModule_AddStringConstant(m, "LIBARCHIVE_VERSION",
                                 archive_version_details()) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
