#!/bin/sh
# tool-runs.sh - the commands that take runs of plain move nodes in one
# call (MOVE RUNS in sgfstream/parser.h: stats --summary, filter on the
# main line, fmt, mainline, split, stats) write what they write when
# every move comes as its events (SGF_NO_RUNS=1, sgf(1) ENVIRONMENT): the
# same standard output, standard error and exit status (and files, for
# split), byte for byte.
#   1. the golden cases (test/cases/*/input.sgf), all at once;
#   2. crafted runs: LF, CR LF or nothing between the nodes, nodes of
#      other letters, passes (tt), moves off the board (SZ[5:7], SZ[9]),
#      runs that hold the root node, variations deeper than 8 and than
#      32 (readable indentation), a run of more than 65535 nodes, games
#      that --starts-with selects, input that ends inside a run or a
#      value; cut into chunks anywhere (--chunk, or a pipe's pieces);
#   3. with --corpus (tool-runs-corpus.sh) only: every file of the
#      corpus (../shared/corpus); skips (77) without it.
# Skips (77) without the sgf tool or python3.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-runs: $sgf not built: skipped"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "tool-runs: python3 missing: skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
src="$(cd "$top_srcdir" && pwd)"
corpus="$src/../shared/corpus"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-runs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
unset SGF_NO_RUNS
fail=0
checks=0

bad() {
  echo "FAIL: $*" | cut -c1-300
  fail=1
}

# The commands compared (one per line; '|' separates arguments).
cat >cmds <<'EOF'
stats|--no-time
stats|--summary|--no-time
stats|--summary|--json|--no-time
filter|--starts-with=pd dd
filter|--starts-with=pd dd|--symmetric
filter|--starts-with=pd tt|--count
filter|--starts-with=aa
filter|--moves-min=30
filter|--moves-max=50|-v
filter|--moves-min=10|--moves-max=100|--black=x
filter|--unique
filter|--starts-with=pd dd|--json
filter|--moves-max=80|--unique|-v
filter|--starts-with=pd|--max-game-bytes=1
fmt
fmt|--compact
mainline
mainline|--compact
EOF

# same LABEL FILE ARGS...: the command's output with runs and without.
same() {
  label=$1
  shift
  "$sgf" "$@" >runs.out 2>&1
  echo "exit $?" >>runs.out
  SGF_NO_RUNS=1 "$sgf" "$@" >events.out 2>&1
  echo "exit $?" >>events.out
  checks=$((checks + 1))
  cmp -s runs.out events.out || {
    bad "$label: sgf $*: move runs and events differ"
    diff events.out runs.out | head -5
  }
}

# each FILE...: every command on the files.
each() {
  label=$1
  shift
  while IFS= read -r line; do
    IFS='|'
    # shellcheck disable=SC2086
    set -- $line "$@"
    unset IFS
    same "$label" "$@"
    shift $(($(echo "$line" | tr -cd '|' | wc -c) + 1))
  done <cmds
}

# ---- 3. (tool-runs-corpus.sh) the corpus: each command over all of its
# files at once
if [ "${1:-}" = --corpus ]; then
  if [ ! -d "$corpus" ]; then
    echo "tool-runs-corpus: no $corpus: skipped"
    exit 77
  fi
  set -- "$corpus"/*/*.sgf
  [ -f "$1" ] || { echo "tool-runs-corpus: no file in $corpus: skipped"; exit 77; }
  each corpus "$@"
  echo "tool-runs-corpus: $checks comparisons"
  exit $fail
fi

# ---- 1. the golden cases, each command over all of them at once
each cases "$src"/test/cases/*/input.sgf

# ---- 2. crafted runs
python3 - <<'EOF'
import random
random.seed(30)
def node(size, nl):
    c = random.choice(b"BW" * 12 + b"CXA")
    r = random.random()
    if r < 0.05:
        v = b"tt"
    elif r < 0.10:
        v = random.choice([b"zz", b"sa", b"as", b"gg", b"hh"])
    else:
        v = bytes([97 + random.randrange(size[0]), 97 + random.randrange(size[1])])
    return b";" + bytes([c]) + b"[" + v + b"]" + (nl or random.choice([b"", b"\n", b"\r\n"]))
def run(n, size, nl=None):
    return b"".join(node(size, nl) for _ in range(n))
out = []
sizes = [(b"SZ[19]", (19, 19)), (b"SZ[5:7]", (5, 7)), (b"SZ[9]", (9, 9)),
         (b"", (19, 19)), (b"SZ[25]", (25, 25))]
for g in range(120):
    sz, size = random.choice(sizes)
    nl = random.choice([b"\n", b"\r\n", b""])
    head = random.choice([b"(;FF[4]" + sz + b"PB[x" + bytes([97 + g % 5]) + b"]" + nl,
                          b"(", b"(;GM[1]" + sz, b"(\n"])
    if g % 3 == 0:  # what --starts-with 'pd dd' selects
        head += b";B[pd];W[dd]"
    body = run(random.randint(1, 300), size)
    if g % 4 == 0:  # variations, the first one the main line
        body += b"(" + run(random.randint(1, 40), size) + b")(" + \
            run(random.randint(1, 40), size) + b"C[v])"
    if g % 10 == 0:  # deep: 12 or 40 levels
        d = 12 if g % 20 else 40
        body += b"".join(b"(" + run(3, size) for _ in range(d)) + b")" * d
    out.append(head + body + b")" + nl)
# a run of more than 65535 nodes
out.append(b"(;SZ[19]" + run(70000, (19, 19), b"") + b")\n")
open("runs.sgf", "wb").write(b"".join(out))
# cut inside a run, and inside a value
open("cut1.sgf", "wb").write(b"(;SZ[9];B[pd];W[dd]" + run(50, (9, 9), b"\n") + b";B[a")
open("cut2.sgf", "wb").write(b"(;B[pd];W[dd];B[cc]\r\n;W[ee];B[ff]")
EOF
each crafted runs.sgf
each cut1 cut1.sgf
each cut2 cut2.sgf

# split: each game to a file of its own, both layouts
for layout in --readable --compact; do
  rm -rf split-runs split-events
  "$sgf" split $layout -d split-runs runs.sgf cut1.sgf >runs.out 2>&1
  echo "exit $?" >>runs.out
  SGF_NO_RUNS=1 "$sgf" split $layout -d split-events runs.sgf cut1.sgf >events.out 2>&1
  echo "exit $?" >>events.out
  checks=$((checks + 1))
  if ! cmp -s runs.out events.out || ! diff -r split-runs split-events >/dev/null; then
    bad "sgf split $layout: move runs and events differ"
  fi
done

# cut into chunks anywhere: --chunk (stats, filter), a pipe's pieces (all)
for n in 1 5 7 13 64 4099; do
  for args in "stats|--summary|--no-time|--chunk=$n" \
    "filter|--starts-with=pd dd|--chunk=$n" \
    "filter|--moves-min=30|--moves-max=200|--chunk=$n"; do
    IFS='|'
    # shellcheck disable=SC2086
    set -- $args
    unset IFS
    same "chunk $n" "$@" runs.sgf
  done
done
for line in "fmt" "fmt|--compact" "mainline" "stats|--summary|--no-time" \
  "filter|--starts-with=pd dd"; do
  for piece in 7 999; do
    IFS='|'
    # shellcheck disable=SC2086
    set -- $line
    unset IFS
    python3 -c '
import sys
d = open("runs.sgf", "rb").read()
n = int(sys.argv[1])
for i in range(0, len(d), n):
    sys.stdout.buffer.write(d[i:i + n]); sys.stdout.flush()' $piece |
      "$sgf" "$@" >runs.out 2>&1
    echo "exit $?" >>runs.out
    SGF_NO_RUNS=1 "$sgf" "$@" <runs.sgf >events.out 2>&1
    echo "exit $?" >>events.out
    checks=$((checks + 1))
    cmp -s runs.out events.out ||
      bad "sgf $* from a pipe in $piece-byte pieces: move runs and events differ"
  done
done

echo "tool-runs: $checks comparisons"
exit $fail
