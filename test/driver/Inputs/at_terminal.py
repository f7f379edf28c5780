"""Runs a command with its standard error on a terminal, as a user at a shell
runs it (its standard output discarded), and prints what it wrote there on
standard output, the terminal's CR LF line ends made LF. Exits with the
command's status.

  at_terminal.py [--then-wait-for=<glob>] -- <command>...

--then-wait-for: after the command ends, waits (at most 120 s) until a file
matches the glob: what a process the command left running writes last."""
import glob
import os
import pty
import subprocess
import sys
import time


def main():
    args = sys.argv[1:]
    wait_for = None
    while args and args[0] != "--":
        option = args.pop(0)
        if option.startswith("--then-wait-for="):
            wait_for = option[len("--then-wait-for="):]
        else:
            sys.exit("at_terminal.py: unknown option %r" % option)
    command = args[1:]
    leader, follower = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    written = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: every writer of the terminal closed it
            break
        if not chunk:
            break
        written += chunk
    status = process.wait()
    os.close(leader)
    sys.stdout.write(written.decode("utf-8", "replace").replace("\r\n", "\n"))
    if wait_for:
        deadline = time.monotonic() + 120
        while not glob.glob(wait_for):
            if time.monotonic() > deadline:
                sys.exit("at_terminal.py: nothing matched %s in 120 s" % wait_for)
            time.sleep(0.05)
    sys.exit(status)


main()
