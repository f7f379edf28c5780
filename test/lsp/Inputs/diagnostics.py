"""publishDiagnostics: work-done progress of the analysis, the document's
version, source, code, the check's page, severity from WarningsAsErrors,
notes as relatedInformation, NOLINT and CheckOptions as in the CLI, UTF-16
positions after non-ASCII text; a file that does not parse gets one
diagnostic saying so."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, position_of, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {
        "train.cpp": text,
        ".clang-tidy": "WarningsAsErrors: 'libtorch-blocking-host-to-device-copy'\n"
                       "CheckOptions:\n"
                       "  libtorch-dataloader-no-workers.Workers: 8\n"}, args.flags)
    path = os.path.join(project, "train.cpp")
    c = Client(args.server)
    try:
        c.initialize(capabilities={"window": {"workDoneProgress": True}})
        uri = c.open(path, text, version=7)
        published = c.diagnostics(uri)
        check(published["version"] == 7, "the document's version: %r" % published)
        # The analysis reported as work-done progress, begun and ended.
        create = c.wait_for(lambda m: m.get("method") == "window/workDoneProgress/create",
                            "window/workDoneProgress/create")
        c.send({"jsonrpc": "2.0", "id": create["id"], "result": None})
        token = create["params"]["token"]
        kinds = [m["params"]["value"]["kind"] for m in c.taken("$/progress")
                 if m["params"]["token"] == token]
        check(kinds == ["begin", "end"], "progress of the analysis: %r" % kinds)
        diags = sorted(published["diagnostics"], key=lambda d: d["range"]["start"]["line"])
        check(len(diags) == 2, "two findings (the NOLINT one is suppressed): %r" % diags)
        workers, copy = diags
        for d in diags:
            check(d["source"] == "libtorch-tidy", "source: %r" % d)
            check(d["codeDescription"]["href"].endswith("/%s.md" % d["code"]),
                  "the check's page: %r" % d)
        check(workers["code"] == "libtorch-dataloader-no-workers", "code: %r" % workers)
        check(workers["severity"] == 2, "a warning: %r" % workers)
        check("'.workers(8)'" in workers["message"], "CheckOptions: %r" % workers)
        # "é𝛼" is 2 UTF-16 units (3 of them) before the finding on its line:
        # a byte column would be 4 higher, a code-point column 1 lower.
        start = position_of(text, "make_data_loader(Points(), 64)")
        check(workers["range"]["start"] == start,
              "UTF-16 start %r, got %r" % (start, workers["range"]))
        check(workers["range"]["end"]["character"] > start["character"],
              "a range editors can underline: %r" % workers["range"])
        check(copy["code"] == "libtorch-blocking-host-to-device-copy", "code: %r" % copy)
        check(copy["severity"] == 1, "WarningsAsErrors makes it an error: %r" % copy)
        check(copy["range"]["start"] == position_of(text, "to(device);", 1), "range: %r" % copy)
        related = copy.get("relatedInformation", [])
        check(len(related) == 1 and related[0]["message"].startswith(
            "the copy overlaps with GPU work only from pinned memory"), "note: %r" % related)
        check(related[0]["location"]["uri"] == uri, "note location: %r" % related)

        # Compiler errors: one diagnostic, not clang's errors, then the
        # findings the errors cannot have changed: two broken globals after
        # every function change none of them (driver/run/ParseRecovery.h).
        broken = text + "\nint broken = ;\nint worse = undefined_name;\n"
        c.change(path, 8, [{"text": broken}])
        diags = c.diagnostics(uri, version=8)["diagnostics"]
        check("does not parse (2 compiler errors" in diags[0]["message"], "%r" % diags)
        check("code" not in diags[0], "the errors' diagnostic names no check: %r" % diags[0])
        check(diags[0]["range"]["start"]["line"] == broken.count("\n", 0, broken.index("int broken")),
              "at the first error: %r" % diags)
        check(sorted(d.get("code") for d in diags[1:]) ==
              ["libtorch-blocking-host-to-device-copy", "libtorch-dataloader-no-workers"],
              "the findings before the broken globals stay: %r" % diags)
        # A broken global before the training code: everything after it may
        # have lost what it used, so only the errors' diagnostic is left.
        first_include_end = text.index("\n", text.index("#include")) + 1
        broken_first = (text[:first_include_end] + "undeclared_type global;\n" +
                        text[first_include_end:])
        c.change(path, 9, [{"text": broken_first}])
        diags = c.diagnostics(uri, version=9)["diagnostics"]
        check(len(diags) == 1, "one diagnostic when everything follows the error: %r" % diags)
        check("does not parse (1 compiler error" in diags[0]["message"], "%r" % diags)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


main(scenario)
