"""Real cache servers for the remote-cache tests, each started on a free
loopback port in a directory of the test and always stopped, even when the
test fails: redis-server, nginx with WebDAV (PUT), a fault proxy that
answers as a broken server would (hangs, 500, garbage, cut-short bodies,
refused authorization), and a proxy that makes a real server slow. A missing server program fails the test, naming
the package: scripts/install-deps installs them."""
import contextlib
import os
import shutil
import socket
import subprocess
import threading
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _program(name, package):
    path = shutil.which(name) or (
        "/usr/sbin/" + name if os.path.exists("/usr/sbin/" + name) else None)
    if not path:
        raise SystemExit("FAIL: %s is not installed (Debian package %s; "
                         "run scripts/install-deps)" % (name, package))
    return path


def _wait_for_port(port, proc, log):
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit("FAIL: server exited: " + open(log).read())
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise SystemExit("FAIL: server did not listen on port %d" % port)


@contextlib.contextmanager
def _running(argv, port, log):
    with open(log, "w") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, proc, log)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def redis(work, password=None):
    """Yields the redis:// URL of a fresh redis-server."""
    program = _program("redis-server", "redis-server")
    d = os.path.join(work, "redis")
    os.makedirs(d, exist_ok=True)
    port = free_port()
    argv = [program, "--port", str(port), "--bind", "127.0.0.1",
            "--save", "", "--appendonly", "no", "--dir", d,
            "--protected-mode", "no"]
    if password:
        argv += ["--requirepass", password]
    with _running(argv, port, os.path.join(d, "log")):
        yield "redis://%s127.0.0.1:%d" % (
            ":" + password + "@" if password else "", port), port


def redis_cli(port, *args, password=None):
    argv = [_program("redis-cli", "redis-tools"), "-p", str(port)]
    if password:
        argv += ["--no-auth-warning", "-a", password]
    return subprocess.run(argv + list(args), stdout=subprocess.PIPE,
                          check=True, timeout=30).stdout


def redis_put(port, key, value):
    """Stores the bytes VALUE under KEY as they are (redis-cli -x reads
    them from standard input)."""
    subprocess.run([_program("redis-cli", "redis-tools"), "-p", str(port),
                    "-x", "SET", key], input=value, stdout=subprocess.DEVNULL,
                   check=True, timeout=30)


def redis_get(port, key):
    """The bytes stored under KEY."""
    return subprocess.run([_program("redis-cli", "redis-tools"), "-p",
                           str(port), "--raw", "GET", key],
                          stdout=subprocess.PIPE, check=True,
                          timeout=30).stdout[:-1]  # --raw adds a newline


NGINX_CONF = """
daemon off;
master_process off;
worker_processes 1;
pid %(d)s/nginx.pid;
error_log %(d)s/error.log;
events { worker_connections 64; }
http {
  access_log %(d)s/access.log;
  client_body_temp_path %(d)s/body;
  proxy_temp_path %(d)s/proxy;
  fastcgi_temp_path %(d)s/fastcgi;
  uwsgi_temp_path %(d)s/uwsgi;
  scgi_temp_path %(d)s/scgi;
  client_max_body_size 100m;
  server {
    listen 127.0.0.1:%(port)d;
    root %(d)s/store;
    location /cache/ {
      %(auth)s
      dav_methods PUT DELETE;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }
  }
}
"""


@contextlib.contextmanager
def nginx(work, token=None):
    """Yields (the http:// URL of /cache on a fresh nginx with WebDAV, the
    directory its entries are files in)."""
    program = _program("nginx", "nginx")
    d = os.path.join(work, "nginx")
    os.makedirs(os.path.join(d, "store", "cache"), exist_ok=True)
    port = free_port()
    auth = ('if ($http_authorization != "Bearer %s") { return 401; }' % token
            if token else "")
    conf = os.path.join(d, "nginx.conf")
    with open(conf, "w") as f:
        f.write(NGINX_CONF % {"d": d, "port": port, "auth": auth})
    with _running([program, "-p", d, "-e", os.path.join(d, "error.log"),
                   "-c", conf], port, os.path.join(d, "log")):
        yield ("http://127.0.0.1:%d/cache" % port,
               os.path.join(d, "store", "cache"))


class LoopbackServer(threading.Thread):
    """A TCP server on a free loopback port, for the servers a test plays
    itself: each connection is handed to answer(conn, peer) on a thread of
    its own, and closed after; stop() ends it and every connection."""

    def __init__(self, backlog=64):
        super().__init__(daemon=True)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(backlog)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stopping = False
        self.open = []

    def run(self):
        while not self.stopping:
            try:
                conn, peer = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            self.open.append(conn)
            threading.Thread(target=self._serve, args=(conn, peer),
                             daemon=True).start()

    def _serve(self, conn, peer):
        try:
            conn.settimeout(30)
            self.answer(conn, peer)
        except OSError:
            pass
        finally:
            conn.close()

    def answer(self, conn, peer):
        raise NotImplementedError

    def stop(self):
        self.stopping = True
        self.sock.close()
        for c in self.open:
            try:
                c.close()
            except OSError:
                pass


class _Fault(LoopbackServer):
    """Answers each connection with BEHAVIOUR: 'hang' (reads, never
    answers), 'http500', 'http401', 'garbage' (HTTP 200 with bytes that are
    no entry), 'truncated' (HTTP 200 promising more bytes than it sends),
    'resp-garbage' (not the Redis protocol)."""

    def __init__(self, behaviour):
        super().__init__()
        self.behaviour = behaviour

    def answer(self, conn, peer):
        conn.recv(65536)
        b = self.behaviour
        if b == "hang":
            while not self.stopping:
                time.sleep(0.05)
            return
        if b == "http500":
            conn.sendall(b"HTTP/1.1 500 Internal Server Error\r\n"
                         b"Content-Length: 0\r\n\r\n")
        elif b == "http401":
            conn.sendall(b"HTTP/1.1 401 Unauthorized\r\n"
                         b"Content-Length: 0\r\n\r\n")
        elif b == "garbage":
            body = os.urandom(3000)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n"
                         % len(body) + body)
        elif b == "truncated":
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n"
                         b"\r\nlibtorch-tidy remote entry\n")
        elif b == "resp-garbage":
            conn.sendall(b"\x00\x01 this is not redis \xff\r\n")
        time.sleep(0.2)


@contextlib.contextmanager
def fault(behaviour):
    """Yields (port, the proxy) of a broken server."""
    f = _Fault(behaviour)
    f.start()
    try:
        yield f.port, f
    finally:
        f.stop()


class _Delayed(LoopbackServer):
    """A proxy to a server on TARGET that holds back each piece of every
    answer for DELAY seconds: a server far away or overloaded. Counts the
    connections open at once."""

    def __init__(self, target, delay):
        super().__init__()
        self.target, self.delay = target, delay
        self.now = self.most = 0
        self.lock = threading.Lock()

    def answer(self, conn, peer):
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            server = socket.create_connection(("127.0.0.1", self.target))
            self.open.append(server)
            threading.Thread(target=self._forward, args=(conn, server),
                             daemon=True).start()
            while not self.stopping:
                data = server.recv(65536)
                if not data:
                    return
                time.sleep(self.delay)
                conn.sendall(data)
        finally:
            with self.lock:
                self.now -= 1

    def _forward(self, conn, server):
        try:
            while True:
                data = conn.recv(65536)
                if not data:
                    break
                server.sendall(data)
        except OSError:
            pass
        try:
            server.shutdown(socket.SHUT_WR)
        except OSError:
            pass


@contextlib.contextmanager
def delayed(target, delay):
    """Yields (port, the proxy) of a slow way to the server on TARGET."""
    d = _Delayed(target, delay)
    d.start()
    try:
        yield d.port, d
    finally:
        d.stop()


def stopped_port():
    """A loopback port nothing listens on (a server that is down)."""
    return free_port()
