#!/usr/bin/env python3
"""The project's own C++ analyzed with the checks its .clang-tidy names.

libtorch-tidy lints itself: it is a drop-in for clang-tidy-16, so the
standard checks run through the CLI, which skips the bodies of functions in
system headers (Clang's and LLVM's templates are most of every unit) and
keeps results in a cache. The build's own compilation database lists unity
batches and precompiled headers, neither of which a linter should see, so a
plain one is configured for the purpose (cmake, configure step only).

Exits 0 when there is no finding, 1 with the findings otherwise (every
check is an error: WarningsAsErrors in .clang-tidy), 2 when it could not
run; and 2 when the database names too few sources to prove anything.

Usage: self_lint.py --cli CLI --src SRC --temp DIR [--cache-dir DIR]
                    [--jobs N] [FILE ...]
"""
import argparse
import json
import os
import re
import subprocess
import sys

# The project's own code; examples/ and test/ are a user's code.
OWN_CODE = ("checks", "driver", "support", "runtime-verify")

# Sources in those folders today: far fewer means the database lost them.
MIN_UNITS = 100


def configure(src, database_dir):
    """A compilation database of the project's sources, one entry a file."""
    os.makedirs(database_dir, exist_ok=True)
    cmd = ["cmake", "-S", src, "-B", database_dir, "-G", "Ninja",
           "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
           "-DLIBTORCH_TIDY_UNITY=OFF", "-DLIBTORCH_TIDY_PCH=OFF",
           "-DLIBTORCH_TIDY_BUILD_TESTS=OFF"]
    result = subprocess.run(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            universal_newlines=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout)
        sys.exit("self-lint: error: cmake could not configure %s; fix the "
                 "configuration first" % src)


def own_sources(src, database_dir):
    """The database's sources in OWN_CODE (not generated ones)."""
    with open(os.path.join(database_dir, "compile_commands.json"),
              encoding="utf-8") as f:
        entries = json.load(f)
    roots = tuple(os.path.join(src, d) + os.sep for d in OWN_CODE)
    files = set()
    for entry in entries:
        path = os.path.normpath(os.path.join(entry["directory"],
                                             entry["file"]))
        if path.startswith(roots):
            files.add(path)
    return sorted(files)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--src", required=True)
    parser.add_argument("--temp", required=True)
    parser.add_argument("--cache-dir")
    parser.add_argument("--jobs", type=int,
                        help="units analyzed at once (default: one a core)")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()

    src = os.path.abspath(args.src)
    database_dir = os.path.join(os.path.abspath(args.temp), "database")
    configure(src, database_dir)
    cache = args.cache_dir or os.path.join(os.path.abspath(args.temp),
                                           "cache")
    files = ([os.path.abspath(f) for f in args.files] or
             own_sources(src, database_dir))
    if not args.files and len(files) < MIN_UNITS:
        print("self-lint: error: only %d sources in the database (expected "
              "at least %d): it lost the project's code" % (len(files),
                                                           MIN_UNITS))
        sys.exit(2)
    cmd = [args.cli, "-p", database_dir, "--cache-dir=" + cache,
           "--progress=plain",
           "--config-file=" + os.path.join(src, ".clang-tidy")]
    if args.jobs:
        cmd += ["-j", str(args.jobs)]
    cmd += files
    result = subprocess.run(cmd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT,
                            universal_newlines=True)
    output = result.stdout
    units = len(files)
    # Progress lines are for a person watching; the findings are the point.
    sys.stdout.write(re.sub(r"^\[\d+/\d+\] .*\n", "", output, flags=re.M))
    if result.returncode not in (0, 1):
        sys.exit("self-lint: error: %s exited with %d" % (args.cli,
                                                           result.returncode))
    print("self-lint: %d units, %s" % (
        units, "no findings" if result.returncode == 0 else "findings above"))
    sys.exit(result.returncode)


if __name__ == "__main__":
    main()
