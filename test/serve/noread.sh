#!/bin/sh
# noread.sh - clients that never read their answers: a raw stream
# of tiny games (an acknowledgement line each) and HTTP pipelined
# GET /stats, neither reading. The server stops reading them once their
# answers pile up: its peak RSS (VmHWM) stays within --max-memory + 16
# MiB, GET /stats is answered meanwhile, and SIGTERM with both still
# connected (and not reading) ends the server within --drain-timeout.
# Skips (77) without serve or python3.
name=serve-noread
. "${top_srcdir:-.}/test/serve/lib.sh"
start_serve --out /dev/null --quarantine "$tmp/q" --max-memory 16M \
  --idle-timeout 30 --drain-timeout 2
python3 - "$SERVE_PID" "$RAW_PORT" "$HTTP_PORT" "$SERVE_RSS_UNMEASURED" "$tmp" <<'PY' &
import os, signal, socket, sys, time, urllib.request
pid, raw, http, unmeasured = (int(a) for a in sys.argv[1:5])
tmp = sys.argv[5]
bad = 0
def hwm():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
def flood(port, chunk, size):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(2)  # the server stopped reading: the send blocks
    sent, t0 = 0, time.time()
    try:
        while sent < size and time.time() - t0 < 20:
            sent += s.send(chunk)
    except OSError:
        pass
    return s, sent
a, na = flood(raw, b"(;)" * 20000, 12 << 20)
b, nb = flood(http, b"GET /stats HTTP/1.1\r\nHost: x\r\n\r\n" * 2000, 4 << 20)
peak = hwm()
print(f"serve-noread: raw sent {na} bytes, pipelined GETs {nb} bytes; "
      f"VmHWM {peak >> 20} MiB")
if not unmeasured and peak > (16 + 16) << 20:
    print(f"serve-noread: FAIL: VmHWM {peak >> 20} MiB over --max-memory + 16 MiB")
    bad = 1
try:
    urllib.request.urlopen(f"http://127.0.0.1:{http}/stats", timeout=5).read()
except OSError as e:
    print(f"serve-noread: FAIL: GET /stats not answered: {e}")
    bad = 1
# SIGTERM comes with the two clients still connected, not reading
open(f"{tmp}/ready", "w").close()
t0 = time.time()
while not os.path.exists(f"{tmp}/done") and time.time() - t0 < 30:
    time.sleep(0.05)
a.close()
b.close()
sys.exit(bad)
PY
client=$!
wait_for "$tmp/ready"
term_within 10 || bad "still running 10 s after SIGTERM (--drain-timeout 2)"
touch "$tmp/done"
wait "$client" || fail=1
grep -q 'drain timeout: .* closed' "$tmp/log" || bad "no log line for the drain timeout"
grep -q 'stopped: .* 2 clients dropped' "$tmp/log" || bad "the stopped line does not count the clients dropped"
exit $fail
