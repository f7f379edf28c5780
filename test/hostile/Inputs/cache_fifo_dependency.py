#!/usr/bin/env python3
"""cache_fifo_dependency.py WORKDIR CLI MOCK_INCLUDE_DIR

A header recorded in a cache entry that has since become a FIFO must not
block the cache lookup: the entry is stale, the unit is analyzed again, and
the analysis is bounded by --unit-timeout (exit 3). Every wait is bounded.
"""
import os
import shutil
import subprocess
import sys

TRAIN = """#include "settings.h"
#include <torch/torch.h>
"""


def main():
    work, cli, mock = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    source = os.path.join(work, "train.cpp")
    header = os.path.join(work, "settings.h")
    with open(source, "w") as f:
        f.write(TRAIN)
    with open(header, "w") as f:
        f.write("// settings\n")
    command = [cli, "--cache-dir=" + os.path.join(work, "cache"),
               "--unit-timeout=20", source, "--", "-std=c++17", "-isystem", mock]
    first = subprocess.run(command, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=300)
    if first.returncode != 0:
        sys.exit("cache_fifo_dependency: first run exited %d" % first.returncode)
    os.remove(header)
    os.mkfifo(header)
    try:
        second = subprocess.run(command, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                universal_newlines=True, timeout=200)
    except subprocess.TimeoutExpired:
        sys.exit("cache_fifo_dependency: the run hung on the FIFO")
    sys.stdout.write(second.stdout)
    print("cache_fifo_dependency: exit %d" % second.returncode)


if __name__ == "__main__":
    main()
