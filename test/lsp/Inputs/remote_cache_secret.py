"""The language server hands its worker the remote cache's URL, password
included, in the environment, which only their user can read, not on the
command line, which every user of the machine can (ps). A listener on
loopback, posing as the Redis server, looks up the worker that connects
and reads its command line and environment while the worker waits for an
answer; then it hangs up, and the worker analyzes the file itself."""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
from lsp_client import Client, check, main, write_project  # noqa: E402
import remote_servers as rs  # noqa: E402

SECRET = "lsp-s3cret-pw"


def process_of_peer(port):
    """The pid of the process whose loopback TCP socket has local `port`
    (/proc/net/tcp names the socket's inode, a /proc/PID/fd link names
    it too)."""
    inode = None
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            if int(fields[1].split(":")[1], 16) == port:
                inode = fields[9]
    check(inode, "the worker's socket is in /proc/net/tcp")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir("/proc/%s/fd" % pid):
                if os.readlink("/proc/%s/fd/%s" % (pid, fd)) == \
                        "socket:[%s]" % inode:
                    return int(pid)
        except OSError:
            continue
    return None


class Listener(rs.LoopbackServer):
    """Poses as the Redis server: notes the command line and environment
    of the worker that connects, while it waits for an answer, and hangs
    up."""

    def __init__(self):
        super().__init__(backlog=8)
        self.seen = []  # (command line, environment) of each worker

    def answer(self, conn, peer):
        pid = process_of_peer(peer[1])
        if pid:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
            with open("/proc/%d/environ" % pid, "rb") as f:
                environ = f.read().split(b"\0")
            self.seen.append((argv, environ))


def scenario(args):
    text = open(os.path.join(HERE, "train.cpp"), encoding="utf-8").read()
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": text}, args.flags)
    subprocess.run(["git", "init", "-q", project], check=True)
    path = os.path.join(project, "train.cpp")
    listener = Listener()
    listener.start()
    url = "redis://:%s@127.0.0.1:%d" % (SECRET, listener.port)
    c = Client(args.server, cwd=project,
               env={"XDG_CACHE_HOME": os.path.join(args.work, "lsp-cache"),
                    "LIBTORCH_TIDY_REMOTE_CACHE": url})
    try:
        c.initialize()
        uri = c.open(path, text, version=1)
        found = c.diagnostics(uri, version=1)["diagnostics"]
        check(found, "analyzed here after the server hung up: %r" % found)
        c.shutdown()
    finally:
        c.close()
    check(listener.seen, "a worker looked the file up")
    secret = SECRET.encode()
    print("the worker's command line holds the password: %s" %
          any(secret in a for argv, _ in listener.seen for a in argv))
    print("the worker's environment holds the URL: %s" %
          all(b"LIBTORCH_TIDY_REMOTE_CACHE=" + url.encode() in environ
              for _, environ in listener.seen))


if __name__ == "__main__":
    main(scenario)
