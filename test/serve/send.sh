#!/bin/sh
# send.sh - sgf send reads its FILEs as every command does and
# reports what the server did:
# - a .gz file and a .tar.gz archive go as the games inside (raw and
#   HTTP: one POST per entry), stored byte for byte; before, the
#   compressed bytes went and the lenient server stored them as games;
# - against --out=/dev/full every game fails: "N failed", exit 2, and
#   the server's stopped: line counts them;
# - a refused connection is an error (exit 2, nothing said sent);
# - --http --rate=4000 sends 8 KB in no less than 1.5 s (before, the
#   whole request went in one write);
# - serve --help ends with serve's own exit status, not the FILE text.
# Skips (77) without serve or python3.
name=serve-send
. "${top_srcdir:-.}/test/serve/lib.sh"

python3 - "$tmp" <<'PY' || exit 99
import gzip, io, sys, tarfile
t = sys.argv[1]
games = [b"(;GM[1]GN[s%d];B[aa];W[bb])" % i for i in range(8)]
open(f"{t}/games.sgf", "wb").write(b"\n".join(games) + b"\n")
open(f"{t}/three.sgf.gz", "wb").write(gzip.compress(b"\n".join(games[:3]) + b"\n"))
with tarfile.open(f"{t}/two.tar.gz", "w:gz") as tf:
    for name, data in (("a.sgf", games[3] + games[4]), ("b.sgf", games[5])):
        ti = tarfile.TarInfo(name)
        ti.size = len(data)
        tf.addfile(ti, io.BytesIO(data))
open(f"{t}/big.sgf", "wb").write(b"(;GM[1]C[" + b"z" * 8000 + b"])\n")
PY

start_serve --dir "$tmp/d" --quarantine "$tmp/q"
"$sgf" send "127.0.0.1:$RAW_PORT" "$tmp/three.sgf.gz" >"$tmp/o1" 2>&1 ||
  bad "send of a .gz exited $?: $(cat "$tmp/o1")"
grep -q ': 3 stored, 0 quarantined, 0 failed' "$tmp/o1" || bad "send of a .gz: $(cat "$tmp/o1")"
"$sgf" send --http "127.0.0.1:$HTTP_PORT" "$tmp/two.tar.gz" >"$tmp/o2" 2>&1 ||
  bad "send --http of a .tar.gz exited $?: $(cat "$tmp/o2")"
grep -q ': 3 stored, 0 quarantined, 0 failed' "$tmp/o2" || bad "send --http of a .tar.gz: $(cat "$tmp/o2")"
t0=$(date +%s%N)
"$sgf" send --http --rate=4000 "127.0.0.1:$HTTP_PORT" "$tmp/big.sgf" >"$tmp/o3" 2>&1 ||
  bad "send --http --rate exited $?: $(cat "$tmp/o3")"
t1=$(date +%s%N)
ms=$(((t1 - t0) / 1000000))
[ "$ms" -ge 1500 ] || bad "send --http --rate=4000 sent 8 KB in $ms ms"
stop_serve
stored=$(for f in "$tmp"/d/*.sgf; do cat "$f"; echo; done | sort)
want=$(python3 -c 'import sys; print("\n".join(sorted(["(;GM[1]GN[s%d];B[aa];W[bb])" % i for i in range(6)] + ["(;GM[1]C[" + "z" * 8000 + "])"])))')
[ "$stored" = "$want" ] || bad "the games stored are not the games inside the files: $(echo "$stored" | head -c 300)"

start_serve --out /dev/full --quarantine "$tmp/q"
"$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/games.sgf" >"$tmp/o4" 2>&1
st=$?
[ $st -eq 2 ] || bad "send to a sink that fails exited $st, not 2"
grep -q '^sent [0-9]* bytes: 0 stored, 0 quarantined, 8 failed' "$tmp/o4" || bad "send to a sink that fails: $(tail -1 "$tmp/o4")"
stop_serve
grep -q 'stopped: 0 games stored, 0 quarantined, 8 store failures' "$tmp/log" || bad "the stopped: line: $(grep stopped: "$tmp/log")"

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$sgf" send "127.0.0.1:$port" "$tmp/games.sgf" >"$tmp/o5" 2>&1
st=$?
[ $st -eq 2 ] || bad "send to a closed port exited $st, not 2"
grep -q 'connect: connection refused' "$tmp/o5" || bad "send to a closed port said: $(cat "$tmp/o5")"
grep -q '^sent 0 bytes' "$tmp/o5" || bad "send to a closed port claims bytes sent: $(cat "$tmp/o5")"

"$sgf" serve --help >"$tmp/help" 2>&1 || bad "serve --help exited $?"
grep -q 'a FILE (directory' "$tmp/help" && bad "serve --help ends with the FILE text: $(tail -3 "$tmp/help")"
grep -q -- '--max-quarantine' "$tmp/help" || bad "serve --help has no --max-quarantine"
[ $fail -eq 0 ] && echo "$name: compressed files and archives sent as games; failures, refusals and --rate honoured"
exit $fail
