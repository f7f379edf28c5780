// A project header for
// test/checks/libtorch-host-sync-in-loop-elsewhere-host-arguments.cpp:
// functions whose bodies are in Inputs/sync-elsewhere-lengths.cpp, another
// translation unit, that read values of the tensors they are given.
#pragma once

#include <torch/torch.h>

namespace text {
// Reads the longest length, from the lengths it is given.
int64_t longest(const torch::Tensor &lengths);
// Hands its lengths on to longest().
int64_t padded_size(const torch::Tensor &lengths, int64_t multiple);
// Reads a value computed from two tensors: where it lives depends on both.
int64_t shifted_first(const torch::Tensor &lengths,
                      const torch::Tensor &offsets);
// Reads its scores, and is given lengths it only passes on to the device.
float mean_score(const torch::Tensor &scores, const torch::Tensor &lengths);

struct Decoder : torch::nn::Module {
  Decoder();
  // Unrolls as many steps as the longest of its lengths.
  torch::Tensor forward(const torch::Tensor &features,
                        const torch::Tensor &lengths);
  torch::nn::Linear step{nullptr};
};
} // namespace text
