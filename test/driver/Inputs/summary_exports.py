"""summary_exports.py WORK CLI MOCK METRICS_CPP

--export-summaries writes what the compile database holds: after a unit is
renamed, a run over the whole database drops the old name's entry; and
exports into one file at once (CI jobs, an editor beside a terminal) take
turns, so that none loses another's entries."""
import json
import os
import shutil
import subprocess
import sys

work, cli, mock, metrics = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
shutil.copy(os.path.join(os.path.dirname(metrics), "sync-elsewhere.h"), work)
UNITS = 6


def write_database(names):
    commands = []
    for name in names:
        path = os.path.join(work, name)
        if not os.path.exists(path):
            shutil.copy(metrics, path)
        commands.append({"directory": work, "file": path,
                         "arguments": ["/usr/bin/c++", "-std=c++17",
                                       "-isystem", mock, "-c", path]})
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(commands, f)


def export(files=(), wait=True):
    argv = [cli, "-p", work, "--quiet", "--no-cache",
            "--export-summaries=" + os.path.join(work, "s.json")] + list(files)
    proc = subprocess.Popen(argv, cwd=work, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, universal_newlines=True)
    if wait:
        _, err = proc.communicate(timeout=300)
        if proc.returncode != 0:
            print("unexpected: exit %d: %s" % (proc.returncode, err))
    return proc


def units():
    # One JSON line for the header, then one per unit and per function; a
    # unit's own line has an empty "usr".
    with open(os.path.join(work, "s.json")) as f:
        lines = [json.loads(line) for line in f.read().splitlines()[1:]]
    return sorted(os.path.basename(line["mainFile"]) for line in lines
                  if not line["usr"])


names = ["m%d.cpp" % i for i in range(1, UNITS + 1)]
write_database(names)
export()
print("whole database:", " ".join(units()))
os.rename(os.path.join(work, "m1.cpp"), os.path.join(work, "renamed.cpp"))
write_database(["renamed.cpp"] + names[1:])
export([os.path.join(work, "m2.cpp")])
print("one unit after the rename:", " ".join(units()))
export()
print("whole database after the rename:", " ".join(units()))

write_database(names)
shutil.copy(metrics, os.path.join(work, "m1.cpp"))
whole = 0
for round_ in range(3):
    os.remove(os.path.join(work, "s.json"))
    procs = [export([os.path.join(work, n)], wait=False) for n in names]
    for p in procs:
        _, err = p.communicate(timeout=300)
        if p.returncode != 0:
            print("unexpected: exit %d: %s" % (p.returncode, err))
    whole += units() == sorted(names)
print("concurrent exports of %d units: every entry kept in %d of 3 rounds"
      % (UNITS, whole))
