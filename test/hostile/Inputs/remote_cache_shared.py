"""Two checkouts of one project at different paths share the remote cache
of a real server (redis-server, or nginx with WebDAV in each HTTP layout):
runner 2 replays every unit runner 1 analyzed, with the same findings and
the same fix-its; --fix analyzes here instead; a changed header is a miss; a read-only runner writes
nothing; a replay is kept in the local cache too.

usage: remote_cache_shared.py WORK CLI MOCK redis|subdirs|flat|bazel"""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import remote_project as rp  # noqa: E402
import remote_servers as rs  # noqa: E402

work, cli, mock, kind = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def checkout(name):
    # Different depths and names: nothing of the path is shared.
    return rp.make_checkout(os.path.join(work, name, "project"), mock)


def run(root, cache, remote, extra=()):
    return rp.analyze(cli, root, os.path.join(work, cache), remote, extra)


def scenario(url, count_entries):
    a = checkout("runner-1")
    b = checkout("elsewhere/runner-two")
    r1 = run(a, "cache-1", url)
    print("runner 1: exit %d, %d analyzed, %d cached, %d entries stored" % (
        r1["exit"], r1["analyzed"], r1["cached"], count_entries()))
    r2 = run(b, "cache-2", url)
    print("runner 2: exit %d, %d analyzed, %d cached, same findings %s" % (
        r2["exit"], r2["analyzed"], r2["cached"],
        r1["findings"] is not None and r1["findings"] == r2["findings"]))
    local = run(b, "cache-2", "")
    print("runner 2 again without the server: %d cached locally" %
          local["cached"])

    # A header with other content: the key is the same, the entry's
    # dependencies differ, so every unit is analyzed.
    c = checkout("runner-3")
    with open(os.path.join(c, "include", "points.h"), "a") as f:
        f.write("// edited\n")
    before = count_entries()
    r3 = run(c, "cache-3", url + "|read-only")
    print("changed header, read-only: %d analyzed, %d cached, entries %s" % (
        r3["analyzed"], r3["cached"],
        "unchanged" if count_entries() == before else "changed"))

    # --fix where the remote cache has every unit: it analyzes them here
    # (a remote entry gives findings, never edits) and makes the edits a
    # local analysis makes.
    d = checkout("runner-4")
    reference = checkout("reference")
    fixed = run(d, "cache-4", url + "|read-only", ["--fix"])
    run(reference, "cache-ref", None, ["--fix", "--no-cache"])
    print("fix from the remote: %d cached, same files as a local fix %s, "
          "changed %s" % (fixed["cached"],
                          rp.sources(d) == rp.sources(reference),
                          rp.sources(d) != rp.sources(checkout("pristine"))))
    for r in (r1, r2, local, r3, fixed):
        if r["stderr"].count("warning:"):
            print("unexpected warnings:", r["stderr"])


def base_directory(url):
    """Copies whose git top-level is not the project's (y lies deeper in a
    repository): the default base (the git top-level) differs, and
    --cache-base-dir makes them share."""
    x = rp.make_checkout(os.path.join(work, "plain-x", "project"), mock,
                         git=False)
    y = rp.make_checkout(os.path.join(work, "plain-y", "deeper", "project"),
                         mock, git=False)
    subprocess.run(["git", "init", "-q", os.path.join(work, "plain-y")],
                   check=True)
    run(x, "cache-x", url, ["--cache-base-dir=" + x])
    default = run(y, "cache-y1", url)
    given = run(y, "cache-y2", url, ["--cache-base-dir=" + y])
    print("base elsewhere: %d cached with the default base, %d with --cache-base-dir" %
          (default["cached"], given["cached"]))


if kind == "redis":
    with rs.redis(work) as (url, port):
        scenario(url, lambda: len(rs.redis_cli(port, "KEYS",
                                               "libtorch-tidy:*").split()))
        base_directory(url)
else:
    # The subdirs server wants a bearer token, read from a file.
    token = "t0ken-for-the-test" if kind == "subdirs" else None
    with rs.nginx(work, token=token) as (url, store):
        def count():
            files = []
            for dirpath, _, names in os.walk(store):
                files += [os.path.relpath(os.path.join(dirpath, n), store)
                          for n in names]
            return files
        attributes = "|layout=" + kind
        if token:
            token_file = os.path.join(work, "token")
            with open(token_file, "w") as f:
                f.write(token + "\n")
            attributes += "|bearer-token-file=" + token_file
        scenario(url + attributes, lambda: len(count()))
        if token:
            os.environ["WRONG_TOKEN"] = "not-the-token"
            wrong = run(checkout("runner-5"), "cache-5",
                        url + "|bearer-token-env=WRONG_TOKEN")
            print("wrong token: %d analyzed, warnings: %s, token shown %s" % (
                wrong["analyzed"],
                [l.split("(")[1] for l in rp.warnings(wrong, url)],
                "not-the-token" in wrong["stderr"]))
        shapes = sorted({"/".join(str(len(part)) for part in f.split("/"))
                         for f in count()})
        print("entry paths (lengths of their parts):", " ".join(shapes))
