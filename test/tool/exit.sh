#!/bin/sh
# exit.sh - the exit statuses of sgf(1), EXIT STATUS, for every
# command (check, stats, events, fmt, fmt -i, mainline, split):
#   0 clean; 1 warnings (repairs) only; 2 errors, unreadable or truncated
#   input, write error, refusal, usage error; 3 a FILE that held no SGF
#   input (a directory without .sgf files, an archive without .sgf
#   members, an empty tar or zip archive, a compressed tar of nothing);
#   several at once: 2 > 3 > 1 > 0.
# "No input" names the FILE on standard error. A truncated game.sgf.gz is
# processed up to the break by every command (stats gives the row of what
# was read, marked incomplete, also with -j 2) and is an error (2).
# Skips (77) when the sgf tool is not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-exit: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-exit.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0
n=0
skipped=""

# bad LABEL MESSAGE: a failed check.
bad() {
  echo "FAIL: $1: $2"
  [ -s err.txt ] && sed 's/^/  stderr: /' err.txt | head -5
  fail=1
}

# run CMD ARGS...: sgf CMD ARGS... in $tmp (split writes into out/, fmt -i
# rewrites copies), standard output in out.txt, standard error in err.txt;
# $rc is the exit status. CMD "fmt-i" is fmt --in-place.
run() {
  cmd=$1
  shift
  rm -rf out
  mkdir out
  case $cmd in
    split) "$sgf" split -d out "$@" >out.txt 2>err.txt ;;
    fmt-i) "$sgf" fmt -i "$@" >out.txt 2>err.txt ;;
    *) "$sgf" "$cmd" "$@" >out.txt 2>err.txt ;;
  esac
  rc=$?
}

# expect WANT CMD ARGS...: sgf CMD ARGS... exits WANT.
expect() {
  want=$1
  shift
  n=$((n + 1))
  run "$@"
  [ "$rc" = "$want" ] || bad "sgf $*" "exit status $rc, expected $want"
}

# The inputs. fmt -i rewrites FILE, so it gets copies (in-*.sgf).
printf '(;FF[4]GM[1]SZ[9];B[ee];W[cc])\n' >clean.sgf
printf '(;FF[4]GM[1]SZ[9];B[ee];W[cc]\n' >repaired.sgf # unclosed tree
printf 'no game here\n' >error.sgf                     # no-game-tree
mkdir -p nosgf emptydir deep/a/b
echo "a readme, not a game" >nosgf/readme.txt
echo "x" >deep/a/b/notes.txt
tar -cf empty.tar -T /dev/null 2>/dev/null ||
  tar -cf empty.tar --files-from /dev/null
tar -cf notsgf.tar nosgf
tar -czf notsgf.tar.gz nosgf
tar -czf empty.tar.gz -T /dev/null 2>/dev/null ||
  tar -czf empty.tar.gz --files-from /dev/null
# an empty zip archive: its end-of-central-directory record alone
printf 'PK\005\006\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' \
  >empty.zip
if command -v zip >/dev/null 2>&1; then
  (cd nosgf && zip -q ../notsgf.zip readme.txt)
else
  skipped="$skipped zip"
fi
for f in clean repaired error; do cp $f.sgf in-$f.sgf; done

# 1. The table, for every command.
for cmd in check stats events fmt mainline split; do
  expect 0 $cmd clean.sgf
  expect 1 $cmd repaired.sgf
  expect 2 $cmd error.sgf
  expect 2 $cmd does-not-exist.sgf
  expect 2 $cmd --no-such-option clean.sgf
  expect 0 $cmd - <clean.sgf
  for none in nosgf/ emptydir deep empty.tar notsgf.tar notsgf.tar.gz \
              empty.tar.gz empty.zip; do
    expect 3 $cmd $none
  done
  [ -f notsgf.zip ] && expect 3 $cmd notsgf.zip
  expect 3 $cmd - <empty.zip
  # the message names the FILE
  run $cmd nosgf/
  grep -q '^sgf: nosgf/: no \.sgf file found$' err.txt ||
    bad "sgf $cmd nosgf/" "no 'sgf: nosgf/: no .sgf file found' message"
  run $cmd notsgf.tar.gz
  grep -q '^sgf: notsgf.tar.gz: no \.sgf file in this .*archive' err.txt ||
    bad "sgf $cmd notsgf.tar.gz" "no 'no .sgf file in this archive' message"
  # precedence: 2 > 3 > 1 > 0
  expect 1 $cmd clean.sgf repaired.sgf
  expect 3 $cmd clean.sgf nosgf
  expect 3 $cmd nosgf clean.sgf
  expect 3 $cmd repaired.sgf empty.tar
  expect 3 $cmd empty.zip repaired.sgf clean.sgf
  expect 2 $cmd error.sgf nosgf
  expect 2 $cmd nosgf error.sgf repaired.sgf
  expect 2 $cmd empty.tar does-not-exist.sgf
done
# fmt -i: the same, on copies
expect 0 fmt-i in-clean.sgf
expect 1 fmt-i in-repaired.sgf
expect 2 fmt-i in-error.sgf
expect 3 fmt-i nosgf/
expect 3 fmt-i in-clean.sgf emptydir
expect 2 fmt-i in-error.sgf emptydir
# a write error
if [ -w /dev/full ]; then
  for cmd in check stats events fmt mainline; do
    n=$((n + 1))
    # (repaired: check prints the warning on standard output)
    "$sgf" $cmd repaired.sgf >/dev/full 2>err.txt
    rc=$?
    [ $rc = 2 ] || bad "sgf $cmd repaired.sgf >/dev/full" "exit status $rc"
  done
else
  skipped="$skipped /dev/full"
fi
# fmt -o and mainline -o leave OUT as it was when a FILE held no input
for cmd in fmt mainline; do
  n=$((n + 1))
  echo "keep me" >keep.sgf
  "$sgf" $cmd -o keep.sgf clean.sgf nosgf 2>err.txt
  rc=$?
  if [ $rc != 3 ] || [ "$(cat keep.sgf)" != "keep me" ]; then
    bad "sgf $cmd -o keep.sgf clean.sgf nosgf" "exit status $rc, OUT: $(head -c 60 keep.sgf)"
  fi
done

# 2. A truncated .sgf.gz: 1500 games, cut at 60% of the compressed bytes.
awk 'BEGIN {
  for (i = 1; i <= 1500; i++) {
    printf "(;FF[4]GM[1]SZ[19]PB[black %d]PW[white %d]C[game %d]", i, i, i
    if (i == 2) printf "sz[19]"   # a warning early on, for check
    for (k = 0; k < i % 7 + 2; k++)
      printf ";B[%c%c];W[%c%c]", 97 + (i + k) % 19, 97 + (i * k) % 19,
             97 + (i * 3 + k) % 19, 97 + (k * 7) % 19
    print ")"
  }
}' >games.sgf
gzip -n -c games.sgf >games.sgf.gz
size=$(wc -c <games.sgf.gz)
head -c $((size * 6 / 10)) games.sgf.gz >cut.sgf.gz
all=$(grep -c '^(;' games.sgf)

# stats: the row of what was read, marked, in the total, and exit 2
n=$((n + 1))
run stats --no-time cut.sgf.gz
games=$(awk '$NF == "(incomplete)" && $(NF-1) == "cut.sgf.gz" {print $1}' out.txt)
total=$(awk '$NF == "total" {print $1}' out.txt)
if [ "$rc" != 2 ] || [ -z "$games" ] || [ "$games" -lt 1 ] ||
   [ "$games" -ge "$all" ] || [ "$total" != "$games" ]; then
  bad "sgf stats cut.sgf.gz" "exit $rc, row games '$games' (of $all), total '$total'"
  sed 's/^/  stdout: /' out.txt
fi
grep -q '^sgf: cut.sgf.gz: ' err.txt ||
  bad "sgf stats cut.sgf.gz" "the read error is not reported naming the file"
cp out.txt stats-1.out
cp err.txt stats-1.err
n=$((n + 1))
run stats --no-time -j 2 cut.sgf.gz
if [ "$rc" != 2 ] || ! cmp -s stats-1.out out.txt ||
   ! cmp -s stats-1.err err.txt; then
  bad "sgf stats -j 2 cut.sgf.gz" "exit $rc, or output not that of -j 1"
fi
# with other inputs around it, in threads: the same as -j 1
n=$((n + 1))
run stats --no-time clean.sgf cut.sgf.gz nosgf repaired.sgf
cp out.txt stats-1.out
cp err.txt stats-1.err
r1=$rc
run stats --no-time -j 2 clean.sgf cut.sgf.gz nosgf repaired.sgf
if [ "$r1" != 2 ] || [ "$rc" != 2 ] || ! cmp -s stats-1.out out.txt ||
   ! cmp -s stats-1.err err.txt ||
   ! grep -q 'cut.sgf.gz (incomplete)$' out.txt; then
  bad "sgf stats [-j 2] clean.sgf cut.sgf.gz nosgf repaired.sgf" \
    "exit $r1 / $rc, or -j 2 differs from -j 1"
fi
n=$((n + 1))
run stats --json --no-time cut.sgf.gz
if [ "$rc" != 2 ] ||
   ! grep -q '"name":"cut.sgf.gz",.*"incomplete":true,"error":"' out.txt ||
   ! grep -q '"total":{"files":1,"unreadable":0,"incomplete":1,"games":[1-9]' out.txt; then
  bad "sgf stats --json cut.sgf.gz" "exit $rc, or not marked incomplete"
  sed 's/^/  stdout: /' out.txt
fi

# the other commands process what was read, report the error, exit 2
expect 2 check cut.sgf.gz
grep -q '^cut.sgf.gz:2:.*warning' out.txt ||
  bad "sgf check cut.sgf.gz" "the warning in game 2 (before the cut) is missing"
grep -q '^sgf: cut.sgf.gz: ' err.txt ||
  bad "sgf check cut.sgf.gz" "the read error is not reported"
expect 2 events cut.sgf.gz
grep -q 'value-data "game 3"' out.txt ||
  bad "sgf events cut.sgf.gz" "no events of the games before the cut"
for cmd in fmt mainline; do
  expect 2 $cmd cut.sgf.gz
  grep -q 'C\[game 3\]' out.txt ||
    bad "sgf $cmd cut.sgf.gz" "the games before the cut are not written"
  grep -q '^sgf: cut.sgf.gz: ' err.txt ||
    bad "sgf $cmd cut.sgf.gz" "the read error is not reported"
done
expect 2 split cut.sgf.gz
[ -f out/cut.sgf-0003.sgf ] ||
  bad "sgf split cut.sgf.gz" "the games before the cut are not written"
cp cut.sgf.gz in-cut.sgf.gz
expect 2 fmt-i in-cut.sgf.gz
cmp -s cut.sgf.gz in-cut.sgf.gz ||
  bad "sgf fmt -i in-cut.sgf.gz" "a truncated file was rewritten"

[ -n "$skipped" ] && echo "tool-exit: not tried:$skipped"
if [ $fail = 0 ]; then
  echo "tool-exit: all $n checks passed"
  exit 0
fi
exit 1
