#!/usr/bin/env python3
"""value-sgfmill.py - compare test/corpus/value_diff's facts with sgfmill's.

    value-sgfmill.py REFDIR OURSDIR SOURCE...

For each SOURCE, REFDIR/SOURCE.jsonl.xz holds sgfmill's answers (see
../shared/reference/README.md) and OURSDIR/SOURCE.jsonl ours, for the
files listed in OURSDIR/SOURCE.paths (a sample of the archives). Compared
facts: the board size; the root node's Text and SimpleText properties
(those our property table types as text, OURSDIR/SOURCE.jsonl's first line
lists them; C is the first node's) decoded to UTF-8; and for every node of
the main line the move (colour and point, or pass, or "does not decode"),
the AB, AW, AE point sets (compressed lists expanded) and the comment C.
Games sgfmill rejects as a whole have no facts to compare; they are
counted apart.

Where sgfmill and FF[4] disagree, FF[4] wins: KNOWN below lists each such
difference with its reason, and a difference is counted as known only if
its test says it is that case. Any other difference fails the test.
Prints the agreement over all compared facts and per kind of fact.
"""
import json
import lzma
import re
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


def _as_latin1(v):
    """What sgfmill makes of our UTF-8 text when it reads its bytes as
    ISO-8859-1 (a list: each part)."""
    if isinstance(v, list):
        return [_as_latin1(x) for x in v]
    return v.encode("utf-8").decode("latin-1") if isinstance(v, str) else v


def _no_ca_utf8(fact, ref, ours, game):
    # No CA: sgfmill reads ISO-8859-1 (the FF[4] default); the issue's
    # rule (and the library's) reads text that is valid UTF-8 as UTF-8
    # (Fox and other servers write UTF-8 with no CA). The same bytes, read
    # as Latin-1, must give sgfmill's text.
    return (fact not in ("size", "move", "AB", "AW", "AE") and
            "CA" not in game["root"] and
            game["charset"] == "ISO-8859-1" and not _is_err(ours) and
            _as_latin1(ours) == ref)


def _several_values(fact, ref, ours, game):
    # A single-value text property with several values (RE[B+5][B+4], or
    # the property twice in the node, which sgfmill merges): sgfmill
    # raises; FF[4] makes it an error that sgf check reports, and the
    # value layer, like sgf_node_get_text, reads the first value. Ours
    # must be that first value (escapes resolved; as Latin-1 or UTF-8).
    if fact in ("size", "move", "AB", "AW", "AE") or not _is_err(ref) or \
            _is_err(ours):
        return False
    parts = _raw(ref).split("][")
    first = parts[0]
    if isinstance(ours, list):  # a composed value: split at its ':'
        m = re.match(r"((?:[^\\:]|\\.)*):(.*)", first, re.S)
        if not m:
            return False
        first = list(m.groups())
    unescape = lambda t: re.sub(r"\\(.)", r"\1", t, flags=re.S)
    if isinstance(first, list):
        first = [unescape(t) for t in first]
    else:
        first = unescape(first)
    return len(parts) > 1 and first in (ours, _as_latin1(ours))


def _ap_no_version(fact, ref, ours, game):
    # AP[name] with no ":version": FF[4] types AP as a composed value
    # (SimpleText ":" SimpleText), so the value layer refuses it; sgfmill
    # permits the missing version and gives "".
    return (fact == "AP" and _is_err(ours) and isinstance(ref, list) and
            len(ref) == 2 and ref[1] == "")


def _lines_as_lf(fact, ref, ours, game):
    # Text: FF[4] keeps line breaks as written ("linebreaks ... are
    # preserved"), so a CR LF written is a CR LF read; sgfmill turns every
    # CR LF, LF CR and lone CR into LF.
    return (isinstance(ours, str) and "\r" in ours and
            re.sub("\n\r|\r\n|\r", "\n", ours) == ref)


KNOWN = [
    ("reversed-rectangle", "compressed list with corners not upper-left:"
     "lower-right: FF[4] gives a rectangle by two corners; sgfmill raises",
     _reversed_rect),
    ("blank-in-number", "FF[4] Number has no blanks; sgfmill strips them",
     _blank_in_value),
    ("no-ca-utf8", "no CA: text that is valid UTF-8 is read as UTF-8 "
     "(servers write UTF-8 with no CA); sgfmill reads ISO-8859-1",
     _no_ca_utf8),
    ("several-values", "several values of a single-value text property: "
     "FF[4] error (sgf check reports it), the first value is read; "
     "sgfmill raises", _several_values),
    ("ap-no-version", "AP without ':version': FF[4]'s AP is composed, the "
     "value does not decode; sgfmill gives the version as ''",
     _ap_no_version),
    ("line-breaks-kept", "Text keeps line breaks as written (FF[4]); "
     "sgfmill turns CR LF, LF CR and CR into LF", _lines_as_lf),
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
    for k in ("AB", "AW", "AE", "C"):
        if k in node:
            facts[k] = node[k]
    return facts


def kind(fact):
    """The kind of fact agreement is reported for."""
    if fact in ("move", "main-length"):
        return "moves"
    if fact in ("AB", "AW", "AE"):
        return "setup points"
    if fact == "C":
        return "main-line C"
    if fact == "size":
        return "board size"
    return "root text"


def same(a, b):
    if _is_err(a) or _is_err(b):
        return _is_err(a) and _is_err(b)
    return a == b


KINDS = ("board size", "moves", "setup points", "root text", "main-line C")


def main():
    refdir, oursdir, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    total = {k: 0 for k in KINDS}
    agree = {k: 0 for k in KINDS}
    known = {name: 0 for name, _, _ in KNOWN}
    unknown = []
    games = rejected_games = rejected_files = 0
    for src in sources:
        with open("%s/%s.paths" % (oursdir, src), encoding="utf-8",
                  errors="surrogateescape") as f:
            wanted = set(l.rstrip("\n") for l in f)
        ours = {}
        text_props = None
        for o in load("%s/%s.jsonl" % (oursdir, src),
                      lambda p: open(p, encoding="utf-8",
                                     errors="surrogateescape")):
            if "game" in o:
                ours[(o["path"], o["game"])] = o
            elif "text_props" in o:
                text_props = set(o["text_props"]) - {"C"}
        if text_props is None:
            unknown.append((src, "text_props", "listed", "missing"))
            continue
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
            rt, ot = r["root"], o["root"]
            for k in sorted((set(rt) & text_props) | set(ot)):
                pairs.append((k, rt.get(k), ot.get(k)))
            rm, om = r["main"], o["main"]
            if len(rm) != len(om):
                pairs.append(("main-length", len(rm), len(om)))
            for i in range(min(len(rm), len(om))):
                rf, of = node_facts(rm[i]), node_facts(om[i])
                for k in sorted(set(rf) | set(of)):
                    pairs.append((k, rf.get(k), of.get(k), i))
            for p in pairs:
                fact, rv, ov = p[0], p[1], p[2]
                total[kind(fact)] += 1
                if same(rv, ov):
                    agree[kind(fact)] += 1
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
    for k in KINDS + (None,):
        t = sum(total.values()) if k is None else total[k]
        a = sum(agree.values()) if k is None else agree[k]
        print("value-sgfmill: %s: %d of %d agree (%.4f%%)" %
              (k or "all facts", a, t, 100.0 * a / t if t else 100.0))
    for name, reason, _ in KNOWN:
        print("value-sgfmill: known difference %s: %d (%s)" %
              (name, known[name], reason))
    for u in unknown[:40]:
        print("value-sgfmill: DIFFERENT %s %s: sgfmill %r, ours %r" % u)
    if unknown:
        print("value-sgfmill: %d unexplained differences" % len(unknown))
        return 1
    t, a = sum(total.values()), sum(agree.values())
    print("value-sgfmill: agreement with known differences: %.4f%%" %
          (100.0 * (a + sum(known.values())) / t if t else 100.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
