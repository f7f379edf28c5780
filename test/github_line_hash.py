#!/usr/bin/env python3
"""github_line_hash.py SARIF... --root DIR | --lines FILE

An independent port of the line hash that GitHub's SARIF upload action
(github/codeql-action/upload-sarif) computes for every result and compares
with the result's partialFingerprints.primaryLocationLineHash, warning "found
existing inconsistent fingerprint value" where they differ. Written from the
action's algorithm, not from libtorch-tidy's code (driver/report/
FingerprintLineHash.cpp), so that each checks the other:

- the file is read as UTF-8 (ill-formed bytes become U+FFFD) and walked in
  UTF-16 code units;
- spaces and tabs are skipped, CR becomes LF, an LF right after a CR is
  skipped; after the last unit comes 65535, then zeros;
- a rolling hash over a window of the last 100 units, h = 37*h + new -
  37^100*old modulo 2^64, is output for a line once the window has moved 100
  units past the line's first unit, as lowercase hex of the unsigned value
  followed by ":<how often that hash was output so far>".

With SARIF logs: checks every result with a start line, its file resolved
against --root, prints "N of M results match" per log and exits 1 when one
differs or lacks the value. With --lines: prints each line's hash.
"""
import argparse
import json
import os
import sys
import urllib.parse

BLOCK = 100
MASK = (1 << 64) - 1
MOD = 37
FIRST_MOD = pow(MOD, BLOCK, 1 << 64)
END = 65535


def utf16_units(data):
    text = data.decode("utf-8", errors="replace")
    encoded = text.encode("utf-16-le", errors="surrogatepass")
    return [int.from_bytes(encoded[i:i + 2], "little") for i in range(0, len(encoded), 2)]


def line_hashes(data):
    """{line number: "hex:n"} for every line of the file's bytes."""
    window = [0] * BLOCK
    line_of = [-1] * BLOCK
    state = {"hash": 0, "index": 0}
    counts = {}
    out = {}

    def output():
        value = "%x" % state["hash"]
        counts[value] = counts.get(value, 0) + 1
        out[line_of[state["index"]]] = "%s:%d" % (value, counts[value])
        line_of[state["index"]] = -1

    def update(unit):
        i = state["index"]
        old = window[i]
        window[i] = unit
        state["hash"] = (MOD * state["hash"] + unit - FIRST_MOD * old) & MASK
        state["index"] = (i + 1) % BLOCK

    line = 0
    line_start = True
    prev_cr = False
    for unit in utf16_units(data) + [END]:
        if unit in (0x20, 0x09) or (prev_cr and unit == 0x0A):
            prev_cr = False
            continue
        if unit == 0x0D:
            unit = 0x0A
            prev_cr = True
        else:
            prev_cr = False
        if line_of[state["index"]] != -1:
            output()
        if line_start:
            line_start = False
            line += 1
            line_of[state["index"]] = line
        if unit == 0x0A:
            line_start = True
        update(unit)
    for _ in range(BLOCK):
        if line_of[state["index"]] != -1:
            output()
        update(0)
    return out


def resolve(location, root):
    artifact = location.get("physicalLocation", {}).get("artifactLocation", {})
    uri = urllib.parse.unquote(artifact.get("uri", ""))
    if uri.startswith("file://"):
        uri = uri[len("file://"):]
    if "://" in uri or not uri:
        return None
    return uri if uri.startswith("/") else os.path.join(root, uri)


def check_log(path, root):
    with open(path) as f:
        log = json.load(f)
    checked = matched = 0
    problems = []
    cache = {}
    for run in log.get("runs", []):
        for i, result in enumerate(run.get("results", [])):
            locations = result.get("locations") or []
            if not locations:
                continue
            line = locations[0].get("physicalLocation", {}).get("region", {}).get("startLine")
            file = resolve(locations[0], root)
            if line is None or file is None or not os.path.isfile(file):
                continue
            if file not in cache:
                with open(file, "rb") as f:
                    cache[file] = line_hashes(f.read())
            expected = cache[file].get(line)
            ours = result.get("partialFingerprints", {}).get("primaryLocationLineHash")
            checked += 1
            if ours == expected:
                matched += 1
            else:
                problems.append("results[%d] (%s line %d): ours %r, GitHub's %r"
                                % (i, os.path.relpath(file, root), line, ours, expected))
    print("%s: %d of %d results match GitHub's line hash" % (path, matched, checked))
    for problem in problems:
        print("%s: mismatch: %s" % (path, problem))
    return not problems and checked > 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", help="directory that relative URIs are relative to")
    parser.add_argument("--lines", help="print every line's hash of this file")
    parser.add_argument("logs", nargs="*")
    args = parser.parse_args()
    if args.lines:
        with open(args.lines, "rb") as f:
            for number, value in sorted(line_hashes(f.read()).items()):
                print("%d %s" % (number, value))
        return
    if not args.logs or not args.root:
        parser.error("give SARIF logs and --root, or --lines FILE")
    ok = all([check_log(path, args.root) for path in args.logs])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
