"""sgfstream.sgfmill's coarse parser (sgf_grammar: tokenise,
parse_sgf_game, parse_sgf_collection, serialise_game_tree) and
Sgf_game.from_coarse_game_tree, which sgfmill's documentation shows in its
collection-splitting example. Our own cases, then the same calls side by
side with sgfmill itself (../shared/peers/sgfmill) on generated input
(skipped when it is absent)."""

import os
import random
import sys
import unittest

from sgfstream.sgfmill import sgf, sgf_grammar

TOP = os.environ.get("SGF_SRC_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(os.path.dirname(os.path.abspath(TOP)), "shared",
                    "peers", "sgfmill")


def outline(tree):
    """(nodes of the sequence, [outline of each variation])."""
    return (len(tree.sequence), [outline(c) for c in tree.children])


class TestTokenise(unittest.TestCase):
    def test_kinds(self):
        tokens, end = sgf_grammar.tokenise(b"xx ( ;PW[Go\\]e]\n[]) yy")
        self.assertEqual(tokens, [("D", b"("), ("D", b";"), ("I", b"PW"),
                                  ("V", b"Go\\]e"), ("V", b""), ("D", b")")])
        self.assertEqual(end, 19)

    def test_where_it_stops(self):
        tok = sgf_grammar.tokenise
        self.assertEqual(tok(b"nothing here"), ([], 0))
        self.assertEqual(tok(b"(W[aa])"), ([], 0))        # no '(;'
        # stops where the parentheses balance, not at what follows
        self.assertEqual(tok(b"(;(;)) tail")[1], 6)
        # stops before something that is not a token
        self.assertEqual(tok(b"(;B[aa]%W[bb])"), (
            [("D", b"("), ("D", b";"), ("I", b"B"), ("V", b"aa")], 7))
        self.assertEqual(tok(b"(;C[open")[1], 3)
        # start_position: the next game tree at or after it
        self.assertEqual(tok(b"(;A[1])(;B[2])", 7)[0][2], ("I", b"B"))

    def test_identifiers(self):
        tok = sgf_grammar.tokenise
        self.assertEqual(tok(b"(;WhiteRank[3d])")[0][2], ("I", b"WR"))
        # lowercase only: upper-cased, as Sgf_game.from_bytes reads it
        self.assertEqual(tok(b"(;pw[x])")[0][2], ("I", b"PW"))
        idents = [t for t in tok(b"(;" + b"Q" * 70 + b"[x])")[0]
                  if t[0] == "I"]
        self.assertEqual(idents, [("I", b"Q" * 64), ("I", b"Q" * 6)])


class TestParse(unittest.TestCase):
    def test_shape_and_values(self):
        g = sgf_grammar.parse_sgf_game(
            b"before (;GN[x]TR[aa][bb]GN[y];B[cc]"
            b"(;W[dd];B[ee])(;W[ff](;B[gg])(;B[hh]))) after")
        self.assertEqual(outline(g), (2, [(2, []), (1, [(1, []), (1, [])])]))
        self.assertEqual(g.sequence[0], {"GN": [b"x", b"y"],
                                         "TR": [b"aa", b"bb"]})
        self.assertEqual(g.children[1].children[1].sequence, [{"B": [b"hh"]}])
        self.assertEqual(outline(sgf_grammar.parse_sgf_game(bytearray(
            b"(;)"))), (1, []))

    def test_errors(self):
        cases = [
            (b"", "no SGF data found"),
            (b"(B[aa])", "no SGF data found"),
            (b"(;KO)", "property with no values"),
            (b"(;KO;B[aa])", "property with no values"),
            (b"(;[aa])", "unexpected value"),
            (b"(;B[aa]([bb]))", "unexpected value"),
            (b"(;B[aa]", "unexpected end of SGF data"),
            (b"(;B[aa](;W[bb])", "unexpected end of SGF data"),
            (b"(;B[aa]())", "empty sequence"),
            (b"(;B[aa]((;W[bb])))", "empty sequence"),
            (b"(;B[aa](;W[bb]);B[cc])", "unexpected node"),
            (b"(;B[aa](W[bb]))", "property value outside a node"),
            (b"(;B[aa](;W[bb])C[x])", "property value outside a node"),
        ]
        for data, message in cases:
            with self.subTest(data=data):
                with self.assertRaisesRegex(ValueError, "^%s$" % message):
                    sgf_grammar.parse_sgf_game(data)

    def test_collection(self):
        games = sgf_grammar.parse_sgf_collection(
            b"junk (;GN[1];B[aa]) () ;) (;GN[2](;B[bb])(;B[cc])) end")
        self.assertEqual([outline(g) for g in games],
                         [(2, []), (1, [(1, []), (1, [])])])
        with self.assertRaisesRegex(ValueError, "^no SGF data found$"):
            sgf_grammar.parse_sgf_collection(b"( ) junk")
        with self.assertRaisesRegex(
                ValueError, "^error parsing game 2: unexpected value$"):
            sgf_grammar.parse_sgf_collection(b"(;A[1])(;B[2])(;[3])")


class TestSerialise(unittest.TestCase):
    def test_order_and_wrap(self):
        g = sgf_grammar.parse_sgf_game(
            b"(;SZ[9]C[hi]FF[4]AB[aa][bb];W[cc](;B[dd])(;B[ee]))")
        self.assertEqual(sgf_grammar.serialise_game_tree(g),
                         b"(;FF[4]AB[aa][bb]C[hi]SZ[9];W[cc](;B[dd])(;B[ee]))"
                         b"\n")
        self.assertEqual(sgf_grammar.serialise_game_tree(g, wrap=12),
                         b"(;FF[4]\nAB[aa][bb]\nC[hi]SZ[9];\nW[cc](;B[dd]"
                         b"\n)(;B[ee]))\n")
        # a last line filled to the width gets a line break of its own
        one = sgf_grammar.parse_sgf_game(b"(;C[abcdef])")
        self.assertEqual(sgf_grammar.serialise_game_tree(one, 12),
                         b"(;C[abcdef])\n\n")
        self.assertEqual(sgf_grammar.serialise_game_tree(one, 13),
                         b"(;C[abcdef])\n")
        self.assertEqual(sgf_grammar.serialise_game_tree(one, None),
                         b"(;C[abcdef])\n")

    def test_deep_tree(self):
        data = b"(;B[aa]" * 20000 + b")" * 20000
        g = sgf_grammar.parse_sgf_game(data)
        self.assertEqual(sgf_grammar.serialise_game_tree(g, None),
                         data + b"\n")


class TestFromCoarseGameTree(unittest.TestCase):
    def test_split_collection(self):
        data = (b"(;FF[4]SZ[9]PB[Ann];B[ee])\n"
                b"(;FF[4]CA[UTF-8]SZ[13]C[\xc3\xa9t\xc3\xa9](;B[aa])(;B[bb]))")
        games = [sgf.Sgf_game.from_coarse_game_tree(c)
                 for c in sgf_grammar.parse_sgf_collection(data)]
        self.assertEqual([g.get_size() for g in games], [9, 13])
        self.assertEqual(games[0].get_player_name("b"), "Ann")
        self.assertEqual(games[0].get_main_sequence()[1].get_move(),
                         ("b", (4, 4)))
        self.assertEqual(games[1].get_root().get("C"), "\u00e9t\u00e9")
        self.assertEqual(len(games[1].get_root()), 2)
        games[1].get_root().add_comment_text("split")
        self.assertEqual(games[1].serialise(),
                         b"(;FF[4]C[\xc3\xa9t\xc3\xa9\n\nsplit]CA[UTF-8]SZ[13]"
                         b"(;B[aa])(;B[bb]))\n")

    def test_checks_as_from_bytes(self):
        def tree(data):
            return sgf_grammar.parse_sgf_game(data)
        with self.assertRaisesRegex(ValueError, "size out of range: 0"):
            sgf.Sgf_game.from_coarse_game_tree(tree(b"(;SZ[0])"))
        with self.assertRaisesRegex(ValueError, "unknown encoding"):
            sgf.Sgf_game.from_coarse_game_tree(tree(b"(;CA[nothing])"))
        g = sgf.Sgf_game.from_coarse_game_tree(
            tree(b"(;CA[UTF-8]C[\xe9])"), override_encoding="latin-1")
        self.assertEqual(g.get_root().get("C"), "\u00e9")


@unittest.skipUnless(os.path.isdir(PEER), "no ../shared/peers/sgfmill")
class TestSideBySide(unittest.TestCase):
    """Generated input (no identifier in lowercase letters only, where we
    differ on purpose) read by both coarse parsers: the same tokens, game
    trees, errors and serialisations."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, PEER)
        try:
            from sgfmill import sgf_grammar as peer
        finally:
            sys.path.remove(PEER)
        cls.peer = peer

    @staticmethod
    def run_one(grammar, data, wrap):
        def shape(t):
            return ([sorted(n.items()) for n in t.sequence],
                    [shape(c) for c in t.children])
        out = [grammar.tokenise(data), grammar.tokenise(data, 3)]
        for parse in (grammar.parse_sgf_game, grammar.parse_sgf_collection):
            try:
                r = parse(data)
                if isinstance(r, list):
                    out.append([shape(t) for t in r])
                else:
                    out.append(shape(r))
                    out.append(grammar.serialise_game_tree(r, wrap))
            except ValueError as e:
                out.append(("ValueError", str(e)))
        return out

    def test_generated(self):
        pieces = [b"(", b")", b";", b"[", b"]", b"\\", b" ", b"\n", b"\t",
                  b"B", b"AB", b"Wx", b":", b"%", b"(;", b"[aa]", b"[]",
                  b"C[x\\]y]", b"LB[ab:c]"]
        rnd = random.Random(14)
        count = 3000 if os.environ.get("SGF_TEST_FULL") != "1" else 60000
        for _ in range(count):
            data = b"".join(rnd.choice(pieces)
                            for _ in range(rnd.randint(0, 16)))
            if rnd.random() < 0.5:
                data = b"(;" + data
            if rnd.random() < 0.3:
                data = data + b" ## " + data
            wrap = rnd.choice([None, 4, 9, 79])
            self.assertEqual(self.run_one(sgf_grammar, data, wrap),
                             self.run_one(self.peer, data, wrap), data)


if __name__ == "__main__":
    unittest.main()
