"""SGF syntax helpers of sgfstream.sgfmill (sgfmill's ``sgf_grammar``).

sgfmill does not document this module; the names sgfmill scripts use are
here, with sgfmill's behaviour. Sgf_game.from_bytes parses in the C
library (see :mod:`sgfstream.sgfmill.sgf`); the coarse parser here
(tokenise, parse_sgf_game, parse_sgf_collection, serialise_game_tree) is
for scripts that split a collection (sgfmill's split_sgf_collection.py
example) or handle raw game trees: Coarse_game_tree objects, which
Sgf_game.from_coarse_game_tree reads. As in Sgf_game.from_bytes, an
identifier in lowercase letters only is upper-cased (sgfmill: empty).
"""

import re

__all__ = [
    "is_valid_property_identifier", "is_valid_property_value",
    "simpletext_value", "text_value", "escape_text", "parse_compose",
    "compose", "block_format", "tokenise", "Coarse_game_tree",
    "parse_sgf_game", "parse_sgf_collection", "serialise_game_tree",
]

_IDENT = re.compile(r"\A[A-Z]{1,64}\Z")
_VALUE = re.compile(rb"\A(?:[^\\\]]|\\.)*\Z", re.DOTALL)
_LINEBREAK = re.compile(rb"\r\n|\n\r|\r|\n")
_BLANKS = bytes.maketrans(b"\t\f\v", b"   ")


def is_valid_property_identifier(s):
    """Whether s (a str) is a PropIdent sgfmill accepts: 1 to 64 uppercase
    letters."""
    return isinstance(s, str) and bool(_IDENT.search(s))


def is_valid_property_value(bb):
    """Whether bb (bytes-like) is a well-formed raw PropValue: no unescaped
    ']' and no lone '\\' at the end."""
    return bool(_VALUE.search(bb))


def _unescape(bb, simple):
    """Text rules of FF[4] as sgfmill applies them: every line break becomes
    '\\n' (a space in SimpleText), other whitespace a space, a backslash
    escapes the next byte and a backslash before a line break removes
    both."""
    bb = _LINEBREAK.sub(b"\n", bytes(bb)).translate(_BLANKS)
    if b"\\" not in bb:
        return bb.replace(b"\n", b" ") if simple else bb
    out = bytearray()
    i, n = 0, len(bb)
    while i < n:
        c = bb[i]
        if c == 0x5C:  # backslash
            if i + 1 < n and bb[i + 1] != 0x0A:
                out.append(bb[i + 1])
            i += 2
            continue
        out.append(0x20 if (c == 0x0A and simple) else c)
        i += 1
    return bytes(out)


def simpletext_value(bb):
    """The bytes a raw SimpleText value stands for (line breaks as
    spaces)."""
    return _unescape(bb, True)


def text_value(bb):
    """The bytes a raw Text value stands for (line breaks as '\\n')."""
    return _unescape(bb, False)


def escape_text(bb):
    """A raw value for the bytes bb: '\\' and ']' escaped."""
    return bytes(bb).replace(b"\\", b"\\\\").replace(b"]", b"\\]")


def parse_compose(bb):
    """Split a Compose value at its first unescaped ':'. Returns
    (first, second), escapes kept, or (bb, None) when there is no ':'."""
    i, n = 0, len(bb)
    while i < n:
        c = bb[i]
        if c == 0x5C:
            i += 2
            continue
        if c == 0x3A:
            return bb[:i], bb[i + 1:]
        i += 1
    return bb, None


def compose(bb1, bb2):
    """A Compose value from two raw values (':' in the first escaped)."""
    return bytes(bb1).replace(b":", b"\\:") + b":" + bytes(bb2)


def block_format(pieces, width=79):
    """Join byte strings, breaking the line before a piece that would take
    it past width bytes."""
    out = []
    line = 0
    for bb in pieces:
        if line + len(bb) > width:
            out.append(b"\n")
            line = 0
        out.append(bb)
        line += len(bb)
    return b"".join(out)


# A game tree starts at '(' then ';' (whitespace between allowed). Each
# token may follow whitespace: an identifier (up to 64 letters; a longer
# run gives more than one), a value (escapes kept) or a delimiter.
_GAME_START = re.compile(rb"\(\s*;")
_NEXT_TOKEN = re.compile(
    rb"\s*(?:([A-Za-z]{1,64})|\[((?:[^\\\]]|\\.)*)\]|([;()]))", re.DOTALL)


def _identifier(letters):
    if letters.islower():
        return letters.upper()
    return bytes(c for c in letters if 0x41 <= c <= 0x5A)


def tokenise(bb, start_position=0):
    """The tokens of the first game tree of bb at or after start_position.

    Returns (tokens, end): tokens a list of (kind, bytes), kind 'D' for a
    delimiter ('(', ')', ';'), 'I' for a property identifier (its
    uppercase letters, or all of them upper-cased if all are lowercase),
    'V' for a raw value (without its brackets); end the index just past the
    last token. Tokens end where the parentheses balance, or at anything
    that is not a token, or at the end of bb. ([], 0) without a game tree.
    """
    bb = bytes(bb)
    m = _GAME_START.search(bb, start_position)
    if m is None:
        return [], 0
    tokens = []
    pos = m.start()
    depth = 0
    match = _NEXT_TOKEN.match
    while True:
        m = match(bb, pos)
        if m is None:
            break
        pos = m.end()
        ident, value, delim = m.groups()
        if ident is not None:
            tokens.append(("I", _identifier(ident)))
        elif value is not None:
            tokens.append(("V", value))
        else:
            tokens.append(("D", delim))
            if delim == b"(":
                depth += 1
            elif delim == b")":
                depth -= 1
                if depth == 0:
                    break
    return tokens, pos


class Coarse_game_tree:
    """A game tree as raw values: sequence, a list of nodes, each a dict
    identifier -> list of raw values (bytes, escapes kept); children, a
    list of Coarse_game_tree (the variations after the sequence)."""

    def __init__(self):
        self.sequence = []
        self.children = []


def _parse_tokens(tokens):
    """The Coarse_game_tree of tokenise()'s tokens. ValueError with
    sgfmill's message where they are not a game tree."""
    if not tokens:
        raise ValueError("no SGF data found")
    top = tree = Coarse_game_tree()
    enclosing = []          # the trees around the current one
    node = None             # the property dict being filled, if in a node
    opened = True           # just after '(' (tokenise() begins with it)
    after = False           # after a variation closed
    i, n = 1, len(tokens)
    while i < n:
        kind, tok = tokens[i]
        i += 1
        if kind == "I":     # an identifier takes the values that follow
            values = []
            while i < n and tokens[i][0] == "V":
                values.append(tokens[i][1])
                i += 1
            if i == n:
                break
            if not values:
                raise ValueError("property with no values")
            if node is None:
                raise ValueError("property value outside a node")
            node.setdefault(tok.decode("ascii"), []).extend(values)
        elif kind == "V":
            raise ValueError("unexpected value")
        elif tok == b";":
            if after:
                raise ValueError("unexpected node")
            node = {}
            tree.sequence.append(node)
            opened = False
        elif opened:        # '(' or ')' just after '('
            raise ValueError("empty sequence")
        elif tok == b"(":
            child = Coarse_game_tree()
            tree.children.append(child)
            enclosing.append(tree)
            tree = child
            node = None
            opened, after = True, False
        else:               # ')'
            if not enclosing:
                return top
            tree = enclosing.pop()
            node = None
            after = True
    raise ValueError("unexpected end of SGF data")


def parse_sgf_game(bb):
    """The first game tree of bb (bytes-like) as a Coarse_game_tree; what
    comes before and after it is ignored. ValueError if there is none or it
    is malformed."""
    tokens, _ = tokenise(bb)
    return _parse_tokens(tokens)


def parse_sgf_collection(bb):
    """Every game tree of bb (bytes-like), a list of Coarse_game_tree,
    junk between them ignored. ValueError if there is none, or 'error
    parsing game N: ...' (N from 0) for a malformed one."""
    bb = bytes(bb)
    games = []
    pos = 0
    while True:
        tokens, pos = tokenise(bb, pos)
        if not tokens:
            break
        try:
            games.append(_parse_tokens(tokens))
        except ValueError as e:
            raise ValueError("error parsing game %d: %s"
                             % (len(games), e)) from None
    if not games:
        raise ValueError("no SGF data found")
    return games


def _ident_order(ident):
    return ident != "FF", ident


def serialise_game_tree(game_tree, wrap=79):
    """A Coarse_game_tree as SGF bytes, as Sgf_game.serialise writes a
    game: properties sorted with FF first, lines broken to keep within
    wrap bytes where possible (None: no breaks), a newline at the end
    (after a line break where the last line is full, as sgfmill)."""
    pieces = []
    todo = [game_tree]      # trees to write, None for a ')' due
    while todo:
        tree = todo.pop()
        if tree is None:
            pieces.append(b")")
            continue
        pieces.append(b"(")
        for props in tree.sequence:
            pieces.append(b";")
            for ident in sorted(props, key=_ident_order):
                pieces.append(ident.encode("ascii") + b"".join(
                    b"[" + bytes(v) + b"]" for v in props[ident]))
        todo.append(None)
        todo.extend(reversed(tree.children))
    pieces.append(b"\n")   # a piece: a full last line gets a line break
    if wrap is None:
        return b"".join(pieces)
    return block_format(pieces, wrap)
