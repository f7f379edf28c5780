"""`scripts/bench remote-cache`: two CI runners share the remote result cache.

A generated LibTorch project (scripts/bench's, --tus units, 50 by default)
is cloned at two paths, each a git checkout with its own empty local cache,
and one server is started on a loopback port (a Redis, then an nginx with
WebDAV; test/hostile/Inputs/remote_servers.py starts and stops them).
Measured, with wall and CPU seconds and ratios:

  * runner 1 cold (fills the server), then runner 2 cold (reads it): the
    ratio of their wall times, and whether their JSON reports hold the same
    findings (paths made relative to each checkout);
  * four shards (--shard=K/4, each an empty runner) writing, then a fifth
    full run reading, against runner 1;
  * an unreachable server (a closed port) on a cold run, against a cold run
    without a remote cache: the overhead (medians of --overhead-runs each,
    alternating).

Prints a table and writes the runs as JSON. Timings depend on the machine
and its load; the findings comparison fails the script when it differs.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from importlib.machinery import SourceFileLoader

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "hostile", "Inputs"))
import remote_servers  # noqa: E402

bench = SourceFileLoader("bench", os.path.join(ROOT, "scripts", "bench")).load_module()


def checkout(path, units, mock):
    os.makedirs(path)
    bench.generate_project(path, units)
    if mock:
        flags = ["-std=c++17", "-isystem", os.path.join(ROOT, "test", "Inputs", "libtorch-mock")]
        with open(os.path.join(path, "compile_commands.json")) as f:
            database = json.load(f)
        for entry in database:
            entry["arguments"] = ["/usr/bin/c++"] + flags + ["-c", entry["file"]]
        with open(os.path.join(path, "compile_commands.json"), "w") as f:
            json.dump(database, f, indent=1)
    subprocess.run(["git", "init", "-q", path], check=True)
    return path


def run(cli, root, cache, remote, jobs, extra=()):
    argv = [cli, "-p", root, "--format=json", "--quiet", "-j", str(jobs),
            "--cache-dir=" + cache, "--remote-cache=" + remote] + list(extra)
    result = bench.timed(argv, cwd=root)
    try:
        result["findings"] = json.dumps(json.loads(result["stdout"])["findings"],
                                        sort_keys=True).replace(root, "<root>")
    except (ValueError, KeyError):
        result["findings"] = None
    del result["stdout"]
    return result


def median_run(runs):
    """The median wall and CPU seconds of RUNS, and the runs."""
    return {"wall_s": statistics.median(r["wall_s"] for r in runs),
            "cpu_s": statistics.median(r["cpu_s"] for r in runs), "rc": runs[0]["rc"],
            "runs": [{"wall_s": r["wall_s"], "cpu_s": r["cpu_s"]} for r in runs]}


def scenario(name, url, cli, args, work, mock):
    runner1 = checkout(os.path.join(work, name, "runner-1", "project"), args.tus, mock)
    runner2 = checkout(os.path.join(work, name, "ci", "runner-two", "src"), args.tus, mock)
    caches = os.path.join(work, name, "caches")
    fresh = iter(range(100))

    def cache():
        return os.path.join(caches, str(next(fresh)))

    rows = {}
    rows["runner 1 cold (writes)"] = run(cli, runner1, cache(), url, args.jobs)
    rows["runner 2 cold (reads)"] = run(cli, runner2, cache(), url, args.jobs)
    same = rows["runner 1 cold (writes)"]["findings"] == rows["runner 2 cold (reads)"]["findings"]
    # Shards write to a server emptied first, a fifth full run reads.
    url_shards = url + "/shards" if url.startswith("http") else url.rsplit("/", 1)[0] + "/1"
    shard_wall = shard_cpu = 0.0
    for k in range(1, 5):
        shard = checkout(os.path.join(work, name, "shard-%d" % k, "project"), args.tus, mock)
        r = run(cli, shard, cache(), url_shards, args.jobs, ["--shard=%d/4" % k])
        shard_wall += r["wall_s"]
        shard_cpu += r["cpu_s"]
    rows["4 shards (sum, write)"] = {"wall_s": shard_wall, "cpu_s": shard_cpu, "rc": 0}
    fifth = checkout(os.path.join(work, name, "fifth", "project"), args.tus, mock)
    rows["5th full run (reads)"] = run(cli, fifth, cache(), url_shards, args.jobs)
    same_shards = rows["5th full run (reads)"]["findings"] == rows["runner 1 cold (writes)"]["findings"]
    # Overhead of a server that is not there, on a cold run.
    closed = remote_servers.stopped_port()
    dead = ("http://127.0.0.1:%d/cache" % closed if url.startswith("http")
            else "redis://127.0.0.1:%d" % closed)
    # Alternating, medians: a cold run varies more than 2 % on a busy machine.
    plain_runs, dead_runs = [], []
    for n in range(args.overhead_runs):
        plain = checkout(os.path.join(work, name, "plain-%d" % n, "project"), args.tus, mock)
        plain_runs.append(run(cli, plain, cache(), "", args.jobs))
        unreachable = checkout(os.path.join(work, name, "unreachable-%d" % n, "project"), args.tus, mock)
        dead_runs.append(run(cli, unreachable, cache(), dead, args.jobs))
    rows["cold, no remote cache"] = median_run(plain_runs)
    rows["cold, unreachable server"] = median_run(dead_runs)
    base = rows["runner 1 cold (writes)"]
    print("\n%s (%d units, -j %d):" % (name, args.tus, args.jobs))
    print("  %-28s %9s %9s %8s %8s" % ("run", "wall s", "CPU s", "wall ×", "CPU ×"))
    for label, r in rows.items():
        ref = rows["cold, no remote cache"] if label == "cold, unreachable server" else base
        print("  %-28s %9.2f %9.2f %8.3f %8.3f" % (label, r["wall_s"], r["cpu_s"],
                                                  r["wall_s"] / ref["wall_s"], r["cpu_s"] / ref["cpu_s"]))
    overhead = rows["cold, unreachable server"]["wall_s"] / rows["cold, no remote cache"]["wall_s"] - 1
    cpu_overhead = rows["cold, unreachable server"]["cpu_s"] / rows["cold, no remote cache"]["cpu_s"] - 1
    print("  same findings: runner 2 %s, 5th run %s; unreachable server overhead %+.1f %% wall, "
          "%+.1f %% CPU (medians of %d)" % (same, same_shards, 100 * overhead, 100 * cpu_overhead,
                                            args.overhead_runs))
    for r in rows.values():
        r.pop("stderr", None)
    return {"rows": rows, "same_findings": same, "same_findings_shards": same_shards,
            "unreachable_overhead": overhead}


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(prog="scripts/bench remote-cache",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory")
    parser.add_argument("--tus", type=int, default=50, help="translation units of the project")
    parser.add_argument("--jobs", type=int, default=2, help="-j of every run")
    parser.add_argument("--overhead-runs", type=int, default=3,
                        help="cold runs each, alternating, with and without an unreachable server")
    parser.add_argument("--servers", default="redis,nginx", help="redis, nginx or both")
    parser.add_argument("--mock", action="store_true",
                        help="the mock LibTorch headers of the tests instead of the real ones")
    parser.add_argument("--json", default="bench-remote-cache.json", help="where to write the runs")
    args = parser.parse_args(argv)
    cli = os.path.join(args.build, "bin", "libtorch-tidy")
    if not os.path.exists(cli):
        bench.fail("libtorch-tidy not found at %s; run ./scripts/build first" % cli)
    work = tempfile.mkdtemp(prefix="libtorch-tidy-bench-remote-")
    results = {"tus": args.tus, "jobs": args.jobs, "mock": args.mock,
               "load_average_at_start": bench.load_average()}
    print("load average at start: %s on %d CPUs" % (results["load_average_at_start"], os.cpu_count()))
    ok = True
    try:
        for server in args.servers.split(","):
            if server == "redis":
                with remote_servers.redis(os.path.join(work, "srv-redis")) as (url, _):
                    results["redis"] = scenario("redis", url + "/0", cli, args, work, args.mock)
            elif server == "nginx":
                with remote_servers.nginx(os.path.join(work, "srv-nginx")) as (url, _):
                    results["nginx"] = scenario("nginx", url, cli, args, work, args.mock)
            else:
                bench.fail("unknown server '%s'; use redis or nginx" % server)
            ok = ok and results[server]["same_findings"] and results[server]["same_findings_shards"]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    results["load_average_at_end"] = bench.load_average()
    with open(args.json, "w") as out:
        json.dump(results, out, indent=2)
    print("\nload average at end: %s; JSON written to %s" % (results["load_average_at_end"], args.json))
    if not ok:
        bench.fail("the findings differ between runners")
    return 0
