// A project header for test/checks/libtorch-host-sync-in-loop-elsewhere.cpp:
// functions whose bodies are in Inputs/sync-elsewhere-metrics.cpp, another
// translation unit, summarized by `libtorch-tidy --export-summaries`.
#pragma once

#include <torch/torch.h>

namespace metrics {
// Reads a value back through a helper of its own unit.
float accuracy(const torch::Tensor &out, const torch::Tensor &target);
// Adds the loss to a host total.
struct Logger {
  void update(const torch::Tensor &loss);
  float total = 0;
};
// Prints only when asked: the summary cannot tell when, so it says nothing.
void log_if(const torch::Tensor &loss, bool verbose);
// Keeps its running sum on the device.
void accumulate(torch::Tensor &sum, const torch::Tensor &loss);
// Reads a value back on every call, through a lambda: not summarized.
float deferred(const torch::Tensor &loss);
// Waits through a function of a third kind of place: a virtual call.
struct Sink {
  virtual ~Sink() = default;
  virtual void write(const torch::Tensor &value);
};
// Takes a result to the host to write it: its only wait is that copy.
void save(const torch::Tensor &image, const char *path);
// Copies an image to the host, and reads a value of each box it draws.
void draw(const torch::Tensor &image, const torch::Tensor &boxes);
} // namespace metrics
