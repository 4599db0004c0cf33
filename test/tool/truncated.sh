#!/bin/sh
# truncated.sh - a truncated compressed file (game.sgf.gz, .xz, .bz2)
# gives the parser every byte that can be decoded before the cut, as
# zcat and xzcat give them: `sgf stats cut.sgf.gz` counts the same games,
# variations, nodes, properties, moves, depth and bytes as
# `zcat cut.sgf.gz | sgf stats -`, marks the input incomplete, says why on
# standard error and exits 2. (libarchive hands over decoded data in
# blocks of 64 KiB and dropped the block it was filling at the cut: the
# games before it were lost, all of them in a small file.) The collection
# is test/data/sample, concatenated; cut at 500 bytes and at several
# points further on, read by name, from standard input and with -j 2;
# and a tar.gz of the sample, cut, has each member before the cut read.
# Skips (77) when the sgf tool is not built.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-truncated: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
sample="$(cd "$top_srcdir/test/data/sample" && pwd)" || exit 99
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-truncated.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0
n=0
skipped=""

find "$sample" -type f -name '*.sgf' | LC_ALL=C sort >names.txt
while IFS= read -r f; do cat "$f"; done <names.txt >all.sgf
[ -s all.sgf ] || { echo "tool-truncated: no sample"; exit 99; }

# counts: the counting columns of the total line of the stats output on
# standard input: games, variations, nodes, properties, moves, depth,
# bytes (not values: a value cut off at the end of the input is counted
# when the input ends there, not when its reading breaks off)
counts() { tail -n 1 | awk '{print $1,$2,$3,$4,$6,$7,$8}'; }

# try SUFFIX DECOMPRESSOR CUT: all.sgf compressed into all.sgf.SUFFIX, cut
# after CUT bytes
try() {
  suf=$1 dec=$2 cut=$3
  f=cut-$cut.sgf.$suf
  head -c "$cut" "all.sgf.$suf" >"$f"
  want=$($dec <"$f" 2>/dev/null | "$sgf" stats - 2>/dev/null | counts)
  for how in name stdin j2; do
    n=$((n + 1))
    case $how in
      name) "$sgf" stats "$f" >out.txt 2>err.txt ;;
      stdin) "$sgf" stats - <"$f" >out.txt 2>err.txt ;;
      j2) "$sgf" stats -j 2 "$f" all.sgf >out.txt 2>err.txt ;;
    esac
    rc=$?
    if [ $how = j2 ]; then
      got=$(grep -F "$f (incomplete)" out.txt | counts)
    else
      got=$(counts <out.txt)
    fi
    if [ "$got" != "$want" ]; then
      echo "FAIL: $f ($how): counts '$got', $dec gives '$want'"
      fail=1
    elif [ $rc != 2 ]; then
      echo "FAIL: $f ($how): exit status $rc, expected 2"
      fail=1
    elif ! grep -q "(incomplete)" out.txt || ! [ -s err.txt ]; then
      echo "FAIL: $f ($how): not marked incomplete, or no error said"
      fail=1
    fi
  done
}

# cuts SUFFIX DECOMPRESSOR: 500 bytes, then a quarter, half and nine
# tenths of the compressed file
cuts() {
  size=$(wc -c <"all.sgf.$1")
  for cut in 500 $((size / 4)) $((size / 2)) $((size * 9 / 10)); do
    try "$1" "$2" "$cut"
  done
}

gzip -c all.sgf >all.sgf.gz
cuts gz "gzip -dc"
if command -v xz >/dev/null 2>&1; then
  xz -c all.sgf >all.sgf.xz
  cuts xz "xz -dc"
else skipped="$skipped xz"; fi
# bzip2 -dc writes 5000 bytes at a time and drops the piece it was
# filling at a cut: Python's bz2 module hands over every byte decoded.
bunzip() {
  python3 -c 'import bz2, sys
d = bz2.BZ2Decompressor()
sys.stdout.buffer.write(d.decompress(sys.stdin.buffer.read()))'
}
if command -v bzip2 >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  # 100 kB blocks, so that whole blocks come before each cut (a bzip2
  # block is decoded only whole)
  bzip2 -1 -c all.sgf >all.sgf.bz2
  cuts bz2 bunzip
else skipped="$skipped bzip2"; fi

# A truncated .tar.gz: every member whose header comes before the cut
# (as tar lists them) is read, the error said, exit 2.
(cd "$sample" && LC_ALL=C find . -type f -name '*.sgf' | LC_ALL=C sort |
  tar -czf "$tmp/set.tar.gz" -T -) || exit 99
size=$(wc -c <set.tar.gz)
for cut in 2000 $((size / 3)) $((size * 2 / 3)); do
  head -c "$cut" set.tar.gz >cut.tar.gz
  gzip -dc <cut.tar.gz 2>/dev/null | tar -tf - 2>/dev/null >members.txt
  n=$((n + 1))
  "$sgf" stats cut.tar.gz >out.txt 2>err.txt
  rc=$?
  if [ $rc != 2 ] || ! grep -q 'cut off' err.txt || ! [ -s members.txt ]; then
    echo "FAIL: set.tar.gz cut at $cut: exit $rc, stderr: $(cat err.txt)"
    fail=1
  fi
  while IFS= read -r m; do
    if ! grep -q -F "cut.tar.gz:$m" out.txt; then
      echo "FAIL: set.tar.gz cut at $cut: member $m not read"
      fail=1
    fi
  done <members.txt
done

# The whole files are read whole, with no error.
for suf in gz xz bz2; do
  [ -f all.sgf.$suf ] || continue
  n=$((n + 1))
  want=$("$sgf" stats all.sgf 2>/dev/null | counts)
  got=$("$sgf" stats all.sgf.$suf 2>err.txt | counts)
  if [ "$got" != "$want" ] || [ -s err.txt ]; then
    echo "FAIL: all.sgf.$suf: counts '$got', expected '$want'; $(cat err.txt)"
    fail=1
  fi
done

[ -n "$skipped" ] && echo "tool-truncated: not installed, not tried:$skipped"
if [ $fail = 0 ]; then
  echo "tool-truncated: all $n checks passed"
  exit 0
fi
exit 1
