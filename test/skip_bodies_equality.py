#!/usr/bin/env python3
"""Shows that skipping system-header function bodies changes no finding.

Runs libtorch-tidy twice over the same inputs, with --skip-system-bodies=true
(the default) and =false, every check enabled and findings in all headers
shown, and requires the two outputs to be identical (diagnostics, notes,
fix-its, summary). Exits 1 with a diff when they differ, and also when no
finding at all was produced (an empty comparison proves nothing).

  --checks DIR     every test/checks/*.cpp on the mock headers (1.13 mock,
                   and the 2.x mock for tests that run with --mock-version 2;
                   a test's own --config is kept)
  --examples DIR   every examples/**/*.cpp on the real LibTorch headers

Usage: skip_bodies_equality.py --tools TOOLS.json (--checks DIR | --examples DIR)
"""
import argparse
import collections
import difflib
import glob
import json
import os
import re
import subprocess
import sys

CONFIG = re.compile(r"'(--config=[^']*)'")


def run(cli, files, flags, config, skip):
    # No progress lines: they carry times, which differ between runs.
    cmd = [cli, "--no-cache", "--progress=none", "--checks=-*,libtorch-*",
           "--header-filter=.*",
           "--skip-system-bodies=" + ("true" if skip else "false"),
           config or "--config={}"] + files + ["--"] + flags
    result = subprocess.run(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, universal_newlines=True)
    if result.returncode not in (0, 1):
        sys.exit("libtorch-tidy exited with %d:\n%s" % (result.returncode,
                                                        result.stdout))
    return result.stdout


def groups_of_check_tests(tools, directory):
    """{(mock flags, config): [files]}."""
    groups = collections.defaultdict(list)
    # Inputs/ holds the headers that check tests include (-I%S/Inputs).
    mock = ["-std=c++17", "-isystem", tools["mock_include_dir"],
            "-I", os.path.join(directory, "Inputs")]
    for path in sorted(glob.glob(os.path.join(directory, "*.cpp"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        config = CONFIG.search(text)
        config = config.group(1) if config else ""
        runs = re.findall(r"RUN: %check_libtorch_tidy.*", text)
        v2 = [r for r in runs if "--mock-version 2" in r]
        if len(v2) < len(runs):
            groups[(tuple(mock), config)].append(path)
        if v2:
            groups[(tuple(mock + ["-DLIBTORCH_MOCK_VERSION_MAJOR=2"]),
                    config)].append(path)
    return groups


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--checks")
    parser.add_argument("--examples")
    args = parser.parse_args()
    with open(args.tools, encoding="utf-8") as f:
        tools = json.load(f)

    groups = {}
    if args.checks:
        groups.update(groups_of_check_tests(tools, args.checks))
    if args.examples:
        files = sorted(glob.glob(os.path.join(args.examples, "**", "*.cpp"),
                                 recursive=True))
        groups[(tuple(["-std=c++17"] + tools["torch_compile_flags"]), "")] = files
    if not groups:
        sys.exit("nothing to compare: pass --checks and/or --examples")

    units = findings = 0
    for (flags, config), files in sorted(groups.items()):
        skipped = run(tools["cli"], files, list(flags), config, True)
        full = run(tools["cli"], files, list(flags), config, False)
        if skipped != full:
            sys.stdout.writelines(difflib.unified_diff(
                full.splitlines(True), skipped.splitlines(True),
                "bodies parsed", "system bodies skipped"))
            sys.exit("findings differ with --skip-system-bodies (%s)" %
                     " ".join(flags))
        units += len(files)
        findings += len(re.findall(r": (?:warning|error): ", skipped))
    if findings == 0:
        sys.exit("no findings at all: the comparison proves nothing")
    print("identical: %d units, %d diagnostics" % (units, findings))


if __name__ == "__main__":
    main()
