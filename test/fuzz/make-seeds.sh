#!/bin/sh
# make-seeds.sh TOP_SRCDIR OUTDIR - seed corpora for the fuzz targets.
#
# Collects test/cases/*/input.sgf and the shared corpus' edge/ files
# (../shared/corpus beside the source tree, or $SGF_CORPUS) and writes,
# for each target, OUTDIR/TARGET/ with every file behind the header bytes
# that target reads first (see test/support/harness.h), in a few settings:
#   fuzz_parse   lenient; strict; mainline
#   fuzz_split   byte by byte; 7-byte chunks pausing at every 3rd callback
#   fuzz_reader  max_value_bytes 1021; 129 with failing allocations
#   fuzz_tree_paths  defaults; mainline, small limits, skip oversized
#   fuzz_tree    defaults; collecting, keeping, small limits, failing
#                allocations
#   fuzz_roundtrip  compact; readable, 300-byte buffer, width 20, a sink
#                taking 7 bytes a call, 5-byte chunks
#   fuzz_writer  a few scripts of writer calls (not made from the files)
#   fuzz_cursor  a few programs of cursor operations (recording a game,
#                properties, two cursors, failing allocations), and each
#                file of at most 255 bytes as the game a program edits
#   fuzz_unescape  each file as a raw value / text: one byte a piece;
#                pieces of 3, 0 and 7 bytes
#   fuzz_value   a few values of each kind (not made from the files), on
#                several properties and boards
#   fuzz_charset each file as text in no charset, and as Shift_JIS with
#                guessing; and a few texts in each charset of the list
#                (Latin-1, Shift_JIS with a '\\' second byte, GB18030,
#                Big5, EUC-KR, UTF-16 with a surrogate pair and a lone one)
#   fuzz_serve_conn  each file as a connection's stream, twice (two
#                choice seeds); and a stream of three games
#   fuzz_serve_http  each file POSTed with a Content-Length, and chunked;
#                GET /health and /stats, a bad request, two requests
#                kept alive
# The files of test/regressions/ (inputs that once failed) go into every
# target's directory as they are. OUTDIR is emptied first. Under the
# build directory it is ignored by git (fuzz-seeds/).
set -eu
top=${1:?usage: make-seeds.sh TOP_SRCDIR OUTDIR}
out=${2:?usage: make-seeds.sh TOP_SRCDIR OUTDIR}
corpus=${SGF_CORPUS:-$top/../shared/corpus}

rm -rf "$out"
targets="fuzz_parse fuzz_split fuzz_reader fuzz_tree fuzz_roundtrip fuzz_writer fuzz_tree_paths"
targets="$targets fuzz_cursor fuzz_unescape fuzz_value fuzz_charset fuzz_batch"
targets="$targets fuzz_serve_conn fuzz_serve_http"
for t in $targets; do mkdir -p "$out/$t"; done

# fuzz_writer: options, sink, then one call a byte (see harness.h).
w=$out/fuzz_writer
printf '\000\000\000\001\002\000\002\003\004\003abc\006\010' >"$w/plain"
printf '\001\007\000\001\002\001\002\017\005\003a]\\\012\010' >"$w/readable"
printf '\021\000\000\001\002\000\002\005\042a:b\\\005\103x\r\n\004\002\\]\006\007\001\000\001\010\010' \
  >"$w/variations"
printf '\143\003\000\000\001\001\002\201\003\004\011\004\005\\\\]\\\011\003\002\\x\010\000\010' >"$w/small"

# fuzz_cursor: header (allocation failures, first failing call, writer
# options, length of an SGF text to edit, its limits), then one operation
# a byte with its arguments (see harness.h and harness_cursor.c).
# b N...: the bytes N (decimal); t TEXT: a length byte, then TEXT;
# op OP [FLAGS]: an operation byte.
# shellcheck disable=SC2059 # the format is the byte, as an octal escape
b() { for n in "$@"; do printf "\\$(printf %o "$n")"; done; }
t() { b ${#1}; printf '%s' "$1"; }
op() { b $(($1 + 32 * ${2:-0})); }
MOVE=0 NODE=1 STARTVAR=2 BACK=3 FORWARD=4 REWIND=5 GOTO=6 STONE=7
COMMENT=8 MARKUP=9 LABEL=10 SETTEXT=11 ADDVALUE=12 RESULT=13 HEADER=14
CURSOR=15 CHECK=16 SUBTREE=17 NULLS=18 PASS=19 REMOVE=20
c=$out/fuzz_cursor
game() { # header, moves, a comment, a variation, markup, a label, a result
  op $HEADER; b 71 19 154; t 'Black]'; t 'Wh\ite'; t 2024-01-01
  op $MOVE; b 15 3; op $MOVE 1; b 3 15; op $COMMENT; t 'good ] move \ x'
  op $STARTVAR; op $MOVE 1; b 2 2; op $MARKUP; b 4 4; op $LABEL; b 5 5
  t 'A:b]'; op $BACK; op $MOVE 3; b 10 10; op $REWIND; op $FORWARD
  op $GOTO; b 3; op $PASS 1; b 0; op $RESULT; t 'B+R'; op $CHECK 1
}
props() { # setup, markup, text and raw values, bad arguments, subtrees
  op $STONE 1; b 0 0; op $STONE 2; b 0 0; op $STONE; b 1 1; op $STONE 3
  b 2 2; op $MARKUP 1; b 3 3; op $MARKUP 2; b 3 3; op $MARKUP 5; b 3 3
  op $STONE 1; b 60 0; op $SETTEXT; b 0; t 'hi
there'; op $SETTEXT 4; b 11 7; op $SETTEXT 4; b 12 1
  op $ADDVALUE; b 11
  # shellcheck disable=SC1003 # a backslash at the end, on purpose
  t 'a\'
  op $ADDVALUE; b 12; t 'a\]'
  op $ADDVALUE; b 21; t x; op $ADDVALUE; b 0 3 97 0 98
  for f in 0 1 2 3 4 5 6 7; do op $NULLS $f; done
  op $SUBTREE; op $SUBTREE 1; op $SUBTREE 2
}
cursors() { # two cursors, variations, moving around, bad moves
  op $MOVE; b 3 3; op $MOVE 1; b 4 4; op $CURSOR; op $MOVE; b 16 16
  op $MOVE 2; b 3 3; op $MOVE 2; b 5 5; op $CURSOR; op $STARTVAR; op $NODE
  op $NODE 2; op $CURSOR; op $CURSOR 4; op $GOTO; b 255; op $GOTO; b 254
  op $GOTO; b 1; op $MOVE 7; b 1 1; op $MOVE; b 52 1; op $MOVE; b 56 1
  op $BACK; op $BACK; op $BACK; op $BACK; op $FORWARD; op $FORWARD
  op $FORWARD; op $FORWARD; op $CHECK 1; op $SUBTREE 1
}
edit() { # on a parsed game: comments, stones, a label, moves, nodes
  op $FORWARD; op $COMMENT; t more; op $STONE 1; b 5 5; op $REWIND
  op $STONE 2; b 1 1; op $FORWARD; op $FORWARD; op $LABEL; b 2 2; t y
  op $MOVE; b 7 7; op $MOVE 2; b 8 8
  for f in 0 1 2 3 4 5 6 7 8 9 10 11; do op $NODE; done
  op $HEADER; b 255 9 33 2; t a; t b; t c; t d; t e; t f; op $CHECK 1
}
remove() { # delete (node, property, value), promote, reparent (flags % 5)
  op $MOVE; b 3 3; op $MOVE 1; b 4 4; op $CURSOR; op $MOVE; b 5 5
  op $STARTVAR; op $MOVE 1; b 6 6; op $MOVE; b 7 7; op $REMOVE 3
  op $REMOVE 4; b 0 1; op $REMOVE 4; b 0 9; op $REMOVE 4; b 254 0
  op $REMOVE 4; b 255 0; op $STONE 1; b 0 0; op $STONE 1; b 1 1
  op $STONE 2; b 2 2; op $REMOVE 2; b 1 0; op $REMOVE 2; b 0 5
  op $REMOVE 1; b 2; op $REMOVE 1; b 1; op $CHECK 1; op $CURSOR; op $BACK
  op $REMOVE 0; op $GOTO; b 253; op $REMOVE 4; b 253 0; op $REWIND
  op $REMOVE 0; op $REMOVE 3; op $CHECK 1; op $SUBTREE 1
}
src='(;GM[1]AB[aa][bb][cc]C[abc];B[aa]C[x\]](;W[bb]LB[cc:x])(;W[cc]MN[5]))'
{ b 0 0 0 0 0; game; } >"$c/game"
{ b 0 0 33 0 0; props; } >"$c/props"
{ b 0 0 16 0 0; cursors; } >"$c/cursors"
{ b 0 0 16 0 0; remove; } >"$c/remove"
{ b 0 0 1 ${#src} 0; printf '%s' "$src"; remove; } >"$c/parsed-remove"
{ b 8 0 1 ${#src} 0; printf '%s' "$src"; op $REMOVE 2; b 1 0; remove; } \
  >"$c/parsed-remove-positions"
{ b 1 3 0 0 0; game; } >"$c/game-fail-one"
{ b 6 5 33 0 0; props; } >"$c/props-fail-all"
{ b 3 2 16 0 0; cursors; } >"$c/cursors-fail-every-other"
{ b 0 0 1 ${#src} 50; printf '%s' "$src"; edit; } >"$c/parsed-limits"
{ b 4 9 1 ${#src} 0; printf '%s' "$src"; edit; } >"$c/parsed-fail"

# fuzz_value: a property (byte 0), the board (bytes 1-2: columns, rows),
# then one raw value (see fuzz_value.c).
i=0
for val in aa tt '' 3 -12 6.5 B 2 'ab:cd' 'aa:bb' 'dd:a\]b' 'x\\y' 'line
two'; do
  for prop in 0 5 17 40 63 90; do
    for board in '19 19' '9 13' '52 52'; do
      # shellcheck disable=SC2086 # two numbers
      { b "$prop" $board; printf '%s' "$val"; } >"$out/fuzz_value/$i"
      i=$((i + 1))
    done
  done
done

# seed FILE NAME: write the variants of one input.
seed() {
  f=$1
  n=$2
  { printf '\000'; cat "$f"; } >"$out/fuzz_parse/$n-lenient"
  { printf '\001'; cat "$f"; } >"$out/fuzz_parse/$n-strict"
  { printf '\002'; cat "$f"; } >"$out/fuzz_parse/$n-mainline"
  { printf '\000\000\000\000'; cat "$f"; } >"$out/fuzz_split/$n-bytes"
  { printf '\000\000\003\001\007'; cat "$f"; } >"$out/fuzz_split/$n-chunks"
  { printf '\000\000\077\001\100'; cat "$f"; } >"$out/fuzz_batch/$n-64"
  { printf '\000\103\300\001\007'; cat "$f"; } >"$out/fuzz_batch/$n-skip"
  { printf '\000\377\000\000\000\000'; cat "$f"; } >"$out/fuzz_reader/$n-big"
  { printf '\000\040\006\003\100\000'; cat "$f"; } >"$out/fuzz_reader/$n-fail"
  { printf '\000\000\000\000\000\000'; cat "$f"; } >"$out/fuzz_tree/$n-plain"
  { printf '\000\057\050\200\200\000'; cat "$f"; } >"$out/fuzz_tree/$n-fail"
  { printf '\000\000'; cat "$f"; } >"$out/fuzz_tree_paths/$n-plain"
  { printf '\002\047'; cat "$f"; } >"$out/fuzz_tree_paths/$n-mainline-limits"
  { printf '\000\000\000\000'; cat "$f"; } >"$out/fuzz_roundtrip/$n-compact"
  { printf '\000\167\007\005'; cat "$f"; } >"$out/fuzz_roundtrip/$n-readable"
  { printf '\000'; cat "$f"; } >"$out/fuzz_unescape/$n-bytes"
  { printf '\003\003\000\007'; cat "$f"; } >"$out/fuzz_unescape/$n-pieces"
  # as text in no charset, and as Shift_JIS with guessing, in pieces
  { printf '\000\000\200\002'; cat "$f"; } >"$out/fuzz_charset/$n-nocs"
  { printf '\003\001\100\000'; cat "$f"; } >"$out/fuzz_charset/$n-sjis"
  size=$(wc -c <"$f")
  # the serve targets: 8 bytes seeding the splits, pauses and cut
  { printf '\000\001\002\003\004\005\006\007'; cat "$f"; } \
    >"$out/fuzz_serve_conn/$n-a"
  { printf 'seed\377\200\001\177'; cat "$f"; cat "$f"; } \
    >"$out/fuzz_serve_conn/$n-twice"
  { printf '\000\001\002\003\004\005\006\007'
    printf 'POST /games HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n' "$size"
    cat "$f"; } >"$out/fuzz_serve_http/$n-length"
  { printf 'seed\377\200\001\177'
    printf 'POST /games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'
    printf '%x\r\n' "$size"; cat "$f"; printf '\r\n0\r\n\r\n'; } \
    >"$out/fuzz_serve_http/$n-chunked"
  if [ "$size" -le 255 ]; then
    { b 0 0 1 "$size" 0; cat "$f"; edit; } >"$out/fuzz_cursor/$n-edit"
  fi
}

# fuzz_charset: charset (byte 0, the list in harness_charset.c), flags,
# first split, piece size, then the text (see harness.h).
cs=$out/fuzz_charset
printf '\002\000\100\002caf\351 \\] ok' >"$cs/latin1"
printf '\001\000\200\000h\303\251 \360\237\230\200 x' >"$cs/utf8"
printf '\003\000\177\001\225\\\\\203\\ \212\277' >"$cs/sjis-backslash"
printf '\006\005\060\003\272\332\327\323\n\201\060\201\060' >"$cs/gb18030"
printf '\007\001\100\001\244\100\246\162' >"$cs/big5-guess"
printf '\010\002\100\000\261\342\272\361' >"$cs/euckr-override"
printf '\000\000\174\000(\000;\000=\330\000\336c\000' >"$cs/utf16-pair"
printf '\000\010\174\002\000(\330=\000c\334\000' >"$cs/utf16be-lone"
printf '\015\000\000\000\377\376 junk' >"$cs/unknown-ca"

# the serve targets, not made from the files
three='(;GM[1];B[aa];W[bb])(;GM[1]C[a\]b](;B[cc])(;B[dd]))
(;GM[1];B[ee]'
printf '\011\022\033\044\055\066\077\100%s' "$three" >"$out/fuzz_serve_conn/three"
h=$out/fuzz_serve_http
printf '\000\000\000\000\000\000\000\000GET /health HTTP/1.1\r\nHost: x\r\n\r\n' >"$h/health"
printf '\001\000\000\000\000\000\000\000GET /stats HTTP/1.1\r\n\r\nGET /health HTTP/1.1\r\n\r\n' >"$h/keepalive"
printf '\002\000\000\000\000\000\000\000BREW /pot HTCPCP/1.0\r\n\r\n' >"$h/bad"
printf '\003\000\000\000\000\000\000\000POST /games HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s' \
  "${#three}" "$three" >"$h/three"

count=0
for f in "$top"/test/cases/*/input.sgf; do
  [ -f "$f" ] || continue
  d=${f%/input.sgf}
  seed "$f" "case-${d##*/}"
  count=$((count + 1))
done
if [ -d "$corpus/edge" ]; then
  i=0
  for f in "$corpus"/edge/*; do
    case $f in *.md) continue ;; esac
    [ -f "$f" ] || continue
    i=$((i + 1))
    seed "$f" "edge-$i"
    count=$((count + 1))
  done
fi
for f in "$top"/test/regressions/*; do
  case $f in *.md) continue ;; esac
  [ -f "$f" ] || continue
  for t in $targets; do
    cp "$f" "$out/$t/regression-${f##*/}"
  done
  count=$((count + 1))
done
echo "make-seeds: $count inputs into $out/ ($targets)"
