"""SGF syntax helpers of sgfstream.sgfmill (sgfmill's ``sgf_grammar``).

sgfmill does not document this module; the names sgfmill scripts use are
here, with sgfmill's behaviour. Parsing itself is done by the C library
(see :mod:`sgfstream.sgfmill.sgf`), so there is no coarse parse tree.
"""

import re

__all__ = [
    "is_valid_property_identifier", "is_valid_property_value",
    "simpletext_value", "text_value", "escape_text", "parse_compose",
    "compose", "block_format",
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
