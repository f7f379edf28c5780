#!/usr/bin/env python3
"""Runs libtorch-tidy on the bundled examples against real LibTorch.

1. Every `// EXPECT: <check-id>[, <check-id>...]` marker of a registered
   default-tier check must be found on its line, and nothing else may be
   reported by the default tier.
   Markers of checks not registered yet are listed, not enforced.
2. The fix-its: applied to a copy with --fix, each changed file must compile
   with g++ against LibTorch, and re-running the checks must report exactly
   the findings that had no fix-it.

Usage: check_examples.py --tools TOOLS.json --examples DIR --temp DIR
"""
import argparse
import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_libtorch_tidy import DIAG, torch_pch_args, warnings_with_fix_state  # noqa: E402

MARKER = re.compile(r"//\s*EXPECT:\s*(.*)$")


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, universal_newlines=True)


def registered_checks(tools):
    # The default tier: opt-in checks are trade-offs the examples do not mark.
    out = run([tools["cli"], "--list-checks", "--config={}"]).stdout
    return {l.strip() for l in out.splitlines() if l.strip().startswith("libtorch-")}


def markers(files):
    expected = set()
    for path in files:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = MARKER.search(line)
                if m:
                    for check in m.group(1).split(","):
                        expected.add((os.path.basename(path), number,
                                      check.strip()))
    return expected


def analyze(tools, files, fix=False):
    cmd = [tools["cli"], "--config={}"]
    if fix:
        cmd.append("--fix")
    cmd += files + ["--", "-std=c++17"] + tools["torch_compile_flags"]
    result = run(cmd)
    if result.returncode not in (0, 1):
        sys.exit("libtorch-tidy exited with %d:\n%s" % (result.returncode,
                                                        result.stdout))
    return result.stdout


def findings(output):
    found = set()
    for line in output.splitlines():
        m = DIAG.match(line)
        if m and m.group("level") == "warning":
            found.add((os.path.basename(m.group("file")), int(m.group("line")),
                       m.group("check")))
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--temp", required=True)
    args = parser.parse_args()
    tools = json.load(open(args.tools, encoding="utf-8"))
    files = sorted(glob.glob(os.path.join(args.examples, "*", "*.cpp")))
    if not files:
        sys.exit("no examples under %s" % args.examples)
    checks = registered_checks(tools)
    expected_all = markers(files)
    expected = {e for e in expected_all if e[2] in checks}
    pending = sorted({e[2] for e in expected_all} - checks)

    found = findings(analyze(tools, files))
    missed = sorted(expected - found)
    unexpected = sorted(found - expected)
    for check in sorted(checks):
        e = {x for x in expected if x[2] == check}
        f = {x for x in found if x[2] == check}
        print("%s: %d expected, %d found, %d missed, %d unexpected" % (
            check, len(e), len(f), len(e - f), len(f - e)))
    if pending:
        print("markers of checks not registered yet: " + ", ".join(pending))
    failed = False
    for m in missed:
        print("MISSED: %s:%d %s" % m)
        failed = True
    for u in unexpected:
        print("UNEXPECTED: %s:%d %s" % u)
        failed = True

    # Fix-its: apply to a copy, compile, re-check.
    if os.path.isdir(args.temp):
        shutil.rmtree(args.temp)
    copies = []
    for path in files:
        target = os.path.join(args.temp, os.path.relpath(path, args.examples))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(path, target)
        copies.append(target)
    before = warnings_with_fix_state(analyze(tools, copies, fix=True))
    fixed_count = sum(1 for w in before if w[2])
    for original, copy in zip(files, copies):
        if open(original, encoding="utf-8").read() == open(copy, encoding="utf-8").read():
            continue
        cmd = [tools["cxx"], "-std=c++17", "-c", "-o", os.devnull] + \
            tools["torch_compile_flags"] + torch_pch_args(tools, copy) + [copy]
        result = run(cmd)
        if result.returncode != 0:
            print("FIXED FILE DOES NOT COMPILE: %s\n%s" % (copy, result.stdout))
            failed = True
    after = warnings_with_fix_state(analyze(tools, copies))
    want = collections.Counter((c, m) for c, m, fixed in before if not fixed)
    got = collections.Counter((c, m) for c, m, _ in after)
    print("fix-its applied to examples: %d" % fixed_count)
    if want != got:
        print("after --fix, expected only the unfixable findings %s, got %s" % (
            sorted(want.elements()), sorted(got.elements())))
        failed = True
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
