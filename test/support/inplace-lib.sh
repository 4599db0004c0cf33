# inplace-lib.sh - sourced by test/tool/inplace.sh and
# test/corpus/inplace.sh: the sgf tool, a temporary directory, check
# helpers, and the invariant of `sgf fmt -i` over arbitrary files.
#
# THE INVARIANT. After `sgf fmt -i FILE` either FILE is byte for byte what
# it was (refused: status 2 and a "not rewritten" message, or already in
# fmt's form), or the rewrite kept everything: its status is 0 or 1, the
# new file parses with no diagnostic in strict mode, and its events equal
# the old file's, where "equal" allows exactly fmt's documented
# respellings and nothing else:
#   - the OFFSET LINE:COL of each event is left out (the layout changes);
#   - diagnostic lines are left out (the repairs they report are the
#     respellings; whether a repair drops bytes is what fmt -i decides,
#     and a drop that shows in the events - a property without value, a
#     NUL byte in a value - makes them differ);
#   - " raw=RAW" is left out of property lines: identifiers are written
#     normalized (CoPyright -> CP; the event's NAME is that already);
#   - in value-data, a backslash before ']' is left out (the writer
#     escapes a ']' the parser took as the second byte of a double-byte
#     character), and a value ending in two backslashes is read as ending
#     in one (the writer doubles a backslash ending a value, so that it
#     does not escape the closing ']').
# Events that differ in anything else (a node, a property, a value byte,
# the tree structure) fail. Text outside the game trees is not in the
# events at all: that it is never dropped silently is the refusal's job,
# checked by test/tool/inplace.sh.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-${srcdir:-.}}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "${0##*/}: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf" # the tests run in a temporary dir
top_srcdir="$(cd "$top_srcdir" && pwd)"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-inplace.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
rewritten=0 # files inplace_keeps() saw rewritten (the rest stayed the same)

# bad NAME MESSAGE: a failed check.
bad() {
  echo "FAIL: $1: $2"
  fail=1
}

# check NAME WANT_STATUS GOT_STATUS [FILE_EXPECTED FILE_GOT]
check() {
  n=$((n + 1))
  [ "$2" = "$3" ] || { bad "$1" "exit status $3, expected $2"; return; }
  [ $# -lt 5 ] || cmp -s "$4" "$5" || bad "$1" "$5 differs from $4"
}

# events_norm: sgf events output on stdin, normalized (see above).
events_norm() {
  sed -e 's/^[0-9]* [0-9]*:[0-9]* //' \
      -e '/^\(warning\|error\|fatal\) /d' \
      -e 's/^\(property [A-Z]*\) raw=.*/\1/' \
      -e '/^value-data /{
            s/\\\\\]/]/g
            s/\\\\\\\\"$/\\\\"/
          }'
}

# inplace_keeps FILE: the invariant above, on a copy of FILE.
inplace_keeps() {
  n=$((n + 1))
  cp "$1" "$tmp/keep.sgf" && chmod u+w "$tmp/keep.sgf" || exit 99
  "$sgf" fmt -i "$tmp/keep.sgf" >/dev/null 2>"$tmp/keep.err"
  rc=$?
  if cmp -s "$1" "$tmp/keep.sgf"; then
    if [ $rc -eq 2 ] && ! grep -q 'not rewritten' "$tmp/keep.err"; then
      bad "$1" "status 2 without a \"not rewritten\" message"
    fi
    return
  fi
  rewritten=$((rewritten + 1))
  if [ $rc -gt 1 ]; then
    bad "$1" "rewritten, but exit status $rc"
    return
  fi
  if ! "$sgf" check --strict --syntax-only -q "$tmp/keep.sgf" 2>/dev/null; then
    bad "$1" "the rewritten file is not strict-clean"
  fi
  "$sgf" events "$1" 2>/dev/null | events_norm >"$tmp/keep.in"
  "$sgf" events "$tmp/keep.sgf" 2>/dev/null | events_norm >"$tmp/keep.out"
  if ! cmp -s "$tmp/keep.in" "$tmp/keep.out"; then
    bad "$1" "rewritten with other events"
    diff "$tmp/keep.in" "$tmp/keep.out" | head -6
  fi
}
