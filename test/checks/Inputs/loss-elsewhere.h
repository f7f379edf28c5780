// A project header for
// test/checks/libtorch-tensor-created-off-device-elsewhere.cpp: losses whose
// bodies are in Inputs/loss-elsewhere.cpp, another translation unit,
// summarized by `libtorch-tidy --export-summaries`.
#pragma once

#include <torch/torch.h>

namespace losses {
// Builds its targets in host memory and copies them on every call.
torch::Tensor objectness(const torch::Tensor &pred, torch::Device device);
// Calls objectness(): the copy is one call further.
torch::Tensor total(const torch::Tensor &pred, torch::Device device);
// Builds its targets on the device.
torch::Tensor on_device(const torch::Tensor &pred, torch::Device device);
// Copies only when asked: the summary cannot tell when, so it says nothing.
torch::Tensor smoothed(const torch::Tensor &pred, torch::Device device,
                       bool smooth);
// Copies to the CPU: no transfer to the GPU.
torch::Tensor on_host(const torch::Tensor &pred);
// Rebuilds a constant table of class weights and copies it on every call.
torch::Tensor weighted(const torch::Tensor &pred, torch::Device device);
// Copies the values it is given: they may change from call to call.
torch::Tensor from_values(const torch::Tensor &pred,
                          const std::vector<float> &values,
                          torch::Device device);
} // namespace losses
