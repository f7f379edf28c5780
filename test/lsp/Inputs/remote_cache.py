"""The remote result cache in the editor: a file opened unchanged gets the
findings another machine stored (one Redis GET that hits, no analysis
needed) but none of its fix-its (network data is shown, never offered as
an edit), the server never writes the cache, and an edited buffer is not
looked up (its entry would not match what the editor shows) and gets the
quick fixes of the analysis here."""
import os
import time
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
from lsp_client import Client, check, main, write_project  # noqa: E402
import remote_servers as rs  # noqa: E402


def stats(port):
    """(GETs that hit, GETs that missed, SETs) so far."""
    info = rs.redis_cli(port, "INFO", "all").decode()

    def number(pattern):
        m = re.search(pattern, info)
        return int(m.group(1)) if m else 0
    return (number(r"keyspace_hits:(\d+)"), number(r"keyspace_misses:(\d+)"),
            number(r"cmdstat_set:calls=(\d+)"))


def quick_fixes(c, path, diagnostics):
    """The code actions of DIAGNOSTICS that edit the file (silencing a
    finding is a comment of the user's choosing, not a fix-it)."""
    edits = []
    for d in diagnostics:
        for action in c.result(c.code_actions(path, d["range"]["start"],
                                              d["range"]["start"],
                                              diagnostics=[d])) or []:
            if action.get("kind") == "quickfix" and "edit" in action and \
                    not action.get("title", "").startswith("Silence"):
                edits.append(action["title"])
    return edits


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text}, args.flags)
    subprocess.run(["git", "init", "-q", project], check=True)
    path = os.path.join(project, "train.cpp")
    with rs.redis(args.work) as (url, port):
        # Another machine (here: the CLI with its own cache) stores it.
        cli = subprocess.run(
            args.server + ["-p", project, "--format=json",
                           "--cache-dir=" + os.path.join(args.work, "cli-cache"),
                           "--remote-cache=" + url, path],
            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            universal_newlines=True)
        check(cli.returncode == 1, "the CLI found something: %s" % cli.stderr)
        stored = stats(port)
        check(stored[2] == 1, "the CLI stored one entry: %r" % (stored,))

        c = Client(args.server, args=["--remote-cache=" + url], cwd=project,
                   env={"XDG_CACHE_HOME": os.path.join(args.work, "lsp-cache")})
        try:
            c.initialize()
            uri = c.open(path, text, version=1)
            first = c.diagnostics(uri, version=1)["diagnostics"]
            check(first, "findings: %r" % first)
            after_open = stats(port)
            check(after_open[0] == stored[0] + 1,
                  "opened unchanged: one GET that hit: %r -> %r" %
                  (stored, after_open))
            check(after_open[2] == stored[2], "nothing written")
            offered = quick_fixes(c, path, first)
            check(not offered,
                  "no fix-it of a remote entry is offered: %r" % offered)
            # Not analyzed here: an analysis records the unit's include
            # prefix in the local cache (as the edit below shows).
            local = os.path.join(args.work, "lsp-cache", "libtorch-tidy")

            def analyzed_here():
                # The build's hash, kept for the remote keys, is no analysis.
                return os.path.exists(local) and \
                    set(os.listdir(local)) - {"build-hashes"}
            check(not analyzed_here(),
                  "the remote result was used, not analyzed: %r" %
                  (os.listdir(local) if os.path.exists(local) else None))

            edited = text.replace("model->to(device);",
                                  "model->to(device); // moved")
            c.change(path, 2, [{"text": edited}])
            second = c.diagnostics(uri, version=2)["diagnostics"]
            check(len(second) == len(first), "the same findings: %r" % second)
            check(quick_fixes(c, path, second),
                  "the analysis here offers its fix-its")
            # (Its prefix, built apart once the analysis says it is
            # missing, is what lands in the local cache.)
            deadline = time.monotonic() + 120
            while not analyzed_here() and time.monotonic() < deadline:
                time.sleep(0.1)
            check(analyzed_here(), "the edit was analyzed here")
            check(stats(port) == after_open,
                  "an edited buffer is not looked up, nothing is written: "
                  "%r -> %r" % (after_open, stats(port)))
            c.shutdown()
        finally:
            c.close()
        print("%d findings from the remote cache, the same after an edit" %
              len(first))


if __name__ == "__main__":
    main(scenario)
