"""Where "Silence this finding here" puts its comment when the obvious place
is wrong (driver/lsp/CodeActions.h):

- a line under `// NOLINTNEXTLINE(readability-magic-numbers)`: the check
  joins that comment's list; a second NOLINTNEXTLINE between them would be
  the line the first one silences, and bring its finding back;
- a line that starts inside a raw string literal: the comment goes at its
  end, never into the string (even when the string holds a `//`);
- a line that ends inside one: the comment goes above it (even though
  the line is short enough for one at its end);
- a line that starts and ends inside raw strings: nothing is offered.

The next analysis shows only the finding that was not silenced, and the
raw strings are unchanged."""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from lsp_client import (Client, apply_edits, check, edits_of, main,  # noqa: E402
                        write_project)

CHECK = "libtorch-dataloader-no-workers"
OTHER = "readability-magic-numbers"
TEXT = """#include <torch/torch.h>

#include <cstddef>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    return {torch::zeros({2}), torch::zeros({1})};
  }
  c10::optional<size_t> size() const override { return 4; }
};

using torch::data::make_data_loader;

void train() {
  // NOLINTNEXTLINE(readability-magic-numbers)
  auto a = make_data_loader(Points(), 64); // the first
  const char *see = R"(the page at
https://example.com)"; auto b = make_data_loader(Points(), 4);
  auto c = make_data_loader(Points(), 4); auto t = R"(x
y)";
  const char *head = R"(a
b)"; auto d = make_data_loader(Points(), 4); auto end = R"(c
d)";
  (void)see, (void)t, (void)head, (void)end;
  for (auto &batch : *a)
    (void)batch;
  for (auto &batch : *b)
    (void)batch;
  for (auto &batch : *c)
    (void)batch;
  for (auto &batch : *d)
    (void)batch;
}
"""
RAW_STRINGS = ['R"(the page at\nhttps://example.com)"', 'R"(x\ny)"',
               'R"(a\nb)"', 'R"(c\nd)"']


def line_of(text, needle):
    return text[:text.index(needle)].count("\n")


def scenario(args):
    project = os.path.join(args.work, "project")
    write_project(project, {"train.cpp": TEXT}, args.flags)
    with open(os.path.join(project, ".clang-tidy"), "w") as f:
        f.write("Checks: '-*,%s,%s'\n" % (CHECK, OTHER))
    path = os.path.join(project, "train.cpp")
    c = Client(args.server, ["--debounce-ms=0"])
    try:
        c.initialize()
        uri = c.open(path, TEXT, version=1)
        diags = c.diagnostics(uri, version=1)["diagnostics"]
        check(sorted(d["code"] for d in diags) == [CHECK] * 4,
              "four findings, the magic number silenced: %r" % diags)
        by_var = {}
        for var in "abcd":
            line = line_of(TEXT, "auto %s = " % var)
            by_var[var] = [d for d in diags
                           if d["range"]["start"]["line"] == line][0]

        def silence(var):
            d = by_var[var]
            actions = c.result(c.code_actions(
                path, d["range"]["start"], d["range"]["start"],
                diagnostics=[d]))
            return [a for a in actions
                    if a["title"].startswith("Silence this finding here")]

        silenced = TEXT
        # Later lines first: each edit is at its place in TEXT.
        for var in "dcba":
            actions = silence(var)
            if var == "d":
                check(actions == [], "nothing offered: %r" % actions)
                print("d: nothing offered")
                continue
            check(len(actions) == 1, "%s: %r" % (var, actions))
            silenced = apply_edits(silenced, edits_of(actions[0], uri)[0])
            line = silenced.splitlines()[line_of(silenced, "auto %s = " % var)]
            above = silenced.splitlines()[
                line_of(silenced, "auto %s = " % var) - 1]
            print("%s: %s | %s" % (var, above.strip(), line.strip()))
        check(all(s in silenced for s in RAW_STRINGS),
              "the raw strings are unchanged:\n" + silenced)
        c.change(path, 2, [{"text": silenced}])
        after = c.diagnostics(uri, version=2)["diagnostics"]
        print("after: " + ", ".join(
            "%s on the line of %s" % (d["code"], var) for d in after
            for var in "abcd"
            if d["range"]["start"]["line"] ==
            line_of(silenced, "auto %s = " % var)))
        check(len(after) == 1, "one finding left: %r" % after)
        # The other check runs: without its comment, its finding is back.
        unsilenced = TEXT.replace("  // NOLINTNEXTLINE(%s)\n" % OTHER, "")
        c.change(path, 3, [{"text": unsilenced}])
        codes = [d["code"] for d in
                 c.diagnostics(uri, version=3)["diagnostics"]]
        print("%s without its comment: %s" % (OTHER, OTHER in codes))
        check(c.shutdown() == 0, "exit code")
    finally:
        c.close()


main(scenario)
