#!/usr/bin/env python3
"""no_process_matches.py WORD...

Fails when a running process has exactly these words as its command line
(e.g. `sleep 4321`): the check that verify killed a hung program's children.
"""
import os
import sys

wanted = [w.encode() for w in sys.argv[1:]]
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            argv = f.read().rstrip(b"\0").split(b"\0")
    except OSError:
        continue
    if argv == wanted:
        sys.exit("no_process_matches: process %s still runs %s" % (pid, " ".join(sys.argv[1:])))
print("no process runs %s" % " ".join(sys.argv[1:]))
