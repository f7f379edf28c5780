"""The actions users of linters with language servers expect
(driver/lsp/CodeActions.h): "Fix all <check> in this file" beside each
finding's fix-it, "Silence this finding here" (NOLINT at the end of the line,
NOLINTNEXTLINE above a line that already has a comment), which the next
analysis honours, "Explain <check>" (workspace/executeCommand, which opens the
page with window/showDocument), hover on a finding, and pull diagnostics
(textDocument/diagnostic) for clients that ask for them instead of pushes."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import (Client, apply_edits, check, edits_of, main,  # noqa: E402
                        position_of, write_project)

TEXT = """#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({4}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};

void train() {
  auto a = torch::data::make_data_loader(Points(), 64);
  auto second = torch::data::make_data_loader(Points(), 32); // two of them
  for (auto &batch : *a)
    (void)batch;
  for (auto &batch : *second)
    (void)batch;
}
"""
CHECK = "libtorch-dataloader-no-workers"


def titled(actions, start):
    return [a for a in actions if a["title"].startswith(start)]


def push_client(args, path):
    c = Client(args.server, ["--debounce-ms=0"])
    try:
        c.initialize(capabilities={
            "workspace": {"workspaceEdit": {"documentChanges": True}},
            "window": {"showDocument": {"support": True}}})
        uri = c.open(path, TEXT, version=1)
        diags = c.diagnostics(uri, version=1)["diagnostics"]
        check(sorted(d["code"] for d in diags) == [CHECK, CHECK], "two findings: %r" % diags)
        first = [d for d in diags if d["range"]["start"] == position_of(TEXT, "make_data_loader")][0]
        actions = c.result(c.code_actions(path, first["range"]["start"], first["range"]["start"],
                                          diagnostics=[first]))

        # Fix all of the check: both calls get workers.
        fix_all = titled(actions, "Fix all %s in this file" % CHECK)
        check(len(fix_all) == 1 and fix_all[0]["kind"] == "quickfix", "%r" % actions)
        fixed = apply_edits(TEXT, edits_of(fix_all[0], uri)[0])
        check(fixed.count(".workers(4)") == 2, "both calls fixed:\n" + fixed)

        # Silence: NOLINT at the end of a line without a comment (that stays
        # within 100 columns)...
        silence = titled(actions, "Silence this finding here (NOLINT(%s))" % CHECK)
        check(len(silence) == 1, "%r" % actions)
        silenced = apply_edits(TEXT, edits_of(silence[0], uri)[0])
        check("make_data_loader(Points(), 64);  // NOLINT(%s)\n" % CHECK in silenced,
              "NOLINT at the end of the line:\n" + silenced)
        # ...NOLINTNEXTLINE above one that has one.
        second = [d for d in diags if d is not first][0]
        actions2 = c.result(c.code_actions(path, second["range"]["start"],
                                           second["range"]["start"], diagnostics=[second]))
        above = titled(actions2, "Silence this finding here")
        check(len(above) == 1, "%r" % actions2)
        # (Its edit is on a later line than the first one's: it applies to
        # the text with the first edit as it is.)
        both = apply_edits(silenced, edits_of(above[0], uri)[0])
        check("  // NOLINTNEXTLINE(%s)\n  auto second" % CHECK in both,
              "NOLINTNEXTLINE above a commented line:\n" + both)
        # The next analysis honours both.
        c.change(path, 2, [{"text": both}])
        after = c.diagnostics(uri, version=2)["diagnostics"]
        check(after == [], "silenced: %r" % after)
        c.change(path, 3, [{"text": TEXT}])
        c.diagnostics(uri, version=3)

        # Explain: the command opens the page and answers the explanation.
        explain = titled(actions, "Explain %s" % CHECK)
        check(len(explain) == 1 and explain[0]["command"]["command"] == "libtorch-tidy.explain",
              "%r" % actions)
        answer = c.result(c.request("workspace/executeCommand", {
            "command": "libtorch-tidy.explain", "arguments": explain[0]["command"]["arguments"]}))
        check(answer.startswith("**%s**: Finds " % CHECK) and "%s.md)" % CHECK in answer,
              "the explanation: %r" % answer)
        shown = c.wait_for(lambda m: m.get("method") == "window/showDocument", "showDocument")
        check(shown["params"]["uri"].endswith("/%s.md" % CHECK), "the page: %r" % shown)
        c.send({"jsonrpc": "2.0", "id": shown["id"], "result": {"success": True}})
        c.error(c.request("workspace/executeCommand", {
            "command": "libtorch-tidy.explain", "arguments": ["no-such-check"]}), -32602)
        c.error(c.request("workspace/executeCommand", {"command": "other"}), -32602)

        # Hover on the finding: its message and the check's explanation.
        hover = c.result(c.request("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": first["range"]["start"]}))
        check(hover and hover["contents"]["kind"] == "markdown" and
              first["message"] in hover["contents"]["value"] and
              "**%s**" % CHECK in hover["contents"]["value"], "hover: %r" % hover)
        nothing = c.result(c.request("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}))
        check(nothing is None, "no hover away from findings: %r" % nothing)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def pull_client(args, path):
    c = Client(args.server, ["--debounce-ms=0"])
    try:
        result = c.initialize(capabilities={
            "textDocument": {"diagnostic": {"dynamicRegistration": False}},
            "workspace": {"diagnostics": {"refreshSupport": True}}})
        provider = result["capabilities"].get("diagnosticProvider")
        check(provider and provider["identifier"] == "libtorch-tidy", "%r" % result)
        uri = c.open(path, TEXT, version=1)
        # Asked at once, answered when the analysis is done.
        report = c.result(c.request("textDocument/diagnostic",
                                    {"textDocument": {"uri": uri}}), timeout=120)
        check(report["kind"] == "full" and len(report["items"]) == 2, "%r" % report)
        again = c.result(c.request("textDocument/diagnostic", {
            "textDocument": {"uri": uri}, "previousResultId": report["resultId"]}))
        check(again == {"kind": "unchanged", "resultId": report["resultId"]}, "%r" % again)
        c.wait_for(lambda m: m.get("method") == "workspace/diagnostic/refresh", "a refresh")
        c.drain(0.3)
        check(not c.taken("textDocument/publishDiagnostics"), "no pushes to a pulling client")
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def scenario(args):
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": TEXT}, args.flags)
    path = os.path.join(project, "train.cpp")
    push_client(args, path)
    pull_client(args, path)


main(scenario)
