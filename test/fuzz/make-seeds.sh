#!/bin/sh
# make-seeds.sh TOP_SRCDIR OUTDIR - seed corpora for the fuzz targets.
#
# Collects test/cases/*/input.sgf and the shared corpus' edge/ files
# (../shared/corpus beside the source tree, or $SGF_CORPUS) and writes,
# for each target, OUTDIR/TARGET/ with every file behind the header bytes
# that target reads first (see test/fuzz/harness.h), in a few settings:
#   fuzz_parse   lenient; strict; mainline
#   fuzz_split   byte by byte; 7-byte chunks pausing at every 3rd callback
#   fuzz_reader  max_value_bytes 1021; 129 with failing allocations
#   fuzz_tree    defaults; collecting, keeping, small limits, failing
#                allocations
#   fuzz_roundtrip  compact; readable, 300-byte buffer, width 20, a sink
#                taking 7 bytes a call, 5-byte chunks
#   fuzz_writer  a few scripts of writer calls (not made from the files)
# The files of test/regressions/ (inputs that once failed) go into every
# target's directory as they are. OUTDIR is emptied first. Under the
# build directory it is ignored by git (fuzz-seeds/).
set -eu
top=${1:?usage: make-seeds.sh TOP_SRCDIR OUTDIR}
out=${2:?usage: make-seeds.sh TOP_SRCDIR OUTDIR}
corpus=${SGF_CORPUS:-$top/../shared/corpus}

rm -rf "$out"
targets="fuzz_parse fuzz_split fuzz_reader fuzz_tree fuzz_roundtrip fuzz_writer"
for t in $targets; do mkdir -p "$out/$t"; done

# fuzz_writer: options, sink, then one call a byte (see harness.h).
w=$out/fuzz_writer
printf '\000\000\000\001\002\000\002\003\004\003abc\006\010' >"$w/plain"
printf '\001\007\000\001\002\001\002\017\005\003a]\\\012\010' >"$w/readable"
printf '\021\000\000\001\002\000\002\005\042a:b\\\005\103x\r\n\004\002\\]\006\007\001\000\001\010\010' \
  >"$w/variations"
printf '\143\003\000\000\001\001\002\201\003\004\011\004\005\\\\]\\\011\003\002\\x\010\000\010' >"$w/small"

# seed FILE NAME: write the variants of one input.
seed() {
  f=$1
  n=$2
  { printf '\000'; cat "$f"; } >"$out/fuzz_parse/$n-lenient"
  { printf '\001'; cat "$f"; } >"$out/fuzz_parse/$n-strict"
  { printf '\002'; cat "$f"; } >"$out/fuzz_parse/$n-mainline"
  { printf '\000\000\000\000'; cat "$f"; } >"$out/fuzz_split/$n-bytes"
  { printf '\000\000\003\001\007'; cat "$f"; } >"$out/fuzz_split/$n-chunks"
  { printf '\000\377\000\000\000\000'; cat "$f"; } >"$out/fuzz_reader/$n-big"
  { printf '\000\040\006\003\100\000'; cat "$f"; } >"$out/fuzz_reader/$n-fail"
  { printf '\000\000\000\000\000\000'; cat "$f"; } >"$out/fuzz_tree/$n-plain"
  { printf '\000\057\050\200\200\000'; cat "$f"; } >"$out/fuzz_tree/$n-fail"
  { printf '\000\000\000\000'; cat "$f"; } >"$out/fuzz_roundtrip/$n-compact"
  { printf '\000\167\007\005'; cat "$f"; } >"$out/fuzz_roundtrip/$n-readable"
}

count=0
for f in "$top"/test/cases/*/input.sgf; do
  [ -f "$f" ] || continue
  d=${f%/input.sgf}
  seed "$f" "case-${d##*/}"
  count=$((count + 1))
done
if [ -d "$corpus/edge" ]; then
  i=0
  for f in "$corpus"/edge/*; do
    case $f in *.md) continue ;; esac
    [ -f "$f" ] || continue
    i=$((i + 1))
    seed "$f" "edge-$i"
    count=$((count + 1))
  done
fi
for f in "$top"/test/regressions/*; do
  case $f in *.md) continue ;; esac
  [ -f "$f" ] || continue
  for t in $targets; do
    cp "$f" "$out/$t/regression-${f##*/}"
  done
  count=$((count + 1))
done
echo "make-seeds: $count inputs into $out/ ($targets)"
