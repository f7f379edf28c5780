#!/usr/bin/env python3
"""run_pre_commit_hook.py HOOKS_YAML HOOK_ID BIN_DIR [ARG...] [-- FILE...]

Runs one hook of a .pre-commit-hooks.yaml the way pre-commit runs a
`language: system` hook: the `entry` split like a shell command line, then
ARGs (what a user's `args:` gives), then the FILEs unless the hook says
`pass_filenames: false`; with BIN_DIR first on PATH. The FILEs must match
the hook's `files` pattern, as pre-commit would filter them. Exits with the
hook's exit code and prints its output.
"""
import os
import re
import shlex
import subprocess
import sys

import yaml


def main():
    hooks_path, hook_id, bin_dir = sys.argv[1:4]
    rest = sys.argv[4:]
    files = []
    if "--" in rest:
        split = rest.index("--")
        rest, files = rest[:split], rest[split + 1:]
    with open(hooks_path) as f:
        hooks = {hook["id"]: hook for hook in yaml.safe_load(f)}
    hook = hooks[hook_id]
    if hook.get("language") != "system":
        sys.exit("run_pre_commit_hook: %s is not a system hook" % hook_id)
    pattern = re.compile(hook.get("files", ""))
    for name in files:
        if not pattern.search(name):
            sys.exit("run_pre_commit_hook: %s does not match files: %s" %
                     (name, hook.get("files")))
    command = shlex.split(hook["entry"]) + hook.get("args", []) + rest
    if hook.get("pass_filenames", True):
        command += files
    env = dict(os.environ)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")
    result = subprocess.run(command, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, universal_newlines=True)
    sys.stdout.write(result.stdout)
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
