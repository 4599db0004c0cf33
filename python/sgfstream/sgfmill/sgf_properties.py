"""Property values of sgfstream.sgfmill (sgfmill's ``sgf_properties``).

Raw values (bytes between '[' and ']', escapes intact) to Python values and
back, by property type, as sgfmill's documentation describes them (see
"Property types" there). sgfmill does not document this module itself;
the Presenter and the interpret_/serialise_ functions sgfmill scripts use
are here with sgfmill's behaviour. Boards larger than 26 and rectangular
boards (lenient games, see sgfstream.sgfmill) read and write points with
the letters A-Z for 26-51.
"""

import codecs
from math import isinf, isnan

from . import sgf_grammar

_LETTERS = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def normalise_charset_name(s):
    """A codec name in the form SGF uses ('UTF-8', 'ISO-8859-1').
    LookupError if Python knows no such codec."""
    name = codecs.lookup(s).name.replace("_", "-").upper()
    return name.replace("ISO8859", "ISO-8859")


def _dims(size):
    return (size, size) if isinstance(size, int) else tuple(size)


def _letter(b):
    if 0x61 <= b <= 0x7A:
        return b - 0x61
    if 0x41 <= b <= 0x5A:
        return b - 0x41 + 26
    return -1


def interpret_go_point(bb, size):
    """A raw Point, Stone or Move to (row, col), row 0 at the bottom; None
    for a pass ('' always, 'tt' on boards up to 19). ValueError if it is
    not a point on the board. size: an int, or (width, height)."""
    w, h = _dims(size)
    if bb == b"" or (bb == b"tt" and w <= 19 and h <= 19):
        return None
    if len(bb) != 2:
        raise ValueError("malformed point value")
    x = bb[0] - 0x61
    y = bb[1] - 0x61
    if w > 26 or h > 26:
        x, y = _letter(bb[0]), _letter(bb[1])
    if not (0 <= x < w and 0 <= y < h):
        raise ValueError("point off the board")
    return h - 1 - y, x


def serialise_go_point(move, size, _limit=26):
    """(row, col) or None (a pass) to a raw value: b'tt' for a pass on
    boards up to 19, b'' above. ValueError off the board, or for a board
    over 26 (as sgfmill; a lenient game's larger board passes _limit=52)."""
    w, h = _dims(size)
    if not (1 <= w <= _limit and 1 <= h <= _limit):
        raise ValueError("board size out of range")
    if move is None:
        return b"tt" if w <= 19 and h <= 19 else b""
    row, col = move
    if not (0 <= col < w and 0 <= row < h):
        raise ValueError("point off the board")
    return bytes((_LETTERS[col], _LETTERS[h - row - 1]))


class _Context:
    # The largest board side points are written for: sgfmill's 26, or 52
    # in the Presenter of a lenient game with a larger board.
    _limit = 26

    def __init__(self, size, encoding):
        self.size = size
        self.encoding = encoding


def interpret_none(bb, context=None):
    return True


def serialise_none(b, context=None):
    return b""


def interpret_number(bb, context=None):
    return int(bytes(bb).replace(b" ", b""), 10)


def serialise_number(i, context=None):
    return ("%d" % i).encode("ascii")


def interpret_real(bb, context=None):
    f = float(bytes(bb))
    if isinf(f):
        raise ValueError("infinite")
    if isnan(f):
        raise ValueError("not a number")
    return f


def serialise_real(f, context=None):
    f = float(f)
    try:
        i = int(f)
    except OverflowError:
        raise ValueError("infinite") from None
    if f == i:
        return str(i).encode("ascii")
    s = repr(f)
    if "e-" in s:
        return b"0"
    return s.encode("ascii")


def interpret_double(bb, context=None):
    return 2 if bytes(bb).strip() == b"2" else 1


def serialise_double(i, context=None):
    return b"2" if i == 2 else b"1"


def interpret_colour(bb, context=None):
    c = bytes(bb).lower()
    if c not in (b"b", b"w"):
        raise ValueError("bad colour")
    return c.decode("ascii")


def serialise_colour(colour, context=None):
    if colour not in ("b", "w"):
        raise ValueError("bad colour")
    return colour.upper().encode("ascii")


def interpret_simpletext(bb, context):
    return sgf_grammar.simpletext_value(bb).decode(context.encoding)


def serialise_simpletext(s, context):
    if not hasattr(s, "encode"):
        raise TypeError("expected string, given %s" % type(s).__name__)
    return sgf_grammar.escape_text(s.encode(context.encoding))


def interpret_text(bb, context):
    return sgf_grammar.text_value(bb).decode(context.encoding)


def serialise_text(s, context):
    return serialise_simpletext(s, context)


def interpret_point(bb, context):
    p = interpret_go_point(bb, context.size)
    if p is None:
        raise ValueError("a pass is not a point")
    return p


def serialise_point(point, context):
    if point is None:
        raise ValueError("a pass is not a point")
    return serialise_go_point(point, context.size, context._limit)


def interpret_move(bb, context):
    return interpret_go_point(bb, context.size)


def serialise_move(move, context):
    return serialise_go_point(move, context.size, context._limit)


def interpret_point_list(values, context):
    """A set of (row, col): single points and rectangles 'aa:cc' (any two
    corners of which the first is the upper left)."""
    result = set()
    for bb in values:
        p1, colon, p2 = bytes(bb).partition(b":")
        if colon:
            top, left = interpret_point(p1, context)
            bottom, right = interpret_point(p2, context)
            if not (bottom <= top and left <= right):
                raise ValueError("bad rectangle")
            for row in range(bottom, top + 1):
                for col in range(left, right + 1):
                    result.add((row, col))
        else:
            result.add(interpret_point(p1, context))
    return result


def serialise_point_list(points, context):
    return sorted(serialise_point(p, context) for p in points)


def interpret_AP(bb, context):
    app, version = sgf_grammar.parse_compose(bb)
    return (interpret_simpletext(app, context),
            interpret_simpletext(version if version is not None else b"",
                                 context))


def serialise_AP(value, context):
    app, version = value
    return sgf_grammar.compose(serialise_simpletext(app, context),
                               serialise_simpletext(version, context))


def _compose_list(values, context, second):
    """Compose values whose first part is a point; second reads the
    other part."""
    result = []
    for bb in values:
        first, rest = sgf_grammar.parse_compose(bb)
        if rest is None:
            raise ValueError("not a compose value")
        result.append((interpret_point(first, context), second(rest, context)))
    return result


def interpret_ARLN_list(values, context):
    return _compose_list(values, context, interpret_point)


def serialise_ARLN_list(values, context):
    return [serialise_point(p1, context) + b":" + serialise_point(p2, context)
            for p1, p2 in values]


def interpret_FG(bb, context):
    if bb == b"":
        return None
    flags, name = sgf_grammar.parse_compose(bb)
    if name is None:
        raise ValueError("not a compose value")
    return int(flags), interpret_simpletext(name, context)


def serialise_FG(value, context):
    if value is None:
        return b""
    flags, name = value
    return serialise_number(flags) + b":" + serialise_simpletext(name, context)


def interpret_LB_list(values, context):
    return _compose_list(values, context, interpret_simpletext)


def serialise_LB_list(values, context):
    return [serialise_point(point, context) + b":" +
            serialise_simpletext(text, context) for point, text in values]


class Property_type:
    """How one property type is read and written."""

    def __init__(self, interpreter, serialiser, uses_list,
                 allows_empty_list=False):
        self.interpreter = interpreter
        self.serialiser = serialiser
        self.uses_list = bool(uses_list)
        self.allows_empty_list = bool(allows_empty_list)


def _ptype(name, elist=False):
    base = "point_list" if name in ("point_elist", "stone_list") else name
    g = globals()
    return Property_type(g["interpret_" + base], g["serialise_" + base],
                         base.endswith("_list"), elist)


_TYPES = {n: _ptype(n) for n in (
    "none", "number", "real", "double", "colour", "simpletext", "text",
    "point", "move", "point_list", "stone_list", "AP", "ARLN_list", "FG",
    "LB_list")}
_TYPES["point_elist"] = _ptype("point_elist", elist=True)

_BY_TYPE = {
    "stone_list": "AB AW",
    "point_list": "AE CR MA SL SQ TR",
    "point_elist": "DD TB TW VW",
    "simpletext": "AN BR BT CA CP DT EV GN N ON OT PB PC PW RE RO RU SO US "
                  "WR WT",
    "text": "C GC",
    "real": "BL KM TM V WL",
    "double": "BM DM GB GW HO TE UC",
    "none": "DO IT KO",
    "number": "FF GM HA MN OB OW PM ST SZ",
    "move": "B W",
    "colour": "PL",
    "AP": "AP",
    "ARLN_list": "AR LN",
    "FG": "FG",
    "LB_list": "LB",
}
_property_types_by_ident = {
    ident: _TYPES[t] for t, idents in _BY_TYPE.items() for ident in idents.split()}
_text_property_type = _TYPES["text"]


_checked = {}


def _checked_encoding(encoding):
    """The normalised codec name of encoding, as Presenter makes it (and
    the same ValueError), remembered."""
    name = _checked.get(encoding)
    if name is None:
        try:
            encoding.encode("ascii")
        except UnicodeEncodeError:
            raise ValueError("encoding names must be ascii") from None
        try:
            name = normalise_charset_name(encoding)
        except LookupError:
            raise ValueError("unknown encoding: %s" % encoding) from None
        if len(_checked) < 1000:
            _checked[encoding] = name
    return name


class Presenter(_Context):
    """Reads and writes property values for one board size and raw
    encoding. Unknown (private) properties are Text."""

    def __init__(self, size, encoding):
        super().__init__(size, _checked_encoding(encoding))
        self.property_types_by_ident = _property_types_by_ident.copy()
        self.default_property_type = _text_property_type

    def get_property_type(self, identifier):
        return self.property_types_by_ident[identifier]

    def register_property(self, identifier, property_type):
        self.property_types_by_ident[identifier] = property_type

    def deregister_property(self, identifier):
        del self.property_types_by_ident[identifier]

    def set_private_property_type(self, property_type):
        self.default_property_type = property_type

    def _effective_type(self, identifier):
        t = self.property_types_by_ident.get(identifier)
        if t is None:
            t = self.default_property_type
            if t is None:
                raise ValueError("unknown property")
        return t

    def interpret_as_type(self, property_type, raw_values):
        if not raw_values:
            raise ValueError("no raw values")
        if property_type.uses_list:
            raw = [] if list(raw_values) == [b""] else raw_values
        else:
            if len(raw_values) > 1:
                raise ValueError("multiple values")
            raw = raw_values[0]
        return property_type.interpreter(raw, self)

    def interpret(self, identifier, raw_values):
        """The Python value of a property's raw values (a nonempty list).
        ValueError when they are not of the property's type."""
        return self.interpret_as_type(self._effective_type(identifier),
                                      raw_values)

    def serialise_as_type(self, property_type, value):
        s = property_type.serialiser(value, self)
        if property_type.uses_list:
            if s == []:
                if property_type.allows_empty_list:
                    return [b""]
                raise ValueError("empty list")
            return s
        return [s]

    def serialise(self, identifier, value):
        """The raw values (a nonempty list of bytes) for a Python value.
        ValueError when the value cannot be written."""
        return self.serialise_as_type(self._effective_type(identifier), value)
