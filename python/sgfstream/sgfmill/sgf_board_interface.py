"""The board interfaces sgf_moves needs (sgfmill's
``sgf_board_interface``), for documentation."""

__all__ = ["Interface_for_get_setup_and_moves",
           "Interface_for_set_initial_position"]


class Interface_for_get_setup_and_moves:
    """What get_setup_and_moves() uses of a board."""

    side = None  # the board size

    def is_empty(self):
        """Whether no stone is on the board."""
        raise NotImplementedError

    def apply_setup(self, black_points, white_points, empty_points):
        """Add and remove stones; return whether the position is legal."""
        raise NotImplementedError


class Interface_for_set_initial_position:
    """What set_initial_position() uses of a board."""

    def list_occupied_points(self):
        """[(colour, (row, col))] for every stone."""
        raise NotImplementedError
