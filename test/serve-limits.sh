#!/bin/sh
# serve-limits.sh - each limit of `sgf serve` hit on purpose, each with
# its log line: --max-connections (the third connection is refused),
# --max-game-bytes (the game is quarantined, the connection closed),
# --max-games (games past the limit are not stored), --idle-timeout (an
# idle connection is closed, its open game quarantined), --max-memory (a
# connection pushing the server over it is closed). Skips (77) without
# serve or python3.
name=serve-limits
. "${top_srcdir:-.}/test/serve-lib.sh"

start_serve --out "$tmp/out" --quarantine "$tmp/q" --max-connections 2 \
  --max-games 3 --idle-timeout 1 --max-game-bytes 2000
python3 - "$RAW_PORT" "$tmp" <<'PY' || fail=1
import socket, sys, time
port, t = int(sys.argv[1]), sys.argv[2]
bad = 0
def conn():
    return socket.create_connection(("127.0.0.1", port))
def talk(data):
    s = conn()
    s.sendall(data)
    s.shutdown(socket.SHUT_WR)
    out = b""
    while True:
        b = s.recv(65536)
        if not b: return out.decode()
        out += b
def check(what, ok, text):
    global bad
    if not ok:
        print(f"serve-limits: FAIL: {what}: {text!r}")
        bad = 1
# connections: two held open, the third is closed at once
a, b = conn(), conn()
time.sleep(0.2)
c = conn()
c.settimeout(2)
check("third connection", c.recv(100) == b"", "not closed")
a.close(); b.close(); c.close()
time.sleep(0.2)
# game size
r = talk(b"(;GM[1]C[" + b"x" * 5000 + b"])\n")
check("game size", "error limit hit: game larger than 2000 bytes" in r and
      "quarantined 0 " in r, r)
# games per connection
r = talk(b"(;GM[1]B[aa])\n" * 5)
check("games", r.count("stored ") == 3 and "error limit hit: more than 3 games" in r, r)
# idle
s = conn()
s.sendall(b"(;GM[1]B[aa]")
s.settimeout(5)
out = b""
while True:
    x = s.recv(1000)
    if not x: break
    out += x
check("idle", b"quarantined 0 12 " in out, out)
sys.exit(bad)
PY
stop_serve
for pat in 'limit hit: .* refused: 2 connections' \
  'limit hit: game larger than 2000 bytes' \
  'limit hit: more than 3 games on one connection' \
  'limit hit: .* idle for 1000 ms' \
  'quarantined .*: 12 bytes from byte 0: idle timeout inside the game'; do
  grep -q "$pat" "$tmp/log" || bad "no log line '$pat'"
done

start_serve --out "$tmp/out2" --quarantine "$tmp/q" --max-memory 300K
python3 - "$RAW_PORT" <<'PY' || fail=1
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
try:
    s.sendall(b"(;GM[1]C[" + b"x" * 2000000 + b"])\n")
    s.shutdown(socket.SHUT_WR)
except OSError:
    pass
out = b""
try:
    while True:
        b = s.recv(65536)
        if not b: break
        out += b
except OSError:
    pass
if b"error limit hit: total memory" not in out:
    print(f"serve-limits: FAIL: memory: {out!r}")
    sys.exit(1)
PY
stop_serve
grep -q 'limit hit: .*memory over 307200 bytes (--max-memory): closed' "$tmp/log" ||
  bad "no log line for --max-memory"
[ "$fail" -eq 0 ] && echo "$name: every limit hit, each logged"
exit $fail
