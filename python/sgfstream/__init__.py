"""sgfstream: SGF (Smart Game Format) game records at C speed.

Streaming (bounded memory: the largest game, not the collection)::

    import sgfstream
    for game in sgfstream.games("games.tar.xz"):      # path, file object or bytes
        print(game.source, len(game.moves()) // 3)
    for h in sgfstream.headers("collection.sgf"):      # root properties only
        print(h["PB"], h["PW"], h.get("KM"))

Handlers (called per property at most, never per byte) and the push
parser for network code::

    class Count(sgfstream.Handler):
        def on_node(self, offset):
            self.nodes += 1
            return sgfstream.CONTINUE

    p = sgfstream.Parser(Count())
    p.feed(b"(;GM[1]"); p.feed(b";B[aa])"); p.finish()

Trees (Game, Node, Board) are in sgfstream.tree, a drop-in for sgfmill in
sgfstream.sgfmill. Problems in the input are Diagnostic objects with their
file, line and column; strict mode raises SGFError carrying them.
"""

from ._core import (  # noqa: F401
    CONTINUE,
    LIBRARY_VERSION,
    PAUSE,
    SKIP,
    STOP,
    Diagnostic,
    SGFError,
)
from . import _core

__version__ = "1.1.0"

__all__ = [
    "CONTINUE", "SKIP", "PAUSE", "STOP", "LIBRARY_VERSION",
    "Diagnostic", "SGFError",
]

from .tree import *  # Game, Node, Board: python/sgfstream/tree.py
