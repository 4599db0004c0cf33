#!/usr/bin/env python3
"""value-sgfmill.py - compare test/value_diff's facts with sgfmill's.

    value-sgfmill.py REFDIR OURSDIR SOURCE...

For each SOURCE, REFDIR/SOURCE.jsonl.xz holds sgfmill's answers (see
../shared/reference/README.md) and OURSDIR/SOURCE.jsonl ours, for the
files listed in OURSDIR/SOURCE.paths (a sample of the archives). Compared
facts: the board size, and for every node of the main line the move
(colour and point, or pass, or "does not decode") and the AB, AW, AE point
sets (compressed lists expanded). Games sgfmill rejects as a whole have no
facts to compare; they are counted apart.

Where sgfmill and FF[4] disagree, FF[4] wins: KNOWN below lists each such
difference with its reason, and a difference is counted as known only if
its test says it is that case. Any other difference fails the test.
Prints the agreement over all compared facts.
"""
import json
import lzma
import sys

# (name, reason, test(fact, ref, ours, game)) -- test says whether a
# difference of this fact is this known case.


def _is_err(v):
    return isinstance(v, dict) and "error" in v


def _raw(v):
    return v.get("raw", "") if isinstance(v, dict) else ""


def _reversed_rect(fact, ref, ours, game):
    # sgfmill requires a compressed list's corners in the order
    # upper-left:lower-right and raises otherwise; FF[4] defines the
    # rectangle by its two corners, and the value layer reads either
    # order (SGF_PTS_STRICT refuses the other one).
    if fact not in ("AB", "AW", "AE") or not _is_err(ref) or _is_err(ours):
        return False
    for v in _raw(ref).split("]["):
        if ":" in v and len(v) == 5:
            a, b = v[:2], v[3:]
            if b[0] < a[0] or b[1] < a[1]:
                return True
    return False


def _blank_in_value(fact, ref, ours, game):
    # sgfmill reads Numbers with Python's int() after dropping spaces
    # (" 19 " is 19); FF[4]'s Number has no blanks, so SZ[ 19] does not
    # decode here.
    return fact == "size" and _is_err(ours) and isinstance(ref, int)


KNOWN = [
    ("reversed-rectangle", "compressed list with corners not upper-left:"
     "lower-right: FF[4] gives a rectangle by two corners; sgfmill raises",
     _reversed_rect),
    ("blank-in-number", "FF[4] Number has no blanks; sgfmill strips them",
     _blank_in_value),
]


def load(path, opener, wanted=None):
    """The JSON lines of a file; with wanted, only those whose "path" (the
    first key) is in it, the others not parsed."""
    dec = json.JSONDecoder()
    with opener(path) as f:
        for line in f:
            if not line.strip():
                continue
            if wanted is not None:
                p = dec.raw_decode(line, line.index("\"", line.index(":")))[0]
                if p not in wanted:
                    continue
            yield json.loads(line)


def node_facts(node):
    facts = {}
    if "move_error" in node:
        facts["move"] = {"error": True}
    elif "move" in node:
        facts["move"] = node["move"]
    for k in ("AB", "AW", "AE"):
        if k in node:
            facts[k] = node[k]
    return facts


def same(a, b):
    if _is_err(a) or _is_err(b):
        return _is_err(a) and _is_err(b)
    return a == b


def main():
    refdir, oursdir, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    total = agree = 0
    known = {name: 0 for name, _, _ in KNOWN}
    unknown = []
    games = rejected_games = rejected_files = 0
    for src in sources:
        with open("%s/%s.paths" % (oursdir, src), encoding="utf-8",
                  errors="surrogateescape") as f:
            wanted = set(l.rstrip("\n") for l in f)
        ours = {}
        for o in load("%s/%s.jsonl" % (oursdir, src),
                      lambda p: open(p, encoding="utf-8",
                                     errors="surrogateescape")):
            if "game" in o:
                ours[(o["path"], o["game"])] = o
        for r in load("%s/%s.jsonl.xz" % (refdir, src),
                      lambda p: lzma.open(p, "rt", encoding="utf-8",
                                          errors="surrogateescape"), wanted):
            if "game" not in r:
                rejected_files += 1
                continue
            if "error" in r:
                rejected_games += 1
                continue
            games += 1
            o = ours.get((r["path"], r["game"]))
            where = "%s:%s game %d" % (src, r["path"], r["game"])
            if o is None:
                unknown.append((where, "game", "present", "missing"))
                continue
            pairs = [("size", r["size"], o["size"])]
            rm, om = r["main"], o["main"]
            if len(rm) != len(om):
                pairs.append(("main-length", len(rm), len(om)))
            for i in range(min(len(rm), len(om))):
                rf, of = node_facts(rm[i]), node_facts(om[i])
                for k in sorted(set(rf) | set(of)):
                    pairs.append((k, rf.get(k), of.get(k), i))
            for p in pairs:
                fact, rv, ov = p[0], p[1], p[2]
                total += 1
                if same(rv, ov):
                    agree += 1
                    continue
                for name, _, test in KNOWN:
                    if test(fact, rv, ov, r):
                        known[name] += 1
                        break
                else:
                    node = " node %d" % p[3] if len(p) > 3 else ""
                    unknown.append((where + node, fact, rv, ov))
    print("value-sgfmill: %d games compared (%d games and %d files sgfmill "
          "rejects, not compared)" % (games, rejected_games, rejected_files))
    pct = 100.0 * agree / total if total else 100.0
    print("value-sgfmill: %d of %d facts agree (%.4f%%)" % (agree, total, pct))
    for name, reason, _ in KNOWN:
        print("value-sgfmill: known difference %s: %d (%s)" %
              (name, known[name], reason))
    for u in unknown[:40]:
        print("value-sgfmill: DIFFERENT %s %s: sgfmill %s, ours %s" % u)
    if unknown:
        print("value-sgfmill: %d unexplained differences" % len(unknown))
        return 1
    print("value-sgfmill: agreement with known differences: %.4f%%" %
          (100.0 * (agree + sum(known.values())) / total if total else 100.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
