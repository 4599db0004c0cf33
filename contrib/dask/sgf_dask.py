#!/usr/bin/env python3
"""sgf_dask.py - run an sgf job over the shards of a collection on a Dask
cluster and merge the results into what one sgf run would print.

usage: sgf_dask.py [--scheduler ADDR | --local N] [--shards N]
                   [--workdir DIR] [--sgf PATH] [--sharded] [--time]
                   JOB [-- ARG...] INPUT...

JOB is one of
  stats     sgf stats -t --json --no-time   (merged: sums, max_depth)
  summary   sgf stats --summary --json --no-time
  headers   sgf json --headers               (lines in input order; with
            one plain-file INPUT the "source" of each line is rewritten to
            that file, as one pass gives it)
  filter    sgf filter ARG...                (outputs in shard order)
  run       sgf ARG...                       (outputs in shard order)

Steps: `sgf split --shards N -d WORKDIR INPUT...` cuts the inputs (files,
directories, archives, compressed files) into N SGF files at game
boundaries, balanced by bytes (skip it with --sharded: then INPUT are the
shards); one Dask task per shard runs sgf on it (a subprocess on the
worker: the workers need sgf on their PATH, or --sgf, and WORKDIR on a
file system they all see, e.g. NFS); the results come back in shard order
and are merged with sgf_merge.py. The exit status is the worst of the
tasks', by sgf's ranking (2 > 3 > 1 > 0).

--scheduler ADDR   a running scheduler (tcp://host:8786: `dask-scheduler`
                   and `dask-worker ADDR` on each host)
--local N          a LocalCluster of N single-threaded worker processes on
                   127.0.0.1 (the default, N = 2)
--time             print the seconds of the split and of the Dask job on
                   standard error
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sgf_merge  # noqa: E402

JOBS = {
    "stats": ["stats", "-t", "--json", "--no-time"],
    "summary": ["stats", "--summary", "--json", "--no-time"],
    "headers": ["json", "--headers"],
    "filter": ["filter"],
    "run": [],
}


def worse(a, b):
    """sgf's exit_worse(): 2 > 3 > 1 > 0."""
    rank = {0: 0, 1: 1, 3: 2, 2: 3}
    return a if rank.get(a, 3) >= rank.get(b, 3) else b


def run_shard(argv, path, measure):
    """On a worker: sgf on one shard. Returns (status, stdout, stderr,
    geometry or None)."""
    p = subprocess.run(argv + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    geo = sgf_merge.geometry(path) if measure else None
    return p.returncode, p.stdout, p.stderr, geo


def split(sgf, n, workdir, inputs):
    subprocess.run([sgf, "split", "--shards=%d" % n, "--pattern=shard-%n.sgf",
                    "-d", workdir, "--quiet"] + inputs, check=False)
    shards = [os.path.join(workdir, "shard-%04d.sgf" % (i + 1))
              for i in range(n)]
    missing = [s for s in shards if not os.path.exists(s)]
    if missing:
        raise SystemExit("sgf_dask: split wrote no %s" % missing[0])
    return shards


def plain_sgf(path):
    """One pass names its games by this file and offsets in its (maybe
    decompressed) bytes: a .sgf file, compressed or not, no archive."""
    name = os.path.basename(path).lower()
    return os.path.isfile(path) and (name.endswith(".sgf") or (
        ".sgf." in name and ".tar" not in name))


def parse_args(argv):
    o = {"scheduler": None, "local": 2, "shards": 4, "workdir": None,
         "sgf": shutil.which("sgf") or "sgf", "sharded": False,
         "time": False, "args": []}
    i = 1
    while i < len(argv) and argv[i].startswith("--"):
        a = argv[i]
        if a in ("--sharded", "--time"):
            o[a[2:]] = True
            i += 1
        elif a in ("--scheduler", "--local", "--shards", "--workdir", "--sgf"):
            v = argv[i + 1]
            o[a[2:]] = int(v) if a in ("--local", "--shards") else v
            i += 2
        elif a == "--help":
            print(__doc__.strip())
            sys.exit(0)
        else:
            raise SystemExit("sgf_dask: unknown option %s" % a)
    if i >= len(argv) or argv[i] not in JOBS:
        raise SystemExit("sgf_dask: JOB missing or unknown; try --help")
    o["job"] = argv[i]
    i += 1
    if i < len(argv) and argv[i] == "--":
        j = argv.index("--", i + 1) if "--" in argv[i + 1:] else None
        if j is None:
            raise SystemExit("sgf_dask: -- ARG... must end with --")
        o["args"], i = argv[i + 1:j], j + 1
    o["inputs"] = argv[i:]
    if not o["inputs"]:
        raise SystemExit("sgf_dask: no INPUT")
    return o


def need_dask():
    """Import Dask's client, or exit 2 saying what to install: the python3
    that runs this script may not be the one Debian's python3-distributed
    installs for (/usr/bin/python3)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as e:
        sys.stderr.write(
            "sgf_dask: this Python (%s) cannot import dask.distributed (%s).\n"
            "Install Dask for it (Debian: apt-get install python3-distributed,"
            " which serves /usr/bin/python3), or run\n"
            "  /usr/bin/python3 %s ...\n" % (sys.executable, e, sys.argv[0]))
        sys.exit(2)
    return Client, LocalCluster


def main(argv):
    o = parse_args(argv)
    Client, LocalCluster = need_dask()
    tmp = None
    t0 = time.monotonic()
    if o["sharded"]:
        shards = o["inputs"]
    else:
        workdir = o["workdir"] or tempfile.mkdtemp(prefix="sgf-shards-")
        tmp = None if o["workdir"] else workdir
        shards = split(o["sgf"], o["shards"], workdir, o["inputs"])
    t1 = time.monotonic()
    cluster = None
    if o["scheduler"]:
        client = Client(o["scheduler"])
    else:
        cluster = LocalCluster(n_workers=o["local"], threads_per_worker=1,
                               host="127.0.0.1", dashboard_address=None,
                               processes=True)
        client = Client(cluster)
    try:
        # the workers import it for run_shard (also on other hosts)
        client.upload_file(sgf_merge.__file__)
        t2 = time.monotonic()
        argv_sgf = [o["sgf"]] + JOBS[o["job"]] + o["args"]
        measure = o["job"] == "headers"
        futures = client.map(run_shard, [argv_sgf] * len(shards), shards,
                             [measure] * len(shards), pure=False)
        results = client.gather(futures)
        t3 = time.monotonic()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    status = 0
    for st, _, err, _ in results:
        status = worse(status, st)
        sys.stderr.write(err.decode("utf-8", "replace"))
    texts = [out.decode("utf-8") for _, out, _, _ in results]
    out = sys.stdout
    if o["job"] in ("stats", "summary"):
        docs = [json.loads(t) for t in texts]
        out.write(sgf_merge.dumps(sgf_merge.merge_stats(docs)) + "\n")
    elif o["job"] == "headers":
        one = o["inputs"][0] if len(o["inputs"]) == 1 else None
        if one is not None and not o["sharded"] and plain_sgf(one):
            src, geos = one, [r[3] for r in results]
        else:
            src = geos = None
        for line in sgf_merge.merge_headers(texts, src, geos):
            out.write(line + "\n")
    else:
        for t in texts:
            out.write(t)
    out.flush()
    if o["time"]:
        sys.stderr.write("sgf_dask: split %.3f s, cluster %.3f s, job %.3f s "
                         "(%d shards)\n" % (t1 - t0, t2 - t1, t3 - t2,
                                            len(shards)))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
