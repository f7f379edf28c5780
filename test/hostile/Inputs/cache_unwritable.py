#!/usr/bin/env python3
"""cache_unwritable.py WORKDIR CLI MOCK_INCLUDE_DIR

A cache directory that cannot be written (here: on a read-only tmpfs, which
refuses root too; for a user, a directory of another owner): two units that
share a precompiled prefix used to wait for it until --unit-timeout and fail
with exit 3 and no findings. Now the run warns once, naming the directory,
analyzes without the cache and exits as usual. Run as root (the lit test
REQUIRES tmpfs-mount); the mount is always undone.
"""
import os
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from two_units import analyze, write_two_units  # noqa: E402


def main():
    work, cli, mock = sys.argv[1:4]
    units, mnt = write_two_units(work, "ro")
    subprocess.check_call(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", mnt])
    try:
        for cache in (mnt, os.path.join(mnt, "not-yet-made")):
            start = time.monotonic()
            run, warnings = analyze(cli, mock, units, cache)
            took = time.monotonic() - start
            sys.stdout.write(run.stderr)
            # The time-out is two minutes; the analysis of two small units
            # takes seconds: a wait for the prefix would show.
            print("cache_unwritable: exit %d, %d findings, %s" % (
                run.returncode, warnings,
                "bounded" if took < 100 else "waited %.0f s" % took))
    finally:
        subprocess.call(["umount", mnt])


if __name__ == "__main__":
    main()
