#!/usr/bin/env python3
"""bench/python-sgfmill.py - sgfstream.sgfmill against sgfmill, same bytes,
same run.

    PYTHONPATH=<sgfstream build>:<sgfmill checkout> \
        python3 bench/python-sgfmill.py [FILE] [--mb N] [--reps N]
        [--results FILE]

FILE (default bench/data/aeb.sgf) is cut to its first N MB (default 8),
split into its games (sgfstream.games: each game's own bytes), and each
game's bytes go through what a typical sgfmill script does:
Sgf_game.from_bytes, get_main_sequence, get_move on every node, with
sgfmill (``from sgfmill import sgf``) and with the drop-in (``from
sgfstream.sgfmill import sgf``); both must give the same moves. The runs
alternate (sgfmill, drop-in, sgfmill, ...: --reps of each), so that both
see the same load on a shared machine; each row is the best of its runs,
by wall time and by CPU time (time.process_time: what the process itself
spent, which moves less when other work takes the CPU). Prints one row
per library and the two ratios; --results FILE appends the rows to a
bench/run results file (bench/util.h's format). sgfmill is found on
PYTHONPATH, or in ../shared/peers/sgfmill. Exit status 1 when the moves
differ, 77 when sgfmill is not found.
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
    """Moves of every game; the wall and CPU time taken."""
    t = time.perf_counter()
    c = time.process_time()
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
    return time.perf_counter() - t, time.process_time() - c, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?",
                    default=os.path.join(HERE, "data", "aeb.sgf"))
    ap.add_argument("--mb", type=float, default=8.0)
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--results", metavar="FILE")
    args = ap.parse_args()
    try:
        from sgfmill import sgf as mill
    except ImportError:
        sys.path.append(os.path.join(HERE, "..", "..", "shared", "peers",
                                     "sgfmill"))
        try:
            from sgfmill import sgf as mill
        except ImportError:
            print("python-sgfmill: sgfmill not found (PYTHONPATH, "
                  "../shared/peers/sgfmill): skipped")
            return 77
    from sgfstream.sgfmill import sgf as ours

    games = load(args.file, args.mb)
    nbytes = sum(len(g) for g in games)
    libs = (("sgfmill", mill), ("sgfstream.sgfmill", ours))
    best = {}
    for _ in range(max(1, args.reps)):
        for name, mod in libs:
            wall, cpu, moves = run(mod, games)
            w0, c0, _m = best.get(name, (wall, cpu, moves))
            best[name] = (min(wall, w0), min(cpu, c0), moves)
    rows = [(name,) + best[name] for name, _ in libs]
    if rows[0][3] != rows[1][3]:
        print("moves differ: %d vs %d" % (rows[0][3], rows[1][3]))
        return 1
    print("%-20s %8s %10s %10s %9s %10s" % ("from_bytes+moves", "MB", "games",
                                            "seconds", "MB/s", "CPU s"))
    for name, wall, cpu, moves in rows:
        print("%-20s %8.1f %10d %10.3f %9.1f %10.3f" % (
            name, nbytes / 1e6, len(games), wall, nbytes / 1e6 / wall, cpu))
    cpu_ratio = rows[0][2] / rows[1][2] if rows[1][2] > 0 else 0.0
    print("ratio: %.1fx by wall time, %.1fx by CPU time (best of %d each, "
          "alternating; %d moves each)" % (rows[0][1] / rows[1][1], cpu_ratio,
                                          max(1, args.reps), rows[1][3]))
    if args.results:
        with open(args.results, "a") as f:
            for name, wall, cpu, moves in rows:
                f.write("%s\t%d\t%.9f\t%d\t1\t0\t-\n" % (
                    "py:" + name, nbytes, wall, len(games)))
                if cpu > 0:
                    f.write("%s cpu\t%d\t%.9f\t%d\t1\t0\t-\n" % (
                        "py:" + name, nbytes, cpu, len(games)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
