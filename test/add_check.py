"""scripts/add-check in a copy of the tree: the new check's files appear, the
catalog, the build, the module and the README's table name it, its C++ is
formatted and compiles (-fsyntax-only, with the checks' flags), its lit test
compiles against the mock headers, and a second call with the same name
changes nothing and exits 2.

  add_check.py --source <tree> --work <dir> --cxx <c++> --llvm-bin <dir>"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys


def fail(message):
    sys.exit("add_check.py: FAIL: " + message)


def digest(root):
    h = hashlib.sha256()
    for directory, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            path = os.path.join(directory, name)
            h.update(path.encode() + b"\0" + open(path, "rb").read())
    return h.hexdigest()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--llvm-bin", required=True)
    args = parser.parse_args()
    tree = os.path.join(args.work, "tree")
    for part in ("checks", "docs/checks", "test/checks", "scripts"):
        shutil.copytree(os.path.join(args.source, part), os.path.join(tree, part))
    for part in ("README.md", ".clang-format"):
        shutil.copy(os.path.join(args.source, part), os.path.join(tree, part))
    env = dict(os.environ, PATH=args.llvm_bin + os.pathsep + os.environ["PATH"])
    tool = os.path.join(tree, "scripts", "add-check")
    made = subprocess.run([sys.executable, tool, "item-in-step", "--summary",
                           "`item()` on every training step", "--tier", "default",
                           "--root", tree], capture_output=True, text=True, env=env)
    if made.returncode != 0:
        fail("add-check failed:\n" + made.stderr)
    expected = ["checks/ItemInStepCheck.h", "checks/ItemInStepCheck.cpp",
                "docs/checks/libtorch-item-in-step.md", "test/checks/libtorch-item-in-step.cpp"]
    for path in expected:
        if not os.path.isfile(os.path.join(tree, path)):
            fail(path + " was not written")
    text = {name: open(os.path.join(tree, name), encoding="utf-8").read()
            for name in ("checks/Catalog.def", "checks/CMakeLists.txt",
                         "checks/LibTorchTidyModule.cpp", "README.md")}
    wanted = {
        "checks/Catalog.def": 'LIBTORCH_CHECK("libtorch-item-in-step", ItemInStepCheck, Default, '
                              'false, Calls,',
        "checks/CMakeLists.txt": "  InputNotOnDeviceCheck.cpp\n  ItemInStepCheck.cpp\n",
        "checks/LibTorchTidyModule.cpp": '#include "InputNotOnDeviceCheck.h"\n'
                                         '#include "ItemInStepCheck.h"\n',
        "README.md": "| [`libtorch-item-in-step`](docs/checks/libtorch-item-in-step.md) | default | "
                     "`item()` on every training step | no |\n<!-- check-table:end -->",
    }
    for name, needle in wanted.items():
        if needle not in text[name]:
            fail("%s lacks %r" % (name, needle))
    if text["checks/Catalog.def"].rstrip().endswith("#undef LIBTORCH_CHECK") is False:
        fail("the catalog no longer ends with its #undef")

    clang_format = os.path.join(args.llvm_bin, "clang-format")
    for path in expected[:2]:
        formatted = subprocess.run([clang_format, "--dry-run", "-Werror",
                                    "--style=file:" + os.path.join(tree, ".clang-format"),
                                    os.path.join(tree, path)], capture_output=True, text=True)
        if formatted.returncode != 0:
            fail("%s is not formatted:\n%s" % (path, formatted.stderr))
    include = subprocess.run([os.path.join(args.llvm_bin, "llvm-config"), "--includedir"],
                             capture_output=True, text=True).stdout.strip()
    compiled = subprocess.run([args.cxx, "-std=c++17", "-fno-rtti", "-fsyntax-only",
                               "-isystem", include, "-I", os.path.join(tree, "checks"),
                               os.path.join(tree, "checks", "ItemInStepCheck.cpp")],
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        fail("the new check does not compile:\n" + compiled.stderr[-3000:])
    mock = os.path.join(args.source, "test", "Inputs", "libtorch-mock")
    compiled = subprocess.run([args.cxx, "-std=c++17", "-fsyntax-only", "-isystem", mock,
                               os.path.join(tree, "test", "checks", "libtorch-item-in-step.cpp")],
                              capture_output=True, text=True)
    if compiled.returncode != 0:
        fail("the new check's test does not compile:\n" + compiled.stderr[-3000:])

    before = digest(tree)
    again = subprocess.run([sys.executable, tool, "item-in-step", "--summary", "again",
                            "--root", tree], capture_output=True, text=True, env=env)
    if again.returncode != 2 or "exists already" not in again.stderr:
        fail("a second add-check of the same name: exit %d, %r" % (again.returncode, again.stderr))
    bad = subprocess.run([sys.executable, tool, "Item_In_Step", "--summary", "x", "--root", tree],
                         capture_output=True, text=True, env=env)
    if bad.returncode != 2 or "is not a check name" not in bad.stderr:
        fail("a bad name: exit %d, %r" % (bad.returncode, bad.stderr))
    if digest(tree) != before:
        fail("a refused add-check changed the tree")
    print("add-check: ok")


main()
