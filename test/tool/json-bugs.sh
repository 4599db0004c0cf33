#!/bin/sh
# json-bugs.sh - `sgf json` (sgf(1), JSON SCHEMA), what issue 26
# found wrong:
#   memory: --headers and --mainline hold only what they write, so a
#   100 MB comment in the root node (or a later node) costs them no
#   memory (peak RSS under 64 MB, measured with /usr/bin/time); a header
#   value over 64 KiB is dropped with a positioned warning and its field
#   is null (the full output writes it whole); filter --json applies
#   --max-game-bytes to such a game;
#   one diagnostic per undecodable value, at its byte, though the header
#   field and the tree both write it;
#   CA's own value is ASCII, never read through the charset it names;
#   U+0085, U+2028, U+2029 and the other C1 controls are escaped as \uXXXX
#   (Python's str.splitlines() splits there), by every path that writes
#   text.
# Skips (77) when the sgf tool is not built or python3 is missing; the
# checks that need /usr/bin/time or ../shared are skipped with a message.
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-json-bugs: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "tool-json-bugs: no python3: skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
src="$(cd "$top_srcdir" && pwd)"
edge="$src/../shared/corpus/edge"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-json-bugs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0

bad() {
  echo "FAIL: $1"
  [ -s err.txt ] && sed 's/^/  stderr: /' err.txt | head -5
  fail=1
}

# get FILE EXPR: EXPR of each line g of FILE (JSON), one a line
get() {
  python3 -c '
import json, sys
for l in open(sys.argv[1], encoding="utf-8"):
    g = json.loads(l)
    print(eval(sys.argv[2]))' "$1" "$2"
}

# ---- 1. memory: bounded for what is not written
# big FILE PREFIX SUFFIX: PREFIX, 100 MiB of 'x', SUFFIX
big() {
  python3 -c '
import sys
o = sys.stdout.buffer
o.write(sys.argv[1].encode())
block = b"x" * (1 << 20)
for _ in range(100):
    o.write(block)
o.write(sys.argv[2].encode())' "$2" "$3" >"$1"
}
LIMIT=65536 # KiB of peak RSS
if [ ! -x /usr/bin/time ]; then
  echo "tool-json-bugs: no /usr/bin/time: the memory checks skipped"
else
  big root.sgf '(;FF[4]GM[1]SZ[19]PB[Black]C[' '];B[pd];W[dd])'
  big later.sgf '(;FF[4]GM[1]SZ[19]PB[Black];B[pd]C[' '];W[dd])'
  big bigpb.sgf '(;FF[4]GM[1]SZ[19]PW[White]PB[' '];B[pd];W[dd])'
  # rss LABEL ARGS...: sgf ARGS... (output in out.jsonl) under LIMIT
  rss() {
    label=$1
    shift
    /usr/bin/time -f %M -o rss.txt "$sgf" "$@" >out.jsonl 2>err.txt
    kb=$(tail -1 rss.txt)
    case $kb in
      '' | *[!0-9]*) bad "$label: no peak RSS measured ($kb)" ;;
      *) [ "$kb" -lt $LIMIT ] || bad "$label: peak RSS $kb KiB, over $LIMIT" ;;
    esac
  }
  for f in root later; do
    for mode in --headers --mainline; do
      rss "json $mode, 100 MiB comment in $f" json $mode $f.sgf
      [ "$(get out.jsonl 'g["black"]')" = Black ] ||
        bad "json $mode $f.sgf: black is not Black"
      [ -s err.txt ] && bad "json $mode $f.sgf: diagnostics"
    done
    [ "$(get out.jsonl 'g["moves"]')" = "[['B', 'pd'], ['W', 'dd']]" ] ||
      bad "json --mainline $f.sgf: moves $(get out.jsonl 'g["moves"]')"
  done
  # a header value of 100 MiB: dropped, with a warning at its '['
  for mode in --headers --mainline; do
    rss "json $mode, 100 MiB PB" json $mode bigpb.sgf
    got=$(get out.jsonl 'repr(g["black"])[:40] + "/" + g["white"]')
    [ "$got" = "None/White" ] || bad "json $mode bigpb.sgf: black/white $got"
    grep -q '^bigpb.sgf:1:30: warning: PB: value over 65536 bytes, not kept .*"black" written as null' err.txt ||
      bad "json $mode bigpb.sgf: no positioned warning: $(head -c 300 err.txt)"
  done
  # sgf filter --json holds a game whole: --max-game-bytes applies
  rss "filter --json --max-game-bytes" filter --json --max-game-bytes=1048576 root.sgf
  grep -q '^root.sgf:1:1: error: this game is over 1048576 bytes' err.txt ||
    bad "filter --json --max-game-bytes: no error"
  rm -f root.sgf later.sgf bigpb.sgf out.jsonl
fi

# the cap: 65536 bytes are kept, 65537 dropped; the full output writes
# both whole; the first value only, of each field and CA
python3 -c '
import sys
sys.stdout.write("(;CA[UTF-8]PB[" + "b" * 65536 + "][second]PW[" + "w" * 65537 +
                 "]PW[later]GN[x];B[aa])\n")' >cap.sgf
# (values in pieces: --chunk)
for mode in --headers --mainline "--headers --chunk=1" "--mainline --chunk=7"; do
  "$sgf" json $mode cap.sgf >out.jsonl 2>err.txt
  rc=$?
  [ $rc = 1 ] || bad "cap $mode: exit $rc, want 1 (a warning)"
  got=$(get out.jsonl 'str(len(g["black"])) + "/" + repr(g["white"])[:40] + "/" + g["game_name"]')
  [ "$got" = "65536/None/x" ] || bad "cap $mode: $got"
  [ "$(grep -c warning err.txt)" = 1 ] &&
    grep -q '^cap.sgf:1:65562: warning: PW: value over 65536 bytes' err.txt ||
    bad "cap $mode: not one positioned warning"
done
"$sgf" json cap.sgf >out.jsonl 2>err.txt
got=$(get out.jsonl 'str(len(g["black"])) + "/" + str(len(g["white"]))')
[ "$got" = "65536/65537" ] || bad "cap, full output: $got"
[ -s err.txt ] && bad "cap, full output: diagnostics"

# ---- 2. one diagnostic per undecodable value, at its byte: the header
# field and the tree's root node write the same value
printf '(;CA[UTF-8]PB[ok\377]PW[\376]C[\375x]\n;B[aa]C[y\374])' >dup.sgf
for how in "" SLOW raw; do
  case $how in
    SLOW) SGF_JSON_SLOW=1 "$sgf" json dup.sgf ;;
    raw) "$sgf" json --raw dup.sgf ;;
    *) "$sgf" json dup.sgf ;;
  esac >out.jsonl 2>err.txt
  grep 'error: text does not decode' err.txt | cut -d: -f2,3 >got.txt
  printf '1:17\n1:22\n1:26\n2:10\n' >want.txt
  cmp -s got.txt want.txt ||
    bad "dup.sgf${how:+ $how}: errors at $(tr '\n' ' ' <got.txt), want $(tr '\n' ' ' <want.txt)"
done
# a text part of a composed value, at its byte too
printf '(;CA[UTF-8]LB[aa:x\377]AP[\377:1])' >part.sgf
"$sgf" json part.sgf >out.jsonl 2>err.txt
[ "$(grep 'error: text does not decode' err.txt | cut -d: -f2,3 | tr '\n' ' ')" = "1:19 1:24 " ] ||
  bad "part.sgf: errors at $(cut -d: -f2,3 err.txt | tr '\n' ' ')"
f="$edge/sabaki-sgf__tests__sgf__japanese_bad.sgf"
if [ -f "$f" ]; then
  "$sgf" json "$f" >out.jsonl 2>err.txt
  [ "$(grep 'error: text does not decode' err.txt | cut -d: -f2,3 | tr '\n' ' ')" = "1:6 1:43 3:9 " ] ||
    bad "japanese_bad: errors at $(cut -d: -f2,3 err.txt | tr '\n' ' ')"
else
  echo "tool-json-bugs: no $edge: the corpus files skipped"
fi

# ---- 3. CA's own value: ASCII, never decoded through itself
printf '(;FF[4]CA[UTF-16LE]C[h\000i\000])(;CA[\\UTF-8\\ ]C[x])(;CA[\351]C[x])' >ca.sgf
for how in "" SLOW raw charset; do
  case $how in
    SLOW) SGF_JSON_SLOW=1 "$sgf" json ca.sgf ;;
    raw) "$sgf" json --raw ca.sgf ;;
    charset) "$sgf" json --charset=UTF-16LE ca.sgf ;;
    *) "$sgf" json ca.sgf ;;
  esac >out.jsonl 2>err.txt
  got=$(get out.jsonl '[p[1] for p in g["tree"][0]["nodes"][0] if p[0] == "CA"][0]' | tr '\n' '|')
  want='UTF-16LE|UTF-8 |é|'
  [ "$how" = raw ] && want='UTF-16LE|\UTF-8\ |é|'
  [ "$got" = "$want" ] || bad "ca.sgf${how:+ $how}: CA values '$got', want '$want'"
done
f="$edge/sgfc-testfiles__test-files__mixed-encoding.sgf"
if [ -f "$f" ]; then
  "$sgf" json "$f" >out.jsonl 2>err.txt
  got=$(get out.jsonl '[p[1] for p in g["tree"][0]["nodes"][0] if p[0] == "CA"]' | tr '\n' '|')
  [ "$got" = "['UTF-16LE']|['ISO-8859-15']|[]|['GB18030']|['SHIFT_JIS']|" ] ||
    bad "mixed-encoding: CA values $got"
fi

# ---- 4. U+0085, U+2028, U+2029 and the C1 controls as \u escapes, by
# the UTF-8 fast path, the general path (SGF_JSON_SLOW), the converter
# (ISO-8859-1: 0x85 is U+0085), --raw, the header fields, a backslash
# before one, and a file name
printf '(;CA[UTF-8]PB[a\302\205b]C[1\302\2002\302\2373\342\200\2504\342\200\2515\\\302\2056\302\240\342\200\224]GN[x\\\342\200\250])\n(;CA[ISO-8859-1]PW[c\205d\237]C[\205])\n' >sep.sgf
cp sep.sgf "$(printf 'n\302\205.sgf')"
for how in "" SLOW raw mainline name; do
  case $how in
    SLOW) SGF_JSON_SLOW=1 "$sgf" json sep.sgf ;;
    raw) "$sgf" json --raw sep.sgf ;;
    mainline) "$sgf" json --mainline sep.sgf ;;
    name) "$sgf" json "$(printf 'n\302\205.sgf')" ;;
    *) "$sgf" json sep.sgf ;;
  esac >out.jsonl 2>err.txt
  python3 - "$how" <<'EOF' || bad "sep.sgf${how:+ $how}: separators not escaped"
import json, sys
how = sys.argv[1]
data = open("out.jsonl", "rb").read()
text = data.decode("utf-8")
ok = True
for ch in ["\u0085", "\u0080", "\u009f", "\u2028", "\u2029"]:
    if ch in text:
        print("  raw U+%04X in the output" % ord(ch)); ok = False
if len(text.splitlines()) != 2:
    print("  splitlines() gives %d lines" % len(text.splitlines())); ok = False
try:
    games = [json.loads(l) for l in text.splitlines()]
except ValueError as e:
    print("  a line does not load:", e)
    sys.exit(1)
if games[0]["black"] != "a\u0085b" or games[1]["white"] != "c\u0085d\u009f":
    print("  header fields", games[0]["black"], games[1]["white"]); ok = False
if how == "name" and games[0]["source"]["file"] != "n\u0085.sgf":
    print("  file name", repr(games[0]["source"]["file"])); ok = False
if how not in ("mainline",):
    c = [p[1] for p in games[0]["tree"][0]["nodes"][0] if p[0] == "C"][0]
    want = ("1\u00802\u009f3\u20284\u20295\\\u00856\u00a0\u2014" if how == "raw"
            else "1\u00802\u009f3\u20284\u20295\u00856\u00a0\u2014")
    if c != want:
        print("  C", repr(c)); ok = False
    gn = [p[1] for p in games[0]["tree"][0]["nodes"][0] if p[0] == "GN"][0]
    if gn != ("x\\\u2028" if how == "raw" else "x\u2028"):
        print("  GN", repr(gn)); ok = False
for w in ["\\u0085", "\\u0080", "\\u009f", "\\u2028", "\\u2029"]:
    if how != "mainline" and w not in text:
        print("  no " + w); ok = False
sys.exit(0 if ok else 1)
EOF
done

# A main-line move that is not valid UTF-8 under CA[UTF-8] is written
# twice (the tree, the moves array) but reported once, where it stands:
# never a second diagnostic without a position (0:1).
printf '(;CA[UTF-8];B[aa];W[\351\351];B[cc])\n' >"$tmp/badmove.sgf"
for mode in "" --mainline; do
  "$sgf" json $mode "$tmp/badmove.sgf" >/dev/null 2>"$tmp/badmove.err"
  if grep -q ':0:' "$tmp/badmove.err"; then
    echo "FAIL: json $mode: a diagnostic without a position:"; cat "$tmp/badmove.err"; fail=1
  fi
  n=$(grep -c 'does not decode' "$tmp/badmove.err")
  if [ "$n" != 1 ]; then
    echo "FAIL: json $mode: $n decode errors for one value (want 1):"; cat "$tmp/badmove.err"; fail=1
  fi
done

exit $fail
