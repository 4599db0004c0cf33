"""SGF games and nodes of sgfstream.sgfmill (sgfmill's ``sgf`` module).

``from sgfstream.sgfmill import sgf`` in place of ``from sgfmill import
sgf``: Sgf_game and Tree_node as sgfmill documents them, over the C
library's compact tree. Sgf_game.from_bytes parses in C; Tree_node objects
are made when a node is first reached (get_root(), children, the main
sequence) and the same node gives the same object while it is held.
sgfstream.sgfmill's docstring lists where it differs from sgfmill.
"""

import datetime

from .. import _core
from . import sgf_grammar
from . import sgf_properties

__all__ = ["Sgf_game", "Tree_node"]

# What the library repairs but sgfmill refuses to parse, by diagnostic
# code: junk inside a game (8), no '(' (9) or ';' (10), a game tree not
# closed (11) or empty (15) or without a node (20), a property without a
# value (16), a value without a property (17), an unclosed value (18), no
# game tree (21), a node after a variation (23), an identifier over the
# 64-letter limit (3).
_REFUSED = {
    3: "property identifier too long",
    8: "unexpected characters",
    9: "game tree without '('",
    10: "property value outside a node",
    11: "unexpected end of SGF data",
    15: "empty sequence",
    16: "property with no values",
    17: "unexpected value",
    18: "unexpected end of SGF data",
    20: "empty sequence",
    21: "no SGF data found",
    23: "unexpected node",
}


class _Tree_node:
    """A node of an Sgf_game (do not instantiate: get nodes from the game).

    A list-like container of its children (indexing, slicing, iteration,
    len(), index()); false when it has no children. Attributes (read
    only): owner, the Sgf_game; parent, the parent node (None for the
    root). Raw values are bytes in the game's raw property encoding.
    """

    get_move = _core.Node._mill_get_move

    def get_size(self):
        """The board size the node's values are read on."""
        return self.owner.size

    def get_encoding(self):
        """The raw property encoding (normalised codec name)."""
        return self.owner._encoding

    def get_presenter(self):
        """The game's sgf_properties.Presenter."""
        return self.owner.presenter

    def get(self, identifier):
        """The property's value as a Python value (see sgfmill's "Property
        types"). KeyError if absent, ValueError if malformed."""
        return self.owner.presenter.interpret(identifier,
                                              self.get_raw_list(identifier))

    def _set_checked(self, identifier, values):
        if identifier == "SZ" and values != [
                sgf_properties.serialise_number(self.owner.size)
                if isinstance(self.owner.size, int) else
                ("%d:%d" % self.owner.size).encode()]:
            raise ValueError("changing size is not permitted")
        self._set_raw_list(identifier, values)

    def set(self, identifier, value):
        """Set the property from a Python value. ValueError if the
        identifier is not a PropIdent or the value cannot be written."""
        if not sgf_grammar.is_valid_property_identifier(identifier):
            raise ValueError("ill-formed property identifier")
        self._set_checked(identifier,
                          self.owner.presenter.serialise(identifier, value))

    def unset(self, identifier):
        """Remove the property. KeyError if absent."""
        if identifier == "SZ" and self.owner.size != 19:
            raise ValueError("changing size is not permitted")
        _core.Node.unset(self, identifier)

    def set_raw_list(self, identifier, values):
        """Set the property's raw values (a nonempty iterable of bytes,
        escapes in place). ValueError for a bad identifier or value."""
        if not sgf_grammar.is_valid_property_identifier(identifier):
            raise ValueError("ill-formed property identifier")
        values = list(values)
        if not values:
            raise ValueError("empty property list")
        for v in values:
            if not sgf_grammar.is_valid_property_value(v):
                raise ValueError("ill-formed raw property value")
        self._set_checked(identifier, [bytes(v) for v in values])

    def set_raw(self, identifier, value):
        """Set the property to one raw value (bytes, escapes in place)."""
        if not sgf_grammar.is_valid_property_identifier(identifier):
            raise ValueError("ill-formed property identifier")
        if not sgf_grammar.is_valid_property_value(value):
            raise ValueError("ill-formed raw property value")
        self._set_checked(identifier, [bytes(value)])

    def get_raw_move(self):
        """(colour, raw value) of B (else W), or (None, None)."""
        for ident, colour in (("B", "b"), ("W", "w")):
            if self.has_property(ident):
                return colour, self.get_raw(ident)
        return None, None

    def set_move(self, colour, move):
        """Set B or W (colour 'b' or 'w') to move ((row, col) or None for a
        pass), removing the other."""
        if colour not in ("b", "w"):
            raise ValueError("bad colour")
        for ident in ("B", "W"):
            if self.has_property(ident):
                _core.Node.unset(self, ident)
        self.set(colour.upper(), move)

    def get_setup_stones(self):
        """(black, white, empty): the sets of points of AB, AW, AE."""
        result = []
        for ident in ("AB", "AW", "AE"):
            try:
                result.append(self.get(ident))
            except KeyError:
                result.append(set())
        return tuple(result)

    def has_setup_stones(self):
        """Whether AB, AW or AE is present."""
        return (self.has_property("AB") or self.has_property("AW")
                or self.has_property("AE"))

    def set_setup_stones(self, black, white, empty=None):
        """Replace AB, AW and AE (an empty or missing list: unset)."""
        for ident in ("AB", "AW", "AE"):
            if self.has_property(ident):
                _core.Node.unset(self, ident)
        if black:
            self.set("AB", black)
        if white:
            self.set("AW", white)
        if empty:
            self.set("AE", empty)

    def add_comment_text(self, text):
        """Add C, or append text to it after two newlines."""
        if self.has_property("C"):
            self.set("C", self.get("C") + "\n\n" + text)
        else:
            self.set("C", text)

    def find(self, identifier):
        """The nearest of this node and its ancestors holding the property,
        or None."""
        node = self
        while node is not None:
            if node.has_property(identifier):
                return node
            node = node.parent
        return None

    def find_property(self, identifier):
        """The value of the property at the nearest node (this one or an
        ancestor) holding it. KeyError if none does."""
        node = self.find(identifier)
        if node is None:
            raise KeyError(identifier)
        return node.get(identifier)

    def __str__(self):
        enc = self.get_encoding()
        return "\n".join(
            ident + "".join("[%s]" % v.decode(enc, "replace")
                            for v in self.get_raw_list(ident))
            for ident in sorted(self.properties())) + "\n"



# Made in C so that its instances are not garbage-collected (cheaper to
# make: one per node reached); the methods are those of the class above.
Tree_node = _core._node_class(
    "sgfstream.sgfmill.sgf.Tree_node", _Tree_node.__doc__,
    {k: v for k, v in vars(_Tree_node).items() if k != "__slots__"})

class Sgf_game(_core.Tree):
    """An SGF game tree (one GameTree), its nodes in the C library.

    Sgf_game(size, encoding="UTF-8") makes a new game with FF[4], GM[1],
    SZ[size] and CA[encoding] in its root; Sgf_game.from_bytes() and
    Sgf_game.from_string() read one.
    """

    _node_class = Tree_node

    def __new__(cls, size, encoding="UTF-8", *args, **kwargs):
        if not 1 <= size <= 26:
            raise ValueError("size out of range: %s" % size)
        game = super().__new__(cls)
        game._setup(size, encoding)
        return game

    def __init__(self, size, encoding="UTF-8"):
        root = self.get_root()
        root.set_raw("FF", b"4")
        root.set_raw("GM", b"1")
        root.set_raw("SZ", sgf_properties.serialise_number(self.size))
        root.set_raw("CA", self._encoding.encode())

    def _setup(self, size, encoding):
        self.size = size
        # The Presenter is made on first use; the encoding is checked now.
        self._encoding = sgf_properties._checked_encoding(encoding)
        w, h = (size, size) if isinstance(size, int) else size
        self._set_board(w, h, w > 26 or h > 26)

    @classmethod
    def from_coarse_game_tree(cls, coarse_game, override_encoding=None):
        """A game from an sgf_grammar.Coarse_game_tree (as
        sgf_grammar.parse_sgf_collection gives), read as from_bytes reads
        its serialisation: the nodes hold copies of its raw values."""
        return cls.from_bytes(
            sgf_grammar.serialise_game_tree(coarse_game, wrap=None),
            override_encoding)

    @classmethod
    def from_string(cls, s, *, lenient=False):
        """Read the first game tree of the str s; the raw property encoding
        and CA become UTF-8."""
        if not hasattr(s, "encode"):
            raise TypeError("expected string, given %s" % type(s).__name__)
        return cls.from_bytes(s.encode("utf-8"), override_encoding="utf-8",
                              lenient=lenient)

    def serialise(self, wrap=79):
        """The game as SGF bytes in the CA encoding (ISO-8859-1 without
        one), as sgfmill writes it: properties sorted (FF first), lines
        kept within wrap bytes where possible (None: no wrapping), ending
        with a newline. UnicodeError if CA changed and a value does not
        convert; ValueError if CA names no codec."""
        try:
            encoding = self.get_charset()
        except ValueError:
            raise ValueError("unsupported charset: %s"
                             % self.get_root().get_raw("CA")) from None
        data = self._serialise_mill(wrap)
        if encoding == self._encoding:
            return data
        return data.decode(self._encoding).encode(encoding)

    @property
    def presenter(self):
        """The game's sgf_properties.Presenter (made on first use)."""
        p = self.__dict__.get("_presenter")
        if p is None:
            p = self._presenter = sgf_properties.Presenter(self.size,
                                                           self._encoding)
            if max(sgf_properties._dims(self.size)) > 26:  # lenient only
                p._limit = 52
        return p

    def get_property_presenter(self):
        """The game's sgf_properties.Presenter."""
        return self.presenter

    def get_main_sequence_below(self, node):
        """The leftmost variation below node: its first child to a leaf."""
        if node.owner is not self:
            raise ValueError("node doesn't belong to this game")
        return node.main_line()[1:]

    def get_sequence_above(self, node):
        """The nodes from the root to node's parent."""
        if node.owner is not self:
            raise ValueError("node doesn't belong to this game")
        result = []
        while node.parent is not None:
            node = node.parent
            result.append(node)
        result.reverse()
        return result

    get_main_sequence_above = get_sequence_above

    def main_sequence_iter(self):
        """An iterator over the leftmost variation's nodes."""
        return iter(self.get_main_sequence())

    def extend_main_sequence(self):
        """Add a node at the end of the leftmost variation and return it."""
        return self.get_last_node().new_child()

    def get_size(self):
        """The board size (an int; (width, height) for a lenient
        rectangular board)."""
        return self.size

    def get_charset(self):
        """The CA root property as a normalised codec name (ISO-8859-1
        without one). ValueError if it names no Python codec."""
        try:
            s = self.get_root().get("CA")
        except KeyError:
            return "ISO-8859-1"
        try:
            return sgf_properties.normalise_charset_name(s)
        except LookupError:
            raise ValueError("no codec available for CA %s" % s) from None

    def get_komi(self):
        """KM as a float (0.0 without one). ValueError if malformed."""
        try:
            return self.get_root().get("KM")
        except KeyError:
            return 0.0

    def get_handicap(self):
        """HA as an int; None without one or for HA[0]. ValueError if
        malformed (HA[1] included)."""
        try:
            handicap = self.get_root().get("HA")
        except KeyError:
            return None
        if handicap == 0:
            return None
        if handicap == 1:
            raise ValueError("handicap 1")
        return handicap

    def get_player_name(self, colour):
        """PB (colour 'b') or PW ('w'), or None."""
        try:
            return self.get_root().get({"b": "PB", "w": "PW"}[colour])
        except KeyError:
            return None

    def get_winner(self):
        """'b' or 'w' from RE; None without RE or when neither won."""
        try:
            colour = self.get_root().get("RE")[0].lower()
        except LookupError:
            return None
        if colour not in ("b", "w"):
            return None
        return colour

    def set_date(self, date=None):
        """Set DT to date (a datetime.date; today by default)."""
        if date is None:
            date = datetime.date.today()
        self.get_root().set("DT", date.strftime("%Y-%m-%d"))


# What Sgf_game._mill_parse does for a game it finishes: this _setup.
_SETUP = Sgf_game._setup


def _from_bytes(cls, bb, override_encoding=None, *, lenient=False):
    """Sgf_game.from_bytes (see its doc), every case: what the C function
    of that name does not finish itself (another encoding, lenient, a
    class with its own _setup)."""
    # In C: the first "(\s*;", its game tree, the root's SZ and CA;
    # the usual game (no diagnostic, a plain SZ, a known CA) finished.
    quick = (override_encoding is None and not lenient
             and cls._setup is _SETUP)
    r = cls._mill_parse(bb, sgf_properties._checked_encoding
                        if quick else None)
    return _from_parsed(cls, r, override_encoding, lenient)


def _from_parsed(cls, r, override_encoding, lenient):
    """from_bytes past _mill_parse, whose result r is."""
    if r is None:
        raise ValueError("no SGF data found")
    if type(r) is not tuple:
        return r
    game, diags, size_bb, ca = r
    for d in diags:
        if d.severity == "fatal" or (not lenient and d.code in _REFUSED):
            raise ValueError("%s: line %d column %d: %s" % (
                _REFUSED.get(d.code, "can't parse SGF data"), d.line,
                d.column, d.message))
    if game is None:
        raise ValueError("no SGF data found")
    if size_bb is None:
        size = 19
    else:
        try:
            size = int(size_bb)
        except ValueError:
            size = _lenient_size(size_bb) if lenient else None
            if size is None:
                raise ValueError("bad SZ property: %s" % size_bb) from None
    limit = 52 if lenient else 26
    if isinstance(size, int) and not 1 <= size <= limit:
        raise ValueError("size out of range: %s" % size)
    if override_encoding is None:
        encoding = ("ISO-8859-1" if ca is None
                    else ca.decode("ascii", "replace"))
    else:
        encoding = override_encoding
    game._setup(size, encoding)
    if override_encoding is not None:
        game.get_root().set_raw("CA", game._encoding.encode())
    return game


# Sgf_game.from_bytes: in C, which finishes the usual call (from_bytes(bb)
# on a class whose _setup is Sgf_game's, the game finished by _mill_parse
# with the checked encoding) with no Python frame, and calls the two
# functions above for the rest.
_from_bytes.__name__ = "from_bytes"  # (its errors name it so)
_from_bytes.__qualname__ = "Sgf_game.from_bytes"
_core._mill_from_bytes_init(_from_bytes, _from_parsed, _SETUP,
                            sgf_properties._checked_encoding)
Sgf_game.from_bytes = classmethod(_core._mill_from_bytes)


def _lenient_size(bb):
    """(w, h) from 'w:h' (each 1..52), w for a square one; None if not."""
    a, colon, b = bytes(bb).partition(b":")
    try:
        w, h = int(a), int(b)
    except ValueError:
        return None
    if not (colon and 1 <= w <= 52 and 1 <= h <= 52):
        return None
    return w if w == h else (w, h)
