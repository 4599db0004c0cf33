#!/bin/sh
# check-ignore.sh - `sgf check --ignore=NAME|CODE[,...]` and
# `--errors-only`: silenced diagnostics are neither printed nor counted
# toward the status; the one that stops a parse is reported anyway; an
# unknown name is a usage error. Skips (77) when the sgf tool is not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-check-ignore: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf" # the tests run in a temporary dir
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-ignore.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
cd "$tmp" || exit 99

# w.sgf: a lowercase identifier (13) and an unmatched ')' (12), warnings.
printf '(;GM[1]b[aa]C[x])\n(;W[bb]))\n' >w.sgf
# n.sgf: empty, no game tree (21, an error); utf16.sgf: a fatal error, a
# lone low surrogate in UTF-16 (29, after the warning 28: it is UTF-16).
: >n.sgf
printf '\377\376(\000;\000\000\334' >utf16.sgf

# run WANT_STATUS ARGS...: sgf check ARGS; the diagnostics' [NAME/CODE]s
# in order are left in $got, the summary in $summary.
run() {
  want=$1
  shift
  "$sgf" check "$@" >out 2>err
  st=$?
  n=$((n + 1))
  got=$(sed -n 's/.*\[\([a-z0-9-]*\/[0-9]*\)\].*/\1/p' out | tr '\n' ' ')
  summary=$(grep '^checked' err)
  if [ "$st" != "$want" ]; then
    echo "FAIL: sgf check $*: status $st, expected $want"
    cat out err
    fail=1
  fi
}
# expect WHAT WANT_DIAGS [WANT_SUMMARY_PART]
expect() {
  if [ "$got" != "$2" ]; then
    echo "FAIL: $1: diagnostics '$got', expected '$2'"
    fail=1
  fi
  case $summary in
  *"$3"*) ;;
  *) echo "FAIL: $1: summary '$summary', expected '$3'"; fail=1 ;;
  esac
}

run 1 w.sgf
expect "no option" "lowercase-ident/13 extra-paren/12 " "(2 warnings, 0 errors)"
run 1 --ignore=lowercase-ident w.sgf
expect "by name" "extra-paren/12 " "(1 warning, 0 errors, 1 ignored)"
run 1 --ignore=13 w.sgf
expect "by number" "extra-paren/12 " "(1 warning, 0 errors, 1 ignored)"
run 0 --ignore=extra-paren,13 w.sgf
expect "a list" "" "1 clean, 0 with warnings only"
run 0 --ignore=12 --ignore=lowercase-ident w.sgf
expect "repeated" "" "(0 warnings, 0 errors, 2 ignored)"
run 0 --errors-only w.sgf
expect "--errors-only" "" "(0 warnings, 0 errors, 2 ignored)"
run 2 --errors-only w.sgf n.sgf
expect "--errors-only keeps errors" "no-game-tree/21 " \
  "1 clean, 0 with warnings only, 1 with errors"
run 1 --ignore=no-game-tree w.sgf n.sgf
expect "an error by name" "lowercase-ident/13 extra-paren/12 " \
  "(2 warnings, 0 errors, 1 ignored)"
run 0 --quiet --errors-only --ignore=21 w.sgf n.sgf
expect "-q" "" "2 clean"
# A diagnostic that stops the parse is reported and counted all the same.
run 2 --strict --ignore=13 w.sgf
expect "--strict" "lowercase-ident/13 " "(0 warnings, 1 error)"
run 2 --ignore=utf16-input --ignore=utf16-invalid utf16.sgf
expect "a fatal error" "utf16-invalid/42 " "(0 warnings, 1 error, 1 ignored)"

# Usage errors: status 2, the name in the message, nothing checked.
for bad in nosuch 13,nosuch 0 99 '' 13, ,13 LOWERCASE-IDENT 13x; do
  run 2 --ignore="$bad" w.sgf
  if [ -s out ] || [ -n "$summary" ] ||
    ! grep -q "unknown diagnostic" err; then
    echo "FAIL: --ignore='$bad': not a usage error"
    cat out err
    fail=1
  fi
done

echo "tool-check-ignore: $n checks"
exit $fail
