#!/bin/sh
# exports.sh - the dynamic symbols exported by libsgfstream.so are
# exactly the functions (and constants) declared SGF_EXTERN in include/
# (all sgf_*).
# Skips (77) when there is no shared library (--disable-shared) or no nm.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
so="$top_builddir/lib/.libs/libsgfstream.so"
if [ ! -f "$so" ]; then
  echo "check-exports: $so not built (static only?): skipped"
  exit 77
fi
if ! command -v nm >/dev/null 2>&1; then
  echo "check-exports: no nm: skipped"
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-exports.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM

# Declared: every line that starts with SGF_EXTERN names one function;
# one that starts with "extern SGF_EXTERN" one constant (value.h's
# sgf_prop_builtin_slots, read by an inline function).
cat "$top_srcdir/include/sgfstream.h" "$top_srcdir"/include/sgfstream/*.h |
  sed -n 's/^SGF_EXTERN[^(]*[^a-zA-Z0-9_]\(sgf_[a-z0-9_]*\)(.*/\1/p
          s/^extern SGF_EXTERN [^(]*[^a-zA-Z0-9_]\(sgf_[a-z0-9_]*\)[[;].*/\1/p' |
  sort -u >"$tmp/declared"
# Exported: defined dynamic symbols (version suffixes dropped).
nm -D --defined-only "$so" |
  awk 'NF >= 3 { print $3 }' | sed 's/@.*//' | sort -u >"$tmp/exported"

ndecl=$(wc -l <"$tmp/declared")
if [ "$ndecl" -lt 20 ]; then
  echo "check-exports: found only $ndecl SGF_EXTERN declarations; the" \
       "pattern is broken"
  exit 99
fi
status=0
if ! cmp -s "$tmp/declared" "$tmp/exported"; then
  echo "check-exports: exported symbols differ from the SGF_EXTERN" \
       "declarations"
  echo "--- declared (include/)"
  echo "+++ exported ($so)"
  diff "$tmp/declared" "$tmp/exported" | sed -n 's/^< /-/p; s/^> /+/p'
  status=1
fi
if grep -v '^sgf_' "$tmp/exported" >"$tmp/bad"; then
  echo "check-exports: symbols outside the sgf_ namespace:"
  cat "$tmp/bad"
  status=1
fi
[ $status -eq 0 ] && echo "check-exports: $ndecl symbols, all declared"
exit $status
