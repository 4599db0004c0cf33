#!/bin/sh
# shards-open.sh - `sgf split --shards N` of a directory in which
# some files end inside a game tree (a missing ')', two missing, a value
# left open ending in a backslash, a '(' with nothing after it): each is
# closed in its shard as the parser's repair closes it, with a warning
# (exit status 1), so the shards hold the same games as the directory -
# `sgf stats` and `sgf fmt` over the shards equal them over the directory
# - and the shards, concatenated, are the files with only the closing
# bytes added. Plain `sgf split` (a file per game) of the same directory
# writes one file per game, the same games. A cut falls right before a
# game whose '(' is proved in a later read. Skips (77) without the sgf
# tool.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"

if [ ! -x "$sgf" ]; then
  echo "tool-shards-open: $sgf not built: skipped"
  exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

# games N: N games with a variation and a comment holding parentheses.
game='(;GM[1]PB[p]C[a (b) ;c];B[aa];W[bb](;B[cc])(;B[dd]))'
games() {
  i=0
  while [ "$i" -lt "$1" ]; do
    printf '%s\n' "$game"
    i=$((i + 1))
  done
}
mkdir "$tmp/d"
: >"$tmp/want"
# f<k>.sgf: 20 games; in f2 the last lacks its last ')', in f4 its last
# two; f5 ends in an open value ending in a backslash, f6 in a '(' after
# a game's move.
for k in 1 2 3 4 5 6 7; do
  f="$tmp/d/f$k.sgf"
  case $k in
    2) { games 19; printf '%s' "${game%)}"; } >"$f" && close=')' ;;
    4) { games 19; printf '%s' "${game%))}"; } >"$f" && close='))' ;;
    5) { games 20; printf '(;B[aa]C[open \\'; } >"$f" && close='\])' ;;
    6) { games 20; printf '(;B[aa](\n'; } >"$f" && close='))' ;;
    *) games 20 >"$f" && close= ;;
  esac
  cat "$f" >>"$tmp/want"
  printf '%s' "$close" >>"$tmp/want"
done

"$sgf" split --shards=4 -d "$tmp/sh" --pattern='s%n.sgf' "$tmp/d" \
  2>"$tmp/err"
st=$?
[ "$st" -eq 1 ] || fail "--shards: exit $st, want 1 (warnings)"
for k in 2 4 5 6; do
  grep -q "f$k.sgf: ends inside a .*closed in its shard" "$tmp/err" ||
    fail "f$k.sgf: no warning"
done
[ "$(wc -l <"$tmp/err")" -eq 4 ] || fail "not 4 warnings: $(cat "$tmp/err")"
[ "$(ls "$tmp/sh" | wc -l)" -eq 4 ] || fail "not 4 shards"
cat "$tmp/sh"/s000[1-4].sgf | cmp -s - "$tmp/want" ||
  fail "the shards are not the files with their closing bytes"
# the same games: counts and the normalized text
counts() {
  "$sgf" stats -t --no-time "$@" 2>/dev/null | tail -1 |
    awk '{print $1, $2, $3, $4, $5, $6}'
}
a=$(counts "$tmp/d")
b=$(counts "$tmp/sh")
[ "$a" = "$b" ] || fail "stats: shards '$b', directory '$a'"
[ "${a%% *}" -eq 142 ] || fail "stats: the directory has not 142 games: $a"
"$sgf" fmt "$tmp/d" >"$tmp/d.fmt" 2>/dev/null
"$sgf" fmt "$tmp/sh" >"$tmp/sh.fmt" 2>/dev/null
cmp -s "$tmp/d.fmt" "$tmp/sh.fmt" || fail "fmt: the shards' games differ"
# shards of one: the same
"$sgf" split --shards=1 -d "$tmp/one" "$tmp/d" 2>/dev/null
cmp -s "$tmp/one/d-shard-0001.sgf" "$tmp/want" || fail "1 shard: not want"

# plain split: one file per game, the same games
"$sgf" split -d "$tmp/p" "$tmp/d" 2>/dev/null
[ "$(ls "$tmp/p" | wc -l)" -eq 142 ] || fail "split: not 142 files"
c=$(counts "$tmp/p")
[ "$a" = "$c" ] || fail "split: files '$c', directory '$a'"

# a cut at a '(' read in one chunk and proved to open a game in the next
# (blanks across the boundary of the tool's 256 KiB reads): the shard
# ends right before it, not a game later
awk 'BEGIN {
  x = "x"; while (length(x) < 262123) x = x x
  printf "(;GM[1]C[%s])\n(", substr(x, 1, 262123)
  for (i = 0; i < 300; i++) printf " "
  printf ";GM[1]PB[two])\n(;GM[1]PB[three]C[%s])\n", substr(x, 1, 138000)
}' >"$tmp/cross.sgf"
"$sgf" split --shards=2 -d "$tmp/cr" "$tmp/cross.sgf" 2>/dev/null
if [ "$(wc -c <"$tmp/cr/cross-shard-0001.sgf")" -ne 262135 ] ||
  [ "$(head -c 1 "$tmp/cr/cross-shard-0002.sgf")" != "(" ] ||
  ! cat "$tmp/cr/cross-shard-0001.sgf" "$tmp/cr/cross-shard-0002.sgf" |
  cmp -s - "$tmp/cross.sgf"; then
  fail "a '(' across a read: shards of $(wc -c "$tmp"/cr/* | head -2)"
fi

if [ "$fails" -ne 0 ]; then
  echo "tool-shards-open: $fails failure(s)"
  exit 1
fi
echo "tool-shards-open: ok"
