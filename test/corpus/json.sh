#!/bin/sh
# json.sh - `sgf json`'s fast paths (move runs written from a
# template, the main line kept as JSON, header fields from prepared keys,
# printable text copied after one scan, escapes found 16 bytes at a time)
# write, over the whole shared corpus, the bytes the general path writes:
# SGF_JSON_SLOW=1 leaves every fast path out (no move runs, values
# decoded, the portable escape scans), so its output is the "before".
# Each mode (full, --mainline, --headers) on all files of edge/ and the
# dev/ folders in one run, stdout, stderr and exit status compared; the
# full output also with --chunk=7 (runs cut anywhere); the smallest
# archive (all of them with SGF_TEST_FULL=1).
# Skips (77) without ../shared/corpus or the sgf tool.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
corpus=${SGF_CORPUS:-$top_srcdir/../shared/corpus}
sgf="$top_builddir/sgf"
if [ ! -d "$corpus/edge" ] || [ ! -d "$corpus/dev" ]; then
  echo "tool-json-corpus: no corpus at $corpus: skipped"
  exit 77
fi
if [ ! -x "$sgf" ]; then
  echo "tool-json-corpus: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
corpus="$(cd "$corpus" && pwd)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-json-corpus.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0

find "$corpus/edge" "$corpus/dev" -type f ! -name '*.md' ! -name '*.tar.xz' |
  LC_ALL=C sort >files
if [ "${SGF_TEST_FULL:-0}" != 0 ]; then
  ls "$corpus"/dev/*.tar.xz 2>/dev/null
else # the smallest
  ls -S "$corpus"/dev/*.tar.xz 2>/dev/null | tail -n 1
fi >archives
set --
while IFS= read -r f; do set -- "$@" "$f"; done <files
nfiles=$#
[ "$nfiles" -gt 100 ] || { echo "FAIL: only $nfiles corpus files"; exit 1; }

# same LABEL ARGS...: the fast paths' output equals SGF_JSON_SLOW's.
same() {
  label=$1
  shift
  SGF_JSON_SLOW=1 "$sgf" json "$@" >slow.out 2>slow.err
  echo "exit $?" >>slow.err
  "$sgf" json "$@" >fast.out 2>fast.err
  echo "exit $?" >>fast.err
  if ! cmp -s slow.out fast.out; then
    echo "FAIL: sgf json $label: the output differs from SGF_JSON_SLOW's"
    cmp slow.out fast.out | head -3
    fail=1
  elif ! cmp -s slow.err fast.err; then
    echo "FAIL: sgf json $label: the diagnostics differ from SGF_JSON_SLOW's"
    diff slow.err fast.err | head -6
    fail=1
  elif [ ! -s fast.out ]; then
    echo "FAIL: sgf json $label: no output"
    fail=1
  fi
  lines=$(wc -l <fast.out)
  echo "tool-json-corpus: $label: $lines lines, $(wc -c <fast.out) bytes"
}

for mode in "" --mainline --headers; do
  same "${mode:-full} ($nfiles files)" $mode "$@"
done
same "--chunk=7 ($nfiles files)" --chunk=7 "$@"
while IFS= read -r a; do
  for mode in "" --mainline; do
    same "${mode:-full} $(basename "$a")" $mode "$a"
  done
done <archives

[ $fail -eq 0 ] && echo "tool-json-corpus: the fast paths write what the general path writes"
exit $fail
