#!/bin/sh
# backpressure.sh - a slow sink (a FIFO read slowly) shows
# backpressure, not memory growth: 4 senders push 48 MB of games into a
# FIFO whose reader does not read until the server has paused for it
# (/stats counts a sink pause: waited for, so that no machine is too slow
# to get there), then reads about 16 MB/s; the server's peak RSS stays
# under 40 MiB (with the sink's backlog unbounded it would hold most of
# the 48 MB; not checked in a sanitizer build), and every acknowledged
# game came out of the FIFO. Skips
# (77) without serve or python3.
name=serve-backpressure
. "${top_srcdir:-.}/test/serve/lib.sh"
# 48 MB of games: 4 files of 12 MB
python3 - "$tmp" <<'PY'
import sys
game = b"(;GM[1]FF[4]SZ[19]PB[Black]PW[White]" + b";B[pd];W[dp]" * 200 + b")\n"
for i in range(4):
    with open(f"{sys.argv[1]}/in{i}.sgf", "wb") as f:
        f.write(game * (12_000_000 // len(game)))
PY
mkfifo "$tmp/fifo" || exit 99
# the slow reader: nothing until the file go exists, then 256 KiB every
# 16 ms
fifo_reader "$tmp/fifo" "$tmp/got" "$tmp/go" 262144 0.016
start_serve --out "$tmp/fifo" --sink-buffer 1M --quarantine "$tmp/q"
pids=
for i in 0 1 2 3; do
  "$sgf" send "127.0.0.1:$RAW_PORT" "$tmp/in$i.sgf" >"$tmp/sent$i" &
  pids="$pids $!"
done
# the sink paused the readers before the FIFO is read at all
python3 - "$HTTP_PORT" <<'PY' || bad "no sink pause in 120 s"
import json, sys, time, urllib.request
deadline = time.time() + 120
while time.time() < deadline:
    url = f"http://127.0.0.1:{sys.argv[1]}/stats"
    if json.loads(urllib.request.urlopen(url, timeout=60).read())["sink_pauses"]:
        sys.exit(0)
    time.sleep(0.1)
sys.exit(1)
PY
touch "$tmp/go"
for p in $pids; do wait "$p"; done
stats=$(python3 -c "import urllib.request,sys; print(urllib.request.urlopen('http://127.0.0.1:$HTTP_PORT/stats', timeout=60).read().decode())")
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$SERVE_PID/status")
stop_serve
wait $reader
acked=0
for i in 0 1 2 3; do
  n=$(sed -n 's/^sent [0-9]* bytes: \([0-9]*\) stored.*/\1/p' "$tmp/sent$i")
  acked=$((acked + ${n:-0}))
done
got=$(grep -c '^(;GM' "$tmp/got")
echo "$name: peak RSS $hwm KiB; $acked games acknowledged, $got out of the FIFO; $stats"
[ "$SERVE_STATUS" -eq 0 ] || bad "serve exited $SERVE_STATUS"
[ "$SERVE_RSS_UNMEASURED" = 1 ] || [ "$hwm" -lt 40960 ] || bad "peak RSS $hwm KiB: the slow sink's backlog was buffered"
case "$stats" in *'"sink_pauses":0,'*) bad "no sink pause counted" ;; esac
[ "$acked" -gt 0 ] && [ "$acked" -eq "$got" ] || bad "$acked acknowledged, $got written"
exit $fail
