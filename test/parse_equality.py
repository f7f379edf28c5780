#!/usr/bin/env python3
"""Shows that how the CLI parses a unit changes no finding.

Runs libtorch-tidy over the same inputs in several ways, every check enabled
and findings in all headers shown, and requires the outputs to be identical
(diagnostics, notes, fix-its, summary). Exits 1 with a diff when they differ,
and also when no finding at all was produced (an empty comparison proves
nothing). Each --axis compares two runs that differ in one way:

  skip-bodies  --skip-system-bodies=false against the default (true)
  preamble     --no-preamble against --preamble=always, each unit parsed
               against the precompiled header of the includes it starts
               with (a fresh cache directory, so every prefix is built and
               then reused by the units that start the same way)
  build        the default run of another build's CLI (--against CLI)
               against this build's: a refactoring that must not change
               behaviour shows it on every check test, example and corpus
               program

Fix-its are compared too: each run's --export-fixes file is appended to its
output.

Given both, the run they share (the default, no preamble) is made once.

  --checks DIR     every test/checks/*.cpp on the mock headers (1.13 mock,
                   and the 2.x mock for tests that run with --mock-version 2;
                   a test's own --config is kept)
  --examples DIR   every examples/**/*.cpp on the real LibTorch headers
  --corpus DIR     every test/corpus/**/*.cpp on the real LibTorch headers

Usage: parse_equality.py --tools TOOLS.json --axis AXIS [--axis AXIS]
           [--against CLI] (--checks DIR | --examples DIR | --corpus DIR)
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
import tempfile

CONFIG = re.compile(r"'(--config=[^']*)'")


# The ways of running, and per axis the reference run and the other one.
RUNS = {
    "bodies parsed": ["--no-cache", "--skip-system-bodies=false"],
    # The default: system bodies skipped; --no-cache: no preamble either.
    "default": ["--no-cache"],
    "precompiled prefixes": ["--preamble=always"],
    # The default, run by the CLI given with --against.
    "reference build": ["--no-cache"],
}
AXES = {
    "skip-bodies": ("bodies parsed", "default"),
    "preamble": ("default", "precompiled prefixes"),
    "build": ("reference build", "default"),
}

PROGRESS = re.compile(r"^\[\d+/\d+\] .*$\n?", re.M)


def run(cli, files, flags, config, axis_flags):
    """(output without progress lines, units parsed against a prefix)."""
    with tempfile.TemporaryDirectory(prefix="parse-equality-") as temp:
        cache = os.path.join(temp, "cache")
        fixes = os.path.join(temp, "fixes.yaml")
        cmd = ([cli, "--progress=plain", "--checks=-*,libtorch-*",
                "--header-filter=.*", "--cache-dir=" + cache,
                "--export-fixes=" + fixes] + axis_flags +
               [config or "--config={}"] + files + ["--"] + flags)
        result = subprocess.run(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                universal_newlines=True)
        # 3: a unit did not parse in full (a corpus program needs OpenCV);
        # the findings of the rest are still compared.
        if result.returncode not in (0, 1, 3):
            sys.exit("%s exited with %d:\n%s" % (cli, result.returncode,
                                                  result.stdout))
        exported = ""
        if os.path.exists(fixes):
            with open(fixes, encoding="utf-8") as f:
                exported = f.read()
    # Progress lines carry times, which differ between runs.
    with_prefix = len(re.findall(r"^\[\d+/\d+\] .*, preamble (?:built|reused)$",
                                 result.stdout, re.M))
    return PROGRESS.sub("", result.stdout) + exported, with_prefix


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
        # A configuration that names a file an earlier RUN line writes (a
        # summary file of another unit) holds only where lit runs the test;
        # the test itself runs every variant there.
        if "%t" in config:
            continue
        runs = re.findall(r"RUN: %check_libtorch_tidy.*", text)
        # Runs on the real headers alone (LibTorch 2.15's CUDA API, C++20
        # code) have no mock parse to compare.
        runs = [r for r in runs
                if not re.search(r"--variants\s+\S+", r) or
                "-mock" in re.search(r"--variants\s+(\S+)", r).group(1)]
        if not runs:
            continue
        v2 = [r for r in runs if "--mock-version 2" in r]
        if len(v2) < len(runs):
            groups[(tuple(mock), config)].append(path)
        if v2:
            # The mock's 2.x mode models LibTorch 2.15, which requires C++20.
            groups[(tuple(mock + ["-DLIBTORCH_MOCK_VERSION_MAJOR=2",
                                  "-std=c++20"]),
                    config)].append(path)
    return groups


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", required=True)
    parser.add_argument("--axis", required=True, choices=sorted(AXES),
                        action="append")
    parser.add_argument("--checks")
    parser.add_argument("--examples")
    parser.add_argument("--corpus")
    parser.add_argument("--against",
                        help="another build's libtorch-tidy (--axis build)")
    args = parser.parse_args()
    if ("build" in args.axis) != bool(args.against):
        parser.error("--axis build and --against go together")
    with open(args.tools, encoding="utf-8") as f:
        tools = json.load(f)

    groups = {}
    if args.checks:
        groups.update(groups_of_check_tests(tools, args.checks))
    real = (tuple(["-std=c++17"] + tools["torch_compile_flags"]), "")
    for directory in (args.examples, args.corpus):
        if directory:
            groups.setdefault(real, []).extend(sorted(glob.glob(
                os.path.join(directory, "**", "*.cpp"), recursive=True)))
    if not groups:
        sys.exit("nothing to compare: pass --checks, --examples or --corpus")

    axes = sorted(set(args.axis), key=args.axis.index)
    units = findings = with_prefix = 0
    for (flags, config), files in sorted(groups.items()):
        outputs = {}
        for name in [n for n in RUNS if any(n in AXES[a] for a in axes)]:
            cli = args.against if name == "reference build" else tools["cli"]
            outputs[name], used = run(cli, files, list(flags), config,
                                      RUNS[name])
            if name == "precompiled prefixes":
                with_prefix += used
        for axis in axes:
            reference, other = AXES[axis]
            if outputs[other] != outputs[reference]:
                sys.stdout.writelines(difflib.unified_diff(
                    outputs[reference].splitlines(True),
                    outputs[other].splitlines(True), reference, other))
                sys.exit("findings differ with %s (%s)" % (
                    " ".join(RUNS[other]), " ".join(flags)))
        units += len(files)
        findings += len(re.findall(r": (?:warning|error): ",
                                   outputs["default"]))
    if findings == 0:
        sys.exit("no findings at all: the comparison proves nothing")
    if "preamble" in axes and with_prefix == 0:
        sys.exit("no unit was parsed against a precompiled prefix: the "
                 "comparison proves nothing")
    for axis in axes:
        print("%s: identical: %d units, %d diagnostics" % (
            axis, units, findings) +
              (", %d parsed against a precompiled prefix" % with_prefix
               if axis == "preamble" else ""))


if __name__ == "__main__":
    main()
