"""games() and headers() over what the standard library cannot read: zstd,
lz4, 7z (and the other libarchive formats), read through libarchive in C
(src/archive.c), as the sgf tool reads them.

The archives are made here with the command-line tools (zstd, lz4, 7z or
7za or bsdtar); a format whose tool is missing is skipped. The members'
names and their games are checked against `sgf stats --json` of the
build tree (SGF_BUILD_DIR), the tool whose reading the binding follows.
"""

import io
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

import sgfstream

BUILD = os.environ.get("SGF_BUILD_DIR", "")
SGF = os.path.join(BUILD, "sgf")
# sgfstream._archive is built when pkg-config finds libarchive; without
# it the formats below raise SGFError (TestWithoutLibarchive), and their
# tests skip
try:
    from sgfstream import _archive  # noqa: F401
    HAVE_LIBARCHIVE = True
except ImportError:
    HAVE_LIBARCHIVE = False


def have_sgf():
    return BUILD and os.access(SGF, os.X_OK)


def games_text(n, seed):
    """n games whose text does not compress to nothing (a cut of the
    compressed stream falls among them)."""
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        c = bytes(rnd.choice(b"abcdefghijklmnopqrstuvwxyz ") for _ in range(60))
        out.append(b"(;GM[1]FF[4]PB[p%d]RE[%s]C[%s];B[%c%c];W[dd])\n"
                   % (i, b"BW"[i % 2:i % 2 + 1] + b"+R", c, 97 + i % 19, 97 + i % 17))
    return b"".join(out)


def sevenzip():
    """A command making a 7z archive: argv before (archive, files...)."""
    for t in ("7z", "7za", "7zr"):
        if shutil.which(t):
            return [t, "a", "-bd", "-y"]
    if shutil.which("bsdtar"):
        return ["bsdtar", "--format", "7zip", "-cf"]
    return None


def run_bare(code):
    """code run by this interpreter with -S (no site, whose .pth files may
    import modules themselves): the CompletedProcess, text."""
    return subprocess.run([sys.executable, "-S", "-c", code], capture_output=True,
                          text=True, env=dict(os.environ))


class Case(unittest.TestCase):
    def same(self, got, want, what=""):
        """got == want, told without a diff of thousands of games."""
        got, want = list(got), list(want)
        if got != want:
            i = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b),
                     min(len(got), len(want)))
            self.fail("%s: %d items, %d wanted; first difference at %d: %r, wanted %r"
                      % (what, len(got), len(want), i, got[i:i + 1], want[i:i + 1]))


class NotSeekable(io.RawIOBase):
    """A pipe-like reader over bytes: readinto() only."""

    def __init__(self, data):
        self._b = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, b):
        return self._b.readinto(b)


@unittest.skipUnless(HAVE_LIBARCHIVE, "sgfstream._archive not built (no libarchive)")
class TestLibarchive(Case):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="sgfpy-archive.")
        self.data = games_text(8000, 29)  # 1 MB: blocks of zstd and lz4 -B4
        self.n = self.data.count(b"(;")
        self.plain = os.path.join(self.tmp, "g.sgf")
        with open(self.plain, "wb") as f:
            f.write(self.data)
        self.want = [g.data for g in sgfstream.games(self.data)]
        self.assertEqual(len(self.want), self.n)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_tool(self, argv, **kw):
        subprocess.run(argv, check=True, cwd=self.tmp, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, **kw)

    def compressed(self, tool, suffix, *opts):
        """g.sgf compressed by tool into g.sgf<suffix>, or a skip."""
        if not shutil.which(tool):
            self.skipTest("no %s to make a %s file" % (tool, suffix))
        out = self.plain + suffix
        with open(self.plain, "rb") as i, open(out, "wb") as o:
            subprocess.run([tool, "-q", "-c"] + list(opts), stdin=i, stdout=o, check=True)
        return out

    def tool_files(self, path):
        """`sgf stats --json` of path: [(name, games)]."""
        if not have_sgf():
            return None
        r = subprocess.run([SGF, "stats", "--json", "--quiet", path], capture_output=True)
        return [(f["name"], f["games"]) for f in json.loads(r.stdout)["files"]]

    def check_stream(self, path):
        """A compressed single file: the games of g.sgf, member None, from
        the path, its bytes and a reader that cannot seek; as the tool."""
        got = [(g.source.file, g.source.member, g.data) for g in sgfstream.games(path)]
        self.same(got, [(path, None, d) for d in self.want], path)
        with open(path, "rb") as f:
            raw = f.read()
        self.same([g.data for g in sgfstream.games(raw)], self.want, "bytes")
        self.same([g.data for g in sgfstream.games(NotSeekable(raw))], self.want, "pipe")
        with open(path, "rb") as f:
            self.same([g.data for g in sgfstream.games(f)], self.want, "file object")
        hs = list(sgfstream.headers(path))
        self.same([h["black"] for h in hs], ["p%d" % i for i in range(self.n)], "headers")
        tool = self.tool_files(path)
        if tool is not None:
            self.assertEqual(tool, [(path, self.n)])
        return raw

    def check_truncated(self, path, raw):
        """Cut short: SGFError naming the file, after some of the games
        before the cut (libarchive drops the block it was filling), never
        a crash or a hang; every game given is whole and in order."""
        for cut in (len(raw) // 2, len(raw) - 9):
            part = os.path.join(self.tmp, "cut-" + os.path.basename(path))
            with open(part, "wb") as f:
                f.write(raw[:cut])
            got = []
            with self.assertRaises(sgfstream.SGFError) as cm:
                for g in sgfstream.games(part):
                    got.append(g.data)
            self.assertIn(part, str(cm.exception))
            self.same(got, self.want[:len(got)], "cut at %d" % cut)
            self.assertLess(len(got), self.n)
            if cut == len(raw) // 2:
                self.assertGreater(len(got), 0, "no game before the cut at %d" % cut)
            with self.assertRaises(sgfstream.SGFError):
                list(sgfstream.headers(NotSeekable(raw[:cut])))

    def test_threads(self):
        """libarchive runs without the GIL: four threads reading zstd and
        xz files at once each get every game, as one thread does."""
        import threading
        paths = [self.compressed(t, s) for t, s in (("zstd", ".zst"), ("xz", ".xz"))]
        got = {}

        def read(i):
            got[i] = [g.data for g in sgfstream.games(paths[i % 2])]

        ts = [threading.Thread(target=read, args=(i,)) for i in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        for i in range(4):
            self.same(got[i], self.want, "thread %d" % i)

    def test_reentrant_call_refused(self):
        """A call on the reader made while libarchive is inside it (here
        by the source's own readinto, which libarchive calls) raises
        RuntimeError in that call instead of entering libarchive twice;
        the outer read goes on unharmed."""
        from sgfstream import _archive
        raw = open(self.compressed("zstd", ".zst"), "rb").read()
        seen = []

        class Source(NotSeekable):
            def readinto(self, b):
                if not seen:
                    try:
                        reader.readinto(bytearray(16))
                        seen.append("entered")
                    except RuntimeError as e:
                        seen.append(str(e))
                return super().readinto(b)

        reader = _archive.Archive(Source(raw), b"", "x.zst", None)
        self.assertTrue(reader.open())
        self.assertEqual(next(iter(reader)), None)  # one compressed stream
        out = bytearray()
        buf = bytearray(1 << 16)
        while True:
            k = reader.readinto(buf)
            if not k:
                break
            out += buf[:k]
        self.assertEqual(seen, ["sgfstream: an archive reader used by two threads at once"])
        self.assertEqual(bytes(out), self.data)

    def test_zstd(self):
        path = self.compressed("zstd", ".zst")
        raw = self.check_stream(path)
        self.check_truncated(path, raw)
        with self.assertRaisesRegex(sgfstream.SGFError, "^<stream>: .*[Tt]runcated zstd"):
            list(sgfstream.games(raw[:5]))  # the frame header cut

    def test_lz4(self):
        path = self.compressed("lz4", ".lz4", "-B4")  # 64 KiB blocks
        raw = self.check_stream(path)
        self.check_truncated(path, raw)

    def test_empty_zstd_is_an_empty_input(self):
        if not shutil.which("zstd"):
            self.skipTest("no zstd")
        raw = subprocess.run(["zstd", "-q", "-c"], input=b"", capture_output=True, check=True).stdout
        stream = sgfstream.games(raw)
        self.assertEqual(list(stream), [])
        self.assertEqual([d.name for d in stream.diagnostics], ["no-game-tree"])

    def make_set(self):
        """set/: two SGF files, a text file and an AppleDouble companion."""
        d = os.path.join(self.tmp, "set")
        os.makedirs(os.path.join(d, "sub"))
        half = self.data.index(b"(;GM[1]FF[4]PB[p4000]")
        with open(os.path.join(d, "a.sgf"), "wb") as f:
            f.write(self.data[:half])
        with open(os.path.join(d, "sub", "b.SGF"), "wb") as f:
            f.write(self.data[half:])
        with open(os.path.join(d, "readme.txt"), "wb") as f:
            f.write(b"(;not a game of the set)")
        with open(os.path.join(d, "._a.sgf"), "wb") as f:
            f.write(b"\0\5\26\7 AppleDouble (;)")
        return half

    def check_archive(self, path, half):
        got = [(g.source.file, g.source.member, g.source.index, g.data)
               for g in sgfstream.games(path)]
        members = sorted({m for _, m, _, _ in got})
        self.assertEqual(members, ["set/a.sgf", "set/sub/b.SGF"])
        by = {m: [d for _, mm, _, d in got if mm == m] for m in members}
        self.same(by["set/a.sgf"], self.want[:4000], "a.sgf")
        self.same(by["set/sub/b.SGF"], self.want[4000:], "b.SGF")
        self.assertTrue(all(f == path for f, _, _, _ in got))
        self.assertEqual([i for _, m, i, _ in got if m == "set/a.sgf"], list(range(4000)))
        hs = [(h["file"], h["member"], h["game"], h["black"]) for h in sgfstream.headers(path)]
        self.same(hs, [(f, m, i, "p%d" % (i + (4000 if m.endswith("b.SGF") else 0)))
                              for f, m, i, _ in got], "headers")
        tool = self.tool_files(path)
        if tool is not None:  # the tool's names: FILE:MEMBER, in its order
            order = []
            for _, m, _, _ in got:
                if not order or order[-1] != m:
                    order.append(m)
            self.assertEqual(tool, [("%s:%s" % (path, m), len(by[m])) for m in order])

    def test_7z(self):
        cmd = sevenzip()
        if cmd is None:
            self.skipTest("no 7z, 7za, 7zr or bsdtar to make a 7z archive")
        half = self.make_set()
        path = os.path.join(self.tmp, "set.7z")
        self.run_tool(cmd + [path, "set"])
        self.check_archive(path, half)
        with open(path, "rb") as f:
            raw = f.read()
        self.assertEqual(len(list(sgfstream.games(raw))), self.n)  # bytes: seekable
        # a 7z archive keeps its index at the end: a reader that cannot
        # seek cannot read it (nor can the tool from a pipe)
        with self.assertRaises(sgfstream.SGFError):
            list(sgfstream.games(NotSeekable(raw)))
        # damaged in the middle of the packed data: SGFError, no crash
        bad = bytearray(raw)
        for i in range(len(bad) // 3, len(bad) // 3 + 64):
            bad[i] ^= 0x5A
        with self.assertRaises(sgfstream.SGFError):
            list(sgfstream.games(bytes(bad)))
        with self.assertRaises(sgfstream.SGFError) as cm:
            list(sgfstream.games(raw[:len(raw) // 2]))
        self.assertIn("<stream>", str(cm.exception))

    def test_tar_zstd(self):
        if not shutil.which("zstd"):
            self.skipTest("no zstd")
        half = self.make_set()
        tar = os.path.join(self.tmp, "set.tar")
        with tarfile.open(tar, "w") as t:
            t.add(os.path.join(self.tmp, "set"), "set")
        path = tar + ".zst"
        self.run_tool(["zstd", "-q", "--rm", tar, "-o", path])
        self.check_archive(path, half)
        # from a pipe: a tar is read in one pass
        with open(path, "rb") as f:
            n = len(list(sgfstream.games(NotSeekable(f.read()))))
        self.assertEqual(n, self.n)

    def test_member_compressed_by_zstd(self):
        """A zip member x.sgf.zst (a name the tool takes too) and a
        directory's x.sgf.zst: decompressed through libarchive."""
        if not shutil.which("zstd"):
            self.skipTest("no zstd")
        zst = subprocess.run(["zstd", "-q", "-c"], input=self.data, capture_output=True,
                             check=True).stdout
        import zipfile
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr("in/x.sgf.zst", zst)
        got = [(g.source.member, g.data) for g in sgfstream.games(buf.getvalue())]
        self.same(got, [("in/x.sgf.zst", d) for d in self.want], "zip member")
        d = os.path.join(self.tmp, "dir")
        os.makedirs(d)
        with open(os.path.join(d, "x.sgf.zst"), "wb") as f:
            f.write(zst)
        with open(os.path.join(d, "y.txt.zst"), "wb") as f:
            f.write(zst)
        got = [(g.source.file, g.data) for g in sgfstream.games(d)]
        self.same(got, [(os.path.join(d, "x.sgf.zst"), w) for w in self.want], "directory")

    def test_looks_like_an_archive_but_is_plain(self):
        """A plain file that begins as a text archive format's magic
        ("LZIP", "070707"): read as plain SGF, as the tool reads it."""
        for data in (b"LZIP(;GM[1]PB[x])", b"070707\n(;GM[1]PB[x])"):
            path = os.path.join(self.tmp, "odd.txt")
            with open(path, "wb") as f:
                f.write(data)
            for src in (path, data, NotSeekable(data)):
                gs = list(sgfstream.games(src))
                self.assertEqual([g.data for g in gs], [b"(;GM[1]PB[x])"], (data, src))
                self.assertEqual([d.name for d in gs[0].diagnostics], ["junk-before"])

    def test_reader_error_is_raised_as_it_is(self):
        class Fails(io.RawIOBase):
            def __init__(self, head):
                self.head = head

            def readable(self):
                return True

            def readinto(self, b):
                if self.head:
                    n = len(self.head)
                    b[:n] = self.head
                    self.head = b""
                    return n
                raise OSError("disk on fire")

        if not shutil.which("zstd"):
            self.skipTest("no zstd")
        zst = subprocess.run(["zstd", "-q", "-c"], input=self.data, capture_output=True,
                             check=True).stdout
        with self.assertRaisesRegex(OSError, "disk on fire"):
            list(sgfstream.games(Fails(zst[:600])))


    def test_no_leak(self):
        """Archives read whole, broken off, and abandoned half-read keep
        no reference to their source (the file object, its name) once
        the iteration is done with."""
        import gc
        if not shutil.which("zstd"):
            self.skipTest("no zstd")
        zst = subprocess.run(["zstd", "-q", "-c"], input=self.data[:200000],
                             capture_output=True, check=True).stdout
        whole = os.path.join(self.tmp, "w.sgf.zst")
        cut = os.path.join(self.tmp, "c.sgf.zst")
        with open(whole, "wb") as f:
            f.write(zst)
        with open(cut, "wb") as f:
            f.write(zst[:len(zst) // 2])
        with open(whole, "rb") as fw, open(cut, "rb") as fc:
            before = (sys.getrefcount(fw), sys.getrefcount(fc), sys.getrefcount(fw.name))
            for _ in range(20):
                fw.seek(0)
                self.assertGreater(sum(1 for _ in sgfstream.games(fw)), 1000)
                fw.seek(0)
                it = sgfstream.headers(fw)
                next(it)
                it.close()
                del it
                fc.seek(0)
                with self.assertRaises(sgfstream.SGFError):
                    list(sgfstream.games(fc))
            gc.collect()
            self.assertEqual((sys.getrefcount(fw), sys.getrefcount(fc), sys.getrefcount(fw.name)),
                             before)


class TestNoSgfMember(unittest.TestCase):
    """An archive without an SGF file in it is SGFError, as the sgf tool
    reports it ("no .sgf file in this ... archive"), not an empty
    stream; one with an SGF file among others reads its games."""

    def test_zip_tar_7z(self):
        import zipfile
        with tempfile.TemporaryDirectory() as tmp:
            readme = os.path.join(tmp, "readme.txt")
            game = os.path.join(tmp, "g.sgf")
            with open(readme, "w") as f:
                f.write("no games here\n")
            with open(game, "wb") as f:
                f.write(b"(;PB[x];B[aa])")
            made = []
            for kind, members in (("zip", [readme]), ("zip", [readme, game]),
                                  ("tar", [readme]), ("tar", [readme, game])):
                path = os.path.join(tmp, "%s%d.%s" % (kind, len(members), kind))
                if kind == "zip":
                    with zipfile.ZipFile(path, "w") as z:
                        for m in members:
                            z.write(m, os.path.basename(m))
                else:
                    with tarfile.open(path, "w") as t:
                        for m in members:
                            t.add(m, os.path.basename(m))
                made.append((kind, path, len(members)))
            cmd = sevenzip()
            if HAVE_LIBARCHIVE and cmd:
                for members in ([readme], [readme, game]):
                    path = os.path.join(tmp, "s%d.7z" % len(members))
                    subprocess.run(cmd + [path] + members, check=True,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    made.append(("7z", path, len(members)))
            for kind, path, n in made:
                if n == 1:
                    with self.assertRaisesRegex(
                            sgfstream.SGFError,
                            r"%s: no \.sgf file in this %s archive \(1 member\)"
                            % (re.escape(path), kind)):
                        list(sgfstream.games(path))
                    with self.assertRaises(sgfstream.SGFError):
                        list(sgfstream.headers(path))
                else:
                    self.assertEqual([h["black"] for h in sgfstream.headers(path)], ["x"], path)


class TestWithoutLibarchive(unittest.TestCase):
    def test_built_with_it_when_found(self):
        """setup.py links libarchive whenever pkg-config finds it."""
        if os.environ.get("SGFSTREAM_NO_LIBARCHIVE", "") not in ("", "0"):
            self.skipTest("SGFSTREAM_NO_LIBARCHIVE is set")
        try:
            found = subprocess.run(["pkg-config", "--exists", "libarchive"]).returncode == 0
        except OSError:
            found = False
        if not found:
            self.skipTest("pkg-config finds no libarchive")
        self.assertTrue(HAVE_LIBARCHIVE)

    def test_not_imported_until_needed(self):
        """`import sgfstream` does not load libarchive (and its libraries):
        _archive is imported by the first input that needs it."""
        code = ("import sys, sgfstream; list(sgfstream.games(b'(;)'));"
                "print('sgfstream._archive' in sys.modules)")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(r.stdout.strip(), "False", r.stderr)

    def test_stdlib_decoders_not_imported_until_needed(self):
        """`import sgfstream` and reading plain input load none of gzip,
        bz2, lzma, tarfile, zipfile (two thirds of the import's time);
        a gzip input loads gzip and still maps its damage to SGFError.
        (-S: no site, whose .pth files may import zipfile themselves.)"""
        mods = ("gzip", "bz2", "lzma", "tarfile", "zipfile")
        code = ("import sys, sgfstream; list(sgfstream.games(b'(;B[aa])'));"
                "list(sgfstream.headers(b'(;PB[x])'));"
                "print(' '.join(m for m in %r if m in sys.modules))" % (mods,))
        r = run_bare(code)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "", "imported at start: " + r.stdout)
        code = ("import gzip, sys, sgfstream\n"
                "data = gzip.compress(b'(;B[aa])(;B[bb])' * 100)[:-30]\n"
                "try:\n"
                "    list(sgfstream.games(data))\n"
                "except sgfstream.SGFError as e:\n"
                "    print('SGFError', 'breaks off' in str(e))\n")
        r = run_bare(code)
        self.assertEqual(r.stdout.strip(), "SGFError True", r.stderr)

    def test_array_not_imported_until_needed(self):
        """headers() never loads array (it loads collections: a sixth of
        `import sgfstream`); the first .moves() does, and gives an
        array.array('B') from a GameRecord and from a Game."""
        code = ("import sys, sgfstream; list(sgfstream.headers(b'(;PB[x];B[aa])'));"
                "print('array' in sys.modules, end=' ');"
                "g = next(sgfstream.games(b'(;B[ab];W[ba])'));"
                "print(g.moves().tolist(), end=' ');"
                "print(type(g.game.moves()).__module__, 'array' in sys.modules)")
        r = run_bare(code)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "False [1, 0, 1, 2, 1, 0] array True")

    def test_clear_error(self):
        """Built without libarchive (no sgfstream._archive): zstd, 7z...
        raise SGFError saying so; plain and gzip inputs are read as
        before."""
        saved = sgfstream._archive_module
        sgfstream._archive_module = lambda: (None, "No module named 'sgfstream._archive'")
        try:
            with self.assertRaisesRegex(sgfstream.SGFError, r"x\.zst: zstd input .*libarchive"):
                with tempfile.TemporaryDirectory() as tmp:
                    p = os.path.join(tmp, "x.zst")
                    with open(p, "wb") as f:
                        f.write(b"\x28\xb5\x2f\xfd" + b"\0" * 20)
                    list(sgfstream.games(p))
            with self.assertRaisesRegex(sgfstream.SGFError, "7z input"):
                list(sgfstream.games(b"7z\xbc\xaf\x27\x1c" + b"\0" * 40))
            self.assertEqual(len(list(sgfstream.games(b"LZIP(;)"))), 1)
            self.assertEqual(len(list(sgfstream.games(b"(;)(;)"))), 2)
        finally:
            sgfstream._archive_module = saved


if __name__ == "__main__":
    unittest.main()
