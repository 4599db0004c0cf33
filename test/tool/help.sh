#!/bin/sh
# help.sh - help everywhere: `sgf help`, `sgf help COMMAND`,
# `sgf help --help`, `sgf help help`, `sgf COMMAND --help` and `-h` for
# every command, and the usage errors of help. Skips (77) when the sgf
# tool is not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-help: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-help.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0

# ok WHAT ARGS...: sgf ARGS exits 0 with a usage text on standard output
# and nothing on standard error; the text is left in $tmp/out.
ok() {
  what=$1
  shift
  "$sgf" "$@" >"$tmp/out" 2>"$tmp/err"
  st=$?
  n=$((n + 1))
  if [ "$st" != 0 ] || [ -s "$tmp/err" ] ||
    ! head -1 "$tmp/out" | grep -q "^usage: sgf $what"; then
    echo "FAIL: sgf $*: status $st, expected 0 and 'usage: sgf $what'"
    head -3 "$tmp/out" "$tmp/err"
    fail=1
  fi
}

# usage_error ARGS...: status 2, a message on standard error, no output.
usage_error() {
  "$sgf" "$@" >"$tmp/out" 2>"$tmp/err"
  st=$?
  n=$((n + 1))
  if [ "$st" != 2 ] || [ -s "$tmp/out" ] || [ ! -s "$tmp/err" ]; then
    echo "FAIL: sgf $*: status $st, expected a usage error (2)"
    fail=1
  fi
}

ok COMMAND --help
ok COMMAND -h
ok COMMAND help
# every command the list names has its help, the same three ways
cmds=$("$sgf" --help | sed -n 's/^  \([a-z][a-z]*\)  *[a-z].*/\1/p')
for c in check stats events fmt mainline split help; do
  case " $(echo $cmds) " in
  *" $c "*) ;;
  *) echo "FAIL: sgf --help does not list $c"; fail=1 ;;
  esac
done
for c in $cmds; do
  ok "$c" help "$c"
  cp "$tmp/out" "$tmp/want"
  ok "$c" "$c" --help
  cmp -s "$tmp/want" "$tmp/out" || { echo "FAIL: sgf $c --help differs"; fail=1; }
  ok "$c" "$c" -h
  cmp -s "$tmp/want" "$tmp/out" || { echo "FAIL: sgf $c -h differs"; fail=1; }
done
ok help help --help
ok help help -h
ok help help help --help

usage_error help nosuchcommand
usage_error help --nosuchoption
usage_error help check stats
usage_error nosuchcommand --help

echo "tool-help: $n checks"
exit $fail
