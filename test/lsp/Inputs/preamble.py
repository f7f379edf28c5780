"""The precompiled preamble in the editor: the first analysis of a file
builds none (once is no reason to), the second builds it and says so as
work-done progress while it builds (a `report` between `begin` and `end`),
the third reuses it; the findings stay the same."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import Client, check, main, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def analysis_progress(c):
    """[(kind, message)] of the newest analysis's progress token, after
    answering the server's window/workDoneProgress/create."""
    creates = c.taken("window/workDoneProgress/create")
    check(creates, "a progress token was created")
    for create in creates:
        c.seen.remove(create)
        c.send({"jsonrpc": "2.0", "id": create["id"], "result": None})
    token = creates[-1]["params"]["token"]
    return [(m["params"]["value"]["kind"], m["params"]["value"].get("message", ""))
            for m in c.taken("$/progress") if m["params"]["token"] == token]


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text}, args.flags)
    path = os.path.join(project, "train.cpp")
    # A cache of its own: what earlier tests built does not count.
    c = Client(args.server, env={"XDG_CACHE_HOME": os.path.join(args.work, "cache")})
    try:
        c.initialize(capabilities={"window": {"workDoneProgress": True}})
        uri = c.open(path, text, version=1)
        first = c.diagnostics(uri, version=1)["diagnostics"]
        check(first, "findings: %r" % first)
        progress = analysis_progress(c)
        check([k for k, _ in progress] == ["begin", "end"] and
              "preamble" not in progress[-1][1],
              "the first analysis builds no preamble: %r" % progress)

        edited = text.replace("model->to(device);", "model->to(device); // moved")
        c.change(path, 2, [{"text": edited}])
        second = c.diagnostics(uri, version=2)["diagnostics"]
        progress = analysis_progress(c)
        check([k for k, _ in progress] == ["begin", "report", "end"],
              "the build is reported while it runs: %r" % progress)
        check(progress[1][1].startswith("building the preamble (<torch/torch.h>)"),
              "what is built: %r" % progress)
        check(progress[2][1].endswith("preamble built"), "%r" % progress)
        check(len(second) == len(first), "the same findings: %r" % second)

        c.change(path, 3, [{"text": edited + "\n"}])
        third = c.diagnostics(uri, version=3)["diagnostics"]
        progress = analysis_progress(c)
        check([k for k, _ in progress] == ["begin", "end"] and
              progress[-1][1].endswith("preamble reused"),
              "the third analysis reuses it: %r" % progress)
        check(len(third) == len(first), "the same findings: %r" % third)
        logs = [m["params"]["message"] for m in c.taken("window/logMessage")]
        check(any("train.cpp: building the preamble (<torch/torch.h>)" in l for l in logs),
              "the build is in the log too: %r" % logs)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


main(scenario)
