#!/bin/sh
# ff4.sh - `sgf fmt --ff4`: each conversion of an FF[1]-FF[3] record
# against an expected output written by hand (compact layout), the
# warnings that report them (positioned, exit status 1), what stays as
# written, and `fmt -i --ff4` (conversions are not drops: no --force
# needed; drops are still refused). Skips (77) when the sgf tool is not
# built. The corpus half is test/corpus/ff4.sh.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-ff4: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf" # the tests run in a temporary dir
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-ff4.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0
n=0

# conv NAME WANT_STATUS INPUT EXPECTED: `fmt --compact --ff4` of INPUT
# gives EXPECTED (plus the newline after the game) with that status; the
# output is strict-clean (syntax: --ff4 keeps a value it cannot convert), and a second --ff4 changes nothing and says
# nothing (exit 0) unless the first one kept an invalid value.
conv() {
  n=$((n + 1))
  printf '%s' "$3" >in.sgf
  printf '%s\n' "$4" >want
  "$sgf" fmt --compact --ff4 in.sgf >out 2>err
  st=$?
  if [ "$st" != "$2" ]; then
    echo "FAIL: $1: exit status $st, expected $2"; cat err; fail=1; return
  fi
  if ! cmp -s want out; then
    echo "FAIL: $1: output differs"
    echo "--- input"; cat in.sgf; echo
    echo "--- expected"; cat want
    echo "--- got"; cat out; cat err
    fail=1; return
  fi
  if ! "$sgf" check --strict --syntax-only -q out >/dev/null 2>&1; then
    echo "FAIL: $1: output is not strict-clean"; fail=1; return
  fi
  grep -q 'kept as written' err && return
  "$sgf" fmt --compact --ff4 out >out2 2>err2
  st=$?
  if [ "$st" != 0 ] || [ -s err2 ] || ! cmp -s out out2; then
    echo "FAIL: $1: a second --ff4 is not clean and the same ($st)"
    cat err2; fail=1
  fi
}

# warned NAME TEXT: the last conv's warnings include the line TEXT.
warned() {
  n=$((n + 1))
  if ! grep -qxF "$2" err; then
    echo "FAIL: $1: no warning '$2' in:"; cat err; fail=1
  fi
}

# The root: FF[4] first, in place of FF[3]; GM[1] added when missing.
conv "FF[3] becomes FF[4]" 1 '(;GM[1]FF[3]SZ[19];B[aa])' \
  '(;FF[4]GM[1]SZ[19];B[aa])'
warned "FF warning" 'in.sgf:1:8: warning: FF[3] written FF[4] [ff4]'
conv "no FF, no GM" 1 '(;SZ[9];B[aa])' '(;FF[4]SZ[9]GM[1];B[aa])'
warned "FF added" 'in.sgf:1:2: warning: FF[4] added to the root node [ff4]'
warned "GM added" \
  'in.sgf:1:2: warning: GM[1] added to the root node (Go, the default) [ff4]'
conv "each game of a collection" 1 '(;FF[3]C[one])(;FF[1]C[two])' \
  "$(printf '(;FF[4]C[one]GM[1])\n(;FF[4]C[two]GM[1])')"
conv "FF[4] already: nothing to say" 0 '(;FF[4]GM[1]SZ[19];B[aa]C[x])' \
  '(;FF[4]GM[1]SZ[19];B[aa]C[x])'
[ -s err ] && { echo "FAIL: clean FF[4] input gave warnings"; fail=1; }

# L: LB with the labels a, b, c... in order, merged into the node's LB
# (before or after it); a point labelled already stays an L.
conv "L to LB" 1 '(;FF[3];B[dd]L[aa][bb][cc])' \
  '(;FF[4]GM[1];B[dd]LB[aa:a][bb:b][cc:c])'
warned "L warning" \
  'in.sgf:1:15: warning: L written as LB: 3 points labelled a to c [ff4]'
conv "L merged into LB" 1 '(;FF[3];LB[ee:X]L[aa]C[c]LB[ff:Y]L[bb])' \
  '(;FF[4]GM[1];C[c]LB[ee:X][ff:Y][aa:a][bb:b])'
conv "L on a labelled point" 1 '(;FF[3];LB[aa:X]L[aa][bb])' \
  '(;FF[4]GM[1];LB[aa:X][bb:a]L[aa])'
warned "L kept warning" \
  "in.sgf:1:18: warning: L[aa] kept as written: not a point of the board, or a point the node labels already [ff4]"

# M: MA on an empty point, TR on a stone, on the board as played:
# captures (W[ab] takes B[aa]) and variations (the second one does not
# see the first one's W[dd]).
conv "M to MA and TR, with a capture" 1 \
  '(;FF[3]SZ[5];B[aa];W[ba];W[ab]M[aa][ab][cc])' \
  '(;FF[4]SZ[5]GM[1];B[aa];W[ba];W[ab]MA[aa][cc]TR[ab])'
warned "M warning" \
  'in.sgf:1:32: warning: M written as MA: 2 points without a stone [ff4]'
conv "M in variations" 1 '(;FF[3]SZ[5];B[cc](;W[dd];B[ee])(;W[ee]M[dd][cc]))' \
  '(;FF[4]SZ[5]GM[1];B[cc](;W[dd];B[ee])(;W[ee]MA[dd]TR[cc]))'
conv "M on a stone of AB, AE clearing one" 1 \
  '(;FF[3]AB[aa][bb];AE[aa]M[aa][bb])' '(;FF[4]AB[aa][bb]GM[1];AE[aa]MA[aa]TR[bb])'
conv "M merged into MA and TR" 1 '(;FF[4]GM[1];B[aa]MA[bb]M[cc][bb][aa]TR[dd])' \
  '(;FF[4]GM[1];B[aa]MA[bb][cc]TR[dd][aa]M[bb])'

# KI (komi in half points) is KM, unless the node has a KM.
conv "KI to KM" 1 '(;FF[3]KI[11])' '(;FF[4]GM[1]KM[5.5])'
warned "KI warning" \
  'in.sgf:1:10: warning: KI[11] written KM[5.5] (KI counts half points) [ff4]'
conv "KI even, negative" 1 '(;FF[3]KI[12])(;FF[3]KI[-1])' \
  "$(printf '(;FF[4]GM[1]KM[6])\n(;FF[4]GM[1]KM[-0.5])')"
conv "KI beside KM" 1 '(;FF[3]KI[13]KM[6.5])' '(;FF[4]KM[6.5]GM[1]KI[13])'

# VW of two points in an old record: the corners of the view.
conv "VW corners" 1 '(;FF[3]VW[db][ba];B[aa]VW[];W[bb]VW[aa][bb][cc])' \
  '(;FF[4]GM[1]VW[ba:db];B[aa]VW[];W[bb]VW[aa][bb][cc])'
conv "VW of FF[4] means FF[4]'s" 0 '(;FF[4]GM[1]VW[ba][db])' \
  '(;FF[4]GM[1]VW[ba][db])'

# TE and BM in one node of an old record: IT (TE first) or DO (BM first).
conv "TE then BM" 1 '(;FF[3];B[aa]TE[1]C[x]BM[1];W[bb]BM[2]TE[1];B[cc]TE[2])' \
  '(;FF[4]GM[1];B[aa]C[x]IT[];W[bb]DO[];B[cc]TE[2])'
warned "TE BM warning" \
  'in.sgf:1:16: warning: TE[1] and BM[1] written IT[] (FF[3]: TE then BM, interesting) [ff4]'
conv "TE and BM in FF[4] stay" 0 '(;FF[4]GM[1];B[aa]TE[1]BM[1])' \
  '(;FF[4]GM[1];B[aa]TE[1]BM[1])'

# Everything in one node: the order is one a second --ff4 keeps.
conv "all in one node" 1 '(;FF[3]KI[11]L[bb]VW[aa][cc];B[aa]M[aa]TE[1]BM[1]C[c])' \
  '(;FF[4]GM[1]KM[5.5]VW[aa:cc]LB[bb:a];B[aa]C[c]IT[]TR[aa])'

# Values re-encoded; a pass "tt" is [] up to 19x19 only; an upper-case
# point of an old record is read in lower case.
conv "values re-encoded" 1 \
  '(;FF[3]SZ[19]HA[+2]KM[5.50]AB[cc:aa];B[tt]BL[60.0]V[+1.50];W[DD])' \
  '(;FF[4]SZ[19]HA[2]KM[5.5]AB[aa:cc]GM[1];B[]BL[60]V[1.5];W[dd])'
warned "value warning" 'in.sgf:1:16: warning: HA[+2] written HA[2] [ff4]'
conv "tt on a 21x21 board is a point" 0 '(;FF[4]GM[1]SZ[21];B[tt])' \
  '(;FF[4]GM[1]SZ[21];B[tt])'
conv "an invalid value is kept" 1 '(;FF[4]GM[1];B[zz]HA[two])' \
  '(;FF[4]GM[1];B[zz]HA[two])'
warned "invalid value warning" \
  'in.sgf:1:15: warning: B[zz] is not a valid move value: kept as written [ff4]'

# Not Go: no L or M conversion (they depend on Go's board). Old
# properties FF[4] has no equivalent for stay, text untouched.
conv "GM[2] keeps L and M" 1 '(;FF[3]GM[2];L[aa]M[bb])' \
  '(;FF[4]GM[2];L[aa]M[bb])'
conv "old properties kept" 1 \
  '(;FF[3]BS[0]WS[0]ID[x y]OM[2]OP[60.0]LT[];CH[1]SI[2]EL[3]C[  a\]b  ])' \
  '(;FF[4]BS[0]WS[0]ID[x y]OM[2]OP[60]LT[]GM[1];CH[1]SI[2]EL[3]C[  a\]b  ])'

# Values that arrive in pieces (the input split inside them: standard
# input written in two parts) are converted the same.
g='(;FF[3]SZ[9]KI[11]HA[+2];B[cc]L[aa][bb]M[cc][dd]LB[ee:x](;W[tt]TM[300.50]'
g="$g"'M[ee];B[DD])(;W[bc]VW[aa][cc];B[ab];W[ba]M[aa][ab]))'
printf '%s' "$g" >in.sgf
"$sgf" fmt --compact --ff4 in.sgf >whole 2>/dev/null
for cut in 17 22 33 38 72 95; do
  n=$((n + 1))
  (printf '%s' "$g" | cut -c1-$cut | tr -d '\n'
    sleep 0.3
    printf '%s' "$g" | cut -c$((cut + 1))- | tr -d '\n') |
    "$sgf" fmt --compact --ff4 >out 2>/dev/null
  cmp -s whole out || { echo "FAIL: --ff4 of input cut at $cut"; fail=1; }
done

# The readable layout is the same conversion.
n=$((n + 1))
printf '(;FF[3];B[aa]L[bb])' >in.sgf
printf '(;FF[4]GM[1]\n ;B[aa]LB[bb:a])\n' >want
"$sgf" fmt --ff4 in.sgf >out 2>err
st=$?
if [ $st != 1 ] || ! cmp -s want out; then
  echo "FAIL: --ff4 readable ($st)"; cat out; fail=1
fi

# Without --ff4 nothing of this happens.
n=$((n + 1))
printf '(;FF[3];B[aa]L[bb])' >in.sgf
"$sgf" fmt --compact in.sgf >out 2>err
st=$?
if [ $st != 0 ] || [ "$(cat out)" != '(;FF[3];B[aa]L[bb])' ]; then
  echo "FAIL: fmt without --ff4 converted ($st)"; cat out; fail=1
fi

# In place: conversions respell, they do not drop: no --force needed.
n=$((n + 1))
printf '(;FF[3]KI[11];B[aa]L[bb]M[aa])' >old.sgf
printf '(;FF[4]GM[1]KM[5.5]\n ;B[aa]LB[bb:a]TR[aa])\n' >want
"$sgf" fmt -i --ff4 old.sgf >out 2>err
st=$?
if [ $st != 1 ] || ! cmp -s want old.sgf; then
  echo "FAIL: fmt -i --ff4 ($st)"; cat old.sgf err; fail=1
fi
# ... and a drop is still refused, the file left as it was.
n=$((n + 1))
printf '(;FF[3]L[aa]) junk' >junk.sgf
cp junk.sgf junk.orig
"$sgf" fmt -i --ff4 junk.sgf >out 2>err
st=$?
if [ $st != 2 ] || ! cmp -s junk.orig junk.sgf; then
  echo "FAIL: fmt -i --ff4 rewrote a file it would drop bytes of ($st)"
  fail=1
fi

echo "tool-ff4: $n checks"
exit $fail
