#!/bin/sh
# dask-shards.sh - `sgf split --shards N`, the merge (contrib/dask/
# sgf_merge.py) and the Dask recipe (contrib/dask/sgf_dask.py), end to end.
#
#   1. Shards are byte-exact: concatenated they are the input (a plain
#      file, the same gzipped, a tar archive of the sample records, whose
#      member order `tar tf` gives), and a directory's shards concatenated
#      are what one shard of it holds; they are balanced (each within one
#      game of its share of the bytes); together they hold every game.
#   2. The merge of `sgf stats -t --json` and `sgf stats --summary --json`
#      over the shards (run as GNU parallel would, with xargs -P) equals
#      one pass over the whole input, but for "files" (shards are inputs).
#   3. sgf_dask.py on a LocalCluster of 2 workers on 127.0.0.1, 4 shards:
#      stats, summary (equal to one pass, as above) and headers (equal to
#      `sgf json --headers` on the file, byte for byte, sources included).
# Skips (77) without the sgf tool, or when no python3 has the Dask
# module `distributed` (Debian: python3-distributed, which install-deps.sh
# installs); part 1 needs no Python beyond the comparisons.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
sample="$top_srcdir/test/data/sample"
dask="$top_srcdir/contrib/dask"

if [ ! -x "$sgf" ]; then
  echo "dask-shards: $sgf not built: skipped"
  exit 77
fi
py=
for p in python3 /usr/bin/python3; do
  if "$p" -c 'import distributed' >/dev/null 2>&1; then
    py=$p
    break
  fi
done
if [ -z "$py" ]; then
  echo "dask-shards: no python3 with the module distributed: skipped"
  exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() {
  echo "FAIL: $*"
  fails=$((fails + 1))
}
# 0. A python3 without Dask (here, often the one on PATH) gets a message
#    saying what to install and which interpreter has it, exit 2, never a
#    traceback.
for p in python3 /usr/bin/python3; do
  command -v "$p" >/dev/null 2>&1 || continue
  "$p" -c 'import distributed' >/dev/null 2>&1 && continue
  "$p" "$dask/sgf_dask.py" --local 2 stats "$sample" >/dev/null 2>"$tmp/nodask"
  rc=$?
  if [ $rc -ne 2 ] || grep -q Traceback "$tmp/nodask" ||
     ! grep -q 'python3-distributed' "$tmp/nodask"; then
    fail "sgf_dask.py under $p without Dask: status $rc, $(head -c 300 "$tmp/nodask")"
  else
    echo "dask-shards: $p without Dask: told what to install (exit 2)"
  fi
done

# same A B: two `sgf stats --json` outputs agree but for total.files
same() {
  "$py" - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d["total"].pop("files")
sys.exit(0 if a == b else 1)
PY
}

# A collection: the sample records (all but the UTF-16 one, whose bytes
# are not SGF text), and games of every size up to 40 kB.
find "$sample" -name '*.sgf' ! -name 'utf16*' | LC_ALL=C sort |
  while read -r f; do cat "$f"; echo; done >"$tmp/all.sgf"
i=0
while [ $i -lt 300 ]; do
  printf '(;GM[1]FF[4]SZ[19]PB[P%d]PW[Q%d]RE[B+%d.5]DT[%d-01-02]' \
    $((i % 17)) $((i % 5)) $((i % 7)) $((1990 + i % 30))
  n=$(((i * 37) % 200))
  while [ $n -gt 0 ]; do
    printf ';B[pd]C[move %d (;x) \\] ]' $n
    n=$((n - 1))
  done
  printf ')\n'
  i=$((i + 1))
done >>"$tmp/all.sgf"
gzip -c "$tmp/all.sgf" >"$tmp/all.sgf.gz"
(cd "$sample" && find . -name '*.sgf' ! -name 'utf16*' | LC_ALL=C sort |
  tar cf "$tmp/sample.tar" -T -)

# 1. byte-exact, balanced, complete
for input in all.sgf all.sgf.gz sample.tar; do
  rm -rf "$tmp/sh"
  "$sgf" split --shards=4 -d "$tmp/sh" --pattern='s%n.sgf' "$tmp/$input" \
    2>/dev/null
  [ "$(ls "$tmp/sh" | wc -l)" -eq 4 ] || fail "$input: not 4 shards"
  case $input in
    *.tar) (cd "$sample" && tar tf "$tmp/sample.tar" | while read -r m; do
      cat "$m"; done) >"$tmp/expect" ;;
    *.gz) gzip -dc "$tmp/$input" >"$tmp/expect" ;;
    *) cp "$tmp/$input" "$tmp/expect" ;;
  esac
  cat "$tmp/sh"/s000[1-4].sgf | cmp -s - "$tmp/expect" ||
    fail "$input: the shards are not the input, byte for byte"
done
rm -rf "$tmp/sh"
"$sgf" split --shards=4 -d "$tmp/sh" --pattern='s%n.sgf' "$tmp/all.sgf"
"$py" - "$tmp/sh" "$tmp/all.sgf" <<'PY' || fail "all.sgf: not balanced"
import os, sys
d, whole = sys.argv[1], sys.argv[2]
total = os.path.getsize(whole)
sizes = [os.path.getsize(os.path.join(d, "s%04d.sgf" % (i + 1)))
         for i in range(4)]
# the largest game (a sample record) is under 60 kB
ok = all(abs(s - total / 4) < 60000 for s in sizes) and min(sizes) > 0
print("shard sizes", sizes, "of", total)
sys.exit(0 if ok else 1)
PY
rm -rf "$tmp/d1" "$tmp/d4"
"$sgf" split --shards=1 -d "$tmp/d1" "$sample" 2>/dev/null
"$sgf" split --shards=4 -d "$tmp/d4" "$sample" 2>/dev/null
cat "$tmp/d4"/* | cmp -s - "$tmp/d1"/* ||
  fail "directory: 4 shards are not the 1 shard"
"$sgf" split --shards=2 -d "$tmp/x" - </dev/null 2>/dev/null
[ $? -eq 2 ] || fail "--shards with standard input: not refused"
# more shards than games: all written, the rest empty; a game left open
# at the end of an input is copied and closed, with a warning (more in
# test/tool/shards-open.sh)
printf '(;B[aa])' >"$tmp/one.sgf"
printf '(;B[aa]' >"$tmp/open.sgf"
"$sgf" split --shards=3 -d "$tmp/o" --pattern='%n.sgf' "$tmp/one.sgf"
[ "$(cat "$tmp"/o/000[1-3].sgf)" = "(;B[aa])" ] && [ -s "$tmp/o/0001.sgf" ] ||
  fail "3 shards of one game: not the game, then two empty files"
"$sgf" split --shards=2 -d "$tmp/o2" "$tmp/open.sgf" "$tmp/one.sgf" \
  2>"$tmp/open.err"
[ $? -eq 1 ] && grep -q "open.sgf: ends inside a game tree" "$tmp/open.err" ||
  fail "an input ending inside a game: no warning"
{ cat "$tmp/open.sgf"; printf ')'; cat "$tmp/one.sgf"; } >"$tmp/want"
cat "$tmp"/o2/* | cmp -s - "$tmp/want" ||
  fail "open game: bytes not kept, or not closed"

# 2. the merge, shards run as GNU parallel would
for job in "-t" "--summary"; do
  # shellcheck disable=SC2086
  "$sgf" stats $job --json --no-time "$tmp/all.sgf" >"$tmp/one.json"
  # shellcheck disable=SC2086
  ls "$tmp/sh"/s000*.sgf | xargs -P 2 -I{} sh -c \
    "'$sgf' stats $job --json --no-time {} >{}.json"
  "$py" "$dask/sgf_merge.py" stats "$tmp/sh"/s000[1-4].sgf.json \
    >"$tmp/merged.json"
  same "$tmp/one.json" "$tmp/merged.json" ||
    fail "sgf_merge.py stats $job: not one pass"
done

# 3. Dask
PATH=$(cd "$top_builddir" && pwd):$PATH
export PATH
for job in stats summary; do
  "$py" "$dask/sgf_dask.py" --local 2 --shards 4 "$job" "$tmp/all.sgf" \
    >"$tmp/dask.json" 2>"$tmp/dask.err"
  st=$?
  "$sgf" stats --json --no-time $([ $job = stats ] && echo -t ||
    echo --summary) "$tmp/all.sgf" >"$tmp/one.json" 2>/dev/null
  one=$?
  [ $st -eq $one ] || fail "dask $job: exit $st, one pass $one"
  same "$tmp/one.json" "$tmp/dask.json" || {
    fail "dask $job: not one pass"
    tail -5 "$tmp/dask.err"
  }
done
"$py" "$dask/sgf_dask.py" --local 2 --shards 4 headers "$tmp/all.sgf" \
  >"$tmp/dask.jsonl" 2>/dev/null
"$sgf" json --headers "$tmp/all.sgf" >"$tmp/one.jsonl" 2>/dev/null
cmp -s "$tmp/one.jsonl" "$tmp/dask.jsonl" ||
  fail "dask headers: not one pass, byte for byte"
[ -s "$tmp/one.jsonl" ] || fail "headers: empty"

if [ "$fails" -ne 0 ]; then
  echo "dask-shards: $fails failure(s)"
  exit 1
fi
echo "dask-shards: ok"
