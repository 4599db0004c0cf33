#!/bin/sh
# diskfull.sh - --jsonl and --out on a full disk (a 1 MB tmpfs,
# where this test may mount one: it skips, 77, elsewhere): 4000 games
# (1.6 MB) down one connection; the writes fail part way. Each failed
# batch is cut back to where it began, so the file holds whole records
# only, every game acknowledged "stored" is in it once and none reported
# "failed" is; once space returns (a filler file removed) the next game
# is stored whole after them. Before, the half-written record stayed and
# the next game was appended to it. Skips (77) without serve or python3.
name=serve-diskfull
. "${top_srcdir:-.}/test/serve/lib.sh"

mkdir "$tmp/mnt" || exit 99
if ! mount -t tmpfs -o size=1m tmpfs "$tmp/mnt" 2>"$tmp/mount.err"; then
  echo "$name: cannot mount a tmpfs here ($(cat "$tmp/mount.err")): skipped"
  exit 77
fi
trap 'umount "$tmp/mnt" 2>/dev/null; cleanup' EXIT
check="$src/test/serve/ackcheck.py"
python3 "$check" games "$tmp/games.sgf" 4000 0 || exit 99
python3 "$check" games "$tmp/last.sgf" 1 9000 || exit 99

for kind in jsonl out; do
  rm -f "$tmp/mnt/sink" "$tmp/mnt/filler"
  head -c 200000 /dev/zero >"$tmp/mnt/filler" || exit 99
  start_serve "--$kind" "$tmp/mnt/sink" --quarantine "$tmp/q-$kind" --threads 1
  timeout 60 "$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/games.sgf" >"$tmp/sent" 2>&1
  st=$?
  grep -q '^failed ' "$tmp/sent" || bad "$kind: the disk did not fill: $(tail -1 "$tmp/sent")"
  [ $st -eq 2 ] || bad "$kind: send exited $st with games failed, not 2"
  # space again: the next game goes after the last whole record
  rm -f "$tmp/mnt/filler"
  timeout 60 "$sgf" send -v "127.0.0.1:$RAW_PORT" "$tmp/last.sgf" >"$tmp/sent-last" 2>&1 ||
    bad "$kind: the game after the space came back: $(cat "$tmp/sent-last")"
  stop_serve
  [ "$SERVE_STATUS" -eq 2 ] || bad "$kind: serve exited $SERVE_STATUS after failures, not 2"
  grep -q 'stopped: .* [1-9][0-9]* store failures' "$tmp/log" || bad "$kind: the stopped: line does not count the failures"
  grep -q "write failed: no space left on device" "$tmp/log" || bad "$kind: no log line for the failed write"
  python3 "$check" check "$kind" "$tmp/mnt/sink" "$tmp/games.sgf=$tmp/sent" \
    "$tmp/last.sgf=$tmp/sent-last" >"$tmp/check" || bad "$kind: $(cat "$tmp/check")"
  tail -n 1 "$tmp/mnt/sink" | grep -q 't009000x' || bad "$kind: the last game is not at the end of the sink"
  echo "$name: $kind: $(tail -1 "$tmp/check")"
done
[ $fail -eq 0 ] && echo "$name: a full disk leaves whole records, each acknowledged game once"
exit $fail
