#!/bin/sh
# failfile.sh - a file sink's I/O errors (test/serve/failfile.c,
# preloaded) keep the acknowledgment contract:
# - --jsonl whose fdatasync fails: the game is taken out again and
#   reported "failed" (before, it was acknowledged once written, not
#   synced), so that the sender's second try is the one stored;
# - with --no-fsync no fdatasync is made: the game is stored at once;
# - --out whose write fails part way and whose cut back fails too: the
#   log says so and the sink takes no more games (reported "failed", not
#   appended to the partial record, as before) until SIGHUP reopens it,
#   which sets the partial record aside in the quarantine; then the next
#   game is stored whole.
# Skips (77) without serve, python3, a C compiler or LD_PRELOAD (a
# sanitizer build).
name=serve-failfile
. "${top_srcdir:-.}/test/serve/lib.sh"

cc=${CC:-cc}
if [ "$SERVE_SANITIZED" = 1 ] || ! command -v "$cc" >/dev/null 2>&1 ||
  ! "$cc" -shared -fPIC -o "$tmp/failfile.so" "$src/test/serve/failfile.c" -ldl 2>"$tmp/cc.err"; then
  echo "$name: no C compiler for the preload shim (or a sanitizer build): skipped"
  exit 77
fi
for i in 1 2 3; do
  printf '(;GM[1]FF[4]GN[g%d]SZ[9];B[ee];W[cc])' $i >"$tmp/g$i.sgf"
done

# fdatasync fails once
SGF_FAIL_MODE=sync SGF_FAIL_PATH="$tmp/s.jsonl" LD_PRELOAD="$tmp/failfile.so" \
  start_serve --jsonl "$tmp/s.jsonl" --quarantine "$tmp/q1" --threads 1
"$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/g1.sgf" >"$tmp/sent1" 2>&1
"$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/g1.sgf" >"$tmp/sent2" 2>&1
stop_serve
grep -q '^failed 0 0 ' "$tmp/sent1" || bad "sync: the game whose fdatasync failed was not reported failed: $(cat "$tmp/sent1")"
grep -q '^stored 0 0 ' "$tmp/sent2" || bad "sync: the second try was not stored: $(cat "$tmp/sent2")"
n=$(wc -l <"$tmp/s.jsonl")
[ "$n" -eq 1 ] || bad "sync: $n lines in the sink for one game sent twice"
grep -q 'write failed: i/o error' "$tmp/log" || bad "sync: no log line for the failed fdatasync"

# --no-fsync: no fdatasync is asked, so the one that would fail is never
# made: the first try is stored and acknowledged
SGF_FAIL_MODE=sync SGF_FAIL_PATH="$tmp/n.jsonl" LD_PRELOAD="$tmp/failfile.so" \
  start_serve --jsonl "$tmp/n.jsonl" --quarantine "$tmp/q3" --threads 1 --no-fsync
"$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/g1.sgf" >"$tmp/sent3" 2>&1
stop_serve
grep -q '^stored 0 0 ' "$tmp/sent3" || bad "--no-fsync: the game was not stored at the first try: $(cat "$tmp/sent3")"
[ "$(wc -l <"$tmp/n.jsonl")" -eq 1 ] || bad "--no-fsync: not one line in the sink"

# a write cut short, and the cut back fails
SGF_FAIL_MODE=trunc SGF_FAIL_PATH="$tmp/s.sgf" LD_PRELOAD="$tmp/failfile.so" \
  start_serve --out "$tmp/s.sgf" --quarantine "$tmp/q2" --threads 1
"$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/g1.sgf" >"$tmp/sent1" 2>&1
"$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/g2.sgf" >"$tmp/sent2" 2>&1
kill -HUP "$SERVE_PID"
i=0
while [ $i -lt 100 ] && ! grep -q 'reopened: taking games again' "$tmp/log"; do
  sleep 0.05
  i=$((i + 1))
done
"$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/g3.sgf" >"$tmp/sent3" 2>&1
stop_serve
grep -q '^failed 0 0 ' "$tmp/sent1" || bad "trunc: the game cut short was not reported failed: $(cat "$tmp/sent1")"
grep -q '^failed 0 0 ' "$tmp/sent2" || bad "trunc: a game after the failed cut back was not reported failed: $(cat "$tmp/sent2")"
grep -q '^stored 0 0 ' "$tmp/sent3" || bad "trunc: the game after SIGHUP was not stored: $(cat "$tmp/sent3")"
grep -q 'cannot cut the failed write back to byte 0: .*no more games are taken' "$tmp/log" ||
  bad "trunc: no log line for the failed cut back"
[ "$(cat "$tmp/s.sgf")" = "$(cat "$tmp/g3.sgf")" ] || bad "trunc: the sink is not the one game stored: $(cat "$tmp/s.sgf")"
grep -q 'GN\[g1\]' "$tmp"/q2/tail-* 2>/dev/null || bad "trunc: the partial record is not in the quarantine"
[ $fail -eq 0 ] && echo "$name: a failed fdatasync or cut back keeps whole records, each acknowledged game once"
exit $fail
