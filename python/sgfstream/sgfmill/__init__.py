"""sgfstream.sgfmill: sgfmill's public API over the sgfstream C library.

Change one import line in an sgfmill script::

    from sgfstream.sgfmill import sgf          # was: from sgfmill import sgf
    from sgfstream.sgfmill import sgf_moves, boards, ascii_boards, common

and it runs on the C parser: ``Sgf_game.from_bytes`` parses into the
library's compact tree, and a ``Tree_node`` object is made only for a node
that is reached. The modules are ``sgf`` (Sgf_game, Tree_node),
``sgf_moves``, ``boards``, ``ascii_boards``, ``common``,
``sgf_board_interface``, and the undocumented helpers ``sgf_properties``
and ``sgf_grammar`` (with sgfmill's coarse parser, ``parse_sgf_collection``
and the rest, which ``Sgf_game.from_coarse_game_tree`` reads), behaving
as sgfmill's documentation says, exceptions included.

Where it differs from sgfmill:

* Parsing is the C library's. By default every input sgfmill refuses is
  refused too (ValueError, with the line and column in the message), and
  only the first game tree is read, from the first ``(;``. With
  ``Sgf_game.from_bytes(..., lenient=True)`` (or ``from_string``) what the
  library repairs is taken instead: a game tree not closed at the end of
  the input, junk inside a game, a property without a value or a value
  without a property, ``()``, a node after a variation.
* Lenient games may have boards up to 52x52 (points beyond 'z' written
  with 'A'-'Z', as FF[4] does) and rectangular boards ``SZ[w:h]``:
  ``get_size()`` then gives ``(w, h)`` (sgf_moves and boards want a square
  size). sgfmill rejects boards over 26x26 and ``SZ[w:h]``, and so does
  the default mode.
* A property identifier written in lowercase letters only (``b[aa]``) is
  upper-cased (``B``); sgfmill drops lowercase letters and is left with an
  empty identifier. Mixed case (``CoPyright``) reads as in sgfmill
  (``CP``).
* In a game whose CA is a double-byte charset (Shift_JIS, GBK, GB18030,
  Big5), the library reads a '\\' or ']' after a lead byte as the
  character's second byte where what follows shows it is (reported by
  the library as dbcs-backslash / dbcs-bracket); sgfmill reads them as an
  escape or the end of the value.
* Properties keep the order of the file (``properties()`` lists them so;
  sgfmill's order is unspecified); ``serialise()`` writes what sgfmill
  writes.
* A node removed with ``delete()`` (or one below it) raises ValueError
  when used again; sgfmill says not to use it.
* ``boards.Board`` accepts sizes from 1 (sgfmill's code refuses 1) up to
  52.
* ``Sgf_game.main_sequence_iter()`` gives the Tree_node objects
  themselves.
* ``Sgf_game.from_coarse_game_tree()`` copies the coarse tree's raw values
  (bytes) into the game: its nodes do not share the coarse tree's dicts.
"""

__version__ = "1.0"

__all__ = ["sgf", "sgf_moves", "boards", "ascii_boards", "common",
           "sgf_properties", "sgf_grammar", "sgf_board_interface"]
