#!/usr/bin/env bash
# bench/filter.sh - `sgf filter` against `sgf stats` on the same collection
# in the same run, and the memory of --unique per game.
#
#   INPUT=bench/data/aeb.sgf SGF=./sgf [REPS=5] [NAME=Cho] bench/filter.sh
#
# 1. speed: `sgf stats INPUT` and `sgf filter --black NAME INPUT`
#    (the selected games written to /dev/null), REPS times each,
#    alternating, best wall time of each; the ratio is filter's speed as a
#    share of stats' (the target: at least 70%);
# 2. --unique: peak RSS of `sgf filter --unique --count` less that of
#    `sgf filter --moves-min 0 --count` (the same main-line parse without
#    the digest set), divided by the games: bytes per game (the target:
#    under 16).
# Prints one line per measurement. Exit status 0 unless a run failed
# (status 2 or a signal); timings never fail.
set -u
input=${INPUT:?INPUT=the collection}
sgf=${SGF:-./sgf}
reps=${REPS:-5}
name=${NAME:-Cho}
[ -x "$sgf" ] || { echo "filter.sh: no $sgf" >&2; exit 1; }
bytes=$(stat -c %s "$input")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-bench-filter.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0

# run LABEL ARGS...: wall seconds and peak RSS (KiB) of one run, appended
# to $tmp/LABEL as "seconds kib".
run() {
  label=$1
  shift
  /usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err"
  st=$?
  if [ $st -ge 2 ]; then
    echo "filter.sh: $* failed (status $st)" >&2
    head -3 "$tmp/err" >&2
    failed=1
  fi
  tail -1 "$tmp/t" >>"$tmp/$label"
}

best() { sort -n "$tmp/$1" | head -1 | cut -d' ' -f1; }
peak() { sort -n -k2 "$tmp/$1" | tail -1 | cut -d' ' -f2; }

for _ in $(seq "$reps"); do
  run stats "$sgf" stats "$input"
  run filter "$sgf" filter --black "$name" "$input"
done
games=$("$sgf" filter --count "$input" 2>/dev/null)
selected=$("$sgf" filter --count --black "$name" "$input" 2>/dev/null)
ts=$(best stats)
tf=$(best filter)
awk -v b="$bytes" -v ts="$ts" -v tf="$tf" -v g="$games" -v s="$selected" \
  -v n="$name" 'BEGIN {
  printf "  sgf stats:                 %7.1f MB/s  (%.3f s, %d games)\n", b / 1e6 / ts, ts, g
  printf "  sgf filter --black %-7s %7.1f MB/s  (%.3f s, %d selected)\n", n ":", b / 1e6 / tf, tf, s
  printf "  filter / stats speed:      %7.0f %%   (target >= 70 %%)\n", 100 * ts / tf }'

for _ in $(seq 3); do
  run plain "$sgf" filter --moves-min 0 --count "$input"
  run unique "$sgf" filter --unique --count "$input"
done
kp=$(peak plain)
ku=$(peak unique)
uniq=$("$sgf" filter --unique --count "$input" 2>/dev/null)
awk -v kp="$kp" -v ku="$ku" -v g="$games" -v u="$uniq" 'BEGIN {
  printf "  filter --unique:           %7.1f bytes/game  (peak RSS %d KiB vs %d KiB, %d games, %d unique; target < 16)\n", (ku - kp) * 1024 / g, ku, kp, g, u }'
exit $failed
