"""write_mixed_database.py DIR FLAGS... -- FLAGS...: DIR/old.cpp and
DIR/new.cpp, each a training step with one per-step host sync, and
DIR/compile_commands.json building old.cpp with the first flags and
new.cpp with the second (one database, a target per LibTorch)."""
import json
import os
import sys

UNIT = """#include <torch/torch.h>

float train(torch::nn::Linear &model, torch::optim::SGD &optimizer,
            const torch::Tensor &x, const torch::Tensor &y) {
  float total = 0;
  for (int step = 0; step < 100; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    total += loss.item<float>();
  }
  return total;
}
"""

directory, args = sys.argv[1], sys.argv[2:]
split = args.index("--")
commands = []
for name, flags in (("old.cpp", args[:split]), ("new.cpp", args[split + 1:])):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(UNIT)
    commands.append({"directory": directory, "file": path,
                     "arguments": ["/usr/bin/c++"] + flags + ["-c", path]})
with open(os.path.join(directory, "compile_commands.json"), "w") as f:
    json.dump(commands, f, indent=2)
