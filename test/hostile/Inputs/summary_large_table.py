"""A large summary file (a whole project's: 60,000 functions, about 50 MB)
costs a unit's checks what they ask of it, not a parse of all of it: the
finding is the same as with the small file, and the run's peak memory stays
within the small file's run plus twice the large file's size (the file is
searched in place; parsed whole, into JSON values and copied into a table
for every check, it took gigabytes).

usage: summary_large_table.py WORK CLI MOCK SOURCES"""
import json
import os
import shutil
import subprocess
import sys

work, cli, mock, sources = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
for name in ("sync-elsewhere.h", "sync-elsewhere-metrics.cpp"):
    shutil.copy(os.path.join(sources, "checks", "Inputs", name), work)
shutil.copy(os.path.join(sources, "driver", "Inputs", "summaries",
                         "train.cpp"), work)
flags = ["--", "-std=c++17", "-isystem", mock]
small = os.path.join(work, "small.json")
subprocess.run([cli, "--quiet", "--no-cache", "--export-summaries=" + small,
                "sync-elsewhere-metrics.cpp"] + flags, cwd=work, check=True)

# The small file's lines and 60,000 functions of other units, each calling
# three others, in the file's order (by the USR as written).
with open(small) as f:
    header, *lines = f.read().splitlines()
template = next(json.loads(l) for l in lines if json.loads(l)["usr"])
N = 60000
for i in range(N):
    function = dict(template["function"], usr="c:@N@gen@F@f%06d#" % i,
                    name="gen::f%06d" % i)
    function["calls"] = [
        {"usr": "c:@N@gen@F@f%06d#" % ((i * 7 + k) % N), "name": "gen::g",
         "at": {"file": "/gen/g%d.cpp" % (i % 500), "line": i % 400 + 1,
                "column": 3, "spelling": "g", "digest": "0" * 64}}
        for k in range(3)]
    lines.append(json.dumps({"usr": function["usr"],
                             "mainFile": "/gen/u%d.cpp" % (i % 500),
                             "function": function}, separators=(",", ":")))
lines.sort(key=lambda l: (json.dumps(json.loads(l)["usr"])[1:-1],
                          json.loads(l)["mainFile"]))
large = os.path.join(work, "large.json")
with open(large, "w") as f:
    f.write(header + "\n" + "".join(l + "\n" for l in lines))


def run(table):
    """The finding's line and the run's peak memory in bytes: the largest
    of the CLI and the workers it waited for (wait4's resource usage)."""
    p = subprocess.Popen(
        [cli, "--no-cache",
         "--config={CheckOptions: {libtorch-tidy.SummaryFile: %s}}" % table,
         "train.cpp"] + flags, cwd=work, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, universal_newlines=True)
    out = p.stdout.read()
    _, _, usage = os.wait4(p.pid, 0)
    p.returncode = 0  # reaped above
    finding = [l for l in out.splitlines() if "warning: 'update()'" in l]
    return finding, usage.ru_maxrss * 1024


small_finding, small_peak = run(small)
large_finding, large_peak = run(large)
size = os.path.getsize(large)
print("large file of %d MB: same finding %s, found %s" % (
    size >> 20, small_finding == large_finding, bool(large_finding)))
print("peak memory within the small run's plus twice the file %s" %
      (large_peak <= small_peak + 2 * size))
sys.stderr.write("peak %d MB (small file's run %d MB)\n" % (
    large_peak >> 20, small_peak >> 20))
