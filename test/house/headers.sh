#!/bin/sh
# headers.sh - every installed public header stands alone: each one,
# included first and alone, compiles as C11 (-pedantic, warnings as
# errors) and as C++11; every ordered pair of them compiles too (a pair
# catches a header whose declarations come before what they use). The
# headers form a tree (sgfstream/common.h): none of sgfstream/*.h
# includes <sgfstream.h>, the umbrella, which includes nothing but
# headers of sgfstream/ and declares nothing itself; and every header
# of sgfstream/ is installed (listed in Makefile.am). The README's
# example compiles as well. C++ is skipped when no C++ compiler is found.
top_srcdir=${top_srcdir:-.}
CC=${CC:-cc}
CXX=${CXX:-}
if [ -z "$CXX" ]; then
  for c in c++ g++ clang++; do
    command -v $c >/dev/null 2>&1 && { CXX=$c; break; }
  done
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/headers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
inc=$top_srcdir/include
# sgfstream/version.h is generated into the build tree
binc=$(cd "${top_builddir:-.}" && pwd)/include
headers="sgfstream.h"
for h in "$inc"/sgfstream/*.h; do headers="$headers sgfstream/${h##*/}"; done
fail=0
cflags="-std=c11 -Wall -Wextra -Werror -pedantic -I$inc -I$binc"
cxxflags="-std=c++11 -Wall -Wextra -Werror -pedantic -I$inc -I$binc"
try() { # LANG FILE
  if [ "$1" = c ]; then
    $CC $cflags -c "$2" -o "$tmp/o.o" 2>"$tmp/err"
  else
    $CXX $cxxflags -c "$2" -o "$tmp/o.o" 2>"$tmp/err"
  fi || { echo "FAIL ($1): $(grep '^#include' "$2" | tr '\n' ' ')"; head -5 "$tmp/err"; fail=1; }
}
# A tree, not a cycle: no leaf names the umbrella, in any spelling.
for h in "$inc"/sgfstream/*.h "$inc"/sgfstream/*.h.in; do
  if grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](\.\./)?sgfstream\.h[>"]' "$h"; then
    echo "FAIL: ${h#$inc/} includes <sgfstream.h> (leaves include leaves only)"
    fail=1
  fi
done
# The umbrella: only #include lines of sgfstream/ headers, comments and its guard.
if sed -e 's|/\*.*\*/||' "$inc/sgfstream.h" | sed -e '/^\/\*/,/\*\//d' |
  grep -vE '^[[:space:]]*$|^#(ifndef|define|endif)[[:space:]]+SGFSTREAM_H|^#endif|^#include "sgfstream/[a-z0-9_]+\.h"$'; then
  echo "FAIL: sgfstream.h holds more than #include lines of sgfstream/ headers (above)"
  fail=1
fi
# Every header of sgfstream/ is installed.
for h in "$inc"/sgfstream/*.h "$inc"/sgfstream/*.h.in; do
  b=${h##*/}; b=${b%.in}
  grep -q "include/sgfstream/$b" "$top_srcdir/Makefile.am" ||
    { echo "FAIL: include/sgfstream/$b is not installed (Makefile.am)"; fail=1; }
done
n=0
for h in $headers; do
  printf '#include <%s>\nint main(void) { return 0; }\n' "$h" >"$tmp/one.c"
  try c "$tmp/one.c"
  if [ -n "$CXX" ]; then
    printf '#include <%s>\nint main() { return 0; }\n' "$h" >"$tmp/one.cpp"
    try cxx "$tmp/one.cpp"
  fi
  for h2 in $headers; do
    printf '#include <%s>\n#include <%s>\nint main(void) { return 0; }\n' \
      "$h" "$h2" >"$tmp/two.c"
    try c "$tmp/two.c"
  done
  n=$((n + 1))
done
# The README's first C example (after "## Using the library").
sed -n '/^## Using the library/,$p' "$top_srcdir/README.md" |
  sed -n '/^```c$/,/^```$/p' | sed '1d' | sed '/^```$/,$d' >"$tmp/readme.c"
if [ -s "$tmp/readme.c" ]; then
  cflags="-std=c11 -Wall -Werror -pedantic -I$inc -I$binc" # examples leave "user" unused
  try c "$tmp/readme.c"
else
  echo "FAIL: no C example found in README.md"; fail=1
fi
[ $fail -eq 0 ] && echo "headers: $n headers stand alone (C11${CXX:+, C++11}), in pairs, and the README example compiles"
exit $fail
