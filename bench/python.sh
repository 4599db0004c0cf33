#!/bin/sh
# bench/python.sh - the Python binding beside the sgf tool, in one run on
# the same bytes: sgfstream.games() with every game's main-line moves as
# an array, and sgfstream.headers(), against `sgf stats` and
# `sgf json --headers`; then the peak RSS of games() over a generated
# stream (BENCH_PY_STREAM_MB, default 2048).
#   BUILD_DIR=_build bench/python.sh [FILE]     (default bench/data/aeb.sgf)
# Needs the extension built for python3: make check, or `make python`.
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD_DIR:-$here/../_build}
build=$(cd "$build" && pwd) || exit 1
file=${1:-$here/data/aeb.sgf}
# the extension python/run-tests.sh built for this python3, or make python's
exe=$(readlink -f "$(python3 -c 'import sys; print(sys.executable)')")
lib="$build/python/$(echo "$exe" | tr -c 'A-Za-z0-9\n' '_')/lib"
[ -d "$lib" ] || lib="$build/python/lib"
[ -d "$lib/sgfstream" ] || { echo "bench/python.sh: no extension for $exe in $build/python (make check or make python)"; exit 1; }
size=$(wc -c <"$file")
secs() { # the wall seconds of a command
  python3 -c 'import subprocess,sys,time
t=time.perf_counter(); subprocess.run(sys.argv[1:],stdout=subprocess.DEVNULL,stderr=subprocess.DEVNULL); print(time.perf_counter()-t)' "$@"
}
mbs() { python3 -c "print('%.0f' % ($size / $1 / 1e6))"; }
cat "$file" >/dev/null # read from the page cache by each
t_stats=$(secs "$build/sgf" stats "$file")
t_json=$(secs "$build/sgf" json --headers "$file")
t_games=$(secs env PYTHONPATH="$lib" python3 -c 'import sys, sgfstream
n = 0
for g in sgfstream.games(sys.argv[1]): n += len(g.moves())' "$file")
t_headers=$(secs env PYTHONPATH="$lib" python3 -c 'import sys, sgfstream
for h in sgfstream.headers(sys.argv[1]): pass' "$file")
printf '%-40s %8s MB/s\n' "sgf stats" "$(mbs "$t_stats")" \
  "sgf json --headers" "$(mbs "$t_json")" \
  "sgfstream.games + moves()" "$(mbs "$t_games")" \
  "sgfstream.headers" "$(mbs "$t_headers")"
python3 -c "print('games/stats %.0f%%, headers/json --headers %.0f%%' % (100 * $t_stats / $t_games, 100 * $t_json / $t_headers))"
mb=${BENCH_PY_STREAM_MB:-2048}
PYTHONPATH="$lib:$here/../python/tests" python3 -c 'import resource, sys, test_stream, sgfstream
n = 0
for g in sgfstream.games(test_stream.Generated(int(sys.argv[1]) << 20)): n += 1
print("games over a %s MB stream: %d games, peak RSS %.1f MiB" % (sys.argv[1], n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))' "$mb"
