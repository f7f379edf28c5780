"""A small LibTorch project (mock headers) laid out as a checkout with a
compile database, and the CLI run on it with a local and a remote cache: the
project of the remote-cache tests, cloned at several paths ("CI runners")."""
import json
import os
import shutil
import subprocess
import time

HEADER = """#pragma once
#include <torch/torch.h>
#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 64; }
};
"""

# Starts with a system include, so the units share a precompiled prefix,
# whose header in the local cache is no input of the remote entries.
UNIT = """#include <torch/torch.h>
#include "points.h"

void train%d(torch::optim::SGD &optimizer, const torch::Tensor &loss) {
  auto loader = torch::data::make_data_loader(Points(), 64);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    float value = loss.item<float>();
    (void)value;
  }
}
"""

CHECKS = "-*,libtorch-host-sync-in-loop,libtorch-dataloader-no-workers"


def make_checkout(root, mock, units=4, git=True):
    """A git checkout at ROOT (a plain directory without GIT): src/unit<i>.cpp,
    include/points.h and build/compile_commands.json with absolute paths, as
    CMake writes it."""
    shutil.rmtree(root, ignore_errors=True)
    for d in ("src", "include", "build"):
        os.makedirs(os.path.join(root, d))
    with open(os.path.join(root, "include", "points.h"), "w") as f:
        f.write(HEADER)
    commands = []
    for i in range(1, units + 1):
        src = os.path.join(root, "src", "unit%d.cpp" % i)
        with open(src, "w") as f:
            f.write(UNIT % i)
        commands.append({
            # The checkout itself for odd units (CMake's in-source builds):
            # the base directory is then a whole line of the key.
            "directory": os.path.join(root, "build") if i % 2 == 0 else root,
            "file": src,
            "arguments": ["clang++", "-std=c++17", "-isystem", mock,
                          "-I" + os.path.join(root, "include"), "-c", src,
                          "-o", "unit%d.o" % i]})
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        json.dump(commands, f, indent=1)
    if git:
        subprocess.run(["git", "init", "-q", root], check=True)
    return root


def analyze(cli, root, cache, remote, extra=(), env=None):
    """Runs the CLI in ROOT on every unit; returns a dict: exit, findings
    (the JSON report's, paths made relative to ROOT), analyzed and cached
    unit counts, stderr, seconds."""
    e = dict(os.environ)
    e.pop("LIBTORCH_TIDY_REMOTE_CACHE", None)
    e.update(env or {})
    argv = [cli, "-p", "build", "--checks=" + CHECKS, "--config={}",
            "--format=json", "--progress=plain", "--unit-timeout=120",
            "--cache-dir=" + cache]
    if remote is not None:
        argv.append("--remote-cache=" + remote)
    start = time.time()
    r = subprocess.run(argv + list(extra), cwd=root, env=e,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=600)
    seconds = time.time() - start
    findings = None
    try:
        report = json.loads(r.stdout)
        findings = json.dumps(report.get("findings"), sort_keys=True).replace(
            root, "<root>")
    except ValueError:
        pass
    progress = [l for l in r.stderr.splitlines() if l.startswith("[")]
    return {"exit": r.returncode, "findings": findings,
            "cached": sum(1 for l in progress if " cached" in l),
            "analyzed": sum(1 for l in progress if " cached" not in l),
            "stderr": r.stderr, "seconds": seconds}


def warnings(result, server):
    """The lines of RESULT's stderr that warn about SERVER."""
    return [l for l in result["stderr"].splitlines()
            if "warning: the remote cache '%s'" % server in l]


def sources(root):
    out = {}
    for d in ("src", "include"):
        for name in sorted(os.listdir(os.path.join(root, d))):
            with open(os.path.join(root, d, name)) as f:
                out[d + "/" + name] = f.read()
    return out
