#!/usr/bin/env python3
"""bench/python-stream.py - sgfstream.games() and sgfstream.headers() on
one file, timed in the process (no interpreter start counted).

    PYTHONPATH=<sgfstream build> python3 bench/python-stream.py FILE
        [--reps N] [--results FILE]

games + moves: every game of FILE read by sgfstream.games(FILE) with its
main line's moves as an array (game.moves()); headers: every game's header
dict (sgfstream.headers(FILE)). Each row is the best of --reps runs, by
wall time, and by CPU time (time.process_time) in a row "LABEL cpu".
--results FILE appends them to a bench/run results file (bench/util.h's
format: name bytes seconds games files peak kind). Both rows must count
the same games.
"""

import argparse
import os
import sys
import time


def games_moves(path, sgfstream):
    n = moves = 0
    for g in sgfstream.games(path):
        n += 1
        moves += len(g.moves())
    return n


def headers(path, sgfstream):
    n = 0
    for _ in sgfstream.headers(path):
        n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--results", metavar="FILE")
    args = ap.parse_args()
    import sgfstream
    size = os.path.getsize(args.file)
    with open(args.file, "rb") as f:  # into the page cache
        while f.read(1 << 20):
            pass
    rows = []
    for label, fn in (("py games+moves", games_moves),
                      ("py headers", headers)):
        best_w = best_c = None
        count = 0
        for _ in range(max(1, args.reps)):
            w, c = time.perf_counter(), time.process_time()
            count = fn(args.file, sgfstream)
            w, c = time.perf_counter() - w, time.process_time() - c
            best_w = w if best_w is None else min(best_w, w)
            best_c = c if best_c is None else min(best_c, c)
        rows.append((label, best_w, best_c, count))
        print("  %-22s %8.1f MB/s  (%.3f s wall, %.3f s CPU, %d games)" % (
            "sgfstream." + label[3:], size / 1e6 / best_w, best_w, best_c,
            count))
    if rows[0][3] != rows[1][3]:
        print("python-stream: games() read %d games, headers() %d"
              % (rows[0][3], rows[1][3]))
        return 1
    if args.results:
        with open(args.results, "a") as f:
            for label, w, c, count in rows:
                f.write("%s\t%d\t%.9f\t%d\t1\t0\t-\n" % (label, size, w, count))
                if c > 0:
                    f.write("%s cpu\t%d\t%.9f\t%d\t1\t0\t-\n" % (label, size, c,
                                                                 count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
