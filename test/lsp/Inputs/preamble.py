"""The precompiled preamble in the editor (driver/lsp/ServerPrefixBuilds.cpp).

  * The first analysis of a file parses without a preamble and says that it
    is missing; the server builds it apart, reported as its own work-done
    progress, right away for a library's headers (<torch/torch.h>);
  * the next analysis (the first edit) reuses it, and so does the first
    analysis of another file that starts the same way: no second build;
  * edits while it builds never stop it nor wait for it: each edit is
    analyzed without it, the build runs once to its end;
  * on a machine with no idle core, the build pauses while an edit is
    parsed without it, and then goes on (LIBTORCH_TIDY_TEST_LOADAVG makes
    the machine busy or idle, whatever it is); the server's own build and
    parses are not others' load, and do not pause it;
  * closing the only document that wants a build stops it;
  * the findings stay the same throughout.
"""
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def progress_of(c, begin_prefix, timeout=120):
    """[(kind, message)] of the first progress token whose "begin" starts
    with `begin_prefix`, once it has ended."""
    begin = c.wait_for(lambda m: m.get("method") == "$/progress" and
                       m["params"]["value"]["kind"] == "begin" and
                       m["params"]["value"]["message"].startswith(begin_prefix),
                       "progress '%s'" % begin_prefix, timeout)
    token = begin["params"]["token"]
    end = c.wait_for(lambda m: m.get("method") == "$/progress" and
                     m["params"]["token"] == token and
                     m["params"]["value"]["kind"] == "end",
                     "the end of progress '%s'" % begin_prefix, timeout)
    between = [m for m in c.seen if m.get("method") == "$/progress" and
               m["params"]["token"] == token]
    for m in between:
        c.seen.remove(m)
    return ([("begin", begin["params"]["value"]["message"])] +
            [(m["params"]["value"]["kind"], m["params"]["value"].get("message", ""))
             for m in between] +
            [("end", end["params"]["value"]["message"])])


def logs(c):
    return [m["params"]["message"] for m in c.taken("window/logMessage")]


def first_analysis_then_edit(args, text):
    project = os.path.join(args.work, "project")
    other = text.replace("model->to(device);", "model->to(device); // other file")
    write_project(project, {"train.cpp": text, "other.cpp": other}, args.flags)
    path = os.path.join(project, "train.cpp")
    # A cache of its own: what earlier tests built does not count.
    c = Client(args.server, ["--debounce-ms=0"],
               env={"XDG_CACHE_HOME": os.path.join(args.work, "cache")})
    try:
        c.initialize(capabilities={"window": {"workDoneProgress": True}})
        uri = c.open(path, text, version=1)
        first = c.diagnostics(uri, version=1)["diagnostics"]
        check(first, "findings: %r" % first)
        analysis = progress_of(c, "analyzing train.cpp")
        check([k for k, _ in analysis] == ["begin", "end"] and
              "preamble" not in analysis[-1][1],
              "the first analysis builds no preamble, nor waits: %r" % analysis)
        build = progress_of(c, "building the preamble (<torch/torch.h>)")
        check([k for k, _ in build] == ["begin", "end"] and
              build[-1][1].startswith("preamble built in "),
              "the preamble is built apart: %r" % build)

        edited = text.replace("model->to(device);", "model->to(device); // moved")
        c.change(path, 2, [{"text": edited}])
        second = c.diagnostics(uri, version=2)["diagnostics"]
        analysis = progress_of(c, "analyzing train.cpp")
        check(analysis[-1][1].endswith("preamble reused"),
              "the first edit reuses it: %r" % analysis)
        check(len(second) == len(first), "the same findings: %r" % second)

        other_path = os.path.join(project, "other.cpp")
        other_uri = c.open(other_path, other, version=1)
        third = c.diagnostics(other_uri, version=1)["diagnostics"]
        analysis = progress_of(c, "analyzing other.cpp")
        check(analysis[-1][1].endswith("preamble reused"),
              "another file with the same prefix reuses it: %r" % analysis)
        check(len(third) == len(first), "the same findings: %r" % third)
        c.drain(0.3)
        builds = [l for l in logs(c) if "building the preamble" in l]
        check(len(builds) == 1, "one build for both files: %r" % builds)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def slow_headers(directory):
    """A system header slow enough to parse that a build of it is still
    running while the edits below arrive."""
    os.makedirs(os.path.join(directory, "slow"), exist_ok=True)
    with open(os.path.join(directory, "slow", "slow.h"), "w") as f:
        f.write("#pragma once\nnamespace slow {\n")
        for n in range(10000):
            f.write("template <typename T> struct S%d { T v; T get() const { return v + %d; } };\n"
                    % (n, n))
        f.write("}\n")


def slow_project(args, name, text):
    """A project whose file starts with a slow system header before
    LibTorch's (the prefix ends with the last of those): (path, text)."""
    project = os.path.join(args.work, name)
    include_dir = os.path.join(args.work, "slow-include")
    slow_headers(include_dir)
    text = text.replace("#include <torch/torch.h>",
                        "#include <slow/slow.h>\n#include <torch/torch.h>", 1)
    write_project(project, {"train.cpp": text}, args.flags + " -isystem " + include_dir)
    return os.path.join(project, "train.cpp"), text


def loadavg(args, name, runnable):
    """A /proc/loadavg of a machine with `runnable` processes that can run."""
    path = os.path.join(args.work, name)
    with open(path, "w") as f:
        f.write("0.50 0.50 0.50 %d/300 12345\n" % runnable)
    return path


def typing_while_it_builds(args, text):
    path, text = slow_project(args, "typing", text)
    # An idle machine: the edits are parsed beside the build.
    c = Client(args.server, ["--debounce-ms=0"],
               env={"XDG_CACHE_HOME": os.path.join(args.work, "typing-cache"),
                    "LIBTORCH_TIDY_TEST_LOADAVG": loadavg(args, "idle-loadavg", 1)})
    try:
        c.initialize(capabilities={"window": {"workDoneProgress": True}})
        uri = c.open(path, text, version=1)
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "building the preamble" in m["params"]["message"],
                   "the build's start", timeout=120)
        # Edits as a user types, while the build runs.
        for version in range(2, 6):
            c.change(path, version, [{"text": text + "// %d\n" % version}])
            time.sleep(0.2)
        last = c.diagnostics(uri, version=5, timeout=300)["diagnostics"]
        check(last, "the last edit's findings: %r" % last)
        build = progress_of(c, "building the preamble (<slow/slow.h> <torch/torch.h>)", timeout=300)
        check(build[-1][1].startswith("preamble built in "),
              "edits do not stop the build: %r" % build)
        c.drain(0.3)
        seen = logs(c)
        # The build's start was taken above: no other started.
        check(not [l for l in seen if "building the preamble" in l],
              "one build for all the edits: %r" % seen)
        check(not [l for l in seen if "waiting for the preamble" in l],
              "no analysis waits for it: %r" % seen)
        check(not [l for l in seen if "pauses" in l],
              "with a core idle, no edit pauses it: %r" % seen)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def busy_machine_pauses_it(args, text):
    path, text = slow_project(args, "busy", text)
    c = Client(args.server, ["--debounce-ms=0"],
               env={"XDG_CACHE_HOME": os.path.join(args.work, "busy-cache"),
                    "LIBTORCH_TIDY_TEST_LOADAVG": loadavg(args, "busy-loadavg", 64)})
    try:
        c.initialize(capabilities={"window": {"workDoneProgress": True}})
        uri = c.open(path, text, version=1)
        first = c.diagnostics(uri, version=1, timeout=300)["diagnostics"]
        # No idle core: the build starts once the first diagnostics are out.
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "building the preamble" in m["params"]["message"],
                   "the build's start", timeout=120)
        c.change(path, 2, [{"text": text + "// 2\n"}])
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "the preamble build pauses while version 2 is parsed without it"
                   in m["params"]["message"], "the build's pause", timeout=120)
        second = c.diagnostics(uri, version=2, timeout=300)["diagnostics"]
        check(len(second) == len(first), "the same findings: %r" % second)
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "the preamble build goes on" in m["params"]["message"],
                   "the build going on after the edit's parse", timeout=120)
        build = progress_of(c, "building the preamble (<slow/slow.h> <torch/torch.h>)",
                            timeout=300)
        check(build[-1][1].startswith("preamble built in "),
              "the paused build ends and makes the preamble: %r" % build)
        c.change(path, 3, [{"text": text + "// 3\n"}])
        third = c.diagnostics(uri, version=3, timeout=300)["diagnostics"]
        check(len(third) == len(first), "the same findings: %r" % third)
        analyses = [m["params"]["value"]["message"] for m in c.seen
                    if m.get("method") == "$/progress" and
                    m["params"]["value"]["kind"] == "end"]
        check(any(a.endswith("preamble reused") for a in analyses),
              "the next edit reuses it: %r" % analyses)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def own_load_is_not_busy(args, text):
    """A machine whose cores are taken by this server's own work (itself,
    the build, an edit's parse) and nothing else is not a busy one: the
    edit's parse does not pause the build."""
    path, text = slow_project(args, "own-load", text)
    full = loadavg(args, "own-loadavg", (os.cpu_count() or 1) + 1)
    c = Client(args.server, ["--debounce-ms=0"],
               env={"XDG_CACHE_HOME": os.path.join(args.work, "own-load-cache"),
                    "LIBTORCH_TIDY_TEST_LOADAVG": full})
    try:
        c.initialize(capabilities={"window": {"workDoneProgress": True}})
        uri = c.open(path, text, version=1)
        c.diagnostics(uri, version=1, timeout=300)
        # The count has no core left for a build beside the first analysis:
        # it starts once the first diagnostics are out.
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "building the preamble" in m["params"]["message"],
                   "the build's start", timeout=120)
        c.change(path, 2, [{"text": text + "// 2\n"}])
        c.diagnostics(uri, version=2, timeout=300)
        c.drain(0.3)
        seen = logs(c)
        check(not [l for l in seen if "pauses" in l],
              "the server's own build and parse are not others' load: %r" % seen)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


def close_stops_it(args, text):
    path, text = slow_project(args, "closing", text)
    cache = os.path.join(args.work, "closing-cache")
    c = Client(args.server, ["--debounce-ms=0"], env={"XDG_CACHE_HOME": cache})
    try:
        c.initialize(capabilities={"window": {"workDoneProgress": True}})
        c.open(path, text, version=1)
        c.wait_for(lambda m: m.get("method") == "window/logMessage" and
                   "building the preamble" in m["params"]["message"],
                   "the build's start", timeout=120)
        c.notify("textDocument/didClose", {"textDocument": {"uri": "file://" + path}})
        build = progress_of(c, "building the preamble")
        check(build[-1][1] == "cancelled", "closing stops the build: %r" % build)
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()
    pchs = [f for _, _, files in os.walk(cache) for f in files if ".pch" in f]
    check(not pchs, "a stopped build leaves no PCH: %r" % pchs)


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    first_analysis_then_edit(args, text)
    typing_while_it_builds(args, text)
    busy_machine_pauses_it(args, text)
    own_load_is_not_busy(args, text)
    close_stops_it(args, text)


main(scenario)
