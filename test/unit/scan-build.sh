# scan-build.sh - sourced by test/unit/neon.sh and test/unit/scan-native.sh, in a
# temporary directory: compiles the library less lib/simd/scan.c with
# $CROSS_CC, and defines build OUT EXTRA-CFLAGS, which links
# test/unit/scan_check.c (it #includes scan.c) against it, with $SCAN_LDFLAGS.
# Needs $name, $top_srcdir, $top_builddir; $SCAN_OPT (default -O2).

# Only lib/simd/scan.c reads config.h (SGF_DISABLE_SIMD): empty means SIMD on.
echo "/* test/$name.sh: nothing defined */" >config.h
WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
      -Wpointer-arith -Wno-unused-parameter"
CFLAGS="-std=c11 ${SCAN_OPT:--O2} $WARN -I. -I$top_builddir/include -I$top_srcdir/include"

echo "$name: compiler $CROSS_CC ($("$CROSS_CC" -dumpmachine 2>/dev/null)), runner ${QEMU:-native}"
# The library, less scan.c (scan_check.c includes it).
objs=
for f in "$top_srcdir"/lib/*/*.c; do
  b=$(basename "$f" .c)
  d=$(basename "$(dirname "$f")")
  [ "$b" = scan ] && continue
  # shellcheck disable=SC2086
  "$CROSS_CC" $CFLAGS -I"$top_srcdir/lib/common" -I"$top_srcdir/lib/simd" \
    -c "$f" -o "lib_$b.o" || { echo "$name: FAIL: cannot compile lib/$d/$b.c"; exit 1; }
  objs="$objs lib_$b.o"
done
build() { # build OUT EXTRA-CFLAGS: the driver (with scan.c) -Werror
  # shellcheck disable=SC2086
  "$CROSS_CC" $CFLAGS $2 -Werror -I"$top_srcdir/lib/simd" -I"$top_srcdir/tools/common" \
    -I"$top_srcdir/test/support" "$top_srcdir/test/unit/scan_check.c" \
    "$top_srcdir/tools/common/eventlog.c" "$top_srcdir/tools/common/bytebuf.c" \
    "$top_srcdir/test/support/testutil.c" \
    $objs ${SCAN_LDFLAGS:-} -o "$1"
}
