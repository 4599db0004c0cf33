#!/bin/sh
# limits.sh - each limit of `sgf serve` hit on purpose, each with
# its log line: --max-connections (the third connection is refused),
# --max-game-bytes (the game is quarantined, the connection closed),
# --max-games (games past the limit are not stored; a POST's answer
# says so in "error"), --idle-timeout (an
# idle connection is closed, its open game quarantined), --max-memory (a
# connection pushing the server over it is closed). Skips (77) without
# serve or python3.
name=serve-limits
. "${top_srcdir:-.}/test/serve/lib.sh"

start_serve --out "$tmp/out" --quarantine "$tmp/q" \
  --max-games 3 --idle-timeout 1 --max-game-bytes 2000
python3 - "$RAW_PORT" "$tmp" "$HTTP_PORT" <<'PY' || fail=1
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
# game size
r = talk(b"(;GM[1]C[" + b"x" * 5000 + b"])\n")
check("game size", "error limit hit: game larger than 2000 bytes" in r and
      "quarantined 0 " in r, r)
# games per connection
r = talk(b"(;GM[1]B[aa])\n" * 5)
check("games", r.count("stored ") == 3 and "error limit hit: more than 3 games" in r, r)
# games per POST: the answer says the rest of the body was not read
import http.client, json
h = http.client.HTTPConnection("127.0.0.1", int(sys.argv[3]), timeout=60)
h.request("POST", "/games", b"(;GM[1]B[aa])\n" * 5)
j = json.loads(h.getresponse().read())
h.close()
check("games per POST", j["stored"] == 3 and
      "more than 3 games" in j.get("error", ""), j)
# idle
s = conn()
s.sendall(b"(;GM[1]B[aa]")
s.settimeout(60)
out = b""
while True:
    x = s.recv(1000)
    if not x: break
    out += x
check("idle", b"quarantined 0 12 " in out, out)
sys.exit(bad)
PY
stop_serve
for pat in 'limit hit: game larger than 2000 bytes' \
  'limit hit: more than 3 games on one connection' \
  'POST /games: limit hit: more than 3 games on one connection: the rest' \
  'limit hit: .* idle for 1000 ms' \
  'quarantined .*: 12 bytes from byte 0: idle timeout inside the game'; do
  grep -q "$pat" "$tmp/log" || bad "no log line '$pat'"
done

# --max-memory, then --max-connections (last: the connections closed
# here need not be gone before anything else comes)
start_serve --out "$tmp/out2" --quarantine "$tmp/q" --max-memory 300K \
  --max-connections 2
python3 - "$RAW_PORT" "$HTTP_PORT" <<'PY' || fail=1
import http.client, json, socket, sys, time
port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port))
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
s.close()
# the closed connection's memory is given back by the thread that held
# it, a moment after the close: wait for it (a new connection while the
# server is still over --max-memory is refused for memory, and so may
# be a GET /stats: it is asked again)
for _ in range(300):
    try:
        h = http.client.HTTPConnection("127.0.0.1", int(sys.argv[2]), timeout=5)
        h.request("GET", "/stats")
        st = json.loads(h.getresponse().read())
        h.close()
        if st["held_bytes"] == 0 and st["sink_backlog_bytes"] == 0:
            break
    except OSError:
        pass
    time.sleep(0.1)
# connections: two held open, the third is closed at once (s may not
# be gone yet: then the second is refused as well; a never is)
import select
a = socket.create_connection(("127.0.0.1", port))
b = socket.create_connection(("127.0.0.1", port))
c = socket.create_connection(("127.0.0.1", port))
ready, _, _ = select.select([a, b, c], [], [], 30)
if c not in ready and b not in ready or a in ready:
    print(f"serve-limits: FAIL: connections: {ready} closed, not b or c")
    sys.exit(1)
for x in ready:
    if x.recv(100) != b"":
        print("serve-limits: FAIL: a refused connection got bytes")
        sys.exit(1)
PY
stop_serve
grep -q 'limit hit: .*memory over 307200 bytes (--max-memory): closed' "$tmp/log" ||
  bad "no log line for --max-memory"
grep -q 'limit hit: .* refused: 2 connections' "$tmp/log" ||
  bad "no log line for --max-connections"
[ "$fail" -eq 0 ] && echo "$name: every limit hit, each logged"
exit $fail
