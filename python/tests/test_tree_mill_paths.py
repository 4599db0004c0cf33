"""sgfstream.sgfmill's fast paths against its general ones: the same
games, values and errors whichever path reads them.

Sgf_game.from_bytes finishes the usual game in C (no diagnostic, SZ
absent or 1 to 26 in one or two digits, a CA the codec check accepts);
a subclass with its own _setup always takes the general path in Python.
Tree_node.get_move has a short path for a point in a never edited tree
(B, or W alone in its node) beside the general one (every other case).
"""

import unittest

from sgfstream.sgfmill import sgf


class General(sgf.Sgf_game):
    """Sgf_game read through the general path only."""

    def _setup(self, size, encoding):
        super()._setup(size, encoding)


def caught(fn):
    """fn()'s value, or its exception's type and message."""
    try:
        return fn()
    except (ValueError, KeyError, UnicodeError) as e:
        return type(e).__name__, str(e)


def outcome(cls, data, **kw):
    g = caught(lambda: cls.from_bytes(data, **kw))
    if isinstance(g, tuple):
        return g
    moves = [caught(node.get_move) for node in g.get_main_sequence()]
    return (g.get_size(), caught(g.get_charset), g._encoding,
            caught(lambda: g.get_root().get("C")), moves,
            caught(g.serialise))


CASES = [
    b"(;C[plain];B[aa];W[sa];B[as];W[])",
    b"(;SZ[9]C[x];B[ii];W[tt];B[jj])",          # tt: a pass on 9x9; jj off
    b"(;SZ[25]C[x];B[tt];W[yy];B[zz])",         # tt a point on 25x25
    b"(;SZ[ 9]C[x];B[aa])",                     # not the quick SZ: same result
    b"(;SZ[09]C[x];B[aa])",
    b"(;SZ[27]C[x];B[aa])",                     # out of range
    b"(;SZ[19:19]C[x];B[aa])",
    b"(;CA[UTF-8]C[\xc3\xa9];B[aa])",
    b"(;CA[latin1]C[\xe9];B[aa])",
    b"(;CA[no-such-codec]C[x];B[aa])",
    b"(;CA[]C[x];B[aa])",
    b"(;C[x];W[aa]B[bb];C[c]W[cc]B[];W[dd]C[w])",  # B preferred, wherever
    b"(;C[x];B[aA];W[Aa];B[a];W[abc])",         # not points
    b"  (\n ;C[x];B[aa])",
    b"junk (;C[x];B[aa]) (;C[y])",              # a diagnostic: general path
    b"(;C[x];B[aa]",                            # cut off
    b"no game",
]


class TestPaths(unittest.TestCase):
    def test_quick_and_general_agree(self):
        for data in CASES:
            for kw in ({}, {"override_encoding": "UTF-8"}, {"lenient": True}):
                self.assertEqual(outcome(sgf.Sgf_game, data, **kw),
                                 outcome(General, data, **kw), (data, kw))

    def test_the_quick_path_is_taken(self):
        from sgfstream.sgfmill import sgf_properties
        check = sgf_properties._checked_encoding
        for data in (CASES[0], CASES[1], CASES[7]):
            self.assertIsInstance(sgf.Sgf_game._mill_parse(data, check), sgf.Sgf_game)
        for data in (CASES[3], CASES[9], CASES[15]):  # SZ[ 9], unknown CA, cut off
            self.assertIsInstance(sgf.Sgf_game._mill_parse(data, check), tuple)
        self.assertIsInstance(sgf.Sgf_game._mill_parse(CASES[0]), tuple)
        self.assertIsNone(sgf.Sgf_game._mill_parse(CASES[-1], check))

    def test_from_bytes_calls(self):
        # from_bytes (in C for the usual call) takes every way of calling
        # it that the Python signature does, and a class's own _setup,
        # even one given after its first game
        data = CASES[1]
        want = outcome(General, data)
        self.assertEqual(outcome(sgf.Sgf_game, data), want)
        for call in (lambda c: c.from_bytes(bb=data),
                     lambda c: c.from_bytes(data, None),
                     lambda c: c.from_bytes(data, lenient=False),
                     lambda c: c.from_bytes(bytearray(data)),
                     lambda c: c.from_bytes(memoryview(data))):
            g = call(sgf.Sgf_game)
            self.assertIs(type(g), sgf.Sgf_game)
            self.assertEqual(
                [caught(n.get_move) for n in g.get_main_sequence()], want[4])
        self.assertEqual(sgf.Sgf_game.from_bytes(data, "latin-1").get_charset(),
                         "ISO-8859-1")
        with self.assertRaisesRegex(TypeError, "from_bytes"):
            sgf.Sgf_game.from_bytes()
        with self.assertRaises(TypeError):
            sgf.Sgf_game.from_bytes(data, None, None)
        self.assertEqual(sgf.Sgf_game.from_bytes.__name__, "from_bytes")

        class Late(sgf.Sgf_game):
            pass
        seen = []
        self.assertIs(type(Late.from_bytes(data)), Late)

        def _setup(self, size, encoding):
            seen.append(size)
            sgf.Sgf_game._setup(self, size, encoding)
        Late._setup = _setup
        self.assertIs(type(Late.from_bytes(data)), Late)
        self.assertEqual(seen, [9])

    def test_main_sequence_beside_variations(self):
        # the main line is a list of its own length however many nodes
        # the variations hold, a list like any other
        def moves(n, first):
            return b"".join(b";%s[%s]" % (b"BW"[i % 2:i % 2 + 1],
                                          bytes([97 + (first + i) % 19,
                                                 97 + i // 19]))
                            for i in range(n))
        for main, var in ((10, 200), (150, 20), (70, 70), (1, 0), (300, 1)):
            data = b"(;C[x]" + moves(main, 0) + (
                b"(;C[v])(;C[w]" + moves(var, 3) + b")" if var else b"") + b")"
            seq = sgf.Sgf_game.from_bytes(data).get_main_sequence()
            self.assertIs(type(seq), list)
            self.assertEqual(len(seq), 1 + main + (1 if var else 0))
            self.assertEqual([n.get_move() for n in seq[1:main + 1]],
                             [("bw"[i % 2], (18 - i // 19, i % 19))
                              for i in range(main)])
            seq.append(seq[0])
            seq.extend(seq[:3])
            self.assertEqual(len(seq), 5 + main + (1 if var else 0))
            self.assertIs(seq[-1], seq[2])

    def test_get_move_after_a_new_board(self):
        # results found with the nodes are for the board they were read on
        g = sgf.Sgf_game.from_bytes(b"(;C[x];B[pd];W[cc];B[tt])")
        nodes = g.get_main_sequence()
        self.assertEqual([n.get_move() for n in nodes[1:]],
                         [("b", (15, 15)), ("w", (16, 2)), ("b", None)])
        g._set_board(9, 9, False)
        with self.assertRaises(ValueError):
            nodes[1].get_move()
        self.assertEqual(nodes[2].get_move(), ("w", (6, 2)))
        g._set_board(25, 25, False)  # tt a point on 25x25
        self.assertEqual(nodes[3].get_move(), ("b", (5, 19)))

    def test_get_move_board_after_board(self):
        # one game after another on boards of other sizes: each game's
        # points on its own board (row 0 at the bottom), whatever the
        # game before was read on
        for size in (19, 5, 19, 9, 25, 9, 7, 19):
            g = sgf.Sgf_game.from_bytes(
                b"(;SZ[%d];B[cc];W[ab];B[ea];W[dd]C[x])" % size)
            self.assertEqual(
                [n.get_move() for n in g.get_main_sequence()],
                [(None, None), ("b", (size - 3, 2)), ("w", (size - 2, 0)),
                 ("b", (size - 1, 4)), ("w", (size - 4, 3))], size)
        for size, pt in ((5, b"ff"), (19, b"ff"), (5, b"ee"), (19, b"ss")):
            g = sgf.Sgf_game.from_bytes(b"(;SZ[%d];B[%s])" % (size, pt))
            node = g.get_main_sequence()[1]
            if pt[0] - 97 < size:
                self.assertEqual(node.get_move(),
                                 ("b", (size - 1 - (pt[1] - 97), pt[0] - 97)))
            else:
                with self.assertRaises(ValueError):
                    node.get_move()

    def test_nodes_game_after_game(self):
        # games one after another, larger and smaller, some nodes kept
        # past their list or their game: each game's nodes are its own,
        # the same object for the same node while one is alive
        kept = []
        for k, n in enumerate((40, 5, 300, 1, 120, 0, 60, 200, 3)):
            data = b"(;C[g%d]" % k + b"".join(
                b";%s[%s]" % (b"BW"[i % 2:i % 2 + 1],
                              bytes([97 + i % 19, 97 + (i // 19) % 19]))
                for i in range(n)) + b")"
            g = sgf.Sgf_game.from_bytes(data)
            seq = g.get_main_sequence()
            self.assertEqual(len(seq), n + 1)
            self.assertTrue(all(node.owner is g for node in seq))
            self.assertEqual(seq[0].get("C"), "g%d" % k)
            again = g.get_main_sequence()
            self.assertTrue(all(a is b for a, b in zip(seq, again)))
            moves = [node.get_move() for node in seq[1:]]
            self.assertEqual(moves, [("bw"[i % 2], (18 - (i // 19) % 19,
                                                    i % 19))
                                     for i in range(n)])
            if n:
                kept.append((g, k, seq[-1], moves[-1]))
            del seq, again, g
        for g, k, node, move in kept:
            self.assertIs(node.owner, g)
            self.assertEqual(node.get_move(), move)
            self.assertEqual(g.get_root().get("C"), "g%d" % k)
            self.assertIs(g.get_main_sequence()[-1], node)

    def test_get_move_after_edits(self):
        # an edited tree takes get_move's general path: the same answers
        g = sgf.Sgf_game.from_bytes(b"(;C[x];B[aa];W[bb];B[cc])")
        nodes = g.get_main_sequence()
        before = [n.get_move() for n in nodes]
        nodes[0].set("C", "edited")
        self.assertEqual([n.get_move() for n in nodes], before)
        nodes[2].set_move("b", (5, 5))
        self.assertEqual(nodes[2].get_move(), ("b", (5, 5)))
        nodes[3].delete()
        with self.assertRaises(ValueError):
            nodes[3].get_move()


if __name__ == "__main__":
    unittest.main()
