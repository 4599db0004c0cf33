#!/bin/sh
# fds.sh - every sgf command run with standard input, output or error
# closed (<&-, >&-, 2>&-). Never a signal (libuv used to abort when its own
# descriptors landed on 0-2); a command that writes to a closed standard
# output fails with one "write error" and status 2; reading a closed
# standard input is an unreadable input (status 2); otherwise the results
# (status, output, files written) are those of a run with all three open.
# Skips (77) when the sgf tool is not built.
top_builddir=${top_builddir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-fds: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf" # the tests run in a temporary dir
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-fds.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
n=0

bad() {
  echo "FAIL: $*"
  fail=1
}

cd "$tmp" || exit 99
mkdir in
printf '(;FF[4]GM[1]SZ[19];B[pd];W[dp])\n' >in/clean.sgf
printf '(;GM[1]b[aa]C[x];W[bb])\n' >in/warn.sgf
printf '(;GM[1];B[aa])\n(;GM[1];W[bb]C[two])\n' >in/two.sgf

# run DIR FD ARGS...: run sgf ARGS in a fresh copy of in/ named DIR, with
# descriptor FD closed (- for none); stdout in DIR.out (unless closed),
# stderr in DIR.err (unless closed), the status in $st.
run() {
  dir=$1
  fd=$2
  shift 2
  rm -rf "$dir" "$dir.out" "$dir.err"
  cp -R in "$dir" || exit 99
  : >"$dir.out"
  : >"$dir.err"
  case $fd in
  -) (cd "$dir" && "$sgf" "$@") <in/clean.sgf >"$dir.out" 2>"$dir.err" ;;
  0) (cd "$dir" && "$sgf" "$@") <&- >"$dir.out" 2>"$dir.err" ;;
  1) (cd "$dir" && "$sgf" "$@") <in/clean.sgf >&- 2>"$dir.err" ;;
  2) (cd "$dir" && "$sgf" "$@") <in/clean.sgf >"$dir.out" 2>&- ;;
  esac
  st=$?
  n=$((n + 1))
  if [ "$st" -ge 128 ]; then
    bad "sgf $* with fd $fd closed: killed by a signal (status $st)"
    head -3 "$dir.err"
  fi
}

# same WHAT: the run t is the reference run ref (status, stdout, files).
same() {
  if [ "$st" != "$ref_st" ]; then
    bad "$1: status $st, $ref_st with all descriptors open"
    head -3 t.err
  fi
  cmp -s ref.out t.out || bad "$1: standard output differs"
  diff -r ref t >/dev/null || bad "$1: files written differ"
}

# A command that writes to standard output (its reference status, output).
writes() {
  run ref - "$@"
  ref_st=$st
  [ -s ref.out ] || bad "sgf $*: writes nothing (the test is wrong)"
  run t 1 "$@"
  if [ "$st" != 2 ]; then
    bad "sgf $* >&-: status $st, expected 2"
  elif [ "$(grep -c 'write error' t.err)" != 1 ]; then
    bad "sgf $* >&-: not one 'write error' message:"
    cat t.err
  fi
  run t 0 "$@"
  same "sgf $* <&-"
  run t 2 "$@"
  same "sgf $* 2>&-"
}

# A command that writes no standard output: the same with any closed.
quiet() {
  run ref - "$@"
  ref_st=$st
  [ -s ref.out ] && bad "sgf $*: writes to standard output (test is wrong)"
  for fd in 0 1 2; do
    run t $fd "$@"
    same "sgf $* (fd $fd closed)"
    if [ $fd != 2 ] && ! cmp -s ref.err t.err; then
      bad "sgf $* (fd $fd closed): standard error differs"
      cat t.err
    fi
  done
}

# A command reading standard input, which is closed: unreadable, status 2,
# nothing written.
no_stdin() {
  run t 0 "$@"
  [ "$st" = 2 ] || bad "sgf $* <&-: status $st, expected 2"
  grep -q '<stdin>' t.err || bad "sgf $* <&-: no message about <stdin>"
  diff -r in t >/dev/null || bad "sgf $* <&-: files written"
}

writes check warn.sgf
writes stats --no-time clean.sgf warn.sgf
writes stats --no-time -j 2 clean.sgf warn.sgf two.sgf
writes stats --no-time --json clean.sgf
writes events clean.sgf
writes fmt warn.sgf
writes fmt --compact clean.sgf two.sgf
writes mainline warn.sgf
writes help
writes help check
writes help help
writes --help
writes --version
for cmd in check stats events fmt mainline split help; do
  writes $cmd --help
done

quiet check clean.sgf
quiet check -q warn.sgf
quiet fmt -o out.sgf warn.sgf two.sgf
quiet fmt -i warn.sgf two.sgf
quiet mainline -o out.sgf warn.sgf
quiet split -d games two.sgf warn.sgf
quiet split two.sgf

no_stdin check
no_stdin stats --no-time
no_stdin stats --no-time -j 2 - clean.sgf
no_stdin events
no_stdin fmt
no_stdin fmt -o out.sgf
no_stdin mainline
no_stdin split

# The files fmt -o / -i and split write with standard output closed are
# whole: the same as fmt writes to standard output (quiet() compared them
# with the reference run's only).
"$sgf" fmt in/warn.sgf in/two.sgf >want 2>/dev/null
run t 1 fmt -o all.sgf warn.sgf two.sgf
cmp -s want t/all.sgf || bad "fmt -o >&-: output incomplete"
"$sgf" fmt in/warn.sgf >want 2>/dev/null
run t 1 fmt -i warn.sgf
cmp -s want t/warn.sgf || bad "fmt -i >&-: file incomplete"
"$sgf" fmt in/two.sgf >want 2>/dev/null
run t 1 split --pattern=%n.sgf two.sgf
cat t/0001.sgf t/0002.sgf >got 2>/dev/null
cmp -s want got || bad "split >&-: files incomplete"

# Standard input a pipe, standard output closed; both closed.
printf '(;B[aa])' | "$sgf" stats >&- 2>err
st=$?
n=$((n + 1))
[ "$st" = 2 ] && grep -q 'write error' err ||
  bad "pipe | sgf stats >&-: status $st"
"$sgf" stats <&- >&- 2>err
st=$?
n=$((n + 1))
[ "$st" = 2 ] && grep -q 'write error' err && grep -q '<stdin>' err ||
  bad "sgf stats <&- >&-: status $st"
# All three closed: only the status tells.
"$sgf" check in/warn.sgf <&- >&- 2>&-
st=$?
n=$((n + 1))
[ "$st" = 2 ] || bad "sgf check <&- >&- 2>&-: status $st, expected 2"

echo "tool-fds: $n runs"
exit $fail
