#!/usr/bin/env python3
"""report_edited_during_analysis.py WORKDIR CLI MOCK_INCLUDE_DIR LOADER_CPP

A unit edited while it is analyzed (edit_during_fix.py's FIFO gate holds the
parse after the main file was read; a line is prepended meanwhile): every
report format names the finding where it is in the bytes that were parsed.
The text report must not take the parsed offset into the edited file (a
place in neither version), nor show a source line from it; SARIF's fix
regions and GitHub line hash must not come from it either. Prints each
format's line:column for FileCheck to compare.
"""
import json
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from edit_during_fix import EDIT, analyze_while_editing, write_gated_unit  # noqa: E402

CHECK = "libtorch-dataloader-no-workers"


def analyze(work, cli, mock, loader, format_):
    source, gate, original = write_gated_unit(work, loader)
    run, output = analyze_while_editing(
        [cli, "--no-cache", "--format=" + format_, "--checks=-*," + CHECK,
         source, "--", "-std=c++17", "-isystem", mock],
        gate, source, EDIT + original,
        stderr=subprocess.STDOUT if format_ == "text" else subprocess.DEVNULL)
    if run.returncode != 1:
        sys.exit("exit %d, not 1:\n%s" % (run.returncode, output))
    return output, original


def main():
    work, cli, mock, loader = sys.argv[1:5]
    text, original = analyze(work, cli, mock, loader, "text")
    at = original.index("make_data_loader")
    print("parsed %d:%d" % (original.count("\n", 0, at) + 1,
                            at - original.rfind("\n", 0, at)))
    found = re.search(r"train\.cpp:(\d+):(\d+): warning: ", text)
    if not found:
        sys.exit("no finding in the text report:\n" + text)
    print("text %s:%s" % found.groups())
    # The source line shown under it, if any, is the parsed line.
    shown = [l for l in text.splitlines() if "make_data_loader" in l]
    print("text shows %s" % ("the parsed line" if shown and shown[0] in original.splitlines()
                             else "no line" if not shown else "another line: " + shown[0]))

    output, _ = analyze(work, cli, mock, loader, "json")
    begin = json.loads(output)["findings"][0]["location"]["begin"]
    print("json %d:%d" % (begin["line"], begin["column"]))

    output, _ = analyze(work, cli, mock, loader, "sarif")
    result = json.loads(output)["runs"][0]["results"][0]
    region = result["locations"][0]["physicalLocation"]["region"]
    print("sarif %d:%d" % (region["startLine"], region["startColumn"]))
    deleted = result["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]
    print("sarif fix region in %s" % ("bytes" if "byteOffset" in deleted else "lines"))
    print("sarif line hash: %s" % ("primaryLocationLineHash" in result["partialFingerprints"]))


if __name__ == "__main__":
    main()
