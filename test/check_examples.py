#!/usr/bin/env python3
"""Runs libtorch-tidy on the bundled examples against real LibTorch.

1. Every `// EXPECT: <check-id>[, <check-id>...]` marker of a registered
   default-tier check must be found on its line, and nothing else may be
   reported by the default tier.
   Markers of checks not registered yet are listed, not enforced.

2. Every example compiles with g++ (-fsyntax-only, with the warnings the
   examples' CMakeLists.txt turns on; in batches, test/compile_fixed.py):
   the test build does not build the example programs (CMakeLists.txt,
   libtorch-tidy-test-prerequisites).

Their fix-its are the fix-it sweep's (test/fixit-sweep.test): applied with
every libtorch check at once, compiled with g++, re-checked, idempotent.

Usage: check_examples.py --tools TOOLS.json --examples DIR --temp DIR
"""
import argparse
import glob
import json
import os
import re
import shlex
import subprocess
import sys

from check_libtorch_tidy import DIAG
from compile_fixed import compile_all, libtorch_name, on_each_libtorch

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


def analyze(tools, files):
    cmd = [tools["cli"], "--config={}"]
    cmd += files + ["--", "-std=c++17"] + tools["torch_compile_flags"]
    result = run(cmd)
    if result.returncode not in (0, 1):
        sys.exit("libtorch-tidy exited with %d:\n%s" % (result.returncode,
                                                        result.stdout))
    return result.stdout


def compile_errors(tools, files, scratch):
    """The g++ output of each example that does not compile
    (test/compile_fixed.py: in batches, each failure from a compile alone)."""
    flags = ["-std=c++17", "-Wall", "-Wextra"] + tools["torch_compile_flags"]
    compiles = [c for path in files for c in on_each_libtorch(tools, path, flags)]
    compile_all(tools, compiles, scratch)
    return ["%s does not compile with g++ against %s:\n$ %s\n%s" % (
        os.path.basename(c.path), libtorch_name(tools, c.headers),
        shlex.join(c.command), c.output[-4000:])
        for c in compiles if not c.ok]


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
    parser.add_argument("--temp", required=True, help="a scratch directory")
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

    os.makedirs(args.temp, exist_ok=True)
    errors = compile_errors(tools, files, args.temp)
    for e in errors:
        print("FAILED: " + e)
        failed = True
    if not errors:
        print("%d examples compile with g++" % len(files))

    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
