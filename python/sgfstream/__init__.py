"""sgfstream: SGF (Smart Game Format) game records at C speed.

Streaming, in memory bounded by the largest game whatever the input's size::

    import sgfstream
    for game in sgfstream.games("games.tar.xz"):     # a path, file object or bytes
        print(game.source.file, game.source.member, len(game.moves()) // 3)
    for h in sgfstream.headers("collection.sgf"):     # the root's header fields
        print(h["black"], h["white"], h["komi"])

games() yields GameRecord objects: the game's bytes (.data), where it came
from (.source: file, archive member, index, offset, line, column), its
Diagnostic objects (.diagnostics) and its main line's moves as a compact
array (.moves()); touching anything else (.root, ...) parses the game into
a tree (sgfstream.tree). headers() yields one dict a game with the header
fields typed (komi a float, handicap an int, size a (width, height) pair,
text as str decoded by the game's CA), reading only each game's root node.

Handlers, called per property at most, never per byte, and the push parser
for network code (the C parser's contract: split anywhere, PAUSE and
resume)::

    class Count(sgfstream.Handler):
        games = 0
        def on_game(self):
            self.games += 1
            return sgfstream.CONTINUE

    h = Count(); p = sgfstream.Parser(h)
    p.feed(b"(;GM[1]"); p.feed(b";B[aa])"); p.finish()

Problems in the input are Diagnostic objects with their file, line and
column; strict mode (strict=True) raises SGFError carrying them at the
first deviation from FF[4]. Trees (Game, Node, Board) are in
sgfstream.tree; a drop-in for sgfmill is sgfstream.sgfmill.
"""

# gzip, bz2, lzma, tarfile and zipfile are imported where an input needs
# them: together they were two thirds of `import sgfstream` (15 of 22 ms).
import io
import os
import sys

from . import _core
from ._core import (  # noqa: F401
    CONTINUE,
    LIBRARY_VERSION,
    MOVE_INVALID,
    MOVE_PASS,
    PAUSE,
    SKIP,
    STOP,
    Diagnostic,
    GameRecord,
    Handler,
    Parser,
    SGFError,
    Source,
)

__version__ = "1.1.0"

__all__ = [
    "games", "headers", "read_inputs", "GameStream",
    "GameRecord", "Source", "Diagnostic", "SGFError",
    "Handler", "Parser",
    "CONTINUE", "SKIP", "PAUSE", "STOP",
    "MOVE_PASS", "MOVE_INVALID", "LIBRARY_VERSION",
]

_CHUNK = 1 << 20


# What libarchive reads and the standard library does not, by first bytes
# (as the sgf tool tells them, tools/io/archive.c): kind, magic, offset,
# sure. A sure magic is binary: an SGF file never begins so. The others
# could begin a plain file by chance: when libarchive reads no archive
# there, the input is read as plain SGF.
_LIBARCHIVE_MAGIC = (
    ("zstd", b"\x28\xb5\x2f\xfd", True),
    ("lz4", b"\x04\x22\x4d\x18", True),
    ("lz4", b"\x02\x21\x4c\x18", True),  # lz4 legacy
    ("7z", b"7z\xbc\xaf\x27\x1c", True),
    ("rar", b"Rar!\x1a\x07", True),
    ("compress", b"\x1f\x9d", True),
    ("lzma", b"\x5d\x00\x00", True),
    ("lzop", b"\x89LZO", True),
    ("cpio", b"\x71\xc7", True),
    ("cpio", b"\xc7\x71", True),
    ("lzip", b"LZIP", False),
    ("cab", b"MSCF", False),
    ("xar", b"xar!", False),
    ("ar", b"!<arch>\n", False),
    ("cpio", b"070707", False),
    ("cpio", b"070701", False),
    ("cpio", b"070702", False),
)


def _kind(head):
    """What the first bytes of an input say it is: gzip, bzip2, xz, zip,
    tar (the standard library's), a libarchive kind (_LIBARCHIVE_MAGIC) or
    plain."""
    if head[:2] == b"\x1f\x8b":
        return "gzip"
    if head[:3] == b"BZh":
        return "bzip2"
    if head[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    for kind, magic, _ in _LIBARCHIVE_MAGIC:
        if head.startswith(magic):
            return kind
    return "plain"


# The compression suffixes of an SGF file's name the sgf tool takes in a
# directory (x.sgf.gz, x.sgf.zst...; tools/io/walk.c).
_SGF_SUFFIXES = ("", ".gz", ".bz2", ".xz", ".zst", ".lz4", ".lzma", ".lz", ".z")


def _is_sgf_name(name):
    n = name.lower()
    for suffix in _SGF_SUFFIXES:
        if n.endswith(".sgf" + suffix):
            return True
    return False


def _is_sgf_member(name):
    """An archive member to read: an SGF name (_is_sgf_name), but not a
    macOS AppleDouble companion ("._x.sgf"), as the sgf tool has it."""
    return _is_sgf_name(name) and not os.path.basename(name).startswith("._")


class _Peek(io.RawIOBase):
    """A binary stream whose first bytes were read already to see its kind."""

    def __init__(self, head, f):
        self._head = head
        self._f = f
        self._readinto = getattr(f, "readinto", None)

    def readable(self):
        return True

    def readinto(self, b):
        if self._head:
            n = min(len(b), len(self._head))
            b[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        if self._readinto is not None:
            return self._readinto(b)
        data = self._f.read(len(b))
        b[: len(data)] = data
        return len(data)


def _open_stream(f, name):
    """Yield (member, binary reader) for a binary stream f: decompressed,
    and each .sgf member of a tar or zip archive in it."""
    head = f.read(512) if hasattr(f, "read") else b""
    if head is None:
        head = b""
    kind = _kind(head)
    if kind in ("gzip", "bzip2", "xz"):
        if kind == "gzip":
            from gzip import GzipFile as opener
        elif kind == "bzip2":
            from bz2 import BZ2File as opener
        else:
            from lzma import LZMAFile as opener
        inner = opener(fileobj=_Peek(head, f), mode="rb") if kind == "gzip" else opener(_Peek(head, f))
        head2 = inner.read(512)
        if _kind(head2) == "tar":
            yield from _tar_members(_Peek(head2, inner), name)
        else:
            yield None, _Peek(head2, inner)
    elif kind == "tar":
        yield from _tar_members(_Peek(head, f), name)
    elif kind == "zip":
        if name is not None and not hasattr(f, "seekable"):
            raise SGFError("%s: a zip archive needs a seekable file" % name)
        data = f if (hasattr(f, "seek") and f.seekable()) else None
        if data is not None:
            data.seek(0)
        else:
            data = io.BytesIO(head + f.read())
        import zipfile
        with zipfile.ZipFile(data) as z:
            sgf = 0
            for info in sorted(z.infolist(), key=lambda i: i.filename):
                if info.is_dir() or not _is_sgf_member(info.filename):
                    continue
                sgf += 1
                with z.open(info) as m:
                    yield from _member(info.filename, m, name)
            if sgf == 0:
                raise _no_sgf_member(name, "zip", len(z.infolist()))
    elif kind != "plain":
        yield from _libarchive(f, head, name, kind)
    else:
        yield None, _Peek(head, f)


def _archive_module():
    """(sgfstream._archive, None), the module of src/archive.c, imported
    on first use (it loads libarchive and its libraries into the process),
    or (None, why) when this build has none."""
    try:
        from . import _archive
    except ImportError as e:
        return None, str(e)
    return _archive, None


def _libarchive(f, head, name, kind):
    """Yield (member, reader) for what libarchive reads (src/archive.c):
    each regular SGF member of an archive, or (None, reader) for one
    compressed stream. f has been read up to the end of head."""
    sure = next(s for k, m, s in _LIBARCHIVE_MAGIC if k == kind and head.startswith(m))
    archive, why = _archive_module()
    if archive is None:
        if not sure:
            yield None, _Peek(head, f)
            return
        raise SGFError(
            "%s: %s input is read through libarchive, which this sgfstream "
            "lacks (%s; pkg-config found no libarchive when it was built? "
            "install libarchive-dev and rebuild); gzip, bzip2, xz, tar and zip "
            "are read without it" % (name or "<stream>", kind, why))
    start = None
    try:
        if f.seekable():
            start = f.tell() - len(head)
    except (AttributeError, OSError, ValueError):
        start = None
    a = archive.Archive(f, head, name, start)
    try:
        if not a.open(maybe=not sure):
            # libarchive reads no archive there: plain after all
            if start is not None:
                f.seek(start)
                yield None, _Peek(b"", f)
            elif a.pulled == 0:
                yield None, _Peek(head, f)
            else:
                raise SGFError("%s: begins as a %s archive, which libarchive does "
                               "not read, and cannot be read again as plain SGF "
                               "(not seekable)" % (name or "<stream>", kind))
            return
        members = sgf = 0
        for member in a:
            if member is None:
                yield None, a
                sgf = -1  # one compressed stream, not an archive
            else:
                members += 1
                if _is_sgf_member(member):
                    sgf += 1
                    yield from _member(member, a, name)
        if sgf == 0:
            raise _no_sgf_member(name, kind, members)
    finally:
        a.close()


def _no_sgf_member(name, kind, members):
    """What the sgf tool says of an archive without an SGF file in it."""
    return SGFError("%s: no .sgf file in this %s archive (%d member%s)"
                    % (name or "<stream>", kind, members, "" if members == 1 else "s"))


def _member(member, f, name):
    """A member of an archive, itself maybe compressed (x.sgf.gz)."""
    for sub, reader in _open_stream(f, name):
        yield (member if sub is None else member + ":" + sub), reader


def _tar_members(f, name):
    import tarfile
    members = sgf = 0
    with tarfile.open(fileobj=f, mode="r|") as t:
        for info in t:
            members += 1
            if not info.isfile() or not _is_sgf_member(info.name):
                continue
            m = t.extractfile(info)
            if m is not None:
                sgf += 1
                yield from _member(info.name, m, name)
    if sgf == 0:
        raise _no_sgf_member(name, "tar", members)


def _walk(path):
    """The SGF files below a directory, as the sgf tool takes them: names
    ending in .sgf (or .sgf.gz, .sgf.bz2, .sgf.xz), any case; each
    directory's files sorted, then its subdirectories sorted; links to
    directories are not followed."""
    stack = [path]
    while stack:
        d = stack.pop()
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError as e:
            raise SGFError("%s: %s" % (d, e.strerror)) from e
        subdirs = []
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                subdirs.append(e.path)
            elif _is_sgf_name(e.name) and e.is_file():
                yield e.path
        stack.extend(reversed(subdirs))


def read_inputs(source):
    """Yield (file, member, reader) for each input a source holds.

    source: a path (str or os.PathLike: a plain SGF file, one compressed
    with gzip, bzip2, xz, zstd, lz4, lzma, lzip, compress..., an archive,
    tar, zip, 7z, rar, cpio, ar..., compressed or not, or a directory,
    walked for *.sgf files and compressed ones, x.sgf.gz, x.sgf.zst...),
    a binary file object (anything with readinto() or read(): an open
    file, sys.stdin.buffer, a socket's makefile('rb')), or bytes-like.
    What an input is comes from its first bytes, as the sgf tool decides;
    an archive's members named *.sgf (any case; x.sgf.gz and the like
    too, decompressed) are read, but macOS's "._x.sgf" companions. gzip,
    bzip2, xz, tar and zip are read by the standard library; the rest
    through libarchive (src/archive.c; a 7z archive needs a
    seekable source: a path, bytes, a seekable file). reader is a binary
    stream of one SGF input, decompressed. The streams are opened one at
    a time.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        for member, reader in _open_stream(io.BytesIO(source), None):
            yield None, member, reader
        return
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if os.path.isdir(path):
            for p in _walk(path):
                yield from _read_path(p)
            return
        yield from _read_path(path)
        return
    if hasattr(source, "readinto") or hasattr(source, "read"):
        if getattr(source, "closed", False):
            raise ValueError("I/O operation on closed file")
        name = getattr(source, "name", None)
        if not isinstance(name, str):
            name = None
        for member, reader in _open_stream(source, name):
            yield name, member, reader
        return
    raise TypeError("source must be a path, a binary file object or bytes, not %s"
                    % type(source).__name__)


def _read_path(path):
    with open(path, "rb") as f:
        for member, reader in _open_stream(f, path):
            yield path, member, reader


def _broken():
    """The exceptions that say a compressed input or an archive breaks off
    or is damaged: those of the modules an input has loaded."""
    kinds = [EOFError]
    for module, name in (("zipfile", "BadZipFile"), ("tarfile", "TarError"),
                         ("lzma", "LZMAError"), ("gzip", "BadGzipFile")):
        m = sys.modules.get(module)
        if m is not None:
            kinds.append(getattr(m, name))
    return tuple(kinds)


def _run(source, mode, strict, charset, mainline, outside):
    where = "<input>"
    try:
        for name, member, reader in read_inputs(source):
            where = (name or "<stream>") + (":" + member if member else "")
            stream = _core.Stream(reader, mode, name, member, strict, charset, mainline)
            yield from stream
            # what came after the input's last game (or in an input
            # without one): no game to carry it
            outside.extend(stream.pending)
    except Exception as e:
        if isinstance(e, _broken()):
            raise SGFError("%s: the input breaks off or is damaged (%s); the "
                           "games before the break were read" % (where, e)) from e
        if isinstance(e, OSError) and "Invalid data stream" in str(e):
            # bz2's damaged data
            raise SGFError("%s: the input is damaged (%s); the games before "
                           "the damage were read" % (where, e)) from e
        raise


class GameStream(_core.Forward):
    """The iterator games() and headers() return: the games (or header
    dicts) one at a time, and the diagnostics no game carries.

    diagnostics: a list of the Diagnostic objects found outside every
    game: after an input's last game (text or a ')' too many after it),
    or in an input without a game (no '(;' at all), in input order, each
    with its file. It grows as the inputs are read: complete once the
    iteration has ended. (In strict mode such a diagnostic is an error,
    which raises SGFError instead.) Diagnostics inside a game are in its
    record's .diagnostics.

        stream = sgfstream.games("collection.sgf")
        for game in stream:
            ...
        for d in stream.diagnostics:
            print(d)
    """

    # Iteration is _core.Forward's: the items of self._it, handed out
    # from C (no Python call between games).
    __slots__ = ("diagnostics",)

    def __init__(self, source, mode, strict, charset, mainline):
        self.diagnostics = []
        self._it = _run(source, mode, strict, charset, mainline,
                        self.diagnostics)

    def close(self):
        """Stop reading (the input being read is closed)."""
        self._it.close()


def games(source, *, strict=False, charset=None, mainline=False):
    """Yield the games of source one at a time, as GameRecord objects.

    source: a path (plain, compressed with gzip, bzip2, xz, zstd, lz4...,
    an archive, tar, zip, 7z, rar..., a directory), a binary file object,
    or bytes; see read_inputs(). Memory is bounded by the largest game,
    not the input.

    strict: stop at the first deviation from FF[4], raising SGFError with
    its Diagnostic. charset: read text in this charset (iconv's names)
    whatever the game's CA says (kept in each record's .charset for its
    tree). mainline: pass over every secondary variation unparsed (the
    records' node counts and trees then hold the main line only).

    Each record has .data (the game's bytes), .source (a Source: file,
    member, index, offset, line, column), .diagnostics, .nodes and
    .moves() (the main line as an array.array('B'), three bytes a move:
    colour 1/2, x, y; see GameRecord.moves). A fatal diagnostic (depth
    limit, UTF-16 that does not decode) raises SGFError in any mode; a
    damaged or truncated compressed input raises SGFError after the games
    before the break; so does an archive with no .sgf file in it (as the
    sgf tool reports it), rather than giving no game without a word.

    UTF-16 input (a byte-order mark, or '(' written as UTF-16) is read
    converted to UTF-8, as the sgf tool reads it: .data holds the
    converted bytes, offsets, lines and columns count in them, and the
    first game carries the warning utf16-input (an error in strict mode).

    Returns a GameStream: iterate it; its .diagnostics are those found
    outside every game (after the last one, or in an input without one).
    """
    return GameStream(source, _core.MODE_GAMES, strict, charset, mainline)


def headers(source, *, strict=False, charset=None):
    """Yield one dict a game with its header fields, reading only the root
    node of each game: the rest is passed over at tokenizer speed.

    Keys: file, member, game (index), offset, line, column (where the game
    is), then black, white, black_rank, white_rank, result, date, komi
    (float), handicap (int), size ((width, height)), rules, event, round,
    place, game_name: the first value of PB, PW, BR, WR, RE, DT, KM, HA,
    SZ, RU, EV, RO, PC, GN in the root node, None when absent (or over
    64 KiB). A value that is not of its type (KM[6.5 pts]) comes as its
    text. Text is decoded as FF[4] SimpleText and converted from the
    game's CA (or charset) to str. `sgf json --headers` gives the same
    fields. source, strict, charset: as for games() (UTF-16 input
    included). Returns a GameStream, whose .diagnostics are those found
    outside every game.

    A game with something to say has one more key, last: diagnostics, a
    list of Diagnostic in input order: the parser's (text before the
    game, its root node, the end of input inside it: what games() puts
    on the game's record) and those of text that does not decode in its
    charset (bytes that are not UTF-8 under CA[UTF-8], a byte Shift_JIS
    has no character for...), which is given read as ISO-8859-1, one a
    field, as `sgf json --headers` reports them: at the byte that does
    not decode, severity 'error', named bad-utf8 (40) under UTF-8, else
    bad-text (100, the bindings' own code); and, as warnings, the tool's
    two notes on the header itself: bad-size (101, an SZ that is not a
    board size: its text is the size) and unknown-charset (102, a CA
    iconv does not know: text read as UTF-8, else ISO-8859-1). A dict
    without that key had none. In strict mode each is SGFError instead. (The key is there only
    then, so that a table of clean games has the same columns as ever.)
    A dict comes once its game has ended.

        import pandas
        table = pandas.DataFrame(sgfstream.headers("games.zip"))
    """
    return GameStream(source, _core.MODE_HEADERS, strict, charset, False)


from .tree import *  # Game, Node, Board: python/sgfstream/tree.py
