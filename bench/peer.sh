#!/usr/bin/env bash
# bench/peer.sh - sgfstream side by side with @sabaki/sgf on the same bytes,
# in the same run.
#
#   bench/peer.sh [--smoke] [-n REPS] [--mb MB] [--files N]
#                 [--collection FILE] [--dir DIR] [--results-dir D]
#
# Installs @sabaki/sgf from the npm registry into bench/peer/node_modules
# (once; never with --smoke), then compares on two inputs:
#
#   collection  the first MB megabytes (default 20, or PEER_MB) of FILE
#               (default bench/data/aeb.sgf), cut at a record boundary: one
#               input;
#   directory   the .sgf files of DIR (default bench/data/aeb), in sorted
#               order, each parsed as a separate input: all of them by
#               default, or with --files N (PEER_FILES) a sample of about N
#               (every k-th file of the sorted list).
#
# On each, in the same run: @sabaki/sgf's parse() under Node
# (bench/peer/sabaki.js; peak RSS from /usr/bin/time), and sgfstream's
# memchr ceiling, events (no-op handlers, NULL callbacks), property reader,
# game-by-game tree building and parse + write (bench_events, bench_tree,
# bench_write, 64 KiB chunks, best of REPS, default 3). Prints MB/s, games/s
# (files/s), peak memory and the ratio of each sgfstream row to @sabaki/sgf.
#
# --smoke: for CI. Runs only if node is there and @sabaki/sgf is already
# installed (no network), on MB=2 and the given DIR; one repetition.
# --results-dir D: append the measurements to D/peer-coll.tsv and
# D/peer-dir.tsv (bench/run's summary; format in bench/util.h).
#
# Exit status: 0 (also when node or the package is missing: a line says
# the peer was skipped), 1 if an input cannot be found or made. Never fails
# on timing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
BUILD_DIR=${BUILD_DIR:-$(pwd)}
data=${BENCH_DATA:-$here/data}
pkg=@sabaki/sgf@3.4.7

smoke=no
reps=3
mb=${PEER_MB:-20}
nfiles=${PEER_FILES:-0}
coll=
dir=
resdir=
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) smoke=yes; reps=1; mb=${PEER_MB:-2} ;;
    -n) shift; reps=${1:?-n wants a number} ;;
    --mb) shift; mb=${1:?--mb wants a number} ;;
    --files) shift; nfiles=${1:?--files wants a number} ;;
    --collection) shift; coll=${1:?--collection wants a file} ;;
    --dir) shift; dir=${1:?--dir wants a directory} ;;
    --results-dir) shift; resdir=${1:?--results-dir wants a directory} ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    [0-9]*) mb=$1 ;;  # the old form: bench/peer.sh MB
    *) echo "peer.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

if ! command -v node >/dev/null 2>&1; then
  echo "peer: SKIPPED: node not found (apt-get install nodejs npm to compare with @sabaki/sgf)"
  exit 0
fi
if [ ! -d "$here/peer/node_modules/@sabaki/sgf" ]; then
  if [ $smoke = yes ]; then
    echo "peer: SKIPPED: @sabaki/sgf is not installed in bench/peer/ (--smoke installs nothing; bench/run or bench/peer.sh installs it from npm)"
    exit 0
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "peer: SKIPPED: npm not found (apt-get install npm to install @sabaki/sgf)"
    exit 0
  fi
  echo "peer: installing $pkg from the npm registry into bench/peer/ ..."
  (cd "$here/peer" && npm install --no-audit --no-fund --silent --no-save "$pkg" >/dev/null 2>&1) ||
    { echo "peer: SKIPPED: npm install $pkg failed"; exit 0; }
fi

if [ -z "$coll" ]; then
  [ -f "$data/aeb.sgf" ] || "$here/make-corpus.sh" >/dev/null || exit 1
  coll=$data/aeb.sgf
fi
if [ -z "$dir" ]; then
  [ -e "$data/aeb/.complete" ] || "$here/make-corpus.sh" --dir >/dev/null || exit 1
  dir=$data/aeb
fi
[ -f "$coll" ] || { echo "peer.sh: no collection $coll" >&2; exit 1; }
[ -d "$dir" ] || { echo "peer.sh: no directory $dir" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-peer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The collection input: whole records only, cut before the last "(;" that
# starts a line within the first MB megabytes; the whole file if smaller.
cut_bytes=$(awk -v m="$mb" 'BEGIN { printf "%.0f", m * 1e6 }')
if [ "$(wc -c <"$coll")" -le "$cut_bytes" ]; then
  cinput=$coll
else
  cinput="$data/peer-$(basename "$coll" .sgf)-${mb}mb.sgf"
  if [ ! -f "$cinput" ] || [ "$cinput" -ot "$coll" ]; then
    head -c "$cut_bytes" "$coll" |
      awk 'BEGIN{RS="\n\\(;"; ORS=""} NR>1{printf "%s", prev} {prev=(NR>1?"\n(;":"") $0} END{}' > "$cinput.tmp"
    mv "$cinput.tmp" "$cinput"
  fi
fi

# The directory input: the sorted list, or every k-th file of it.
list=$tmp/files
(cd "$dir" && find "$(pwd)" -type f -iname '*.sgf' -print | LC_ALL=C sort) >"$tmp/all"
total_files=$(wc -l <"$tmp/all")
if [ "$nfiles" -gt 0 ] && [ "$nfiles" -lt "$total_files" ]; then
  step=$(( (total_files + nfiles - 1) / nfiles ))
  awk -v k="$step" '(NR - 1) % k == 0' "$tmp/all" >"$list"
  dir_what="a sample of $(wc -l <"$list") files, one in $step of $total_files"
else
  cp "$tmp/all" "$list"
  dir_what="all $total_files files"
fi
dir_files=$(wc -l <"$list")
[ "$dir_files" -gt 0 ] || { echo "peer.sh: no .sgf file in $dir" >&2; exit 1; }

(cd "$BUILD_DIR" && make -s bench/bench_events bench/bench_tree bench/bench_write >/dev/null 2>&1) || true

# ours RESULTS INPUT...: sgfstream's programs on INPUT, results appended.
ours() {
  local res=$1; shift
  "$BUILD_DIR/bench/bench_events" -n "$reps" -o 64KiB --results "$res" "$@" >"$tmp/out" 2>&1 ||
    { echo "  (bench_events: exit status $?)"; tail -n 3 "$tmp/out" | sed 's/^/    /'; }
  "$BUILD_DIR/bench/bench_tree" -n "$reps" --results "$res" "$@" >"$tmp/out" 2>&1 ||
    { echo "  (bench_tree: exit status $?)"; tail -n 3 "$tmp/out" | sed 's/^/    /'; }
  "$BUILD_DIR/bench/bench_write" -n "$reps" --results "$res" "$@" >"$tmp/out" 2>&1 ||
    { echo "  (bench_write: exit status $?)"; tail -n 3 "$tmp/out" | sed 's/^/    /'; }
}

# sabaki RESULTS ARGS...: @sabaki/sgf on ARGS, one result line appended.
sabaki() {
  local res=$1; shift
  local line kb peak
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f 'maxrss %M' -o "$tmp/time" node "$here/peer/sabaki.js" "$@" >"$tmp/sabaki" 2>"$tmp/sabaki.err"
  else
    node "$here/peer/sabaki.js" "$@" >"$tmp/sabaki" 2>"$tmp/sabaki.err"
    : >"$tmp/time"
  fi
  line=$(grep '^sabaki ' "$tmp/sabaki")
  if [ -z "$line" ]; then
    echo "  @sabaki/sgf failed:"; tail -n 5 "$tmp/sabaki.err" | sed 's/^/    /'
    return 1
  fi
  kb=$(awk '$1 == "maxrss" { print $2 }' "$tmp/time")
  # ru_maxrss when /usr/bin/time is there, else the samples of sabaki.js
  read -r _ pbytes psec pgames _ peak pfiles <<<"$line"
  [ -n "$kb" ] && peak=$((kb * 1024))
  printf '@sabaki/sgf\t%s\t%s\t%s\t%s\t%s\trss\n' "$pbytes" "$psec" "$pgames" "$pfiles" "$peak" >>"$res"
}

# report TITLE RESULTS: the side-by-side table of one input.
report() {
  awk -F '\t' -v title="$1" -v node="$(node --version)" '
    function mem(b, k) {
      if (k == "-" || b == 0) return "-"
      s = (b < 1048576) ? sprintf("%.1f KiB", b / 1024) : sprintf("%.1f MiB", b / 1048576)
      return s (k == "rss" ? " RSS" : "")
    }
    { name[NR] = $1; mbps[$1] = $2 / 1e6 / $3; gps[$1] = $4 / $3; fps[$1] = $5 / $3
      files = $5; bytes = $2; games[$1] = $4; m[$1] = mem($6, $7); n = NR }
    END {
      s = mbps["@sabaki/sgf"]
      printf "\n%s (%d bytes, %d games, %d file%s)\n", title, bytes, games["@sabaki/sgf"], files, files == 1 ? "" : "s"
      printf "  %-36s %9s %10s %10s %9s  %s\n", "what", "MB/s", "games/s", "files/s", "x sabaki", "peak memory"
      for (i = 1; i <= n; i++) {
        k = name[i]
        label = k
        if (k == "@sabaki/sgf") label = "@sabaki/sgf parse() (node " node ")"
        else if (k == "memchr") label = "memchr newline count (ceiling)"
        else label = "sgfstream " k
        r = (s > 0) ? sprintf("%.0fx", mbps[k] / s) : "-"
        g = (games[k] > 0) ? sprintf("%.0f", gps[k]) : "-"
        f = (files > 1) ? sprintf("%.0f", fps[k]) : "-"
        printf "  %-36s %9.1f %10s %10s %9s  %s\n", label, mbps[k], g, f, r, m[k]
      }
    }' "$2"
}

resc=${resdir:+$resdir/peer-coll.tsv}
resd=${resdir:+$resdir/peer-dir.tsv}
resc=${resc:-$tmp/peer-coll.tsv}
resd=${resd:-$tmp/peer-dir.tsv}
: >"$resc"; : >"$resd"

echo "peer: @sabaki/sgf $(node -e 'console.log(require(process.argv[1] + "/package.json").version)' "$here/peer/node_modules/@sabaki/sgf" 2>/dev/null) under node $(node --version); sgfstream best of $reps"
echo "peer: collection $cinput ($(wc -c <"$cinput") bytes)"
echo "peer: directory $dir: $dir_what"
t0=$(date +%s)
sabaki "$resc" "$cinput" && ours "$resc" "$cinput"
t1=$(date +%s)
sabaki "$resd" --list "$list" && ours "$resd" --list "$list"
t2=$(date +%s)
echo "peer: $((t1 - t0)) s for the collection, $((t2 - t1)) s for the directory"

[ -s "$resc" ] && report "peer comparison on $(basename "$cinput")" "$resc"
[ -s "$resd" ] && report "peer comparison on $(basename "$dir")/, $dir_what, each file a separate input" "$resd"
printf '\n  memory: sgfstream rows are the library'"'"'s own allocations (allocator hooks; the input\n  buffers not included); @sabaki/sgf is the peak RSS of the node process (input included)\n'
if [ -n "$resdir" ]; then
  # for bench/run's summary
  printf 'coll_mb\t%s\ndir_what\t%s\ndir_files\t%s\n' "$mb" "$dir_what" "$dir_files" >"$resdir/peer-info"
fi
exit 0
