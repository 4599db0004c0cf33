#!/usr/bin/env bash
# bench/peer.sh - sgfstream side by side with @sabaki/sgf on the same bytes,
# in the same run.
#
#   bench/peer.sh [MEGABYTES]     (default 20; PEER_MB=100 for the whole set)
#
# Installs @sabaki/sgf from the npm registry into bench/peer/node_modules
# (once), cuts the first MEGABYTES of bench/data/aeb.sgf at a record
# boundary, then times on those bytes: @sabaki/sgf's parse() (Node), and
# sgfstream's events (no-op handlers), property reader and game-by-game
# tree building (bench_events, bench_tree, 64 KiB chunks). Prints MB/s,
# games/s, peak memory and the ratio to @sabaki/sgf. Never fails on timing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$(pwd)}
data=${BENCH_DATA:-$here/data}
mb=${1:-${PEER_MB:-20}}
pkg=@sabaki/sgf@3.4.7

command -v node >/dev/null || { echo "peer: node not found (apt-get install nodejs npm); skipped"; exit 0; }
if [ ! -d "$here/peer/node_modules/@sabaki/sgf" ]; then
  echo "peer: installing $pkg into bench/peer/ ..."
  (cd "$here/peer" && npm install --no-audit --no-fund --silent --no-save "$pkg" >/dev/null 2>&1) ||
    { echo "peer: npm install $pkg failed; skipped"; exit 0; }
fi
[ -f "$data/aeb.sgf" ] || "$here/make-corpus.sh" >/dev/null || exit 1

input="$data/peer-${mb}mb.sgf"
if [ ! -f "$input" ] || [ "$input" -ot "$data/aeb.sgf" ]; then
  # whole records only: cut before the last "(;" that starts a line
  head -c "$((mb * 1000000))" "$data/aeb.sgf" |
    awk 'BEGIN{RS="\n\\(;"; ORS=""} NR>1{printf "%s", prev} {prev=(NR>1?"\n(;":"") $0} END{}' > "$input.tmp"
  mv "$input.tmp" "$input"
fi
bytes=$(wc -c < "$input")

run_c() { # label program args...
  "$@" 2>/dev/null
}
(cd "$BUILD_DIR" && make -s bench/bench_events bench/bench_tree >/dev/null 2>&1) || true
ev=$(run_c "$BUILD_DIR/bench/bench_events" -n 3 -o 'no-op 64KiB' "$input" | awk '$1=="events/no-op" && $2=="64KiB" {print $3}')
rd=$(run_c "$BUILD_DIR/bench/bench_events" -n 3 -o 'reader' "$input" | awk '$1=="reader/no-op" {print $3}')
tr=$(run_c "$BUILD_DIR/bench/bench_tree" -n 3 "$input" | awk '$1=="MB/s" {print $2; exit}')

peer=$( { /usr/bin/time -f 'maxrss %M' node "$here/peer/sabaki.js" "$input"; } 2>&1 )
read -r _ pbytes psec pgames pnodes prss <<<"$(printf '%s\n' "$peer" | grep '^sabaki ')"
pkb=$(printf '%s\n' "$peer" | awk '$1=="maxrss"{print $2}')
pmbs=$(awk -v b="$bytes" -v s="$psec" 'BEGIN{printf "%.2f", b/1e6/s}')

printf '\npeer comparison on %s (%d bytes, %s games, %s nodes per @sabaki/sgf)\n' "$(basename "$input")" "$bytes" "$pgames" "$pnodes"
printf '%-34s %10s %10s\n' "what" "MB/s" "x sabaki"
ratio() { awk -v a="$1" -v b="$pmbs" 'BEGIN{ if (a == "" || b+0 == 0) print "-"; else printf "%.0fx", a/b }'; }
printf '%-34s %10s %10s   peak RSS %s MiB\n' "@sabaki/sgf parse() (node $(node --version))" "$pmbs" "1x" "$(awk -v k="${pkb:-0}" 'BEGIN{printf "%.0f", k/1024}')"
printf '%-34s %10s %10s\n' "sgfstream events, no-op handlers" "${ev:--}" "$(ratio "$ev")"
printf '%-34s %10s %10s\n' "sgfstream property reader" "${rd:--}" "$(ratio "$rd")"
printf '%-34s %10s %10s\n' "sgfstream trees, game by game" "${tr:--}" "$(ratio "$tr")"
exit 0
