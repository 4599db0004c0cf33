#!/bin/sh
# check-semantic.sh - `sgf check` runs the semantic checks
# (sgfstream/check.h) by default, `--syntax-only` skips them, `--strict`
# fails on the first (exit 2); they are positioned FILE:LINE:COL, obey
# --ignore and do not depend on --chunk. Skips (77) when the sgf tool is
# not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-check-semantic: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-semantic.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
cd "$tmp" || exit 99

# The example of issue 15: clean for the parser, wrong in seven ways.
printf '(;FF[4]SZ[19]B[aa]B[bb]W[zz]KM[abc]SZ[-3];B[aa]AB[cc];W[aa])' >ex.sgf
# What FF[4] and FF[3] allow: passes as [] and tt, L and M, variations
# with game info each, a rectangle, an empty list, UTF-8 under CA.
printf '(;FF[3]GM[1]SZ[19]CA[UTF-8]C[\303\251]AB[aa:bb]TB[](;PW[x]B[tt];W[]L[cc]M[dd])(;RE[B+R]B[pd]))\n' >ok.sgf

# run WANT_STATUS ARGS...: sgf check ARGS; $got the [NAME/CODE]s in order.
run() {
  want=$1
  shift
  "$sgf" check "$@" >out 2>err
  st=$?
  got=$(sed -n 's/.*\[\([a-z0-9-]*\/[0-9]*\)\].*/\1/p' out | tr '\n' ' ')
  if [ "$st" != "$want" ]; then
    echo "FAIL: sgf check $*: status $st, expected $want"
    cat out err
    fail=1
  fi
}
expect() { # WHAT WANT
  if [ "$got" != "$2" ]; then
    echo "FAIL: $1: diagnostics '$got', expected '$2'"
    fail=1
  fi
}

all="duplicate-property/32 two-moves/29 off-board/33 bad-value/34 duplicate-property/32 sz-range/38 move-and-setup/28 "
run 1 ex.sgf
expect "default" "$all"
grep -q '^ex.sgf:1:39: warning: board size out of range (SZ 1-52) \[sz-range/38\]$' out ||
  { echo "FAIL: default: no positioned sz-range line"; cat out; fail=1; }
grep -q '^ex.sgf:1:24: warning: .*\[two-moves/29\] (opened at 1:14)$' out ||
  { echo "FAIL: default: two-moves not marked at the first move"; cat out; fail=1; }
grep -q '(7 warnings, 0 errors)' err || { echo "FAIL: summary"; cat err; fail=1; }
run 1 --chunk=1 ex.sgf
expect "--chunk=1" "$all"
run 2 --strict ex.sgf
expect "--strict" "duplicate-property/32 "
grep -q '^ex.sgf:1:19: error: ' out || { echo "FAIL: --strict: not an error"; cat out; fail=1; }
run 0 --syntax-only ex.sgf
expect "--syntax-only" ""
run 0 --syntax-only --strict ex.sgf
expect "--syntax-only --strict" ""
run 1 --ignore=duplicate-property,two-moves,33 ex.sgf
expect "--ignore" "bad-value/34 sz-range/38 move-and-setup/28 "
run 0 --ignore=28,29,32,33,34,38 ex.sgf
expect "--ignore all" ""
run 0 --errors-only ex.sgf
expect "--errors-only" ""
run 0 ok.sgf
expect "allowed" ""
run 0 --strict ok.sgf
expect "allowed, --strict" ""
# Standard input, and several games: each game's root is its own.
printf '(;SZ[9]B[jj])(;SZ[9];SZ[19])' | "$sgf" check - >out 2>err
got=$(sed -n 's/.*\[\([a-z0-9-]*\/[0-9]*\)\].*/\1/p' out | tr '\n' ' ')
expect "stdin" "off-board/33 root-outside-root/30 "
grep -q '^<stdin>:1:22: .*root-outside-root' out ||
  { echo "FAIL: stdin: root-outside-root not at 1:22"; cat out; fail=1; }
# The help tells of the option.
"$sgf" check --help | grep -q -- '--syntax-only' ||
  { echo "FAIL: help: no --syntax-only"; fail=1; }
[ $fail -eq 0 ] && echo "tool-check-semantic: all passed"
exit $fail
