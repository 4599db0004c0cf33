#!/bin/sh
# inplace.sh - the invariant of `sgf fmt -i` (see
# test/support/inplace-lib.sh: each file stays byte for byte the same, or is
# rewritten with the same events) on a copy of every file of
# ../shared/corpus/edge/, the strangest real files. Skips (77) when that
# directory or the sgf tool is absent. make check takes one file in 3
# (in sorted order), make check-full (SGF_TEST_FULL=1) every file;
# SGF_CORPUS_EVERY=N overrides.
. "${top_srcdir:-${srcdir:-.}}/test/support/inplace-lib.sh"
edge="$top_srcdir/../shared/corpus/edge"
if [ ! -d "$edge" ]; then
  echo "tool-inplace-corpus: no $edge: skipped"
  exit 77
fi
if [ "${SGF_TEST_FULL:-0}" != 0 ]; then every=${SGF_CORPUS_EVERY:-1}
else every=${SGF_CORPUS_EVERY:-3}; fi
files=0
i=0
for f in "$edge"/*; do
  [ -f "$f" ] || continue
  i=$((i + 1))
  [ "$every" -le 1 ] || [ $((i % every)) = 1 ] || continue
  files=$((files + 1))
  inplace_keeps "$f"
done
[ $files -gt 0 ] || { echo "tool-inplace-corpus: $edge is empty"; exit 77; }
echo "tool-inplace-corpus: $files files (one in $every), $rewritten of them rewritten"
exit $fail
