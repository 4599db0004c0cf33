#!/bin/sh
# cases-scanners.sh - the golden cases and the move-run checks again with
# each bulk scanner forced (SGF_SIMD=portable, and sse2 on x86-64): the
# default runs of test/unit/cases and test/unit/moves use the one chosen for this
# CPU, and the choice is made once a process. Skips (77) without
# test/unit/cases (cmocka).
#
# make check runs them quick (SGF_TEST_QUICK=1: a sample of the split
# points, chunk sizes, callbacks and inputs); make check-full
# (SGF_TEST_FULL=1) every split of every case, through
# test/unit/cases-scanners-cases.sh and test/unit/cases-scanners-moves.sh, which
# name the program in SGF_SCANNER_TESTS (default: both).
top_builddir=${top_builddir:-.}
if [ ! -x "$top_builddir/test/unit/cases" ]; then
  echo "cases-scanners: $top_builddir/test/unit/cases not built (no cmocka?): skipped"
  exit 77
fi
scanners="portable"
case $(uname -m 2>/dev/null) in
  x86_64 | amd64 | i?86) scanners="portable sse2" ;;
esac
if [ "${SGF_TEST_FULL:-0}" != 0 ]; then
  quick=0 how=full
else
  quick=1 how="quick (make check-full: every split)"
fi
fail=0
for t in ${SGF_SCANNER_TESTS:-cases moves}; do
  prog="$top_builddir/test/unit/$t"
  for s in $scanners; do
    echo "cases-scanners: $t with SGF_SIMD=$s, $how"
    out="cases-scanners-$t-$s.out"
    SGF_TEST_QUICK=$quick SGF_SIMD=$s "$prog" >"$out" 2>&1 || {
      echo "FAIL: $t with SGF_SIMD=$s (see below)"
      grep -E '^\[  (FAILED|ERROR)' "$out" | sort -u | head -40
      fail=1
    }
    rm -f "$out"
  done
done
exit $fail
