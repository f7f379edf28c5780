#!/usr/bin/env python3
"""expect_exit.py [--one-line] CODE COMMAND...

Runs COMMAND with stderr merged into stdout, prints its output, and succeeds
only if it exited with CODE (and, with --one-line, printed exactly one line).
Used by the lit tests of documented exit codes.
"""
import subprocess
import sys


def main():
    args = sys.argv[1:]
    one_line = False
    if args and args[0] == "--one-line":
        one_line, args = True, args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    expected, command = int(args[0]), args[1:]
    result = subprocess.run(command, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, universal_newlines=True)
    sys.stdout.write(result.stdout)
    if result.returncode != expected:
        sys.exit("expect_exit: %s exited with %d, expected %d" %
                 (command[0], result.returncode, expected))
    if one_line and len(result.stdout.splitlines()) != 1:
        sys.exit("expect_exit: expected exactly one line of output, got %d" %
                 len(result.stdout.splitlines()))


if __name__ == "__main__":
    main()
