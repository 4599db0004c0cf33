"""Tests of sgfstream's streaming part: games(), headers(), Handler, Parser.

Run by python/run-tests.sh (make check), which sets SGF_BUILD_DIR (the
build tree: its sgf tool is the reference) and SGF_SRC_DIR (the source
tree: test/cases, and ../shared/corpus beside it). SGF_TEST_FULL=1: the
whole corpus, every split of every golden case, a 2 GB stream.
"""

import array
import gc
import io
import json
import lzma
import os
import random
import re
import resource
import subprocess
import sys
import tarfile
import tempfile
import unittest
import zipfile
import gzip

import sgfstream

BUILD = os.environ.get("SGF_BUILD_DIR", "")
SRC = os.environ.get("SGF_SRC_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SGF = os.path.join(BUILD, "sgf")
CASES = os.path.join(SRC, "test", "cases")
CORPUS = os.path.join(SRC, "..", "shared", "corpus")
FULL = os.environ.get("SGF_TEST_FULL", "0") not in ("", "0")
SAN = bool(os.environ.get("SGF_SANITIZERS"))


def have_sgf():
    return BUILD and os.access(SGF, os.X_OK)


def corpus_files():
    files = []
    for d, _, fs in os.walk(CORPUS):
        for f in fs:
            if not f.endswith(".md"):
                files.append(os.path.join(d, f))
    files.sort()
    if not FULL:  # the big archives only in the full run
        files = [f for f in files if os.path.getsize(f) < 2_000_000]
    return files


def unquote(s):
    """A value-data string of `sgf events` (tools/common/eventlog.c)."""
    out = bytearray()
    i = 0
    b = s.encode("latin-1")
    while i < len(b):
        c = b[i]
        if c != 0x5C:
            out.append(c)
            i += 1
            continue
        e = chr(b[i + 1])
        if e == "x":
            out.append(int(b[i + 2:i + 4], 16))
            i += 4
            continue
        out += {"\\": b"\\", '"': b'"', "n": b"\n", "r": b"\r", "t": b"\t"}[e]
        i += 2
    return bytes(out)


def golden_events(text):
    """The coarse events of an `sgf events` log: what a Handler sees."""
    evs = []
    value = None
    prop = None
    for line in text.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 3:
            continue
        off, pos, kind = parts[0], parts[1], parts[2]
        if not off.isdigit():
            continue
        ln, col = (int(x) for x in pos.split(":"))
        where = (int(off), ln, col)
        if kind == "tree-begin":
            evs.append(("(", where))
        elif kind == "tree-end":
            evs.append((")", where))
        elif kind == "node":
            evs.append((";", where))
        elif kind == "property":
            prop = ("P", where, parts[3].split(" ")[0], [])
        elif kind == "property-end":
            evs.append(prop)
        elif kind == "value-begin":
            value = b""
        elif kind == "value-data":
            value += unquote(parts[3][1:-1])
        elif kind == "value-end":
            prop[3].append(value)
    return evs


class Recorder(sgfstream.Handler):
    """Every event a Handler gets, with its position."""

    def __init__(self):
        self.events = []
        self.parser = None
        self.diags = []

    def on_game(self):
        self.events.append(("(", self.parser.position))

    def on_tree_begin(self, depth):
        self.events.append(("(", self.parser.position))

    def on_game_end(self):
        self.events.append((")", self.parser.position))

    def on_tree_end(self, depth):
        self.events.append((")", self.parser.position))

    def on_node(self):
        self.events.append((";", self.parser.position))

    def on_property(self, ident, values):
        self.events.append(("P", self.parser.position, ident, list(values)))

    def on_diagnostic(self, d):
        self.diags.append(d)


def record(chunks, **kw):
    h = Recorder()
    p = sgfstream.Parser(h, **kw)
    h.parser = p
    try:
        for c in chunks:
            assert p.feed(c) == len(c)
        assert p.finish()
    except sgfstream.SGFError:  # a fatal one (any error in strict mode)
        pass
    return h.events, h.diags


def case_dirs():
    out = []
    for name in sorted(os.listdir(CASES)):
        d = os.path.join(CASES, name)
        if os.path.exists(os.path.join(d, "options")):
            continue  # limits and UTF-16: options the golden log needs
        if os.path.exists(os.path.join(d, "input.sgf")) and os.path.exists(os.path.join(d, "events")):
            out.append(d)
    return out


class TestGames(unittest.TestCase):
    def test_records(self):
        data = (b"junk(;GM[1]SZ[9];B[aa];W[tt]C[x]\n;B[]\n(;W[ii])(;W[bb]))"
                b"\n(;SZ[25]B[tt];W[yy];B[zz];W[Aa];B[])")
        gs = list(sgfstream.games(data))
        self.assertEqual(len(gs), 2)
        g = gs[0]
        self.assertEqual(g.data, data[4:data.index(b")\n") + 1])
        self.assertEqual(g.source, (None, None, 0, 4, 1, 5))
        self.assertEqual(g.source.offset, 4)
        self.assertEqual(g.nodes, 6)
        # tt on 9x9 and B[]: passes
        self.assertEqual(list(g.moves()), [1, 0, 0, 2, 255, 255, 1, 255, 255, 2, 8, 8])
        self.assertIsInstance(g.moves(), array.array)
        self.assertEqual([d.name for d in g.diagnostics], ["junk-before"])
        g = gs[1]
        self.assertEqual(g.source.index, 1)
        self.assertEqual(g.source.line, 4)
        # 25x25: tt a point, zz and Aa off the board
        self.assertEqual(list(g.moves()), [1, 19, 19, 2, 24, 24, 1, 254, 254, 2, 254, 254, 1, 255, 255])

    def test_mainline_option(self):
        data = b"(;B[aa](;W[bb];B[cc])(;W[dd]))"
        full = next(sgfstream.games(data))
        main = next(sgfstream.games(data, mainline=True))
        self.assertEqual(full.moves(), main.moves())
        self.assertEqual((full.nodes, main.nodes), (4, 3))

    def test_paths(self):
        data = b"(;GM[1];B[aa])(;GM[1];W[bb])"
        with tempfile.TemporaryDirectory() as tmp:
            plain = os.path.join(tmp, "a.sgf")
            with open(plain, "wb") as f:
                f.write(data)
            with gzip.open(os.path.join(tmp, "b.sgf.gz"), "wb") as f:
                f.write(data)
            os.makedirs(os.path.join(tmp, "sub"))
            with lzma.open(os.path.join(tmp, "sub", "c.sgf.xz"), "wb") as f:
                f.write(data)
            zpath = os.path.join(tmp, "d.zip")
            with zipfile.ZipFile(zpath, "w") as z:
                z.writestr("x/one.sgf", data)
                z.writestr("readme.txt", b"not sgf")
            tpath = os.path.join(tmp, "e.tar.gz")
            with tarfile.open(tpath, "w:gz") as t:
                ti = tarfile.TarInfo("two.sgf")
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
            srcs = [(g.source.file, g.source.member, g.source.index) for g in sgfstream.games(tmp)]
            self.assertEqual(srcs, [(os.path.join(tmp, "a.sgf"), None, 0), (os.path.join(tmp, "a.sgf"), None, 1),
                                    (os.path.join(tmp, "b.sgf.gz"), None, 0), (os.path.join(tmp, "b.sgf.gz"), None, 1),
                                    (os.path.join(tmp, "sub", "c.sgf.xz"), None, 0),
                                    (os.path.join(tmp, "sub", "c.sgf.xz"), None, 1)])
            z = [(g.source.member, g.data) for g in sgfstream.games(zpath)]
            self.assertEqual(z, [("x/one.sgf", data[:14]), ("x/one.sgf", data[14:])])
            t = [(g.source.member, g.data) for g in sgfstream.games(tpath)]
            self.assertEqual(t, [("two.sgf", data[:14]), ("two.sgf", data[14:])])
            with open(tpath, "rb") as f:  # a file object holding an archive
                self.assertEqual(len(list(sgfstream.games(f))), 2)

    def test_strict(self):
        with self.assertRaises(sgfstream.SGFError) as cm:
            list(sgfstream.games(b"(;B[aa]) junk", strict=True))
        e = cm.exception
        self.assertEqual(len(e.diagnostics), 1)
        d = e.diagnostics[0]
        self.assertEqual((d.line, d.column, d.name), (1, 10, "junk-after"))
        self.assertIn("1:10", str(e))
        # lenient: a warning on the game, no exception
        self.assertEqual(len(list(sgfstream.games(b"(;B[aa]) junk"))), 1)

    def test_fatal_in_lenient_mode(self):
        with self.assertRaises(sgfstream.SGFError) as cm:
            list(sgfstream.games(b"(;B[aa]" + b"(" * 20000))
        self.assertEqual(cm.exception.diagnostics[-1].name, "depth-limit")

    def test_game_attributes_forward_to_tree(self):
        g = next(sgfstream.games(b"(;B[aa])"))
        with self.assertRaises(AttributeError):
            g._private_thing
        tree = sys.modules["sgfstream.tree"]
        if not hasattr(tree, "parse_game"):
            with self.assertRaises(AttributeError):
                g.root
        else:
            self.assertIsNotNone(g.root)


# The UTF-8 text of the UTF-16 tests (as test/tool-utf16.sh): e-acute, a
# character beyond the BMP (a surrogate pair in UTF-16), a lowercase
# identifier after them (warning at 1:18 in UTF-8 bytes) and text after
# the game (a warning after the last game).
U8_TEXT = "(;GM[1]C[\u00e9 \U0001F600]b[aa];B[dd]\n;W[pp])(;W[cc])\nx\n"


class Trickle(io.RawIOBase):
    """A reader that gives n bytes a read: every split of the input."""

    def __init__(self, data, n=1):
        self.data = data
        self.n = n

    def readable(self):
        return True

    def readinto(self, b):
        k = min(self.n, len(b), len(self.data))
        b[:k] = self.data[:k]
        self.data = self.data[k:]
        return k


def everything(stream):
    """(records or header dicts, the diagnostics of each game, the
    stream's own, the SGFError's or None)."""
    items, err = [], None
    try:
        for item in stream:
            items.append(item)
    except sgfstream.SGFError as e:
        err = e.diagnostics
    return items, stream.diagnostics, err


def spots(diags):
    return [(d.name, d.line, d.column, d.offset) for d in diags or []]


class TestUTF16(unittest.TestCase):
    """UTF-16 input is read converted to UTF-8 (sgfstream/utf16.h), as the
    sgf tool reads it: the games of the UTF-8 text, positions in it, the
    warning utf16-input first; a lone surrogate or a cut character is the
    fatal utf16-invalid where it would be in the converted text."""

    def check_as_utf8(self, data, utf8):
        want, want_out, _ = everything(sgfstream.games(utf8))
        for reader in (data, Trickle(data, 1), Trickle(data, 3)):
            got, got_out, err = everything(sgfstream.games(reader))
            self.assertIsNone(err)
            self.assertEqual([g.data for g in got], [g.data for g in want])
            self.assertEqual([g.source for g in got], [g.source for g in want])
            self.assertEqual([list(g.moves()) for g in got], [list(g.moves()) for g in want])
            self.assertEqual(spots(got[0].diagnostics),
                             [("utf16-input", 1, 1, 0)] + spots(want[0].diagnostics))
            self.assertEqual([spots(g.diagnostics) for g in got[1:]],
                             [spots(g.diagnostics) for g in want[1:]])
            self.assertEqual(spots(got_out), spots(want_out))
        got, want = list(sgfstream.headers(data)), list(sgfstream.headers(utf8))
        # the first game has the warning utf16-input too (as in games())
        self.assertEqual(spots(got[0].pop("diagnostics")),
                         [("utf16-input", 1, 1, 0)] + spots(want[0].pop("diagnostics", [])))
        self.assertEqual(got, want)

    def test_orders_and_marks(self):
        utf8 = U8_TEXT.encode("utf-8")
        self.check_as_utf8(b"\xff\xfe" + U8_TEXT.encode("utf-16-le"), utf8)
        self.check_as_utf8(b"\xfe\xff" + U8_TEXT.encode("utf-16-be"), utf8)
        self.check_as_utf8(U8_TEXT.encode("utf-16-le"), utf8)  # no mark: "(" 00
        self.check_as_utf8(U8_TEXT.encode("utf-16-be"), utf8)
        g = next(sgfstream.games(b"\xff\xfe" + U8_TEXT.encode("utf-16-le")))
        self.assertEqual(g.get_root().get("C"), "\u00e9 \U0001F600")
        # CA names UTF-16: moot once converted (text is UTF-8 then)
        text = "(;CA[UTF-16LE]PB[Kitani \u00e9]RU[Japanese];B[aa])"
        data = b"\xff\xfe" + text.encode("utf-16-le")
        h = next(sgfstream.headers(data))
        self.assertEqual((h["black"], h["rules"]), ("Kitani \u00e9", "Japanese"))
        g = next(sgfstream.games(data))
        self.assertEqual(g.charset, "UTF-8")
        self.assertEqual(g.get_root().get("PB"), "Kitani \u00e9")
        g = next(sgfstream.games(data, charset="ISO-8859-1"))  # an override stays
        self.assertEqual(g.charset, "ISO-8859-1")

    def test_strict(self):
        data = b"\xff\xfe" + b"(;B[aa])".decode().encode("utf-16-le")
        items, _, err = everything(sgfstream.games(data, strict=True))
        self.assertEqual(items, [])
        self.assertEqual(spots(err), [("utf16-input", 1, 1, 0)])

    def test_bad_utf16(self):
        head = "(;C[a])(;C[b".encode("utf-16-le")
        # a lone high surrogate, then more: the game before it is read,
        # then the fatal error where the character would have been
        for tail in (b"\x00\xd8" + "]C[x])".encode("utf-16-le"),  # lone surrogate
                     b"\x3d\xd8",  # a pair cut off by the end
                     b"x"):        # a code unit cut off
            data = b"\xff\xfe" + head + tail
            for reader in (data, Trickle(data, 1)):
                items, out, err = everything(sgfstream.games(reader))
                self.assertEqual([g.data for g in items], [b"(;C[a])"])
                self.assertEqual(spots(err)[-1], ("utf16-invalid", 1, 13, 12))
                self.assertEqual(out, [])
        # not UTF-16: one NUL before ASCII SGF
        self.assertEqual([g.data for g in sgfstream.games(b"\x00(;B[aa])")], [b"(;B[aa])"])

    @unittest.skipUnless(have_sgf(), "no sgf tool")
    def test_same_as_the_tool(self):
        # every diagnostic, in order, at the place `sgf check` gives
        u16 = "(;C[a]);(;C[b".encode("utf-16-le")
        inputs = [b"\xff\xfe" + U8_TEXT.encode("utf-16-le"),
                  b"\xfe\xff" + U8_TEXT.encode("utf-16-be"),
                  b"\xff\xfe" + u16 + b"\x00\xd8" + "]C[x])".encode("utf-16-le"),
                  b"\xff\xfe" + u16 + b"\x3d\xd8"]
        with tempfile.TemporaryDirectory() as tmp:
            for i, data in enumerate(inputs):
                path = os.path.join(tmp, "%d.sgf" % i)
                with open(path, "wb") as f:
                    f.write(data)
                out = subprocess.run([SGF, "check", path], capture_output=True,
                                     text=True).stdout
                want = []
                for line in out.splitlines():
                    if line.startswith(path + ":"):
                        _, ln, col, rest = line.split(":", 3)
                        want.append((rest.rsplit("[", 1)[1].split("/")[0], int(ln), int(col)))
                items, outside, err = everything(sgfstream.games(path))
                got = [d for g in items for d in g.diagnostics] + outside + (err or [])
                self.assertEqual([(d.name, d.line, d.column) for d in got], want, path)
                self.assertTrue(all(d.file == path for d in got))


class TestOutsideGames(unittest.TestCase):
    """Diagnostics after the last game, or in an input without a game,
    are in the stream's .diagnostics (games() and headers())."""

    def test_after_and_without(self):
        cases = [
            (b"(;B[aa]) junk", 1, [("junk-after", 1, 10, 9)]),
            (b"(;B[aa]))", 1, [("extra-paren", 1, 9, 8)]),
            (b"nothing here", 0, [("junk-before", 1, 1, 0), ("no-game-tree", 1, 13, 12)]),
            (b"(;B[aa])", 1, []),
        ]
        for data, n, want in cases:
            for fn in (sgfstream.games, sgfstream.headers):
                stream = fn(data)
                self.assertIsInstance(stream, sgfstream.GameStream)
                self.assertIs(iter(stream), stream)
                self.assertEqual(len(list(stream)), n)
                self.assertEqual(spots(stream.diagnostics), want, (fn.__name__, data))
        # within a game: on the record, not on the stream
        stream = sgfstream.games(b"junk(;B[aa]b[bb])")
        g = next(stream)
        self.assertEqual([d.name for d in g.diagnostics], ["junk-before", "lowercase-ident"])
        self.assertEqual(list(stream), [])
        self.assertEqual(stream.diagnostics, [])

    def test_each_input_of_a_directory(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, data in (("a.sgf", b"(;B[aa])x"), ("b.sgf", b"none"), ("c.sgf", b"(;W[bb])")):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(data)
            stream = sgfstream.games(tmp)
            self.assertEqual(len(list(stream)), 2)
            self.assertEqual([(os.path.basename(d.file), d.name) for d in stream.diagnostics],
                             [("a.sgf", "junk-after"), ("b.sgf", "junk-before"),
                              ("b.sgf", "no-game-tree")])

    def test_strict_raises(self):
        items, outside, err = everything(sgfstream.games(b"(;B[aa]) junk", strict=True))
        self.assertEqual(spots(err), [("junk-after", 1, 10, 9)])
        self.assertEqual(outside, [])

    def test_close(self):
        stream = sgfstream.games(b"(;B[aa])(;B[bb])")
        next(stream)
        stream.close()
        self.assertEqual(list(stream), [])


class TestHeaders(unittest.TestCase):
    def test_typed(self):
        data = ("(;GM[1]PB[Black\\] Player]PW[白]KM[6.5]HA[2]SZ[19:13]RE[W+R]"
                "C[long comment];B[aa];W[bb])").encode("utf-8") + \
            "(;KM[six]SZ[x]CA[ISO-8859-1]PB[caf\xe9])".encode("latin-1")
        hs = list(sgfstream.headers(data))
        self.assertEqual(len(hs), 2)
        h = hs[0]
        self.assertEqual(h["black"], "Black] Player")
        self.assertEqual(h["white"], "白")
        self.assertEqual(h["komi"], 6.5)
        self.assertEqual(h["handicap"], 2)
        self.assertEqual(h["size"], (19, 13))
        self.assertEqual(h["result"], "W+R")
        self.assertIsNone(h["date"])
        self.assertEqual((h["game"], h["offset"], h["line"]), (0, 0, 1))
        h = hs[1]
        self.assertEqual((h["komi"], h["size"], h["black"]), ("six", "x", "café"))

    def test_charset_override(self):
        data = "(;PB[caf\xe9])".encode("latin-1")
        self.assertEqual(next(sgfstream.headers(data, charset="ISO-8859-1"))["black"], "café")

    def test_game_diagnostics(self):
        """The parser's diagnostics of a game (text before it, its root
        node, the end of input inside it) are on its dict, in input
        order, under "diagnostics" (no key without one), however the
        input is cut into chunks; after the last game: the stream's."""
        data = b"junk(;PB[x]b[y];B[aa])\n(;PW[z])\n(;PB[w];W[bb]"
        want = [[("junk-before", 1, 1, 0), ("lowercase-ident", 1, 12, 11)],
                None, [("unclosed-tree", 3, 14, 45)]]
        for reader in (data, Trickle(data, 1), Trickle(data, 5)):
            stream = sgfstream.headers(reader)
            hs = list(stream)
            self.assertEqual([h["black"] for h in hs], ["x", None, "w"])
            self.assertEqual([spots(h["diagnostics"]) if "diagnostics" in h else None
                              for h in hs], want)
            self.assertEqual(stream.diagnostics, [])
        stream = sgfstream.headers(b"(;PB[x]))")
        self.assertNotIn("diagnostics", next(stream))
        self.assertEqual(list(stream), [])
        self.assertEqual(spots(stream.diagnostics), [("extra-paren", 1, 9, 8)])
        with self.assertRaises(sgfstream.SGFError):
            list(sgfstream.headers(data, strict=True))

    def test_root_only_read(self):
        # everything after the root is skipped unparsed: a depth-limit
        # there is still found (the limit holds in skipped trees), but no
        # warning of the skipped bytes is
        hs = list(sgfstream.headers(b"(;PB[x];B[aa] junk (;W[bb]))(;PB[y])"))
        self.assertEqual([h["black"] for h in hs], ["x", "y"])

    KEYS = ["file", "member", "game", "offset", "line", "column", "black", "white",
            "black_rank", "white_rank", "result", "date", "komi", "handicap", "size",
            "rules", "event", "round", "place", "game_name"]

    def test_keys_in_order(self):
        for data in (b"(;)", b"(;GN[g]PB[b]SZ[9]KM[1])(;PW[w])"):
            for h in sgfstream.headers(data):
                self.assertEqual(list(h), self.KEYS)

    @unittest.skipUnless(have_sgf(), "no sgf tool")
    def test_ascii_text_as_the_tool_reads_it(self):
        # plain ASCII text is taken as it is only where the game's charset
        # gives it as itself: not in UTF-7 ('+' starts a shift), EBCDIC or
        # UTF-16; the CA changing from game to game (and back)
        data = (b"(;CA[UTF-7]PB[a+AOk-b]PW[x~y]GN[1+2=3])(;PB[a+AOk-b]PW[t\\]ab\tc])"
                b"(;CA[IBM037]PB[Abc]PW[abcdefghijk])(;CA[UTF-16]PB[Ab])(;CA[UTF-7]PB[plain]RE[B+R])"
                b"(;CA[SHIFT_JIS]PB[a~b]PW[p\\q])(;CA[nonsense]PB[a\x7fb]PW[ok]RO[a\\\nb])"
                b"(;CA[UTF-16]PB[Ab])(;PB[a\tb]PW[\xc3\xa9t\xc3\xa9]EV[12345678\\9])")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.sgf")
            with open(path, "wb") as f:
                f.write(data)
            out = subprocess.run([SGF, "json", "--headers", "--quiet", path],
                                 capture_output=True, check=False).stdout
            got = list(sgfstream.headers(path))
        want = [json.loads(line) for line in out.decode("utf-8").splitlines()]
        self.assertEqual(len(got), 9)
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g["black"], w["black"])
            self.assertEqual({k: g[k] for k in self.KEYS[6:]}, {k: w[k] for k in self.KEYS[6:]})


@unittest.skipUnless(have_sgf() and os.path.isdir(CORPUS) and not os.environ.get("SGF_SKIP_CORPUS"),
                     "no sgf tool, no ../shared/corpus, or SGF_SKIP_CORPUS")
class TestCorpus(unittest.TestCase):
    """games() and headers() against `sgf stats --json` / `sgf json --headers`."""

    def test_games_against_stats(self):
        files = corpus_files()
        out = subprocess.run([SGF, "stats", "--json", "--quiet"] + files,
                             capture_output=True, check=False).stdout
        want = {}
        for r in json.loads(out)["files"]:
            want[r["name"]] = (r["games"], r["nodes"])
        got = {}
        for f in files:
            try:
                for g in sgfstream.games(f):
                    key = f if g.source.member is None else f + ":" + g.source.member
                    n, k = got.get(key, (0, 0))
                    got[key] = (n + 1, k + g.nodes)
            except sgfstream.SGFError as e:
                # a fatal diagnostic (UTF-16 input is read: not one)
                self.assertNotIn(e.diagnostics[-1].name, ("utf16", "utf16-input"), str(e))
                want.pop(f, None)
        want = {k: v for k, v in want.items() if v[0]}
        self.assertEqual(got, want)

    def test_headers_against_json(self):
        files = corpus_files()
        run = subprocess.run([SGF, "json", "--headers"] + files, capture_output=True, check=False)
        out = run.stdout
        # every diagnostic: the tool's lines, the dicts' and the streams'
        # Diagnostic objects (text that does not decode among them)
        want_text = [line for line in run.stderr.decode("utf-8", "surrogateescape").splitlines()
                     if re.match(r".*:[0-9]+:[0-9]+: (warning|error|fatal): ", line)]
        got_text = []
        want = []
        for line in out.decode("utf-8").splitlines():
            r = json.loads(line)
            s = r.pop("source")
            if isinstance(r["size"], list):
                r["size"] = tuple(r["size"])
            want.append(((s["file"], s["member"], s["game"], s["offset"], s["line"], s["column"]), r))
        got = []
        for f in files:  # UTF-16 ones too, converted as the tool reads them
            stream = sgfstream.headers(f)
            for h in stream:
                src = tuple(h.pop(k) for k in ("file", "member", "game", "offset", "line", "column"))
                got_text += [str(d) for d in h.pop("diagnostics", [])]
                got.append((src, h))
            got_text += [str(d) for d in stream.diagnostics]
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(g, w)
        # The same diagnostics, by place and message (the tool prints no
        # name after its own), the tool's notes on an unknown CA and an SZ
        # that is not a size included.
        strip = lambda line: re.sub(r" \[[a-z0-9-]+\]$", "", line)
        want_text = [strip(line) for line in want_text]
        self.assertGreater(len(want_text), 50)  # the corpus has its share (72)
        self.assertEqual(sorted(strip(line) for line in got_text), sorted(want_text))


@unittest.skipUnless(have_sgf() and os.path.isdir(CASES), "no sgf tool or no test/cases")
class TestHandlerGolden(unittest.TestCase):
    """A Handler's events against `sgf events`, whole and split anywhere."""

    def test_events_and_splits(self):
        cases = case_dirs()
        self.assertGreater(len(cases), 50)
        for d in cases:
            with open(os.path.join(d, "input.sgf"), "rb") as f:
                data = f.read()
            with open(os.path.join(d, "events"), "r", encoding="latin-1") as f:
                want = golden_events(f.read())
            kw = {"strict": os.path.exists(os.path.join(d, "strict"))}
            got, _ = record([data], **kw)
            self.assertEqual(got, want, d)
            # split in two at every byte (full: also byte by byte)
            step = 1 if FULL or len(data) < 400 else max(1, len(data) // 97)
            for k in range(0, len(data) + 1, step):
                self.assertEqual(record([data[:k], data[k:]], **kw)[0], want, "%s split at %d" % (d, k))
            self.assertEqual(record([data[i:i + 1] for i in range(len(data))], **kw)[0], want, d)


class TestParser(unittest.TestCase):
    DATA = b"(;GM[1]C[a\\]b];B[aa];W[bb](;B[cc])(;B[dd]))(;C[two])"

    def test_pause_resume_loses_nothing(self):
        want, _ = record([self.DATA])

        class Pauser(Recorder):
            def on_property(self, ident, values):
                super().on_property(ident, values)
                return sgfstream.PAUSE

        h = Pauser()
        p = sgfstream.Parser(h)
        h.parser = p
        buf = self.DATA
        pauses = 0
        while buf:
            used = p.feed(buf)
            buf = buf[used:]
            if p.paused:
                pauses += 1
                p.resume()
        while not p.finish():
            p.resume()
        self.assertEqual(h.events, want)
        self.assertEqual(pauses, 7)

    def test_skip_and_stop(self):
        class Skipper(Recorder):
            def on_tree_begin(self, depth):
                super().on_tree_begin(depth)
                return sgfstream.SKIP

        h = Skipper()
        p = sgfstream.Parser(h)
        h.parser = p
        p.feed(self.DATA)
        p.finish()
        props = [e[2] for e in h.events if e[0] == "P"]
        self.assertEqual(props, ["GM", "C", "B", "W", "C"])

        class Stopper(sgfstream.Handler):
            n = 0

            def on_node(self):
                self.n += 1
                return sgfstream.STOP if self.n == 2 else sgfstream.CONTINUE

        h = Stopper()
        p = sgfstream.Parser(h)
        used = p.feed(self.DATA)
        self.assertTrue(p.stopped)
        self.assertLess(used, len(self.DATA))
        with self.assertRaises(sgfstream.SGFError):
            p.feed(b"(;)")
        p.reset()
        self.assertEqual(p.feed(b"(;)"), 3)

    def test_only_overridden_methods(self):
        class Games(sgfstream.Handler):
            n = 0

            def on_game(self):
                self.n += 1

        h = Games()
        p = sgfstream.Parser(h)
        p.feed(self.DATA * 3)
        p.finish()
        self.assertEqual(h.n, 6)

    def test_handler_raises(self):
        class Bad(sgfstream.Handler):
            def on_property(self, ident, values):
                if ident == "B":
                    raise KeyError("boom")

        p = sgfstream.Parser(Bad())
        with self.assertRaises(KeyError):
            p.feed(self.DATA)
        p.reset()
        with self.assertRaises(KeyError):
            p.feed(self.DATA)

        class BadAnswer(sgfstream.Handler):
            def on_node(self):
                return 12345

        with self.assertRaises(ValueError):
            sgfstream.Parser(BadAnswer()).feed(self.DATA)

    def test_strict_parser(self):
        p = sgfstream.Parser(sgfstream.Handler(), strict=True, file="x.sgf")
        with self.assertRaises(sgfstream.SGFError) as cm:
            p.feed(b"(;b[aa])")
        d = cm.exception.diagnostics[0]
        self.assertEqual((d.file, d.line, d.column, d.name), ("x.sgf", 1, 3, "lowercase-ident"))

    def test_feed_inside_handler(self):
        class Reenter(sgfstream.Handler):
            def on_node(self):
                self.p.feed(b"(;)")

        h = Reenter()
        h.p = sgfstream.Parser(h)
        with self.assertRaises(RuntimeError):
            h.p.feed(b"(;)")


class TestBadInput(unittest.TestCase):
    def test_random_bytes(self):
        rnd = random.Random(29)
        for i in range(300 if not SAN else 60):
            n = rnd.randrange(0, 600)
            alphabet = b"();[]\\BWCaz \n\x00\xff:"
            data = bytes(rnd.choice(alphabet) if rnd.random() < 0.8 else rnd.randrange(256) for _ in range(n))
            for fn in (lambda: list(sgfstream.games(data)), lambda: list(sgfstream.headers(data)),
                       lambda: record([data[:n // 2], data[n // 2:]])):
                try:
                    fn()
                except sgfstream.SGFError:
                    pass

    def test_truncated_archives(self):
        data = b"".join(b"(;GM[1]PB[p%d];B[aa];W[bb])\n" % i for i in range(3000))
        for kind in ("gz", "xz", "bz2", "zip", "tar"):
            buf = io.BytesIO()
            if kind == "gz":
                buf.write(gzip.compress(data))
            elif kind == "xz":
                buf.write(lzma.compress(data))
            elif kind == "bz2":
                import bz2
                buf.write(bz2.compress(data))
            elif kind == "zip":
                with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                    z.writestr("a.sgf", data)
            else:
                with tarfile.open(fileobj=buf, mode="w") as t:
                    ti = tarfile.TarInfo("a.sgf")
                    ti.size = len(data)
                    t.addfile(ti, io.BytesIO(data))
            whole = buf.getvalue()
            self.assertEqual(len(list(sgfstream.games(whole))), 3000, kind)
            for cut in (len(whole) // 3, len(whole) - 7):
                try:
                    n = len(list(sgfstream.games(whole[:cut])))
                except (sgfstream.SGFError, EOFError, zipfile.BadZipFile, tarfile.TarError) as e:
                    self.assertIsInstance(e, sgfstream.SGFError, "%s cut at %d: %r" % (kind, cut, e))
                    continue
                self.assertLess(n, 3001, kind)

    def test_closed_file(self):
        f = open(__file__, "rb")
        f.close()
        with self.assertRaises(ValueError):
            list(sgfstream.games(f))

    def test_reader_that_fails(self):
        class Broken(io.RawIOBase):
            def readable(self):
                return True

            def readinto(self, b):
                raise OSError("disk on fire")

        with self.assertRaises(OSError):
            list(sgfstream.games(Broken()))

    def test_bad_arguments(self):
        with self.assertRaises(TypeError):
            list(sgfstream.games(12))
        with self.assertRaises(ValueError):
            list(sgfstream.headers(b"(;)", charset="no-such-charset"))


class Generated(io.RawIOBase):
    """total bytes of generated games, made on the fly (nothing on disk)."""

    def __init__(self, total, moves=200):
        game = bytearray(b"(;GM[1]FF[4]SZ[19]PB[black]PW[white]KM[6.5]RE[B+R]\n")
        rnd = random.Random(1)
        for i in range(moves):
            game += b";%c[%c%c]" % (b"BW"[i % 2], 97 + rnd.randrange(19), 97 + rnd.randrange(19))
            if i % 10 == 9:
                game += b"\n"
        game += b")\n"
        self.game = bytes(game)
        self.block = self.game * max(1, (1 << 20) // len(game))
        self.left = total

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), len(self.block), self.left)
        b[:n] = self.block[:n]
        # rotate so that the next read goes on where this one stopped
        self.block = self.block[n:] + self.block[:n]
        self.left -= n
        return n


def run_child(code):
    env = dict(os.environ)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, text=True)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


class TestMemory(unittest.TestCase):
    def test_bounded_memory(self):
        total = (2 << 30) if FULL else (64 << 20 if not SAN else 8 << 20)
        code = """
import json, resource, sys
sys.path.insert(0, %r)
import sgfstream, test_stream
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
n = moves = 0
for g in sgfstream.games(test_stream.Generated(%d)):
    n += 1; moves += len(g.moves())
print(json.dumps([n, moves, before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))
""" % (os.path.dirname(os.path.abspath(__file__)), total)
        n, moves, before, after = run_child(code)
        self.assertGreater(n, 1000)
        self.assertEqual(moves // 600, n - 1)  # the last game is cut off
        # peak RSS of the whole process (KiB on Linux) stays under 64 MiB
        # more than the interpreter's at start, whatever the total
        self.assertLess(after - before, 64 * 1024, (before, after))

    def test_huge_game_window_shrinks(self):
        big = b"(;C[" + b"x" * (8 << 20) + b"])" + b"(;B[aa])" * 1000
        n = sum(1 for _ in sgfstream.games(big))
        self.assertEqual(n, 1001)

    def test_no_leak(self):
        count = 100_000 if not SAN else 10_000
        data = b"".join(b"(;GM[1]PB[p]KM[6.5];B[aa];W[bb]C[c]) x" for _ in range(1000))

        def work(rounds):
            for _ in range(rounds):
                for g in sgfstream.games(data):
                    g.moves(), g.source, g.diagnostics, g.data
                for h in sgfstream.headers(data):
                    h["black"]
                rec = Recorder()
                p = sgfstream.Parser(rec)
                rec.parser = p
                p.feed(data[:5000])
                p.finish()
                try:
                    list(sgfstream.games(data[:200], strict=True))
                except sgfstream.SGFError:
                    pass

        work(5)
        gc.collect()
        blocks = sys.getallocatedblocks()
        objects = len(gc.get_objects())
        work(count // 1000)
        gc.collect()
        # a leak of one object a game would be 100,000 blocks
        self.assertLess(sys.getallocatedblocks() - blocks, 2000)
        self.assertLess(len(gc.get_objects()) - objects, 500)


if __name__ == "__main__":
    unittest.main()
