#!/bin/sh
# utf16.sh - every command reads UTF-16 input (a byte-order mark,
# either order) converted to UTF-8 by the input layer (tools/io,
# transcode.c, on the library's sgfstream/utf16.h): the same results as for the UTF-8 file, plus the warning
# utf16-input; positions count in the converted text; a surrogate pair
# split between two reads is whole; a lone surrogate is a positioned
# fatal error (utf16-invalid), never replaced; stats -j agrees; a single
# NUL byte before ASCII SGF is not UTF-16 (one game read). Skips (77)
# when the sgf tool is not built.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-${srcdir:-.}}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-utf16: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
command -v iconv >/dev/null 2>&1 || {
  echo "tool-utf16: no iconv command: skipped"
  exit 77
}
sgf="$(cd "$top_builddir" && pwd)/sgf" # the tests run in a temporary dir
sample="$(cd "$top_srcdir" && pwd)/test/data/sample"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-utf16.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
bad() {
  echo "FAIL: $1: $2"
  fail=1
}
# same NAME WANT_STATUS GOT_STATUS EXPECTED GOT
same() {
  n=$((n + 1))
  [ "$2" = "$3" ] || bad "$1" "exit status $3, expected $2"
  cmp -s "$4" "$5" || {
    bad "$1" "output differs"
    diff "$4" "$5" | head -10
  }
}
cd "$tmp" || exit 99

# The UTF-8 original: e-acute (2 bytes in UTF-8, one UTF-16 unit), a
# character beyond the BMP (4 bytes, a surrogate pair), a lowercase
# identifier after them (warning 13) and text after the game (warning 7).
printf '(;GM[1]C[\303\251 \360\237\230\200]b[aa];B[dd]\n;W[pp])\nx\n' >u8.sgf
iconv -f UTF-8 -t UTF-16LE u8.sgf >body-le
iconv -f UTF-8 -t UTF-16BE u8.sgf >body-be
{ printf '\377\376'; cat body-le; } >le.sgf
{ printf '\376\377'; cat body-be; } >be.sgf

# check: the UTF-8 file's diagnostics, at the same (UTF-8) positions,
# after the warning that says so; 'b' is at byte 18 of line 1 in UTF-8
# (9 + 2 + 1 + 4 + 1 bytes before it; it would be column 15 counted in
# UTF-16 units)
"$sgf" check u8.sgf >want-check 2>&1
grep -q '^u8.sgf:1:18: warning: .*\[lowercase-ident/13\]' want-check ||
  bad "check (UTF-8)" "not the positions expected: $(cat want-check)"
for f in le be; do
  "$sgf" check $f.sgf >got 2>&1
  rc=$?
  {
    echo "$f.sgf:1:1: warning: input is UTF-16, read converted to UTF-8 (columns and offsets count in the converted text) [utf16-input/41]"
    sed "s/^u8\.sgf/$f.sgf/; s/(2 warnings,/(3 warnings,/" want-check
  } >want
  same "check $f" 1 $rc want got
done

# fmt, mainline, events, json, stats: the same output as for UTF-8
for cmd in "fmt" "fmt --compact" "mainline" "events" "json"; do
  # shellcheck disable=SC2086
  "$sgf" $cmd <u8.sgf >want 2>/dev/null
  for f in le be; do
    # shellcheck disable=SC2086
    "$sgf" $cmd <$f.sgf >got 2>err
    rc=$?
    if [ "$cmd" = events ]; then # the warning is an event of its own
      grep -v 'warning utf16-input (41)' got >got2
      mv got2 got
    fi
    same "$cmd $f" 1 $rc want got
  done
done
"$sgf" stats --no-time u8.sgf le.sgf be.sgf >stats.txt 2>&1
rc=$?
n=$((n + 1))
[ $rc = 1 ] || bad "stats" "exit status $rc, expected 1"
# games..depth are the same; bytes count the converted text; warn +1
awk '$NF ~ /sgf$/ { print $1, $2, $3, $4, $5, $6, $7, $8, $9 }' stats.txt >rows
[ "$(sort -u rows | wc -l)" = 2 ] && [ "$(awk '{ print $9 }' rows | tr '\n' ' ')" = "2 3 3 " ] &&
  [ "$(cut -d' ' -f1-8 rows | sort -u | wc -l)" = 1 ] ||
  bad "stats" "rows differ: $(cat stats.txt)"

# split: one UTF-8 file per game
mkdir d
"$sgf" split --compact -d d le.sgf 2>err
rc=$?
"$sgf" fmt --compact u8.sgf >want 2>/dev/null
same "split le" 1 $rc want d/le-0001.sgf

# A surrogate pair whose halves come in different reads of a pipe (and a
# code unit cut in two): converted whole
{
  head -c 20 le.sgf
  sleep 0.3
  tail -c +21 le.sgf | head -c 3
  sleep 0.3
  tail -c +24 le.sgf
} | "$sgf" fmt - >got 2>/dev/null
rc=$?
"$sgf" fmt u8.sgf >want 2>/dev/null
same "fmt from a pipe, a surrogate pair split" 1 $rc want got

# A lone surrogate (a high one before 'c'): fatal, where it would have
# been in the converted text (line 2, after "b"), nothing after it read
printf '\377\376(\000;\000C\000[\000a\000\n\000b\000\075\330c\000]\000)\000' >lone.sgf
for cmd in check events stats fmt mainline json; do
  "$sgf" $cmd lone.sgf >out 2>err
  rc=$?
  n=$((n + 1))
  [ $rc = 2 ] || bad "lone surrogate: $cmd" "exit status $rc, expected 2"
  case $cmd in
    stats) grep -q ' 1 .*lone\.sgf$' out ||
             bad "lone surrogate: stats" "no error counted: $(cat out)" ;;
    events) grep -q '^7 2:2 fatal utf16-invalid (42): ' out ||
             bad "lone surrogate: events" "not positioned: $(cat out)" ;;
    *) grep -q 'lone\.sgf:2:2: fatal: .*\[utf16-invalid' out err ||
         bad "lone surrogate: $cmd" "not positioned: $(cat out err)" ;;
  esac
done
# ... also with -j, on the thread pool
mkdir j
cp le.sgf lone.sgf u8.sgf j/
"$sgf" stats -j 2 --no-time j >out 2>&1
rc=$?
n=$((n + 1))
[ $rc = 2 ] || bad "stats -j" "exit status $rc, expected 2"
grep -q '^ *1 .* 3  *0 .*j/le\.sgf$' out || bad "stats -j" "le.sgf: $(cat out)"
grep -q ' 1  *1 .*j/lone\.sgf$' out || bad "stats -j" "lone.sgf: $(cat out)"

# A single NUL byte before ASCII SGF is not UTF-16 (big-endian UTF-16
# has two NULs there): the game is read, with a warning, by every command
printf '\000(;GM[1]SZ[19];B[pd])' >nul.sgf
printf '(;GM[1]SZ[19];B[pd])' >nonul.sgf
"$sgf" check nul.sgf >out 2>&1
rc=$?
n=$((n + 1))
[ $rc = 1 ] || bad "leading NUL: check" "exit status $rc, expected 1"
grep -q '^nul\.sgf:1:1: warning: .*\[junk-before/6\]' out ||
  bad "leading NUL: check" "no junk-before warning: $(cat out)"
grep -q 'utf16\|fatal' out && bad "leading NUL: check" "read as UTF-16: $(cat out)"
for cmd in "fmt" "mainline" "json"; do
  # shellcheck disable=SC2086
  "$sgf" $cmd <nonul.sgf >want 2>/dev/null
  # shellcheck disable=SC2086
  "$sgf" $cmd <nul.sgf >got0 2>/dev/null
  rc=$?
  # json's source position: the '(' after the NUL
  sed 's/"offset":1,"line":1,"column":2}/"offset":0,"line":1,"column":1}/' \
    got0 >got
  same "leading NUL: $cmd" 1 $rc want got
done
"$sgf" stats --no-time nul.sgf >out 2>&1
n=$((n + 1))
awk '$NF == "nul.sgf" && $1 == 1 && $6 == 1 { ok = 1 } END { exit !ok }' out ||
  bad "leading NUL: stats" "not one game of one move: $(cat out)"

# The README's quick start: the sample collection (one file is UTF-16)
# reads with warnings at most
if [ -d "$sample" ]; then
  "$sgf" stats --total "$sample" >/dev/null 2>err
  rc=$?
  n=$((n + 1))
  [ $rc = 1 ] || [ $rc = 0 ] || bad "stats on the sample" "exit $rc: $(cat err)"
fi

echo "tool-utf16: $n checks"
exit $fail
