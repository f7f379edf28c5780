#!/usr/bin/env python3
"""The folder-level include graph of a layered directory, and whether it has
a cycle.

Each folder of driver/ (cache, config, run, ...) and of checks/analysis/
(vocabulary, devices, steps, ...) is a layer: it may include the headers of
the layers below it, never of one above. Two folders that include each
other, directly or around a longer loop, can no longer be told apart as
layers, and the next change in either is free to lean on the other; this
fails on any such loop and names the includes that make it.

    folder_layers.py <dir> [--prefix <include prefix>] [--support <dir>]
                     [--public <dir>=<header>,...] [--print]

An include names a folder by its first component (`run/Workers.h`), or by
the component after --prefix (`analysis/steps/BatchScope.h` with --prefix
analysis/). --print lists each folder with the folders it includes (the
picture in docs/architecture.md). With --support, no file under that
directory may include a header of the layered directory: the support
libraries sit below it. With --public, the layered directory includes of
that other directory only the headers listed (paths below it): the
interface it declares to the layers above it.
"""

import argparse
import os
import re
import sys
from collections import defaultdict

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCES = (".h", ".cpp", ".def", ".inc")


def quoted_includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            match = INCLUDE.match(line)
            if match:
                yield number, match.group(1)


def source_files(root):
    for directory, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(SOURCES):
                yield os.path.join(directory, name)


def included_folder(include, prefix):
    """The folder an include names, or None."""
    if prefix:
        if not include.startswith(prefix):
            return None
        include = include[len(prefix):]
    return include.split("/", 1)[0] if "/" in include else None


def folder_graph(root, prefix=""):
    """Folder -> {included folder: [(file, line, include)]}."""
    folders = {
        entry
        for entry in os.listdir(root)
        if os.path.isdir(os.path.join(root, entry))
    }
    graph = {folder: defaultdict(list) for folder in folders}
    for folder in folders:
        for path in source_files(os.path.join(root, folder)):
            for number, include in quoted_includes(path):
                target = included_folder(include, prefix)
                if target in folders and target != folder:
                    where = os.path.relpath(path, os.path.dirname(root))
                    graph[folder][target].append((where, number, include))
    return graph


def cycles(graph):
    """The strongly connected components of more than one folder (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph[node]):
            if successor not in index:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--prefix", default="")
    parser.add_argument("--support")
    parser.add_argument("--public")
    parser.add_argument("--print", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    graph = folder_graph(root, args.prefix)
    name = os.path.basename(root) + "/"
    if args.print:
        for folder in sorted(graph):
            print("%s -> %s" % (folder, " ".join(sorted(graph[folder])) or "-"))

    failed = False
    for component in cycles(graph):
        failed = True
        print("error: the folders %s of %s include each other:"
              % (", ".join(component), name))
        for folder in component:
            for target in sorted(graph[folder]):
                if target in component:
                    where, number, include = graph[folder][target][0]
                    print("  %s -> %s (%s:%d includes \"%s\")"
                          % (folder, target, where, number, include))

    if args.support:
        folders = set(graph)
        for path in source_files(args.support):
            for number, include in quoted_includes(path):
                if included_folder(include, args.prefix) in folders:
                    failed = True
                    print("error: %s:%d includes \"%s\" of %s: the "
                          "support libraries sit below it"
                          % (path, number, include, name))
    if args.public:
        other, _, listed = args.public.partition("=")
        public = set(filter(None, listed.split(",")))
        for path in source_files(root):
            for number, include in quoted_includes(path):
                if (os.path.isfile(os.path.join(other, include))
                        and include not in public):
                    failed = True
                    print("error: %s:%d includes \"%s\", which %s does not "
                          "declare public (%s)"
                          % (os.path.relpath(path, os.path.dirname(root)),
                             number, include, other.rstrip("/") + "/",
                             ", ".join(sorted(public))))
    if failed:
        return 1
    print("%s: %d folders, no include cycle" % (name, len(graph)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
