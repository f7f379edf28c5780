#!/usr/bin/env python3
"""cache_preamble_file.py WORKDIR CLI MOCK_INCLUDE_DIR

A writable cache directory whose `preamble` is a regular file (someone
else's, or a mistake): two units that share a precompiled prefix used to
wait for it until --unit-timeout and fail. Now the run warns once, keeps
the result cache, analyzes without prefixes, and leaves the file as it was.
"""
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from two_units import analyze, write_two_units  # noqa: E402


def main():
    work, cli, mock = sys.argv[1:4]
    units, cache = write_two_units(work, "cache")
    blocker = os.path.join(cache, "preamble")
    with open(blocker, "w") as f:
        f.write("not ours\n")
    for run_name in ("first", "second"):
        start = time.monotonic()
        run, warnings = analyze(cli, mock, units, cache)
        took = time.monotonic() - start
        sys.stdout.write(run.stderr)
        # The analysis of two small units takes seconds: a wait for the
        # prefix until the two-minute time-out would show.
        print("%s: exit %d, %d findings, %s, file kept %s" % (
            run_name, run.returncode, warnings,
            "bounded" if took < 100 else "waited %.0f s" % took,
            open(blocker).read() == "not ours\n"))


if __name__ == "__main__":
    main()
