#!/bin/sh
# detect.sh - how sgf(1) tells what an input is (INPUT in the man
# page). A file given by name, or found in a directory, whose name ends in
# .sgf (any case) is one plain SGF input whatever its first bytes: 1024
# zero bytes before the game (which begin an empty tar archive) once made
# it "no .sgf file in this tar archive", exit 3, for stats, check, a
# directory walk and fmt -i alike. Standard input and other names are
# recognised by their first bytes: such a stream is an empty tar archive
# (3), as the man page says. A compressed file named *.sgf.gz (.xz, .zst
# ...) is decompressed, and what it holds is one SGF input, never an
# archive. An empty compressed file (gzip, xz or bzip2 of
# nothing, a zero-byte x.sgf.gz) is an empty input, exactly like an empty
# .sgf (no-game-tree, 2), never libarchive's "Unrecognized archive
# format". Skips (77) when the sgf tool is not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-detect: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-detect.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0
n=0
skipped=""

# bad LABEL MESSAGE
bad() {
  echo "FAIL: $1: $2"
  [ -s err.txt ] && sed 's/^/  stderr: /' err.txt | head -5
  fail=1
}

# expect LABEL WANT_RC: $rc (set by the caller) is WANT_RC, and standard
# error does not take the input for an archive.
expect() {
  n=$((n + 1))
  if [ "$rc" != "$2" ]; then
    bad "$1" "exit status $rc, expected $2"
  elif grep -q -i 'archive' err.txt; then
    bad "$1" "taken for an archive"
  fi
}

# games FILE: the games column of stats' total line, from out.txt
games() { tail -n 1 out.txt | awk '{print $1}'; }

printf '(;FF[4]GM[1]SZ[9]PB[b]PW[w];B[aa];W[bb];B[cc])\n' >game.sgf
# 1024 zero bytes, then the game: the two zero blocks of an empty tar
{
  head -c 1024 /dev/zero
  cat game.sgf
} >nul.sgf
cp nul.sgf NUL.SGF

# 1. Given by name: one input, the game in it read (the zero bytes are
# text before the game tree: a warning, exit 1).
for f in nul.sgf NUL.SGF; do
  "$sgf" stats "$f" >out.txt 2>err.txt
  rc=$?
  expect "stats $f" 1
  n=$((n + 1))
  [ "$(games)" = 1 ] || bad "stats $f" "counts $(games) games, expected 1"
done
"$sgf" check nul.sgf >out.txt 2>err.txt
rc=$?
expect "check nul.sgf" 1
n=$((n + 1))
grep -q '^nul.sgf:1:1: warning: .*junk-before' out.txt ||
  bad "check nul.sgf" "no junk-before warning at 1:1: $(cat out.txt)"
# ... also with -j 2 (each file read by a thread of its own)
"$sgf" stats -j 2 nul.sgf game.sgf >out.txt 2>err.txt
rc=$?
expect "stats -j 2 nul.sgf game.sgf" 1
n=$((n + 1))
[ "$(games)" = 2 ] || bad "stats -j 2" "counts $(games) games, expected 2"

# 2. Found in a directory: the same.
mkdir -p d/sub
cp nul.sgf d/sub/a.sgf
cp game.sgf d/b.sgf
"$sgf" stats d >out.txt 2>err.txt
rc=$?
expect "stats on a directory" 1
n=$((n + 1))
[ "$(games)" = 2 ] || bad "stats d" "counts $(games) games, expected 2"

# 3. fmt -i: left alone (the rewrite would drop the zero bytes: refused,
# 2, as for any plain file with text before its game), and with --force
# rewritten exactly as fmt writes it to standard output; in a directory
# too.
"$sgf" fmt nul.sgf >want.sgf 2>/dev/null
cp nul.sgf inplace.sgf
"$sgf" fmt -i inplace.sgf >out.txt 2>err.txt
rc=$?
expect "fmt -i" 2
n=$((n + 1))
cmp -s inplace.sgf nul.sgf || bad "fmt -i" "the file was changed"
grep -q 'would drop input' err.txt || bad "fmt -i" "not refused for the drop"
"$sgf" fmt -i --force inplace.sgf >out.txt 2>err.txt
rc=$?
expect "fmt -i --force" 1
n=$((n + 1))
cmp -s inplace.sgf want.sgf || bad "fmt -i --force" "not rewritten as fmt writes it"
"$sgf" fmt -i --force d >out.txt 2>err.txt
rc=$?
expect "fmt -i --force on a directory" 1
n=$((n + 1))
cmp -s d/sub/a.sgf want.sgf || bad "fmt -i --force d" "d/sub/a.sgf not rewritten"

# 4. Standard input, and a name not ending in .sgf, are recognised by
# their first bytes: an empty tar archive (3), said on standard error.
for how in stdin name; do
  if [ $how = stdin ]; then
    "$sgf" stats - <nul.sgf >out.txt 2>err.txt
  else
    cp nul.sgf nul.dat
    "$sgf" stats nul.dat >out.txt 2>err.txt
  fi
  rc=$?
  n=$((n + 1))
  if [ $rc != 3 ] || ! grep -q 'no .sgf file in this tar archive' err.txt; then
    bad "NUL-prefixed game, $how" "exit $rc, expected 3 and an empty tar"
  fi
done

# 4b. Compressed, named *.sgf.gz (or .zst): decompressed, and what it
# holds is one SGF input; the same bytes named nul.gz are recognised by
# what they hold, an empty tar.
gzip -c nul.sgf >nul.sgf.gz
cp nul.sgf.gz nul.gz
set -- nul.sgf.gz nul.gz
if command -v zstd >/dev/null 2>&1; then
  zstd -q -c nul.sgf >nul.sgf.zst
  cp nul.sgf.zst nul.zst
  set -- "$@" nul.sgf.zst nul.zst
else skipped="$skipped zstd"; fi
for f in "$@"; do
  "$sgf" stats "$f" >out.txt 2>err.txt
  rc=$?
  case $f in
    *.sgf.*)
      expect "stats $f" 1
      n=$((n + 1))
      [ "$(games)" = 1 ] || bad "stats $f" "counts $(games) games, expected 1"
      ;;
    *)
      n=$((n + 1))
      if [ $rc != 3 ] || ! grep -q 'no .sgf file in this tar archive' err.txt; then
        bad "stats $f" "exit $rc, expected 3 and an empty tar"
      fi
      ;;
  esac
done

# 5. A file named .sgf is read as it is, whatever it holds: gzip data in
# game.sgf is not decompressed (it holds no game tree: 2), while the same
# bytes named game.sgf.gz are.
gzip -c game.sgf >zipped.sgf
"$sgf" check zipped.sgf >out.txt 2>err.txt
rc=$?
expect "gzip data named .sgf" 2
n=$((n + 1))
grep -q 'no-game-tree' out.txt || bad "gzip data named .sgf" "$(cat out.txt)"

# 6. Empty compressed files: the same as an empty .sgf, messages and exit
# status (2), under their own names.
: >empty.sgf
"$sgf" check empty.sgf >want.txt 2>/dev/null
wantrc=$?
# same_as_empty LABEL FILE: check FILE says what it says of empty.sgf
same_as_empty() {
  "$sgf" check "$2" >out.txt 2>err.txt
  rc=$?
  expect "$1" $wantrc
  n=$((n + 1))
  sed "s|^empty.sgf:|$2:|" want.txt | cmp -s - out.txt ||
    bad "$1" "check says '$(cat out.txt)'"
  if grep -q -i 'unrecognized' err.txt; then bad "$1" "libarchive's wording"; fi
}
: | gzip -c >empty.sgf.gz
same_as_empty "gzip of nothing" empty.sgf.gz
: >zero.sgf.gz
same_as_empty "zero-byte .sgf.gz" zero.sgf.gz
if command -v xz >/dev/null 2>&1; then
  : | xz -c >empty.sgf.xz
  same_as_empty "xz of nothing" empty.sgf.xz
else skipped="$skipped xz"; fi
if command -v bzip2 >/dev/null 2>&1; then
  : | bzip2 -c >empty.sgf.bz2
  same_as_empty "bzip2 of nothing" empty.sgf.bz2
else skipped="$skipped bzip2"; fi
# (zstd, lz4: through libarchive, which finds no format in nothing)
for z in zstd lz4; do
  if command -v $z >/dev/null 2>&1; then
    : | $z -q -c >empty.sgf.$z
    same_as_empty "$z of nothing" empty.sgf.$z
  else skipped="$skipped $z"; fi
done
# ... in a directory, and on standard input
mkdir -p e
cp empty.sgf.gz e/
"$sgf" stats e >out.txt 2>err.txt
rc=$?
expect "gzip of nothing in a directory" $wantrc
: | gzip -c | "$sgf" check - >out.txt 2>err.txt
rc=$?
expect "gzip of nothing on stdin" $wantrc
n=$((n + 1))
grep -q '^<stdin>:1:1: .*no-game-tree' out.txt ||
  bad "gzip of nothing on stdin" "$(cat out.txt)"

[ -n "$skipped" ] && echo "tool-detect: not installed, not tried:$skipped"
if [ $fail = 0 ]; then
  echo "tool-detect: all $n checks passed"
  exit 0
fi
exit 1
