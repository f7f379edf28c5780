#!/usr/bin/env python3
"""stream_check.py DIR FIFO PATTERN -- COMMAND...

Proves that COMMAND prints a finding on standard output while a later unit
is still being analyzed: the later unit includes FIFO, which holds it back
(a read of a FIFO waits for a writer). The script reads COMMAND's standard
output until a line contains PATTERN, and only then writes to FIFO, which
lets the later unit finish. If PATTERN does not come within 60 s, the FIFO
is opened anyway (so nothing is left waiting on it) and the check fails.
Every wait is bounded: nothing here can hang. Prints COMMAND's standard
output, then one line of verdict.
"""
import os
import select
import signal
import subprocess
import sys
import time

WAIT = 60


def release(fifo, deadline):
    """Opens FIFO for writing and closes it (the reader sees an empty file).
    False when no reader came before deadline."""
    while time.monotonic() < deadline:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # ENXIO: nobody reads it yet
            time.sleep(0.05)
            continue
        os.close(fd)
        return True
    return False


def main():
    args = sys.argv[1:]
    if len(args) < 5 or args[3] != "--":
        sys.exit(__doc__)
    directory, fifo, pattern, command = args[0], args[1], args[2], args[4:]
    proc = subprocess.Popen(command, cwd=directory, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    seen, out, pending = False, [], b""
    deadline = time.monotonic() + WAIT
    while not seen and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 0.1)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        chunk = os.read(proc.stdout.fileno(), 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            out.append(line.decode(errors="replace"))
            seen = seen or pattern in out[-1]
    still_running = proc.poll() is None
    released = release(fifo, time.monotonic() + 30)
    try:
        rest, _ = proc.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        rest, _ = proc.communicate()
    text = (pending + rest).decode(errors="replace")
    out += text.splitlines()
    print("\n".join(out))
    if not seen:
        sys.exit("stream_check: '%s' was not printed while the later unit "
                 "waited" % pattern)
    if not still_running or not released:
        sys.exit("stream_check: the later unit was not waiting on %s" % fifo)
    print("stream_check: printed while the later unit waited (exit %d)"
          % proc.returncode)


if __name__ == "__main__":
    main()
