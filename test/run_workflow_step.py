#!/usr/bin/env python3
"""run_workflow_step.py WORKFLOW STEP WORKSPACE [TOOL_DIR]

Runs, with bash, the script lines of a GitHub Actions workflow between
`# BEGIN step STEP` and `# END step STEP`, in WORKSPACE, with the job's `env:`
values, GITHUB_WORKSPACE and GITHUB_OUTPUT set as the runner sets them, and
TOOL_DIR first on PATH. Prints the step's output and then GITHUB_OUTPUT's
lines; exits with the step's exit code. The tests of docs/ci/ run the very
commands the documented workflow runs.
"""
import os
import re
import subprocess
import sys
import textwrap


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    workflow, step, workspace = sys.argv[1:4]
    with open(workflow) as f:
        text = f.read()
    match = re.search(r"^([ \t]*)# BEGIN step %s\n(.*?)^[ \t]*# END step %s$"
                      % (re.escape(step), re.escape(step)), text, re.M | re.S)
    if not match:
        sys.exit("run_workflow_step: no step '%s' in %s" % (step, workflow))
    script = textwrap.dedent(match.group(2))
    env = dict(os.environ)
    # The job-level env block: `      NAME: value` lines after `    env:`.
    job_env = re.search(r"^    env:\n((?:      [A-Z_]+: .*\n|      #.*\n)+)", text, re.M)
    for line in (job_env.group(1) if job_env else "").splitlines():
        name_value = re.match(r"\s+([A-Z_]+): (\S+)", line)
        if name_value:
            env[name_value.group(1)] = name_value.group(2)
    output = os.path.join(workspace, ".github_output")
    open(output, "w").close()
    env["GITHUB_WORKSPACE"] = os.path.abspath(workspace)
    env["GITHUB_OUTPUT"] = output
    if len(sys.argv) == 5:
        env["PATH"] = os.path.abspath(sys.argv[4]) + os.pathsep + env["PATH"]
    result = subprocess.run(["bash", "-e", "-c", script], cwd=workspace, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True)
    sys.stdout.write(result.stdout)
    with open(output) as f:
        sys.stdout.write("".join("GITHUB_OUTPUT: " + line for line in f))
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
