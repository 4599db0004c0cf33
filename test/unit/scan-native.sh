#!/bin/sh
# scan-native.sh - the x86-64 SSE2 and AVX2 scanners of lib/simd/scan.c
# checked by test/unit/scan_check.c, built natively (as test/unit/neon.sh builds
# it for AArch64): every scanner against the portable loop and a
# reference loop, directly and through the parser (test/cases,
# test/data/sample, random SGF). The quick run (-q) by default;
# SGF_SCAN_FULL=1 or SGF_TEST_FULL=1 (make check-full) the full one.
# Skips (77) on other machines, where test/unit/neon.sh (AArch64) or the
# portable path alone applies.
name=scan-native
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
top_builddir=$(cd "${top_builddir:-.}" && pwd) || exit 99

case $(uname -m 2>/dev/null) in
  x86_64 | amd64) ;;
  *)
    echo "$name: not an x86-64 machine: skipped"
    exit 77
    ;;
esac
CROSS_CC=${CC:-cc}
QEMU=
if ! command -v "$CROSS_CC" >/dev/null 2>&1; then
  echo "$name: no C compiler $CROSS_CC: skipped"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-scan.XXXXXX") || exit 99
keep=0
trap '[ $keep = 1 ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99
SCAN_OPT=-O2
SCAN_LDFLAGS=
. "$top_srcdir/test/unit/scan-build.sh"
build scan_check "" || { echo "$name: FAIL: cannot build test/unit/scan_check.c"; exit 1; }

quick=-q
[ -n "${SGF_SCAN_FULL:-}" ] && quick=
# make check-full
[ "${SGF_TEST_FULL:-0}" != 0 ] && quick=
want=sse2
grep -q '^flags.* avx2' /proc/cpuinfo 2>/dev/null && want=avx2
if ! ./scan_check -r "$want" $quick -c "$top_srcdir/test/cases" \
  -f "$top_srcdir/test/data/sample"; then
  [ -f scan_check-failed.sgf ] && keep=1 && echo "$name: kept $tmp"
  echo "$name: FAIL"
  exit 1
fi
echo "$name: the $want scanners (and sse2) agree with portable"
exit 0
