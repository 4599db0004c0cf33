"""sgfstream.sgfmill side by side with sgfmill itself (../shared/peers/sgfmill,
imported from there) on the same calls over the corpus (../shared/corpus/dev):
every file sgfmill reads, read by both; what sgfmill refuses, refused by both.

make check runs a sample (every small source, a slice of each archive);
SGF_TEST_FULL=1 runs every file and every archive member. Skipped when
../shared is absent."""

import os
import sys
import tarfile
import unittest

from sgfstream.sgfmill import sgf, sgf_moves

TOP = os.environ.get("SGF_SRC_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(os.path.abspath(TOP)), "shared")
CORPUS = os.path.join(SHARED, "corpus", "dev")
PEER = os.path.join(SHARED, "peers", "sgfmill")
FULL = os.environ.get("SGF_TEST_FULL") == "1"
# Members of each archive read in the sampled run.
ARCHIVE_SAMPLE = 60
# Files of one folder read in the sampled run (every file when fewer).
FOLDER_SAMPLE = 80

try:
    if os.path.isdir(PEER):
        sys.path.insert(0, PEER)
        from sgfmill import sgf as msgf, sgf_moves as msgf_moves
    else:
        msgf = None
except ImportError:
    msgf = None


def corpus_files():
    """(name, bytes) of the corpus files, sampled unless FULL."""
    for src in sorted(os.listdir(CORPUS)):
        path = os.path.join(CORPUS, src)
        if src.endswith(".tar.xz"):
            with tarfile.open(path) as tf:
                n = 0
                for m in tf:
                    if not m.isfile():
                        continue
                    if not FULL and n >= ARCHIVE_SAMPLE:
                        break
                    n += 1
                    yield src + ":" + m.name, tf.extractfile(m).read()
            continue
        files = []
        for d, _, names in os.walk(path):
            files += [os.path.join(d, f) for f in names]
        files.sort()
        step = 1 if FULL else max(1, len(files) // FOLDER_SAMPLE)
        for f in files[::step]:
            with open(f, "rb") as fh:
                yield os.path.relpath(f, CORPUS), fh.read()


def outcome(fn, *args):
    """('ok', value) or ('raise', exception class name)."""
    try:
        return ("ok", fn(*args))
    except (ValueError, KeyError, LookupError, TypeError) as e:
        return ("raise", type(e).__name__)


def norm(v):
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    return v


def describe(game, mill):
    """What a script sees of a game, through the same calls on both."""
    out = {}
    out["size"] = game.get_size()
    out["charset"] = outcome(game.get_charset)
    out["komi"] = outcome(game.get_komi)
    out["handicap"] = outcome(game.get_handicap)
    out["players"] = (outcome(game.get_player_name, "b"),
                      outcome(game.get_player_name, "w"))
    out["winner"] = outcome(game.get_winner)
    root = game.get_root()
    out["root"] = {p: (root.get_raw_list(p), norm(outcome(root.get, p)))
                   for p in sorted(root.properties())}
    seq = game.get_main_sequence()
    out["main"] = [(outcome(n.get_move), n.get_raw_property_map(), len(n))
                   for n in seq]
    out["last"] = game.get_last_node().get_raw_property_map()
    out["setup"] = norm(outcome(lambda: tuple(
        sorted(s) for s in root.get_setup_stones())))
    mod = msgf_moves if mill else sgf_moves
    res = outcome(mod.get_setup_and_moves, game)
    if res[0] == "ok":
        board, moves = res[1]
        res = ("ok", sorted(board.list_occupied_points()), moves)
    out["setup_and_moves"] = res
    out["serialise"] = outcome(game.serialise)
    return out


@unittest.skipUnless(os.path.isdir(CORPUS) and msgf is not None,
                     "../shared/corpus or ../shared/peers/sgfmill absent")
class TestSideBySide(unittest.TestCase):
    def test_corpus(self):
        read = refused = 0
        mismatches = []
        for name, data in corpus_files():
            try:
                theirs = msgf.Sgf_game.from_bytes(data)
            except ValueError:
                refused += 1
                with self.subTest(file=name):
                    with self.assertRaises(ValueError):
                        sgf.Sgf_game.from_bytes(data)
                continue
            read += 1
            with self.subTest(file=name):
                ours = sgf.Sgf_game.from_bytes(data)
                a, b = describe(ours, False), describe(theirs, True)
                for key in a:
                    if a[key] != b[key]:
                        mismatches.append((name, key))
                    self.assertEqual(a[key], b[key], "%s: %s" % (name, key))
        print("side by side: %d files read by both, %d refused by both" % (read, refused), file=sys.stderr)
        self.assertGreater(read, 50)
        self.assertFalse(mismatches)


if __name__ == "__main__":
    unittest.main()
