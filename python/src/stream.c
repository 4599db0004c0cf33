/* stream.c - streaming (issue 29, item 2): the reader behind
 * sgfstream.games() and sgfstream.headers(), and the GameRecord and
 * Source types they yield. The Handler / Parser part is in handler.c.
 *
 * A _core.Stream pulls bytes from a reader (any object with readinto() or
 * read(): a file, a GzipFile, a tarfile member, a socket's makefile('rb'))
 * into a window of its own, feeds them to the C push parser in batch mode
 * and pauses the parser at the end of each game (SGF_PAUSE from the batch
 * handler), so that each __next__ returns one game, or one header dict.
 * The window keeps only the bytes from the open game's '(' on (games) or
 * from sgf_parser_held_offset() on (headers): memory is bounded by the
 * largest game, whatever the input's size.
 *
 * games: per game its raw bytes (.data), provenance, diagnostics, node
 * count and its main line's moves, found in the batch records (MOVES
 * records for runs of plain move nodes), never by a Python call.
 * headers: the root node's header fields, typed; SGF_SKIP at the root's
 * node end passes over the rest of the game at tokenizer speed.
 */
#include <stdio.h>
#include <string.h>

#include "sgfpy.h"
#include "structmember.h"

#define EVCAP 4096
#define CHUNK (256 * 1024)
#define HEADER_VALUE_MAX (64 * 1024) /* as `sgf json --headers` */

enum { MODE_GAMES = 0, MODE_HEADERS = 1 };

/* ---------------------------------------------------------------------- */
/* Source                                                                  */

static PyTypeObject *source_type;
static PyObject *array_type; /* array.array, imported at first use */
static PyObject *str_B;      /* "B" */
static PyObject *str_utf8;   /* "UTF-8" */

static PyStructSequence_Field source_fields[] = {
    {"file", "the path read (None for bytes and unnamed file objects)"},
    {"member", "the archive member (None outside an archive)"},
    {"index", "the game's 0-based index in the file or member"},
    {"offset", "the byte offset of the game's '(' (in decompressed bytes)"},
    {"line", "the 1-based line of its '('"},
    {"column", "the 1-based column of its '(' (bytes)"},
    {NULL, NULL}};

static PyStructSequence_Desc source_desc = {
    "sgfstream.Source",
    "Where a game came from: a named tuple (file, member, index, offset,\n"
    "line, column).",
    source_fields, 6};

/* ---------------------------------------------------------------------- */
/* GameRecord                                                              */

typedef struct {
  PyObject_HEAD PyObject *data; /* bytes */
  PyObject *source;             /* Source */
  PyObject *diagnostics;        /* list */
  PyObject *charset;            /* str or None */
  PyObject *moves;              /* bytes, 3 a move */
  PyObject *game;               /* the tree's Game, parsed on first use */
  Py_ssize_t nodes;
  int mainline;
} GameRecord;

static PyTypeObject GameRecord_Type;

static void record_dealloc(GameRecord *r) {
  Py_XDECREF(r->data);
  Py_XDECREF(r->source);
  Py_XDECREF(r->diagnostics);
  Py_XDECREF(r->charset);
  Py_XDECREF(r->moves);
  Py_XDECREF(r->game);
  Py_TYPE(r)->tp_free((PyObject *)r);
}

static PyObject *record_moves(GameRecord *r, PyObject *noargs) {
  /* imported here, not with the module: importing array loads collections
   * (about 6 million instructions), which headers() never needs */
  if (!array_type) {
    PyObject *arr = PyImport_ImportModule("array");
    if (!arr) return NULL;
    array_type = PyObject_GetAttrString(arr, "array");
    Py_DECREF(arr);
    if (!array_type) return NULL;
  }
  return PyObject_CallFunctionObjArgs(array_type, str_B, r->moves, NULL);
}

/* The tree: sgfstream.tree.parse_game(data, charset=, mainline=). */
static PyObject *record_tree(GameRecord *r) {
  if (r->game) {
    Py_INCREF(r->game);
    return r->game;
  }
  PyObject *mod = PyImport_ImportModule("sgfstream.tree");
  if (!mod) return NULL;
  PyObject *fn = PyObject_GetAttrString(mod, "parse_game");
  Py_DECREF(mod);
  if (!fn) return NULL;
  PyObject *args = PyTuple_Pack(1, r->data);
  PyObject *kw =
      args ? Py_BuildValue("{sOsO}", "charset", r->charset, "mainline",
                           r->mainline ? Py_True : Py_False)
           : NULL;
  PyObject *g = kw ? PyObject_Call(fn, args, kw) : NULL;
  Py_DECREF(fn);
  Py_XDECREF(args);
  Py_XDECREF(kw);
  if (!g) return NULL;
  r->game = g;
  Py_INCREF(g);
  return g;
}

static PyObject *record_get_game(GameRecord *r, void *closure) {
  return record_tree(r);
}

/* Attributes the record does not have come from the tree's Game. */
static PyObject *record_getattro(PyObject *self, PyObject *name) {
  PyObject *v = PyObject_GenericGetAttr(self, name);
  if (v || !PyErr_ExceptionMatches(PyExc_AttributeError)) return v;
  if (PyUnicode_Check(name) && PyUnicode_GET_LENGTH(name) > 0 &&
      PyUnicode_READ_CHAR(name, 0) == '_')
    return NULL;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyObject *g = record_tree((GameRecord *)self);
  if (!g) {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return NULL;
  }
  v = PyObject_GetAttr(g, name);
  Py_DECREF(g);
  if (v) {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    return v;
  }
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
  } else {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
  }
  return NULL;
}

static PyObject *record_repr(GameRecord *r) {
  return PyUnicode_FromFormat("<sgfstream.GameRecord %R, %zd bytes, %zd nodes>",
                              r->source, PyBytes_GET_SIZE(r->data), r->nodes);
}

static PyMethodDef record_methods[] = {
    {"moves", (PyCFunction)record_moves, METH_NOARGS,
     "moves() -> array.array('B')\n\n"
     "The main line's moves, three bytes a move: colour (1 black, 2 "
     "white),\nx (column, 0 = left), y (row, 0 = top), the SGF letters "
     "a-z as 0-25\nand A-Z as 26-51. A pass (B[], or tt on a board up to "
     "19x19) is\nx = y = MOVE_PASS (255); a value that is no move on the "
     "board x = y =\nMOVE_INVALID (254). A node with both B and W gives "
     "both, in file order.\nnumpy.frombuffer(rec.moves(), "
     "numpy.uint8).reshape(-1, 3) is an (n, 3)\narray over the same "
     "memory."},
    {NULL, NULL, 0, NULL}};

static PyMemberDef record_members[] = {
    {"data", T_OBJECT_EX, offsetof(GameRecord, data), READONLY,
     "The game's bytes as in the input, from its '(' to its ')'."},
    {"source", T_OBJECT_EX, offsetof(GameRecord, source), READONLY,
     "Where the game came from: a Source (file, member, index, offset, "
     "line, column)."},
    {"diagnostics", T_OBJECT_EX, offsetof(GameRecord, diagnostics), READONLY,
     "The Diagnostic objects found in this game (and in the bytes before "
     "it)."},
    {"charset", T_OBJECT_EX, offsetof(GameRecord, charset), READONLY,
     "The charset override given to games(), or None (the game's CA "
     "applies)."},
    {"nodes", T_PYSSIZET, offsetof(GameRecord, nodes), READONLY,
     "The number of nodes read (the main line's only, with mainline=True)."},
    {NULL, 0, 0, 0, NULL}};

static PyGetSetDef record_getset[] = {
    {"game", (getter)record_get_game, NULL,
     "The game as a tree (sgfstream.tree.parse_game(data)), parsed on first "
     "use and kept. Attributes the record does not have (root, ...) are "
     "this Game's.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject GameRecord_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream.GameRecord",
    .tp_basicsize = sizeof(GameRecord),
    .tp_dealloc = (destructor)record_dealloc,
    .tp_repr = (reprfunc)record_repr,
    .tp_getattro = record_getattro,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "One game of a stream, as sgfstream.games() yields it: its "
        "bytes (data),\nits provenance (source), its diagnostics, "
        "its node count and its\nmain line's moves (moves()). The "
        "tree (root, nodes...) is parsed\nfrom data on first use: "
        "see .game.",
    .tp_methods = record_methods,
    .tp_members = record_members,
    .tp_getset = record_getset,
};

/* ---------------------------------------------------------------------- */
/* Stream                                                                  */

/* The header fields: key, property, kind (t text, r real, n number, s
 * size), as `sgf json --headers` has them; slot NFIELDS is CA. */
static const struct {
  const char *key, *id;
  char kind;
} fields[] = {
    {"black", "PB", 't'},      {"white", "PW", 't'},
    {"black_rank", "BR", 't'}, {"white_rank", "WR", 't'},
    {"result", "RE", 't'},     {"date", "DT", 't'},
    {"komi", "KM", 'r'},       {"handicap", "HA", 'n'},
    {"size", "SZ", 's'},       {"rules", "RU", 't'},
    {"event", "EV", 't'},      {"round", "RO", 't'},
    {"place", "PC", 't'},      {"game_name", "GN", 't'},
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))
static PyObject *field_keys[NFIELDS];
static PyObject *key_file, *key_member, *key_game, *key_offset, *key_line,
    *key_column, *key_diagnostics;
/* headers: every key in order, each None; a game's dict is a copy of it
 * (a copy of the key table, no hashing, no resizing) with the values set */
static PyObject *header_template;

typedef struct {
  PyObject_HEAD int mode;
  sgf_parser *p;
  sgf_event *ev;
  /* the window: input bytes [base, base + len) at win; [0, fed) fed */
  char *win;
  size_t cap, len, fed;
  uint64_t base;
  PyObject *reader, *readinto, *read;
  int eof, finished, done;
  PyObject *file, *member, *charset;
  PyObject *dfile; /* the diagnostics' file: FILE:MEMBER in an archive */
  int mainline, strict;
  /* the game being read */
  uint64_t depth;
  int in_game;
  uint64_t game_start;
  sgf_pos game_pos;
  Py_ssize_t index, nodes;
  uint64_t main_open;
  int main_done, root_open, root_seen;
  int cur;         /* games: 1 B, 2 W, 3 SZ of the root, 0 other;
                      headers: slot + 1, or 0 */
  char vbuf[16];   /* a move's or SZ's value */
  size_t vlen;     /* its length (may pass sizeof vbuf: then not a move) */
  sgf_board board; /* the root's SZ */
  unsigned char *mv;
  size_t mvlen, mvcap;
  /* headers: the first value of each field, in hbuf */
  char *hbuf;
  size_t hlen, hcap;
  size_t hstart[NFIELDS + 1], hsize[NFIELDS + 1];
  /* the '[' of each one's first value, asked of the parser only when
   * text does not decode (header_pos): until then its record, hev[i] in
   * the batch being handled (bit i of hpend), or hpos[i] once that batch
   * is done */
  sgf_pos hpos[NFIELDS + 1];
  size_t hev[NFIELDS + 1];
  unsigned hpend;
  const sgf_batch *batch; /* the batch being handled */
  int have[NFIELDS + 1], filling, dropped;
  sgf_charset *cs;
  /* the game's charset gives printable ASCII as itself (ascii_probe);
   * found once for each CA in a row: probed for the CA in probe_ca */
  int ascii_same, probed; /* probed: 1 no CA, 2 UTF-16 input, 3 CA */
  char probe_ca[64];
  size_t probe_ca_len;
  char *conv, *text;
  size_t conv_cap, text_cap;
  PyObject *tmpl;    /* headers: header_template with file and member */
  PyObject *pending; /* diagnostics not yet given to a game */
  PyObject *ready;   /* the item the last feed completed */
  int failed;        /* a Python error is set by a callback */
  /* UTF-16 input (sgfstream/utf16.h), decided on the first 4 bytes: read
   * into raw, converted to UTF-8 into the window, which the parser and
   * the games' bytes see. */
  int decided, utf16;
  int u16_bad; /* 1: a lone surrogate or a cut character: no more
                  input; 2: reported */
  sgf_utf16_decoder u16;
  char *raw;
  size_t raw_cap;
} Stream;

static PyTypeObject Stream_Type;

static int grow(char **buf, size_t *cap, size_t need) {
  if (need <= *cap) return 0;
  size_t n = *cap ? *cap : 256;
  while (n < need) n *= 2;
  char *b = PyMem_Realloc(*buf, n);
  if (!b) {
    PyErr_NoMemory();
    return -1;
  }
  *buf = b;
  *cap = n;
  return 0;
}

static int on_diag(sgf_parser *p, void *user, const sgf_diag *d) {
  Stream *s = user;
  if (s->failed) return SGF_ABORT;
  PyObject *o = sgfpy_diagnostic_new(d, s->dfile);
  if (!o || PyList_Append(s->pending, o) < 0) {
    Py_XDECREF(o);
    s->failed = 1;
    return SGF_ABORT;
  }
  Py_DECREF(o);
  return SGF_CONTINUE;
}

static void move_push(Stream *s, int color) {
  unsigned char x = 254, y = 254;
  sgf_move m;
  if (s->vlen <= sizeof s->vbuf &&
      sgf_move_decode(&s->board, s->vbuf, s->vlen, &m, NULL) == 0) {
    if (m.pass) {
      x = y = 255;
    } else {
      x = (unsigned char)m.pt.x;
      y = (unsigned char)m.pt.y;
    }
  }
  if (s->mvlen + 3 > s->mvcap &&
      grow((char **)&s->mv, &s->mvcap, s->mvlen + 3) < 0) {
    s->failed = 1;
    return;
  }
  s->mv[s->mvlen++] = (unsigned char)color;
  s->mv[s->mvlen++] = x;
  s->mv[s->mvlen++] = y;
}

static PyObject *make_source(Stream *s) {
  PyObject *o = PyStructSequence_New(source_type);
  if (!o) return NULL;
  PyObject *v[6];
  v[0] = s->file;
  Py_INCREF(v[0]);
  v[1] = s->member;
  Py_INCREF(v[1]);
  v[2] = PyLong_FromSsize_t(s->index);
  v[3] = PyLong_FromUnsignedLongLong(s->game_pos.offset);
  v[4] = PyLong_FromUnsignedLongLong(s->game_pos.line);
  v[5] = PyLong_FromUnsignedLongLong(s->game_pos.column);
  return sgfpy_structseq_fill(o, v, 6);
}

static PyObject *take_pending(Stream *s) {
  PyObject *d = s->pending;
  s->pending = PyList_New(0);
  if (!s->pending) {
    s->pending = d;
    return NULL;
  }
  return d;
}

/* games: the game ended at input offset end (its ')', or the end). */
static int game_done(Stream *s, uint64_t end) {
  uint64_t a = s->game_start, b = end + 1;
  if (a < s->base) a = s->base; /* cannot be: the window keeps it */
  if (b > s->base + s->len) b = s->base + s->len;
  if (b < a) b = a;
  GameRecord *r = PyObject_New(GameRecord, &GameRecord_Type);
  if (!r) return -1;
  r->data =
      PyBytes_FromStringAndSize(s->win + (a - s->base), (Py_ssize_t)(b - a));
  r->source = make_source(s);
  r->diagnostics = take_pending(s);
  r->moves =
      PyBytes_FromStringAndSize((const char *)s->mv, (Py_ssize_t)s->mvlen);
  /* a UTF-16 input was converted: its CA no longer says what the bytes
   * are (the override still does) */
  r->charset = s->utf16 && s->charset == Py_None ? str_utf8 : s->charset;
  Py_INCREF(r->charset);
  r->game = NULL;
  r->nodes = s->nodes;
  r->mainline = s->mainline;
  if (!r->data || !r->source || !r->diagnostics || !r->moves) {
    Py_DECREF(r);
    return -1;
  }
  s->ready = (PyObject *)r;
  return 0;
}

/* Printable ASCII but the backslash: FF[4] SimpleText decoding gives
 * these bytes as themselves. */
static int plain_ascii(const char *raw, size_t len) {
  const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
  size_t i = 0;
  for (; len - i >= 8; i += 8) {
    uint64_t x, b;
    memcpy(&x, raw + i, 8);
    b = x ^ (ones * '\\');
    /* a byte below 0x20, a backslash, or 0x7f and up */
    if (((x | (x - ones * 0x20) | (b - ones) | (x + ones)) & high) != 0)
      return 0;
  }
  for (; i < len; i++) {
    unsigned char c = (unsigned char)raw[i];
    if (c < 0x20 || c > 0x7e || c == '\\') return 0;
  }
  return 1;
}

/* Does the game's charset give each plain_ascii byte as itself (it does
 * but for the odd charset: UTF-16, UTF-7, EBCDIC...)? Then such text
 * needs no decoding nor conversion. Probed once for each CA, as the
 * converter would take it: the same answer for every text of the game. */
static int ascii_probe(Stream *s, int kind, const char *ca, size_t calen) {
  if (s->probed == kind && calen == s->probe_ca_len &&
      (calen == 0 || memcmp(ca, s->probe_ca, calen) == 0))
    return 0;
  char all[0x7f - 0x20];
  size_t n = 0;
  for (int c = 0x20; c < 0x7f; c++)
    if (c != '\\') all[n++] = (char)c;
  sgf_charset_info info;
  size_t off = 0;
  int k =
      sgf_charset_convert(s->cs, all, n, &s->conv, &s->conv_cap, &info, &off);
  if (k < 0 && k != SGF_ESYNTAX) {
    PyErr_NoMemory();
    return -1;
  }
  s->ascii_same = k == (int)n && memcmp(s->conv, all, n) == 0;
  s->probed = calen <= sizeof s->probe_ca ? kind : 0;
  if (s->probed) {
    s->probe_ca_len = calen;
    if (calen) memcpy(s->probe_ca, ca, calen);
  }
  return 0;
}

/* headers: the position of the '[' of field i's first value. */
static sgf_pos header_pos(Stream *s, int i) {
  if (s->hpend & (1u << i)) {
    s->hpos[i] = sgf_batch_position(s->p, &s->batch->ev[s->hev[i]]);
    s->hpend &= ~(1u << i);
  }
  return s->hpos[i];
}

/* headers: the text of field i does not decode in its charset (and is
 * read as ISO-8859-1): its diagnostic (stream_text.c) joins the game's
 * others in s->pending (attach_pending puts them on its dict), or is
 * SGFError in strict mode (where any other would have stopped the parse
 * already). 0, or -1 with an exception. */
static int header_bad_text(Stream *s, int i, const sgf_charset_info *info,
                           size_t off) {
  PyObject *d = sgfpy_text_diag(
      s->dfile, header_pos(s, i), s->hbuf + s->hstart[i], s->hsize[i],
      SGF_TEXT_SIMPLE, off, info->charset, (unsigned char)s->text[off]);
  if (!d) return -1;
  int rc = PyList_Append(s->pending, d);
  Py_DECREF(d);
  if (rc < 0) return -1;
  if (s->strict) {
    sgfpy_raise_sgf_error(s->pending, NULL);
    return -1;
  }
  return 0;
}

/* headers: a warning of the header itself at the '[' of field i's value
 * (or of CA, i == NFIELDS), in s->pending with the game's others, as
 * `sgf json --headers` says it (tools/json/json_value.c). A warning
 * stops nothing, in strict mode neither. 0, or -1 with an exception. */
static int header_warning(Stream *s, int i, int code, const char *name,
                          const char *msg) {
  PyObject *d = sgfpy_diagnostic_make(s->dfile, header_pos(s, i), code, name,
                                      "warning", msg);
  if (!d) return -1;
  int rc = PyList_Append(s->pending, d);
  Py_DECREF(d);
  return rc;
}

/* headers: the value of a field as Python: typed, or as text. */
static PyObject *header_value(Stream *s, int i) {
  const char *raw = s->hbuf + s->hstart[i];
  size_t len = s->hsize[i];
  switch (fields[i].kind) {
    case 'r': {
      double d;
      if (sgf_real_decode(raw, len, &d, NULL) == 0)
        return PyFloat_FromDouble(d);
      break;
    }
    case 'n': {
      int64_t n;
      if (sgf_number_decode(raw, len, &n, NULL) == 0)
        return PyLong_FromLongLong((long long)n);
      break;
    }
    case 's': {
      sgf_board b;
      if (sgf_board_decode(raw, len, &b, NULL) == 0)
        return Py_BuildValue("(ii)", b.width, b.height);
      if (header_warning(s, i, SGFPY_DIAG_BAD_SIZE, "bad-size",
                         "SZ: not a board size; 19 x 19 assumed") < 0)
        return NULL;
      break; /* the text, as the tool gives it */
    }
    default:
      break;
  }
  if (s->ascii_same && plain_ascii(raw, len)) {
    PyObject *u = PyUnicode_New((Py_ssize_t)len, 0x7f);
    if (u && len) memcpy(PyUnicode_DATA(u), raw, len);
    return u;
  }
  /* text: FF[4] SimpleText decoded, then from the game's charset */
  if (grow(&s->text, &s->text_cap, len + 1) < 0) return NULL;
  size_t n = sgf_text_decode_dbcs(raw, len, s->text, SGF_TEXT_SIMPLE,
                                  sgf_charset_declared(s->cs));
  sgf_charset_info info;
  size_t off = 0;
  int k = sgf_charset_convert(s->cs, s->text, n, &s->conv, &s->conv_cap, &info,
                              &off);
  if (k == SGF_ESYNTAX) { /* read as ISO-8859-1, and said */
    if (header_bad_text(s, i, &info, off) < 0) return NULL;
    k = (int)info.len;
  }
  if (k < 0) return PyErr_NoMemory();
  return PyUnicode_DecodeUTF8(s->conv, k, "surrogateescape");
}

/* The diagnostics of the game so far in s->pending (the parser's: text
 * before it, its root node; at its end, the part passed over; and
 * header_bad_text's), moved into the game's dict d under "diagnostics",
 * in input order; no key when there is none. 0, or -1 with an
 * exception. */
static int attach_pending(Stream *s, PyObject *d) {
  Py_ssize_t n = PyList_GET_SIZE(s->pending);
  if (n == 0) return 0;
  PyObject *l = PyDict_GetItemWithError(d, key_diagnostics); /* borrowed */
  if (!l) {
    if (PyErr_Occurred() || !(l = PyList_New(0))) return -1;
    int rc = PyDict_SetItem(d, key_diagnostics, l);
    Py_DECREF(l);
    if (rc < 0) return -1;
  }
  /* (Diagnostics are tuples: file, line, column, ...; one file a
   * stream, so they sort by place) */
  Py_ssize_t end = PyList_GET_SIZE(l);
  if (PyList_SetSlice(l, end, end, s->pending) < 0 || PyList_Sort(l) < 0)
    return -1;
  return PyList_SetSlice(s->pending, 0, n, NULL);
}

static int headers_done(Stream *s) {
  PyObject *d = PyDict_Copy(s->tmpl);
  if (!d) return -1;
  sgf_charset_reset(s->cs);
  int probe;
  if (s->utf16) {
    /* converted to UTF-8: CA is moot (as for the sgf tool) */
    sgf_charset_set_ca(s->cs, "UTF-8", 5);
    probe = ascii_probe(s, 2, NULL, 0);
  } else if (s->have[NFIELDS] &&
             grow(&s->text, &s->text_cap, s->hsize[NFIELDS] + 1) == 0) {
    size_t n = sgf_text_decode(s->hbuf + s->hstart[NFIELDS], s->hsize[NFIELDS],
                               s->text, SGF_TEXT_SIMPLE);
    if (sgf_charset_set_ca(s->cs, s->text, n) != 0) {
      /* unknown: the default applies */
      char msg[160];
      snprintf(msg, sizeof msg,
               "CA[%.*s]: a charset iconv does not know; text read as "
               "UTF-8, else ISO-8859-1",
               (int)(n > 40 ? 40 : n), s->text);
      if (header_warning(s, NFIELDS, SGFPY_DIAG_UNKNOWN_CHARSET,
                         "unknown-charset", msg) < 0)
        goto fail_nov;
    }
    probe = ascii_probe(s, 3, s->text, n);
  } else {
    probe = ascii_probe(s, 1, NULL, 0);
  }
  if (probe < 0) goto fail_nov;
  PyObject *v;
#define PUT(k, expr)                                    \
  do {                                                  \
    v = (expr);                                         \
    if (!v || PyDict_SetItem(d, (k), v) < 0) goto fail; \
    Py_DECREF(v);                                       \
  } while (0)
  PUT(key_game, PyLong_FromSsize_t(s->index));
  PUT(key_offset, PyLong_FromUnsignedLongLong(s->game_pos.offset));
  PUT(key_line, PyLong_FromUnsignedLongLong(s->game_pos.line));
  PUT(key_column, PyLong_FromUnsignedLongLong(s->game_pos.column));
  for (int i = 0; i < NFIELDS; i++) {
    if (s->have[i] == 1) PUT(field_keys[i], header_value(s, i));
  }
#undef PUT
  if (attach_pending(s, d) < 0) goto fail_nov;
  s->ready = d;
  return 0;
fail:
  Py_XDECREF(v);
fail_nov:
  Py_DECREF(d);
  return -1;
}

static void game_begin(Stream *s, sgf_parser *p, const sgf_batch *b,
                       const sgf_event *e) {
  s->in_game = 1;
  s->game_pos = sgf_batch_position(p, e);
  s->game_start = s->game_pos.offset;
  s->nodes = 0;
  s->main_open = 1;
  s->main_done = 0;
  s->root_open = 0;
  s->root_seen = 0;
  s->cur = 0;
  s->mvlen = 0;
  sgf_board_init(&s->board);
  s->hlen = 0;
  s->hpend = 0;
  memset(s->have, 0, sizeof s->have);
  s->filling = -1;
}

static int on_batch_games(sgf_parser *p, void *user, const sgf_batch *b) {
  Stream *s = user;
  int action = SGF_CONTINUE;
  if (s->failed) return SGF_ABORT;
  for (size_t i = 0; i < b->n; i++) {
    const sgf_event *e = &b->ev[i];
    switch (e->kind) {
      case SGF_EVENT_TREE_BEGIN:
        s->depth++;
        if (s->depth == 1) {
          game_begin(s, p, b, e);
        } else if (!s->main_done && s->depth == s->main_open + 1) {
          s->main_open = s->depth;
        }
        break;
      case SGF_EVENT_TREE_END:
        if (s->depth == 1) {
          uint64_t end = (e->flags & SGF_EVENT_FAR)
                             ? sgf_batch_position(p, e).offset
                             : b->offset + e->offset;
          s->depth = 0;
          s->in_game = 0;
          if (game_done(s, end) < 0) {
            s->failed = 1;
            return SGF_ABORT;
          }
          s->index++;
          action = SGF_PAUSE; /* the last record of its batch (stop_kinds) */
        } else {
          if (!s->main_done && s->depth == s->main_open) s->main_done = 1;
          if (s->depth) s->depth--;
        }
        break;
      case SGF_EVENT_NODE:
        s->nodes++;
        s->root_open = !s->root_seen && s->depth == 1;
        s->root_seen = 1;
        s->cur = 0;
        break;
      case SGF_EVENT_PROPERTY:
        s->cur = 0;
        if (e->ident == SGF_IDENT('B', 0) || e->ident == SGF_IDENT('W', 0)) {
          if (!s->main_done && s->depth == s->main_open)
            s->cur = e->ident == SGF_IDENT('B', 0) ? 1 : 2;
        } else if (e->ident == SGF_IDENT('S', 'Z') && s->root_open &&
                   !s->have[0]) {
          s->cur = 3;
        }
        s->vlen = 0;
        break;
      case SGF_EVENT_VALUE:
        if (!s->cur) break;
        if (e->flags & SGF_VALUE_FIRST) s->vlen = 0;
        if (e->len && s->vlen + e->len <= sizeof s->vbuf)
          memcpy(s->vbuf + s->vlen, sgf_event_bytes(b, e), e->len);
        s->vlen += e->len;
        if (e->flags & SGF_VALUE_LAST) {
          if (s->cur == 3) {
            s->have[0] = 1; /* the first SZ only */
            if (s->vlen > sizeof s->vbuf ||
                sgf_board_decode(s->vbuf, s->vlen, &s->board, NULL) != 0)
              sgf_board_init(&s->board);
            s->cur = 0;
          } else {
            move_push(s, s->cur);
            if (s->failed) return SGF_ABORT;
          }
          s->vlen = 0;
        }
        break;
      case SGF_EVENT_MOVES: {
        size_t count = sgf_event_count(e);
        s->nodes += (Py_ssize_t)count;
        s->root_open = 0;
        s->root_seen = 1;
        s->cur = 0;
        if (s->main_done || s->depth != s->main_open) break;
        sgf_run_iter it;
        sgf_run_node nd;
        sgf_run_iter_init(&it, sgf_event_bytes(b, e), e->len, NULL);
        if (s->mvlen + 3 * count > s->mvcap &&
            grow((char **)&s->mv, &s->mvcap, s->mvlen + 3 * count) < 0) {
          s->failed = 1;
          return SGF_ABORT;
        }
        while (sgf_run_iter_next(&it, &nd)) {
          if (nd.letter != 'B' && nd.letter != 'W') continue;
          unsigned char *m = s->mv + s->mvlen;
          unsigned char c0 = (unsigned char)nd.value[0] - 'a',
                        c1 = (unsigned char)nd.value[1] - 'a';
          m[0] = nd.letter == 'B' ? 1 : 2;
          if (c0 < 26 && c1 < 26 && c0 < s->board.width &&
              c1 < s->board.height) {
            m[1] = c0;
            m[2] = c1;
            if (c0 == 19 && c1 == 19 && s->board.width <= 19 &&
                s->board.height <= 19)
              m[1] = m[2] = 255;
          } else {
            memcpy(s->vbuf, nd.value, 2);
            s->vlen = 2;
            s->mvlen += 0;
            move_push(s, m[0]);
            if (s->failed) return SGF_ABORT;
            continue;
          }
          s->mvlen += 3;
        }
        break;
      }
      default:
        break;
    }
  }
  return action;
}

static int on_batch_headers(sgf_parser *p, void *user, const sgf_batch *b) {
  Stream *s = user;
  int action = SGF_CONTINUE;
  if (s->failed) return SGF_ABORT;
  s->batch = b;
  for (size_t i = 0; i < b->n; i++) {
    const sgf_event *e = &b->ev[i];
    switch (e->kind) {
      case SGF_EVENT_TREE_BEGIN:
        s->depth++;
        if (s->depth == 1) game_begin(s, p, b, e);
        break;
      case SGF_EVENT_TREE_END:
        if (s->depth) s->depth--;
        if (s->depth == 0) {
          s->in_game = 0;
          if (!s->root_seen || s->root_open) { /* root cut short */
            if (headers_done(s) < 0) {
              s->failed = 1;
              return SGF_ABORT;
            }
          } else if (s->ready && attach_pending(s, s->ready) < 0) {
            s->failed = 1; /* (what the skip found: the game's too) */
            return SGF_ABORT;
          }
          s->index++;
          action = SGF_PAUSE;
        }
        break;
      case SGF_EVENT_NODE:
        s->root_open = !s->root_seen && s->depth == 1;
        s->root_seen = 1;
        s->filling = -1;
        break;
      case SGF_EVENT_PROPERTY:
        s->filling = -1;
        if (!s->root_open) break;
        if (e->len == 2) {
          const char *id = sgf_event_bytes(b, e);
          int slot = -1;
          if (id[0] == 'C' && id[1] == 'A') {
            slot = NFIELDS;
          } else {
            for (int k = 0; k < NFIELDS; k++)
              if (id[0] == fields[k].id[0] && id[1] == fields[k].id[1]) {
                slot = k;
                break;
              }
          }
          if (slot >= 0 && !s->have[slot]) {
            s->filling = slot;
            s->have[slot] = 1;
            s->hstart[slot] = s->hlen;
            s->hsize[slot] = 0;
          }
        }
        break;
      case SGF_EVENT_VALUE:
        if (s->filling < 0) break;
        if (e->flags & SGF_VALUE_FIRST) { /* its '[': header_pos */
          s->hev[s->filling] = i;
          s->hpend |= 1u << s->filling;
        }
        if (s->hsize[s->filling] + e->len > HEADER_VALUE_MAX) {
          s->have[s->filling] = 2; /* dropped: None */
        } else {
          if (grow(&s->hbuf, &s->hcap, s->hlen + e->len) < 0) {
            s->failed = 1;
            return SGF_ABORT;
          }
          if (e->len) memcpy(s->hbuf + s->hlen, sgf_event_bytes(b, e), e->len);
          s->hlen += e->len;
          s->hsize[s->filling] += e->len;
        }
        if (e->flags & SGF_VALUE_LAST) s->filling = -1; /* the first value */
        break;
      case SGF_EVENT_PROPERTY_END:
        s->filling = -1;
        break;
      case SGF_EVENT_NODE_END:
        if (s->root_open) {
          s->root_open = 0;
          if (headers_done(s) < 0) {
            s->failed = 1;
            return SGF_ABORT;
          }
          action = SGF_SKIP; /* the rest of the game, unparsed */
        }
        break;
      default:
        break;
    }
  }
  /* a root node going on in the next batch: its values' positions now,
   * while their records are there */
  if (s->hpend && s->in_game && (s->root_open || !s->root_seen))
    for (int k = 0; k <= NFIELDS; k++)
      if (s->hpend & (1u << k)) header_pos(s, k);
  return action;
}

static void stream_dealloc(Stream *s) {
  if (s->p) sgf_parser_destroy(s->p);
  if (s->cs) {
    sgf_charset_free(s->cs, s->conv, s->conv_cap);
    sgf_charset_destroy(s->cs);
  }
  PyMem_Free(s->ev);
  PyMem_Free(s->win);
  PyMem_Free(s->mv);
  PyMem_Free(s->hbuf);
  PyMem_Free(s->text);
  PyMem_Free(s->raw);
  Py_XDECREF(s->reader);
  Py_XDECREF(s->readinto);
  Py_XDECREF(s->read);
  Py_XDECREF(s->file);
  Py_XDECREF(s->dfile);
  Py_XDECREF(s->member);
  Py_XDECREF(s->charset);
  Py_XDECREF(s->pending);
  Py_XDECREF(s->tmpl);
  Py_XDECREF(s->ready);
  Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *stream_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"reader", "mode",    "file",     "member",
                           "strict", "charset", "mainline", NULL};
  PyObject *reader, *file = Py_None, *member = Py_None, *charset = Py_None;
  int mode = MODE_GAMES, strict = 0, mainline = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|iOOpOp", kwlist, &reader, &mode,
                                   &file, &member, &strict, &charset,
                                   &mainline))
    return NULL;
  if (charset != Py_None && !PyUnicode_Check(charset)) {
    PyErr_SetString(PyExc_TypeError, "charset must be a str or None");
    return NULL;
  }
  Stream *s = (Stream *)type->tp_alloc(type, 0);
  if (!s) return NULL;
  s->mode = mode == MODE_HEADERS ? MODE_HEADERS : MODE_GAMES;
  s->strict = strict;
  s->mainline = mainline;
  Py_INCREF(reader);
  s->reader = reader;
  Py_INCREF(file);
  s->file = file;
  Py_INCREF(member);
  s->member = member;
  /* as the sgf tool names it, and Diagnostic.file says */
  if (file != Py_None && member != Py_None) {
    s->dfile = PyUnicode_FromFormat("%S:%S", file, member);
    if (!s->dfile) goto fail;
  } else {
    Py_INCREF(file);
    s->dfile = file;
  }
  Py_INCREF(charset);
  s->charset = charset;
  s->pending = PyList_New(0);
  if (!s->pending) goto fail;
  if (PyObject_HasAttrString(reader, "readinto")) {
    s->readinto = PyObject_GetAttrString(reader, "readinto");
    if (!s->readinto) goto fail;
  } else {
    s->read = PyObject_GetAttrString(reader, "read");
    if (!s->read) goto fail;
  }
  s->ev = PyMem_Malloc(EVCAP * sizeof *s->ev);
  if (!s->ev) {
    PyErr_NoMemory();
    goto fail;
  }
  sgf_callbacks cb;
  sgf_callbacks_init(&cb);
  cb.on_diagnostic = on_diag;
  sgf_options opt;
  sgf_options_init(&opt);
  if (strict) opt.flags |= SGF_OPT_STRICT;
  if (mainline) opt.flags |= SGF_OPT_MAINLINE;
  s->p = sgf_parser_create(&cb, s, &opt);
  if (!s->p) {
    PyErr_NoMemory();
    goto fail;
  }
  sgf_batch_options bo;
  sgf_batch_options_init(&bo);
  bo.events = s->ev;
  bo.capacity = EVCAP;
  if (s->mode == MODE_GAMES) {
    bo.on_batch = on_batch_games;
    bo.kinds = 1u << SGF_EVENT_TREE_BEGIN | 1u << SGF_EVENT_TREE_END |
               1u << SGF_EVENT_NODE | 1u << SGF_EVENT_PROPERTY |
               1u << SGF_EVENT_VALUE | 1u << SGF_EVENT_MOVES;
    bo.stop_kinds = 1u << SGF_EVENT_TREE_END;
  } else {
    bo.on_batch = on_batch_headers;
    bo.kinds = 1u << SGF_EVENT_TREE_BEGIN | 1u << SGF_EVENT_TREE_END |
               1u << SGF_EVENT_NODE | 1u << SGF_EVENT_PROPERTY |
               1u << SGF_EVENT_VALUE | 1u << SGF_EVENT_PROPERTY_END |
               1u << SGF_EVENT_NODE_END;
    bo.stop_kinds = 1u << SGF_EVENT_TREE_END | 1u << SGF_EVENT_NODE_END;
    sgf_charset_options co;
    sgf_charset_options_init(&co);
    if (charset != Py_None) {
      co.override = PyUnicode_AsUTF8(charset);
      if (!co.override) goto fail;
    }
    s->tmpl = PyDict_Copy(header_template);
    if (!s->tmpl || PyDict_SetItem(s->tmpl, key_file, file) < 0 ||
        PyDict_SetItem(s->tmpl, key_member, member) < 0)
      goto fail;
    s->cs = sgf_charset_create(&co);
    if (!s->cs) {
      PyErr_Format(PyExc_ValueError, "charset %R: not known to iconv", charset);
      goto fail;
    }
  }
  if (sgf_parser_set_batch(s->p, &bo) != SGF_OK) {
    PyErr_SetString(PyExc_RuntimeError, "sgf_parser_set_batch failed");
    goto fail;
  }
  return (PyObject *)s;
fail:
  Py_DECREF(s);
  return NULL;
}

/* Read up to CHUNK bytes from the reader into *buf + at (room for CHUNK
 * there: the caller's; more if read() gives more: *buf grows). Returns
 * the bytes read (0 at end of input) or -1. */
static Py_ssize_t read_some(Stream *s, char **buf, size_t *cap, size_t at) {
  Py_ssize_t got;
  if (s->readinto) {
    got = sgfpy_readinto(s->readinto, *buf + at, CHUNK);
    if (got < 0) return -1;
  } else {
    PyObject *r = PyObject_CallFunction(s->read, "n", (Py_ssize_t)CHUNK);
    if (!r) return -1;
    Py_buffer view;
    if (PyObject_GetBuffer(r, &view, PyBUF_SIMPLE) < 0) {
      Py_DECREF(r);
      return -1;
    }
    got = view.len;
    if (got > CHUNK) {
      /* more than asked: take it all */
      if (grow(buf, cap, at + (size_t)got) < 0) {
        PyBuffer_Release(&view);
        Py_DECREF(r);
        return -1;
      }
    }
    if (got) memcpy(*buf + at, view.buf, (size_t)got);
    PyBuffer_Release(&view);
    Py_DECREF(r);
  }
  return got;
}

/* Convert n bytes of UTF-16 at in (the input's next ones) into the
 * window. 0, or -1 (no memory). A lone surrogate: u16_bad, the text
 * before it kept. */
static int convert(Stream *s, const char *in, size_t n) {
  while (n > 0 && !s->u16_bad) {
    /* a code unit gives at most 3 bytes of UTF-8 (a pair: 4 for 4) */
    if (grow(&s->win, &s->cap, s->len + n + n / 2 + 8) < 0) return -1;
    size_t used = 0, wrote = 0;
    int rc = sgf_utf16_decode(&s->u16, in, n, &used, s->win + s->len,
                              s->cap - s->len, &wrote);
    s->len += wrote;
    if (rc != SGF_OK) s->u16_bad = 1;
    in += used;
    n -= used;
  }
  return 0;
}

/* The end of a UTF-16 input: a character cut off is an error too. */
static void convert_end(Stream *s) {
  if (!s->u16_bad && sgf_utf16_decode_end(&s->u16) != SGF_OK) s->u16_bad = 1;
}

/* fill() for a UTF-16 input: read, convert; the bytes added to the
 * window, 0 at the end of input (or after a bad character), -1. */
static Py_ssize_t fill_utf16(Stream *s) {
  size_t before = s->len;
  while (s->len == before && !s->u16_bad) {
    if (grow(&s->raw, &s->raw_cap, CHUNK) < 0) return -1;
    Py_ssize_t got = read_some(s, &s->raw, &s->raw_cap, 0);
    if (got < 0) return -1;
    if (got == 0) {
      convert_end(s);
      break;
    }
    if (convert(s, s->raw, (size_t)got) < 0) return -1;
  }
  return (Py_ssize_t)(s->len - before);
}

/* The first fill: read until 4 bytes (or the end) decide whether the
 * input is UTF-16 (sgf_utf16_detect, as the parser and the sgf tool
 * decide); if so, say it (the warning utf16-input at 1:1, an error in
 * strict mode) and convert from then on. */
static Py_ssize_t fill_first(Stream *s) {
  Py_ssize_t got;
  int order;
  size_t mark = 0;
  do {
    if (grow(&s->win, &s->cap, s->len + CHUNK) < 0) return -1;
    got = read_some(s, &s->win, &s->cap, s->len);
    if (got < 0) return -1;
    s->len += (size_t)got;
    order = sgf_utf16_detect(s->win, s->len, got == 0, &mark);
  } while (order == SGF_UTF16_UNDECIDED);
  s->decided = 1;
  if (order == SGF_UTF16_NONE) return (Py_ssize_t)s->len;
  s->utf16 = 1;
  sgf_utf16_decoder_init(&s->u16, order);
  sgf_diag d;
  memset(&d, 0, sizeof d);
  d.code = SGF_DIAG_UTF16_INPUT;
  d.pos = sgf_parser_position(s->p);
  sgf_parser_report(s->p, &d);
  if (s->failed) return -1;
  /* the bytes read, as UTF-16, to raw; the window gets their text */
  size_t n = s->len - mark;
  if (grow(&s->raw, &s->raw_cap, n > CHUNK ? n : CHUNK) < 0) return -1;
  memcpy(s->raw, s->win + mark, n);
  s->len = 0;
  if (convert(s, s->raw, n) < 0) return -1;
  if (got == 0) convert_end(s);
  if (s->len > 0 || got == 0 || s->u16_bad) return (Py_ssize_t)s->len;
  return fill_utf16(s);
}

/* The window: drop the bytes no game or event still needs, then read up
 * to CHUNK more. Returns the bytes read (0 at end of input) or -1. */
static Py_ssize_t fill(Stream *s) {
  uint64_t keep = sgf_parser_held_offset(s->p);
  if (s->mode == MODE_GAMES && s->in_game && s->game_start < keep)
    keep = s->game_start;
  if (keep > s->base + s->fed) keep = s->base + s->fed;
  if (keep > s->base) {
    size_t drop = (size_t)(keep - s->base);
    memmove(s->win, s->win + drop, s->len - drop);
    s->len -= drop;
    s->fed -= drop;
    s->base = keep;
  }
  if (grow(&s->win, &s->cap, s->len + CHUNK) < 0) return -1;
  /* a window that grew for a big game shrinks back after it */
  if (s->cap > 4 * (s->len + CHUNK) && s->cap > 4 * CHUNK) {
    size_t n = s->len + CHUNK;
    char *w = PyMem_Realloc(s->win, n);
    if (w) {
      s->win = w;
      s->cap = n;
    }
  }
  if (!s->decided) return fill_first(s);
  if (s->utf16) return fill_utf16(s);
  Py_ssize_t got = read_some(s, &s->win, &s->cap, s->len);
  if (got > 0) s->len += (size_t)got;
  return got;
}

static PyObject *parse_error(Stream *s, int rc) {
  if (rc == SGF_EPARSE) {
    const sgf_diag *d = sgf_parser_error(s->p);
    /* on_diagnostic had it already; else add it */
    if (d && PyList_GET_SIZE(s->pending) == 0) {
      PyObject *o = sgfpy_diagnostic_new(d, s->dfile);
      if (!o || PyList_Append(s->pending, o) < 0) {
        Py_XDECREF(o);
        return NULL;
      }
      Py_DECREF(o);
    }
    return sgfpy_raise_sgf_error(s->pending, "parse stopped");
  }
  return sgfpy_raise_code(rc);
}

static PyObject *stream_next(Stream *s) {
  for (;;) {
    /* a header dict once its game has ended (the part passed over may
     * still have diagnostics for it), whatever the chunks' ends */
    if (s->ready && !(s->mode == MODE_HEADERS && s->in_game)) {
      PyObject *r = s->ready;
      s->ready = NULL;
      return r;
    }
    if (s->done) return NULL;
    int rc;
    if (s->fed < s->len) {
      size_t consumed = 0;
      rc = sgf_parser_feed(s->p, s->win + s->fed, s->len - s->fed, &consumed);
      s->fed += consumed;
    } else if (!s->eof) {
      Py_ssize_t got = fill(s);
      if (got < 0) {
        s->done = 1;
        return NULL;
      }
      if (got == 0) s->eof = 1;
      continue;
    } else if (s->u16_bad == 1) {
      /* UTF-16 that does not decode: fatal, where the character would
       * have been in the converted text, after the text before it */
      sgf_diag d;
      memset(&d, 0, sizeof d);
      d.code = SGF_DIAG_UTF16_INVALID;
      d.pos = sgf_parser_position(s->p);
      s->u16_bad = 2;
      sgf_parser_report(s->p, &d);
      rc = SGF_EPARSE;
    } else if (!s->finished) {
      rc = sgf_parser_finish(s->p);
      if (rc == SGF_OK) s->finished = 1;
    } else {
      s->done = 1;
      return NULL; /* StopIteration */
    }
    if (s->failed) {
      s->done = 1;
      return NULL;
    }
    if (rc == SGF_PAUSED) {
      sgf_parser_resume(s->p);
    } else if (rc != SGF_OK) {
      s->done = 1;
      Py_CLEAR(s->ready);
      return parse_error(s, rc);
    }
  }
}

static PyObject *stream_iter(PyObject *s) {
  Py_INCREF(s);
  return s;
}

static PyObject *stream_get_pending(Stream *s, void *closure) {
  Py_INCREF(s->pending);
  return s->pending;
}

static PyGetSetDef stream_getset[] = {
    {"pending", (getter)stream_get_pending, NULL,
     "Diagnostics found after the last game (junk after it, a ')' too "
     "many, no game at all).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject Stream_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream._core.Stream",
    .tp_basicsize = sizeof(Stream),
    .tp_dealloc = (destructor)stream_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc =
        "Stream(reader, mode=0, file=None, member=None, strict=False, "
        "charset=None, mainline=False)\n\nThe games (mode 0) or "
        "header dicts (mode 1) of one input, read from\nreader "
        "(readinto() or read()). Internal: use sgfstream.games() and\n"
        "sgfstream.headers().",
    .tp_iter = stream_iter,
    .tp_iternext = (iternextfunc)stream_next,
    .tp_getset = stream_getset,
    .tp_new = stream_new,
};

int sgfpy_init_stream(PyObject *m) {
  source_type = PyStructSequence_NewType(&source_desc);
  if (!source_type) return -1;
  Py_INCREF(source_type);
  if (PyModule_AddObject(m, "Source", (PyObject *)source_type) < 0) return -1;
  if (PyType_Ready(&GameRecord_Type) < 0 || PyType_Ready(&Stream_Type) < 0)
    return -1;
  Py_INCREF(&GameRecord_Type);
  if (PyModule_AddObject(m, "GameRecord", (PyObject *)&GameRecord_Type) < 0)
    return -1;
  Py_INCREF(&Stream_Type);
  if (PyModule_AddObject(m, "Stream", (PyObject *)&Stream_Type) < 0) return -1;
  str_B = PyUnicode_InternFromString("B");
  if (!str_B) return -1;
  str_utf8 = PyUnicode_InternFromString("UTF-8");
  if (!str_utf8) return -1;
  for (int i = 0; i < NFIELDS; i++)
    if (!(field_keys[i] = PyUnicode_InternFromString(fields[i].key))) return -1;
  if (!(key_file = PyUnicode_InternFromString("file")) ||
      !(key_member = PyUnicode_InternFromString("member")) ||
      !(key_game = PyUnicode_InternFromString("game")) ||
      !(key_offset = PyUnicode_InternFromString("offset")) ||
      !(key_line = PyUnicode_InternFromString("line")) ||
      !(key_column = PyUnicode_InternFromString("column")) ||
      !(key_diagnostics = PyUnicode_InternFromString("diagnostics")))
    return -1;
  PyObject *order[6 + NFIELDS] = {key_file,   key_member, key_game,
                                  key_offset, key_line,   key_column};
  for (int i = 0; i < NFIELDS; i++) order[6 + i] = field_keys[i];
  if (!(header_template = PyDict_New())) return -1;
  for (int i = 0; i < 6 + NFIELDS; i++)
    if (PyDict_SetItem(header_template, order[i], Py_None) < 0) return -1;
  if (PyModule_AddIntConstant(m, "MOVE_PASS", 255) < 0 ||
      PyModule_AddIntConstant(m, "MOVE_INVALID", 254) < 0 ||
      PyModule_AddIntConstant(m, "MODE_GAMES", MODE_GAMES) < 0 ||
      PyModule_AddIntConstant(m, "MODE_HEADERS", MODE_HEADERS) < 0)
    return -1;
  return sgfpy_init_handler(m);
}
