// A project header for test/checks/libtorch-host-sync-in-loop-callees.cpp:
// a model whose loss is defined here (followed from the step that calls
// it), and functions defined in another file of the project (only their
// declarations are seen).
#pragma once

#include <torch/torch.h>

struct Detector : torch::nn::Module {
  Detector() : head(register_module("head", torch::nn::Linear(8, 4))) {}
  torch::Tensor forward(torch::Tensor x) { return head(x); }

  // Matched anchors: the count of positives decides the normalization.
  torch::Tensor compute_loss(torch::Tensor out, torch::Tensor target) {
    auto positives = target.gt(0).nonzero();
    return torch::mse_loss(out, target) / (positives.size(0) + 1);
  }

  torch::nn::Linear head;
};

namespace metrics {
// Defined in metrics.cpp: reads the loss back to log it.
void log_scalar(const char *name, const torch::Tensor &value);
// Defined in metrics.cpp, and not listed in SyncFunctions.
void record(const torch::Tensor &value);
struct Board {
  // Defined in metrics.cpp.
  void flush(const torch::Tensor &value);
};
} // namespace metrics
