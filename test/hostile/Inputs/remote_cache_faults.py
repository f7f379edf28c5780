"""Broken remote caches cost no more than a local run: a server that is
down, hangs, answers 5xx, refuses authorization, sends garbage or a body
cut short gets one warning naming it; the findings and the exit code are
those of a run without the remote cache; nothing hangs; the server is not
asked again after its first failure (no retry storm).

usage: remote_cache_faults.py WORK CLI MOCK"""
import os
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import remote_project as rp  # noqa: E402
import remote_servers as rs  # noqa: E402

work, cli, mock = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
root = rp.make_checkout(os.path.join(work, "project"), mock)
baseline = rp.analyze(cli, root, os.path.join(work, "cache-base"), None)
print("without a remote cache: exit %d, %d analyzed" % (
    baseline["exit"], baseline["analyzed"]))

runs = 0


def check(name, url, shown, proxy=None):
    global runs
    runs += 1
    r = rp.analyze(cli, root, os.path.join(work, "cache-%d" % runs), url)
    lines = rp.warnings(r, shown)
    print("%s: exit same %s, findings same %s, %d warning(s), %s, "
          "connections %s, secret shown %s" % (
              name, r["exit"] == baseline["exit"],
              r["findings"] == baseline["findings"], len(lines),
              "under 30 s" if r["seconds"] < 30 else "%.0f s" % r["seconds"],
              "at most 2" if proxy is None or proxy.connections <= 2
              else proxy.connections,
              "s3cret" in r["stderr"]))
    for l in lines:
        print("  " + l.split("(")[1].split(")")[0])


down = rs.stopped_port()
check("http down", "http://127.0.0.1:%d/cache" % down,
      "http://127.0.0.1:%d/cache" % down)
check("redis down", "redis://:s3cret@127.0.0.1:%d" % down,
      "redis://127.0.0.1:%d" % down)
for behaviour in ("http500", "http401", "truncated", "hang"):
    with rs.fault(behaviour) as (port, proxy):
        url = "http://127.0.0.1:%d/cache" % port
        check("http " + behaviour, url + "|operation-timeout=500", url, proxy)
for behaviour in ("hang", "resp-garbage"):
    with rs.fault(behaviour) as (port, proxy):
        url = "redis://127.0.0.1:%d" % port
        check("redis " + behaviour, url + "|operation-timeout=500", url, proxy)
# A real Redis that wants a password the URL does not have right.
with rs.redis(work, password="right") as (_, port):
    check("redis wrong password", "redis://:s3cret@127.0.0.1:%d" % port,
          "redis://127.0.0.1:%d" % port)
# Garbage that is an HTTP 200: not a server failure, an entry that fails
# its checksum (warned about once, then analyzed here).
with rs.fault("garbage") as (port, proxy):
    r = rp.analyze(cli, root, os.path.join(work, "cache-garbage"),
                   "http://127.0.0.1:%d/cache" % port)
    print("http garbage: exit same %s, findings same %s, %s" % (
        r["exit"] == baseline["exit"], r["findings"] == baseline["findings"],
        [l for l in r["stderr"].splitlines() if "checksum" in l]))
