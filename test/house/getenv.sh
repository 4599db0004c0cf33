#!/bin/sh
# getenv.sh - the library reads one environment variable, SGF_SIMD
# (sgfstream/parser.h, ENVIRONMENT; sgf(1), ENVIRONMENT), in one place: no test
# switch in the shipped library. Every getenv() (or secure_getenv(),
# environ) under lib/ is listed; any but getenv("SGF_SIMD") fails.
top_srcdir=${top_srcdir:-.}
cd "$top_srcdir" || exit 99
[ -d lib ] || { echo "check-getenv: no lib/ in $top_srcdir"; exit 99; }
fail=0
# every mention, comments aside (a line that starts a comment or goes on
# with one, " * ...", is not code)
hits=$(grep -rnE '(secure_)?getenv[[:space:]]*\(|[^_[:alnum:]]environ[^_[:alnum:]]' \
  lib --include='*.c' --include='*.h' |
  grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*|//)')
ok=$(printf '%s\n' "$hits" | grep -cE 'getenv\("SGF_SIMD"\)')
printf '%s\n' "$hits" | grep -vE '^$|getenv\("SGF_SIMD"\)' | while read -r line; do
  echo "FAIL: lib/ reads the environment beyond SGF_SIMD: $line"
  echo x >>"${TMPDIR:-/tmp}/check-getenv.$$"
done
if [ -s "${TMPDIR:-/tmp}/check-getenv.$$" ]; then fail=1; fi
rm -f "${TMPDIR:-/tmp}/check-getenv.$$"
if [ "$ok" -ne 1 ]; then
  echo "FAIL: getenv(\"SGF_SIMD\") found $ok times in lib/ (once expected)"
  fail=1
fi
# the documentation says so
grep -q 'SGF_SIMD' include/sgfstream/parser.h ||
  { echo "FAIL: include/sgfstream/parser.h does not document SGF_SIMD"; fail=1; }
grep -q '^\.B SGF_SIMD' doc/sgf.1.in ||
  { echo "FAIL: doc/sgf.1.in has no SGF_SIMD entry (ENVIRONMENT)"; fail=1; }
[ $fail -eq 0 ] && echo "check-getenv: lib/ reads SGF_SIMD only"
exit $fail
