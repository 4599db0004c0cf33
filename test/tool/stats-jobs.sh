#!/bin/sh
# stats-jobs.sh - `sgf stats -j N` prints exactly what `-j 1` prints.
#
# For each set of inputs, `sgf stats --no-time` (table, --json, --total,
# and --chunk=7) is run with -j 1, -j 2, -j 4 (and -j 3 for the mixed
# set); standard output, standard error and the exit status must be
# identical. The sets:
#   1. test/data/sample (a directory of real records, walked in sorted order);
#   2. a temporary directory of broken inputs (unterminated values, junk,
#      an empty file, a UTF-16 file, unbalanced parentheses, an archive
#      with SGF members and a truncated one, a symbolic link to a
#      directory named *.sgf) with, on the command line, a file that does
#      not exist, standard input in the middle, a directory named *.sgf,
#      and the same directory twice;
#   3. when the shared corpus is there (../shared/corpus beside the source
#      tree, or $SGF_CORPUS; see test/corpus/sgf.sh), its folder dev/sgfc-testfiles
#      (SGFC's test files: damaged on purpose) and its archive
#      dev/tsumego-10k.tar.xz (10,000 members), given twice; without the
#      corpus this part is skipped, the rest still runs.
#   4. one file alone, which -j N counts in N ranges cut between game
#      trees (tools/io/ranges.h; SGF_RANGES_MIN=1 lets small files be cut):
#      a collection of the sample records, the same with CR LF, one whose
#      comments are full of ")\n(;" (cuts inside values must be refused),
#      one that a fatal error stops early, junk and stray parentheses
#      between games. SGF_RANGES_DEBUG shows that both the cut and the
#      refused ways are taken.
# Also: the usage errors for bad values of -j.
# Skips (77) when the sgf tool is not built.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
sample="$top_srcdir/test/data/sample"
corpus=${SGF_CORPUS:-$top_srcdir/../shared/corpus}
T=${SGF_JOBS_TIMEOUT:-300}

if [ ! -x "$sgf" ]; then
  echo "tool-stats-jobs: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
to=
command -v timeout >/dev/null 2>&1 && to="timeout $T"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-jobs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0

# run J OUT OPTS... -- ARGS...: sgf stats -j J, stdin from $tmp/stdin.sgf.
run() {
  j=$1
  out=$2
  shift 2
  # shellcheck disable=SC2086
  $to "$sgf" stats --no-time -j "$j" "$@" <"$tmp/stdin.sgf" \
    >"$out.out" 2>"$out.err"
  echo "exit status $?" >>"$out.err"
}

# same LABEL "JOBS..." ARGS...: every -j in JOBS prints what -j 1 prints.
same() {
  label=$1
  jobs=$2
  shift 2
  for opts in "" "--json" "--total" "--chunk=7"; do
    # shellcheck disable=SC2086
    run 1 "$tmp/ref" $opts "$@"
    if grep -q "^exit status 1[2-9][0-9]" "$tmp/ref.err"; then
      echo "FAIL: $label: sgf stats -j 1 $opts crashed or timed out"
      tail -3 "$tmp/ref.err"
      fail=1
      continue
    fi
    for j in $jobs; do
      n=$((n + 1))
      # shellcheck disable=SC2086
      run "$j" "$tmp/got" $opts "$@"
      if ! cmp -s "$tmp/ref.out" "$tmp/got.out"; then
        echo "FAIL: $label: sgf stats -j $j $opts: standard output differs from -j 1"
        diff "$tmp/ref.out" "$tmp/got.out" | head -8
        fail=1
      fi
      if ! cmp -s "$tmp/ref.err" "$tmp/got.err"; then
        echo "FAIL: $label: sgf stats -j $j $opts: standard error or exit status differs from -j 1"
        diff "$tmp/ref.err" "$tmp/got.err" | head -8
        fail=1
      fi
    done
  done
}

# The game read from standard input.
printf '(;GM[1]FF[4]SZ[9];B[ee];W[ce](;B[dc])(;B[gc]))\n' >"$tmp/stdin.sgf"

# 1. The sample collection.
same "test/data/sample" "2 4" "$sample"
if ! grep -q '  total$' "$tmp/ref.out" && ! grep -q '"total"' "$tmp/ref.out"; then
  echo "FAIL: no total in the output for $sample"
  fail=1
fi

# 2. Broken inputs.
d="$tmp/broken"
mkdir -p "$d/a" "$d/b/c" "$d/empty-dir" "$d/b/dir.sgf/inner"
printf '(;FF[4]C[never closed' >"$d/unterminated.sgf"
printf '(;C[backslash at the end\\' >"$d/a/backslash.sgf"
printf 'junk before\n\001\002 and no game at all' >"$d/junk.sgf"
: >"$d/empty.sgf"
printf '\377\376(\000;\000' >"$d/b/utf16.sgf"
printf '(;B[aa]))))((((;W[bb]' >"$d/b/parens.sgf"
printf 'BZh but a text file' >"$d/b/bzh.sgf"
printf '(;GM[1];B[aa]' >"$d/b/c/UPPER.SGF"
printf '(;GM[1])' >"$d/b/c/not-sgf.txt"
printf '(;GM[1]C[in a directory named .sgf])' >"$d/b/dir.sgf/inner/x.sgf"
printf '(;GM[1]' >"$d/b/dir.sgf/y.sgf"
for f in "$sample"/sabaki-sgf/*.sgf; do
  cp "$f" "$d/a/" 2>/dev/null
done
if ln -s ../a "$d/b/link-to-dir.sgf" 2>/dev/null; then :; fi
if command -v tar >/dev/null 2>&1 &&
   tar -czf "$d/b/members.tar.gz" -C "$sample" tsumego 2>/dev/null; then
  cp "$d/b/members.tar.gz" "$d/b/archive.sgf" # an archive named .sgf
  head -c 2000 "$d/b/members.tar.gz" >"$d/b/truncated.sgf"
  archive="$d/b/members.tar.gz"
else
  archive=
fi
# shellcheck disable=SC2086
same "broken inputs" "2 3 4" "$d" "$tmp/does-not-exist.sgf" - "$d/junk.sgf" \
  $archive "$d/empty-dir" "$d/b/dir.sgf" "$d/unterminated.sgf" "$d"
if ! grep -q 'does-not-exist.sgf: No such file or directory' "$tmp/ref.err"; then
  echo "FAIL: sgf stats did not report the missing file"
  fail=1
fi
if ! grep -q '^exit status 2$' "$tmp/ref.err"; then
  echo "FAIL: sgf stats with a missing file: want exit status 2"
  cat "$tmp/ref.err"
  fail=1
fi

# 3. The shared corpus.
if [ -d "$corpus/dev/sgfc-testfiles" ]; then
  set -- "$corpus/dev/sgfc-testfiles"
  [ -f "$corpus/dev/tsumego-10k.tar.xz" ] &&
    set -- "$@" "$corpus/dev/tsumego-10k.tar.xz" "$corpus/dev/tsumego-10k.tar.xz"
  same "shared corpus" "2 4" "$@"
else
  echo "tool-stats-jobs: no corpus at $corpus: that part skipped"
fi

# 4. One file in ranges.
r=$tmp/ranges
mkdir -p "$r"
find "$sample" -name '*.sgf' | LC_ALL=C sort >"$r/names"
# the records as the writer writes them (every game closed: sgf fmt)
while IFS= read -r f; do
  "$sgf" fmt --compact "$f" 2>/dev/null
done <"$r/names" >"$r/coll.sgf"
sed 's/$/\r/' "$r/coll.sgf" >"$r/crlf.sgf"
# comments that look like game boundaries (no "]" in them) over the
# first ~40%
{
  printf '(;GM[1]C['
  i=0
  while [ $i -lt 8000 ]; do printf ')\n(;GM[x ) (;'; i=$((i + 1)); done
  printf '];B[bb])\n(;FF[4]C['
  i=0
  while [ $i -lt 4000 ]; do printf ')\r\n\t(;FF[4 SZ[19 '; i=$((i + 1)); done
  printf '])junk ) )(;W[cc])\n)))\n'
  cat "$r/coll.sgf"
  printf '(;B[dd]'
} >"$r/tricky.sgf"
{
  cat "$r/coll.sgf"
  i=0
  while [ $i -lt 10002 ]; do printf '('; i=$((i + 1)); done
  printf ';B[aa]\n'
  cat "$r/coll.sgf"
} >"$r/fatal.sgf"
SGF_RANGES_MIN=1
export SGF_RANGES_MIN
for f in coll crlf tricky fatal; do
  same "one file in ranges ($f.sgf)" "2 3 5 8" "$r/$f.sgf"
done
# both ways taken: cut, and refused (read whole)
n=$((n + 1))
SGF_RANGES_DEBUG=1 "$sgf" stats -j 4 "$r/coll.sgf" >/dev/null 2>"$r/dbg1"
SGF_RANGES_DEBUG=1 "$sgf" stats -j 8 "$r/tricky.sgf" >/dev/null 2>"$r/dbg2"
SGF_RANGES_DEBUG=1 "$sgf" stats -j 2 "$r/fatal.sgf" >/dev/null 2>"$r/dbg3"
if ! grep -q 'ranges: .*coll.sgf: 4 ranges' "$r/dbg1" ||
   ! grep -q 'ranges: .*tricky.sgf: range .* not between game trees' "$r/dbg2" ||
   ! grep -q 'ranges: .*fatal.sgf: range 0 .* not between game trees' "$r/dbg3"; then
  echo "FAIL: ranges: not both ways were taken:"
  cat "$r/dbg1" "$r/dbg2" "$r/dbg3"
  fail=1
fi
unset SGF_RANGES_MIN

# 5. Bad values of -j: a usage error, nothing on standard output.
# bad MESSAGE ARGS...: sgf stats ARGS exits 2 printing MESSAGE.
bad() {
  msg=$1
  shift
  "$sgf" stats "$@" </dev/null >"$tmp/bad.out" 2>"$tmp/bad.err"
  rc=$?
  n=$((n + 1))
  if [ $rc -ne 2 ] || [ -s "$tmp/bad.out" ] ||
     ! grep -qF "$msg" "$tmp/bad.err" ||
     ! grep -qF "Try 'sgf stats --help'." "$tmp/bad.err"; then
    echo "FAIL: sgf stats $*: want exit status 2 and \"$msg\" (got $rc)"
    cat "$tmp/bad.err"
    fail=1
  fi
}
for v in 0 abc -1 257 1000000000000000000000 2x ' 2' ''; do
  want="sgf: invalid number of jobs '$v' (a number from 1 to 256)"
  bad "$want" -j "$v"
  bad "$want" "--jobs=$v"
done
bad "sgf: invalid number of jobs '0' (a number from 1 to 256)" -j0
bad "sgf: option '-j' needs a value" -j
bad "sgf: option '--jobs' needs a value" --jobs

if [ $fail -eq 0 ]; then
  echo "tool-stats-jobs: $n comparisons and checks passed"
fi
exit $fail
