// Batches copied in a loop whose training step another translation unit
// defines, read from the summaries that unit's analysis exported
// (libtorch-tidy.SummaryFile).
// RUN: rm -f %t.summaries.json
// RUN: %libtorch_tidy --quiet --no-cache --checks='-*,libtorch-blocking-host-to-device-copy' --export-summaries=%t.summaries.json %S/Inputs/step-elsewhere-trainer.cpp -- %mock_flags
// RUN: %check_libtorch_tidy %s libtorch-blocking-host-to-device-copy %t -- \
// RUN:   '--config={CheckOptions: {libtorch-tidy.SummaryFile: %t.summaries.json}}' -- -I%S/Inputs

#include <torch/torch.h>

#include "step-elsewhere.h"

#include <vector>

void train(const std::vector<torch::Tensor> &xs,
           const std::vector<torch::Tensor> &ys, torch::Device device,
           trainer::Trainer &trainer) {
  for (size_t i = 0; i < xs.size(); ++i) {
    auto data = xs[i].to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:23: warning: 'to(device)' copies to the GPU synchronously: the training thread waits for the transfer on every step; pass '/*non_blocking=*/true' [libtorch-blocking-host-to-device-copy]
    // CHECK-MESSAGES: :[[@LINE+4]]:13: note: 'trainer::Trainer::train_step()', defined in another translation unit, runs a training step: it calls backward() and an optimizer's step(), so this loop trains
    // CHECK-MESSAGES: :[[@LINE-3]]:23: note: the copy overlaps with GPU work only from pinned memory
    // CHECK-FIXES: {{^}}    auto data = xs[i].to(device, /*non_blocking=*/true);{{$}}
    auto target = ys[i].to(device, /*non_blocking=*/true);
    trainer.train_step(data, target);
  }
}

// A tensor another unit's function returns: on the device (its summary
// says so), no copy to report; in host memory, a copy like any other.
void images(const std::vector<std::vector<torch::Tensor>> &batches,
            torch::Device device, trainer::Trainer &trainer, torch::Tensor y) {
  for (const auto &batch : batches) {
    trainer.train_step(trainer::stack_on(batch, device).to(device), y);
    trainer.train_step(trainer::stack(batch).to(device), y);
    // CHECK-MESSAGES: :[[@LINE-1]]:46: warning: 'to(device)' copies to the GPU synchronously
    // CHECK-MESSAGES: :[[@LINE-3]]:13: note: 'trainer::Trainer::train_step()', defined in another translation unit, runs a training step
    // CHECK-MESSAGES: :[[@LINE-3]]:46: note: the copy overlaps
    // CHECK-FIXES: {{^}}    trainer.train_step(trainer::stack(batch).to(device, /*non_blocking=*/true), y);{{$}}
  }
}

// Negative: each call runs an epoch's step loop in another unit, so the
// copy runs once per epoch.
void epochs(const torch::Tensor &scale, torch::Device device,
            trainer::Trainer &trainer, const std::vector<torch::Tensor> &xs,
            const std::vector<torch::Tensor> &ys) {
  for (int epoch = 0; epoch < 10; ++epoch) {
    const float loss = trainer.train_epoch(xs, ys);
    auto scaled = scale.to(device) * loss;
    (void)scaled;
  }
}
