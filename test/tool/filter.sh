#!/bin/sh
# filter.sh - `sgf filter`:
#   the predicates on a small hand-made collection, against answers
#   worked out by hand (which games each selects), and the selected games
#   written byte for byte as they were, also fed a byte at a time;
#   the predicates on ../shared/corpus/dev against Python applying the
#   same rules to the lines of `sgf json --mainline` (the games compared
#   as multisets of their header fields and moves);
#   --starts-with --symmetric on a game and its 8 transforms (4 on a
#   board that is not square);
#   --unique on a collection with planted duplicates (other comments,
#   other layout, variations) against Python's count of distinct players
#   and main lines;
#   --json: the very lines (and diagnostics) of `sgf json`;
#   --max-game-bytes (an error, the game not written), --count, a game
#   the input ends inside, usage errors.
# What needs a missing resource is skipped with a message, and the rest
# still runs (PASS when it passed): the corpus part without ../shared, the
# parts that Python checks or generates without python3. Skips (77) only
# when the sgf tool is not built.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-filter: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
py=1
if ! command -v python3 >/dev/null 2>&1; then
  echo "tool-filter: no python3: the parts it checks or generates are skipped"
  py=0
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
src="$(cd "$top_srcdir" && pwd)"
shared="$src/../shared/corpus"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-filter.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0
n=0

bad() {
  echo "FAIL: $1"
  [ -s err.txt ] && sed 's/^/  stderr: /' err.txt | head -5
  fail=1
}

# ------------------------------------------------------------ by hand
# Seven games, each named by GN; g7 repeats g1's players and moves with
# another comment, layout and a variation. Odd layout inside games checks
# that they are written as they were.
printf '%s\n' \
  '(;GN[g1]PB[Lee Sedol]PW[AlphaGo]BR[9p]RE[W+R]DT[2016-03-09]KM[7.5]' \
  'EV[DeepMind Challenge]RU[Chinese]  ;B[pd] ;W[dd]C[a \] bracket];B[pp])' \
  '' \
  '(;GN[g2]PB[AlphaGo]PW[Lee Sedol]RE[B+R]DT[2016-03-10,12]KM[7.5]HA[0]' \
  ';B[dp];W[pd])' \
  >hand.sgf
printf '(;GN[g3]CA[ISO-8859-1]PB[J\366' >>hand.sgf # o umlaut, ISO-8859-1
printf '%s\n' \
  'rg]PW[Cho]RE[B+3.5]DT[2020-01-05,06]KM[6.5]SZ[13]HA[2];B[jd];W[dj])' \
  '(;GN[g4]PB[Honinbo Shusaku]DT[1846-09-11]RE[B+2]SZ[19]' \
  ';B[qd](;W[dc];B[pq])(;W[cd]))' \
  '(;GN[g5]PB[Cho Chikun]PW[Kobayashi Koichi]DT[2021-06]EV[Kisei]' \
  'RU[Japanese]SZ[9:7];B[cc];W[gc];B[ce];W[ge])' \
  '(;GN[g6]CA[UTF-8]PB[李世乭]PW[古力]DT[2012,2013]RE[0];B[pd];W[dp])' \
  '(;GN[g7]PB[Lee Sedol]PW[AlphaGo]C[the same game again]' \
  ';B[pd]' \
  '(;W[dd];B[pp])(;W[dp]))' >>hand.sgf

# hand WANT ARGS...: the games selected (GN values, in order) are WANT.
hand() {
  want=$1
  shift
  n=$((n + 1))
  "$sgf" filter "$@" hand.sgf >out.sgf 2>err.txt
  st=$?
  got=$(grep -o 'GN\[g[0-9]*\]' out.sgf | sed 's/GN\[\(.*\)\]/\1/' |
    tr '\n' ' ' | sed 's/ $//')
  if [ "$st" != 0 ] || [ "$got" != "$want" ]; then
    bad "filter $*: got '$got' (status $st), want '$want'"
  fi
}
hand 'g1 g7' --black 'lee sedol'
hand 'g2' --white lee
hand 'g1 g2 g7' --player 'Lee Sedol'
hand 'g1 g2 g7' --player AlphaGo
hand 'g1 g2' --player AlphaGo --player Lee --prop DT
hand 'g3' --black 'Jörg'
hand 'g6' --player '古力'
hand 'g2 g3 g4' --result b+
hand 'g1' --result W+R
hand 'g6' --result 0
hand 'g1' --rank 9P
hand 'g5' --event kisei
hand 'g1' --rules chin
hand 'g1 g2' --komi 7.5
hand 'g3' --komi 6.5
hand 'g3' --handicap 2
hand 'g1 g2 g4 g5 g6 g7' --handicap 0
hand 'g3' --size 13
hand 'g5' --size 9x7
hand 'g1 g2 g4 g6 g7' --size 19
hand 'g2' --date 2016-03-12
hand '' --date 2016-03-11
hand 'g1 g2' --date 2016-03
hand 'g3' --date-from 2020-01-06 --date-to 2020-01-06
hand 'g3 g5' --date-from 2020 --date-to 2021-06
hand 'g5' --date-from 2021-06-30
hand 'g4' --date-to 1900
hand 'g6' --date 2013-12-31
hand 'g1 g2 g3 g5 g6' --date-from 2000
hand 'g1' --prop 'EV=DeepMind Challenge'
hand '' --prop 'EV=DeepMind'
hand 'g1' --prop 'EV:Mind'
hand '' --prop 'EV:mind'
hand 'g4 g5' --prop 'PB~^(Honinbo|Cho) '
hand 'g3' --prop CA=ISO-8859-1
hand 'g1 g2 g3' --prop KM~.
hand 'g1 g4 g5 g7' --moves-min 3
hand 'g2 g3 g6' --moves-max 2
hand 'g5' --moves-min 4 --moves-max 4
hand 'g1 g6 g7' --starts-with pd
hand 'g1 g7' --starts-with 'pd dd'
hand 'g1 g7' --starts-with 'pd dd pp'
hand '' --starts-with 'pd dd pp qq'
hand 'g1 g2 g6 g7' --starts-with 'pd' --symmetric
hand 'g2 g3 g4 g5 g6' -v --black lee
hand 'g3 g4 g5 g6' -v --player lee
hand 'g1 g2 g3 g4 g5 g6' --unique
hand 'g1 g6' --unique --starts-with pd
hand 'g7' --unique --starts-with pd --prop C
hand 'g1 g2 g3 g4 g5 g6 g7' --moves-min 0 --chunk=1

# FF[4] DT lists: months, MM-DD after a full date, a time after a date,
# '.' as '-'
printf '%s\n' '(;GN[d1]DT[1996-05,06])' '(;GN[d2]DT[1996-05-06,11-12])' \
  '(;GN[d3]DT[1996-12-27,28,1997-01-03,04])' '(;GN[d4]DT[2003.07.08 10:00])' \
  '(;GN[d5]DT[yesterday])' >dates.sgf
# dates WANT ARGS...
dates() {
  n=$((n + 1))
  got=$("$sgf" filter "$@" dates.sgf 2>err.txt | grep -o 'GN\[d[0-9]\]' |
    tr '\n' ' ' | sed 's/ $//')
  [ "$got" = "$want" ] || bad "filter $* dates.sgf: '$got', want '$want'"
}
want='GN[d1]' dates --date 1996-06-30
want='GN[d2]' dates --date 1996-11-12
want='' dates --date 1996-11-11
want='GN[d1] GN[d2]' dates --date 1996-05-06
want='GN[d3]' dates --date 1997-01-04
want='' dates --date 1996-12-29
want='GN[d4]' dates --date 2003-07
want='GN[d1] GN[d2] GN[d3] GN[d4]' dates --prop DT --date-from 1900

# The games as written: everything from '(' to ')', a newline after each.
[ $py = 1 ] || echo "tool-filter: no python3: the byte-for-byte check is skipped"
[ $py = 1 ] && python3 - hand.sgf >games.txt <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
out, depth, start, i = [], 0, 0, 0
while i < len(data):          # no '(' ')' inside these games' values
    c = data[i:i + 1]
    if c == b"(":
        if depth == 0:
            start = i
        depth += 1
    elif c == b")":
        depth -= 1
        if depth == 0:
            out.append(data[start:i + 1] + b"\n")
    i += 1
sys.stdout.buffer.write(b"".join(out))
EOF
for a in "" "--chunk=1" "--moves-min 0" "--moves-min 0 --chunk=2"; do
  [ $py = 1 ] || break
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$sgf" filter $a hand.sgf >out.sgf 2>err.txt ||
    bad "filter $a hand.sgf: status $?"
  cmp -s out.sgf games.txt || bad "filter $a: not the games byte for byte"
done

# --count, and a game over --max-game-bytes while its moves decide
n=$((n + 1))
c=$("$sgf" filter --count --player lee hand.sgf 2>err.txt)
[ "$c" = 3 ] || bad "--count --player lee: '$c', want 3"
n=$((n + 1))
"$sgf" filter --max-game-bytes=40 --chunk=8 --moves-min 1 hand.sgf \
  >out.sgf 2>err.txt
st=$?
if [ "$st" != 2 ] || [ -s out.sgf ] ||
  [ "$(grep -c ': error: .*max-game-bytes' err.txt)" != 7 ] ||
  ! grep -q '^hand.sgf:1:1: error: .*max-game-bytes' err.txt; then
  bad "--max-game-bytes=40: status $st, want 2, no game and 7 errors"
fi
# ... but a game selected at its root streams out whatever its size
awk 'BEGIN {
  for (i = 0; i < 300; i++)
    ms = ms sprintf(";%s[%c%c]", i % 2 ? "W" : "B", 97 + i % 19,
                    97 + int(i / 19))
  print "(;PB[Lee]" ms ")"
  print "(;PB[Cho]" ms ")"
}' >big.sgf
head -1 big.sgf >big1.sgf
n=$((n + 1))
"$sgf" filter --max-game-bytes=200 --chunk=64 --black lee big.sgf \
  >out.sgf 2>err.txt
st=$?
[ "$st" = 0 ] && cmp -s out.sgf big1.sgf ||
  bad "--max-game-bytes=200 --black lee: status $st, not the game"
n=$((n + 1))
"$sgf" filter --max-game-bytes=200 --chunk=64 --black lee --moves-min 1 \
  big.sgf >out.sgf 2>err.txt
st=$?
[ "$st" = 2 ] && [ ! -s out.sgf ] &&
  grep -q '^big.sgf:1:1: error: .*max-game-bytes' err.txt ||
  bad "--max-game-bytes=200 --moves-min 1: status $st"
# a game the input ends inside: written with the ')' it lacks
n=$((n + 1))
printf '(;PB[a];B[aa](;W[bb]' >open.sgf
"$sgf" filter open.sgf >out.sgf 2>err.txt
[ "$(cat out.sgf)" = '(;PB[a];B[aa](;W[bb]))' ] ||
  bad "an unclosed game: '$(cat out.sgf)'"

# a '(' that opens a game only once what follows proves it, with more
# blanks after it than one piece holds: the game still comes out whole,
# in any split (its '(' was fed long before its on_tree_begin)
awk 'BEGIN {
  s = "("
  for (i = 0; i < 600; i++) s = s " "
  print "(;PB[a])"
  print s ";PB[b]C[x])"
  print ";PB[c])"
}' >opener.sgf
for a in "" "--chunk=1" "--chunk=100" "--chunk=300" "--moves-min 0 --chunk=64" \
  "--json --chunk=100"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$sgf" filter $a opener.sgf >out.sgf 2>err.txt
  st=$?
  # shellcheck disable=SC2086
  "$sgf" filter $a --chunk=1000000 opener.sgf >want.sgf 2>want.txt
  if [ "$st" = 2 ] || grep -q error err.txt || ! cmp -s out.sgf want.sgf ||
    ! cmp -s err.txt want.txt ||
    [ "$(grep -c 'P[Bb]' out.sgf)" != 3 ]; then
    bad "filter $a: a '(' far before its game's first node: status $st," \
      "$(head -c 200 err.txt)"
  fi
done
n=$((n + 1))
"$sgf" filter --chunk=64 opener.sgf >out.sgf 2>err.txt
[ "$(sed -n 2p out.sgf | tr -d ' ')" = '(;PB[b]C[x])' ] &&
  [ "$(sed -n 2p out.sgf | wc -c)" = 613 ] ||
  bad "the opener's game is not its bytes: '$(sed -n 2p out.sgf)'"

# usage errors: status 2, a message, no output
for a in "--date 2020-13" "--date yesterday" "--prop pb=x" "--prop PB~(" \
  "--komi x" "--size 53" "--starts-with p" "--symmetric" "--moves-min -1" \
  "--black="; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$sgf" filter $a hand.sgf >out.sgf 2>err.txt
  st=$?
  if [ "$st" != 2 ] || [ -s out.sgf ] || [ ! -s err.txt ]; then
    bad "filter $a: status $st, want a usage error (2)"
  fi
done

# ------------------------------------------------------------ symmetries
# A game and its 8 transforms on 19 x 19, and its 4 on 19 x 13: each
# transform of the opening is found with --symmetric; without it only the
# games whose opening is the query's itself.
if [ $py = 0 ]; then
  echo "tool-filter: no python3: the symmetries are skipped"
else
python3 - >sym.sgf <<'EOF'
def t(k, x, y, w, h):
    W, H = w - 1, h - 1
    return [(x, y), (W - x, y), (x, H - y), (W - x, H - y),
            (y, x), (W - y, x), (y, H - x), (W - y, H - x)][k]
moves = [(15, 3), (3, 2), (16, 9), (2, 10), (13, 2)]
for w, h, nk in ((19, 19, 8), (19, 13, 4)):
    for k in range(nk):
        ms = "".join(";%s[%s]" % ("BW"[i % 2],
                                   "".join(chr(97 + c) for c in t(k, x, y, w, h)))
                     for i, (x, y) in enumerate(moves))
        sz = "%d" % w if w == h else "%d:%d" % (w, h)
        print("(;GN[s%d-%d]SZ[%s]%s)" % (w * 100 + h, k, sz, ms))
EOF
  q='pd dc qj'
  n=$((n + 1))
  c=$("$sgf" filter --count --starts-with "$q" --symmetric sym.sgf 2>err.txt)
  [ "$c" = 12 ] || bad "--symmetric: $c of the 12 transforms, want 12"
  n=$((n + 1))
  c=$("$sgf" filter --count --starts-with "$q" sym.sgf 2>err.txt)
  [ "$c" = 2 ] || bad "--starts-with without --symmetric: $c, want 2"
  n=$((n + 1))
  c=$("$sgf" filter --count --starts-with "$q" --symmetric --size 19x13 \
    sym.sgf 2>err.txt)
  [ "$c" = 4 ] || bad "--symmetric on 19x13: $c, want 4"
  # the query turned: each transform is found from any of them
  n=$((n + 1))
  c=$("$sgf" filter --count --starts-with 'dp cd jq' --symmetric --size 19 \
    sym.sgf 2>err.txt)
  [ "$c" = 8 ] || bad "--symmetric from a transform: $c, want 8"
fi

# ------------------------------------------------------------ the corpus
if [ ! -d "$shared/dev" ]; then
  echo "tool-filter: no $shared/dev: the corpus part is skipped"
elif [ $py = 0 ]; then
  echo "tool-filter: no python3: the corpus part is skipped"
else
  "$sgf" json --mainline "$shared/dev" >all.jsonl 2>/dev/null
  cat >check.py <<'EOF'
import collections, json, re, sys

def lower(s):
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)

def has(field, q):
    return any(q.lower() in lower(v.strip()) for v in field if isinstance(v, str))

def years(dt):
    out = set()
    if not isinstance(dt, str):
        return out
    for item in dt.split(","):
        m = re.match(r"\s*(\d{4})", item)
        if m and int(m.group(1)) >= 1000:
            out.add(int(m.group(1)))
    return out

def size(g):
    s = g["size"]
    return tuple(s) if isinstance(s, list) else (19, 19)

P = {
    "black-a": lambda g: has([g["black"]], "a"),
    "player-lee": lambda g: has([g["black"], g["white"]], "lee"),
    "result-B+": lambda g: isinstance(g["result"], str)
        and lower(g["result"].strip()).startswith("b+"),
    "size-19": lambda g: size(g) == (19, 19),
    "size-9": lambda g: size(g) == (9, 9),
    "komi-6.5": lambda g: g["komi"] == 6.5,
    "handicap-0": lambda g: (g["handicap"] is None) or g["handicap"] == 0,
    "moves-100": lambda g: len(g["moves"]) >= 100,
    "moves-max-10": lambda g: len(g["moves"]) <= 10,
    "starts-pd": lambda g: len(g["moves"]) >= 1 and g["moves"][0][1] == "pd",
    "date-2000s": lambda g: any(2000 <= y <= 2009 for y in years(g["date"])),
    "prop-PB-caps": lambda g: isinstance(g["black"], str)
        and re.search(r"^[A-Z]", g["black"]) is not None,
    "rules-japanese": lambda g: has([g["rules"]], "japanese"),
    "combo": lambda g: has([g["black"]], "e") and size(g) == (19, 19)
        and isinstance(g["result"], str)
        and lower(g["result"].strip()).startswith("w+"),
    "not-B+": lambda g: not (isinstance(g["result"], str)
        and lower(g["result"].strip()).startswith("b+")),
}

def key(g):
    return json.dumps([g[k] for k in ("black", "white", "date", "result",
                      "game_name", "event", "komi", "size", "moves")])

def load(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f]

mode = sys.argv[1]
if mode == "select":          # select NAME ALL OUT: the games Python picks
    # (UTF-16 files too: filter reads them converted to UTF-8, as json)
    games = [g for g in load(sys.argv[3]) if "incomplete" not in g]
    with open(sys.argv[4], "w") as f:
        for g in games:
            if P[sys.argv[2]](g):
                f.write(key(g) + "\n")
elif mode == "keys":          # keys JSONL OUT
    with open(sys.argv[3], "w") as f:
        for g in load(sys.argv[2]):
            f.write(key(g) + "\n")
elif mode == "unique":        # unique JSONL: distinct players + main lines
    seen = set()              # (no PB and PB[] alike; no SZ is 19 x 19)
    for g in load(sys.argv[2]):
        seen.add(json.dumps([g["black"] or "", g["white"] or "", size(g),
                             g["moves"]]))
    print(len(seen))
EOF
  corpus() {
    name=$1
    shift
    n=$((n + 1))
    python3 check.py select "$name" all.jsonl want.txt
    "$sgf" filter "$@" "$shared/dev" 2>/dev/null >sel.sgf
    "$sgf" json --mainline sel.sgf >sel.jsonl 2>/dev/null
    python3 check.py keys sel.jsonl got.txt
    sort want.txt >want.s
    sort got.txt >got.s
    if ! cmp -s want.s got.s; then
      bad "corpus $name ($*): $(wc -l <got.s) games, Python $(wc -l <want.s)"
      diff want.s got.s | head -4 | cut -c1-200
    fi
  }
  corpus black-a --black a
  corpus player-lee --player lee
  corpus result-B+ --result B+
  corpus size-19 --size 19
  corpus size-9 --size 9
  corpus komi-6.5 --komi 6.5
  corpus handicap-0 --handicap 0
  corpus moves-100 --moves-min 100
  corpus moves-max-10 --moves-max 10
  corpus starts-pd --starts-with pd
  corpus date-2000s --date-from 2000 --date-to 2009
  corpus prop-PB-caps --prop 'PB~^[A-Z]'
  corpus rules-japanese --rules japanese
  corpus combo --black e --size 19 --result W+
  corpus not-B+ -v --result B+

  # --json: the lines of sgf json, source and diagnostics included, and
  # with a condition the lines of the games selected
  n=$((n + 1))
  "$sgf" filter --json "$shared/dev" 2>ferr.txt | grep -v utf16 >fj.jsonl
  "$sgf" json "$shared/dev" 2>jerr.txt | grep -v utf16 >jj.jsonl
  cmp -s fj.jsonl jj.jsonl || bad "--json: not the lines of sgf json"
  grep -v utf16 ferr.txt | sort >ferr.s
  grep -v utf16 jerr.txt | sort >jerr.s
  cmp -s ferr.s jerr.s || bad "--json: not the diagnostics of sgf json"
  n=$((n + 1))
  "$sgf" filter --json --result B+ --moves-min 100 "$shared/dev" 2>/dev/null \
    >fj.jsonl
  python3 -c '
import json, sys
for l in open("jj.jsonl"):
    g = json.loads(l)
    r = g["result"] if isinstance(g["result"], str) else ""
    if r.strip().upper().startswith("B+") and len(g["moves"]) >= 100 \
       and not g.get("incomplete"):
        sys.stdout.write(l)' >want.jsonl
  [ -s want.jsonl ] && cmp -s fj.jsonl want.jsonl ||
    bad "--json --result B+ --moves-min 100: not the lines selected"

  # --unique over a collection with planted duplicates: every game of
  # the corpus's kombilo files twice more, with other comments, after
  # the others
  n=$((n + 1))
  "$sgf" filter "$shared/dev" 2>/dev/null >base.sgf
  sed 's/^(;/(;C[planted]/' base.sgf >dup.sgf
  cat base.sgf dup.sgf base.sgf >planted.sgf
  "$sgf" json --mainline base.sgf >base.jsonl 2>/dev/null
  want=$(python3 check.py unique base.jsonl)
  got=$("$sgf" filter --unique --count planted.sgf 2>/dev/null)
  [ "$got" = "$want" ] && [ "$want" -gt 100 ] ||
    bad "--unique on planted duplicates: $got, Python $want"
  # the first of each is the one kept: the output is base.sgf's unique
  n=$((n + 1))
  "$sgf" filter --unique planted.sgf 2>/dev/null | grep -c 'C\[planted\]' \
    >planted.n
  [ "$(cat planted.n)" = 0 ] || bad "--unique kept a later copy"
fi

echo "tool-filter: $n checks"
exit $fail
