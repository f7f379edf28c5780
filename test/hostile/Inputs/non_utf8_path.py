#!/usr/bin/env python3
"""non_utf8_path.py WORKDIR CLI MOCK_INCLUDE_DIR LOADER_CPP

A source file whose directory name has a byte that is not UTF-8 (0xFF): the
text, JSON and SARIF outputs all report its finding (exit 1, no crash); the
JSON is valid, and the SARIF URI keeps the byte, percent-encoded.
"""
import json
import os
import shutil
import subprocess
import sys


def main():
    work, cli, mock, loader = (os.fsencode(a) for a in sys.argv[1:5])
    shutil.rmtree(work, ignore_errors=True)
    directory = os.path.join(work, b"caf\xff")
    os.makedirs(directory)
    source = os.path.join(directory, b"loader.cpp")
    shutil.copy(loader, source)
    for fmt in (b"text", b"json", b"sarif"):
        run = subprocess.run(
            [cli, b"--no-cache", b"--format=" + fmt, source, b"--",
             b"-std=c++17", b"-isystem", mock],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        if run.returncode != 1:
            sys.exit("non_utf8_path: --format=%s exited %d:\n%s" %
                     (fmt.decode(), run.returncode,
                      run.stderr.decode(errors="replace")))
        out = run.stdout
        if fmt == b"text":
            ok = b"caf\xff/loader.cpp:13:30: warning" in out
        elif fmt == b"json":
            report = json.loads(out.decode("utf-8"))
            ok = "libtorch-dataloader-no-workers" in json.dumps(report)
        else:
            log = json.loads(out.decode("utf-8"))
            uris = [loc["physicalLocation"]["artifactLocation"]["uri"]
                    for result in log["runs"][0]["results"]
                    for loc in result["locations"]]
            ok = any("caf%FF/loader.cpp" in uri for uri in uris)
        print("non_utf8_path: --format=%s %s" %
              (fmt.decode(), "reports the finding" if ok else "FAILED:\n" +
               out.decode(errors="replace")))


if __name__ == "__main__":
    main()
