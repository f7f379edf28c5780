#!/usr/bin/env python3
"""as_unprivileged.py COMMAND...

Runs COMMAND as a user without special file permissions, so that a file
with mode 000 really cannot be read: as the current user when that is not
root, else as `nobody` (root reads every file whatever its mode). Exits with
COMMAND's exit code.
"""
import os
import sys


def main():
    command = sys.argv[1:]
    if os.geteuid() == 0:
        import pwd
        nobody = pwd.getpwnam("nobody")
        os.setgroups([])
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
