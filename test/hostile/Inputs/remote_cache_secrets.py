"""Credentials never reach a message, whatever characters they hold, and
what a server says reaches the terminal escaped.

- A real redis-server whose password holds '/', ' ', '|' and '+' (a base64
  password has '/' and '+'): the URL with them percent-encoded, as ccache
  needs them, stores entries; a URL with one of '/', ' ' or '|' written as
  is fails with one line and exit code 2 before anything is analyzed, and
  that line holds no piece of the password.
- A server that takes the password and answers every GET with an error
  reply full of terminal escapes that echoes the password: one warning,
  the escapes written out (\\x1b), the password as ***.

usage: remote_cache_secrets.py WORK CLI MOCK"""
import os
import shutil
import sys
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import remote_project as rp  # noqa: E402
import remote_servers as rs  # noqa: E402

work, cli, mock = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
root = rp.make_checkout(os.path.join(work, "project"), mock)
runs = 0


def analyze(url):
    global runs
    runs += 1
    return rp.analyze(cli, root, os.path.join(work, "cache-%d" % runs), url)


PASSWORD = "lft9q/mid4k+ sp6w|rgt7z=="
PIECES = ("lft9q", "mid4k", "sp6w", "rgt7z")
with rs.redis(work) as (_, port):
    rs.redis_cli(port, "CONFIG", "SET", "requirepass", PASSWORD)
    r = analyze("redis://:%s@127.0.0.1:%d" % (
        urllib.parse.quote(PASSWORD, safe=""), port))
    stored = int(rs.redis_cli(port, "DBSIZE", password=PASSWORD))
    print("percent-encoded: exit %d, entries stored %s, warnings %d, "
          "password shown %s" % (
              r["exit"], stored > 0, len(rp.warnings(r, "redis://")),
              any(p in r["stderr"] for p in PIECES)))
    for name, bare in (("slash", "lft9q/rgt7z"), ("space", "lft9q rgt7z"),
                       ("bar", "lft9q|rgt7z")):
        r = analyze("redis://user:%s@127.0.0.1:%d/0|read-only" % (bare, port))
        lines = r["stderr"].splitlines()
        print("%s as is: exit %d, %d line(s), password shown %s" % (
            name, r["exit"], len(lines),
            any(p in r["stderr"] for p in PIECES)))
        for line in lines:
            print("  " + line.replace(str(port), "PORT"))


ECHOED = "echo5ecret"


class EscapingServer(rs.LoopbackServer):
    """Takes any AUTH, and answers every other command with an error reply
    that moves the cursor, retitles and clears the terminal, and echoes
    the password."""

    def answer(self, conn, peer):
        while True:
            request = conn.recv(65536)
            if not request:
                return
            if b"AUTH" in request:
                conn.sendall(b"+OK\r\n")
            else:
                conn.sendall(b"-ERR \x1b]0;pwned\x07\x1b[2J\x1b[1A" +
                             b"auth " + ECHOED.encode() + b"\r\n")


server = EscapingServer()
server.start()
r = analyze("redis://:%s@127.0.0.1:%d" % (ECHOED, server.port))
lines = rp.warnings(r, "redis://127.0.0.1:%d" % server.port)
print("escapes: exit %d, %d warning(s), raw control characters %s, "
      "password shown %s" % (
          r["exit"], len(lines),
          any(c in r["stderr"] for c in "\x1b\x07"),
          ECHOED in r["stderr"]))
for line in lines:
    print("  " + line.split(" an entry (")[1].split("); it is")[0])
