// A project header for the checks' tests of training steps defined in
// another translation unit (test/checks/*-step-elsewhere.cpp): the bodies
// are in Inputs/step-elsewhere-trainer.cpp, summarized by
// `libtorch-tidy --export-summaries`.
#pragma once

#include <torch/torch.h>

namespace trainer {
// Forward, loss, backward() and step(): one training step per call.
struct Trainer {
  torch::nn::Linear model{nullptr};
  torch::optim::SGD *optimizer = nullptr;
  torch::Tensor train_step(const torch::Tensor &x, const torch::Tensor &y);
  // Runs a whole epoch's step loop itself: a call is an epoch, not a step.
  float train_epoch(const std::vector<torch::Tensor> &xs,
                    const std::vector<torch::Tensor> &ys);
  // Forward and loss only.
  torch::Tensor evaluate(const torch::Tensor &x, const torch::Tensor &y);
};
// Stacks the batch's images on the device: its result needs no copy.
torch::Tensor stack_on(const std::vector<torch::Tensor> &images,
                       torch::Device device);
// Stacks them in host memory.
torch::Tensor stack(const std::vector<torch::Tensor> &images);
// Only the backward pass: one micro-batch of a window whose step() the
// caller runs, or not.
void accumulate_gradients(torch::nn::Linear model, const torch::Tensor &x,
                          const torch::Tensor &y);
} // namespace trainer
