"""A slow remote cache costs a run little: the run's lookups are asked at
once over a few connections, a server that cannot answer them within the
budget is given up on with one warning (its other units are analyzed
here), and stores go on beside the analyses, the end of the run waiting
for them only a short while. A real redis-server behind a proxy that
holds back every answer.

usage: remote_cache_slow.py WORK CLI MOCK"""
import os
import re
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import remote_project as rp  # noqa: E402
import remote_servers as rs  # noqa: E402

work, cli, mock = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
UNITS = 24
runs = 0


def run(url):
    global runs
    runs += 1
    root = rp.make_checkout(os.path.join(work, "runner-%d" % runs, "p"), mock,
                            units=UNITS)
    return rp.analyze(cli, root, os.path.join(work, "cache-%d" % runs), url)


def about(r, server):
    return [l.split("' ", 1)[1] for l in r["stderr"].splitlines()
            if "the remote cache '%s'" % server in l]


local = run(None)
with rs.redis(work) as (url, port):
    run(url)
    stored = len(rs.redis_cli(port, "KEYS", "libtorch-tidy:*").split())
    print("stored %d entries" % stored)

    # Every answer a second late: sequential lookups alone would take
    # 24 s.
    with rs.delayed(port, 1.0) as (slow_port, proxy):
        slow = "redis://127.0.0.1:%d" % slow_port
        r = run(slow)
        warned = about(r, slow)
        print("1 s per answer: findings same %s, some cached %s, some "
              "analyzed %s, lookups at once %s, within the budget %s" % (
                  r["findings"] == local["findings"], r["cached"] > 0,
                  r["analyzed"] > 0, 1 < proxy.most <= 8,
                  r["seconds"] < local["seconds"] + 8))
        print("  " + (warned[0].split(";")[0] if warned else "no warning"))

    # A quarter of a second per answer, empty server: the lookups fit the
    # budget; 24 stores (6 s one after another) go on beside the analyses.
    rs.redis_cli(port, "FLUSHALL")
    with rs.delayed(port, 0.25) as (slow_port, proxy):
        slow = "redis://127.0.0.1:%d" % slow_port
        r = run(slow)
        warned = about(r, slow)
        kept = len(rs.redis_cli(port, "KEYS", "libtorch-tidy:*").split())
        print("0.25 s per answer, writing: findings same %s, %d analyzed, "
              "some stored %s, warned exactly when some were not %s, end "
              "waited within the budget %s" % (
                  r["findings"] == local["findings"], r["analyzed"],
                  kept > 0, bool(warned) == (kept < UNITS),
                  r["seconds"] < local["seconds"] + 7))
        for w in warned:
            # How many were stored depends on the machine's speed.
            print("  " + re.sub(r"store \d+ of", "store N of", w))
        sys.stderr.write("seconds: local %.1f, this run %.1f, stored %d\n" %
                         (local["seconds"], r["seconds"], kept))
