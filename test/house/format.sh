#!/bin/sh
# format.sh - every C file of lib/, include/, tools/, test/ and
# bench/ is formatted as .clang-format says (one brace style everywhere).
# Skips (77) without clang-format or outside a git checkout (a release
# tarball is checked where it was made). Fix with:
#   git ls-files '*.c' '*.h' | xargs clang-format -i
top_srcdir=${top_srcdir:-.}
cd "$top_srcdir" || exit 99
command -v clang-format >/dev/null 2>&1 || { echo "check-format: no clang-format: skipped"; exit 77; }
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "check-format: not a git checkout: skipped"; exit 77; }
files=$(git ls-files 'lib/*.[ch]' 'include/*.h' 'tools/*.[ch]' 'test/*.[ch]' 'bench/*.[ch]')
bad=0
for f in $files; do
  if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    echo "check-format: $f is not formatted (clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
[ $bad -eq 0 ] && echo "check-format: $(echo "$files" | wc -w) files formatted"
[ $bad -eq 0 ]
