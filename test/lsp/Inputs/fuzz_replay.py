"""The fuzz corpus replayed through didOpen: every seed of the fuzz target
(test/checks/*.cpp, the seeds test/hostile/fuzz-smoke.test starts from),
each also cut off in the middle (mid-token, mid-comment, mid-string: what
an editor sends while the user types), and the hostile inputs
(test/hostile/Inputs/*.cpp), all open in one server. Every document gets
its diagnostics; the server neither crashes nor stops answering, and exits
0 on shutdown."""
import glob
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(os.path.dirname(HERE))


def inputs():
    """{name: text} of every document to open."""
    found = {}
    for pattern in ("checks/*.cpp", "hostile/Inputs/*.cpp"):
        for path in sorted(glob.glob(os.path.join(TESTS, pattern))):
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            name = os.path.basename(path)
            found[name] = text
            found["cut-" + name] = text[:len(text) // 2]
    return found


def scenario(args):
    documents = inputs()
    check(len(documents) > 60, "the corpus was found: %d documents" % len(documents))
    project = os.path.join(args.work, "project")
    # The check tests include their headers from test/checks/Inputs.
    flags = args.flags + " -I" + os.path.join(TESTS, "checks", "Inputs")
    write_project(project, documents, flags)
    c = Client(args.server, args=["--jobs=2"],
               stderr_path=os.path.join(args.work, "server.stderr"))
    try:
        c.initialize()
        uris = [c.open(os.path.join(project, name), text)
                for name, text in sorted(documents.items())]
        for uri in uris:
            c.diagnostics(uri, version=1, timeout=300)
            check(c.process.poll() is None, "the server is running after %s" % uri)
        # Still answering: a request after all of it.
        c.result(c.request("textDocument/codeAction", {
            "textDocument": {"uri": uris[0]},
            "range": {"start": {"line": 0, "character": 0},
                      "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": []}}))
        check(c.shutdown() == 0, "exit code")
        print("replayed %d documents" % len(uris))
    finally:
        c.close()


main(scenario)
