#!/bin/sh
# neon.sh - the AArch64 NEON scanners of lib/simd/scan.c, built with a cross
# compiler and run under qemu user-mode emulation (natively on an AArch64
# host). test/unit/scan_check.c checks them against the portable loop and a
# reference loop, directly (every position, alignment and byte value, the
# buffer ending at a guard page) and through the parser (the golden cases
# of test/cases, random SGF, test/data/sample).
#
# Needs aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu and
# libc6-dev-arm64-cross) and qemu-aarch64 (Debian: qemu-user; or
# qemu-aarch64-static from qemu-user-static). Skips (77) without them.
# The program is linked statically, so qemu needs no AArch64 libraries
# (no QEMU_LD_PREFIX). Builds in a temporary directory, never in the tree.
#
# On AArch64 itself it runs in make check; elsewhere (qemu) only in make
# check-full (SGF_TEST_FULL=1, which .ci/run runs) or with SGF_NEON=1 (the
# quick run of scan_check, -q, about a minute of CPU under qemu) or
# SGF_NEON_FULL=1 (the full one, about 5 minutes of CPU).
#
# Environment: CROSS_CC (default aarch64-linux-gnu-gcc), QEMU (default
# qemu-aarch64, else qemu-aarch64-static), NEON_CFLAGS (default -O2),
# SGF_NEON_FULL=1 (or SGF_TEST_FULL=1) the full run, SGF_NEON_ARGS more
# scan_check arguments (-s SEED, -f DIR, -n ITER, -d DOCS), SGF_SKIP_NEON=1
# skip.
top_srcdir=${top_srcdir:-$(dirname "$0")/../..}
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
# sgfstream/version.h is written by configure, in the build's include/
top_builddir=$(cd "${top_builddir:-.}" && pwd) || exit 99

if [ -n "${SGF_SKIP_NEON:-}" ]; then
  echo "neon: SGF_SKIP_NEON is set: skipped"
  exit 77
fi

case $(uname -m 2>/dev/null) in
  aarch64 | arm64)
    CROSS_CC=${CROSS_CC:-${CC:-cc}}
    QEMU=${QEMU:-}
    ;;
  *)
    # under emulation, make check-full's (SGF_TEST_FULL=1) or asked for
    if [ "${SGF_TEST_FULL:-0}" = 0 ] && [ -z "${SGF_NEON_FULL:-}" ] &&
      [ -z "${SGF_NEON:-}" ]; then
      echo "neon: AArch64 under qemu runs in make check-full (or SGF_NEON=1): skipped"
      exit 77
    fi
    CROSS_CC=${CROSS_CC:-aarch64-linux-gnu-gcc}
    if [ -z "${QEMU:-}" ]; then
      QEMU=qemu-aarch64
      command -v "$QEMU" >/dev/null 2>&1 || QEMU=qemu-aarch64-static
    fi
    if ! command -v "$QEMU" >/dev/null 2>&1; then
      echo "neon: no $QEMU (Debian: qemu-user): skipped"
      exit 77
    fi
    ;;
esac
if ! command -v "$CROSS_CC" >/dev/null 2>&1; then
  echo "neon: no $CROSS_CC (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross): skipped"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-neon.XXXXXX") || exit 99
keep=0
trap '[ $keep = 1 ] || rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99

name=neon
SCAN_OPT=${NEON_CFLAGS:--O2}
SCAN_LDFLAGS=-static
. "$top_srcdir/test/unit/scan-build.sh"
build scan_check "" || { echo "neon: FAIL: cannot build test/unit/scan_check.c with lib/simd/scan.c for AArch64"; exit 1; }
build scan_check_nosimd -DSGF_DISABLE_SIMD || { echo "neon: FAIL: cannot build with SGF_DISABLE_SIMD"; exit 1; }
run() { $QEMU "$@"; }

fail=0
# The choice made at startup, from the environment (lib/simd/scan.c choose()).
picked() { # picked PROGRAM SGF_SIMD-VALUE ("" for unset) EXPECTED
  if [ -z "$2" ]; then got=$(unset SGF_SIMD; run "./$1" -p)
  else got=$(SGF_SIMD=$2 run "./$1" -p); fi
  if [ "$got" = "$3" ]; then
    echo "neon: $1 with SGF_SIMD=${2:-(unset)} uses $got"
  else
    echo "neon: FAIL: $1 with SGF_SIMD=${2:-(unset)} uses '$got', expected $3"
    fail=1
  fi
}
picked scan_check "" neon
picked scan_check none portable
picked scan_check neon neon
picked scan_check_nosimd "" portable
picked scan_check_nosimd neon portable

quick=-q
[ -n "${SGF_NEON_FULL:-}" ] && quick=
# make check-full
[ "${SGF_TEST_FULL:-0}" != 0 ] && quick=
# shellcheck disable=SC2086
run ./scan_check -r neon $quick -c "$top_srcdir/test/cases" \
  -f "$top_srcdir/test/data/sample" ${SGF_NEON_ARGS:-} || fail=1
if [ $fail != 0 ]; then
  if [ -f scan_check-failed.sgf ]; then
    keep=1
    echo "neon: kept $tmp (scan_check-failed.sgf, the programs)"
  fi
  echo "neon: FAIL"
  exit 1
fi
echo "neon: NEON agrees with portable"
exit 0
