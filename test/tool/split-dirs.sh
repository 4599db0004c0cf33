#!/bin/sh
# split-dirs.sh - `sgf split` creates the directories its pattern
# names (mkdir -p, below -d DIR) and those of -d DIR, and reports one it
# cannot create. Skips (77) when the sgf tool is not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-split-dirs: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf" # the tests run in a temporary dir
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-splitdirs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0
cd "$tmp" || exit 99

bad() {
  echo "FAIL: $*"
  fail=1
}
# status WANT WHAT: the last command's status was WANT.
status() {
  n=$((n + 1))
  [ "$st" = "$1" ] || { bad "$2: status $st, expected $1"; cat err; }
}

printf '(;GM[1];B[aa])\n(;GM[1];W[bb])\n(;GM[1];B[cc])\n' >x.sgf
printf '(;GM[1]\n ;B[aa])\n' >want1
printf '(;GM[1]\n ;W[bb])\n' >want2
printf '(;GM[1]\n ;B[cc])\n' >want3

# expect DIR...: DIR/0001... hold the games in order; nothing else.
"$sgf" split --pattern='%n/%f.sgf' -d out x.sgf 2>err
st=$?
status 0 "split --pattern=%n/%f.sgf -d out"
for k in 1 2 3; do
  cmp -s want$k out/000$k/x.sgf || bad "%n/%f.sgf: out/000$k/x.sgf"
done
[ "$(find out -type f | wc -l)" -eq 3 ] || bad "%n/%f.sgf: not 3 files"

# Several levels, in a -d DIR whose parents are missing too.
"$sgf" split --pattern='%f/a/b//%n.sgf' -d new/deep/dir x.sgf 2>err
st=$?
status 0 "split into new directories several levels deep"
for k in 1 2 3; do
  cmp -s want$k new/deep/dir/x/a/b/000$k.sgf ||
    bad "several levels: new/deep/dir/x/a/b/000$k.sgf"
done

# Without -d, relative to the current directory; existing ones reused.
mkdir -p g/x
"$sgf" split --pattern='g/%f/%n.sgf' x.sgf 2>err
st=$?
status 0 "split --pattern=g/%f/%n.sgf"
cmp -s want3 g/x/0003.sgf || bad "no -d: g/x/0003.sgf"

# A directory that cannot be created (a file is in the way): an error
# naming it, status 2, and the games before it are still written.
mkdir blocked
: >blocked/0002
"$sgf" split --pattern='%n/%f.sgf' -d blocked x.sgf 2>err
st=$?
status 2 "split: a directory cannot be created"
grep -q 'blocked/0002' err || bad "the directory is not named: $(cat err)"
cmp -s want1 blocked/0001/x.sgf || bad "blocked: game 1 not written"
: >file
"$sgf" split -d file/sub x.sgf 2>err
st=$?
status 2 "split -d below a file"
grep -q 'file/sub' err || bad "-d below a file: $(cat err)"

echo "tool-split-dirs: $n checks"
exit $fail
