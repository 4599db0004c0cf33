#!/bin/sh
# tool-runs-ir.sh - the commands of issue 30 that read move runs (stats
# --summary, filter --starts-with, filter --moves-min, fmt, fmt --compact,
# mainline) take them: counted in instructions (callgrind, not time), each
# runs in at most 70% of the instructions it runs with every move as its
# events (SGF_NO_RUNS=1, sgf(1) ENVIRONMENT), on about 1 MB of generated
# games shaped like a collection of professional games (a root of game
# information, then 100 to 300 moves, ten to a line; a third of them
# begin with pd dd, so that --starts-with reads them whole). tool-runs.sh
# checks that both ways write the same bytes. (A game --starts-with
# rejects at its first moves costs a little more with runs: the parser
# finds the whole run before on_moves rejects it, where events stop at
# the first moves and the rest is skipped; this input keeps the share
# of selected games of a real collection.)
# And sgf stats on those games as sgf fmt writes them (readable: no run)
# against the same games compact (runs without line breaks).
# Skips (77) without the sgf tool, python3 or valgrind.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-runs-ir: $sgf not built: skipped"
  exit 77
fi
for t in python3 valgrind; do
  if ! command -v $t >/dev/null 2>&1; then
    echo "tool-runs-ir: $t missing: skipped"
    exit 77
  fi
done
# valgrind cannot run a sanitizer build's tool (its counts would not be
# the tool's anyway): skipped there, as test/serve/lib.sh does.
if grep -q '^CFLAGS = .*-fsanitize=' "$top_builddir/Makefile" 2>/dev/null; then
  echo "tool-runs-ir: a sanitizer build: skipped"
  exit 77
fi
builddir=$(cd "$top_builddir" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-runs-ir.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
unset SGF_NO_RUNS
fail=0

python3 - <<'EOF'
import random
random.seed(30)
out = []
size = 0
g = 0
while size < 1000000:
    g += 1
    head = (b"(;GM[1]FF[4]SZ[19]PB[Player %d]PW[Player %d]RE[B+R]"
            b"DT[19%02d-05-01]KM[6.5]\n" % (g % 97, g % 89, g % 100))
    moves = [b";B[pd]", b";W[dd]"] if g % 3 == 0 else []
    for i in range(len(moves), random.randint(100, 300)):
        c = b"BW"[i % 2:i % 2 + 1]
        v = bytes([97 + random.randrange(19), 97 + random.randrange(19)])
        moves.append(b";" + c + b"[" + v + b"]" + (b"\n" if i % 10 == 9 else b""))
    game = head + b"".join(moves) + b")\n"
    out.append(game)
    size += len(game)
open("games.sgf", "wb").write(b"".join(out))
EOF

# ir ARGS...: the instructions of sgf ARGS games.sgf (the program itself,
# through libtool's wrapper when there is one).
ir() {
  rm -f cg.out
  if [ -x "$builddir/libtool" ] && head -c 4096 "$builddir/sgf" | grep -q libtool; then
    "$builddir/libtool" --mode=execute valgrind --tool=callgrind \
      --callgrind-out-file=cg.out "$builddir/sgf" "$@" games.sgf >/dev/null 2>&1
  else
    valgrind --tool=callgrind --callgrind-out-file=cg.out \
      "$builddir/sgf" "$@" games.sgf >/dev/null 2>&1
  fi
  awk '/^(summary|totals):/ { print $2; exit }' cg.out 2>/dev/null
}

for line in "stats|--summary" "filter|--starts-with=pd dd" \
  "filter|--moves-min=200|--count" "fmt" "fmt|--compact" "mainline"; do
  IFS='|'
  # shellcheck disable=SC2086
  set -- $line
  unset IFS
  runs=$(ir "$@")
  events=$(SGF_NO_RUNS=1 ir "$@")
  if [ -z "$runs" ] || [ -z "$events" ]; then
    echo "FAIL: sgf $*: callgrind gave no count"
    fail=1
    continue
  fi
  pct=$((100 * runs / events))
  echo "sgf $*: $runs instructions with runs, $events without: $pct%"
  if [ "$pct" -gt 70 ]; then
    echo "FAIL: sgf $*: the run path takes $pct% of the event path's instructions (at most 70%)"
    fail=1
  fi
done
# The parser calls its run scanner only where a run can begin: on the
# readable layout of sgf fmt (every node indented on a line of its own,
# so no run) sgf stats takes at most 6.5 times its instructions on the
# compact layout of the same games (7.7 when the scanner was tried at
# every node, 5.1 since).
"$builddir/sgf" fmt games.sgf >readable.sgf 2>/dev/null
"$builddir/sgf" fmt --compact games.sgf >compact.sgf 2>/dev/null
cp readable.sgf games.sgf
readable=$(ir stats)
cp compact.sgf games.sgf
compact=$(ir stats)
if [ -z "$readable" ] || [ -z "$compact" ]; then
  echo "FAIL: sgf stats: callgrind gave no count"
  fail=1
else
  x10=$((10 * readable / compact))
  echo "sgf stats: $readable instructions on the readable layout, $compact on the compact one: x$((x10 / 10)).$((x10 % 10))"
  if [ "$x10" -gt 65 ]; then
    echo "FAIL: sgf stats on the readable layout takes over 6.5 times the instructions of the compact one"
    fail=1
  fi
fi
exit $fail
