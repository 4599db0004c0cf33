#!/bin/sh
# sigterm.sh - SIGTERM mid-load loses nothing acknowledged: 8
# senders stream games at a limited rate (raw, and one over HTTP); the
# server gets SIGTERM while they send, exits 0, and every game any sender
# saw acknowledged ("stored INDEX OFFSET LENGTH") is in the sink
# directory byte for byte; the game each raw connection was in the middle
# of is quarantined (not stored); no temporary file is left. Skips (77)
# without serve or python3.
name=serve-sigterm
. "${top_srcdir:-.}/test/serve/lib.sh"
python3 - "$tmp" <<'PY'
import sys
for i in range(8):
    with open(f"{sys.argv[1]}/in{i}.sgf", "wb") as f:
        for g in range(3000):
            f.write(b"(;GM[1]FF[4]SZ[19]PB[sender %d]PW[game %d];B[pd];W[dp]"
                    b";B[pp];W[dd]C[%s])\n" % (i, g, b"x" * (500 + g % 700)))
PY
start_serve --dir "$tmp/out" --quarantine "$tmp/q"
pids=
for i in 0 1 2 3 4 5 6; do
  "$sgf" send -v --rate 60000 --chunk 2000 "127.0.0.1:$RAW_PORT" \
    "$tmp/in$i.sgf" >"$tmp/sent$i" 2>/dev/null &
  pids="$pids $!"
done
"$sgf" send -v --http --rate 60000 --chunk 2000 "127.0.0.1:$HTTP_PORT" \
  "$tmp/in7.sgf" >"$tmp/sent7" 2>/dev/null &
pids="$pids $!"
# SIGTERM once games are acknowledged (waited for, however slow the
# machine; the senders need about 40 s to send all at that rate)
python3 - "$HTTP_PORT" <<'PY'
import json, sys, time, urllib.request
deadline = time.time() + 120
while time.time() < deadline:
    url = f"http://127.0.0.1:{sys.argv[1]}/stats"
    if json.loads(urllib.request.urlopen(url, timeout=60).read())["games_stored"] >= 50:
        break
    time.sleep(0.05)
PY
stop_serve
for p in $pids; do wait "$p"; done
[ "$SERVE_STATUS" -eq 0 ] || bad "serve exited $SERVE_STATUS"
python3 - "$tmp" <<'PY' || fail=1
import collections, json, os, sys
t = sys.argv[1]
stored = collections.Counter(open(f"{t}/out/{n}", "rb").read()
                             for n in os.listdir(f"{t}/out"))
acked, quar = collections.Counter(), 0
for i in range(7):
    sent = open(f"{t}/in{i}.sgf", "rb").read()
    for line in open(f"{t}/sent{i}"):
        f = line.split()
        if f[0] == "stored":
            off, ln = int(f[2]), int(f[3])
            acked[sent[off:off + ln]] += 1
        elif f[0] == "quarantined":
            quar += 1
# the HTTP sender: its request was cut, so no summary is expected
missing = acked - stored
bad = 0
if missing:
    print(f"serve-sigterm: FAIL: {sum(missing.values())} acknowledged games not stored")
    bad = 1
if sum(acked.values()) == 0:
    print("serve-sigterm: FAIL: nothing was acknowledged before SIGTERM")
    bad = 1
if any(n.startswith(".tmp") for n in os.listdir(f"{t}/out")):
    print("serve-sigterm: FAIL: a temporary file was left")
    bad = 1
total = sum(1 for _ in stored)
print(f"serve-sigterm: {sum(acked.values())} games acknowledged, all stored "
      f"({len(os.listdir(t + '/out'))} files); {quar} quarantined at the stop")
sys.exit(bad)
PY
grep -q 'SIGTERM: stopping' "$tmp/log" || bad "no log line for SIGTERM"
exit $fail
