#!/usr/bin/env python3
"""sgf_merge.py - merge what `sgf` printed for the shards of a collection
into what one `sgf` run over the whole collection prints.

    sgf_merge.py stats   OUT...   # outputs of  sgf stats -t --json --no-time
    sgf_merge.py summary OUT...   # outputs of  sgf stats --summary --json --no-time
    sgf_merge.py headers OUT...   # outputs of  sgf json --headers (in shard order)
    sgf_merge.py concat  OUT...   # anything else: the outputs one after another

OUT are files ("-" for standard input); the merge goes to standard output.

stats / summary: every count is summed, max_depth is the largest, the
summary tables (results, sizes, years, rules, players) are summed key by
key and printed as sgf prints them (by count, then by key). What does not
merge: "files" is the number of inputs read (the shards, not the original
files), so it is the one field that differs from a single pass; seconds
and MB/s are left out (give sgf --no-time). A table with an "..._overflow"
count (past sgf's cap of distinct values) merges to an approximation: see
sgf(1), stats --summary.

headers: the lines in shard order. With --source NAME and --geometry FILE
(one JSON line per shard: {"bytes":..,"lines":..,"tail":..}, which
sgf_dask.py measures) each line's "source" is rewritten to what one pass
over the single plain file NAME gives (file, game, offset, line, column).
Without them the sources name the shards.

No third-party module: this is also the merge for GNU parallel and Spark
(see contrib/dask/README.md).
"""
import json
import sys

TABLES = ("results", "sizes", "years", "rules", "players")


def _add_total(into, t):
    for k, v in t.items():
        if k in ("seconds", "mb_per_s"):
            continue
        if k == "max_depth":
            into[k] = max(into.get(k, 0), v)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            into[k] = into.get(k, 0) + v
        else:
            into.setdefault(k, v)


def _sorted_table(counts):
    # sgf: by count, decreasing, then by the key's UTF-8 bytes
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].encode()))
    return dict(items)


def _length_key(k):
    return (1, 0) if k.endswith("+") else (0, int(k))


def merge_stats(docs):
    """docs: parsed `sgf stats --json` outputs (-t or --summary)."""
    total = {}
    summary = None
    for d in docs:
        _add_total(total, d["total"])
        s = d.get("summary")
        if s is None:
            continue
        if summary is None:
            summary = {"games": 0, "length_sum": 0, "lengths": {}}
            summary.update({t: {} for t in TABLES})
        summary["games"] += s["games"]
        summary["length_sum"] += s["length_sum"]
        for k, v in s["lengths"].items():
            summary["lengths"][k] = summary["lengths"].get(k, 0) + v
        for t in TABLES:
            for k, v in s.get(t, {}).items():
                summary[t][k] = summary[t].get(k, 0) + v
        for k, v in s.items():
            if k.endswith("_overflow"):
                summary[k] = summary.get(k, 0) + v
            elif k == "incomplete":
                summary[k] = True
    out = {"total": total}
    if summary is not None:
        s = {"games": summary["games"], "length_sum": summary["length_sum"],
             "lengths": dict(sorted(summary["lengths"].items(),
                                    key=lambda kv: _length_key(kv[0])))}
        for t in TABLES:
            s[t] = _sorted_table(summary[t])
            if t + "_overflow" in summary:
                s[t + "_overflow"] = summary[t + "_overflow"]
        if summary.get("incomplete"):
            s["incomplete"] = True
        out["summary"] = s
    return out


def dumps(doc):
    """As sgf prints JSON: no blanks, UTF-8."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def geometry(path):
    """What rewriting sources needs of a shard: its bytes, its line ends
    (LF, CR, CR LF: one each), and the bytes after the last one."""
    lines = 0
    tail = 0
    size = 0
    prev_cr = False
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 20)
            if not b:
                break
            size += len(b)
            n_lf = b.count(b"\n")
            n_cr = b.count(b"\r")
            n_crlf = b.count(b"\r\n") + (1 if prev_cr and b[:1] == b"\n" else 0)
            lines += n_lf + n_cr - n_crlf
            last = max(b.rfind(b"\n"), b.rfind(b"\r"))
            tail = len(b) - last - 1 if last >= 0 else tail + len(b)
            prev_cr = b[-1:] == b"\r"
    return {"bytes": size, "lines": lines, "tail": tail}


def merge_headers(outputs, source=None, geos=None):
    """outputs: the text of each shard's `sgf json --headers`, in order.
    Yields the merged lines (without newline)."""
    offset = games = line = 0
    col = 0  # bytes of the current line before the shard begins
    for k, text in enumerate(outputs):
        n = 0
        for raw in text.splitlines():
            if not raw:
                continue
            n += 1
            if source is None:
                yield raw
                continue
            d = json.loads(raw)
            src = d["source"]
            src["file"] = source
            src["game"] += games
            src["offset"] += offset
            if src["line"] == 1:
                src["column"] += col
            src["line"] += line
            yield dumps(d)
        games += n
        if geos is not None:
            g = geos[k]
            offset += g["bytes"]
            col = col + g["tail"] if g["lines"] == 0 else g["tail"]
            line += g["lines"]


def _read(name):
    if name == "-":
        return sys.stdin.buffer.read().decode("utf-8")
    with open(name, "rb") as f:
        return f.read().decode("utf-8")


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    kind, rest = argv[1], argv[2:]
    source = geos = None
    while rest and rest[0].startswith("--"):
        if rest[0] == "--source":
            source, rest = rest[1], rest[2:]
        elif rest[0] == "--geometry":
            geos = [json.loads(x) for x in _read(rest[1]).splitlines() if x]
            rest = rest[2:]
        else:
            sys.stderr.write("sgf_merge: unknown option %s\n" % rest[0])
            return 2
    texts = [_read(n) for n in rest]
    out = sys.stdout
    if kind in ("stats", "summary"):
        out.write(dumps(merge_stats([json.loads(t) for t in texts])) + "\n")
    elif kind == "headers":
        for line in merge_headers(texts, source, geos):
            out.write(line + "\n")
    elif kind == "concat":
        for t in texts:
            out.write(t)
    else:
        sys.stderr.write("sgf_merge: unknown kind %s\n" % kind)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
