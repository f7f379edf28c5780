#!/usr/bin/env python3
"""The folder-level include graph of driver/, and whether it has a cycle.

Each folder of driver/ (cache, config, run, ...) is a layer: it may include
the headers of the layers below it, never of one above. Two folders that
include each other, directly or around a longer loop, can no longer be told
apart as layers, and the next change in either is free to lean on the other;
this fails on any such loop and names the includes that make it.

    driver_layers.py <driver dir> [--support <support dir>] [--print]

--print lists each folder with the folders it includes (the picture in
docs/architecture.md). With --support, no file under that directory may
include a header of driver/: the support libraries sit below the driver.
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


def folder_graph(driver):
    """Folder -> {included folder: [(file, line, include)]}."""
    folders = {
        entry
        for entry in os.listdir(driver)
        if os.path.isdir(os.path.join(driver, entry))
    }
    graph = {folder: defaultdict(list) for folder in folders}
    for folder in folders:
        for path in source_files(os.path.join(driver, folder)):
            for number, include in quoted_includes(path):
                target = include.split("/", 1)[0]
                if "/" in include and target in folders and target != folder:
                    where = os.path.relpath(path, os.path.dirname(driver))
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
    parser.add_argument("driver")
    parser.add_argument("--support")
    parser.add_argument("--print", action="store_true")
    args = parser.parse_args()
    driver = os.path.abspath(args.driver)
    graph = folder_graph(driver)
    if args.print:
        for folder in sorted(graph):
            print("%s -> %s" % (folder, " ".join(sorted(graph[folder])) or "-"))

    failed = False
    for component in cycles(graph):
        failed = True
        print("error: the folders %s of driver/ include each other:"
              % ", ".join(component))
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
                if include.split("/", 1)[0] in folders and "/" in include:
                    failed = True
                    print("error: %s:%d includes \"%s\" of driver/: the "
                          "support libraries sit below the driver"
                          % (path, number, include))
    if failed:
        return 1
    print("driver/: %d folders, no include cycle" % len(graph))
    return 0


if __name__ == "__main__":
    sys.exit(main())
