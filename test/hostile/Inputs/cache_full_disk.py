#!/usr/bin/env python3
"""cache_full_disk.py WORKDIR CLI MOCK_INCLUDE_DIR

A cache directory on a file system with room for the result entries but not
for a precompiled prefix (a 4 MiB tmpfs; the mock's prefix PCH is larger):
the worker used to die with "LLVM ERROR: IO failure on output stream: No
space left on device" (exit 3, no findings). Now the unit parses without the
prefix and keeps its findings; the run warns once, naming the cache; a
second run on the still full disk does not build the prefix again to throw
it away (one warning says so); once there is room, a run builds it (a full
disk is not remembered as a prefix that cannot be built). Run as root (the lit test REQUIRES
tmpfs-mount); the mount is always undone.
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from two_units import analyze, write_two_units  # noqa: E402


def main():
    work, cli, mock = sys.argv[1:4]
    units, mnt = write_two_units(work, "small")

    def run(cache):
        return analyze(cli, mock, units, cache, ["--preamble=always"])

    def edit(note):
        # A new body, the same include prefix: the results are not
        # replayed, the prefix is wanted again.
        for unit in units:
            with open(unit, "a") as f:
                f.write("// %s\n" % note)

    subprocess.check_call(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt])
    try:
        r, findings = run(mnt)
        sys.stdout.write("".join(l + "\n" for l in r.stderr.splitlines()
                                 if "warning" in l or "LLVM ERROR" in l))
        print("cache_full_disk: exit %d, %d findings" % (r.returncode, findings))
        leftovers = [n for _, _, files in os.walk(mnt) for n in files
                     if ".libtorch-tidy-" in n]
        print("cache_full_disk: temporary files left: %d" % len(leftovers))
        # Still full: the prefix is not built again to be thrown away.
        edit("still full")
        r, findings = run(mnt)
        sys.stdout.write("".join(l + "\n" for l in r.stderr.splitlines()
                                 if "warning" in l or "LLVM ERROR" in l))
        print("cache_full_disk: still full: exit %d, %d findings" % (
            r.returncode, findings))
        # Room made (the same files, a larger file system): built.
        subprocess.check_call(["mount", "-o", "remount,size=256m", mnt])
        edit("room made")
        r, findings = run(mnt)
        pchs = [n for _, _, files in os.walk(mnt) for n in files
                if n.endswith(".pch")]
        print("cache_full_disk: with room: exit %d, %d findings, %d prefix "
              "PCH, warnings %d" % (r.returncode, findings, len(pchs),
                                    r.stderr.count("warning")))
    finally:
        subprocess.call(["umount", mnt])

if __name__ == "__main__":
    main()
