#!/bin/sh
# threads.sh - `sgf serve --threads 3`: 12 raw senders at once, each
# sending the real sample (test/data/sample, one stream) into a JSON
# Lines sink on standard output, a pipe (whose writes of more than
# PIPE_BUF bytes interleave unless the threads' batches are written under
# one lock). Every line must be whole and, past its "source", one of `sgf
# json`'s lines: each game's 12 times, no more, no less; GET /stats sums
# the three threads' counters (13 connections: its own too); the log
# names the threads. Skips (77) without serve or python3.
name=serve-threads
. "${top_srcdir:-.}/test/serve/lib.sh"

find "$src/test/data/sample" -name '*.sgf' | LC_ALL=C sort | while read -r f; do
  cat "$f"
  echo
done >"$tmp/stream.sgf"
"$sgf" json "$tmp/stream.sgf" >"$tmp/want.jsonl" 2>/dev/null
mkfifo "$tmp/fifo" || exit 99
# a slowish reader: the pipe fills, the writers wait on it
python3 -c '
import sys, time
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "wb") as out:
    while True:
        b = f.read(16384)
        if not b: break
        out.write(b)
        time.sleep(0.001)
' "$tmp/fifo" "$tmp/got.jsonl" &
reader=$!
start_serve --threads 3 --jsonl - --quarantine "$tmp/q" >"$tmp/fifo"
grep -q ' 3 threads for raw connections' "$tmp/log" || bad "no log line for the threads"
pids=
i=0
while [ $i -lt 12 ]; do
  "$sgf" send "127.0.0.1:$RAW_PORT" "$tmp/stream.sgf" >"$tmp/sent$i" 2>&1 &
  pids="$pids $!"
  i=$((i + 1))
done
for p in $pids; do wait "$p" || bad "a sender failed: $(cat "$tmp/sent0")"; done
stats=$(python3 -c "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$HTTP_PORT/stats', timeout=60).read().decode())")
stop_serve
wait $reader
[ "$SERVE_STATUS" -eq 0 ] || bad "serve exited $SERVE_STATUS"
python3 - "$tmp/want.jsonl" "$tmp/got.jsonl" "$stats" <<'PY' || fail=1
import collections, json, sys
want = open(sys.argv[1], "rb").read().splitlines()
got = open(sys.argv[2], "rb").read().splitlines()
stats = json.loads(sys.argv[3])
def rest(line):
    """The bytes after the source object (a line cut short: None)."""
    try:
        text = line.decode("utf-8")
        json.loads(text)
        src, end = json.JSONDecoder().raw_decode(text, len('{"source":'))
    except ValueError:
        return None
    return line[len(text[:end].encode("utf-8")):]
want = [rest(w) for w in want if not w.endswith(b',"incomplete":true}')]
got = [rest(g) for g in got]
bad = 0
broken = sum(1 for g in got if g is None)
if broken:
    print(f"serve-threads: FAIL: {broken} lines not whole JSON (interleaved?)")
    bad = 1
w, g = collections.Counter(want), collections.Counter(got)
if any(g[k] != 12 * n for k, n in w.items()) or len(got) != 12 * len(want):
    print(f"serve-threads: FAIL: {len(got)} lines for 12 x {len(want)} games")
    bad = 1
if stats.get("threads") != 3 or stats.get("games_stored") != 12 * len(want) \
        or stats.get("connections_total") != 13:
    print(f"serve-threads: FAIL: /stats {stats}")
    bad = 1
if not bad:
    print(f"serve-threads: 12 x {len(want)} games from 3 threads, each line whole, each game 12 times")
sys.exit(bad)
PY
exit $fail
