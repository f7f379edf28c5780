#!/usr/bin/env python3
"""cache_cap_oversize.py WORKDIR CLI MOCK_INCLUDE_DIR

A --cache-max-size smaller than one precompiled prefix: the prefix used to
be built by one run and evicted by the next, every other run. Now a prefix
the cap cannot hold is not kept, the run warns once, and later runs under
that cap do not build it again (its size is recorded while its inputs
hold); a run without the cap builds and keeps it.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from two_units import analyze, write_two_units  # noqa: E402


def main():
    work, cli, mock = sys.argv[1:4]
    units, cache = write_two_units(work, "cache")

    def run(cap):
        r, findings = analyze(cli, mock, units, cache, ["--preamble=always"] +
                              (["--cache-max-size=" + cap] if cap else []))
        sys.stdout.write("".join(l + "\n" for l in r.stderr.splitlines() if "warning" in l))
        return r.returncode, findings

    def found(suffix):
        return sorted(os.path.join(d, n) for d, _, names in os.walk(cache)
                      for n in names if n.endswith(suffix))

    code, findings = run("64K")
    oversize = found(".oversize")
    print("cap 64K: exit %d, %d findings, %d PCH kept, %d size records" % (
        code, findings, len(found(".pch")), len(oversize)))
    stamp = [os.stat(p).st_mtime_ns for p in oversize]
    for unit in units:  # new bodies: analyzed again, not replayed
        with open(unit, "a") as f:
            f.write("// edited\n")
    code, findings = run("64K")
    print("cap 64K again: exit %d, %d findings, %d PCH kept, built again: %s" % (
        code, findings, len(found(".pch")),
        [os.stat(p).st_mtime_ns for p in oversize] != stamp))
    for unit in units:
        with open(unit, "a") as f:
            f.write("// edited again\n")
    code, findings = run("")
    print("no cap: exit %d, %d findings, %d PCH kept" % (code, findings, len(found(".pch"))))


if __name__ == "__main__":
    main()
