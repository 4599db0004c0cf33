"""sgfstream.sgfmill's typed values against what sgfmill made of the same
corpus files (../shared/reference/sgfmill, README there): board size,
charset, every root property through get() (or the same exception), and
along the main sequence the move, AB/AW/AE and C.

make check reads every line of the small sources and the first lines of
the large ones; SGF_TEST_FULL=1 reads all. Skipped when ../shared is
absent."""

import json
import lzma
import os
import tarfile
import unittest

import sgfstream
from sgfstream.sgfmill import sgf

TOP = os.environ.get("SGF_SRC_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(os.path.abspath(TOP)), "shared")
REF = os.path.join(SHARED, "reference", "sgfmill")
CORPUS = os.path.join(SHARED, "corpus", "dev")
FULL = os.environ.get("SGF_TEST_FULL") == "1"
SAMPLE_LINES = 150  # lines of a large source in the sampled run


def jsonish(v):
    """A value as the reference writes it: sets sorted, tuples as lists."""
    if isinstance(v, (set, frozenset)):
        return sorted(jsonish(x) for x in v)
    if isinstance(v, (list, tuple)):
        return [jsonish(x) for x in v]
    return v


def typed(fn, *args):
    try:
        return jsonish(fn(*args))
    except (ValueError, KeyError, TypeError) as e:
        return ("raises", type(e).__name__)


def expected(ref):
    if isinstance(ref, dict) and "error" in ref:
        return ("raises", ref["error"])
    return ref


def source_files(source):
    """path -> bytes getter for one source."""
    arch = os.path.join(CORPUS, source + ".tar.xz")
    if os.path.exists(arch):
        return arch
    return os.path.join(CORPUS, source)


class Files:
    """The bytes of a source's files, archive members read in one pass."""

    def __init__(self, source, wanted):
        self.data = {}
        base = source_files(source)
        if base.endswith(".tar.xz"):
            with tarfile.open(base) as tf:
                for m in tf:
                    name = m.name[2:] if m.name.startswith("./") else m.name
                    if m.isfile() and name in wanted:
                        self.data[name] = tf.extractfile(m).read()
                        if len(self.data) == len(wanted):
                            break
        else:
            for p in wanted:
                with open(os.path.join(base, p), "rb") as f:
                    self.data[p] = f.read()


@unittest.skipUnless(os.path.isdir(REF) and os.path.isdir(CORPUS),
                     "../shared/reference or ../shared/corpus absent")
class TestReference(unittest.TestCase):
    def check_game(self, ref, data):
        if "error" in ref:
            with self.assertRaises(ValueError):
                g = sgf.Sgf_game.from_bytes(data)
                g.get_charset()
            return
        g = sgf.Sgf_game.from_bytes(data)
        self.assertEqual(g.get_size(), ref["size"])
        self.assertEqual(g.get_charset(), ref["charset"])
        root = g.get_root()
        self.assertEqual(sorted(root.properties()), sorted(ref["root"]))
        for ident, v in ref["root"].items():
            self.assertEqual(typed(root.get, ident), expected(v), ident)
        seq = g.get_main_sequence()
        self.assertEqual(len(seq), len(ref["main"]))
        for i, (node, want) in enumerate(zip(seq, ref["main"])):
            mv = typed(node.get_move)
            if "move" in want:
                self.assertEqual(mv, want["move"], "node %d" % i)
            elif "move_error" in want:
                self.assertEqual(mv, ("raises", want["move_error"]))
            else:
                self.assertEqual(mv, [None, None], "node %d" % i)
            for ident in ("AB", "AW", "AE", "C"):
                if ident in want:
                    self.assertEqual(typed(node.get, ident),
                                     expected(want[ident]),
                                     "node %d %s" % (i, ident))
                elif i > 0:
                    self.assertFalse(node.has_property(ident))

    def test_reference(self):
        checked = 0
        for name in sorted(os.listdir(REF)):
            source = name[:-len(".jsonl.xz")]
            with lzma.open(os.path.join(REF, name), "rt",
                           encoding="utf-8") as f:
                lines = []
                for line in f:
                    lines.append(json.loads(line))
                    if not FULL and len(lines) >= SAMPLE_LINES:
                        break
            files = Files(source, {r["path"] for r in lines})
            games = {}
            for ref in lines:
                data = files.data.get(ref["path"])
                if data is None:
                    continue
                k = ref.get("game", 0)
                if k > 0:
                    # Game k of a collection: its own bytes.
                    if ref["path"] not in games:
                        games[ref["path"]] = [
                            r.data for r in sgfstream.games(data)]
                    recs = games[ref["path"]]
                    if k >= len(recs):
                        continue
                    data = recs[k]
                with self.subTest(source=source, path=ref["path"], game=k):
                    self.check_game(ref, data)
                checked += 1
        self.assertGreater(checked, 500)


if __name__ == "__main__":
    unittest.main()
