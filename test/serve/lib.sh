# lib.sh - sourced by test/serve/*.sh: the sgf tool with serve,
# python3, a temporary directory, and a server started on loopback
# ephemeral ports (start_serve ARGS...: sets SERVE_PID, RAW_PORT,
# HTTP_PORT; the log is $tmp/log).
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
sgf="$(cd "$top_builddir" && pwd)/sgf"
src="$(cd "$top_srcdir" && pwd)"
if [ ! -x "$sgf" ] || ! "$sgf" serve --help >/dev/null 2>&1; then
  echo "$name: sgf serve not built (no http-parser?): skipped"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "$name: no python3: skipped"
  exit 77
fi
# A sanitizer build (configure --enable-sanitizers): AddressSanitizer's
# shadow memory and its quarantine of freed blocks (up to 256 MB) make the
# RSS no measure of what the server holds, so the tests leave their
# memory bounds out there (SERVE_SANITIZED=1); ThreadSanitizer's shadow
# memory likewise (SERVE_RSS_UNMEASURED=1, both).
SERVE_SANITIZED=0
SERVE_RSS_UNMEASURED=0
if grep -q '^CFLAGS = .*-fsanitize=address' "$top_builddir/Makefile" 2>/dev/null; then
  SERVE_SANITIZED=1
fi
if grep -Eq '^CFLAGS = .*-fsanitize=[a-z,]*(address|thread)' "$top_builddir/Makefile" 2>/dev/null; then
  SERVE_RSS_UNMEASURED=1
fi
export SERVE_SANITIZED SERVE_RSS_UNMEASURED
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-$name.XXXXXX") || exit 99
SERVE_PID=
cleanup() {
  if [ -n "$SERVE_PID" ]; then kill "$SERVE_PID" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() {
  echo "$name: FAIL: $*"
  fail=1
}

# The port of the listener whose log line says WHAT ("raw SGF", "HTTP").
port_of() {
  sed -n "s/.*listening on [^ ]*:\([0-9]*\) ($1).*/\1/p" "$tmp/log" | head -1
}

start_serve() {
  rm -f "$tmp/log"
  "$sgf" serve --listen 127.0.0.1:0 --http 127.0.0.1:0 --log "$tmp/log" "$@" &
  SERVE_PID=$!
  i=0
  while [ $i -lt 100 ]; do
    RAW_PORT=$(port_of "raw SGF" 2>/dev/null)
    HTTP_PORT=$(port_of HTTP 2>/dev/null)
    if [ -n "$RAW_PORT" ] && [ -n "$HTTP_PORT" ]; then return 0; fi
    sleep 0.05
    i=$((i + 1))
  done
  echo "$name: serve did not start"
  cat "$tmp/log"
  exit 99
}

# Stop the server with SIGTERM; its exit status in $SERVE_STATUS.
stop_serve() {
  kill -TERM "$SERVE_PID"
  wait "$SERVE_PID"
  SERVE_STATUS=$?
  SERVE_PID=
}

# wait_for FILE: till it exists (60 s at most).
wait_for() {
  i=0
  while [ ! -e "$1" ] && [ $i -lt 1200 ]; do
    sleep 0.05
    i=$((i + 1))
  done
}

# term_within SECS: SIGTERM, and the server's exit within SECS (else
# SIGKILL): returns 0 with its status in $SERVE_STATUS, or 1.
term_within() {
  kill -TERM "$SERVE_PID"
  i=0
  while [ $i -lt $(($1 * 20)) ]; do
    state=$(sed 's/.*) \(.\).*/\1/' "/proc/$SERVE_PID/stat" 2>/dev/null)
    if [ -z "$state" ] || [ "$state" = Z ]; then
      wait "$SERVE_PID"
      SERVE_STATUS=$?
      SERVE_PID=
      return 0
    fi
    sleep 0.05
    i=$((i + 1))
  done
  kill -KILL "$SERVE_PID"
  wait "$SERVE_PID"
  SERVE_STATUS=$?
  SERVE_PID=
  return 1
}

# fifo_reader FIFO OUT GO BYTES SECONDS: in the background ($reader), a
# slow reader of FIFO into OUT: nothing until the file GO exists, then
# BYTES every SECONDS.
fifo_reader() {
  python3 -c '
import os, sys, time
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "wb") as out:
    while not os.path.exists(sys.argv[3]):
        time.sleep(0.05)
    while True:
        b = f.read(int(sys.argv[4]))
        if not b: break
        out.write(b)
        time.sleep(float(sys.argv[5]))
' "$@" &
  reader=$!
}
