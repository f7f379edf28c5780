"""Code actions: a preferred quickfix per finding with a fix-it, and
source.fixAll.libtorch-tidy; the edits are versioned, apply cleanly, the
result compiles with g++ and the re-check is silent."""
import os
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import (Client, apply_edits, check, edits_of, main,  # noqa: E402
                        position_of, write_project)

HERE = os.path.dirname(os.path.abspath(__file__))


def titled(actions, start):
    return [a for a in actions if a["title"].startswith(start)]


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text}, args.flags)
    path = os.path.join(project, "train.cpp")
    c = Client(args.server)
    try:
        c.initialize()
        uri = c.open(path, text, version=1)
        diags = c.diagnostics(uri, version=1)["diagnostics"]
        check(len(diags) == 2, "two findings: %r" % diags)
        workers = [d for d in diags if d["code"] == "libtorch-dataloader-no-workers"][0]

        # The quickfix of the finding under the cursor, and fix-all.
        cursor = position_of(text, "probe")
        actions = c.result(c.code_actions(path, workers["range"]["start"],
                                          workers["range"]["start"], diagnostics=[workers]))
        quick = [a for a in actions if a["kind"] == "quickfix" and "edit" in a and
                 a["title"].startswith("Apply fix: ")]
        check(len(quick) == 1, "one fix-it at the finding: %r" % actions)
        check(quick[0]["isPreferred"] is True, "preferred: %r" % quick)
        check(quick[0]["diagnostics"][0]["code"] == workers["code"], "its diagnostic: %r" % quick)
        edits, version = edits_of(quick[0], uri)
        check(version == 1, "the edit names the version analyzed: %r" % quick)
        fixed = apply_edits(text, edits)
        check("auto probe = torch::data::make_data_loader(Points(), "
              "torch::data::DataLoaderOptions().batch_size(64).workers(4));" in fixed,
              "the fix-it after non-ASCII text lands where the CLI puts it:\n" + fixed)
        check(fixed.count("\n") == text.count("\n"), "nothing else changes")
        none = c.result(c.code_actions(path, cursor, cursor, only=["quickfix"]))
        check(none == [], "no quickfix away from the findings: %r" % none)
        check(titled(actions, "Silence this finding here") and titled(actions, "Explain "),
              "the other actions of a finding (test/lsp/actions.test): %r" % actions)

        actions = c.result(c.code_actions(path, {"line": 0, "character": 0},
                                          {"line": 0, "character": 0},
                                          only=["source.fixAll.libtorch-tidy"]))
        check(len(actions) == 1 and actions[0]["kind"] == "source.fixAll.libtorch-tidy",
              "one fix-all action: %r" % actions)
        edits, version = edits_of(actions[0], uri)
        all_fixed = apply_edits(text, edits)
        check(".workers(4)" in all_fixed and "/*non_blocking=*/true" in all_fixed,
              "both fix-its: " + all_fixed)
        generic = c.result(c.code_actions(path, {"line": 0, "character": 0},
                                          {"line": 0, "character": 0}, only=["source.fixAll"]))
        check(len(generic) == 1, "source.fixAll asks for it too: %r" % generic)

        # The fixed file compiles and the re-check is silent.
        with open(path, "w", encoding="utf-8") as f:
            f.write(all_fixed)
        compiled = subprocess.run(["g++", "-fsyntax-only"] + shlex.split(args.flags) + [path],
                                  capture_output=True, text=True)
        check(compiled.returncode == 0, "g++ on the fixed file:\n" + compiled.stderr)
        c.change(path, 2, [{"text": all_fixed}])
        c.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
        diags = c.diagnostics(uri, version=2)["diagnostics"]
        check(diags == [], "silent after the fixes: %r" % diags)
        actions = c.result(c.code_actions(path, {"line": 0, "character": 0},
                                          {"line": 30, "character": 0}))
        check(actions == [], "nothing left to fix: %r" % actions)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()

    # A client without versioned edits gets `changes`.
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    c = Client(args.server)
    try:
        c.initialize(capabilities={})
        uri = c.open(path, text, version=3)
        diags = c.diagnostics(uri, version=3)["diagnostics"]
        actions = c.result(c.code_actions(path, diags[0]["range"]["start"],
                                          diags[0]["range"]["end"], only=["quickfix"]))
        actions = titled(actions, "Apply fix: ")
        check(len(actions) == 1 and "changes" in actions[0]["edit"], "changes: %r" % actions)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


main(scenario)
