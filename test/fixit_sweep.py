#!/usr/bin/env python3
"""The fix-it sweep: every fix-it the checks produce, applied and verified.

For each input file (a scratch copy), with every libtorch check enabled:

1. `libtorch-tidy --fix` applies the fix-its (one CLI run per file);
2. each file that changed must compile with g++ (`-fsyntax-only`) against
   the real LibTorch headers (in batches, test/compile_fixed.py: a failure
   is always that of the file compiled alone);
3. `libtorch-tidy --fix` again on the fixed file: it must report exactly
   the findings that had no fix-it (the fixed ones are gone, no new one
   appears), and must not change the file (fix-its are idempotent).
   Exceptions (UNMASKS): after a libtorch-cpu-only-device fix-it the
   program can use a GPU, so checks that judge only GPU programs may report
   new findings; after a libtorch-dataloader-no-workers fix-it the loader
   has workers and libtorch-dataloader-enforce-ordering may report; after a
   libtorch-eval-without-no-grad fix-it the loop is an evaluation loop,
   whose per-batch syncs libtorch-host-sync-in-loop reports; after a
   libtorch-tensor-created-off-device fix-it that copies a narrow tensor
   before widening it, libtorch-blocking-host-to-device-copy reports that
   copy if it blocks. Those
   findings are listed, not failed, and their own fix-its may change the
   file in the second run.

Inputs: the check tests (test/checks, once per RUN line that runs on the
real headers, with its compiler and tool arguments; tests that run on the
mock headers only are listed as skipped; where only the test's own checks
report, steps 2 and 3 are left to the check test, whose real-header
variants compile and re-check that same fixed file)
and the bundled examples. test/check_corpus.py runs the same sweep on the
corpus, reusing its analysis run as step 1.

Usage: fixit_sweep.py --tools TOOLS.json --temp DIR [--jobs N] PATH...
  PATH: a check test (.cpp with RUN lines) or a directory of examples.
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import resource
import shlex
import shutil
import sys
import time

from check_libtorch_tidy import warnings_with_fix_state
from compile_fixed import compile_all, libtorch_name, on_each_libtorch, run

ALL_CHECKS = "-*,libtorch-*"
# One CLI or compiler run on real LibTorch takes ~10-20 s of CPU; allow for a
# loaded machine. A run that takes longer is reported as a hang.
DEFAULT_TIMEOUT = 900
# Fix-its that let other checks see more: after a cpu-only-device fix-it the
# program can use a GPU, so the checks that judge only GPU programs may
# report; after a dataloader-no-workers fix-it the loader has workers, which
# the opt-in enforce-ordering check tunes. Findings they unmask are listed,
# not failed, and the fix-its of those findings may change the file in the
# second --fix run.
UNMASKS = {
    "libtorch-cpu-only-device": None,  # any check
    "libtorch-dataloader-no-workers": {"libtorch-dataloader-enforce-ordering"},
    # With the guard, a loop that runs the model and never trains is an
    # evaluation loop, whose per-batch syncs host-sync-in-loop reports.
    "libtorch-eval-without-no-grad": {"libtorch-host-sync-in-loop"},
    # Widening moved after the copy (`x.to(device).to(torch::kFloat)`)
    # leaves a plain host-to-device copy of the narrow tensor, which
    # blocking-host-to-device-copy leaves alone while the widening comes
    # first and reports once it is gone.
    "libtorch-tensor-created-off-device": {"libtorch-blocking-host-to-device-copy"},
}


class Job:
    """One file of the sweep: its scratch copy and how to compile it."""

    def __init__(self, name, path, compile_args, tool_args=(), build_dir=None):
        self.name = name              # how reports name the file
        self.path = path              # the scratch copy that --fix rewrites
        self.compile_args = list(compile_args)
        self.tool_args = list(tool_args)
        self.build_dir = build_dir    # run with -p BUILD_DIR instead of --
        self.first_output = None      # the CLI output of the --fix run
        self.first_code = None        # and its exit code
        self.parse_error_expected = False  # exit 3 is known and accepted
        self.original = None          # the text before --fix
        # A check test's own checks: where only they report, the fixed file
        # is the one its check test compiles and re-checks (the cli-real
        # variant, test/check_libtorch_tidy.py), so the sweep does not
        # compile it again.
        self.own_checks = set()


def shared_flags(tools):
    """The compiler flags of most jobs: the real headers, nothing else."""
    return ["-std=c++17"] + tools["torch_compile_flags"]


def cli_command(tools, job, fix):
    cmd = [tools["cli"], "--checks=" + ALL_CHECKS]
    if not any(a.startswith("--config") for a in job.tool_args):
        cmd.append("--config={}")
    if fix:
        cmd.append("--fix")
    if job.compile_args == shared_flags(tools):
        # These files start with the same LibTorch includes and flags, as a
        # project's units do, and are parsed against one precompiled prefix
        # in the cache: built by the first, reused by the rest. The CLI
        # makes that choice itself for units analyzed in one run; here each
        # file is a run of its own. Findings are the same either way
        # (test/parse_equality.py); a job with flags of its own (a -D, an
        # -std) would build a prefix for itself alone and is left to auto.
        cmd.append("--preamble=always")
    cmd += job.tool_args
    if job.build_dir:
        return cmd + ["-p", job.build_dir, job.path]
    return cmd + [job.path, "--"] + job.compile_args


def run_cli(tools, job, fix, timeout):
    """(error or None, output). Exit codes other than 0 and 1 are errors:
    a crash, a parse error (3) or a usage error (2)."""
    cmd = cli_command(tools, job, fix)
    code, out = run(cmd, timeout)
    job.last_code = code
    if code is None:
        return "libtorch-tidy timed out after %d s on %s" % (timeout, job.name), out
    if code not in ((0, 1, 3) if job.parse_error_expected else (0, 1)):
        what = "crashed (signal %d)" % -code if code < 0 else "exited with %d" % code
        return "libtorch-tidy %s on %s:\n$ %s\n%s" % (
            what, job.name, shlex.join(cmd), out[-4000:]), out
    return None, out


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def first_run(tools, job, timeout):
    """Step 1: --fix on the scratch copy. Returns an error or None."""
    job.original = read(job.path)
    error, job.first_output = run_cli(tools, job, True, timeout)
    job.first_code = job.last_code
    return error


def compile_errors(tools, jobs, scratch, workers, timeout):
    """Step 2 for the files whose copy --fix changed: their errors, and the
    number of g++ runs it took (test/compile_fixed.py batches them)."""
    compiles = [(job, c) for job in jobs
                for c in on_each_libtorch(tools, job.path, job.compile_args)]
    runs = compile_all(tools, [c for _, c in compiles], scratch, workers, timeout)
    errors = []
    for job, c in compiles:
        if not c.ok:
            errors.append("%s: the fixed file does not compile with g++ against %s%s:\n$ %s\n%s" % (
                job.name, libtorch_name(tools, c.headers),
                " (timed out)" if c.code is None else "",
                shlex.join(c.command), c.output[-4000:]))
    return errors, runs


def recheck_fixed(tools, job, timeout):
    """Step 3 for one file whose copy --fix changed."""
    errors = []
    fixed_text = read(job.path)
    error, out = run_cli(tools, job, True, timeout)
    if error:
        return errors + [error]
    before = warnings_with_fix_state(job.first_output)
    after = warnings_with_fix_state(out)
    want = collections.Counter((c, m) for c, m, fixed in before if not fixed)
    got = collections.Counter((c, m) for c, m, _ in after)
    fixed_checks = {c for c, _, fixed in before if fixed}
    gone, new = want - got, got - want
    unmaskers = fixed_checks & set(UNMASKS)
    allowed = set()
    for c in unmaskers:
        allowed |= UNMASKS[c] if UNMASKS[c] is not None else {c2 for c2, _ in new}
    # Findings carry no line (fix-its move code): an unmasked finding of a
    # check that also had fixed findings in this file looks like one of those
    # left unfixed. The check's own test shows its fix-its silence it; here
    # every new finding of an unmaskable check counts as unmasked.
    unmasked = collections.Counter({k: n for k, n in new.items() if k[0] in allowed})
    if unmasked:
        print("%s: after the %s fix-its, newly reported (unmasked): %s" % (
            job.name, ", ".join(sorted(unmaskers)),
            ", ".join(sorted(c for c, _ in unmasked.elements()))))
        new = new - unmasked
    unmasked_fixed = any(fixed and (c, m) in unmasked for c, m, fixed in after)
    if gone or new:
        errors.append("%s: after --fix, expected only the findings without a fix-it\n"
                      "  gone but had no fix-it: %s\n  new or not fixed: %s" % (
                          job.name, sorted(gone.elements(), key=str), sorted(new.elements(), key=str)))
    if read(job.path) != fixed_text and unmasked_fixed:
        print("%s: the second --fix applied the fix-its of the unmasked findings" % job.name)
    elif read(job.path) != fixed_text:
        errors.append("%s: --fix changed the file again (fix-its are not idempotent)" % job.name)
        with open(job.path + ".second-fix", "w", encoding="utf-8") as f:
            f.write(read(job.path))
    return errors


def elapsed(start):
    """Wall time since start and the CPU time of all child processes: the
    figures that size the test in CI."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return "%.0f s wall, %.0f s CPU" % (time.monotonic() - start,
                                         children.ru_utime + children.ru_stime)


def fix_count(job):
    return sum(1 for w in warnings_with_fix_state(job.first_output or "") if w[2])


class SweepResult:
    """What a sweep found and did."""

    def __init__(self):
        self.errors = []
        self.fixits = 0           # fix-its applied
        self.changed = 0          # files --fix changed
        self.covered = 0          # of those, check tests left to their test
        self.compiled = 0         # files compiled with g++ here
        self.gxx_runs = 0         # in that many g++ runs (batches)


def sweep(tools, jobs, scratch, workers, timeout, first_done=False):
    """Runs the sweep on jobs (g++ batches are written to scratch); returns
    a SweepResult. With first_done, step 1 already ran (job.first_output is
    set)."""
    result = SweepResult()
    errors = result.errors
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        if not first_done:
            for job, error in zip(jobs, pool.map(lambda j: first_run(tools, j, timeout), jobs)):
                if error:
                    errors.append(error)
        changed = [j for j in jobs if j.first_output is not None
                   and read(j.path) != j.original]
        verified = [j for j in changed if not covered_by_check_test(j)]
        compile_failures, result.gxx_runs = compile_errors(
            tools, verified, scratch, workers, timeout)
        errors += compile_failures
        for recheck_errors in pool.map(lambda j: recheck_fixed(tools, j, timeout), verified):
            errors += recheck_errors
    # A finding reported as fixed in a file that did not change is a broken
    # promise too (the fix was dropped, e.g. a conflict).
    for job in jobs:
        if job.first_output is not None and read(job.path) == job.original and fix_count(job):
            errors.append("%s: %d fix-its reported as applied, but the file did not change" % (
                job.name, fix_count(job)))
    result.fixits = sum(fix_count(j) for j in jobs)
    result.changed = len(changed)
    result.covered = len(changed) - len(verified)
    result.compiled = len(verified)
    return result


def gxx_summary(tools, result):
    against = "LibTorch 1.13"
    if tools.get("torch2_found"):
        against += " and " + libtorch_name(tools, "real2").split(" (")[0]
    return "%d files compiled against %s in %d g++ runs" % (
        result.compiled, against, result.gxx_runs)


def covered_by_check_test(job):
    """Only the check test's own checks report in it, with every libtorch
    check enabled: --fix made the edits its check test's cli-real variant
    makes, and that variant compiles the result with g++ and re-checks it
    (idempotence included)."""
    reporting = {check for check, _, _ in warnings_with_fix_state(job.first_output or "")}
    return bool(job.own_checks) and reporting <= job.own_checks


RUN_LINE = re.compile(r"^//\s*RUN:(.*)$")


def run_command_of(path):
    """The RUN command of a check test, continuation lines joined."""
    text, parts = [], []
    for line in read(path).splitlines():
        m = RUN_LINE.match(line)
        if m:
            parts.append(m.group(1).strip())
            if not parts[-1].endswith("\\"):
                text.append(" ".join(p.rstrip("\\").strip() for p in parts))
                parts = []
    return text


def check_test_jobs(tools, path, temp):
    """The Jobs of a check test, one per RUN line that runs on the real
    headers (its own compiler and tool arguments), or a reason to skip it."""
    jobs = []
    commands = [c for c in run_command_of(path) if "%check_libtorch_tidy" in c]
    # A configuration that names a file an earlier RUN line writes (a summary
    # file of another unit) holds only where lit runs the test.
    if any("%t" in c for c in commands if "--config" in c):
        return [], "reads a file its own RUN lines write (%t)"
    for command in commands:
        argv = shlex.split(command.replace("%check_libtorch_tidy", "")
                           .replace("%S", os.path.dirname(os.path.abspath(path)))
                           .replace("%s", path).replace("%t", "TEMP"))
        variants = None
        for i, a in enumerate(argv):
            if a == "--variants":
                variants = argv[i + 1]
        if variants is not None and not any(v.endswith("-real") for v in variants.split(",")):
            continue
        tool_args, compile_args = [], []
        if "--" in argv:
            rest = argv[argv.index("--") + 1:]
            if "--" in rest:
                tool_args, compile_args = rest[:rest.index("--")], rest[rest.index("--") + 1:]
            else:
                tool_args = rest
        name = os.path.relpath(path, os.path.dirname(os.path.dirname(os.path.abspath(path))))
        base = os.path.basename(path)
        if jobs:
            name += " (RUN line %d)" % (len(jobs) + 1)
            base = "%d-%s" % (len(jobs) + 1, base)
        copy = os.path.join(temp, "checks", base)
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        # CHECK lines are comments; they stay (line numbers do not matter here).
        shutil.copyfile(path, copy)
        args = shared_flags(tools) + compile_args
        # Findings in headers stay hidden: --fix must not edit a header of
        # the source tree (the check test copies its headers to do that).
        tool_args = [a for a in tool_args if not a.startswith("--header-filter")]
        job = Job(name, copy, args, tool_args)
        job.own_checks = set(own_checks_of(argv).split(","))
        jobs.append(job)
    if not jobs:
        return [], "runs on the mock headers only (--variants)"
    return jobs, None


def own_checks_of(argv):
    """The CHECKS argument of a %check_libtorch_tidy command line: the second
    positional argument (after SOURCE) before the first `--`."""
    with_value = {"--variants", "--check-suffix", "--mock-version", "--tools"}
    positional, skip = [], False
    for a in argv[:argv.index("--")] if "--" in argv else argv:
        if skip:
            skip = False
        elif a in with_value:
            skip = True
        elif not a.startswith("--"):
            positional.append(a)
    return positional[1]


def example_jobs(tools, directory, temp):
    jobs = []
    for path in sorted(glob.glob(os.path.join(directory, "*", "*.cpp"))):
        rel = os.path.relpath(path, directory)
        copy = os.path.join(temp, "examples", rel)
        os.makedirs(os.path.dirname(copy), exist_ok=True)
        shutil.copyfile(path, copy)
        jobs.append(Job("examples/" + rel, copy, shared_flags(tools)))
    return jobs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--temp", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=DEFAULT_TIMEOUT)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    tools = json.load(open(args.tools, encoding="utf-8"))
    if not tools["torch_found"]:
        sys.exit("the fix-it sweep needs LibTorch (Debian's libtorch-dev)")
    if os.path.isdir(args.temp):
        shutil.rmtree(args.temp)
    os.makedirs(args.temp)

    jobs = []
    for path in args.paths:
        if os.path.isdir(path):
            found = example_jobs(tools, path, args.temp)
            if not found:
                sys.exit("no examples under %s" % path)
            jobs += found
        else:
            found, reason = check_test_jobs(tools, path, args.temp)
            jobs += found
            if not found:
                print("skipped %s: %s" % (os.path.basename(path), reason))
    start = time.monotonic()
    result = sweep(tools, jobs, args.temp, args.jobs, args.timeout)
    for e in result.errors:
        print("FAILED: " + e)
        print("FAILED: " + e, file=sys.stderr)
    print("fix-it sweep: %d files, %d changed by --fix, %d fix-its applied, "
          "compiled with g++ -fsyntax-only and re-checked; %d problems (%s; "
          "%s; %d changed check tests where only their own checks report "
          "are compiled and re-checked by their check test)" % (
              len(jobs), result.changed, result.fixits, len(result.errors),
              elapsed(start), gxx_summary(tools, result), result.covered))
    if result.errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
