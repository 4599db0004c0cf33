#!/usr/bin/env python3
"""bench.py - the Dask recipe against one sgf process on the same input.

usage: bench.py [--workers 2] [--shards 4] [--runs 5] JOB INPUT

Times (median of RUNS, wall clock): one `sgf` process over INPUT, and the
Dask job over the shards of INPUT on a LocalCluster already running (the
split and the cluster's start are timed once, apart: with a real cluster
both are paid once for many jobs). Prints the speedup.
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sgf_dask  # noqa: E402


def main(argv):
    from dask.distributed import Client, LocalCluster
    o = {"--workers": 2, "--shards": 4, "--runs": 5}
    args = argv[1:]
    while args and args[0] in o:
        o[args[0]] = int(args[1])
        args = args[2:]
    job, inp = args
    sgf = shutil.which("sgf") or "sgf"
    argv_sgf = [sgf] + sgf_dask.JOBS[job]
    one = []
    for _ in range(o["--runs"]):
        t = time.monotonic()
        subprocess.run(argv_sgf + [inp], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        one.append(time.monotonic() - t)
    work = tempfile.mkdtemp(prefix="sgf-bench-")
    try:
        t = time.monotonic()
        shards = sgf_dask.split(sgf, o["--shards"], work, [inp])
        t_split = time.monotonic() - t
        t = time.monotonic()
        cluster = LocalCluster(n_workers=o["--workers"], threads_per_worker=1,
                               host="127.0.0.1", dashboard_address=None)
        client = Client(cluster)
        client.upload_file(sgf_dask.sgf_merge.__file__)
        t_start = time.monotonic() - t
        runs = []
        for _ in range(o["--runs"]):
            t = time.monotonic()
            fs = client.map(sgf_dask.run_shard, [argv_sgf] * len(shards),
                            shards, [False] * len(shards), pure=False)
            res = client.gather(fs)
            if job in ("stats", "summary"):
                import json
                sgf_dask.sgf_merge.merge_stats(
                    [json.loads(r[1]) for r in res])
            runs.append(time.monotonic() - t)
        client.close()
        cluster.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    a, b = statistics.median(one), statistics.median(runs)
    print("%s on %s: one sgf %.3f s (runs %s); dask %d shards on %d workers "
          "%.3f s (runs %s); speedup %.2fx; split %.3f s, cluster start "
          "%.3f s; load %s" % (
              job, inp, a, " ".join("%.3f" % x for x in one), o["--shards"],
              o["--workers"], b, " ".join("%.3f" % x for x in runs), a / b,
              t_split, t_start, os.getloadavg()))


if __name__ == "__main__":
    main(sys.argv)
