#!/usr/bin/env python3
"""Runs one annotated check test through libtorch-tidy's surfaces.

In the spirit of LLVM's check_clang_tidy.py. A test is a C++ file with
`// CHECK-MESSAGES: :[[@LINE-1]]:...` and `// CHECK-FIXES: ...` lines. For
each variant (surface x headers):

  plugin-mock  the build's clang-tidy --load=LibTorchTidy.so on the mock
               headers (a
               test that includes <torch/torch.h> first, with no compiler
               arguments that the mock reads, reads it from a clang++ PCH)
  plugin-real  the same on the real LibTorch headers (a test that includes
               <torch/torch.h> first reads it from a clang++ PCH, as a
               CMake project with precompiled headers does; clang-tidy
               parses the headers whole in examples/cmake-clang-tidy.test)
  cli-mock     libtorch-tidy on the mock headers
  cli-real     libtorch-tidy on the real LibTorch headers
               (both: a test without compiler arguments of its own is
               parsed against the precompiled prefix of <torch/torch.h> in
               the tests' cache, --preamble=always)
  plugin-real2, cli-real2
               the same on LibTorch 2.x as its users have it (2.15, the
               CUDA build's headers, -std=c++20, which they require): they
               run wherever plugin-real and cli-real run, so that every test
               on real headers runs on both LibTorch versions

  pluginN-mock, pluginN-real, pluginN-real2
               each plugin variant again through the plugin built for another
               LLVM major N and that major's clang-tidy (tools.json's
               other_plugins, cmake/OtherMajorPlugins.cmake), wherever the
               plugin variant runs, with PCHs that major's clang++ wrote
               (test/CMakeLists.txt)

A finding or a fix that differs between LLVM majors is written under the
prefix's -LLVM<N> form (CHECK-MESSAGES-LLVM19:), read by the variants of
that major only.

The other majors' variants on real LibTorch (pluginN-real, pluginN-real2:
clang-tidy-19 on LibTorch 1.13 and 2.15) run only with `scripts/test --slow`
(LIBTORCH_TIDY_SLOW_TESTS=1): clang-tidy before LLVM 20 traverses every
declaration of the system headers, LibTorch's included, so each takes 5 to
6 s where the build's own major takes 2, about a third of the suite's CPU
on CI (docs/performance.md). Every CI run tests the checks through LLVM
19's plugin on the mock headers (pluginN-mock), and on real LibTorch through
the build's own major on both surfaces.

"Real" alone means Debian's LibTorch 1.13 (C++17). A finding or a fix that
differs between the versions is written under the prefix's -TORCH1 or
-TORCH2 form (CHECK-MESSAGES-TORCH2:, CHECK-FIXES-TORCH1:): the mock and
real variants read -TORCH1 (the mock with --mock-version 2 reads -TORCH2),
real2 reads -TORCH2, and every variant reads the plain prefix.

it copies the test with its CHECK lines blanked, runs the tool with --fix,
FileChecks the diagnostics (any warning or error not expected fails) and the
fixed file. On real headers, when fixes were applied, it also compiles the
fixed file with g++ against LibTorch (-fsyntax-only: full semantic analysis
and template instantiation, no code generation, which is what a fix-it can
break; the examples and `verify` build and run fixed programs for real) and
re-runs the checks with --fix on a copy: every finding that had a fix must be
gone, no new one may appear, and the copy must not change (idempotence).

Usage:
  check_libtorch_tidy.py --tools TOOLS.json [--variants a,b] [--check-suffix S]
      [--mock-version 2] SOURCE CHECKS TEMP [-- TOOL-ARGS... [-- COMPILER-ARGS...]]
"""

import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys

ALL_VARIANTS = ["plugin-mock", "plugin-real", "plugin-real2", "cli-mock",
                "cli-real", "cli-real2"]
# The headers of each axis that are real LibTorch: real is 1.13, real2 2.x.
REAL_HEADERS = ("real", "real2")
DIAG = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): "
                  r"(?P<level>warning|error|note): (?P<msg>.*?)"
                  r"(?: \[(?P<check>[\w\-.,]+)\])?$")


class TestFailure(Exception):
    pass


def run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kwargs)


def blank_check_lines(text):
    # Keep line numbers: CHECK comments become empty comments.
    return re.sub(r"//\s*CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", text)


def warnings_with_fix_state(output):
    """[(check, message, fixed)] for each warning, in order."""
    found = []
    for line in output.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        if m.group("level") in ("warning", "error"):
            found.append([m.group("check"), m.group("msg"), False])
        elif (m.group("msg") == "FIX-IT applied suggested code changes"
              and found):
            found[-1][2] = True
    return [tuple(f) for f in found]


def includes_torch_first(path):
    """Whether \p path includes <torch/torch.h> before any other code, so
    that including it first (from a precompiled header) changes nothing."""
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    for line in text.splitlines():
        line = line.split("//", 1)[0].strip()
        if line:
            return re.fullmatch(r"#\s*include\s*<torch/torch\.h>",
                                line) is not None
    return False


def torch_pch_args(tools, path, headers="real"):
    """`-include` of the precompiled <torch/torch.h> (test/CMakeLists.txt)
    for a g++ compile of \p path, when it includes <torch/torch.h> first."""
    header = tools.get("torch2_pch" if headers == "real2" else "torch_pch")
    if not header or not os.path.exists(header + ".gch"):
        return []
    return ["-include", header] if includes_torch_first(path) else []


def torch_clang_pch_args(tools, path, extra_args, headers="real", major=""):
    """`-include-pch` of the clang++ PCH of <torch/torch.h>
    (test/CMakeLists.txt) for the build's clang-tidy on \p path, when it includes
    <torch/torch.h> first: the headers are read from the PCH, as in a CMake
    project with target_precompile_headers, in about a third of the CPU
    time of parsing them (on the mock headers too). Only when the test's
    own compiler arguments are macro definitions and include directories:
    clang rejects a PCH built with other language options (an error, where
    g++ quietly parses the header instead). On the mock headers, not with
    the macro that selects the mock's version either: clang accepts a macro
    that the PCH was built without, and the PCH would stay the 1.13 mock."""
    header = tools.get({"real": "torch_pch", "real2": "torch2_pch"}.get(
        headers, "mock_pch"))
    # Another major's plugin reads the PCH its own clang++ wrote.
    pch = header + (".llvm%s.pch" % major if major else ".pch") if header else ""
    if not pch or not os.path.exists(pch):
        return []
    if any(not a.startswith(("-D", "-I")) for a in extra_args):
        return []
    if headers == "mock" and any(
            a.startswith("-DLIBTORCH_MOCK_VERSION_MAJOR") for a in extra_args):
        return []
    return ["-include-pch", pch] if includes_torch_first(path) else []


class Runner:
    def __init__(self, args, tools):
        self.args = args
        self.tools = tools
        with open(args.source, encoding="utf-8") as f:
            self.source_text = f.read()
        suffix = ("-" + args.check_suffix) if args.check_suffix else ""
        self.messages_prefix = "CHECK-MESSAGES" + suffix
        self.fixes_prefix = "CHECK-FIXES" + suffix
        self.has_messages = self.uses_prefix(self.messages_prefix)
        self.compiled = set()
        self.has_fixes = self.uses_prefix(self.fixes_prefix)

    def uses_prefix(self, prefix):
        """Whether the test has lines of \p prefix or of its -TORCH1 and
        -TORCH2 forms."""
        return re.search(r"//\s*" + re.escape(prefix) + r"(-TORCH[12])?:",
                         self.source_text) is not None

    def version_prefixes(self, prefix, headers, surface):
        """\p prefix and its forms for the LibTorch version of \p headers
        and the LLVM major of \p surface."""
        two = headers == "real2" or (headers == "mock" and
                                     self.args.mock_version == "2")
        major = surface[len("plugin"):] if surface.startswith("plugin") else ""
        major = major or str(self.tools["llvm_major"])
        return [prefix, prefix + ("-TORCH2" if two else "-TORCH1"),
                prefix + "-LLVM" + major]

    def base_args(self, headers):
        """The flags of the headers alone, which the PCHs are built with."""
        if headers == "mock":
            # The mock's 2.x mode models LibTorch 2.15, which requires C++20.
            std = "-std=c++20" if self.args.mock_version == "2" else "-std=c++17"
            return [std, "-isystem", self.tools["mock_include_dir"]]
        if headers == "real2":
            return ["-std=c++20"] + self.tools["torch2_compile_flags"]
        return ["-std=c++17"] + self.tools["torch_compile_flags"]

    def extra_args(self, headers):
        """The test's own flags: the mock's version and its compiler
        arguments."""
        args = []
        if headers == "mock" and self.args.mock_version:
            args.append("-DLIBTORCH_MOCK_VERSION_MAJOR=%s" %
                        self.args.mock_version)
        return args + self.args.compiler_args

    def compiler_args(self, headers):
        return self.base_args(headers) + self.extra_args(headers)

    def plugin_of(self, surface):
        """The clang-tidy and plugin of a plugin surface: `plugin` is the
        build's own major, `pluginN` another major's build."""
        major = surface[len("plugin"):]
        if not major:
            return self.tools["clang_tidy"], self.tools["plugin"]
        for other in self.tools.get("other_plugins", []):
            if str(other["major"]) == major:
                return other["clang_tidy"], other["plugin"]
        raise TestFailure("no plugin for LLVM %s in tools.json" % major)

    def tool_command(self, surface, checks_glob, fix, path, headers):
        if surface.startswith("plugin"):
            clang_tidy, plugin = self.plugin_of(surface)
            cmd = [clang_tidy, "--load=" + plugin]
        else:
            cmd = [self.tools["cli"]]
        cmd.append("--checks=-*," + checks_glob)
        if not any(a.startswith(("--config", "-config"))
                   for a in self.args.tool_args):
            cmd.append("--config={}")
        if fix:
            cmd.append("--fix")
        if surface == "cli" and not self.args.compiler_args:
            # Every check test starts with <torch/torch.h> under the same
            # flags, as a project's units do: the CLI parses them against
            # one precompiled prefix in the tests' cache (one for the real
            # headers, one per mock version), built by the first and reused
            # by the rest, which it does by itself for units analyzed in one
            # run. Findings are the same either way (test/parse_equality.py);
            # a test with compiler arguments of its own would build a prefix
            # for itself alone.
            cmd.append("--preamble=always")
        cmd += self.args.tool_args
        cmd += [path, "--"] + self.compiler_args(headers)
        if surface.startswith("plugin"):
            cmd += torch_clang_pch_args(self.tools, path,
                                        self.extra_args(headers), headers,
                                        surface[len("plugin"):])
        return cmd

    def run_tool(self, variant, fix, path):
        surface, headers = variant.split("-")
        cmd = self.tool_command(surface, self.args.checks, fix, path, headers)
        result = run(cmd)
        ok_codes = (0,) if surface.startswith("plugin") else (0, 1)
        if result.returncode not in ok_codes:
            raise TestFailure("%s exited with %d:\n$ %s\n%s" % (
                cmd[0], result.returncode, shlex.join(cmd), result.stdout))
        return result.stdout

    def filecheck(self, input_path, prefixes, extra):
        cmd = [self.tools["filecheck"], "-input-file=" + input_path,
               self.args.source, "-check-prefixes=" + ",".join(prefixes),
               "-allow-unused-prefixes"] + extra
        result = run(cmd)
        if result.returncode != 0:
            raise TestFailure("FileCheck %s failed:\n%s" % (
                ",".join(prefixes), result.stdout))

    def run_variant(self, variant):
        surface, headers = variant.split("-")
        base = "%s.%s" % (self.args.temp, variant)
        os.makedirs(os.path.dirname(os.path.abspath(base)), exist_ok=True)
        fixed_path = base + ".cpp"
        cleaned = blank_check_lines(self.source_text)
        with open(fixed_path, "w", encoding="utf-8") as f:
            f.write(cleaned)

        output = self.run_tool(variant, True, fixed_path)
        output_path = base + ".msg"
        with open(output_path, "w", encoding="utf-8") as f:
            f.write(output)
        implicit = ["-implicit-check-not={{warning|error}}:"]
        if self.has_messages:
            self.filecheck(output_path, self.version_prefixes(
                self.messages_prefix, headers, surface), implicit)
        else:
            unexpected = [w for w in warnings_with_fix_state(output)]
            if unexpected:
                raise TestFailure("unexpected diagnostics (the test has no "
                                  "%s lines):\n%s" % (self.messages_prefix,
                                                      output))
        if self.has_fixes:
            self.filecheck(fixed_path, self.version_prefixes(
                self.fixes_prefix, headers, surface), ["-strict-whitespace"])

        with open(fixed_path, encoding="utf-8") as f:
            fixed_text = f.read()
        if headers in REAL_HEADERS and fixed_text != cleaned:
            # Both surfaces produce the same fixed file when they agree (the
            # FileCheck runs above make sure they do): compile and re-check
            # each distinct fixed file once per LibTorch.
            if (headers, fixed_text) not in self.compiled:
                self.compile_fixed(fixed_path, headers)
                self.recheck_fixed(variant, fixed_path,
                                   warnings_with_fix_state(output))
                self.compiled.add((headers, fixed_text))

    def compile_fixed(self, path, headers):
        # test/fixit_sweep.py relies on this compile (and on the re-check)
        # for a check test in which, with every libtorch check on, only the
        # test's own checks report: the file it fixes is this one.
        cmd = ([self.tools["cxx"], "-fsyntax-only", "-x", "c++"] +
               self.compiler_args(headers) +
               torch_pch_args(self.tools, path, headers) + [path])
        result = run(cmd)
        if result.returncode != 0:
            raise TestFailure("the fixed file does not compile with g++:\n"
                              "$ %s\n%s" % (shlex.join(cmd), result.stdout))

    def recheck_fixed(self, variant, path, before):
        # The re-check asks what the checks find in the fixed code, which
        # both surfaces answer alike (the FileCheck runs hold them to the
        # same output): the CLI answers in a third of clang-tidy's time.
        headers = variant.split("-")[1]
        if "cli-" + headers in self.variants:
            variant = "cli-" + headers
        # With --fix, on a copy: the fix-its are idempotent (test/fixit_sweep.py
        # leaves this file to this check when only the test's checks report).
        again = path + ".again.cpp"
        with open(path, encoding="utf-8") as f:
            fixed_text = f.read()
        with open(again, "w", encoding="utf-8") as f:
            f.write(fixed_text)
        after = warnings_with_fix_state(self.run_tool(variant, True, again))
        with open(again, encoding="utf-8") as f:
            if f.read() != fixed_text:
                raise TestFailure("--fix on the fixed file changed it again (the "
                                  "fix-its are not idempotent): %s" % again)
        expected = collections.Counter(
            (check, msg) for check, msg, fixed in before if not fixed)
        got = collections.Counter((check, msg) for check, msg, _ in after)
        if expected != got:
            raise TestFailure(
                "after applying the fixes, the findings are not those that "
                "had no fix:\n  expected: %s\n  got:      %s" % (
                    sorted(expected.elements()), sorted(got.elements())))


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    tool_args, compiler_args = extra, []
    if "--" in tool_args:
        i = tool_args.index("--")
        tool_args, compiler_args = tool_args[:i], tool_args[i + 1:]

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--variants", default=",".join(ALL_VARIANTS))
    parser.add_argument("--check-suffix", default="")
    parser.add_argument("--mock-version", default="")
    # A test whose fix-its go into a header that each surface fixes a copy
    # of its own (the copy is named by the test's -I) runs the other majors'
    # plugins as variants of their own, or not at all.
    parser.add_argument("--no-other-majors", action="store_true")
    parser.add_argument("source")
    parser.add_argument("checks")
    parser.add_argument("temp")
    args = parser.parse_args(argv)
    args.tool_args = tool_args
    args.compiler_args = compiler_args
    with open(args.tools, encoding="utf-8") as f:
        tools = json.load(f)

    variants = [v for v in args.variants.split(",") if v]
    # LibTorch 2.x goes wherever real LibTorch 1.13 goes.
    for v in list(variants):
        if v.endswith("-real") and v + "2" not in variants:
            variants.insert(variants.index(v) + 1, v + "2")
    # Each plugin variant again through every other major's plugin.
    for v in list(variants) if not args.no_other_majors else []:
        if v.startswith("plugin-"):
            headers = v.split("-")[1]
            at = variants.index(v) + 1
            for other in tools.get("other_plugins", []):
                variants.insert(at, "plugin%s-%s" % (other["major"], headers))
                at += 1
    only = os.environ.get("LIBTORCH_TIDY_TEST_VARIANTS")
    if only:
        variants = [v for v in variants if v in only.split(",")]
    elif os.environ.get("LIBTORCH_TIDY_SLOW_TESTS") != "1":
        # Another major's clang-tidy on real LibTorch runs with
        # `scripts/test --slow` (the module docstring says why); named in
        # LIBTORCH_TIDY_TEST_VARIANTS, it runs anyway.
        slow = [v for v in variants if re.match(r"plugin\d+-real2?$", v)]
        variants = [v for v in variants if v not in slow]
        for v in slow:
            print("%s: not run (scripts/test --slow runs it)" % v)
    for v in variants:
        if re.sub(r"^plugin\d+-", "plugin-", v) not in ALL_VARIANTS:
            sys.exit("unknown variant '%s'; use %s" % (v, ", ".join(ALL_VARIANTS)))
        if v.endswith("-real") and not tools["torch_found"]:
            sys.exit("variant %s needs LibTorch (Debian's libtorch-dev); "
                     "install it or set LIBTORCH_TIDY_TEST_VARIANTS" % v)
        if v.endswith("-real2") and not tools.get("torch2_found"):
            sys.exit("variant %s needs LibTorch 2.x in /opt/libtorch (run "
                     "scripts/install-deps) or set LIBTORCH_TIDY_TEST_VARIANTS" % v)

    runner = Runner(args, tools)
    runner.variants = variants
    failed = []
    for v in variants:
        try:
            runner.run_variant(v)
            print("%s: ok" % v)
        except TestFailure as e:
            failed.append(v)
            print("%s: FAILED\n%s" % (v, e))
    if failed:
        sys.exit("failed variants: " + ", ".join(failed))


if __name__ == "__main__":
    main()
