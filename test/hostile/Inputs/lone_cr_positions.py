#!/usr/bin/env python3
"""lone_cr_positions.py WORKDIR CLI MOCK_INCLUDE_DIR LOADER_CPP

A file whose first lines end in a lone CR (an old Mac editor's line breaks),
then CRLF, then LF. clang counts LF, CRLF and a lone CR as one line break
each; so must every report: the text report, JSON, SARIF (the finding and its
fix's deleted region) and the language server (the diagnostic, and the quick
fix applied as an editor applies it). The line is computed here from the
bytes with that rule, and each format's is printed against it.
"""
import json
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import Client, Failure, check, uri  # noqa: E402

BREAK = re.compile(rb"\r\n|\r|\n")
CHECK = "libtorch-dataloader-no-workers"


def line_of(data, offset):
    """1-based line of byte OFFSET, LF, CRLF and lone CR one break each."""
    return 1 + len(BREAK.findall(data[:offset]))


def lsp_offset(text, position):
    """The index in TEXT (str) of an LSP position, with the LSP's line
    breaks (LF, CRLF, CR), as an editor finds it; ASCII-only lines."""
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    return starts[position["line"]] + position["character"]


def run(cli, args):
    r = subprocess.run([cli] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    check(r.returncode == 1, "exit 1 with a finding: %r %r" % (r.returncode, r.stderr))
    return r.stdout.decode("utf-8", "replace")


def main():
    work, cli, mock, loader = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    with open(loader, "rb") as f:
        body = f.read()
    data = (b"// Saved by an editor that ends lines in a lone CR,\r"
            b"// three of them,\r\r"
            b"// then one CRLF,\r\n" + body)
    source = os.path.join(work, "train.cpp")
    with open(source, "wb") as f:
        f.write(data)
    at = data.index(b"make_data_loader")
    expected = line_of(data, at)
    print("expected line %d" % expected)
    flags = ["--", "-std=c++17", "-isystem", mock]
    common = ["--no-cache", "--checks=-*," + CHECK, source]

    text = run(cli, common + flags)
    found = re.search(r"train\.cpp:(\d+):(\d+): warning: ", text)
    check(found, "a finding in the text report:\n" + text)
    print("text line %s" % found.group(1))

    report = json.loads(run(cli, ["--format=json"] + common + flags))
    finding = report["findings"][0]
    print("json line %d" % finding["location"]["begin"]["line"])
    fix = finding["fixes"][0]
    fix_line = line_of(data, fix["offset"])

    sarif = json.loads(run(cli, ["--format=sarif"] + common + flags))
    result = sarif["runs"][0]["results"][0]
    print("sarif line %d" % result["locations"][0]["physicalLocation"]["region"]["startLine"])
    deleted = result["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]
    print("sarif fix line %s (of %d)" % (deleted["startLine"] == fix_line, fix_line))

    # The language server on the same bytes, and its quick fix applied as an
    # editor applies it.
    project = os.path.join(work, "project")
    os.makedirs(project, exist_ok=True)
    path = os.path.join(project, "train.cpp")
    with open(path, "wb") as f:
        f.write(data)
    with open(os.path.join(project, "compile_commands.json"), "w") as f:
        json.dump([{"directory": project, "file": path,
                    "arguments": ["c++"] + flags[1:] + ["-c", path]}], f)
    document = data.decode("utf-8")
    c = Client([cli])
    try:
        c.initialize()
        doc = c.open(path, document)
        diags = c.diagnostics(doc, version=1)["diagnostics"]
        check(len(diags) == 1, "one diagnostic: %r" % diags)
        print("lsp line %d" % (diags[0]["range"]["start"]["line"] + 1))
        actions = c.result(c.code_actions(path, diags[0]["range"]["start"],
                                          diags[0]["range"]["start"],
                                          only=["quickfix"]))
        actions = [a for a in actions if a["title"].startswith("Apply fix: ")]
        check(len(actions) == 1, "one fix-it: %r" % actions)
        edit = actions[0]["edit"]
        edits = (edit["documentChanges"][0]["edits"] if "documentChanges" in edit
                 else edit["changes"][uri(path)])
        fixed = document
        for e in sorted(edits, key=lambda e: lsp_offset(document, e["range"]["start"]),
                        reverse=True):
            begin = lsp_offset(document, e["range"]["start"])
            end = lsp_offset(document, e["range"]["end"])
            fixed = fixed[:begin] + e["newText"] + fixed[end:]
        wanted = document[:fix["offset"]] + fix["replacementText"] + \
            document[fix["offset"] + fix["length"]:]
        print("lsp quick fix lands where --fix puts it: %s" % (fixed == wanted))
        check(c.shutdown() == 0, "the server's exit code")
    finally:
        c.close()


if __name__ == "__main__":
    try:
        main()
    except Failure as failure:
        sys.exit("lone_cr_positions: %s" % failure)
