#!/bin/sh
# progress.sh - the progress line (tools/io/progress.h): on standard
# error when it is a terminal, never when it is not.
#
# Standard error is a pseudo-terminal (python3's pty module) or a file.
# The input comes through a pipe that stalls for 1.2 s part way, so that
# the job outlasts the half second before the first update and the line
# must appear under the terminal - and must not in a file, with --quiet,
# or (for `sgf check`) with -q. --progress forces it into a file, and with
# a FILE argument the line gives the total and a percentage. Standard
# output must be the same with and without the meter.
# Skips (77) without the sgf tool or python3.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
sample="$top_srcdir/test/data/sample"

if [ ! -x "$sgf" ]; then
  echo "tool-progress: $sgf not built: skipped"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "tool-progress: python3 missing: skipped"
  exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}

find "$sample" -name "*.sgf" | LC_ALL=C sort | while read -r f; do cat "$f"; echo; done >"$tmp/all.sgf"
# A stalled pipe: 200 kB (more than the pipe holds, so sgf is running
# once they are written, however slowly it started), a pause, the rest.
slow() {
  head -c 200000 "$tmp/all.sgf"
  sleep 1.2
  tail -c +200001 "$tmp/all.sgf"
}

# pty OUT ERR CMD...: run CMD with standard error on a pseudo-terminal
# (copied to ERR) and standard output to OUT, standard input from ours.
cat >"$tmp/on_tty.py" <<'PY'
import os, pty, subprocess, sys
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
with open(out, "wb") as o:
    p = subprocess.Popen(cmd, stdout=o, stderr=slave)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    data += chunk
open(err, "wb").write(data)
sys.exit(p.wait())
PY
pty() { python3 "$tmp/on_tty.py" "$@"; }

for cmd in "stats --no-time" "json --headers" "check" "fmt" "filter --size 19"; do
  # shellcheck disable=SC2086
  slow | "$sgf" $cmd >"$tmp/plain.out" 2>"$tmp/plain.err"
  # shellcheck disable=SC2086
  slow | pty "$tmp/tty.out" "$tmp/tty.err" "$sgf" $cmd
  if ! grep -q "sgf ${cmd%% *}: .*games, .*/s" "$tmp/tty.err"; then
    fail "$cmd: no progress line on a terminal"
    od -c "$tmp/tty.err" | head -5
  fi
  grep -q "$(printf '\r')" "$tmp/plain.err" &&
    fail "$cmd: a progress line on stderr that is not a terminal"
  cmp -s "$tmp/plain.out" "$tmp/tty.out" ||
    fail "$cmd: standard output differs with the meter"
  # shellcheck disable=SC2086
  slow | pty "$tmp/q.out" "$tmp/q.err" "$sgf" $cmd --quiet
  case $cmd in check) ;; *)
    grep -q "games, " "$tmp/q.err" && fail "$cmd --quiet: a progress line" ;;
  esac
done
slow | pty "$tmp/q.out" "$tmp/q.err" "$sgf" check -q
grep -q "games, " "$tmp/q.err" && fail "check -q: a progress line"

# Forced into a file, with a known total.
"$sgf" stats --progress --no-time "$tmp/all.sgf" >"$tmp/f.out" 2>"$tmp/f.err"
grep -q "sgf stats: .* of .* (.*%), .* games" "$tmp/f.err" ||
  fail "stats --progress FILE: no line with the total"
"$sgf" stats --no-time "$tmp/all.sgf" >"$tmp/g.out" 2>/dev/null
cmp -s "$tmp/f.out" "$tmp/g.out" || fail "stats --progress: output differs"

if [ "$fails" -ne 0 ]; then
  echo "tool-progress: $fails failure(s)"
  exit 1
fi
echo "tool-progress: ok"
