#!/bin/sh
# summary.sh - `sgf stats --summary`: the counts against an
# independent count of a collection made here, whose games have known
# results, sizes, dates, rules, players (one in ISO-8859-1 with CA, one
# with escapes and blanks around it), main lines and variations (whose
# moves are not the main line's); --json checked by python3; -j 2 over
# several files prints the same; the text form shows --top=N rows; long
# names (300 bytes kept whole, past 1024 cut on a character, marked).
# Skips (77) without the sgf tool or python3.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"

if [ ! -x "$sgf" ]; then
  echo "tool-summary: $sgf not built: skipped"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "tool-summary: python3 missing: skipped"
  exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

# Game i: PB[P(i%7)] PW[Q(i%3)] RE[B+(i%4).5] DT[(1980+i%9)-05-01]
# SZ[9|13|19] RU (every other game), i%50 main-line moves, and a
# variation of 5 moves after the first move when i%4 == 0.
python3 - "$tmp" <<'PY'
import sys
t = sys.argv[1]
for part in range(3):
    with open("%s/c%d.sgf" % (t, part), "wb") as f:
        for i in range(part * 100, part * 100 + 100):
            rules = b"RU[Japanese]" if i % 2 else b""
            head = b"(;GM[1]FF[4]SZ[%d]PB[P%d]PW[Q%d]RE[B+%d.5]DT[%d-05-01]%s" % (
                (9, 13, 19)[i % 3], i % 7, i % 3, i % 4, 1980 + i % 9, rules)
            n = i % 50
            nodes = [b";%s[aa]C[) (;B[bb]]" % (b"BW"[k % 2:k % 2 + 1])
                     for k in range(n)]
            if i % 4 == 0 and n > 0:
                nodes = [nodes[0], b"("] + nodes[1:] + [b")(", b";W[cc]" * 5, b")"]
            moves = b"".join(nodes)
            f.write(head + moves + b")\n")
    if part == 2:
        with open("%s/c2.sgf" % t, "ab") as f:
            f.write(b"(;CA[ISO-8859-1]PB[Jos\xe9]PW[  A \\] B  ]RE[W+R];B[aa])\n")
PY

"$sgf" stats --summary --json --no-time "$tmp"/c0.sgf "$tmp"/c1.sgf \
  "$tmp"/c2.sgf >"$tmp/s.json" 2>"$tmp/s.err"
"$sgf" stats --summary --json --no-time -j 2 "$tmp"/c0.sgf "$tmp"/c1.sgf \
  "$tmp"/c2.sgf >"$tmp/j.json" 2>/dev/null
cmp -s "$tmp/s.json" "$tmp/j.json" || fail "-j 2 prints something else"
python3 - "$tmp/s.json" <<'PY' || fail "--summary --json: wrong counts"
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))["summary"]
want = {k: Counter() for k in ("results", "sizes", "years", "rules", "players")}
lengths = Counter()
for i in range(300):
    want["results"]["B+%d.5" % (i % 4)] += 1
    want["sizes"][str((9, 13, 19)[i % 3])] += 1
    want["years"][str(1980 + i % 9)] += 1
    want["rules"]["Japanese" if i % 2 else "(none)"] += 1
    want["players"]["P%d" % (i % 7)] += 1
    want["players"]["Q%d" % (i % 3)] += 1
    lengths[str(i % 50)] += 1
for k, v in (("results", "W+R"), ("sizes", "(none)"), ("years", "(none)"),
             ("rules", "(none)"), ("players", "Jos\u00e9"),
             ("players", "A ] B")):
    want[k][v] += 1
lengths["1"] += 1
ok = True
for k, c in want.items():
    if dict(c) != d[k]:
        print("%s: got %s\n want %s" % (k, d[k], dict(c)))
        ok = False
if dict(lengths) != d["lengths"] or d["games"] != 301 or \
        d["length_sum"] != sum(int(k) * v for k, v in lengths.items()):
    print("lengths: got", d["lengths"], d["length_sum"])
    ok = False
# sorted by count, then key
for k in want:
    items = list(d[k].items())
    if items != sorted(items, key=lambda kv: (-kv[1], kv[0].encode())):
        print(k, "not in order")
        ok = False
sys.exit(0 if ok else 1)
PY
"$sgf" stats --summary --top=2 --no-time "$tmp"/c0.sgf >"$tmp/t.txt"
[ "$(grep -c '^ *[0-9][0-9]*  [PQ][0-9]$' "$tmp/t.txt")" -eq 2 ] ||
  fail "--top=2: not two players shown"
grep -q "(8 more)" "$tmp/t.txt" || fail "--top=2: the rest not counted"
"$sgf" stats --summary --top=x "$tmp"/c0.sgf >/dev/null 2>&1
[ $? -eq 2 ] || fail "--top=x: not a usage error"

# Long names (team games): 300 bytes of 3-byte and of 2-byte characters
# are kept whole; past 1024 bytes a name is cut on a character boundary
# (in UTF-8 with no CA, and in a declared double-byte CA) and marked with
# U+2026, never read as ISO-8859-1 because of the cut.
python3 - "$tmp" <<'PY'
import sys
t = sys.argv[1]
with open("%s/long.sgf" % t, "wb") as f:
    f.write(("(;PB[%s]PW[%s]RE[B+R];B[aa])\n" % ("\u56f2\u7881" * 50,
             "\u00e9" * 150)).encode())
    f.write(("(;PB[ab%s]PW[x];W[aa])\n" % ("\u68cb" * 400)).encode())
    f.write(b"(;CA[GB18030]PB[x" + ("\u56f4\u68cb" * 400).encode("gb18030") +
            b"]PW[y];B[aa])\n")
PY
"$sgf" stats --summary --json --no-time "$tmp/long.sgf" >"$tmp/l.json" ||
  fail "long names: exit $?"
python3 - "$tmp/l.json" <<'PY' || fail "long names: wrong keys in --json"
import json, sys
d = json.load(open(sys.argv[1]))["summary"]["players"]
want = {"\u56f2\u7881" * 50: 1, "\u00e9" * 150: 1, "x": 1, "y": 1,
        # 1024 bytes: "ab" and 340 whole 3-byte characters
        "ab" + "\u68cb" * 340 + "\u2026": 1,
        # 1024 bytes: "x", 511 whole 2-byte characters, half of one
        "x" + ("\u56f4\u68cb" * 400)[:511] + "\u2026": 1}
if d != want:
    for k in sorted(set(d) | set(want)):
        if d.get(k) != want.get(k):
            print("key %r...%r (%d bytes): got %s, want %s" % (
                k[:6], k[-3:], len(k.encode()), d.get(k), want.get(k)))
    sys.exit(1)
PY
"$sgf" stats --summary --no-time "$tmp/long.sgf" >"$tmp/l.txt" ||
  fail "long names (text): exit $?"
python3 - "$tmp/l.txt" <<'PY' || fail "long names: wrong rows in the text"
import sys
rows = open(sys.argv[1], "rb").read().decode("utf-8").split("\n")
for name in ("\u56f2\u7881" * 50, "\u00e9" * 150,
             "ab" + "\u68cb" * 340 + "\u2026"):
    if "         1  " + name not in rows:
        print("no row for %r...%r" % (name[:6], name[-3:]))
        sys.exit(1)
PY
# The key bytes a table holds are bounded too (64 MiB): 70,000 distinct
# 1 kB names fill it, the rest go to "(other)", and memory stays near the
# bound (1 GB of names at the million-key limit, before).
if [ -x /usr/bin/time ]; then
  python3 -c '
import sys
w = sys.stdout.write
for i in range(70000):
    w("(;GM[1]PB[%s%08d]PW[w];B[aa])\n" % ("x" * 1000, i))
' | /usr/bin/time -f '%M' -o "$tmp/rss" "$sgf" stats --summary --json - \
    >"$tmp/big.json" 2>/dev/null
  over=$(sed -n 's/.*"players_overflow":\([0-9]*\).*/\1/p' "$tmp/big.json")
  rss=$(tail -n 1 "$tmp/rss")
  if [ "${over:-0}" -lt 1000 ] || [ "${rss:-0}" -gt 131072 ]; then
    fail "70,000 long names: overflow ${over:-none}, peak RSS ${rss:-?} kB"
  fi
fi
"$sgf" stats --help | grep -q "(default 10; the JSON has them all)" ||
  fail "stats --help: the --top default misworded"

if [ "$fails" -ne 0 ]; then
  echo "tool-summary: $fails failure(s)"
  exit 1
fi
echo "tool-summary: ok"
