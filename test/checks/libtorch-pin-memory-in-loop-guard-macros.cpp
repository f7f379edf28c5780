// RUN: %check_libtorch_tidy --variants plugin-mock,cli-mock %s libtorch-pin-memory-in-loop %t -- \
// RUN:   '--config={CheckOptions: {PeriodicGuardMacros: "EVERY_N_STEPS"}}' -- -I%S/Inputs

// PeriodicGuardMacros, set globally, reaches this check: a pin inside a
// guard macro whose condition we cannot read does not run on every step.

#include <torch/torch.h>

#include "every-n-steps.h"

void train(torch::nn::Linear model, torch::optim::SGD &optimizer,
           torch::Tensor x, torch::Device device) {
  for (int step = 0; step < 100; ++step) {
    auto data = x.pin_memory().to(device, /*non_blocking=*/true);
    // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'pin_memory()' on the training thread
    // CHECK-MESSAGES: :[[@LINE-2]]:19: note: to overlap copies with GPU work
    // CHECK-FIXES: {{^}}    auto data = x.to(device, /*non_blocking=*/true);{{$}}
    EVERY_N_STEPS(x.pin_memory().to(device, /*non_blocking=*/true));
    optimizer.zero_grad();
    auto loss = model(data).sum();
    loss.backward();
    optimizer.step();
  }
}
