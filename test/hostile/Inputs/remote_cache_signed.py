"""Signed entries of the remote cache: a writer with a signing key signs
what it stores; a reader that names the writer's verify key replays only
entries that key signed, and refuses (one warning, the units analyzed
here) entries a writer without the key put on the server: unsigned ones,
one re-signed with another key, one whose findings were rewritten with
the checksum made right again, one moved under another unit's key. A
reader that names no key replays what it finds, as the docs say; a writer
with the key overwrites the entries it refuses with signed ones. The key
never appears in a message.

usage: remote_cache_signed.py WORK CLI MOCK"""
import hashlib
import os
import shutil
import stat
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import remote_project as rp  # noqa: E402
import remote_servers as rs  # noqa: E402

work, cli, mock = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
SIGNED = b"libtorch-tidy signed remote entry\n"
MAGIC = b"libtorch-tidy remote entry\n"
runs = 0


def keygen(name):
    path = os.path.join(work, name)
    r = subprocess.run([cli, "remote-cache-keygen", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    assert r.returncode == 0, r.stderr
    return path, r.stdout.strip()


writer_key, writer_verify = keygen("writer.key")
attacker_key, attacker_verify = keygen("attacker.key")
mode = stat.S_IMODE(os.stat(writer_key).st_mode)
again = subprocess.run([cli, "remote-cache-keygen", writer_key],
                       stderr=subprocess.PIPE, universal_newlines=True)
with open(writer_key) as f:
    seed = f.read().strip()
shown = subprocess.run([cli, "remote-cache-keygen", "--verify-key",
                        writer_key], stdout=subprocess.PIPE,
                       universal_newlines=True).stdout.strip()
print("keygen: mode %o, verify key printed again %s, existing file: exit %d, "
      "kept %s" % (mode, shown == writer_verify, again.returncode,
                   open(writer_key).read().strip() == seed))


def run(url, extra=()):
    global runs
    runs += 1
    root = rp.make_checkout(os.path.join(work, "runner-%d" % runs, "p"), mock)
    return rp.analyze(cli, root, os.path.join(work, "cache-%d" % runs), url,
                      extra)


def unverified(r):
    return [l for l in r["stderr"].splitlines() if "not signed by" in l]


with rs.redis(work) as (url, port):
    writer = url + "|signing-key-file=" + writer_key
    reader = url + "|read-only|" + writer_verify
    first = run(writer)
    keys = rs.redis_cli(port, "KEYS", "libtorch-tidy:*").split()

    def put(key, value):
        rs.redis_put(port, key, value)

    def raw(key):
        return rs.redis_get(port, key)

    originals = {k: raw(k) for k in keys}
    print("writer: %d analyzed, %d entries, all signed %s" % (
        first["analyzed"], len(keys),
        all(v.startswith(SIGNED) for v in originals.values())))
    r = run(reader)
    print("reader with the verify key: %d cached, findings same %s, "
          "warned %s" % (r["cached"], r["findings"] == first["findings"],
                         bool(unverified(r))))
    r = run(url + "|read-only")
    print("reader without a key: %d cached" % r["cached"])

    def inner(entry):
        return entry.split(b"\n", 2)[2]

    def rewritten_message(entry):
        """The entry without its signature, a finding's message changed and
        the checksum made right again: what a writer without the key can
        make."""
        payload = inner(entry)[len(MAGIC) + 65:]
        payload = payload.replace(b"host", b"HOST")
        return MAGIC + hashlib.sha256(payload).hexdigest().encode() + \
            b"\n" + payload

    forgeries = {
        "unsigned": lambda e: inner(e),
        "rewritten message": rewritten_message,
        "signature of a rewritten entry": lambda e: e.split(b"\n", 2)[0] +
        b"\n" + e.split(b"\n", 2)[1] + b"\n" + rewritten_message(e),
        "bad signature line": lambda e: SIGNED + b"ed25519 xyz\n" + inner(e),
    }
    for name, forge in forgeries.items():
        for k in keys:
            put(k, forge(originals[k]))
        open_reader = run(url + "|read-only")
        r = run(reader)
        print("%s: reader with the key %d analyzed %d cached, findings same "
              "%s, warning %s; reader without a key replays a changed "
              "message %s" % (
                  name, r["analyzed"], r["cached"],
                  r["findings"] == first["findings"],
                  unverified(r)[0].split(": ")[2][:2] if unverified(r)
                  else None,
                  "HOST" in (open_reader["findings"] or "")))

    # Another key's signatures: the attacker runs as a writer with a key of
    # its own.
    for k in keys:
        put(k, b"")
    run(url + "|signing-key-file=" + attacker_key)
    r = run(reader)
    print("signed by another key: %d analyzed, %d cached, findings same %s, "
          "warned %s" % (r["analyzed"], r["cached"],
                         r["findings"] == first["findings"],
                         bool(unverified(r))))

    # Signed entries moved under each other's keys.
    for k, other in zip(keys, keys[1:] + keys[:1]):
        put(k, originals[other])
    r = run(reader)
    print("moved: %d analyzed, %d cached" % (r["analyzed"], r["cached"]))

    # The writer refuses them too and overwrites them with signed entries.
    for k in keys:
        put(k, inner(originals[k]))
    w = run(writer)
    r = run(reader)
    print("writer over unsigned entries: %d analyzed, then reader %d cached" %
          (w["analyzed"], r["cached"]))

    # The key from the environment, as a CI secret is given: it signs as
    # the file did. A variable that holds no key is an error that never
    # shows what it holds.
    def with_env(value):
        global runs
        runs += 1
        root = rp.make_checkout(os.path.join(work, "runner-%d" % runs, "p"),
                                mock)
        return rp.analyze(cli, root, os.path.join(work, "cache-%d" % runs),
                          url + "|signing-key-env=CACHE_KEY",
                          env=dict(os.environ, CACHE_KEY=value))

    for k in keys:
        put(k, inner(originals[k]))
    from_env = with_env(seed + "\n")
    r = run(reader)
    bad = with_env("not-a-key-" + seed[10:])
    print("key from the environment: %d analyzed, then reader %d cached; "
          "bad key: exit %d, shown %s" % (
              from_env["analyzed"], r["cached"], bad["exit"],
              seed[10:] in bad["stderr"]))
    print(bad["stderr"].strip())
