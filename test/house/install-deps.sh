#!/bin/sh
# install-deps.sh - ./install-deps.sh waits while another apt or dpkg
# holds the lock (it tries again every 5 seconds, up to
# INSTALL_DEPS_WAIT), fails at once on any other apt error, and gives up
# with apt's own message once the wait is over. apt-get, dpkg, sudo and
# sleep are stubs on PATH here: nothing is installed.
top_srcdir=${top_srcdir:-.}
script="$top_srcdir/install-deps.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-deps.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
mkdir "$tmp/bin"
fail=0
# dpkg -s: nothing installed. sudo: runs its command. sleep: counts.
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/dpkg"
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/bin/sudo"
printf '#!/bin/sh\necho x >>"%s/sleeps"\n' "$tmp" >"$tmp/bin/sleep"
# apt-get: logs its call; fails with a lock message while the file
# "locked" holds a count above 0 (and counts it down), or with another
# error when "broken" exists.
cat >"$tmp/bin/apt-get" <<STUB
#!/bin/sh
echo "\$*" >>"$tmp/calls"
if [ -f "$tmp/broken" ]; then
  echo "E: Unable to locate package nosuch" >&2; exit 100
fi
n=\$(cat "$tmp/locked" 2>/dev/null || echo 0)
if [ "\$n" -gt 0 ]; then
  echo \$((n - 1)) >"$tmp/locked"
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)" >&2
  exit 100
fi
exit 0
STUB
chmod +x "$tmp/bin/"*
run() {
  rm -f "$tmp/calls" "$tmp/sleeps"
  PATH="$tmp/bin:$PATH" INSTALL_DEPS_WAIT=$1 sh "$script" >"$tmp/out" 2>"$tmp/err"
}
count() { [ -f "$1" ] && wc -l <"$1" | tr -d ' ' || echo 0; }

# 1. The lists lock held for two tries: waits, then installs.
echo 2 >"$tmp/locked"
run 900
rc=$?
if [ $rc -ne 0 ] || [ "$(count "$tmp/calls")" -ne 4 ] ||
   [ "$(count "$tmp/sleeps")" -ne 2 ] || ! grep -q 'waiting' "$tmp/err" ||
   ! grep -q 'DPkg::Lock::Timeout' "$tmp/calls"; then
  echo "FAIL: lock held twice: status $rc, calls:"; cat "$tmp/calls" "$tmp/err"
  fail=1
fi
# 2. Another error: no wait, apt's message, a failure.
rm -f "$tmp/locked"
touch "$tmp/broken"
run 900
rc=$?
rm -f "$tmp/broken"
if [ $rc -eq 0 ] || [ "$(count "$tmp/sleeps")" -ne 0 ] ||
   ! grep -q 'Unable to locate' "$tmp/err"; then
  echo "FAIL: other apt error: status $rc"; cat "$tmp/err"
  fail=1
fi
# 3. The lock never freed: gives up after the wait (10 s: two sleeps of 5)
#    with apt's message.
echo 1000 >"$tmp/locked"
run 10
rc=$?
if [ $rc -eq 0 ] || [ "$(count "$tmp/sleeps")" -ne 2 ] ||
   ! grep -q 'Could not get lock' "$tmp/err"; then
  echo "FAIL: lock never freed: status $rc, $(count "$tmp/sleeps") waits"
  cat "$tmp/err"
  fail=1
fi
[ $fail -eq 0 ] && echo "install-deps: waits for a held lock, fails on other errors and after the wait"
exit $fail
