#!/usr/bin/env python3
"""full_disk.py WORKDIR CLI MOCK_INCLUDE_DIR LOADER_CPP

On a 1 MiB tmpfs filled to the last byte, --output must keep the previous
complete report, name the cause, exit 2 and leave no temporary file. Run as
root (the lit test REQUIRES tmpfs-mount); the mount is always undone.
"""
import os
import shutil
import subprocess
import sys


def main():
    work, cli, mock, loader = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    mnt = os.path.join(work, "mnt")
    os.makedirs(mnt)
    subprocess.check_call(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt])
    try:
        report = os.path.join(mnt, "report.json")
        previous = '{"version": 1, "complete": true}\n'
        with open(report, "w") as f:
            f.write(previous)
        # Fill the file system.
        try:
            with open(os.path.join(mnt, "filler"), "wb") as f:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
        except OSError:
            pass
        run = subprocess.run(
            [cli, "--no-cache", "--format=json", "--output=" + report, loader,
             "--", "-std=c++17", "-isystem", mock],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            universal_newlines=True, timeout=300)
        sys.stdout.write(run.stdout)
        with open(report) as f:
            kept = f.read()
        left = sorted(set(os.listdir(mnt)) - {"report.json", "filler"})
        print("full_disk: exit %d, previous report %s, leftovers %s" %
              (run.returncode, "kept" if kept == previous else "LOST", left))
    finally:
        subprocess.call(["umount", mnt])


if __name__ == "__main__":
    main()
