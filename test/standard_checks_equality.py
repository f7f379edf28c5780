#!/usr/bin/env python3
"""Shows that the CLI's standard checks find what clang-tidy finds.

Runs clang-tidy-16 and libtorch-tidy with the same --checks over each FILE
(mock LibTorch headers), in parallel, and requires the same diagnostics:
the lines "file:line:col: warning|error|note: ...". The CLI skips the bodies
of system-header functions and matches only user declarations unless an
enabled check needs more (driver/preamble/SkipPolicy.h): this is what shows that
no check's findings in user code change. clang-tidy names every alias that
reports the same diagnostic ("[a,b]"), the CLI the first one: compared by
the first name. Exits 1 with a diff when they differ, and also when no
warning at all came (an empty comparison proves nothing).

Usage: standard_checks_equality.py --tools TOOLS.json --checks GLOBS
           [-j N] FILE...
"""
import argparse
import concurrent.futures
import difflib
import json
import re
import subprocess
import sys

DIAGNOSTIC = re.compile(r"^\S+:\d+:\d+: (warning|error|note): ")
ALIASES = re.compile(r" \[([^\],]+)(,[^\]]+)?\]$")


def diagnostics(output):
    lines = [l for l in output.splitlines() if DIAGNOSTIC.match(l)]
    return [ALIASES.sub(r" [\1]", l) for l in lines]


def run(command, accepted):
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, universal_newlines=True)
    if result.returncode not in accepted:
        sys.exit("%s exited with %d:\n%s" % (command[0], result.returncode,
                                              result.stdout))
    return diagnostics(result.stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--checks", required=True)
    parser.add_argument("-j", type=int, default=2)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    with open(args.tools) as f:
        tools = json.load(f)
    flags = ["-std=c++17", "-isystem", tools["mock_include_dir"]]
    checks = "--checks=" + args.checks
    jobs = []
    for path in args.files:
        jobs.append(([tools["clang_tidy"], checks, path, "--"] + flags,
                     (0, 1)))
        jobs.append(([tools["cli"], "--no-cache", "-j", "1", checks, path,
                      "--"] + flags, (0, 1)))
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        results = list(pool.map(lambda job: run(*job), jobs))
    theirs = [l for r in results[0::2] for l in r]
    ours = [l for r in results[1::2] for l in r]
    if theirs != ours:
        sys.stdout.writelines(difflib.unified_diff(
            [l + "\n" for l in theirs], [l + "\n" for l in ours],
            "clang-tidy-16", "libtorch-tidy"))
        return 1
    warnings = sum(1 for l in ours if ": warning: " in l)
    if not warnings:
        print("no warnings at all: the comparison proves nothing")
        return 1
    print("identical: %d files, %d warnings, %d diagnostics" %
          (len(args.files), warnings, len(ours)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
