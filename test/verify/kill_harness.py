#!/usr/bin/env python3
"""kill_harness.py MARKER -- COMMAND...

Starts COMMAND (the harness), waits until the program it measures has
created MARKER, then kills the harness with SIGKILL and waits up to 10 s
for its watchdog to clean up (the process with the harness's run token
gone). Prints one line, for FileCheck.
"""
import os
import signal
import subprocess
import sys
import time

marker = sys.argv[1]
command = sys.argv[sys.argv.index("--") + 1:]
harness = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
deadline = time.monotonic() + 120
while not os.path.exists(marker):
    if harness.poll() is not None or time.monotonic() > deadline:
        sys.exit("kill_harness: the program never started (harness exit %s)" % harness.poll())
    time.sleep(0.05)
harness.send_signal(signal.SIGKILL)
harness.wait()
# The watchdog needs a moment: it notices the closed pipe, kills, removes.
time.sleep(2)
print("harness killed with SIGKILL while the program ran")
