"""The remote cache's key names the build, not the version it claims: two
copies of one executable at two paths share entries through a real
redis-server, and another build that says the same version (the same
binary with one byte more) replays none of them. Each run has its own
empty local cache.

usage: remote_cache_build_identity.py WORK CLI MOCK"""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import remote_project as rp  # noqa: E402
import remote_servers as rs  # noqa: E402

work, cli, mock = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
root = rp.make_checkout(os.path.join(work, "project"), mock)


def install(name, extra=b""):
    """A copy of the CLI at WORK/NAME/bin, with EXTRA appended (an ELF
    executable runs the same with bytes after its sections)."""
    path = os.path.join(work, name, "bin", "libtorch-tidy")
    os.makedirs(os.path.dirname(path))
    shutil.copy2(cli, path)
    with open(path, "ab") as f:
        f.write(extra)
    return path


first = install("installed")
copy = install("copied")
other = install("rebuilt", b"\0")
versions = {subprocess.run([p, "--version"], stdout=subprocess.PIPE,
                           universal_newlines=True).stdout
            for p in (first, copy, other)}
print("versions alike: %s" % (len(versions) == 1))
with rs.redis(work) as (_, port):
    url = "redis://127.0.0.1:%d" % port
    runs = 0
    for name, binary in (("installed", first), ("copied", copy),
                         ("rebuilt", other)):
        runs += 1
        r = rp.analyze(binary, root, os.path.join(work, "cache-%d" % runs),
                       url)
        print("%s: exit %d, %d analyzed, %d cached" % (
            name, r["exit"], r["analyzed"], r["cached"]))
