#!/bin/sh
# run.sh SECONDS [TARGET...] - run the libFuzzer targets, from the build
# directory of a './configure CC=clang --enable-fuzzers' build ('make fuzz'
# and 'make fuzz-smoke' call this).
#
# Each target runs for SECONDS on its own growing corpus,
# fuzz-corpus/TARGET/, after the seeds of make-seeds.sh. A crash, leak,
# timeout or failed check stops the target; its input is written to
# fuzz-artifacts/ and this script fails. To keep it: copy it to
# test/regressions/ under a name saying what it is (make check replays it
# without clang), and report the bug.
#
# Environment: top_srcdir (default: the directory above this script's),
# FUZZ_ARGS (more libFuzzer options), SGF_FUZZ_TOLERATE (harness.c).
set -u
secs=${1:?usage: run.sh SECONDS [TARGET...]}
shift
targets=${*:-fuzz_parse fuzz_split fuzz_reader fuzz_tree fuzz_roundtrip fuzz_writer fuzz_cursor fuzz_unescape fuzz_value fuzz_tree_paths fuzz_charset fuzz_batch}
# sgf serve's targets are built only with the tools and http-parser
# (then 'make fuzz' builds them): by default they run when built.
if [ $# -eq 0 ]; then
  for t in fuzz_serve_conn fuzz_serve_http; do
    [ -x "./test/fuzz/$t" ] && targets="$targets $t"
  done
fi
here=$(cd "$(dirname "$0")" && pwd)
top=${top_srcdir:-$here/../..}

sh "$here/make-seeds.sh" "$top" fuzz-seeds || exit 1
mkdir -p fuzz-artifacts
fail=0
for t in $targets; do
  exe=./test/fuzz/$t
  if [ ! -x "$exe" ]; then
    echo "fuzz: $exe not built" >&2
    fail=1
    continue
  fi
  mkdir -p "fuzz-corpus/$t"
  log=fuzz-artifacts/$t.log
  # shellcheck disable=SC2086
  "$exe" -max_total_time="$secs" -max_len=16384 -timeout=30 \
    -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="fuzz-artifacts/$t-" ${FUZZ_ARGS:-} \
    "fuzz-corpus/$t" "fuzz-seeds/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n1)
  units=$(find "fuzz-corpus/$t" -type f | wc -l)
  echo "fuzz: $t: ${secs}s, ${execs:-?} executions, ${cov:-no coverage line}, corpus $units files, exit $rc"
  if [ $rc -ne 0 ]; then
    fail=1
    grep -E '^(fuzz_[a-z]+:|SUMMARY|==[0-9]+==ERROR|artifact_prefix|Test unit written)' "$log" | head -20
    echo "fuzz: $t failed; full log in $log" >&2
  fi
done
exit $fail
