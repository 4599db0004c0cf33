#!/bin/sh
# bench/serve.sh - `sgf serve`'s benchmark, against issue 17's targets:
#   raw   N concurrent `sgf send` streams (50) of real corpus games over
#         loopback into a JSON Lines sink: MB/s, games/s and the server's
#         peak RSS (targets: 300 MB/s, under 64 MiB); every game sent must
#         be stored once (the senders' acknowledgements, the sink's lines)
#   http  wrk (one thread, 64 keep-alive connections) POSTs single corpus
#         games (bench/serve-post.lua) to POST /games into a JSON Lines
#         sink: POSTs/s (target: 20,000) and peak RSS; then curl, as a real
#         client, posts 20 of the games to a directory sink: each answer
#         must say "stored":1 and each stored file must be byte-identical
#         to what was posted
#   idle  10,000 idle raw connections held: the server's RSS (target:
#         under 256 MiB)
# With taskset and 2 CPUs or more the server runs on CPU 0 and the
# clients (senders, wrk, python) on CPU 1; the raw measure is made twice:
# so pinned (the server's --threads default follows its CPUs: one loop),
# and unpinned, the server's threads (one a CPU) and the senders sharing
# every CPU. Each raw line gives the senders' own CPU seconds too.
#
# Usage: bench/serve.sh [SGF [CORPUS_DIR]] (default: _build/sgf,
# ../shared/corpus/dev; the games are the first 400 files under 200 KB
# that `sgf check` passes, each sender sending them REPS times).
# SHORT=1: a quick run (10 senders, 1 rep, wrk 2 s, 1,000 idle; CI).
# SERVE_ARGS: more options for every server (e.g. --no-fsync, to measure
# what the file sinks' fdatasync costs).
# Prints one line per measure, "serve-bench: raw: ...". Exit status 0, 1
# when a correctness check failed or the server did not start; no corpus,
# no sgf serve: a note and 0.
set -u
sgf=${1:-_build/sgf}
corpus=${2:-../shared/corpus/dev}
here=$(cd "$(dirname "$0")" && pwd)
short=${SHORT:-0}
[ -d "$corpus" ] || { echo "serve-bench: no corpus $corpus: skipped"; exit 0; }
case $sgf in /*) ;; *) sgf=$(pwd)/$sgf ;; esac
# A libtool wrapper script: run the real program (a shell per `sgf send`
# would be measured, and the wrapper's RSS instead of the server's).
bdir=$(dirname "$sgf")
if head -c 4096 "$sgf" 2>/dev/null | grep -q libtool && [ -x "$bdir/libtool" ]; then
  set -- $(cd "$bdir" && ./libtool --mode=execute sh -c 'echo "$0" "$LD_LIBRARY_PATH"' ./sgf)
  if [ $# -ge 1 ] && [ -x "$1" ]; then
    sgf=$1
    [ $# -ge 2 ] && export LD_LIBRARY_PATH="$2"
  fi
fi
if ! "$sgf" serve --help >/dev/null 2>&1; then
  echo "serve-bench: $sgf has no serve (built without http-parser?): skipped"
  exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-serve-bench.XXXXXX") || exit 1
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; rm -rf "$tmp"' EXIT
status=0
wrong() {
  echo "serve-bench: WRONG: $*"
  status=1
}

spin=
cpin=
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
  spin="taskset -c 0"
  cpin="taskset -c 1"
fi

# start ARGS...: a server on ephemeral loopback ports ($raw, $http).
start() {
  rm -f "$tmp/log"
  rm -rf "$tmp/q"
  $spin "$sgf" serve --listen 127.0.0.1:0 --http 127.0.0.1:0 --log "$tmp/log" \
    --max-connections 20000 --quarantine "$tmp/q" ${SERVE_ARGS:-} "$@" &
  pid=$!
  i=0
  while ! grep -q '(HTTP)' "$tmp/log" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 200 ] || ! kill -0 $pid 2>/dev/null; then
      echo "serve-bench: the server did not start"
      cat "$tmp/log" 2>/dev/null
      exit 1
    fi
    sleep 0.05
  done
  raw=$(sed -n 's/.*listening on [^ ]*:\([0-9]*\) (raw SGF).*/\1/p' "$tmp/log")
  http=$(sed -n 's/.*listening on [^ ]*:\([0-9]*\) (HTTP).*/\1/p' "$tmp/log")
}
# stop: the server's peak RSS in $hwm (KiB), then SIGTERM; it must exit 0.
# $cpu: the server's CPU seconds (user + system), which a loaded machine
# does not inflate as it does the wall time.
stop() {
  hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$pid/status")
  cpu=$(sed 's/^.*) //' "/proc/$pid/stat" | awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($12 + $13) / hz }')
  kill -TERM $pid
  wait $pid
  st=$?
  pid=
  [ $st -eq 0 ] || wrong "the server exited with status $st"
}
# stored_count SINK-OPTION FILE: the games the stopped server stored, by
# its last log line; for JSON Lines, that must be the file's lines.
stored_count() {
  n=$(sed -n 's/.*stopped: \([0-9]*\) games stored.*/\1/p' "$tmp/log")
  if [ "$1" = --jsonl ] && [ "$(wc -l <"$2")" -ne "${n:-0}" ]; then
    wrong "$(wc -l <"$2") JSON lines for ${n:-0} games stored" >&2
  fi
  echo "${n:-0}"
}
quarantined() { find "$tmp/q" -name 'q-*.sgf' 2>/dev/null | wc -l; }

echo "serve-bench: host $(uname -m), $(nproc) CPU, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)${spin:+; server on CPU 0, clients on CPU 1}"

# the games: clean corpus files, whole
find "$corpus" -name '*.sgf' -size -200k | LC_ALL=C sort | head -400 | while read -r f; do
  "$sgf" check -q "$f" >/dev/null 2>&1 && cat "$f" && echo
done >"$tmp/games.sgf"
[ -s "$tmp/games.sgf" ] || { echo "serve-bench: no clean game in $corpus: skipped"; exit 0; }
reps=8
[ "$short" = 1 ] && reps=1
i=0
while [ $i -lt $reps ]; do cat "$tmp/games.sgf"; i=$((i + 1)); done >"$tmp/send.sgf"
size=$(wc -c <"$tmp/send.sgf")

# ---- raw: N senders
senders=50
[ "$short" = 1 ] && senders=10
# children_cpu: the CPU seconds (user + system) of this shell's
# waited-for children (cutime + cstime of /proc/$$/stat).
children_cpu() {
  sed 's/^.*) //' "/proc/$$/stat" | awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }'
}
# raw_run WHAT SINK-OPTION FILE [NOTE]: one run ($spin, $cpin: where).
raw_run() {
  what=$1
  rm -f "$3"
  start "$2" "$3"
  threads=$(sed -n 's/.* \([0-9]*\) threads for raw connections.*/\1/p' "$tmp/log")
  c0=$(children_cpu)
  t0=$(date +%s.%N)
  pids=
  i=0
  while [ $i -lt $senders ]; do
    $cpin "$sgf" send "127.0.0.1:$raw" "$tmp/send.sgf" >"$tmp/sent$i" 2>&1 &
    pids="$pids $!"
    i=$((i + 1))
  done
  bad_send=0
  for p in $pids; do wait "$p" || bad_send=$((bad_send + 1)); done
  t1=$(date +%s.%N)
  c1=$(children_cpu)
  stop
  lines=$(stored_count "$2" "$3")
  acked=$(cat "$tmp"/sent* | awk '/^sent / { s += $4 } END { print s + 0 }')
  per=$(awk '/^sent / { print $4; exit }' "$tmp/sent0")
  [ "$bad_send" -eq 0 ] || wrong "raw: $bad_send senders failed: $(cat "$tmp/sent0")"
  [ "$acked" -eq $((${per:-0} * senders)) ] || wrong "raw: $acked games acknowledged, not $senders x $per"
  [ "$lines" -eq "$acked" ] || wrong "raw: $lines games stored for $acked acknowledged"
  [ "$(quarantined)" -eq 0 ] || wrong "raw: $(quarantined) games quarantined"
  where="server on CPU 0 (1 thread), senders on CPU 1"
  [ -n "$spin" ] || where="unpinned: server ${threads:-1} thread(s), senders on any of $(nproc) CPUs"
  echo "$t0 $t1 $size $senders $acked $hwm $cpu $c0 $c1" | awk -v what="$what" -v note="${4:-}" -v where="$where" '{ s = $2 - $1; mb = $3 * $4 / 1e6;
    printf "serve-bench: raw: %d senders, %.1f MB in %.2f s: %.1f MB/s, %.0f games/s into %s (%s; %d games, each acknowledged and stored once; server CPU %.2f s: %.1f MB per CPU second; senders CPU %.2f s), peak RSS %.1f MiB%s\n",
    $4, mb, s, mb / s, $5 / s, what, where, $5, $7, mb / ($7 > 0 ? $7 : 1), $9 - $8, $6 / 1024, note }'
  rm -f "$3" "$tmp"/sent*
}
if [ -n "$spin" ]; then
  raw_run "JSON Lines" --jsonl "$tmp/out.jsonl" " (pinned; for comparison)"
  pinned_s=$spin pinned_c=$cpin
  spin= cpin=
  raw_run "JSON Lines" --jsonl "$tmp/out.jsonl" " (targets: 300 MB/s, under 64 MiB)"
  raw_run "an SGF file" --out "$tmp/out.sgf" " (byte-exact; for comparison)"
  spin=$pinned_s cpin=$pinned_c
else
  raw_run "JSON Lines" --jsonl "$tmp/out.jsonl" " (targets: 300 MB/s, under 64 MiB)"
  raw_run "an SGF file" --out "$tmp/out.sgf" " (byte-exact; for comparison)"
fi

# ---- http: wrk posting single games, then curl
"$sgf" split -d "$tmp/one" --compact "$tmp/games.sgf" >/dev/null 2>&1
ls "$tmp/one" | head -500 | while read -r f; do cat "$tmp/one/$f"; printf '\0'; done >"$tmp/posts"
dur=10
[ "$short" = 1 ] && dur=2
# http_run WHAT SINK-OPTION FILE [NOTE]
http_run() {
  rm -f "$3"
  start "$2" "$3"
  GAMES="$tmp/posts" $cpin wrk -t1 -c64 -d${dur}s -s "$here/serve-post.lua" \
    "http://127.0.0.1:$http/games" >"$tmp/wrk" 2>&1
  stop # after the answers wrk did not wait for
  rps=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' "$tmp/wrk")
  nreq=$(sed -n 's/^ *\([0-9]*\) requests in .*/\1/p' "$tmp/wrk")
  non2xx=$(sed -n 's/.*Non-2xx or 3xx responses: *\([0-9]*\).*/\1/p' "$tmp/wrk")
  errs=$(sed -n 's/.*Socket errors: *\(.*\)/\1/p' "$tmp/wrk")
  lines=$(stored_count "$2" "$3")
  [ -n "$rps" ] || wrong "http: wrk did not run: $(cat "$tmp/wrk")"
  [ "${non2xx:-0}" -eq 0 ] || wrong "http: $non2xx answers not 200"
  [ "$lines" -ge "${nreq:-0}" ] || wrong "http: $lines games stored for $nreq answered POSTs"
  [ "$(quarantined)" -eq 0 ] || wrong "http: $(quarantined) games quarantined"
  echo "serve-bench: http: wrk 1 thread, 64 connections, ${dur} s: ${rps:-?} POSTs/s of single games into $1 (${nreq:-?} answered, $lines stored, ${non2xx:-0} not 200${errs:+, socket errors: $errs}; server CPU $cpu s: $(awk -v n="$lines" -v c="$cpu" 'BEGIN { printf "%.0f", n / (c > 0 ? c : 1) }') POSTs per CPU second), peak RSS $((hwm / 1024)) MiB${4:-}"
  rm -f "$3"
}
if ! command -v wrk >/dev/null 2>&1; then
  echo "serve-bench: http: wrk not installed (Debian package wrk): skipped"
else
  http_run "JSON Lines" --jsonl "$tmp/out.jsonl" " (target: 20,000/s)"
  http_run "an SGF file" --out "$tmp/out.sgf" " (for comparison)"
fi
if ! command -v curl >/dev/null 2>&1; then
  echo "serve-bench: curl: not installed: skipped"
else
  start --dir "$tmp/d"
  n=0
  for f in $(ls "$tmp/one" | head -20); do
    curl -s --data-binary @"$tmp/one/$f" -H 'Content-Type: application/x-go-sgf' \
      "http://127.0.0.1:$http/games" | grep -q '"stored":1,' && n=$((n + 1))
  done
  stop
  # a stored game is its bytes from '(' to ')': the posted file's, less
  # its final newline
  for f in $(ls "$tmp/one" | head -20); do printf '%s' "$(cat "$tmp/one/$f")" | cksum; done | sort >"$tmp/sent.ck"
  for f in "$tmp"/d/*.sgf; do cksum <"$f"; done | sort >"$tmp/stored.ck"
  same=$(comm -12 "$tmp/sent.ck" "$tmp/stored.ck" | wc -l)
  [ "$n" -eq 20 ] || wrong "curl: $n of 20 answers said \"stored\":1"
  cmp -s "$tmp/sent.ck" "$tmp/stored.ck" || wrong "curl: the stored games differ from those posted"
  echo "serve-bench: curl: 20 POSTs of single games into a directory: $n answered \"stored\":1, $same stored byte-identical"
fi

# ---- idle connections
idle=10000
[ "$short" = 1 ] && idle=1000
start --out /dev/null --idle-timeout 600
$cpin python3 - "$raw" "$idle" "$pid" <<'PY' || wrong "idle: the connections could not be held"
import resource, socket, sys, time
port, n, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
def rss():
    for l in open(f"/proc/{pid}/status"):
        if l.startswith("VmRSS"):
            return int(l.split()[1]) / 1024
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if hard != resource.RLIM_INFINITY and hard < n + 100:
    print(f"serve-bench: idle: only {hard} descriptors allowed (ulimit -Hn): {n} connections not tried")
    sys.exit(1)
resource.setrlimit(resource.RLIMIT_NOFILE, (n + 100, hard))
before = rss()
socks = []
for i in range(n):
    socks.append(socket.create_connection(("127.0.0.1", port)))
    if i % 1000 == 999:
        time.sleep(0.05)
time.sleep(1.0)
after = rss()
# still served: one of them sends a game and gets its answer
s = socks[0]
s.sendall(b"(;GM[1]B[aa])")
s.shutdown(socket.SHUT_WR)
s.settimeout(10)
out = b""
while not out.endswith(b"\n") or b"done" not in out:
    b = s.recv(1000)
    if not b: break
    out += b
ok = b"stored 0 0 13" in out
print(f"serve-bench: idle: {n} idle connections held, server RSS {after:.1f} MiB ({before:.1f} before, {(after - before) * 1024 * 1024 / n:.0f} bytes a connection), {'a game still stored' if ok else 'NO ANSWER'} (target: 10,000 in under 256 MiB)")
for s in socks:
    s.close()
sys.exit(0 if ok else 1)
PY
stop
exit $status
