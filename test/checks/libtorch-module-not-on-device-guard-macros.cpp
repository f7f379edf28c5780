// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-module-not-on-device %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: a forward pass
// inside a guard macro whose condition we cannot read does not run on every
// step.

#include <torch/torch.h>

#include "every-n-steps.h"

void train(std::vector<torch::Tensor> &batches) {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA
                                                   : torch::kCPU);
  torch::nn::Linear model(4, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: module 'model' is never moved to the GPU
  // CHECK-FIXES: {{^}}  torch::nn::Linear model(4, 2);{{$}}
  // CHECK-FIXES-NEXT: {{^}}  model->to(device);{{$}}
  torch::nn::Linear probe(4, 2);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (auto &batch : batches) {
    auto data = batch.to(device, /*non_blocking=*/true);
    optimizer.zero_grad();
    auto loss = model->forward(data).sum();
    // CHECK-MESSAGES: :[[@LINE-1]]:17: note: forward pass on device inputs in the training loop
    EVERY_N_STEPS(probe->forward(data));
    loss.backward();
    optimizer.step();
  }
}
