"""ASCII diagrams of boards (sgfmill's ``ascii_boards``): square boards up
to 25x25."""

from . import boards
from .common import column_letters

__all__ = ["render_grid", "render_board", "interpret_diagram"]


def render_grid(point_formatter, size):
    """Lines of a board-shaped grid, the top row first, then the column
    letters; point_formatter(row, col) gives each point's two
    characters."""
    wide = size > 9
    lines = []
    for row in range(size - 1, -1, -1):
        label = ("%2d " if wide else "%d ") % (row + 1)
        lines.append(label + " ".join(point_formatter(row, col)
                                      for col in range(size)))
    lines.append((" " if wide else "") + "   " +
                 "  ".join(column_letters[i] for i in range(size)))
    return lines


_POINT = {None: " .", "b": " #", "w": " o"}


def render_board(board):
    """An ASCII diagram of board ('#' black, 'o' white, '.' empty), no final
    newline."""
    return "\n".join(render_grid(
        lambda row, col: _POINT.get(board.get(row, col), " ?"), board.side))


def interpret_diagram(diagram, size, board=None):
    """The position of a diagram render_board() made, on a new Board or on
    board (empty, of that size). ValueError if it cannot be read."""
    board = boards._empty_board(board, size)
    lines = diagram.strip().split("\n")
    offset = 1 if size > 9 else 0
    colours = {"#": "b", "o": "w", ".": None}
    try:
        for row in range(size):
            line = lines[size - row - 1]
            for col in range(size):
                colour = colours[line[3 * (col + 1) + offset]]
                if colour is not None:
                    board.play(row, col, colour)
    except Exception:
        raise ValueError("bad diagram") from None
    return board
