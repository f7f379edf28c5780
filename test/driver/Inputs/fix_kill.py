#!/usr/bin/env python3
"""fix_kill.py TEMP CLI MOCK_INCLUDE_DIR

Kills (SIGKILL) `libtorch-tidy --fix` while it writes the fixes of many
files, and checks that every file is either exactly its original or exactly
its fully fixed content: never a mix, never truncated. Exits non-zero with a
message otherwise.

One translation unit includes HEADERS headers, each with FUNCTIONS fixable
findings after a long comment: the run parses LibTorch's (mock) headers once
but writes HEADERS large files, so the kill lands among the writes. If a try
finishes before the kill, or is killed before any file was replaced, it is
repeated (up to 5 times) so that the midway state is really observed.
"""
import os
import shutil
import signal
import subprocess
import sys
import time

HEADERS = 30
FUNCTIONS = 5
PADDING = 512 * 1024  # bytes of comment per header

POINTS = """#pragma once
#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};
"""


def name(i):
    return "h%04d" % i


def header(i):
    line = "// " + "padding " * 12 + "\n"
    code = ["#pragma once", '#include "points.h"', "namespace %s {" % name(i)]
    for k in range(FUNCTIONS):
        code += ["inline void train%d() {" % k,
                 "  auto loader = torch::data::make_data_loader(Points(), %d);"
                 % (k + 1),
                 "}"]
    code += ["} // namespace %s" % name(i)]
    return line * (PADDING // len(line)) + "\n".join(code) + "\n"


def write_unit(directory, count):
    os.makedirs(directory)
    with open(os.path.join(directory, "points.h"), "w") as f:
        f.write(POINTS)
    with open(os.path.join(directory, "main.cpp"), "w") as f:
        f.write("".join('#include "%s.h"\n' % name(i) for i in range(count)))
    paths = []
    for i in range(count):
        path = os.path.join(directory, name(i) + ".h")
        with open(path, "w") as f:
            f.write(header(i))
        paths.append(path)
    return paths


def run_fix(cli, mock, directory, **kwargs):
    return subprocess.Popen(
        [cli, "--fix", "--quiet", "--header-filter=.*",
         os.path.join(directory, "main.cpp"), "--", "-std=c++17",
         "-isystem", mock],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)


def main():
    temp, cli, mock = sys.argv[1:4]
    shutil.rmtree(temp, ignore_errors=True)

    # The fully fixed content, from a run that is not interrupted.
    reference = os.path.join(temp, "reference")
    [path] = write_unit(reference, 1)
    proc = run_fix(cli, mock, reference)
    _, err = proc.communicate()
    with open(path) as f:
        fixed0 = f.read()
    if fixed0.count(".workers(") != FUNCTIONS:
        sys.exit("fix_kill: the reference run made %d of %d fixes (exit %d): "
                 "%s" % (fixed0.count(".workers("), FUNCTIONS,
                         proc.returncode, err.decode(errors="replace")))

    def fixed(i):
        return fixed0.replace(name(0), name(i))

    for attempt in range(1, 6):
        directory = os.path.join(temp, "try%d" % attempt)
        paths = write_unit(directory, HEADERS)
        size = os.stat(paths[0]).st_size
        proc = run_fix(cli, mock, directory, start_new_session=True)
        # Kill as soon as the first header has been replaced (its size
        # changed).
        killed = False
        while proc.poll() is None:
            if any(os.stat(p).st_size != size for p in paths):
                os.killpg(proc.pid, signal.SIGKILL)
                killed = True
                break
            time.sleep(0.001)
        proc.wait()

        done = untouched = 0
        for i, path in enumerate(paths):
            with open(path) as f:
                content = f.read()
            if content == fixed(i):
                done += 1
            elif content == header(i):
                untouched += 1
            else:
                sys.exit("fix_kill: %s is neither its original nor its fixed "
                         "content (%d bytes): half-written" %
                         (path, len(content)))
        leftovers = [n for n in os.listdir(directory)
                     if not n.endswith((".h", ".cpp"))]
        for leftover in leftovers:
            if not (leftover.startswith(".h") and ".libtorch-tidy-" in leftover
                    and leftover.endswith(".tmp")):
                sys.exit("fix_kill: unexpected file left behind: %s" %
                         leftover)
        print("try %d: killed=%s fixed=%d untouched=%d temporary=%d" %
              (attempt, killed, done, untouched, len(leftovers)))
        if killed and done > 0 and untouched > 0:
            print("fix_kill: killed midway; every file is whole")
            return
    sys.exit("fix_kill: no try was killed while files were being written")


if __name__ == "__main__":
    main()
