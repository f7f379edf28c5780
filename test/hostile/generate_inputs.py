#!/usr/bin/env python3
"""generate_inputs.py KIND OUT.cpp

Writes one pathological but valid LibTorch translation unit (mock or real
headers) for test/hostile/pathological-*.test, so that no huge file is kept
in the repository:

  long-loop    a training step of 20,000 lines; every 1,000th line reads
               '.item<float>()' (20 host-sync findings)
  deep-nesting a training step under 200 nested loops, ifs and blocks, with
               one '.item<float>()' in the innermost block (1 finding)
  huge-macro   one macro use that expands to 1,024 training steps, each
               reading '.item<float>()' (findings inside a macro expansion:
               reported at the use, no fix-it)
  garbage      4 KiB of seeded random bytes, NULs included (not C++ at all)
"""
import random
import sys

PRELUDE = """#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

"""

SIGNATURE = ("void train(std::shared_ptr<Net> model, "
             "torch::optim::SGD &optimizer,\n"
             "           torch::Tensor x, torch::Tensor y) {\n")


def long_loop(lines=20000, every=1000):
    out = [PRELUDE, SIGNATURE, "  float total = 0;\n",
           "  for (int step = 0; step < 100; ++step) {\n",
           "    optimizer.zero_grad();\n",
           "    torch::Tensor h = model->forward(x);\n"]
    for i in range(1, lines + 1):
        if i % every == 0:
            out.append("    total += h.mean().item<float>();\n")
        else:
            out.append("    h = h * 0.5 + %d;\n" % (i % 7))
    out += ["    torch::Tensor loss = torch::mse_loss(h, y);\n",
            "    loss.backward();\n",
            "    optimizer.step();\n",
            "  }\n",
            "}\n"]
    return "".join(out)


def deep_nesting(depth=200):
    out = [PRELUDE, SIGNATURE, "  float total = 0;\n"]
    openers = ["for (int i%d = 0; i%d < 2; ++i%d) {",
               "if (x.defined()) {",
               "while (total < %d) {",
               "{"]
    for level in range(depth):
        opener = openers[level % len(openers)]
        if "%d" in opener:
            opener = opener.replace("%d", str(level))
        out.append("  " * (level + 1) + opener + "\n")
    inner = "  " * (depth + 1)
    out += [inner + "optimizer.zero_grad();\n",
            inner + "torch::Tensor loss = torch::mse_loss(model->forward(x), y);\n",
            inner + "loss.backward();\n",
            inner + "optimizer.step();\n",
            inner + "total += loss.item<float>();\n"]
    for level in reversed(range(depth)):
        out.append("  " * (level + 1) + "}\n")
    out.append("}\n")
    return "".join(out)


def huge_macro(doublings=10):
    out = [PRELUDE,
           "#define STEP()                                                   \\\n"
           "  {                                                              \\\n"
           "    optimizer.zero_grad();                                       \\\n"
           "    torch::Tensor loss = torch::mse_loss(model->forward(x), y);  \\\n"
           "    loss.backward();                                             \\\n"
           "    optimizer.step();                                            \\\n"
           "    total += loss.item<float>();                                 \\\n"
           "  }\n",
           "#define TIMES1() STEP() STEP()\n"]
    for n in range(2, doublings + 1):
        out.append("#define TIMES%d() TIMES%d() TIMES%d()\n" % (n, n - 1, n - 1))
    out += ["\n", SIGNATURE, "  float total = 0;\n",
            "  for (int epoch = 0; epoch < 10; ++epoch) {\n",
            "    TIMES%d()\n" % doublings,
            "  }\n",
            "}\n"]
    return "".join(out)


def garbage(size=4096):
    rng = random.Random(11)
    return bytes(rng.randrange(256) for _ in range(size))


KINDS = {"long-loop": long_loop, "deep-nesting": deep_nesting,
         "huge-macro": huge_macro, "garbage": garbage}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in KINDS:
        sys.exit(__doc__)
    content = KINDS[sys.argv[1]]()
    if isinstance(content, str):
        content = content.encode("utf-8")
    with open(sys.argv[2], "wb") as f:
        f.write(content)


if __name__ == "__main__":
    main()
