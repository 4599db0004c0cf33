/* tree.c - game trees for Python (sgfstream._core's tree part).
 *
 * Tree   a game tree: one sgf_tree (the library's compact tree, flat arrays
 *        of small records) and a cursor for the edits. sgfstream.tree.Game
 *        and sgfstream.sgfmill.sgf.Sgf_game are its Python subclasses.
 * Node   one node of a Tree: a pointer into the tree and a reference to
 *        the Tree. Made when a node is first touched (no Python object per
 *        node before that); the Tree keeps a table node -> live Node (not
 *        a reference), so the same node gives the same object for as long
 *        as someone holds it. sgfstream.tree.Node and
 *        sgfstream.sgfmill.sgf.Tree_node are its Python subclasses; the
 *        Tree makes nodes of the class its own class names in _node_class.
 * Board  a Go board that plays moves with captures (sgfmill's rules:
 *        self-capture allowed, the simple-ko point returned), AB/AW/AE
 *        setup, area score.
 *
 * Coordinates: the library's (x, y) (column from the left, row from the
 * top, SGF's order) in the generic methods; the _mill_* methods give
 * sgfmill's (row, col) with row 0 at the bottom, on the Tree's board
 * (set by _set_board).
 *
 * No recursion over the tree: walks are loops over the library's links.
 */
#include "sgfpy.h"

#include <stdint.h>
#include <string.h>

#include <sgfstream/typed.h>

/* Kept out of line: the usual path of its caller stays small. */
#if defined(__GNUC__)
#define SGFPY_COLD __attribute__((noinline, cold))
#define SGFPY_NOINLINE __attribute__((noinline))
#else
#define SGFPY_COLD
#define SGFPY_NOINLINE
#endif

/* ---------------------------------------------------------------------- */
/* Types                                                                   */

typedef struct TreeObject {
  PyObject_HEAD sgf_tree *tree;
  sgf_cursor *cur;
  PyTypeObject *node_type; /* strong */
  PyObject **live;   /* by sgf_node_id(): the node's live Node, borrowed (a
                        Node removes itself when it dies), or NULL */
  size_t nlive;      /* entries of live */
  int width, height; /* the board sgfmill points are read on */
  int mill_lenient;  /* sgfmill points: letters A-Z as 26-51 too */
  int node_plain;    /* node_type's instances are plain memory (node_make) */
  int node_fast;     /* ... and die in node_dealloc's first case: a heap
                        type of _node_class, freed by PyObject_Free */
  PyTypeObject *fast_type; /* node_type when node_fast, else NULL */
  int mill;                /* sgfmill's (_set_board called): line_list reads the
                              nodes' moves too */
} TreeObject;

typedef struct NodeObject {
  PyObject_HEAD TreeObject *owner; /* strong; NULL once cleared */
  const sgf_node *n;
  size_t id;        /* sgf_node_id(n): its entry in owner->live */
  PyObject *rawmap; /* get_raw_property_map()'s dict, made on demand */
  PyObject *move;   /* sgfmill's get_move() result, found with the node
                       (line_list), borrowed (the shared tuples live as
                       long as the module), or NULL; good while the tree
                       has no cursor (no edit) */
} NodeObject;

typedef struct BoardObject {
  PyObject_HEAD int width, height;
  unsigned char *cell; /* width * height: 0 empty, 1 black, 2 white */
  int *stack;          /* flood fill work space, width * height */
  unsigned *mark;      /* width * height: visit marks, by generation */
  unsigned gen;
  long captured[3]; /* stones captured by black [1] and white [2] */
} BoardObject;

static PyTypeObject Tree_Type;
static PyTypeObject Node_Type;
static PyTypeObject Board_Type;

static PyObject *colour_b, *colour_w; /* interned "b", "w" */

/* ---------------------------------------------------------------------- */
/* The node table: the live Node of each node, by the node's id            */

/* Room in t->live for every id the tree has handed out; 0 or -1 (no
 * memory). Ids are dense and never reused (sgf_node_id), so the table is
 * an array: no hashing, and a Node finds its entry again by its id. */
/* A dead tree's table, every entry NULL (live_keep), for the next tree
 * to take without zeroing one (a script walks games one after another). */
#define LIVE_SPARE_MAX 65536 /* entries: a table kept is at most 512 KiB */
static PyObject **live_spare;
static size_t live_spare_n;

static int live_reserve(TreeObject *t) {
  size_t need = sgf_tree_id_limit(t->tree);
  if (need <= t->nlive) return 0;
  if (!t->live && live_spare && live_spare_n >= need) {
    t->live = live_spare;
    t->nlive = live_spare_n;
    live_spare = NULL;
    live_spare_n = 0;
    return 0;
  }
  size_t n = t->nlive * 2 > need ? t->nlive * 2 : need; /* edits add some */
  PyObject **l = PyMem_Realloc(t->live, n * sizeof *l);
  if (!l) {
    PyErr_NoMemory();
    return -1;
  }
  memset(l + t->nlive, 0, (n - t->nlive) * sizeof *l);
  t->live = l;
  t->nlive = n;
  return 0;
}

/* The table of t, which dies, freed or kept for the next tree (the
 * larger of it and the one kept). Every entry is NULL: a node holds a
 * reference to its tree and clears its entry as it dies. */
static void live_keep(TreeObject *t) {
  PyObject **l = t->live;
  size_t n = t->nlive;
#ifdef Py_DEBUG
  for (size_t i = 0; i < n; i++) assert(!l[i]);
#endif
  if (l && n <= LIVE_SPARE_MAX && n > live_spare_n) {
    PyObject **old = live_spare;
    live_spare = l;
    live_spare_n = n;
    l = old;
  }
  PyMem_Free(l);
  t->live = NULL;
  t->nlive = 0;
}

/* Memory of dead nodes, for the next ones (nodes come and go by the
 * thousand as a script walks games). */
#define NODE_FREE_MAX 1024
static NodeObject *node_free[NODE_FREE_MAX];
static int node_free_n;

/* PyObject_Init(no, tp) for plain memory (node_make), heap whether tp is
 * a heap type (referenced by its instances). Inline where the
 * interpreter's object header is the usual one: the type and one
 * reference. (tracemalloc, when tracing, then keeps a reused node's
 * memory under the traceback of its first allocation.) */
#if defined(Py_REF_DEBUG) || defined(Py_TRACE_REFS) || \
    PY_VERSION_HEX >= 0x030C0000
#define NODE_INIT_INLINE 0
#else
#define NODE_INIT_INLINE 1
#endif
static inline void node_init(NodeObject *no, PyTypeObject *tp, int heap) {
#if !NODE_INIT_INLINE
  (void)heap;
  PyObject_Init((PyObject *)no, tp);
#else
  Py_SET_TYPE(no, tp);
  if (heap) Py_INCREF(tp);
  Py_SET_REFCNT(no, 1);
#endif
}

/* A new Node for n, whose id is id, entered in the table (room reserved:
 * live_reserve). New reference, or NULL. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline PyObject *
node_make(TreeObject *t, const sgf_node *n, size_t id) {
  PyTypeObject *tp = t->node_type;
  NodeObject *no;
  if (t->node_plain) {
    /* What PyType_GenericAlloc does for such a type, without the
     * generic part: one node per node reached makes it count. */
    no = node_free_n ? node_free[--node_free_n]
                     : PyObject_Malloc(sizeof(NodeObject));
    if (!no) return PyErr_NoMemory();
    node_init(no, tp, (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0);
  } else {
    no = (NodeObject *)tp->tp_alloc(tp, 0);
    if (!no) return NULL;
  }
  Py_INCREF(t);
  no->owner = t;
  no->n = n;
  no->id = id;
  no->rawmap = NULL;
  no->move = NULL;
  t->live[id] = (PyObject *)no;
  return (PyObject *)no;
}

/* The Node for n (new reference), made if none is alive. */
static PyObject *node_wrap(TreeObject *t, const sgf_node *n) {
  if (!n) Py_RETURN_NONE;
  size_t id = sgf_node_id(n);
  if (id < t->nlive && t->live[id]) {
    Py_INCREF(t->live[id]);
    return t->live[id];
  }
  if (live_reserve(t) < 0) return NULL;
  return node_make(t, n, id);
}

static inline PyObject *mill_fast_move(TreeObject *t, sgf_color c,
                                       const char *raw, size_t len,
                                       size_t nprops);

/* sgfmill's (colour, (row, col)) results (cached_move) */
static PyObject *move_cache[2][SGF_BOARD_MAX * SGF_BOARD_MAX];
static SGFPY_COLD PyObject *mill_fast_move_rest(TreeObject *t, sgf_color c,
                                                const char *raw, size_t len,
                                                size_t nprops);

/* The usual results of mill_fast_move on the board last asked for
 * (board_w x board_h), by colour (SGF_COLOR_BLACK, SGF_COLOR_WHITE) and
 * the point's raw letters (y * 26 + x): move_cache's, borrowed, or NULL
 * while not looked up (mill_line_items). */
static PyObject *board_moves[3][26 * 26];
static int board_w, board_h;

/* line_list's loop for sgfmill's games of plain nodes, never edited: the
 * Nodes of v[0..k) into items, each new one made (node_make) with its
 * get_move() result (mill_fast_move), in one loop with what it reads
 * from the tree kept at hand. 0, or -1 with an error set (no memory). */
static int mill_line_items(TreeObject *t, const sgf_line_node *v, size_t k,
                           PyObject **items) {
  PyObject **const live = t->live;
  PyTypeObject *const tp = t->node_type;
  const int heap = (tp->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0;
  int nfree = node_free_n; /* (node_free_n again at the end) */
  Py_ssize_t nmalloc = 0;  /* nodes made not from node_free */
  int rc = 0;
  /* the new nodes' references to their tree and (a heap type) their
   * type, at once (NODE_INIT_INLINE): k of them first, as many as there
   * may be (never fewer than held, whatever runs meanwhile) */
  const Py_ssize_t kk = NODE_INIT_INLINE ? (Py_ssize_t)k : 0;
  Py_SET_REFCNT(t, Py_REFCNT(t) + kk);
  if (heap) Py_SET_REFCNT(tp, Py_REFCNT(tp) + kk);
  if (t->width != board_w || t->height != board_h) {
    memset(board_moves, 0, sizeof board_moves);
    board_w = t->width;
    board_h = t->height;
  }
  /* the points of the board that board_moves holds */
  const unsigned bw = t->width < 26 ? (unsigned)t->width : 26;
  const unsigned bh = t->height < 26 ? (unsigned)t->height : 26;
  for (size_t i = 0; i < k; i++) {
    const sgf_line_node *e = &v[i];
    PyObject *o = live[e->id];
    if (o) {
      Py_INCREF(o);
      items[i] = o;
      continue;
    }
    NodeObject *no;
    if (nfree) {
      no = node_free[--nfree];
    } else if (!(no = PyObject_Malloc(sizeof(NodeObject)))) {
      PyErr_NoMemory();
      rc = -1;
      for (; i < k; i++) items[i] = NULL; /* (what the list frees) */
      break;
    } else {
      nmalloc++;
    }
#if NODE_INIT_INLINE
    Py_SET_TYPE(no, tp);
    Py_SET_REFCNT(no, 1);
#else
    node_init(no, tp, heap);
    Py_INCREF(t);
#endif
    no->owner = t;
    no->n = e->node;
    no->id = e->id;
    no->rawmap = NULL;
    PyObject *mv = NULL;
    if (e->len == 2 && (e->move == SGF_COLOR_BLACK ||
                        (e->move == SGF_COLOR_WHITE && e->nprops == 1))) {
      /* a point a-z (mill_fast_move) */
      unsigned x = (unsigned char)e->raw[0] - 'a';
      unsigned y = (unsigned char)e->raw[1] - 'a';
      if (x < bw && y < bh) { /* on the board (board_moves' entries are) */
        PyObject **slot = &board_moves[e->move][y * 26 + x];
        if (!(mv = *slot))
          *slot = mv = mill_fast_move(t, e->move, e->raw, 2, e->nprops);
      }
    }
    if (!mv) mv = mill_fast_move_rest(t, e->move, e->raw, e->len, e->nprops);
    no->move = mv;
    live[e->id] = (PyObject *)no;
    items[i] = (PyObject *)no;
  }
  /* (what was taken above and not made: nodes made, references to t
   * and tp, are those from node_free and the others) */
  const Py_ssize_t made =
      NODE_INIT_INLINE ? (Py_ssize_t)(node_free_n - nfree) + nmalloc : 0;
  Py_SET_REFCNT(t, Py_REFCNT(t) - (kk - made));
  if (heap) Py_SET_REFCNT(tp, Py_REFCNT(tp) - (kk - made));
  node_free_n = nfree;
  return rc;
}

/* line_list for sgfmill's games of plain nodes, never edited: the list
 * made as long as the tree has nodes (the line's bound: the main line of
 * most games is the whole game) and filled a piece of the line at a time
 * (mill_line_items) through a small buffer, whose records are still in
 * the cache when read; then cut to the line's length (a list of much
 * more room than that: copied). */
static PyObject *mill_line_list(TreeObject *t, const sgf_node *n) {
  sgf_line_node buf[64];
  size_t k = 0, cap = n ? sgf_tree_node_count(t->tree) : 0;
  if (cap > PY_SSIZE_T_MAX / sizeof(PyObject *)) return PyErr_NoMemory();
  if (live_reserve(t) < 0) return NULL;
  /* the list's items as the list would allocate them (PyMem), but not
   * zeroed: every one up to its length is set */
  PyObject *l = PyList_New(0);
  if (!l) return NULL;
  PyObject **items = cap ? PyMem_Malloc(cap * sizeof *items) : NULL;
  if (cap && !items) {
    Py_DECREF(l);
    return PyErr_NoMemory();
  }
  ((PyListObject *)l)->ob_item = items;
  ((PyListObject *)l)->allocated = (Py_ssize_t)cap;
  while (n && k < cap) {
    size_t room = cap - k < 64 ? cap - k : 64;
    size_t m = sgf_node_line(n, buf, room, &n);
    if (mill_line_items(t, buf, m, items + k) < 0) {
      /* (mill_line_items set to NULL the items it did not make) */
      Py_SET_SIZE(l, (Py_ssize_t)(k + m));
      Py_DECREF(l);
      return NULL;
    }
    k += m;
  }
  Py_SET_SIZE(l, (Py_ssize_t)k);
  if (k < cap / 2 && cap > 64) { /* variations: keep no room for them */
    PyObject *c = PyList_GetSlice(l, 0, (Py_ssize_t)k);
    Py_DECREF(l);
    return c;
  }
  return l;
}

/* The list of the Nodes from n along first children to the end of its
 * line (n NULL: an empty list), the line read from the library in bulk
 * (sgf_node_line); for sgfmill's games each new node gets its get_move()
 * result too. */
static PyObject *line_list(TreeObject *t, const sgf_node *n) {
  if (t->mill && !t->cur && t->node_plain) return mill_line_list(t, n);
  sgf_line_node buf[256], *v = buf;
  size_t k = 0, cap = sgf_tree_node_count(t->tree); /* the line's bound */
  PyObject *l = NULL;
  if (cap <= sizeof buf / sizeof buf[0]) {
    cap = sizeof buf / sizeof buf[0];
  } else if (!(v = PyMem_Malloc(cap * sizeof *v))) {
    PyErr_NoMemory();
    return NULL;
  }
  while (n && k < cap) k += sgf_node_line(n, v + k, cap - k, &n);
  if (live_reserve(t) < 0 || !(l = PyList_New((Py_ssize_t)k))) goto done;
  int mill = t->mill && !t->cur;
  for (size_t i = 0; i < k; i++) {
    PyObject *o = t->live[v[i].id];
    if (o) {
      Py_INCREF(o);
    } else if ((o = node_make(t, v[i].node, v[i].id))) {
      if (mill)
        ((NodeObject *)o)->move =
            mill_fast_move(t, v[i].move, v[i].raw, v[i].len, v[i].nprops);
    } else {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, o);
  }
done:
  if (v != buf) PyMem_Free(v);
  return l;
}

/* ---------------------------------------------------------------------- */
/* Node basics                                                             */

/* The node, or NULL with ValueError when it was deleted from its tree. */
static const sgf_node *node_get(NodeObject *self) {
  /* Only the Tree's cursor deletes nodes: without one none is deleted. */
  if (!self->owner || !self->n ||
      (self->owner->cur && !sgf_node_tree(self->n))) {
    PyErr_SetString(PyExc_ValueError, "node deleted from its tree");
    return NULL;
  }
  return self->n;
}

static int node_clear(NodeObject *self) {
  TreeObject *t = self->owner;
  if (t && self->id < t->nlive && t->live[self->id] == (PyObject *)self)
    t->live[self->id] = NULL;
  Py_CLEAR(self->owner);
  Py_CLEAR(self->rawmap);
  return 0;
}

/* Not garbage-collected: a node refers to its Tree and to a dict of
 * bytes, and the Tree to no node (its table holds no references), so no
 * cycle goes through a node unless a program stores nodes in its game's
 * attributes. That saves a third of the cost of making a node. */
static SGFPY_NOINLINE void node_dealloc_rest(NodeObject *self);
static void node_dealloc(NodeObject *self) {
#if NODE_INIT_INLINE
  /* the usual way a node dies, one at a time as its line's list goes (see
   * below), and with no call: no object to free but the node, the
   * references to its tree and class not the last (the refcounts
   * lowered in place, as node_init raises them) */
  PyTypeObject *tp = Py_TYPE(self);
  TreeObject *t = self->owner;
  if (t && tp == t->fast_type && !self->rawmap && node_free_n < NODE_FREE_MAX &&
      Py_REFCNT(t) > 1) { /* (t holds tp: not its last reference either) */
    if (t->live[self->id] == (PyObject *)self) t->live[self->id] = NULL;
    Py_SET_REFCNT(t, Py_REFCNT(t) - 1);
    Py_SET_REFCNT(tp, Py_REFCNT(tp) - 1);
    node_free[node_free_n++] = self;
    return;
  }
#endif
  node_dealloc_rest(self);
}
static void node_dealloc_rest(NodeObject *self) {
  PyTypeObject *tp = Py_TYPE(self), *b = tp;
  TreeObject *t = self->owner;
  if (t && tp == t->node_type && t->node_fast) {
    /* the usual way a node dies, one at a time as its line's list goes,
     * in few steps: of its tree's node class (whose instances node_make
     * made, its table entry reserved), a heap type, freed by
     * PyObject_Free */
    PyObject *rawmap = self->rawmap;
    if (t->live[self->id] == (PyObject *)self) t->live[self->id] = NULL;
    Py_DECREF(t);
    Py_XDECREF(rawmap);
    if (node_free_n < NODE_FREE_MAX)
      node_free[node_free_n++] = self;
    else
      PyObject_Free(self);
    Py_DECREF(tp);
    return;
  }
  node_clear(self);
  if (tp->tp_free == PyObject_Free && node_free_n < NODE_FREE_MAX &&
      tp->tp_basicsize == (Py_ssize_t)sizeof(NodeObject))
    node_free[node_free_n++] = self;
  else
    tp->tp_free((PyObject *)self);
  /* An instance of a heap type holds a reference to it. subtype_dealloc
   * (classes made by a class statement) drops it when the nearest class
   * with a dealloc of its own is static (Node); a node class made by
   * _node_class() is a heap type with this dealloc: drop it here. */
  while (b && b->tp_dealloc != (destructor)node_dealloc) b = b->tp_base;
  if (b && (b->tp_flags & Py_TPFLAGS_HEAPTYPE)) Py_DECREF(tp);
}

static PyObject *node_new_refused(PyTypeObject *tp, PyObject *a, PyObject *k) {
  PyErr_Format(PyExc_TypeError,
               "%s objects come from a game (get_root(), children), "
               "they are not made directly",
               tp->tp_name);
  return NULL;
}

/* Identifier argument: ASCII text. *len set. NULL with TypeError. */
static const char *ident_arg(PyObject *o, Py_ssize_t *len) {
  if (!PyUnicode_Check(o)) {
    PyErr_Format(PyExc_TypeError, "property identifier must be str, not %s",
                 Py_TYPE(o)->tp_name);
    return NULL;
  }
  return PyUnicode_AsUTF8AndSize(o, len);
}

/* Identifier of a property looked up: as ident_arg, but an identifier
 * that is not a str is looked up as a dict would look it up (sgfmill keeps
 * a node's properties in one): never present, so KeyError, or the
 * TypeError of an unhashable key. */
static const char *lookup_arg(PyObject *o, Py_ssize_t *len) {
  if (PyUnicode_Check(o)) return PyUnicode_AsUTF8AndSize(o, len);
  if (PyObject_Hash(o) != -1) PyErr_SetObject(PyExc_KeyError, o);
  return NULL;
}

static int ident_eq(const sgf_prop_view *pv, const char *id, Py_ssize_t len) {
  return pv->ident_len == (size_t)len && memcmp(pv->ident, id, len) == 0;
}

/* Values of every property named id (a node may hold it more than once:
 * they are merged, in file order, as sgfmill merges them). A new list,
 * an empty list if there is none. */
static PyObject *raw_values(const sgf_node *n, const char *id, Py_ssize_t len) {
  PyObject *l = PyList_New(0);
  if (!l) return NULL;
  size_t np = sgf_node_prop_count(n);
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    if (!ident_eq(&pv, id, len)) continue;
    for (size_t j = 0; j < pv.nvalues; j++) {
      sgf_value_view v = sgf_prop_value(&pv, j);
      PyObject *b = PyBytes_FromStringAndSize(v.raw ? v.raw : "", v.len);
      if (!b || PyList_Append(l, b) < 0) {
        Py_XDECREF(b);
        Py_DECREF(l);
        return NULL;
      }
      Py_DECREF(b);
    }
  }
  return l;
}

static int has_prop(const sgf_node *n, const char *id, Py_ssize_t len) {
  size_t np = sgf_node_prop_count(n);
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    if (ident_eq(&pv, id, len)) return 1;
  }
  return 0;
}

/* The first value of the first property named id; 0 if none. */
static int first_value(const sgf_node *n, const char *id, Py_ssize_t len,
                       sgf_value_view *out) {
  if (strlen(id) == (size_t)len) { /* the library's search, by code */
    sgf_prop_view pv = sgf_node_find_prop(n, id);
    if (pv.nvalues) {
      *out = sgf_prop_value(&pv, 0);
      return 1;
    }
    if (!pv.ident) return 0; /* none (else: one without values first) */
  }
  size_t np = sgf_node_prop_count(n);
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    if (ident_eq(&pv, id, len) && pv.nvalues) {
      *out = sgf_prop_value(&pv, 0);
      return 1;
    }
  }
  return 0;
}

static PyObject *key_error(PyObject *ident) {
  PyErr_SetObject(PyExc_KeyError, ident);
  return NULL;
}

PyDoc_STRVAR(get_raw_list_doc,
             "get_raw_list(identifier) -> list of bytes\n\n"
             "The raw values (escapes intact) of the property, every value of "
             "every\nproperty of that name in the node, in file order. "
             "KeyError if absent.");
static PyObject *node_get_raw_list(NodeObject *self, PyObject *ident) {
  Py_ssize_t len;
  const char *id = lookup_arg(ident, &len);
  const sgf_node *n = node_get(self);
  if (!id || !n) return NULL;
  PyObject *l = raw_values(n, id, len);
  if (l && PyList_GET_SIZE(l) == 0) {
    Py_DECREF(l);
    return key_error(ident);
  }
  return l;
}

PyDoc_STRVAR(get_raw_doc,
             "get_raw(identifier) -> bytes\n\n"
             "The property's first raw value (escapes intact). KeyError if "
             "absent.");
static PyObject *node_get_raw(NodeObject *self, PyObject *ident) {
  Py_ssize_t len;
  const char *id = lookup_arg(ident, &len);
  const sgf_node *n = node_get(self);
  if (!id || !n) return NULL;
  sgf_value_view v;
  if (!first_value(n, id, len, &v)) return key_error(ident);
  return PyBytes_FromStringAndSize(v.raw ? v.raw : "", v.len);
}

PyDoc_STRVAR(raw_or_none_doc,
             "_raw_or_none(identifier) -> bytes or None\n\n"
             "get_raw() without the KeyError.");
static PyObject *node_raw_or_none(NodeObject *self, PyObject *ident) {
  Py_ssize_t len;
  const char *id = lookup_arg(ident, &len);
  if (!id && PyErr_ExceptionMatches(PyExc_KeyError)) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  const sgf_node *n = node_get(self);
  if (!id || !n) return NULL;
  sgf_value_view v;
  if (!first_value(n, id, len, &v)) Py_RETURN_NONE;
  return PyBytes_FromStringAndSize(v.raw ? v.raw : "", v.len);
}

PyDoc_STRVAR(has_property_doc,
             "has_property(identifier) -> bool\n\n"
             "Whether the node holds the property.");
static PyObject *node_has_property(NodeObject *self, PyObject *ident) {
  Py_ssize_t len;
  if (!PyUnicode_Check(ident)) Py_RETURN_FALSE;
  const char *id = PyUnicode_AsUTF8AndSize(ident, &len);
  const sgf_node *n = node_get(self);
  if (!id || !n) return NULL;
  return PyBool_FromLong(has_prop(n, id, len));
}

PyDoc_STRVAR(properties_doc,
             "properties() -> list of str\n\n"
             "The identifiers of the node's properties, each once, in file "
             "order.");
static PyObject *node_properties(NodeObject *self, PyObject *unused) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  PyObject *l = PyList_New(0);
  if (!l) return NULL;
  size_t np = sgf_node_prop_count(n);
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    int seen = 0;
    for (size_t k = 0; k < i && !seen; k++) {
      sgf_prop_view q = sgf_node_prop(n, k);
      seen = q.ident_len == pv.ident_len &&
             memcmp(q.ident, pv.ident, pv.ident_len) == 0;
    }
    if (seen) continue;
    PyObject *s = PyUnicode_FromStringAndSize(pv.ident, pv.ident_len);
    if (!s || PyList_Append(l, s) < 0) {
      Py_XDECREF(s);
      Py_DECREF(l);
      return NULL;
    }
    Py_DECREF(s);
  }
  return l;
}

PyDoc_STRVAR(raw_property_map_doc,
             "get_raw_property_map() -> dict\n\n"
             "identifier -> list of raw values (bytes), for every property. "
             "The same\ndict object each time (refreshed at each call); treat "
             "it as read-only.");
static PyObject *node_get_raw_property_map(NodeObject *self, PyObject *unused) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  if (!self->rawmap && !(self->rawmap = PyDict_New())) return NULL;
  PyDict_Clear(self->rawmap);
  size_t np = sgf_node_prop_count(n);
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    PyObject *k = PyUnicode_FromStringAndSize(pv.ident, pv.ident_len);
    if (!k) return NULL;
    int has = PyDict_Contains(self->rawmap, k);
    if (has == 0) {
      PyObject *l = raw_values(n, pv.ident, (Py_ssize_t)pv.ident_len);
      if (!l || PyDict_SetItem(self->rawmap, k, l) < 0) has = -1;
      Py_XDECREF(l);
    }
    Py_DECREF(k);
    if (has < 0) return NULL;
  }
  Py_INCREF(self->rawmap);
  return self->rawmap;
}

/* ---------------------------------------------------------------------- */
/* Node: structure and navigation                                          */

static PyObject *node_parent(NodeObject *self, void *c) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  return node_wrap(self->owner, sgf_node_parent(n));
}

static PyObject *node_owner(NodeObject *self, void *c) {
  if (!self->owner) Py_RETURN_NONE;
  Py_INCREF(self->owner);
  return (PyObject *)self->owner;
}

static PyObject *node_children(NodeObject *self, void *c) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  PyObject *l = PyList_New(0);
  if (!l) return NULL;
  for (const sgf_node *k = sgf_node_first_child(n); k;
       k = sgf_node_next_sibling(k)) {
    PyObject *o = node_wrap(self->owner, k);
    if (!o || PyList_Append(l, o) < 0) {
      Py_XDECREF(o);
      Py_DECREF(l);
      return NULL;
    }
    Py_DECREF(o);
  }
  return l;
}

static Py_ssize_t node_len(NodeObject *self) {
  const sgf_node *n = node_get(self);
  if (!n) return -1;
  return (Py_ssize_t)sgf_node_child_count(n);
}

static PyObject *node_item(NodeObject *self, Py_ssize_t i) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  if (i < 0) i += (Py_ssize_t)sgf_node_child_count(n);
  const sgf_node *k = i < 0 ? NULL : sgf_node_child(n, (size_t)i);
  if (!k) {
    PyErr_SetString(PyExc_IndexError, "list index out of range");
    return NULL;
  }
  return node_wrap(self->owner, k);
}

static PyObject *node_subscript(NodeObject *self, PyObject *key) {
  if (PyIndex_Check(key)) {
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    return node_item(self, i);
  }
  if (PySlice_Check(key)) {
    PyObject *l = node_children(self, NULL);
    if (!l) return NULL;
    PyObject *r = PyObject_GetItem(l, key);
    Py_DECREF(l);
    return r;
  }
  PyErr_Format(PyExc_TypeError,
               "list indices must be integers or slices, not %s",
               Py_TYPE(key)->tp_name);
  return NULL;
}

static PyObject *node_iter(NodeObject *self) {
  PyObject *l = node_children(self, NULL);
  if (!l) return NULL;
  PyObject *it = PyObject_GetIter(l);
  Py_DECREF(l);
  return it;
}

PyDoc_STRVAR(index_doc,
             "index(child) -> int\n\n"
             "The place of child among this node's children; ValueError if it "
             "is not one.");
static PyObject *node_index_of(NodeObject *self, PyObject *child) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  if (PyObject_TypeCheck(child, &Node_Type)) {
    size_t i = 0;
    for (const sgf_node *k = sgf_node_first_child(n); k;
         k = sgf_node_next_sibling(k), i++)
      if (k == ((NodeObject *)child)->n) return PyLong_FromSize_t(i);
  }
  PyErr_SetString(PyExc_ValueError, "node is not a child of this node");
  return NULL;
}

#define SIZE_GETTER(name, fn)                               \
  static PyObject *node_##name(NodeObject *self, void *c) { \
    const sgf_node *n = node_get(self);                     \
    if (!n) return NULL;                                    \
    return PyLong_FromSize_t(fn(n));                        \
  }
SIZE_GETTER(ply, sgf_node_ply)
SIZE_GETTER(variation_depth, sgf_node_variation_depth)
SIZE_GETTER(tree_depth, sgf_node_tree_depth)
SIZE_GETTER(child_index, sgf_node_child_index)
SIZE_GETTER(preorder_index, sgf_node_index)
SIZE_GETTER(subtree_size, sgf_node_subtree_size)

#define BOOL_GETTER(name, fn)                               \
  static PyObject *node_##name(NodeObject *self, void *c) { \
    const sgf_node *n = node_get(self);                     \
    if (!n) return NULL;                                    \
    return PyBool_FromLong(fn(n));                          \
  }
BOOL_GETTER(is_mainline, sgf_node_is_mainline)
BOOL_GETTER(is_variation, sgf_node_is_variation)
BOOL_GETTER(is_initial, sgf_node_is_initial)
BOOL_GETTER(is_terminal, sgf_node_is_terminal)

static PyObject *node_move_number(NodeObject *self, void *c) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  return PyLong_FromLongLong(sgf_node_move_number(n));
}

static PyObject *colour_obj(sgf_color c) {
  PyObject *o = c == SGF_COLOR_BLACK   ? colour_b
                : c == SGF_COLOR_WHITE ? colour_w
                                       : Py_None;
  Py_INCREF(o);
  return o;
}

static PyObject *node_to_play(NodeObject *self, void *c) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  return colour_obj(sgf_node_to_play(n));
}

/* The other node of a binary query, of the same tree. */
static const sgf_node *other_node(NodeObject *self, PyObject *o) {
  if (!PyObject_TypeCheck(o, &Node_Type)) {
    PyErr_SetString(PyExc_TypeError, "expected a node");
    return NULL;
  }
  NodeObject *b = (NodeObject *)o;
  const sgf_node *bn = node_get(b);
  if (!bn) return NULL;
  if (b->owner != self->owner) {
    PyErr_SetString(PyExc_ValueError, "the nodes are not of the same game");
    return NULL;
  }
  return bn;
}

PyDoc_STRVAR(lca_doc,
             "lca(other) -> Node\n\n"
             "The latest common ancestor of the two nodes (a node is its own "
             "ancestor).");
PyDoc_STRVAR(distance_doc,
             "distance(other) -> int\n\n"
             "Distance in plies: ply(self) + ply(other) - 2 ply(lca).");
PyDoc_STRVAR(is_ancestor_of_doc,
             "is_ancestor_of(other) -> bool\n\n"
             "Whether this node is an ancestor of other (or other itself).");
PyDoc_STRVAR(is_descendant_of_doc,
             "is_descendant_of(other) -> bool\n\n"
             "Whether this node is a descendant of other (or other itself).");

/* A query on this node (a) and another of the same game (b). */
#define PAIR_QUERY(name, expr)                                  \
  static PyObject *node_##name(NodeObject *self, PyObject *o) { \
    const sgf_node *a = node_get(self);                         \
    const sgf_node *b = a ? other_node(self, o) : NULL;         \
    if (!b) return NULL;                                        \
    return expr;                                                \
  }
PAIR_QUERY(lca, node_wrap(self->owner, sgf_node_lca(a, b)))
PAIR_QUERY(distance, PyLong_FromSize_t(sgf_node_distance(a, b)))
PAIR_QUERY(is_ancestor_of, PyBool_FromLong(sgf_node_is_ancestor(a, b)))
PAIR_QUERY(is_descendant_of, PyBool_FromLong(sgf_node_is_descendant(a, b)))

PyDoc_STRVAR(main_line_doc,
             "main_line() -> list of Node\n\n"
             "From this node along first children to the end of its line.");
static PyObject *node_main_line(NodeObject *self, PyObject *unused) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  return line_list(self->owner, n);
}

/* ---------------------------------------------------------------------- */
/* Node: moves                                                             */

static PyObject *pair(long a, long b) {
  PyObject *t = PyTuple_New(2);
  if (!t) return NULL;
  PyObject *x = PyLong_FromLong(a), *y = PyLong_FromLong(b);
  if (x) PyTuple_SET_ITEM(t, 0, x);
  if (y) PyTuple_SET_ITEM(t, 1, y);
  if (!x || !y) {
    Py_DECREF(t);
    return NULL;
  }
  return t;
}

PyDoc_STRVAR(get_move_xy_doc,
             "get_move() -> (colour, point) or (None, None)\n\n"
             "The node's move, its first B or W: colour 'b' or 'w', point "
             "(x, y)\n(column from the left, row from the top, 0-based) or "
             "None for a pass.\nValueError when the value is not a move on "
             "the board (the root's SZ).");
static PyObject *node_get_move_xy(NodeObject *self, PyObject *unused) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  sgf_color c;
  sgf_move m;
  int rc = sgf_node_get_move(n, &c, &m);
  if (rc == SGF_EINVAL) return Py_BuildValue("(OO)", Py_None, Py_None);
  if (rc != SGF_OK) {
    PyErr_Format(PyExc_ValueError, "bad move value (%s)", sgf_strerror(rc));
    return NULL;
  }
  PyObject *pt = m.pass ? (Py_INCREF(Py_None), Py_None) : pair(m.pt.x, m.pt.y);
  if (!pt) return NULL;
  PyObject *col = colour_obj(c);
  PyObject *r = PyTuple_Pack(2, col, pt);
  Py_DECREF(col);
  Py_DECREF(pt);
  return r;
}

/* sgfmill's reading of a point or move value on the Tree's board:
 * 1 and (row, col), 0 for a pass (allow_pass), -1 with ValueError. */
static int mill_point(TreeObject *t, const char *raw, size_t len,
                      int allow_pass, int *row, int *col) {
  int w = t->width, h = t->height;
  if (allow_pass && (len == 0 || (len == 2 && raw[0] == 't' && raw[1] == 't' &&
                                  w <= 19 && h <= 19)))
    return 0;
  if (len == 2) {
    int x = -1, y = -1;
    unsigned char a = (unsigned char)raw[0], b = (unsigned char)raw[1];
    if (a >= 'a' && a <= 'z')
      x = a - 'a';
    else if (t->mill_lenient && a >= 'A' && a <= 'Z')
      x = a - 'A' + 26;
    if (b >= 'a' && b <= 'z')
      y = b - 'a';
    else if (t->mill_lenient && b >= 'A' && b <= 'Z')
      y = b - 'A' + 26;
    if (x >= 0 && y >= 0 && x < w && y < h) {
      *row = h - 1 - y;
      *col = x;
      return 1;
    }
  }
  PyErr_SetString(PyExc_ValueError,
                  len == 2 ? "point off the board" : "malformed point value");
  return -1;
}

static PyObject *mill_point_obj(TreeObject *t, const char *raw, size_t len,
                                int allow_pass) {
  int row, col, rc = mill_point(t, raw, len, allow_pass, &row, &col);
  if (rc < 0) return NULL;
  if (rc == 0) Py_RETURN_NONE;
  return pair(row, col);
}

/* sgfmill's (colour, (row, col)) results, made once: (row, col) pairs
 * and the pairs with each colour, by row * SGF_BOARD_MAX + col, and the
 * passes. Tuples are immutable: sharing them is invisible. */
static PyObject *point_cache[SGF_BOARD_MAX * SGF_BOARD_MAX];
static PyObject *pass_cache[2];

static PyObject *cached_move(int white, int row, int col) {
  PyObject **slot;
  if (row < 0) {
    slot = &pass_cache[white];
    if (!*slot) *slot = PyTuple_Pack(2, white ? colour_w : colour_b, Py_None);
  } else {
    int i = row * SGF_BOARD_MAX + col;
    slot = &move_cache[white][i];
    if (!*slot) {
      if (!point_cache[i] && !(point_cache[i] = pair(row, col))) return NULL;
      *slot = PyTuple_Pack(2, white ? colour_w : colour_b, point_cache[i]);
    }
  }
  Py_XINCREF(*slot);
  return *slot;
}

PyDoc_STRVAR(mill_get_move_doc,
             "get_move() -> (colour, move)\n\n"
             "sgfmill's get_move: the B property if present, else W; colour "
             "'b' or 'w',\nmove (row, col) or None for a pass; (None, None) "
             "if the node has neither.");
/* get_move for every case: a deleted node, no move, W with a B after it,
 * a pass, a value that is not a point. */
static SGFPY_COLD PyObject *mill_get_move_all(NodeObject *self) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  const char *raw;
  size_t len;
  sgf_color c = sgf_node_move_raw(n, &raw, &len);
  if (c == SGF_COLOR_NONE) {
    static PyObject *none_none;
    if (!none_none && !(none_none = PyTuple_Pack(2, Py_None, Py_None)))
      return NULL;
    Py_INCREF(none_none);
    return none_none;
  }
  if (c == SGF_COLOR_WHITE && sgf_node_prop_count(n) > 1) {
    /* sgfmill takes B when there is one, wherever it stands. */
    sgf_value_view v;
    if (first_value(n, "B", 1, &v)) {
      c = SGF_COLOR_BLACK;
      raw = v.raw;
      len = v.len;
    }
  }
  int row = 0, col = 0;
  int rc = mill_point(self->owner, raw, len, 1, &row, &col);
  if (rc < 0) return NULL;
  return cached_move(c == SGF_COLOR_WHITE, rc ? row : -1, col);
}

/* mill_fast_move for the less usual cases (no move, a pass, W with
 * other properties, a point not seen yet, not a point) */
static SGFPY_COLD PyObject *mill_fast_move_rest(TreeObject *t, sgf_color c,
                                                const char *raw, size_t len,
                                                size_t nprops) {
  static PyObject *none_none;
  PyObject **slot;
  int white = c == SGF_COLOR_WHITE;
  if (c == SGF_COLOR_NONE) {
    if (!none_none) none_none = PyTuple_Pack(2, Py_None, Py_None);
    slot = &none_none;
  } else if (white && nprops > 1) {
    return NULL;
  } else if (len == 2) {
    unsigned x = (unsigned char)raw[0] - 'a', y = (unsigned char)raw[1] - 'a';
    if (x < 26 && y < 26 && x < (unsigned)t->width && y < (unsigned)t->height) {
      int row = t->height - 1 - (int)y;
      slot = &move_cache[white][row * SGF_BOARD_MAX + (int)x];
      if (!*slot) Py_XDECREF(cached_move(white, row, (int)x));
    } else if (raw[0] == 't' && raw[1] == 't' && t->width <= 19 &&
               t->height <= 19) {
      slot = &pass_cache[white];
      if (!*slot) Py_XDECREF(cached_move(white, -1, 0));
    } else {
      return NULL;
    }
  } else if (len == 0) {
    slot = &pass_cache[white];
    if (!*slot) Py_XDECREF(cached_move(white, -1, 0));
  } else {
    return NULL;
  }
  if (!*slot) PyErr_Clear(); /* no memory: the general path says so */
  return *slot;
}

/* sgfmill's get_move() result for a move as the library reads it (colour
 * of the first B or W, its raw value, the node's number of properties),
 * borrowed, when it is a usual one: no move, a point a-z on the board, a
 * pass; B, or W alone in its node (sgfmill prefers B wherever it is).
 * NULL for the rest (mill_get_move_all decides; no error set). */
static inline PyObject *mill_fast_move(TreeObject *t, sgf_color c,
                                       const char *raw, size_t len,
                                       size_t nprops) {
  if (len == 2 && c != SGF_COLOR_NONE &&
      (c == SGF_COLOR_BLACK || nprops == 1)) {
    /* a-z only ("tt" is a pass only on boards up to 19, where it is off
     * the board) */
    unsigned x = (unsigned char)raw[0] - 'a', y = (unsigned char)raw[1] - 'a';
    if (x < 26 && y < 26 && x < (unsigned)t->width && y < (unsigned)t->height) {
      PyObject *r = move_cache[c == SGF_COLOR_WHITE]
                              [(t->height - 1 - (int)y) * SGF_BOARD_MAX + x];
      if (r) return r;
    }
  }
  return mill_fast_move_rest(t, c, raw, len, nprops);
}

/* node_mill_get_move past its first case: a node whose result was not
 * found with it, or of an edited tree, or deleted. */
static SGFPY_COLD PyObject *mill_get_move_rest(NodeObject *self) {
  /* A node of a tree never edited (none deleted) whose move is a usual
   * one (mill_fast_move). The rest: mill_get_move_all. */
  TreeObject *t = self->owner;
  const sgf_node *n = self->n;
  if (t && n && !t->cur) {
    const char *raw;
    size_t len;
    sgf_color c = sgf_node_move_raw(n, &raw, &len);
    PyObject *r = mill_fast_move(
        t, c, raw, len, c == SGF_COLOR_WHITE ? sgf_node_prop_count(n) : 1);
    if (r) {
      Py_INCREF(r);
      return r;
    }
  }
  return mill_get_move_all(self);
}

static PyObject *node_mill_get_move(NodeObject *self, PyObject *unused) {
  /* The usual case, with nothing else on its way: the result found with
   * the node (line_list: a node alive has its owner), the tree never
   * edited since. */
  PyObject *r = self->move;
  if (r && !self->owner->cur) {
    Py_INCREF(r);
    return r;
  }
  return mill_get_move_rest(self);
}

PyDoc_STRVAR(mill_points_doc,
             "_mill_points(values, allow_pass) -> list\n\n"
             "Each raw value read as sgfmill reads a Point (or a Move with "
             "allow_pass),\non the game's board.");
static PyObject *tree_mill_points(TreeObject *self, PyObject *args) {
  PyObject *vals;
  int allow_pass;
  if (!PyArg_ParseTuple(args, "Op", &vals, &allow_pass)) return NULL;
  PyObject *seq = PySequence_Fast(vals, "expected a sequence of bytes");
  if (!seq) return NULL;
  Py_ssize_t nv = PySequence_Fast_GET_SIZE(seq);
  PyObject *l = PyList_New(nv);
  if (!l) goto fail;
  for (Py_ssize_t i = 0; i < nv; i++) {
    char *raw;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(PySequence_Fast_GET_ITEM(seq, i), &raw, &len) <
        0)
      goto fail;
    PyObject *p = mill_point_obj(self, raw, (size_t)len, allow_pass);
    if (!p) goto fail;
    PyList_SET_ITEM(l, i, p);
  }
  Py_DECREF(seq);
  return l;
fail:
  Py_XDECREF(l);
  Py_DECREF(seq);
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Node: edits through the Tree's cursor                                   */

static int cursor_at(TreeObject *t, const sgf_node *n) {
  /* The cursor is made on the first edit: most trees are only read. */
  if (!t->cur && !(t->cur = sgf_cursor_create(t->tree))) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = sgf_cursor_goto(t->cur, n);
  if (rc != SGF_OK) {
    PyErr_SetString(PyExc_ValueError, "node is not in the game");
    return -1;
  }
  return 0;
}

static PyObject *edit_error(int rc) {
  if (rc == SGF_ENOMEM) return PyErr_NoMemory();
  if (rc == SGF_ELIMIT)
    PyErr_SetString(PyExc_MemoryError, "game tree over its node or byte limit");
  else
    PyErr_Format(PyExc_ValueError, "edit refused (%s)", sgf_strerror(rc));
  return NULL;
}

/* Delete every property named id; the cursor stands on the node. */
static void delete_all(sgf_cursor *c, const char *id) {
  while (sgf_cursor_delete_prop(c, id) == SGF_OK) {
  }
}

PyDoc_STRVAR(set_raw_list_doc,
             "_set_raw_list(identifier, values)\n\n"
             "Replace every property of that name by one holding the raw "
             "values\n(bytes, escapes in place), at the end of the node; an "
             "empty list only\nremoves. No check of the identifier: the "
             "Python layer makes them.");
static PyObject *node_set_raw_list(NodeObject *self, PyObject *args) {
  PyObject *ident, *vals;
  if (!PyArg_ParseTuple(args, "UO", &ident, &vals)) return NULL;
  Py_ssize_t len;
  const char *id = PyUnicode_AsUTF8AndSize(ident, &len);
  const sgf_node *n = node_get(self);
  if (!id || !n) return NULL;
  PyObject *seq = PySequence_Fast(vals, "values must be a sequence of bytes");
  if (!seq) return NULL;
  Py_ssize_t nv = PySequence_Fast_GET_SIZE(seq);
  for (Py_ssize_t i = 0; i < nv; i++)
    if (!PyBytes_Check(PySequence_Fast_GET_ITEM(seq, i))) {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_TypeError, "raw values must be bytes");
      return NULL;
    }
  if (cursor_at(self->owner, n) < 0) {
    Py_DECREF(seq);
    return NULL;
  }
  delete_all(self->owner->cur, id);
  for (Py_ssize_t i = 0; i < nv; i++) {
    PyObject *b = PySequence_Fast_GET_ITEM(seq, i);
    int rc = sgf_cursor_add_value(self->owner->cur, id, PyBytes_AS_STRING(b),
                                  (size_t)PyBytes_GET_SIZE(b));
    if (rc != SGF_OK) {
      Py_DECREF(seq);
      return edit_error(rc);
    }
  }
  Py_DECREF(seq);
  Py_RETURN_NONE;
}

PyDoc_STRVAR(unset_doc,
             "unset(identifier)\n\n"
             "Remove the property (every property of that name). KeyError if "
             "absent.");
static PyObject *node_unset(NodeObject *self, PyObject *ident) {
  Py_ssize_t len;
  const char *id = lookup_arg(ident, &len);
  const sgf_node *n = node_get(self);
  if (!id || !n) return NULL;
  if (!has_prop(n, id, len)) return key_error(ident);
  if (cursor_at(self->owner, n) < 0) return NULL;
  delete_all(self->owner->cur, id);
  Py_RETURN_NONE;
}

/* list.insert's reading of an index among count places. */
static size_t insert_index(PyObject *index, size_t count, int *err) {
  *err = 0;
  if (index == NULL || index == Py_None) return count;
  Py_ssize_t i = PyNumber_AsSsize_t(index, PyExc_OverflowError);
  if (i == -1 && PyErr_Occurred()) {
    *err = 1;
    return 0;
  }
  if (i < 0) {
    i += (Py_ssize_t)count;
    if (i < 0) i = 0;
  }
  if ((size_t)i > count) i = (Py_ssize_t)count;
  return (size_t)i;
}

PyDoc_STRVAR(new_child_doc,
             "new_child(index=None) -> node\n\n"
             "Add an empty node as this node's last child, or at index (as "
             "list.insert),\nand return it.");
static PyObject *node_new_child(NodeObject *self, PyObject *args,
                                PyObject *kw) {
  static char *kwlist[] = {"index", NULL};
  PyObject *index = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O", kwlist, &index)) return NULL;
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  int err;
  size_t count = sgf_node_child_count(n);
  size_t at = insert_index(index, count, &err);
  if (err) return NULL;
  if (cursor_at(self->owner, n) < 0) return NULL;
  int rc = sgf_cursor_add_node(self->owner->cur, SGF_CURSOR_VARIATION);
  if (rc != SGF_OK) return edit_error(rc);
  if (at != count) {
    rc = sgf_cursor_reparent(self->owner->cur, n, at);
    if (rc != SGF_OK) return edit_error(rc);
  }
  return node_wrap(self->owner, sgf_cursor_node(self->owner->cur));
}

PyDoc_STRVAR(delete_doc,
             "delete()\n\n"
             "Remove the node and its subtree from the tree. ValueError on "
             "the root.\nThe node (and the nodes below it) cannot be used "
             "afterwards.");
static PyObject *node_delete(NodeObject *self, PyObject *unused) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  if (!sgf_node_parent(n)) {
    PyErr_SetString(PyExc_ValueError, "can't remove the root node");
    return NULL;
  }
  if (cursor_at(self->owner, n) < 0) return NULL;
  int rc = sgf_cursor_delete(self->owner->cur);
  if (rc != SGF_OK) return edit_error(rc);
  Py_CLEAR(self->rawmap);
  Py_RETURN_NONE;
}

PyDoc_STRVAR(reparent_doc,
             "reparent(new_parent, index=None)\n\n"
             "Move the node with its subtree to be a child of new_parent (a "
             "node of the\nsame game, not in the subtree: ValueError), last "
             "or at index (as\nlist.insert, counted without the node).");
static PyObject *node_reparent(NodeObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"new_parent", "index", NULL};
  PyObject *np, *index = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O", kwlist, &np, &index))
    return NULL;
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  if (!PyObject_TypeCheck(np, &Node_Type) ||
      ((NodeObject *)np)->owner != self->owner) {
    PyErr_SetString(PyExc_ValueError,
                    "new parent doesn't belong to the same game");
    return NULL;
  }
  const sgf_node *p = node_get((NodeObject *)np);
  if (!p) return NULL;
  if (sgf_node_is_ancestor(n, p)) {
    PyErr_SetString(PyExc_ValueError, "would create a loop");
    return NULL;
  }
  size_t count = sgf_node_child_count(p);
  if (sgf_node_parent(n) == p) count--;
  int err;
  size_t at = insert_index(index, count, &err);
  if (err) return NULL;
  if (cursor_at(self->owner, n) < 0) return NULL;
  int rc = sgf_cursor_reparent(self->owner->cur, p, at);
  if (rc != SGF_OK) return edit_error(rc);
  Py_RETURN_NONE;
}

PyDoc_STRVAR(promote_doc,
             "promote()\n\n"
             "Make this node's line the main line: it and each ancestor "
             "becomes its\nparent's first child.");
static PyObject *node_promote(NodeObject *self, PyObject *unused) {
  const sgf_node *n = node_get(self);
  if (!n) return NULL;
  if (cursor_at(self->owner, n) < 0) return NULL;
  int rc = sgf_cursor_promote(self->owner->cur);
  if (rc != SGF_OK) return edit_error(rc);
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------------- */
/* Node: typed values by the property table (the generic API)             */

static PyObject *text_obj(const char *raw, size_t len, unsigned flags) {
  char *buf = PyMem_Malloc(len + 1);
  if (!buf) return PyErr_NoMemory();
  size_t n = sgf_text_decode(raw, len, buf, flags);
  PyObject *s = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)n, "surrogateescape");
  PyMem_Free(buf);
  return s;
}

static PyObject *vpart_obj(const sgf_vpart *p, const char *raw, int simple) {
  switch (p->type) {
    case SGF_VT_NONE:
      Py_RETURN_TRUE;
    case SGF_VT_NUMBER:
      return PyLong_FromLongLong(p->u.number);
    case SGF_VT_REAL:
      return PyFloat_FromDouble(p->u.real);
    case SGF_VT_DOUBLE:
      return PyLong_FromLong(p->u.dbl);
    case SGF_VT_COLOR:
      return colour_obj(p->u.color == 'B' ? SGF_COLOR_BLACK : SGF_COLOR_WHITE);
    case SGF_VT_MOVE:
      if (p->u.move.pass) Py_RETURN_NONE;
      return pair(p->u.move.pt.x, p->u.move.pt.y);
    case SGF_VT_POINT:
    case SGF_VT_STONE:
      return pair(p->u.point.x, p->u.point.y);
    case SGF_VT_SIMPLETEXT:
    case SGF_VT_TEXT:
    default:
      return text_obj(
          p->u.text.at, p->u.text.len,
          simple || p->type == SGF_VT_SIMPLETEXT ? SGF_TEXT_SIMPLE : 0);
  }
}

PyDoc_STRVAR(get_typed_doc,
             "get(identifier) -> value\n\n"
             "The property's value typed by the property table: int "
             "(Number, Double),\nfloat (Real), 'b'/'w' (Color), str (Text, "
             "SimpleText, unknown properties:\nescapes resolved, read as "
             "UTF-8 with undecodable bytes kept as surrogate\nescapes), "
             "(x, y) (Point), (x, y) or None (Move), True (None), a pair "
             "for a\ncomposed value. List properties give a list (points of "
             "a rectangle\nexpanded; [] for an empty elist). KeyError if "
             "absent, ValueError if a\nvalue is not of its type.");
static PyObject *node_get_typed(NodeObject *self, PyObject *ident) {
  Py_ssize_t len;
  const char *id = lookup_arg(ident, &len);
  const sgf_node *n = node_get(self);
  if (!id || !n) return NULL;
  const sgf_propdef *def = sgf_prop_lookup(NULL, id, (size_t)len);
  PyObject *raws = raw_values(n, id, len);
  if (!raws) return NULL;
  Py_ssize_t nv = PyList_GET_SIZE(raws);
  if (nv == 0) {
    Py_DECREF(raws);
    return key_error(ident);
  }
  sgf_board board;
  sgf_node_get_board(n, &board);
  int list = def && def->shape != SGF_VS_SINGLE;
  PyObject *out = list ? PyList_New(0) : NULL;
  if (list && !out) goto fail;
  for (Py_ssize_t i = 0; i < nv; i++) {
    PyObject *b = PyList_GET_ITEM(raws, i);
    const char *raw = PyBytes_AS_STRING(b);
    size_t rl = (size_t)PyBytes_GET_SIZE(b);
    PyObject *v = NULL;
    if (!def) {
      v = text_obj(raw, rl, 0);
    } else if (list && def->type2 == SGF_VT_UNKNOWN &&
               (def->type == SGF_VT_POINT || def->type == SGF_VT_STONE)) {
      sgf_point_iter it;
      sgf_point pt;
      size_t off;
      int rc;
      sgf_point_iter_init(&it, &board, raw, rl, SGF_PTS_EMPTY_OK);
      while ((rc = sgf_point_iter_next(&it, &pt, &off)) == 1) {
        PyObject *p = pair(pt.x, pt.y);
        if (!p || PyList_Append(out, p) < 0) {
          Py_XDECREF(p);
          goto fail;
        }
        Py_DECREF(p);
      }
      if (rc < 0) {
        PyErr_Format(PyExc_ValueError, "bad %s value %R (%s)", def->ident, b,
                     sgf_strerror(rc));
        goto fail;
      }
      continue;
    } else {
      sgf_typed_value tv;
      size_t off = 0;
      sgf_typed_value_init(&tv);
      int rc = sgf_value_decode(NULL, def, &board, raw, rl, &tv, &off);
      if (rc < 0) {
        PyErr_Format(PyExc_ValueError, "bad %s value %R (%s)", def->ident, b,
                     sgf_strerror(rc));
        goto fail;
      }
      if (tv.composed) {
        PyObject *a = vpart_obj(&tv.part[0], raw, 0);
        PyObject *c = a ? vpart_obj(&tv.part[1], raw, 0) : NULL;
        v = c ? PyTuple_Pack(2, a, c) : NULL;
        Py_XDECREF(a);
        Py_XDECREF(c);
      } else if (list && tv.part[0].type == SGF_VT_NONE) {
        continue; /* [] of an elist */
      } else {
        v = vpart_obj(&tv.part[0], raw, 0);
      }
    }
    if (!v) goto fail;
    if (!list) {
      if (nv > 1) {
        Py_DECREF(v);
        PyErr_Format(PyExc_ValueError, "%U has %zd values, its type one", ident,
                     nv);
        goto fail;
      }
      Py_DECREF(raws);
      return v;
    }
    if (PyList_Append(out, v) < 0) {
      Py_DECREF(v);
      goto fail;
    }
    Py_DECREF(v);
  }
  Py_DECREF(raws);
  return out;
fail:
  Py_DECREF(raws);
  Py_XDECREF(out);
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Tree                                                                    */

static int tree_setup(TreeObject *t, PyTypeObject *type) {
  /* The last class asked and its node class: a game per call. */
  static PyTypeObject *last_type, *last_node_type;
  if (type == last_type && last_node_type) {
    Py_INCREF(last_node_type);
    t->node_type = last_node_type;
    return 0;
  }
  PyObject *nc = PyObject_GetAttrString((PyObject *)type, "_node_class");
  if (!nc) {
    PyErr_Clear();
  } else if (PyType_Check(nc) &&
             PyType_IsSubtype((PyTypeObject *)nc, &Node_Type)) {
    t->node_type = (PyTypeObject *)nc;
    /* Kept (referenced) while it is the last one: a class whose
     * _node_class is changed afterwards is looked up again only when
     * another class came between. */
    Py_INCREF(nc);
    Py_INCREF(type);
    Py_XDECREF(last_node_type);
    Py_XDECREF(last_type);
    last_node_type = (PyTypeObject *)nc;
    last_type = type;
    return 0;
  } else {
    Py_DECREF(nc);
    PyErr_SetString(PyExc_TypeError, "_node_class must be a Node subclass");
    return -1;
  }
  Py_INCREF(&Node_Type);
  t->node_type = &Node_Type;
  return 0;
}

static PyObject *tree_alloc(PyTypeObject *type, sgf_tree *tree) {
  TreeObject *t = (TreeObject *)type->tp_alloc(type, 0);
  if (!t) {
    sgf_tree_free(tree);
    return NULL;
  }
  t->tree = tree;
  t->width = t->height = 19;
  if (tree_setup(t, type) < 0) {
    Py_DECREF(t);
    return NULL;
  }
  PyTypeObject *nt = t->node_type;
  t->node_plain = nt->tp_alloc == PyType_GenericAlloc && !PyType_IS_GC(nt) &&
                  nt->tp_basicsize == (Py_ssize_t)sizeof(NodeObject) &&
                  nt->tp_itemsize == 0;
  t->node_fast = t->node_plain && nt->tp_dealloc == (destructor)node_dealloc &&
                 nt->tp_free == PyObject_Free &&
                 (nt->tp_flags & Py_TPFLAGS_HEAPTYPE);
  t->fast_type = t->node_fast ? nt : NULL;
  return (PyObject *)t;
}

static PyObject *tree_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  sgf_tree *tree = sgf_tree_create(NULL);
  if (!tree) return PyErr_NoMemory();
  return tree_alloc(type, tree);
}

static void tree_dealloc(TreeObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  if (PyType_IS_GC(tp)) PyObject_GC_UnTrack(self);
  sgf_cursor_destroy(self->cur);
  sgf_tree_free(self->tree);
  live_keep(self);
  Py_XDECREF(self->node_type);
  tp->tp_free((PyObject *)self);
}

typedef struct parse_ctx {
  PyObject *trees; /* list of capsule-less pointers: kept trees */
  sgf_tree **kept;
  size_t nkept, capkept;
  int first_only;
  PyObject *diags;
  int failed;         /* a Python error is set */
  uint64_t base_line; /* position of the slice in the whole input */
  uint64_t base_col;
  uint64_t base_off;
} parse_ctx;

/* The builders' user pointer is a parse_ctx ** (the same builder serves
 * one call after another: see run_parse). */
static int on_game_cb(sgf_tree_builder *b, void *user, sgf_tree *tree) {
  parse_ctx *c = *(parse_ctx **)user;
  if (c->nkept == c->capkept) {
    size_t nc = c->capkept ? c->capkept * 2 : 8;
    sgf_tree **nk = PyMem_Realloc(c->kept, nc * sizeof *nk);
    if (!nk) {
      c->failed = 1;
      PyErr_NoMemory();
      return SGF_ABORT;
    }
    c->kept = nk;
    c->capkept = nc;
  }
  c->kept[c->nkept++] = sgf_tree_builder_keep(b);
  return c->first_only ? SGF_ABORT : SGF_CONTINUE;
}

static int on_diag_cb(sgf_parser *p, void *user, const sgf_diag *d) {
  parse_ctx *c = *(parse_ctx **)user;
  if (c->failed || !c->diags) return SGF_CONTINUE;
  sgf_diag dd = *d;
  if (dd.pos.line == 1) dd.pos.column += c->base_col;
  dd.pos.line += c->base_line - 1;
  dd.pos.offset += c->base_off;
  PyObject *o = sgfpy_diagnostic_new(&dd, NULL);
  if (!o || PyList_Append(c->diags, o) < 0) {
    c->failed = 1;
    Py_XDECREF(o);
    return SGF_ABORT;
  }
  Py_DECREF(o);
  return SGF_CONTINUE;
}

/* Parse data[start:] with the builder: the first game only, or all. */
static int run_parse(parse_ctx *c, const char *data, size_t len, size_t start,
                     int mainline, int positions) {
  c->base_line = 1;
  c->base_col = 0;
  c->base_off = start;
  for (size_t i = 0; i < start; i++) {
    if (data[i] == '\n') {
      c->base_line++;
      c->base_col = 0;
    } else {
      c->base_col++;
    }
  }
  /* A builder per option set, kept from call to call (a game per call:
   * making one, its parser and scratch memory each time would cost as
   * much as a small game's parse); a fresh one when the kept one is busy
   * (a call from inside a call: a finalizer run by a collection during
   * a callback), and none kept after a big input (its scratch memory is
   * the size of the largest game). */
  static sgf_tree_builder *builders[4];
  static parse_ctx *builder_ctx[4];
  static int builder_busy[4];
  int k = (mainline ? 1 : 0) | (positions ? 2 : 0);
  parse_ctx *own = c, **user = &own;
  sgf_tree_builder *b = NULL;
  if (!builder_busy[k] && builders[k]) {
    b = builders[k];
    user = &builder_ctx[k];
  } else {
    sgf_options po;
    sgf_options_init(&po);
    if (mainline) po.flags |= SGF_OPT_MAINLINE;
    sgf_tree_builder_options bo;
    sgf_tree_builder_options_init(&bo);
    bo.parser = &po;
    if (positions) bo.flags |= SGF_TREE_POSITIONS;
    sgf_tree_builder_callbacks cb;
    sgf_tree_builder_callbacks_init(&cb);
    cb.on_game = on_game_cb;
    cb.on_diagnostic = on_diag_cb;
    int keep = !builder_busy[k] && !builders[k];
    b = sgf_tree_builder_create(&cb, keep ? (void *)&builder_ctx[k] : user,
                                &bo);
    if (!b) {
      PyErr_NoMemory();
      return -1;
    }
    if (keep) {
      builders[k] = b;
      user = &builder_ctx[k];
    }
  }
  int mine = user == &builder_ctx[k];
  if (mine) {
    builder_busy[k] = 1;
    builder_ctx[k] = c;
  }
  sgf_parser *p = sgf_tree_builder_parser(b);
  int rc = sgf_parser_feed(p, data + start, len - start, NULL);
  if (rc == SGF_OK) rc = sgf_parser_finish(p);
  if (mine) {
    builder_busy[k] = 0;
    builder_ctx[k] = NULL;
    if (len - start > ((size_t)1 << 20) ||
        sgf_tree_builder_reset(b) != SGF_OK) {
      sgf_tree_builder_destroy(b);
      builders[k] = NULL;
    }
  } else {
    sgf_tree_builder_destroy(b);
  }
  if (c->failed) return -1;
  (void)rc; /* fatal diagnostics are in diags */
  return 0;
}

static void free_kept(parse_ctx *c, size_t from) {
  for (size_t i = from; i < c->nkept; i++) sgf_tree_free(c->kept[i]);
  PyMem_Free(c->kept);
  c->kept = NULL;
}

PyDoc_STRVAR(tree_parse_doc,
             "_parse(data, start=0, first_only=True, mainline=False, "
             "positions=False)\n    -> (list of trees, list of Diagnostic)\n\n"
             "Parse data[start:] (bytes-like) into trees of this class: the "
             "first game\ntree only, or all. Lenient: what the library "
             "repairs is in the\ndiagnostics, with positions in the whole "
             "data.");
static PyObject *tree_parse(PyObject *cls, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"data",     "start",     "first_only",
                           "mainline", "positions", NULL};
  Py_buffer buf;
  Py_ssize_t start = 0;
  int first_only = 1, mainline = 0, positions = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "y*|nppp", kwlist, &buf, &start,
                                   &first_only, &mainline, &positions))
    return NULL;
  if (start < 0 || start > buf.len) {
    PyBuffer_Release(&buf);
    PyErr_SetString(PyExc_ValueError, "start out of range");
    return NULL;
  }
  parse_ctx c;
  memset(&c, 0, sizeof c);
  c.first_only = first_only;
  c.diags = PyList_New(0);
  if (!c.diags) {
    PyBuffer_Release(&buf);
    return NULL;
  }
  int rc = run_parse(&c, buf.buf, (size_t)buf.len, (size_t)start, mainline,
                     positions);
  PyBuffer_Release(&buf);
  PyObject *list = rc < 0 ? NULL : PyList_New(0);
  size_t i = 0;
  if (list) {
    for (; i < c.nkept; i++) {
      PyObject *t = tree_alloc((PyTypeObject *)cls, c.kept[i]);
      if (!t || PyList_Append(list, t) < 0) {
        Py_XDECREF(t);
        i++; /* tree_alloc freed it, or the Tree owns it */
        Py_CLEAR(list);
        break;
      }
      Py_DECREF(t);
    }
  }
  free_kept(&c, i);
  if (!list) {
    Py_DECREF(c.diags);
    return NULL;
  }
  PyObject *r = PyTuple_Pack(2, list, c.diags);
  Py_DECREF(list);
  Py_DECREF(c.diags);
  return r;
}

/* CA raw value (None: no CA) -> the normalised codec name sgfmill's
 * checked encoding gives it (see tree_mill_parse). */
static PyObject *enc_cache;
static PyObject *str_size, *str_encoding_attr;

/* sgfmill's SZ as the quick path takes it: one or two digits, 1 to 26;
 * else 0 (the general path decides). */
static int mill_quick_size(const sgf_value_view *v) {
  if (v->len < 1 || v->len > 2) return 0;
  int n = 0;
  for (size_t i = 0; i < v->len; i++) {
    if (v->raw[i] < '0' || v->raw[i] > '9') return 0;
    n = n * 10 + (v->raw[i] - '0');
  }
  return n >= 1 && n <= 26 ? n : 0;
}

/* The normalised encoding of a CA value (ca NULL: none) through
 * checked(), remembered; NULL with no error set when checked() refuses
 * it (the general path raises then). New reference. */
static PyObject *mill_quick_encoding(PyObject *checked,
                                     const sgf_value_view *ca) {
  if (!enc_cache && !(enc_cache = PyDict_New())) return NULL;
  PyObject *key = ca ? PyBytes_FromStringAndSize(ca->raw ? ca->raw : "",
                                                 (Py_ssize_t)ca->len)
                     : (Py_INCREF(Py_None), Py_None);
  if (!key) return NULL;
  PyObject *name = PyDict_GetItemWithError(enc_cache, key);
  if (name) {
    Py_INCREF(name);
  } else if (!PyErr_Occurred()) {
    PyObject *arg = ca ? PyUnicode_DecodeASCII(ca->raw ? ca->raw : "",
                                               (Py_ssize_t)ca->len, "replace")
                       : PyUnicode_FromString("ISO-8859-1");
    name = arg ? PyObject_CallOneArg(checked, arg) : NULL;
    Py_XDECREF(arg);
    if (name && PyDict_GET_SIZE(enc_cache) < 1000 &&
        PyDict_SetItem(enc_cache, key, name) < 0)
      Py_CLEAR(name);
  }
  Py_DECREF(key);
  if (!name) PyErr_Clear();
  return name;
}

PyDoc_STRVAR(tree_mill_parse_doc,
             "_mill_parse(data, checked_encoding=None) -> game, or (game or "
             "None,\n    diagnostics, SZ, CA), or None\n\n"
             "sgfmill's reading of data (bytes-like): its first game tree, "
             "from the first\n'(' followed by ';' (blanks between), with "
             "the diagnostics and the root's\nfirst raw SZ and CA values "
             "(None when absent); None when there is no such\n'('. With "
             "checked_encoding (sgf_properties._checked_encoding), a game "
             "with\nno diagnostic, SZ absent or 1 to 26 in one or two "
             "digits and a CA it accepts\ncomes finished instead, as "
             "Sgf_game.from_bytes makes it (size, _encoding,\nthe board). "
             "Sgf_game.from_bytes in one call.");
static PyObject *tree_mill_parse(PyObject *cls, PyObject *const *args,
                                 Py_ssize_t nargs) {
  if (nargs < 1 || nargs > 2) {
    PyErr_SetString(PyExc_TypeError, "_mill_parse(data, checked_encoding)");
    return NULL;
  }
  PyObject *checked = nargs > 1 && args[1] != Py_None ? args[1] : NULL;
  Py_buffer buf;
  if (PyObject_GetBuffer(args[0], &buf, PyBUF_SIMPLE) < 0) return NULL;
  const char *d = buf.buf;
  size_t len = (size_t)buf.len, start = 0;
  for (;; start++) { /* the first match of (\s*; as re finds it */
    const char *q = memchr(d + start, '(', len - start);
    if (!q) {
      PyBuffer_Release(&buf);
      Py_RETURN_NONE;
    }
    start = (size_t)(q - d);
    size_t j = start + 1;
    while (j < len && (d[j] == ' ' || (d[j] >= '\t' && d[j] <= '\r'))) j++;
    if (j < len && d[j] == ';') break;
  }
  parse_ctx c;
  memset(&c, 0, sizeof c);
  c.first_only = 1;
  if (!(c.diags = PyList_New(0))) {
    PyBuffer_Release(&buf);
    return NULL;
  }
  int rc = run_parse(&c, d, len, start, 0, 0);
  PyBuffer_Release(&buf);
  PyObject *game = NULL, *sz = NULL, *ca = NULL, *r = NULL;
  size_t used = 0;
  if (rc < 0) goto done;
  if (c.nkept) {
    sgf_tree *tree = c.kept[0];
    const sgf_node *root = sgf_tree_root(tree);
    sgf_value_view szv, cav;
    int has_sz = first_value(root, "SZ", 2, &szv);
    int has_ca = first_value(root, "CA", 2, &cav);
    int size = has_sz ? mill_quick_size(&szv) : 19;
    PyObject *name = NULL;
    if (checked && size && PyList_GET_SIZE(c.diags) == 0)
      name = mill_quick_encoding(checked, has_ca ? &cav : NULL);
    used = 1;
    if (!(game = tree_alloc((PyTypeObject *)cls, tree))) {
      Py_XDECREF(name);
      goto done;
    }
    if (name) { /* finished here: what from_bytes' _setup does */
      PyObject *n = PyLong_FromLong(size);
      int bad = !n || PyObject_SetAttr(game, str_size, n) < 0 ||
                PyObject_SetAttr(game, str_encoding_attr, name) < 0;
      Py_XDECREF(n);
      Py_DECREF(name);
      if (bad) goto done;
      TreeObject *t = (TreeObject *)game;
      t->width = t->height = size;
      t->mill_lenient = 0;
      t->mill = 1;
      r = game;
      game = NULL;
      goto done;
    }
    sz = has_sz ? PyBytes_FromStringAndSize(szv.raw ? szv.raw : "", szv.len)
                : (Py_INCREF(Py_None), Py_None);
    ca = has_ca ? PyBytes_FromStringAndSize(cav.raw ? cav.raw : "", cav.len)
                : (Py_INCREF(Py_None), Py_None);
    if (!sz || !ca) goto done;
  } else {
    game = Py_None;
    sz = Py_None;
    ca = Py_None;
    Py_INCREF(Py_None);
    Py_INCREF(Py_None);
    Py_INCREF(Py_None);
  }
  r = PyTuple_Pack(4, game, c.diags, sz, ca);
done:
  free_kept(&c, used);
  Py_XDECREF(game);
  Py_XDECREF(sz);
  Py_XDECREF(ca);
  Py_DECREF(c.diags);
  return r;
}

/* sgfstream.sgfmill's Sgf_game.from_bytes (set up by
 * _mill_from_bytes_init): the Python functions for every case
 * (_from_bytes), past _mill_parse (_from_parsed), Sgf_game._setup and
 * the encoding check _mill_parse takes. */
static PyObject *fb_general, *fb_parsed, *fb_setup, *fb_checked;
static PyObject *str_setup;

PyDoc_STRVAR(mill_from_bytes_init_doc,
             "_mill_from_bytes_init(general, parsed, setup, checked)\n\n"
             "Sets up _mill_from_bytes (sgfstream.sgfmill.sgf does).");
static PyObject *mod_mill_from_bytes_init(PyObject *m, PyObject *args) {
  PyObject *g, *p, *s, *c;
  if (!PyArg_ParseTuple(args, "OOOO", &g, &p, &s, &c)) return NULL;
  Py_INCREF(g);
  Py_INCREF(p);
  Py_INCREF(s);
  Py_INCREF(c);
  Py_XSETREF(fb_general, g);
  Py_XSETREF(fb_parsed, p);
  Py_XSETREF(fb_setup, s);
  Py_XSETREF(fb_checked, c);
  Py_RETURN_NONE;
}

PyDoc_STRVAR(
    mill_from_bytes_doc,
    "from_bytes($module, cls, /, bb, override_encoding=None, *, "
    "lenient=False)\n--\n\n"
    "Read the first game tree of bb (bytes-like).\n\n"
    "The raw property encoding is the root's CA (ISO-8859-1 without\n"
    "one), or override_encoding, which then replaces CA. The board is\n"
    "the root's SZ (19 without one). ValueError if the data cannot be\n"
    "parsed or SZ or CA is unacceptable, with the place in the message.\n\n"
    "lenient=True (not in sgfmill): take what the C library repairs\n"
    "(see sgfstream.sgfmill), boards up to 52x52 and SZ[w:h] (get_size()\n"
    "then gives (w, h)).");
/* The usual call, from_bytes(bb) of a class whose _setup is Sgf_game's,
 * with no Python frame: _mill_parse with the checked encoding, its game
 * returned when it finished one, else _from_parsed; every other call
 * goes to _from_bytes, as it came. */
static PyObject *mod_mill_from_bytes(PyObject *m, PyObject *const *args,
                                     Py_ssize_t nargs, PyObject *kwnames) {
  if (!fb_general) {
    PyErr_SetString(PyExc_RuntimeError, "_mill_from_bytes_init not called");
    return NULL;
  }
  if (nargs == 2 && !kwnames && PyType_Check(args[0]) &&
      PyType_IsSubtype((PyTypeObject *)args[0], &Tree_Type)) {
    PyObject *cls = args[0];
    PyObject *setup = PyObject_GetAttr(cls, str_setup);
    if (!setup) return NULL;
    int quick = setup == fb_setup;
    Py_DECREF(setup);
    if (quick) {
      PyObject *pa[2] = {args[1], fb_checked};
      PyObject *r = tree_mill_parse(cls, pa, 2);
      if (!r || (r != Py_None && !PyTuple_CheckExact(r))) return r;
      PyObject *ra[4] = {cls, r, Py_None, Py_False};
      PyObject *res = PyObject_Vectorcall(fb_parsed, ra, 4, NULL);
      Py_DECREF(r);
      return res;
    }
  }
  return PyObject_Vectorcall(fb_general, args, (size_t)nargs, kwnames);
}

PyDoc_STRVAR(get_root_doc, "get_root() -> node\n\nThe root node.");
static PyObject *tree_get_root(TreeObject *self, PyObject *unused) {
  return node_wrap(self, sgf_tree_root(self->tree));
}
static PyObject *tree_root(TreeObject *self, void *c) {
  return node_wrap(self, sgf_tree_root(self->tree));
}

static PyObject *tree_node_count(TreeObject *self, void *c) {
  return PyLong_FromSize_t(sgf_tree_node_count(self->tree));
}

PyDoc_STRVAR(node_at_doc,
             "node_at(i) -> node\n\n"
             "The node whose pre-order index is i (root 0); IndexError out "
             "of range.");
static PyObject *tree_node_at(TreeObject *self, PyObject *arg) {
  Py_ssize_t i = PyNumber_AsSsize_t(arg, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return NULL;
  const sgf_node *n = i < 0 ? NULL : sgf_tree_node_at(self->tree, (size_t)i);
  if (!n) {
    PyErr_SetString(PyExc_IndexError, "node index out of range");
    return NULL;
  }
  return node_wrap(self, n);
}

PyDoc_STRVAR(main_sequence_doc,
             "get_main_sequence() -> list of nodes\n\n"
             "The leftmost variation: the root, then the first child at each "
             "step, to a leaf.");
static PyObject *tree_main_sequence(TreeObject *self, PyObject *unused) {
  return line_list(self, sgf_tree_root(self->tree));
}

PyDoc_STRVAR(last_node_doc,
             "get_last_node() -> node\n\n"
             "The last node of the leftmost variation.");
static PyObject *tree_last_node(TreeObject *self, PyObject *unused) {
  const sgf_node *n = sgf_tree_root(self->tree), *k;
  while ((k = sgf_node_first_child(n))) n = k;
  return node_wrap(self, n);
}

PyDoc_STRVAR(set_board_doc,
             "_set_board(width, height, lenient)\n\n"
             "The board sgfmill points are read on (and whether letters A-Z "
             "count).");
static PyObject *tree_set_board(TreeObject *self, PyObject *args) {
  int w, h, lenient;
  if (!PyArg_ParseTuple(args, "iip", &w, &h, &lenient)) return NULL;
  if (w < 1 || h < 1 || w > SGF_BOARD_MAX || h > SGF_BOARD_MAX) {
    PyErr_SetString(PyExc_ValueError, "board size out of range");
    return NULL;
  }
  self->width = w;
  self->height = h;
  self->mill_lenient = lenient;
  self->mill = 1;
  /* results found for another board: gone */
  size_t lim = sgf_tree_id_limit(self->tree); /* (a table kept: larger) */
  for (size_t i = 0; i < self->nlive && i < lim; i++)
    if (self->live[i]) ((NodeObject *)self->live[i])->move = NULL;
  Py_RETURN_NONE;
}

/* ---- writing ---------------------------------------------------------- */

typedef struct outbuf {
  char *p;
  size_t len, cap;
  size_t line;     /* bytes in the current line (sgfmill's block format) */
  Py_ssize_t wrap; /* < 0: no wrapping */
} outbuf;

static int out_put(outbuf *o, const char *s, size_t n) {
  if (o->len + n + 1 > o->cap) {
    size_t nc = o->cap ? o->cap : 4096;
    while (nc < o->len + n + 1) nc *= 2;
    char *np = PyMem_Realloc(o->p, nc);
    if (!np) {
      PyErr_NoMemory();
      return -1;
    }
    o->p = np;
    o->cap = nc;
  }
  if (n) memcpy(o->p + o->len, s, n);
  o->len += n;
  return 0;
}

/* sgfmill's block_format, one piece at a time: a line break before a
 * piece that would take the line past the width. */
static int out_piece_begin(outbuf *o, size_t n) {
  if (o->wrap >= 0 && o->line + n > (size_t)o->wrap) {
    if (out_put(o, "\n", 1) < 0) return -1;
    o->line = 0;
  }
  o->line += n;
  return 0;
}

static int out_piece(outbuf *o, const char *s, size_t n) {
  if (out_piece_begin(o, n) < 0) return -1;
  return out_put(o, s, n);
}

/* One property piece: ident then each value of every property of that
 * name, merged. */
static int mill_prop_piece(outbuf *o, const sgf_node *n, const char *id,
                           size_t idlen) {
  size_t np = sgf_node_prop_count(n), total = idlen;
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    if (pv.ident_len != idlen || memcmp(pv.ident, id, idlen)) continue;
    for (size_t j = 0; j < pv.nvalues; j++)
      total += sgf_prop_value(&pv, j).len + 2;
  }
  if (out_piece_begin(o, total) < 0 || out_put(o, id, idlen) < 0) return -1;
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    if (pv.ident_len != idlen || memcmp(pv.ident, id, idlen)) continue;
    for (size_t j = 0; j < pv.nvalues; j++) {
      sgf_value_view v = sgf_prop_value(&pv, j);
      if (out_put(o, "[", 1) < 0 || out_put(o, v.raw, v.len) < 0 ||
          out_put(o, "]", 1) < 0)
        return -1;
    }
  }
  return 0;
}

/* FF first, then by identifier. */
static int prop_before(const char *a, size_t al, const char *b, size_t bl) {
  int aff = al == 2 && a[0] == 'F' && a[1] == 'F';
  int bff = bl == 2 && b[0] == 'F' && b[1] == 'F';
  if (aff != bff) return aff;
  size_t m = al < bl ? al : bl;
  int c = memcmp(a, b, m);
  return c < 0 || (c == 0 && al < bl);
}

static int mill_node(outbuf *o, const sgf_node *n) {
  size_t np = sgf_node_prop_count(n);
  if (out_piece(o, ";", 1) < 0) return -1;
  if (np == 0) return 0;
  sgf_prop_view *v = PyMem_Malloc(np * sizeof *v);
  if (!v) {
    PyErr_NoMemory();
    return -1;
  }
  size_t k = 0;
  for (size_t i = 0; i < np; i++) {
    sgf_prop_view pv = sgf_node_prop(n, i);
    int dup = 0;
    for (size_t j = 0; j < k && !dup; j++)
      dup = v[j].ident_len == pv.ident_len &&
            !memcmp(v[j].ident, pv.ident, pv.ident_len);
    if (dup) continue;
    size_t j = k++;
    while (j > 0 && prop_before(pv.ident, pv.ident_len, v[j - 1].ident,
                                v[j - 1].ident_len)) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = pv;
  }
  int rc = 0;
  for (size_t j = 0; j < k && rc == 0; j++)
    rc = mill_prop_piece(o, n, v[j].ident, v[j].ident_len);
  PyMem_Free(v);
  return rc;
}

PyDoc_STRVAR(serialise_mill_doc,
             "_serialise_mill(wrap=79) -> bytes\n\n"
             "The tree as sgfmill writes it: a sequence runs while a node "
             "has one child,\nproperties sorted with FF first, values raw, "
             "lines broken between pieces\nto stay within wrap bytes where "
             "they can (wrap None: no breaks); ends with\na newline.");
static PyObject *tree_serialise_mill(TreeObject *self, PyObject *args) {
  PyObject *wrapo = NULL;
  if (!PyArg_ParseTuple(args, "|O", &wrapo)) return NULL;
  outbuf o = {NULL, 0, 0, 0, 79};
  if (wrapo == Py_None) {
    o.wrap = -1;
  } else if (wrapo) {
    o.wrap = PyNumber_AsSsize_t(wrapo, PyExc_OverflowError);
    if (o.wrap == -1 && PyErr_Occurred()) return NULL;
    if (o.wrap < 0) o.wrap = 0;
  }
  /* Stack of game trees to open; NULL stands for a ')'. */
  size_t cap = 64, top = 0;
  const sgf_node **st = PyMem_Malloc(cap * sizeof *st);
  if (!st) return PyErr_NoMemory();
  st[top++] = sgf_tree_root(self->tree);
  while (top) {
    const sgf_node *n = st[--top];
    if (!n) {
      if (out_piece(&o, ")", 1) < 0) goto fail;
      continue;
    }
    if (out_piece(&o, "(", 1) < 0) goto fail;
    for (;;) {
      if (mill_node(&o, n) < 0) goto fail;
      const sgf_node *k = sgf_node_first_child(n);
      if (k && !sgf_node_next_sibling(k)) {
        n = k;
        continue;
      }
      break;
    }
    size_t nk = sgf_node_child_count(n);
    if (top + nk + 1 > cap) {
      while (cap < top + nk + 1) cap *= 2;
      const sgf_node **ns = PyMem_Realloc(st, cap * sizeof *st);
      if (!ns) {
        PyErr_NoMemory();
        goto fail;
      }
      st = ns;
    }
    st[top++] = NULL;
    size_t at = top + nk;
    for (const sgf_node *k = sgf_node_first_child(n); k;
         k = sgf_node_next_sibling(k))
      st[--at] = k;
    top += nk;
  }
  if (out_piece(&o, "\n", 1) < 0) goto fail;
  PyMem_Free(st);
  PyObject *r = PyBytes_FromStringAndSize(o.p ? o.p : "", (Py_ssize_t)o.len);
  PyMem_Free(o.p);
  return r;
fail:
  PyMem_Free(st);
  PyMem_Free(o.p);
  return NULL;
}

static int out_sink(void *ctx, const char *buf, size_t len) {
  return out_put(ctx, buf, len) < 0 ? -1 : (int)len;
}

PyDoc_STRVAR(to_sgf_doc,
             "to_sgf(readable=False, width=78) -> bytes\n\n"
             "The game as SGF through the library's writer: compact (one "
             "line), or\nreadable (one node a line, variations indented, "
             "lines broken at width).");
static PyObject *tree_to_sgf(TreeObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"readable", "width", NULL};
  int readable = 0;
  Py_ssize_t width = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|pn", kwlist, &readable, &width))
    return NULL;
  outbuf o = {NULL, 0, 0, 0, -1};
  sgf_writer_options wo;
  sgf_writer_options_init(&wo);
  wo.layout = readable ? SGF_LAYOUT_READABLE : SGF_LAYOUT_COMPACT;
  if (width > 0) wo.width = (size_t)width;
  sgf_writer *w = sgf_writer_create(out_sink, &o, &wo);
  if (!w) return PyErr_NoMemory();
  int rc = sgf_writer_write_tree(w, self->tree);
  if (rc == SGF_OK) rc = sgf_writer_finish(w);
  sgf_writer_destroy(w);
  if (rc != SGF_OK) {
    PyMem_Free(o.p);
    if (!PyErr_Occurred()) sgfpy_raise_code(rc);
    return NULL;
  }
  PyObject *r = PyBytes_FromStringAndSize(o.p ? o.p : "", (Py_ssize_t)o.len);
  PyMem_Free(o.p);
  return r;
}

/* ---- main-line moves as an array ------------------------------------- */

PyDoc_STRVAR(moves_bytes_doc,
             "_moves_bytes() -> bytes\n\n"
             "The main line's moves, 3 unsigned bytes each: colour (1 black, "
             "2 white),\nx (column, 0 = left), y (row, 0 = top) as the SGF "
             "letters give them (a-z\n0-25, A-Z 26-51); a pass ([], or tt on "
             "a board up to 19x19) is x = y = 255,\na value that is not a "
             "point x = y = 254.");
static PyObject *tree_moves_bytes(TreeObject *self, PyObject *unused) {
  outbuf o = {NULL, 0, 0, 0, -1};
  sgf_board board;
  const sgf_node *root = sgf_tree_root(self->tree);
  sgf_node_get_board(root, &board);
  int small = board.width <= 19 && board.height <= 19;
  for (const sgf_node *n = root; n; n = sgf_node_first_child(n)) {
    sgf_value_view v;
    sgf_color c = sgf_node_move(n, &v);
    if (c == SGF_COLOR_NONE) continue;
    unsigned char rec[3];
    int x, y;
    rec[0] = (unsigned char)c;
    if (v.len == 0 ||
        (small && v.len == 2 && v.raw[0] == 't' && v.raw[1] == 't')) {
      rec[1] = rec[2] = 255;
    } else if (sgf_point_decode(v.raw, v.len, &x, &y) == SGF_OK) {
      rec[1] = (unsigned char)x;
      rec[2] = (unsigned char)y;
    } else {
      rec[1] = rec[2] = 254;
    }
    if (out_put(&o, (const char *)rec, 3) < 0) {
      PyMem_Free(o.p);
      return NULL;
    }
  }
  PyObject *r = PyBytes_FromStringAndSize(o.p ? o.p : "", (Py_ssize_t)o.len);
  PyMem_Free(o.p);
  return r;
}

/* ---------------------------------------------------------------------- */
/* Board                                                                   */

static int board_init_size(BoardObject *b, int w, int h) {
  size_t n = (size_t)w * (size_t)h;
  b->width = w;
  b->height = h;
  b->cell = PyMem_Calloc(n, 1);
  b->stack = PyMem_Calloc(n, sizeof *b->stack);
  b->mark = PyMem_Calloc(n, sizeof *b->mark);
  b->gen = 0;
  if (!b->cell || !b->stack || !b->mark) {
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

static PyObject *board_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"width", "height", NULL};
  int w, h = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "i|i", kwlist, &w, &h))
    return NULL;
  if (h < 0) h = w;
  if (w < 1 || h < 1 || w > SGF_BOARD_MAX || h > SGF_BOARD_MAX) {
    PyErr_Format(PyExc_ValueError, "board size out of range (1 to %d)",
                 SGF_BOARD_MAX);
    return NULL;
  }
  BoardObject *b = (BoardObject *)type->tp_alloc(type, 0);
  if (!b) return NULL;
  if (board_init_size(b, w, h) < 0) {
    Py_DECREF(b);
    return NULL;
  }
  return (PyObject *)b;
}

static void board_dealloc(BoardObject *b) {
  PyMem_Free(b->cell);
  PyMem_Free(b->stack);
  PyMem_Free(b->mark);
  Py_TYPE(b)->tp_free((PyObject *)b);
}

static unsigned board_newgen(BoardObject *b) {
  if (++b->gen == 0) {
    memset(b->mark, 0, (size_t)b->width * b->height * sizeof *b->mark);
    b->gen = 1;
  }
  return b->gen;
}

/* Flood the group (or empty region) at idx: marks it with the current
 * generation, returns its size; *libs 1 if it touches an empty point
 * (for a group), *nb the colours bordering it (for a region: bit 1 black,
 * bit 2 white). */
static int board_flood(BoardObject *b, int idx, int *libs, int *nb) {
  int w = b->width, h = b->height, top = 0, size = 0;
  unsigned char col = b->cell[idx];
  unsigned g = b->gen;
  *libs = 0;
  *nb = 0;
  b->mark[idx] = g;
  b->stack[top++] = idx;
  while (top) {
    int p = b->stack[--top], x = p % w, y = p / w;
    size++;
    int nbr[4], k = 0;
    if (x > 0) nbr[k++] = p - 1;
    if (x < w - 1) nbr[k++] = p + 1;
    if (y > 0) nbr[k++] = p - w;
    if (y < h - 1) nbr[k++] = p + w;
    for (int i = 0; i < k; i++) {
      int q = nbr[i];
      unsigned char c = b->cell[q];
      if (c == col) {
        if (b->mark[q] != g) {
          b->mark[q] = g;
          b->stack[top++] = q;
        }
      } else if (c == 0) {
        *libs = 1;
      } else {
        *nb |= c;
      }
    }
  }
  return size;
}

/* Empty every point marked with generation g whose colour is col. */
static void board_remove(BoardObject *b, unsigned g, unsigned char col) {
  int n = b->width * b->height;
  for (int i = 0; i < n; i++)
    if (b->mark[i] == g && b->cell[i] == col) b->cell[i] = 0;
}

/* Remove the group at idx: flood it again and clear it. */
static int board_capture(BoardObject *b, int idx) {
  int libs, nb;
  board_newgen(b);
  unsigned char col = b->cell[idx];
  int size = board_flood(b, idx, &libs, &nb);
  board_remove(b, b->gen, col);
  return size;
}

static int colour_arg(PyObject *o) {
  if (PyUnicode_Check(o)) {
    if (PyUnicode_CompareWithASCIIString(o, "b") == 0) return 1;
    if (PyUnicode_CompareWithASCIIString(o, "w") == 0) return 2;
  } else if (PyLong_Check(o)) {
    long v = PyLong_AsLong(o);
    if (v == 1 || v == 2) return (int)v;
  }
  PyErr_SetString(PyExc_ValueError, "colour must be 'b' or 'w'");
  return -1;
}

static int board_xy(BoardObject *b, int x, int y) {
  if (x < 0 || y < 0 || x >= b->width || y >= b->height) {
    PyErr_SetString(PyExc_IndexError, "point off the board");
    return -1;
  }
  return y * b->width + x;
}

static PyObject *cell_colour(unsigned char c) {
  return colour_obj(c == 1   ? SGF_COLOR_BLACK
                    : c == 2 ? SGF_COLOR_WHITE
                             : SGF_COLOR_NONE);
}

PyDoc_STRVAR(board_get_doc,
             "get(x, y) -> 'b', 'w' or None\n\n"
             "What stands on the point; IndexError off the board.");
static PyObject *board_get(BoardObject *b, PyObject *args) {
  int x, y;
  if (!PyArg_ParseTuple(args, "ii", &x, &y)) return NULL;
  int i = board_xy(b, x, y);
  if (i < 0) return NULL;
  return cell_colour(b->cell[i]);
}

PyDoc_STRVAR(board_play_doc,
             "play(x, y, colour) -> ko point or None\n\n"
             "Put a stone of colour ('b' or 'w') on the point and make the "
             "captures\n(self-capture allowed, no ko rule). IndexError off "
             "the board, ValueError\non an occupied point. Returns the point "
             "simple ko forbids next, if any.");
static PyObject *board_play(BoardObject *b, PyObject *args) {
  int x, y;
  PyObject *co;
  if (!PyArg_ParseTuple(args, "iiO", &x, &y, &co)) return NULL;
  int col = colour_arg(co);
  if (col < 0) return NULL;
  int idx = board_xy(b, x, y);
  if (idx < 0) return NULL;
  if (b->cell[idx]) {
    PyErr_SetString(PyExc_ValueError, "point is occupied");
    return NULL;
  }
  int w = b->width, h = b->height;
  b->cell[idx] = (unsigned char)col;
  /* The groups without liberty among the point and its neighbours. */
  int cand[5], k = 0;
  cand[k++] = idx;
  if (x > 0) cand[k++] = idx - 1;
  if (x < w - 1) cand[k++] = idx + 1;
  if (y > 0) cand[k++] = idx - w;
  if (y < h - 1) cand[k++] = idx + w;
  int dead[5], dsize[5], nd = 0;
  unsigned g = board_newgen(b);
  for (int i = 0; i < k; i++) {
    int q = cand[i], libs, nb;
    if (!b->cell[q] || b->mark[q] == g) continue;
    int size = board_flood(b, q, &libs, &nb);
    if (!libs) {
      dead[nd] = q;
      dsize[nd++] = size;
    }
  }
  int ko = -1;
  if (nd == 1) {
    /* One group without liberty: it goes, whoever's it is. */
    int own = b->cell[dead[0]] == col;
    int size = board_capture(b, dead[0]);
    b->captured[own ? 3 - col : col] += size;
  } else if (nd > 1) {
    int opp = 0, opp_i = -1, own_size = 0;
    for (int i = 0; i < nd; i++) {
      if (b->cell[dead[i]] != col) {
        opp++;
        opp_i = i;
      } else {
        own_size = dsize[i];
      }
    }
    if (opp == 1 && dsize[opp_i] == 1 && own_size == 1) ko = dead[opp_i];
    for (int i = 0; i < nd; i++)
      if (b->cell[dead[i]] && b->cell[dead[i]] != col)
        b->captured[col] += board_capture(b, dead[i]);
  }
  if (ko < 0) Py_RETURN_NONE;
  return pair(ko % w, ko / w);
}

/* Points of an iterable of (x, y) into idx (a new array, *n its size). */
static int *board_points(BoardObject *b, PyObject *it, Py_ssize_t *n) {
  PyObject *seq = PySequence_Fast(it, "expected an iterable of points");
  if (!seq) return NULL;
  *n = PySequence_Fast_GET_SIZE(seq);
  int *out = PyMem_Malloc((size_t)(*n ? *n : 1) * sizeof *out);
  if (!out) {
    Py_DECREF(seq);
    PyErr_NoMemory();
    return NULL;
  }
  for (Py_ssize_t i = 0; i < *n; i++) {
    int x, y;
    PyObject *p = PySequence_Fast_GET_ITEM(seq, i);
    if (!PyArg_ParseTuple(p, "ii", &x, &y) ||
        (out[i] = board_xy(b, x, y)) < 0) {
      PyMem_Free(out);
      Py_DECREF(seq);
      return NULL;
    }
  }
  Py_DECREF(seq);
  return out;
}

PyDoc_STRVAR(board_apply_setup_doc,
             "apply_setup(black, white, empty) -> bool\n\n"
             "Add black and white stones and empty points (iterables of "
             "(x, y)), then\nremove every group left without a liberty. "
             "True if none was. IndexError\n(and no change) if a point is "
             "off the board.");
static PyObject *board_apply_setup(BoardObject *b, PyObject *args) {
  PyObject *lists[3];
  if (!PyArg_ParseTuple(args, "OOO", &lists[0], &lists[1], &lists[2]))
    return NULL;
  int *pts[3] = {NULL, NULL, NULL};
  Py_ssize_t np[3];
  for (int k = 0; k < 3; k++)
    if (!(pts[k] = board_points(b, lists[k], &np[k]))) {
      for (int j = 0; j < k; j++) PyMem_Free(pts[j]);
      return NULL;
    }
  static const unsigned char what[3] = {1, 2, 0};
  for (int k = 0; k < 3; k++) {
    for (Py_ssize_t i = 0; i < np[k]; i++) b->cell[pts[k][i]] = what[k];
    PyMem_Free(pts[k]);
  }
  /* Every group without a liberty, found before any goes. */
  int n = b->width * b->height, any = 0;
  unsigned g = board_newgen(b);
  unsigned char *dead = PyMem_Calloc((size_t)n, 1);
  if (!dead) return PyErr_NoMemory();
  for (int i = 0; i < n; i++) {
    if (!b->cell[i] || b->mark[i] == g) continue;
    int libs, nb;
    board_flood(b, i, &libs, &nb);
    if (!libs) {
      any = 1;
      /* Mark this group: flood marked it with g; find it again by a
       * second flood in a fresh generation would lose the others'
       * marks, so collect it here. */
      int w = b->width, h = b->height, top = 0;
      unsigned char col = b->cell[i];
      dead[i] = 1;
      b->stack[top++] = i;
      while (top) {
        int p = b->stack[--top], x = p % w, y = p / w;
        int nbr[4], kk = 0;
        if (x > 0) nbr[kk++] = p - 1;
        if (x < w - 1) nbr[kk++] = p + 1;
        if (y > 0) nbr[kk++] = p - w;
        if (y < h - 1) nbr[kk++] = p + w;
        for (int j = 0; j < kk; j++)
          if (b->cell[nbr[j]] == col && !dead[nbr[j]]) {
            dead[nbr[j]] = 1;
            b->stack[top++] = nbr[j];
          }
      }
    }
  }
  for (int i = 0; i < n; i++)
    if (dead[i]) b->cell[i] = 0;
  PyMem_Free(dead);
  return PyBool_FromLong(!any);
}

PyDoc_STRVAR(board_is_empty_doc,
             "is_empty() -> bool\n\nNo stone on the board.");
static PyObject *board_is_empty(BoardObject *b, PyObject *unused) {
  int n = b->width * b->height;
  for (int i = 0; i < n; i++)
    if (b->cell[i]) Py_RETURN_FALSE;
  Py_RETURN_TRUE;
}

PyDoc_STRVAR(board_occupied_doc,
             "list_occupied_points() -> list of (colour, (x, y))\n\n"
             "Every stone, rows from the bottom up, each from the left.");
static PyObject *board_occupied(BoardObject *b, PyObject *unused) {
  PyObject *l = PyList_New(0);
  if (!l) return NULL;
  for (int y = b->height - 1; y >= 0; y--)
    for (int x = 0; x < b->width; x++) {
      unsigned char c = b->cell[y * b->width + x];
      if (!c) continue;
      PyObject *p = pair(x, y), *cc = cell_colour(c);
      PyObject *t = p ? PyTuple_Pack(2, cc, p) : NULL;
      Py_XDECREF(p);
      Py_DECREF(cc);
      if (!t || PyList_Append(l, t) < 0) {
        Py_XDECREF(t);
        Py_DECREF(l);
        return NULL;
      }
      Py_DECREF(t);
    }
  return l;
}

PyDoc_STRVAR(board_area_score_doc,
             "area_score() -> int\n\n"
             "Black's area minus White's, every stone taken as alive: stones, "
             "and empty\nregions for each colour that borders them. No "
             "komi.");
static PyObject *board_area_score(BoardObject *b, PyObject *unused) {
  int n = b->width * b->height;
  long score = 0;
  unsigned g = board_newgen(b);
  for (int i = 0; i < n; i++) {
    if (b->cell[i] == 1)
      score++;
    else if (b->cell[i] == 2)
      score--;
    else if (b->mark[i] != g) {
      int libs, nb;
      int size = board_flood(b, i, &libs, &nb);
      if (nb & 1) score += size;
      if (nb & 2) score -= size;
    }
  }
  return PyLong_FromLong(score);
}

PyDoc_STRVAR(board_copy_doc, "copy() -> Board\n\nAn independent copy.");
static PyObject *board_copy(BoardObject *b, PyObject *unused) {
  PyTypeObject *tp = Py_TYPE(b);
  BoardObject *c = (BoardObject *)tp->tp_alloc(tp, 0);
  if (!c) return NULL;
  if (board_init_size(c, b->width, b->height) < 0) {
    Py_DECREF(c);
    return NULL;
  }
  memcpy(c->cell, b->cell, (size_t)b->width * b->height);
  c->captured[1] = b->captured[1];
  c->captured[2] = b->captured[2];
  return (PyObject *)c;
}

static PyObject *board_width(BoardObject *b, void *c) {
  return PyLong_FromLong(b->width);
}
static PyObject *board_height(BoardObject *b, void *c) {
  return PyLong_FromLong(b->height);
}
static PyObject *board_captures(BoardObject *b, void *c) {
  return Py_BuildValue("(ll)", b->captured[1], b->captured[2]);
}

PyDoc_STRVAR(board_cells_doc,
             "cells() -> bytes\n\n"
             "width * height bytes, row by row from the top: 0 empty, 1 "
             "black, 2 white.");
static PyObject *board_cells(BoardObject *b, PyObject *unused) {
  return PyBytes_FromStringAndSize((const char *)b->cell,
                                   (Py_ssize_t)b->width * b->height);
}

static PyMethodDef board_methods[] = {
    {"get", (PyCFunction)board_get, METH_VARARGS, board_get_doc},
    {"play", (PyCFunction)board_play, METH_VARARGS, board_play_doc},
    {"apply_setup", (PyCFunction)board_apply_setup, METH_VARARGS,
     board_apply_setup_doc},
    {"is_empty", (PyCFunction)board_is_empty, METH_NOARGS, board_is_empty_doc},
    {"list_occupied_points", (PyCFunction)board_occupied, METH_NOARGS,
     board_occupied_doc},
    {"area_score", (PyCFunction)board_area_score, METH_NOARGS,
     board_area_score_doc},
    {"copy", (PyCFunction)board_copy, METH_NOARGS, board_copy_doc},
    {"cells", (PyCFunction)board_cells, METH_NOARGS, board_cells_doc},
    {NULL}};

static PyGetSetDef board_getset[] = {
    {"width", (getter)board_width, NULL, "columns", NULL},
    {"height", (getter)board_height, NULL, "rows", NULL},
    {"captures", (getter)board_captures, NULL,
     "(stones black captured, stones white captured), self-captures "
     "counted for the other colour",
     NULL},
    {NULL}};

static PyTypeObject Board_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream._core.Board",
    .tp_basicsize = sizeof(BoardObject),
    .tp_dealloc = (destructor)board_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
        "Board(width, height=width): a Go board that plays moves with "
        "captures.\n\nPoints are (x, y), 0-based from the top left "
        "(SGF's order).",
    .tp_methods = board_methods,
    .tp_getset = board_getset,
    .tp_new = board_new,
};

/* ---------------------------------------------------------------------- */
/* Type tables                                                             */

static PyMethodDef node_methods[] = {
    {"get_raw", (PyCFunction)node_get_raw, METH_O, get_raw_doc},
    {"get_raw_list", (PyCFunction)node_get_raw_list, METH_O, get_raw_list_doc},
    {"_raw_or_none", (PyCFunction)node_raw_or_none, METH_O, raw_or_none_doc},
    {"has_property", (PyCFunction)node_has_property, METH_O, has_property_doc},
    {"properties", (PyCFunction)node_properties, METH_NOARGS, properties_doc},
    {"get_raw_property_map", (PyCFunction)node_get_raw_property_map,
     METH_NOARGS, raw_property_map_doc},
    {"index", (PyCFunction)node_index_of, METH_O, index_doc},
    {"lca", (PyCFunction)node_lca, METH_O, lca_doc},
    {"distance", (PyCFunction)node_distance, METH_O, distance_doc},
    {"is_ancestor_of", (PyCFunction)node_is_ancestor_of, METH_O,
     is_ancestor_of_doc},
    {"is_descendant_of", (PyCFunction)node_is_descendant_of, METH_O,
     is_descendant_of_doc},
    {"main_line", (PyCFunction)node_main_line, METH_NOARGS, main_line_doc},
    {"_get_move_xy", (PyCFunction)node_get_move_xy, METH_NOARGS,
     get_move_xy_doc},
    {"_mill_get_move", (PyCFunction)node_mill_get_move, METH_NOARGS,
     mill_get_move_doc},
    {"_get_typed", (PyCFunction)node_get_typed, METH_O, get_typed_doc},
    {"_set_raw_list", (PyCFunction)node_set_raw_list, METH_VARARGS,
     set_raw_list_doc},
    {"unset", (PyCFunction)node_unset, METH_O, unset_doc},
    {"new_child", (PyCFunction)(void (*)(void))node_new_child,
     METH_VARARGS | METH_KEYWORDS, new_child_doc},
    {"delete", (PyCFunction)node_delete, METH_NOARGS, delete_doc},
    {"reparent", (PyCFunction)(void (*)(void))node_reparent,
     METH_VARARGS | METH_KEYWORDS, reparent_doc},
    {"promote", (PyCFunction)node_promote, METH_NOARGS, promote_doc},
    {NULL}};

static PyGetSetDef node_getset[] = {
    {"parent", (getter)node_parent, NULL, "the parent node (None for the root)",
     NULL},
    {"owner", (getter)node_owner, NULL, "the game the node belongs to", NULL},
    {"game", (getter)node_owner, NULL, "the game the node belongs to", NULL},
    {"children", (getter)node_children, NULL, "the children, a new list", NULL},
    {"ply", (getter)node_ply, NULL,
     "moves (B or W nodes) on the path from the root to this node, both "
     "included",
     NULL},
    {"variation_depth", (getter)node_variation_depth, NULL,
     "how many variations deep the node lies (0 on the main line; CQL's "
     "depth)",
     NULL},
    {"tree_depth", (getter)node_tree_depth, NULL,
     "nodes on the path from the root, minus one (root: 0)", NULL},
    {"child_index", (getter)node_child_index, NULL,
     "place among the parent's children (0: first; root 0)", NULL},
    {"preorder_index", (getter)node_preorder_index, NULL,
     "place in pre-order (document order), root 0: a position, refreshed "
     "after edits",
     NULL},
    {"subtree_size", (getter)node_subtree_size, NULL,
     "nodes in the subtree, this one included", NULL},
    {"move_number", (getter)node_move_number, NULL,
     "number of the node's move (MN taken into account), or of the last "
     "move before it",
     NULL},
    {"to_play", (getter)node_to_play, NULL,
     "'b' or 'w': side to move after this node (PL, else the other colour "
     "of the last move, else by handicap)",
     NULL},
    {"is_mainline", (getter)node_is_mainline, NULL, "variation depth 0", NULL},
    {"is_variation", (getter)node_is_variation, NULL, "variation depth > 0",
     NULL},
    {"is_initial", (getter)node_is_initial, NULL, "the root", NULL},
    {"is_terminal", (getter)node_is_terminal, NULL, "no children", NULL},
    {NULL}};

static PySequenceMethods node_as_sequence = {
    .sq_length = (lenfunc)node_len,
    .sq_item = (ssizeargfunc)node_item,
};
static PyMappingMethods node_as_mapping = {
    .mp_length = (lenfunc)node_len,
    .mp_subscript = (binaryfunc)node_subscript,
};

static PyTypeObject Node_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream._core.Node",
    .tp_basicsize = sizeof(NodeObject),
    .tp_dealloc = (destructor)node_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc =
        "A node of a game tree (made when first touched). A list-like "
        "container of\nits children; false when it has none.",
    .tp_iter = (getiterfunc)node_iter,
    .tp_as_sequence = &node_as_sequence,
    .tp_as_mapping = &node_as_mapping,
    .tp_methods = node_methods,
    .tp_getset = node_getset,
    .tp_new = node_new_refused,
};

static PyMethodDef tree_methods[] = {
    {"_parse", (PyCFunction)(void (*)(void))tree_parse,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS, tree_parse_doc},
    {"_mill_parse", (PyCFunction)(void (*)(void))tree_mill_parse,
     METH_FASTCALL | METH_CLASS, tree_mill_parse_doc},
    {"get_root", (PyCFunction)tree_get_root, METH_NOARGS, get_root_doc},
    {"node_at", (PyCFunction)tree_node_at, METH_O, node_at_doc},
    {"get_main_sequence", (PyCFunction)tree_main_sequence, METH_NOARGS,
     main_sequence_doc},
    {"get_last_node", (PyCFunction)tree_last_node, METH_NOARGS, last_node_doc},
    {"_set_board", (PyCFunction)tree_set_board, METH_VARARGS, set_board_doc},
    {"_mill_points", (PyCFunction)tree_mill_points, METH_VARARGS,
     mill_points_doc},
    {"_serialise_mill", (PyCFunction)tree_serialise_mill, METH_VARARGS,
     serialise_mill_doc},
    {"to_sgf", (PyCFunction)(void (*)(void))tree_to_sgf,
     METH_VARARGS | METH_KEYWORDS, to_sgf_doc},
    {"_moves_bytes", (PyCFunction)tree_moves_bytes, METH_NOARGS,
     moves_bytes_doc},
    {NULL}};

static PyGetSetDef tree_getset[] = {
    {"root", (getter)tree_root, NULL, "the root node", NULL},
    {"node_count", (getter)tree_node_count, NULL, "nodes in the tree", NULL},
    {NULL}};

static PyTypeObject Tree_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sgfstream._core.Tree",
    .tp_basicsize = sizeof(TreeObject),
    .tp_dealloc = (destructor)tree_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "A game tree held by the C library (a compact tree).",
    .tp_methods = tree_methods,
    .tp_getset = tree_getset,
    .tp_new = tree_new,
};

PyDoc_STRVAR(node_class_doc,
             "_node_class(name, doc, namespace) -> type\n\n"
             "A subclass of Node named name (dotted: 'pkg.mod.Class') with "
             "the\nattributes of namespace (a dict: the functions of a plain "
             "class body),\nwhose instances are not garbage-collected (a "
             "class statement would make\nthem so, at a third of the cost "
             "of making a node).");
static PyObject *mod_node_class(PyObject *m, PyObject *args) {
  const char *name, *doc;
  PyObject *ns;
  if (!PyArg_ParseTuple(args, "ssO!", &name, &doc, &PyDict_Type, &ns))
    return NULL;
  PyType_Slot slots[] = {{Py_tp_doc, (void *)doc},
                         {Py_tp_dealloc, (void *)node_dealloc},
                         {0, NULL}};
  PyType_Spec spec = {name, (int)sizeof(NodeObject), 0,
                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots};
  PyObject *bases = PyTuple_Pack(1, (PyObject *)&Node_Type);
  if (!bases) return NULL;
  PyObject *tp = PyType_FromSpecWithBases(&spec, bases);
  Py_DECREF(bases);
  if (!tp) return NULL;
  /* Node's methods again, as methods of this class: the interpreter calls
   * a C method directly (no generic call, no subclass check) only when
   * the object's type is exactly the method's own. */
  for (PyMethodDef *d = node_methods; d->ml_name; d++) {
    PyObject *m = PyDescr_NewMethod((PyTypeObject *)tp, d);
    int rc = m ? PyObject_SetAttrString(tp, d->ml_name, m) : -1;
    Py_XDECREF(m);
    if (rc < 0) {
      Py_DECREF(tp);
      return NULL;
    }
  }
  PyObject *k, *v;
  Py_ssize_t pos = 0;
  while (PyDict_Next(ns, &pos, &k, &v)) {
    if (PyUnicode_Check(k) &&
        (PyUnicode_CompareWithASCIIString(k, "__dict__") == 0 ||
         PyUnicode_CompareWithASCIIString(k, "__weakref__") == 0 ||
         PyUnicode_CompareWithASCIIString(k, "__doc__") == 0 ||
         PyUnicode_CompareWithASCIIString(k, "__module__") == 0 ||
         PyUnicode_CompareWithASCIIString(k, "__qualname__") == 0))
      continue;
    PyObject *own = NULL;
    if (Py_IS_TYPE(v, &PyMethodDescr_Type) &&
        PyType_IsSubtype((PyTypeObject *)tp,
                         PyDescr_TYPE((PyDescrObject *)v))) {
      /* a C method of Node (get_move = Node._mill_get_move): the same,
       * of this class (above) */
      own = PyDescr_NewMethod((PyTypeObject *)tp,
                              ((PyMethodDescrObject *)v)->d_method);
      if (!own) {
        Py_DECREF(tp);
        return NULL;
      }
    }
    int rc = PyObject_SetAttr(tp, k, own ? own : v);
    Py_XDECREF(own);
    if (rc < 0) {
      Py_DECREF(tp);
      return NULL;
    }
  }
  return tp;
}

PyDoc_STRVAR(propdef_doc,
             "_propdef(identifier) -> (type, type2, shape) or None\n\n"
             "The library's definition of a property: its value type "
             "('number', 'point',\n...), the second part's type of a "
             "composed value (or None), its shape\n('single', 'list', "
             "'elist'); None for an unknown property.");
static PyObject *mod_propdef(PyObject *m, PyObject *ident) {
  Py_ssize_t len;
  const char *id = ident_arg(ident, &len);
  if (!id) return NULL;
  const sgf_propdef *d = sgf_prop_lookup(NULL, id, (size_t)len);
  if (!d) Py_RETURN_NONE;
  static const char *shapes[] = {"single", "list", "elist"};
  const char *t2 =
      d->type2 == SGF_VT_UNKNOWN ? NULL : sgf_vtype_name(NULL, d->type2);
  return Py_BuildValue("(szs)", sgf_vtype_name(NULL, d->type), t2,
                       shapes[d->shape]);
}

static PyMethodDef tree_module_methods[] = {
    {"_propdef", (PyCFunction)mod_propdef, METH_O, propdef_doc},
    {"_node_class", (PyCFunction)mod_node_class, METH_VARARGS, node_class_doc},
    {"_mill_from_bytes_init", (PyCFunction)mod_mill_from_bytes_init,
     METH_VARARGS, mill_from_bytes_init_doc},
    {NULL}};

int sgfpy_init_tree(PyObject *m) {
  colour_b = PyUnicode_InternFromString("b");
  colour_w = PyUnicode_InternFromString("w");
  str_size = PyUnicode_InternFromString("size");
  str_encoding_attr = PyUnicode_InternFromString("_encoding");
  str_setup = PyUnicode_InternFromString("_setup");
  if (!colour_b || !colour_w || !str_size || !str_encoding_attr || !str_setup)
    return -1;
  if (PyType_Ready(&Node_Type) < 0 || PyType_Ready(&Tree_Type) < 0 ||
      PyType_Ready(&Board_Type) < 0)
    return -1;
  PyTypeObject *types[] = {&Node_Type, &Tree_Type, &Board_Type};
  const char *names[] = {"Node", "Tree", "Board"};
  for (int i = 0; i < 3; i++) {
    Py_INCREF(types[i]);
    if (PyModule_AddObject(m, names[i], (PyObject *)types[i]) < 0) {
      Py_DECREF(types[i]);
      return -1;
    }
  }
  if (PyModule_AddFunctions(m, tree_module_methods) < 0) return -1;
  /* named from_bytes (as sgfstream.sgfmill.sgf sets it on Sgf_game) */
  static PyMethodDef from_bytes_def = {
      "from_bytes", (PyCFunction)(void (*)(void))mod_mill_from_bytes,
      METH_FASTCALL | METH_KEYWORDS, mill_from_bytes_doc};
  PyObject *fb = PyCFunction_NewEx(&from_bytes_def, m, NULL);
  if (!fb || PyModule_AddObject(m, "_mill_from_bytes", fb) < 0) {
    Py_XDECREF(fb);
    return -1;
  }
  return 0;
}
