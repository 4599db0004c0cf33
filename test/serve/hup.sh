#!/bin/sh
# hup.sh - SIGHUP reopens the sink file in every thread (log
# rotation): `sgf serve --threads 2 --out FILE`, 4 raw senders (both
# threads get connections), FILE moved away, SIGHUP, 4 more senders: the
# moved file holds the first 4 streams' games, the new FILE the last 4
# streams' and nothing else. Skips (77) without serve or python3.
name=serve-hup
. "${top_srcdir:-.}/test/serve/lib.sh"

python3 -c '
for i in range(2000):
    print("(;GM[1]FF[4]SZ[19]C[game %d];B[pd];W[dp])" % i)' >"$tmp/stream.sgf"
# send4: 4 senders at once; the games they saw stored, in $acked
send4() {
  pids=
  for i in 0 1 2 3; do
    "$sgf" send "127.0.0.1:$RAW_PORT" "$tmp/stream.sgf" >"$tmp/sent$i" 2>&1 &
    pids="$pids $!"
  done
  for p in $pids; do wait "$p" || bad "a sender failed: $(cat "$tmp/sent0")"; done
  acked=0
  for i in 0 1 2 3; do
    n=$(sed -n 's/^sent [0-9]* bytes: \([0-9]*\) stored.*/\1/p' "$tmp/sent$i")
    acked=$((acked + ${n:-0}))
  done
}
start_serve --threads 2 --out "$tmp/out" --quarantine "$tmp/q"
send4
first=$acked
mv "$tmp/out" "$tmp/out.1"
kill -HUP "$SERVE_PID"
i=0
while ! grep -q 'SIGHUP' "$tmp/log" && [ $i -lt 100 ]; do
  sleep 0.05
  i=$((i + 1))
done
sleep 0.2 # the workers' wake
send4
second=$acked
stop_serve
[ "$SERVE_STATUS" -eq 0 ] || bad "serve exited $SERVE_STATUS"
old=$(grep -c '^(;' "$tmp/out.1")
new=$(grep -c '^(;' "$tmp/out" 2>/dev/null)
new=${new:-0}
[ "$first" -gt 0 ] && [ "$old" -eq "$first" ] || bad "the moved file has $old games, not $first"
[ "$second" -gt 0 ] && [ "$new" -eq "$second" ] || bad "the reopened file has $new games, not $second"
[ "$fail" -eq 0 ] && echo "$name: $old games before SIGHUP, $new after, each in its file"
exit $fail
