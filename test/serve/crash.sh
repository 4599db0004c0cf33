#!/bin/sh
# crash.sh - kill -9 and restart. For --jsonl and --out: 3000 games
# down one connection, the server killed (SIGKILL) once 200 are
# acknowledged; a torn record is appended to the file, as a write cut by
# the crash leaves one; a restarted server moves it to the quarantine
# (logged) before it appends, and every game acknowledged by either
# server is in the file whole and once. Before, the next game was
# appended to the torn record and no longer parsed. For --dir: the .tmp-
# files a crash leaves are removed at start (logged), but not those of a
# process still running. Skips (77) without serve or python3.
name=serve-crash
. "${top_srcdir:-.}/test/serve/lib.sh"

check="$src/test/serve/ackcheck.py"
python3 "$check" games "$tmp/run1.sgf" 3000 0 || exit 99
python3 "$check" games "$tmp/run2.sgf" 50 5000 || exit 99

for kind in jsonl out; do
  sinkf="$tmp/sink.$kind"
  start_serve "--$kind" "$sinkf" --quarantine "$tmp/q-$kind"
  timeout 60 python3 - "$RAW_PORT" "$SERVE_PID" "$tmp/run1.sgf" "$tmp/acks1-$kind" <<'PY' || fail=1
import os, signal, socket, sys, threading
port, pid, games, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
data = open(games, "rb").read()
s = socket.create_connection(("127.0.0.1", port), timeout=30)
def send():
    try:
        for i in range(0, len(data), 4096):
            s.sendall(data[i:i + 4096])
    except OSError:
        pass  # the server is gone
threading.Thread(target=send, daemon=True).start()
got, killed = b"", False
while True:
    try:
        b = s.recv(65536)
    except OSError:
        break
    if not b:
        break
    got += b
    if not killed and got.count(b"stored ") >= 200:
        os.kill(pid, signal.SIGKILL)
        killed = True
open(out, "wb").write(got)
if not killed:
    print(f"serve-crash: FAIL: not 200 games acknowledged: {got[-200:]!r}")
    sys.exit(1)
PY
  wait "$SERVE_PID"
  SERVE_PID=
  # a record torn by the crash
  if [ $kind = jsonl ]; then
    printf '{"source":{"file":"t999999x' >>"$sinkf"
  else
    printf '(;GM[1]FF[4]GN[t999999x];B[aa];W[b' >>"$sinkf"
  fi
  start_serve "--$kind" "$sinkf" --quarantine "$tmp/q-$kind"
  timeout 60 "$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/run2.sgf" >"$tmp/acks2-$kind" 2>&1 ||
    bad "$kind: the games after the restart: $(tail -1 "$tmp/acks2-$kind")"
  stop_serve
  grep -q "sink: $sinkf: .* not a whole record .*moved to $tmp/q-$kind/tail-" "$tmp/log" ||
    bad "$kind: no log line for the torn record set aside"
  grep -q 't999999x' "$tmp/q-$kind"/tail-* 2>/dev/null || bad "$kind: the torn record is not in the quarantine"
  python3 "$check" check "$kind" "$sinkf" "$tmp/run1.sgf=$tmp/acks1-$kind" \
    "$tmp/run2.sgf=$tmp/acks2-$kind" >"$tmp/check" || bad "$kind: $(cat "$tmp/check")"
  echo "$name: $kind: $(tail -1 "$tmp/check")"
done

# --dir: a crash's temporary files are removed at start, logged; one of
# a process that runs (this shell) is left
mkdir "$tmp/d" || exit 99
gone="$tmp/d/.tmp-20260101T000000-999999999-000001.sgf"
live="$tmp/d/.tmp-20260101T000000-$$-000002.sgf"
printf '(;GM[1]' >"$gone"
printf '(;GM[1]' >"$live"
start_serve --dir "$tmp/d" --quarantine "$tmp/qd"
stop_serve
[ -e "$gone" ] && bad "--dir: a crash's .tmp- file is left"
[ -e "$live" ] || bad "--dir: a running process's .tmp- file was removed"
grep -q "sink: $tmp/d/.tmp-20260101T000000-999999999-000001.sgf: removed" "$tmp/log" ||
  bad "--dir: no log line for the .tmp- file removed"
[ $fail -eq 0 ] && echo "$name: after kill -9 every acknowledged game is in the sink whole and once"
exit $fail
