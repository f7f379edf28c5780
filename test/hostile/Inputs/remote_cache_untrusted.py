"""Entries of the remote cache are network data: an entry with a flipped
byte, one cut short, one stored under another unit's key, and one whose
checksum was recomputed over a forged content digest are each ignored
(one warning for the run), the unit is analyzed here with the findings it
has, and the entry is overwritten with a good one; `--fix` edits only what
a local analysis edits. A key that holds no entry at all (a Redis
list, a value over the 64 MiB bound) is a miss for that key only: the
server serves the other keys, and the key is overwritten.

usage: remote_cache_untrusted.py WORK CLI MOCK"""
import hashlib
import os
import shutil
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import remote_project as rp  # noqa: E402
import remote_servers as rs  # noqa: E402

work, cli, mock = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
MAGIC = b"libtorch-tidy remote entry\n"
runs = 0


def run(url, extra=()):
    global runs
    runs += 1
    root = rp.make_checkout(os.path.join(work, "runner-%d" % runs, "p"), mock)
    return root, rp.analyze(cli, root, os.path.join(work, "cache-%d" % runs),
                            url, extra)


with rs.redis(work) as (url, port):
    first_root, first = run(url)
    keys = rs.redis_cli(port, "KEYS", "libtorch-tidy:*").split()
    print("stored %d entries" % len(keys))

    def put(key, value):
        rs.redis_put(port, key, value)

    def raw(key):
        return rs.redis_get(port, key)

    originals = {k: raw(k) for k in keys}

    def restore():
        for k, v in originals.items():
            put(k, v)

    def forge_digest(entry):
        """The same entry with the main file's recorded content digest
        changed and the checksum made right again."""
        payload = entry[len(MAGIC) + 65:]
        with open(os.path.join(first_root, "src", "unit1.cpp"), "rb") as f:
            unit1 = hashlib.sha256(f.read()).hexdigest().encode()
        for digest in [unit1] + [
                hashlib.sha256(open(os.path.join(first_root, "src", n),
                                    "rb").read()).hexdigest().encode()
                for n in sorted(os.listdir(os.path.join(first_root, "src")))]:
            if digest in payload:
                payload = payload.replace(digest, b"0" * 64)
                break
        return MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + \
            payload

    damages = {
        "flipped byte": lambda e: e[:-10] + bytes([e[-10] ^ 0x20]) + e[-9:],
        "cut short": lambda e: e[:len(e) // 2],
        "forged digest": forge_digest,
    }
    for name, damage in damages.items():
        restore()
        for k in keys:
            put(k, damage(originals[k]))
        root, r = run(url)
        # Then --fix, which analyzes here whatever the cache holds.
        rp.analyze(cli, root, os.path.join(work, "cache-fix-" + name[:4]),
                   url, ["--fix"])
        reference = rp.make_checkout(os.path.join(work, "ref-" + name[:4]),
                                     mock)
        rp.analyze(cli, reference, os.path.join(work, "c-ref"), None,
                   ["--fix", "--no-cache"])
        rejected = [l for l in r["stderr"].splitlines() if "checksum" in l]
        _, again = run(url)  # a fresh runner: every entry is good again
        print("%s: %d analyzed, %d cached, findings same %s, fixed as a local "
              "run %s, warning %s, entries rewritten %s" % (
                  name, r["analyzed"], r["cached"],
                  r["findings"] == first["findings"],
                  rp.sources(root) == rp.sources(reference),
                  rejected[0].split(": ")[2][:2] if rejected else None,
                  again["cached"] == len(keys)))

    # Each unit's entry stored under another unit's key.
    restore()
    for k, other in zip(keys, keys[1:] + keys[:1]):
        put(k, originals[other])
    root, r = run(url)
    print("swapped keys: %d analyzed, %d cached, findings same %s, "
          "warned %s" % (r["analyzed"], r["cached"],
                         r["findings"] == first["findings"],
                         any("checksum" in l for l in
                             r["stderr"].splitlines())))

    # One key holds a list, another a value over the bound: misses for
    # those two keys, hits for the others; both are overwritten.
    restore()
    rs.redis_cli(port, "DEL", keys[0])
    rs.redis_cli(port, "RPUSH", keys[0], "not", "an", "entry")
    put(keys[1], b"x" * ((64 << 20) + 1))
    root, r = run(url)
    failed = [l for l in r["stderr"].splitlines() if "failed to" in l]
    rejected = [l for l in r["stderr"].splitlines() if "checksum" in l]
    _, again = run(url)
    print("unusable keys: %d analyzed, %d cached, findings same %s, server "
          "dropped %s, warning %s, entries rewritten %s" % (
              r["analyzed"], r["cached"], r["findings"] == first["findings"],
              bool(failed), rejected[0].split(": ")[2][:2] if rejected
              else None, again["cached"] == len(keys)))

    # An entry that passes every check but whose fix-it a writer of the
    # cache rewrote (same length, checksum recomputed): --fix analyzes the
    # unit here, before and after the entry reached the local cache; a run
    # without --fix may replay it (findings are shown, nothing is written).
    def forge_fix(entry):
        payload = entry[len(MAGIC) + 65:]
        payload = payload.replace(b"DataLoaderOptions()",
                                  b"PWNED/**/PWNED/**()")
        return MAGIC + hashlib.sha256(payload).hexdigest().encode() + \
            b"\n" + payload

    restore()
    for k in keys:
        put(k, forge_fix(originals[k]))
    runs += 1
    root = rp.make_checkout(os.path.join(work, "runner-%d" % runs, "p"), mock)
    cache = os.path.join(work, "cache-%d" % runs)
    shown = rp.analyze(cli, root, cache, url)
    fixed = rp.analyze(cli, root, cache, url, ["--fix"])
    reference = rp.make_checkout(os.path.join(work, "ref-forged-fix"), mock)
    rp.analyze(cli, reference, os.path.join(work, "c-ref"), None,
               ["--fix", "--no-cache"])
    print("forged fix-it: replayed without --fix %d, with --fix %d analyzed "
          "%d cached, fixed as a local run %s, forged text written %s" % (
              shown["cached"], fixed["analyzed"], fixed["cached"],
              rp.sources(root) == rp.sources(reference),
              any("PWNED" in t for t in rp.sources(root).values())))
