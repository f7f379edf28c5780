#!/usr/bin/env python3
"""Runs libtorch-tidy with every libtorch check over the corpus (test/corpus).

The corpus is realistic LibTorch code, annotated line by line:

  // EXPECT: <check-id>[, <check-id>...]   the line must be reported
  // OK: <why>                              idiomatic code: must not be reported
  // FIXME-FP: <check-id> <why>             reported, wrongly (a known false positive)
  // FIXME-FN: <check-id> <why>             a finding the check misses (known)

Unmarked lines must not be reported either. A marker of a check that the
tool does not register (yet) is skipped and listed. Known false positives
and misses count in the precision and recall, and fail the test once they
are fixed, so that their markers are updated.

Each translation unit (every .cpp under the corpus; `// CORPUS-FLAGS: ...`
in its first lines adds compiler flags, e.g. -std=c++20, and
`// CORPUS-KNOWN-PARSE-ERROR: <why>` accepts exit code 3 for a file that
Clang cannot parse but g++ can) is analyzed from a
compile_commands.json, against the real LibTorch headers, with --fix on a
scratch copy: the same run then feeds the fix-it sweep (fixit_sweep.py):
every changed file must compile with g++ -fsyntax-only, and a second --fix
run must leave only the unfixed findings and change nothing.

A *project* is a directory of the corpus with two or more .cpp files (a
trainer split over units): before its units are analyzed, one run over all
of them writes their summaries (--export-summaries), and each of its units
then reads them (libtorch-tidy.SummaryFile, --summaries=off): a loss or a
metric defined in one unit is seen from the step in another, from the
files as written, whatever order the --fix runs rewrite them in.

The test fails on a crash, a timeout, a parse error, a missed or an
unexpected finding, or a fix-it that breaks its promise. It prints
precision and recall per check.

Usage: check_corpus.py --tools TOOLS.json --corpus DIR --temp DIR [--jobs N]
"""
import argparse
import collections
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from check_libtorch_tidy import DIAG
from compile_fixed import run
from fixit_sweep import (ALL_CHECKS, DEFAULT_TIMEOUT, Job, elapsed, first_run,
                         gxx_summary, shared_flags, sweep)

CHECK_ID = re.compile(r"libtorch-[a-z0-9-]+")
MARKER = re.compile(r"//\s*(EXPECT|OK|FIXME-FP|FIXME-FN):")
FLAGS = re.compile(r"//\s*CORPUS-FLAGS:\s*(.*)$")
PARSE_ERROR = re.compile(r"//\s*CORPUS-KNOWN-PARSE-ERROR:")


def parse_markers(root, rel):
    """{kind: {(rel, line, check)}}, OK lines as (rel, line, None). A line
    may hold several markers: `// EXPECT: a // FIXME-FP: b why`."""
    found = collections.defaultdict(set)
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            parts = MARKER.split(line)
            # [before, kind, text, kind, text, ...]
            for kind, text in zip(parts[1::2], parts[2::2]):
                if kind == "OK":
                    found[kind].add((rel, number, None))
                    continue
                ids = CHECK_ID.findall(text)
                if kind != "EXPECT":
                    ids = ids[:1]
                if not ids:
                    sys.exit("%s:%d: a %s marker names no check" % (rel, number, kind))
                for check in ids:
                    found[kind].add((rel, number, check))
    return found


def corpus_files(root):
    sources, all_files = [], []
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(directory, name), root)
            if name.endswith((".cpp", ".h")):
                all_files.append(rel)
            if name.endswith(".cpp"):
                sources.append(rel)
    return sorted(sources), sorted(all_files)


def projects(sources):
    """{directory: its .cpp files} for the directories with two or more."""
    by_directory = collections.defaultdict(list)
    for rel in sources:
        if os.path.dirname(rel):
            by_directory[os.path.dirname(rel)].append(rel)
    return {d: units for d, units in by_directory.items() if len(units) > 1}


def export_summaries(tools, project, units, src_root, build_dir, temp, timeout):
    """Writes the summaries of a project's units; returns (path, error)."""
    path = os.path.join(temp, project.replace(os.sep, "_") + ".summaries.json")
    cmd = [tools["cli"], "--checks=" + ALL_CHECKS, "--config={}", "--no-cache",
           "--export-summaries=" + path, "-p", build_dir] + [
               os.path.join(src_root, rel) for rel in units]
    code, out = run(cmd, timeout)
    if code not in (0, 1) or not os.path.isfile(path):
        return path, "exporting the summaries of %s failed (exit %s):\n$ %s\n%s" % (
            project, code, shlex.join(cmd), (out or "")[-4000:])
    return path, None


def header_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line for _, line in zip(range(5), f)]


def extra_flags(path):
    for line in header_lines(path):
        m = FLAGS.search(line)
        if m:
            return m.group(1).split()
    return []


def parse_error_expected(path):
    return any(PARSE_ERROR.search(line) for line in header_lines(path))


def registered_checks(tools):
    out = subprocess.run([tools["cli"], "--list-checks", "--checks=-*,libtorch-*", "--config={}"],
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    return {l.strip() for l in out.splitlines() if l.strip().startswith("libtorch-")}


def findings(job, src_root):
    found, errors = collections.Counter(), []
    for line in job.first_output.splitlines():
        m = DIAG.match(line)
        if not m or m.group("level") == "note":
            continue
        rel = os.path.relpath(m.group("file"), src_root)
        if m.group("level") == "error":
            if not job.parse_error_expected:
                errors.append("%s: compile error: %s" % (job.name, line))
            continue
        found[(rel, int(m.group("line")), m.group("check"))] += 1
    return found, errors


def ratio(a, b):
    return "%.2f" % (a / b) if b else "n/a"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--temp", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT)
    parser.add_argument("--only", help="a regex: analyze only the matching translation units "
                        "(while editing the corpus; the test runs them all)")
    args = parser.parse_args()
    tools = json.load(open(args.tools, encoding="utf-8"))
    if not tools["torch_found"]:
        sys.exit("the corpus test needs LibTorch (Debian's libtorch-dev)")
    start = time.monotonic()

    sources, all_files = corpus_files(args.corpus)
    if args.only:
        sources = [s for s in sources if re.search(args.only, s)]
        all_files = [f for f in all_files if f.endswith(".h") or f in sources]
    elif len(sources) < 30:
        sys.exit("the corpus has %d translation units; it should have at least 30" % len(sources))
    markers = collections.defaultdict(set)
    for rel in all_files:
        for kind, items in parse_markers(args.corpus, rel).items():
            markers[kind] |= items

    # Scratch copy of the whole tree (headers included) and its database.
    if os.path.isdir(args.temp):
        shutil.rmtree(args.temp)
    src_root = os.path.join(args.temp, "src")
    build_dir = os.path.join(args.temp, "build")
    shutil.copytree(args.corpus, src_root, ignore=shutil.ignore_patterns("*.test", "lit.local.cfg"))
    os.makedirs(build_dir)
    jobs, database = [], []
    for rel in sources:
        path = os.path.join(src_root, rel)
        flags = shared_flags(tools) + extra_flags(path)
        # A later -std wins, as with the compiler.
        database.append({"directory": os.path.dirname(path), "file": path,
                         "arguments": ["/usr/bin/c++"] + flags + ["-c", path, "-o", "/dev/null"]})
        job = Job(rel, path, flags, build_dir=build_dir)
        job.parse_error_expected = parse_error_expected(path)
        jobs.append(job)
    with open(os.path.join(build_dir, "compile_commands.json"), "w", encoding="utf-8") as f:
        json.dump(database, f, indent=1)

    # A project's units read the summaries of all of them, written first.
    failures = []
    by_name = {job.name: job for job in jobs}
    for project, units in sorted(projects(sources).items()):
        summaries, error = export_summaries(tools, project, units, src_root, build_dir,
                                            args.temp, args.timeout)
        if error:
            failures.append(error)
            continue
        for rel in units:
            by_name[rel].tool_args += [
                "--summaries=off",
                "--config={CheckOptions: {libtorch-tidy.SummaryFile: '%s'}}" % summaries]

    # One --fix run per translation unit: its findings are checked against the
    # markers, and the files it fixed go through the sweep.
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        run_errors = [e for e in pool.map(lambda j: first_run(tools, j, args.timeout), jobs) if e]
    failures += run_errors
    found = collections.Counter()
    for job in jobs:
        if job.first_output is None:
            continue
        f, errors = findings(job, src_root)
        found += f
        failures += errors
    for key, n in found.items():
        if n > 1:
            failures.append("%s:%d: %d findings of %s on one line" % (key[0], key[1], n, key[2]))
    found_set = set(found)
    for job in jobs:
        if job.parse_error_expected and job.first_code not in (None, 3):
            failures.append("%s parses now (exit %d): remove its CORPUS-KNOWN-PARSE-ERROR "
                            "line" % (job.name, job.first_code))

    checks = registered_checks(tools)
    marked_ids = {c for kind in ("EXPECT", "FIXME-FP", "FIXME-FN") for _, _, c in markers[kind]}
    pending = sorted(marked_ids - checks)
    expect = {m for m in markers["EXPECT"] if m[2] in checks}
    known_fp = {m for m in markers["FIXME-FP"] if m[2] in checks}
    known_fn = {m for m in markers["FIXME-FN"] if m[2] in checks}
    ok_lines = {(r, l) for r, l, _ in markers["OK"]}

    for r, l, c in sorted(expect - found_set):
        failures.append("MISSED: %s:%d %s" % (r, l, c))
    for r, l, c in sorted(found_set - expect - known_fp):
        where = " (a line marked OK)" if (r, l) in ok_lines else ""
        failures.append("UNEXPECTED: %s:%d %s%s" % (r, l, c, where))
    for r, l, c in sorted(known_fp - found_set):
        failures.append("FIXED? %s:%d %s is marked FIXME-FP but no longer reported: "
                        "remove the marker" % (r, l, c))
    for r, l, c in sorted(known_fn & found_set):
        failures.append("FIXED? %s:%d %s is marked FIXME-FN but now reported: "
                        "make it an EXPECT marker" % (r, l, c))

    print("corpus: %d translation units, %d files, %d EXPECT markers, %d OK lines" % (
        len(sources), len(all_files), len(markers["EXPECT"]), len(ok_lines)))
    print("%-42s %5s %5s %4s %4s %4s %9s %6s" % ("check", "marks", "found", "TP", "FP", "FN",
                                                 "precision", "recall"))
    for check in sorted(checks):
        e = {m for m in expect | known_fn if m[2] == check}
        f = {m for m in found_set if m[2] == check}
        tp, fp, fn = len(e & f), len(f - e), len(e - f)
        print("%-42s %5d %5d %4d %4d %4d %9s %6s" % (check, len(e), len(f), tp, fp, fn,
                                                     ratio(tp, tp + fp), ratio(tp, tp + fn)))
    for check in pending:
        n = sum(1 for kind in ("EXPECT", "FIXME-FP", "FIXME-FN") for m in markers[kind] if m[2] == check)
        print("%-42s not registered: skipped (%d markers)" % (check, n))

    # The fix-it sweep over what the analysis run fixed.
    swept = sweep(tools, [j for j in jobs if j.first_output is not None],
                  args.temp, args.jobs, args.timeout, first_done=True)
    failures += swept.errors
    print("corpus fix-it sweep: %d fix-its applied in %d files, compiled with "
          "g++ -fsyntax-only and re-checked (%s)" % (swept.fixits, swept.changed,
                                                     gxx_summary(tools, swept)))
    for f in failures:
        print("FAILED: " + f)
        print("FAILED: " + f, file=sys.stderr)
    print("corpus: %d problems (%s)" % (len(failures), elapsed(start)))
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
