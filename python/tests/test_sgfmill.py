"""sgfstream.sgfmill against sgfmill's documentation (its examples and
the behaviour, exceptions included, its pages describe)."""

import datetime
import unittest

from sgfstream.sgfmill import ascii_boards, boards, common, sgf, sgf_moves


class TestLoading(unittest.TestCase):
    def test_from_bytes_override(self):
        g = sgf.Sgf_game.from_bytes(
            b"(;FF[4]GM[1]SZ[9]CA[UTF-8];B[ee];W[ge])",
            override_encoding="iso8859-1")
        self.assertEqual(g.get_charset(), "ISO-8859-1")
        self.assertEqual(g.get_root().get_raw("CA"), b"ISO-8859-1")
        self.assertEqual(g.get_size(), 9)

    def test_from_string(self):
        g = sgf.Sgf_game.from_string(
            "(;FF[4]GM[1]SZ[9]CA[ISO-8859-1]PB[本因坊];B[ee];W[ge])")
        self.assertEqual(g.get_charset(), "UTF-8")
        self.assertEqual(g.get_player_name("b"), "本因坊")
        self.assertEqual(g.get_root().get_encoding(), "UTF-8")
        with self.assertRaises(TypeError):
            sgf.Sgf_game.from_string(b"(;)")

    def test_defaults(self):
        g = sgf.Sgf_game.from_bytes(b"junk (;B[aa];W[bb]) more")
        self.assertEqual(g.get_size(), 19)
        self.assertEqual(g.get_charset(), "ISO-8859-1")
        self.assertEqual(g.get_komi(), 0.0)
        self.assertIsNone(g.get_handicap())
        self.assertIsNone(g.get_player_name("w"))
        self.assertIsNone(g.get_winner())

    def test_refused(self):
        for data in (b"", b"no game", b"(;B[aa]", b"(;B[aa];W[bb",
                     b"(;SZ[a])", b"(;SZ[27])", b"(;SZ[19:13])",
                     b"(;CA[no-such-codec])", b"(;B[aa]C)",
                     b"(;B[aa](;W[bb]);B[cc])", b"(;B[aa]()"):
            with self.subTest(data=data):
                with self.assertRaises(ValueError):
                    sgf.Sgf_game.from_bytes(data)

    def test_error_has_place(self):
        with self.assertRaisesRegex(ValueError, "line 2 column 8"):
            sgf.Sgf_game.from_bytes(b"(;B[aa]\n;W[bb] 5 ;B[cc])")

    def test_lenient(self):
        g = sgf.Sgf_game.from_bytes(b"(;SZ[30];B[AB]", lenient=True)
        self.assertEqual(g.get_size(), 30)
        self.assertEqual(g.get_root()[0].get_move(), ("b", (2, 26)))
        g = sgf.Sgf_game.from_bytes(b"(;SZ[19:13];B[sa])", lenient=True)
        self.assertEqual(g.get_size(), (19, 13))
        self.assertEqual(g.get_root()[0].get_move(), ("b", (12, 18)))

    def test_only_first_game(self):
        g = sgf.Sgf_game.from_bytes(b"(;B[aa])(;W[bb])")
        self.assertEqual(len(g.get_main_sequence()), 1)


class TestNewGame(unittest.TestCase):
    def test_new(self):
        g = sgf.Sgf_game(9)
        self.assertEqual(g.serialise(), b"(;FF[4]CA[UTF-8]GM[1]SZ[9])\n")
        for bad in (0, 27):
            with self.assertRaises(ValueError):
                sgf.Sgf_game(bad)
        self.assertEqual(sgf.Sgf_game(19, "latin-1").get_charset(),
                         "ISO-8859-1")

    def test_tree_mutation(self):
        g = sgf.Sgf_game(9)
        root = g.get_root()
        n1 = root.new_child()
        n1.set("N", "n1")
        n2 = root.new_child()
        n2.set("N", "n2")
        n3 = n1.new_child()
        n3.set("N", "n3")
        n4 = root.new_child(1)
        n4.set("N", "n4")
        self.assertEqual(
            g.serialise(),
            b"(;FF[4]CA[UTF-8]GM[1]SZ[9](;N[n1];N[n3])(;N[n4])(;N[n2]))\n")
        self.assertEqual([n.get_raw_property_map()
                          for n in g.get_main_sequence()],
                         [n.get_raw_property_map() for n in (root, n1, n3)])
        self.assertIs(g.get_last_node(), n3)
        self.assertIs(n3.parent, n1)
        self.assertIs(n3.owner, g)
        self.assertEqual(list(root), [n1, n4, n2])
        self.assertEqual(root[1:], [n4, n2])
        self.assertEqual(root.index(n2), 2)
        self.assertFalse(n3)
        n1.delete()
        self.assertEqual(
            g.serialise(), b"(;FF[4]CA[UTF-8]GM[1]SZ[9](;N[n4])(;N[n2]))\n")
        with self.assertRaises(ValueError):
            root.delete()

    def test_reparent(self):
        g = sgf.Sgf_game(9)
        root = g.get_root()
        a = root.new_child()
        b = root.new_child()
        c = a.new_child()
        b.reparent(b.parent, 0)
        self.assertEqual(list(root), [b, a])
        c.reparent(b)
        self.assertIs(c.parent, b)
        with self.assertRaises(ValueError):
            b.reparent(c)
        with self.assertRaises(ValueError):
            b.reparent(b)
        with self.assertRaises(ValueError):
            b.reparent(sgf.Sgf_game(9).get_root())
        self.assertEqual(g.get_main_sequence(), [root, b, c])
        self.assertEqual(g.extend_main_sequence().parent, c)
        self.assertEqual(g.get_main_sequence_below(b)[0], c)
        self.assertEqual(g.get_sequence_above(c), [root, b])


class TestProperties(unittest.TestCase):
    def setUp(self):
        self.g = sgf.Sgf_game(9)
        self.node = self.g.extend_main_sequence()

    def test_doc_examples(self):
        node = self.node
        node.set("KO", True)
        self.assertEqual(node.get_raw("KO"), b"")
        node.set("HA", 3)
        node.set("KM", 5.5)
        node.set("GB", 2)
        node.set("PL", "w")
        node.set("RE", "W+R")
        node.set("GC", "Example game\n[for documentation]")
        self.assertEqual(node.get_raw("GC"),
                         b"Example game\n[for documentation\\]")
        node.set("B", (2, 3))
        self.assertEqual(node.get_raw("B"), b"dg")
        node.set("LB", [((6, 0), "label 1"), ((6, 1), "label 2")])
        self.assertEqual(node.get_raw_list("LB"),
                         [b"ac:label 1", b"bc:label 2"])
        self.assertEqual(node.get("HA"), 3)
        self.assertEqual(node.get("KM"), 5.5)
        self.assertEqual(node.get("GB"), 2)
        self.assertEqual(node.get("PL"), "w")
        self.assertEqual(node.get("KO"), True)
        self.assertEqual(node.get("LB"), [((6, 0), "label 1"),
                                          ((6, 1), "label 2")])

    def test_access_errors(self):
        node = self.node
        with self.assertRaises(KeyError):
            node.get("C")
        with self.assertRaises(KeyError):
            node.get_raw("C")
        with self.assertRaises(KeyError):
            node.unset("C")
        with self.assertRaises(ValueError):
            node.set("c", "x")
        with self.assertRaises(ValueError):
            node.set("B", (19, 0))
        with self.assertRaises(ValueError):
            node.set_raw("C", b"a]b")
        with self.assertRaises(ValueError):
            node.set_raw("C", b"ends\\")
        with self.assertRaises(ValueError):
            node.set_raw_list("C", [])
        with self.assertRaises(ValueError):
            node.set("SZ", 19)
        node.set_raw("XX", b"a\\]b")
        self.assertEqual(node.get("XX"), "a]b")
        self.assertTrue(node.has_property("XX"))
        self.assertEqual(node.properties(), ["XX"])
        node.unset("XX")
        self.assertFalse(node.has_property("XX"))

    def test_malformed(self):
        g = sgf.Sgf_game.from_bytes(
            b"(;KM[abc]HA[1]AB[zz]B[a]C[x][y]DD[])")
        root = g.get_root()
        for ident in ("KM", "AB", "B", "C"):
            with self.assertRaises(ValueError):
                root.get(ident)
        with self.assertRaises(ValueError):
            g.get_komi()
        with self.assertRaises(ValueError):
            g.get_handicap()
        with self.assertRaises(ValueError):
            root.get_move()
        self.assertEqual(root.get_raw_list("C"), [b"x", b"y"])
        self.assertEqual(root.get("DD"), set())
        self.assertEqual(root.get_raw_list("DD"), [b""])

    def test_text(self):
        g = sgf.Sgf_game.from_bytes(
            b"(;CA[UTF-8]C[a\\\nb\r\nc\td\\]]N[x\ny]"
            b"AP[na\\:me:1.0]AR[aa:bb])")
        root = g.get_root()
        self.assertEqual(root.get("C"), "ab\nc d]")
        self.assertEqual(root.get("N"), "x y")
        self.assertEqual(root.get("AP"), ("na:me", "1.0"))
        self.assertEqual(root.get("AR"), [((18, 0), (17, 1))])

    def test_moves_and_setup(self):
        node = self.node
        node.set_move("b", (3, 3))
        self.assertEqual(node.get_move(), ("b", (3, 3)))
        node.set_move("w", None)
        self.assertEqual(node.get_move(), ("w", None))
        self.assertFalse(node.has_property("B"))
        self.assertEqual(node.get_raw("W"), b"tt")
        node.set_setup_stones([(0, 0), (1, 1)], {(2, 2)})
        self.assertEqual(node.get_setup_stones(),
                         ({(0, 0), (1, 1)}, {(2, 2)}, set()))
        self.assertTrue(node.has_setup_stones())
        node.set_setup_stones([], [])
        self.assertFalse(node.has_setup_stones())
        g = sgf.Sgf_game.from_bytes(b"(;AB[aa:bb];W[cc]B[dd])")
        self.assertEqual(g.get_root().get("AB"),
                         {(18, 0), (18, 1), (17, 0), (17, 1)})
        self.assertEqual(g.get_root()[0].get_move(), ("b", (15, 3)))

    def test_comment_and_find(self):
        root = self.g.get_root()
        self.node.add_comment_text("one")
        self.node.add_comment_text("two")
        self.assertEqual(self.node.get("C"), "one\n\ntwo")
        root.set("DD", [(0, 0)])
        child = self.node.new_child()
        self.assertIs(child.find("DD"), root)
        self.assertEqual(child.find_property("DD"), {(0, 0)})
        self.assertIsNone(child.find("TB"))
        with self.assertRaises(KeyError):
            child.find_property("TB")

    def test_game_info(self):
        g = sgf.Sgf_game.from_bytes(
            b"(;KM[6.5]HA[0]PB[Black]PW[White]RE[b+r])")
        self.assertEqual(g.get_komi(), 6.5)
        self.assertIsNone(g.get_handicap())
        self.assertEqual(g.get_player_name("w"), "White")
        self.assertEqual(g.get_winner(), "b")
        g.set_date(datetime.date(2024, 1, 2))
        self.assertEqual(g.get_root().get("DT"), "2024-01-02")
        g = sgf.Sgf_game.from_bytes(b"(;HA[3]RE[Void])")
        self.assertEqual(g.get_handicap(), 3)
        self.assertIsNone(g.get_winner())


class TestSerialise(unittest.TestCase):
    def test_wrap(self):
        g = sgf.Sgf_game.from_bytes(b"(;FF[4]" + b"".join(
            b";B[%s]" % bytes((97 + i % 19, 97 + i // 19)) for i in range(40))
            + b")")
        out = g.serialise()
        self.assertTrue(all(len(line) <= 79 for line in out.split(b"\n")))
        self.assertEqual(out.count(b"\n"), 4)
        one = g.serialise(wrap=None)
        self.assertEqual(one.count(b"\n"), 1)
        self.assertEqual(one.replace(b"\n", b""), out.replace(b"\n", b""))
        self.assertTrue(all(len(line) <= 20
                            for line in g.serialise(20).split(b"\n")))

    def test_merged_and_sorted(self):
        g = sgf.Sgf_game.from_bytes(b"(;SZ[9]FF[4]C[a]AB[aa]C[b];B[cc])")
        self.assertEqual(g.serialise(),
                         b"(;FF[4]AB[aa]C[a][b]SZ[9];B[cc])\n")

    def test_transcoding(self):
        g = sgf.Sgf_game.from_string("(;PB[é])")
        g.get_root().set("CA", "iso-8859-1")
        self.assertEqual(g.serialise(), b"(;CA[iso-8859-1]PB[\xe9])\n")
        g.get_root().set("CA", "no-such")
        with self.assertRaises(ValueError):
            g.serialise()


class TestSgfMoves(unittest.TestCase):
    def test_setup_and_moves(self):
        g = sgf.Sgf_game.from_bytes(
            b"(;SZ[9]AB[aa][ba]AW[ca];B[ee];W[];B[tt])")
        board, moves = sgf_moves.get_setup_and_moves(g)
        self.assertEqual(sorted(board.list_occupied_points()),
                         [("b", (8, 0)), ("b", (8, 1)), ("w", (8, 2))])
        self.assertEqual(moves, [("b", (4, 4)), ("w", None), ("b", None)])
        for data in (b"(;SZ[9];AB[aa])", b"(;SZ[9]AB[aa]B[bb])",
                     b"(;SZ[9]AB[ba][ab]AW[aa])"):
            with self.assertRaises(ValueError):
                sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(data))
        with self.assertRaises(ValueError):
            sgf_moves.get_setup_and_moves(g, boards.Board(19))

    def test_set_initial_position(self):
        g = sgf.Sgf_game(9)
        b = boards.Board(9)
        b.play(0, 0, "b")
        b.play(8, 8, "w")
        sgf_moves.set_initial_position(g, b)
        self.assertEqual(g.get_root().get_raw("AB"), b"ai")
        self.assertEqual(g.get_root().get_raw("AW"), b"ia")
        n = g.extend_main_sequence()
        n.set_move("w", (4, 4))
        sgf_moves.indicate_first_player(g)
        self.assertEqual(g.get_root().get("PL"), "w")


class TestBoards(unittest.TestCase):
    def test_play_capture_ko(self):
        b = boards.Board(9)
        self.assertTrue(b.is_empty())
        self.assertEqual(b.side, 9)
        self.assertEqual(len(b.board_points), 81)
        for r, c, col in [(0, 1, "b"), (1, 0, "b"), (1, 2, "b"), (2, 1, "b"),
                          (0, 2, "w"), (1, 3, "w"), (2, 2, "w")]:
            self.assertIsNone(b.play(r, c, col))
        self.assertEqual(b.play(1, 1, "w"), (1, 2))  # takes one: ko
        b2 = boards.Board(5)
        for r, c, col in [(0, 1, "b"), (1, 0, "b"), (2, 1, "b"),
                          (0, 2, "w"), (1, 3, "w"), (2, 2, "w"), (1, 1, "w")]:
            b2.play(r, c, col)
        self.assertEqual(b2.play(1, 2, "b"), (1, 1))
        self.assertIsNone(b2.get(1, 1))
        with self.assertRaises(ValueError):
            b2.play(1, 2, "w")
        with self.assertRaises(IndexError):
            b2.play(5, 0, "b")
        with self.assertRaises(IndexError):
            b2.get(-1, 0)
        c = b2.copy()
        c.play(4, 4, "b")
        self.assertIsNone(b2.get(4, 4))

    def test_setup_and_score(self):
        b = boards.Board(3)
        self.assertTrue(b.apply_setup([(0, 0), (1, 1)], [(2, 2)], []))
        self.assertFalse(b.apply_setup([(0, 1), (1, 2)], [(0, 2)], []))
        self.assertIsNone(b.get(0, 2))
        self.assertEqual(b.area_score(), (4 + 1 + 3) - (1 + 3))
        with self.assertRaises(IndexError):
            b.apply_setup([(3, 0)], [], [])
        self.assertEqual(sorted(b.list_occupied_points())[0],
                         ("b", (0, 0)))

    def test_render(self):
        b = boards.Board(9)
        b.play(2, 5, "b")
        b.play(3, 6, "w")
        expected = "\n".join([
            "9  .  .  .  .  .  .  .  .  .",
            "8  .  .  .  .  .  .  .  .  .",
            "7  .  .  .  .  .  .  .  .  .",
            "6  .  .  .  .  .  .  .  .  .",
            "5  .  .  .  .  .  .  .  .  .",
            "4  .  .  .  .  .  .  o  .  .",
            "3  .  .  .  .  .  #  .  .  .",
            "2  .  .  .  .  .  .  .  .  .",
            "1  .  .  .  .  .  .  .  .  .",
            "   A  B  C  D  E  F  G  H  J"])
        self.assertEqual(ascii_boards.render_board(b), expected)
        again = ascii_boards.interpret_diagram(expected, 9)
        self.assertEqual(sorted(again.list_occupied_points()),
                         sorted(b.list_occupied_points()))
        big = boards.Board(13)
        big.play(12, 0, "w")
        text = ascii_boards.render_board(big)
        self.assertTrue(text.startswith("13  o  ."))
        self.assertTrue(text.endswith("    A  B  C  D  E  F  G  H  J  K  L  M  N"))


class TestCommon(unittest.TestCase):
    def test_doc_examples(self):
        self.assertEqual(common.opponent_of("b"), "w")
        self.assertEqual(common.colour_name("b"), "black")
        self.assertEqual(common.format_vertex((3, 0)), "A4")
        self.assertEqual(common.format_vertex(None), "pass")
        self.assertEqual(common.format_vertex_list([(0, 1), (2, 3), None]),
                         "B1,D3,pass")
        self.assertEqual(common.format_vertex_list([]), "")
        self.assertEqual(common.move_from_vertex("A4", 9), (3, 0))
        self.assertEqual(common.move_from_vertex("a4", 9), (3, 0))
        self.assertIsNone(common.move_from_vertex("pass", 9))
        self.assertEqual(common.move_from_vertex("J9", 9), (8, 8))
        for bad in ("I4", "A10", "A0", "", "4A", "Z"):
            with self.assertRaises(ValueError):
                common.move_from_vertex(bad, 9)
        for bad in ("x", None):
            with self.assertRaises(ValueError):
                common.opponent_of(bad)
        with self.assertRaises(ValueError):
            common.format_vertex((25, 0))


class TestLookupKeys(unittest.TestCase):
    """A node's properties are looked up as in a dict (sgfmill keeps them
    in one): an identifier that is not a str is simply not there."""

    def test_bytes_identifier_is_absent(self):
        node = sgf.Sgf_game.from_bytes(b"(;SZ[9]PB[Shusaku];B[cc])") \
            .get_main_sequence()[1]
        for call in (node.get_raw, node.get_raw_list, node.get, node.unset,
                     node.find_property):
            with self.subTest(call=call.__name__):
                with self.assertRaises(KeyError):
                    call(b"B")
        self.assertFalse(node.has_property(b"B"))
        self.assertIsNone(node.find(b"PB"))
        self.assertEqual(node.get_raw("B"), b"cc")  # still there

    def test_unhashable_identifier(self):
        root = sgf.Sgf_game.from_bytes(b"(;SZ[9])").get_root()
        with self.assertRaises(TypeError):
            root.get_raw(["SZ"])


class TestPointLimit(unittest.TestCase):
    """Points are written for boards up to 26, as in sgfmill, except in a
    lenient game's own larger board."""

    def test_context_over_26(self):
        from sgfstream.sgfmill import sgf_properties as sp
        for size in (27, 40):
            ctx = sp._Context(size, "UTF-8")
            with self.subTest(size=size):
                with self.assertRaises(ValueError):
                    sp.serialise_move((2, 2), ctx)
                with self.assertRaises(ValueError):
                    sp.serialise_point((2, 2), ctx)
                with self.assertRaises(ValueError):
                    sp.serialise_go_point(None, size)
                with self.assertRaises(ValueError):
                    sp.Presenter(size, "UTF-8").serialise("W", (0, 0))
        self.assertEqual(
            sp.serialise_point((0, 25), sp._Context(26, "UTF-8")), b"zz")

    def test_lenient_large_board_still_writes(self):
        g = sgf.Sgf_game.from_bytes(b"(;SZ[30])", lenient=True)
        node = g.extend_main_sequence()
        node.set_move("b", (0, 29))
        self.assertEqual(node.get_raw("B"), b"DD")
        self.assertEqual(node.get_move(), ("b", (0, 29)))
        g.get_root().set("AW", {(29, 0), (3, 27)})
        self.assertEqual(g.get_root().get("AW"), {(29, 0), (3, 27)})


if __name__ == "__main__":
    unittest.main()
