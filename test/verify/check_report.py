#!/usr/bin/env python3
"""check_report.py REPORT.json [--html REPORT.html --chromium PATH] [--no-stray DIR]

Asserts what `libtorch-tidy verify` measured on the anomaly-mode example:
every original run has at least one aten::_local_scalar_dense per step,
every fixed run none; both variants ran the same number of steps (> 0);
the scratch copy is gone; no process runs a program from DIR. With --html,
renders the page in headless Chromium and checks that the timeline drew both
series. Prints one line per fact, for FileCheck.
"""
import argparse
import json
import os
import subprocess
import sys


def fail(message):
    sys.exit("check_report: " + message)


def stray_processes(directory):
    """PIDs of processes whose executable or command line is under directory."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            exe = os.readlink("/proc/%s/exe" % pid)
        except OSError:
            continue
        if exe.startswith(directory) or (argv and argv[0].decode(errors="replace").startswith(directory)):
            found.append(pid)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report")
    parser.add_argument("--html")
    parser.add_argument("--chromium")
    parser.add_argument("--no-stray")
    args = parser.parse_args()
    with open(args.report) as f:
        report = json.load(f)

    runs = report["runs"]
    if not runs:
        fail("no runs in the report")
    steps = {}
    for run in runs:
        variant, probe = run["variant"], run["probe"]
        if not run["ok"]:
            fail("%s run %d failed: %s" % (variant, run["index"], run["failure"]))
        if probe["steps"] <= 0:
            fail("%s run %d: no steps" % (variant, run["index"]))
        per_step = probe["local_scalar_dense"] / probe["steps"]
        if variant == "original" and per_step < 1:
            fail("original run %d: %.2f _local_scalar_dense per step, expected >= 1"
                 % (run["index"], per_step))
        if variant == "fixed" and probe["local_scalar_dense"] != 0:
            fail("fixed run %d: %d _local_scalar_dense, expected 0"
                 % (run["index"], probe["local_scalar_dense"]))
        steps.setdefault(variant, set()).add(probe["steps"])
    if set(steps) != {"original", "fixed"}:
        fail("expected runs of both variants, got %s" % sorted(steps))
    if steps["original"] != steps["fixed"] or len(steps["original"]) != 1:
        fail("step counts differ: %s" % steps)
    print("runs: %d original, %d fixed" % (
        sum(r["variant"] == "original" for r in runs),
        sum(r["variant"] == "fixed" for r in runs)))
    print("steps per run: %d in both variants" % next(iter(steps["original"])))
    summary = report["summary"]
    print("original _local_scalar_dense per step >= 1: %s" %
          (summary["original"]["local_scalar_dense_per_step"] >= 1))
    print("fixed _local_scalar_dense per step: %g" %
          summary["fixed"]["local_scalar_dense_per_step"])
    applied = [f["check"] for f in report["findings"] if f["fix_applied"]]
    print("fix-its applied: %s" % ", ".join(applied))

    scratch = report.get("scratch_dir", "")
    if not scratch:
        fail("the report names no scratch directory")
    if os.path.exists(scratch):
        fail("the scratch copy %s is still there" % scratch)
    print("scratch copy removed")
    if args.no_stray:
        left = stray_processes(os.path.abspath(args.no_stray))
        if left:
            fail("processes left running: %s" % ", ".join(left))
        print("no process left running")

    if args.html:
        dom = subprocess.run(
            [args.chromium, "--headless", "--no-sandbox", "--disable-gpu",
             "--virtual-time-budget=5000", "--dump-dom",
             "file://" + os.path.abspath(args.html)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            universal_newlines=True, timeout=120).stdout
        start = dom.find('<pre id="render-check">')
        end = dom.find("</pre>", start)
        if start < 0 or end < 0:
            fail("the rendered page has no render-check block")
        drawn = dom[start:end].split(">", 1)[1].strip().splitlines()
        series = {}
        for line in drawn:
            fields = line.split()
            values = dict(f.split("=") for f in fields[1:])
            series[fields[0]] = (int(values["points"]), int(values["length"]))
        for variant in ("original", "fixed"):
            points, length = series.get(variant, (0, 0))
            if points < 2 or length <= 0:
                fail("the %s series was not drawn (%d points, length %d)"
                     % (variant, points, length))
        print("html: both series drawn (%s)" % ", ".join(sorted(series)))


if __name__ == "__main__":
    main()
