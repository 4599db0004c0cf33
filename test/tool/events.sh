#!/bin/sh
# events.sh - `sgf events` reproduces every golden log of test/cases
# (cases without an options file: the tool has no limit options), fed
# whole and in 1- and 3-byte chunks, and its exit status agrees with the
# log: 0 without diagnostics, 1 with warnings only, 2 with errors or fatal
# errors. Skips (77) when the sgf tool is not built.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
cases="$top_srcdir/test/cases"
if [ ! -x "$sgf" ]; then
  echo "tool-events: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-events.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
for dir in "$cases"/*/; do
  dir=${dir%/}
  name=${dir##*/}
  [ -f "$dir/input.sgf" ] || continue
  [ -f "$dir/options" ] && continue
  strict=
  [ -f "$dir/strict" ] && strict=--strict
  # The tool's own log where it reads the input otherwise than the
  # library (UTF-16, converted by the tool's input layer).
  golden=$dir/events
  [ -f "$dir/events.tool" ] && golden=$dir/events.tool
  # Expected exit status from the golden log.
  want=0
  if grep -q '^[0-9]* [0-9]*:[0-9]* warning ' "$golden"; then want=1; fi
  if grep -q '^[0-9]* [0-9]*:[0-9]* \(error\|fatal\) ' "$golden"; then
    want=2
  fi
  for chunk in 0 1 3; do
    opt=
    [ $chunk -gt 0 ] && opt=--chunk=$chunk
    # shellcheck disable=SC2086
    timeout 60 "$sgf" events $strict $opt <"$dir/input.sgf" >"$tmp/out" \
      2>"$tmp/err"
    rc=$?
    if ! cmp -s "$golden" "$tmp/out"; then
      echo "FAIL: $name: sgf events $strict $opt differs from the golden log"
      diff "$golden" "$tmp/out" | head -10
      fail=1
    elif [ $rc -ne $want ]; then
      echo "FAIL: $name: sgf events $strict $opt exit status $rc, expected" \
           "$want"
      fail=1
    fi
  done
  n=$((n + 1))
done
echo "tool-events: $n cases"
exit $fail
