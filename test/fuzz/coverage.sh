#!/bin/sh
# coverage.sh [-C CORPORA] [TARGET[=DIR]...] - line coverage of the
# library (lib/*/*.c) reached by the fuzz targets' corpora.
#
# Builds the library and the fuzz targets with clang source-based coverage
# (-fprofile-instr-generate -fcoverage-mapping, on top of the usual
# --enable-fuzzers flags; static library, so each target holds the
# instrumented code) in a scratch directory, replays each target's corpus
# once (libFuzzer's -runs=0: every file is run, nothing is mutated),
# merges the profiles with llvm-profdata and prints, from llvm-cov, the
# line coverage of each lib/*/*.c file and the total, for all targets
# together, then the total of each target alone.
#
#   TARGET        replay CORPORA/TARGET (CORPORA: -C, default fuzz-corpus
#                 in the current directory, as run.sh keeps it)
#   TARGET=DIR    replay DIR
#   no TARGET     every target that has a directory in CORPORA
#
# Environment: top_srcdir (default: two directories above this script),
# COVERAGE_DIR (scratch directory, default ./fuzz-coverage; the build is
# kept there and reused), CC (default clang), LLVM_PROFDATA and LLVM_COV
# (default: the first of llvm-profdata / llvm-cov, then the -14 ... -19
# versioned names, that is on PATH), SGF_FUZZ_TOLERATE (harness.c).
# The per-file report stays in COVERAGE_DIR/report.txt; for annotated
# sources: llvm-cov show -instr-profile=COVERAGE_DIR/all.profdata \
#   COVERAGE_DIR/build/test/fuzz/fuzz_parse FILE.c
set -u
corpora=fuzz-corpus
if [ "${1:-}" = "-C" ]; then
  corpora=${2:?usage: coverage.sh [-C CORPORA] [TARGET[=DIR]...]}
  shift 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "${top_srcdir:-$here/../..}" && pwd)
cov=${COVERAGE_DIR:-fuzz-coverage}
mkdir -p "$cov" || exit 1
cov=$(cd "$cov" && pwd)
corpora_abs=$(cd "$corpora" 2>/dev/null && pwd) || corpora_abs=$corpora

find_tool() { # NAME: the first of NAME, NAME-14 ... NAME-19 on PATH
  for v in "" -14 -15 -16 -17 -18 -19; do
    if command -v "$1$v" >/dev/null 2>&1; then
      echo "$1$v"
      return 0
    fi
  done
  return 1
}
profdata=${LLVM_PROFDATA:-$(find_tool llvm-profdata)} || {
  echo "coverage: llvm-profdata not found (apt-get install llvm)" >&2
  exit 1
}
llvmcov=${LLVM_COV:-$(find_tool llvm-cov)} || {
  echo "coverage: llvm-cov not found (apt-get install llvm)" >&2
  exit 1
}

# The targets and their corpora.
all_targets="fuzz_parse fuzz_split fuzz_reader fuzz_tree fuzz_roundtrip"
all_targets="$all_targets fuzz_writer fuzz_cursor fuzz_unescape fuzz_charset fuzz_batch"
pairs=
if [ $# -eq 0 ]; then
  for t in $all_targets; do
    [ -d "$corpora_abs/$t" ] && pairs="$pairs $t=$corpora_abs/$t"
  done
else
  for a in "$@"; do
    case $a in
      *=*) d=${a#*=}; d=$(cd "$d" 2>/dev/null && pwd) || d=${a#*=}
        pairs="$pairs ${a%%=*}=$d" ;;
      *) pairs="$pairs $a=$corpora_abs/$a" ;;
    esac
  done
fi
if [ -z "$pairs" ]; then
  echo "coverage: no corpus directory in $corpora (run 'make fuzz' first," \
    "or name TARGET=DIR)" >&2
  exit 1
fi

# The instrumented build.
build=$cov/build
mkdir -p "$build"
if [ ! -f "$build/Makefile" ]; then
  echo "coverage: configuring in $build"
  (cd "$build" && "$top/configure" CC="${CC:-clang}" --enable-fuzzers \
    --disable-shared \
    CFLAGS="-O1 -g -fprofile-instr-generate -fcoverage-mapping" \
    LDFLAGS="-fprofile-instr-generate" >configure.log 2>&1) || {
    echo "coverage: configure failed; see $build/configure.log" >&2
    exit 1
  }
fi
exes=
for p in $pairs; do exes="$exes test/fuzz/${p%%=*}"; done
echo "coverage: building$exes"
# shellcheck disable=SC2086
(cd "$build" && make -j2 $exes >make.log 2>&1) || {
  echo "coverage: the build failed; see $build/make.log" >&2
  exit 1
}

# Replay each corpus into its own profiles.
rm -rf "$cov/profiles"
mkdir -p "$cov/profiles"
fail=0
objects=
for p in $pairs; do
  t=${p%%=*}
  d=${p#*=}
  if [ ! -d "$d" ]; then
    echo "coverage: $t: no directory $d" >&2
    fail=1
    continue
  fi
  n=$(find "$d" -type f | wc -l)
  LLVM_PROFILE_FILE="$cov/profiles/$t-%p.profraw" \
    "$build/test/fuzz/$t" -runs=0 -max_len=1048576 -rss_limit_mb=4096 \
    -timeout=60 "$d" >"$cov/profiles/$t.log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "coverage: $t: the replay failed (exit $rc); see" \
      "$cov/profiles/$t.log" >&2
    fail=1
  fi
  if ls "$cov/profiles/$t"-*.profraw >/dev/null 2>&1; then
    "$profdata" merge -sparse "$cov/profiles/$t"-*.profraw \
      -o "$cov/profiles/$t.profdata" || fail=1
    objects="$objects $build/test/fuzz/$t"
  fi
  echo "coverage: $t: replayed $n files of $d"
done
[ -n "$objects" ] || exit 1
"$profdata" merge -sparse "$cov"/profiles/*.profdata -o "$cov/all.profdata" ||
  exit 1

# report PROFDATA: llvm-cov's per-file report over lib/*/*.c. The first
# binary is the main object, the others are -object, and so is the static
# library: a file no target links (no function of it called) is then
# still counted, at 0%.
report() {
  first=
  rest=
  for o in $objects; do
    if [ -z "$first" ]; then first=$o; else rest="$rest -object $o"; fi
  done
  if [ -f "$build/lib/.libs/libsgfstream.a" ]; then
    rest="$rest -object $build/lib/.libs/libsgfstream.a"
  fi
  # shellcheck disable=SC2086
  "$llvmcov" report -instr-profile="$1" "$first" $rest "$top"/lib/*/*.c
}
# Lines, missed lines and cover are the three fields before the
# branches' three (llvm-cov 12 and later) at the end of each row.
table() {
  awk -v top="$top/" '
    /^Filename/ || /^-+$/ || NF < 10 { next }
    {
      name = $1; sub(top, "", name)
      lines = $(NF - 5); missed = $(NF - 4); pct = $(NF - 3)
      if (name == "TOTAL") { tl = lines; tm = missed; tp = pct; next }
      printf "  %-22s %7d %7d  %7s\n", name, lines, lines - missed, pct
    }
    END { printf "  %-22s %7d %7d  %7s\n", "total", tl, tl - tm, tp }'
}
report "$cov/all.profdata" >"$cov/report.txt" || exit 1
echo
echo "line coverage of lib/*/*.c, all targets together:"
printf "  %-22s %7s %7s  %7s\n" file lines covered cover
table <"$cov/report.txt"
echo
echo "each target alone (total over lib/*/*.c):"
for o in $objects; do
  t=${o##*/}
  objects_one=$o
  tot=$(objects=$objects_one; report "$cov/profiles/$t.profdata" |
    awk '$1 == "TOTAL" { printf "%d of %d lines, %s", $(NF-5) - $(NF-4), $(NF-5), $(NF-3) }')
  printf "  %-16s %s\n" "$t" "$tot"
done
echo
echo "coverage: report in $cov/report.txt"
exit $fail
