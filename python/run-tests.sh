#!/bin/sh
# run-tests.sh - build the Python extensions sgfstream._core (and
# sgfstream._archive, with libarchive) against the library of this build
# tree and run python/tests/test_*.py (unittest), for each Python 3
# found: the `python3` on PATH and Debian's /usr/bin/python3 (the same
# one counted once). An interpreter without
# its C headers (python3-dev) or setuptools is skipped; with none left,
# exit 77. In a sanitizer build (-fsanitize=address in SGF_TEST_CFLAGS,
# which make check exports) the extension is built with the same flags and
# the interpreter runs with the ASan runtime preloaded (an uninstrumented
# python loading an instrumented library needs the runtime first in the
# process), leak detection off (the interpreter's own allocations at exit
# are not ours to judge; tests/test_stream.py counts our leaks itself).
# Environment: top_srcdir, top_builddir (make check sets them),
# PYTHONS (space-separated interpreters, overrides the two above),
# SGF_TEST_QUICK=1 (make check) / SGF_TEST_FULL=1 (bigger runs).
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
src=$(cd "$top_srcdir/python" && pwd) || exit 99
build=$(cd "$top_builddir" && pwd) || exit 99
if [ ! -f "$build/lib/.libs/libsgfstream.so" ]; then
  echo "python: $build/lib/.libs/libsgfstream.so not built: skipped"
  exit 77
fi
cflags="-Wall -Wextra -Wno-unused-parameter"
case " ${SGF_TEST_CFLAGS-} " in *-Werror*) cflags="$cflags -Werror" ;; esac
san=no
case " ${SGF_TEST_CFLAGS-} " in *-fsanitize=address*) san=yes ;; esac
preload=
if [ $san = yes ]; then
  cflags="$cflags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  preload=$(${CC:-cc} -print-file-name=libasan.so)
  case $preload in /*) ;; *) echo "python: no libasan.so for ${CC:-cc}: cannot run under ASan"; exit 99 ;; esac
fi

pythons=
for p in ${PYTHONS:-python3 /usr/bin/python3}; do
  exe=$(command -v "$p" >/dev/null 2>&1 && "$p" -c 'import sys; print(sys.executable)' 2>/dev/null) || continue
  exe=$(readlink -f "$exe")
  case " $pythons " in *" $exe "*) ;; *) pythons="$pythons $exe" ;; esac
done
ran=0
fail=0
for py in $pythons; do
  tag=$(echo "$py" | tr -c 'A-Za-z0-9\n' '_')
  if ! "$py" -c 'import sysconfig, os, sys, setuptools
sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' 2>/dev/null; then
    echo "python: $py has no C headers or no setuptools (python3-dev, python3-setuptools): skipped"
    continue
  fi
  out="$build/python/$tag"
  rm -rf "$out/lib"
  mkdir -p "$out/lib" "$out/tmp" || exit 99
  # The package's Python files, then the extension beside them.
  cp -R "$src/sgfstream" "$out/lib/" && chmod -R u+w "$out/lib" || exit 99
  echo "python: building sgfstream._core (and _archive) for $py"
  if ! (cd "$src" && SGFSTREAM_BUILD_DIR="$build" CFLAGS="$cflags" LDFLAGS="${SGF_TEST_LDFLAGS-}" \
        "$py" setup.py -q build_ext --build-lib "$out/lib" --build-temp "$out/tmp" \
        >"$out/build.log" 2>&1); then
    echo "FAIL: building the extension for $py:"; cat "$out/build.log"; fail=1; continue
  fi
  # setuptools may leave build metadata in the source folder: not ours to keep.
  rm -rf "$src/sgfstream.egg-info" 2>/dev/null
  echo "python: testing with $py"
  if [ $san = yes ]; then
    env LD_PRELOAD="$preload" ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS-}" \
      UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS-}" \
      PYTHONPATH="$out/lib" SGF_BUILD_DIR="$build" SGF_SRC_DIR="$(dirname "$src")" SGF_SANITIZERS=1 \
      "$py" -m unittest discover -s "$src/tests" -p 'test_*.py' -v 2>&1 || fail=1
  else
    env PYTHONPATH="$out/lib" SGF_BUILD_DIR="$build" SGF_SRC_DIR="$(dirname "$src")" \
      "$py" -m unittest discover -s "$src/tests" -p 'test_*.py' -v 2>&1 || fail=1
  fi
  ran=$((ran + 1))
done
[ $fail -ne 0 ] && exit 1
[ $ran -eq 0 ] && { echo "python: no Python 3 with headers: skipped"; exit 77; }
exit 0
