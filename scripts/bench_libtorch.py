"""The compile flags of LibTorch 2.x as the build found it, for
scripts/bench and scripts/bench-lsp (`--libtorch 2`)."""
import json
import os


def libtorch2_flags(build):
    """`-std=c++20` and the build's flags for LibTorch 2.x (test/CMakeLists.txt
    writes them to tools.json); LookupError with a one-line message when the
    build has none."""
    path = os.path.join(build, "test", "tools.json")
    try:
        with open(path, encoding="utf-8") as f:
            tools = json.load(f)
    except (OSError, ValueError):
        raise LookupError("%s cannot be read; run ./scripts/build first" % path)
    if not tools.get("torch2_found"):
        raise LookupError("the build found no LibTorch 2.x (%s); run ./scripts/install-deps, "
                          "then ./scripts/build" % path)
    return ["-std=c++20"] + tools["torch2_compile_flags"]
