#!/usr/bin/env python3
"""cache_untrusted_entries.py WORKDIR CLI MOCK_INCLUDE_DIR

A cache directory is shared or restored (CI caches, a team's home on NFS):
its contents are untrusted input. Every file the first run wrote there (the
result entry, the precompiled prefix's header, .deps and .wanted records)
is replaced, in turn, by a symbolic link to a file of the user's and by a
FIFO; a second run must
- leave the link targets untouched (a cache write never follows a link),
- finish (a cache write never opens a FIFO, which would block without a
  reader), within --unit-timeout and a bound here,
- report the same findings as the first run.
Then the precompiled prefix is damaged (zeroed, cut short): the next run
rebuilds it; and entries replaced by directories are written again.
Prints one line per case; exits 1 on the first defect.
"""
import os
import shutil
import subprocess
import sys

TRAIN = """#include <torch/torch.h>

void train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
           const torch::Tensor &x) {
  torch::Device device(torch::kCUDA);
  model->to(device);
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    auto loss = model(x.to(device)).sum();
    loss.backward();
    optimizer.step();
    float value = loss.item<float>();
    (void)value;
  }
}
"""


def warnings(output):
    return sorted(l for l in output.splitlines() if ": warning: " in l)


def cache_files(cache):
    found = []
    for directory, _, files in os.walk(cache):
        for name in files:
            # The PCH itself is named anew by each build; the lock is
            # created exclusively (O_EXCL never follows a link).
            if not name.endswith((".pch", ".lock")):
                found.append(os.path.join(directory, name))
    return sorted(found)


def main():
    work, cli, mock = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    source = os.path.join(work, "train.cpp")
    with open(source, "w") as f:
        f.write(TRAIN)
    cache = os.path.join(work, "cache")
    command = [cli, "--checks=-*,libtorch-host-sync-in-loop", "--config={}",
               "--cache-dir=" + cache, "--preamble=always", "--unit-timeout=60",
               source, "--", "-std=c++17", "-isystem", mock]

    def run(what):
        try:
            r = subprocess.run(command, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               universal_newlines=True, timeout=240)
        except subprocess.TimeoutExpired:
            sys.exit("cache_untrusted_entries: %s: the run hung" % what)
        if r.returncode not in (0, 1):
            sys.exit("cache_untrusted_entries: %s: exit %d\n%s" % (
                what, r.returncode, r.stdout))
        return r.stdout

    expected = warnings(run("first run"))
    if not expected:
        sys.exit("cache_untrusted_entries: the first run found nothing")
    files = cache_files(cache)
    kinds = sorted({os.path.splitext(f)[1] or "(entry)" for f in files})
    print("cache files: %s" % ", ".join(kinds))
    for case in ("symlink", "fifo"):
        sentinels = {}
        for i, path in enumerate(files):
            os.remove(path)
            if case == "symlink":
                target = os.path.join(work, "user-file-%d" % i)
                with open(target, "w") as f:
                    f.write("the user's file %d\n" % i)
                sentinels[target] = "the user's file %d\n" % i
                os.symlink(target, path)
            else:
                os.mkfifo(path)
        got = warnings(run(case))
        if got != expected:
            sys.exit("cache_untrusted_entries: %s: other findings:\n%s" % (
                case, "\n".join(got)))
        for target, text in sentinels.items():
            with open(target, "rb") as f:
                if f.read() != text.encode():
                    sys.exit("cache_untrusted_entries: %s: %s was written "
                             "through the link" % (case, target))
        rewritten = [p for p in files if os.path.isfile(p) and not os.path.islink(p)]
        print("%s: same findings, nothing written through, %d of %d entries "
              "rewritten as regular files" % (case, len(rewritten), len(files)))
        # Back to a clean cache for the next case.
        shutil.rmtree(cache)
        run("refill")
        files = cache_files(cache)

    # The precompiled prefix damaged (zeroed at its size, cut short): clang
    # would reject it on every run, which would then parse without it. It
    # is rebuilt by the next run, and the entries replaced by directories
    # are written again.
    def pchs():
        return sorted(os.path.join(d, n) for d, _, names in os.walk(cache)
                      for n in names if n.endswith(".pch"))
    for damage in ("zeroed", "cut short"):
        for pch in pchs():
            size = os.path.getsize(pch)
            with open(pch, "r+b") as f:
                if damage == "zeroed":
                    f.write(b"\0" * size)
                else:
                    f.truncate(size // 2)
        damaged = pchs()
        # A new body, so that the unit is analyzed (not replayed) and looks
        # its prefix up.
        with open(source, "a") as f:
            f.write("// edited: %s\n" % damage)
        output = run(damage)
        got = warnings(output)
        said = [l for l in output.splitlines() if "preamble rebuilt" in l]
        rebuilt = [p for p in pchs() if p not in damaged]
        intact = all(open(p, "rb").read(4) == b"CPCH" for p in pchs())
        if got != expected or len(rebuilt) != 1 or not intact:
            sys.exit("cache_untrusted_entries: %s PCH: findings %s, %d rebuilt, "
                     "intact %s" % (damage, got == expected, len(rebuilt), intact))
        # The progress line (plain: standard error is no terminal) says so.
        print("%s PCH: same findings, rebuilt; %s" % (
            damage, said[0] if said else "the run said nothing of it"))
    files = cache_files(cache)
    for path in files:
        os.remove(path)
        os.makedirs(os.path.join(path, "inside"))
    got = warnings(run("directories"))
    regular = [p for p in files if os.path.isfile(p)]
    print("directories: same findings %s, %d of %d entries regular files again" % (
        got == expected, len(regular), len(files)))


if __name__ == "__main__":
    main()
