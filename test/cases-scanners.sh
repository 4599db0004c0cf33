#!/bin/sh
# cases-scanners.sh - the golden cases and the move-run checks again with
# each bulk scanner forced (SGF_SIMD=portable, and sse2 on x86-64): the
# default runs of test_cases and test_moves use the one chosen for this
# CPU, and the choice is made once a process. Skips (77) without
# test_cases (cmocka).
top_builddir=${top_builddir:-.}
if [ ! -x "$top_builddir/test/test_cases" ]; then
  echo "cases-scanners: $top_builddir/test/test_cases not built (no cmocka?): skipped"
  exit 77
fi
scanners="portable"
case $(uname -m 2>/dev/null) in
  x86_64 | amd64 | i?86) scanners="portable sse2" ;;
esac
fail=0
for t in test_cases test_moves; do
  prog="$top_builddir/test/$t"
  for s in $scanners; do
    echo "cases-scanners: $t with SGF_SIMD=$s"
    SGF_SIMD=$s "$prog" >"cases-scanners-$s.out" 2>&1 || {
      echo "FAIL: $t with SGF_SIMD=$s (see below)"
      grep -E '^\[  (FAILED|ERROR)' "cases-scanners-$s.out" | sort -u | head -40
      fail=1
    }
    rm -f "cases-scanners-$s.out"
  done
done
exit $fail
