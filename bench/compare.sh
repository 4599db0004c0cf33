#!/usr/bin/env bash
# bench/compare.sh - two builds, before and after, measured in one run.
#
#   bench/compare.sh [-r ROUNDS | --ir] BEFORE_BUILD_DIR AFTER_BUILD_DIR [FILE]
#
# Each build directory is a configured build of sgfstream (the one with
# ./tools/sgf or ./sgf and the Makefile). FILE defaults to
# bench/data/aeb.sgf (bench/make-corpus.sh makes it).
#
# The two builds take turns, ROUNDS times (default 5), the order swapped
# every round, so that load on a shared machine falls on both alike. Each
# turn runs bench_events, bench_tree and bench_write (in memory, one
# repetition each) and times these commands on FILE, output to /dev/null:
#   sgf stats, sgf json, sgf json --headers, sgf fmt, sgf check.
# A row's time is its best over the rounds. Its noise is the spread of
# the same build's rounds, (worst - best) / best, the larger of the two
# builds'. A row is called slower only when the after build's best is
# above the before build's best by more than that noise.
#
# --ir: instead, count instructions with valgrind --tool=callgrind (they
# repeat exactly, load or not) for the same sgf commands on FILE (use a
# few MB: bench/data/aeb.sgf's first 5 MB, say), and print instructions
# per input byte (Ir/B) for each build.
#
# Exit status: 0 when both builds ran every row, 1 when a row could not
# run. Timings never fail the run; the table is for people.
set -u

rounds=5
ir=no
while [ $# -gt 0 ]; do
  case $1 in
    -r) shift; rounds=${1:?-r wants a number} ;;
    --ir) ir=yes ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "bench/compare.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
[ $# -ge 2 ] || { echo "usage: bench/compare.sh [-r ROUNDS] BEFORE_BUILD AFTER_BUILD [FILE]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
before=$(cd "$1" && pwd) || exit 2
after=$(cd "$2" && pwd) || exit 2
file=${3:-$here/data/aeb.sgf}
[ -f "$file" ] || { echo "bench/compare.sh: $file: no such file (run bench/make-corpus.sh)" >&2; exit 2; }
file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")

sgf_of() {
  if [ -x "$1/tools/sgf" ]; then echo "$1/tools/sgf"; else echo "$1/sgf"; fi
}
for b in "$before" "$after"; do
  make -s -C "$b" bench/bench_events bench/bench_tree bench/bench_write >/dev/null ||
    { echo "bench/compare.sh: cannot build the bench programs in $b" >&2; exit 1; }
  [ -x "$(sgf_of "$b")" ] || { echo "bench/compare.sh: no sgf in $b" >&2; exit 1; }
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bytes=$(wc -c <"$file")
fail=0

if [ $ir = yes ]; then
  command -v valgrind >/dev/null || { echo "bench/compare.sh: --ir needs valgrind" >&2; exit 2; }
  echo "bench/compare.sh --ir: $file ($bytes bytes), callgrind instructions per input byte"
  printf '%-26s %10s %10s %8s\n' "command" "before" "after" "change"
  for cmd in "stats" "json" "json --headers" "fmt" "check"; do
    irs=
    for dir in "$before" "$after"; do
      # shellcheck disable=SC2086
      "$dir/libtool" --mode=execute \
        valgrind --tool=callgrind --callgrind-out-file="$out/cg" "$(sgf_of "$dir")" $cmd "$file" \
        >/dev/null 2>"$out/log"
      n=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$out/log" | tail -n 1)
      [ -n "$n" ] || { echo "sgf $cmd: callgrind failed in $dir" >&2; fail=1; n=0; }
      irs="$irs $n"
    done
    echo "$irs" | awk -v c="sgf $cmd" -v b="$bytes" '{ printf "%-26s %10.2f %10.2f %+7.1f%%\n", c, $1 / b, $2 / b, $1 ? 100 * ($2 / $1 - 1) : 0 }'
  done
  exit $fail
fi

# one_turn SIDE DIR: append "row<TAB>seconds" lines to $out/SIDE.tsv
one_turn() {
  local side=$1 dir=$2 sgf p cmd t0 t1
  sgf=$(sgf_of "$dir")
  for p in events tree write; do
    "$dir/bench/bench_$p" -n 1 --results "$out/r.tsv" "$file" >/dev/null 2>&1 ||
      { echo "bench_$p failed in $dir" >&2; fail=1; }
    awk -F'\t' '{ print $1 "\t" $3 }' "$out/r.tsv" >>"$out/$side.tsv"
    rm -f "$out/r.tsv"
  done
  for cmd in "stats" "json" "json --headers" "fmt" "check"; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$sgf" $cmd "$file" >/dev/null 2>&1
    [ $? -le 1 ] || { echo "sgf $cmd failed in $dir" >&2; fail=1; }
    t1=$(date +%s.%N)
    printf 'sgf %s\t%s\n' "$cmd" "$(echo "$t1 - $t0" | bc)" >>"$out/$side.tsv"
  done
}

for r in $(seq 1 "$rounds"); do
  printf 'round %d of %d\n' "$r" "$rounds" >&2
  if [ $((r % 2)) = 1 ]; then
    one_turn before "$before"; one_turn after "$after"
  else
    one_turn after "$after"; one_turn before "$before"
  fi
done

echo "bench/compare.sh: $file ($bytes bytes), $rounds rounds, best of each"
echo "  before: $before ($(git -C "$before" rev-parse --short HEAD 2>/dev/null || echo '?'))"
echo "  after:  $after ($(git -C "$after" rev-parse --short HEAD 2>/dev/null || echo '?'))"
awk -F'\t' -v bytes="$bytes" '
  FNR == 1 { side = (FILENAME ~ /before/) ? "b" : "a" }
  $1 == "memchr" || $2 + 0 <= 0 { next }
  {
    k = side SUBSEP $1
    if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
    if (!(k in best) || $2 < best[k]) best[k] = $2
    if (!(k in worst) || $2 > worst[k]) worst[k] = $2
  }
  END {
    printf "%-26s %10s %10s %8s %7s  %s\n", "row", "before", "after", "change", "noise", "verdict"
    slower = 0
    for (i = 1; i <= n; i++) {
      r = order[i]; kb = "b" SUBSEP r; ka = "a" SUBSEP r
      if (!(kb in best) || !(ka in best)) { printf "%-26s %10s\n", r, "(one side only)"; continue }
      nb = worst[kb] / best[kb] - 1; na = worst[ka] / best[ka] - 1
      noise = nb > na ? nb : na
      ch = best[ka] / best[kb] - 1
      v = "same"
      if (ch > noise) { v = "SLOWER"; slower++ } else if (-ch > noise) v = "faster"
      printf "%-26s %8.1f MB/s %8.1f MB/s %+7.1f%% %6.1f%%  %s\n", r, bytes / best[kb] / 1e6,
        bytes / best[ka] / 1e6, -100 * (best[ka] - best[kb]) / best[ka], 100 * noise, v
    }
    printf "%d row(s) slower beyond the noise of this run\n", slower
  }' "$out/before.tsv" "$out/after.tsv"
exit $fail
