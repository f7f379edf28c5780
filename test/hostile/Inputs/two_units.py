"""Two units that start with the same LibTorch include (so they share a
precompiled prefix), each with one per-step host sync: the project of the
cache tests on a mount of their own (cache_unwritable.py, cache_full_disk.py)."""
import os
import shutil
import subprocess

UNIT = """#include <torch/torch.h>

void train%d(torch::optim::SGD &optimizer, const torch::Tensor &loss) {
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    float value = loss.item<float>();
    (void)value;
  }
}
"""


def write_two_units(work, mount_name):
    """Makes WORK afresh with the two units and an empty MOUNT_NAME folder;
    returns (the units' paths, the folder's path)."""
    shutil.rmtree(work, ignore_errors=True)
    mnt = os.path.join(work, mount_name)
    os.makedirs(mnt)
    units = []
    for i in (1, 2):
        units.append(os.path.join(work, "unit%d.cpp" % i))
        with open(units[-1], "w") as f:
            f.write(UNIT % i)
    return units, mnt


def analyze(cli, mock, units, cache, extra=()):
    """Runs the host-sync check on UNITS with the cache directory CACHE (and
    EXTRA arguments); returns (the finished process, its findings)."""
    r = subprocess.run(
        [cli, "--checks=-*,libtorch-host-sync-in-loop", "--config={}",
         "--cache-dir=" + cache, "--unit-timeout=120"] + list(extra) + units +
        ["--", "-std=c++17", "-isystem", mock],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        universal_newlines=True, timeout=600)
    return r, sum(1 for l in r.stdout.splitlines() if ": warning: " in l)
