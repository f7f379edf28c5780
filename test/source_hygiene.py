#!/usr/bin/env python3
"""Traces that a move leaves in the project's own C++, and that a reader
trips over: an include guard that names another path, a file banner broken
over two lines, a comment naming a project file that is not there.

    source_hygiene.py <source root>

Checks every header and source file of checks/, driver/, support/ and
runtime-verify/ (test inputs and third-party code are left alone):
- a header's include guard is LIBTORCH_TIDY_ followed by its path from the
  root, upper case, with '/' and '.' written '_'
  (checks/utils/AstWalk.h: LIBTORCH_TIDY_CHECKS_UTILS_ASTWALK_H);
- the first line is one banner line, `//===--- Name - What ---...-===//`
  or `//===--- Name - What -*- C++ -*-===//`, not one broken over two;
- a path of the project named in a comment (`checks/utils/AstWalk.h`,
  `analysis/devices/DeviceFacts.h`, `docs/architecture.md`) exists, from the
  root or from one of the include roots (checks/, driver/, support/).

Prints one line per problem, `file:line: what`, and exits 1 if there is any.
"""

import os
import re
import sys

FOLDERS = ("checks", "driver", "support", "runtime-verify")
INCLUDE_ROOTS = ("", "checks", "driver", "support", "runtime-verify")
SOURCES = (".h", ".cpp")
GUARD = re.compile(r"^#ifndef\s+(\S+)")
BANNER = re.compile(r"^//===-+ .*-===//$")
# A path of the project in a comment: folders and a file with a suffix.
PATH_IN_COMMENT = re.compile(
    r"(?<![\w/.-])((?:[A-Za-z0-9_+-]+/)+[A-Za-z0-9_+-]+\.(?:h|cpp|def|inc|md|py|test|txt|json))\b")


def expected_guard(relative):
    return "LIBTORCH_TIDY_" + re.sub(r"[/.-]", "_", relative).upper()


def comment_text(line):
    index = line.find("//")
    return line[index + 2:] if index >= 0 else ""


def project_folders(root):
    """The folders a path of the project starts with: the root's own and
    those of the include roots (`analysis/...` from checks/)."""
    folders = set()
    for include_root in INCLUDE_ROOTS:
        base = os.path.join(root, include_root)
        if os.path.isdir(base):
            folders.update(entry for entry in os.listdir(base)
                           if os.path.isdir(os.path.join(base, entry))
                           and not entry.startswith("."))
    return folders


def exists(root, relative, path):
    """From the root, an include root, or the file's own folder."""
    bases = [os.path.join(root, r) for r in INCLUDE_ROOTS]
    bases.append(os.path.join(root, os.path.dirname(relative)))
    return any(os.path.exists(os.path.join(base, path)) for base in bases)


def check_file(root, relative, folders):
    problems = []
    with open(os.path.join(root, relative), encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[0].startswith("//===") and not BANNER.match(lines[0]):
        problems.append((1, "the file banner is broken over two lines; "
                            "write it on one (`//===--- Name - What ---===//`)"))
    if relative.endswith(".h"):
        guards = [GUARD.match(line) for line in lines]
        guard = next((m.group(1) for m in guards if m), None)
        want = expected_guard(relative)
        if guard != want:
            number = next((i + 1 for i, m in enumerate(guards) if m), 1)
            problems.append((number, "include guard %s names another path; "
                                     "use %s" % (guard, want)))
    for number, line in enumerate(lines, 1):
        for path in PATH_IN_COMMENT.findall(comment_text(line)):
            first = path.split("/", 1)[0]
            if first not in folders and not os.path.isdir(
                    os.path.join(root, os.path.dirname(relative), first)):
                continue
            if not exists(root, relative, path):
                problems.append((number, "the comment names %s, which is "
                                         "not in the project" % path))
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: source_hygiene.py <source root>")
    root = sys.argv[1]
    folders = project_folders(root)
    count = 0
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                relative = os.path.relpath(os.path.join(directory, name), root)
                for number, what in check_file(root, relative, folders):
                    print("%s:%d: %s" % (relative, number, what))
                    count += 1
    print("source hygiene: %d problems" % count)
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
