#!/usr/bin/env python3
"""as_unprivileged.py COMMAND...

Runs COMMAND as a user without special file permissions, so that a file
with mode 000 really cannot be read: as the current user when that is not
root, else as `nobody` (root reads every file whatever its mode). Exits with
COMMAND's exit code.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    command = sys.argv[1:]
    if os.geteuid() != 0:
        os.execvp(command[0], command)
    import pwd
    nobody = pwd.getpwnam("nobody")
    # The tool writes temporary files (its workers' results) and its result
    # cache; give that user a place of its own for both, in /tmp itself: the
    # caller's TMPDIR (lit's) is private to the caller.
    scratch = tempfile.mkdtemp(prefix="as-unprivileged-", dir="/tmp")
    os.chown(scratch, nobody.pw_uid, nobody.pw_gid)
    env = dict(os.environ, TMPDIR=scratch,
               XDG_CACHE_HOME=os.path.join(scratch, "cache"))

    def drop_privileges():
        os.setgroups([])
        os.setgid(nobody.pw_gid)
        os.setuid(nobody.pw_uid)

    try:
        return subprocess.run(command, env=env,
                              preexec_fn=drop_privileges).returncode
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
