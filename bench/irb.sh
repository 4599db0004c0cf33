#!/usr/bin/env bash
# bench/irb.sh - instructions per input byte (Ir/B) of each sgf command of
# issue 30, from callgrind on a 5 MB prefix of the collection: a count
# that does not move with the load of the machine, where MB/s does.
#
#   bench/irb.sh [--mb N] [--results FILE] [INPUT]
#
# Run it from the build directory (the one with ./sgf), or set SGF. INPUT
# (default bench/data/aeb.sgf) is cut to its first N MB (default 5) in a
# temporary file; each command reads it once under
# valgrind --tool=callgrind, output to /dev/null (split --shards into a
# temporary directory), and its total Ir over the prefix's bytes is
# printed, one line per command: "COMMAND<TAB>Ir/B<TAB>Ir". --results
# FILE appends the same lines to FILE (bench/run --irb reads them).
# Process start (the dynamic linker: about 1 Ir/B on 5 MB) is counted:
# it is part of running the command.
#
# Needs valgrind (callgrind); exit status 77 without it, 1 if a command
# could not run (exit status 2 or above, a signal). Takes about a minute.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mb=5
results=
while [ $# -gt 0 ]; do
  case $1 in
    --mb) shift; mb=${1:?--mb wants a number} ;;
    --results) shift; results=${1:?--results wants a file} ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "irb.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) break ;;
  esac
  shift
done
input=${1:-${BENCH_DATA:-$here/data}/aeb.sgf}
command -v valgrind >/dev/null 2>&1 ||
  { echo "irb.sh: no valgrind: skipped"; exit 77; }
[ -f "$input" ] || { echo "irb.sh: no $input" >&2; exit 1; }

# The program itself, not libtool's wrapper script (valgrind would count
# the shell).
sgf=${SGF:-./sgf}
if [ -z "${SGF:-}" ] && head -c 4096 "$sgf" 2>/dev/null | grep -q libtool && [ -x ./libtool ]; then
  real=$(./libtool --mode=execute echo ./sgf 2>/dev/null)
  if [ -n "$real" ] && [ -x "$real" ]; then
    LD_LIBRARY_PATH=$(pwd)/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
    sgf=$real
  fi
fi
[ -x "$sgf" ] || { echo "irb.sh: no $sgf (run it from the build directory, or set SGF)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-irb.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
head -c $((mb * 1000000)) "$input" >"$tmp/prefix.sgf"
bytes=$(wc -c <"$tmp/prefix.sgf")
failed=0

# The commands of issue 30, in the order of its table ('|' separates
# arguments).
commands=(
  "stats"
  "stats|--summary"
  "check"
  "filter|--black=Cho"
  "filter|--starts-with=pd dd"
  "json"
  "json|--mainline"
  "json|--headers"
  "fmt"
  "fmt|--compact"
  "mainline"
  "split|--shards=4|-d|$tmp/shards"
)
for c in "${commands[@]}"; do
  IFS='|' read -r -a args <<<"$c"
  rm -rf "$tmp/shards" "$tmp/cg"
  valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" \
    "$sgf" "${args[@]}" "$tmp/prefix.sgf" >/dev/null 2>"$tmp/err"
  st=$?
  label=$(printf '%s ' "${args[@]}" | sed "s#-d $tmp/shards ##; s/ \$//")
  if [ $st -ge 2 ] || [ ! -s "$tmp/cg" ]; then
    echo "irb.sh: sgf $label failed (status $st)" >&2
    grep -v '^==' "$tmp/err" | head -3 >&2
    failed=1
    continue
  fi
  ir=$(awk '/^(summary|totals):/ { print $2; exit }' "$tmp/cg")
  line=$(awk -v l="sgf $label" -v ir="$ir" -v b="$bytes" \
    'BEGIN { printf "%s\t%.1f\t%s\n", l, ir / b, ir }')
  echo "$line"
  [ -n "$results" ] && echo "$line" >>"$results"
done
exit $failed
