"""The README's pandas example (README.md, "## Python": "A header table
into pandas"), run as written, over a games.zip made here: its table must
hold one row per game headers() yields, the same columns in the same
order, the same values, and it must print the table's result counts.

Skips without pandas (Debian's python3-pandas serves /usr/bin/python3;
.ci/run installs it, install-deps.sh does not: it is big).
"""

import collections
import contextlib
import io
import math
import os
import tempfile
import unittest
import zipfile

import sgfstream

SRC = os.environ.get("SGF_SRC_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
README = os.path.join(SRC, "README.md")

try:
    import pandas
except ImportError:
    pandas = None


def readme_example():
    """The indented code block after "A header table into pandas" in the
    README's "## Python" section, as written (the indent taken off)."""
    with open(README, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = lines.index("## Python")
    intro = next(i for i in range(start, len(lines))
                 if lines[i].startswith("A header table into pandas"))
    i = intro + 1
    while i < len(lines) and not lines[i].startswith("    "):
        i += 1
    code = []
    while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
        code.append(lines[i][4:])
        i += 1
    return "\n".join(code).strip() + "\n"


def games_zip(path):
    """games.zip: games in two members, results repeated and missing,
    typed fields, and text that does not decode (a diagnostics column)."""
    a = (b"(;GM[1]FF[4]CA[UTF-8]PB[Shin Jinseo]PW[Ke Jie]RE[B+R]KM[6.5]SZ[19]DT[2023-01-02])\n"
         b"(;GM[1]PB[Iyama Yuta]PW[Ichiriki Ryo]RE[W+2.5]KM[6.5]HA[0])\n"
         b"(;GM[1]PB[x]PW[y]SZ[9]KM[7])\n")
    b = (b"(;GM[1]CA[UTF-8]PB[caf\xe9]PW[Lee]RE[B+R]KM[0.5]HA[2]SZ[13])\n"
         b"(;GM[1]PB[Go Seigen]PW[Honinbo Shusai]RE[B+2]EV[Meijin])\n")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("one.sgf", a)
        z.writestr("sub/two.sgf", b)
        z.writestr("notes.txt", b"(;not read)")


def same(got, want):
    """A table cell against headers()'s value: pandas gives None as NaN in
    a numeric column, ints as floats there."""
    if want is None:
        return got is None or (isinstance(got, float) and math.isnan(got))
    if isinstance(want, list):  # diagnostics
        return list(got) == want
    return got == want


@unittest.skipIf(pandas is None, "pandas not importable (Debian: python3-pandas)")
class TestReadmePandas(unittest.TestCase):
    def test_example_as_written(self):
        code = readme_example()
        self.assertIn("pandas.DataFrame(sgfstream.headers(\"games.zip\"))", code)
        with tempfile.TemporaryDirectory() as tmp:
            games_zip(os.path.join(tmp, "games.zip"))
            cwd = os.getcwd()
            out = io.StringIO()
            ns = {"__name__": "__readme__"}
            os.chdir(tmp)
            try:
                with contextlib.redirect_stdout(out):
                    exec(compile(code, README + " (Python, pandas example)", "exec"), ns)
                want = list(sgfstream.headers("games.zip"))
            finally:
                os.chdir(cwd)
        table = ns["table"]
        self.assertIsInstance(table, pandas.DataFrame)
        # a row a game, in order; the columns: the keys, in order (the
        # diagnostics key, found on one game only, last)
        self.assertEqual(len(table), 5)
        self.assertEqual(len(table), len(want))
        keys = []
        for h in want:
            keys += [k for k in h if k not in keys]
        self.assertEqual(list(table.columns), keys)
        self.assertEqual(keys[-1], "diagnostics")
        self.assertEqual(keys[:6], ["file", "member", "game", "offset", "line", "column"])
        for i, h in enumerate(want):
            row = table.iloc[i]
            for k in keys:
                self.assertTrue(same(row[k], h.get(k)), (i, k, row[k], h.get(k)))
        self.assertEqual(list(table["member"]), ["one.sgf"] * 3 + ["sub/two.sgf"] * 2)
        self.assertEqual(table["black"][3], "caf\u00e9")
        self.assertEqual([d.name for d in table["diagnostics"][3]], ["bad-utf8"])
        # what it prints: the number of games of each result
        counts = collections.Counter(h["result"] for h in want if h["result"] is not None)
        self.assertEqual(out.getvalue(), str(table.groupby("result").size()) + "\n")
        printed = {}
        for line in out.getvalue().splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit():
                printed[parts[0]] = int(parts[1])
        self.assertEqual(printed, dict(counts))
        self.assertEqual(printed, {"B+R": 2, "W+2.5": 1, "B+2": 1})


if __name__ == "__main__":
    unittest.main()
