"""Go boards of sgfstream.sgfmill (sgfmill's ``boards``), played in C.

Points are sgfmill's (row, col), row 0 at the bottom; colours 'b' and 'w'.
"""

from .. import _core

__all__ = ["Board"]


def _empty_board(board, size):
    """A new Board of size, or board checked to be empty and of size."""
    if board is None:
        return Board(size)
    if board.side != size:
        raise ValueError("wrong board size, must be %d" % size)
    if not board.is_empty():
        raise ValueError("board not empty")
    return board


class Board:
    """A Go position on a square board of side (an int >= 1): moves with
    captures (self-capture allowed, no ko rule), setup, area score. The
    board is played by sgfstream's C Board (up to 52x52)."""

    def __init__(self, side):
        if not isinstance(side, int) or side < 1:
            raise ValueError("board size must be an int >= 1")
        self.side = side
        self._b = _core.Board(side, side)

    @property
    def board_points(self):
        """Every point of the board, a new list of (row, col)."""
        n = self.side
        return [(r, c) for r in range(n) for c in range(n)]

    def _xy(self, row, col):
        if not (0 <= row < self.side and 0 <= col < self.side):
            raise IndexError("point off the board")
        return col, self.side - 1 - row

    def copy(self):
        """An independent copy."""
        b = Board.__new__(Board)
        b.side = self.side
        b._b = self._b.copy()
        return b

    def is_empty(self):
        """Whether no stone is on the board."""
        return self._b.is_empty()

    def get(self, row, col):
        """'b', 'w' or None. IndexError off the board."""
        x, y = self._xy(row, col)
        return self._b.get(x, y)

    def play(self, row, col, colour):
        """Put a stone of colour on the point and make the captures.
        IndexError off the board, ValueError if occupied. Returns the
        point simple ko forbids next, or None."""
        x, y = self._xy(row, col)
        if colour not in ("b", "w"):
            raise ValueError("bad colour: %r" % (colour,))
        ko = self._b.play(x, y, colour)
        if ko is None:
            return None
        return self.side - 1 - ko[1], ko[0]

    def apply_setup(self, black_points, white_points, empty_points):
        """Add stones and empty points (iterables of (row, col)), then
        remove the groups left without a liberty. Returns whether the
        position was legal as given. IndexError off the board."""
        lists = [[self._xy(r, c) for r, c in pts]
                 for pts in (black_points, white_points, empty_points)]
        return self._b.apply_setup(*lists)

    def list_occupied_points(self):
        """[(colour, (row, col))] for every stone."""
        n = self.side
        return [(c, (n - 1 - y, x)) for c, (x, y)
                in self._b.list_occupied_points()]

    def area_score(self):
        """Black's area minus White's (all stones alive, no komi)."""
        return self._b.area_score()
