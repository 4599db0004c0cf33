#!/bin/sh
# httpack.sh - what a POST /games stores and answers:
# - a request that never completes (Content-Length 20 with 8 bytes of
#   body, or 99999999999999, then the client's side shut) stores
#   nothing: the log says so, and the client, still reading, is told
#   (400, "nothing of it stored"). Before, its games were stored and
#   nothing answered: a retry stored them twice;
# - the answer lists a body's games in its order (a large first game
#   in a directory sink is acknowledged last);
# - --max-quarantine: what the quarantine directory held at start
#   counts; past the cap a game to quarantine is dropped, said in the
#   answer ("dropped", "quarantined":false) and logged, and the
#   directory stays under the cap.
# Skips (77) without serve or python3.
name=serve-httpack
. "${top_srcdir:-.}/test/serve/lib.sh"

start_serve --dir "$tmp/d" --quarantine "$tmp/q"
python3 - "$HTTP_PORT" <<'PY' || fail=1
import json, socket, sys
port = int(sys.argv[1])
bad = 0
def raw(req):
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(req)
    s.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        try:
            b = s.recv(65536)
        except OSError:
            break
        if not b:
            break
        got += b
    s.close()
    return got
for length in (b"20", b"99999999999999"):
    a = raw(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: " + length +
            b"\r\n\r\n(;B[ae])")
    if not a.startswith(b"HTTP/1.1 400") or b"nothing of it stored" not in a:
        print(f"serve-httpack: FAIL: Content-Length {length.decode()} with 8 bytes: answered {a[:200]!r}")
        bad = 1
# the order: a large first game, then small ones
body = b"(;GM[1]C[" + b"x" * 3_000_000 + b"])\n" + b"".join(
    b"(;GM[1]GN[g%d];B[aa])\n" % i for i in range(200))
a = raw(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
try:
    j = json.loads(a.split(b"\r\n\r\n", 1)[1])
    idx = [g["index"] for g in j["games"]]
    if idx != list(range(201)) or j["stored"] != 201:
        print(f"serve-httpack: FAIL: the games answered in the order {idx[:10]}..., {j['stored']} stored")
        bad = 1
except (IndexError, ValueError, KeyError) as e:
    print(f"serve-httpack: FAIL: the answer to 201 games: {a[:200]!r}")
    bad = 1
sys.exit(bad)
PY
stop_serve
n=$(find "$tmp/d" -name '*.sgf' | wc -l)
[ "$n" -eq 201 ] || bad "$n games in the directory, not the 201 of the complete request"
grep -q 'ae' "$tmp"/d/*.sgf && bad "a game of an incomplete request was stored"
[ "$(grep -c 'POST /games .*: the request is incomplete, 1 complete games in it not stored' "$tmp/log")" -eq 2 ] ||
  bad "no log line for each incomplete request"

# the quarantine's cap: 50K there before, each body's open game 40K
mkdir "$tmp/q2" || exit 99
head -c 50000 /dev/zero >"$tmp/q2/q-old.sgf"
start_serve --out "$tmp/out" --quarantine "$tmp/q2" --max-quarantine 100K
python3 - "$HTTP_PORT" <<'PY' || fail=1
import http.client, json, sys
bad = 0
got = []
for i in range(3):
    h = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
    h.request("POST", "/games", body=b"(;GM[1]B[aa])(;GM[1]C[" + b"y" * 40000)
    r = h.getresponse()
    j = json.loads(r.read())
    got.append((j["stored"], j["quarantined"], j["dropped"],
                [x["quarantined"] for x in j["rejected"]]))
want = [(1, 1, 0, [True]), (1, 0, 1, [False]), (1, 0, 1, [False])]
if got != want:
    print(f"serve-httpack: FAIL: with --max-quarantine 100K: {got}, not {want}")
    bad = 1
sys.exit(bad)
PY
stop_serve
size=$(du -sb "$tmp/q2" | cut -f1)
[ "$size" -le 106000 ] || bad "the quarantine holds $size bytes with --max-quarantine 100K"
[ "$(grep -c 'not kept: the quarantine is full (--max-quarantine 102400)' "$tmp/log")" -eq 2 ] ||
  bad "no log line for each game dropped"
[ $fail -eq 0 ] && echo "$name: an incomplete request stores nothing and is answered; games in order; the quarantine capped"
exit $fail
