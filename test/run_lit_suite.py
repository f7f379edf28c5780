#!/usr/bin/env python3
"""run_lit_suite.py --name NAME --time-limit S --test-time-limit T --jobs J
                     --results DIR -- LIT... PATH...

Runs one lit suite (one ctest test, test/CMakeLists.txt):

- lit's result line of each test (`PASS: libtorch-tidy :: driver/jobs.test
  (3 of 26)`) is printed and flushed as the test finishes, so `ctest -V`
  streams it into the log;
- at the end, every test that did not pass (failed, timed out, unsupported,
  skipped, expectedly failed) is listed by name, and written to
  DIR/NAME.txt, which scripts/test prints after ctest: none is left silent;
- past S seconds it prints which tests were running (test/lit.cfg.py logs
  each test's start to $LIBTORCH_TIDY_LIT_STARTED) and how many had not
  started, stops lit with its children and fails, before ctest's own
  TIMEOUT (a minute later) would kill it without a word.

LIT... is the command that runs lit (interpreter and lit.py); lit gets -v,
-j J and the PATHs (suite directories or test files of build/test), and
test/lit.cfg.py a per-test limit of T seconds, which lit enforces (with
psutil) by reporting the test as TIMEOUT and going on with the others.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

RESULT = re.compile(r"^([A-Z]+): (.+) \(\d+ of \d+\)$")
NOT_PASSED = ("FAIL", "XPASS", "TIMEOUT", "UNRESOLVED", "UNSUPPORTED",
              "SKIPPED", "XFAIL", "FLAKYPASS")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", required=True)
    parser.add_argument("--time-limit", type=float, required=True)
    parser.add_argument("--test-time-limit", type=int, required=True)
    parser.add_argument("--jobs", type=int, required=True)
    parser.add_argument("--results", required=True)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    os.makedirs(args.results, exist_ok=True)
    summary_file = os.path.join(args.results, args.name + ".txt")
    started_file = os.path.join(args.results, args.name + ".started")
    for stale in (summary_file, started_file):
        if os.path.exists(stale):
            os.remove(stale)
    env = dict(os.environ, LIBTORCH_TIDY_LIT_STARTED=started_file,
               LIBTORCH_TIDY_LIT_TEST_TIMEOUT=str(args.test_time_limit),
               PYTHONUNBUFFERED="1")
    # --time-tests: lit ends with the suite's slowest tests and their times,
    # which is where a CI run that grows too long shows what to look at.
    lit = (args.command[:2] + ["-v", "--time-tests", "-j", str(args.jobs)] +
           args.command[2:])
    print("lit suite %s: %s" % (args.name, " ".join(lit)), flush=True)
    # A session of its own: on a time-out the whole tree goes at once.
    proc = subprocess.Popen(lit, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)

    def stop_lit():
        for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 30)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                proc.wait(timeout=grace)
                return
            except subprocess.TimeoutExpired:
                pass

    # lit is in a session of its own, out of reach of the terminal's Ctrl-C
    # and of whatever stops ctest: pass such a signal on.
    def interrupted(sig, frame):
        stop_lit()
        print("lit suite %s: stopped by signal %d" % (args.name, sig),
              flush=True)
        os._exit(128 + sig)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, interrupted)
    finished = {}
    total = [0]

    def read():
        for raw in iter(proc.stdout.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            print(line, flush=True)
            m = RESULT.match(line)
            if m:
                finished[m.group(2)] = m.group(1)
            # "-- Testing: 26 tests" or, filtered, "-- Testing: 2 of 26 tests"
            m = re.match(r"^-- Testing: (\d+) (of \d+ )?tests", line)
            if m:
                total[0] = int(m.group(1))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        proc.wait(timeout=args.time_limit)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            with open(started_file) as f:
                started = [line.strip() for line in f if line.strip()]
        except OSError:
            started = []
        running = [t for t in started if t not in finished]
        print("lit suite %s: TIME-OUT after %g s: %d of %d tests finished; "
              "still running: %s; not started: %d" %
              (args.name, args.time_limit, len(finished), total[0],
               ", ".join(running) or "none", max(0, total[0] - len(started))),
              flush=True)
        stop_lit()
        for test in running:
            finished[test] = "TIMEOUT"
    reader.join(timeout=10)

    not_passed = sorted((code, test) for test, code in finished.items()
                        if code in NOT_PASSED)
    with open(summary_file, "w") as f:
        for code, test in not_passed:
            f.write("%s: %s\n" % (code, test))
        if timed_out:
            f.write("TIMEOUT: lit suite %s stopped after %g s\n" %
                    (args.name, args.time_limit))
    counts = {}
    for code in finished.values():
        counts[code] = counts.get(code, 0) + 1
    print("lit suite %s: %s" % (args.name, ", ".join(
        "%d %s" % (n, code) for code, n in sorted(counts.items())) or
        "no test ran"), flush=True)
    for code, test in not_passed:
        print("  %s: %s" % (code, test), flush=True)
    if timed_out:
        return 1
    return proc.returncode


sys.exit(main())
