#!/bin/sh
# sgf.sh - run the sgf tool over the shared SGF corpus.
#
#   1. `sgf check` on every corpus file (edge/, the dev/ folders) and on the
#      three dev/*.tar.xz archives: no crash, no hang (each run under
#      timeout), exit status 0 to 3. edge/ also in --strict mode and
#      with --chunk=1, whose output must equal the whole-buffer output.
#   2. `sgf stats --json --no-time` fed whole, in 1-byte chunks and in
#      7-byte chunks must print byte-identical results, over every file and
#      every archive (the tool is fast: the whole run takes ~30 s).
#      SGF_CORPUS_SMALL_CHUNKS / SGF_CORPUS_ARCHIVE_CHUNKS override the
#      chunk sizes ("1 7").
#
# make check samples the corpus: of edge/ and dev/ every 8th file in sorted
# order (edge/'s strict and chunked runs take every file of edge/), and
# the smallest archive only. make check-full (SGF_TEST_FULL=1) takes all
# of it; SGF_CORPUS_EVERY=N overrides the sample (1: every file).
#
# The corpus is ../shared/corpus beside the source tree, or $SGF_CORPUS.
# Skips (exit 77) when it or the sgf tool is missing.
top_srcdir=${top_srcdir:-${srcdir:-.}}
top_builddir=${top_builddir:-.}
corpus=${SGF_CORPUS:-$top_srcdir/../shared/corpus}
sgf="$top_builddir/sgf"
T=${SGF_CORPUS_TIMEOUT:-120}

if [ ! -d "$corpus/edge" ] || [ ! -d "$corpus/dev" ]; then
  echo "corpus: no corpus at $corpus (set SGF_CORPUS): skipped"
  exit 77
fi
if [ ! -x "$sgf" ]; then
  echo "corpus: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
if ! command -v timeout >/dev/null 2>&1; then
  echo "corpus: no timeout(1): skipped"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-corpus.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
start=$(date +%s)

# run_ok LABEL CMD...: run under timeout; exit status must be 0..3 (the
# statuses of sgf(1), EXIT STATUS).
run_ok() {
  label=$1
  shift
  timeout "$T" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  if [ $rc -gt 3 ]; then
    case $rc in
      124) why="timed out after ${T}s" ;;
      12[5-7]) why="could not run" ;;
      *) if [ $rc -gt 128 ]; then why="killed by signal $((rc - 128))";
         else why="exit status $rc"; fi ;;
    esac
    echo "FAIL: $label: $why"
    tail -5 "$tmp/err"
    fail=1
    return 1
  fi
  return 0
}

# The plain files: edge/ and every folder under dev/.
if [ "${SGF_TEST_FULL:-0}" != 0 ]; then every=${SGF_CORPUS_EVERY:-1}
else every=${SGF_CORPUS_EVERY:-8}; fi
find "$corpus/edge" "$corpus/dev" -type f ! -name '*.md' ! -name '*.tar.xz' \
  | LC_ALL=C sort | awk -v n="$every" 'n <= 1 || NR % n == 1' >"$tmp/files"
nfiles=$(wc -l <"$tmp/files")
if [ "$every" -le 1 ]; then
  find "$corpus/dev" -maxdepth 1 -type f -name '*.tar.xz' | LC_ALL=C sort
else # the smallest
  ls -S "$corpus"/dev/*.tar.xz 2>/dev/null | tail -n 1
fi >"$tmp/archives"
echo "corpus: $nfiles files (one in $every), $(wc -l <"$tmp/archives") archives"

# 1. check, one file per run (a crash names its file).
n=0
while IFS= read -r f; do
  run_ok "sgf check $f" "$sgf" check -q "$f" || continue
  n=$((n + 1))
done <"$tmp/files"
echo "corpus: sgf check: $n of $nfiles files ran cleanly"

# edge/: strict mode too, and chunked output equals whole output.
for f in "$corpus"/edge/*; do
  case $f in *.md) continue ;; esac
  run_ok "sgf check --strict $f" "$sgf" check --strict "$f"
  run_ok "sgf check $f" "$sgf" check "$f" || continue
  cp "$tmp/out" "$tmp/whole"
  for c in 1 7; do
    run_ok "sgf check --chunk=$c $f" "$sgf" check --chunk=$c "$f" || continue
    if ! cmp -s "$tmp/whole" "$tmp/out"; then
      echo "FAIL: sgf check --chunk=$c $f: diagnostics differ from whole"
      diff "$tmp/whole" "$tmp/out" | head -10
      fail=1
    fi
  done
done

# The archives (read directly by the tool).
while IFS= read -r a; do
  run_ok "sgf check $a" "$sgf" check -q "$a" &&
    echo "corpus: sgf check $(basename "$a"): ok ($(tail -1 "$tmp/err"))"
done <"$tmp/archives"

# 2. stats: whole vs chunked, byte for byte.
# stats_cmp LABEL CHUNKS FILE...
stats_cmp() {
  slabel=$1
  schunks=$2
  shift 2
  run_ok "sgf stats $slabel" "$sgf" stats --json --no-time "$@" || return
  mv "$tmp/out" "$tmp/stats-whole"
  for c in $schunks; do
    run_ok "sgf stats --chunk=$c $slabel" "$sgf" stats --json --no-time \
      --chunk="$c" "$@" || continue
    if ! cmp -s "$tmp/stats-whole" "$tmp/out"; then
      echo "FAIL: sgf stats --chunk=$c $slabel differs from whole"
      diff "$tmp/stats-whole" "$tmp/out" | head -10
      fail=1
    fi
  done
}

# edge/ and the small folders: all their files in one run.
set --
while IFS= read -r f; do
  set -- "$@" "$f"
done <"$tmp/files"
stats_cmp "(edge/ and dev/ folders, $# files)" "${SGF_CORPUS_SMALL_CHUNKS:-1 7}" "$@"
# The archives: 1- and 7-byte chunks (override: SGF_CORPUS_ARCHIVE_CHUNKS).
while IFS= read -r a; do
  stats_cmp "$(basename "$a")" "${SGF_CORPUS_ARCHIVE_CHUNKS:-1 7}" "$a"
done <"$tmp/archives"

echo "corpus: done in $(( $(date +%s) - start ))s"
exit $fail
