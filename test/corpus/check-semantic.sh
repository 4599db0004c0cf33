#!/bin/sh
# check-semantic.sh - the semantic checks over the shared corpus: `sgf
# check` on every file must not crash (exit status 0 to 3, under
# timeout), must print the same with --chunk=7 as whole, and
# --syntax-only must print none of the checks' codes (28 to 40). Prints
# how often each check fires, over the files and over the archives of
# real games (dev/*.tar.xz), so real-file frequencies stay visible in
# the test log. The corpus is ../shared/corpus beside the source tree, or
# $SGF_CORPUS; skips (77) without it or the sgf tool.
#
# make check takes a sample: one .sgf file in 8 of the corpus, in sorted
# order, and the smallest archive; make check-full (SGF_TEST_FULL=1) the
# whole corpus directory and every archive. SGF_CORPUS_EVERY=N overrides
# the sample (1: all).
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
corpus=${SGF_CORPUS:-$top_srcdir/../shared/corpus}
sgf="$top_builddir/sgf"
T=${SGF_CORPUS_TIMEOUT:-300}
if [ ! -d "$corpus" ]; then
  echo "corpus-check: no corpus at $corpus (set SGF_CORPUS): skipped"
  exit 77
fi
if [ ! -x "$sgf" ] || ! command -v timeout >/dev/null 2>&1; then
  echo "corpus-check: no $sgf or no timeout(1): skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-corpus-check.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

# check NAME ARGS...: sgf check ARGS into $tmp/NAME.
check() {
  name=$1
  shift
  timeout "$T" "$sgf" check "$@" >"$tmp/$name" 2>"$tmp/$name.err"
  st=$?
  if [ "$st" -gt 3 ]; then
    echo "FAIL: sgf check $*: exit status $st (crash or timeout)"
    tail -5 "$tmp/$name.err"
    fail=1
  fi
}
if [ "${SGF_TEST_FULL:-0}" != 0 ]; then every=${SGF_CORPUS_EVERY:-1}
else every=${SGF_CORPUS_EVERY:-8}; fi
if [ "$every" -le 1 ]; then
  set -- "$corpus"
else
  set --
  find "$corpus" -type f -name '*.sgf' | LC_ALL=C sort |
    awk -v n="$every" 'NR % n == 1' >"$tmp/sample"
  while IFS= read -r f; do set -- "$@" "$f"; done <"$tmp/sample"
  echo "corpus-check: $# files (one .sgf file in $every)"
fi
check whole "$@"
check chunk7 --chunk=7 "$@"
check syntax --syntax-only "$@"
# the archives of real games (dev/*.tar.xz), for the counts
if [ "$every" -le 1 ]; then
  set -- "$corpus"/dev/*.tar.xz
else # the smallest
  set -- "$(ls -S "$corpus"/dev/*.tar.xz 2>/dev/null | tail -n 1)"
fi
[ -f "$1" ] && check archives "$@"
if ! cmp -s "$tmp/whole" "$tmp/chunk7"; then
  echo "FAIL: --chunk=7 output differs from the whole-buffer output"
  diff "$tmp/whole" "$tmp/chunk7" | head -20
  fail=1
fi
codes() { sed -n 's/.*\[\([a-z0-9-]*\)\/\([0-9]*\)\].*/\2 \1/p' "$1"; }
if codes "$tmp/syntax" | awk '$1 >= 28 && $1 <= 40' | grep -q .; then
  echo "FAIL: --syntax-only reported semantic checks"
  fail=1
fi
counts() { # FILE: findings per check
  codes "$1" | awk '$1 >= 28 && $1 <= 40' | sort | uniq -c |
    sort -k2n | awk '{ printf "  %s %s %d\n", $2, $3, $1 }'
}
echo "corpus-check: the corpus's .sgf files: $(tail -1 "$tmp/whole.err")"
echo "corpus-check: findings per check (code name count):"
counts "$tmp/whole"
if [ -f "$tmp/archives" ]; then
  echo "corpus-check: the archives: $(tail -1 "$tmp/archives.err")"
  counts "$tmp/archives"
fi
[ $fail -eq 0 ] && echo "corpus-check: no crash, chunking-independent"
exit $fail
