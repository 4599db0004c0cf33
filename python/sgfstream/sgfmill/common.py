"""Go utilities of sgfstream.sgfmill (sgfmill's ``common``): colours and
GTP-style vertices. Safe for ``from common import *``."""

__all__ = ["opponent_of", "colour_name", "format_vertex",
           "format_vertex_list", "move_from_vertex"]

column_letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

_OPPONENT = {"b": "w", "w": "b"}
_NAME = {"b": "black", "w": "white"}


def opponent_of(colour):
    """The other colour: 'b' <-> 'w'. ValueError for anything else."""
    try:
        return _OPPONENT[colour]
    except (KeyError, TypeError):
        raise ValueError("bad colour: %r" % (colour,)) from None


def colour_name(colour):
    """'black' or 'white'. ValueError for anything else."""
    try:
        return _NAME[colour]
    except (KeyError, TypeError):
        raise ValueError("bad colour: %r" % (colour,)) from None


def format_vertex(move):
    """'A1'-style name of a move (row, col) (I skipped, columns up to 25),
    or 'pass' for None. ValueError out of range."""
    if move is None:
        return "pass"
    row, col = move
    if not (0 <= row < 25 and 0 <= col < 25):
        raise ValueError("vertex out of range: %r" % (move,))
    return "%s%d" % (column_letters[col], row + 1)


def format_vertex_list(moves):
    """Moves as 'B1,D3,pass'."""
    return ",".join(format_vertex(m) for m in moves)


def move_from_vertex(vertex, board_size):
    """(row, col) from a GTP vertex ('A4', 'a4'; None for 'pass') on a
    square board of board_size (1 to 25). ValueError if it cannot be read
    or is off the board."""
    if not 0 < board_size <= 25:
        raise ValueError("board_size out of range")
    try:
        s = vertex.lower()
    except Exception:
        raise ValueError("invalid vertex") from None
    if s == "pass":
        return None
    col = column_letters.lower().find(s[:1]) if s[:1] else -1
    try:
        if col < 0:
            raise ValueError
        row = int(s[1:]) - 1
        if row < 0:
            raise ValueError
    except ValueError:
        raise ValueError("invalid vertex: '%s'" % s) from None
    if not (col < board_size and row < board_size):
        raise ValueError("vertex is off board: '%s'" % s)
    return row, col
