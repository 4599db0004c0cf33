#!/bin/sh
# bench/python.sh - the Python binding beside the sgf tool, in one run on
# the same bytes, each a whole process (interpreter start and imports
# counted): sgfstream.games() with every game's main-line moves as an
# array, and sgfstream.headers(), against `sgf stats` and
# `sgf json --headers`; best of BENCH_PY_REPS (default 3) runs each,
# alternating. Then the peak RSS of games() over a generated stream
# (BENCH_PY_STREAM_MB, default 2048).
#   BUILD_DIR=_build bench/python.sh [FILE]     (default bench/data/aeb.sgf)
# Each interpreter the extension is built for (make check builds it for
# the python3 on PATH and for Debian's /usr/bin/python3) gets its rows.
# The interpreter is run by its real path: a version manager's `python3`
# shim (pyenv's is a bash script that takes about 0.1 s to start) is not
# the binding's cost. The package's .py files are byte-compiled first, as
# `pip install` leaves them: with PYTHONDONTWRITEBYTECODE set (as in some
# sandboxes) every run would otherwise compile them again (about 6 ms).
# The last line of each interpreter's rows gives the ratios with its bare
# start (`python -c pass`) taken off both sides: the interpreter's start
# is not the binding's, and a sandbox's site hooks can make it 30 ms.
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD_DIR:-$here/../_build}
build=$(cd "$build" && pwd) || exit 1
file=${1:-$here/data/aeb.sgf}
reps=${BENCH_PY_REPS:-3}
sgf="$build/sgf"
[ -x "$build/.libs/sgf" ] && sgf="$build/.libs/sgf" # not libtool's wrapper
export LD_LIBRARY_PATH="$build/lib/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
size=$(wc -c <"$file")
cat "$file" >/dev/null # read from the page cache by each

# the interpreters: python3 on PATH and /usr/bin/python3, by real path
exes=
for p in python3 /usr/bin/python3; do
  command -v "$p" >/dev/null 2>&1 || continue
  e=$(readlink -f "$("$p" -c 'import sys; print(sys.executable)')") || continue
  case " $exes " in *" $e "*) ;; *) exes="$exes $e" ;; esac
done
libfor() { # the extension make check built for interpreter $1, or make python's
  l="$build/python/$(echo "$1" | tr -c 'A-Za-z0-9\n' '_')/lib"
  [ -d "$l/sgfstream" ] || l="$build/python/lib"
  [ -d "$l/sgfstream" ] && PYTHONPATH="$l" "$1" -c 'import sgfstream._core' 2>/dev/null && echo "$l"
}

best() { # best wall seconds of $reps runs of a command
  py=${exe:-python3}
  "$py" - "$reps" "$@" <<'PY'
import subprocess, sys, time
reps, cmd = int(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(reps):
    t = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if r.returncode > 1:  # 1: the sgf tool found warnings in the input
        sys.exit("bench/python.sh: %s failed (exit %d)" % (" ".join(cmd), r.returncode))
    t = time.perf_counter() - t
    best = t if best is None else min(best, t)
print(best)
PY
}
mbs() { awk -v s="$size" -v t="$1" 'BEGIN { printf "%.0f", s / t / 1e6 }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f%%", 100 * a / b }'; }

found=0
for exe in $exes; do
  lib=$(libfor "$exe") || continue
  found=1
  "$exe" -m compileall -q "$lib/sgfstream" >/dev/null || exit 1
  ver=$("$exe" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
  t_start=$(best "$exe" -c pass)
  t_stats=$(best "$sgf" stats "$file")
  t_json=$(best "$sgf" json --headers "$file")
  t_games=$(best env PYTHONPATH="$lib" "$exe" -c 'import sys, sgfstream
n = 0
for g in sgfstream.games(sys.argv[1]): n += len(g.moves())' "$file")
  t_headers=$(best env PYTHONPATH="$lib" "$exe" -c 'import sys, sgfstream
for h in sgfstream.headers(sys.argv[1]): pass' "$file")
  echo "== $exe (Python $ver; starts in $(awk -v t="$t_start" 'BEGIN { printf "%.3f", t }') s), best of $reps, whole processes"
  printf '%-40s %8s MB/s\n' "sgf stats" "$(mbs "$t_stats")" \
    "sgf json --headers" "$(mbs "$t_json")" \
    "sgfstream.games + moves()" "$(mbs "$t_games")" \
    "sgfstream.headers" "$(mbs "$t_headers")"
  echo "games/stats $(pct "$t_stats" "$t_games"), headers/json --headers $(pct "$t_json" "$t_headers")"
  nostart() { awk -v a="$1" -v s="$t_start" 'BEGIN { print (a > s ? a - s : a) }'; }
  echo "start taken off: games/stats $(pct "$t_stats" "$(nostart "$t_games")"), headers/json --headers $(pct "$t_json" "$(nostart "$t_headers")")"
done
[ "$found" = 1 ] || { echo "bench/python.sh: the extension is not built for$exes in $build/python (make check or make python)"; exit 1; }

exe=$(echo $exes | cut -d' ' -f1)
lib=$(libfor "$exe") || exe=$(echo $exes | cut -d' ' -f2)
lib=$(libfor "$exe")
mb=${BENCH_PY_STREAM_MB:-2048}
PYTHONPATH="$lib:$here/../python/tests" "$exe" -c 'import resource, sys, test_stream, sgfstream
n = 0
for g in sgfstream.games(test_stream.Generated(int(sys.argv[1]) << 20)): n += 1
print("games over a %s MB stream: %d games, peak RSS %.1f MiB" % (sys.argv[1], n, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024))' "$mb"
