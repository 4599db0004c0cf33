#!/bin/sh
# json.sh - `sgf json` (sgf(1), JSON SCHEMA):
#   every line loads with Python's json (and jq when installed) and holds
#   as many nodes and properties per input as `sgf stats` counts;
#   --headers gives exactly the header fields of the full output, and
#   --mainline exactly its moves; text is UTF-8 per the game's CA, also
#   when CA follows the text in the root node, per game of a collection,
#   by --charset and by --guess (a warning when it overrules CA); bytes
#   that do not decode are an error at their line and column; --raw keeps
#   values as written; 100,000 nested variations are written without
#   recursion (and an over-deep tree still gives a closed line); the
#   fast paths of common values write what the general path writes.
# The charset files of ../shared/corpus/edge are checked against what
# iconv(1) makes of their bytes; without ../shared those checks are
# skipped with a message, as the jq checks are without jq, and the test
# passes on the checks that ran.
# Skips (77) when the sgf tool is not built or python3 is missing (every
# check reads the output with Python).
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
sgf="$top_builddir/sgf"
if [ ! -x "$sgf" ]; then
  echo "tool-json: $sgf not built (--disable-tools?): skipped"
  exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
  echo "tool-json: no python3: skipped"
  exit 77
fi
sgf="$(cd "$top_builddir" && pwd)/sgf"
src="$(cd "$top_srcdir" && pwd)"
shared="$src/../shared/corpus"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sgf-json.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp" || exit 99
fail=0

bad() {
  echo "FAIL: $1"
  [ -s err.txt ] && sed 's/^/  stderr: /' err.txt | head -5
  fail=1
}

# The checker: python3 check.py MODE ARGS (see each mode below).
cat >check.py <<'EOF'
import json, subprocess, sys

def lines(path):
    with open(path, encoding="utf-8") as f:  # strict: invalid UTF-8 fails
        return [json.loads(l) for l in f]

def count(game):
    """nodes and properties of a game's tree"""
    nodes = props = 0
    for e in game["tree"]:
        nodes += len(e["nodes"])
        props += sum(len(n) for n in e["nodes"])
    return nodes, props

HEAD = ["black", "white", "black_rank", "white_rank", "result", "date",
        "komi", "handicap", "size", "rules", "event", "round", "place",
        "game_name"]

mode = sys.argv[1]
if mode == "counts":  # FULL.jsonl STATS.json: per input, as stats counts
    games = lines(sys.argv[2])
    stats = json.load(open(sys.argv[3]))["files"]
    per = {}
    for g in games:
        s = g["source"]
        name = s["file"] + (":" + s["member"] if s["member"] else "")
        n, p = count(g)
        a = per.setdefault(name, [0, 0, 0])
        a[0] += 1; a[1] += n; a[2] += p
        for k in HEAD + ["moves"]:
            assert k in g, (name, k)
    bad = 0
    for f in stats:
        if f["games"] == 0 and f["errors"] > 0 and per.get(f["name"]):
            # unreadable to stats but read by json (none left: both read
            # UTF-16 now; tested below)
            print("  %s: not compared (stats: unreadable)" % f["name"])
            continue
        got = per.get(f["name"], [0, 0, 0])
        want = [f["games"], f["nodes"], f["properties"]]
        if got != want:
            print("  %s: json %s, stats %s" % (f["name"], got, want))
            bad += 1
    print("  %d inputs, %d games compared" % (len(stats), len(games)))
    sys.exit(1 if bad else 0)
elif mode == "headers":  # FULL HEADERS MAINLINE
    full, head, main = (lines(p) for p in sys.argv[2:5])
    assert len(full) == len(head) == len(main), (len(full), len(head), len(main))
    for f, h, m in zip(full, head, main):
        want = {k: v for k, v in f.items() if k not in ("tree", "moves")}
        assert h == want, (h, want)
        assert m["moves"] == f["moves"], f["source"]
        assert "tree" not in m and "tree" not in h
elif mode == "get":  # FILE EXPR: print eval(EXPR) for each line, g the game
    for g in lines(sys.argv[2]):
        print(eval(sys.argv[3]))
elif mode == "allC":  # FILE: each game's C values in file order
    for g in lines(sys.argv[2]):
        print(json.dumps([p[1] for e in g["tree"] for n in e["nodes"]
                          for p in n if p[0] == "C"], ensure_ascii=False))
elif mode == "rawC":  # FILE CHARSET: the C values of FILE through iconv
    import re
    data = open(sys.argv[2], "rb").read()
    out = []
    for v in re.findall(rb"\bC\[((?:\\.|[^\\\]])*)\]", data, re.S):
        raw = re.sub(rb"\\(.)", rb"\1", v, flags=re.S)
        out.append(subprocess.run(
            ["iconv", "-f", sys.argv[3], "-t", "UTF-8"], input=raw,
            capture_output=True, check=True).stdout.decode("utf-8"))
    print(json.dumps(out, ensure_ascii=False))
elif mode == "same":  # A B: the same games but for "source"
    a, b = lines(sys.argv[2]), lines(sys.argv[3])
    assert len(a) == len(b) and len(a) > 0, (len(a), len(b))
    for x, y in zip(a, b):
        x.pop("source"); y.pop("source")
        assert x == y, (x, y)
elif mode == "deep":  # FILE N: N entries, each the child of the one before
    g = lines(sys.argv[2])[0]
    t = g["tree"]
    assert len(t) == int(sys.argv[3]), len(t)
    assert all(e["parent"] == i - 1 for i, e in enumerate(t[1:], 1))
else:
    sys.exit("unknown mode " + mode)
EOF

have_jq=0
if command -v jq >/dev/null 2>&1; then
  have_jq=1
else
  echo "tool-json: no jq: the lines are loaded with Python only"
fi
# valid FILE: every line loads (python, and jq)
valid() {
  python3 check.py get "$1" 1 >/dev/null || return 1
  if [ $have_jq = 1 ]; then
    jq -c . "$1" >/dev/null || return 1
  fi
  return 0
}

# ---- 1. counts, headers and main line against `sgf stats` over samples
inputs="$src/test/data/sample"
[ -d "$shared/dev" ] && inputs="$inputs $shared/dev"
# shellcheck disable=SC2086
"$sgf" json $inputs >full.jsonl 2>err.txt
# shellcheck disable=SC2086
"$sgf" stats --json --no-time $inputs >stats.json 2>/dev/null
valid full.jsonl || bad "the full output does not load"
python3 check.py counts full.jsonl stats.json ||
  bad "nodes / properties differ from sgf stats"
# shellcheck disable=SC2086
"$sgf" json --headers $inputs >head.jsonl 2>/dev/null
# shellcheck disable=SC2086
"$sgf" json --mainline $inputs >main.jsonl 2>/dev/null
valid head.jsonl && valid main.jsonl || bad "--headers/--mainline do not load"
python3 check.py headers full.jsonl head.jsonl main.jsonl ||
  bad "--headers / --mainline differ from the full output"
# ... also when the parser gets the input a byte at a time
"$sgf" json --chunk=1 "$src/test/data/sample" >chunk.jsonl 2>/dev/null
"$sgf" json "$src/test/data/sample" >whole.jsonl 2>/dev/null
cmp -s chunk.jsonl whole.jsonl || bad "--chunk=1 changes the output"

# ---- 2. charsets: CA after the text, per game, override, errors
sjis=$(printf '\214\351' | iconv -f SHIFT_JIS -t UTF-8)   # 碁
printf '(;C[\214\351]PB[\214\351]CA[Shift_JIS];B[aa]C[\214\351])(;PB[\214\351])' \
  >ca.sgf
"$sgf" json ca.sgf >out.jsonl 2>err.txt
rc=$?
[ $rc = 0 ] || bad "CA after text: exit $rc"
got=$(python3 check.py get out.jsonl 'g["black"]')
want=$(printf '%s\n%s' "$sjis" "$(printf '\302\214\303\251')")
[ "$got" = "$want" ] ||
  bad "CA after text / per game: black '$got', want '$want'"
got=$(python3 check.py allC out.jsonl | sed -n 1p)
[ "$got" = "[\"$sjis\", \"$sjis\"]" ] || bad "CA after text: C $got, want $sjis"
# a Shift_JIS second byte '\', written unescaped (the parser decides the
# ']') and escaped
printf '(;CA[SJIS]PB[\220\\]PW[\220\\\\x])' >dbcs.sgf
"$sgf" json dbcs.sgf >out.jsonl 2>err.txt
got=$(python3 check.py get out.jsonl 'g["black"] + "/" + g["white"]')
want=$(printf '\220\\/\220\\x' | iconv -f SHIFT_JIS -t UTF-8)
[ "$got" = "$want" ] || bad "Shift_JIS second byte '\\': '$got', want '$want'"
# --charset overrides CA and the lack of one
"$sgf" json --charset=Shift_JIS ca.sgf >out.jsonl 2>err.txt
got=$(python3 check.py get out.jsonl 'g["black"]' | tail -1)
[ "$got" = "$sjis" ] || bad "--charset: '$got', want '$sjis'"
"$sgf" json --charset=no-such-charset ca.sgf >out.jsonl 2>err.txt
rc=$?
[ $rc = 2 ] || bad "--charset=no-such-charset: exit $rc, want 2"
# bytes that do not decode: an error at the byte, written as ISO-8859-1
printf '(;CA[UTF-8]\nPB[ok\377]C[x])' >bad.sgf
"$sgf" json bad.sgf >out.jsonl 2>err.txt
rc=$?
[ $rc = 2 ] || bad "undecodable text: exit $rc, want 2"
grep -q '^bad.sgf:2:6: error: text does not decode as UTF-8' err.txt ||
  bad "undecodable text: no error at 2:6"
got=$(python3 check.py get out.jsonl 'g["black"]')
[ "$got" = "$(printf 'ok\303\277')" ] || bad "undecodable text: '$got'"
valid out.jsonl || bad "undecodable text: the line does not load"
# --guess overrules a CA the text is not in, with a warning
printf '(;CA[UTF-8]PB[\326\320\271\372])' >guess.sgf
"$sgf" json --guess guess.sgf >out.jsonl 2>err.txt
rc=$?
[ $rc = 1 ] || bad "--guess over CA: exit $rc, want 1"
grep -q 'warning: text read as GB18030' err.txt || bad "--guess: no warning"
got=$(python3 check.py get out.jsonl 'g["black"]')
want=$(printf '\326\320\271\372' | iconv -f GB18030 -t UTF-8)
[ "$got" = "$want" ] || bad "--guess: '$got', want '$want'"
# --raw: values as written; escapes, quotes, control characters in JSON
printf '(;C[a\\]b "q"\tx]SZ[19];B[pd]KM[6.5])' >raw.sgf
"$sgf" json --raw raw.sgf >out.jsonl 2>err.txt
got=$(python3 check.py get out.jsonl 'g["tree"][0]["nodes"][0][0][1]')
[ "$got" = "$(printf 'a\\]b "q"\tx')" ] || bad "--raw: C is '$got'"
got=$(python3 check.py get out.jsonl 'repr(g["tree"][0]["nodes"][1][1][1])')
[ "$got" = "'6.5'" ] || bad "--raw: KM is $got, not a string"
"$sgf" json raw.sgf >out.jsonl 2>err.txt
got=$(python3 check.py get out.jsonl 'repr(g["tree"][0]["nodes"][1])')
[ "$got" = "[['B', 'pd'], ['KM', 6.5]]" ] || bad "typed: '$got'"

# a move letter past 'z' on a board over 26 ('{' follows 'z' in ASCII)
# is not a point: its raw text with a warning, never the point "Aa"; the
# moves the fast path writes, whole or fed a byte at a time
printf '(;SZ[30];B[{a];W[Ab];B[dd])' >wide.sgf
for chunk in 65536 1; do
  "$sgf" json --chunk=$chunk wide.sgf >out.jsonl 2>err.txt
  rc=$?
  [ $rc = 1 ] || bad "B[{a] on 30x30, --chunk=$chunk: exit $rc, want 1"
  got=$(python3 check.py get out.jsonl 'repr(g["moves"])')
  [ "$got" = "[['B', '{a'], ['W', 'Ab'], ['B', 'dd']]" ] ||
    bad "B[{a] on 30x30, --chunk=$chunk: moves $got"
done
grep -q '^wide.sgf:1:12: warning: B: not a valid move value' err.txt ||
  bad "B[{a] on 30x30: no positioned warning: $(cat err.txt)"

# UTF-16 input (a mark or none, either order, any chunking): read as
# the same text in UTF-8 would be, CA aside, with a warning
printf '(;CA[UTF-16LE]PB[h\303\251]C[\350\252\236 \360\237\230\200];B[aa])' >u8.sgf
"$sgf" json --charset=UTF-8 u8.sgf >u8.jsonl 2>err.txt
for enc in UTF-16 UTF-16LE UTF-16BE; do
  iconv -f UTF-8 -t $enc u8.sgf >u16.sgf
  for chunk in 1 3 65536; do
    "$sgf" json --chunk=$chunk u16.sgf >u16.jsonl 2>err.txt
    rc=$?
    [ $rc = 1 ] || bad "$enc input: exit $rc, want 1 (a warning)"
    python3 check.py same u8.jsonl u16.jsonl ||
      bad "$enc input, --chunk=$chunk: not the text of the UTF-8 file"
  done
done
printf '\377\376(\000;\000\000\334)\000' >bad16.sgf # a lone low surrogate
"$sgf" json bad16.sgf >out.jsonl 2>err.txt
rc=$?
[ $rc = 2 ] || bad "invalid UTF-16: exit $rc, want 2"
# positioned in the converted text: after "(;", where the character was
grep -q '^bad16.sgf:1:3: fatal: .*\[utf16-invalid\]' err.txt ||
  bad "invalid UTF-16: no positioned error: $(cat err.txt)"

# ---- exit statuses and help
mkdir empty
"$sgf" json empty >out.jsonl 2>err.txt
rc=$?
[ $rc = 3 ] || bad "a directory without .sgf: exit $rc, want 3"
[ -s out.jsonl ] && bad "a directory without .sgf: output"
"$sgf" json --help >out.txt 2>err.txt
rc=$?
[ $rc = 0 ] && head -1 out.txt | grep -q '^usage: sgf json' ||
  bad "sgf json --help: exit $rc"
"$sgf" json --no-such-option >out.txt 2>err.txt
rc=$?
[ $rc = 2 ] || bad "unknown option: exit $rc, want 2"
# a truncated game: closed by the parser with a warning, still one line
printf '(;PB[x];B[aa]' | "$sgf" json >out.jsonl 2>err.txt
rc=$?
[ $rc = 1 ] || bad "unclosed game: exit $rc, want 1"
valid out.jsonl || bad "unclosed game: the line does not load"

# ---- 3. deep trees: no recursion in the writer
python3 -c '
import sys
n = 100000
sys.stdout.write("(;B[aa]" + "(;W[bb]" * n + ")" * (n + 1))' >deep.sgf
"$sgf" json --max-depth=200000 deep.sgf >deep.jsonl 2>err.txt
rc=$?
[ $rc = 0 ] || bad "100,000 nested variations: exit $rc"
python3 check.py deep deep.jsonl 100001 ||
  bad "100,000 nested variations: wrong output"
# past the parser's depth limit: an error, and still a closed line
"$sgf" json deep.sgf >deep.jsonl 2>err.txt
rc=$?
[ $rc = 2 ] || bad "over-deep tree: exit $rc, want 2"
python3 check.py deep deep.jsonl 10000 || bad "over-deep tree: bad line"
grep -q '"incomplete":true' deep.jsonl || bad "over-deep tree: not marked"

# ---- 4. the charset files of the shared corpus against iconv(1)
edge="$shared/edge"
if [ ! -d "$edge" ]; then
  echo "tool-json: no $edge: the charset files of the corpus skipped"
else
  # FILE CHARSET: the last comment of the main line, as iconv reads it
  check_c() {
    f="$edge/$1"
    [ -f "$f" ] || { bad "$1 missing from the corpus"; return; }
    "$sgf" json $3 "$f" >out.jsonl 2>err.txt
    valid out.jsonl || bad "$1: does not load"
    got=$(python3 check.py allC out.jsonl)
    want=$(python3 check.py rawC "$f" "$2")
    [ -n "$want" ] && [ "$got" = "$want" ] ||
      bad "$1: C '$got', want '$want'"
  }
  check_c libsgfcplusplus__test__test-files__encoding-japanese-shiftjis.sgf \
    SHIFT_JIS
  check_c libsgfcplusplus__test__test-files__encoding-traditionalchinese-big5.sgf \
    BIG5
  check_c libsgfcplusplus__test__test-files__encoding-japanese-iso2022jp.sgf \
    ISO-2022-JP
  check_c libsgfcplusplus__test__test-files__encoding-western-macosroman.sgf \
    MACINTOSH
  check_c libsgfcplusplus__test__test-files__encoding-utf8-withbom.sgf UTF-8
  # no CA: GB18030 by --guess, ISO-8859-1 without
  check_c sabaki-sgf__tests__sgf__no-ca.sgf GB18030 --guess
  f="$edge/sabaki-sgf__tests__sgf__utf8bom.sgf"
  "$sgf" json --headers "$f" >out.jsonl 2>err.txt
  got=$(python3 check.py get out.jsonl 'g["white"]')
  [ "$got" = "Go Seigen" ] || bad "utf8bom: white '$got'"
  # UTF-16 files, with and without a mark, as iconv reads them
  for f in "$edge"/*utf16*.sgf; do
    enc=UTF-16 # with a mark; glibc takes a file without one as LE
    [ "$(head -c 1 "$f" | od -An -tx1 | tr -d ' ')" = 00 ] && enc=UTF-16BE
    iconv -f $enc -t UTF-8 "$f" >u8.sgf 2>/dev/null || {
      bad "iconv cannot read $f"; continue; }
    "$sgf" json --charset=UTF-8 u8.sgf >u8.jsonl 2>/dev/null
    "$sgf" json "$f" >u16.jsonl 2>err.txt
    python3 check.py same u8.jsonl u16.jsonl || bad "$f: not as iconv reads it"
  done
  # one CA per game: UTF-16LE, ISO-8859-15, none, GB18030, Shift_JIS
  f="$edge/sgfc-testfiles__test-files__mixed-encoding.sgf"
  "$sgf" json "$f" >out.jsonl 2>err.txt
  valid out.jsonl || bad "mixed-encoding: does not load"
  python3 check.py allC out.jsonl >got.txt
  { echo '["hallö! DÜ! ßüper dich zu s€h€n-"]'
    echo '["hallö! DÜ! ßüper dich zu s€h€n-"]'
    printf '["s\244h\244n"]\n' | iconv -f ISO-8859-1 -t UTF-8
  } >want.txt
  sed -n 1,3p got.txt >got3.txt
  cmp -s got3.txt want.txt ||
    bad "mixed-encoding: $(tr '\n' '|' <got3.txt), want $(tr '\n' '|' <want.txt)"
  grep -q '趙 治勲' got.txt && grep -q '조치훈' got.txt ||
    bad "mixed-encoding: the GB18030 game is '$(sed -n 4p got.txt)'"
  [ "$(sed -n 5p got.txt)" = '["Yen: \\"]' ] ||
    bad "mixed-encoding: the Shift_JIS game is '$(sed -n 5p got.txt)'"
  # Nihon Ki-in: Shift_JIS with no CA, by --guess
  f="$edge/sabaki-sgf__tests__sgf__encoding__nihon-kiin.sgf"
  "$sgf" json --headers --guess "$f" >out.jsonl 2>err.txt
  # (PB: 0x905C and 0x835C, their second byte an unescaped backslash)
  got=$(python3 check.py get out.jsonl \
        'g["place"] + "/" + g["white_rank"] + "/" + g["black"]')
  want=$(printf '\212\330\215\221\212\373\211@/\213\343\222i/\220\\\341\301\203\\' |
         iconv -f SHIFT_JIS -t UTF-8)
  [ "$got" = "$want" ] || bad "nihon-kiin --guess: '$got', want '$want'"
fi

# ---- 5. the fast paths (moves, points, Reals, UTF-8 text decoded and
# escaped in one pass, text that needs no decoding) write what the
# general path writes: SGF_JSON_SLOW leaves them out. On the test cases,
# the edge files, and values made for it.
{
  for v in 300.0 0.0 -0.0 0.50 -0.50 1. 1.0.0 .50 00.0 0.000 10.000000 \
    1.2345678901234560 123456789012345.0 1234567890123456.0 +1.0 1e5 6.5 \
    -0 -1.10 5.00000010 1.2300000 99999999999999.90 '' x0 -.0; do
    printf '(;FF[4]KM[%s]BL[%s];B[aa]BL[%s]WL[%s])\n' "$v" "$v" "$v" "$v"
  done
  printf '(;FF[4]SZ[9]AB[aa][ii][jj][tt][Aa][a]AW[aa:cc][]TB[]TR[bb]'
  printf 'C[tab\there\\\\ \\]end]GN[a\nb\\\nc]MN[x];B[tt]W[ia]'
  printf 'C[line\r\nCR LF\\\r\nsoft "q" \033esc]N[ \f\v]LB[aa:x]SQ[ab])\n'
  printf '(;SZ[25]AB[tt][yy][zz];B[tt]W[zz]C[\351t\351])\n'
} >fast.sgf
# text of random pieces (escapes, soft and hard line breaks, blanks,
# quotes, control bytes, UTF-8 and bytes that are not) under several CAs
python3 - >>fast.sgf <<'EOF'
import random, sys
random.seed(17)
pieces = [b"\\", b"\\]", b"\\\\", b"\r", b"\n", b"\r\n", b"\n\r", b"\t",
          b"\x0b", b"\x0c", b'"', b"\x01", b"\x1f", b"\x7f", b"\xc3\xa9",
          b"\xe8\xb6\x99", b"\xc3", b"\xa9", b"\x81\\", b"\x81", b"abc", b" ",
          b":", b"\\\r\n", b"\\\n\r", b"\\\t", b"\\\r", b"\\\n"]
def val():
    v = b"".join(random.choice(pieces) for _ in range(random.randint(0, 12)))
    if v.endswith(b"\\") and not v.endswith(b"\\\\"):
        v += b"x"
    return v.replace(b"]", b"\\]").replace(b"\\\\]", b"\\]")
for g in range(300):
    ca = random.choice([b"", b"CA[UTF-8]", b"CA[utf8]", b"CA[ISO-8859-1]",
                        b"CA[GB2312]", b"CA[Shift_JIS]", b"CA[bogus]"])
    sys.stdout.buffer.write(b"(;FF[4]" + ca + b"PB[" + val() + b"]GN[" + val()
        + b"]C[" + val() + b"];B[aa]C[" + val() + b"]N[" + val() + b"])\n")
EOF
for f in "$src"/test/cases/*/input.sgf "$shared"/edge/*.sgf fast.sgf; do
  [ -f "$f" ] || continue
  for mode in "" --mainline --guess; do
    "$sgf" json $mode "$f" >fast.out 2>&1
    echo "exit $?" >>fast.out
    SGF_JSON_SLOW=1 "$sgf" json $mode "$f" >slow.out 2>&1
    echo "exit $?" >>slow.out
    cmp -s fast.out slow.out || bad "$f${mode:+ $mode}: the fast paths differ"
  done
done

# ---- 6. MOVE RUNS (sgfstream/parser.h): runs of plain move nodes in one call,
# written from a template, and the nodes it does not take (the root, the
# first of a variation, a pass "tt", a point off the board, another
# letter, text that does not decode, positioned in the run) the general
# way: the same bytes as SGF_JSON_SLOW (no runs), with LF, CR LF or
# nothing between the nodes, runs cut by --chunk or a pipe anywhere.
python3 - >runs.sgf <<'EOF'
import random, sys
random.seed(23)
out = sys.stdout.buffer
def run(n, size):
    s = []
    for i in range(n):
        c = random.choice(b"BW" * 20 + b"CXA")
        if random.random() < 0.08:
            v = random.choice([b"tt", b"zz", b"Aa", b"a{", b"\xc3\xa9",
                               b"\xff\xfe", b"ab"])
        else:
            v = bytes([97 + random.randrange(size), 97 + random.randrange(size)])
        s.append(b";" + bytes([c]) + b"[" + v + b"]" +
                 random.choice([b"", b"\n", b"\r\n"]))
    return b"".join(s)
for g in range(60):
    size = random.choice([19, 19, 9, 13, 21, 25])
    ca = random.choice([b"", b"CA[UTF-8]", b"CA[Shift_JIS]"])
    nl = random.choice([b"\n", b"\r\n"])
    root = random.choice([b"(;FF[4]" + ca + b"SZ[%d]" % size + nl, b"(",
                          b"(;GM[1]" + ca])
    body = run(random.randint(1, 400), size)
    if random.random() < 0.5:  # variations: not on the main line
        body += (b"(" + run(random.randint(1, 80), size) + b"C[x])(" +
                 run(random.randint(1, 80), size) + b")")
    out.write(root + body + b")" + nl)
EOF
printf '(;SZ[19]\r\n;B[pd]\r\n;W[dd]\r\n;B[tt]\r\n;W[pp]\r\n;B[dp]\r\n)\n' >>runs.sgf
printf '(;SZ[9]CA[UTF-8]\n;B[ee];W[qd];B[cc]\n;W[gg];C[\377\376];B[aa])\n' >>runs.sgf
for mode in "" --mainline; do
  SGF_JSON_SLOW=1 "$sgf" json $mode runs.sgf >slow.out 2>&1
  echo "exit $?" >>slow.out
  [ -n "$mode" ] ||
    grep -q 'runs.sgf:[1-9][0-9]*:10: error: text does not decode as UTF-8' slow.out ||
    bad "runs.sgf: no positioned error to compare"
  for chunk in 65536 1 5 7 13 64 100; do
    "$sgf" json $mode --chunk=$chunk runs.sgf >fast.out 2>&1
    echo "exit $?" >>fast.out
    cmp -s fast.out slow.out ||
      bad "runs.sgf${mode:+ $mode} --chunk=$chunk: move runs differ from the general path"
  done
  # from a pipe, in the pieces a writer makes
  python3 -c '
import sys
d = open("runs.sgf", "rb").read()
for i in range(0, len(d), 999):
    sys.stdout.buffer.write(d[i:i + 999]); sys.stdout.flush()' |
    "$sgf" json $mode >fast.raw 2>&1
  echo "exit $?" >>fast.raw
  sed 's/<stdin>/runs.sgf/g' fast.raw >fast.out
  cmp -s fast.out slow.out ||
    bad "runs.sgf${mode:+ $mode} from a pipe: move runs differ from the general path"
done

exit $fail
