#!/bin/sh
# answer.sh - a POST's answer is bounded: a body of 20,000 tiny
# games is answered with every game counted, at most 1000 listed, the
# rest counted in "games_unlisted" and the last one named; and a POST
# with "Expect: 100-continue" is told "100 Continue" before it sends its
# body. Skips (77) without serve or python3.
name=serve-answer
. "${top_srcdir:-.}/test/serve/lib.sh"
start_serve --out /dev/null --quarantine "$tmp/q"
python3 - "$HTTP_PORT" <<'PY' || fail=1
import json, socket, sys, urllib.request
port = int(sys.argv[1])
bad = 0
n = 20000
body = b"(;)" * n
raw = urllib.request.urlopen(urllib.request.Request(
    f"http://127.0.0.1:{port}/games", data=body, method="POST"), timeout=60).read()
a = json.loads(raw)
print(f"serve-answer: {n} games in {len(body)} bytes: an answer of {len(raw)} bytes")
if a["stored"] != n:
    print(f"serve-answer: FAIL: stored {a['stored']}, not {n}")
    bad = 1
if len(raw) > 128 << 10:
    print(f"serve-answer: FAIL: the answer ({len(raw)} bytes) is not bounded")
    bad = 1
listed = len(a["games"])
if listed > 1000 or listed + a.get("games_unlisted", 0) != n:
    print(f"serve-answer: FAIL: {listed} listed, {a.get('games_unlisted')} unlisted")
    bad = 1
last = a.get("last_game", a["games"][-1])
if last["index"] != n - 1 or last["offset"] != 3 * (n - 1):
    print(f"serve-answer: FAIL: the last game is {last}")
    bad = 1
# Expect: 100-continue: the interim answer comes before the body is sent
game = b"(;GM[1]SZ[9];B[ee])"
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(5)
s.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n"
          b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(game))
try:
    first = s.recv(100)
except socket.timeout:
    first = b""
if not first.startswith(b"HTTP/1.1 100 Continue\r\n\r\n"):
    print(f"serve-answer: FAIL: no 100 Continue before the body: {first!r}")
    bad = 1
s.sendall(game)
rest = b""
while True:
    x = s.recv(4096)
    if not x:
        break
    rest += x
if b'"stored":1' not in rest:
    print(f"serve-answer: FAIL: the POST after 100 Continue: {rest!r}")
    bad = 1
sys.exit(bad)
PY
stop_serve
exit $fail
