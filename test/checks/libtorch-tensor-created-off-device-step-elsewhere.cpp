// Host tensors made and copied in a loop whose training step another
// translation unit defines, read from the summaries that unit's analysis
// exported (libtorch-tidy.SummaryFile).
// RUN: rm -f %t.summaries.json
// RUN: %libtorch_tidy --quiet --no-cache --checks='-*,libtorch-tensor-created-off-device' --export-summaries=%t.summaries.json %S/Inputs/step-elsewhere-trainer.cpp -- %mock_flags
// RUN: %check_libtorch_tidy %s libtorch-tensor-created-off-device %t -- \
// RUN:   '--config={CheckOptions: {libtorch-tidy.SummaryFile: %t.summaries.json}}' -- -I%S/Inputs

#include <torch/torch.h>

#include "step-elsewhere.h"

#include <vector>

void train(torch::Device device, trainer::Trainer &trainer, torch::Tensor x) {
  for (int step = 0; step < 1000; ++step) {
    auto labels = torch::ones({32, 1}).to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:40: warning: 'torch::ones' makes the tensor in host memory and '.to(device)' copies it to the GPU on every training step; pass the device to 'torch::ones' to create it there [libtorch-tensor-created-off-device]
    // CHECK-MESSAGES: :[[@LINE+2]]:13: note: 'trainer::Trainer::train_step()', defined in another translation unit, runs a training step: it calls backward() and an optimizer's step(), so this loop trains
    // CHECK-FIXES: {{^}}    auto labels = torch::ones({32, 1}, device);{{$}}
    trainer.train_step(x, labels);
  }
}

// Negatives: once per epoch (the step loop is the callee's), and a loop
// that only evaluates.
void epochs(torch::Device device, trainer::Trainer &trainer,
            const std::vector<torch::Tensor> &xs,
            const std::vector<torch::Tensor> &ys) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    auto weights = torch::ones({4}).to(device);
    trainer.train_epoch(xs, ys);
    (void)weights;
  }
}

float evaluate(torch::Device device, trainer::Trainer &trainer,
               const std::vector<torch::Tensor> &xs) {
  torch::NoGradGuard no_grad;
  float total = 0;
  for (const auto &x : xs)
    total += trainer.evaluate(x, torch::zeros({32, 1}, device)).item<float>();
  return total;
}
