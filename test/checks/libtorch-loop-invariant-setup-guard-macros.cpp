// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-loop-invariant-setup %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: setup inside a
// guard macro whose condition we cannot read does not run on every step.

#include <torch/torch.h>

#include "every-n-steps.h"

void train(torch::nn::Linear model, torch::Device device, torch::Tensor x) {
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int step = 0; step < 100; ++step) {
    model->to(device);
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: 'to()' on a module runs on every training step
    EVERY_N_STEPS(model->to(device));
    optimizer.zero_grad();
    auto loss = model(x.to(device)).sum();
    loss.backward();
    optimizer.step();
  }
}
