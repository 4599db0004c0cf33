#!/bin/sh
# archives.sh - SGF inside compressed files and archives: `sgf stats`
# must count the same games, nodes, properties, values and moves in
# game.sgf.gz / .xz / .bz2 (and .zst, .lz4, .zip, .7z when those tools are
# installed) as in the plain files, and in tar.gz / tar.xz / zip archives of
# several files as in the files themselves; an archive without any .sgf
# member is reported (exit status 3), never an empty success. (libarchive's
# mtree format once took a decompressed SGF file for a listing, and the
# games were lost without a word.) Skips (77) when the sgf tool is not
# built.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-archives: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
sample="$(cd "$top_srcdir/test/data/sample" && pwd)" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-archives.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0
n=0
skipped=""

# counts FILE...: the counting columns of `sgf stats` total line (games to
# errors: no time, no name)
counts() {
  "$sgf" stats "$@" 2>err.txt | tail -n 1 | awk '{print $1,$2,$3,$4,$5,$6,$7,$8,$9,$10}'
}

# same NAME WANT GOT
same() {
  n=$((n + 1))
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1: counts '$3', expected '$2'"
    [ -s err.txt ] && sed 's/^/  stderr: /' err.txt
    fail=1
  fi
}

have() { command -v "$1" >/dev/null 2>&1; }

# One game, compressed alone, written as online-go.com writes them: one
# property or node per line (the shape mtree's bidder took for a listing).
{
  printf '(;FF[4]\nGM[1]\nDT[2018-05-11]\nPC[OGS: https://online-go.com/game/1]\n'
  printf 'PB[black]\nPW[white]\nRE[B+R]\nSZ[19]\nKM[6.5]\nRU[japanese]\n'
  for m in pd dp qp dd oq qj fc hc fe df fg dh jc id jd if je hg fi dj; do
    printf ';B[%s]\n;W[%s]\n' "$m" "$(echo "$m" | tr abcdefghijklmnopqrs srqponmlkjihgfedcba)"
  done
  printf 'C[white: thanks\nblack: thanks\n]\n)\n'
} >game.sgf
want=$(counts game.sgf)
case $want in
  "1 "*) ;;
  *) echo "FAIL: the plain sample $one gives '$want'"; exit 1 ;;
esac
gzip -c game.sgf >game.sgf.gz
same "game.sgf.gz" "$want" "$(counts game.sgf.gz)"
if have xz; then
  xz -c game.sgf >game.sgf.xz
  same "game.sgf.xz" "$want" "$(counts game.sgf.xz)"
else skipped="$skipped xz"; fi
if have bzip2; then
  bzip2 -c game.sgf >game.sgf.bz2
  same "game.sgf.bz2" "$want" "$(counts game.sgf.bz2)"
else skipped="$skipped bzip2"; fi
if have zstd; then
  zstd -q -c game.sgf >game.sgf.zst
  same "game.sgf.zst" "$want" "$(counts game.sgf.zst)"
else skipped="$skipped zstd"; fi
if have lz4; then
  lz4 -q -c game.sgf >game.sgf.lz4
  same "game.sgf.lz4" "$want" "$(counts game.sgf.lz4)"
else skipped="$skipped lz4"; fi
# read from standard input too
same "gzip on stdin" "$want" "$(gzip -c game.sgf | counts -)"
# `sgf check` sees the one file
n=$((n + 1))
out=$("$sgf" check game.sgf.gz 2>&1)
case $out in
  *"checked 1 file"*) ;;
  *) echo "FAIL: sgf check game.sgf.gz: $out"; fail=1 ;;
esac

# Several files, archived.
mkdir -p set/sub
i=0
find "$sample" -name '*.sgf' | LC_ALL=C sort | head -n 12 >names.txt
while IFS= read -r f; do
  i=$((i + 1))
  if [ $((i % 2)) = 0 ]; then cp "$f" "set/sub/g$i.sgf"; else cp "$f" "set/g$i.SGF"; fi
done <names.txt
echo "not a game" >set/readme.txt
want=$(counts set/g*.SGF set/sub/*.sgf)
tar -czf set.tar.gz set
same "set.tar.gz" "$want" "$(counts set.tar.gz)"
if have xz; then
  tar -cJf set.tar.xz set
  same "set.tar.xz" "$want" "$(counts set.tar.xz)"
fi
if have zip; then
  zip -qr set.zip set
  same "set.zip" "$want" "$(counts set.zip)"
  zip -qj one.zip game.sgf
  same "one.zip" "$(counts game.sgf)" "$(counts one.zip)"
else skipped="$skipped zip"; fi
if have 7z; then
  7z a -bd set.7z set >/dev/null
  same "set.7z" "$want" "$(counts set.7z)"
elif have 7za; then
  7za a -bd set.7z set >/dev/null
  same "set.7z" "$want" "$(counts set.7z)"
else skipped="$skipped 7z"; fi

# A directory: compressed .sgf files are read like plain ones, other
# files not.
mkdir -p d/sub
cp game.sgf d/a.sgf
gzip -c game.sgf >d/sub/b.SGF.gz
cp game.sgf.gz d/c.gz # no .sgf in the name: not read
echo "x" >d/notes.txt
want=$(counts game.sgf game.sgf)
same "directory with a .sgf.gz" "$want" "$(counts d)"

# No .sgf member: no input (3), with a message that says so.
mkdir -p none
echo "hello" >none/readme.txt
tar -czf none.tar.gz none
n=$((n + 1))
"$sgf" stats none.tar.gz >/dev/null 2>err.txt
rc=$?
if [ $rc = 0 ] || ! grep -q "no .sgf file" err.txt; then
  echo "FAIL: none.tar.gz: exit $rc, stderr: $(cat err.txt)"
  fail=1
fi

[ -n "$skipped" ] && echo "tool-archives: not installed, not tried:$skipped"
if [ $fail = 0 ]; then
  echo "tool-archives: all $n checks passed"
  exit 0
fi
exit 1
