"""headers(): header text that does not decode in the game's charset.

The text is still given (read as ISO-8859-1), and the game's dict gets a
"diagnostics" key (only then) with the Diagnostic `sgf json --headers`
prints for it: the same position (the byte that does not decode), the
same severity and message; named bad-utf8 (40) under UTF-8, else bad-text
(100). In strict mode it is SGFError, after the games before it.
"""

import io
import os
import re
import subprocess
import tempfile
import unittest
import zipfile

import sgfstream

BUILD = os.environ.get("SGF_BUILD_DIR", "")
SGF = os.path.join(BUILD, "sgf")

# game 1: an escaped ']', a CR LF and a soft line break before the bad
# byte; a second bad field. game 2: Shift_JIS. game 3: no CA (the
# default reads any byte). game 4: windows-1252's unassigned 0x81.
# game 5: EUC-KR.
DATA = (b"(;CA[UTF-8]PB[ok]PW[a\\]b\r\nc\\\n\xe9x]GN[\xff])\n"
        b"(;CA[Shift_JIS]PB[\x82\xa0\xff]EV[fine])\n"
        b"(;PB[\xe9]C[x])\n"
        b"(;CA[windows-1252]PB[\x81])\n"
        b"(;CA[EUC-KR]RE[\xb0\xa1\xff])")

# FILE:LINE:COL: what `sgf json --headers` says of DATA (checked against
# the tool below when it is built)
WANT = [
    (0, "white", 3, 1, "bad-utf8", "UTF-8", 0xE9),
    (0, "game_name", 3, 7, "bad-utf8", "UTF-8", 0xFF),
    (1, "black", 4, 21, "bad-text", "Shift_JIS", 0xFF),
    (3, "black", 6, 22, "bad-text", "windows-1252", 0x81),
    (4, "result", 7, 18, "bad-text", "EUC-KR", 0xFF),
]


def message(charset, byte):
    return ("text does not decode as %s (byte 0x%02x); the value is written as ISO-8859-1"
            % (charset, byte))


class TestHeaderText(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sgfpy-text.")
        self.path = os.path.join(self.tmp, "multi.sgf")
        with open(self.path, "wb") as f:
            f.write(DATA)

    def tearDown(self):
        for f in os.listdir(self.tmp):
            os.unlink(os.path.join(self.tmp, f))
        os.rmdir(self.tmp)

    def test_diagnostics_on_the_dict(self):
        hs = list(sgfstream.headers(self.path))
        self.assertEqual(len(hs), 5)
        got = [(h["game"], d) for h in hs for d in h.get("diagnostics", [])]
        self.assertEqual(len(got), len(WANT))
        for (game, d), (wgame, _, line, col, name, cs, byte) in zip(got, WANT):
            self.assertEqual((game, d.file, d.line, d.column, d.name, d.severity, d.message),
                             (wgame, self.path, line, col, name, "error", message(cs, byte)))
            self.assertEqual(d.code, 40 if name == "bad-utf8" else 100)
            self.assertEqual(DATA[d.offset], byte)  # the offset is the byte's
        # only then: the keys of a game whose text decodes are as ever
        self.assertNotIn("diagnostics", hs[2])
        self.assertEqual(list(hs[0])[-1], "diagnostics")
        # the text is still given, read as ISO-8859-1
        self.assertEqual(hs[0]["white"], "a]b c\u00e9x")  # CR LF: a space (SimpleText)
        self.assertEqual(hs[0]["game_name"], "\u00ff")
        self.assertEqual(hs[1]["event"], "fine")
        self.assertEqual(hs[2]["black"], "\u00e9")

    @unittest.skipUnless(BUILD and os.access(SGF, os.X_OK), "no sgf tool")
    def test_as_the_tool_says_it(self):
        r = subprocess.run([SGF, "json", "--headers", self.path], capture_output=True)
        want = [line for line in r.stderr.decode("utf-8").splitlines()
                if "text does not decode" in line]
        got = [str(d) for h in sgfstream.headers(self.path) for d in h.get("diagnostics", [])]
        self.assertEqual(got, [w + " [%s]" % x[4] for w, x in zip(want, WANT)])
        self.assertEqual(len(want), len(WANT))

    def test_header_notes(self):
        """The tool's two notes on the header itself, as warnings that stop
        nothing (strict mode neither): an SZ that is not a size (its text
        is given) and a CA iconv does not know (text read as UTF-8, else
        ISO-8859-1); at the '[' of the value, in input order with the
        game's others; the same lines `sgf json --headers` prints."""
        data = b"(;SZ[x]\nCA[no-such-cs]PB[caf\xc3\xa9];B[aa])(;SZ[9:x];B[bb])(;SZ[13]CA[latin1])"
        path = os.path.join(self.tmp, "notes.sgf")
        with open(path, "wb") as f:
            f.write(data)
        for strict in (False, True):
            hs = list(sgfstream.headers(path, strict=strict))
            self.assertEqual([(h["size"], h["black"]) for h in hs],
                             [("x", "caf\u00e9"), ("9:x", None), ((13, 13), None)])
            got = [[(d.line, d.column, d.code, d.name, d.severity, d.message)
                    for d in h.get("diagnostics", [])] for h in hs]
            self.assertEqual(got, [
                [(1, 5, 101, "bad-size", "warning", "SZ: not a board size; 19 x 19 assumed"),
                 (2, 3, 102, "unknown-charset", "warning", "CA[no-such-cs]: a charset iconv "
                  "does not know; text read as UTF-8, else ISO-8859-1")],
                [(2, 35, 101, "bad-size", "warning", "SZ: not a board size; 19 x 19 assumed")],
                []])
        if BUILD and os.access(SGF, os.X_OK):
            r = subprocess.run([SGF, "json", "--headers", path], capture_output=True)
            want = [line for line in r.stderr.decode("utf-8").splitlines() if ": warning: " in line]
            got = [re.sub(r" \[[a-z-]+\]$", "", str(d))
                   for h in sgfstream.headers(path) for d in h.get("diagnostics", [])]
            self.assertEqual(got, want)

    def test_root_across_reads(self):
        """A root node read in many pieces (a reader giving a few bytes at
        a time; a comment of 600 KB between the bad value and the node's
        end): the same diagnostics where the whole input gives them."""
        class Trickle(io.RawIOBase):
            def __init__(self, data, n):
                self.b, self.n = io.BytesIO(data), n

            def readable(self):
                return True

            def readinto(self, b):
                return self.b.readinto(memoryview(b)[:self.n])

        big = b"(;CA[UTF-8]\nPB[a\xe9]C[" + b"x\n" * 300000 + b"]PW[\xff])" + DATA
        whole = [(h["game"], list(h.get("diagnostics", []))) for h in sgfstream.headers(big)]
        self.assertEqual([(d.line, d.column) for d in whole[0][1]], [(2, 5), (300002, 5)])
        for n in (3, 4096):
            got = [(h["game"], list(h.get("diagnostics", [])))
                   for h in sgfstream.headers(Trickle(DATA, n))]
            want = [(h["game"], list(h.get("diagnostics", []))) for h in sgfstream.headers(DATA)]
            self.assertEqual(got, want, n)
        got = [(h["game"], list(h.get("diagnostics", []))) for h in sgfstream.headers(Trickle(big, 65536))]
        self.assertEqual(got, whole)

    def test_strict_raises_after_the_games_before(self):
        data = b"(;CA[UTF-8]PB[fine])" + DATA
        got = []
        with self.assertRaises(sgfstream.SGFError) as cm:
            for h in sgfstream.headers(data, strict=True):
                got.append(h["black"])
        self.assertEqual(got, ["fine"])
        e = cm.exception
        self.assertEqual([(d.line, d.column, d.name) for d in e.diagnostics], [(3, 1, "bad-utf8")])
        self.assertIn("1:3:1: error: text does not decode as UTF-8 (byte 0xe9)", "1:" + str(e))

    def test_charset_override(self):
        h = next(iter(sgfstream.headers(b"(;PB[caf\xe9])", charset="UTF-8")))
        self.assertEqual(h["black"], "caf\u00e9")
        self.assertEqual([(d.file, d.line, d.column, d.name) for d in h["diagnostics"]],
                         [(None, 1, 9, "bad-utf8")])
        # the same bytes as the default reads them: nothing to say
        h = next(iter(sgfstream.headers(b"(;PB[caf\xe9])")))
        self.assertNotIn("diagnostics", h)

    def test_archive_member_named_as_the_tool_names_it(self):
        zpath = os.path.join(self.tmp, "set.zip")
        with zipfile.ZipFile(zpath, "w") as z:
            z.writestr("in/multi.sgf", DATA)
        ds = [d for h in sgfstream.headers(zpath) for d in h.get("diagnostics", [])]
        self.assertEqual({d.file for d in ds}, {zpath + ":in/multi.sgf"})
        self.assertEqual(len(ds), len(WANT))
        # and the parser's own diagnostics likewise
        g = next(iter(sgfstream.games(io.BytesIO(b"x(;)"))))
        self.assertEqual(g.diagnostics[0].file, None)
        with zipfile.ZipFile(zpath, "w") as z:
            z.writestr("j.sgf", b"junk(;)")
        g = next(iter(sgfstream.games(zpath)))
        self.assertEqual([(d.file, d.name) for d in g.diagnostics], [(zpath + ":j.sgf", "junk-before")])


if __name__ == "__main__":
    unittest.main()
