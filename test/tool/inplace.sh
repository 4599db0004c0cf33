#!/bin/sh
# inplace.sh - `sgf fmt -i` never loses what a file holds: a
# compressed file is written back compressed the same way; a rewrite that
# would drop input bytes, a read-only file, a file with hard links and a
# symbolic link named on the command line are refused unless --force
# (status 2, "not rewritten", the file unchanged); a file with errors or
# without a game tree never is rewritten; mode and owner are kept;
# symbolic links met in a directory are skipped with a warning, never
# followed (stats reads those to files, walks none to a directory). Then
# the invariant of test/support/inplace-lib.sh over random bytes and random
# SGF-like token soup. Skips (77) when the sgf tool is not built.
. "${top_srcdir:-${srcdir:-.}}/test/support/inplace-lib.sh"
cases="$top_srcdir/test/cases"

cd "$tmp" || exit 99
printf '(;GM[1]CoPyright[me]C[a\\]b];B[aa](;W[bb];B[cc])(;W[dd]))\n(;B[ee]' \
  >messy.sgf
printf '(;GM[1]CP[me]C[a\\]b]\n ;B[aa]\n (;W[bb]\n  ;B[cc])\n (;W[dd]))\n(;B[ee])\n' \
  >want-messy
printf 'Some prose\n(;FF[4]C[x])' >prose.sgf
printf '(;FF[4]C[x])\n' >want-prose
printf '(;FF[4]C[clean])\n' >clean.sgf

# unchanged NAME FILE COPY WANT_STATUS GOT_STATUS: refused as it should be.
unchanged() {
  check "$1" "$4" "$5" "$2" "$3"
  grep -q 'not rewritten' err || bad "$1" "no \"not rewritten\" message"
}

# --- compressed files are written back compressed the same way
for z in gzip bzip2 xz zstd lz4; do
  if ! command -v $z >/dev/null 2>&1; then
    echo "tool-inplace: no $z here: its round trip skipped"
    continue
  fi
  $z -c <messy.sgf >m.$z
  "$sgf" fmt -i m.$z 2>err
  check "$z: fmt -i" 1 $?
  if $z -dc <m.$z >dec 2>/dev/null; then
    check "$z: decompressed" 0 0 want-messy dec
    "$sgf" check --strict --syntax-only -q dec 2>/dev/null
    check "$z: decompressed is strict-clean" 0 $?
  else
    bad "$z" "fmt -i left a file $z cannot decompress: $(head -c 40 m.$z)"
  fi
  # refused: compressed file byte for byte the same
  $z -c <prose.sgf >p.$z
  cp p.$z p-orig
  "$sgf" fmt -i p.$z 2>err
  unchanged "$z: junk refused" p-orig p.$z 2 $?
done
if command -v gzip >/dev/null 2>&1 && command -v xz >/dev/null 2>&1; then
  # two filters, written back in the same order
  xz -c <messy.sgf | gzip -c >m.xz.gz
  "$sgf" fmt -i m.xz.gz 2>err
  check "xz in gzip: fmt -i" 1 $?
  gzip -dc <m.xz.gz | xz -dc >dec 2>/dev/null
  check "xz in gzip: decompressed" 0 0 want-messy dec
  # truncated: a read error, never rewritten
  gzip -c <messy.sgf | head -c 30 >t.gz
  cp t.gz t-orig
  "$sgf" fmt -i --force t.gz 2>err
  unchanged "truncated gzip" t-orig t.gz 2 $?
fi

# --- a rewrite that would drop input is refused, the first drop named
head -c 1000000 /dev/urandom >rnd.sgf
cp rnd.sgf rnd-orig
"$sgf" fmt -i rnd.sgf 2>err
unchanged "random bytes" rnd-orig rnd.sgf 2 $?
grep -q '^sgf: rnd\.sgf:[0-9]*:[0-9]*: not rewritten: the rewrite would drop input (' err ||
  bad "random bytes" "message: $(cat err)"
cp prose.sgf p.sgf
"$sgf" fmt -i p.sgf 2>err
unchanged "junk before" prose.sgf p.sgf 2 $?
echo "sgf: p.sgf:1:1: not rewritten: the rewrite would drop input (text before the first game tree ignored [junk-before/6]); --force writes anyway" >want-err
check "junk before: message" 0 0 want-err err
# --force writes, and says what was dropped even without -v
"$sgf" fmt -i --force p.sgf 2>err
check "junk before: --force" 1 $? want-prose p.sgf
grep -q '^p\.sgf:1:1: warning: .*\[junk-before/6\]' err ||
  bad "junk before: --force" "dropped part not reported: $(cat err)"
"$sgf" fmt -i --force rnd.sgf 2>err
check "random bytes: --force" 1 $?
"$sgf" check --strict --syntax-only -q rnd.sgf 2>/dev/null
check "random bytes: --force output strict-clean" 0 $?

# --- never rewritten, even with --force: an archive, errors, no game tree
if command -v tar >/dev/null 2>&1; then
  tar -cf a.tar messy.sgf
  cp a.tar a-orig
  "$sgf" fmt -i --force a.tar 2>err
  unchanged "archive" a-orig a.tar 2 $?
fi
printf 'no game here' >nogame.sgf
: >empty.sgf
printf '(;ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOP[x])' \
  >longid.sgf
for f in nogame empty longid; do
  cp $f.sgf c.sgf
  "$sgf" fmt -i --force c.sgf 2>err
  unchanged "$f: never rewritten" $f.sgf c.sgf 2 $?
done

# --- the drop table (tools/drops.c) on every golden case: the lenient
# repairs that drop input bytes, as the man page lists them; a case whose
# golden log has one of these is refused, naming the first, and written
# with --force; one with errors is never written; the rest are rewritten.
drops=' junk-before junk-after junk extra-paren no-value orphan-value nul-byte ident-limit '
ncases=0
for dir in "$cases"/*/; do
  dir=${dir%/}
  name=${dir##*/}
  [ -f "$dir/input.sgf" ] || continue
  [ -f "$dir/options" ] && continue # limits the tool has no option for
  [ -f "$dir/strict" ] && continue
  ncases=$((ncases + 1))
  cp "$dir/input.sgf" c.sgf
  golden=$dir/events # the tool's own where it has one (test/tool/events.sh)
  [ -f "$dir/events.tool" ] && golden=$dir/events.tool
  first=$(awk -v d="$drops" '$3 ~ /^(warning|error|fatal)$/ &&
                              index(d, " " $4 " ") { print $2, $4; exit }' \
            "$golden")
  if grep -q '^[0-9]* [0-9]*:[0-9]* warning utf16-input ' "$golden"; then
    # UTF-16 would come back as UTF-8: refused, then written with --force
    "$sgf" fmt -i c.sgf 2>err
    unchanged "case $name (UTF-16)" "$dir/input.sgf" c.sgf 2 $?
    grep -qF "c.sgf: not rewritten: the file is UTF-16" err ||
      bad "case $name (UTF-16)" "not said: $(cat err)"
    "$sgf" fmt "$dir/input.sgf" >want 2>/dev/null
    "$sgf" fmt -i --force c.sgf 2>err
    check "case $name (UTF-16): --force" 1 $? want c.sgf
  elif grep -q '^[0-9]* [0-9]*:[0-9]* \(error\|fatal\) ' "$golden"; then
    "$sgf" fmt -i --force c.sgf 2>err
    unchanged "case $name (errors)" "$dir/input.sgf" c.sgf 2 $?
  elif [ -n "$first" ]; then
    "$sgf" fmt -i c.sgf 2>err
    unchanged "case $name (drops)" "$dir/input.sgf" c.sgf 2 $?
    grep -qF "c.sgf:${first% *}: not rewritten: the rewrite would drop input (" err &&
      grep -qF "[${first#* }/" err ||
      bad "case $name" "the first drop ($first) not named: $(cat err)"
    "$sgf" fmt -i --force c.sgf 2>err
    check "case $name: --force" 1 $?
    grep -q "warning: .*\[${first#* }/" err ||
      bad "case $name: --force" "drops not reported: $(cat err)"
  else
    want=0
    grep -q '^[0-9]* [0-9]*:[0-9]* warning ' "$golden" && want=1
    "$sgf" fmt "$dir/input.sgf" >want 2>/dev/null
    "$sgf" fmt -i c.sgf 2>err
    check "case $name (respelled)" $want $? want c.sgf
  fi
done
[ $ncases -gt 50 ] || bad "golden cases" "only $ncases found in $cases"

# --- read-only files
cp clean.sgf ro.sgf
chmod 444 ro.sgf
"$sgf" fmt -i ro.sgf 2>err
unchanged "read-only" clean.sgf ro.sgf 2 $?
"$sgf" fmt -i --force ro.sgf 2>err
check "read-only: --force" 0 $?
[ "$(stat -c %a ro.sgf)" = 444 ] ||
  bad "read-only: --force" "mode now $(stat -c %a ro.sgf)"
[ -s ro.sgf ] && cmp -s clean.sgf ro.sgf ||
  bad "read-only: --force" "content: $(cat ro.sgf)"

# --- hard links
cp messy.sgf h1.sgf
ln h1.sgf h2.sgf
"$sgf" fmt -i h1.sgf 2>err
unchanged "hard link" messy.sgf h1.sgf 2 $?
check "hard link: other name" 0 0 messy.sgf h2.sgf
grep -q 'hard link' err || bad "hard link" "message: $(cat err)"
"$sgf" fmt -i --force h1.sgf 2>err
check "hard link: --force" 1 $? want-messy h1.sgf
check "hard link: --force, other name" 0 0 messy.sgf h2.sgf
grep -q 'hard link broken' err || bad "hard link: --force" "not said: $(cat err)"

# --- symbolic links: in a directory never followed (a link to a file or
# a directory outside, a dangling one, loops), skipped with a warning;
# named, refused unless --force (which rewrites what it points to)
mkdir -p ld/sub outside/od
cp messy.sgf outside/x.sgf
cp messy.sgf outside/od/y.sgf
cp messy.sgf ld/own.sgf
ln -s ../outside/x.sgf ld/link.sgf
ln -s ../outside/od ld/dirlink
ln -s ../outside/od ld/dirlink.sgf
ln -s nowhere ld/dangling.sgf
ln -s .. ld/sub/loop
ln -s .. ld/sub/loop.sgf
ln -s ../.. ld/sub/up.sgf
"$sgf" fmt -i ld 2>err
check "links in a directory" 1 $? want-messy ld/own.sgf
check "links: the file outside" 0 0 messy.sgf outside/x.sgf
check "links: the directory outside" 0 0 messy.sgf outside/od/y.sgf
for l in link.sgf dirlink dirlink.sgf dangling.sgf sub/loop sub/loop.sgf \
  sub/up.sgf; do
  [ -h "ld/$l" ] || bad "links: $l" "no longer a link"
  grep -q "^sgf: ld/$l: not rewritten: a symbolic link" err ||
    bad "links: $l" "no warning: $(cat err)"
done
[ "$(wc -l <err)" -eq 7 ] || bad "links" "not 7 messages: $(cat err)"
# read-only commands read a link to a file, walk no link to a directory
"$sgf" stats --no-time ld >out 2>err
check "stats through links" 2 $?
awk '$NF ~ /^ld\// {print $NF}' out >got
printf 'ld/link.sgf\nld/own.sgf\n' >want
check "stats: the files read" 0 0 want got
grep -q "^sgf: ld/dangling.sgf: " err || bad "stats: dangling link" "not said"
# named on the command line
cp messy.sgf outside/x.sgf
"$sgf" fmt -i ld/link.sgf 2>err
unchanged "named link" messy.sgf outside/x.sgf 2 $?
grep -q 'symbolic link' err || bad "named link" "message: $(cat err)"
"$sgf" fmt -i --force ld/link.sgf 2>err
check "named link: --force" 1 $? want-messy outside/x.sgf
[ -h ld/link.sgf ] || bad "named link: --force" "the link was replaced"

# --- mode and owner kept
for mode in 640 600 755 2664; do
  cp messy.sgf m.sgf
  chmod $mode m.sgf
  "$sgf" fmt -i m.sgf 2>err
  check "mode $mode" 1 $? want-messy m.sgf
  [ "$(stat -c %a m.sgf)" = $mode ] ||
    bad "mode $mode" "now $(stat -c %a m.sgf)"
done
if [ "$(id -u)" = 0 ]; then
  cp messy.sgf o.sgf
  chown 65534:65534 o.sgf
  "$sgf" fmt -i o.sgf 2>err
  check "owner" 1 $? want-messy o.sgf
  [ "$(stat -c %u:%g o.sgf)" = 65534:65534 ] ||
    bad "owner" "now $(stat -c %u:%g o.sgf)"
else
  echo "tool-inplace: not root: owner not checked"
fi

# --- a name near the longest allowed: rewritten, never removed
long=$(printf '%0250d' 0).sgf
cp messy.sgf "$long"
"$sgf" fmt -i "$long" 2>err
check "long name" 1 $? want-messy "$long"

# --- usage
"$sgf" fmt --force messy.sgf >/dev/null 2>err
check "--force without -i" 2 $?

# --- the invariant over random bytes and random SGF-like token soup
for size in 1 10 100 10000 1000000; do
  head -c $size /dev/urandom >r.bin
  inplace_keeps r.bin
done
seed=1
while [ $seed -le 120 ]; do
  # tokens: syntax, and repairs of both kinds (@ is a NUL byte)
  awk -v seed=$seed 'BEGIN {
    srand(seed)
    nt = split("( ( ( ( ; ; ; ; B[aa] W[bb] C[x\\]y] AB[cd][ef] CoPy[z] " \
               "B\t[a] ( ; B[ C[a\\ \n () ) ) ) C[n@l] [v] ] B @",
               t, " ")
    # half the files without the last eight: those that drop input, and
    # ")", which does when it closes nothing; and starting with a tree
    # (what comes before one is junk)
    if (seed % 2) {
      nt -= 8
      printf "("
    }
    for (k = int(rand() * 20) + 1; k > 0; k--) {
      x = t[int(rand() * nt) + 1]
      printf "%s", x == "\\n" ? "\n" : x
    }
  }' | tr @ '\000' >soup.sgf
  inplace_keeps soup.sgf
  seed=$((seed + 1))
done

# --- a directory: each .sgf file below it rewritten (a compressed one
# compressed again), the other files left alone; one without any .sgf
# file holds no input (3)
mkdir -p d/sub
cp messy.sgf d/a.sgf
cp messy.sgf d/sub/b.sgf
cp prose.sgf d/sub/c.sgf
echo 'not sgf' >d/notes.txt
cp d/notes.txt notes-orig
if command -v gzip >/dev/null 2>&1; then gzip -c <messy.sgf >d/sub/z.sgf.gz; fi
"$sgf" fmt -i d 2>err
check "directory: fmt -i" 2 $? want-messy d/a.sgf
check "directory: in a subdirectory" 0 0 want-messy d/sub/b.sgf
check "directory: a drop refused" 0 0 prose.sgf d/sub/c.sgf
check "directory: other files left alone" 0 0 notes-orig d/notes.txt
grep -q '^sgf: d/sub/c\.sgf:1:1: not rewritten' err ||
  bad "directory: fmt -i" "no refusal for c.sgf: $(cat err)"
if [ -f d/sub/z.sgf.gz ]; then
  gzip -dc <d/sub/z.sgf.gz >dec 2>/dev/null
  check "directory: compressed file" 0 $? want-messy dec
fi
mkdir -p empty/sub
echo 'not sgf' >empty/sub/x.txt
"$sgf" fmt -i empty 2>err
check "directory without .sgf files" 3 $?

# no temporary file left behind by any of the above
if ls -a | grep -q '\.tmp$'; then
  bad "temporary files" "left behind: $(ls -a | grep '\.tmp$')"
fi

echo "tool-inplace: $n checks ($ncases golden cases; of the random files" \
  "$rewritten were rewritten, the others refused)"
exit $fail
