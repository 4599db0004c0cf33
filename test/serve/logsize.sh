#!/bin/sh
# logsize.sh - the log grows with events, not with games: 100,000
# tiny games over raw TCP and 10,000 in a POST leave a log of a few
# lines (a summary, the connections' connect and close lines, the HTTP
# connection's included, the stopped line with its counts of failures),
# not a line a game; --log-games gives the line a game. Skips (77)
# without serve or python3.
name=serve-logsize
. "${top_srcdir:-.}/test/serve/lib.sh"
send_games() {
  python3 - "$RAW_PORT" "$HTTP_PORT" "$1" <<'PY'
import socket, sys, urllib.request
raw, http, n = (int(a) for a in sys.argv[1:4])
s = socket.create_connection(("127.0.0.1", raw))
s.sendall(b"(;)" * n)
s.shutdown(socket.SHUT_WR)
out = b""
while True:
    x = s.recv(65536)
    if not x:
        break
    out += x
if not out.endswith(b"done %d 0\n" % n):
    sys.exit(f"serve-logsize: FAIL: the raw stream's answer ends {out[-40:]!r}")
urllib.request.urlopen(urllib.request.Request(
    f"http://127.0.0.1:{http}/games", data=b"(;)" * (n // 10), method="POST"),
    timeout=60).read()
PY
}
start_serve --out /dev/null --quarantine "$tmp/q"
send_games 100000 || fail=1
stop_serve
size=$(wc -c <"$tmp/log")
echo "$name: a log of $size bytes for 330,000 bytes of games"
[ "$size" -lt 16384 ] || bad "the log grew to $size bytes"
grep -q 'close .* (http): .* 1 requests, 10000 games stored' "$tmp/log" ||
  bad "no close line for the HTTP connection"
grep -q 'stopped: 110000 games stored, 0 quarantined, 0 store failures, 0 limits hit' "$tmp/log" ||
  bad "the stopped line does not count the failures"
start_serve --out /dev/null --quarantine "$tmp/q" --log-games
send_games 30 || fail=1
stop_serve
[ "$(grep -c 'stored 127.0.0.1:[0-9]* #[0-9]* game ' "$tmp/log")" -eq 33 ] ||
  bad "--log-games: not a line a game"
exit $fail
