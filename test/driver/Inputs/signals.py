#!/usr/bin/env python3
"""signals.py TEMP CLI MOCK_INCLUDE_DIR

Interrupts `libtorch-tidy` while its units hang (each includes a FIFO that
nobody writes, which holds the parse) and checks that no worker process
survives and no temporary file is left in the run's own TMPDIR:

- SIGINT, SIGTERM, SIGHUP to the CLI: it dies of that signal (exit status
  128+N) once its workers are gone; a SIGINT it inherited ignored stays
  ignored;
- SIGKILL to the CLI: its workers die with it (they ask for PR_SET_PDEATHSIG)
  and remove the files it made for them;
- the CLI stopped (SIGSTOP): its worker ends by its own timeout, one second
  after --unit-timeout; resumed, the CLI reports the unit as timed out.

Every wait is bounded. Prints one line per case; exits non-zero with a
message at the first failure, after killing whatever it started.
"""
import os
import signal
import subprocess
import sys
import time

TEMP, CLI, MOCK = sys.argv[1:4]
started = []  # (parent Popen, units) of every run, for the final cleanup


class Failure(Exception):
    pass


def workers(units):
    """Live processes whose command line is a worker of one of `units`."""
    wanted = {b"--worker-unit=" + u.encode() for u in units}
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if wanted.intersection(argv):
            found.append(int(pid))
    return found


def wait_until(what, predicate, seconds):
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            raise Failure("not within %g s: %s" % (seconds, what))
        time.sleep(0.05)
    return seconds - (deadline - time.monotonic())


def default_signals():
    # lit's workers ignore SIGINT, and children inherit that; a CLI run from
    # a terminal has it at its default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start(case, units_count, timeout, preexec=default_signals):
    directory = os.path.join(TEMP, case)
    tmp = os.path.join(directory, "tmp")
    os.makedirs(tmp)
    os.mkfifo(os.path.join(directory, "gate.h"))
    units = []
    for i in range(units_count):
        unit = os.path.join(directory, "unit%d.cpp" % i)
        with open(unit, "w") as f:
            f.write('#include "gate.h"\nint main() { return 0; }\n')
        units.append(unit)
    env = dict(os.environ, TMPDIR=tmp)
    log = open(os.path.join(directory, "log"), "w+")
    parent = subprocess.Popen(
        [CLI, "--no-cache", "-j", str(units_count),
         "--unit-timeout=%d" % timeout] + units +
        ["--", "-std=c++17", "-isystem", MOCK],
        env=env, stdout=log, stderr=subprocess.STDOUT, preexec_fn=preexec)
    started.append((parent, units))
    wait_until("%d workers run" % units_count,
               lambda: len(workers(units)) == units_count, 60)
    return parent, units, tmp, log


def finish(parent, seconds=30):
    try:
        return parent.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        raise Failure("the CLI did not end within %d s" % seconds)


def leftovers(tmp):
    return sorted(os.listdir(tmp))


def no_worker_and_no_file(units, tmp, seconds=10):
    wait_until("every worker is gone (left: %s)" % workers(units),
               lambda: not workers(units), seconds)
    wait_until("TMPDIR is empty (left: %s)" % leftovers(tmp),
               lambda: not leftovers(tmp), 5)


def interrupted(sig, units_count):
    parent, units, tmp, log = start("sig%d" % sig, units_count, 600)
    os.kill(parent.pid, sig)
    rc = finish(parent)
    if rc != -sig:
        raise Failure("after %s the CLI exited with %s, expected death by "
                      "that signal" % (signal.Signals(sig).name, rc))
    no_worker_and_no_file(units, tmp)
    log.seek(0)
    text = log.read()
    if "libtorch-tidy: stopped by signal %d" % sig not in text:
        raise Failure("no 'stopped by signal' line; output:\n" + text)
    print("%s: died of it, %d workers stopped, no temporary file left" %
          (signal.Signals(sig).name, units_count))


def sigint_ignored():
    """A CLI started with SIGINT ignored (a shell's background job) keeps
    ignoring it; SIGTERM still stops it."""
    parent, units, tmp, _ = start("ignored", 1, 600, preexec=ignore_sigint)
    os.kill(parent.pid, signal.SIGINT)
    time.sleep(1)
    if parent.poll() is not None or not workers(units):
        raise Failure("SIGINT, inherited ignored, stopped the run")
    os.kill(parent.pid, signal.SIGTERM)
    rc = finish(parent)
    if rc != -signal.SIGTERM:
        raise Failure("after SIGTERM the CLI exited with %s" % rc)
    no_worker_and_no_file(units, tmp)
    print("SIGINT inherited ignored: ignored; SIGTERM then stopped the run")


def parent_killed():
    parent, units, tmp, _ = start("kill", 1, 600)
    os.kill(parent.pid, signal.SIGKILL)
    finish(parent)
    no_worker_and_no_file(units, tmp)
    print("SIGKILL: the worker died with its parent, no temporary file left")


def parent_stopped():
    parent, units, tmp, log = start("stop", 1, 3)
    os.kill(parent.pid, signal.SIGSTOP)
    try:
        waited = wait_until("the worker of a stopped CLI ends by itself",
                            lambda: not workers(units), 3 + 1 + 10)
    finally:
        os.kill(parent.pid, signal.SIGCONT)
    rc = finish(parent)
    log.seek(0)
    text = log.read()
    if rc != 3 or "did not finish within 3 s" not in text:
        raise Failure("expected exit 3 and a timed-out unit, got %d:\n%s" %
                      (rc, text))
    if leftovers(tmp):
        raise Failure("TMPDIR holds %s" % leftovers(tmp))
    print("stopped CLI: the worker ended by its own timeout (%.1f s after "
          "the stop), reported as timed out" % waited, file=sys.stderr)
    print("stopped CLI: the worker ended by its own timeout, reported as "
          "timed out")


def main():
    try:
        interrupted(signal.SIGINT, 1)
        interrupted(signal.SIGTERM, 2)
        interrupted(signal.SIGHUP, 1)
        sigint_ignored()
        parent_killed()
        parent_stopped()
    except Failure as e:
        sys.exit("signals: " + str(e))
    finally:
        for parent, units in started:
            for pid in workers(units):
                os.kill(pid, signal.SIGKILL)
            if parent.poll() is None:
                parent.kill()
                parent.wait()


main()
