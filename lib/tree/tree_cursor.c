/* tree_cursor.c - recording a game: a tree plus a current node, in the
 * spirit of GNU Go's SGFTree.
 *
 * Edits allocate from the tree's arena, and every edit first allocates
 * all it needs, then links: when memory (or a limit) runs out, the tree
 * is as it was (some arena bytes may be spent).
 *
 * ROOM TO GROW. An edited node's own array of property records
 * (EDITED NODES below) has room for ext->cap of them, so adding to a full
 * one reallocates (to prop_room). A property (sgf__prop, the record
 * behind the public views) has no capacity field, so nodes flagged
 * SGF__N_EDIT keep an invariant instead: each property's values array has
 * room for at least pow2ceil(nvalues) values (and no value is kept inline
 * in its record). Appending to a property whose count is a power of two
 * therefore reallocates (to double), any other append has room. The
 * builder sizes values arrays exactly and keeps short values inline, so
 * the first append to a parsed node copies the arrays whose counts are
 * not powers of two and the inline values (edit_prepare) and flags the
 * node.
 *
 * After an edit the node's own flags are rescanned; if they changed (a
 * move, PL, MN or HA appeared), the tree is marked dirty and the next
 * query recomputes the derived facts. New nodes always mark it dirty.
 */
#include <string.h>

#include "tree_internal.h"

static const sgf_pos nopos; /* zeros: made here, not read */

static int edit_status(int err) {
  return (err == SGF__ERR_NODES || err == SGF__ERR_BYTES) ? SGF_ELIMIT
                                                          : SGF_ENOMEM;
}

static int is_pow2(size_t n) { return n && (n & (n - 1)) == 0; }

static size_t pow2ceil(size_t n) {
  size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

/* The room for k property records an edited node's array gets. */
static size_t prop_room(size_t k) { return k < 2 ? 2 : pow2ceil(k); }

static int valid_ident(const char *id) {
  size_t i;
  if (!id || !id[0]) return 0;
  for (i = 0; id[i]; i++)
    if (id[i] < 'A' || id[i] > 'Z' || i >= SGF_DEFAULT_MAX_IDENT_LEN) return 0;
  return 1;
}

/* ------------------------------------------------------------------ */
/* Raw values                                                          */

static int needs_escape(char ch, unsigned compose) {
  return ch == ']' || ch == '\\' || (compose && ch == ':');
}

/* A raw value in the arena: pre (raw, as is), then sep (raw), then text
 * escaped; NUL-terminated. NULL with t->err set on failure. */
static char *make_raw(sgf_tree *t, const char *pre, size_t plen,
                      const char *sep, const char *text, unsigned compose,
                      size_t *len) {
  size_t slen = sep ? strlen(sep) : 0, tlen = 0, i;
  char *r, *w;
  if (text)
    for (i = 0; text[i]; i++)
      tlen += 1 + (size_t)needs_escape(text[i], compose);
  if (plen > SIZE_MAX / 2 || tlen > SIZE_MAX / 4) {
    t->err = SGF__ERR_NOMEM;
    return NULL;
  }
  r = sgf__tree_alloc(t, plen + slen + tlen + 1, 1);
  if (!r) return NULL;
  w = r;
  if (plen) memcpy(w, pre, plen);
  w += plen;
  if (slen) memcpy(w, sep, slen);
  w += slen;
  if (text)
    for (i = 0; text[i]; i++) {
      if (needs_escape(text[i], compose)) *w++ = '\\';
      *w++ = text[i];
    }
  *w = '\0';
  *len = (size_t)(w - r);
  return r;
}

/* 1 if raw is a valid raw value: no unescaped ']', no lone final '\\'. */
static int valid_raw(const char *raw, size_t len) {
  size_t i;
  for (i = 0; i < len; i++) {
    if (raw[i] == '\\') {
      if (++i == len) return 0;
    } else if (raw[i] == ']') {
      return 0;
    }
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* Properties of one node                                              */

/* EDITED NODES. Every edit of a node's properties works on the node's
 * own array of records in the arena (SGF__N_EXT: tree->ext[u.props],
 * with room), made by the edit's first step (ext_of), which copies the
 * records (a property kept in the node becomes a record with its value
 * inline). Once made it stays: the rest below is as for any array. */
#define X(t, n) (&(t)->ext[(n)->u.props])

/* The node's properties as an array of its own (made now if need be):
 * 0, or an SGF_E* code (nothing changed but arena bytes). */
static int ext_of(sgf_tree *t, sgf_node *n) {
  sgf__prop tmp, *props;
  sgf__ext *x;
  uint32_t k, i;
  size_t cap;
  if (n->flags & SGF__N_EXT) return 0;
  if (t->next == t->ext_cap) {
    size_t nc = t->ext_cap ? 2 * (size_t)t->ext_cap : 4;
    size_t old = t->ext_cap * sizeof *x, add = nc * sizeof *x - old;
    if (nc > UINT32_MAX || t->bytes > t->max_bytes ||
        add > t->max_bytes - t->bytes)
      return SGF_ELIMIT;
    x = sgf__realloc(&t->alloc, t->ext, old, nc * sizeof *x);
    if (!x) return SGF_ENOMEM;
    t->ext = x;
    t->ext_cap = (uint32_t)nc;
    t->bytes += add;
  }
  k = sgf__nprops(t, n);
  cap = k < 2 ? 2 : pow2ceil(k);
  props = sgf__tree_alloc(t, cap * sizeof *props, sizeof(void *));
  if (!props) return edit_status(t->err);
  for (i = 0; i < k; i++) props[i] = *sgf__prop_at(t, n, i, &tmp);
  x = &t->ext[t->next];
  x->props = props;
  x->nprops = k;
  x->cap = (uint32_t)cap;
  n->u.props = t->next++;
  n->code = 0;
  n->flags = (uint16_t)((n->flags & ~(SGF__N_ONE | SGF__N_LEN)) | SGF__N_EXT);
  return 0;
}

static sgf__prop *find(sgf_tree *t, sgf_node *n, const char *ident) {
  long i = sgf__node_find(t, n, ident);
  return i < 0 ? NULL : &X(t, n)->props[i];
}

#define touched(n) sgf__node_touched(t, (n))

/* The positions of p (the identifier's, then its values'), or NULL. */
static const sgf_pos *pos_of(const sgf__prop *p) {
  return (p->flags & SGF__P_POS) ? SGF__P_POSV(p) : NULL;
}

/* Room for cap values in the arena, with the slot for a pointer to
 * positions before it when slot (SGF__P_POS); NULL with t->err set. */
static sgf__tval *vals_alloc(sgf_tree *t, size_t cap, int slot) {
  size_t extra = slot ? sizeof(void *) : 0;
  char *m;
  if (cap > (SIZE_MAX - extra) / sizeof(sgf__tval)) {
    t->err = SGF__ERR_NOMEM;
    return NULL;
  }
  m = sgf__tree_alloc(t, cap * sizeof(sgf__tval) + extra, sizeof(void *));
  return m ? (sgf__tval *)(void *)(m + extra) : NULL;
}

/* p's values are arr (from vals_alloc, with a slot if pos), with the
 * positions pos (NULL: none). */
static void set_vals(sgf__prop *p, sgf__tval *arr, const sgf_pos *pos) {
  p->u.values = arr;
  p->flags = pos ? SGF__P_POS : 0;
  if (pos) ((const sgf_pos **)(void *)arr)[-1] = pos;
}

static char *make_raw(sgf_tree *t, const char *pre, size_t plen,
                      const char *sep, const char *text, unsigned compose,
                      size_t *len);

static int edit_prepare(sgf_tree *t, sgf_node *n) {
  uint32_t i;
  if (n->flags & SGF__N_EDIT) return 0;
  for (i = 0; i < X(t, n)->nprops; i++) {
    sgf__prop *p = &X(t, n)->props[i];
    sgf__tval *arr;
    if (p->flags & SGF__P_INL) { /* an array of one, the bytes copied */
      size_t len;
      char *raw =
          make_raw(t, p->u.inl, p->flags & SGF__P_LEN, NULL, NULL, 0, &len);
      arr = raw ? vals_alloc(t, 1, 0) : NULL;
      if (!arr) return edit_status(t->err); /* copies so far are equal */
      arr[0].raw = raw;
      arr[0].len = len;
      set_vals(p, arr, NULL);
      continue;
    }
    if (is_pow2(p->nvalues)) continue;
    arr = vals_alloc(t, pow2ceil(p->nvalues), pos_of(p) != NULL);
    if (!arr) return edit_status(t->err); /* copies made so far are equal */
    memcpy(arr, p->u.values, p->nvalues * sizeof *arr);
    set_vals(p, arr, pos_of(p));
  }
  n->flags |= SGF__N_EDIT;
  return 0;
}

/* Add ident with the one value raw[0..len) at the end of n's properties. */
static int prop_new(sgf_tree *t, sgf_node *n, const char *ident,
                    const char *raw, size_t len) {
  int code = sgf__code_intern(t, ident, strlen(ident), NULL, 0);
  sgf__tval *v = code >= 0 ? vals_alloc(t, 1, 0) : NULL;
  sgf__prop *props = X(t, n)->props, *p;
  if (!v) return edit_status(t->err);
  if (X(t, n)->nprops == X(t, n)->cap) {
    size_t cap = prop_room((size_t)X(t, n)->nprops + 1);
    props = sgf__tree_alloc(t, cap * sizeof *props, sizeof(void *));
    if (!props) return edit_status(t->err);
    if (X(t, n)->nprops)
      memcpy(props, X(t, n)->props, X(t, n)->nprops * sizeof *props);
    X(t, n)->props = props;
    X(t, n)->cap = (uint32_t)cap;
  }
  v->raw = raw;
  v->len = len;
  p = &props[X(t, n)->nprops++];
  p->code = (uint16_t)code;
  p->nvalues = 1;
  set_vals(p, v, NULL);
  touched(n);
  return SGF_OK;
}

/* ident gets the single value raw (replacing its values), or is added. */
static int prop_set(sgf_tree *t, sgf_node *n, const char *ident,
                    const char *raw, size_t len) {
  sgf__prop *p = find(t, n, ident);
  sgf__tval *v;
  if (!p) return prop_new(t, n, ident, raw, len);
  if (p->flags & SGF__P_INL) { /* an array of one */
    if (!(v = vals_alloc(t, 1, 0))) return edit_status(t->err);
    set_vals(p, v, NULL);
  }
  v = (sgf__tval *)p->u.values; /* arena memory: ours to change */
  v[0].raw = raw;
  v[0].len = len;
  if (pos_of(p)) ((sgf_pos *)pos_of(p))[1] = nopos; /* arena memory too */
  p->nvalues = 1; /* room stays >= pow2ceil(1) */
  touched(n);
  return SGF_OK;
}

/* Append the value raw to ident (added if absent). */
static int prop_append(sgf_tree *t, sgf_node *n, const char *ident,
                       const char *raw, size_t len) {
  sgf__prop *p = find(t, n, ident);
  sgf__tval *arr;
  sgf_pos *pos = NULL;
  size_t k;
  int r;
  if (!p) return prop_new(t, n, ident, raw, len);
  if ((r = edit_prepare(t, n)) != 0) return r;
  k = p->nvalues;
  if (pos_of(p)) { /* kept positions: one more, zeros (made here) */
    pos = sgf__tree_alloc(t, (k + 2) * sizeof *pos, sizeof(void *));
    if (!pos) return edit_status(t->err);
    memcpy(pos, pos_of(p), (k + 1) * sizeof *pos);
    pos[k + 1] = nopos;
  }
  if (is_pow2(k)) {
    arr = vals_alloc(t, 2 * k, pos != NULL);
    if (!arr) return edit_status(t->err);
    memcpy(arr, p->u.values, k * sizeof *arr);
  } else {
    arr = (sgf__tval *)p->u.values;
  }
  arr[k].raw = raw;
  arr[k].len = len;
  set_vals(p, arr, pos);
  p->nvalues = k + 1;
  touched(n);
  return SGF_OK;
}

/* Index of the value of p that is exactly raw[0..len), or -1. */
static long value_index(const sgf__prop *p, const char *raw, size_t len) {
  size_t i;
  for (i = 0; p && i < p->nvalues; i++) {
    sgf__tval v = sgf__pval(p, i);
    if (v.len == len && memcmp(v.raw, raw, len) == 0) return (long)i;
  }
  return -1;
}

/* Remove the point pt from ident in n (FF[4] allows one setup property,
 * and one markup, per point and node); the property goes when empty. */
static int point_release(sgf_tree *t, sgf_node *n, const char *ident,
                         const char *pt) {
  sgf__prop *p = find(t, n, ident);
  sgf__tval *v;
  long j = value_index(p, pt, 2);
  int r;
  if (j < 0) return 0;
  if ((r = edit_prepare(t, n)) != 0) return r;
  if (p->nvalues == 1) {
    size_t i = (size_t)(p - X(t, n)->props);
    memmove(p, p + 1, (X(t, n)->nprops - i - 1) * sizeof *p);
    X(t, n)->nprops--;
  } else {
    v = (sgf__tval *)p->u.values; /* prepared: an array */
    memmove(v + j, v + j + 1, (p->nvalues - (size_t)j - 1) * sizeof *v);
    p->nvalues--; /* room stays >= pow2ceil(nvalues) */
  }
  touched(n);
  return 0;
}

/* Put the point (x, y) into ident, one of group (the others lose it).
 * Once the node is prepared, releasing allocates nothing and cannot fail,
 * so it comes after the append that can. */
static int point_put(sgf_cursor *c, const char *ident, const char *const *group,
                     int x, int y) {
  sgf_tree *t = c->tree;
  sgf_node *n = c->node;
  char pt[2], *raw;
  size_t len, i;
  int r;
  if (sgf_point_encode(x, y, pt) != 2) return SGF_EINVAL;
  if ((r = ext_of(t, n)) != 0) return r;
  if (value_index(find(t, n, ident), pt, 2) >= 0) return SGF_OK;
  raw = make_raw(t, pt, 2, NULL, NULL, 0, &len);
  if (!raw) return edit_status(t->err);
  if ((r = edit_prepare(t, n)) != 0) return r;
  if ((r = prop_append(t, n, ident, raw, len)) != 0) return r;
  for (i = 0; group[i]; i++)
    if (strcmp(group[i], ident) != 0) point_release(t, n, group[i], pt);
  return SGF_OK;
}

/* Remove ident from n (nothing allocated, cannot fail). */
static void prop_remove(sgf_tree *t, sgf_node *n, const char *ident) {
  sgf__prop *p = find(t, n, ident);
  size_t i;
  if (!p) return;
  i = (size_t)(p - X(t, n)->props);
  memmove(p, p + 1, (X(t, n)->nprops - i - 1) * sizeof *p);
  X(t, n)->nprops--;
  touched(n);
}

/* The typed setters' one edit (cursor_typed.c): ident on node nd gets
 * the values lens[0..n) cut one after the other from bytes, in place
 * of its own (added at the end if absent; removed when n is 0). Every
 * byte is allocated before anything is linked, so a failure leaves the
 * node as it was. The bytes must be valid raw values (the setters encode
 * them). */
int sgf__node_replace(sgf_node *nd, const char *ident, const char *bytes,
                      const size_t *lens, size_t n) {
  sgf_tree *t = sgf__tree_of(nd);
  sgf__prop *p;
  sgf__tval *vals;
  sgf_pos *pos = NULL;
  size_t i, total = 0, off = 0;
  char *copy;
  int r;
  if (!valid_ident(ident)) return SGF_EINVAL;
  if ((r = ext_of(t, nd)) != 0) return r;
  if (n == 0) {
    prop_remove(t, nd, ident);
    return SGF_OK;
  }
  for (i = 0; i < n; i++) total += lens[i] + 1;
  p = find(t, nd, ident);
  vals = vals_alloc(t, pow2ceil(n), p && pos_of(p));
  if (vals && p && pos_of(p)) { /* kept positions: the identifier's stays */
    pos = sgf__tree_alloc(t, (pow2ceil(n) + 1) * sizeof *pos, sizeof(void *));
    if (!pos) return edit_status(t->err);
    memset(pos, 0, (pow2ceil(n) + 1) * sizeof *pos); /* values: made here */
    pos[0] = pos_of(p)[0];
  }
  copy = vals ? sgf__tree_alloc(t, total, 1) : NULL;
  if (!copy) return edit_status(t->err);
  for (i = 0; i < n; i++) {
    if (lens[i]) memcpy(copy, bytes + off, lens[i]);
    copy[lens[i]] = '\0';
    vals[i].raw = copy;
    vals[i].len = lens[i];
    copy += lens[i] + 1;
    off += lens[i];
  }
  if (!p) {
    if ((r = prop_new(t, nd, ident, vals[0].raw, vals[0].len)) != SGF_OK)
      return r;
    p = &X(t, nd)->props[X(t, nd)->nprops - 1];
  } else if ((r = edit_prepare(t, nd)) != 0) {
    return r; /* the copies edit_prepare made are equal: nothing changed */
  }
  /* room for pow2ceil(n): the invariant holds */
  set_vals(p, vals, pos ? pos : pos_of(p));
  p->nvalues = n;
  touched(nd);
  return SGF_OK;
}

/* ------------------------------------------------------------------ */
/* Cursor life and moving around                                       */

sgf_cursor *sgf_cursor_create(sgf_tree *t) {
  sgf_cursor *c = sgf__malloc(&t->alloc, sizeof *c);
  if (!c) return NULL;
  c->tree = t;
  c->node = sgf__root(t);
  c->variation_next = 0;
  return c;
}

void sgf_cursor_destroy(sgf_cursor *c) {
  if (c) sgf__free(&c->tree->alloc, c, sizeof *c);
}

sgf_tree *sgf_cursor_tree(const sgf_cursor *c) { return c->tree; }
const sgf_node *sgf_cursor_node(const sgf_cursor *c) { return c->node; }

static int go(sgf_cursor *c, sgf_node *n) {
  if (!n) return SGF_EINVAL;
  c->node = n;
  c->variation_next = 0;
  return SGF_OK;
}

int sgf_cursor_back(sgf_cursor *c) {
  return go(c, SGF__PARENT(c->tree, c->node));
}
int sgf_cursor_forward(sgf_cursor *c) {
  return go(c, SGF__FIRST(c->tree, c->node));
}
int sgf_cursor_rewind(sgf_cursor *c) { return go(c, sgf__root(c->tree)); }

int sgf_cursor_goto(sgf_cursor *c, const sgf_node *n) {
  if (!n || sgf__tree_of(n) != c->tree) return SGF_EINVAL;
  return go(c, (sgf_node *)n); /* a node of the cursor's own tree */
}

int sgf_cursor_start_variation(sgf_cursor *c) {
  if (c->node->parent == SGF__NONE) return SGF_EINVAL;
  c->node = SGF__PARENT(c->tree, c->node);
  c->variation_next = 1;
  return SGF_OK;
}

/* ------------------------------------------------------------------ */
/* Adding nodes                                                        */

/* A new child of the current node, placed by flags, with the move
 * ident[raw] if ident is not NULL; the cursor moves to it. */
static int child_add(sgf_cursor *c, unsigned flags, const char *ident,
                     const char *pt, size_t k) {
  sgf_tree *t = c->tree;
  sgf_node *n = sgf__node_alloc(t);
  int first = !(flags & SGF_CURSOR_VARIATION) && !c->variation_next;
  if (!n) return edit_status(t->err);
  if (ident) { /* the move kept in the node (ONE) */
    n->flags = (uint16_t)(SGF__N_ONE | (k << SGF__N_LEN_SHIFT));
    n->code = (uint16_t)sgf__code_static(ident, 1); /* B or W */
    memset(n->u.inl, 0, sizeof n->u.inl);
    memcpy(n->u.inl, pt, k);
    sgf__node_scan(t, n);
  }
  sgf__node_link(t, n, c->node, first);
  c->node = n;
  c->variation_next = 0;
  return SGF_OK;
}

int sgf_cursor_add_move(sgf_cursor *c, sgf_color color, int x, int y,
                        unsigned flags) {
  char pt[2];
  int k;
  uint32_t want;
  sgf_node *ch;
  if (color != SGF_COLOR_BLACK && color != SGF_COLOR_WHITE) return SGF_EINVAL;
  k = sgf_point_encode(x, y, pt);
  if (k < 0) return SGF_EINVAL;
  want = color == SGF_COLOR_BLACK ? SGF__N_BLACK : SGF__N_WHITE;
  for (ch = SGF__FIRST(c->tree, c->node); ch; ch = SGF__NEXT(c->tree, ch)) {
    sgf__tval mv;
    if ((ch->flags & SGF__N_MOVE) != want) continue;
    if (sgf__node_move_value(ch, &mv) && mv.len == (size_t)k &&
        memcmp(mv.raw, pt, (size_t)k) == 0)
      return go(c, ch); /* replayed: reuse the existing child */
  }
  return child_add(c, flags, color == SGF_COLOR_BLACK ? "B" : "W", pt,
                   (size_t)k);
}

int sgf_cursor_add_node(sgf_cursor *c, unsigned flags) {
  return child_add(c, flags, NULL, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* Properties of the current node                                      */

static const char *const setup_group[] = {"AB", "AW", "AE", NULL};
static const char *const markup_group[] = {"TR", "CR", "SQ", "MA", NULL};

int sgf_cursor_add_stone(sgf_cursor *c, sgf_color color, int x, int y) {
  const char *ident;
  switch (color) {
    case SGF_COLOR_BLACK:
      ident = "AB";
      break;
    case SGF_COLOR_WHITE:
      ident = "AW";
      break;
    case SGF_COLOR_NONE:
      ident = "AE";
      break;
    default:
      return SGF_EINVAL;
  }
  return point_put(c, ident, setup_group, x, y);
}

int sgf_cursor_add_markup(sgf_cursor *c, sgf_markup kind, int x, int y) {
  if ((unsigned)kind > SGF_MARKUP_CROSS) return SGF_EINVAL;
  return point_put(c, markup_group[kind], markup_group, x, y);
}

/* Backslashes that end the first n bytes of raw (an odd count escapes
 * what follows). */
static size_t backslashes_before(const char *raw, size_t n) {
  size_t k = 0;
  while (k < n && raw[n - 1 - k] == '\\') k++;
  return k;
}

/* What joins a comment's raw value to the text added to it, so that the
 * joined value unescapes (sgf_unescape) to the old text, a line break and
 * the new text: after a lone backslash (which unescapes to nothing) or a
 * soft line break ending in CR, a first LF would be taken into it, so
 * there are two. */
static const char *comment_join(const char *raw, size_t n) {
  if ((backslashes_before(raw, n) & 1) ||
      (n > 0 && raw[n - 1] == '\r' && (backslashes_before(raw, n - 1) & 1)))
    return "\n\n";
  return "\n";
}

int sgf_cursor_add_comment(sgf_cursor *c, const char *text) {
  sgf_tree *t = c->tree;
  const sgf__prop *p;
  char *raw;
  size_t len;
  int r;
  if (!text) return SGF_EINVAL;
  if ((r = ext_of(t, c->node)) != 0) return r;
  p = find(t, c->node, "C");
  if (p) {
    sgf__tval v = sgf__pval(p, 0);
    raw = make_raw(t, v.raw, v.len, comment_join(v.raw, v.len), text, 0, &len);
  } else
    raw = make_raw(t, NULL, 0, NULL, text, 0, &len);
  if (!raw) return edit_status(t->err);
  return prop_set(t, c->node, "C", raw, len);
}

int sgf_cursor_add_label(sgf_cursor *c, int x, int y, const char *text) {
  sgf_tree *t = c->tree;
  sgf__prop *p;
  char pt[2], *raw;
  size_t len, i;
  int r;
  if (!text || sgf_point_encode(x, y, pt) != 2) return SGF_EINVAL;
  if ((r = ext_of(t, c->node)) != 0) return r;
  raw = make_raw(t, pt, 2, ":", text, 1, &len);
  if (!raw) return edit_status(t->err);
  p = find(t, c->node, "LB");
  for (i = 0; p && i < p->nvalues; i++) {
    sgf__tval v = sgf__pval(p, i);
    if (v.len >= 3 && v.raw[0] == pt[0] && v.raw[1] == pt[1] &&
        v.raw[2] == ':') { /* one label per point: replace it */
      sgf__tval *w;
      r = edit_prepare(t, c->node); /* an array to write into */
      if (r != 0) return r;
      w = (sgf__tval *)&p->u.values[i];
      w->raw = raw;
      w->len = len;
      return SGF_OK;
    }
  }
  return prop_append(t, c->node, "LB", raw, len);
}

int sgf_cursor_set_text(sgf_cursor *c, const char *ident, const char *text) {
  sgf_tree *t = c->tree;
  char *raw;
  size_t len;
  int r;
  if (!valid_ident(ident) || !text) return SGF_EINVAL;
  if ((r = ext_of(t, c->node)) != 0) return r;
  raw = make_raw(t, NULL, 0, NULL, text, 0, &len);
  if (!raw) return edit_status(t->err);
  return prop_set(t, c->node, ident, raw, len);
}

int sgf_cursor_add_value(sgf_cursor *c, const char *ident, const char *raw,
                         size_t len) {
  sgf_tree *t = c->tree;
  char *copy;
  size_t n;
  int r;
  if (!valid_ident(ident) || (!raw && len) || !valid_raw(raw, len))
    return SGF_EINVAL;
  if ((r = ext_of(t, c->node)) != 0) return r;
  copy = make_raw(t, raw, len, NULL, NULL, 0, &n);
  if (!copy) return edit_status(t->err);
  return prop_append(t, c->node, ident, copy, n);
}

int sgf_cursor_set_result(sgf_cursor *c, const char *result) {
  sgf_tree *t = c->tree;
  char *raw;
  size_t len;
  int r;
  if (!result) return SGF_EINVAL;
  raw = make_raw(t, NULL, 0, NULL, result, 0, &len);
  if (!raw) return edit_status(t->err);
  if ((r = ext_of(t, sgf__root(t))) != 0) return r;
  return prop_set(t, sgf__root(t), "RE", raw, len);
}

/* ------------------------------------------------------------------ */
/* The header                                                          */

static size_t fmt_uint(char *out, unsigned long long v) {
  char tmp[24];
  size_t n = 0, i;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
  out[n] = '\0';
  return n;
}

/* Komi with at most two decimals, no locale: 6.5, 7, -0.25, 0. */
static int fmt_komi(char *out, double k) {
  double a = k < 0 ? -k : k;
  unsigned long long c;
  size_t n = 0;
  if (!(a < 1e12)) return -1; /* also NaN */
  c = (unsigned long long)(a * 100.0 + 0.5);
  if (k < 0 && c) out[n++] = '-';
  n += fmt_uint(out + n, c / 100);
  if (c % 100) {
    out[n++] = '.';
    out[n++] = (char)('0' + (c % 100) / 10);
    if (c % 10) out[n++] = (char)('0' + c % 10);
  }
  out[n] = '\0';
  return 0;
}

int sgf_cursor_header(sgf_cursor *c, const sgf_game_header *h) {
  static const char *const idents[] = {"PB", "PW", "DT", "RU", "EV", "AP"};
  const char *texts[6];
  sgf_tree *t = c->tree;
  sgf_node *root = sgf__root(t);
  char num[32], *raw;
  size_t i, len;
  int r;
  if (!h || h->board_size > 52) return SGF_EINVAL;
  if (h->has_komi && fmt_komi(num, h->komi) != 0) return SGF_EINVAL;
  if ((r = ext_of(t, root)) != 0) return r;
  texts[0] = h->black;
  texts[1] = h->white;
  texts[2] = h->date;
  texts[3] = h->rules;
  texts[4] = h->event;
  texts[5] = h->application;
#define SET(id, text)                                                \
  do {                                                               \
    raw = make_raw(t, NULL, 0, NULL, (text), 0, &len);               \
    if (!raw) return edit_status(t->err);                            \
    if ((r = prop_set(t, root, (id), raw, len)) != SGF_OK) return r; \
  } while (0)
  SET("GM", "1");
  SET("FF", "4");
  if (h->board_size) {
    fmt_uint(num, h->board_size);
    SET("SZ", num);
  }
  if (h->has_komi) {
    fmt_komi(num, h->komi);
    SET("KM", num);
  }
  if (h->handicap) {
    fmt_uint(num, h->handicap);
    SET("HA", num);
  }
  for (i = 0; i < 6; i++)
    if (texts[i]) SET(idents[i], texts[i]);
#undef SET
  return SGF_OK;
}
