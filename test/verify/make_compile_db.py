#!/usr/bin/env python3
"""make_compile_db.py SOURCE_DIR BUILD_DIR

Writes BUILD_DIR/compile_commands.json with one entry per .cpp file of
SOURCE_DIR, compiled with g++ -std=c++17: the compilation database that a
non-CMake build would provide, for the --build-cmd tests of verify.
"""
import json
import os
import sys

source, build = (os.path.abspath(p) for p in sys.argv[1:3])
os.makedirs(build, exist_ok=True)
entries = [{"directory": build,
            "file": os.path.join(source, name),
            "arguments": ["g++", "-std=c++17", "-c", os.path.join(source, name)]}
           for name in sorted(os.listdir(source)) if name.endswith(".cpp")]
with open(os.path.join(build, "compile_commands.json"), "w") as f:
    json.dump(entries, f, indent=2)
