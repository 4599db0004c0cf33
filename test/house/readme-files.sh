#!/bin/sh
# readme-files.sh - test/README.md lists every file of the test folders
# (test/unit, support, fuzz, tool, serve, house, corpus; their local.mk
# and README.md aside), each once under its folder's heading
# ("### test/FOLDER/", then lines "- `NAME` - what it checks"), and lists
# no file that does not exist; test/ itself holds only README.md and
# local.mk (a new test goes into the folder of its kind). In a git
# checkout the files are git's (tracked, or untracked and not ignored),
# elsewhere (a release tarball) what is on disk.
top_srcdir=${top_srcdir:-.}
cd "$top_srcdir" || exit 99
[ -f test/README.md ] || { echo "readme-files: no test/README.md"; exit 99; }
folders="unit support fuzz tool serve house corpus"
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT

# The files: one path a line, relative to test/.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
   [ "$(git rev-parse --show-prefix 2>/dev/null)" = "" ]; then
  git ls-files --cached --others --exclude-standard -- test |
    sed 's#^test/##' | grep -v -e '^cases/' -e '^data/' -e '^regressions/' |
    while read -r f; do [ -f "test/$f" ] && echo "$f"; done
else
  (cd test && find . -type f ! -path './cases/*' ! -path './data/*' \
    ! -path './regressions/*' ! -path '*/.*' -name '*.*' \
    ! -name '*.o' ! -name '*.lo' ! -name '*.la' ! -name '*.log' \
    ! -name '*.trs' | sed 's#^\./##')
fi | grep -v -e '^README\.md$' -e '^local\.mk$' -e '/README\.md$' \
  -e '/local\.mk$' | LC_ALL=C sort -u >"$tmp/files"

# The list: FOLDER/NAME for each "- `NAME` - ..." under "### test/FOLDER/".
awk '
  /^### test\/[a-z]+\/$/ { d = $2; sub(/^test\//, "", d); next }
  /^##/ { d = ""; next }
  d != "" && /^- `[^`]+` - ./ {
    n = $0; sub(/^- `/, "", n); sub(/`.*/, "", n); print d n
  }' test/README.md | LC_ALL=C sort >"$tmp/listed.all"
LC_ALL=C sort -u "$tmp/listed.all" >"$tmp/listed"

fail=0
dups=$(LC_ALL=C uniq -d "$tmp/listed.all")
if [ -n "$dups" ]; then
  for f in $dups; do echo "FAIL: test/README.md lists test/$f twice"; done
  fail=1
fi
# In test/ itself, or in a folder that is not one of the kinds.
while read -r f; do
  case $f in
  */*)
    d=${f%%/*}
    case " $folders " in *" $d "*) ;; *)
      echo "FAIL: test/$f is in test/$d/, which is not a test folder ($folders)"
      fail=1 ;;
    esac ;;
  *)
    echo "FAIL: test/$f is in test/ itself: put it in the folder of its kind ($folders)"
    fail=1 ;;
  esac
done <"$tmp/files"
for f in $(LC_ALL=C comm -23 "$tmp/files" "$tmp/listed"); do
  case $f in */*) echo "FAIL: test/$f is not listed in test/README.md"; fail=1 ;; esac
done
for f in $(LC_ALL=C comm -13 "$tmp/files" "$tmp/listed"); do
  echo "FAIL: test/README.md lists test/$f, which does not exist"
  fail=1
done
[ $fail -eq 0 ] &&
  echo "readme-files: test/README.md lists the $(wc -l <"$tmp/files") files of the test folders"
exit $fail
