#!/bin/sh
# dirsync.sh - a directory sink whose fsync of the directory fails
# (test/serve/failsync.c, preloaded: the first one fails with EIO) stores
# a game once: the game whose rename was not made durable is taken out
# again and reported "failed", so that the sender's second try is the one
# stored; the log says what happened. Skips (77) without serve, python3,
# a C compiler or LD_PRELOAD (a sanitizer build).
name=serve-dirsync
. "${top_srcdir:-.}/test/serve/lib.sh"

cc=${CC:-cc}
if [ "$SERVE_SANITIZED" = 1 ] || ! command -v "$cc" >/dev/null 2>&1 ||
  ! "$cc" -shared -fPIC -o "$tmp/failsync.so" "$src/test/serve/failsync.c" -ldl 2>"$tmp/cc.err"; then
  echo "$name: no C compiler for the preload shim (or a sanitizer build): skipped"
  exit 77
fi
game='(;GM[1]FF[4]SZ[9];B[ee];W[cc])'
LD_PRELOAD="$tmp/failsync.so" start_serve --dir "$tmp/d" --quarantine "$tmp/q"
for try in 1 2; do
  printf '%s' "$game" >"$tmp/g.sgf"
  "$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/g.sgf" >"$tmp/sent$try" 2>&1
done
stop_serve
# a store failed: the server's exit status says so
[ "$SERVE_STATUS" -eq 2 ] || bad "serve exited $SERVE_STATUS, not 2"
grep -q '^failed 0 0 ' "$tmp/sent1" || bad "the first try was not reported failed: $(cat "$tmp/sent1")"
grep -q '^stored 0 0 ' "$tmp/sent2" || bad "the second try was not stored: $(cat "$tmp/sent2")"
n=$(find "$tmp/d" -name '*.sgf' ! -name '.tmp*' | wc -l)
[ "$n" -eq 1 ] || bad "$n files in the directory for one game sent twice"
for f in "$tmp"/d/*.sgf; do
  [ "$(cat "$f")" = "$game" ] || bad "$f is not the game sent"
done
grep -q 'not stored' "$tmp/log" || bad "no log line for the failed store: $(cat "$tmp/log")"
[ $fail -eq 0 ] && echo "$name: the game whose directory fsync failed was taken out; stored once ($n file)"
exit $fail
