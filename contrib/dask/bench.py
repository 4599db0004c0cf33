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


def timed_shard(argv, path):
    """On a worker: sgf on one shard; its wall and CPU seconds, and which
    worker process ran it."""
    t, c = time.monotonic(), os.times()
    subprocess.run(argv + [path], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    c2 = os.times()
    cpu = (c2.children_user - c.children_user) + (c2.children_system -
                                                  c.children_system)
    return os.getpid(), time.monotonic() - t, cpu


def one_cpu(argv):
    c = os.times()
    t = time.monotonic()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    c2 = os.times()
    return time.monotonic() - t, (c2.children_user - c.children_user) + (
        c2.children_system - c.children_system)


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
    one, one_c = [], []
    for _ in range(o["--runs"]):
        w, c = one_cpu(argv_sgf + [inp])
        one.append(w)
        one_c.append(c)
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
        runs, busy, cpus = [], [], []
        for _ in range(o["--runs"]):
            fs = client.map(timed_shard, [argv_sgf] * len(shards), shards,
                            pure=False)
            per = {}
            for pid, w, c in client.gather(fs):
                per[pid] = per.get(pid, 0) + w
                cpus.append(c)
            busy.append(max(per.values()))
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
    print("one sgf CPU %.3f s (median); shard tasks CPU %.3f s per run "
          "(median of the sum); busiest worker %.3f s wall per run (median)"
          % (statistics.median(one_c), statistics.median(cpus) * len(shards),
             statistics.median(busy)))
    print("%s on %s: one sgf %.3f s (runs %s); dask %d shards on %d workers "
          "%.3f s (runs %s); speedup %.2fx; split %.3f s, cluster start "
          "%.3f s; load %s" % (
              job, inp, a, " ".join("%.3f" % x for x in one), o["--shards"],
              o["--workers"], b, " ".join("%.3f" % x for x in runs), a / b,
              t_split, t_start, os.getloadavg()))


if __name__ == "__main__":
    main(sys.argv)
