"""Reload: with dynamic registration the server asks to watch .clang-tidy
and compile_commands.json; a change to either re-analyzes the open
documents with the new configuration or flags; a malformed .clang-tidy,
or a CheckOptions value no check can read, gets one message."""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, uri as uri_of, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text, "other.cpp": text}, args.flags,
                  entries=["train.cpp"])
    c = Client(args.server)
    try:
        c.initialize(capabilities={"workspace": {
            "didChangeWatchedFiles": {"dynamicRegistration": True}}})
        register = c.wait_for(lambda m: m.get("method") == "client/registerCapability",
                              "client/registerCapability")
        reg = register["params"]["registrations"][0]
        check(reg["method"] == "workspace/didChangeWatchedFiles", "%r" % reg)
        globs = sorted(w["globPattern"] for w in reg["registerOptions"]["watchers"])
        check(globs == ["**/.clang-tidy", "**/compile_commands.json"], "%r" % globs)
        c.send({"jsonrpc": "2.0", "id": register["id"], "result": None})

        train = c.open(os.path.join(project, "train.cpp"), text)
        check(len(c.diagnostics(train, version=1)["diagnostics"]) == 2, "two findings")
        other = c.open(os.path.join(project, "other.cpp"), text)
        check(c.diagnostics(other, version=1)["diagnostics"] == [], "no entry yet")

        # .clang-tidy now enables one check; the database gains other.cpp.
        with open(os.path.join(project, ".clang-tidy"), "w") as f:
            f.write("Checks: '-*,libtorch-dataloader-no-workers'\n")
        with open(os.path.join(project, "compile_commands.json")) as f:
            db = json.load(f)
        db.append(dict(db[0], file=os.path.join(project, "other.cpp"),
                       arguments=db[0]["arguments"][:-1] + [os.path.join(project, "other.cpp")]))
        with open(os.path.join(project, "compile_commands.json"), "w") as f:
            json.dump(db, f)
        c.notify("workspace/didChangeWatchedFiles", {"changes": [
            {"uri": uri_of(os.path.join(project, ".clang-tidy")), "type": 1},
            {"uri": uri_of(os.path.join(project, "compile_commands.json")), "type": 2}]})
        for uri in (train, other):
            diags = c.diagnostics(uri, version=1)["diagnostics"]
            check([d["code"] for d in diags] == ["libtorch-dataloader-no-workers"],
                  "re-published with the new configuration: %r" % diags)
        def shown_after(config, about, what):
            """The message shown after .clang-tidy becomes `config`."""
            with open(os.path.join(project, ".clang-tidy"), "w") as f:
                f.write(config)
            c.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": uri_of(os.path.join(project, ".clang-tidy")), "type": 2}]})
            return c.wait_for(lambda m: m.get("method") == "window/showMessage" and
                              about in m["params"]["message"], what)["params"]["message"]

        # A malformed .clang-tidy: one message naming it.
        shown = shown_after("Checks: [\n", "train.cpp", "a message about the configuration")
        check(".clang-tidy" in shown, "names the configuration: %r" % shown)
        # A CheckOptions value no check can read: one message naming it.
        shown = shown_after("Checks: '-*,libtorch-dataloader-no-workers'\n"
                            "CheckOptions:\n"
                            "  libtorch-dataloader-no-workers.Workers: many\n",
                            "libtorch-dataloader-no-workers.Workers",
                            "a message about the option's value")
        check("many" in shown, "names the value: %r" % shown)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()

    # Without dynamic registration the server asks nothing.
    c = Client(args.server)
    try:
        c.initialize(capabilities={})
        check(c.shutdown() == 0, "exit code")
        check(not c.taken("client/registerCapability"), "no registration: %r" % c.seen)
    finally:
        c.close()


main(scenario)
