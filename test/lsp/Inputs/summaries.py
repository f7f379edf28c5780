"""The language server reads the summaries of the project's other units:
from libtorch-tidy.SummaryFile in .clang-tidy, written by the CLI's
--export-summaries; else from the results of those units that the local
result cache holds (--summaries=cached). A step that calls a function
another unit defines, which waits for the GPU, gets the finding at the call,
with the note at the wait in the other file as relatedInformation."""
import os
import shlex
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, position_of, uri, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(os.path.dirname(HERE))


def read(*parts):
    with open(os.path.join(*parts), encoding="utf-8") as f:
        return f.read()


def expect_finding_at_update(published, train, project):
    diags = published["diagnostics"]
    check(len(diags) == 1, "one finding: %r" % diags)
    d = diags[0]
    check(d["code"] == "libtorch-host-sync-in-loop", "code: %r" % d)
    check("defined in another translation unit" in d["message"], "message: %r" % d)
    check(d["range"]["start"] == position_of(train, "update(loss)"), "range: %r" % d)
    related = d.get("relatedInformation", [])
    at_wait = [r for r in related
               if r["location"]["uri"] == uri(os.path.join(project, "sync-elsewhere-metrics.cpp"))]
    check(len(at_wait) == 1 and "waits for the GPU on each call" in at_wait[0]["message"],
          "the note at the wait, in the other file: %r" % related)
    check(at_wait[0]["location"]["range"]["start"]["line"] == 17,
          "line 18 of the other file: %r" % at_wait[0])


def write_two_units(project, config, flags):
    """train.cpp, whose logger is defined in sync-elsewhere-metrics.cpp, and
    a .clang-tidy of `config`; returns train.cpp's text."""
    train = read(TESTS, "driver", "Inputs", "summaries", "train.cpp")
    write_project(project, {
        "sync-elsewhere.h": read(TESTS, "checks", "Inputs", "sync-elsewhere.h"),
        "sync-elsewhere-metrics.cpp": read(TESTS, "checks", "Inputs",
                                           "sync-elsewhere-metrics.cpp"),
        "train.cpp": train,
        ".clang-tidy": "Checks: '-*,libtorch-host-sync-in-loop'\n" + config}, flags)
    return train


def from_the_cache(args):
    """No summary file: what the CLI's run left in the result cache."""
    project = os.path.join(args.work, "cached")
    cache = os.path.join(args.work, "xdg")
    train = write_two_units(project, "", args.flags)
    env = {"XDG_CACHE_HOME": cache}
    path = os.path.join(project, "train.cpp")
    c = Client(args.server, cwd=project, env=env)
    try:
        c.initialize(root=project)
        # Nothing cached yet: the other unit is not analyzed for an edit.
        published = c.diagnostics(c.open(path, train))
        check(published["diagnostics"] == [], "no summaries yet: %r" % published)
        run = args.server + ["--quiet", "-p", project]
        result = subprocess.run(run, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                universal_newlines=True, env=dict(os.environ, **env))
        check(result.returncode == 1, "the CLI's run: %s\n%s" % (shlex.join(run), result.stdout))
        # The next analysis reads the other unit's summaries from the cache.
        edited = train + "\n// an edit\n"
        c.change(path, 2, [{"text": edited}])
        published = c.diagnostics(uri(path), version=2)
        expect_finding_at_update(published, edited, project)
        check(c.shutdown() == 0, "the server exits 0")
    finally:
        c.close()
    print("summaries from the cache: ok")


def scenario(args):
    from_the_file(args)
    from_the_cache(args)


def from_the_file(args):
    project = os.path.join(args.work, "project")
    summaries = os.path.join(project, "build", "summaries.json")
    train = write_two_units(project, "CheckOptions:\n"
                                     "  libtorch-tidy.SummaryFile: %s\n" % summaries, args.flags)
    os.makedirs(os.path.dirname(summaries))
    export = args.server + ["--quiet", "--no-cache", "-p", project,
                            "--export-summaries=" + summaries,
                            os.path.join(project, "sync-elsewhere-metrics.cpp")]
    result = subprocess.run(export, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            universal_newlines=True)
    check(result.returncode == 0, "the export: %s\n%s" % (shlex.join(export), result.stdout))

    path = os.path.join(project, "train.cpp")
    c = Client(args.server, cwd=project)
    try:
        c.initialize(root=project)
        published = c.diagnostics(c.open(path, train))
        expect_finding_at_update(published, train, project)
        check(c.shutdown() == 0, "the server exits 0")
    finally:
        c.close()
    print("summaries: ok")


if __name__ == "__main__":
    main(scenario)
