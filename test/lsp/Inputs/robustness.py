"""An analysis that crashes or hangs does not take the server down: the file
gets one message and the server keeps serving. Exit, a signal or the death
of the editor (initialize's processId) leave no worker and no temporary
file behind."""
import os
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, check, main, write_project  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class Worker:
    def __init__(self, pid):
        self.pid = pid

    def send_signal(self, number):
        os.kill(self.pid, number)


def worker_of(c, timeout=30):
    """The server's analysis process, as soon as it runs (from /proc)."""
    deadline = time.monotonic() + timeout
    pid = c.process.pid
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
                children = f.read().split()
        except OSError:
            children = []
        if children:
            return Worker(int(children[0]))
        time.sleep(0.002)
    raise AssertionError("no analysis process started")


def gone(worker):
    """Ended (a zombie counts: its parent reaps it)."""
    try:
        with open("/proc/%d/stat" % worker.pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text}, args.flags)
    path = os.path.join(project, "train.cpp")
    tmp = os.path.join(args.work, "tmp")
    os.makedirs(tmp)
    env = {"TMPDIR": tmp}

    # A crash (SIGSEGV in the worker): one message, and the server serves on.
    c = Client(args.server, env=env)
    try:
        c.initialize()
        uri = c.open(path, text)
        worker_of(c).send_signal(signal.SIGSEGV)
        crashed = c.wait_for(lambda m: m.get("method") == "window/showMessage",
                             "a message about the crash")["params"]["message"]
        check("train.cpp" in crashed and "crashed" in crashed, crashed)
        check(c.diagnostics(uri, version=1)["diagnostics"] == [], "nothing to show")
        c.change(path, 2, [{"text": text}])
        check(len(c.diagnostics(uri, version=2)["diagnostics"]) == 2, "analyzed again")
        # exit while an analysis runs: the worker and its files go.
        c.change(path, 3, [{"text": text + "\n"}])
        worker = worker_of(c)
        check(c.shutdown() == 0, "exit code")
        check(gone(worker), "no worker left after exit")
        check(os.listdir(tmp) == [], "no temporary files left: %r" % os.listdir(tmp))
    finally:
        c.close()

    # A hang (SIGSTOP) past --analysis-timeout: killed, one message.
    c = Client(args.server, ["--analysis-timeout=1"], env=env)
    try:
        c.initialize()
        uri = c.open(path, text)
        worker = worker_of(c)
        worker.send_signal(signal.SIGSTOP)
        hung = c.wait_for(lambda m: m.get("method") == "window/showMessage",
                          "a message about the hang", timeout=20)["params"]["message"]
        check("did not end in time" in hung, hung)
        check(gone(worker), "the hung worker was killed")
        check(c.result(c.code_actions(path, {"line": 0, "character": 0},
                                      {"line": 0, "character": 0})) == [],
              "still answering")
        check(c.shutdown() == 0, "exit code")
        check(os.listdir(tmp) == [], "no temporary files left: %r" % os.listdir(tmp))
    finally:
        c.close()

    # SIGTERM to the server while an analysis runs.
    c = Client(args.server, env=env)
    try:
        c.initialize()
        c.open(path, text)
        worker = worker_of(c)
        c.process.send_signal(signal.SIGTERM)
        code = c.process.wait(timeout=10)
        check(code == -signal.SIGTERM, "dies of the signal: %r" % code)
        time.sleep(0.2)
        check(gone(worker), "no worker left after SIGTERM")
        check(os.listdir(tmp) == [], "no temporary files left: %r" % os.listdir(tmp))
    finally:
        c.close()

    # The editor (initialize's processId) dies: the server ends.
    editor = subprocess.Popen(["sleep", "60"])
    c = Client(args.server, env=env)
    try:
        c.initialize(process_id=editor.pid)
        editor.kill()
        editor.wait()
        code = c.process.wait(timeout=10)
        check(code == 1, "ends when the editor dies: %r" % code)
    finally:
        c.close()


main(scenario)
