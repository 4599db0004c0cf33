#!/bin/sh
# check-runs.sh - test/unit/check-runs.sh over the shared corpus: the
# semantic checks with MOVE RUNS (sgf_check_moves, in bulk) find what
# they find without, in every .sgf file of ../shared/corpus (or
# $SGF_CORPUS), fed whole, in chunks and cut at 64 points, lenient and
# strict (test/unit/check_runs); and `sgf check` prints the same as `sgf check
# --chunk=1` (no runs) over the corpus directory and the smaller archives
# of real games (make check-full: every archive). Skips (77) without the
# corpus or test/unit/check_runs.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
corpus=${SGF_CORPUS:-$top_srcdir/../shared/corpus}
prog="$top_builddir/test/unit/check_runs"
sgf="$top_builddir/sgf"
if [ ! -d "$corpus" ]; then
  echo "check-runs-corpus: no corpus at $corpus (set SGF_CORPUS): skipped"
  exit 77
fi
if [ ! -x "$prog" ]; then
  echo "check-runs-corpus: $prog not built: skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-check-runs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0

find "$corpus" -type f \( -name '*.sgf' -o -name '*.SGF' \) \
  -exec "$prog" {} + >"$tmp/runs.out" 2>&1
if grep -q '^FAIL\|cannot read' "$tmp/runs.out" ||
  ! grep -q 'the same findings' "$tmp/runs.out"; then
  echo "FAIL: check_runs over the corpus:"
  grep -v '^ ' "$tmp/runs.out" | head -20
  fail=1
fi
grep '^check_runs:' "$tmp/runs.out"

if [ -x "$sgf" ]; then
  set -- "$corpus"
  for a in "$corpus"/dev/*.tar.xz; do
    [ -f "$a" ] || continue
    # the largest (100 MB of games) only in make check-full
    if [ "${SGF_TEST_FULL:-0}" = 0 ] && [ "$(wc -c <"$a")" -gt 4000000 ]; then
      continue
    fi
    set -- "$@" "$a"
  done
  for f in "$@"; do
    "$sgf" check "$f" >"$tmp/a" 2>&1
    "$sgf" check --chunk=1 "$f" >"$tmp/b" 2>&1
    if ! cmp -s "$tmp/a" "$tmp/b"; then
      echo "FAIL: sgf check $f: not the same with runs and without (--chunk=1):"
      diff "$tmp/a" "$tmp/b" | head -10
      fail=1
    fi
    echo "$f: $(tail -1 "$tmp/a")"
  done
fi
exit $fail
