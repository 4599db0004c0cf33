# ackcheck.py - shared by test/serve/diskfull.sh and
# test/serve/crash.sh: the games they send, and the check of a sink file
# against what the server acknowledged.
#
#   games FILE N FIRST      write N games, numbered from FIRST, one a line:
#                           each carries a tag t<number>x in GN
#   check KIND SINK GAMES... ACKS...
#                           KIND jsonl or out; GAMES files of games sent,
#                           ACKS the answers of `sgf send -v` (raw) for
#                           them, given as GAMES=ACKS pairs. Every record
#                           of SINK must be whole (a JSON line, or one of
#                           the games sent, byte for byte, then a newline),
#                           no game twice, and every game acknowledged
#                           "stored" in it, none reported "failed"
#                           in it. Prints what it found; exit 1
#                           on a failure.
import json
import re
import sys

TAG = re.compile(rb"t\d{6}x")


def game(i):
    # some nodes, a comment: about 400 bytes
    moves = b"".join(b";B[%c%c];W[%c%c]" % (97 + (i + k) % 19, 97 + k % 19,
                                            97 + k % 19, 97 + (i * k) % 19)
                     for k in range(20))
    return b"(;GM[1]FF[4]SZ[19]GN[t%06dx]C[game %d of a test]%s)" % (i, i, moves)


def main():
    if sys.argv[1] == "games":
        n, first = int(sys.argv[3]), int(sys.argv[4])
        with open(sys.argv[2], "wb") as f:
            for i in range(first, first + n):
                f.write(game(i) + b"\n")
        return 0
    kind, sink, pairs = sys.argv[2], sys.argv[3], sys.argv[4:]
    sent = {}   # tag -> game bytes
    acked = set()
    failed = set()
    for pair in pairs:
        gfile, afile = pair.split("=", 1)
        lines = open(gfile, "rb").read().split(b"\n")
        games = [g for g in lines if g]
        for g in games:
            sent[TAG.search(g).group()] = g
        offsets = {}
        at = 0
        for g in games:
            offsets[at] = g
            at += len(g) + 1
        for line in open(afile, "rb").read().split(b"\n"):
            w = line.split()
            if len(w) == 4 and w[0] == b"stored":
                acked.add(TAG.search(offsets[int(w[2])]).group())
            if len(w) == 4 and w[0] == b"failed":
                failed.add(TAG.search(offsets[int(w[2])]).group())
    data = open(sink, "rb").read()
    bad = 0
    if data and not data.endswith(b"\n"):
        print(f"FAIL: {sink} ends inside a record: {data[-60:]!r}")
        bad = 1
    seen = {}
    shown = 0

    def say(msg):
        nonlocal shown
        shown += 1
        if shown <= 5:
            print(msg)

    for n, rec in enumerate(data.split(b"\n")[:-1] if data else []):
        if kind == "jsonl":
            try:
                json.loads(rec)
            except ValueError:
                say(f"FAIL: line {n + 1} is not JSON: {rec[:60]!r}...{rec[-60:]!r}")
                bad = 1
                continue
            tags = sorted(set(TAG.findall(rec)))
            if len(tags) != 1 or tags[0] not in sent:
                say(f"FAIL: line {n + 1} is not one game sent: {rec[-80:]!r}")
                bad = 1
                continue
        else:
            tags = TAG.findall(rec)
            if len(tags) != 1 or sent.get(tags[0]) != rec:
                say(f"FAIL: record {n + 1} is not one game sent: {rec[:60]!r}...{rec[-60:]!r}")
                bad = 1
                continue
        seen[tags[0]] = seen.get(tags[0], 0) + 1
    twice = [t for t, k in seen.items() if k > 1]
    if twice:
        print(f"FAIL: {len(twice)} games stored more than once: {twice[:3]}")
        bad = 1
    lost = sorted(acked - set(seen))
    if lost:
        print(f"FAIL: {len(lost)} games acknowledged are not in {sink}: {lost[:3]}")
        bad = 1
    wrong = sorted(failed & set(seen))
    if wrong:
        print(f"FAIL: {len(wrong)} games reported failed are in {sink}: {wrong[:3]}")
        bad = 1
    if not acked:
        print("FAIL: no game was acknowledged")
        bad = 1
    print(f"{len(acked)} games acknowledged, {len(failed)} failed, "
          f"{len(seen)} records in the sink")
    return bad


sys.exit(main())
