#!/bin/sh
# httpmem.sh - --max-memory holds an HTTP body back: six POSTs of
# 200 KB of games each into a FIFO not read yet (the sink's own
# mark, 64M, out of the way) with --max-memory 1M: the server stops
# reading the bodies while the sink's backlog and the connections' bytes
# (a POST's games are held until its body is whole) are over the limit
# (a log line says so; GET /stats still answers), and reads on as the
# FIFO drains: every game stored, answered 200. Before, the bodies were
# read on: the backlog grew to all of them. And with the sink empty
# (a game of 2 MB, --max-memory 100K) the request is cut: 503, the game
# quarantined. Skips (77) without serve or python3.
name=serve-httpmem
. "${top_srcdir:-.}/test/serve/lib.sh"

mkfifo "$tmp/fifo" || exit 99
# the reader: nothing until the file go exists, then all
fifo_reader "$tmp/fifo" "$tmp/got" "$tmp/go" 1048576 0
start_serve --out "$tmp/fifo" --sink-buffer 64M --max-memory 1M \
  --quarantine "$tmp/q"
python3 - "$HTTP_PORT" "$tmp" <<'PY' || fail=1
import http.client, json, os, sys, threading, time
port, t = int(sys.argv[1]), sys.argv[2]
game = b"(;GM[1]FF[4]SZ[19]PB[Black]PW[White]" + b";B[pd];W[dp]" * 200 + b")\n"
n = 200_000 // len(game)
answers = {}
# /stats on a connection opened before: a new one is refused while the
# memory is over the limit
sh = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
def stats():
    sh.request("GET", "/stats")
    return json.loads(sh.getresponse().read())
stats()
# connected before any is sent: a connection made while the memory is
# over the limit is refused
conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=120) for i in range(6)]
for h in conns:
    h.connect()
stats()
def post(i):
    h = conns[i]
    h.request("POST", "/games", body=game * n)
    r = h.getresponse()
    answers[i] = (r.status, r.read())
# one after another, each once the last is in the sink's backlog (its
# body whole: held, the bytes are the connections' own, and bodies over
# the limit together with nothing in the sink would be cut, 503)
ths = [threading.Thread(target=post, args=(i,), daemon=True) for i in range(6)]
for i, th in enumerate(ths):
    th.start()
    deadline = time.time() + 30
    while time.time() < deadline:
        s = stats()
        if s["sink_backlog_bytes"] + s["bytes_stored"] >= 0.95 * (i + 1) * n * len(game):
            break
        if "reading paused" in open(f"{t}/log").read():
            break
        time.sleep(0.02)
# the FIFO is not read: watch the memory held until the server pauses
peak, paused = 0, False
deadline = time.time() + 30
try:
    while time.time() < deadline:
        s = stats()
        peak = max(peak, s["sink_backlog_bytes"] + s["held_bytes"])
        if peak > 4_000_000:
            break
        if "reading paused" in open(f"{t}/log").read():
            paused = True
            time.sleep(0.5)  # nothing more comes in while paused
            s = stats()
            peak = max(peak, s["sink_backlog_bytes"] + s["held_bytes"])
            break
        time.sleep(0.02)
finally:
    open(f"{t}/go", "w").close()
for th in ths:
    th.join(120)
bad = 0
if not paused:
    print(f"serve-httpmem: FAIL: no pause for --max-memory (held + backlog reached {peak} bytes)")
    bad = 1
# the limit, plus what one read and the game being put add
if peak > 1_500_000:
    print(f"serve-httpmem: FAIL: {peak} bytes held with --max-memory 1M")
    bad = 1
for i in range(6):
    a = answers.get(i)
    if a is None or a[0] != 200 or json.loads(a[1])["stored"] != n:
        print(f"serve-httpmem: FAIL: POST {i}'s answer: {a and a[:200]}")
        bad = 1
if not bad:
    print(f"serve-httpmem: bodies held back at {peak} bytes (--max-memory 1M); 6 x {n} games stored after")
sys.exit(bad)
PY
stop_serve
wait $reader
[ "$SERVE_STATUS" -eq 0 ] || bad "serve exited $SERVE_STATUS"

# with nothing in the sink to wait for, the bytes over the limit are the
# body's own game: the request is cut, answered 503, the game quarantined
start_serve --out "$tmp/out" --max-memory 100K --quarantine "$tmp/q2"
python3 - "$HTTP_PORT" <<'PY' || fail=1
import http.client, sys
h = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=60)
try:
    h.request("POST", "/games", body=b"(;GM[1]C[" + b"x" * 2_000_000 + b"])\n")
    r = h.getresponse()
    status, body = r.status, r.read()
except (ConnectionError, http.client.HTTPException) as e:
    status, body = None, repr(e).encode()
if status != 503 or b"limit hit: total memory" not in body:
    print(f"serve-httpmem: FAIL: a game over --max-memory: {status} {body[:200]!r}")
    sys.exit(1)
print("serve-httpmem: a game over --max-memory with the sink empty: 503")
PY
stop_serve
grep -q 'limit hit: .*memory over 102400 bytes (--max-memory): closed' "$tmp/log" ||
  bad "no log line for the 503"
[ "$(find "$tmp/q2" -name 'q-*.sgf' | wc -l)" -eq 1 ] || bad "the cut game was not quarantined"
[ -s "$tmp/out" ] && bad "the game over --max-memory was stored"
exit $fail
