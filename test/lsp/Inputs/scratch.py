"""The server's copies of unsaved texts live in one directory per server
under $TMPDIR, removed when it ends; a server killed with SIGKILL leaves its
directory, and the next server removes it (and those of PIDs now held by
other processes), never one of a live server."""
import os
import signal
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main  # noqa: E402


def start_time(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[19]


def scratch(tmp):
    return sorted(n for n in os.listdir(tmp) if n.startswith("libtorch-tidy-lsp."))


def scenario(args):
    tmp = os.path.join(args.work, "tmp")
    os.makedirs(tmp, exist_ok=True)
    env = {"TMPDIR": tmp}
    first = Client(args.server, env=env)
    try:
        first.initialize()
        own = "libtorch-tidy-lsp.%d.%s" % (first.process.pid, start_time(first.process.pid))
        check(scratch(tmp) == [own], "the first server's directory: %r" % scratch(tmp))
        first.process.send_signal(signal.SIGKILL)
        first.process.wait(timeout=10)
    finally:
        first.close()
    check(scratch(tmp) == [own], "SIGKILL leaves it: %r" % scratch(tmp))
    # A PID that another process holds now (here this test's, with another
    # start time), and a live server's directory (this test's, as it is).
    reused = "libtorch-tidy-lsp.%d.1" % os.getpid()
    live = "libtorch-tidy-lsp.%d.%s" % (os.getpid(), start_time(os.getpid()))
    for name in (reused, live):
        os.makedirs(os.path.join(tmp, name, "analysis-x"))
        with open(os.path.join(tmp, name, "analysis-x", "0.src"), "w") as f:
            f.write("int unsaved;\n")
    second = Client(args.server, env=env)
    try:
        second.initialize()
        mine = "libtorch-tidy-lsp.%d.%s" % (second.process.pid, start_time(second.process.pid))
        check(scratch(tmp) == sorted([live, mine]),
              "the next server removed the dead ones only: %r" % scratch(tmp))
        code = second.shutdown()
        check(code == 0, "exit code %r" % code)
    finally:
        second.close()
    check(scratch(tmp) == [live], "a server that ends removes its own: %r" % scratch(tmp))
    print("scratch: dead servers' directories removed, live ones kept")


main(scenario)
