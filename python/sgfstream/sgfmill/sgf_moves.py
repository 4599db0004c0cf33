"""Moves and positions of games (sgfmill's ``sgf_moves``)."""

from . import boards, sgf_properties

__all__ = ["get_setup_and_moves", "set_initial_position",
           "indicate_first_player"]


def get_setup_and_moves(sgf_game, board=None):
    """(board, moves): the root's AB/AW position on a Board (ValueError if
    it is not legal) and the leftmost variation's moves [(colour, move)].
    ValueError for setup after the root, or setup and a move in the root.
    board, if given, must be an empty board of the game's size."""
    size = sgf_game.get_size()
    board = boards._empty_board(board, size)
    nodes = sgf_game.get_main_sequence()
    root = nodes[0]
    ab, aw, ae = root.get_setup_stones()
    start = 0
    if ab or aw:
        if not board.apply_setup(ab, aw, ae):
            raise ValueError("setup position not legal")
        colour, raw = root.get_raw_move()
        if colour is not None:
            raise ValueError("mixed setup and moves in root node")
        start = 1
    moves = []
    for node in nodes[start:]:
        if node.has_setup_stones():
            raise ValueError("setup properties after the root node")
        colour, raw = node.get_raw_move()
        if colour is not None:
            moves.append((colour,
                          sgf_properties.interpret_go_point(raw, size)))
    return board, moves


def set_initial_position(sgf_game, board):
    """Replace the root's AB/AW/AE by the stones of board."""
    stones = {"b": set(), "w": set()}
    for colour, point in board.list_occupied_points():
        stones[colour].add(point)
    sgf_game.get_root().set_setup_stones(stones["b"], stones["w"])


def indicate_first_player(sgf_game):
    """Set PL in the root when the first move is not the expected player's
    (black, or white after a handicap) or there are non-handicap setup
    stones."""
    root = sgf_game.get_root()
    first_player, move = root[0].get_move()
    if first_player is None:
        return
    has_handicap = root.has_property("HA")
    if root.has_property("AW"):
        specify = True
    elif root.has_property("AB") and not has_handicap:
        specify = True
    elif not has_handicap and first_player == "w":
        specify = True
    elif has_handicap and first_player == "b":
        specify = True
    else:
        specify = False
    if specify:
        root.set("PL", first_player)
