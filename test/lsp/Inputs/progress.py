"""Work-done progress: "begin" goes out only after the client accepted the
token (its answer to window/workDoneProgress/create), never on a refused
token, and nothing is sent on a token the client answers only after the
analysis ended."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def progress_on(c, token):
    return [m["params"]["value"]["kind"] for m in c.taken("$/progress")
            if m["params"]["token"] == token]


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text}, args.flags)
    path = os.path.join(project, "train.cpp")
    for mode in ("accept", "refuse", "manual"):
        c = Client(args.server, progress=mode)
        try:
            c.initialize(capabilities={"window": {"workDoneProgress": True}})
            uri = c.open(path, text, version=1)
            create = c.wait_for(lambda m: m.get("method") == "window/workDoneProgress/create",
                                "window/workDoneProgress/create")
            token = create["params"]["token"]
            c.diagnostics(uri, version=1)
            kinds = progress_on(c, token)
            if mode == "accept":
                check(kinds == ["begin", "end"], "accepted: %r" % kinds)
            elif mode == "refuse":
                check(kinds == [], "refused: nothing on the token: %r" % kinds)
            else:
                check(kinds == [], "not answered yet: nothing on the token: %r" % kinds)
                # Answered after the analysis ended: still nothing.
                c.send({"jsonrpc": "2.0", "id": create["id"], "result": None})
                c.drain(1)
                kinds = progress_on(c, token)
                check(kinds == [], "answered late: nothing on the token: %r" % kinds)
            errors = [m for m in c.seen if "error" in m]
            check(not errors, "%s: no error: %r" % (mode, errors))
            check(c.shutdown() == 0, "%s: clean exit" % mode)
        finally:
            c.close()
        print("progress %s: ok" % mode)


main(scenario)
