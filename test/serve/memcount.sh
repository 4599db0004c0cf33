#!/bin/sh
# memcount.sh - --max-memory counts what the server holds besides
# the games' bytes: tiny games waiting for a sink that does not write (a
# FIFO nobody reads: each game's records, with a 16M --sink-buffer),
# and JSON Lines converters of
# four open 6 MB games (what they grew to). The peak RSS (VmHWM) stays
# within --max-memory + 16 MiB, and once the clients are gone the server
# gives the converters' memory back (RSS under 16 MiB). Skips (77)
# without serve or python3.
name=serve-memcount
. "${top_srcdir:-.}/test/serve/lib.sh"
[ "$SERVE_RSS_UNMEASURED" -eq 1 ] && { echo "$name: sanitizer build: skipped"; exit 77; }
rss() { # FIELD: of the server, in MiB
  awk -v k="$1:" '$1 == k { print int($2 / 1024) }' "/proc/$SERVE_PID/status"
}
mkfifo "$tmp/fifo" || exit 99
fifo_reader "$tmp/fifo" "$tmp/got" "$tmp/go" 65536 0.01
start_serve --out "$tmp/fifo" --quarantine "$tmp/q" --max-memory 32M \
  --sink-buffer 16M
python3 - "$RAW_PORT" <<'PY'
import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.settimeout(2)  # the server stops reading: the send blocks
sent, t0 = 0, time.time()
try:
    while sent < 16 << 20 and time.time() - t0 < 20:
        sent += s.send(b"(;)" * 10000)
except OSError:
    pass
print(f"serve-memcount: {sent} bytes of tiny games for a sink that does not write")
PY
peak=$(rss VmHWM)
kill -KILL "$SERVE_PID" # its sink cannot write: no stop to wait for
wait "$SERVE_PID"
SERVE_PID=
touch "$tmp/go"
kill "$reader" 2>/dev/null
echo "$name: VmHWM $peak MiB"
[ "$peak" -le 48 ] || bad "tiny games: VmHWM $peak MiB over --max-memory 32M + 16 MiB"

start_serve --jsonl /dev/null --quarantine "$tmp/q" --max-memory 32M
python3 - "$RAW_PORT" <<'PY' || fail=1
import socket, sys, time
game = (b"(;GM[1]FF[4]SZ[19]C[" + b"comment text " * 120000 + b"]" +
        b";B[pd]C[a comment]" * 170000)
socks = []
for i in range(4):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    try:
        s.sendall(game)
    except OSError:
        pass  # cut by the limit
    socks.append(s)
time.sleep(0.5)
for s in socks:
    try:
        s.sendall(b")")
        s.shutdown(socket.SHUT_WR)
        while s.recv(65536):
            pass
    except OSError:
        pass
    s.close()
PY
sleep 0.6 # the clients gone, the next 0.2 s tick trims
peak=$(rss VmHWM)
after=$(rss VmRSS)
stop_serve
echo "$name: JSON Lines, open games: VmHWM $peak MiB, $after MiB once the clients are gone"
[ "$peak" -le 48 ] || bad "JSON Lines: VmHWM $peak MiB over --max-memory 32M + 16 MiB"
[ "$after" -le 16 ] || bad "JSON Lines: $after MiB kept once the clients are gone"
exit $fail
