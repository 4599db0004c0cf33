#!/bin/sh
# slowloris.sh - HTTP clients that trickle their headers a byte at
# a time take every slot (--max-connections 20): GET /stats is still
# answered (a few slots kept for monitoring), the slow clients are
# closed at --header-timeout however their bytes trickle, and a POST is
# then served; a body trickling under --min-body-rate is closed too.
# Skips (77) without serve or python3.
name=serve-slowloris
. "${top_srcdir:-.}/test/serve/lib.sh"
start_serve --out "$tmp/out" --quarantine "$tmp/q" --max-connections 20 \
  --header-timeout 2 --min-body-rate 100
python3 - "$HTTP_PORT" <<'PY' || fail=1
import json, select, socket, sys, threading, time, urllib.request
port = int(sys.argv[1])
bad = 0
stop = time.time() + 8
def slow():
    s = socket.create_connection(("127.0.0.1", port))
    try:
        for c in b"POST /games HTTP/1.1\r\nHost: slow\r\n" * 2:
            if time.time() > stop:
                break
            s.send(bytes([c]))
            time.sleep(0.2)
    except OSError:
        pass  # closed by the server
    s.close()
body_closed = []
def slow_body():  # 5 bytes a second, under --min-body-rate 100
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
    try:
        while time.time() < stop + 1:
            if select.select([s], [], [], 0)[0]:
                body_closed.append(s.recv(100))
                break
            s.send(b" ")
            time.sleep(0.2)
    except OSError as e:
        body_closed.append(str(e))
    s.close()
threads = [threading.Thread(target=slow_body)]
threads += [threading.Thread(target=slow) for _ in range(19)]
for t in threads:
    t.start()
time.sleep(1)
try:
    st = json.loads(urllib.request.urlopen(
        f"http://127.0.0.1:{port}/stats", timeout=5).read())
    print(f"serve-slowloris: GET /stats answered, {st['connections_open']} open")
except OSError as e:
    print(f"serve-slowloris: FAIL: GET /stats with every slot taken: {e}")
    bad = 1
time.sleep(2.5)  # past --header-timeout
try:
    a = json.loads(urllib.request.urlopen(urllib.request.Request(
        f"http://127.0.0.1:{port}/games", data=b"(;GM[1]SZ[9];B[ee])",
        method="POST"), timeout=5).read())
    if a["stored"] != 1:
        raise OSError(f"answered {a}")
except OSError as e:
    print(f"serve-slowloris: FAIL: a POST after the header timeout: {e}")
    bad = 1
for t in threads:
    t.join()
if not body_closed:
    print("serve-slowloris: FAIL: a body under --min-body-rate was not closed")
    bad = 1
sys.exit(bad)
PY
stop_serve
grep -q 'limit hit: .*request headers not complete in 2000 ms: closed' "$tmp/log" ||
  bad "no log line for the header timeout"
grep -q 'limit hit: .*request body slower than 100 bytes/s: closed' "$tmp/log" ||
  bad "no log line for the body rate"
exit $fail
