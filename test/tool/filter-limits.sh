#!/bin/sh
# filter-limits.sh - `sgf filter` at the limits (issue 26):
#   memory: a root node with a 100 MB comment is counted in small memory
#   (peak RSS from /usr/bin/time -f %M, against `stats --summary` on the
#   same file), and --max-game-bytes bounds what the conditions read of
#   the root and what is held of a game, with an error at the game's '('
#   and status 2;
#   errors: 10^6 nested variations stop filter with the fatal depth-limit
#   at the same position and status as check (also in parts of a game
#   passed over, and in mainline mode's secondary variations), and a
#   truncated .gz is an error whose cut game is written as far as it was
#   read and left unclosed (or neither written nor counted);
#   options: --max-game-bytes takes K, M, G and names itself when refused;
#   --count --json is a usage error; filter.sh passes (not skips)
#   without ../shared.
# What needs a missing tool (/usr/bin/time, gzip) is skipped with a
# message, the rest runs. Skips (77) when the sgf tool is not built.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-filter-limits: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
builddir="$(cd "$top_builddir" && pwd)"
src="$(cd "$top_srcdir" && pwd)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-filter-limits.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0
n=0

bad() {
  echo "FAIL: $*"
  [ -s err.txt ] && sed 's/^/  stderr: /' err.txt | head -5
  fail=1
}

# ------------------------------------------------------------ memory
# Two games; the first's root holds a 100 MB comment.
{
  printf '(;GM[1]PB[Lee]C['
  head -c 100000000 /dev/zero | tr '\0' a
  printf '];B[pd];W[dd])\n(;PB[Cho];B[pd])\n'
} >big.sgf
if [ ! -x /usr/bin/time ]; then
  echo "tool-filter-limits: no /usr/bin/time: peak memory not measured"
  rss() { # rss ARGS...: sgf ARGS... >out.txt 2>err.txt; $st, $kb (0)
    "$sgf" "$@" >out.txt 2>err.txt
    st=$?
    kb=0
  }
else
  rss() { # rss ARGS...: sgf ARGS... >out.txt 2>err.txt; $st, $kb peak RSS
    /usr/bin/time -o rss.txt -f %M "$sgf" "$@" >out.txt 2>err.txt
    st=$?
    kb=$(tail -1 rss.txt)
  }
fi
rss stats --summary big.sgf
base=$kb
# the bound: what stats --summary takes, and 16 MB more (a 100 MB value
# held once would be far over it)
limit=$((base + 16384))
n=$((n + 1))
rss filter --count big.sgf
if [ "$st" != 0 ] || [ "$(cat out.txt)" != 2 ] || [ "$kb" -gt "$limit" ]; then
  bad "filter --count, a 100 MB root comment: status $st, '$(cat out.txt)'" \
    "(want 0, 2), peak $kb KB (stats --summary $base KB)"
fi
n=$((n + 1))
rss filter --count --black cho --max-game-bytes=1M big.sgf
if [ "$st" != 0 ] || [ "$(cat out.txt)" != 1 ] || [ "$kb" -gt "$limit" ]; then
  bad "filter --count --black cho --max-game-bytes=1M: status $st," \
    "'$(cat out.txt)' (want 0, 1), peak $kb KB"
fi
# a condition that reads the comment: over --max-game-bytes, an error
n=$((n + 1))
rss filter --count --prop C:x --max-game-bytes=1048576 big.sgf
if [ "$st" != 2 ] || [ "$(cat out.txt)" != 0 ] || [ "$kb" -gt "$limit" ] ||
  ! grep -q '^big.sgf:1:1: error: .*over 1048576 bytes (--max-game-bytes)' \
    err.txt || ! grep -q 'not counted' err.txt; then
  bad "filter --count --prop C:x --max-game-bytes=1048576: status $st," \
    "'$(cat out.txt)', peak $kb KB: want 2, 0, an error at 1:1"
fi
# writing the games: the first is held while its root is read, up to
# --max-game-bytes; over it an error, the other game still written
n=$((n + 1))
rss filter --prop PB --max-game-bytes=1M big.sgf
if [ "$st" != 2 ] || [ "$(cat out.txt)" != '(;PB[Cho];B[pd])' ] ||
  [ "$kb" -gt "$limit" ] ||
  ! grep -q '^big.sgf:1:1: error: .*over 1048576 bytes (--max-game-bytes)' \
    err.txt; then
  bad "filter --prop PB --max-game-bytes=1M: status $st, peak $kb KB:" \
    "want 2, the second game, an error at 1:1"
fi
# a condition on the moves: the moves' values are bounded too
printf '(;PB[x];B[%s])\n' "$(head -c 3000 /dev/zero | tr '\0' a)" >mv.sgf
n=$((n + 1))
"$sgf" filter --count --moves-min 1 --max-game-bytes=1K mv.sgf \
  >out.txt 2>err.txt
st=$?
[ "$st" = 2 ] && [ "$(cat out.txt)" = 0 ] &&
  grep -q '^mv.sgf:1:1: error: .*over 1024 bytes (--max-game-bytes)' err.txt ||
  bad "a 3000-byte move, --moves-min 1 --count --max-game-bytes=1K: $st"
rm -f big.sgf

# ------------------------------------------------------------ errors
# 10^6 nested variations: check stops at the 10,001st '(' (offset
# 70000), fatal depth-limit, status 2; so does filter, however it reads
# the game (passing it over after the root, or reading its main line)
awk 'BEGIN {
  s = "(;B[aa]"
  for (i = 0; i < 20; i++) s = s s # 2^20 of them
  printf "(;GM[1]%s", s
  s = ")"
  for (i = 0; i < 20; i++) s = s s
  printf "%s)\n", s
}' >deep.sgf
"$sgf" check deep.sgf >check.txt 2>&1
cst=$?
grep -q '^deep.sgf:1:70001: fatal: .*\[depth-limit' check.txt ||
  bad "check deep.sgf: $(head -1 check.txt)"
head -c 70000 deep.sgf >deep-cut.sgf
echo >>deep-cut.sgf
for a in "" "--count" "--black x" "-v --black x" "--moves-min 1" "--json" \
  "--chunk=4096"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$sgf" filter $a deep.sgf >out.txt 2>err.txt
  st=$?
  if [ "$st" != "$cst" ] ||
    ! grep -q '^deep.sgf:1:70001: fatal: .*\[depth-limit' err.txt; then
    bad "filter $a deep.sgf: status $st (check: $cst), no depth-limit at 1:70001"
  fi
  case "$a" in
    "" | "-v --black x" | "--chunk=4096") # streamed: what was read, open
      cmp -s out.txt deep-cut.sgf ||
        bad "filter $a deep.sgf: not the game up to the error, unclosed" ;;
    --count) [ "$(cat out.txt)" = 0 ] || bad "filter --count deep.sgf" ;;
    *) [ -s out.txt ] && bad "filter $a deep.sgf: wrote $(wc -c <out.txt)" ;;
  esac
done
# a deep secondary variation: passed over in mainline mode, still a limit
awk 'BEGIN {
  s = "(;B[aa]"
  for (i = 0; i < 14; i++) s = s s
  printf "(;GM[1];B[aa](;W[bb])%s", s
  s = ")"
  for (i = 0; i < 14; i++) s = s s
  printf "%s)\n", s
}' >deep2.sgf
for c in "filter --moves-min 1" "filter --unique" "mainline"; do
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$sgf" $c deep2.sgf >out.txt 2>err.txt
  st=$?
  [ "$st" = 2 ] && grep -q '^deep2.sgf:1:70015: fatal: .*\[depth-limit' err.txt ||
    bad "$c deep2.sgf: status $st, want the depth-limit at 1:70015"
done

# A truncated .gz: an error (status 2), and the game it cuts is never
# written as if whole
if ! command -v gzip >/dev/null 2>&1; then
  echo "tool-filter-limits: no gzip: the truncated .gz is skipped"
else
  awk 'BEGIN {
    for (g = 0; g < 2; g++) {
      printf "(;PB[p%d]", g
      for (i = 0; i < 3000; i++)
        printf ";%s[%c%c]C[comment %d, some text to make it long]",
          i % 2 ? "W" : "B", 97 + i % 19, 97 + int(i / 19) % 19, i
      printf ")\n"
    }
  }' >two.sgf
  gzip -c two.sgf | head -c 10000 >cut.sgf.gz
  n=$((n + 1))
  "$sgf" filter cut.sgf.gz >out.txt 2>err.txt
  st=$?
  len=$(($(wc -c <out.txt) - 1))
  head -c "$len" two.sgf >want.txt
  echo >>want.txt
  if [ "$st" != 2 ] || ! grep -Eq 'truncated|cut off' err.txt ||
    ! grep -q '^cut.sgf.gz:1:1: error: .*cut short.*unclosed' err.txt ||
    [ "$len" -lt 1000 ] || ! cmp -s out.txt want.txt; then
    bad "filter cut.sgf.gz: status $st, want 2, the game as far as read" \
      "and unclosed ($len bytes)"
  fi
  n=$((n + 1))
  "$sgf" filter --count cut.sgf.gz >out.txt 2>err.txt
  st=$?
  [ "$st" = 2 ] && [ "$(cat out.txt)" = 0 ] ||
    bad "filter --count cut.sgf.gz: status $st, '$(cat out.txt)', want 2, 0"
  n=$((n + 1))
  "$sgf" filter --moves-min 1 cut.sgf.gz >out.txt 2>err.txt
  st=$?
  [ "$st" = 2 ] && [ ! -s out.txt ] && grep -q 'not written' err.txt ||
    bad "filter --moves-min 1 cut.sgf.gz: status $st, want 2 and no game"
fi

# ------------------------------------------------------------ options
printf '(;PB[a];B[aa])\n(;PB[b];B[bb])\n' >two-small.sgf
for a in 1K 2k 1M 1G 4096; do
  n=$((n + 1))
  c=$("$sgf" filter --count --moves-min 1 --max-game-bytes="$a" \
    two-small.sgf 2>err.txt)
  [ "$c" = 2 ] || bad "--max-game-bytes=$a: '$c', want 2"
done
for a in 1X 1MB 0 x ""; do
  n=$((n + 1))
  "$sgf" filter --count --max-game-bytes="$a" two-small.sgf >out.txt 2>err.txt
  st=$?
  if [ "$st" != 2 ] || [ -s out.txt ] ||
    ! grep -q "invalid --max-game-bytes '$a'" err.txt ||
    grep -q chunk err.txt; then
    bad "--max-game-bytes='$a': status $st, want 2 naming the option"
  fi
done
n=$((n + 1))
"$sgf" filter --count --json two-small.sgf >out.txt 2>err.txt
st=$?
[ "$st" = 2 ] && [ ! -s out.txt ] && grep -q -- '--count and --json' err.txt ||
  bad "--count --json: status $st, want a usage error (2)"
n=$((n + 1))
"$sgf" filter --json --count two-small.sgf >out.txt 2>err.txt
st=$?
[ "$st" = 2 ] && [ ! -s out.txt ] || bad "--json --count: status $st, want 2"

# filter.sh with no ../shared: its other checks run and it passes
n=$((n + 1))
mkdir -p nosrc/src
top_srcdir="$tmp/nosrc/src" top_builddir="$builddir" \
  sh "$src/test/tool/filter.sh" >tf.txt 2>&1
st=$?
if [ "$st" != 0 ] || ! grep -q 'corpus part is skipped' tf.txt; then
  bad "filter.sh without ../shared: status $st, want 0 (PASS)"
  sed 's/^/  /' tf.txt | tail -5
fi

echo "tool-filter-limits: $n checks"
exit $fail
