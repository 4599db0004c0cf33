"""Game trees: Game, Node and Board over the C library's compact trees.

A Game holds one game tree in the library's memory (flat arrays of small
records, a move node in 24 bytes); a Node object is made only when a node
is reached (game.root, node.children, node[i], game.main_line(), ...), and
the same node gives the same object while it is held::

    game = sgfstream.tree.parse_game(open("game.sgf", "rb").read())
    for node in game.main_line():
        colour, point = node.get_move()        # ('b', (15, 3)) or (None, None)
    game.moves()        # array('B', [colour, x, y, colour, x, y, ...])

Navigation uses the C API's (CQL's) words: ``ply``, ``variation_depth``,
``tree_depth``, ``child_index``, ``preorder_index``, ``move_number``,
``is_mainline``, ``lca(other)``, ``distance(other)``. Edits: ``set``,
``set_raw_list``, ``unset``, ``new_child``, ``add_move``, ``delete``,
``promote``, ``reparent``. ``game.to_sgf()`` writes it back through the
library's writer.

Coordinates are SGF's: a point is (x, y), x the column from the left, y
the row from the top, 0-based ("ab" is (0, 1)). Colours are 'b' and 'w'.

The layout of ``Game.moves()`` (the same as ``GameRecord.moves()``): an
``array.array('B')`` of 3 bytes a move of the main line, in order: colour
(1 black, 2 white), x, y as the SGF letters give them (a-z 0-25, A-Z
26-51); a pass (``B[]``, or ``tt`` on a board up to 19x19) is x = y = 255
(``MOVE_PASS``), a value that is not a point x = y = 254
(``MOVE_INVALID``). ``moves(numpy=True)`` gives the same as an (n, 3)
``numpy.uint8`` array.
"""

from . import _core

__all__ = ["Game", "Node", "Board", "parse_game", "parse_games",
           "MOVE_PASS", "MOVE_INVALID"]

MOVE_PASS = 255
MOVE_INVALID = 254

_LETTERS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _point_raw(p):
    x, y = p
    if not (0 <= x < 52 and 0 <= y < 52):
        raise ValueError("point out of range: %r" % (p,))
    return bytes((_LETTERS[x], _LETTERS[y]))


def _text_raw(s, compose=False):
    if not isinstance(s, str):
        raise TypeError("expected str, not %s" % type(s).__name__)
    raw = s.encode("utf-8", "surrogateescape").replace(b"\\", b"\\\\")
    raw = raw.replace(b"]", b"\\]")
    return raw.replace(b":", b"\\:") if compose else raw


def _real_raw(f):
    f = float(f)
    if f != f or f in (float("inf"), float("-inf")):
        raise ValueError("not a finite number")
    if f == int(f) and abs(f) < 1e15:
        return str(int(f)).encode()
    return repr(f).encode()


def _part_raw(kind, v, compose=False):
    if kind == "none":
        return b""
    if kind in ("number", "double"):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError("expected int, not %s" % type(v).__name__)
        if kind == "double" and v not in (1, 2):
            raise ValueError("a Double is 1 or 2")
        return str(v).encode()
    if kind == "real":
        return _real_raw(v)
    if kind == "color":
        if v not in ("b", "w", "B", "W"):
            raise ValueError("colour must be 'b' or 'w'")
        return v.upper().encode()
    if kind in ("point", "stone"):
        return _point_raw(v)
    if kind == "move":
        return b"" if v is None else _point_raw(v)
    return _text_raw(v, compose)


class _Node:
    """A node of a Game (made when first reached). A list-like container of
    its children (len, indexing, slicing, iteration, index()); false when
    it has none. parent, children, game; navigation and edits as listed
    in sgfstream.tree."""

    get = _core.Node._get_typed
    get_move = _core.Node._get_move_xy

    def set(self, identifier, value):
        """Set the property from a Python value, typed as get() gives it:
        True (None type), int, float, 'b'/'w', str (written as UTF-8,
        escaped), (x, y), None for a pass, a pair for a composed value, a
        list for a list property ([] for an empty elist)."""
        if not (isinstance(identifier, str) and identifier.isalpha()
                and identifier.isupper() and identifier.isascii()):
            raise ValueError("ill-formed property identifier: %r"
                             % (identifier,))
        d = _core._propdef(identifier)
        kind, kind2, shape = d if d else ("text", None, "single")
        values = list(value) if shape != "single" else [value]
        raws = []
        for v in values:
            if kind2 is not None and not (identifier == "SZ" and
                                          isinstance(v, int)):
                if v is None and identifier == "FG":
                    raws.append(b"")
                    continue
                a, b = v
                raws.append(_part_raw(kind, a, True) + b":" +
                            _part_raw(kind2, b))
            else:
                raws.append(_part_raw(kind, v))
        if not raws:
            if shape != "elist":
                raise ValueError("%s needs at least one value" % identifier)
            raws = [b""]
        self._set_raw_list(identifier, raws)

    def set_raw_list(self, identifier, values):
        """Set the property's raw values (bytes, escapes in place)."""
        if not (isinstance(identifier, str) and identifier.isalpha()
                and identifier.isupper() and identifier.isascii()):
            raise ValueError("ill-formed property identifier")
        values = [bytes(v) for v in values]
        if not values:
            raise ValueError("no values")
        self._set_raw_list(identifier, values)

    def set_raw(self, identifier, value):
        """Set the property to one raw value."""
        self.set_raw_list(identifier, [value])

    def add_move(self, colour, point, index=None):
        """Add a child holding a move (colour 'b'/'w', point (x, y) or None
        for a pass) and return it."""
        if colour not in ("b", "w"):
            raise ValueError("colour must be 'b' or 'w'")
        child = self.new_child(index)
        child.set(colour.upper(), point)
        return child

    def __repr__(self):
        return "<sgfstream.tree.Node %d of %r>" % (self.preorder_index,
                                                   self.properties())



# Made in C so that its instances are not garbage-collected (cheaper to
# make: one per node reached); the methods are those of the class above.
Node = _core._node_class(
    "sgfstream.tree.Node", _Node.__doc__,
    {k: v for k, v in vars(_Node).items() if k != "__slots__"})

class Game(_core.Tree):
    """One game tree in the library's memory. Game() is a new game with an
    empty root (Game(board_size=19) writes FF[4] GM[1] SZ); parse_game()
    reads one. root / get_root(), main_line(), node_at(i), node_count,
    moves(), board_at(node), to_sgf()."""

    _node_class = Node

    def __init__(self, board_size=None):
        self.diagnostics = []
        if board_size is not None:
            r = self.root
            r.set("FF", 4)
            r.set("GM", 1)
            r.set("SZ", board_size)

    def main_line(self):
        """The main line: the root, then the first child at each step."""
        return self.get_main_sequence()

    def moves(self, numpy=False):
        """The main line's moves, 3 bytes each (see sgfstream.tree):
        array.array('B'), or an (n, 3) numpy.uint8 array with numpy=True
        (ImportError without NumPy)."""
        data = self._moves_bytes()
        if numpy:
            import numpy as np
            return np.frombuffer(data, np.uint8).reshape(-1, 3)
        import array  # here, not at import: it loads collections (1 ms)
        return array.array("B", data)

    def board_size(self):
        """(width, height) of the root's SZ (19 x 19 without one)."""
        try:
            sz = self.root.get("SZ")
        except KeyError:
            return 19, 19
        return (sz, sz) if isinstance(sz, int) else tuple(sz)

    def board_at(self, node=None):
        """The Board after the moves and setup (AB, AW, AE) on the path from
        the root to node (default: the end of the main line). A move on an
        occupied point or off the board raises ValueError / IndexError."""
        if node is None:
            node = self.get_last_node()
        path = []
        while node is not None:
            path.append(node)
            node = node.parent
        w, h = self.board_size()
        board = Board(w, h)
        for n in reversed(path):
            setup = [n.get(k) if n.has_property(k) else []
                     for k in ("AB", "AW", "AE")]
            if any(setup):
                board.apply_setup(*setup)
            colour, point = n.get_move()
            if point is not None:
                board.play(point[0], point[1], colour)
        return board

    def __repr__(self):
        return "<sgfstream.tree.Game: %d nodes>" % self.node_count


class Board(_core.Board):
    """Board(width, height=width): a Go board (up to 52x52) that plays moves
    with captures. Points (x, y) from the top left. play(x, y, colour)
    returns the point simple ko forbids next (or None); get(x, y),
    apply_setup(black, white, empty), area_score(), copy(), is_empty(),
    list_occupied_points(), cells() (bytes: 0 empty, 1 black, 2 white),
    captures (stones captured by black, by white)."""

    __slots__ = ()


def _raise_fatal(diags):
    from . import SGFError
    fatal = [d for d in diags if d.severity in ("fatal", "error")]
    if fatal:
        e = SGFError(str(fatal[0]))
        e.diagnostics = diags
        raise e


def parse_games(data, *, charset=None, mainline=False, positions=False):
    """Every game tree of data (bytes-like) as a list of Game. Lenient:
    what the library repairs is in each game's ... (all diagnostics are
    on the first game's .diagnostics); SGFError on an error or a fatal
    diagnostic. charset (e.g. 'GB18030') is kept on each game as .charset
    for reading text: the library reads text as UTF-8."""
    games, diags = Game._parse(data, 0, False, mainline, positions)
    _raise_fatal(diags)
    for g in games:
        g.diagnostics = []
        g.charset = charset
    if games:
        games[0].diagnostics = diags
    return games


def parse_game(data, *, charset=None, mainline=False, positions=False):
    """The first game tree of data (bytes-like) as a Game; its diagnostics
    (what the library repaired) in .diagnostics. SGFError if there is none
    or on a fatal diagnostic. mainline=True keeps the main line only;
    positions=True keeps where each node was (more memory)."""
    games, diags = Game._parse(data, 0, True, mainline, positions)
    _raise_fatal(diags)
    if not games:
        from . import SGFError
        e = SGFError("no game tree in the input")
        e.diagnostics = diags
        raise e
    g = games[0]
    g.diagnostics = diags
    g.charset = charset
    return g
