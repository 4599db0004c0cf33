#!/bin/sh
# cases-scanners.sh - the golden cases again with each bulk scanner forced
# (SGF_SIMD=portable, and sse2 on x86-64): the default run of test_cases
# uses the one chosen for this CPU. Skips (77) without test_cases (cmocka).
top_builddir=${top_builddir:-.}
prog="$top_builddir/test/test_cases"
if [ ! -x "$prog" ]; then
  echo "cases-scanners: $prog not built (no cmocka?): skipped"
  exit 77
fi
scanners="portable"
case $(uname -m 2>/dev/null) in
  x86_64 | amd64 | i?86) scanners="portable sse2" ;;
esac
fail=0
for s in $scanners; do
  echo "cases-scanners: SGF_SIMD=$s"
  SGF_SIMD=$s "$prog" >"cases-scanners-$s.out" 2>&1 || {
    echo "FAIL: test_cases with SGF_SIMD=$s (see below)"
    grep -E '^\[  (FAILED|ERROR)' "cases-scanners-$s.out" | sort -u | head -40
    fail=1
  }
  rm -f "cases-scanners-$s.out"
done
exit $fail
