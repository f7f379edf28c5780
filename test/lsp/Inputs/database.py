"""Flags as clangd finds them: the nearest compile_commands.json in a parent
directory or its build/, --compile-commands-dir, or
initializationOptions.compilationDatabasePath; a file without an entry, or
without any database, gets one window/showMessage saying what to do."""
import os
import shlex
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def messages(c):
    return [m["params"] for m in c.taken("window/showMessage")]


def expect_findings(c, path, text):
    uri = c.open(path, text)
    diags = c.diagnostics(uri, version=1)["diagnostics"]
    check(len(diags) == 2, "%s analyzed with its flags: %r (messages: %r)" %
          (path, diags, messages(c)))


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    work = args.work

    # In a parent's build/, two levels up; a file without an entry; a header.
    project = os.path.join(work, "nested")
    write_project(os.path.join(project, "build"), {}, args.flags, entries=[])
    write_project(project, {"src/deep/train.cpp": text, "src/other.cpp": text,
                            "src/util.h": "int f();\n"}, args.flags, entries=[])
    import json
    with open(os.path.join(project, "build", "compile_commands.json"), "w") as f:
        json.dump([{"directory": project, "file": "src/deep/train.cpp",
                    "arguments": ["c++"] + shlex.split(args.flags) + ["-c", "src/deep/train.cpp"]}], f)
    os.remove(os.path.join(project, "compile_commands.json"))
    c = Client(args.server)
    try:
        c.initialize()
        expect_findings(c, os.path.join(project, "src", "deep", "train.cpp"), text)
        other = c.open(os.path.join(project, "src", "other.cpp"), text)
        check(c.diagnostics(other, version=1)["diagnostics"] == [],
              "no guess for a file without an entry")
        shown = messages(c)
        check(len(shown) == 1 and "other.cpp" in shown[0]["message"] and
              "has no entry in" in shown[0]["message"] and
              "compile_commands.json" in shown[0]["message"], "one message: %r" % shown)
        # Editing it again does not repeat the message.
        c.change(os.path.join(project, "src", "other.cpp"), 2, [{"text": text + "\n"}])
        c.diagnostics(other, version=2)
        header = c.open(os.path.join(project, "src", "util.h"), "int f();\n")
        check(c.diagnostics(header, version=1)["diagnostics"] == [], "a header: nothing")
        check(len(messages(c)) == 1, "still one message: %r" % messages(c))

        # No database anywhere above.
        # (Outside the build tree, which has a database of its own.)
        lonely = os.path.join(tempfile.mkdtemp(prefix="lsp-lonely-"), "lonely", "train.cpp")
        write_project(os.path.dirname(lonely), {"train.cpp": text}, args.flags)
        os.remove(os.path.join(os.path.dirname(lonely), "compile_commands.json"))
        uri = c.open(lonely, text)
        check(c.diagnostics(uri, version=1)["diagnostics"] == [], "no database: nothing")
        shown = messages(c)
        check(len(shown) == 2 and "no compile_commands.json" in shown[1]["message"] and
              "--compile-commands-dir" in shown[1]["message"], "%r" % shown)
        shutil.rmtree(os.path.dirname(os.path.dirname(lonely)))
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()

    # A named directory: --compile-commands-dir and, relative to the root,
    # initializationOptions.compilationDatabasePath.
    named = os.path.join(work, "named")
    write_project(os.path.join(named, "out", "db"), {}, args.flags, entries=[])
    os.makedirs(os.path.join(named, "src"))
    with open(os.path.join(named, "src", "train.cpp"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(named, "out", "db", "compile_commands.json"), "w") as f:
        json.dump([{"directory": named, "file": os.path.join(named, "src", "train.cpp"),
                    "arguments": ["c++"] + shlex.split(args.flags) + ["-c", "src/train.cpp"]}], f)
    for extra, options in ((["--compile-commands-dir=" + os.path.join(named, "out", "db")], None),
                           ([], {"compilationDatabasePath": "out/db"})):
        c = Client(args.server, extra)
        try:
            c.initialize(options=options, root=named)
            expect_findings(c, os.path.join(named, "src", "train.cpp"), text)
            check(messages(c) == [], "no message: %r" % messages(c))
            check(c.shutdown() == 0, "exit code")
        finally:
            c.close()


main(scenario)
