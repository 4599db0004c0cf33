#!/bin/sh
# write.sh - the writer commands: `sgf fmt` (standard output, -o,
# --in-place, refusal to rewrite files with errors), `sgf mainline` and
# `sgf split` (names, numbering, patterns). Skips (77) when the sgf tool
# is not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-write: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf" # the tests run in a temporary dir
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-write.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0

# check NAME WANT_STATUS GOT_STATUS [FILE_EXPECTED FILE_GOT]
check() {
  n=$((n + 1))
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1: exit status $3, expected $2"
    fail=1
    return
  fi
  if [ $# -ge 5 ] && ! cmp -s "$4" "$5"; then
    echo "FAIL: $1: output differs"
    echo "--- expected"; cat "$4"
    echo "--- got"; cat "$5"
    fail=1
  fi
}

cd "$tmp" || exit 99
printf '(;GM[1]CoPyright[me]C[a\\]b];B[aa](;W[bb];B[cc])(;W[dd]))\n(;B[ee]' \
  >messy.sgf
printf '(;GM[1]CP[me]C[a\\]b];B[aa](;W[bb];B[cc])(;W[dd]))\n(;B[ee])\n' \
  >want-compact
printf '(;GM[1]CP[me]C[a\\]b]\n ;B[aa]\n (;W[bb]\n  ;B[cc])\n (;W[dd]))\n(;B[ee])\n' \
  >want-readable
printf '(;GM[1]CP[me]C[a\\]b];B[aa];W[bb];B[cc])\n(;B[ee])\n' >want-mainline
printf '(;FF[4]C[clean])' >clean.sgf
printf '(;FF[4]C[clean])\n' >want-clean
printf 'no game here' >nogame.sgf
printf '\377\376(\000;\000' >utf16.sgf
printf '\377\376(\000;\000\000\334' >bad16.sgf # a lone low surrogate

# fmt: standard output, both layouts; 1 = written with repairs.
"$sgf" fmt --compact messy.sgf >out 2>err
check "fmt --compact" 1 $? want-compact out
"$sgf" fmt messy.sgf >out 2>err
check "fmt (readable)" 1 $? want-readable out
"$sgf" fmt --compact <messy.sgf >out 2>err
check "fmt from standard input" 1 $? want-compact out
"$sgf" fmt --compact clean.sgf >out 2>err
check "fmt clean input" 0 $? want-clean out
# its output is clean in strict mode and a fixed point
"$sgf" check --strict --syntax-only -q out 2>err
check "fmt output is strict-clean" 0 $?
"$sgf" fmt --compact out >out2 2>err
check "fmt is idempotent" 0 $? out out2

# -o: replaced only when every input is free of errors.
cat want-compact want-clean >want-all
"$sgf" fmt --compact -o all.sgf messy.sgf clean.sgf 2>err
check "fmt -o" 1 $? want-all all.sgf
"$sgf" fmt --compact -o all.sgf clean.sgf nogame.sgf 2>err
check "fmt -o with an error" 2 $? want-all all.sgf

# --in-place: keeps the mode; files with errors are left alone.
cp messy.sgf inplace.sgf
chmod 640 inplace.sgf
cp nogame.sgf ng.sgf
cp utf16.sgf u16.sgf
"$sgf" fmt --compact -i inplace.sgf ng.sgf u16.sgf 2>err
check "fmt --in-place" 2 $? want-compact inplace.sgf
check "fmt --in-place: no game tree left alone" 0 0 nogame.sgf ng.sgf
check "fmt --in-place: UTF-16 left alone" 0 0 utf16.sgf u16.sgf
case $(ls -l inplace.sgf) in
  -rw-r-----*) ;;
  *) echo "FAIL: fmt --in-place changed the mode: $(ls -l inplace.sgf)"; fail=1 ;;
esac
if ls -a | grep -q '\.tmp$'; then
  echo "FAIL: fmt --in-place left a temporary file: $(ls -a)"
  fail=1
fi
"$sgf" fmt -i - <messy.sgf >/dev/null 2>err
check "fmt --in-place refuses standard input" 2 $?
"$sgf" fmt -i -o x messy.sgf >/dev/null 2>err
check "fmt -i -o" 2 $?

# mainline: variations flattened away.
"$sgf" mainline --compact messy.sgf >out 2>err
check "mainline" 1 $? want-mainline out
printf '(;B[aa](;W[bb])(;W[cc]);B[dd])' >nav.sgf
printf '(;B[aa];W[bb])\n' >want-nav
"$sgf" mainline --compact nav.sgf >out 2>err
rc=$?
# the parser may pass over that node with the secondary variations, with
# or without a warning
[ $rc -eq 0 ] && rc=1
check "mainline: node after a variation" 1 $rc want-nav out

# split: one file per game, numbered per FILE.
mkdir d
"$sgf" split --compact -d d messy.sgf clean.sgf 2>err
check "split" 1 $?
printf '(;GM[1]CP[me]C[a\\]b];B[aa](;W[bb];B[cc])(;W[dd]))\n' >want-1
printf '(;B[ee])\n' >want-2
check "split: game 1" 0 0 want-1 d/messy-0001.sgf
check "split: game 2" 0 0 want-2 d/messy-0002.sgf
check "split: clean" 0 0 want-clean d/clean-0001.sgf
if [ "$(ls d | wc -l)" -ne 3 ]; then
  echo "FAIL: split wrote $(ls d | tr '\n' ' ')"
  fail=1
fi
"$sgf" split --compact --pattern='g%%%n.%f' -d d messy.sgf 2>err
check "split --pattern" 1 $? want-2 d/g%0002.messy
"$sgf" split --pattern='x.sgf' messy.sgf 2>err
check "split: pattern without %n" 2 $?
"$sgf" split --pattern='%n-%q' messy.sgf 2>err
check "split: unknown %" 2 $?
mkdir e
cp messy.sgf e/
"$sgf" split -d d messy.sgf e/messy.sgf 2>err
check "split: base names clash" 2 $?
"$sgf" split --compact -d d bad16.sgf 2>err
check "split: fatal error" 2 $?
# UTF-16 is read converted: the game written in UTF-8, with a warning
printf '(;)\n' >want-u16
"$sgf" split --compact -d d utf16.sgf 2>err
check "split: UTF-16" 1 $? want-u16 d/utf16-0001.sgf

for cmd in fmt mainline split; do
  "$sgf" $cmd --help >out 2>err
  check "$cmd --help" 0 $?
  grep -q "^usage: sgf $cmd" out || { echo "FAIL: $cmd --help"; fail=1; }
done

echo "tool-write: $n checks"
exit $fail
