#!/bin/sh
# bench/make-corpus.sh - build the benchmark corpus.
#
#   bench/make-corpus.sh [--dir] [--smoke] [--commented] [--force]
#   bench/make-corpus.sh --synthetic [--force]
#
# Writes $BENCH_DATA/aeb.sgf (default bench/data/aeb.sgf next to this
# script): one multi-game collection of about 100 MB, every *.sgf record of
# aeb-pro-games.tar.xz in byte-wise sorted path order, each record followed
# by one newline. The archive is dev/aeb-pro-games.tar.xz in the shared
# corpus, ../shared/corpus from the project top directory, or $SGF_CORPUS
# (the corpus root as for test/corpus/sgf.sh; its dev/ directory or the archive
# itself are accepted too).
#
#   --dir     also keep the extracted records as $BENCH_DATA/aeb/ (about
#             72,000 files under their original sub-directories), for the
#             many-small-files benchmark.
#   --smoke   also write $BENCH_DATA/aeb-5mb.sgf, the first whole records of
#             aeb.sgf up to about 5 MB (SMOKE_BYTES overrides the size).
#   --commented  also write $BENCH_DATA/aeb-commented.sgf (about 40 MB):
#             aeb-5mb.sgf (made too) with a comment of 3 to 9 lines of
#             words after every fifth move (every third comment with CR LF
#             line ends), for the multi-line text path (text scanner).
#             Deterministic (an LCG); generated, not real commentary.
#   --force   rebuild even if the outputs look up to date.
#   --synthetic  only write $BENCH_DATA/synthetic.sgf (about 5 MB, or
#             SMOKE_BYTES, of generated games: moves, a few comments with
#             escapes, some variations) and $BENCH_DATA/synthetic/ (its
#             first 500 games as files). Needs no archive: the fallback of
#             `bench/run --smoke` where the shared corpus is missing.
#
# Idempotent: an output that exists and is newer than the archive is kept.
# Prints the path of aeb.sgf on stdout; progress goes to stderr.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
data=${BENCH_DATA:-$here/data}

want_dir=no
want_synthetic=no
want_smoke=no
want_commented=no
force=no
for arg in "$@"; do
  case $arg in
    --dir) want_dir=yes ;;
    --smoke) want_smoke=yes ;;
    --commented) want_commented=yes; want_smoke=yes ;;
    --force) force=yes ;;
    --synthetic) want_synthetic=yes ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "make-corpus.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done

# synthetic: deterministic generated games (an LCG, not rand(): awks
# differ), whole games up to SMOKE_BYTES.
if [ "$want_synthetic" = yes ]; then
  syn=$data/synthetic.sgf
  if [ "$force" = yes ] || [ ! -f "$syn" ] || [ ! -e "$data/synthetic/.complete" ]; then
    mkdir -p "$data"
    rm -rf "$data/synthetic"
    mkdir "$data/synthetic"
    awk -v limit="${SMOKE_BYTES:-5000000}" -v dir="$data/synthetic" -v nfiles=500 '
      function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return int(seed / 65536) % n }
      function coord() { return substr(L, rnd(19) + 1, 1) substr(L, rnd(19) + 1, 1) }
      BEGIN {
        L = "abcdefghijklmnopqrs"; seed = 42; total = 0; g = 0
        while (total < limit) {
          g++
          s = sprintf("(;GM[1]FF[4]SZ[19]KM[6.5]\nPB[Player %d]BR[%dp]\nPW[Player %d]WR[%dp]\nDT[20%02d-%02d-%02d]EV[Synthetic league \\[%d\\]]RE[%s]\n",
            rnd(500), rnd(9) + 1, rnd(500), rnd(9) + 1, rnd(25), rnd(12) + 1, rnd(28) + 1, g, (rnd(2) ? "B+R" : "W+2.5"))
          if (rnd(4) == 0) s = s "C[A short comment: time used 3:21, \"quoted\" text; an escaped \\] bracket.]\n"
          n = 120 + rnd(180); var = 0
          for (i = 0; i < n; i++) {
            s = s ";" (i % 2 ? "W" : "B") "[" coord() "]"
            if (i % 10 == 9) s = s "\n"
            if (i == 60 && rnd(3) == 0) { s = s "\n(;B[" coord() "];W[" coord() "])\n("; var = 1 }
          }
          s = s (var ? "))" : ")") "\n"
          printf "%s", s
          if (g <= nfiles) { f = dir "/" g ".sgf"; printf "%s", s > f; close(f) }
          total += length(s)
        }
      }' >"$syn.tmp"
    mv -f "$syn.tmp" "$syn"
    touch "$data/synthetic/.complete"
    echo "make-corpus.sh: wrote $syn ($(wc -c <"$syn") bytes) and $data/synthetic/" >&2
  fi
  echo "$syn"
  exit 0
fi

corpus=${SGF_CORPUS:-$top/../shared/corpus}
if [ -f "$corpus/dev/aeb-pro-games.tar.xz" ]; then
  archive=$corpus/dev/aeb-pro-games.tar.xz
elif [ -d "$corpus" ]; then
  archive=$corpus/aeb-pro-games.tar.xz
else
  archive=$corpus
fi
out=$data/aeb.sgf
dir=$data/aeb
smoke=$data/aeb-5mb.sgf

have_archive=yes
if [ ! -f "$archive" ]; then
  have_archive=no
  if [ "$force" = yes ] || [ ! -f "$out" ] ||
     { [ "$want_dir" = yes ] && [ ! -e "$dir/.complete" ]; }; then
    echo "make-corpus.sh: archive not found: $archive" >&2
    echo "  set SGF_CORPUS=/path/to/corpus (the directory holding dev/aeb-pro-games.tar.xz)" >&2
    exit 1
  fi
  echo "make-corpus.sh: note: archive not found ($archive); using the existing corpus as is" >&2
fi
mkdir -p "$data"

# newer A B: A was modified after B (test -nt is not POSIX).
newer() {
  [ -n "$(find "$1" -prune -newer "$2" 2>/dev/null)" ]
}

# fresh FILE: FILE exists and is newer than the archive (or the archive
# is not there to compare with).
fresh() {
  [ "$force" = no ] && [ -e "$1" ] &&
    { [ "$have_archive" = no ] || newer "$1" "$archive"; }
}

# concat LISTFILE OUT IDX: write every file named in LISTFILE
# (NUL-separated), each followed by one newline, byte for byte, to OUT, and
# the byte offset where each record starts to IDX (one a line). perl is part
# of every Debian base system; the shell loop is the slow fallback.
concat() {
  if command -v perl >/dev/null 2>&1; then
    perl -0 -e '
      open(my $idx, ">", $ARGV[0]) or die "$ARGV[0]: $!\n";
      binmode STDOUT;
      my $off = 0;
      while (my $f = <STDIN>) {
        chomp $f;
        open(my $fh, "<", $f) or die "$f: $!\n";
        binmode $fh;
        local $/;
        my $s = <$fh>;
        $s = "" unless defined $s;
        close $fh;
        print $idx "$off\n";
        print $s, "\n";
        $off += length($s) + 1;
      }
      close $idx or die "$ARGV[0]: $!\n";' "$3" <"$1" >"$2"
  else
    off=0
    tr '\0' '\n' <"$1" | while IFS= read -r f; do
      echo "$off" >&3
      cat "$f" && printf '\n'
      off=$((off + $(wc -c <"$f") + 1))
    done >"$2" 3>"$3"
  fi
}

tmp=
cleanup() { if [ -n "$tmp" ]; then rm -rf "$tmp"; fi; }
trap cleanup EXIT
trap 'exit 130' INT TERM

need_sgf=yes; fresh "$out" && need_sgf=no
need_dir=no; [ "$want_dir" = yes ] && ! fresh "$dir/.complete" && need_dir=yes

if [ "$need_sgf" = yes ] || [ "$need_dir" = yes ]; then
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-corpus.XXXXXX")
  echo "make-corpus.sh: extracting $archive" >&2
  mkdir "$tmp/x"
  # The records live under ./public/games/; keep the sub-directories below.
  tar -xJf "$archive" -C "$tmp/x" --strip-components=3 --wildcards '*.sgf'
  (cd "$tmp/x" && find . -type f -name '*.sgf' -print0 | LC_ALL=C sort -z) >"$tmp/list"
  nfiles=$(tr -cd '\0' <"$tmp/list" | wc -c)

  if [ "$need_sgf" = yes ]; then
    echo "make-corpus.sh: concatenating $nfiles records into $out" >&2
    (cd "$tmp/x" && concat "$tmp/list" "$tmp/aeb.sgf" "$tmp/aeb.idx")
    mv -f "$tmp/aeb.idx" "$out.idx"
    mv -f "$tmp/aeb.sgf" "$out"
    rm -f "$smoke"
  fi
  if [ "$need_dir" = yes ]; then
    echo "make-corpus.sh: keeping $nfiles records in $dir/" >&2
    rm -rf "$dir"
    mv "$tmp/x" "$dir"
    touch "$dir/.complete"
  fi
fi

if [ "$want_smoke" = yes ] && { ! fresh "$smoke" || newer "$out" "$smoke"; }; then
  limit=${SMOKE_BYTES:-5000000}
  # Whole records only: cut where the last record starting at or before the
  # limit begins (record offsets are in aeb.sgf.idx).
  cut=
  [ -f "$out.idx" ] && cut=$(awk -v l="$limit" '$1 <= l { c = $1 } END { print c }' "$out.idx")
  [ -n "$cut" ] && [ "$cut" -gt 0 ] || cut=$limit
  head -c "$cut" "$out" >"$smoke.tmp"
  mv -f "$smoke.tmp" "$smoke"
  echo "make-corpus.sh: wrote $smoke ($(wc -c <"$smoke") bytes)" >&2
fi

commented=$data/aeb-commented.sgf
if [ "$want_commented" = yes ] && { ! fresh "$commented" || newer "$smoke" "$commented"; }; then
  awk '
    function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return int(seed / 65536) % n }
    function comment(   k, i, j, n, s, nl) {
      nl = (moves % 15 == 0) ? "\r\n" : "\n"
      k = 3 + rnd(7); s = "C["
      for (i = 0; i < k; i++) {
        if (i) s = s nl
        n = 4 + rnd(7)
        for (j = 0; j < n; j++) s = s (j ? " " : "") W[1 + rnd(nw)]
      }
      return s "]"
    }
    BEGIN {
      nw = split("black white move shape territory influence thickness aji ko sente gote joseki tesuji probe reading the a of to is this that should", W, " ")
      seed = 7; moves = 0
    }
    {
      line = $0; out = ""
      while (match(line, /;[BW]\[[a-s][a-s]\]/)) {
        out = out substr(line, 1, RSTART + RLENGTH - 1)
        line = substr(line, RSTART + RLENGTH)
        if (++moves % 5 == 0) out = out comment()
      }
      print out line
    }' "$smoke" >"$commented.tmp"
  mv -f "$commented.tmp" "$commented"
  echo "make-corpus.sh: wrote $commented ($(wc -c <"$commented") bytes)" >&2
fi

echo "$out"
