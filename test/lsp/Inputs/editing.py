"""Edits: incremental sync with UTF-16 ranges, the debounce (a burst of edits
is analyzed once, at its last version), $/cancelRequest of a code action
waiting for an analysis, ContentModified when the document changes under
it, and didClose clearing the diagnostics."""
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import (Client, apply_edits, check, main, position_of,  # noqa: E402
                        write_project)

HERE = os.path.dirname(os.path.abspath(__file__))


def logged(c, prefix):
    """The versions in the server's log lines that start with `prefix`."""
    return [int(m["params"]["message"].split("(version ")[1].split(")")[0])
            for m in c.taken("window/logMessage")
            if m["params"]["message"].startswith(prefix)]


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text}, args.flags)
    path = os.path.join(project, "train.cpp")
    c = Client(args.server)
    try:
        c.initialize()
        uri = c.open(path, text, version=1)
        c.diagnostics(uri, version=1)

        # Incremental, in one didChange: insert "ü" right after "é𝛼" (a
        # UTF-16 position that a byte or code-point count would get wrong),
        # then replace the NOLINT line across the line break.
        at = position_of(text, '"; auto probe')
        first = {"range": {"start": at, "end": at}, "text": "ü"}
        text = apply_edits(text, [{"range": first["range"], "newText": "ü"}])
        check('"é𝛼ü"; auto probe' in text, "test's own edit")
        start, end = position_of(text, "  auto quiet"), position_of(text, "  auto loader")
        line = "  auto quiet = torch::data::make_data_loader(Points(), 64);\n"
        second = {"range": {"start": start, "end": end}, "text": line}
        text = apply_edits(text, [{"range": second["range"], "newText": line}])
        c.change(path, 2, [first, second])
        diags = c.diagnostics(uri, version=2)["diagnostics"]
        workers = sorted((d for d in diags if d["code"] == "libtorch-dataloader-no-workers"),
                         key=lambda d: d["range"]["start"]["line"])
        check(len(workers) == 2 and workers[0]["range"]["start"] ==
              position_of(text, "make_data_loader(Points(), 64)"),
              "the server's text is the client's (and the NOLINT went): %r" % diags)

        # A burst of edits, each within the debounce (300 ms) of the one
        # before: one analysis starts, of the last version.
        for version in range(3, 8):
            c.change(path, version, [{"text": text + "// edit %d\n" % version}])
            time.sleep(0.05)
        c.diagnostics(uri, version=7)
        stale = [m for m in c.taken("textDocument/publishDiagnostics")
                 if m["params"].get("version") in (3, 4, 5, 6)]
        check(not stale, "no diagnostics for versions superseded: %r" % stale)
        # (Version 7 twice when the preamble built apart ended during its
        # analysis, which then started again against it.)
        started = [v for v in logged(c, "libtorch-tidy: analyzing") if v >= 3]
        check(set(started) == {7}, "analyses started in the burst: %r" % started)

        # An edit while an analysis runs stops it: its version is never
        # published. A code action asked for meanwhile waits for the
        # analysis of its version and gets its findings.
        c.change(path, 8, [{"text": text}])
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   m["params"]["message"].startswith("libtorch-tidy: analyzing") and
                   "(version 8)" in m["params"]["message"], "the analysis of version 8")
        c.change(path, 9, [{"text": text}])
        workers_at = position_of(text, "make_data_loader(Points(), 64)")
        answered = c.code_actions(path, workers_at, workers_at, only=["quickfix"])
        actions = [a for a in c.result(answered, timeout=60)
                   if a["title"].startswith("Apply fix: ")]
        c.diagnostics(uri, version=9)
        check(len(actions) == 1 and actions[0]["edit"]["documentChanges"][0]
              ["textDocument"]["version"] == 9, "answered for version 9: %r" % actions)
        check(8 not in logged(c, "libtorch-tidy: analyzed"), "version 8 was stopped")
        check(not [m for m in c.taken("textDocument/publishDiagnostics")
                   if m["params"].get("version") == 8], "nothing published for 8")

        # Waiting and cancelled: RequestCancelled. Waiting when the document
        # changes: ContentModified.
        c.change(path, 10, [{"text": text}])
        pending = c.code_actions(path, {"line": 0, "character": 0},
                                 {"line": 0, "character": 0})
        c.notify("$/cancelRequest", {"id": pending})
        c.error(pending, -32800)
        waiting = c.code_actions(path, {"line": 0, "character": 0},
                                 {"line": 0, "character": 0})
        c.change(path, 11, [{"text": text}])
        c.error(waiting, -32801)

        c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        cleared = c.diagnostics(uri)
        check(cleared["diagnostics"] == [], "closing clears: %r" % cleared)
        check(c.result(c.code_actions(path, workers_at, workers_at)) == [],
              "a closed document has no actions")
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


main(scenario)
