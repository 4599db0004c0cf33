#!/bin/sh
# roundtrip.sh - parse -> write -> parse over the shared corpus (see
# test/corpus/roundtrip.c): every file of edge/ and dev/, and every file of the
# dev/*.tar.xz archives (extracted to a temporary directory).
#
# make check takes a sample: the smallest archive and one file in 8 of
# the rest, in sorted order; make check-full (SGF_TEST_FULL=1) all of it.
# SGF_CORPUS_EVERY=N overrides the sample (1: every file).
#
# The corpus is $srcdir/../shared/corpus unless SGF_CORPUS names it.
# Skips (77) when it is absent, or when SGF_SKIP_CORPUS=1.
srcdir=${srcdir:-.}
top_builddir=${top_builddir:-.}
corpus=${SGF_CORPUS:-$srcdir/../shared/corpus}
prog=$top_builddir/test/corpus/roundtrip

if [ "${SGF_SKIP_CORPUS:-0}" = 1 ]; then
  echo "roundtrip: SGF_SKIP_CORPUS=1: skipped"
  exit 77
fi
if [ ! -d "$corpus" ]; then
  echo "roundtrip: no corpus at $corpus (set SGF_CORPUS): skipped"
  exit 77
fi
if [ ! -x "$prog" ]; then
  echo "roundtrip: $prog not built"
  exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-roundtrip.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ "${SGF_TEST_FULL:-0}" != 0 ]; then every=${SGF_CORPUS_EVERY:-1}
else every=${SGF_CORPUS_EVERY:-8}; fi
if [ "$every" -le 1 ]; then
  archives=$(ls "$corpus"/dev/*.tar.xz 2>/dev/null)
else # the smallest
  archives=$(ls -S "$corpus"/dev/*.tar.xz 2>/dev/null | tail -n 1)
fi

# Extract the archives, side by side. Without xz they are left out.
dirs=
pids=
status=0
if command -v xz >/dev/null 2>&1; then
  for a in $archives; do
    [ -f "$a" ] || continue
    d=$tmp/$(basename "$a" .tar.xz)
    mkdir -p "$d" || exit 99
    dirs="$dirs $d"
    (xz -dc "$a" | tar -xf - -C "$d") &
    pids="$pids $!"
  done
else
  echo "roundtrip: no xz: the dev/*.tar.xz archives are left out"
fi
for p in $pids; do
  if ! wait "$p"; then
    echo "roundtrip: extracting an archive failed"
    status=1
  fi
done

# Every regular file but the archives and the notes; two processes.
find "$corpus/edge" "$corpus/dev" -type f ! -name '*.tar.xz' ! -name '*.md' |
  LC_ALL=C sort | awk -v n="$every" 'n <= 1 || NR % n == 1' >"$tmp/list" ||
  exit 99
[ -z "$dirs" ] || find $dirs -type f ! -name '*.md' >>"$tmp/list" || exit 99
total=$(wc -l <"$tmp/list")
echo "roundtrip: $total files (one in $every of edge/ and dev/;" \
  "archives:$(for a in $archives; do printf ' %s' "$(basename "$a")"; done))"
if [ "$total" -eq 0 ]; then
  echo "roundtrip: no files in $corpus: skipped"
  exit 77
fi
half=$(( (total + 1) / 2 ))
head -n "$half" "$tmp/list" >"$tmp/list1"
tail -n +"$((half + 1))" "$tmp/list" >"$tmp/list2"
"$prog" <"$tmp/list1" >"$tmp/out1" 2>"$tmp/err1" &
p1=$!
"$prog" <"$tmp/list2" >"$tmp/out2" 2>"$tmp/err2" &
p2=$!
wait "$p1" || status=1
wait "$p2" || status=1
cat "$tmp/err1" "$tmp/err2" | head -n 100
cat "$tmp/out1" "$tmp/out2"
exit $status
