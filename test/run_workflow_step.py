#!/usr/bin/env python3
"""run_workflow_step.py WORKFLOW STEP WORKSPACE [TOOL_DIR] [--env NAME=VALUE]...

Runs, with bash, the script lines of a GitHub Actions workflow between
`# BEGIN step STEP` and `# END step STEP`, in WORKSPACE, with the `env:`
values of the job that holds the step, GITHUB_WORKSPACE and GITHUB_OUTPUT set
as the runner sets them, each --env (what a step's own `env:` or a matrix
would give), and TOOL_DIR first on PATH. Prints the step's output and then
GITHUB_OUTPUT's lines; exits with the step's exit code. The tests of docs/ci/
run the very commands the documented workflows run.
"""
import argparse
import os
import re
import subprocess
import sys
import textwrap


def main():
    parser = argparse.ArgumentParser(usage=__doc__.splitlines()[0])
    parser.add_argument("workflow")
    parser.add_argument("step")
    parser.add_argument("workspace")
    parser.add_argument("tool_dir", nargs="?")
    parser.add_argument("--env", action="append", default=[])
    args = parser.parse_args()
    with open(args.workflow) as f:
        text = f.read()
    match = re.search(r"^([ \t]*)# BEGIN step %s\n(.*?)^[ \t]*# END step %s$"
                      % (re.escape(args.step), re.escape(args.step)), text, re.M | re.S)
    if not match:
        sys.exit("run_workflow_step: no step '%s' in %s" % (args.step, args.workflow))
    script = textwrap.dedent(match.group(2))
    env = dict(os.environ)
    # The env block of the step's job: the last `    env:` block before it,
    # as `      NAME: value` lines.
    job_envs = list(re.finditer(r"^    env:\n((?:      [A-Z_]+: .*\n|      #.*\n)+)",
                                text[:match.start()], re.M))
    for line in (job_envs[-1].group(1) if job_envs else "").splitlines():
        name_value = re.match(r"\s+([A-Z_]+): (\S+)", line)
        if name_value:
            env[name_value.group(1)] = name_value.group(2)
    for assignment in args.env:
        name, _, value = assignment.partition("=")
        env[name] = value
    output = os.path.join(args.workspace, ".github_output")
    open(output, "w").close()
    env["GITHUB_WORKSPACE"] = os.path.abspath(args.workspace)
    env["GITHUB_OUTPUT"] = output
    if args.tool_dir:
        env["PATH"] = os.path.abspath(args.tool_dir) + os.pathsep + env["PATH"]
    result = subprocess.run(["bash", "-e", "-c", script], cwd=args.workspace, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True)
    sys.stdout.write(result.stdout)
    with open(output) as f:
        sys.stdout.write("".join("GITHUB_OUTPUT: " + line for line in f))
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
