"""A person who types faster than an analysis ends, on a busy machine
(driver/lsp/ServerAnalyses.cpp, editKeeps; ServerPrefixBuilds.cpp,
startOverdueBuild). LIBTORCH_TIDY_TEST_LOADAVG leaves no core idle and
LIBTORCH_TIDY_TEST_ANALYSIS_SECONDS makes every analysis last 3 s, whatever
the machine is:

  * an edit every second, each past the debounce: the running analysis is
    not stopped, it ends and publishes, with its own version, findings on
    its own text's lines; then the newest version's starts. Diagnostics and
    the preamble build come while the person types, never two analyses of
    the document at once, and the last version's once the typing stops;
  * an edit right after the document opened (within the debounce) stops the
    first analysis: no diagnostics can come before the next one ends, and
    the preamble build waits for them no longer.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYSIS_SECONDS = 3
ANCHOR = "  model->to(device);\n"


def busy_server(args, name, debounce_ms):
    loadavg = os.path.join(args.work, name + "-loadavg")
    with open(loadavg, "w") as f:
        f.write("9.00 9.00 9.00 64/300 12345\n")
    c = Client(args.server, ["--debounce-ms=%d" % debounce_ms],
               env={"XDG_CACHE_HOME": os.path.join(args.work, name + "-cache"),
                    "LIBTORCH_TIDY_TEST_LOADAVG": loadavg,
                    "LIBTORCH_TIDY_TEST_ANALYSIS_SECONDS": str(ANALYSIS_SECONDS)})
    c.initialize(capabilities={"window": {"workDoneProgress": True}})
    return c


def version_text(text, version):
    """Version n has n - 1 comment lines above the findings: each version's
    lie on other lines."""
    return text.replace(ANCHOR, ANCHOR + "".join(
        "  // edit %d\n" % n for n in range(2, version + 1)), 1)


def finding_lines(text, diagnostics):
    """The lines of `text` that `diagnostics` point at."""
    lines = text.split("\n")
    return sorted(lines[d["range"]["start"]["line"]] for d in diagnostics)


def published(c):
    return [m["params"] for m in c.seen
            if m.get("method") == "textDocument/publishDiagnostics"]


def logs(c):
    return [m["params"]["message"] for m in c.seen
            if m.get("method") == "window/logMessage"]


def most_analyses_at_once(c):
    tokens, running, most = set(), set(), 0
    for m in c.seen:
        if m.get("method") != "$/progress":
            continue
        value, token = m["params"]["value"], m["params"]["token"]
        if value["kind"] == "begin" and value["message"].startswith("analyzing"):
            tokens.add(token)
            running.add(token)
        elif value["kind"] == "end" and token in tokens:
            running.discard(token)
        most = max(most, len(running))
    return most


def typing_faster_than_analyses(args, text):
    project = os.path.join(args.work, "typing")
    write_project(project, {"train.cpp": text}, args.flags)
    path = os.path.join(project, "train.cpp")
    c = busy_server(args, "typing", 300)
    try:
        uri = c.open(path, text, version=1)
        last = 11
        for version in range(2, last + 1):
            c.drain(1.0)
            c.change(path, version, [{"text": version_text(text, version)}])
        # What came while the person typed (before the last edit).
        during = published(c)
        check(during, "diagnostics while typing: %r" % logs(c))
        check(any("building the preamble" in l for l in logs(c)),
              "the preamble build starts while typing: %r" % logs(c))
        expected = finding_lines(text, during[0]["diagnostics"])
        check(expected, "findings: %r" % during[0])
        for p in during:
            check(p["version"] < last, "an older version's: %r" % p)
            check(finding_lines(version_text(text, p["version"]),
                                p["diagnostics"]) == expected,
                  "version %d's findings on its own lines: %r" % (p["version"], p))
        final = c.diagnostics(uri, version=last, timeout=120)["diagnostics"]
        check(finding_lines(version_text(text, last), final) == expected,
              "the last version's findings: %r" % final)
        c.drain(0.5)
        check(most_analyses_at_once(c) == 1,
              "one analysis of the document at a time: %r" % c.taken("$/progress"))
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def early_edit_stops_the_first(args, text):
    project = os.path.join(args.work, "early")
    write_project(project, {"train.cpp": text}, args.flags)
    path = os.path.join(project, "train.cpp")
    c = busy_server(args, "early", 1500)
    try:
        uri = c.open(path, text, version=1)
        c.drain(0.3)
        c.change(path, 2, [{"text": version_text(text, 2)}])
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "building the preamble" in m["params"]["message"],
                   "the build's start", timeout=60)
        check(not published(c),
              "the build starts before the first diagnostics: %r" % published(c))
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "the preamble is built without waiting" in m["params"]["message"],
                   "why it starts")
        second = c.diagnostics(uri, version=2, timeout=120)["diagnostics"]
        check(finding_lines(version_text(text, 2), second),
              "the edit's findings: %r" % second)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    check(ANCHOR in text, "the test's anchor")
    typing_faster_than_analyses(args, text)
    early_edit_stops_the_first(args, text)


main(scenario)
