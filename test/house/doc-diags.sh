#!/bin/sh
# doc-diags.sh - every diagnostic the documentation names with its code,
# "NAME (CODE)", has that code in the library's catalogue (printed by
# test/house/diag_list): the man page (".B name" then "(N)", and
# ".RB ( name \" (N)),\""), and `name` (N) in README.md, SECURITY.md and
# test/README.md. So `sgf check --ignore=N` does what the man page says.
# A name the catalogue does not know is a man page reference such as
# jq (1) and is not checked.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
list="$top_builddir/test/house/diag_list"
[ -x "$list" ] || { echo "doc-diags: $list not built"; exit 99; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-docdiags.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
"$list" >"$tmp/catalogue" || exit 99
[ "$(wc -l <"$tmp/catalogue")" -ge 40 ] || { echo "doc-diags: short catalogue"; exit 99; }

# FILE NAME CODE, one a line
sed 's/\\-/-/g' "$top_srcdir/doc/sgf.1.in" | awk '
  prev != "" && /^\([0-9]+\)/ {
    n = $1; gsub(/[^0-9]/, "", n); print "doc/sgf.1.in", prev, n
  }
  { prev = "" }
  /^\.B [a-z0-9]+(-[a-z0-9]+)*$/ { prev = $2 }
  /^\.RB \( [a-z0-9-]+ " \([0-9]+\)/ {
    n = $5; gsub(/[^0-9]/, "", n); print "doc/sgf.1.in", $3, n
  }' >"$tmp/pairs"
for f in README.md SECURITY.md test/README.md; do
  [ -f "$top_srcdir/$f" ] || continue
  grep -oE '`[a-z0-9]+(-[a-z0-9]+)*` \([0-9]+\)' "$top_srcdir/$f" |
    tr -d '`()' | sed "s|^|$f |" >>"$tmp/pairs"
done
npairs=$(wc -l <"$tmp/pairs")
[ "$npairs" -ge 30 ] || {
  echo "doc-diags: found only $npairs NAME (CODE) pairs: the patterns are broken"
  exit 99
}
status=0
checked=0
while read -r file name code; do
  want=$(awk -v n="$name" '$1 == n { print $2 }' "$tmp/catalogue")
  [ -n "$want" ] || continue
  checked=$((checked + 1))
  if [ "$want" != "$code" ]; then
    echo "FAIL: $file: $name ($code), but the catalogue has $name ($want)"
    status=1
  fi
done <"$tmp/pairs"
# the UTF-16 ones, which once drifted, must be there
for name in utf16-input utf16-invalid; do
  grep -q "^doc/sgf.1.in $name " "$tmp/pairs" ||
    { echo "FAIL: doc/sgf.1.in does not give $name its code"; status=1; }
done
echo "doc-diags: $checked NAME (CODE) pairs checked against the catalogue"
exit $status
