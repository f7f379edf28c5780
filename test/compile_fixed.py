#!/usr/bin/env python3
"""g++ -fsyntax-only over many files at once: the compile step of the fix-it
sweep (test/fixit_sweep.py, on the check tests, the examples and the corpus)
and of the examples test (test/check_examples.py).

Most of a g++ compile of a LibTorch program is LibTorch's own. Even from the
precompiled <torch/torch.h> (test/CMakeLists.txt), g++ instantiates the
header's pending templates at the end of every translation unit: ~7 s of
CPU for an empty file, against ~1 s for a program's own code (`g++
-ftime-report`: "template instantiation", 92 %). So files compiled with the
same flags are compiled together, as one translation unit in which each
file is a namespace of its own:

  #line 4 "checks/first.cpp"         every file's #include lines, once
  #include <torch/torch.h>            each, in the order they first appear
  #line 6 "checks/first.cpp"
  #include <iomanip>
  namespace libtorch_tidy_batch_1 {
  #line 1 "checks/first.cpp"
  #ifdef STEPS                        for each macro the file defines
  #error STEPS is defined before the file defines it
  #endif
  #line 1 "checks/first.cpp"
  ...the file, its #include lines blanked...
  }
  #undef STEPS
  namespace libtorch_tidy_batch_2 {
  ...

Only a file for which the wrapping changes nothing that g++ checks for it
alone is put in a batch:
  - it includes <torch/torch.h> before anything else, so the precompiled
    header applies, as it does for the file alone;
  - its #include lines are `#include <...>`, before its first line of code,
    and the files of a batch include the same headers beyond those that
    <torch/torch.h> includes (the depfile of its PCH), in the same order:
    so the hoisted headers add nothing that the file does not have alone;
  - its other directives are conditionals, #error, #warning and macros of
    its own: each is #undef'd after the file, and one that is defined
    before the file defines it (by LibTorch, the flags or an earlier file)
    is an #error that names the file. No #pragma, #line, #undef of another
    macro, __COUNTER__ or __BASE_FILE__ (`--explain` says why a file is
    compiled alone);
  - its flags have no -Werror or -pedantic-errors: a batch is compiled
    with -w (the wrapping has warnings of its own: `main` in a namespace
    has no implicit return 0), so it would not see a warning that such a
    flag makes the file's error.
What the wrapping does change is lookup at the file's own namespace scope: a
declaration of the file can no longer clash with a global one of the C
library, nor with the names of a using-directive. Each test that compiles
files in batches also has the analyzer parse each of them alone (the
sweep's re-check, the examples test's analysis run), where either clash is
a Clang compile error that fails the test.

A batch that g++ rejects says nothing about its files: every file its
diagnostics name (by the file's own path and lines, thanks to #line, for a
hoisted #include too) is compiled alone, and that compile is the file's
verdict, with its command and output; the other files are batched again. A
failure is therefore always reported from a compile of the file alone.

The sweep of the check tests, the examples and the corpus compiles ~70
fixed files: one at a time, ~10 s of CPU each; in batches, ~20 s for 37
corpus files (test/compile-fixed.test shows each path; docs/performance.md).
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import threading

from check_libtorch_tidy import torch_pch_args

INCLUDE = re.compile(r"#\s*include\s*<[^>\n]+>\s*(//.*)?")
INCLUDE_NAME = re.compile(r"<([^>\n]+)>")
DIRECTIVE = re.compile(r"#\s*(\w+)\s*([A-Za-z_]\w*)?")
# After the #include lines: conditionals, and macros the file defines (each
# #undef'd after the file, so that the next one sees the macros it would
# see alone); no #pragma, #line or later #include.
ALLOWED_DIRECTIVES = {"if", "ifdef", "ifndef", "elif", "else", "endif",
                      "define", "undef", "error", "warning"}
# Macros whose value depends on the translation unit, not on the file.
UNBATCHABLE_NAMES = ("__COUNTER__", "__BASE_FILE__")
NAMESPACE = "libtorch_tidy_batch_%d"


def run(cmd, timeout):
    """(exit code, or None on a time-out; stdout and stderr together)."""
    try:
        result = subprocess.run(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT,
                                universal_newlines=True, timeout=timeout)
        return result.returncode, result.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout or ""
        if isinstance(out, bytes):
            out = out.decode("utf-8", "replace")
        return None, out


class Compile:
    """One file to compile with g++ -fsyntax-only, and its verdict."""

    def __init__(self, path, flags, headers="real"):
        self.path = path
        self.flags = list(flags)
        # Which real LibTorch the flags name (check_libtorch_tidy.py's
        # REAL_HEADERS): its precompiled <torch/torch.h> is the one to use.
        self.headers = headers
        self.code = None       # g++'s exit code, None on a time-out
        self.output = ""       # its output, when it failed
        self.command = None    # the command that compiles the file alone
        self.batched = False   # the verdict is a batch's
        self.alone_because = None  # why it was not put in a batch

    @property
    def ok(self):
        return self.code == 0


def libtorch_name(tools, headers):
    """How a message names the LibTorch of \p headers."""
    if headers == "real2":
        return "LibTorch %s (C++20)" % tools.get("torch2_version", "2.x")
    return "LibTorch 1.13 (C++17)"


def on_each_libtorch(tools, path, flags):
    """The compiles of a fixed file against every real LibTorch the tests
    have: \p flags name LibTorch 1.13 (-std=c++17 and its headers); the
    LibTorch 2.x compile replaces both with C++20 and 2.x's headers (its
    headers require C++20), keeping the file's own flags (-D, -I, -W)."""
    compiles = [Compile(path, flags)]
    if tools.get("torch2_found"):
        own = [f for f in flags if not f.startswith("-std=")]
        torch1 = tools["torch_compile_flags"]
        for i in range(len(own) - len(torch1) + 1):
            if own[i:i + len(torch1)] == torch1:
                own = own[:i] + own[i + len(torch1):]
                break
        compiles.append(Compile(path, ["-std=c++20"] + tools["torch2_compile_flags"] +
                                own, headers="real2"))
    return compiles


class Parts:
    """A file cut up for a batch: its #include lines (line number, text),
    its text with them blanked, and the macros it defines."""

    def __init__(self, includes, body, defines):
        self.includes = includes
        self.body = body
        self.defines = defines


class Unbatchable(Exception):
    """Why a file is compiled alone."""


def split_file(text):
    """The file's Parts; raises Unbatchable when something in it could mean
    something else in a batch (module docstring)."""
    includes, body, defines, undefines = [], [], [], set()
    in_prologue, in_comment = True, False
    continued = False   # the line continues the previous one (backslash)
    for line in text.split("\n"):
        stripped = line.strip()
        directive = not continued and stripped.startswith("#")
        continued = stripped.endswith("\\")
        if in_prologue:
            # Comments and #include <...> lines, each on one line of its own.
            prologue_line = (in_comment or not stripped or
                             stripped.startswith(("//", "/*")) or
                             INCLUDE.fullmatch(stripped))
            if prologue_line and continued:
                raise Unbatchable("a line continuation before the first line of code")
            if in_comment or stripped.startswith("/*"):
                rest = stripped if in_comment else stripped[2:]
                in_comment = "*/" not in rest
                if not in_comment and rest.split("*/", 1)[1].strip():
                    raise Unbatchable("code after a comment before the first line of code")
                body.append(line)
                continue
            if not stripped or stripped.startswith("//"):
                body.append(line)
                continue
            if INCLUDE.fullmatch(stripped):
                includes.append((len(body) + 1, stripped))
                body.append("")
                continue
            in_prologue = False
        if directive:
            m = DIRECTIVE.match(stripped)
            if not m or m.group(1) not in ALLOWED_DIRECTIVES:
                raise Unbatchable(unbatchable_directive(stripped, m))
            if m.group(1) == "define":
                defines.append(m.group(2))
            elif m.group(1) == "undef":
                undefines.add(m.group(2))
        for name in UNBATCHABLE_NAMES:
            if name in line:
                raise Unbatchable(name)
        body.append(line)
    foreign = sorted(undefines - set(defines))
    if foreign:
        raise Unbatchable("#undef %s, a macro it does not define" % foreign[0])
    return Parts(includes, "\n".join(body), sorted(set(defines)))


def unbatchable_directive(line, match):
    if not match:
        return line
    if match.group(1) != "include":
        return "#" + match.group(1)
    if INCLUDE.fullmatch(line):
        return "an #include after the first line of code"
    return "#include \"...\" (found from the file's directory)"


def batchable(tools, compile_):
    """The file's Parts; raises Unbatchable when it must be compiled alone."""
    werror = [f for f in compile_.flags if f.startswith(("-Werror", "-pedantic-errors"))]
    if werror:
        raise Unbatchable(werror[0])
    if not torch_pch_args(tools, compile_.path, compile_.headers):
        raise Unbatchable("does not include <torch/torch.h> first")
    with open(compile_.path, encoding="utf-8") as f:
        return split_file(f.read())


def command_alone(tools, compile_):
    return ([tools["cxx"], "-fsyntax-only", "-x", "c++"] + compile_.flags +
            torch_pch_args(tools, compile_.path, compile_.headers) +
            [compile_.path])


def batch_text(files):
    """One translation unit of the files of a batch: (path, Parts) pairs."""
    seen, out = set(), []
    for path, parts in files:
        for number, line in parts.includes:
            if line not in seen:
                # A header that is missing or fails is blamed on the file.
                seen.add(line)
                out += ["#line %d %s" % (number, line_name(path)), line]
    for i, (path, parts) in enumerate(files, 1):
        out.append("namespace %s {" % (NAMESPACE % i))
        if parts.defines:
            # A macro the file defines must not be defined before it (by
            # LibTorch, the flags or, through a mistake here, an earlier
            # file): alone, the file would have seen that definition.
            out.append("#line 1 " + line_name(path))
            for name in parts.defines:
                out += ["#ifdef " + name,
                        "#error %s is defined before the file defines it" % name,
                        "#endif"]
        out += ["#line 1 " + line_name(path), parts.body, "}"]
        out += ["#undef " + name for name in parts.defines]
    return "\n".join(out) + "\n"


def line_name(path):
    """path as a #line directive's string literal."""
    return '"%s"' % path.replace("\\", "\\\\").replace('"', '\\"')


def named_in(output, path):
    """Whether g++'s output names path, where it reports a diagnostic, an
    instantiation or a function of that file."""
    return re.search(r"(^|[\s'\"])%s:" % re.escape(path), output, re.M) is not None


class Batches:
    """The g++ runs of one compile_all(): batches, and files alone."""

    def __init__(self, tools, scratch, timeout):
        self.tools = tools
        self.scratch = scratch
        self.timeout = timeout
        self.runs = 0           # g++ runs, batches and files alone
        self.lock = threading.Lock()

    def count_run(self):
        with self.lock:
            self.runs += 1

    def alone(self, compile_):
        compile_.command = command_alone(self.tools, compile_)
        compile_.code, out = run(compile_.command, self.timeout)
        compile_.output = out if compile_.code != 0 else ""
        compile_.batched = False
        self.count_run()

    def batch(self, members):
        """Compiles members, (Compile, Parts) pairs of one group (the same
        flags, the same headers beyond <torch/torch.h>'s), in a batch."""
        failed = False
        while len(members) > 1:
            first = members[0][0]
            fd, path = tempfile.mkstemp(prefix="batch-", suffix=".cpp",
                                        dir=self.scratch)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(batch_text([(c.path, parts) for c, parts in members]))
            # -w: what a batch decides is whether g++ accepts its files; a
            # warning (the wrapping's own among them) would name a file
            # that has no error.
            cmd = ([self.tools["cxx"], "-fsyntax-only", "-x", "c++"] + first.flags +
                   ["-w"] + torch_pch_args(self.tools, first.path, first.headers) +
                   [path])
            code, out = run(cmd, self.timeout)
            self.count_run()
            if code == 0:
                os.unlink(path)
                for c, _ in members:
                    c.code, c.output, c.batched = 0, "", True
                    c.command = command_alone(self.tools, c)
                return
            failed = True
            # The files the diagnostics name are compiled alone, the others
            # batched again; if none is named (a time-out, a crash), each alone.
            named = [m for m in members if code is not None and named_in(out, m[0].path)]
            if not named:
                named = members
            for c, _ in named:
                c.alone_because = "named by a failing batch"
                self.alone(c)
            members = [m for m in members if all(m is not n for n in named)]
        for c, _ in members:
            c.alone_because = ("the last file left of a failing batch" if failed
                               else "no other file to batch it with")
            self.alone(c)


def headers_of_torch(tools, headers="real"):
    """The headers that <torch/torch.h> includes: the dependency file of its
    g++ PCH (test/CMakeLists.txt); none without one."""
    pch = tools.get("torch2_pch" if headers == "real2" else "torch_pch")
    path = (pch or "") + ".d"
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        # make syntax: "target: header header \\\n header ..."
        return set(f.read().replace("\\\n", " ").split()[1:])


def own_headers(parts, torch_headers):
    """The file's #include lines that name a header <torch/torch.h> does not
    include already, in order. Files batched together have the same: every
    other hoisted header is one that each file has from <torch/torch.h>."""
    own = []
    for _, line in parts.includes:
        name = INCLUDE_NAME.search(line).group(1)
        if not any(h.endswith("/" + name) for h in torch_headers):
            own.append(line)
    return tuple(own)


def compile_all(tools, compiles, scratch, workers=1, timeout=900):
    """Compiles each Compile (sets its code, output and command), in batches
    where that is exact (module docstring), with up to `workers` g++
    processes at once. Returns the number of g++ runs."""
    batches = Batches(tools, scratch, timeout)
    torch_headers = {h: headers_of_torch(tools, h) for h in ("real", "real2")}
    groups, alone = {}, []
    for c in compiles:
        try:
            parts = batchable(tools, c)
            key = (c.headers, tuple(c.flags),
                   own_headers(parts, torch_headers[c.headers]))
            groups.setdefault(key, []).append((c, parts))
        except Unbatchable as e:
            c.alone_because = str(e)
            alone.append(c)
    tasks = []
    for members in groups.values():
        # As many batches of a group as there are workers, of similar size.
        n = min(workers, len(members))
        for k in range(n):
            tasks.append(lambda part=members[k::n]: batches.batch(part))
    tasks += [lambda c=c: batches.alone(c) for c in alone]
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for future in [pool.submit(task) for task in tasks]:
            future.result()
    return batches.runs


def main():
    """Compiles FILEs as the tests do (-std=c++17 and the real LibTorch
    headers) and prints each verdict: test/compile-fixed.test."""
    import argparse
    import json
    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--temp", required=True, help="a scratch directory")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--explain", action="store_true",
                        help="only say which files would be batched, and why not")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    with open(args.tools, encoding="utf-8") as f:
        tools = json.load(f)
    os.makedirs(args.temp, exist_ok=True)
    flags = ["-std=c++17"] + tools["torch_compile_flags"]
    compiles = [Compile(os.path.abspath(path), flags) for path in args.files]
    if args.explain:
        torch_headers = headers_of_torch(tools)
        for c in sorted(compiles, key=lambda c: c.path):
            try:
                own = own_headers(batchable(tools, c), torch_headers)
                print("%s: batched with the files that %s" % (
                    os.path.basename(c.path),
                    "include only what <torch/torch.h> includes" if not own else
                    "also include " + ", ".join(
                        INCLUDE_NAME.search(line).group(0) for line in own)))
            except Unbatchable as e:
                print("%s: alone: %s" % (os.path.basename(c.path), e))
        return 0
    runs = compile_all(tools, compiles, args.temp, args.jobs)
    for c in sorted(compiles, key=lambda c: c.path):
        verdict = "compiles" if c.ok else "does not compile"
        how = "in a batch" if c.batched else "alone: " + c.alone_because
        print("%s: %s (%s)" % (os.path.basename(c.path), verdict, how))
        if not c.ok:
            print("  $ " + " ".join(c.command))
            print("".join("  | " + line + "\n" for line in c.output.splitlines()[:3]), end="")
    print("%d files in %d g++ runs" % (len(compiles), runs))
    return 0 if all(c.ok for c in compiles) else 1


if __name__ == "__main__":
    sys.exit(main())
