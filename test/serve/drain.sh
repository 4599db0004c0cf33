#!/bin/sh
# drain.sh - SIGTERM finishes in a bounded time: a POST whose games
# wait for a sink that does not write (a FIFO nobody reads: the body is
# whole, its games held until then are in the sink, which is behind) is
# closed at --drain-timeout with a log line, and the server exits (2:
# the sink could not write all) within a second more. And a raw stream
# ended by the idle timeout gets its "done" line. Skips (77) without
# serve or python3.
name=serve-drain
. "${top_srcdir:-.}/test/serve/lib.sh"
mkfifo "$tmp/fifo" || exit 99
fifo_reader "$tmp/fifo" "$tmp/got" "$tmp/go" 65536 0.01
start_serve --out "$tmp/fifo" --quarantine "$tmp/q" --sink-buffer 64K \
  --drain-timeout 2
python3 - "$HTTP_PORT" "$tmp" <<'PY' &
import json, os, socket, sys, time, urllib.request
port, tmp = int(sys.argv[1]), sys.argv[2]
game = b"(;GM[1]FF[4]SZ[19]C[" + b"x" * 1000 + b"];B[pd];W[dp])\n"
body = game * 2000
s = socket.create_connection(("127.0.0.1", port))
s.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n"
          % len(body))
s.settimeout(0.5)
try:
    s.sendall(body)  # blocks once the server stops reading
except socket.timeout:
    pass
t0 = time.time()
while time.time() - t0 < 20:
    st = json.loads(urllib.request.urlopen(
        f"http://127.0.0.1:{port}/stats", timeout=10).read())
    if st["sink_pauses"] > 0:
        break
    time.sleep(0.05)
else:
    print("serve-drain: the POST was never paused by the sink")
    open(f"{tmp}/ready", "w").close()
    sys.exit(99)
open(f"{tmp}/ready", "w").close()
t0 = time.time()
while not os.path.exists(f"{tmp}/done") and time.time() - t0 < 30:
    time.sleep(0.05)
PY
client=$!
wait_for "$tmp/ready"
t0=$(date +%s)
term_within 10 || bad "still running 10 s after SIGTERM (--drain-timeout 2)"
echo "$name: exited $(($(date +%s) - t0)) s after SIGTERM"
touch "$tmp/done" "$tmp/go"
wait "$client"
[ $? -eq 99 ] && exit 99
kill "$reader" 2>/dev/null
[ "$SERVE_STATUS" -eq 2 ] || bad "serve exited $SERVE_STATUS, not 2 (a sink that could not write)"
grep -q 'drain timeout: .* closed' "$tmp/log" || bad "no log line for the client closed"
grep -q 'stopped: .*(drain timeout: ' "$tmp/log" || bad "no stopped line for the drain timeout"

# the idle timeout ends a raw stream with "done"
start_serve --out "$tmp/out" --quarantine "$tmp/q" --idle-timeout 1
python3 - "$RAW_PORT" <<'PY' || fail=1
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"(;GM[1]SZ[9];B[ee])(;GM[1]")
s.settimeout(10)
out = b""
try:
    while True:
        x = s.recv(1000)
        if not x:
            break
        out += x
except socket.timeout:
    pass
if not out.endswith(b"done 1 1\n"):
    print(f"serve-drain: FAIL: the idle timeout's answer: {out!r}")
    sys.exit(1)
PY
stop_serve
exit $fail
