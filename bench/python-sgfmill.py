#!/usr/bin/env python3
"""bench/python-sgfmill.py - sgfstream.sgfmill against sgfmill, same bytes,
same run.

    PYTHONPATH=<sgfstream build>:<sgfmill checkout> \
        python3 bench/python-sgfmill.py [FILE] [--mb N] [--reps N]

FILE (default bench/data/aeb.sgf) is cut to its first N MB (default 8),
split into its games (sgfstream.games: each game's own bytes), and each
game's bytes go through what a typical sgfmill script does:
Sgf_game.from_bytes, get_main_sequence, get_move on every node. First
with sgfmill (``from sgfmill import sgf``), then with the drop-in
(``from sgfstream.sgfmill import sgf``); both must give the same moves.
Prints one row per library (best of --reps runs) and the ratio.
sgfmill is found on PYTHONPATH, or in ../shared/peers/sgfmill.
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path, mb):
    with open(path, "rb") as f:
        data = f.read(int(mb * 1e6))
    import sgfstream
    games = [rec.data for rec in sgfstream.games(data)]
    # The last game may be cut by the prefix: leave it out.
    if games and not games[-1].rstrip().endswith(b")"):
        games.pop()
    return games


def run(sgf_module, games):
    """Moves of every game; the time taken."""
    t = time.perf_counter()
    total = 0
    from_bytes = sgf_module.Sgf_game.from_bytes
    for bb in games:
        try:
            game = from_bytes(bb)
        except ValueError:
            continue
        for node in game.get_main_sequence():
            try:
                if node.get_move()[0] is not None:
                    total += 1
            except ValueError:
                pass
    return time.perf_counter() - t, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?",
                    default=os.path.join(HERE, "data", "aeb.sgf"))
    ap.add_argument("--mb", type=float, default=8.0)
    ap.add_argument("--reps", type=int, default=1)
    args = ap.parse_args()
    try:
        from sgfmill import sgf as mill
    except ImportError:
        sys.path.append(os.path.join(HERE, "..", "..", "shared", "peers",
                                     "sgfmill"))
        from sgfmill import sgf as mill
    from sgfstream.sgfmill import sgf as ours

    games = load(args.file, args.mb)
    nbytes = sum(len(g) for g in games)
    rows = []
    for name, mod in (("sgfmill", mill), ("sgfstream.sgfmill", ours)):
        best, moves = min(run(mod, games) for _ in range(args.reps))
        rows.append((name, best, moves))
    if rows[0][2] != rows[1][2]:
        print("moves differ: %d vs %d" % (rows[0][2], rows[1][2]))
        return 1
    print("%-20s %8s %10s %10s %9s" % ("from_bytes+moves", "MB", "games",
                                       "seconds", "MB/s"))
    for name, t, moves in rows:
        print("%-20s %8.1f %10d %10.3f %9.1f" % (name, nbytes / 1e6,
                                                  len(games), t,
                                                  nbytes / 1e6 / t))
    print("ratio: %.1fx (%d moves each)" % (rows[0][1] / rows[1][1],
                                            rows[1][2]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
