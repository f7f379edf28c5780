#!/usr/bin/env python3
"""edit_during_fix.py WORKDIR CLI MOCK_INCLUDE_DIR LOADER_CPP

A --fix run whose unit is edited while it is being analyzed: a header that is
a FIFO holds the parse after the main file was read; meanwhile a line is
prepended to the main file; then the FIFO is released. The fix computed from
the bytes that were parsed must not be written into the edited file: exit 2,
the file left exactly as the user edited it. Every wait is bounded.
"""
import os
import shutil
import subprocess
import sys
import time



def analyze_while_editing(command, gate, source, edited,
                          stderr=subprocess.STDOUT):
    """Runs COMMAND, whose unit SOURCE includes the FIFO GATE first; once the
    compiler has read SOURCE and opened GATE, writes EDITED into SOURCE, then
    lets the parse go on. Returns the finished process and its standard
    output (with its standard error, unless STDERR says otherwise)."""
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr,
                           universal_newlines=True)
    # Wait until the compiler opens the FIFO (it has read the source by
    # then): opening the write end succeeds only once a reader is there.
    deadline = time.time() + 120
    writer = None
    while writer is None:
        try:
            writer = os.open(gate, os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            if time.time() > deadline or run.poll() is not None:
                run.kill()
                sys.exit("edit_during_fix: the analysis never opened %s:\n%s" %
                         (gate, run.communicate()[0]))
            time.sleep(0.05)
    with open(source, "w") as f:
        f.write(edited)
    os.close(writer)  # the header ends: the parse goes on
    try:
        output = run.communicate(timeout=300)[0]
    except subprocess.TimeoutExpired:
        run.kill()
        sys.exit("edit_during_fix: the run did not finish")
    return run, output


def write_gated_unit(work, loader):
    """WORK afresh with train.cpp (LOADER behind an include of the FIFO
    gate.h) and the FIFO; returns (train.cpp, gate.h, its content)."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    source = os.path.join(work, "train.cpp")
    with open(loader) as f:
        original = '#include "gate.h"\n' + f.read()
    with open(source, "w") as f:
        f.write(original)
    gate = os.path.join(work, "gate.h")
    os.mkfifo(gate)
    return source, gate, original


EDIT = "// A line the user added while the analysis ran.\n"


def main():
    work, cli, mock, loader = sys.argv[1:5]
    source, gate, original = write_gated_unit(work, loader)
    edited = EDIT + original
    run, output = analyze_while_editing(
        [cli, "--no-cache", "--fix", "--checks=-*,libtorch-dataloader-no-workers",
         source, "--", "-std=c++17", "-isystem", mock], gate, source, edited)
    sys.stdout.write(output)
    with open(source) as f:
        now = f.read()
    if now != edited:
        sys.exit("edit_during_fix: the edited file was rewritten:\n" + now)
    print("edit_during_fix: exit %d, the edited file is untouched" % run.returncode)


if __name__ == "__main__":
    main()
