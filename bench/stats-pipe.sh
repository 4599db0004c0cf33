#!/usr/bin/env bash
# bench/stats-pipe.sh - `sgf stats -` on a large input arriving through a
# pipe: peak resident memory and throughput.
#
#   [SIZE_GB=2] [SIZE_MB=...] bench/stats-pipe.sh [SGF_STATS_ARGS...]
#
# The input is bench/data/aeb.sgf (see make-corpus.sh) written again and
# again into a pipe by a shell loop until at least SIZE_GB * 10^9 bytes
# (whole copies only, so every game is complete); nothing is written to
# disk. SIZE_MB, if set, overrides SIZE_GB (for quick runs).
#
# Peak RSS comes from GNU time (`/usr/bin/time -v`, "Maximum resident set
# size"; Debian package `time`); without it, from polling VmHWM in
# /proc/PID/status. Throughput is input bytes over wall time.
#
# Environment: SGF (the sgf program, default ./sgf in the current
# directory, else in the top directory), BENCH_DATA (default bench/data),
# INPUT (the file to repeat, default $BENCH_DATA/aeb.sgf), PIPE_CEILING=0
# to skip timing the bare pipe (generator into `cat >/dev/null`), RESULTS
# (a file: append one line for bench/run's summary, format in
# bench/util.h).
#
# Exit status: 0 unless a program is missing or `sgf` died of a signal
# (a non-zero exit of `sgf stats` is reported, not fatal).
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
data=${BENCH_DATA:-$here/data}
input=${INPUT:-$data/aeb.sgf}

if [ -n "${SGF:-}" ]; then
  sgf=$SGF
elif [ -x ./sgf ]; then
  sgf=./sgf
else
  sgf=$top/sgf
fi

if [ ! -x "$sgf" ]; then
  echo "stats-pipe.sh: no sgf program at $sgf (build it with 'make', or set SGF=...)" >&2
  exit 1
fi
if [ ! -f "$input" ]; then
  echo "stats-pipe.sh: no input $input (run bench/make-corpus.sh first)" >&2
  exit 1
fi

file_bytes=$(wc -c <"$input")
if [ -n "${SIZE_MB:-}" ]; then
  want=$((SIZE_MB * 1000000))
else
  want=$(awk -v g="${SIZE_GB:-2}" 'BEGIN { printf "%.0f", g * 1e9 }')
fi
copies=$(( (want + file_bytes - 1) / file_bytes ))
[ "$copies" -ge 1 ] || copies=1
total=$((copies * file_bytes))

generate() {
  local i
  for ((i = 0; i < copies; i++)); do
    cat "$input" || return 1
  done
}

now_ns() { date +%s%N; }

# The sgf program may be a libtool wrapper script: measure the real binary,
# not a shell, through libtool's execute mode.
runner=()
if head -c 4096 "$sgf" 2>/dev/null | grep -q 'libtool' 2>/dev/null; then
  lt=
  for cand in "$(dirname "$sgf")/libtool" ./libtool "$top/libtool"; do
    [ -x "$cand" ] && { lt=$cand; break; }
  done
  if [ -n "$lt" ]; then
    runner=("$lt" --mode=execute)
  else
    echo "stats-pipe.sh: note: $sgf is a libtool wrapper and no libtool script was found; RSS includes the wrapper shell" >&2
  fi
fi

printf 'stats-pipe: %s x %d = %d bytes (%.2f GB) through a pipe into %s stats -%s\n' \
  "$input" "$copies" "$total" "$(awk -v t="$total" 'BEGIN { print t / 1e9 }')" "$sgf" \
  "$( [ $# -gt 0 ] && printf ' %s' "$@")"

# Warm up: the input in the page cache, the CPUs awake.
cat "$input" >/dev/null

if [ "${PIPE_CEILING:-1}" != 0 ]; then
  best=
  for _ in 1 2; do  # best of two: the first big pipe of a run is often slow
    t0=$(now_ns)
    generate | cat >/dev/null
    t1=$(now_ns)
    [ -z "$best" ] || [ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
  done
  awk -v b="$total" -v ns="$best" \
    'BEGIN { printf "  pipe alone (generator | cat):   %8.1f MB/s\n", b / 1e6 / (ns / 1e9) }'
fi

out=$(mktemp "${TMPDIR:-/tmp}/stats-pipe.XXXXXX")
err=$out.err
tv=$out.time
trap 'rm -f "$out" "$err" "$tv"' EXIT

time_bin=
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
  time_bin=/usr/bin/time
fi

peak_kb=
if [ -n "$time_bin" ]; then
  t0=$(now_ns)
  generate | "${runner[@]}" "$time_bin" -v -o "$tv" "$sgf" stats "$@" - >"$out" 2>"$err"
  st=${PIPESTATUS[1]}
  t1=$(now_ns)
  peak_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$tv")
  if grep -q 'Command terminated by signal' "$tv"; then
    st=$((128 + $(sed -n 's/.*Command terminated by signal \([0-9]*\).*/\1/p' "$tv")))
  fi
  method="/usr/bin/time -v"
else
  echo "stats-pipe.sh: /usr/bin/time not found (install it: apt-get install time); polling VmHWM instead" >&2
  t0=$(now_ns)
  generate | "${runner[@]}" "$sgf" stats "$@" - >"$out" 2>"$err" &
  pid=$!
  hwm=0
  while kill -0 "$pid" 2>/dev/null; do
    v=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" 2>/dev/null)
    [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
    sleep 0.05
  done
  wait "$pid"
  st=$?
  t1=$(now_ns)
  peak_kb=$hwm
  method="VmHWM polling (lower bound)"
fi

ns=$((t1 - t0))
awk -v b="$total" -v ns="$ns" -v kb="${peak_kb:-0}" -v m="$method" 'BEGIN {
  printf "  sgf stats - (wall):             %8.1f MB/s  (%.2f s)\n", b / 1e6 / (ns / 1e9), ns / 1e9
  printf "  sgf stats - peak RSS:           %8.2f MiB (%d KiB, %s)\n", kb / 1024, kb, m
}'
if [ "$st" -ne 0 ]; then
  echo "  sgf stats exit status: $st"
  if [ -s "$err" ]; then
    echo "  stderr (last lines):"
    tail -n 5 "$err" | sed 's/^/    /'
  fi
fi
if [ -s "$out" ]; then
  echo "  sgf stats output (first lines):"
  head -n 12 "$out" | sed 's/^/    /'
fi

if [ -n "${RESULTS:-}" ]; then
  # games: the first column of the last line of numbers (the total)
  games=$(awk '$1 ~ /^[0-9]+$/ { g = $1 } END { print g + 0 }' "$out")
  printf 'sgf stats - pipe\t%s\t%s\t%s\t1\t%s\t%s\n' "$total" \
    "$(awk -v ns="$ns" 'BEGIN { printf "%.9f", ns / 1e9 }')" "$games" \
    "$(( ${peak_kb:-0} * 1024 ))" "$( [ -n "$peak_kb" ] && [ "$peak_kb" -gt 0 ] && echo rss || echo -)" >>"$RESULTS"
fi

if [ "$st" -ge 126 ]; then
  echo "stats-pipe.sh: sgf stats failed (status $st)" >&2
  exit 1
fi
exit 0
