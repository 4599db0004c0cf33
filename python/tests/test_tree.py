"""Tests of sgfstream.tree: Game / Node over the library's compact trees,
navigation in the C API's words, typed values, edits, writing back, the
main line's moves, the board."""

import array
import gc
import unittest

import sgfstream
from sgfstream import tree

GAME = (b"(;FF[4]GM[1]SZ[9]KM[6.5]HA[2]AB[cc][gg]PB[Black]C[a\\]b]"
        b";W[ee];B[ge](;W[cg];B[tt])(;W[dd]C[var];B[de])(;W[])"
        b")")


class TestNavigation(unittest.TestCase):
    def setUp(self):
        self.g = tree.parse_game(GAME)

    def test_shape(self):
        g = self.g
        self.assertEqual(g.node_count, 8)
        root = g.root
        self.assertIs(root, g.get_root())
        self.assertIsNone(root.parent)
        self.assertEqual(len(root), 1)
        b = root[0][0]
        self.assertEqual(len(b), 3)
        self.assertEqual([c.get_move() for c in b],
                         [("w", (2, 6)), ("w", (3, 3)), ("w", None)])
        self.assertEqual(b[1:], b.children[1:])
        self.assertIs(b[-1], b.children[2])
        self.assertEqual(b.index(b[2]), 2)
        with self.assertRaises(IndexError):
            b[3]
        self.assertTrue(root)
        self.assertFalse(g.get_last_node())

    def test_identity_while_held(self):
        g = self.g
        a = g.root[0]
        self.assertIs(a, g.main_line()[1])
        self.assertIs(a.parent, g.root)
        del a
        gc.collect()
        self.assertEqual(g.root[0].get_move(), ("w", (4, 4)))

    def test_identity_across_edits(self):
        # The live-node table is by the library's node ids: nodes added
        # after it was made, a line longer than main_line's first buffer,
        # a deleted node and a node made again after its object died.
        g = tree.parse_game(b"(;SZ[19]" + b";B[aa];W[bb]" * 400 + b")")
        line = g.main_line()
        self.assertEqual(len(line), 801)
        self.assertEqual([n.get_move() for n in line[1:3]],
                         [("b", (0, 0)), ("w", (1, 1))])
        self.assertTrue(all(a is b for a, b in zip(line, g.main_line())))
        self.assertTrue(all(a is b for a, b in zip(line[5:],
                                                   line[5].main_line())))
        added = [line[-1]]
        for i in range(300):
            added.append(added[-1].add_move("b" if i % 2 else "w", (i % 19, 3)))
        self.assertEqual(len(g.main_line()), 1101)
        self.assertTrue(all(a is b for a, b in zip(line + added[1:],
                                                   g.main_line())))
        side = line[10].new_child()
        self.assertIs(line[10][1], side)
        side_id = id(side)
        self.assertIs(side.parent, line[10])
        tail = line[400]
        line[399].delete()
        with self.assertRaises(ValueError):
            tail.get_move()
        self.assertEqual(len(g.main_line()), 399)
        del side, line, added, tail
        gc.collect()
        again = g.main_line()
        self.assertEqual(again[-1].get_move(), ("w", (1, 1)))
        self.assertEqual(g.main_line()[10][1].properties(), [])
        self.assertIsInstance(side_id, int)

    def test_cql_words(self):
        g = self.g
        main = g.main_line()
        self.assertEqual([n.ply for n in main], [0, 1, 2, 3, 4])
        self.assertEqual([n.tree_depth for n in main], [0, 1, 2, 3, 4])
        self.assertTrue(all(n.is_mainline for n in main))
        var = main[2][1]
        self.assertEqual(var.variation_depth, 1)
        self.assertTrue(var.is_variation)
        self.assertEqual(var.child_index, 1)
        self.assertEqual(var.preorder_index, 5)
        self.assertIs(g.node_at(5), var)
        self.assertIs(var.lca(main[-1]), main[2])
        self.assertEqual(var[0].distance(main[-1]), 4)
        self.assertTrue(main[1].is_ancestor_of(var))
        self.assertTrue(var.is_descendant_of(main[0]))
        self.assertEqual(main[2].subtree_size, 6)
        self.assertEqual(main[-1].move_number, 4)
        self.assertTrue(main[0].is_initial)
        self.assertTrue(main[-1].is_terminal)
        self.assertEqual(main[0].to_play, "w")  # HA[2]: white first

    def test_typed_get(self):
        r = self.g.root
        self.assertEqual(r.get("KM"), 6.5)
        self.assertEqual(r.get("SZ"), 9)
        self.assertEqual(r.get("AB"), [(2, 2), (6, 6)])
        self.assertEqual(r.get("PB"), "Black")
        self.assertEqual(r.get("C"), "a]b")
        self.assertEqual(r.get_raw("C"), b"a\\]b")
        self.assertEqual(r.get_raw_list("AB"), [b"cc", b"gg"])
        self.assertEqual(r.properties(), ["FF", "GM", "SZ", "KM", "HA", "AB",
                                          "PB", "C"])
        with self.assertRaises(KeyError):
            r.get("XX")
        g = tree.parse_game(b"(;SZ[9]KM[abc]AB[aa:bb]LB[cc:x]AP[a:1];B[zz])")
        with self.assertRaises(ValueError):
            g.root.get("KM")
        with self.assertRaises(ValueError):
            g.root[0].get_move()
        self.assertEqual(g.root.get("AB"), [(0, 0), (1, 0), (0, 1), (1, 1)])
        self.assertEqual(g.root.get("LB"), [((2, 2), "x")])
        self.assertEqual(g.root.get("AP"), ("a", "1"))

    def test_moves_array(self):
        m = self.g.moves()
        self.assertIsInstance(m, array.array)
        self.assertEqual(m.typecode, "B")
        # B[tt] on 9x9 is a pass (FF[3]); the layout is colour, x, y.
        self.assertEqual(list(m), [2, 4, 4, 1, 6, 4, 2, 2, 6, 1, 255, 255])
        g = tree.parse_game(b"(;SZ[19];B[];W[A1];B[Aa])")
        self.assertEqual(list(g.moves()), [1, 255, 255, 2, 254, 254,
                                           1, 26, 0])


class TestEdits(unittest.TestCase):
    def test_set_and_write(self):
        g = tree.Game(9)
        n = g.root.add_move("b", (2, 3))
        n.set("C", "x]y\\z")
        n.set("LB", [((0, 0), "A:1")])
        n.set("TR", [(1, 1), (2, 2)])
        w = n.add_move("w", None)
        self.assertEqual(w.get_move(), ("w", None))
        self.assertEqual(n.get("C"), "x]y\\z")
        self.assertEqual(n.get("LB"), [((0, 0), "A:1")])
        out = g.to_sgf()
        self.assertEqual(
            out, b"(;FF[4]GM[1]SZ[9];B[cd]C[x\\]y\\\\z]LB[aa:A:1]"
                 b"TR[bb][cc];W[])\n")
        g2 = tree.parse_game(out)
        self.assertEqual(g2.to_sgf(), out)
        with self.assertRaises(ValueError):
            n.set("b", 1)
        with self.assertRaises(ValueError):
            n.set("TR", [])

    def test_delete_promote_reparent(self):
        g = tree.parse_game(GAME)
        b = g.main_line()[2]
        second, third = b[1], b[2]
        second.promote()
        self.assertIs(b[0], second)
        self.assertEqual([n.get_move() for n in g.main_line()][-2:],
                         [("w", (3, 3)), ("b", (3, 4))])
        third.reparent(g.root, 0)
        self.assertIs(g.root[0], third)
        with self.assertRaises(ValueError):
            g.root.reparent(third)
        with self.assertRaises(ValueError):
            b.reparent(b[0])
        b.delete()
        self.assertEqual(g.node_count, 3)
        with self.assertRaises(ValueError):
            b.get_move()
        with self.assertRaises(ValueError):
            g.root.delete()
        self.assertEqual(g.to_sgf().count(b";"), 3)
        n = g.root.new_child(1)
        n.set_raw("N", b"x")
        self.assertIs(g.root[1], n)
        n.unset("N")
        with self.assertRaises(KeyError):
            n.unset("N")

    def test_round_trip(self):
        g = tree.parse_game(GAME)
        again = tree.parse_game(g.to_sgf())
        self.assertEqual(again.to_sgf(), g.to_sgf())
        self.assertEqual(list(again.moves()), list(g.moves()))
        readable = g.to_sgf(readable=True)
        self.assertIn(b"\n", readable.strip())
        self.assertEqual(tree.parse_game(readable).to_sgf(), g.to_sgf())


class TestBoard(unittest.TestCase):
    def test_captures_and_ko(self):
        b = tree.Board(5)
        for x, y, c in [(1, 0, "b"), (0, 1, "b"), (2, 1, "b"),
                        (2, 0, "w"), (3, 1, "w"), (2, 2, "w")]:
            self.assertIsNone(b.play(x, y, c))
        self.assertIsNone(b.play(1, 2, "b"))
        self.assertEqual(b.play(1, 1, "w"), (2, 1))   # captures one: ko
        self.assertIsNone(b.get(2, 1))
        self.assertEqual(b.captures, (0, 1))
        with self.assertRaises(ValueError):
            b.play(1, 1, "b")
        with self.assertRaises(IndexError):
            b.get(5, 0)

    def test_self_capture_setup_score(self):
        b = tree.Board(3)
        b.play(1, 0, "w")
        b.play(0, 1, "w")
        b.play(0, 0, "b")   # suicide: removed
        self.assertIsNone(b.get(0, 0))
        self.assertFalse(b.apply_setup([(2, 2)], [(1, 2), (2, 1)], []))
        self.assertEqual(b.area_score(), -9)
        c = b.copy()
        self.assertTrue(c.apply_setup([], [], [(1, 0)]))
        self.assertNotEqual(c.cells(), b.cells())

    def test_board_at(self):
        g = tree.parse_game(b"(;SZ[5]AB[ba][ab];W[aa];B[])")
        board = g.board_at()
        self.assertEqual(board.cells()[:2], b"\x00\x01")
        self.assertEqual(board.captures, (1, 0))  # W[aa] took itself


class TestErrors(unittest.TestCase):
    def test_no_game(self):
        with self.assertRaises(sgfstream.SGFError):
            tree.parse_game(b"no sgf here")

    def test_repairs_are_diagnostics(self):
        g = tree.parse_game(b"(;B[aa];W[bb]")
        self.assertEqual(g.node_count, 2)
        self.assertIn("unclosed-tree", [d.name for d in g.diagnostics])

    def test_many_games(self):
        games = tree.parse_games(b"(;B[aa])(;W[bb])junk(;B[cc])")
        self.assertEqual([list(g.moves()) for g in games],
                         [[1, 0, 0], [2, 1, 1], [1, 2, 2]])


if __name__ == "__main__":
    unittest.main()
