#!/bin/sh
# json-long-runs.sh - `sgf json` on move runs longer than its output
# buffer takes at once (tools/json/json_conv.c writes a run in blocks of
# about 5,000 nodes, walking it with sgf_run_iter_step): runs of 6,000 to
# 12,000 nodes, with LF, CR LF or nothing between the nodes, and nodes
# the template does not take (a pass "tt", a point off the board, another
# letter) on either side of each block's end, give the same bytes and the
# same positioned diagnostics as SGF_JSON_SLOW (no runs), full and
# --mainline, read in one piece and in 64 KiB pieces (runs cut there).
# Skips (77) when the sgf tool is not built or python3 is missing.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-json-long-runs: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "tool-json-long-runs: no python3: skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-json-long.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0

python3 - >long.sgf <<'PY'
import random, sys
random.seed(30)
out = sys.stdout.buffer
block = 5040  # nodes a block takes: (64 KiB - 3) / 13
def game(n, breaks, odd):
    s = [b"(;SZ[19]PB[x]\n"]
    for i in range(n):
        c = b"BW"[i % 2:i % 2 + 1]
        v = bytes([97 + random.randrange(19), 97 + random.randrange(19)])
        if i in odd:
            c, v = random.choice([(c, b"tt"), (c, b"zz"), (b"C", b"ab")])
        s.append(b";" + c + b"[" + v + b"]")
        if breaks and i % breaks[0] == breaks[0] - 1:
            s.append(breaks[1])
    s.append(b")\n")
    return b"".join(s)
edges = {block - 1, block, block + 1, 2 * block - 1, 2 * block, 2 * block + 1}
out.write(game(12000, (10, b"\n"), set()))
out.write(game(11000, (7, b"\r\n"), edges))
out.write(game(6000, None, {0, block - 1, block}))
out.write(game(10081, (3, b"\n"), {2 * block}))
PY

for mode in "" --mainline; do
  SGF_JSON_SLOW=1 "$sgf" json $mode long.sgf >slow.out 2>&1
  echo "exit $?" >>slow.out
  # (--mainline writes a point off the board as it is, unwarned)
  [ -n "$mode" ] || grep -q 'long.sgf:[0-9]*:[0-9]*: warning: ' slow.out ||
    { echo "FAIL: long.sgf${mode:+ $mode}: no positioned warning to compare"; fail=1; }
  for chunk in 65536 1000000; do
    "$sgf" json $mode --chunk=$chunk long.sgf >fast.out 2>&1
    echo "exit $?" >>fast.out
    if ! cmp -s fast.out slow.out; then
      echo "FAIL: long.sgf${mode:+ $mode} --chunk=$chunk: long runs differ from the general path"
      cmp fast.out slow.out | head -2
      fail=1
    fi
  done
done
[ $fail -eq 0 ] && echo "tool-json-long-runs: ok"
exit $fail
