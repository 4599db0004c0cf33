#!/bin/sh
# json.sh - `sgf serve --jsonl` writes each game's line as `sgf
# json` writes it: the real sample (test/data/sample, 230 files, one
# stream, and games of move runs made here) sent raw whole, raw 7 bytes a
# write (values and games split anywhere; also with SGF_JSON_SLOW in the
# server) and as one POST; every line past its "source" must be
# byte-identical to `sgf json`'s line for the same game, and the source
# the peer's, as for the game's bytes alone (game 0, offset 0, line 1,
# column 1). The server converts a game from the events of the parser
# that split the stream; `sgf json` parses it afresh. U+0085, U+2028 and
# U+2029 come out escaped. Skips (77) without serve or python3.
name=serve-json
. "${top_srcdir:-.}/test/serve/lib.sh"

# All but the UTF-16 sample: inside a UTF-8 stream its bytes are no SGF
# text, while a game's bytes alone (as serve converts them) are UTF-16
# without a mark, which the library reads as such.
find "$src/test/data/sample" -name '*.sgf' ! -name 'utf16*' | LC_ALL=C sort | while read -r f; do
  cat "$f"
  echo
done >"$tmp/stream.sgf"
# MOVE RUNS (sgfstream/parser.h) with CR LF and LF between the nodes, passes,
# points off the board and variations, for the converter's template and
# the nodes it leaves to the general path
python3 - >>"$tmp/stream.sgf" <<'EOF'
import random, sys
random.seed(5)
def run(n, size):
    return b"".join(b";" + random.choice([b"B", b"W", b"W", b"C"]) + b"[" +
                    (b"tt" if random.random() < 0.05 else
                     bytes([97 + random.randrange(size)] * 2)) + b"]" +
                    random.choice([b"", b"\n", b"\r\n"]) for _ in range(n))
for g in range(40):
    size = random.choice([9, 19, 19, 21])
    sys.stdout.buffer.write(b"(;SZ[%d]\r\n" % size + run(300, size) + b"(" +
                            run(20, size) + b")(" + run(20, size) + b"))\r\n")
EOF
# text with U+0085, U+2028 and U+2029 (UTF-8, and 0x85 in ISO-8859-1):
# the converter escapes them as sgf json does (\u0085...), by the same
# writer, or Python's splitlines() would split its lines there
printf '(;CA[UTF-8]PB[a\302\205b]C[1\342\200\2502\342\200\2513])\n' >>"$tmp/stream.sgf"
printf '(;CA[ISO-8859-1]C[x\205y])\n' >>"$tmp/stream.sgf"
"$sgf" json "$tmp/stream.sgf" >"$tmp/want.jsonl" 2>/dev/null
[ "$(wc -l <"$tmp/want.jsonl")" -gt 200 ] || bad "sgf json wrote too few lines"

# slow7: SGF_JSON_SLOW in the server, whose converter then takes no move
# runs: the connection's parser passes them as their events (conn.c)
for how in raw raw7 slow7 http; do
  rm -f "$tmp/got.jsonl"
  [ $how = slow7 ] && export SGF_JSON_SLOW=1
  start_serve --jsonl "$tmp/got.jsonl" --quarantine "$tmp/q"
  unset SGF_JSON_SLOW
  case $how in
    raw) "$sgf" send "127.0.0.1:$RAW_PORT" "$tmp/stream.sgf" ;;
    raw7 | slow7) "$sgf" send --chunk 7 "127.0.0.1:$RAW_PORT" "$tmp/stream.sgf" ;;
    http) "$sgf" send --http "127.0.0.1:$HTTP_PORT" "$tmp/stream.sgf" ;;
  esac >"$tmp/sent" 2>&1
  stop_serve
  [ "$SERVE_STATUS" -eq 0 ] || bad "$how: serve exited $SERVE_STATUS"
  python3 - "$tmp/want.jsonl" "$tmp/got.jsonl" "$how" <<'PY' || fail=1
import json, sys
want = open(sys.argv[1], "rb").read().splitlines()
got = open(sys.argv[2], "rb").read().splitlines()
how = sys.argv[3]
def split(line):
    """The source object and the bytes after it."""
    text = line.decode("utf-8")
    src, end = json.JSONDecoder().raw_decode(text, len('{"source":'))
    return src, line[len(text[:end].encode("utf-8")):]
bad = 0
# serve stores complete games only: sgf json's incomplete ones are not
# among them
want = [w for w in want if not w.endswith(b',"incomplete":true}')]
if len(got) != len(want):
    print(f"serve-json: FAIL: {how}: {len(got)} lines for {len(want)} games")
    bad = 1
for i, (w, g) in enumerate(zip(want, got)):
    ws, wrest = split(w)
    gs, grest = split(g)
    if wrest != grest:
        print(f"serve-json: FAIL: {how}: game {i} (line {ws['line']} of the stream) differs:")
        print("  sgf json: " + wrest[:300].decode("utf-8", "replace"))
        print("  serve:    " + grest[:300].decode("utf-8", "replace"))
        bad = 1
        break
    if (gs["member"], gs["game"], gs["offset"], gs["line"], gs["column"]) != (None, 0, 0, 1, 1) \
            or not gs["file"].startswith("127.0.0.1:"):
        print(f"serve-json: FAIL: {how}: game {i}: source {gs}")
        bad = 1
        break
text = b"\n".join(got).decode("utf-8")
for ch in ["\u0085", "\u2028", "\u2029"]:
    if ch in text or ("\\u%04x" % ord(ch)) not in text:
        print(f"serve-json: FAIL: {how}: U+{ord(ch):04X} not escaped")
        bad = 1
if not bad:
    print(f"serve-json: {how}: {len(got)} lines, each sgf json's for its game")
sys.exit(bad)
PY
done
exit $fail
