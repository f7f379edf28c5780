// Host tensors made and copied to the GPU in functions whose bodies another
// translation unit holds, read from the summaries that unit's analysis
// exported (libtorch-tidy.SummaryFile).
// RUN: rm -f %t.summaries.json
// RUN: %libtorch_tidy --quiet --no-cache --checks='-*,libtorch-tensor-created-off-device' --export-summaries=%t.summaries.json %S/Inputs/loss-elsewhere.cpp -- %mock_flags
// RUN: %check_libtorch_tidy %s libtorch-tensor-created-off-device %t -- \
// RUN:   '--config={CheckOptions: {libtorch-tidy.SummaryFile: %t.summaries.json}}' -- -I%S/Inputs

#include <torch/torch.h>

#include "loss-elsewhere.h"

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Device device) {
  model->to(device);
  for (int step = 0; step < 100; ++step) {
    auto out = model(x);
    auto loss = losses::objectness(out, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:17: warning: 'losses::objectness()', defined in another translation unit, makes a tensor in host memory and copies it to the GPU on every training step; pass the device to 'torch::ones' there to create it on the GPU [libtorch-tensor-created-off-device]
    // CHECK-MESSAGES: loss-elsewhere.cpp:7:49: note: 'torch::ones' makes a tensor in host memory and 'to(device)' copies it to the GPU on each call here
    auto sum = losses::total(out, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:16: warning: 'losses::total()', defined in another translation unit, makes a tensor in host memory
    // CHECK-MESSAGES: loss-elsewhere.cpp:12:10: note: 'losses::total' calls 'losses::objectness' here
    // CHECK-MESSAGES: loss-elsewhere.cpp:7:49: note: 'torch::ones' makes a tensor
    auto weighted = losses::weighted(out, device);
    // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'losses::weighted()', defined in another translation unit, rebuilds a tensor from constant host data and copies it to the GPU on every training step; make it on the device once there (a static or a member), and use that tensor [libtorch-tensor-created-off-device]
    // CHECK-MESSAGES: loss-elsewhere.cpp:33:48: note: 'torch::tensor' rebuilds a tensor from constant host data and 'to(device)' copies it to the GPU on each call here
    // Negatives: made on the device, copied under the callee's condition,
    // copied to the CPU, copied from values that may change.
    auto other = losses::on_device(out, device) +
                 losses::smoothed(out, device, step > 10) +
                 losses::on_host(out).to(device, /*non_blocking=*/true) +
                 losses::from_values(out, {0.5f, 0.5f}, device);
    optimizer.zero_grad();
    (loss + sum + weighted + other).backward();
    optimizer.step();
  }
}

// Once, before training: silent.
torch::Tensor baseline(torch::nn::Linear model, torch::Tensor x,
                       torch::Device device) {
  return losses::objectness(model(x), device);
}
