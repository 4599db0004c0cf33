#!/bin/sh
# check-runs.sh - the semantic checks (sgfstream/check.h) with MOVE RUNS
# and without. `sgf check` takes runs (on_moves): sgf_check_moves()
# decides a run's nodes in bulk, a board-size test of the two letters of
# each move, and sends only the nodes that can fail the long way. The
# findings must be those of the checks of each event without runs:
#  - test/unit/check_runs over crafted runs and every golden case, each fed
#    whole, in chunks and cut at every byte, lenient and strict, with
#    on_moves and without (the diagnostics, their positions and marks,
#    their order, the result);
#  - `sgf check` against `sgf check --chunk=1` (one byte at a time: no
#    run is ever whole, so no on_moves), byte for byte;
#  - the crafted runs' findings, worked out by hand.
# The crafted runs: off the board inside a run on 19 x 19, SZ[9],
# SZ[25], SZ[52], SZ[5:7], SZ[19:20] and SZ[20]; passes [] and [tt]
# ("tt" a pass up to 19 x 19 only); lowercase and uppercase letters; CR
# LF, lone CR and blank lines; letters other than B and W (C N V L M);
# GM[2] (points unchecked) with and without CA[UTF-8]; UTF-8 in Go;
# root points held for SZ; variations; move-and-setup, two-moves and
# duplicates beside runs; a long run. The corpus: test/corpus/check-runs.sh.
# Skips (77) when test/unit/check_runs is not built.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
prog="$top_builddir/test/unit/check_runs"
sgf="$top_builddir/sgf"
if [ ! -x "$prog" ]; then
  echo "check-runs: $prog not built: skipped"
  exit 77
fi
prog="$(cd "$top_builddir" && pwd)/test/unit/check_runs"
cases="$(cd "$top_srcdir/test/cases" && pwd)"
have_sgf=0
if [ -x "$sgf" ]; then
  have_sgf=1
  sgf="$(cd "$top_builddir" && pwd)/sgf"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-check-runs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0

printf '(;FF[4]GM[1]SZ[19]\n;B[pd];W[dp];B[zz];W[dd]\n;B[tt];W[ss];B[st]\n;B[aA];W[Aa];B[sa])\n' >r19.sgf
printf '(;FF[4]SZ[9];B[ee];W[ii];B[jj];W[ai];B[ia];W[tt];B[];W[aj];B[ti];W[it];B[aa])\n' >r9.sgf
printf '(;SZ[25]\n;B[yy];W[zz];B[tt];W[Aa];B[aA];W[ay];B[ya];W[])\n' >r25.sgf
printf '(;SZ[52]\n;B[ZZ];W[zz];B[tt];W[Az];B[aZ];W[a1];B[1a];W[ZZ];B[a ];W[ab])\n' >r52.sgf
printf '(;SZ[5:7]\n;B[ea];W[fa];B[ag];W[ah];B[tt];W[eg];B[fg];W[eh];B[aa])\n' >r5x7.sgf
printf '(;SZ[19:20];B[tt];W[ss];B[st];W[ts];B[aa])\n(;SZ[20:19];B[tt];W[ss];B[st];W[ts];B[aa])\n(;SZ[20];B[tt];W[tt];B[uu];W[aa])\n' >rtt.sgf
printf '(;SZ[9]\r\n;B[aa];W[jj]\r\n;B[bb]\r\n;W[zz];B[cc]\r\n;W[dd])\r\n' >rcrlf.sgf
printf '(;b[aa];w[bb];B[cc];W[dd];B[ee]\n;B[ff]\n\n;W[gg];B[hh]\r;W[ii];B[jj])\n' >rodd.sgf
printf '(;B[zz];W[aa];B[bb])\n(;B[aa];W[tt];B[zz])\n(;W[zz]\n;B[aa];W[bb])\n( ;B[zz];W[aa])\n' >rroot.sgf
printf '(;SZ[9];C[ab];B[aa];N[xy];W[jj];V[zz];L[aa];M[zz];B[bb];V[ab];W[cc];M[ab];B[dd];V[12];W[ee];L[zz])\n(;GM[2];V[ab];B[aa];V[ab];W[bb];C[ab];B[cc])\n' >rletters.sgf
printf '(;SZ[9];B[aa]W[bb];B[cc];B[dd]AB[ee];W[ff];B[gg]B[hh];W[aa];AB[bb];B[cc];W[dd])\n' >rmixed.sgf
printf '(;GM[2]SZ[8];B[zz];W[aa];B[\303\251];W[\377\376];B[tt])\n(;GM[2]CA[UTF-8];B[zz];W[\303\251];B[\377\376];W[\303a];B[aa])\n' >rgm2.sgf
printf '(;CA[UTF-8]SZ[9];B[aa];W[\303\251];B[jj];W[\377a];B[bb])\n' >rutf8.sgf
printf '(;AB[ss]SZ[9];B[aa];W[jj];B[bb])\n(;AB[aa]AW[ss];B[ss];W[bb])\n(;SZ[53];B[tt];W[ss];B[zz])\n(;SZ[0];B[aa];W[tt])\n' >rroot2.sgf
printf '(;SZ[9](;B[aa];W[jj];B[bb])(;B[jj];W[aa];B[cc](;W[kk];B[dd])(;W[ee];B[zz];W[ff])))\n' >rvar.sgf
{
  printf '(;SZ[13]\n'
  for r in a b c d e f g h i j k l m n o p q r s; do
    for c in a b c d e f g h i j k l m; do
      printf ';B[%s%s];W[%s%s]' "$c" "$r" "$r" "$c"
    done
    printf '\n'
  done
  printf ')\n'
} >rlong.sgf

# 1. with runs and without, fed every way
"$prog" --every r*.sgf "$cases"/*/input.sgf >runs.out 2>&1 || {
  echo "FAIL: check_runs (crafted runs, golden cases):"
  grep -v '^ ' runs.out | head -20
  fail=1
}
tail -1 runs.out
# runs were taken: each crafted file but rroot.sgf has a run with a node
# that can fail (its findings are worked out below)
"$prog" -v r*.sgf >runs-v.out 2>&1
for f in r19 r9 r25 r52 r5x7 rtt rcrlf rodd rletters rmixed rgm2 rutf8 \
  rroot2 rvar rlong; do
  n=$(sed -n "s/^$f\\.sgf: \\([0-9]*\\) runs whole.*/\\1/p" runs-v.out)
  if [ -z "$n" ] || [ "$n" -eq 0 ]; then
    echo "FAIL: $f.sgf: the parser took no run (on_moves): the test tests nothing"
    fail=1
  fi
done

[ "$have_sgf" = 1 ] || {
  echo "check-runs: $sgf not built: the tool's part skipped"
  exit $fail
}

# 2. sgf check (runs) against sgf check --chunk=1 (none), strict too
for args in "" "--strict" "--errors-only"; do
  # shellcheck disable=SC2086
  "$sgf" check $args r*.sgf "$cases"/*/input.sgf >a.out 2>&1
  # shellcheck disable=SC2086
  "$sgf" check --chunk=1 $args r*.sgf "$cases"/*/input.sgf >b.out 2>&1
  if ! cmp -s a.out b.out; then
    echo "FAIL: sgf check $args: not the same with runs and without (--chunk=1):"
    diff a.out b.out | head -10
    fail=1
  fi
done

# 3. the findings inside runs, worked out by hand: the letter that is off
# the board (column, or row when only the row is), the first byte that
# is not a letter
"$sgf" check r19.sgf r9.sgf r25.sgf r52.sgf r5x7.sgf rtt.sgf 2>/dev/null |
  sed 's/: warning: .*\[\(.*\)\]$/ \1/' >found
cat >want <<'EOW'
r19.sgf:2:16 off-board/33
r19.sgf:3:17 off-board/33
r19.sgf:4:5 off-board/33
r19.sgf:4:10 off-board/33
r9.sgf:1:28 off-board/33
r9.sgf:1:57 off-board/33
r9.sgf:1:62 off-board/33
r9.sgf:1:69 off-board/33
r25.sgf:2:10 off-board/33
r25.sgf:2:22 off-board/33
r25.sgf:2:29 off-board/33
r52.sgf:2:35 bad-value/34
r52.sgf:2:40 bad-value/34
r52.sgf:2:53 bad-value/34
r5x7.sgf:2:10 off-board/33
r5x7.sgf:2:23 off-board/33
r5x7.sgf:2:40 off-board/33
r5x7.sgf:2:47 off-board/33
rtt.sgf:1:15 off-board/33
rtt.sgf:1:33 off-board/33
rtt.sgf:2:16 off-board/33
rtt.sgf:2:28 off-board/33
rtt.sgf:3:24 off-board/33
EOW
if ! cmp -s want found; then
  echo "FAIL: the findings inside runs:"
  diff want found
  fail=1
fi
exit $fail
